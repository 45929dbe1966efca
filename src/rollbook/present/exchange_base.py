"""What the combat chain's presentation shares (``present.exchange``) with each system's own part
(``systems.v20.exchange``, ``systems.tiers.exchange``): the button of a next step, the views of an
exchange's odds, the outcome words, and the ``ExchangeFace`` each system's part is."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

from rollbook.i18n import N_, translate

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


OUTCOME_WORDS = {
    "botch": N_("Botch"),
    "miss": N_("Miss"),
    "dodged": N_("Dodged"),
    "soaked": N_("Hit, all soaked"),
    "wounded": N_("Hit, wounded"),
}
OUTCOME_TONES = {"botch": "botch", "miss": "bad", "dodged": "neutral", "soaked": "neutral", "wounded": "good"}


@dataclass
class ExchangeOddsView:
    """The odds of the whole exchange on the roll form (``usecases.odds.exchange_odds``' answer)."""

    headline: str
    outcomes: list = field(default_factory=list)  # preview.OddsRow
    after: list = field(default_factory=list)  # the defender's wound level (V20) or wound track (Tiers)
    notes: list[str] = field(default_factory=list)


@dataclass
class ExpectedView:
    """What the exchange's odds were before the attack, beside what happened (the exchange's card)."""

    expected: list[str] = field(default_factory=list)
    happened: str = ""


def row(code: str, label: str, p, tone: str, lang: str):
    from fractions import Fraction

    from rollbook.odds import fraction_text
    from rollbook.present.preview import OddsRow, percent

    p = Fraction(p)
    return OddsRow(code, label, fraction_text(p), percent(p, lang), tone, round(float(p) * 100, 2))


@dataclass(frozen=True)
class OddsWords:
    """How a system words its exchange's odds (``odds_words``): ``headline``, a msgid of ``{name}``,
    ``{hit}`` and ``{<worst>}``, the chance of the odds' outcome ``worst``; a row per state of the
    defender's track after (the odds' key ``after``, each state named by ``label(code, lang)``); the
    system's ``notes(odds, lang)``; and when the odds know the defender, ``soak``, a msgid of ``{name}``
    and what ``soak_params(defender, odds, lang)`` gives."""

    headline: str
    worst: str
    after: str
    label: Callable[[str, str], str]
    soak: str
    soak_params: Callable[[dict, dict, str], dict]
    notes: Callable[[dict, str], list[str]] = lambda odds, lang: []


def odds_words(words: OddsWords, answer: dict, target: str, lang: str, view: ExchangeOddsView) -> None:
    """The exchange's odds in words, as ``words`` says them (the chances read from the odds' fractions)."""
    from fractions import Fraction

    from rollbook.present.preview import percent

    odds = answer["odds"]
    outcomes = odds["outcomes"]
    hit = Fraction(outcomes["soaked"]) + Fraction(outcomes["wounded"])
    chances = {"hit": percent(hit, lang), words.worst: percent(Fraction(odds[words.worst]), lang)}
    view.headline = translate(words.headline, lang, name=target, **chances)
    view.after = [
        row(code, words.label(code, lang), p, "neutral", lang) for code, p in odds[words.after].items()
    ]
    view.notes += words.notes(odds, lang)
    defender = odds.get("defender")
    if defender is not None:
        view.notes.append(translate(words.soak, lang, name=target, **words.soak_params(defender, odds, lang)))


def soaked_words(taken: int, lang: str) -> str:
    """After the soak: the levels marked, or all soaked."""
    if taken:
        return translate(N_("wounded, {n} levels marked"), lang, n=taken)
    return translate(OUTCOME_WORDS["soaked"], lang)


class ExchangeFace(Protocol):
    """A system's part of the combat chain's presentation (``present.exchange`` picks it by the
    chronicle's system; a system without one shows its chain's steps by their kinds' labels alone)."""

    @property
    def ROLL_KIND_WORDS(self) -> dict[str, str]: ...  # roll kinds whose label is not the change's

    def attack_weapons(self, kind: str, receipt: dict) -> tuple[str, ...] | None: ...

    def fill_offer(
        self,
        offer: Offer,
        kind: str,
        receipt: dict,
        character: Any,
        allowed: tuple[str, ...] | None,
        lang: str,
    ) -> None: ...

    def step_label(
        self, mode: str, kind: str, takes: dict, receipt: dict, character: Any, lang: str
    ) -> str | None: ...

    def roll_notes(self, receipt: dict, lang: str) -> list[str]: ...

    def odds_view(self, answer: dict, target: str, lang: str, view: ExchangeOddsView) -> None: ...

    def expected(self, attack: dict, steps: dict, lang: str, view: ExpectedView) -> bool: ...
