"""V5 rolls (SPEC V5-1 … V5-15): the server builds the pool and extracts Hunger itself. The sheet is
``systems.v5.sheet``; the changes without dice are in ``systems.v5.changes``.

Readings used here:
- Blood Surge costs a Rouse check (V5-11); the test keeps the Hunger from before that Rouse (V5-2).
  The test's dice are drawn first, then the Rouse die.
- Impaired (Book): a full Health track (superficial + aggravated = max) takes 2 dice from pools
  of physical Attributes; a full Willpower track takes 2 dice from social and mental pools.
  Reading: a modified pool never falls below 1 die (the rules roll at least one die).
- A Willpower reroll (V5-8) costs one superficial Willpower damage and is refused at 0 current
  Willpower; the Strict/Casual limit is the one recorded in the roll's request (the chronicle mode
  when the roll was made), so the stored receipt always replays.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from rollbook import dice
from rollbook.play.common import (
    Drawn,
    Effects,
    JsonObject,
    Label,
    Mismatch,
    Mode,
    Model,
    Performed,
    Prepared,
    Recorded,
    Shim,
    TraitName,
    by_kind,
    compare,
    drawn_once,
    filled,
    parse_kind,
    performed,
    pool_mismatches,
    rating,
    replay,
    request_from_plain,
    roll_receipt,
    verified,
)
from rollbook.rules import get_system
from rollbook.rules.base import Faces, RuleError, to_plain
from rollbook.systems.v5 import compulsions, powers, rules
from rollbook.systems.v5 import quick as QUICK  # the quick roll's values and request
from rollbook.systems.v5.changes import CHANGE_RECORDS, CHANGES, STORYTELLER_CHANGES, adjust
from rollbook.systems.v5.sheet import (
    IMPAIRED_PENALTY,
    MEND_AMOUNT,
    PHYSICAL,
    PLAYER_ADDS,
    PLAYER_FIELDS,
    ROUSE_REROLL_LEVEL,
    SURGE_DICE,
    SYSTEM,
    TABLES,
    Attribute,
    Sheet,
    damage_track,
    hungry,
    resources,
)

__all__ = [
    "played_cards",
    "DECLARED_FIELD",
    "READS_COMPULSION",
    "READS_TABLE_RULES",
    "REQUEST_FROM_ACTION",
    "drawn",
    "effect_problems",
    "request_problems",
    "sheet_reads",
    "ACTIONS",
    "QUICK",
    "CHAINS",
    "CHANGE_RECORDS",
    "CHANGES",
    "ROLL_RECORDS",
    "FOLLOWUPS",
    "MEND_AMOUNT",
    "PLAYER_ADDS",
    "PLAYER_FIELDS",
    "STORYTELLER_ACTIONS",
    "STORYTELLER_CHANGES",
    "SURGE_DICE",
    "TABLES",
    "Sheet",
    "adjust",
    "apply",
    "followup",
    "prepare",
    "resources",
    "verify",
    "EDGE_FIELDS",
    "ACTION_PLAYER_FIELDS",
    "TRAIT_FIELDS",
    "STORYTELLER_SHEET_FIELDS",
    "STORYTELLER_VALUES",
    "EXAMPLES",
    "TURNS",
    "check_mode",
    "step_takes",
]


# --- actions ------------------------------------------------------------------------------------

AttributeName = Attribute


class TestAction(Model):
    """Attribute + Skill, Discipline or a second Attribute; Hunger dice come from the sheet (V5-13)."""

    kind: Literal["test"]
    attribute: AttributeName
    skill: TraitName | None = None
    discipline: TraitName | None = None
    second_attribute: AttributeName | None = None
    specialty: Label | None = None  # on the skill used: +1 die
    difficulty: int = rating(1, 30, 1)  # V5-1
    modifier: int = rating(-20, 20, 0)
    blood_surge: bool = False  # V5-11: normal dice by Blood Potency, costs a Rouse check
    serves_compulsion: bool = False  # the Storyteller says the action serves the compulsion in force


class RouseAction(Model):
    """A Rouse check (V5-10); ``discipline_level`` lets Blood Potency reroll it, ``mend`` heals."""

    kind: Literal["rouse"]
    discipline_level: int | None = Field(None, ge=1, le=10)
    mend: bool = False  # Book: mend superficial Health by Blood Potency


class WillpowerRollAction(Model):
    """A roll of current Willpower: normal dice only (V5-9)."""

    kind: Literal["willpower"]
    difficulty: int = rating(1, 30, 1)
    modifier: int = rating(-20, 20, 0)


class RemorseAction(Model):
    """End-of-session Remorse (V5-15): one die per empty unstained Humanity box."""

    kind: Literal["remorse"]


class FrenzyAction(Model):
    """Resisting frenzy (V5-14): Willpower + a third of Humanity against the Storyteller's difficulty."""

    kind: Literal["frenzy"]
    difficulty: int = rating(1, 30)


ACTIONS = by_kind(
    TestAction, RouseAction, WillpowerRollAction, RemorseAction, FrenzyAction, powers.PowerAction
)
STORYTELLER_ACTIONS: frozenset[str] = frozenset()
READS_COMPULSION = True  # play.perform hands ``prepare`` the compulsion in force (systems.v5.compulsions)
READS_TABLE_RULES = False  # no table rule changes a V5 roll's request (TR-1)
DECLARED_FIELD = None  # a test names traits, no action declared in words

# A-1, action kind by action kind (``play.authority``): the fields that are the Storyteller's (edges)
# and the player's; the two lists cover every field of the action models (``tests/play/test_authority``).
EDGE_FIELDS: dict[str, frozenset[str]] = {
    # V5-1 difficulty; extra or fewer dice; seed 001: whether the action serves the compulsion in force
    "test": frozenset({"difficulty", "modifier", "serves_compulsion"}),
    "power": frozenset({"difficulty", "modifier", "serves_compulsion"}),  # as a test's
    "rouse": frozenset(),
    "willpower": frozenset({"difficulty", "modifier"}),
    "remorse": frozenset(),
    "frenzy": frozenset({"difficulty"}),  # V5-14: the Storyteller's difficulty
}
ACTION_PLAYER_FIELDS: dict[str, frozenset[str]] = {
    "test": frozenset(
        {"kind", "attribute", "skill", "discipline", "second_attribute", "specialty", "blood_surge"}
    ),
    "rouse": frozenset({"kind", "discipline_level", "mend"}),
    "power": frozenset({"kind", "discipline", "power", "attribute"}),
    "willpower": frozenset({"kind"}),
    "remorse": frozenset({"kind"}),
    "frenzy": frozenset({"kind"}),
}
# a sheet's sections whose traits a roll names, and the action field each fills (Discord's ``/roll``)
TRAIT_FIELDS: tuple[tuple[str, str], ...] = (
    ("attributes", "attribute"),
    ("skills", "skill"),
    ("disciplines", "discipline"),
)
# A worked example of the player's part of each action's request (edges left to the baseline; a
# Storyteller's action, its whole request), which ``EXAMPLE_SHEET``'s character can make (after
# ``follows`` when the action is a step of the combat chain): ``play.catalogue`` reads them.
EXAMPLES: dict[str, JsonObject] = {
    "test": {"kind": "test", "attribute": "dexterity", "skill": "firearms"},
    "power": {"kind": "power", "discipline": "auspex", "power": "sense_the_unseen", "attribute": "wits"},
    "rouse": {"kind": "rouse"},
    "willpower": {"kind": "willpower"},
    "remorse": {"kind": "remorse"},
    "frenzy": {"kind": "frenzy"},
}
# A character who can make every example above.
EXAMPLE_SHEET: JsonObject = {
    "name": "Nadia",
    "attributes": {"dexterity": 3, "wits": 3, "resolve": 2, "composure": 2},
    "skills": {"firearms": 3},
    "disciplines": {"auspex": 2},
    "powers": [{"discipline": "auspex", "level": 1, "power": "sense_the_unseen"}],
    "hunger": 1,
    "stains": 1,
}
STORYTELLER_SHEET_FIELDS: frozenset[str] = frozenset()  # nothing on a sheet is the Storyteller's alone
STORYTELLER_VALUES: dict[str, list[str]] = {}  # no value of an action field is the Storyteller's alone
TURNS = None  # no per-turn limit (A-3, ``play.turns``)


def check_mode(sheet: Sheet, mode: str) -> None:
    """No check a chronicle's mode makes of a V5 sheet (V20-19 is V20's)."""


def played_cards(sheet: JsonObject, names: Any) -> list[JsonObject] | None:
    """No card is played with a roll (R-6 is roll-under's): None."""
    return None


def step_takes(kind: str, receipt: JsonObject, result: Mapping[str, Any]) -> JsonObject | None:
    """No combat chain (``CHAINS`` is empty): a step takes nothing."""
    return {}


CHAINS: dict[str, tuple[str, ...]] = {}


class RerollFollowup(Model):
    """A Willpower reroll of 1–3 normal dice of a stored test (V5-8), by index into its normal dice."""

    kind: Literal["reroll"]
    dice: list[int] = Field(min_length=1, max_length=rules.MAX_REROLL_DICE)


FOLLOWUPS = by_kind(RerollFollowup)
# one of ``ACTIONS``
Action = TestAction | RouseAction | WillpowerRollAction | RemorseAction | FrenzyAction | powers.PowerAction


@dataclass(frozen=True)
class RouseRecord:
    """A Blood Surge's Rouse check, recorded with its test under ``"rouse"`` (V5-11)."""

    request: rules.V5Request
    faces: tuple[int, ...]
    result: rules.V5Receipt


# What each kind of roll records under "request", "result" and beyond (play.schema describes receipts from it).
ROLL_RECORDS: dict[str, Recorded] = {
    "test": Recorded(
        rules.V5Request, rules.V5Receipt, sometimes={"rouse": RouseRecord}
    ),  # V5-11: a Blood Surge
    "rouse": Recorded(rules.V5Request, rules.V5Receipt),
    "willpower": Recorded(rules.V5Request, rules.V5Receipt),
    "remorse": Recorded(rules.V5Request, rules.V5Receipt),
    "frenzy": Recorded(rules.V5Request, rules.V5Receipt),
    # a power's pool (a test, or its first Rouse when it rolls nothing) and the Rouse checks it paid
    "power": Recorded(
        rules.V5Request,
        rules.V5Receipt,
        always={"power": dict[str, Any]},
        sometimes={"rouses": list[RouseRecord]},
    ),
}


def _empty_pool() -> JsonObject:
    return {"parts": [], "modifiers": [], "wound_penalty": 0, "total": 1, "hunger_dice": 0}


def _pool(parts: list[JsonObject], modifiers: list[JsonObject], wound: int) -> JsonObject:
    raw = sum(p["rating"] for p in parts) + sum(m["dice"] for m in modifiers) + wound
    return {"parts": parts, "modifiers": modifiers, "wound_penalty": wound, "total": max(1, raw)}


def _impairment(sheet: Sheet, attribute: str) -> int:
    """Book: Impaired at a full Health track (physical pools) or Willpower track (social, mental)."""
    track = sheet.health if attribute in PHYSICAL else sheet.willpower
    return IMPAIRED_PENALTY if track.full else 0


def prepare(
    sheet: Sheet,
    action: Action,
    *,
    mode: Mode,
    role: str,
    follows: JsonObject | None = None,
    compulsion: JsonObject | None = None,
) -> Prepared:
    """Build the roll from the sheet (pool, Hunger dice, rules request) and make every refusal;
    no die drawn. A Blood Surge's Rouse request is built here too (``context["rouse"]``).
    ``compulsion``: the one in force for the character (``{"compulsion": id, "called": seq}``), whose
    penalty a test's pool carries as a ``compulsion`` modifier (seed 001, ``systems.v5.compulsions``)."""
    system = get_system(SYSTEM)
    if isinstance(action, TestAction):
        pool = _test_pool(sheet, action, compulsion)
        # V5-2, V5-12, V5-13: Hunger from the sheet (before this roll's own Rouse), replaced by the rules.
        request = rules.V5Request(
            pool=pool["total"],
            hunger=filled(sheet.hunger),
            difficulty=action.difficulty,
            kind="test",
            mode=mode,
            creature=sheet.creature,
        )
        pool["hunger_dice"] = request.hunger_dice
        context: JsonObject = {}
        if action.blood_surge:  # V5-11: surging costs a Rouse check, made after the test's Hunger was read
            context["rouse"] = rules.rouse_request(filled(sheet.hunger), creature=sheet.creature)
        return Prepared(request, pool, system, context)
    if isinstance(action, powers.PowerAction):
        return _prepare_power(sheet, action, mode, compulsion)
    if isinstance(action, RouseAction):
        reroll = (
            action.discipline_level is not None
            and action.discipline_level <= ROUSE_REROLL_LEVEL[filled(sheet.blood_potency)]
        )  # V5-10 Book
        # The rules refuse a ghoul's or a mortal's Rouse (V5-12), for the CLI and the contract alike.
        request = rules.rouse_request(
            filled(sheet.hunger), blood_potency_reroll=reroll, creature=sheet.creature
        )
        if action.mend and sheet.health.superficial == 0:
            raise RuleError("nothing_to_heal", damage_type="superficial")
        return Prepared(request, _empty_pool(), system)
    if isinstance(action, WillpowerRollAction):
        current = sheet.willpower.current
        if current <= 0:
            raise RuleError("empty_pool", trait="willpower")
        modifiers = [{"source": "modifier", "dice": action.modifier}] if action.modifier else []
        pool = _pool([{"trait": "willpower", "rating": current}], modifiers, 0)
        request = rules.V5Request(
            pool=pool["total"],
            hunger=filled(sheet.hunger),
            difficulty=action.difficulty,
            kind="willpower",
            mode=mode,
            creature=sheet.creature,
        )
        pool["hunger_dice"] = request.hunger_dice  # V5-9: always 0
        return Prepared(request, pool, system)
    if isinstance(action, RemorseAction):
        if sheet.stains == 0:
            raise RuleError("no_stains")
        count = rules.remorse_dice(sheet.humanity, sheet.stains)  # V5-15
        pool = {
            "parts": [{"trait": "empty_humanity_boxes", "rating": count}],
            "modifiers": [],
            "wound_penalty": 0,
            "total": count,
            "hunger_dice": 0,
        }
        request = rules.V5Request(
            pool=count,
            hunger=filled(sheet.hunger),
            difficulty=1,
            kind="remorse",
            mode=mode,
            creature=sheet.creature,
        )
        return Prepared(request, pool, system)
    assert isinstance(action, FrenzyAction)
    count = rules.frenzy_pool(min(sheet.willpower.current, 10), sheet.humanity)
    pool = {
        "parts": [
            {"trait": "willpower", "rating": sheet.willpower.current},
            {"trait": "humanity_third", "rating": sheet.humanity // 3},
        ],
        "modifiers": [],
        "wound_penalty": 0,
        "total": count,
        "hunger_dice": 0,
    }
    request = rules.V5Request(
        pool=count,
        hunger=filled(sheet.hunger),
        difficulty=action.difficulty,
        kind="frenzy",
        mode=mode,
        creature=sheet.creature,
    )
    return Prepared(request, pool, system)


def apply(
    sheet: Sheet,
    action: Action,
    prepared: Prepared,
    faces: Faces,
    result: rules.V5Receipt,
    *,
    source: dice.DiceSource,
) -> Performed:
    """The consequences of the drawn dice, on a copy of the sheet (``play.perform`` draws them)."""
    effects = Effects()
    new = sheet.model_copy()  # shallow: what changes is replaced below, never changed in place
    extra: JsonObject = {}
    if isinstance(action, TestAction):
        rouse_request = prepared.context.get("rouse")
        if rouse_request is not None:  # V5-11: the test's dice are drawn first, then the Rouse die
            rouse_faces, rouse_result = dice.roll(prepared.system, rouse_request, source)
            assert isinstance(rouse_result, rules.V5Receipt)  # what the V5 system resolves
            _apply_rouse(new, rouse_result, effects)
            extra["rouse"] = to_plain(RouseRecord(rouse_request, tuple(rouse_faces), rouse_result))
    elif isinstance(action, RouseAction):
        _apply_rouse(new, result, effects)
        if action.mend:
            healed = min(sheet.health.superficial, MEND_AMOUNT[filled(sheet.blood_potency)])
            new.health = new.health.model_copy(update={"superficial": sheet.health.superficial - healed})
            effects.change("health.superficial", sheet.health.superficial, new.health.superficial)
    elif isinstance(action, powers.PowerAction):
        extra.update(_apply_power(new, prepared, result, effects, source))
    elif isinstance(action, RemorseAction):
        new.humanity = max(
            0, sheet.humanity - rules.remorse_humanity_loss(result)
        )  # V5-15: Humanity stops at 0
        new.stains = 0
        effects.change("humanity", sheet.humanity, new.humanity)
        effects.change("stains", sheet.stains, 0)
    # A Willpower roll changes nothing on the sheet; V5-14: the dice never write a frenzy onto it.
    receipt = roll_receipt(
        SYSTEM, action.kind, action, prepared.pool, prepared.request, faces, result, effects, **extra
    )
    return performed(new, receipt, effects, loaded=sheet)


def _test_pool(sheet: Sheet, action: TestAction, compulsion: JsonObject | None = None) -> JsonObject:
    parts = [{"trait": action.attribute, "rating": getattr(sheet.attributes, action.attribute)}]
    chosen = [
        name for name in ("skill", "discipline", "second_attribute") if getattr(action, name) is not None
    ]
    if len(chosen) > 1:
        raise RuleError("one_trait_only", fields=chosen)
    if action.skill is not None:
        if action.skill not in sheet.skills:
            raise RuleError("unknown_trait", field="skill", trait=action.skill)
        parts.append({"trait": action.skill, "rating": sheet.skills[action.skill], "group": "skills"})
    if action.discipline is not None:
        value = sheet.disciplines.get(action.discipline, 0)
        if value == 0:
            raise RuleError("trait_not_possessed", field="discipline", trait=action.discipline)
        parts.append({"trait": action.discipline, "rating": value, "group": "disciplines"})
    if action.second_attribute is not None:
        parts.append(
            {"trait": action.second_attribute, "rating": getattr(sheet.attributes, action.second_attribute)}
        )
    modifiers = []
    if action.specialty is not None:
        if action.skill is None or action.specialty not in sheet.specialties.get(action.skill, []):
            raise RuleError("unknown_specialty", field="specialty", specialty=action.specialty)
        modifiers.append({"source": "specialty", "dice": 1, "specialty": action.specialty})
    if action.blood_surge:
        if not hungry(sheet):
            raise RuleError("no_blood_surge_for_creature", creature=sheet.creature)  # V5-12
        modifiers.append(
            {
                "source": "blood_surge",
                "dice": SURGE_DICE[filled(sheet.blood_potency)],
                "blood_potency": sheet.blood_potency,
            }
        )  # V5-11: normal dice in the pool
    if action.modifier:
        modifiers.append({"source": "modifier", "dice": action.modifier})
    attributes = tuple(name for name in (action.attribute, action.second_attribute) if name is not None)
    cost = compulsions.modifier(compulsion, "test", attributes, action.serves_compulsion)  # seed 001
    if cost is not None:
        modifiers.append(cost)
    return _pool(parts, modifiers, _impairment(sheet, action.attribute))


def _prepare_power(
    sheet: Sheet, action: powers.PowerAction, mode: Mode, compulsion: JsonObject | None
) -> Prepared:
    """A listed power (``systems.v5.powers``): its pool as a test, or, when it rolls nothing, its first Rouse
    check as the roll; the Rouse checks it costs are drawn after the test's dice (``_apply_power``)."""
    system = get_system(SYSTEM)
    level, rouse, pool_of = powers.look_up(sheet, action)
    reroll = level <= ROUSE_REROLL_LEVEL[filled(sheet.blood_potency)]  # V5-10 Book: Blood Potency's reroll
    if rouse:
        rules.rouse_request(filled(sheet.hunger), creature=sheet.creature)  # V5-12: refused before any die
    context = {
        "power": {
            "discipline": action.discipline,
            "power": action.power,
            "level": level,
            "rouse_checks": rouse,
            "blood_potency_reroll": reroll,
        }
    }
    if pool_of is None:
        request = rules.rouse_request(
            filled(sheet.hunger), blood_potency_reroll=reroll, creature=sheet.creature
        )
        return Prepared(request, _empty_pool(), system, context)
    attribute, trait = pool_of
    parts = [{"trait": attribute, "rating": getattr(sheet.attributes, attribute)}]
    if trait in sheet.skills:
        parts.append({"trait": trait, "rating": sheet.skills[trait], "group": "skills"})
    else:
        value = sheet.disciplines.get(trait, 0)
        if value == 0:
            raise RuleError("trait_not_possessed", field="discipline", trait=trait)
        parts.append({"trait": trait, "rating": value, "group": "disciplines"})
    modifiers = [{"source": "modifier", "dice": action.modifier}] if action.modifier else []
    cost = compulsions.modifier(compulsion, "test", (attribute,), action.serves_compulsion)  # seed 001
    if cost is not None:
        modifiers.append(cost)
    pool = _pool(parts, modifiers, _impairment(sheet, attribute))
    request = rules.V5Request(
        pool=pool["total"],
        hunger=filled(sheet.hunger),
        difficulty=action.difficulty,
        kind="test",
        mode=mode,
        creature=sheet.creature,
    )
    pool["hunger_dice"] = request.hunger_dice
    return Prepared(request, pool, system, context)


def _apply_power(
    new: Sheet, prepared: Prepared, result: rules.V5Receipt, effects: Effects, source: dice.DiceSource
) -> JsonObject:
    """The power's Rouse checks, one after the other on the Hunger each left (V5-10), after its test."""
    info = prepared.context["power"]
    paid = 0
    if prepared.request.kind == "rouse":  # a power that rolls nothing: its first Rouse is the roll
        _apply_rouse(new, result, effects)
        paid = 1
    rouses = []
    for _ in range(info["rouse_checks"] - paid):
        request = rules.rouse_request(
            filled(new.hunger), blood_potency_reroll=info["blood_potency_reroll"], creature=new.creature
        )
        faces, rolled = dice.roll(prepared.system, request, source)
        assert isinstance(rolled, rules.V5Receipt)  # what the V5 system resolves
        _apply_rouse(new, rolled, effects)
        rouses.append(to_plain(RouseRecord(request, tuple(faces), rolled)))
    return {"power": JsonObject(info), **({"rouses": rouses} if rouses else {})}


def _apply_rouse(new: Sheet, result: rules.V5Receipt, effects: Effects) -> None:
    """V5-10: a failed Rouse raises Hunger by 1; at Hunger 5 it is flagged instead, with the frenzy
    test it offers (the dice never make it: the Storyteller calls it, V5-14)."""
    before = filled(new.hunger)
    new.hunger = before + result.hunger_gain
    effects.change("hunger", before, new.hunger)
    if result.hunger_frenzy_risk:
        effects.flag(
            "hunger_frenzy_risk",
            hunger=before,
            offers={"kind": "frenzy", "difficulty": rules.HUNGER_FRENZY_DIFFICULTY},
        )


# --- follow-up: the Willpower reroll (V5-8) ----------------------------------------------------


def _replay(receipt: JsonObject) -> tuple[rules.V5Request, rules.V5Receipt]:
    request, result = replay(rules.V5Request, rules.resolve, receipt)
    for entry in receipt.get("rerolls", []):
        result = rules.reroll(request, result, tuple(entry["dice"]), tuple(entry["faces"]))
    return request, result


def followup(
    sheet: Sheet, receipt: JsonObject, action: JsonObject, *, mode: Mode, role: str, source: dice.DiceSource
) -> Performed:
    validated = parse_kind(FOLLOWUPS, action, "action")
    problems = verify(receipt)
    if problems:
        raise RuleError("receipt_inconsistent", problems=problems)
    request, result = _replay(receipt)
    chosen = tuple(validated.dice)
    current = sheet.willpower.current
    # Refuse before drawing: the rules check eligibility (Hunger dice, Strict once, Willpower 0).
    rules.reroll(request, result, chosen, (1,) * len(chosen), willpower_current=current)
    shim = Shim(
        lambda _req, faces: (rules.SIDES,) * (len(chosen) - len(faces)),
        lambda _req, faces: rules.reroll(request, result, chosen, faces, willpower_current=current),
    )
    faces, rerolled = dice.roll(shim, request, source)
    effects = Effects()
    new = sheet.model_copy()  # shallow: the track is replaced, never changed in place
    new.willpower = damage_track(sheet.willpower, "willpower", 1, 0, effects)  # V5-8 Book: one superficial
    updated = dict(receipt)
    updated["rerolls"] = list(receipt.get("rerolls", [])) + [{"dice": list(chosen), "faces": list(faces)}]
    updated["result"] = to_plain(rerolled)
    updated["effects"] = list(receipt.get("effects", [])) + effects.plain()
    return performed(new, updated, effects, loaded=sheet)


# --- verification ----------------------------------------------------------------------------


def verify(receipt: JsonObject) -> list[str]:
    request, result = _replay(receipt)
    problems = verified(receipt, result, None if request.kind == "rouse" else request.pool)
    if request.kind != "rouse" and (receipt.get("pool") or {}).get("hunger_dice") != request.hunger_dice:
        problems.append("pool_mismatch:hunger_dice")  # V5-13: the server's extraction
    if "power" in receipt:  # the Rouse checks the book gives the power, each recomputed
        problems += _power_problems(receipt, request)
    if "rouse" in receipt:
        rouse = receipt["rouse"]
        rouse_request = request_from_plain(rules.V5Request, rouse.get("request"))
        if rouse_request.kind != "rouse":
            problems.append("rouse_mismatch:kind")
        rouse_result = rules.resolve(rouse_request, tuple(rouse.get("faces", ())))
        problems += compare(rouse.get("result"), to_plain(rouse_result), "rouse")
    return problems


def _power_problems(receipt: JsonObject, request: rules.V5Request) -> list[str]:
    stored_note = receipt.get("power")
    note: JsonObject = stored_note if isinstance(stored_note, dict) else {}
    known = powers.POWER_ROLLS.get(note.get("discipline", ""), {}).get(note.get("power", ""))
    rouses = receipt.get("rouses") or []
    problems = []
    paid = len(rouses) + (1 if request.kind == "rouse" else 0)
    if known is None or note.get("rouse_checks") != known[0] or paid != known[0]:
        problems.append("power_mismatch:rouse_checks")
    for index, rouse in enumerate(rouses):
        rouse_request = request_from_plain(rules.V5Request, rouse.get("request"))
        if rouse_request.kind != "rouse":
            problems.append(f"rouses_mismatch:{index}:kind")
        problems += compare(
            rouse.get("result"),
            to_plain(rules.resolve(rouse_request, tuple(rouse.get("faces", ())))),
            f"rouses.{index}",
        )
    return problems


# --- what ``rollbook log verify`` checks of a roll beyond its arithmetic (A-2; ``server.ledger``) ---

REQUEST_FROM_ACTION = ("difficulty",)  # the action's fields ``prepare`` hands to the request unchanged


def request_problems(receipt: JsonObject) -> list[Mismatch]:
    """The request against the pool built from the sheet (V5 pools: its total, the modifier's dice)."""
    return pool_mismatches(receipt, total=True)


def effect_problems(
    entry_kind: str, receipt: JsonObject, effects: Mapping[str, list[JsonObject]]
) -> list[Mismatch]:
    """V5-10, V5-11: each Hunger change starts from the Hunger the roll read (a power's Rouse checks
    each from what the last one left) and raises it by 0 to 2."""
    stored = receipt.get("request")
    request: JsonObject = stored if isinstance(stored, dict) else {}
    if not isinstance(request.get("hunger"), int):
        return []
    problems: list[Mismatch] = []
    before = request["hunger"]
    for effect in effects.get("hunger", []):
        if (
            effect.get("before") != before
            or not isinstance(effect.get("after"), int)
            or not 0 <= effect["after"] - effect["before"] <= 2
        ):
            problems.append(("hunger", {}))
        before = effect.get("after")
    return problems


def sheet_reads(request: JsonObject) -> tuple[tuple[str, Any], ...]:
    """The sheet's resources the request read: its Hunger (V5-3)."""
    return (("hunger", request.get("hunger")),) if "hunger" in request else ()


def drawn(receipt: JsonObject) -> tuple[Drawn, ...]:
    """The dice the roll drew: the test's, then (V5-11) the Rouse die of a Blood Surge."""
    steps = drawn_once(get_system(SYSTEM), rules.V5Request, receipt)
    if "rouse" not in receipt:
        return steps
    rouse = receipt["rouse"]
    if not isinstance(rouse, Mapping):
        return (*steps, Drawn(get_system(SYSTEM), rules.V5Request, None, None))
    return (*steps, Drawn(get_system(SYSTEM), rules.V5Request, rouse.get("request"), rouse.get("faces")))
