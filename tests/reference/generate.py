"""Seeded generators of `rollbook resolve` request lines: random valid requests, edge cases and
refusals (bad JSON, unknown fields, wrong JSON types, out-of-range values).

Each ``*_lines(seed, n)`` returns a list of raw text lines (mostly ``json.dumps`` of a request
object, a few deliberately malformed). The expected answer for every line comes from the
reference (``reference.resolve_text``), never from the generator.

The generators stay inside what SPEC.md and the lead's contract readings decide; they do not probe
choices nobody has made (e.g. a negative weapon bonus, a whitespace-only action, blank lines).
"""

from __future__ import annotations

import json
import random

# Values of the wrong JSON type for an int field (contract: strict types).
NOT_INTS = ["6", True, False, 6.0, 2.5, None, [6], {"v": 6}]
NOT_BOOLS = [1, 0, "true", "yes", None, [True]]
BAD_TEXT_LINES = [
    "not json at all",
    '{"system": "v20", "faces": [1, 2',  # truncated
    "[1, 2, 3]",
    "42",
    '"v20"',
    "null",
    "{'system': 'v20', 'faces': []}",  # Python, not JSON
]


def dumps(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"))


def _maybe_id(rng: random.Random, obj: dict) -> dict:
    roll = rng.random()
    if roll < 0.1:
        obj["id"] = rng.randint(0, 10**6)
    elif roll < 0.2:
        obj["id"] = f"req-{rng.randint(0, 9999)}"
    return obj


def _d10s(rng: random.Random, n: int, weight_ends: float = 0.3) -> list[int]:
    """n d10 faces, with 1s and 10s over-represented so that pairs, botches and cancels are common."""
    faces = []
    for _ in range(n):
        if rng.random() < weight_ends:
            faces.append(rng.choice([1, 10]))
        else:
            faces.append(rng.randint(1, 10))
    return faces


def _corrupt(rng: random.Random, obj: dict, int_fields: list[str], bool_fields: list[str]) -> dict:
    """Return a copy of a request with one field given a wrong JSON type."""
    bad = dict(obj)
    choices = list(int_fields + bool_fields)
    field = rng.choice(choices)
    bad[field] = rng.choice(NOT_INTS if field in int_fields else NOT_BOOLS)
    if (
        field in int_fields
        and bad[field] is None
        and field in ("specialty_rating", "willpower_current", "bullets", "current_hunger")
    ):
        bad[field] = "6"  # null is a legal value for these
    return bad


# ------------------------------------------------------------------------------------------------
# V20
# ------------------------------------------------------------------------------------------------


def v20_random(rng: random.Random) -> dict:
    pool = rng.choice([rng.randint(0, 8), rng.randint(0, 8), rng.randint(0, 20), rng.randint(0, 100)])
    req: dict = {"system": "v20", "faces": _d10s(rng, pool)}
    if rng.random() < 0.85:
        req["difficulty"] = rng.randint(2, 10)
    if rng.random() < 0.5:
        req["required"] = rng.choice([1, 1, 1, 2, 3, 4, 6])
    if rng.random() < 0.5:
        req["mode"] = rng.choice(["strict", "casual"])
    untrained = rng.choice([None, None, None, "talent", "skill", "knowledge"])
    if untrained is not None or rng.random() < 0.2:
        req["untrained"] = untrained
    if untrained == "knowledge" or rng.random() < 0.1:
        req["knowledge_allowed"] = untrained == "knowledge" or rng.random() < 0.5
    if rng.random() < 0.25:  # V20-7 Reading: with an untrained Ability too (an Attribute's specialty)
        req["specialty"] = True
        req["specialty_rating"] = rng.choice([4, 5, 5, 6, 10])
    elif rng.random() < 0.15:
        req["specialty"] = False
        req["specialty_rating"] = rng.choice([None, 0, 1, 2, 3, 4, 5])
    if rng.random() < 0.25:
        req["willpower"] = True
        if rng.random() < 0.5:
            req["willpower_current"] = rng.randint(1, 10)
        if rng.random() < 0.3:
            req["willpower_roll"] = False
    elif rng.random() < 0.15:
        req["willpower_roll"] = rng.random() < 0.5
        if rng.random() < 0.5:
            req["willpower_current"] = rng.randint(0, 10)
    if rng.random() < 0.2:
        req["auto_successes"] = rng.choice([0, 0, 1, 2, 3])
    return _maybe_id(rng, req)


def v20_edges(rng: random.Random) -> list[object]:
    """Hand-listed edge and refusal cases (objects, or raw str lines)."""
    out: list[object] = []
    V = "v20"
    # pool 0: never a botch, willpower and autos still count
    out += [
        {"system": V, "faces": []},
        {"system": V, "faces": [], "willpower": True},
        {"system": V, "faces": [], "auto_successes": 2, "required": 2},
        {"system": V, "faces": [], "mode": "casual", "difficulty": 2},
    ]
    # the seed's worked example: Nia (faces 1, 2, 4 at difficulty 6)
    out += [
        {"system": V, "faces": [1, 2, 4], "difficulty": 6},
        {"system": V, "faces": [1, 2, 4], "difficulty": 6, "willpower": True},
        {"system": V, "faces": [1, 2, 4], "difficulty": 6, "willpower": True, "required": 2},
        {"system": V, "faces": [1], "willpower": True},
        {"system": V, "faces": [1], "willpower": True, "required": 2},
    ]
    # difficulty 2 and 10, strict and casual
    for d in (2, 3, 10):
        for mode in ("strict", "casual"):
            for faces in ([1], [1, 1, 2], [2, 1], [10, 1, 1], [1, 10], [5, 4, 1], [9, 10, 10, 1]):
                out.append({"system": V, "faces": faces, "difficulty": d, "mode": mode})
                out.append({"system": V, "faces": faces, "difficulty": d, "mode": mode, "untrained": "skill"})
    # casual at difficulty 2/3 applies 1: a 1 is a success and still cancels
    for d in (2, 3):
        for faces in ([1], [1, 1], [1, 2], [1, 1, 1, 5], [2, 2, 1]):
            out.append({"system": V, "faces": faces, "difficulty": d, "mode": "casual"})
            out.append(
                {
                    "system": V,
                    "faces": faces,
                    "difficulty": d,
                    "mode": "casual",
                    "specialty": True,
                    "specialty_rating": 4,
                }
            )
    # untrained at difficulty 10 -> required + 1; at 9 -> 10
    for u in ("skill", "knowledge", "talent"):
        for d in (9, 10):
            for req in (1, 2):
                for mode in ("strict", "casual"):
                    out.append(
                        {
                            "system": V,
                            "faces": [10, 10, 9, 1],
                            "difficulty": d,
                            "required": req,
                            "untrained": u,
                            "knowledge_allowed": True,
                            "mode": mode,
                        }
                    )
    out.append(
        {"system": V, "faces": [10], "difficulty": 10, "untrained": "knowledge"}
    )  # not allowed: refused
    out.append(
        {"system": V, "faces": [10], "difficulty": 10, "untrained": "knowledge", "knowledge_allowed": False}
    )
    out.append(
        {"system": V, "faces": [10], "difficulty": 10, "untrained": "knowledge", "knowledge_allowed": True}
    )
    # specialty ratings
    for rating in (None, 0, 3, 4, 5, 6, -1):
        out.append({"system": V, "faces": [10, 10, 1, 6], "specialty": True, "specialty_rating": rating})
        out.append(
            {
                "system": V,
                "faces": [10, 10, 1, 6],
                "specialty": False,
                "specialty_rating": rating if rating != -1 else 2,
            }
        )
    out.append({"system": V, "faces": [10, 1, 1], "specialty": True})  # no rating at all
    out.append(
        {"system": V, "faces": [10, 1, 1], "specialty": True, "specialty_rating": 4}
    )  # 2 units - 2 ones
    out.append({"system": V, "faces": [10, 1, 1, 1], "specialty": True, "specialty_rating": 5})
    out.append({"system": V, "faces": [10], "specialty": True, "specialty_rating": 5, "required": 2})
    out.append({"system": V, "faces": [10], "specialty": True, "specialty_rating": 4, "untrained": "talent"})
    out.append({"system": V, "faces": [10], "specialty": True, "specialty_rating": 4, "untrained": "skill"})
    # V20-7 Reading: an Attribute's specialty with an untrained Ability resolves (10 counts two, +1 applies)
    out.append(
        {"system": V, "faces": [7, 10, 3], "untrained": "skill", "specialty": True, "specialty_rating": 4}
    )
    out.append(
        {"system": V, "faces": [7, 10, 3], "untrained": "talent", "specialty": True, "specialty_rating": 5}
    )
    out.append(
        {
            "system": V,
            "faces": [10, 1, 1],
            "untrained": "knowledge",
            "knowledge_allowed": True,
            "specialty": True,
            "specialty_rating": 4,
            "difficulty": 10,
        }
    )
    # willpower refusals and combinations
    out += [
        {"system": V, "faces": [3, 4], "willpower": True, "willpower_roll": True},
        {"system": V, "faces": [3, 4], "willpower": False, "willpower_roll": True},
        {"system": V, "faces": [3, 4], "willpower": True, "willpower_current": 0},
        {"system": V, "faces": [3, 4], "willpower": True, "willpower_current": 1},
        {"system": V, "faces": [3, 4], "willpower": False, "willpower_current": 0},
        {"system": V, "faces": [1, 1, 7], "willpower": True, "auto_successes": 2, "required": 3},
        {"system": V, "faces": [1, 1], "auto_successes": 1},
        {"system": V, "faces": [1, 1], "auto_successes": 0},
    ]
    # cancelled to zero is a failure, not a botch
    out += [
        {"system": V, "faces": [7, 1]},
        {"system": V, "faces": [7, 1, 1, 1]},
        {"system": V, "faces": [2, 3, 4, 5]},
        {"system": V, "faces": [1, 1, 1, 1]},
    ]
    # pool limits
    out.append({"system": V, "faces": [6] * 100})
    out.append({"system": V, "faces": [6] * 101})
    out.append({"system": V, "faces": [1] * 100})
    # out-of-range values
    for bad in (
        {"faces": [0]},
        {"faces": [11]},
        {"faces": [5, 0, 6]},
        {"faces": [-1]},
        {"faces": [5], "difficulty": 1},
        {"faces": [5], "difficulty": 11},
        {"faces": [5], "difficulty": 0},
        {"faces": [5], "required": 0},
        {"faces": [5], "required": -1},
        {"faces": [5], "auto_successes": -1},
        {"faces": [5], "mode": "Strict"},
        {"faces": [5], "mode": "lenient"},
        {"faces": [5], "mode": None},
        {"faces": [5], "untrained": "ability"},
        {"faces": [5], "untrained": "Skill"},
        {"faces": [5], "untrained": True},
        {"faces": "5"},
        {"faces": None},
        {"faces": 5},
        {"faces": {"0": 5}},
        {"faces": [[5]]},
        {"faces": ["5"]},
        {"faces": [5.0]},
        {"faces": [True]},
        {},
        {"difficulty": 6},
        {"faces": [5], "dice_pool": 1},
        {"faces": [5], "hunger": []},
        {"faces": [5], "Difficulty": 6},
        # TR-2's pool: the pool's dice among the faces (no table rule here: all of them)
        {"faces": [5, 6], "pool": 1},
        {"faces": [5], "pool": 2},
        {"faces": [5], "pool": True},
        {"faces": [5], "pool": "1"},
        {"faces": [5], "pool": -1},
        {"faces": [5], "pool": 101},
        {"faces": [5], "table_rules": "none"},
        {"faces": [5], "table_rules": None},
        {"faces": [5], "specialty": "yes"},
        {"faces": [5], "willpower": 1},
        {"faces": [5], "knowledge_allowed": "true"},
        {"faces": [5], "difficulty": "6"},
        {"faces": [5], "difficulty": True},
        {"faces": [5], "difficulty": 6.0},
        {"faces": [5], "required": "1"},
        {"faces": [5], "required": True},
        {"faces": [5], "required": 1.0},
        {"faces": [5], "auto_successes": True},
        {"faces": [5], "auto_successes": "1"},
        {"faces": [10], "specialty": True, "specialty_rating": "4"},
        {"faces": [10], "specialty": True, "specialty_rating": 4.0},
        {"faces": [10], "specialty": True, "specialty_rating": True},
        {"faces": [5], "willpower": True, "willpower_current": "3"},
        {"faces": [5], "willpower": True, "willpower_current": True},
    ):
        req = {"system": V}
        req.update(bad)
        out.append(req)
    # the optional id: any JSON scalar is echoed; a non-scalar id is not an id
    for ident in (0, -7, 1.5, "", "x" * 40, True, None):
        out.append({"system": V, "faces": [6, 1], "id": ident})
    for ident in ([1], {"n": 1}):
        out.append({"system": V, "faces": [6, 1], "id": ident})
    # system field problems
    out += [
        {"faces": [5]},
        {"system": "V20", "faces": [5]},
        {"system": "v21", "faces": [5]},
        {"system": None, "faces": [5]},
        {"system": 20, "faces": [5]},
    ]
    out += BAD_TEXT_LINES
    return out


def v20_lines(seed: int = 20, n_random: int = 3000) -> list[str]:
    rng = random.Random(seed)
    items: list[object] = [{"system": "v20", "faces": [6, 7, 1], "id": "probe"}]
    items += v20_edges(rng)
    for _ in range(n_random):
        req = v20_random(rng)
        roll = rng.random()
        if roll < 0.06:
            req = _corrupt(
                rng,
                req,
                ["difficulty", "required", "auto_successes", "specialty_rating", "willpower_current"],
                ["specialty", "willpower", "willpower_roll", "knowledge_allowed"],
            )
        elif roll < 0.08:
            req[rng.choice(["dice_pool", "hunger", "colour", "difficulty_mod", "Faces"])] = 1
        elif roll < 0.1 and req["faces"]:
            req["faces"] = list(req["faces"])
            req["faces"][rng.randrange(len(req["faces"]))] = rng.choice([0, 11, -3, 100])
        items.append(req)
    return [x if isinstance(x, str) else dumps(x) for x in items]


# ------------------------------------------------------------------------------------------------
# V5
# ------------------------------------------------------------------------------------------------


def _v5_rerolls(rng: random.Random, normal: list[int], count: int) -> list[dict]:
    rerolls = []
    for _ in range(count):
        if not normal:
            break
        k = rng.randint(1, min(3, len(normal)))
        dice = rng.sample(range(len(normal)), k)
        rerolls.append({"dice": dice, "faces": _d10s(rng, k)})
    return rerolls


def v5_random_test(rng: random.Random) -> dict:
    pool = rng.choice([rng.randint(1, 8), rng.randint(1, 14), rng.randint(1, 30)])
    hunger_n = min(rng.randint(0, 5), pool)
    faces = _d10s(rng, pool, 0.35)
    req: dict = {"system": "v5", "normal": faces[hunger_n:], "hunger": faces[:hunger_n]}
    if rng.random() < 0.3:
        req["kind"] = "test"
    if not req["hunger"] and rng.random() < 0.5:
        del req["hunger"]
    elif not req["normal"] and rng.random() < 0.5:
        del req["normal"]
    if rng.random() < 0.9:
        req["difficulty"] = rng.choice([1, 2, 2, 3, 3, 4, 5, 6, 8])
    mode = rng.choice(["strict", "strict", "casual"])
    if mode == "casual" or rng.random() < 0.4:
        req["mode"] = mode
    normal = req.get("normal", [])
    if normal and rng.random() < 0.35:
        count = 1 if mode == "strict" else rng.choice([1, 2, 3])
        req["rerolls"] = _v5_rerolls(rng, normal, count)
    elif rng.random() < 0.1:
        req["rerolls"] = []
    if rng.random() < 0.15:
        req["creature"] = rng.choice(["vampire", "thin_blood"])
    if not req.get("hunger") and rng.random() < 0.1:
        req["creature"] = rng.choice(["ghoul", "mortal"])
    return _maybe_id(rng, req)


def v5_random_other(rng: random.Random) -> dict:
    kind = rng.choice(["willpower", "remorse", "frenzy"])
    req: dict = {"system": "v5", "kind": kind, "normal": _d10s(rng, rng.randint(1, 10), 0.35)}
    if rng.random() < 0.8:
        req["difficulty"] = rng.randint(1, 5)
    if rng.random() < 0.2:
        req["hunger"] = []
    if rng.random() < 0.2:
        req["mode"] = rng.choice(["strict", "casual"])
    return _maybe_id(rng, req)


def v5_random_rouse(rng: random.Random) -> dict:
    bp = rng.random() < 0.3
    req: dict = {"system": "v5", "kind": "rouse", "normal": _d10s(rng, 2 if bp else 1, 0.2)}
    if bp or rng.random() < 0.2:
        req["blood_potency_reroll"] = bp
    if rng.random() < 0.6:
        req["current_hunger"] = rng.choice([None, 0, 1, 2, 3, 4, 5, 5])
    if rng.random() < 0.2:
        req["creature"] = rng.choice(["vampire", "thin_blood", "ghoul", "mortal"])
    return _maybe_id(rng, req)


def v5_edges(rng: random.Random) -> list[object]:
    V = "v5"
    out: list[object] = []
    # seed example: Marlow (normal 8, 2, 10; hunger 1, 6, 4; difficulty 4)
    marlow = {"system": V, "normal": [8, 2, 10], "hunger": [1, 6, 4], "difficulty": 4}
    out.append(marlow)
    for new in (1, 5, 6, 10):
        out.append(dict(marlow, rerolls=[{"dice": [1], "faces": [new]}]))
    out.append(dict(marlow, rerolls=[{"dice": [3], "faces": [6]}]))  # names the Hunger 1: refused
    # hunger 5 on a pool of 2: only two Hunger dice
    for hunger in ([1, 1], [10, 10], [1, 10], [6, 7], [2, 3]):
        for d in (1, 2, 3, 4, 5):
            out.append({"system": V, "hunger": hunger, "difficulty": d})
            out.append({"system": V, "normal": [], "hunger": hunger, "difficulty": d})
    # pairs of Hunger 10s cannot be rerolled away
    out.append(
        {
            "system": V,
            "normal": [3, 4],
            "hunger": [10, 10],
            "difficulty": 3,
            "rerolls": [{"dice": [0, 1], "faces": [2, 2]}],
        }
    )
    out.append(
        {
            "system": V,
            "normal": [3, 4],
            "hunger": [10, 10],
            "difficulty": 3,
            "rerolls": [{"dice": [2], "faces": [2]}],
        }
    )
    out.append(
        {
            "system": V,
            "normal": [3, 4],
            "hunger": [10, 10],
            "difficulty": 3,
            "rerolls": [{"dice": [3], "faces": [2]}],
        }
    )
    # rerolls that break pairs
    for new in (1, 5, 9, 10):
        out.append(
            {
                "system": V,
                "normal": [10, 7],
                "hunger": [10],
                "difficulty": 3,
                "rerolls": [{"dice": [0], "faces": [new]}],
            }
        )
        out.append(
            {
                "system": V,
                "normal": [10, 10, 10],
                "difficulty": 4,
                "rerolls": [{"dice": [0, 1], "faces": [new, new]}],
            }
        )
    # strict with two rerolls (refused) vs casual with two or three
    two = [{"dice": [0], "faces": [6]}, {"dice": [1], "faces": [7]}]
    three = two + [{"dice": [0, 1, 2], "faces": [10, 10, 1]}]
    for normal in ([1, 2, 3], [10, 10, 5]):
        out.append({"system": V, "normal": normal, "rerolls": two})
        out.append({"system": V, "normal": normal, "rerolls": two, "mode": "strict"})
        out.append({"system": V, "normal": normal, "rerolls": two, "mode": "casual", "difficulty": 2})
        out.append({"system": V, "normal": normal, "rerolls": three, "mode": "casual", "difficulty": 3})
        out.append(
            {
                "system": V,
                "normal": normal,
                "hunger": [1],
                "rerolls": three,
                "mode": "casual",
                "difficulty": 3,
            }
        )
    # reroll validation
    base = {"system": V, "normal": [2, 3, 4, 5], "hunger": [1, 10], "difficulty": 2}
    for bad_entry in (
        {"dice": [4], "faces": [6]},  # a Hunger die (index past the normal dice)
        {"dice": [5], "faces": [6]},
        {"dice": [-1], "faces": [6]},
        {"dice": [0, 1, 2, 3], "faces": [6, 6, 6, 6]},  # more than three
        {"dice": [], "faces": []},
        {"dice": [0, 0], "faces": [6, 6]},  # same die twice
        {"dice": [0, 1], "faces": [6]},  # face count mismatch
        {"dice": [0], "faces": [6, 7]},
        {"dice": [0], "faces": [0]},
        {"dice": [0], "faces": [11]},
        {"dice": [0], "faces": ["6"]},
        {"dice": ["0"], "faces": [6]},
        {"dice": [True], "faces": [6]},
        {"dice": [0.0], "faces": [6]},
        {"dice": [0], "faces": [6], "cost": 1},  # unknown field in a reroll
        {"dice": [0]},
        {"faces": [6]},
        {"dice": 0, "faces": 6},
    ):
        out.append(dict(base, rerolls=[bad_entry]))
    out.append(dict(base, rerolls=[{"dice": [3], "faces": [6]}]))  # last normal die: fine
    out.append(dict(base, rerolls=[{"dice": [0, 1, 2], "faces": [10, 10, 6]}]))
    out.append(dict(base, rerolls={"dice": [0], "faces": [6]}))
    out.append(dict(base, rerolls=[[0, 6]]))
    out.append(dict(base, rerolls=None))
    # Hunger-only pools take no reroll at all; casual allows any number of rerolls
    out.append(
        {
            "system": V,
            "normal": [],
            "hunger": [2, 3],
            "difficulty": 1,
            "rerolls": [{"dice": [0], "faces": [9]}],
        }
    )
    out.append(
        {
            "system": V,
            "hunger": [2, 3],
            "difficulty": 1,
            "mode": "casual",
            "rerolls": [{"dice": [0], "faces": [9]}],
        }
    )
    out.append(
        {
            "system": V,
            "normal": [1, 2, 3, 4],
            "mode": "casual",
            "difficulty": 4,
            "rerolls": [{"dice": [i % 4], "faces": [10 - i]} for i in range(6)],
        }
    )
    out.append(
        {
            "system": V,
            "normal": [1, 2, 3, 4],
            "mode": "strict",
            "difficulty": 4,
            "rerolls": [{"dice": [i % 4], "faces": [10 - i]} for i in range(6)],
        }
    )
    # current_hunger is only meaningful on a Rouse check: accepted (and without effect) elsewhere
    for kind, hunger in (("test", [1, 10]), ("test", []), ("remorse", []), ("frenzy", [])):
        for ch in (0, 2, 5):
            out.append(
                {
                    "system": V,
                    "kind": kind,
                    "normal": [10, 6],
                    "hunger": hunger,
                    "difficulty": 2,
                    "current_hunger": ch,
                }
            )
    # messy vs clean, bestial vs total failure
    out += [
        {"system": V, "normal": [10], "hunger": [10], "difficulty": 4},
        {"system": V, "normal": [10], "hunger": [10], "difficulty": 5},
        {"system": V, "normal": [10, 10], "hunger": [10], "difficulty": 5},
        {"system": V, "normal": [10, 10], "hunger": [1], "difficulty": 4},
        {"system": V, "normal": [10, 10], "hunger": [1], "difficulty": 5},
        {"system": V, "normal": [1, 1], "hunger": [1], "difficulty": 1},
        {"system": V, "normal": [1, 1], "hunger": [2], "difficulty": 1},
        {"system": V, "normal": [1, 1], "difficulty": 1},
        {"system": V, "normal": [10], "difficulty": 1},
        {"system": V, "normal": [], "hunger": [10], "difficulty": 1},
        {"system": V, "hunger": [10, 10, 10, 10, 10], "difficulty": 9},
        {"system": V, "hunger": [10, 10, 10, 10, 10], "difficulty": 10},
        {"system": V, "hunger": [1, 1, 1, 1, 1], "difficulty": 1},
        {"system": V, "normal": [6], "hunger": [1], "difficulty": 1},
        {"system": V, "normal": [6], "hunger": [1], "difficulty": 2},
    ]
    # creatures
    for creature in ("vampire", "thin_blood", "ghoul", "mortal", "Vampire", "human"):
        out.append({"system": V, "normal": [10, 4], "hunger": [10], "difficulty": 2, "creature": creature})
        out.append({"system": V, "normal": [10, 4, 10], "difficulty": 2, "creature": creature})
    # dice counts
    out += [
        {"system": V},
        {"system": V, "normal": [], "hunger": []},
        {"system": V, "normal": [6] * 100},
        {"system": V, "normal": [6] * 101},
        {"system": V, "normal": [6] * 95, "hunger": [6] * 5},
        {"system": V, "normal": [6] * 96, "hunger": [6] * 5},
        {"system": V, "normal": [6], "hunger": [6] * 6},
        {"system": V, "hunger": [6] * 6},
    ]
    # kinds that never carry Hunger dice, and take no rerolls
    for kind in ("rouse", "willpower", "remorse", "frenzy"):
        out.append({"system": V, "kind": kind, "normal": [7], "hunger": [3]})
        out.append({"system": V, "kind": kind, "normal": [7], "hunger": []})
        out.append({"system": V, "kind": kind, "normal": [7], "rerolls": [{"dice": [0], "faces": [2]}]})
        out.append({"system": V, "kind": kind, "normal": [7], "rerolls": []})
    for kind in ("willpower", "remorse", "frenzy"):
        out.append({"system": V, "kind": kind, "normal": [10, 10, 1], "difficulty": 3})
        out.append({"system": V, "kind": kind, "normal": [1, 2], "difficulty": 1})
    # rouse checks: only vampires, thin-bloods included, rouse the blood (V5-12); ghouls and mortals are refused
    for creature in ("vampire", "thin_blood", "ghoul", "mortal"):
        out.append({"system": V, "kind": "rouse", "normal": [3], "creature": creature})
        out.append(
            {
                "system": V,
                "kind": "rouse",
                "normal": [3, 8],
                "creature": creature,
                "blood_potency_reroll": True,
            }
        )
    for face in range(1, 11):
        out.append({"system": V, "kind": "rouse", "normal": [face]})
        out.append({"system": V, "kind": "rouse", "normal": [face], "current_hunger": 5})
        out.append({"system": V, "kind": "rouse", "normal": [face], "current_hunger": 4})
    for pair in ([4, 7], [3, 4], [7, 2], [10, 1], [5, 5], [6, 6]):
        out.append({"system": V, "kind": "rouse", "normal": pair, "blood_potency_reroll": True})
        out.append(
            {"system": V, "kind": "rouse", "normal": pair, "blood_potency_reroll": True, "current_hunger": 5}
        )
        out.append({"system": V, "kind": "rouse", "normal": pair})  # two faces without the reroll: refused
    out += [
        {"system": V, "kind": "rouse", "normal": [4], "blood_potency_reroll": True},  # reroll needs two faces
        {"system": V, "kind": "rouse", "normal": []},
        {"system": V, "kind": "rouse"},
        {"system": V, "kind": "rouse", "normal": [4, 5, 6], "blood_potency_reroll": True},
        {"system": V, "kind": "rouse", "normal": [4], "current_hunger": 6},
        {"system": V, "kind": "rouse", "normal": [4], "current_hunger": -1},
        {"system": V, "kind": "rouse", "normal": [4], "current_hunger": "5"},
        {"system": V, "kind": "rouse", "normal": [4], "current_hunger": 5.0},
        {"system": V, "kind": "rouse", "normal": [4], "blood_potency_reroll": 1},
        {"system": V, "kind": "rouse", "normal": [0]},
        {"system": V, "kind": "rouse", "normal": [11]},
        {"system": V, "kind": "rouse", "normal": [8], "difficulty": 3},
        {"system": V, "kind": "rouse", "normal": [3], "creature": "thin_blood"},
    ]
    # out-of-range and wrong types
    for bad in (
        {"normal": [0]},
        {"normal": [11]},
        {"hunger": [0]},
        {"hunger": [11]},
        {"normal": [5, -1]},
        {"normal": [5], "difficulty": 0},
        {"normal": [5], "difficulty": -2},
        {"normal": [5], "difficulty": "1"},
        {"normal": [5], "difficulty": True},
        {"normal": [5], "difficulty": 1.0},
        {"normal": "5"},
        {"normal": None},
        {"normal": 5},
        {"normal": [5], "hunger": None},
        {"normal": [5], "hunger": 1},
        {"normal": ["5"]},
        {"normal": [5.0]},
        {"hunger": [True]},
        {"normal": [5], "mode": "Casual"},
        {"normal": [5], "mode": 1},
        {"normal": [5], "kind": "skill"},
        {"normal": [5], "kind": "Rouse"},
        {"normal": [5], "kind": None},
        {"normal": [5], "pool": 1},
        {"normal": [5], "hunger_dice": 1},
        {"normal": [5], "faces": [5]},
        {"normal": [5], "creature": None},
    ):
        req = {"system": V}
        req.update(bad)
        out.append(req)
    out += [
        {"normal": [5]},
        {"system": "V5", "normal": [5]},
        {"system": "v6", "normal": [5]},
    ]
    out += BAD_TEXT_LINES
    return out


def v5_lines(seed: int = 5, n_random: int = 3000) -> list[str]:
    rng = random.Random(seed)
    items: list[object] = [{"system": "v5", "normal": [6, 7], "hunger": [1], "difficulty": 2, "id": "probe"}]
    items += v5_edges(rng)
    for _ in range(n_random):
        roll = rng.random()
        if roll < 0.7:
            req = v5_random_test(rng)
        elif roll < 0.85:
            req = v5_random_other(rng)
        else:
            req = v5_random_rouse(rng)
        roll = rng.random()
        if roll < 0.05:
            if req.get("kind") == "rouse":
                req = _corrupt(rng, req, ["current_hunger"], ["blood_potency_reroll"])
            else:
                req = _corrupt(rng, req, ["difficulty"], [])
        elif roll < 0.07:
            req[rng.choice(["pool", "willpower", "colour", "Hunger", "faces"])] = 1
        elif roll < 0.09 and req.get("normal"):
            req["normal"] = list(req["normal"])
            req["normal"][rng.randrange(len(req["normal"]))] = rng.choice([0, 11, -1])
        elif roll < 0.12 and req.get("kind", "test") == "test" and req.get("normal"):
            # a reroll naming a Hunger die (index past the normal dice) or out of range
            n = len(req["normal"])
            req["rerolls"] = [{"dice": [n + rng.randint(0, 4)], "faces": [rng.randint(1, 10)]}]
        elif (
            roll < 0.14
            and req.get("kind", "test") == "test"
            and req.get("normal")
            and req.get("mode", "strict") == "strict"
        ):
            req["rerolls"] = _v5_rerolls(rng, req["normal"], 2)  # strict with two: refused
        items.append(req)
    return [x if isinstance(x, str) else dumps(x) for x in items]


# ------------------------------------------------------------------------------------------------
# Tiers
# ------------------------------------------------------------------------------------------------


def _tiers_chain(rng: random.Random, p_one: float = 0.25) -> list[int]:
    faces = [1 if rng.random() < p_one else rng.randint(1, 10)]
    while faces[-1] == 1 and len(faces) < 8:
        faces.append(1 if rng.random() < 0.3 else rng.randint(1, 10))
    if faces[-1] == 1:
        faces.append(rng.randint(2, 10))
    return faces


def tiers_random(rng: random.Random) -> dict:
    kind = rng.choice(["skill", "skill", "dodge", "soak"])
    req: dict = {"system": "tiers", "kind": kind, "faces": _tiers_chain(rng)}
    if kind in ("skill", "dodge"):
        req["skill"] = rng.randint(0, 12)
        if rng.random() < 0.5:
            req["bonus"] = rng.randint(0, 4)
    if kind == "skill" and rng.random() < 0.3:
        req["bullets"] = rng.choice([None, 1, 2, 3, 5, 10])
    if kind in ("dodge", "soak"):
        req["attack_tier"] = rng.randint(0, 12)
    if kind == "soak":
        req["endurance"] = rng.randint(0, 8)
        req["armor"] = rng.randint(0, 5)
    return _maybe_id(rng, req)


def tiers_edges(rng: random.Random) -> list[object]:
    T = "tiers"
    out: list[object] = []
    # chained criticals, equal counts (T-2 Reading), skill 0
    for skill in (0, 1, 3, 5, 9, 10):
        for faces in ([1, 5], [1, 3], [1, 1, 2], [1, 1, 1, 9], [1, 10], [1, 1, 10], [10], [5], [3]):
            out.append({"system": T, "kind": "skill", "skill": skill, "faces": faces})
    out.append({"system": T, "kind": "skill", "skill": 4, "bonus": 2, "faces": [1, 6]})
    # T-2 Reading: a 1 is a critical success, at tier 0 where skill 0 would give -1 (bullets, dodge, soak)
    for faces in ([1, 5], [1, 1, 10], [1, 1, 1, 2]):
        out.append({"system": T, "kind": "skill", "skill": 0, "faces": faces, "bullets": 3})
        out.append({"system": T, "kind": "dodge", "skill": 0, "faces": faces, "attack_tier": 0})
        out.append(
            {"system": T, "kind": "soak", "endurance": 0, "armor": 0, "faces": faces, "attack_tier": 0}
        )
        out.append(
            {"system": T, "kind": "soak", "endurance": 0, "armor": 0, "faces": faces, "attack_tier": 2}
        )
    out.append({"system": T, "kind": "skill", "skill": 4, "bonus": 2, "faces": [1, 7]})
    # bullets multiply the tier after criticals, negative tiers too
    for bullets in (None, 1, 2, 3):
        for faces in ([1, 2], [4], [9], [1, 1, 3]):
            out.append({"system": T, "kind": "skill", "skill": 5, "faces": faces, "bullets": bullets})
    # dodge strictly greater
    for attack in (0, 2, 3, 4, 5):
        for faces in ([2], [1, 1, 4], [8]):
            out.append({"system": T, "kind": "dodge", "skill": 5, "faces": faces, "attack_tier": attack})
    # soak: no damage when strictly greater, else attack - soak
    for attack in (0, 2, 4, 6):
        for faces in ([3], [7], [1, 5], [10]):
            out.append(
                {
                    "system": T,
                    "kind": "soak",
                    "endurance": 3,
                    "armor": 2,
                    "faces": faces,
                    "attack_tier": attack,
                }
            )
    # refusals
    for bad in (
        {"kind": "skill", "skill": 5, "faces": [1]},  # a critical needs its reroll
        {"kind": "skill", "skill": 5, "faces": [1, 1]},
        {"kind": "skill", "skill": 5, "faces": [5, 3]},  # a face after a non-1
        {"kind": "skill", "skill": 5, "faces": [1, 4, 2]},
        {"kind": "skill", "skill": 5, "faces": []},
        {"kind": "skill", "skill": 5},
        {"kind": "skill", "skill": 5, "faces": [0]},
        {"kind": "skill", "skill": 5, "faces": [11]},
        {"kind": "skill", "skill": 5, "faces": [1, 11]},
        {"kind": "skill", "skill": 5, "faces": ["5"]},
        {"kind": "skill", "skill": 5, "faces": 5},
        {"kind": "skill", "faces": [5]},
        {"kind": "skill", "skill": "5", "faces": [5]},
        {"kind": "skill", "skill": 5.0, "faces": [5]},
        {"kind": "skill", "skill": True, "faces": [5]},
        {"kind": "skill", "skill": 5, "bonus": "1", "faces": [5]},
        {"kind": "skill", "skill": 5, "faces": [5], "bullets": 0},
        {"kind": "skill", "skill": 5, "faces": [5], "bullets": -1},
        {"kind": "skill", "skill": 5, "faces": [5], "bullets": "2"},
        {"kind": "skill", "skill": 5, "faces": [5], "bullets": True},
        {"kind": "skill", "skill": 5, "faces": [5], "colour": "red"},
        {"kind": "parry", "skill": 5, "faces": [5]},
        {"kind": "dodge", "skill": 5, "faces": [5]},  # no attack tier
        {"kind": "dodge", "skill": 5, "faces": [5], "attack_tier": "3"},
        {"kind": "dodge", "skill": 5, "faces": [1], "attack_tier": 3},
        {"kind": "soak", "endurance": 3, "armor": 1, "faces": [5]},  # no attack tier
        {"kind": "soak", "armor": 1, "faces": [5], "attack_tier": 3},
        {"kind": "soak", "endurance": 3, "faces": [5], "attack_tier": 3},
        {"kind": "soak", "endurance": "3", "armor": 1, "faces": [5], "attack_tier": 3},
        {"kind": "soak", "endurance": 3, "armor": 1, "faces": [1], "attack_tier": 3},
    ):
        req = {"system": T}
        req.update(bad)
        out.append(req)
    out += BAD_TEXT_LINES
    return out


def tiers_lines(seed: int = 10, n_random: int = 3000) -> list[str]:
    rng = random.Random(seed)
    items: list[object] = [{"system": "tiers", "kind": "skill", "skill": 6, "faces": [2], "id": "probe"}]
    items += tiers_edges(rng)
    for _ in range(n_random):
        req = tiers_random(rng)
        roll = rng.random()
        if roll < 0.04:
            fields = [f for f in ("skill", "bonus", "attack_tier", "endurance", "armor") if f in req]
            req[rng.choice(fields)] = rng.choice(["3", True, 3.0, None, [3]])
        elif roll < 0.06:
            req[rng.choice(["colour", "weapon", "Skill"])] = 1
        elif roll < 0.09:
            faces = list(req["faces"])
            choice = rng.random()
            if choice < 0.4:
                faces.append(rng.randint(1, 10))  # extra face after a non-1
            elif choice < 0.7:
                faces[-1] = 1  # every face before the last is a 1: the chain is left open
            else:
                faces[rng.randrange(len(faces))] = rng.choice([0, 11])
            req["faces"] = faces
        items.append(req)
    return [x if isinstance(x, str) else dumps(x) for x in items]


# ------------------------------------------------------------------------------------------------
# Roll-under d20
# ------------------------------------------------------------------------------------------------

SIZES = [2, 3, 4, 6, 8, 10, 12, 20, 100]
ACTIONS = ["Climb the wall", "Pick the lock", "Persuade the guard", "x", "Écouter à la porte"]


def _dice_expr(rng: random.Random) -> tuple[str, list[int]]:
    terms = []
    sides: list[int] = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        count = rng.randint(1, 3)
        size = rng.choice(SIZES)
        terms.append(f"{count}d{size}")
        sides += [size] * count
    return "+".join(terms), sides


def _d20s(rng: random.Random, n: int) -> list[int]:
    return [rng.choice([1, 20]) if rng.random() < 0.15 else rng.randint(1, 20) for _ in range(n)]


def rollunder_random(rng: random.Random) -> dict:
    if rng.random() < 0.25:
        expr, sides = _dice_expr(rng)
        req: dict = {
            "system": "rollunder",
            "kind": "opposed",
            "action": rng.choice(ACTIONS),
            "dice": expr,
            "threshold": rng.randint(1, sum(sides) + 2),
        }
        pick = rng.random()
        if pick < 0.1:
            req["faces"] = [1] * len(sides)
        elif pick < 0.2:
            req["faces"] = list(sides)
        else:
            req["faces"] = [rng.randint(1, s) for s in sides]
        return _maybe_id(rng, req)
    req = {"system": "rollunder", "kind": "check", "action": rng.choice(ACTIONS), "level": rng.randint(1, 19)}
    if rng.random() < 0.4:
        req["bonus"] = rng.randint(0, 5)
    if rng.random() < 0.4:
        req["malus"] = rng.randint(0, 5)
    adv = rng.random() < 0.3
    dis = rng.random() < 0.3
    if adv or rng.random() < 0.2:
        req["advantage"] = adv
    if dis or rng.random() < 0.2:
        req["disadvantage"] = dis
    task = rng.choice(["normal"] * 8 + ["absurd", "trivial"])
    if task != "normal" or rng.random() < 0.2:
        req["task"] = task
    if task == "normal":
        req["faces"] = _d20s(rng, 2 if adv != dis else 1)
    elif rng.random() < 0.7:
        req["faces"] = []
    return _maybe_id(rng, req)


def rollunder_edges(rng: random.Random) -> list[object]:
    R = "rollunder"
    out: list[object] = []
    A = "Climb"
    for level in (0, 1, 5, 19, 20, 25):
        for face in (1, 2, 5, 19, 20):
            out.append({"system": R, "kind": "check", "action": A, "level": level, "faces": [face]})
    for adv, dis in ((True, False), (False, True), (True, True), (False, False)):
        for faces in ([1, 20], [20, 1], [5, 12], [12, 5]):
            n = 2 if adv != dis else 1
            out.append(
                {
                    "system": R,
                    "kind": "check",
                    "action": A,
                    "level": 10,
                    "advantage": adv,
                    "disadvantage": dis,
                    "faces": faces[:n],
                }
            )
            out.append(
                {
                    "system": R,
                    "kind": "check",
                    "action": A,
                    "level": 10,
                    "advantage": adv,
                    "disadvantage": dis,
                    "faces": faces[: 3 - n],
                }
            )  # the wrong count
    out += [
        {"system": R, "kind": "check", "action": A, "level": 10, "bonus": 3, "malus": 5, "faces": [8]},
        {"system": R, "kind": "check", "action": A, "level": 10, "bonus": 3, "malus": 5, "faces": [9]},
        {"system": R, "kind": "check", "action": A, "level": 3, "malus": 5, "faces": [2]},
        {"system": R, "kind": "check", "action": A, "level": 18, "bonus": 5, "faces": [20]},
        {"system": R, "kind": "check", "action": A, "level": 10, "task": "absurd"},
        {"system": R, "kind": "check", "action": A, "level": 10, "task": "absurd", "faces": []},
        {"system": R, "kind": "check", "action": A, "level": 10, "task": "absurd", "faces": [1]},
        {"system": R, "kind": "check", "action": A, "level": 10, "task": "trivial", "faces": []},
        {"system": R, "kind": "check", "action": A, "task": "trivial", "faces": []},  # no level at all
        {"system": R, "kind": "check", "action": A, "task": "absurd"},
        {"system": R, "kind": "check", "action": A, "level": 10, "task": "trivial", "faces": [20]},
        {"system": R, "kind": "check", "action": A, "level": 10, "task": "impossible", "faces": [5]},
        {"system": R, "kind": "check", "level": 10, "faces": [5]},  # no action: refused
        {"system": R, "kind": "check", "action": "", "level": 10, "faces": [5]},
        {"system": R, "kind": "check", "action": None, "level": 10, "faces": [5]},
        {"system": R, "kind": "check", "action": 5, "level": 10, "faces": [5]},
        {"system": R, "kind": "check", "action": A, "faces": [5]},  # no level
        {"system": R, "kind": "check", "action": A, "level": "10", "faces": [5]},
        {"system": R, "kind": "check", "action": A, "level": 10.0, "faces": [5]},
        {"system": R, "kind": "check", "action": A, "level": 10, "bonus": "1", "faces": [5]},
        {"system": R, "kind": "check", "action": A, "level": 10, "advantage": 1, "faces": [5, 6]},
        {"system": R, "kind": "check", "action": A, "level": 10, "faces": []},
        {"system": R, "kind": "check", "action": A, "level": 10},
        {"system": R, "kind": "check", "action": A, "level": 10, "faces": [0]},
        {"system": R, "kind": "check", "action": A, "level": 10, "faces": [21]},
        {"system": R, "kind": "check", "action": A, "level": 10, "faces": ["5"]},
        {"system": R, "kind": "check", "action": A, "level": 10, "faces": [5], "card": "ace"},
        {"system": R, "kind": "save", "action": A, "level": 10, "faces": [5]},
    ]
    # opposed rolls
    for expr, sides in (
        ("3d6", [6, 6, 6]),
        ("2d8+1d4", [8, 8, 4]),
        ("1d20", [20]),
        ("2d10", [10, 10]),
        ("1d100+1d2", [100, 2]),
    ):
        out.append(
            {
                "system": R,
                "kind": "opposed",
                "action": A,
                "dice": expr,
                "threshold": 10,
                "faces": [1] * len(sides),
            }
        )
        out.append(
            {"system": R, "kind": "opposed", "action": A, "dice": expr, "threshold": 10, "faces": list(sides)}
        )
        out.append(
            {
                "system": R,
                "kind": "opposed",
                "action": A,
                "dice": expr,
                "threshold": 10,
                "faces": [2] * len(sides),
            }
        )
        out.append(
            {
                "system": R,
                "kind": "opposed",
                "action": A,
                "dice": expr,
                "threshold": 1000,
                "faces": list(sides),
            }
        )
        out.append(
            {
                "system": R,
                "kind": "opposed",
                "action": A,
                "dice": expr,
                "threshold": 10,
                "faces": [1] * (len(sides) + 1),
            }
        )
        out.append(
            {
                "system": R,
                "kind": "opposed",
                "action": A,
                "dice": expr,
                "threshold": 10,
                "faces": [s + 1 for s in sides],
            }
        )
    out += [
        {"system": R, "kind": "opposed", "action": A, "dice": "10d6", "threshold": 35, "faces": [3] * 10},
        {"system": R, "kind": "opposed", "action": A, "dice": "10d6", "threshold": 35, "faces": [6] * 10},
        {
            "system": R,
            "kind": "opposed",
            "action": A,
            "dice": "1d4+1d4+1d4",
            "threshold": 6,
            "faces": [1, 1, 4],
        },
        {"system": R, "kind": "opposed", "action": A, "dice": "2d6", "threshold": 7, "faces": [3, 4]},
        {"system": R, "kind": "opposed", "action": A, "dice": "2d6", "threshold": 7, "faces": [3, 5]},
        {"system": R, "kind": "opposed", "action": A, "dice": "2d6", "threshold": 7, "faces": [1, 6]},
        {"system": R, "kind": "opposed", "action": A, "dice": "2d6", "threshold": 7, "faces": [0, 6]},
        {"system": R, "kind": "opposed", "action": A, "dice": "2x6", "threshold": 7, "faces": [3, 4]},
        {"system": R, "kind": "opposed", "action": A, "dice": "0d6", "threshold": 7, "faces": []},
        {"system": R, "kind": "opposed", "action": A, "dice": "", "threshold": 7, "faces": []},
        {"system": R, "kind": "opposed", "action": A, "dice": 6, "threshold": 7, "faces": [3]},
        {"system": R, "kind": "opposed", "action": A, "threshold": 7, "faces": [3]},
        {"system": R, "kind": "opposed", "action": A, "dice": "1d6", "faces": [3]},
        {"system": R, "kind": "opposed", "action": A, "dice": "1d6", "threshold": "7", "faces": [3]},
        {"system": R, "kind": "opposed", "dice": "1d6", "threshold": 7, "faces": [3]},
        {"system": R, "kind": "opposed", "action": "", "dice": "1d6", "threshold": 7, "faces": [3]},
        {
            "system": R,
            "kind": "opposed",
            "action": A,
            "dice": "1d6",
            "threshold": 7,
            "faces": [3],
            "colour": 1,
        },
        {"system": R, "kind": "opposed", "action": A, "dice": "3d6", "threshold": 7, "task": "absurd"},
        {
            "system": R,
            "kind": "opposed",
            "action": A,
            "dice": "3d6",
            "threshold": 7,
            "task": "trivial",
            "faces": [],
        },
    ]
    out += BAD_TEXT_LINES
    return out


def rollunder_lines(seed: int = 3, n_random: int = 3000) -> list[str]:
    rng = random.Random(seed)
    items: list[object] = [
        {"system": "rollunder", "kind": "check", "action": "Probe", "level": 10, "faces": [7], "id": "probe"}
    ]
    items += rollunder_edges(rng)
    for _ in range(n_random):
        req = rollunder_random(rng)
        roll = rng.random()
        if roll < 0.03:
            del req["action"]
        elif roll < 0.05:
            req["action"] = rng.choice(["", 7, None, True])
        elif roll < 0.07:
            fields = [f for f in ("level", "bonus", "malus", "threshold") if f in req]
            req[rng.choice(fields)] = rng.choice(["3", True, 3.0, None])
        elif roll < 0.09:
            req[rng.choice(["colour", "card", "Level"])] = 1
        elif roll < 0.12 and req.get("faces"):
            faces = list(req["faces"])
            if rng.random() < 0.5:
                faces.append(rng.randint(1, 20))
            else:
                faces[rng.randrange(len(faces))] = rng.choice([0, 21, 101])
            req["faces"] = faces
        items.append(req)
    return [x if isinstance(x, str) else dumps(x) for x in items]


LINES = {"v20": v20_lines, "v5": v5_lines, "tiers": tiers_lines, "rollunder": rollunder_lines}
