"""Reference V5 resolution (SPEC V5-1 … V5-12 and the resolve contract), dict in, dict out."""

from __future__ import annotations

from ._check import int_list, is_bool, is_int, is_str, only_known, refuse

ERROR = "error"

FIELDS = {
    "kind",
    "normal",
    "hunger",
    "difficulty",
    "mode",
    "rerolls",
    "creature",
    "current_hunger",
    "blood_potency_reroll",
}
KINDS = ("test", "rouse", "willpower", "remorse", "frenzy")
CREATURES = ("vampire", "thin_blood", "ghoul", "mortal")


def _apply_rerolls(normal: list[int], rerolls: object, mode: str) -> list[int] | str:
    """V5-8: validate the Willpower rerolls and return the final normal faces."""
    if type(rerolls) is not list:
        return refuse("wrong_type")
    if mode == "strict" and len(rerolls) > 1:
        return refuse("reroll_limit_strict")
    final = list(normal)
    for entry in rerolls:
        if type(entry) is not dict or set(entry) != {"dice", "faces"}:
            return refuse("missing_field", "unknown_field", "wrong_type")
        dice = entry["dice"]
        new_faces = entry["faces"]
        if type(dice) is not list or not 1 <= len(dice) <= 3:
            return refuse("reroll_dice_count", "wrong_type")
        for index in dice:
            # an index past the normal dice would name a Hunger die: refused (V5-8)
            if not is_int(index) or index < 0 or index >= len(normal):
                return refuse("reroll_bad_index", "reroll_hunger_die", "wrong_type")
        if len(set(dice)) != len(dice):
            return refuse("reroll_duplicate_die")
        if not int_list(new_faces, 1, 10) or len(new_faces) != len(dice):
            return refuse("face_out_of_range", "wrong_face_count", "wrong_type")
        for index, face in zip(dice, new_faces):
            final[index] = face
    return final


def resolve(req: dict) -> dict | str:
    if not only_known(req, FIELDS):
        return refuse("unknown_field")

    kind = req.get("kind", "test")
    if not is_str(kind) or kind not in KINDS:
        return refuse("bad_choice")
    normal = req.get("normal", [])
    hunger = req.get("hunger", [])
    if not int_list(normal, 1, 10) or not int_list(hunger, 1, 10):
        return refuse("face_out_of_range", "no_rouse_for_creature", "wrong_type")
    difficulty = req.get("difficulty", 1)
    if not is_int(difficulty) or difficulty < 1:  # V5-1
        return refuse("out_of_range", "wrong_type")
    mode = req.get("mode", "strict")
    if not is_str(mode) or mode not in ("strict", "casual"):
        return refuse("bad_choice")
    creature = req.get("creature", "vampire")
    if not is_str(creature) or creature not in CREATURES:
        return refuse("bad_choice")
    current_hunger = req.get("current_hunger")
    if current_hunger is not None and (not is_int(current_hunger) or not 0 <= current_hunger <= 5):
        return refuse("out_of_range", "wrong_type")
    bp_reroll = req.get("blood_potency_reroll", False)
    if not is_bool(bp_reroll):
        return refuse("wrong_type")
    rerolls = req.get("rerolls", [])
    if type(rerolls) is not list:
        return refuse("wrong_type")

    total_dice = len(normal) + len(hunger)
    if total_dice < 1 or total_dice > 100:
        return refuse("out_of_range", "wrong_face_count")
    if len(hunger) > 5:  # V5-2: Hunger is at most 5
        return refuse("too_many_hunger_dice")
    if creature in ("ghoul", "mortal") and hunger:  # V5-12
        return refuse("hunger_not_allowed")
    if kind != "test" and hunger:  # V5-9
        return refuse("hunger_not_allowed")
    if kind != "test" and rerolls:
        return refuse("reroll_not_allowed")

    if kind == "rouse":  # V5-10
        if creature in ("ghoul", "mortal"):  # V5-12: no vampiric blood to rouse
            return refuse("no_rouse_for_creature")
        wanted = 2 if bp_reroll else 1
        if len(normal) != wanted:
            return refuse("wrong_face_count")
        best = max(normal)
        if best >= 6:
            return {"outcome": "success", "hunger_gain": 0}
        if current_hunger == 5:
            return {"outcome": "failure", "hunger_gain": 0, "hunger_frenzy_risk": True}
        return {"outcome": "failure", "hunger_gain": 1}

    final_normal = _apply_rerolls(normal, rerolls, mode)
    if final_normal == ERROR:
        return final_normal

    everything = final_normal + list(hunger)
    tens = everything.count(10)
    successes = sum(1 for f in everything if f >= 6) + 2 * (tens // 2)  # V5-3
    win = successes >= difficulty  # V5-4
    critical = win and tens >= 2  # V5-5
    messy = critical and 10 in hunger
    bestial = (not win) and 1 in hunger  # V5-6

    # V5-7: the first that holds, in order of precedence
    ladder = (
        (messy, "messy_critical"),
        (critical, "critical"),
        (win, "success"),
        (bestial, "bestial_failure"),
        (successes == 0, "total_failure"),
        (True, "failure"),
    )
    outcome = next(code for holds, code in ladder if holds)

    return {
        "normal": final_normal,
        "hunger": list(hunger),
        "successes": successes,
        "margin": successes - difficulty,
        "critical": critical,
        "messy": messy,
        "bestial": bestial,
        "outcome": outcome,
    }
