"""Bring your character: a sheet of another tool imported as a chronicle's new character,
a character exported to another tool; both logged like sheet edits.

The import goes through ``characters.add_character`` (the same checks and write as any new
character) after ``rollbook.interop`` has read and validated the file; any refusal is raised before
anything is written, so the transaction writes nothing. The log entries name the imported sheet's
origin (its format) and how many fields were mapped, kept as homebrew or dropped; they carry no
rating of the sheet (a player sees the ratings of their own characters only), so the
public entry gives nothing away that the character's sheet keeps for its owner and the Storyteller.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from rollbook import interop
from rollbook.entries import SheetExportReceipt, SheetImportReceipt
from rollbook.rules.base import RuleError
from rollbook.server.access import find_character, lock_chronicle, may_act_for
from rollbook.server.models import Caller, Chronicle
from rollbook.server.store import actor_of, append_entry
from rollbook.server.usecases import characters
from rollbook.server.usecases.checks import UNSET
from rollbook.server.views import entry_view

IMPORT_KIND = "sheet_import"
EXPORT_KIND = "sheet_export"


def import_character(
    session: Session,
    member: Caller,
    *,
    source: Any,
    format: str | None = None,
    system: str | None = None,
    name: str | None = None,
    owner: int | None = UNSET,
    pick: int | None = None,
    lang: str | Callable[[Chronicle], str] = "en",
) -> dict:
    """A new character from another tool's file: ``{"character", "sheet", "report", "entry"}``.
    ``system``: a hint the chronicle's system must match; ``name``: instead of the file's; ``pick``:
    which character of a file holding several (the V5 Discord bot's guild export); ``lang``: the
    reader's language, for the names a file gives as translation keys (WoD20's clans; a page's: from
    the chronicle locked here, its default)."""
    chronicle = lock_chronicle(session, member.chronicle_id)
    if callable(lang):
        lang = lang(chronicle)
    if system is not None and system != chronicle.system:
        raise RuleError(
            "import_wrong_system", format=format or "-", system=system, chronicle=chronicle.system
        )
    imported = interop.import_sheet(source, format=format, system=chronicle.system, lang=lang, pick=pick)
    sheet = dict(imported.sheet)
    if name is not None:
        sheet["name"] = name
    view = characters.add_character(session, member, name=sheet["name"], sheet=sheet, owner=owner)
    character = find_character(session, member, view["id"])
    report = imported.report
    entry = append_entry(
        session,
        chronicle,
        kind=IMPORT_KIND,
        actor=actor_of(member, character),
        visibility="public",
        receipt=SheetImportReceipt(
            character=character.id,
            owner=character.owner_id,
            origin={"format": imported.format},
            counts=dict(report.counts()),
            # names of homebrew traits may stay public; never a rating, nor a text kept in the notes
            homebrew=sorted({h.name for h in report.homebrew if h.target != "notes"}),
        ),
        character_id=character.id,
    )
    return {
        "character": view,
        "sheet": view["sheet"],
        "report": report.plain(),
        "entry": entry_view(entry, member),
    }


def export_character(session: Session, member: Caller, character_id: int, format: str | None = None) -> dict:
    """A character's sheet as ``format``'s JSON (the owner's or the Storyteller's; None: the format of
    the chronicle's system); logged."""
    chronicle = lock_chronicle(session, member.chronicle_id)
    if format is None:
        format = interop.export_format(chronicle.system)
    character = find_character(session, member, character_id)
    may_act_for(member, character)
    exported = interop.export_sheet(chronicle.system, character.sheet, format)
    append_entry(
        session,
        chronicle,
        kind=EXPORT_KIND,
        actor=actor_of(member, character),
        visibility="public",
        receipt=SheetExportReceipt(
            character=character.id, owner=character.owner_id, format=format, version=character.version
        ),
        character_id=character.id,
    )
    return exported
