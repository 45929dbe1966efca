"""V20 receipts as views: each die marked, each number of V20-14 explained in one line."""

from __future__ import annotations

from typing import Any

from rollbook.entries import RulesResult, V20DamageResult, V20SoakResult, V20TestResult
from rollbook.i18n import N_
from rollbook.render.base import DieView, Line, ReceiptView, t, table_rule_note, tn

OUTCOMES = {"success": N_("Success"), "failure": N_("Failure"), "botch": N_("Botch")}
# SPEC V20-15: the source names each difficulty (English from the book; fr and es in the catalogues)
DIFFICULTY_NAMES = {
    3: N_("Easy"),
    4: N_("Routine"),
    5: N_("Straightforward"),
    6: N_("Standard"),
    7: N_("Challenging"),
    8: N_("Difficult"),
    9: N_("Extremely difficult"),
}


def difficulty_name(difficulty: int, lang: str) -> str:
    """V20-15: the source's name of a difficulty 3–9 ("" for the others, which it does not name)."""
    name = DIFFICULTY_NAMES.get(difficulty)
    return t(name, lang) if name else ""


def difficulty_words(difficulty: int, lang: str) -> str:
    """A difficulty with its name: "6 (Standard)"; a difficulty the source does not name, alone."""
    name = difficulty_name(difficulty, lang)
    return f"{difficulty} ({name})" if name else str(difficulty)


DEGREES = {
    "marginal": N_("marginal"),
    "moderate": N_("moderate"),
    "complete": N_("complete"),
    "exceptional": N_("exceptional"),
    "phenomenal": N_("phenomenal"),
}
UNTRAINED = {
    "talent": N_("untrained Talent"),
    "skill": N_("untrained Skill"),
    "knowledge": N_("untrained Knowledge"),
}
TONES = {"success": "good", "failure": "bad", "botch": "botch"}


def dice_views(receipt: V20TestResult) -> tuple[DieView, ...]:
    """Mark successes, ones, and which successes the ones cancelled (plain successes go first,
    so a specialty 10 keeps its double unit as long as it can: V20-7, V20-8)."""
    difficulty = receipt.difficulty
    faces = receipt.faces
    to_cancel = receipt.cancelled
    cancelled_at: set[int] = set()
    order = sorted(
        (i for i, f in enumerate(faces) if f >= difficulty), key=lambda i: (faces[i] == 10, faces[i], i)
    )
    for index in order:
        if to_cancel <= 0:
            break
        cancelled_at.add(index)
        to_cancel -= 2 if receipt.specialty and faces[index] == 10 else 1
    ones_left = receipt.cancelled
    views = []
    for index, face in enumerate(faces):
        marks: list[str] = []
        if face >= difficulty:
            marks.append("success")
            if receipt.specialty and face == 10:
                marks.append("specialty")
            if index in cancelled_at:
                marks.append("cancelled")
        else:
            marks.append("failure")
        if face == 1:
            marks.append("one")
            if ones_left > 0:
                marks.append("cancelling")
                ones_left -= 1
        views.append(DieView(face=face, sides=10, marks=tuple(marks), index=index))
    return tuple(views)


def view(receipt: dict[str, Any], lang: str) -> ReceiptView:
    """Every kind of V20 rules receipt: a test (no ``kind``), a damage roll (V20-17), a soak (V20-16)."""
    kind = RulesResult.of(receipt).kind
    if kind == "damage":
        return damage_view(V20DamageResult.of(receipt), lang)
    if kind == "soak":
        return soak_view(V20SoakResult.of(receipt), lang)
    return test_view(V20TestResult.of(receipt), lang)


def _rolled_note(receipt: V20TestResult, lang: str) -> str:
    if receipt.reroll_limit:  # TR-2 v20.specialty_reroll_tens: the bound said (EXAMPLES item 10)
        return t(
            "table rule: each specialty 10 adds a die ({n} rerolled, at most {limit} in a chain)",
            lang,
            n=receipt.rerolled,
            limit=receipt.reroll_limit,
        )
    if receipt.specialty:
        return t("each specialty 10 counts two ({n})", lang, n=receipt.specialty_tens)
    # the note agrees with the count beside it: "1 dé à 9 ou plus", "2 dés à 9 ou plus"
    return tn(
        "die at or above {d}",
        "dice at or above {d}",
        receipt.rolled_successes,
        lang,
        d=receipt.difficulty,
    )


def test_view(receipt: V20TestResult, lang: str) -> ReceiptView:
    outcome = receipt.outcome
    label = t(OUTCOMES[outcome], lang)
    if receipt.degree:
        label = t("{outcome} ({degree})", lang, outcome=label, degree=t(DEGREES[receipt.degree], lang))
    notes = []
    if receipt.untrained_penalty:
        notes.append(
            t(
                "{what} +{n}",
                lang,
                what=t(UNTRAINED[receipt.untrained or ""], lang),
                n=receipt.untrained_penalty,
            )
        )
    if receipt.evaluated_difficulty != receipt.requested_difficulty + receipt.untrained_penalty:
        more = receipt.required - receipt.requested_required
        notes.append(tn("over 10: +{n} success required", "over 10: +{n} successes required", more, lang))
    if receipt.mode == "casual":
        notes.append(t("Casual halves {d} once, rounding down", lang, d=receipt.evaluated_difficulty))
    auto_note = ", ".join(
        t(name, lang) + f" {count}"
        for name, count in (
            (N_("Willpower"), receipt.willpower_success),
            (N_("powers"), receipt.power_successes),
        )
        if count
    )
    lines = [
        Line(t("Pool", lang), tn("{n} die", "{n} dice", receipt.pool, lang)),
        Line(
            t("Difficulty", lang),
            t(
                "requested {requested}, applied {applied}",
                lang,
                requested=difficulty_words(receipt.requested_difficulty, lang),
                applied=receipt.difficulty,
            ),
            "; ".join(notes),
        ),
        Line(t("Successes required", lang), str(receipt.required)),
        Line(
            t("Ones", lang),
            str(receipt.ones),
            # V20-8, or the table rule in force that replaces it (TR-1)
            table_rule_note(receipt.table_rules, "V20-8", lang)
            or t("Rule of One: each 1 cancels one rolled success", lang),
        ),
        Line(t("Rolled successes", lang), str(receipt.rolled_successes), _rolled_note(receipt, lang)),
        Line(t("Cancelled", lang), str(receipt.cancelled), t("never below zero", lang)),
        Line(t("Automatic successes", lang), str(receipt.auto_successes), auto_note),
        Line(
            t("Total", lang),
            str(receipt.successes),
            f"{receipt.rolled_successes} − {receipt.cancelled} + {receipt.auto_successes}",
        ),
    ]
    if outcome == "botch":
        lines.append(
            Line(t("Botch", lang), "", t("no die succeeded, a 1 showed, and no automatic success", lang))
        )
    elif receipt.rolled_successes and receipt.rolled_successes == receipt.cancelled and outcome == "failure":
        lines.append(
            Line(t("Failure", lang), "", t("successes cancelled to zero are a failure, not a botch", lang))
        )
    return ReceiptView(
        system="v20",
        system_name="V20",
        title=t("V20 roll", lang),
        outcome=outcome,
        outcome_label=label,
        tone=TONES[outcome],
        dice=dice_views(receipt),
        lines=tuple(lines),
    )


# --- V20-17 damage and V20-16 soak: difficulty 6, no botch, 1s cancel nothing ---------------------


def levels_text(levels: int, damage_type: str, lang: str) -> str:
    """ "3 levels of lethal damage", in the reader's language and plural form (one msgid pair a type)."""
    if damage_type == "bashing":
        return tn("{n} level of bashing damage", "{n} levels of bashing damage", levels, lang)
    if damage_type == "aggravated":
        return tn("{n} level of aggravated damage", "{n} levels of aggravated damage", levels, lang)
    return tn("{n} level of lethal damage", "{n} levels of lethal damage", levels, lang)


def level_dice(faces: list[int], difficulty: int) -> tuple[DieView, ...]:
    """Each die at or above the difficulty is one level; a 1 is shown and cancels nothing."""
    views = []
    for index, face in enumerate(faces):
        marks = ["success" if face >= difficulty else "failure"]
        if face == 1:
            marks.append("one")
        views.append(DieView(face=face, sides=10, marks=tuple(marks), index=index))
    return tuple(views)


def _level_rule(lang: str) -> str:
    return t("each die at or above 6 is one level; no botch, and 1s cancel nothing", lang)


def damage_view(receipt: V20DamageResult, lang: str) -> ReceiptView:
    levels, damage_type = receipt.levels, receipt.damage_type
    outcome = receipt.outcome or ("damage" if levels else "no_damage")
    label = levels_text(levels, damage_type, lang) if levels else t("No damage", lang)
    lines = (
        Line(
            t("Pool", lang),
            tn("{n} die", "{n} dice", receipt.pool, lang),
            t("weapon, plus one die per attack success beyond the first", lang),
        ),
        Line(t("Difficulty", lang), str(receipt.difficulty), _level_rule(lang)),
        Line(t("Damage", lang), levels_text(levels, damage_type, lang)),
    )
    return ReceiptView(
        system="v20",
        system_name="V20",
        title=t("V20 damage roll", lang),
        outcome=outcome,
        outcome_label=label,
        tone="good" if levels else "neutral",
        dice=level_dice(receipt.faces, receipt.difficulty),
        lines=lines,
    )


def soak_view(receipt: V20SoakResult, lang: str) -> ReceiptView:
    damage, damage_type = receipt.damage, receipt.damage_type
    taken, soaked = receipt.damage_taken, receipt.soaked
    outcome = receipt.outcome or ("damaged" if taken else "soaked")
    if taken:
        label = t("{levels} to mark on the health track", lang, levels=levels_text(taken, damage_type, lang))
    else:
        label = t("All damage soaked", lang)
    lines = (
        Line(t("Damage", lang), levels_text(damage, damage_type, lang)),
        Line(
            t("Soak pool", lang),
            tn("{n} die", "{n} dice", receipt.soak_pool, lang),
            t("Stamina + Fortitude; Fortitude alone against aggravated; mortals soak bashing only", lang),
        ),
        Line(t("Difficulty", lang), str(receipt.difficulty), _level_rule(lang)),
        Line(t("Soaked", lang), str(soaked)),
        Line(t("Damage taken", lang), str(taken), f"{damage} − {soaked}"),
    )
    return ReceiptView(
        system="v20",
        system_name="V20",
        title=t("V20 soak roll", lang),
        outcome=outcome,
        outcome_label=label,
        tone="bad" if taken else "good",
        dice=level_dice(receipt.faces, receipt.difficulty),
        lines=lines,
    )
