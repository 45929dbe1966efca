"""Roll-under receipts as views: the kept d20 (the other one dropped), the target, the cards."""

from __future__ import annotations

from typing import Any

from rollbook.entries import ROLLUNDER_RESULT, RollUnderCheckResult, RollUnderOpposedResult
from rollbook.i18n import N_
from rollbook.render.base import DieView, Line, ReceiptView, t, tn

OUTCOMES = {
    "critical_success": N_("Critical success"),
    "success": N_("Success"),
    "failure": N_("Failure"),
    "critical_failure": N_("Critical failure"),
}
TONES = {"critical_success": "critical", "success": "good", "failure": "bad", "critical_failure": "botch"}
TITLES = {"check": N_("Roll-under check"), "opposed": N_("Opposed roll")}
KEEP_NOTES = {
    "single": N_("one d20"),
    "lower": N_("advantage: the lower of two d20"),
    "higher": N_("disadvantage: the higher of two d20"),
}


def _success_mark(ok: bool) -> str:
    return "success" if ok else "failure"


def dice_views(receipt: RollUnderCheckResult | RollUnderOpposedResult) -> tuple[DieView, ...]:
    faces = receipt.faces
    if isinstance(receipt, RollUnderOpposedResult):
        views: list[DieView] = []
        ok = receipt.success
        for index, (face, sides) in enumerate(zip(faces, receipt.sizes, strict=False)):
            marks: list[str] = [_success_mark(ok)]
            if face == 1:
                marks.append("one")
            if face == sides:
                marks.append("max")
            views.append(DieView(face=face, sides=sides, group="normal", marks=tuple(marks), index=index))
        return tuple(views)
    if not faces or receipt.kept is None:
        return ()
    kept_index = faces.index(receipt.kept)
    views = []
    order = [kept_index] + [i for i in range(len(faces)) if i != kept_index]  # the kept die first
    for index in order:
        face = faces[index]
        marks = []
        if face == 1:
            marks.append("one")
        if face == 20:
            marks.append("twenty")
        if index == kept_index:
            views.append(
                DieView(
                    face=face,
                    sides=20,
                    group="normal",
                    marks=(_success_mark(receipt.success), "kept", *marks),
                    index=index,
                )
            )
        else:
            views.append(
                DieView(face=face, sides=20, group="dropped", marks=("dropped", *marks), index=index)
            )
    return tuple(views)


def _task_line(receipt: RollUnderCheckResult | RollUnderOpposedResult, lang: str) -> Line | None:
    if receipt.task == "absurd":
        return Line(
            t("Absurd task", lang), t("not rolled", lang), t("the attempt's time is spent and it fails", lang)
        )
    if receipt.task == "trivial":
        return Line(t("Trivial task", lang), t("not rolled", lang), t("no roll needed: it succeeds", lang))
    return None


def view(plain: dict[str, Any], lang: str) -> ReceiptView:
    receipt = ROLLUNDER_RESULT.validate_python(plain)
    kind = receipt.kind
    outcome = receipt.outcome
    lines = [Line(t("Declared action", lang), receipt.action, t("described before the roll", lang))]
    task = _task_line(receipt, lang)
    if task:
        lines.append(task)
    if isinstance(receipt, RollUnderCheckResult):
        lines += [
            Line(t("Level", lang), str(receipt.level)),
            Line(t("Bonus to the level", lang), f"+{receipt.bonus}", t("for this roll only", lang)),
            Line(t("Malus to the level", lang), f"−{receipt.malus}", t("for this roll only", lang)),
            Line(t("Target", lang), str(receipt.target), t("level + bonus − malus", lang)),
        ]
        if receipt.rolled:
            if receipt.advantage and receipt.disadvantage:
                lines.append(
                    Line(t("Advantage and disadvantage", lang), "", t("they cancel out: one d20", lang))
                )
            lines.append(Line(t("Kept die", lang), str(receipt.kept), t(KEEP_NOTES[receipt.keep], lang)))
            if receipt.dropped:
                lines.append(Line(t("Dropped die", lang), ", ".join(map(str, receipt.dropped))))
    else:
        lines.append(Line(t("Dice", lang), receipt.dice))
        lines.append(
            Line(t("Threshold", lang), str(receipt.threshold), t("the total must not exceed it", lang))
        )
        if receipt.rolled:
            lines.append(Line(t("Total", lang), str(receipt.total), " + ".join(map(str, receipt.faces))))
    if receipt.rolled:
        if outcome == "critical_success":
            note = t("every die shows 1", lang) if kind == "opposed" else t("a 1 is a critical success", lang)
            lines.append(Line(t("Critical success", lang), "", note))
        elif outcome == "critical_failure":
            note = (
                t("every die shows its highest face", lang)
                if kind == "opposed"
                else t("a 20 is a critical failure", lang)
            )
            lines.append(Line(t("Critical failure", lang), "", note))
    if receipt.cards:
        count = len(receipt.cards)  # "Carte Coup de pouce jouée", not "Cartes … jouées"
        lines.append(
            Line(
                t("Card", lang) if count == 1 else t("Cards", lang),
                ", ".join(receipt.cards),
                tn("played before the roll", "played before the roll", count, lang),
            )
        )
    return ReceiptView(
        system="rollunder",
        system_name=t("Roll-under d20", lang),
        title=t(TITLES[kind], lang),
        outcome=outcome,
        outcome_label=t(OUTCOMES[outcome], lang),
        tone=TONES[outcome],
        dice=dice_views(receipt),
        lines=tuple(lines),
    )
