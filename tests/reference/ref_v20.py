"""Reference V20 resolution (SPEC V20-1 … V20-14 and the resolve contract), dict in, dict out."""

from __future__ import annotations

from ._check import int_list, is_bool, is_int, is_str, only_known, refuse

ERROR = "error"

FIELDS = {
    "faces",
    "difficulty",
    "required",
    "mode",
    "untrained",
    "specialty",
    "specialty_rating",
    "willpower",
    "willpower_roll",
    "auto_successes",
    "knowledge_allowed",
    "willpower_current",
    "pool",  # TR-2: the pool's dice among the faces (default: all of them)
    "table_rules",  # TR-1: the table rules in force; this reference models none (TR-2 has its own tests)
}


def resolve(req: dict) -> dict | str:
    if not only_known(req, FIELDS):
        return refuse("unknown_field", "wrong_face_count")

    # --- faces (required): a list of d10 faces, 0 to 100 of them (V20-1) ---
    if "faces" not in req:
        return refuse("missing_field")
    faces = req["faces"]
    if not int_list(faces, 1, 10) or len(faces) > 100:
        return refuse("face_out_of_range", "out_of_range", "wrong_type")
    pool = req.get("pool")
    if pool is not None and not is_int(pool):
        return refuse("wrong_type")
    if pool is not None and not 0 <= pool <= 100:
        return refuse("out_of_range")
    table_rules = req.get("table_rules", [])
    if type(table_rules) is not list:
        return refuse("wrong_type")
    if table_rules:
        return refuse()  # not modelled here: the generator writes no table rule
    if pool is not None and pool != len(faces):  # without a table rule every face is one of the pool's
        return refuse("wrong_face_count")

    difficulty = req.get("difficulty", 6)
    required = req.get("required", 1)
    auto_powers = req.get("auto_successes", 0)
    numbers_ok = (
        is_int(difficulty)
        and 2 <= difficulty <= 10  # V20-2
        and is_int(required)
        and required >= 1  # V20-2
        and is_int(auto_powers)
        and auto_powers >= 0
    )
    mode = req.get("mode", "strict")
    untrained = req.get("untrained")
    choices_ok = (
        is_str(mode)
        and mode in ("strict", "casual")
        and (untrained is None or (is_str(untrained) and untrained in ("talent", "skill", "knowledge")))
    )
    flags = {
        name: req.get(name, False)
        for name in ("knowledge_allowed", "specialty", "willpower", "willpower_roll")
    }
    rating = req.get("specialty_rating")
    willpower_current = req.get("willpower_current")
    optional_ok = all(value is None or is_int(value) for value in (rating, willpower_current))
    if not (numbers_ok and choices_ok and optional_ok and all(is_bool(v) for v in flags.values())):
        return refuse("bad_choice", "out_of_range", "wrong_type")
    knowledge_allowed, specialty = flags["knowledge_allowed"], flags["specialty"]
    willpower, willpower_roll = flags["willpower"], flags["willpower_roll"]

    # --- refusals ---
    if untrained == "knowledge" and not knowledge_allowed:  # V20-3 Book
        return refuse("untrained_knowledge_refused")
    if specialty:  # V20-7
        if rating is None or rating < 4:
            return refuse("out_of_range", "specialty_rating_missing", "specialty_rating_too_low")
        # V20-7 Reading: an Attribute's specialty (rated 4-5) applies with an untrained Ability too.
    if willpower:  # V20-9
        if willpower_roll:
            return refuse("willpower_on_willpower_roll")
        if willpower_current == 0:
            return refuse("willpower_exhausted")

    # --- difficulty: untrained +1, over-10 rule, casual halving (V20-3, V20-4, V20-5) ---
    evaluated = difficulty
    if untrained in ("skill", "knowledge"):
        evaluated = evaluated + 1
    if evaluated > 10:
        required = required + (evaluated - 10)
        evaluated = 10
    if mode == "casual":
        applied = evaluated // 2
        if applied < 1:
            applied = 1
    else:
        applied = evaluated

    # --- counting (V20-6, V20-7, V20-8) ---
    ones = 0
    rolled = 0
    for face in faces:
        if face == 1:
            ones += 1
        if face >= applied:
            if specialty and face == 10:
                rolled += 2
            else:
                rolled += 1
    cancelled = ones if ones < rolled else rolled

    auto = auto_powers + (1 if willpower else 0)  # V20-9
    total = rolled - cancelled + auto  # V20-10

    if rolled == 0 and ones >= 1 and auto == 0:  # V20-11
        outcome = "botch"
    elif total >= required:  # V20-12
        outcome = "success"
    else:
        outcome = "failure"

    return {
        "difficulty": applied,
        "required": required,
        "faces": list(faces),
        "ones": ones,
        "rolled_successes": rolled,
        "cancelled": cancelled,
        "auto_successes": auto,
        "successes": total,
        "outcome": outcome,
    }
