"""A V20 attack is declared with a weapon (V20-17), on SQLite and PostgreSQL.
A test of Melee or Firearms may name one of the sheet's weapons of that Ability; its damage roll is
then that weapon's (named or not), another weapon is refused; a weapon named on a test that is no
attack, or a weapon of another Ability, is refused at the weapon field."""

from __future__ import annotations

from .helpers import problem

NIA = {
    "name": "Nia",
    "attributes": {"strength": 3, "dexterity": 3},
    "skills": {"melee": 2, "firearms": 2, "stealth": 2},
    "weapons": [
        {"name": "Glock", "kind": "firearm", "damage": 4, "damage_type": "lethal"},
        {"name": "Navaja", "damage": 1, "damage_type": "lethal"},
        {"name": "Sable", "damage": 2, "damage_type": "lethal"},
    ],
}
ATTACK = {"kind": "test", "attribute": "dexterity", "ability": "melee", "difficulty": 2}


def _attack(table, character: int, **action) -> dict:
    # difficulty 2: almost always a success (retried until it is one)
    for _ in range(20):
        rolled = table.roll(table.st, character, {**ATTACK, **action})
        assert rolled.status_code == 201, rolled.text
        entry = rolled.json()["entry"]
        if entry["receipt"]["result"]["outcome"] == "success":
            return entry
    raise AssertionError("no successful attack in 20 rolls at difficulty 2")


def test_a_v20_attack_declared_with_a_weapon_deals_its_damage(make_table):
    table = make_table("v20")
    nia = table.character(table.st, NIA)["id"]
    attack = _attack(table, nia, weapon="Navaja")
    assert attack["receipt"]["action"]["weapon"] == "Navaja"
    # the damage roll names no weapon: the attack's own
    damage = table.roll(table.st, nia, {"kind": "damage"}, follows=attack["seq"])
    assert damage.status_code == 201, damage.text
    assert damage.json()["entry"]["receipt"]["pool"]["weapon"]["name"] == "Navaja"
    # another hand-to-hand weapon than the one declared is refused
    attack = _attack(table, nia, weapon="Navaja")
    other = table.roll(table.st, nia, {"kind": "damage", "weapon": "Sable"}, follows=attack["seq"])
    assert problem(other, 422, "weapon_not_the_attacks")["params"] == {
        "field": "weapon",
        "weapon": "Sable",
        "ability": "melee",
    }
    # an attack declared with none keeps the choice of its Ability's weapons (V20-17)
    attack = _attack(table, nia)
    sable = table.roll(table.st, nia, {"kind": "damage", "weapon": "Sable"}, follows=attack["seq"])
    assert sable.status_code == 201, sable.text


def test_a_weapon_declared_off_its_ability_is_refused(make_table):
    table = make_table("v20")
    nia = table.character(table.st, NIA)["id"]
    glock_melee = table.roll(table.st, nia, {**ATTACK, "weapon": "Glock"})
    assert problem(glock_melee, 422, "weapon_not_the_attacks")["params"]["field"] == "weapon"
    sneaking = table.roll(table.st, nia, {**ATTACK, "ability": "stealth", "weapon": "Navaja"})
    assert problem(sneaking, 422, "weapon_needs_an_attack")["params"]["field"] == "weapon"
    unknown = table.roll(table.st, nia, {**ATTACK, "weapon": "Katana"})
    assert problem(unknown, 422, "unknown_weapon")["params"]["field"] == "weapon"
    assert not [e for e in table.log()["entries"] if e["kind"] == "roll"]
