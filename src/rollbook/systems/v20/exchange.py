"""V20's part of the combat chain's presentation (SPEC V20-17, V20-20, V20-21; ``present.exchange``):
the damage step's weapons, the steps' labels (soak, damage, dodge), a step's numbers beside its dice,
the exchange's odds in words and what was expected beside what happened."""

from __future__ import annotations

from typing import Any

from rollbook import play
from rollbook.entries import RollReceipt, V20DamageResult
from rollbook.i18n import N_, number_text, translate, translations
from rollbook.present import labels
from rollbook.present.exchange_base import (
    OUTCOME_WORDS,
    ExchangeOddsView,
    ExpectedView,
    OddsWords,
    Offer,
    odds_words,
    soaked_words,
)
from rollbook.systems.v20.sheet import SYSTEM

ROLL_KIND_WORDS = {"damage": N_("Damage roll")}  # the roll, not the change "damage" (take damage)
WOUND_WORDS = {
    "unhurt": N_("Unhurt"),
    "bruised": N_("Bruised"),
    "hurt": N_("Hurt"),
    "injured": N_("Injured"),
    "wounded": N_("Wounded"),
    "mauled": N_("Mauled"),
    "crippled": N_("Crippled"),
    "incapacitated": N_("Incapacitated"),
    "torpor": N_("Torpor"),
    "final_death": N_("Final Death"),
    "dead": N_("Dead"),
}


def attack_weapons(kind: str, receipt: dict) -> tuple[str, ...] | None:
    """The kinds of weapon a damage step may name, from the attack's Ability (V20-17: ``systems.v20.play``'s
    ``COMBAT_ABILITIES``); () when the test was no attack; None for any other step."""
    if kind != "damage":
        return None
    from rollbook.systems.v20.play import COMBAT_ABILITIES, attack_ability_of

    try:
        return COMBAT_ABILITIES[attack_ability_of(receipt)]
    except play.RuleError:
        return ()


def fill_offer(
    offer: Offer, kind: str, receipt: dict, character: Any, allowed: tuple[str, ...] | None, lang: str
) -> None:
    if kind != "damage" or character is None or not character.sheet:
        return
    # the attack's weapons only, the first of them chosen (a knife after a Melee attack, not "unarmed")
    offer.weapons = ([("", translate(N_("unarmed"), lang))] if "unarmed" in (allowed or ()) else []) + [
        (w["name"], w["name"])
        for w in character.sheet.get("weapons") or []
        if allowed is None or w.get("kind", "hand_to_hand") in allowed
    ]
    from rollbook.systems.v20.play import attack_weapon_of

    declared = attack_weapon_of(receipt)  # through a dodge too (V20-20)
    if declared:  # V20-17: the attack was made with this weapon: its damage roll is that weapon's
        offer.weapons = [(declared, declared)]


def step_label(mode: str, kind: str, takes: dict, receipt: dict, character: Any, lang: str) -> str | None:
    if kind == "soak":
        levels, damage_type = takes["levels"], takes.get("damage_type") or "bashing"
        if character is not None and character.sheet:  # the defender's own soak (a bullet bashes a vampire)
            try:
                shown = play.preview(
                    SYSTEM, character.sheet, {"kind": "soak"}, mode=mode, role="storyteller", follows=receipt
                )["request"]
                levels, damage_type = shown["damage"], shown["damage_type"]
            except play.RuleError:
                pass
        return translate(
            N_("Soak {levels} {damage_type}"),
            lang,
            levels=levels,
            damage_type=labels.choice(damage_type, lang, "damage_type"),
        )
    if kind == "damage":
        return translate(N_("Roll damage"), lang)
    if kind == "dodge":  # V20-20: each dodge success takes one of these away
        n = takes["successes"]
        return (
            translations(lang)
            .ngettext("Dodge ({n} attack success)", "Dodge ({n} attack successes)", n)
            .format(n=n)
        )
    return None


def roll_notes(receipt: dict, lang: str) -> list[str]:
    """A step's numbers beside its dice: the attack successes a dodge left (V20-20), the damage levels
    Potence added without dice (V20-21)."""
    roll = RollReceipt.of(receipt)
    attack = roll.attack
    if roll.kind == "dodge" and attack is not None:
        return [
            translate(
                N_("Attack successes: {successes}, left after the dodge: {left}"),
                lang,
                successes=attack.get("successes"),
                left=attack.get("left"),
            )
        ]
    if roll.kind == "damage" and isinstance(roll.result, dict):
        potence = (V20DamageResult.of(roll.result).auto_sources or {}).get("potence")
        if potence:
            return [translate(N_("Potence: {n} automatic levels"), lang, n=potence)]
    return []


def expected_levels(odds: dict, lang: str) -> list[str]:
    from fractions import Fraction

    levels = number_text(Fraction(odds["expected_levels"]), lang, 2)
    return [translate(N_("Health levels expected: {n}"), lang, n=levels)]


# The exchange's odds in words: who is out of the fight, the wound levels after, the soak.
ODDS_WORDS = OddsWords(
    headline=N_("Against {name}: hits {hit}, out of the fight {down}"),
    worst="down",
    after="wounds",
    label=lambda code, lang: translate(WOUND_WORDS.get(code, code), lang),
    soak=N_("{name} soaks {n} dice against {damage_type}."),
    soak_params=lambda defender, odds, lang: {
        "n": defender["soak_pool"],
        "damage_type": labels.choice(odds["damage_type"], lang, "damage_type"),
    },
    notes=expected_levels,
)


def odds_view(answer: dict, target: str, lang: str, view: ExchangeOddsView) -> None:
    odds_words(ODDS_WORDS, answer, target, lang, view)


def expected(attack: dict, steps: dict, lang: str, view: ExpectedView) -> bool:
    """The odds the attack's numbers gave (V20-15, V20-17, V20-20, V20-21) and what happened; False
    when the chain opens with no test."""
    from rollbook.play.common import request_from_plain
    from rollbook.present.preview import percent
    from rollbook.systems.v20 import odds_exchange as exchange_v20
    from rollbook.systems.v20.odds import v20_odds
    from rollbook.systems.v20.rules import V20Request

    if attack.get("kind") != "test":
        return False
    request = request_from_plain(V20Request, attack["request"])
    dodge, damage, soak = steps.get("dodge"), steps.get("damage"), steps.get("soak")
    if damage is None or soak is None:
        hit = v20_odds(request).success
        view.expected.append(translate(N_("hit {p}"), lang, p=percent(hit, lang)))
    else:
        weapon = damage["pool"]["weapon"]
        strength = next((p["rating"] for p in damage["pool"]["parts"] if p.get("trait") == "strength"), 0)
        shown = soak["request"]
        result = exchange_v20.exchange_odds(
            request,
            exchange_v20.Weapon(
                weapon["damage"],
                weapon["damage_type"],
                firearm=weapon["kind"] == "firearm",
                strength=strength,
                aimed_at_head=bool(damage["action"].get("aimed_at_head")),
                potence=damage["request"].get("potence", 0),  # V20-21
            ),
            exchange_v20.Defender(
                stamina=shown["stamina"],
                fortitude=shown["fortitude"],
                vampire=shown["vampire"],
                # V20-20: the dodge the defender rolled, as the odds roll it
                dodge=None if dodge is None else request_from_plain(V20Request, dodge["request"]),
            ),
        )
        view.expected += [
            translate(N_("hit {p}"), lang, p=percent(result.hit, lang)),
            translate(N_("wounded {p}"), lang, p=percent(result.outcomes.probability("wounded"), lang)),
            translate(N_("{n} levels on average"), lang, n=number_text(result.expected_levels, lang, 2)),
        ]
    view.happened = happened(attack, dodge, damage, soak, lang)
    return True


def happened(attack: dict, dodge: dict | None, damage: dict | None, soak: dict | None, lang: str) -> str:
    outcome = attack["result"]["outcome"]
    if outcome == "botch":
        return translate(OUTCOME_WORDS["botch"], lang)
    if outcome != "success":
        return translate(OUTCOME_WORDS["miss"], lang)
    if dodge is not None and not dodge["attack"]["left"]:  # V20-20: no success left, no damage roll
        return translate(OUTCOME_WORDS["dodged"], lang)
    if soak is not None:
        return soaked_words(soak["result"]["damage_taken"], lang)
    if damage is not None and not damage["result"]["levels"]:
        return translate(OUTCOME_WORDS["soaked"], lang)
    return translate(N_("a hit, the exchange goes on"), lang)
