"""Reference Tiers resolution (SPEC T-1 … T-5 and the lead's contract reading), dict in, dict out."""

from __future__ import annotations

from ._check import int_list, is_int, is_str, only_known, refuse

ERROR = "error"

FIELDS_BY_KIND = {
    "skill": {"kind", "skill", "bonus", "faces", "bullets"},
    "dodge": {"kind", "skill", "bonus", "faces", "attack_tier"},
    "soak": {"kind", "faces", "attack_tier", "endurance", "armor"},
}


def _chain_tier(effective: int, faces: list) -> tuple[int, int] | str:
    """T-1 and T-2: first die subtracted, each critical reroll that meets the skill adds a tier."""
    if not int_list(faces, 1, 10) or len(faces) == 0:
        return refuse("face_out_of_range", "wrong_face_count", "wrong_type")
    # faces[k+1] exists exactly when faces[k] == 1
    for position in range(len(faces)):
        is_last = position == len(faces) - 1
        if faces[position] == 1 and is_last:
            return refuse("critical_reroll_missing")  # a critical needs its reroll
        if faces[position] != 1 and not is_last:
            return refuse("extra_faces_after_chain")  # a face after a non-1 was never rolled
    tier = effective - faces[0]
    extra = 0
    for face in faces[1:]:
        if face <= effective:  # T-2 Reading: equal counts
            extra += 1
    tier = tier + extra
    if faces[0] == 1 and tier < 0:  # T-2 Reading: a 1 is a critical *success*, at tier 0 at least
        tier = 0
    return tier, extra


def resolve(req: dict) -> dict | str:
    kind = req.get("kind", "skill")
    if not is_str(kind) or kind not in FIELDS_BY_KIND:
        return refuse("bad_choice")
    if not only_known(req, FIELDS_BY_KIND[kind]):
        return refuse("unknown_field")
    if "faces" not in req:
        return refuse("missing_field")

    if kind == "soak":  # T-5: the soak value replaces the skill
        for name in ("endurance", "armor", "attack_tier"):
            if name not in req or not is_int(req[name]):
                return refuse("field_required", "wrong_type")
        chained = _chain_tier(req["endurance"] + req["armor"], req["faces"])
        if chained == ERROR:
            return chained
        soak_tier, crits = chained
        attack = req["attack_tier"]
        damage = 0 if soak_tier > attack else attack - soak_tier
        return {"soak_tier": soak_tier, "critical_tiers": crits, "damage": damage, "success": damage == 0}

    if "skill" not in req or not is_int(req["skill"]):
        return refuse("field_required", "wrong_type")
    bonus = req.get("bonus", 0)
    if not is_int(bonus):
        return refuse("wrong_type")
    effective = req["skill"] + bonus  # T-1, T-7

    if kind == "dodge":  # T-4
        if "attack_tier" not in req or not is_int(req["attack_tier"]):
            return refuse("field_required", "wrong_type")
        chained = _chain_tier(effective, req["faces"])
        if chained == ERROR:
            return chained
        tier, crits = chained
        dodged = tier > req["attack_tier"]
        return {"tier": tier, "critical_tiers": crits, "dodged": dodged, "success": dodged}

    bullets = req.get("bullets")
    if bullets is not None and (not is_int(bullets) or bullets < 1):
        return refuse("out_of_range", "wrong_type")
    chained = _chain_tier(effective, req["faces"])
    if chained == ERROR:
        return chained
    tier, crits = chained
    if bullets is not None:  # T-3: after criticals
        tier = tier * bullets
    return {"tier": tier, "critical_tiers": crits, "success": tier >= 0}
