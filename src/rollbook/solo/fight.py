"""A fight run by the engine (SPEC S-3): the player chooses, the engine rolls everything else, each roll
an ordinary step of the combat chain (V20-16, V20-17, V20-18): attack → damage → soak → health track.

One choice is one turn:

1. the player's action: an attack on a standing NPC (``attack:<i>:<npc>``, ``attack_wp:…`` spending a
   Willpower point for a success, V20-9), a dodge of this turn's attacks (``dodge``, V20-20),
   healing with blood (``heal``), or
   fleeing (``flee``, when the scenario offers it: the fight ends there);
2. an attack that hits is followed by the player's dodge when the player dodges (V20-20), then by its damage roll (the weapon's pool plus the attack's successes
   beyond the first, V20-17) and the NPC's soak (V20-16), which marks the levels left on its track;
3. every NPC still standing attacks the player's character the same way, the player's soak marking
   the player's track; wound penalties (V20-16) are the play layer's, from each sheet as it is now;
4. the next turn starts (a ``turn`` entry: blood per turn counts within it, V20-18, A-3).

The fight ends when every NPC is down (``win``) or the player's character is (``lose``): down is a
full health track (Incapacitated, or worse).

Readings (documented here, the Book being a table's):
- *Dodge* (V20-20): the player's action for the turn, declared before the NPCs attack; each NPC
  attack that hits is followed by the player's dodge roll in the chain (``systems.v20.play``'s ``dodge``:
  Dexterity + Dodge, or Athletics where the sheet has no Dodge, difficulty 6), each of its successes
  taking one of that attack's; an attack left with none is not followed by damage, one left with
  successes goes on to damage with the successes left (V20-17). The scenario, the Storyteller here,
  sets no multiple-action penalty (V20-13) on the dodges of one turn.
- *Healing*: one spend of blood heals as many levels as it spends (lethal first, then bashing), at
  most the blood per turn of the Generation (V20-18) and the blood in the pool.
"""

from __future__ import annotations

from collections.abc import Generator

from rollbook.entries import RollReceipt, V20DamageResult, V20TestResult
from rollbook.rules.base import RuleError
from rollbook.solo import actions
from rollbook.solo.format import Attack, Fight
from rollbook.solo.steps import PLAYER, Adjust, Arrive, Choose, Done, JsonObject, Roll, Scene, Step, Steps
from rollbook.solo.system import solo_system

# The roll a dodge makes (V20-20; a scenario's sheets hold no Dodge, so Athletics), previewed for the
# option's odds before the attacks it will follow.
DODGE = {"kind": "test", "attribute": "dexterity", "ability": "athletics", "difficulty": 6}


def down(system: str, sheet: JsonObject) -> bool:
    """Out of the fight: a full health track of ``system``'s (Incapacitated or worse, V20-16)."""
    health = sheet.get("health") or {}
    damage: int = sum(health.get(t, 0) for t in ("bashing", "lethal", "aggravated"))
    return damage >= solo_system(system).HEALTH_TRACK


def standing(system: str, fight: Fight, sheets: dict[str, JsonObject]) -> list[str]:
    return [npc for npc in fight.npcs if npc in sheets and not down(system, sheets[npc])]


def heal_of(sheet: JsonObject) -> tuple[int, str] | None:
    """How much blood one spend heals now, and which damage (lethal first): None when nothing can be."""
    blood = sheet.get("blood") or {}
    if sheet.get("creature", "vampire") != "vampire" or not blood.get("current"):
        return None
    health = sheet.get("health") or {}
    for damage_type in ("lethal", "bashing"):
        if health.get(damage_type):
            return min(blood["current"], blood.get("per_turn") or 1, health[damage_type]), damage_type
    return None


def options(system: str, fight: Fight, sheets: dict[str, JsonObject]) -> list[JsonObject]:
    """The player's choices this turn: ``{"id", "kind", ...}`` (the words are ``solo.text``'s)."""
    player = sheets[PLAYER]
    willpower = (player.get("willpower") or {}).get("current") or 0
    found: list[JsonObject] = []
    for index, attack in enumerate(fight.attacks):
        try:
            actions.weapon_of(system, player, attack)
        except RuleError:
            continue  # a weapon the character does not carry (their own sheet)
        for npc in standing(system, fight, sheets):
            base = {
                "kind": "attack",
                "attack": index,
                "target": npc,
                "traits": list(attack.traits),
                "difficulty": attack.difficulty,
                "weapon": attack.weapon,
            }
            found.append({"id": f"attack:{index}:{npc}", **base, "willpower": False})
            if willpower:
                found.append({"id": f"attack_wp:{index}:{npc}", **base, "willpower": True})
    found.append({"id": "dodge", "kind": "dodge", "traits": ["dexterity", "athletics"], "difficulty": 6})
    healing = heal_of(player)
    if healing is not None:
        found.append({"id": "heal", "kind": "heal", "amount": healing[0], "damage_type": healing[1]})
    if fight.flee is not None:
        found.append({"id": "flee", "kind": "flee"})
    return found


def _exchange(
    attacker: str, target: str, action: JsonObject, weapon: str | None, *, dodged: bool = False
) -> Generator[Step, Done, Done]:
    """One attack of the chain (V20-17): the attack, the target's dodge when it hits and the target
    dodges (V20-20), its damage when successes are left, the target's soak when the damage did any
    level. Returns the last Done (its sheets are the fight's as it is now)."""
    done = yield Roll(attacker, action, target=target)
    if V20TestResult.of(RollReceipt.of(done.receipt).result).outcome != "success":
        return done
    if dodged:
        done = yield Roll(target, {"kind": "dodge"}, follows=done.seq)
        if not (RollReceipt.of(done.receipt).attack or {}).get("left"):
            return done  # every success dodged: no damage follows (V20-20)
    damage = {"kind": "damage"} if weapon is None else {"kind": "damage", "weapon": weapon}
    done = yield Roll(attacker, damage, follows=done.seq)
    if not V20DamageResult.of(RollReceipt.of(done.receipt).result).levels:
        return done
    return (yield Roll(target, {"kind": "soak"}, follows=done.seq))


def turn(
    system: str,
    passage_id: str,
    fight: Fight,
    npc_attacks: dict[str, Attack],
    option: JsonObject,
    sheets: dict[str, JsonObject],
) -> Steps:
    """One turn of the fight for the chosen ``option`` (one of ``options``); ``npc_attacks``: each NPC's
    ``format.Attack`` and its weapon name. Ends with ``Arrive`` when the fight ends."""
    yield Choose(passage_id, option["id"])
    if option["kind"] == "flee":
        assert fight.flee is not None  # ``options`` offers fleeing only when the scenario does
        yield Scene("close")
        yield Arrive(fight.flee, passage_id)
        return
    if option["kind"] == "attack":
        attack = fight.attacks[option["attack"]]
        done = yield from _exchange(
            PLAYER,
            option["target"],
            actions.attack_action(attack, willpower=option["willpower"]),
            attack.weapon,
        )
        sheets = done.sheets or sheets
        if not standing(system, fight, sheets):
            yield Scene("close")
            yield Arrive(fight.win, passage_id)
            return
    elif option["kind"] == "heal":
        done = yield Adjust(
            PLAYER, {"kind": "spend_blood", "amount": option["amount"], "heal": option["damage_type"]}
        )
        sheets = done.sheets or sheets
    for npc in standing(system, fight, sheets):
        attack = npc_attacks[npc]
        action = actions.attack_action(attack)
        done = yield from _exchange(npc, PLAYER, action, attack.weapon, dodged=option["kind"] == "dodge")
        sheets = done.sheets or sheets
        if down(system, sheets[PLAYER]):
            yield Scene("close")
            yield Arrive(fight.lose, passage_id)
            return
    yield Scene("turn")


def entered(system: str, passage_id: str, fight: Fight, sheets: dict[str, JsonObject]) -> Steps:
    """A fight begins: its scene and first turn (A-3); already decided when a side is down."""
    if down(system, sheets[PLAYER]):
        yield Arrive(fight.lose, passage_id)
        return
    if not standing(system, fight, sheets):
        yield Arrive(fight.win, passage_id)
        return
    # the scene is named after the foes (proper names read the same in every language; a passage id
    # would show as a raw code on the chronicle's page)
    yield Scene("open", ", ".join(sheets[npc].get("name") or npc for npc in fight.npcs))
