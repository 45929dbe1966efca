"""V5 receipts as views: Hunger dice apart, critical pairs linked, rerolls as history."""

from __future__ import annotations

from typing import Any

from rollbook.entries import V5Result
from rollbook.i18n import N_
from rollbook.render.base import DieView, Line, ReceiptView, numbered_dice, t, tn
from rollbook.systems.v5.rules import HUNGER_FRENZY_DIFFICULTY

OUTCOMES = {
    "critical": N_("Critical"),
    "messy_critical": N_("Messy Critical"),
    "success": N_("Success"),
    "failure": N_("Failure"),
    "total_failure": N_("Total Failure"),
    "bestial_failure": N_("Bestial Failure"),
}
TONES = {
    "critical": "critical",
    "messy_critical": "messy",
    "success": "good",
    "failure": "bad",
    "total_failure": "bad",
    "bestial_failure": "bestial",
}
KINDS = {
    "test": N_("V5 test"),
    "rouse": N_("Rouse check"),
    "willpower": N_("Willpower roll"),
    "remorse": N_("Remorse roll"),
    "frenzy": N_("Frenzy test"),
}


def dice_views(receipt: V5Result) -> tuple[DieView, ...]:
    normal, hunger = receipt.normal, receipt.hunger
    # Pair the tens in order (normal first, then Hunger) so a view can link each critical pair.
    ten_positions = [("normal", i) for i, f in enumerate(normal) if f == 10] + [
        ("hunger", i) for i, f in enumerate(hunger) if f == 10
    ]
    pair_of = {pos: n // 2 + 1 for n, pos in enumerate(ten_positions[: 2 * receipt.critical_pairs])}
    rerolled = {i for step in receipt.rerolls for i in step.dice}
    views = []
    for group, faces in (("normal", normal), ("hunger", hunger)):
        for index, face in enumerate(faces):
            marks = ["success" if face >= 6 else "failure"]
            if face == 10:
                marks.append("ten")
                if (group, index) in pair_of:
                    marks.append(f"pair:{pair_of[(group, index)]}")
                    if group == "hunger" and receipt.messy:
                        marks.append("messy")
            if face == 1:
                marks.append("one")
                if group == "hunger" and receipt.bestial:
                    marks.append("bestial")
            if group == "normal" and index in rerolled:
                marks.append("rerolled")
            views.append(DieView(face=face, sides=10, group=group, marks=tuple(marks), index=index))
    return tuple(views)


def view(plain: dict[str, Any], lang: str) -> ReceiptView:
    receipt = V5Result.of(plain)
    outcome = receipt.outcome
    kind = receipt.kind
    if kind == "rouse":
        gain = receipt.hunger_gain
        lines = [
            Line(
                t("Die", lang),
                ", ".join(str(f) for f in receipt.rouse_faces),
                t("Blood Potency reroll: the better die is kept", lang)
                if len(receipt.rouse_faces) > 1
                else "",
            ),
            Line(
                t("Hunger", lang),
                t(
                    "{before} → {after}",
                    lang,
                    before=receipt.hunger_level,
                    after=receipt.hunger_level + gain,
                ),
                t("6 or more keeps Hunger; otherwise Hunger +1", lang),
            ),
        ]
        if receipt.hunger_frenzy_risk:
            lines.append(
                Line(
                    t("Hunger 5", lang), "", t("Hunger cannot rise further: feed or risk hunger frenzy", lang)
                )
            )
            # V5-10 Book: the test the Storyteller may call (V5-14: the dice never make it)
            lines.append(
                Line(
                    t("Hunger frenzy test", lang),
                    t("difficulty {d}", lang, d=HUNGER_FRENZY_DIFFICULTY),
                    t("offered: the Storyteller may call it", lang),
                )
            )
        return ReceiptView(
            system="v5",
            system_name="V5",
            title=t(KINDS[kind], lang),
            outcome=outcome,
            outcome_label=t(OUTCOMES[outcome], lang),
            tone=TONES[outcome],
            dice=dice_views(receipt),
            lines=tuple(lines),
        )
    count = sum(1 for f in receipt.normal + receipt.hunger if f >= 6)
    lines = [
        # each count agrees with its own number: "3 dados: 1 normal, 2 de Hambre"
        Line(
            t("Pool", lang),
            tn(
                "{n} die: {normal}, {hunger}",
                "{n} dice: {normal}, {hunger}",
                receipt.pool,
                lang,
                normal=tn("{n} normal", "{n} normal", len(receipt.normal), lang),
                hunger=tn("{n} Hunger", "{n} Hunger", len(receipt.hunger), lang),
            ),
            t("Hunger {h} replaces dice, never adds", lang, h=receipt.hunger_level) if receipt.hunger else "",
        ),
        Line(
            t("Difficulty", lang),
            str(receipt.difficulty),
            tn("success needed", "successes needed", receipt.difficulty, lang),
        ),
        Line(
            t("Successes", lang),
            str(receipt.successes),
            tn(
                "{n} die at 6+, plus 2 for each pair of 10s ({pairs})",
                "{n} dice at 6+, plus 2 for each pair of 10s ({pairs})",
                count,
                lang,
                pairs=receipt.critical_pairs,
            ),
        ),
        Line(t("Margin", lang), f"{receipt.margin:+d}", t("= successes − difficulty", lang)),
    ]
    if receipt.messy:
        lines.append(Line(t("Messy Critical", lang), "", t("a Hunger 10 is part of the critical", lang)))
    if receipt.bestial:
        lines.append(
            Line(t("Bestial Failure", lang), "", t("the roll failed with a Hunger die showing 1", lang))
        )
    history = tuple(
        Line(
            t("Willpower reroll {n}", lang, n=n),
            tn(
                "die {dice}",
                "dice {dice}",
                len(step.dice),
                lang,
                dice=numbered_dice(
                    step.dice,
                    [f"{old} → {new}" for old, new in zip(step.old, step.new, strict=False)],
                ),
            ),
        )
        for n, step in enumerate(receipt.rerolls, start=1)
    )
    return ReceiptView(
        system="v5",
        system_name="V5",
        title=t(KINDS[kind], lang),
        outcome=outcome,
        outcome_label=t(OUTCOMES[outcome], lang),
        tone=TONES[outcome],
        dice=dice_views(receipt),
        lines=tuple(lines),
        history=history,
    )
