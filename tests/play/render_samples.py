"""The sheets and the sample actions every receipt-rendering test plays (``tests/play`` renders them,
``tests/server`` plays them through the API and the pages): one or more per action kind of every
system; a new kind without a sample fails those tests."""

from __future__ import annotations

SHEETS = {
    "v20": {
        "name": "Nia",
        "attributes": {"strength": 3, "dexterity": 3, "stamina": 2, "wits": 4},
        "skills": {"melee": 2, "firearms": 4},
        "disciplines": {"fortitude": 1},
        "specialties": {"firearms": ["pistols"]},
        "virtues": {"courage": 3},
        "weapons": [{"name": "knife", "damage": 1}, {"name": "pistol", "kind": "firearm", "damage": 4}],
    },
    "v5": {
        "name": "Ana",
        "attributes": {"strength": 3, "wits": 3},
        "skills": {"brawl": 2},
        "hunger": 2,
        "stains": 2,
        "blood_potency": 2,
        "health": {"superficial": 2},
        "disciplines": {"dominate": 2},
        "powers": [{"discipline": "dominate", "level": 2, "power": "mesmerize"}],
    },
    "tiers": {
        "name": "Ana",
        "skills": {"firearms": 6, "dodge": 4, "arcanes": 3},
        "endurance": 3,
        "armor": {"torso": 2},
        "weapons": [{"name": "pistol", "bonus": 2, "capacity": 6}],
    },
    "rollunder": {
        "name": "Zed",
        "skills": {"stealth": 12},
        "attributes": {"strength": 14},
        "cards": [{"name": "Edge", "effect": "advantage", "consumable": False}],
    },
}


# (system, action kind) -> samples: (action, role, the rolls it follows: None or [(action, faces), …] in order)
V20_HIT = [({"kind": "test", "attribute": "dexterity", "ability": "melee"}, [10, 9, 8, 7, 6])]


SAMPLES = {
    ("v20", "test"): [
        (
            {"kind": "test", "attribute": "dexterity", "ability": "firearms", "specialty": "pistols"},
            "player",
            None,
        ),
        ({"kind": "test", "attribute": "wits", "ability": "melee", "willpower": True}, "player", None),
    ],
    ("v20", "willpower"): [({"kind": "willpower"}, "player", None)],
    ("v20", "virtue"): [({"kind": "virtue", "virtue": "courage", "difficulty": 8}, "player", None)],
    ("v20", "damage"): [
        ({"kind": "damage", "weapon": "knife"}, "player", V20_HIT),
        (
            {"kind": "damage", "weapon": "pistol"},
            "player",
            [({"kind": "test", "attribute": "dexterity", "ability": "firearms"}, [10, 9, 8, 7, 6, 2, 2])],
        ),
        (
            {"kind": "damage"},
            "player",
            [({"kind": "test", "attribute": "dexterity", "ability": "melee"}, [6, 2, 3, 4, 5])],
        ),
        ({"kind": "damage"}, "player", V20_HIT + [({"kind": "dodge"}, [6, 2, 2])]),  # V20-20: after a dodge
    ],
    ("v20", "dodge"): [({"kind": "dodge"}, "player", V20_HIT)],  # V20-20
    ("v20", "soak"): [
        ({"kind": "soak", "damage": 3, "damage_type": "lethal"}, "player", None),
        ({"kind": "soak", "damage": 2, "damage_type": "aggravated"}, "player", None),
        (
            {"kind": "soak"},
            "player",
            V20_HIT + [({"kind": "damage", "weapon": "knife"}, [6, 7, 8, 9, 10, 2, 1, 5])],
        ),
    ],
    ("v5", "test"): [
        ({"kind": "test", "attribute": "strength", "skill": "brawl", "difficulty": 3}, "player", None),
        ({"kind": "test", "attribute": "wits", "skill": "brawl", "blood_surge": True}, "player", None),
    ],
    ("v5", "rouse"): [({"kind": "rouse", "discipline_level": 1, "mend": True}, "player", None)],
    ("v5", "willpower"): [({"kind": "willpower", "difficulty": 2}, "player", None)],
    ("v5", "remorse"): [({"kind": "remorse"}, "player", None)],
    ("v5", "frenzy"): [({"kind": "frenzy", "difficulty": 3}, "player", None)],
    ("v5", "power"): [
        ({"kind": "power", "discipline": "dominate", "power": "mesmerize", "difficulty": 2}, "player", None)
    ],  # the power's pool and its Rouse check
    ("tiers", "skill"): [
        ({"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 2}, "player", None),
        ({"kind": "skill", "skill": "climbing"}, "player", None),
    ],
    ("tiers", "dodge"): [
        ({"kind": "dodge", "attack_tier": 3}, "player", None),
        (
            {"kind": "dodge"},
            "player",
            [({"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 1}, [2])],
        ),
    ],
    ("tiers", "soak"): [
        ({"kind": "soak", "attack_tier": 4, "location": "torso"}, "player", None),
        (
            {"kind": "soak", "location": "torso"},
            "player",
            [({"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 1}, [1, 3])],
        ),
    ],
    ("tiers", "spell"): [({"kind": "spell", "spell": "light"}, "player", None)],
    ("rollunder", "check"): [
        ({"kind": "check", "action": "sneak", "skill": "stealth", "cards": ["Edge"]}, "player", None),
        ({"kind": "check", "action": "fly", "attribute": "strength", "task": "absurd"}, "storyteller", None),
    ],
    ("rollunder", "opposed"): [
        ({"kind": "opposed", "action": "the storm", "dice": "2d6+1d4", "threshold": 8}, "storyteller", None)
    ],
}
