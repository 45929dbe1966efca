"""The combat chain on the pages (SPEC V20-17, T-4, T-5; ``server.usecases.exchange``): an exchange
shows as one card, the attack's, with its later steps (dodge, damage, soak, the wounds in their
effects) inside it; the next step is offered as a button to whoever may take it (the attacker's
player rolls damage, the defender's player — or the Storyteller for an NPC — sees "Soak 4 lethal").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rollbook import play
from rollbook.i18n import N_, number_text, translate, translations
from rollbook.present import labels
from rollbook.server.usecases.exchange import chained_kinds, next_steps

# Every page, and every member's redraw of the live feed, shows the same exchange cards, and a Tiers
# card's expected odds are a pure function of numbers its receipts froze: each distinct
# exchange is worked out once per process (some 25 ms of exact Fraction arithmetic), not on every
# render of every card. Bounded; nothing to invalidate: the key is the odds function and all its
# arguments (frozen, hashable requests), and a stored receipt never changes. A V20 exchange (under a
# millisecond; its Defender holds a mapping, so hashes by identity) is worked out each time.
ODDS_KEPT = 512


@lru_cache(maxsize=ODDS_KEPT)
def odds_once(odds: Callable[..., Any], *args: Any) -> Any:
    """``odds(*args)``, kept for the next card that asks the same."""
    return odds(*args)


# The roll kinds whose label differs from the change of the same name ("damage": take damage).
ROLL_KINDS = {"damage": N_("Damage roll")}
LOCATIONS = ("head", "torso", "arms", "legs")
ROLL_ENTRY_KINDS = ("roll", "reroll")


def roll_kind(system: str, kind: str, lang: str) -> str:
    """A kind of roll in words (the sheet's tabs, a card's title)."""
    if kind in ROLL_KINDS and system == "v20":
        return translate(ROLL_KINDS[kind], lang)
    return labels.kind(system, kind, lang)


def attack_kinds(system: str) -> frozenset[str]:
    """The kinds of roll that open an exchange (a step may follow them; they follow nothing): V20 test, Tiers skill."""
    chains = play.system_module(system).CHAINS
    return chained_kinds(system) - frozenset(chains)


def target_choices(system: str, kind: str, attacker: int, characters: list) -> list[tuple[int, str]]:
    """The roll form's targets for an attack: every other character of the chronicle (names are public)."""
    if kind not in attack_kinds(system):
        return []
    return [(c.id, c.name) for c in characters if c.id != attacker]


def root_of(entry: dict) -> int | None:
    """The seq of the exchange's first step, for an entry of a chain (None: not part of one)."""
    receipt = entry.get("receipt")
    if not isinstance(receipt, dict) or entry.get("redacted"):
        return None
    stored = receipt.get("exchange")
    if isinstance(stored, dict):
        return stored.get("opened") or entry["seq"]
    return None


@dataclass
class Offer:
    """A next step as a button: posted to ``/chronicles/{c}/entries/{seq}/follow``."""

    seq: int
    kind: str
    label: str
    character: int | None  # the character who takes it (None: the viewer picks among ``choices``)
    choices: list[tuple[int, str]] = field(default_factory=list)
    weapons: list[tuple[str, str]] = field(default_factory=list)  # V20 damage: ("", unarmed), (name, name)
    locations: list[tuple[str, str]] = field(default_factory=list)  # Tiers soak: body locations

    @property
    def dom_id(self) -> str:
        return f"follow-{self.seq}-{self.kind}"


def _may_act(viewer, character) -> bool:
    return character is not None and (viewer.storyteller or character.owner == viewer.member_id)


def offers(system: str, mode: str, entry: dict, viewer, characters: list) -> list[Offer]:
    """The next steps of a chain after ``entry`` this viewer may take (``characters``: the table's
    rows, with the sheets the viewer may open)."""
    rows = {c.id: c for c in characters}
    lang = viewer.lang
    out = []
    receipt = entry.get("receipt") or {}
    for step in next_steps(system, entry):
        kind, takes = step["kind"], step["takes"]
        character = rows.get(step["character"]) if step["character"] is not None else None
        choices: list[tuple[int, str]] = []
        if step["character"] is None:  # no target named: the viewer's characters other than the attacker
            attacker = (receipt.get("exchange") or {}).get("attacker", entry.get("character"))
            choices = [(c.id, c.name) for c in characters if c.id != attacker and _may_act(viewer, c)]
            if not choices:
                continue
        elif not _may_act(viewer, character):
            continue
        allowed = _attack_weapons(system, kind, receipt)
        if allowed is not None and not allowed:
            continue  # "Roll damage" only after an attack (Brawl, Melee, Firearms…), not Stealth
        offer = Offer(
            entry["seq"],
            kind,
            _label(system, mode, kind, takes, receipt, character, lang),
            step["character"],
            choices,
        )
        if system == "v20" and kind == "damage" and character is not None and character.sheet:
            # the attack's weapons only, the first of them chosen (a knife after a Melee attack, not "unarmed")
            offer.weapons = (
                [("", translate(N_("unarmed"), lang))] if "unarmed" in (allowed or ()) else []
            ) + [
                (w["name"], w["name"])
                for w in character.sheet.get("weapons") or []
                if allowed is None or w.get("kind", "hand_to_hand") in allowed
            ]
            from rollbook.play.v20 import attack_weapon_of

            declared = attack_weapon_of(receipt)  # through a dodge too (V20-20)
            if declared:  # V20-17: the attack was made with this weapon: its damage roll is that weapon's
                offer.weapons = [(declared, declared)]
        if system == "tiers" and kind == "soak":
            armour = list(((character.sheet or {}).get("armor") or {}) if character is not None else {})
            names = armour + [name for name in LOCATIONS if name not in armour]
            offer.locations = [(name, labels.trait(name, lang)) for name in names]
        out.append(offer)
    return out


def _attack_weapons(system: str, kind: str, receipt: dict) -> tuple[str, ...] | None:
    """The kinds of weapon a V20 damage step may name, from the attack's Ability (V20-17: ``play.v20``'s
    ``COMBAT_ABILITIES``); () when the test was no attack; None for any other step."""
    if system != "v20" or kind != "damage":
        return None
    from rollbook.play.v20 import COMBAT_ABILITIES, attack_ability_of

    try:
        return COMBAT_ABILITIES[attack_ability_of(receipt)]
    except play.RuleError:
        return ()


def _label(system: str, mode: str, kind: str, takes: dict, receipt: dict, character, lang: str) -> str:
    if system == "v20" and kind == "soak":
        levels, damage_type = takes["levels"], takes.get("damage_type") or "bashing"
        if character is not None and character.sheet:  # the defender's own soak (a bullet bashes a vampire)
            try:
                shown = play.preview(
                    system, character.sheet, {"kind": "soak"}, mode=mode, role="storyteller", follows=receipt
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
    if system == "v20" and kind == "damage":
        return translate(N_("Roll damage"), lang)
    if system == "v20" and kind == "dodge":  # V20-20: each dodge success takes one of these away
        n = takes["successes"]
        return (
            translations(lang)
            .ngettext("Dodge ({n} attack success)", "Dodge ({n} attack successes)", n)
            .format(n=n)
        )
    if system == "tiers" and kind == "dodge":
        return translate(N_("Dodge (attack tier {tier})"), lang, tier=takes["attack_tier"])
    if system == "tiers" and kind == "soak":
        return translate(N_("Soak (attack tier {tier})"), lang, tier=takes["attack_tier"])
    return roll_kind(system, kind, lang)


def roll_notes(system: str, receipt: dict, lang: str) -> list[str]:
    """A V20 step's numbers beside its dice: the attack successes a dodge left (V20-20), the damage
    levels Potence added without dice (V20-21)."""
    if system != "v20":
        return []
    attack = receipt.get("attack")
    if receipt.get("kind") == "dodge" and isinstance(attack, dict):
        return [
            translate(
                N_("Attack successes: {successes}, left after the dodge: {left}"),
                lang,
                successes=attack.get("successes"),
                left=attack.get("left"),
            )
        ]
    potence = ((receipt.get("result") or {}).get("auto_sources") or {}).get("potence")
    if receipt.get("kind") == "damage" and potence:
        return [translate(N_("Potence: {n} automatic levels"), lang, n=potence)]
    return []


# --- the exchange odds before the attack, and what was expected beside what happened ------

OUTCOME_WORDS = {
    "botch": N_("Botch"),
    "miss": N_("Miss"),
    "dodged": N_("Dodged"),
    "soaked": N_("Hit, all soaked"),
    "wounded": N_("Hit, wounded"),
}
OUTCOME_TONES = {"botch": "botch", "miss": "bad", "dodged": "neutral", "soaked": "neutral", "wounded": "good"}
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


@dataclass
class ExchangeOddsView:
    """The odds of the whole exchange on the roll form (``usecases.odds.exchange_odds``' answer)."""

    headline: str
    outcomes: list = field(default_factory=list)  # preview.OddsRow
    after: list = field(default_factory=list)  # the defender's wound level (V20) or wound track (Tiers)
    notes: list[str] = field(default_factory=list)


# a player who may not open the defender's sheet: no odds of the exchange (they would give its ratings back)
ODDS_NEED_HIDDEN_RATINGS = N_(
    "The exchange's odds need {name}'s ratings, which are hidden from you: the attack's own odds are above."
)


def _row(code: str, label: str, p, tone: str, lang: str):
    from fractions import Fraction

    from rollbook.odds import fraction_text
    from rollbook.present.preview import OddsRow, percent

    p = Fraction(p)
    return OddsRow(code, label, fraction_text(p), percent(p, lang), tone, round(float(p) * 100, 2))


def exchange_odds_view(answer: dict, target: str, lang: str) -> ExchangeOddsView:
    """The answer of ``usecases.odds.exchange_odds`` in words: the attack's outcomes, the defender's
    state after it, and — for who may see them — the defender's numbers the odds were built from."""
    from fractions import Fraction

    from rollbook.present.preview import percent

    odds = answer["odds"]
    outcomes = odds["outcomes"]
    hit = Fraction(outcomes["soaked"]) + Fraction(outcomes["wounded"])
    view = ExchangeOddsView(headline="")
    view.outcomes = [
        _row(code, translate(OUTCOME_WORDS[code], lang), p, OUTCOME_TONES[code], lang)
        for code, p in outcomes.items()
        if Fraction(p)
    ]
    if answer["system"] == "v20":
        down = Fraction(odds["down"])
        view.headline = translate(
            N_("Against {name}: hits {hit}, out of the fight {down}"),
            lang,
            name=target,
            hit=percent(hit, lang),
            down=percent(down, lang),
        )
        view.after = [
            _row(code, translate(WOUND_WORDS.get(code, code), lang), p, "neutral", lang)
            for code, p in odds["wounds"].items()
        ]
        view.notes.append(
            translate(
                N_("Health levels expected: {n}"),
                lang,
                n=number_text(Fraction(odds["expected_levels"]), lang, 2),
            )
        )
        defender = odds.get("defender")
        if defender is not None:
            view.notes.append(
                translate(
                    N_("{name} soaks {n} dice against {damage_type}."),
                    lang,
                    name=target,
                    n=defender["soak_pool"],
                    damage_type=labels.choice(odds["damage_type"], lang, "damage_type"),
                )
            )
    else:
        full = Fraction(odds["full"])
        view.headline = translate(
            N_("Against {name}: hits {hit}, the wound track full {full}"),
            lang,
            name=target,
            hit=percent(hit, lang),
            full=percent(full, lang),
        )
        view.after = [
            _row(level, translate(N_("Wound level {n}"), lang, n=level), p, "neutral", lang)
            for level, p in odds["track"].items()
        ]
        defender = odds.get("defender")
        if defender is not None:
            view.notes.append(
                translate(
                    N_("{name} soaks at Endurance {endurance} + armour {armor}."),
                    lang,
                    name=target,
                    endurance=defender["endurance"],
                    armor=defender["armor"],
                )
            )
    if not answer["defender_numbers"]:
        view.notes.append(translate(N_("Built from both sheets; the defender's ratings stay hidden."), lang))
    return view


@dataclass
class ExpectedView:
    """What the exchange's odds were before the attack, beside what happened (the exchange's card)."""

    expected: list[str] = field(default_factory=list)
    happened: str = ""


def expected_view(system: str, chain: list[dict], lang: str) -> ExpectedView | None:
    """From the exchange's own receipts (oldest first: the attack, then its steps): the odds the numbers
    they were rolled with gave before the attack, and what happened. The defender's numbers come from
    their own steps (the soak's pool, the dodge's skill), so nothing beyond the card is shown; a step
    not taken yet leaves out what depends on it. None for what is not an exchange."""
    from rollbook.odds import exchange_tiers, exchange_v20
    from rollbook.odds.v20 import v20_odds
    from rollbook.play.common import request_from_plain
    from rollbook.present.preview import percent
    from rollbook.rules.tiers import TiersRequest
    from rollbook.rules.v20 import V20Request

    found = [e.get("receipt") for e in chain]
    if not found or any(not isinstance(r, dict) or e.get("redacted") for r, e in zip(found, chain)):
        return None
    receipts = [r for r in found if isinstance(r, dict)]  # every one, as just checked
    steps = {r.get("kind"): r for r in receipts[1:]}
    attack = receipts[0]
    view = ExpectedView()
    try:
        if system == "v20" and attack.get("kind") == "test":
            request = request_from_plain(V20Request, attack["request"])
            dodge, damage, soak = steps.get("dodge"), steps.get("damage"), steps.get("soak")
            if damage is None or soak is None:
                hit = v20_odds(request).success
                view.expected.append(translate(N_("hit {p}"), lang, p=percent(hit, lang)))
            else:
                weapon = damage["pool"]["weapon"]
                strength = next(
                    (p["rating"] for p in damage["pool"]["parts"] if p.get("trait") == "strength"), 0
                )
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
                    translate(
                        N_("wounded {p}"), lang, p=percent(result.outcomes.probability("wounded"), lang)
                    ),
                    translate(
                        N_("{n} levels on average"), lang, n=number_text(result.expected_levels, lang, 2)
                    ),
                ]
            view.happened = _v20_happened(attack, dodge, damage, soak, lang)
        elif system == "tiers" and attack.get("kind") == "skill":
            shot = request_from_plain(TiersRequest, attack["request"])
            dodge, soak = steps.get("dodge"), steps.get("soak")
            if soak is None:
                hit = odds_once(exchange_tiers.ChainTiers, shot, shot.bullets or 1).success
                view.expected.append(translate(N_("hit {p}"), lang, p=percent(hit, lang)))
            else:
                shown = soak["request"]
                skill = dodge["request"]["skill"] if dodge is not None else None
                result = odds_once(
                    exchange_tiers.exchange_odds,
                    shot,
                    exchange_tiers.TiersDefender(
                        endurance=shown["endurance"], armor=shown["armor"], length=100, dodge=skill
                    ),
                )
                view.expected += [
                    translate(N_("hit {p}"), lang, p=percent(result.hit, lang)),
                    translate(
                        N_("wounded {p}"), lang, p=percent(result.outcomes.probability("wounded"), lang)
                    ),
                ]
            view.happened = _tiers_happened(attack, dodge, soak, lang)
        else:
            return None
    except (KeyError, TypeError, ValueError, play.RuleError):  # a receipt without what the odds need
        return None
    return view


def _soaked_words(taken: int, lang: str) -> str:
    """After the soak: the levels marked, or all soaked."""
    if taken:
        return translate(N_("wounded, {n} levels marked"), lang, n=taken)
    return translate(OUTCOME_WORDS["soaked"], lang)


def _v20_happened(attack: dict, dodge: dict | None, damage: dict | None, soak: dict | None, lang: str) -> str:
    outcome = attack["result"]["outcome"]
    if outcome == "botch":
        return translate(OUTCOME_WORDS["botch"], lang)
    if outcome != "success":
        return translate(OUTCOME_WORDS["miss"], lang)
    if dodge is not None and not dodge["attack"]["left"]:  # V20-20: no success left, no damage roll
        return translate(OUTCOME_WORDS["dodged"], lang)
    if soak is not None:
        return _soaked_words(soak["result"]["damage_taken"], lang)
    if damage is not None and not damage["result"]["levels"]:
        return translate(OUTCOME_WORDS["soaked"], lang)
    return translate(N_("a hit, the exchange goes on"), lang)


def _tiers_happened(attack: dict, dodge: dict | None, soak: dict | None, lang: str) -> str:
    if not attack["result"]["success"]:
        return translate(OUTCOME_WORDS["miss"], lang)
    if dodge is not None and dodge["result"]["dodged"]:
        return translate(OUTCOME_WORDS["dodged"], lang)
    if soak is not None:
        return _soaked_words(soak["result"]["damage"], lang)
    return translate(N_("a hit, the exchange goes on"), lang)
