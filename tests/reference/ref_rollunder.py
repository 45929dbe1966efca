"""Reference roll-under d20 resolution (SPEC R-1 … R-8 and the lead's contract reading)."""

from __future__ import annotations

import re

from ._check import int_list, is_bool, is_int, is_str, only_known, refuse

ERROR = "error"

CHECK_FIELDS = {"kind", "action", "level", "bonus", "malus", "advantage", "disadvantage", "task", "faces"}
OPPOSED_FIELDS = {"kind", "action", "task", "faces", "dice", "threshold"}
TERM = re.compile(r"^([0-9]+)d([0-9]+)$")


def parse_dice(expression: object) -> list[int] | str:
    """'2d6+1d4' -> [6, 6, 4] (one entry per die: its number of sides)."""
    if not is_str(expression) or expression == "":
        return refuse("dice_expression_empty", "field_required", "wrong_type")
    sides: list[int] = []
    for term in expression.split("+"):
        match = TERM.match(term)
        if match is None:
            return refuse("dice_expression_syntax")
        count, size = int(match.group(1)), int(match.group(2))
        if count < 1 or size < 2:
            return refuse("dice_count_out_of_range")
        sides.extend([size] * count)
    return sides


def resolve(req: dict) -> dict | str:
    kind = req.get("kind", "check")
    if not is_str(kind) or kind not in ("check", "opposed"):
        return refuse("bad_choice")
    if not only_known(req, CHECK_FIELDS if kind == "check" else OPPOSED_FIELDS):
        return refuse("unknown_field")
    action = req.get("action")
    if not is_str(action) or action.strip() == "":
        return refuse("action_required", "missing_field", "wrong_type")
    task = req.get("task", "normal")
    if not is_str(task) or task not in ("normal", "absurd", "trivial"):
        return refuse("bad_choice")
    faces = req.get("faces", [])
    if type(faces) is not list:
        return refuse("wrong_type")

    if kind == "opposed":
        sides = parse_dice(req.get("dice"))
        if sides == ERROR:
            return sides
        threshold = req.get("threshold")
        if not is_int(threshold):
            return refuse("field_required", "wrong_type")
        if task != "normal":
            if faces:
                return refuse("wrong_face_count")
            return {
                "target": threshold,
                "outcome": "failure" if task == "absurd" else "success",
                "rolled": False,
            }
        if len(faces) != len(sides):
            return refuse("wrong_face_count")
        for face, size in zip(faces, sides):
            if not is_int(face) or not 1 <= face <= size:
                return refuse("face_out_of_range")
        total = sum(faces)
        if all(face == 1 for face in faces):  # R-7 Reading
            outcome = "critical_success"
        elif all(face == size for face, size in zip(faces, sides)):
            outcome = "critical_failure"
        else:
            outcome = "success" if total <= threshold else "failure"
        return {"total": total, "target": threshold, "outcome": outcome, "rolled": True}

    level = req.get("level")
    if not is_int(level):
        return refuse("field_required", "wrong_type")
    bonus = req.get("bonus", 0)
    malus = req.get("malus", 0)
    if not is_int(bonus) or not is_int(malus) or bonus < 0 or malus < 0:
        return refuse("wrong_type")
    advantage = req.get("advantage", False)
    disadvantage = req.get("disadvantage", False)
    if not is_bool(advantage) or not is_bool(disadvantage):
        return refuse("wrong_type")
    target = level + bonus - malus

    if task != "normal":
        if faces:
            return refuse("wrong_face_count")
        return {"target": target, "outcome": "failure" if task == "absurd" else "success", "rolled": False}

    two = advantage != disadvantage  # R-3 Reading: both cancel to one d20
    if not int_list(faces, 1, 20) or len(faces) != (2 if two else 1):
        return refuse("face_out_of_range", "wrong_face_count", "wrong_type")
    if two and advantage:
        kept = min(faces)
    elif two:
        kept = max(faces)
    else:
        kept = faces[0]
    if kept == 1:
        outcome = "critical_success"
    elif kept == 20:
        outcome = "critical_failure"
    elif kept <= target:
        outcome = "success"
    else:
        outcome = "failure"
    return {"kept": kept, "target": target, "outcome": outcome, "rolled": True}
