"""What a system adds to the table's cards and pages beyond its rolls (``systems.v5.present``: V5's
compulsions, seed 001, V5-14, and the hunger frenzy test, V5-10): the cards of its own log entries, the
notes and one-tap buttons on its roll cards, the badge of a state in force beside a character, the
sheet's panel, and its compulsions' names. ``table_face(system)`` finds a system's (a shipped system's
module ``present`` of its package, ``PRESENT`` on the play module of one registered from outside:
``play.systems.part``); ``entry_face(kind)`` the one whose own entries are of a kind."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, Protocol, cast

from rollbook.play import systems
from rollbook.present.contests import Button


class TableFace(Protocol):
    @property
    def KINDS(
        self,
    ) -> Collection[str]: ...  # the kinds of its own log entries (V5's compulsion called, ended)

    # (title, line) of a card of one of its own entries, ``characters`` naming them by id
    def describe_entry(self, kind: str, receipt: dict, lang: str, characters: dict) -> tuple[str, str]: ...

    def roll_notes(self, receipt: dict, lang: str) -> list[str]: ...  # beside its roll's card, in words

    # the one-tap calls its roll's card offers (their ``action`` a page's path; Discord's buttons too)
    def roll_buttons(
        self,
        receipt: dict,
        seq: int,
        character: int | None,
        chronicle_id: int,
        *,
        storyteller: bool,
        lang: str,
        effects: list | tuple = (),
        frenzy_called: bool = False,
    ) -> list[Button]: ...

    # a state in force (``usecases.compulsions.in_force``) as the badge beside its character, or None
    def badge(self, found: dict | None, lang: str) -> Any: ...

    # the sheet's panel of that state (``current``: its badge), or None when the sheet shows none
    def sheet_panel(
        self,
        chronicle: dict,
        character_id: int,
        sheet: dict,
        current: Any,
        storyteller: bool,
        lang: str,
        *,
        scene_open: bool,
    ) -> Any: ...

    def name(self, compulsion: str, lang: str) -> str: ...  # a compulsion's name, in words


# each registered system's face at the table, system id -> its face (``play.systems.Parts``)
FACES: Mapping[str, TableFace] = systems.Parts("present", lambda m: m.PRESENT)


def table_face(system: object) -> TableFace | None:
    """A system's face at the table, None when it has none."""
    return cast("TableFace | None", systems.part(system, "present", lambda m: m.PRESENT))


def entry_face(kind: str) -> TableFace | None:
    """The face of the system whose own log entries are of ``kind`` (V5's ``compulsion``), or None.
    Every card asks it: each system's part is looked up once (``FACES.values()`` looks twice)."""
    for system in systems.system_ids():
        face = table_face(system)
        if face is not None and kind in face.KINDS:
            return face
    return None


__all__ = ["FACES", "TableFace", "entry_face", "table_face"]
