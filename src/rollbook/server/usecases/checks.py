"""Checks shared by the use cases: names, choices, standing difficulties, no faces from a client."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rollbook.play import catalogue
from rollbook.rules.base import RuleError, check_range
from rollbook.server.chain import plain
from rollbook.server.problems import ProblemError

if TYPE_CHECKING:
    from rollbook.server.models import Character, Chronicle

MODES = ("strict", "casual")

# A face's request that needs the rows the write reads first to be made (a page's posted form: its
# fields are the chronicle's system's, a power's Discipline is the sheet's): the use case resolves it
# against the chronicle and the character it locked, so the face reads nothing before the write.
Resolve = Callable[["Chronicle", "Character | None"], dict]


def resolved(given: dict | Resolve, chronicle: Chronicle, character: Character | None = None) -> dict:
    """The request as given, or resolved against the rows the use case read (``Resolve``)."""
    return given(chronicle, character) if callable(given) else given


DIFFICULTY_SYSTEMS = {"v20": (2, 10), "v5": (1, 30)}  # systems whose rolls take a standing difficulty
# the kinds of roll the standing difficulty applies to; a V5 power's roll is a test (V5-1)
DIFFICULTY_KINDS = {"v20": ("test", "willpower", "virtue"), "v5": ("test", "power", "willpower", "frenzy")}
# TR-3, TR-4: the kinds of roll a contest's side or an extended action's roll may be (the catalogue's)
CONTEST_KINDS = catalogue.CONTEST_KINDS


class _Unset:
    """The default of a keyword a caller did not give (``None`` is a value: "clear it")."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


def check_choice(field: str, value: str, choices) -> None:
    if value not in choices:
        raise RuleError("bad_choice", field=field, value=value, choices=list(choices))


# Characters a name may not hold: zero-width ones (a name that looks like another's)
# and the bidirectional controls (a right-to-left override turns the text around it on every page).
INVISIBLE = re.compile("[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


# The one limit of a name (a chronicle's, a member's, a character's, a scene's), whichever face
# sends it: the API's models take it (``api_models.Name``), the pages and Discord meet it here.
NAME_MAX = 200


def check_name(name: Any, field: str = "name") -> None:
    if not isinstance(name, str) or not name.strip():
        raise RuleError("blank_text", field=field)
    if len(name) > NAME_MAX:
        raise RuleError("too_long", field=field, most=NAME_MAX)
    if INVISIBLE.search(name):
        raise RuleError("text_not_allowed", field=field)


def check_difficulty(system: str, difficulty: int | None) -> None:
    if difficulty is None:
        return
    if system not in DIFFICULTY_SYSTEMS:
        raise RuleError("field_not_for_system", field="difficulty", system=system)
    low, high = DIFFICULTY_SYSTEMS[system]
    check_range("difficulty", difficulty, low, high)


def reject_faces(value: Any, path: str = "action") -> None:
    """V5-13: a client never sends faces for an online roll, anywhere in its request."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if isinstance(key, str) and (key == "faces" or key.endswith("_faces")):
                raise ProblemError(422, "faces_not_allowed", field=f"{path}.{key}")
            reject_faces(inner, f"{path}.{key}")
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            reject_faces(inner, f"{path}[{index}]")


def performed_parts(performed) -> tuple[dict, dict | None, list]:
    """A ``play.Performed``: (new sheet, receipt, effects as plain JSON)."""
    return performed.sheet, performed.receipt, [plain(effect) for effect in (performed.effects or ())]


# Bounds on what one member stores (docs/server.md): a sheet's size as stored
# (compact JSON, UTF-8) and the characters a member holds in a chronicle (a player's own; the
# Storyteller's own and the NPCs).
MAX_SHEET_BYTES = 100_000
MAX_CHARACTERS_PER_PLAYER = 30
MAX_CHARACTERS_OF_THE_STORYTELLER = 300  # theirs and the NPCs together


def check_sheet_size(sheet: dict) -> None:
    size = len(json.dumps(sheet, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    if size > MAX_SHEET_BYTES:
        raise ProblemError(422, "sheet_too_large", most=MAX_SHEET_BYTES, given=size)
    if isinstance(sheet.get("name"), str):
        check_name(sheet["name"], "sheet.name")


def check_character_count(held: int, storytellers: bool) -> None:
    """``held``: the live characters a player holds now, or the Storyteller (``storytellers``: theirs
    and the NPCs)."""
    most = MAX_CHARACTERS_OF_THE_STORYTELLER if storytellers else MAX_CHARACTERS_PER_PLAYER
    if held >= most:
        raise ProblemError(422, "too_many_characters", most=most)
