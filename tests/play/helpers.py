"""Shared helpers for the play-layer tests."""

from __future__ import annotations

import copy
import json

import pytest

from rollbook.rules.base import RuleError


class NoDice:
    """A dice source that fails the test if anything is drawn: refusals come before the dice."""

    name = "none"

    def draw(self, n: int, sides: int):
        raise AssertionError(f"a die was drawn ({n}d{sides}) before the refusal")


def refused(code: str, call, *args, **kwargs) -> RuleError:
    """Assert ``call`` refuses with ``code`` and leaves every dict argument untouched."""
    snapshots = [copy.deepcopy(a) for a in args] + [copy.deepcopy(v) for v in kwargs.values()]
    with pytest.raises(RuleError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value
    after = list(args) + list(kwargs.values())
    for before, now in zip(snapshots, after):
        if isinstance(before, (dict, list)):
            assert before == now, "a refusal mutated its input"
    return caught.value


def plain(value) -> None:
    """Receipts and sheets are plain JSON."""
    assert json.loads(json.dumps(value)) == value


# The sample characters the play tests share (each test module may change some fields).
SAMPLE_SHEETS = {
    "v20": {
        "name": "Nia",
        "attributes": {"dexterity": 3, "manipulation": 2, "stamina": 2, "wits": 4},
        "talents": {"subterfuge": 1, "brawl": 2},
        "skills": {"firearms": 4, "melee": 0},
        "knowledges": {"occult": 2},
        "disciplines": {"fortitude": 1, "celerity": 2},
        "clan_disciplines": ["celerity"],
        "specialties": {"firearms": ["pistols"]},
        "virtues": {"courage": 3},
    },
    "v5": {
        "name": "Marlow",
        "attributes": {"strength": 4, "dexterity": 2, "stamina": 3, "composure": 2, "resolve": 3, "wits": 3},
        "skills": {"brawl": 2, "occult": 1},
        "specialties": {"brawl": ["grappling"]},
        "disciplines": {"potence": 2, "dominate": 1},
        "clan_disciplines": ["potence"],
        "hunger": 3,
        "blood_potency": 1,
    },
    "tiers": {
        "name": "Ana",
        "skills": {"firearms": 6, "arcanes": 3, "melee": 4, "two_weapons": 5, "dodge": 4},
        "endurance": 3,
        "armor": {"torso": 2},
        "weapons": [
            {"name": "pistol", "bonus": 2, "capacity": 6, "spare": 12},
            {"name": "knife", "bonus": 1},
            {"name": "sword", "bonus": 3},
        ],
    },
    "rollunder": {
        "name": "Zed",
        "skills": {"stealth": 12, "lore": 8},
        "attributes": {"agility": 10, "strength": 14},
        "cards": [
            {"name": "Lucky", "effect": "bonus", "bonus": 3},
            {"name": "Edge", "effect": "advantage", "consumable": False},
            {"name": "Flourish", "effect": "extra", "text": "the guard is impressed"},
        ],
    },
}


def sample_sheet(system: str, **changes):
    """A new sheet from the shared sample, with top-level fields replaced."""
    from rollbook.play import new_sheet

    return new_sheet(system, {**copy.deepcopy(SAMPLE_SHEETS[system]), **changes})


def checked_roll(
    system: str,
    sheet: dict,
    action: dict,
    faces,
    *,
    mode: str = "strict",
    role: str = "player",
    follows: dict | None = None,
):
    """``perform`` with exactly these faces, checked: inputs untouched, every face used, plain JSON out,
    and a receipt that verifies."""
    from rollbook.dice import GivenFaces
    from rollbook.play import perform, verify_receipt

    before, prior = copy.deepcopy(sheet), copy.deepcopy(follows)
    source = GivenFaces(faces)
    done = perform(system, sheet, action, mode=mode, role=role, source=source, follows=follows)
    assert sheet == before and follows == prior, "perform mutated its input"
    assert source.unused == 0, "fewer dice drawn than given"
    plain(done.sheet)
    plain(done.receipt)
    assert verify_receipt(done.receipt) == []
    return done
