"""V20 rolls (SPEC V20-1 … V20-17): pools named by traits, built from the sheet (``systems.v20.sheet``);
the changes without dice are in ``systems.v20.changes``.

Book choices, kept simple and documented here:
- Wound penalties (V20-16, ``systems.v20.rules.wound_penalty``) reduce every action pool except soak and
  damage; a character at Incapacitated (7 levels) cannot act (soak still allowed). A pool never goes
  below 0 dice (V20-1: an empty pool rolls nothing).
- Soak (V20-16): ``systems.v20.rules.SoakRequest``: vampires soak bashing and lethal with Stamina +
  Fortitude and aggravated with Fortitude; mortals soak bashing with Stamina only.
- The combat chain (V20-17): a ``damage`` roll follows the attack's receipt, a ``soak`` follows the
  damage receipt and marks the levels left on the defender's health track (``rollbook.play``).
- The dodge (V20-20): a ``dodge`` follows a successful attack's receipt and takes one of its successes
  per success of its own; the damage roll then follows the dodge with the successes left (none: the
  attack missed, no damage roll). Reading: the pool is Dexterity + the sheet's Dodge when it holds that
  Ability (the classic Talent), else Dexterity + Athletics (V20 core folds Dodge into Athletics).
- Potence and Fortitude (V20-21): a Brawl or Melee attack's damage roll adds the attacker's Potence as
  automatic successes (levels, recorded apart); Fortitude adds to soak (as V20-16 already had it).
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
    Follows,
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
    check_chained,
    drawn_once,
    filled,
    follows_note,
    legacy,
    performed,
    pool_mismatches,
    rating,
    replay,
    roll_receipt,
    storyteller_only,
    verified,
)
from rollbook.rules import get_system
from rollbook.rules.base import Faces, RuleError, to_plain
from rollbook.systems.v20 import quick as QUICK  # the quick roll's values and request
from rollbook.systems.v20 import rules
from rollbook.systems.v20 import turns as TURNS  # its per-turn limits
from rollbook.systems.v20.changes import CHANGE_RECORDS, CHANGES, STORYTELLER_CHANGES, adjust
from rollbook.systems.v20.sheet import (
    ABILITY_GROUPS,
    PLAYER_ADDS,
    PLAYER_FIELDS,
    SYSTEM,
    TABLES,
    Attribute,
    DamageType,
    Sheet,
    Virtue,
    Weapon,
    ability_of,
    resources,
    take_damage,
    trait_rating,
)
from rollbook.systems.v20.sheet import (
    above_generation as above_generation,  # the play module's interface (play.__init__)
)
from rollbook.systems.v20.sheet import (
    check_mode as check_mode,  # the play module's interface (play.__init__)
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
    "step_takes",
    "TURNS",
    "ACTIONS",
    "QUICK",
    "CHAINS",
    "CHANGE_RECORDS",
    "CHANGES",
    "ROLL_RECORDS",
    "FOLLOWUPS",
    "PLAYER_ADDS",
    "PLAYER_FIELDS",
    "STORYTELLER_ACTIONS",
    "STORYTELLER_CHANGES",
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
    "check_mode",
]

# --- actions (rolls) ------------------------------------------------------------------------------

AttributeName = Attribute


class TestAction(Model):
    """Attribute + Ability (or + Discipline) against a difficulty (V20-1 … V20-12)."""

    kind: Literal["test"]
    attribute: AttributeName
    ability: TraitName | None = None
    discipline: TraitName | None = None
    specialty: Label | None = None  # a specialty the sheet holds on the attribute or ability (V20-7)
    difficulty: int = rating(2, 10, rules.DEFAULT_DIFFICULTY)  # V20-2
    required: int = rating(1, 20, 1)  # V20-2
    modifier: int = rating(-20, 20, 0)  # dice added or removed (equipment, circumstances)
    willpower: bool = False  # V20-9: spend one Willpower for an automatic success
    auto_successes: int = rating(0, 10, 0)  # from powers (V20-9), recorded apart
    knowledge_allowed: bool = False  # V20-3 Book: the Storyteller allows an untrained Knowledge
    weapon: Label | None = None  # V20-17: the sheet's weapon an attack is made with (its damage roll's)


class WillpowerRollAction(Model):
    """A roll of permanent Willpower (V20-9: no Willpower success on it)."""

    kind: Literal["willpower"]
    difficulty: int = rating(2, 10, rules.DEFAULT_DIFFICULTY)
    required: int = rating(1, 20, 1)
    modifier: int = rating(-20, 20, 0)


class VirtueRollAction(Model):
    """A roll of a Virtue (Conscience, Self-Control, Courage)."""

    kind: Literal["virtue"]
    virtue: Virtue
    difficulty: int = rating(2, 10, rules.DEFAULT_DIFFICULTY)
    required: int = rating(1, 20, 1)
    modifier: int = rating(-20, 20, 0)


class DamageAction(Model):
    """The damage roll of a successful attack (V20-17): the weapon's pool plus one die per attack
    success beyond the first, taken from the attack's receipt (the roll this one follows). No weapon:
    a punch, Strength in bashing damage."""

    kind: Literal["damage"]
    weapon: Label | None = None
    aimed_at_head: bool = False  # Book: a bullet aimed at the head stays lethal against a vampire


class DodgeAction(Model):
    """The defender's dodge (V20-20): Dexterity + Dodge (``dodge_ability``), an ordinary V20 test that
    follows the attack's receipt; each success takes one of the attack's successes away."""

    kind: Literal["dodge"]
    specialty: Label | None = None  # V20-7, on Dexterity or the Ability rolled
    difficulty: int = rating(2, 10, rules.DEFAULT_DIFFICULTY)  # V20-20: 6 unless cover or terrain
    modifier: int = rating(-20, 20, 0)  # V20-13: the Storyteller's multiple-action penalty, as dice
    willpower: bool = False  # V20-9


class SoakAction(Model):
    """A soak roll at difficulty 6 (V20-16); the damage left is marked on the health track. Following a
    damage roll (the combat chain), its levels and damage type come from that receipt; otherwise
    they are typed in."""

    kind: Literal["soak"]
    damage: int | None = Field(None, ge=0, le=30)
    damage_type: DamageType | None = None


ACTIONS = by_kind(TestAction, WillpowerRollAction, VirtueRollAction, DodgeAction, DamageAction, SoakAction)
Action = (
    TestAction | WillpowerRollAction | VirtueRollAction | DodgeAction | DamageAction | SoakAction
)  # one of ``ACTIONS``
FOLLOWUPS: dict[str, type[Model]] = {}
STORYTELLER_ACTIONS: frozenset[str] = frozenset()
# The combat chain (V20-17, V20-20): attack (a test) -> (dodge) -> damage -> soak -> health track.
CHAINS: dict[str, tuple[str, ...]] = {"dodge": ("test",), "damage": ("test", "dodge"), "soak": ("damage",)}


@dataclass(frozen=True)
class DodgedAttack:
    """What a dodge's receipt records of the attack it follows (V20-20): the attack's combat Ability and
    weapon (its damage roll's), its successes, and those the dodge left it."""

    ability: str
    weapon: str | None
    successes: int
    left: int


# What each kind of roll records under "request" and "result" (play.schema describes receipts from it).
ROLL_RECORDS: dict[str, Recorded] = {
    "test": Recorded(rules.V20Request, rules.V20Receipt),
    "willpower": Recorded(rules.V20Request, rules.V20Receipt),
    "virtue": Recorded(rules.V20Request, rules.V20Receipt),
    "dodge": Recorded(
        rules.V20Request, rules.V20Receipt, always={"follows": Follows, "attack": DodgedAttack}
    ),
    "damage": Recorded(rules.DamageRequest, rules.DamageReceipt, always={"follows": Follows}),  # V20-17
    "soak": Recorded(rules.SoakRequest, rules.SoakReceipt, sometimes={"follows": Follows}),  # V20-16, V20-17
}


def _wound(sheet: Sheet) -> int:
    penalty = rules.wound_penalty(sheet.health.damage)  # V20-16
    if penalty is None:
        raise RuleError("incapacitated", damage=sheet.health.damage)
    return penalty


def _pool(parts: list[JsonObject], modifiers: list[JsonObject], wound: int) -> JsonObject:
    raw = sum(p["rating"] for p in parts) + sum(m["dice"] for m in modifiers) + wound
    return {"parts": parts, "modifiers": modifiers, "wound_penalty": wound, "total": max(0, raw)}  # V20-1


READS_TABLE_RULES = True  # TR-1: ``prepare`` puts the chronicle's table rules in the rules request
READS_COMPULSION = False  # a V5 compulsion (seed 001) is no V20 roll's
DECLARED_FIELD = None  # a test names traits, no action declared in words

# A-1, action kind by action kind (``play.authority``): the fields that are the Storyteller's (edges)
# and the player's; the two lists cover every field of the action models (``tests/play/test_authority``).
EDGE_FIELDS: dict[str, frozenset[str]] = {
    # V20-2 difficulty and successes required; extra or fewer dice; V20-9 successes from powers;
    # V20-3 Book the leave to roll an untrained Knowledge.
    "test": frozenset({"difficulty", "required", "modifier", "auto_successes", "knowledge_allowed"}),
    "willpower": frozenset({"difficulty", "required", "modifier"}),
    "virtue": frozenset({"difficulty", "required", "modifier"}),
    # V20-17: the weapon's pool and the attack's extra successes, difficulty 6; a modifier of the
    # damage (a shot aimed at the head) is the Storyteller's.
    "damage": frozenset({"aimed_at_head"}),
    # V20-20: a dodge's difficulty (cover, terrain) and the multiple-action penalty (V20-13).
    "dodge": frozenset({"difficulty", "modifier"}),
    # V20-16: difficulty 6, the pool from the sheet. Damage typed in (a soak that follows no damage
    # roll) is the Storyteller's to set; after a damage roll it comes from that receipt.
    "soak": frozenset({"damage", "damage_type"}),
}
ACTION_PLAYER_FIELDS: dict[str, frozenset[str]] = {
    # an attack's weapon is the player's (V20-17), as a damage roll's is
    "test": frozenset({"kind", "attribute", "ability", "discipline", "specialty", "willpower", "weapon"}),
    "willpower": frozenset({"kind"}),
    "virtue": frozenset({"kind", "virtue"}),
    "damage": frozenset({"kind", "weapon"}),  # the sheet's weapon, of the kind the attack's Ability uses
    "dodge": frozenset({"kind", "specialty", "willpower"}),  # V20-20: the defender's own test
    "soak": frozenset({"kind"}),
}
# a sheet's sections whose traits a roll names, and the action field each fills (Discord's ``/roll``)
TRAIT_FIELDS: tuple[tuple[str, str], ...] = (
    ("attributes", "attribute"),
    ("talents", "ability"),
    ("skills", "ability"),
    ("knowledges", "ability"),
)
# A worked example of the player's part of each action's request (edges left to the baseline; a
# Storyteller's action, its whole request), which ``EXAMPLE_SHEET``'s character can make (after
# ``follows`` when the action is a step of the combat chain): ``play.catalogue`` reads them.
EXAMPLES: dict[str, JsonObject] = {
    "test": {"kind": "test", "attribute": "dexterity", "ability": "firearms"},
    "willpower": {"kind": "willpower"},
    "virtue": {"kind": "virtue", "virtue": "courage"},
    "dodge": {"kind": "dodge"},
    "damage": {"kind": "damage", "weapon": "Pistol"},
    "soak": {"kind": "soak"},
}
# A character who can make every example above.
EXAMPLE_SHEET: JsonObject = {
    "name": "Lucita",
    "generation": 10,
    "attributes": {"strength": 2, "dexterity": 4, "stamina": 2, "wits": 3},
    "talents": {"alertness": 2, "dodge": 2},
    "skills": {"firearms": 4},
    "disciplines": {"fortitude": 1},
    "virtues": {"courage": 3},
    "weapons": [{"name": "Pistol", "kind": "firearm", "damage": 4}],
}
STORYTELLER_SHEET_FIELDS: frozenset[str] = frozenset()  # nothing on a sheet is the Storyteller's alone
STORYTELLER_VALUES: dict[str, list[str]] = {}  # no value of an action field is the Storyteller's alone


def prepare(
    sheet: Sheet,
    action: Action,
    *,
    mode: Mode,
    role: str,
    follows: JsonObject | None = None,
    table_rules: tuple[str, ...] = (),
) -> Prepared:
    """Build the roll from the sheet (pool and rules request) and make every refusal; no die drawn.
    ``table_rules``: the set in force (TR-1), resolved under by the test, Willpower and Virtue rolls."""
    if isinstance(action, SoakAction):
        return _prepare_soak(sheet, action, follows)
    if isinstance(action, DamageAction):
        return _prepare_damage(sheet, action, follows)
    if isinstance(action, DodgeAction):
        return _prepare_dodge(sheet, action, mode=mode, follows=follows, table_rules=table_rules)
    modifiers = [{"source": "modifier", "dice": action.modifier}] if action.modifier else []
    wound = _wound(sheet)
    untrained: rules.Untrained | None = None
    specialty_rating = None
    willpower = False
    auto = 0
    knowledge_allowed = False
    if isinstance(action, TestAction):
        parts = [{"trait": action.attribute, "rating": getattr(sheet.attributes, action.attribute)}]
        if action.ability is not None and action.discipline is not None:
            raise RuleError("one_trait_only", fields=["ability", "discipline"])
        if action.ability is not None:
            group, value = ability_of(sheet, action.ability)
            part: JsonObject = {"trait": action.ability, "rating": value, "group": group}
            if value == 0:  # V20-3: a Talent rolls the Attribute alone; a Skill or Knowledge adds +1
                untrained = ABILITY_GROUPS[group][0]
                part["untrained"] = untrained
            parts.append(part)
        if action.discipline is not None:
            value = sheet.disciplines.get(action.discipline, 0)
            if value == 0:
                raise RuleError("trait_not_possessed", field="discipline", trait=action.discipline)
            parts.append({"trait": action.discipline, "rating": value, "group": "disciplines"})
        if action.specialty is not None:  # V20-7: the chosen trait's stored rating decides
            holders = [
                t
                for t in (action.attribute, action.ability)
                if t is not None and action.specialty in sheet.specialties.get(t, [])
            ]
            if not holders:
                raise RuleError("unknown_specialty", field="specialty", specialty=action.specialty)
            trait = holders[-1]
            specialty_rating = trait_rating(sheet, trait)
            for part in parts:
                if part["trait"] == trait:
                    part["specialty"] = action.specialty
        if action.weapon is not None:
            _declared_weapon(sheet, action)
        willpower = action.willpower
        auto = action.auto_successes
        knowledge_allowed = action.knowledge_allowed
        # V20-3 Book and V20-9: the Storyteller's leave for an untrained Knowledge, and successes
        # granted by powers, are the Storyteller's to give, not a player's to claim.
        if knowledge_allowed:
            storyteller_only(role, "test.knowledge_allowed")
        if auto:
            storyteller_only(role, "test.auto_successes")
        difficulty, required = action.difficulty, action.required
        willpower_roll = False
    elif isinstance(action, WillpowerRollAction):
        parts = [{"trait": "willpower", "rating": sheet.willpower.permanent}]
        difficulty, required, willpower_roll = action.difficulty, action.required, True
    else:
        assert isinstance(action, VirtueRollAction)
        parts = [{"trait": action.virtue, "rating": getattr(sheet.virtues, action.virtue)}]
        difficulty, required, willpower_roll = action.difficulty, action.required, False
    pool = _pool(parts, modifiers, wound)
    # The request validates itself before any die is drawn (V20-3, V20-7, V20-9 refusals).
    request = rules.V20Request(
        pool=pool["total"],
        difficulty=difficulty,
        required=required,
        mode=mode,
        untrained=untrained,
        knowledge_allowed=knowledge_allowed,
        specialty=specialty_rating is not None,
        specialty_rating=specialty_rating,
        willpower=willpower,
        willpower_roll=willpower_roll,
        willpower_current=sheet.willpower.current if willpower else None,
        auto_successes=auto,
        table_rules=table_rules,
    )
    return Prepared(request, pool, get_system(SYSTEM))


def apply(
    sheet: Sheet,
    action: Action,
    prepared: Prepared,
    faces: Faces,
    result: rules.V20Receipt | rules.DamageReceipt | rules.SoakReceipt,
    *,
    source: dice.DiceSource,
) -> Performed:
    """The consequences of the drawn dice, on a copy of the sheet (``play.perform`` draws them)."""
    effects = Effects()
    new = sheet.model_copy()  # shallow: what changes is replaced below, never changed in place
    if isinstance(action, SoakAction):  # V20-17: the levels left after soak, marked in the soak's transaction
        assert isinstance(result, rules.SoakReceipt)  # what SOAK_SYSTEM resolves
        new.health = take_damage(sheet.health, result.damage_taken, prepared.request.damage_type, effects)
    # V20-17: a damage roll changes nothing on the attacker's sheet; the defender's soak marks it
    if (
        isinstance(action, (TestAction, DodgeAction)) and prepared.request.willpower
    ):  # V20-9: the spend lowers current Willpower in the same transaction
        new.willpower = sheet.willpower.model_copy(update={"current": filled(sheet.willpower.current) - 1})
        effects.change("willpower", sheet.willpower.current, new.willpower.current)
    receipt = roll_receipt(
        SYSTEM,
        action.kind,
        action,
        prepared.pool,
        prepared.request,
        faces,
        result,
        effects,
        **follows_note(prepared.context.get("follows")),
        **_dodge_note(action, prepared, result),
    )
    return performed(new, receipt, effects, loaded=sheet)


SOAK_SYSTEM = Shim(rules.soak_needed, rules.resolve_soak)
DAMAGE_SYSTEM = Shim(rules.damage_needed, rules.resolve_damage)


# V20-17: an attack is a test of a combat Ability; the weapon a damage roll may name follows from it
# (a perception roll is no attack, and a punch is not a rifle shot).
COMBAT_ABILITIES: dict[str, tuple[str, ...]] = {
    "brawl": ("unarmed",),  # Book: Dexterity + Brawl, a punch, a kick, a bite: Strength, bashing
    "melee": ("unarmed", "hand_to_hand"),  # Book: Dexterity + Melee, a hand-to-hand weapon
    "firearms": ("firearm",),  # Book: Dexterity + Firearms
    "archery": ("hand_to_hand",),  # V20 Dark Ages' bows and crossbows: the sheet's hand-to-hand weapons
}


def played_cards(sheet: JsonObject, names: Any) -> list[JsonObject] | None:
    """No card is played with a roll (R-6 is roll-under's): None."""
    return None


def step_takes(kind: str, receipt: JsonObject, result: Mapping[str, Any]) -> JsonObject | None:
    """The numbers a step of the combat chain takes from the receipt it follows (``result``: its rules
    result; the web's and Discord's next-step buttons); None when the rules refuse the step: V20-17,
    only an attack that hit is followed by damage or a dodge, V20-20 after a dodge damage with the
    successes it left; a soak takes the damage's levels and type (none to soak: refused)."""
    if kind in ("damage", "dodge"):
        try:
            return {"successes": attack_successes_of(receipt)}
        except RuleError:
            return None
    if kind == "soak":
        if not result.get("levels"):
            return None  # V20-17: no level to soak
        return {"levels": result["levels"], "damage_type": result.get("damage_type")}
    return {}


def attack_ability_of(follows: JsonObject) -> str:
    """The combat Ability of the attack a damage roll or a dodge follows (a dodge's: the attack it
    dodged, V20-20); a test of any other trait is no attack."""
    if follows.get("kind") == "dodge":
        return str((follows.get("attack") or {}).get("ability"))
    action = follows.get("action") or {}
    ability = action.get("ability")
    if follows.get("kind") != "test" or ability not in COMBAT_ABILITIES:
        raise RuleError("not_an_attack", ability=str(ability), abilities=sorted(COMBAT_ABILITIES))
    return str(ability)


def attack_successes_of(follows: JsonObject) -> int:
    """V20-17: a damage roll follows a successful attack; its successes beyond the first add dice.
    V20-20: after a dodge, the successes the dodge left (none: the attack missed)."""
    attack_ability_of(follows)
    if follows.get("kind") == "dodge":
        left = int(follows["attack"]["left"])
        if left < 1:
            raise RuleError("attack_dodged")
        return left
    result = follows["result"]
    if result.get("outcome") != "success":
        raise RuleError("attack_missed")
    return int(result["successes"])


def attack_weapon_of(follows: JsonObject) -> str | None:
    """The weapon the attack a damage roll follows was declared with (through a dodge, V20-20)."""
    if follows.get("kind") == "dodge":
        weapon = (follows.get("attack") or {}).get("weapon")
    else:
        weapon = (follows.get("action") or {}).get("weapon")
    return None if weapon is None else str(weapon)


def dodge_ability(sheet: Sheet) -> str:
    """V20-20 (Reading): the Ability a dodge rolls with Dexterity: the sheet's Dodge when it holds one
    (the classic Talent, a homebrew trait here), else Athletics (V20 core folds Dodge into it)."""
    try:
        ability_of(sheet, "dodge")
    except RuleError:
        return "athletics"
    return "dodge"


def dodge_test(sheet: Sheet, action: DodgeAction) -> TestAction:
    """The dodge as the ordinary test it is (V20-20: V20-1 … V20-12), for the sheet's pool."""
    return TestAction(
        kind="test",
        attribute="dexterity",
        ability=dodge_ability(sheet),
        specialty=action.specialty,
        difficulty=action.difficulty,
        modifier=action.modifier,
        willpower=action.willpower,
    )


def _prepare_dodge(
    sheet: Sheet,
    action: DodgeAction,
    *,
    mode: Mode,
    follows: JsonObject | None,
    table_rules: tuple[str, ...],
) -> Prepared:
    """V20-20: the dodge follows a successful attack (its receipt); the pool and refusals are the
    test's (wound penalties included: a dodge is an action); the Storyteller's multiple-action
    penalty comes as the modifier (V20-13)."""
    if follows is None:
        raise RuleError("follows_required", kind="dodge", follows="test")
    successes = attack_successes_of(follows)
    test = prepare(sheet, dodge_test(sheet, action), mode=mode, role="player", table_rules=table_rules)
    attack = DodgedAttack(
        ability=attack_ability_of(follows),
        weapon=attack_weapon_of(follows),
        successes=successes,
        left=successes,
    )
    return Prepared(test.request, test.pool, test.system, {"follows": follows, "attack": attack})


def _dodge_note(action: Model, prepared: Prepared, result: object) -> JsonObject:
    """V20-20: a dodge's receipt records the attack it dodged and the successes left to it (each dodge
    success takes one; never below zero)."""
    if not isinstance(action, DodgeAction):
        return {}
    assert isinstance(result, rules.V20Receipt)
    attack: DodgedAttack = prepared.context["attack"]
    left = max(0, attack.successes - result.successes)
    return {"attack": to_plain(DodgedAttack(attack.ability, attack.weapon, attack.successes, left))}


POTENCE_ABILITIES = frozenset({"brawl", "melee"})  # V20-21: the attacks whose damage Potence adds to


def _prepare_damage(sheet: Sheet, action: DamageAction, follows: JsonObject | None) -> Prepared:
    """V20-17 Book: Strength + the weapon's bonus (hand-to-hand) or the weapon's rating (firearms), plus
    one die per attack success beyond the first (from the attack's receipt); difficulty 6, no botch.
    Reading: wound penalties do not reduce a damage pool (as soak, V20-16)."""
    if follows is None:
        raise RuleError("follows_required", kind="damage", follows="test")
    successes = attack_successes_of(follows)
    ability = attack_ability_of(follows)
    strength = sheet.attributes.strength
    declared = attack_weapon_of(follows)  # the weapon the attack was made with
    if declared is not None:
        if action.weapon not in (None, declared):
            raise RuleError("weapon_not_the_attacks", field="weapon", weapon=action.weapon, ability=ability)
        action = action.model_copy(update={"weapon": declared})
    if action.weapon is None:  # Book: a punch is Strength, bashing
        weapon = Weapon(name="unarmed", kind="hand_to_hand", damage=0, damage_type="bashing")
        used = "unarmed"
    else:
        weapon = _weapon(sheet, action.weapon)
        used = weapon.kind
    if used not in COMBAT_ABILITIES[ability]:  # the weapon is the attack's
        raise RuleError("weapon_not_the_attacks", weapon=weapon.name, ability=ability)
    firearm = weapon.kind == "firearm"
    base, extra = rules.damage_pool(strength, weapon.damage, firearm, successes)
    parts: list[JsonObject] = [] if firearm else [{"trait": "strength", "rating": strength}]
    parts.append({"trait": "weapon", "weapon": weapon.name, "rating": weapon.damage})
    modifiers = [{"source": "attack_successes", "dice": extra, "successes": successes}] if extra else []
    # V20-21: Potence adds its rating as automatic successes to a Brawl or Melee attack's damage
    potence = sheet.disciplines.get("potence", 0) if ability in POTENCE_ABILITIES else 0
    request = rules.DamageRequest(pool=base + extra, damage_type=weapon.damage_type, potence=potence)
    pool = {
        "parts": parts,
        "modifiers": modifiers,
        "wound_penalty": 0,
        "total": request.pool,
        "weapon": {
            "name": weapon.name,
            "kind": weapon.kind,
            "damage": weapon.damage,
            "damage_type": weapon.damage_type,
        },
    }
    return Prepared(request, pool, DAMAGE_SYSTEM, {"follows": follows})


def _declared_weapon(sheet: Sheet, action: TestAction) -> Weapon:
    """V20-17: a test declared with a weapon is an attack of a combat Ability with one of its weapons (a
    knife with Melee, a Glock with Firearms); its damage roll then uses that weapon."""
    if action.ability not in COMBAT_ABILITIES:
        trait = action.ability or action.discipline or action.attribute
        raise RuleError(
            "weapon_needs_an_attack", field="weapon", ability=str(trait), abilities=sorted(COMBAT_ABILITIES)
        )
    weapon = _weapon(sheet, str(action.weapon))
    if weapon.kind not in COMBAT_ABILITIES[action.ability]:
        raise RuleError("weapon_not_the_attacks", field="weapon", weapon=weapon.name, ability=action.ability)
    return weapon


def _weapon(sheet: Sheet, name: str) -> Weapon:
    for weapon in sheet.weapons:
        if weapon.name == name:
            return weapon
    raise RuleError("unknown_weapon", field="weapon", weapon=name)


def _damage_from(sheet: Sheet, follows: JsonObject) -> tuple[int, DamageType, JsonObject]:
    """The levels and damage type a soak takes from the damage receipt it follows (V20-17), with the
    Book's rule for bullets against vampires (``systems.v20.rules.damage_type_against``)."""
    result, weapon = follows["result"], follows["pool"]["weapon"]
    damage_type = rules.damage_type_against(
        result["damage_type"],
        firearm=weapon["kind"] == "firearm",
        vampire=sheet.creature == "vampire",
        aimed_at_head=follows["action"].get("aimed_at_head", False),
    )
    taken = {"levels": result["levels"], "damage_type": result["damage_type"], "weapon": weapon["name"]}
    if damage_type != result["damage_type"]:
        taken["soaked_as"] = damage_type
    levels: int = result["levels"]
    return levels, damage_type, taken


def _prepare_soak(sheet: Sheet, action: SoakAction, follows: JsonObject | None) -> Prepared:
    check_chained(action, follows, ("damage", "damage_type"))
    damage_type: DamageType
    taken: JsonObject | None
    if follows is None:  # check_chained: both typed in
        levels, damage_type, taken = filled(action.damage), filled(action.damage_type), None
    else:
        levels, damage_type, taken = _damage_from(sheet, follows)
    stamina = sheet.attributes.stamina
    fortitude = sheet.disciplines.get("fortitude", 0)
    request = rules.SoakRequest(
        damage=levels,
        damage_type=damage_type,
        stamina=stamina,
        fortitude=fortitude,
        vampire=sheet.creature == "vampire",
    )
    parts: list[JsonObject] = []
    if sheet.creature == "vampire":
        if damage_type != "aggravated":
            parts.append({"trait": "stamina", "rating": stamina})
        parts.append({"trait": "fortitude", "rating": fortitude})
    elif damage_type == "bashing":
        parts.append({"trait": "stamina", "rating": stamina})
    pool: JsonObject = {
        "parts": parts,
        "modifiers": [],
        "wound_penalty": 0,
        "total": rules.soak_pool(request),
    }
    if taken is not None:
        pool["damage_from"] = taken
    return Prepared(request, pool, SOAK_SYSTEM, {"follows": follows})


def followup(
    sheet: Sheet, receipt: JsonObject, action: JsonObject, *, mode: Mode, role: str, source: dice.DiceSource
) -> Performed:
    raise RuleError("no_followup", system=SYSTEM)


# --- verification ----------------------------------------------------------------------------

# TR-1, TR-2: receipt fields added with the table rules, and their value on a roll made under none.
_TABLE_RULE_FIELDS: dict[str, Any] = {
    "table_rules": [],
    "reroll_limit": None,
    "rerolled": 0,
    "reroll_capped": 0,
}


# V20-21: damage receipt fields added with Potence, and their value on a roll without it.
_POTENCE_FIELDS: dict[str, Any] = {"auto_successes": 0, "auto_sources": {}}


def _as_stored(receipt: JsonObject, result: object, added: dict[str, Any] = _TABLE_RULE_FIELDS) -> object:
    """A receipt stored before the table rules existed has none of their fields: the recomputed
    result is compared without them when they say what such a roll says (no table rule applied)."""
    stored = receipt.get("result")
    plain = to_plain(result)
    if not isinstance(stored, dict):
        return plain
    for name, empty in added.items():
        if name not in stored and plain.get(name) == empty:
            del plain[name]
    return plain


def verify(receipt: JsonObject) -> list[str]:
    kind = receipt.get("kind")
    if kind == "soak":
        request, result = replay(rules.SoakRequest, rules.resolve_soak, receipt)
        expected_total = rules.soak_pool(request)
        if legacy(receipt, "outcome"):
            # Resolved before a soak's receipt named its outcome (V20-16/V20-17, commit 5f261ac: the
            # combat chain's soaked/damaged): the same numbers, no outcome field.
            result = to_plain(result)
            result.pop("outcome", None)
    elif kind == "damage":
        request, result = replay(rules.DamageRequest, rules.resolve_damage, receipt)
        expected_total = request.pool
        result = _as_stored(receipt, result, _POTENCE_FIELDS)
    else:
        request, result = replay(rules.V20Request, rules.resolve, receipt)
        expected_total = request.pool
        result = _as_stored(receipt, result)
    problems = verified(receipt, result, expected_total)
    pool = receipt.get("pool") or {}
    if kind != "soak" and isinstance(pool.get("parts"), list):
        try:
            raw = (
                sum(p["rating"] for p in pool["parts"])
                + sum(m["dice"] for m in pool.get("modifiers", []))
                + pool.get("wound_penalty", 0)
            )
        except (KeyError, TypeError):
            problems.append("pool_mismatch:parts")
        else:
            if max(0, raw) != pool.get("total"):
                problems.append("pool_mismatch:parts")
    return problems


# --- what ``rollbook log verify`` checks of a roll beyond its arithmetic (A-2; ``server.ledger``) ---

# The action's fields ``prepare`` hands to the rules request unchanged.
REQUEST_FROM_ACTION = (
    "difficulty",
    "required",
    "willpower",
    "auto_successes",
    "knowledge_allowed",
    "damage",
    "damage_type",
)


def request_problems(receipt: JsonObject) -> list[Mismatch]:
    """The request against the action (V20-7: a specialty asked is a specialty applied) and the pool
    built from the sheet (V20-1; a soak's pool is its own, V20-16)."""
    action, request = receipt.get("action"), receipt.get("request")
    if not isinstance(action, dict) or not isinstance(request, dict):
        return []
    problems: list[Mismatch] = []
    if (
        "specialty" in action
        and "specialty" in request
        and bool(request["specialty"]) != (action["specialty"] is not None)
    ):
        problems.append(("specialty", {}))
    return problems + pool_mismatches(receipt, total=receipt.get("kind") != "soak")


def effect_problems(
    entry_kind: str, receipt: JsonObject, effects: Mapping[str, list[JsonObject]]
) -> list[Mismatch]:
    """V20-9: a roll spends one point of Willpower, from what the sheet held, exactly when its request
    says so (a soak and a damage roll spend none)."""
    if entry_kind != "roll" or receipt.get("kind") in ("soak", "damage"):
        return []
    stored = receipt.get("request")
    request: JsonObject = stored if isinstance(stored, dict) else {}
    spent = effects.get("willpower", [])
    if request.get("willpower"):
        held = request.get("willpower_current")
        if (
            len(spent) != 1
            or spent[0].get("before") != held
            or not isinstance(held, int)
            or spent[0].get("after") != held - 1
        ):
            return [("willpower_spent", {})]
    elif spent:
        return [("willpower_unspent", {})]
    return []


def sheet_reads(request: JsonObject) -> tuple[tuple[str, Any], ...]:
    """The sheet's resources the request read (V20-9: the current Willpower it spends from)."""
    return (("willpower", request.get("willpower_current")),) if request.get("willpower") else ()


def drawn(receipt: JsonObject) -> tuple[Drawn, ...]:
    """The dice the roll drew: a soak's (V20-16) and a damage roll's (V20-17) own pools, else the test's."""
    kind = receipt.get("kind")
    if kind == "soak":
        return drawn_once(SOAK_SYSTEM, rules.SoakRequest, receipt)
    if kind == "damage":
        return drawn_once(DAMAGE_SYSTEM, rules.DamageRequest, receipt)
    return drawn_once(get_system("v20"), rules.V20Request, receipt)
