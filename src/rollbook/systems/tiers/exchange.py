"""Tiers' part of the combat chain's presentation (SPEC T-4, T-5; ``present.exchange``): the soak
step's body locations, the steps' labels (dodge, soak), the exchange's odds in words and what was
expected beside what happened."""

from __future__ import annotations

from typing import Any

from rollbook.i18n import N_, translate
from rollbook.present import labels
from rollbook.present.exchange_base import (
    OUTCOME_WORDS,
    ExchangeOddsView,
    ExpectedView,
    OddsWords,
    Offer,
    odds_once,
    odds_words,
    soaked_words,
)

ROLL_KIND_WORDS: dict[str, str] = {}
LOCATIONS = ("head", "torso", "arms", "legs")


def attack_weapons(kind: str, receipt: dict) -> tuple[str, ...] | None:
    return None  # a Tiers step names its weapon itself


def fill_offer(
    offer: Offer, kind: str, receipt: dict, character: Any, allowed: tuple[str, ...] | None, lang: str
) -> None:
    if kind != "soak":
        return
    armour = list(((character.sheet or {}).get("armor") or {}) if character is not None else {})
    names = armour + [name for name in LOCATIONS if name not in armour]
    offer.locations = [(name, labels.trait(name, lang)) for name in names]


def step_label(mode: str, kind: str, takes: dict, receipt: dict, character: Any, lang: str) -> str | None:
    if kind == "dodge":
        return translate(N_("Dodge (attack tier {tier})"), lang, tier=takes["attack_tier"])
    if kind == "soak":
        return translate(N_("Soak (attack tier {tier})"), lang, tier=takes["attack_tier"])
    return None


def roll_notes(receipt: dict, lang: str) -> list[str]:
    return []


# The exchange's odds in words: the wound track full, each wound level after, the soak.
ODDS_WORDS = OddsWords(
    headline=N_("Against {name}: hits {hit}, the wound track full {full}"),
    worst="full",
    after="track",
    label=lambda level, lang: translate(N_("Wound level {n}"), lang, n=level),
    soak=N_("{name} soaks at Endurance {endurance} + armour {armor}."),
    soak_params=lambda defender, odds, lang: {"endurance": defender["endurance"], "armor": defender["armor"]},
)


def odds_view(answer: dict, target: str, lang: str, view: ExchangeOddsView) -> None:
    odds_words(ODDS_WORDS, answer, target, lang, view)


def expected(attack: dict, steps: dict, lang: str, view: ExpectedView) -> bool:
    """The odds the shot's numbers gave (T-3, T-4, T-5) and what happened; False when the chain opens
    with no skill roll."""
    from rollbook.play.common import request_from_plain
    from rollbook.present.preview import percent
    from rollbook.systems.tiers import odds_exchange as exchange_tiers
    from rollbook.systems.tiers.rules import TiersRequest

    if attack.get("kind") != "skill":
        return False
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
            translate(N_("wounded {p}"), lang, p=percent(result.outcomes.probability("wounded"), lang)),
        ]
    view.happened = happened(attack, dodge, soak, lang)
    return True


def happened(attack: dict, dodge: dict | None, soak: dict | None, lang: str) -> str:
    if not attack["result"]["success"]:
        return translate(OUTCOME_WORDS["miss"], lang)
    if dodge is not None and dodge["result"]["dodged"]:
        return translate(OUTCOME_WORDS["dodged"], lang)
    if soak is not None:
        return soaked_words(soak["result"]["damage"], lang)
    return translate(N_("a hit, the exchange goes on"), lang)
