"""The solo chronicle's guard on the table's own routes (SPEC S-7, S-8): in a solo chronicle, a player's
roll, change or sheet edit made through another route than the story's choices is refused while a
fight passage runs (a fight turn is one action of the player, chosen among the fight's choices: S-8)
and once the story has ended (S-7: nothing more is rolled or chosen). The engine's own steps pass: it
performs them inside ``engine_acting`` (``usecases.solo``).

Apart from ``usecases.solo`` so the table's use cases (``characters``, ``rolls``) can call it without
importing the solo shell. One indexed read per chronicle and process (``is_solo``): a solo chronicle's
``solo_start`` is among its first ``SOLO_START_WITHIN`` entries (the chronicle, its two members, the
player's seed), so only those are looked at; the state is replayed (S-5) only in a solo chronicle."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import select
from sqlalchemy.orm import Session

from rollbook.server.access import STORYTELLER
from rollbook.server.models import Caller, Chronicle, LogEntry
from rollbook.server.problems import ProblemError
from rollbook.server.usecases import scenes
from rollbook.server.views import entry_export
from rollbook.solo import story
from rollbook.solo.actions import SYSTEM as SOLO_SYSTEM
from rollbook.solo.steps import SOLO_KINDS, SOLO_START

SOLO_START_WITHIN = 64
_ACTING = "rollbook.solo.engine_acting"  # session.info key: the chronicle the engine is acting on


@contextmanager
def engine_acting(session: Session, chronicle_id: int) -> Iterator[None]:
    """The engine's own steps on ``chronicle_id`` (its rolls, the Willpower a choice costs, a fight's heal)."""
    session.info[_ACTING] = chronicle_id
    try:
        yield
    finally:
        session.info.pop(_ACTING, None)


# Whether a chronicle is a solo one never changes (its ``solo_start`` is written in the transaction that
# creates it), so the answer is kept per process, keyed by the chronicle's id and creation time (an id
# a deleted chronicle freed names another chronicle): the table's rolls read it once, not every time.
_KNOWN: dict[tuple[int, str], bool] = {}
_KNOWN_MOST = 10_000


def is_solo(session: Session, chronicle: Chronicle) -> bool:
    key = (chronicle.id, chronicle.created_at)
    known = _KNOWN.get(key)
    if known is None:
        known = (
            session.scalars(
                select(LogEntry.seq).where(
                    LogEntry.chronicle_id == chronicle.id,
                    LogEntry.seq <= SOLO_START_WITHIN,
                    LogEntry.kind == SOLO_START,
                )
            ).first()
            is not None
        )
        if len(_KNOWN) >= _KNOWN_MOST:
            _KNOWN.clear()
        _KNOWN[key] = known
    return known


def solo_state(session: Session, chronicle_id: int) -> story.State:
    """The story's state replayed from the log (S-5): its solo entries (a fight's passage, an ending)."""
    rows = session.scalars(
        select(LogEntry)
        .where(LogEntry.chronicle_id == chronicle_id, LogEntry.kind.in_(SOLO_KINDS))
        .order_by(LogEntry.seq)
    )
    return story.replay(entry_export(row) for row in rows)


def check_player_move(session: Session, chronicle: Chronicle, member: Caller) -> None:
    """Refuse a player's roll or change through the table's routes in a solo chronicle after its ending
    (S-7: 409 ``solo_finished``) or while a fight runs (S-8: 409 ``solo_fight_turn``; a solo chronicle's
    scene is open exactly while a fight runs, ``solo.fight``)."""
    if member.role == STORYTELLER or session.info.get(_ACTING) == chronicle.id:
        return
    if chronicle.system != SOLO_SYSTEM or not is_solo(session, chronicle):  # a solo chronicle is its game's
        return
    state = solo_state(session, chronicle.id)
    if state.finished:
        raise ProblemError(409, "solo_finished")
    if scenes.open_scene_of(session, chronicle.id) is not None:
        raise ProblemError(409, "solo_fight_turn", passage=state.passage or "")
