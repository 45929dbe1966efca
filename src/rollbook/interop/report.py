"""What an import did with each field of the source file: the ``Report`` and the
``Reader`` that builds it while a format module reads the file.

Every field of the source ends in one of four lists, each entry naming its place in the source as a
JSON path (``$.system.skills.animalken.value``, ``$.items[3].name``): ``mapped`` (to which field of
the rollbook sheet), ``homebrew`` (a trait rollbook does not know, kept under an id made from its
name, the name kept as typed: accents and capitals included; or a text the sheet has no field for,
kept in the sheet's ``notes`` under a label in the reader's language, target ``notes`` and the label
as its name), ``dropped`` (and why, as a code), and
``problems`` (why the file cannot be imported as it is, as a code and its numbers). A field whose
value is empty (``null``, ``""``, ``[]``, ``{}``, ``false``) holds nothing and is not listed.

Problems are collected, never raised one by one: a file with five problems names all five
(EXAMPLES.md item 7). Codes only; ``rollbook.i18n.messages_interop`` has their sentences.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TypedDict, TypeVar

from rollbook.interop.names import html_text
from rollbook.play.common import JsonObject
from rollbook.rules.base import RuleError

_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

# A character file is any JSON: each value is read as ``object`` and narrowed where it is read (a file
# may put any JSON value anywhere); an object of it, read or written by an export, is a ``FileObject``.
FileObject = dict[str, object]
# A rollbook sheet as plain JSON (the draft a format module builds, then the stored sheet): its schema is
# the play layer's sheet model, which validates it (``checks.validated``).
Sheet = JsonObject

_Kind = TypeVar("_Kind")


def at(base: str, key: str | int) -> str:
    """A JSON path one step further: ``$.a`` + ``b`` -> ``$.a.b``; a list index or an odd key in brackets."""
    if isinstance(key, int):
        return f"{base}[{key}]"
    if _PLAIN_KEY.match(key):
        return f"{base}.{key}"
    return f"{base}[{json.dumps(key, ensure_ascii=False)}]"


@dataclass(frozen=True)
class Mapped:
    source: str  # a JSON path in the source file
    target: str  # a dotted path in the rollbook sheet


@dataclass(frozen=True)
class Homebrew:
    source: str
    target: str  # the trait's place in the sheet (``skills.egouts``, ``powers.3``)
    name: str  # as typed in the source


@dataclass(frozen=True)
class Dropped:
    source: str
    reason: str  # a code: ``no_such_field``, ``foundry_state``, ``merits`` …


class MappedJson(TypedDict):
    source: str
    target: str


class HomebrewJson(TypedDict):
    source: str
    target: str
    name: str


class DroppedJson(TypedDict):
    source: str
    reason: str


class ProblemJson(TypedDict):
    source: str
    code: str
    params: dict[str, object]


class ReportJson(TypedDict):
    """``Report.plain()``: the report as the API and the CLI give it."""

    format: str
    system: str
    creature: str | None
    mapped: list[MappedJson]
    homebrew: list[HomebrewJson]
    dropped: list[DroppedJson]
    problems: list[ProblemJson]


class Counts(TypedDict):
    mapped: int
    homebrew: int
    dropped: int
    problems: int


@dataclass(frozen=True)
class Problem:
    source: str
    code: str
    params: tuple[tuple[str, object], ...] = ()

    def plain(self) -> ProblemJson:
        return {"source": self.source, "code": self.code, "params": dict(self.params)}


@dataclass(frozen=True)
class Report:
    format: str
    system: str
    creature: str | None
    mapped: tuple[Mapped, ...] = ()
    homebrew: tuple[Homebrew, ...] = ()
    dropped: tuple[Dropped, ...] = ()
    problems: tuple[Problem, ...] = ()

    def plain(self) -> ReportJson:
        return {
            "format": self.format,
            "system": self.system,
            "creature": self.creature,
            "mapped": [{"source": m.source, "target": m.target} for m in self.mapped],
            "homebrew": [{"source": h.source, "target": h.target, "name": h.name} for h in self.homebrew],
            "dropped": [{"source": d.source, "reason": d.reason} for d in self.dropped],
            "problems": [p.plain() for p in self.problems],
        }

    def counts(self) -> Counts:
        return {
            "mapped": len(self.mapped),
            "homebrew": len(self.homebrew),
            "dropped": len(self.dropped),
            "problems": len(self.problems),
        }


class ImportRefused(RuleError):
    """The file cannot become a rollbook sheet: every problem found, with its place in the source."""

    def __init__(self, report: Report) -> None:
        first = report.problems[0]
        super().__init__(
            "import_refused",
            format=report.format,
            count=len(report.problems),
            field=first.source,
            first=first.code,
            problems=[p.plain() for p in report.problems],
        )
        self.report = report


def empty(value: object) -> bool:
    return value is None or value is False or value == "" or value == [] or value == {}


@dataclass
class Reader:
    """Collects the report while a format module reads a file into a draft sheet (plain JSON)."""

    format: str
    system: str
    lang: str = "en"  # the reader's language: names a file gives as translation keys
    draft: Sheet = field(default_factory=dict)
    origin: dict[str, str] = field(default_factory=dict)  # sheet path -> source path
    mapped: list[Mapped] = field(default_factory=list)
    homebrew: list[Homebrew] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # texts the sheet has no field for, each kept in the notes under a label: (source, label code, text)
    noted: list[tuple[str, str, str]] = field(default_factory=list)

    # --- the report --------------------------------------------------------------------------
    def problem(self, source: str, code: str, **params: object) -> None:
        self.problems.append(Problem(source, code, tuple(sorted(params.items()))))

    def drop(self, source: str, reason: str, value: object = True) -> None:
        """A field rollbook does not keep, and why (an empty one holds nothing: not listed)."""
        if not empty(value):
            self.dropped.append(Dropped(source, reason))

    def note(self, source: str, label: str, value: object, *, html: bool = False) -> None:
        """A text (or a list of texts) the sheet has no field for, to be kept in its notes under
        ``label`` (a code; ``rollbook.interop.import_sheet`` writes it in the reader's language and
        reports it). ``html``: a Foundry ``HTMLField``, kept as its text. Anything but text is dropped
        as ``no_such_field``; an empty value holds nothing and is not listed."""
        items = value if isinstance(value, list) else [value]
        texts = [html_text(item) if html else item for item in items if isinstance(item, str)]
        texts = [text.strip() for text in texts if text.strip()]
        if len(texts) != len([item for item in items if not empty(item)]):
            self.drop(source, "no_such_field", value)
        elif texts:
            self.noted.append(
                (source, label, texts[0] if len(texts) == 1 else "\n".join(f"- {t}" for t in texts))
            )

    def put(self, target: str, value: object, source: str, *, name: str | None = None) -> None:
        """``value`` at ``target`` (a dotted path) of the draft; ``name``: a homebrew trait's name as typed."""
        parts = target.split(".")
        node = self.draft
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
        self.origin[target] = source
        self._noted(target, source, name)

    def append(self, target: str, value: object, source: str, *, name: str | None = None) -> str:
        """``value`` appended to the list at ``target``; returns the item's path (``powers.2``)."""
        parts = target.split(".")
        node = self.draft
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        items = node.setdefault(parts[-1], [])
        items.append(value)
        where = f"{target}.{len(items) - 1}"
        self.origin[where] = source
        self.origin.setdefault(target, source)
        self._noted(where, source, name)
        return where

    def along(self, anchor: str, *sources: str) -> None:
        """Fields read together with ``anchor`` (a trait's name and type beside its rating): each
        reported as the anchor is, mapped to its target or dropped for its reason."""
        targets = [m.target for m in self.mapped if m.source == anchor]
        targets += [h.target for h in self.homebrew if h.source == anchor]
        for target in targets:
            self.mapped.extend(Mapped(source, target) for source in sources)
        for d in [d for d in self.dropped if d.source == anchor]:
            self.dropped.extend(Dropped(source, d.reason) for source in sources)

    def rest(self, where: str, entry: FileObject, read: tuple[str, ...], reason: str) -> None:
        """Every key of ``entry`` (at ``where``) but those ``read``: dropped for ``reason``."""
        for key, value in entry.items():
            if key not in read:
                self.drop(at(where, key), reason, value)

    def unmap(self, target: str, reason: str) -> None:
        """Take ``target`` back out of the draft (a value read before the creature was known to have
        no such trait): its source fields are reported dropped for ``reason`` instead."""
        parts = target.split(".")
        node = self.draft
        for part in parts[:-1]:
            node = node.get(part, {})
        node.pop(parts[-1], None)
        self.origin.pop(target, None)
        for entry in [m for m in self.mapped if m.target == target]:
            self.mapped.remove(entry)
            self.dropped.append(Dropped(entry.source, reason))

    def _noted(self, target: str, source: str, name: str | None) -> None:
        if name is None:
            self.mapped.append(Mapped(source, target))
        else:
            self.homebrew.append(Homebrew(source, target, name))

    def report(self, creature: str | None) -> Report:
        return Report(
            self.format,
            self.system,
            creature,
            tuple(self.mapped),
            tuple(self.homebrew),
            tuple(self.dropped),
            tuple(self.problems),
        )

    def source_of(self, target: str) -> str:
        """The source path of a sheet path, or of its nearest parent that came from the file."""
        parts = str(target).split(".")
        while parts:
            found = self.origin.get(".".join(parts))
            if found:
                return found
            parts.pop()
        return "$"

    # --- typed reads: a wrong value is a problem, and None ------------------------------------
    def integer(self, value: object, source: str, low: int, high: int, *, digits: bool = False) -> int | None:
        if digits and isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value.strip())
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(source, "import_wrong_type", expected="integer", given=type_name(value))
            return None
        if not low <= value <= high:
            self.problem(source, "import_out_of_range", value=value, low=low, high=high)
            return None
        return value

    def text(self, value: object, source: str, most: int = 200) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str):
            self.problem(source, "import_wrong_type", expected="text", given=type_name(value))
            return None
        if len(value) > most:
            self.problem(source, "import_text_too_long", most=most, given=len(value))
            return None
        return value

    def obj(self, value: object, source: str) -> FileObject | None:
        return self._of_type(value, source, dict, "object")

    def array(self, value: object, source: str) -> list[object] | None:
        return self._of_type(value, source, list, "list")

    def _of_type(self, value: object, source: str, kind: type[_Kind], expected: str) -> _Kind | None:
        """``value`` if it is a ``kind``; None if absent, or (and a problem) if of another type."""
        if value is None:
            return None
        if not isinstance(value, kind):
            self.problem(source, "import_wrong_type", expected=expected, given=type_name(value))
            return None
        return value


def entries(
    reader: Reader, container: FileObject, base: str, name: str
) -> Iterator[tuple[str, str, FileObject]]:
    """``(key, where, entry)`` for each entry of the object ``container[name]`` that is itself an
    object (what is not is reported by ``Reader.obj``)."""
    where = at(base, name)
    for key, raw in (reader.obj(container.get(name), where) or {}).items():
        here = at(where, key)
        entry = reader.obj(raw, here)
        if entry is not None:
            yield key, here, entry


def sub(value: object, *keys: str) -> object:
    """``value[k1][k2]…`` where each step is an object holding the key; None anywhere else (a file
    may put any JSON value anywhere)."""
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def text_key(value: object) -> str | None:
    """A value usable as a key of the tables: text only."""
    return value if isinstance(value, str) else None


def type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "object"
    return "other"
