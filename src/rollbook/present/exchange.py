"""The combat chain on the pages (SPEC V20-17, T-4, T-5; ``server.usecases.exchange``): an exchange
shows as one card, the attack's, with its later steps (dodge, damage, soak, the wounds in their
effects) inside it; the next step is offered as a button to whoever may take it (the attacker's
player rolls damage, the defender's player — or the Storyteller for an NPC — sees "Soak 4 lethal").
Each system's own words and numbers are its part (``ExchangeFace``: ``systems.v20.exchange``,
``systems.tiers.exchange``, each shipped system's module of that name in its package; a system registered from outside
declares its own as ``EXCHANGE`` in its play module), picked here by the chronicle's system.
"""

from __future__ import annotations

from typing import cast

from rollbook import play
from rollbook.entries import Logged, RollReceipt
from rollbook.i18n import N_, translate
from rollbook.play import systems
from rollbook.present import labels
from rollbook.present.exchange_base import (
    ODDS_KEPT,
    OUTCOME_TONES,
    OUTCOME_WORDS,
    ExchangeFace,
    ExchangeOddsView,
    ExpectedView,
    Offer,
    odds_once,
    row,
)
from rollbook.server.usecases.exchange import chained_kinds, roll_of, steps_after

ROLL_ENTRY_KINDS = ("roll", "reroll")


def face_of(system: object) -> ExchangeFace | None:
    """A system's part of the chain's presentation (None: its steps' labels alone, no odds of the
    exchange): a shipped system's ``exchange_<id>``, or the ``EXCHANGE`` one registered declares."""
    found = systems.part(system, "exchange", lambda m: m.EXCHANGE)
    return cast("ExchangeFace | None", found)


def roll_kind(system: str, kind: str, lang: str) -> str:
    """A kind of roll in words (the sheet's tabs, a card's title)."""
    face = face_of(system)
    if face is not None and kind in face.ROLL_KIND_WORDS:
        return translate(face.ROLL_KIND_WORDS[kind], lang)
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
    logged = Logged.of(entry)
    roll = roll_of(logged)  # a roll's receipt carries its exchange (a reroll's, the roll's)
    return None if roll is None else root_in(logged.seq, roll)


def root_in(seq: int, roll: RollReceipt) -> int | None:
    """``root_of`` a roll already read: the receipt ``roll`` of entry ``seq``, not redacted."""
    if roll.exchange is None:
        return None
    return roll.exchange.get("opened") or seq


def _may_act(viewer, character) -> bool:
    return character is not None and (viewer.storyteller or character.owner == viewer.member_id)


def offers(system: str, mode: str, entry: dict, viewer, characters: list) -> list[Offer]:
    """The next steps of a chain after ``entry`` this viewer may take (``characters``: the table's
    rows, with the sheets the viewer may open)."""
    logged = Logged.of(entry)
    roll = roll_of(logged)
    if roll is None:
        return []
    rows = {c.id: c for c in characters}
    lang = viewer.lang
    out = []
    receipt = (
        logged.stored
    )  # the roll's, as stored: the system's part reads it (systems.v20.play, systems.tiers.play)
    for step in steps_after(system, logged, roll):
        kind, takes = step["kind"], step["takes"]
        character = rows.get(step["character"]) if step["character"] is not None else None
        choices: list[tuple[int, str]] = []
        if step["character"] is None:  # no target named: the viewer's characters other than the attacker
            attacker = (roll.exchange or {}).get("attacker", logged.character)
            choices = [(c.id, c.name) for c in characters if c.id != attacker and _may_act(viewer, c)]
            if not choices:
                continue
        elif not _may_act(viewer, character):
            continue
        allowed = _attack_weapons(system, kind, receipt)
        if allowed is not None and not allowed:
            continue  # "Roll damage" only after an attack (Brawl, Melee, Firearms…), not Stealth
        offer = Offer(
            logged.seq,
            kind,
            _label(system, mode, kind, takes, receipt, character, lang),
            step["character"],
            choices,
        )
        face = face_of(system)
        if face is not None:  # V20 damage: the attack's weapons (V20-17); Tiers soak: the locations (T-5)
            face.fill_offer(offer, kind, receipt, character, allowed, lang)
        out.append(offer)
    return out


def _attack_weapons(system: str, kind: str, receipt: dict) -> tuple[str, ...] | None:
    """The kinds of weapon a step may name (V20-17: a damage step, from the attack's Ability); () when
    the attack was none; None for any other step."""
    face = face_of(system)
    return None if face is None else face.attack_weapons(kind, receipt)


def _label(system: str, mode: str, kind: str, takes: dict, receipt: dict, character, lang: str) -> str:
    face = face_of(system)
    label = None if face is None else face.step_label(mode, kind, takes, receipt, character, lang)
    return label if label is not None else roll_kind(system, kind, lang)


def roll_notes(system: str, receipt: dict, lang: str) -> list[str]:
    """A step's numbers beside its dice (V20: the attack successes a dodge left, V20-20; the damage
    levels Potence added without dice, V20-21)."""
    face = face_of(system)
    return [] if face is None else face.roll_notes(receipt, lang)


# --- the exchange odds before the attack, and what was expected beside what happened ------

# a player who may not open the defender's sheet: no odds of the exchange (they would give its ratings back)
ODDS_NEED_HIDDEN_RATINGS = N_(
    "The exchange's odds need {name}'s ratings, which are hidden from you: the attack's own odds are above."
)


def exchange_odds_view(answer: dict, target: str, lang: str) -> ExchangeOddsView:
    """The answer of ``usecases.odds.exchange_odds`` in words: the attack's outcomes, the defender's
    state after it (the system's part), and — for who may see them — the defender's numbers the odds
    were built from."""
    from fractions import Fraction

    outcomes = answer["odds"]["outcomes"]
    view = ExchangeOddsView(headline="")
    view.outcomes = [
        row(code, translate(OUTCOME_WORDS[code], lang), p, OUTCOME_TONES[code], lang)
        for code, p in outcomes.items()
        if Fraction(p)
    ]
    face = face_of(answer["system"])
    if face is None:
        raise KeyError(answer["system"])  # no exchange odds are answered for a system without its part
    face.odds_view(answer, target, lang, view)
    if not answer["defender_numbers"]:
        view.notes.append(translate(N_("Built from both sheets; the defender's ratings stay hidden."), lang))
    return view


def expected_view(system: str, chain: list[dict], lang: str) -> ExpectedView | None:
    """From the exchange's own receipts (oldest first: the attack, then its steps): the odds the numbers
    they were rolled with gave before the attack, and what happened. The defender's numbers come from
    their own steps (the soak's pool, the dodge's skill), so nothing beyond the card is shown; a step
    not taken yet leaves out what depends on it. None for what is not an exchange."""
    rolls: list[tuple[dict, RollReceipt]] = []  # each step's receipt as stored, and as its model
    for entry in chain:
        logged = Logged.of(entry)
        roll = roll_of(logged)
        if roll is None:  # a redacted step (or no roll): no odds beside it
            return None
        rolls.append((logged.stored, roll))
    if not rolls:
        return None
    steps = {roll.kind: stored for stored, roll in rolls[1:]}
    face = face_of(system)
    view = ExpectedView()
    try:
        if face is None or not face.expected(rolls[0][0], steps, lang, view):
            return None
    except (KeyError, TypeError, ValueError, play.RuleError):  # a receipt without what the odds need
        return None
    return view


__all__ = [
    "ODDS_KEPT",
    "ODDS_NEED_HIDDEN_RATINGS",
    "ROLL_ENTRY_KINDS",
    "ExchangeOddsView",
    "ExpectedView",
    "Offer",
    "attack_kinds",
    "exchange_odds_view",
    "expected_view",
    "face_of",
    "odds_once",
    "offers",
    "roll_kind",
    "roll_notes",
    "root_in",
    "root_of",
    "target_choices",
]
