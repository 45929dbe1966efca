"""Worked examples of each system's common rolls: a sheet, and actions, follow-ups and changes that
sheet can make. The API shows them in ``/docs`` (``openapi_examples``); tests play every one of them
through the play layer and the server, so an example that stops working fails a test.

Plain JSON only. Each entry: ``summary`` (a short English title for /docs), ``value`` (the body).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rollbook.play.common import JsonObject


@dataclass(frozen=True)
class Example:
    summary: str
    value: JsonObject


@dataclass(frozen=True)
class SystemExamples:
    sheet: Example
    actions: dict[str, Example]  # example id -> an action of the system
    changes: dict[str, Example] = field(default_factory=dict)
    followups: dict[str, Example] = field(default_factory=dict)  # follow-ups of the first action


EXAMPLES: dict[str, SystemExamples] = {
    "v20": SystemExamples(
        sheet=Example(
            "V20: a vampire with a gun",
            {
                "name": "Lucita",
                "clan": "Lasombra",
                "generation": 10,
                "attributes": {"dexterity": 4, "stamina": 2, "wits": 3},
                "talents": {"alertness": 2},
                "skills": {"firearms": 4},
                "disciplines": {"fortitude": 1, "dominate": 2},
                "powers": [
                    {"discipline": "dominate", "level": 1, "power": "command"},
                    {"discipline": "dominate", "level": 2, "power": "mesmerize"},
                ],
                "specialties": {"firearms": ["Pistols"]},
                "virtues": {"courage": 3},
            },
        ),
        actions={
            "v20_test": Example(
                "V20: Dexterity + Firearms, difficulty 6",
                {"kind": "test", "attribute": "dexterity", "ability": "firearms", "difficulty": 6},
            ),
            "v20_specialty": Example(
                "V20: with a specialty and a Willpower success",
                {
                    "kind": "test",
                    "attribute": "dexterity",
                    "ability": "firearms",
                    "specialty": "Pistols",
                    "willpower": True,
                },
            ),
            "v20_soak": Example(
                "V20: soak 3 lethal levels", {"kind": "soak", "damage": 3, "damage_type": "lethal"}
            ),
            "v20_virtue": Example(
                "V20: a Courage roll", {"kind": "virtue", "virtue": "courage", "difficulty": 7}
            ),
        },
        changes={
            "v20_spend_blood": Example("V20: spend 1 blood", {"kind": "spend_blood", "amount": 1}),
            "v20_damage": Example(
                "V20: take 2 bashing levels", {"kind": "damage", "levels": 2, "damage_type": "bashing"}
            ),
        },
    ),
    "v5": SystemExamples(
        sheet=Example(
            "V5: a vampire at Hunger 2",
            {
                "name": "Sasha",
                "clan": "Brujah",
                "attributes": {"dexterity": 3, "composure": 2, "resolve": 2, "wits": 2},
                "skills": {"firearms": 3, "brawl": 2},
                "specialties": {"firearms": ["Sniping"]},
                "disciplines": {"potence": 2},
                "powers": [
                    {"discipline": "potence", "level": 1, "power": "lethal_body"},
                    {"discipline": "potence", "level": 2, "name": "Rooftop Sprint"},
                ],
                "hunger": 2,
            },
        ),
        actions={
            "v5_test": Example(
                "V5: Dexterity + Firearms, difficulty 3",
                {"kind": "test", "attribute": "dexterity", "skill": "firearms", "difficulty": 3},
            ),
            "v5_surge": Example(
                "V5: a Blood Surge on Strength + Potence",
                {
                    "kind": "test",
                    "attribute": "strength",
                    "discipline": "potence",
                    "difficulty": 2,
                    "blood_surge": True,
                },
            ),
            "v5_rouse": Example("V5: a Rouse check", {"kind": "rouse"}),
            "v5_frenzy": Example("V5: resist frenzy, difficulty 3", {"kind": "frenzy", "difficulty": 3}),
        },
        followups={
            "v5_reroll": Example(
                "V5: reroll two normal dice with Willpower", {"kind": "reroll", "dice": [0, 1]}
            ),
        },
        changes={
            "v5_spend_willpower": Example("V5: spend 1 Willpower", {"kind": "spend_willpower", "amount": 1}),
            "v5_damage": Example(
                "V5: 2 superficial Health damage", {"kind": "damage", "track": "health", "superficial": 2}
            ),
        },
    ),
    "tiers": SystemExamples(
        sheet=Example(
            "Tiers: a gunslinger who knows a spell",
            {
                "name": "Ash",
                "skills": {"firearms": 40, "dodge": 25, "arcanes": 2},
                "endurance": 3,
                "armor": {"torso": 2},
                "weapons": [
                    {"name": "Pistol", "bonus": 5, "capacity": 3, "spare": 24}
                ],  # the shot below empties it
            },
        ),
        actions={
            "tiers_shot": Example(
                "Tiers: fire 3 bullets with the pistol",
                {"kind": "skill", "skill": "firearms", "weapon": "Pistol", "bullets": 3},
            ),
            "tiers_dodge": Example("Tiers: dodge a tier-2 attack", {"kind": "dodge", "attack_tier": 2}),
            "tiers_soak": Example(
                "Tiers: soak a tier-3 hit on the torso",
                {"kind": "soak", "attack_tier": 3, "location": "torso"},
            ),
            "tiers_spell": Example("Tiers: cast a spell", {"kind": "spell", "spell": "Light"}),
        },
        changes={
            "tiers_reload": Example(
                "Tiers: change the pistol's empty magazine (after the shot, T-3)",
                {"kind": "reload", "weapon": "Pistol"},
            ),
            "tiers_new_turn": Example("Tiers: a new turn", {"kind": "new_turn"}),
        },
    ),
    "rollunder": SystemExamples(
        sheet=Example(
            "Roll-under: a burglar with a lucky card",
            {
                "name": "Mara",
                "attributes": {"agility": 12},
                "skills": {"lockpicking": 14},
                "cards": [{"name": "Lucky break", "effect": "advantage"}],
            },
        ),
        actions={
            "rollunder_check": Example(
                "Roll-under: pick the lock (Lockpicking 14)",
                {"kind": "check", "action": "Pick the lock", "skill": "lockpicking"},
            ),
            "rollunder_card": Example(
                "Roll-under: climb with a card for advantage",
                {
                    "kind": "check",
                    "action": "Climb the wall",
                    "attribute": "agility",
                    "cards": ["Lucky break"],
                },
            ),
        },
        changes={
            "rollunder_grant_card": Example(
                "Roll-under: the Storyteller grants a +3 card",
                {"kind": "grant_card", "card": {"name": "Inside help", "effect": "bonus", "bonus": 3}},
            ),
        },
    ),
}


def all_actions() -> dict[str, Example]:
    """Every action example of every system, by example id."""
    return {key: example for system in EXAMPLES.values() for key, example in system.actions.items()}


__all__ = ["EXAMPLES", "Example", "SystemExamples", "all_actions"]
