"""Tiers receipts as views: the first die, the critical chain as rerolls, every tier explained."""

from __future__ import annotations

from typing import Any

from rollbook.entries import TIERS_RESULT, TiersDodgeResult, TiersSkillResult, TiersSoakResult
from rollbook.i18n import N_
from rollbook.render.base import DieView, Line, ReceiptView, t, tn

Result = TiersSkillResult | TiersDodgeResult | TiersSoakResult
TITLES = {"skill": N_("Tiers skill roll"), "dodge": N_("Tiers dodge roll"), "soak": N_("Tiers soak roll")}


def dice_views(receipt: Result) -> tuple[DieView, ...]:
    """The first die (marked critical on a 1), then each critical reroll (T-2): a reroll at or under
    the effective value adds a tier; a reroll showing 1 asks for another."""
    effective = receipt.effective
    first = receipt.first_face
    first_marks = ["success" if receipt.base_tier >= 0 else "failure"]
    if first == 1:
        first_marks += ["one", "critical"]
    views = [DieView(face=first, sides=10, group="normal", marks=tuple(first_marks), index=0)]
    for index, face in enumerate(receipt.rerolls, start=1):
        marks = [
            "rerolled",
            "success" if face <= effective else "failure",
            "adds_tier" if face <= effective else "no_tier",
        ]
        if face == 1:
            marks += ["one", "critical"]
        views.append(DieView(face=face, sides=10, group="reroll", marks=tuple(marks), index=index))
    return tuple(views)


def _paren(number: int) -> str:
    """A number as the right-hand side of a subtraction: −3 reads (−3)."""
    return f"({number})" if number < 0 else str(number)


def _sum(receipt: Result) -> str:
    """The tier after criticals (T-2): base tier + critical tiers (+ the lift of the T-2 Reading)."""
    text = f"{receipt.base_tier} + {receipt.critical_tiers}"
    lift = receipt.critical_lift
    return f"{text} + {lift}" if lift else text


def _outcome_label(receipt: Result, lang: str) -> str:
    if isinstance(receipt, TiersSkillResult):
        if receipt.success:
            return t("Success at tier {tier}", lang, tier=receipt.tier)
        return t("Failure at tier {tier}", lang, tier=receipt.tier)
    if isinstance(receipt, TiersDodgeResult):
        return t("Dodged", lang) if receipt.dodged else t("Hit: make a soak roll", lang)
    if receipt.damage == 0:
        return t("No damage", lang)
    return tn("{n} wound level", "{n} wound levels", receipt.damage, lang)  # not "nivel(es)"


def _tone(receipt: Result) -> str:
    if not receipt.success:
        return "bad"
    return "critical" if receipt.critical else "good"


def _chain_lines(receipt: Result, effective: int, lang: str) -> list[Line]:
    first = receipt.first_face
    lines = [
        Line(
            t("First die", lang),
            str(first),
            t("a 1 is a critical success: roll again", lang) if receipt.critical else "",
        ),
        Line(t("Base tier", lang), str(receipt.base_tier), f"{effective} − {_paren(first)}"),
    ]
    if receipt.critical:
        lines.append(
            Line(
                t("Critical tiers", lang),
                f"+{receipt.critical_tiers}",
                t("each reroll at or under {effective} adds one tier", lang, effective=effective),
            )
        )
    if receipt.critical_lift:  # T-2 Reading
        lines.append(
            Line(
                t("Critical success", lang),
                f"+{receipt.critical_lift}",
                t("a critical is a success: tier 0 at least", lang),
            )
        )
    return lines


def _history(receipt: Result, effective: int, lang: str) -> tuple[Line, ...]:
    history = []
    for n, face in enumerate(receipt.rerolls, start=1):
        if face <= effective:
            note = t("at or under {effective}: +1 tier", lang, effective=effective)
        else:
            note = t("over {effective}: no tier", lang, effective=effective)
        if face == 1:
            note = t("{note}; another 1: roll again", lang, note=note)
        history.append(Line(t("Critical reroll {n}", lang, n=n), str(face), note))
    return tuple(history)


def view(plain: dict[str, Any], lang: str) -> ReceiptView:
    receipt = TIERS_RESULT.validate_python(plain)
    kind = receipt.kind
    lines: list[Line] = []
    if isinstance(receipt, TiersSoakResult):
        effective = receipt.soak_value
        lines += [
            Line(t("Endurance score", lang), str(receipt.endurance)),
            Line(t("Armour", lang), str(receipt.armor), t("of the body location hit", lang)),
            Line(t("Soak value", lang), str(effective), t("Endurance + armour", lang)),
        ]
        lines += _chain_lines(receipt, effective, lang)
        attack, soak = receipt.attack_tier, receipt.soak_tier
        lines += [
            Line(t("Soak tier", lang), str(soak), _sum(receipt)),
            Line(t("Attack tier", lang), str(attack)),
            Line(
                t("Damage", lang),
                str(receipt.damage),
                t("soak tier over the attack tier: no damage", lang)
                if soak > attack
                else t("{attack} − {soak} = wound levels", lang, attack=attack, soak=_paren(soak)),
            ),
        ]
    else:
        effective = receipt.effective_skill
        lines += [
            Line(t("Skill", lang), str(receipt.skill)),
            Line(t("Weapon bonus", lang), f"+{receipt.bonus}"),
            Line(t("Effective skill", lang), str(effective), t("skill + weapon bonus", lang)),
        ]
        lines += _chain_lines(receipt, effective, lang)
        if isinstance(receipt, TiersSkillResult):
            if receipt.bullets is not None:
                lines.append(
                    Line(t("Tier before bullets", lang), str(receipt.tier_before_bullets), _sum(receipt))
                )
                lines.append(
                    Line(
                        t("Bullets", lang),
                        f"×{receipt.multiplier}",
                        t("declared before the roll; the tier is multiplied by the bullets fired", lang),
                    )
                )
                note = f"{receipt.tier_before_bullets} × {receipt.multiplier}"
            else:
                note = _sum(receipt)
            lines.append(Line(t("Tier", lang), str(receipt.tier), note))
        else:
            lines += [
                Line(t("Tier", lang), str(receipt.tier), _sum(receipt)),
                Line(
                    t("Attack tier", lang),
                    str(receipt.attack_tier),
                    t("the dodge must be strictly greater", lang),
                ),
            ]
    return ReceiptView(
        system="tiers",
        system_name=t("Tiers", lang),
        title=t(TITLES[kind], lang),
        outcome=receipt.outcome,
        outcome_label=_outcome_label(receipt, lang),
        tone=_tone(receipt),
        dice=dice_views(receipt),
        lines=tuple(lines),
        history=_history(receipt, effective, lang),
    )
