"""Roll-under d20 sheets and actions (SPEC R-1 … R-8).

- Skills and attributes are levels 1–20; a check names exactly one of them (R-1).
- Cards (advantage, bonus N, or an extra effect) are played *with* the roll, listed in the action;
  their effects are applied to the request (R-6) and consumable cards leave the sheet. A card on a
  finished roll is always refused (``perform_followup``, R-6).
- Only the Storyteller calls an opposed roll (R-7) or rules a task absurd or trivial (R-8).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field, model_validator

from rollbook import dice
from rollbook.play.common import (
    Drawn,
    Effects,
    Identity,
    JsonObject,
    Label,
    Mismatch,
    Mode,
    Model,
    Performed,
    Prepared,
    Recorded,
    Resource,
    Short,
    Text,
    TraitName,
    by_kind,
    change_receipt,
    drawn_once,
    parse_kind,
    performed,
    rating,
    replay,
    roll_receipt,
    storyteller_only,
    verified,
)
from rollbook.rules import get_system
from rollbook.rules.base import Faces, RuleError
from rollbook.systems.rollunder import quick as rollunder_quick
from rollbook.systems.rollunder import rules

QUICK = rollunder_quick  # the quick roll's values and request

SYSTEM = "rollunder"
LEVEL_MIN, LEVEL_MAX = 1, 20

PLAYER_FIELDS = frozenset({"name", "player", "concept", "notes"})

# What only the Storyteller puts on a sheet: cards are granted (``grant_card``), never written on a
# player's own new sheet (R-6; a player's edit changes ``PLAYER_FIELDS`` only).
STORYTELLER_SHEET_FIELDS = frozenset({"cards"})

TABLES = {"level_range": [LEVEL_MIN, LEVEL_MAX], "card_effects": ["advantage", "bonus", "extra"]}


# --- the sheet ----------------------------------------------------------------------------------


class Card(Model):
    name: Label
    effect: Literal["advantage", "bonus", "extra"]
    bonus: int = rating(0, 20, 0)  # effect "bonus": added to the level for the roll
    consumable: bool = True  # removed from the sheet once played
    text: Text = ""  # what an extra effect does (the Storyteller narrates it)

    @model_validator(mode="after")
    def _bonus_matches_effect(self) -> Card:
        if self.effect == "bonus" and self.bonus < 1:
            raise RuleError("out_of_range", field="bonus", value=self.bonus, low=1, high=20)
        if self.effect != "bonus" and self.bonus:
            raise RuleError("field_not_for_card", field="bonus", effect=self.effect)
        return self


class Sheet(Identity):
    system: Literal["rollunder"] = "rollunder"
    notes: Text = ""
    attributes: dict[TraitName, int] = Field(default_factory=dict)  # levels 1–20
    skills: dict[TraitName, int] = Field(default_factory=dict)  # levels 1–20
    cards: list[Card] = Field(default_factory=list)
    names: dict[TraitName, Label] = Field(default_factory=dict)  # a homebrew trait's name as typed, by id

    @model_validator(mode="after")
    def _check(self) -> Sheet:
        for group in ("attributes", "skills"):
            for name, value in getattr(self, group).items():
                if not LEVEL_MIN <= value <= LEVEL_MAX:
                    raise RuleError(
                        "out_of_range", field=f"{group}.{name}", value=value, low=LEVEL_MIN, high=LEVEL_MAX
                    )
        both = set(self.attributes) & set(self.skills)
        if both:
            name = sorted(both)[0]
            raise RuleError("duplicate_trait", field=f"skills.{name}", trait=name, other="attributes")
        names = [card.name for card in self.cards]
        if len(set(names)) != len(names):
            raise RuleError("duplicate_name", field="cards")
        return self


# --- actions ------------------------------------------------------------------------------------

Task = Literal["normal", "absurd", "trivial"]


class CheckAction(Model):
    """A d20 check at or under a skill or an attribute (R-1 … R-6, R-8)."""

    kind: Literal["check"]
    action: Text  # the declared action, required and not blank
    skill: TraitName | None = None
    attribute: TraitName | None = None
    bonus: int = rating(0, 20, 0)
    malus: int = rating(0, 20, 0)
    advantage: bool = False
    disadvantage: bool = False
    cards: list[Label] = Field(default_factory=list, max_length=rules.MAX_CARDS)  # played with the roll
    task: Task = "normal"  # absurd / trivial are the Storyteller's ruling


class OpposedAction(Model):
    """Storyteller: any dice against a threshold (R-7)."""

    kind: Literal["opposed"]
    action: Text
    dice: Short  # e.g. "3d6", "2d8+1d4"
    threshold: int = rating(0, 100_000)
    task: Task = "normal"


ACTIONS = by_kind(CheckAction, OpposedAction)
STORYTELLER_ACTIONS = frozenset({"opposed"})
CHAINS: dict[str, tuple[str, ...]] = {}
READS_TABLE_RULES = False  # no table rule changes a roll-under request (TR-1)
READS_COMPULSION = False
DECLARED_FIELD = "action"  # a check's action, declared in words

# A-1, action kind by action kind (``play.authority``): the fields that are the Storyteller's (edges)
# and the player's; the two lists cover every field of the action models (``tests/play/test_authority``).
EDGE_FIELDS: dict[str, frozenset[str]] = {
    # R-3 advantage/disadvantage, R-4 bonus/malus: « le MJ peut accorder un avantage ou un bonus »;
    # R-8 absurd/trivial rulings.
    "check": frozenset({"bonus", "malus", "advantage", "disadvantage", "task"}),
    # an opposed roll is the game master's: its dice, its threshold and its ruling.
    "opposed": frozenset({"dice", "threshold", "task"}),
}
ACTION_PLAYER_FIELDS: dict[str, frozenset[str]] = {
    "check": frozenset({"kind", "action", "skill", "attribute", "cards"}),  # the player's
    "opposed": frozenset({"kind", "action"}),
}
# a sheet's sections whose traits a roll names, and the action field each fills (Discord's ``/roll``)
TRAIT_FIELDS: tuple[tuple[str, str], ...] = (("attributes", "attribute"), ("skills", "skill"))
# A worked example of the player's part of each action's request (edges left to the baseline; a
# Storyteller's action, its whole request), which ``EXAMPLE_SHEET``'s character can make (after
# ``follows`` when the action is a step of the combat chain): ``play.catalogue`` reads them.
EXAMPLES: dict[str, JsonObject] = {
    "check": {"kind": "check", "action": "Pick the lock", "skill": "lockpicking"},
    "opposed": {
        "kind": "opposed",
        "action": "Arm wrestling",
        "dice": "1d20",
        "threshold": 10,
    },  # the Storyteller's
}
# A character who can make every example above.
EXAMPLE_SHEET: JsonObject = {
    "name": "Mara",
    "attributes": {"agility": 12},
    "skills": {"lockpicking": 14},
}
PLAYER_ADDS: frozenset[str] = frozenset()  # a player adds to nothing (``PLAYER_FIELDS`` aside)
TURNS = None  # no per-turn limit (A-3, ``play.turns``)


def check_mode(sheet: Sheet, mode: str) -> None:
    """No check a chronicle's mode makes of a roll-under sheet (V20-19 is V20's)."""


def step_takes(kind: str, receipt: JsonObject, result: Mapping[str, Any]) -> JsonObject | None:
    """No combat chain: a step takes nothing."""
    return {}


def resources(sheet: JsonObject) -> tuple[Resource, ...]:
    """No track beside the levels a player checks between rolls (Discord's ``/sheet`` shows those)."""
    return ()


STORYTELLER_VALUES = {"check.task": ["absurd", "trivial"], "opposed.task": ["absurd", "trivial"]}
# What each kind of roll records under "request" and "result" (play.schema describes receipts from it).
ROLL_RECORDS: dict[str, Recorded] = {
    "check": Recorded(rules.RollUnderRequest, rules.CheckReceipt),
    "opposed": Recorded(rules.RollUnderRequest, rules.OpposedReceipt),
}


class CardFollowup(Model):
    """A card on a roll already made: always refused (R-6)."""

    kind: Literal["card"]
    card: Label


FOLLOWUPS = by_kind(CardFollowup)
Action = CheckAction | OpposedAction  # one of ``ACTIONS``


def prepare(
    sheet: Sheet, action: Action, *, mode: Mode, role: str, follows: JsonObject | None = None
) -> Prepared:
    """Build the roll from the sheet (target, cards played, rules request) and make every refusal;
    no die drawn."""
    if not action.action.strip():
        raise RuleError("action_required")  # before anything else
    if action.task != "normal":
        storyteller_only(role, f"task_{action.task}")  # the Storyteller's ruling
    if isinstance(action, OpposedAction):
        request = rules.RollUnderRequest(
            action=action.action,
            kind="opposed",
            dice=action.dice,
            threshold=action.threshold,
            task=action.task,
        )
        pool: JsonObject = {
            "parts": [],
            "modifiers": [],
            "wound_penalty": 0,
            "total": action.threshold,
            "dice": action.dice,
        }
        return Prepared(request, pool, get_system(SYSTEM), {"played": []})
    assert isinstance(action, CheckAction)
    chosen = [(field, getattr(action, field)) for field in ("skill", "attribute") if getattr(action, field)]
    if len(chosen) != 1:
        raise RuleError("one_trait_required", fields=["skill", "attribute"], given=len(chosen))
    field, trait = chosen[0]
    levels = sheet.skills if field == "skill" else sheet.attributes
    if trait not in levels:
        raise RuleError("unknown_trait", field=field, trait=trait)
    level = levels[trait]
    if len(set(action.cards)) != len(action.cards):
        raise RuleError("duplicate_name", field="cards")
    held = {card.name: card for card in sheet.cards}
    bonus, advantage = action.bonus, action.advantage
    modifiers: list[JsonObject] = []
    if action.bonus:
        modifiers.append({"source": "bonus", "value": action.bonus})
    if action.malus:
        modifiers.append({"source": "malus", "value": -action.malus})
    played: list[Card] = []
    for name in action.cards:  # played before the roll
        card = held.get(name)
        if card is None:
            raise RuleError("unknown_card", field="cards", card=name)
        played.append(card)
        entry: JsonObject = {"source": "card", "card": card.name, "effect": card.effect}
        if card.effect == "bonus":
            bonus += card.bonus
            entry["value"] = card.bonus
        elif card.effect == "advantage":
            advantage = True
        modifiers.append(entry)
    request = rules.RollUnderRequest(
        action=action.action,
        kind="check",
        level=level,
        bonus=bonus,
        malus=action.malus,
        advantage=advantage,
        disadvantage=action.disadvantage,
        task=action.task,
        cards=tuple(c.name for c in played),
    )
    pool = {
        "parts": [{"trait": trait, "rating": level, "group": f"{field}s"}],
        "modifiers": modifiers,
        "wound_penalty": 0,
        "total": request.target,
    }
    return Prepared(request, pool, get_system(SYSTEM), {"played": played})


def apply(
    sheet: Sheet,
    action: Action,
    prepared: Prepared,
    faces: Faces,
    result: rules.RollUnderReceipt,
    *,
    source: dice.DiceSource,
) -> Performed:
    """The consequences of the drawn dice, on a copy of the sheet (``play.perform`` draws them)."""
    effects = Effects()
    new = sheet.model_copy(deep=True)
    played = prepared.context["played"]
    spent = {card.name for card in played if card.consumable}  # a consumable card leaves the sheet
    if spent:
        new.cards = [card for card in sheet.cards if card.name not in spent]
        for card in played:
            if card.consumable:
                effects.change("cards", card.name, None, card=card.name)
    receipt = roll_receipt(
        SYSTEM, action.kind, action, prepared.pool, prepared.request, faces, result, effects
    )
    return performed(new, receipt, effects, loaded=sheet)


def followup(
    sheet: Sheet, receipt: JsonObject, action: JsonObject, *, mode: Mode, role: str, source: dice.DiceSource
) -> Performed:
    if isinstance(action, dict) and action.get("kind") == "card":
        card = action.get("card")
        rules.play_card_after(receipt, card if isinstance(card, str) else repr(card))  # always refused
    parse_kind(FOLLOWUPS, action, "action")  # anything else is not a follow-up of this system
    raise RuleError(
        "bad_choice", field="kind", value=repr(action), choices=sorted(FOLLOWUPS)
    )  # pragma: no cover


# --- changes ---------------------------------------------------------------------------------


class GrantCard(Model):
    """Storyteller: give the character a card."""

    kind: Literal["grant_card"]
    card: Card


class RemoveCard(Model):
    """Storyteller: take a card away."""

    kind: Literal["remove_card"]
    card: Label


CHANGES = by_kind(GrantCard, RemoveCard)
STORYTELLER_CHANGES = frozenset({"grant_card", "remove_card"})
CHANGE_RECORDS: dict[str, Recorded] = {}  # a change records its effects only
Change = GrantCard | RemoveCard  # one of ``CHANGES``


def adjust(sheet: Sheet, change: Change, *, role: str) -> Performed:
    effects = Effects()
    new = sheet.model_copy(deep=True)
    if isinstance(change, GrantCard):
        if any(card.name == change.card.name for card in sheet.cards):
            raise RuleError("duplicate_name", field="card.name")
        new.cards = list(sheet.cards) + [change.card]
        effects.change("cards", None, change.card.name, card=change.card.name)
    else:
        assert isinstance(change, RemoveCard)
        if all(card.name != change.card for card in sheet.cards):
            raise RuleError("unknown_card", field="card", card=change.card)
        new.cards = [card for card in sheet.cards if card.name != change.card]
        effects.change("cards", change.card, None, card=change.card)
    receipt = change_receipt(SYSTEM, change, effects)
    return performed(new, receipt, effects, loaded=sheet)


# --- verification ----------------------------------------------------------------------------


def verify(receipt: JsonObject) -> list[str]:
    request, result = replay(rules.RollUnderRequest, rules.resolve, receipt)
    return verified(receipt, result, request.target)


def played_cards(sheet: JsonObject, names: Any) -> list[JsonObject] | None:
    """The cards an action plays, with their effects as the sheet holds them (for the receipt's
    authority stamp: what the roll's level and dice owe to a card)."""
    held = {card.get("name"): card for card in (sheet or {}).get("cards") or [] if isinstance(card, dict)}
    out: list[JsonObject] = []
    for name in names or []:
        card = held.get(name)
        if card is None:
            continue
        played: JsonObject = {
            "card": name,
            "effect": card.get("effect"),
            "consumable": bool(card.get("consumable", True)),
        }
        if card.get("effect") == "bonus":
            played["bonus"] = card.get("bonus", 0)
        out.append(played)
    return out


# --- what ``rollbook log verify`` checks of a roll beyond its arithmetic (A-2; ``server.ledger``) ---

# The action's fields ``prepare`` hands to the rules request unchanged.
REQUEST_FROM_ACTION = ("action", "malus", "disadvantage", "task", "dice", "threshold")


def request_problems(receipt: JsonObject) -> list[Mismatch]:
    return []


def effect_problems(
    entry_kind: str, receipt: JsonObject, effects: Mapping[str, list[JsonObject]]
) -> list[Mismatch]:
    return []  # a card played is followed through its effects


def sheet_reads(request: JsonObject) -> tuple[tuple[str, Any], ...]:
    return ()


def drawn(receipt: JsonObject) -> tuple[Drawn, ...]:
    return drawn_once(get_system(SYSTEM), rules.RollUnderRequest, receipt)
