"""A night of play as a printable log: the chronicle's log cut into nights (a pause of six hours or
more between two entries ends one), a night's entries grouped by the scene they were made in (A-3:
``scene_open`` … ``scene_close``; what came outside a scene in a group of its own), each entry one
short line of text (``night.html``: who, what, the outcome, the dice's faces, the effects), with no
button and no form. The seeds' own entries (F-1, F-2: a commitment, a client seed) are the fair-dice
panel's, not the night's story: they are left out (the rolls say their fairness themselves)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from babel.dates import format_date

from rollbook.entries import SceneOpenReceipt, receipt_of
from rollbook.present.present import Card
from rollbook.server.models import Caller
from rollbook.server.usecases import chronicles, log
from rollbook.web import table

PAUSE = timedelta(hours=6)  # a pause this long between two entries: the next night
READ_PAGE = 500  # entries read at once
LEFT_OUT = ("seed_commit", "client_seed")


@dataclass(frozen=True)
class Night:
    first: int  # the seq of its first entry
    last: int
    start: str  # created_at of its first entry
    end: str
    entries: int

    @property
    def date(self) -> str:
        return self.start[:10]

    def day(self, lang: str) -> str:
        """Its date in the reader's words (CLDR, through Babel): "6 décembre 2026"."""
        return format_date(date.fromisoformat(self.date), format="long", locale=lang)


@dataclass
class SceneGroup:
    number: int | None  # None: outside a scene
    name: str = ""
    continued: bool = False  # opened on an earlier night
    cards: list[Card] = field(default_factory=list)


@dataclass
class NightLog:
    chronicle: dict
    nights: list[Night]
    night: Night | None
    scenes: list[SceneGroup]


def _when(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def nights_of(views: list[dict]) -> list[Night]:
    """The log's entries as the API shows them (oldest first) cut into nights at each pause of
    ``PAUSE`` or more."""
    out: list[Night] = []
    run: list[dict] = []
    for view in views:
        if run and _when(view["created_at"]) - _when(run[-1]["created_at"]) >= PAUSE:
            out.append(_night(run))
            run = []
        run.append(view)
    if run:
        out.append(_night(run))
    return out


def _night(run: list[dict]) -> Night:
    return Night(run[0]["seq"], run[-1]["seq"], run[0]["created_at"], run[-1]["created_at"], len(run))


def scenes_of(views: list[dict], night: Night) -> list[tuple[int | None, str, bool, list[dict]]]:
    """The night's entries by scene: (its number or None, its name, opened on an earlier night, its
    entries), in the log's order; ``views`` is the log from its start, for the scene open at dusk."""
    groups: list[tuple[int | None, str, bool, list[dict]]] = []
    scene: tuple[int | None, str, bool] = (None, "", False)
    for view in views:
        seq, kind = view["seq"], view["kind"]
        if seq > night.last:
            break
        if kind == "scene_open" and view.get("receipt") is not None:
            opened = receipt_of(kind, view["receipt"])
            assert isinstance(opened, SceneOpenReceipt)
            scene = (opened.scene, opened.name or "", seq < night.first)
        if seq >= night.first and kind not in LEFT_OUT:
            if not groups or groups[-1][0] != scene[0]:
                groups.append((*scene, []))
            groups[-1][3].append(view)
        if kind == "scene_close":
            scene = (None, "", False)
    return groups


def read(db, member: Caller, lang: str, first: int | None) -> NightLog:
    """The night that starts at entry ``first`` (else the last night), as this member may see it."""
    with db.read() as session:
        chronicle = chronicles.chronicle_info(session, member)
        views: list[dict] = []
        while True:
            page = log.entries_after(session, member, views[-1]["seq"] if views else 0, READ_PAGE)
            views += page
            if len(page) < READ_PAGE:
                break
        characters = table.roster_rows(session, member)
        revealed = table.revealed_seeds(session, member)
        nights = nights_of(views)
        night = next((n for n in nights if n.first == first), nights[-1] if nights else None)
        groups = scenes_of(views, night) if night else []
        seqs = [view["seq"] for group in groups for view in group[3]]
        followed = table.followed_up(session, member, seqs)
    viewer = table.viewer_of(member, chronicle, lang)
    scenes = []
    for number, name, continued, chunk in groups:
        cards = table.cards_for(chunk, viewer, characters, followed, chronicle["system"], revealed=revealed)
        scenes.append(SceneGroup(number, name, continued, cards))
    return NightLog(chronicle, nights, night, scenes)
