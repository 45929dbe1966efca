"""V20 receipts as views: each die marked, each number of V20-14 explained in one line."""

from __future__ import annotations

from rollbook.i18n import N_
from rollbook.render import DieView, Line, ReceiptView, t, tn

OUTCOMES = {"success": N_("Success"), "failure": N_("Failure"), "botch": N_("Botch")}
DEGREES = {
    "marginal": N_("marginal"),
    "moderate": N_("moderate"),
    "complete": N_("complete"),
    "exceptional": N_("exceptional"),
    "phenomenal": N_("phenomenal"),
}
UNTRAINED = {"talent": N_("untrained Talent"), "skill": N_("untrained Skill"), "knowledge": N_("untrained Knowledge")}
TONES = {"success": "good", "failure": "bad", "botch": "botch"}


def dice_views(receipt: dict) -> tuple[DieView, ...]:
    """Mark successes, ones, and which successes the ones cancelled (plain successes go first,
    so a specialty 10 keeps its double unit as long as it can: V20-7, V20-8)."""
    difficulty = receipt["difficulty"]
    faces = receipt["faces"]
    to_cancel = receipt["cancelled"]
    cancelled_at: set[int] = set()
    order = sorted((i for i, f in enumerate(faces) if f >= difficulty), key=lambda i: (faces[i] == 10, faces[i], i))
    for index in order:
        if to_cancel <= 0:
            break
        cancelled_at.add(index)
        to_cancel -= 2 if receipt["specialty"] and faces[index] == 10 else 1
    ones_left = receipt["cancelled"]
    views = []
    for index, face in enumerate(faces):
        marks: list[str] = []
        if face >= difficulty:
            marks.append("success")
            if receipt["specialty"] and face == 10:
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


def view(receipt: dict, lang: str) -> ReceiptView:
    outcome = receipt["outcome"]
    label = t(OUTCOMES[outcome], lang)
    if receipt.get("degree"):
        label = t("{outcome} ({degree})", lang, outcome=label, degree=t(DEGREES[receipt["degree"]], lang))
    notes = []
    if receipt["untrained_penalty"]:
        notes.append(t("{what} +{n}", lang, what=t(UNTRAINED[receipt["untrained"]], lang), n=receipt["untrained_penalty"]))
    if receipt["evaluated_difficulty"] != receipt["requested_difficulty"] + receipt["untrained_penalty"]:
        notes.append(t("over 10: +{n} required", lang, n=receipt["required"] - receipt["requested_required"]))
    if receipt["mode"] == "casual":
        notes.append(t("Casual halves {d} once, rounding down", lang, d=receipt["evaluated_difficulty"]))
    auto_note = ", ".join(
        t(name, lang) + f" {count}" for name, count in (
            (N_("Willpower"), receipt["willpower_success"]), (N_("powers"), receipt["power_successes"])) if count
    )
    lines = [
        Line(t("Pool", lang), tn("{n} die", "{n} dice", receipt["pool"], lang)),
        Line(t("Difficulty", lang), t("requested {requested}, applied {applied}", lang,
                                      requested=receipt["requested_difficulty"], applied=receipt["difficulty"]),
             "; ".join(notes)),
        Line(t("Successes required", lang), str(receipt["required"])),
        Line(t("Ones", lang), str(receipt["ones"]), t("Rule of One: each 1 cancels one rolled success", lang)),
        Line(t("Rolled successes", lang), str(receipt["rolled_successes"]),
             t("each specialty 10 counts two ({n})", lang, n=receipt["specialty_tens"]) if receipt["specialty"] else
             t("dice at or above {d}", lang, d=receipt["difficulty"])),
        Line(t("Cancelled", lang), str(receipt["cancelled"]), t("never below zero", lang)),
        Line(t("Automatic successes", lang), str(receipt["auto_successes"]), auto_note),
        Line(t("Total", lang), str(receipt["successes"]),
             f"{receipt['rolled_successes']} − {receipt['cancelled']} + {receipt['auto_successes']}"),
    ]
    if outcome == "botch":
        lines.append(Line(t("Botch", lang), "", t("no die succeeded, a 1 showed, and no automatic success", lang)))
    elif receipt["rolled_successes"] and receipt["rolled_successes"] == receipt["cancelled"] and outcome == "failure":
        lines.append(Line(t("Failure", lang), "", t("successes cancelled to zero are a failure, not a botch", lang)))
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
