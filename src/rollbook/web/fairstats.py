"""Dice statistics on the fair-dice panel: the log as this member may see
it (the export's own use case, ``usecases.log.export_lines``: hidden rolls a player may not read are
not counted), tallied by ``rollbook.fair.stats`` and put in words by ``rollbook.render.fair_stats``:
the same numbers ``rollbook fair stats`` prints from that member's export."""

from __future__ import annotations

import json
from dataclasses import dataclass

from rollbook.fair.stats import tally
from rollbook.render.fair_stats import StatsRow, rows
from rollbook.server.models import Caller
from rollbook.server.usecases import log


@dataclass(frozen=True)
class Group:
    who: str
    rows: list[StatsRow]
    table: bool  # the whole table's (else one member's)


def groups(db, member: Caller, lang: str) -> tuple[list[Group], int]:
    """The whole table's die sizes, then each member's; and how many rolls were counted."""
    with db.read() as session:
        entries = [json.loads(line) for line in log.export_lines(session, member)]
    counted = tally(entries)
    out: list[Group] = []
    for item in rows(counted, lang):  # the whole table's rows come first, then each member's
        if out and out[-1].who == item.who:
            out[-1].rows.append(item)
        else:
            out.append(Group(item.who, [item], table=not out))
    return out, counted.rolls
