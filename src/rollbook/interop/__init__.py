"""Bring your character: sheets of the tools players already use, read into rollbook
sheets with a report of what became of every field, and rollbook sheets written back out.

Pure: no web, storage or CLI library (a test checks it). One module per format, each with
``FORMAT``, ``SYSTEM``, ``DETECTION_RANK``, ``detect(data)`` and ``read(data, reader) -> creature``; the
two Foundry formats also ``export(sheet) -> dict``. Each system declares its formats and its checks
(``formats.SystemInterop``, found through the registry: ``formats.PARTS``):

- ``progeny``: Progeny's JSON (``progeny_1.0.0`` and later), V5;
- ``wod5e``: a WoD5e (Foundry) actor, V5 vampire, ghoul or mortal;
- ``v5bot``: the V5 Discord bot's character body, V5;
- ``wod20``: a Foundry WoD20 actor, V20 vampire or mortal (V20's own: ``systems/v20/interop.py``).

``import_sheet(data, format=None, system=None) -> Imported`` (the sheet as rollbook stores it, every
default filled in, and the ``Report``); every refusal a ``RuleError``: ``import_unknown_format``
(naming the formats expected), ``import_wrong_system``, ``import_too_deep``, ``import_too_big``, or
``ImportRefused`` (``import_refused``) with every problem found, each at its place in the source.
``export_sheet(system, sheet, format) -> dict``; ``export_format(system)``, the format a system's
characters export to (``export_no_format`` when there is none). Field by field, with the published data models each
mapping was read from: docs/import.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypedDict, get_args

from rollbook import play
from rollbook.i18n import colon, labelled, translate
from rollbook.i18n.messages_interop import NOTE_LABELS
from rollbook.interop.checks import validated
from rollbook.interop.formats import Exporter, Format, exporters, formats
from rollbook.interop.report import (
    Dropped,
    FileObject,
    Homebrew,
    ImportRefused,
    Mapped,
    Problem,
    Reader,
    Report,
    ReportJson,
    Sheet,
    type_name,
)
from rollbook.play.common import Text
from rollbook.rules.base import RuleError

# The systems' formats (``formats.PARTS``) when the package is imported, in detection order: the most
# specific shape first (a WoD5e actor also has ``system.attributes``: ``Format.DETECTION_RANK``).
MODULES: dict[str, Format] = {module.FORMAT: module for module in formats()}
FORMATS = tuple(MODULES)
SYSTEMS = tuple(dict.fromkeys(module.SYSTEM for module in MODULES.values()))  # the games a file can be of
EXPORTERS: dict[str, Exporter] = {module.FORMAT: module for module in exporters()}
EXPORTS = {format: module.SYSTEM for format, module in EXPORTERS.items()}  # format -> the system it holds
MAX_DEPTH = 32  # every face: the API's body one level more (app/api_interop.py IMPORT_BODY)
MAX_NODES = 50_000


class ImportedJson(TypedDict):
    format: str
    system: str
    sheet: Sheet
    report: ReportJson


@dataclass(frozen=True)
class Imported:
    format: str
    system: str
    sheet: Sheet
    report: Report

    def plain(self) -> ImportedJson:
        return {
            "format": self.format,
            "system": self.system,
            "sheet": self.sheet,
            "report": self.report.plain(),
        }


def _measure(data: object) -> None:
    """Refuse a file nested deeper than ``MAX_DEPTH`` or with more than ``MAX_NODES`` values, before
    reading any field (an iterative walk: no recursion for a hostile depth to exhaust)."""
    stack: list[tuple[object, int]] = [(data, 1)]
    nodes = 0
    while stack:
        value, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise RuleError("import_too_big", most=MAX_NODES)
        if isinstance(value, (dict, list)):
            if depth > MAX_DEPTH:
                raise RuleError("import_too_deep", most=MAX_DEPTH)
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)


def detect(data: object) -> str | None:
    """The format of a parsed JSON file, or None."""
    for name, module in MODULES.items():
        if module.detect(data):
            return name
    return None


def system_of(format: str) -> str:
    return MODULES[format].SYSTEM


def import_sheet(
    data: object,
    *,
    format: str | None = None,
    system: str | None = None,
    lang: str = "en",
    pick: int | None = None,
) -> Imported:
    """Read a file of one of ``FORMATS`` (detected when ``format`` is None) into a rollbook sheet of
    ``system`` (the chronicle's: a file of another game is refused), validated as any sheet is.
    ``lang``: the reader's language, for the names a file gives as translation keys (WoD20's clans).
    A file holding a list of characters (the V5 Discord bot's export, ``scripts/guild-export.py``) is
    refused as ``import_pick_character`` naming them, unless ``pick`` (an index) chooses one."""
    if isinstance(data, list) and data and all(isinstance(entry, dict) for entry in data):
        return _one_of(data, format=format, system=system, lang=lang, pick=pick)
    if not isinstance(data, dict):
        raise RuleError("import_unknown_format", expected=list(FORMATS), given=type_name(data))
    _measure(data)
    if format is not None and format not in MODULES:
        raise RuleError("bad_choice", field="format", value=str(format), choices=list(FORMATS))
    found = format or detect(data)
    if found is None or not MODULES[found].detect(data):
        raise RuleError("import_unknown_format", expected=list(FORMATS), given=type_name(data))
    module = MODULES[found]
    if system is not None and system != module.SYSTEM:
        raise RuleError("import_wrong_system", format=found, system=module.SYSTEM, chronicle=system)
    reader = Reader(found, module.SYSTEM, lang)
    creature = module.read(data, reader)
    _noted_in_notes(reader)
    if not reader.draft.get("name") and not reader.problems:
        reader.problem("$.name", "import_missing_name")
    sheet = validated(reader) if not reader.problems else None
    report = reader.report(creature)
    if sheet is None:
        raise ImportRefused(report)
    return Imported(found, module.SYSTEM, sheet, report)


NOTES_MOST = get_args(Text)[1].max_length  # the notes field's bound (play.common.Text)


def _noted_in_notes(reader: Reader) -> None:
    """The texts a format module noted (``Reader.note``) appended to the sheet's notes, one section
    each under its label in the reader's language ("Touchstones: …", "Pierres de touche : …"),
    each reported kept as homebrew with target ``notes``. A section the notes' bound leaves no room
    for is reported dropped (``notes_full``), never a refusal; the sections after it may still fit."""
    notes = reader.draft.get("notes")
    written = notes if isinstance(notes, str) else ""
    for source, code, text in reader.noted:
        label = translate(NOTE_LABELS[code], reader.lang)
        if "\n" in text:  # a list, one item a line, or paragraphs: under their label
            section = f"{label}{colon(reader.lang).rstrip()}\n{text}"
        else:
            section = labelled(label, text, reader.lang)
        joined = f"{written}\n\n{section}" if written else section
        if len(joined) > NOTES_MOST:
            reader.dropped.append(Dropped(source, "notes_full"))
            continue
        written = joined
        reader.homebrew.append(Homebrew(source, "notes", label))
        reader.origin.setdefault("notes", source)
    if written:
        reader.draft["notes"] = written


def _one_of(
    data: list[object], *, format: str | None, system: str | None, lang: str, pick: int | None
) -> Imported:
    """One character of a file holding several (the V5 Discord bot's export is a list of its stored
    characters): refused naming them (``import_pick_character``) until ``pick`` chooses one; the
    report's places then start at that character (``$[1].traits[0]``)."""
    _measure(data)
    names = [str(entry.get("name", "")) if isinstance(entry, dict) else "" for entry in data]
    if pick is None:
        raise RuleError("import_pick_character", count=len(data), names=names, most=len(data) - 1)
    if isinstance(pick, bool) or not isinstance(pick, int) or not 0 <= pick < len(data):
        raise RuleError("out_of_range", field="pick", value=str(pick), low=0, high=len(data) - 1)
    try:
        imported = import_sheet(data[pick], format=format, system=system, lang=lang)
    except ImportRefused as refused:
        raise ImportRefused(_rooted(refused.report, f"$[{pick}]")) from None
    return Imported(imported.format, imported.system, imported.sheet, _rooted(imported.report, f"$[{pick}]"))


def _rooted(report: Report, root: str) -> Report:
    def moved(source: str) -> str:
        return root + source.removeprefix("$")

    return replace(
        report,
        mapped=tuple(replace(m, source=moved(m.source)) for m in report.mapped),
        homebrew=tuple(replace(h, source=moved(h.source)) for h in report.homebrew),
        dropped=tuple(replace(d, source=moved(d.source)) for d in report.dropped),
        problems=tuple(replace(p, source=moved(p.source)) for p in report.problems),
    )


def export_format(system: str) -> str:
    """The format ``system``'s characters export to when none is asked; a system no format holds
    (Tiers) is refused naming the formats there are, not a format nobody asked for."""
    for format, held in EXPORTS.items():
        if held == system:
            return format
    raise RuleError("export_no_format", system=system, formats=", ".join(EXPORTS))


def export_sheet(system: str, sheet: Sheet, format: str) -> FileObject:
    """A stored rollbook sheet of ``system`` as the actor JSON of ``format`` (``wod5e`` for V5,
    ``wod20`` for V20)."""
    if format not in EXPORTS:
        raise RuleError("bad_choice", field="format", value=str(format), choices=list(EXPORTS))
    if EXPORTS[format] != system:
        raise RuleError("export_wrong_system", format=format, system=EXPORTS[format], chronicle=system)
    checked = play.new_sheet(system, sheet)  # every default filled in, as stored
    return EXPORTERS[format].export(checked)


__all__ = [
    "EXPORTS",
    "FORMATS",
    "Exporter",
    "Format",
    "MAX_DEPTH",
    "MAX_NODES",
    "MODULES",
    "SYSTEMS",
    "Dropped",
    "Homebrew",
    "ImportRefused",
    "Imported",
    "Mapped",
    "Problem",
    "Report",
    "detect",
    "export_format",
    "export_sheet",
    "import_sheet",
    "system_of",
]
