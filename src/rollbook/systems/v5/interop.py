"""V5's part of the interop room (``interop.formats.SystemInterop``): the formats its characters are read
from (a WoD5e actor, Progeny's JSON, the V5 Discord bot's body: ``rollbook.interop``'s modules), the one it
writes (the WoD5e actor), and the checks of an imported draft (``check``)."""

from __future__ import annotations

from rollbook.interop import progeny, v5bot, wod5e
from rollbook.interop.checks import power_problems
from rollbook.interop.formats import Exporter, Format
from rollbook.interop.report import Reader
from rollbook.systems.v5.sheet import SKILLS

FORMATS: tuple[Format, ...] = (wod5e, progeny, v5bot)
EXPORTS: tuple[Exporter, ...] = (wod5e,)


def check(reader: Reader) -> None:
    """The checks of an imported V5 draft (``interop.checks``): a specialty sits on a skill rated 1 or
    more; every power on a Discipline rated at its level or more, a known power at its level."""
    draft = reader.draft
    skills = draft.get("skills", {})
    for skill in draft.get("specialties", {}):
        if skills.get(skill, 0) < 1 and skill in SKILLS + tuple(skills):
            reader.problem(reader.source_of(f"specialties.{skill}"), "specialty_untrained", trait=skill)
    power_problems(reader, "v5", draft.get("powers", []), draft.get("disciplines", {}))


__all__ = ["EXPORTS", "FORMATS", "check"]
