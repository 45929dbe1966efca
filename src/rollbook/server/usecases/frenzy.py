"""The hunger frenzy test a failed Rouse at Hunger 5 offers (SPEC V5-10 Book, V5-14): the Storyteller
calls it from the Rouse's receipt; it is the character's ordinary frenzy roll at the offered difficulty."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from rollbook.dice import DiceSource
from rollbook.server.access import find_entry, lock_character, require_storyteller
from rollbook.server.models import Caller, LogEntry
from rollbook.server.problems import ProblemError
from rollbook.server.usecases.rolls import perform_roll


def hunger_frenzy(
    session: Session, storyteller: Caller, character_id: int, roll: int, *, source: DiceSource | None = None
) -> dict:
    """V5-10, V5-14: the Storyteller calls the hunger frenzy test a failed Rouse at Hunger 5 offered
    (entry ``roll``: its effects flag ``hunger_frenzy_risk`` and name the test, Book difficulty 4). The
    test is an ordinary frenzy roll of the character (``rolls.perform_roll``), logged as a roll that
    refers to the Rouse and notes it (``"frenzy_test": {"after": seq, "reason": "hunger"}``); once per
    Rouse (409 ``frenzy_already_called``)."""
    require_storyteller(storyteller, "hunger_frenzy")
    chronicle, character = lock_character(session, storyteller, character_id)
    entry = find_entry(session, storyteller, roll)
    offered = next(
        (
            effect.get("offers")
            for effect in entry.effects or []
            if isinstance(effect, dict) and effect.get("flag") == "hunger_frenzy_risk"
        ),
        None,
    )
    if entry.character_id != character.id or not isinstance(offered, dict):
        raise ProblemError(409, "no_frenzy_offered", seq=roll)
    called = session.scalars(
        select(LogEntry.seq).where(
            LogEntry.chronicle_id == chronicle.id,
            LogEntry.refers_to == roll,
            LogEntry.kind == "roll",
            LogEntry.character_id == character.id,
        )
    ).first()
    if called is not None:
        raise ProblemError(409, "frenzy_already_called", seq=roll, by=called)
    action = {"kind": "frenzy", "difficulty": offered.get("difficulty")}
    return perform_roll(
        session,
        chronicle,
        character,
        storyteller,
        action,
        hidden=False,
        role=storyteller.role,
        stamp={},
        source=source,
        part_of=(roll, "frenzy_test", {"after": roll, "reason": "hunger"}),
    )
