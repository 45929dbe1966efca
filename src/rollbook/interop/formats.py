"""The file formats by system: each system's part of the interop room (``SystemInterop``), declared
once by the system (a shipped system's ``interop`` module of its package, ``systems/v20/interop.py``,
``systems/v5/interop.py``; one registered from outside, its play module's ``INTEROP``) and found
through the registry (``PARTS``, ``rollbook.play.systems.Parts``): the core names no format of a
system's and imports no system's code. Pure."""

from __future__ import annotations

from typing import Protocol

from rollbook.interop.report import FileObject, Reader, Sheet
from rollbook.play.systems import Parts


class Format(Protocol):
    """A format module (``interop.progeny``, ``interop.wod5e``, ``interop.v5bot``, V20's WoD20 actor):
    its name, its system, where it stands in detection (``DETECTION_RANK``: a lower rank is tried
    first, so the most specific shape is: a WoD5e actor also has ``system.attributes``), whether a file
    is of it, and the file read into the reader's draft."""

    FORMAT: str
    SYSTEM: str
    DETECTION_RANK: int

    def detect(self, data: object) -> bool: ...

    def read(self, data: FileObject, reader: Reader) -> str | None:
        """Reads the file into ``reader.draft``; returns the creature (None: the file says none it can be)."""
        ...


class Exporter(Format, Protocol):
    """A format rollbook also writes (the two Foundry actors)."""

    def export(self, sheet: Sheet) -> FileObject: ...


class SystemInterop(Protocol):
    """A system's part of the interop room: the formats its characters are read from (``FORMATS``),
    those it writes them to (``EXPORTS``), and the checks of an imported draft its sheet model makes
    one at a time, made over the whole draft so that every problem is named at its place (``check``:
    each ``reader.problem``)."""

    @property
    def FORMATS(self) -> tuple[Format, ...]: ...
    @property
    def EXPORTS(self) -> tuple[Exporter, ...]: ...

    def check(self, reader: Reader) -> None: ...


PARTS = Parts("interop", lambda module: module.INTEROP)  # system id -> its ``SystemInterop``


def formats() -> tuple[Format, ...]:
    """Every registered system's formats, in detection order (``DETECTION_RANK``)."""
    found = [fmt for system in PARTS for fmt in interop_of(system).FORMATS]
    return tuple(sorted(found, key=lambda fmt: fmt.DETECTION_RANK))


def exporters() -> tuple[Exporter, ...]:
    """Every registered system's written formats, in detection order."""
    found = [fmt for system in PARTS for fmt in interop_of(system).EXPORTS]
    return tuple(sorted(found, key=lambda fmt: fmt.DETECTION_RANK))


def interop_of(system: str) -> SystemInterop:
    """The system's part of the interop room (``KeyError`` when it has none: no file is of it)."""
    part: SystemInterop = PARTS[system]
    return part


__all__ = ["PARTS", "Exporter", "Format", "SystemInterop", "exporters", "formats", "interop_of"]
