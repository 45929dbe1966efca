"""V5 compulsions at the table (seed 001, SPEC V5-14, A-1): the Storyteller calls a character's
compulsion (a ``compulsion`` entry: which one, for whom, until when, after which roll) and ends it
(a ``compulsion_end`` entry); while it lasts, each of that character's tests carries its penalty
(the system's compulsions, ``play.systems.compulsion_rules``: ``rolls.perform_roll`` hands it to
``play.perform``).

A compulsion called ``until="scene"`` ends with the scene it was called in (the ``scene_close``
entry ends it, as it ends scene-long standing grants); ``until="ended"`` lasts until the Storyteller
ends it. At most one compulsion is in force per character: calling another ends nothing, it is
refused (409 ``compulsion_in_force``) until the first is ended. The state is read from the log
itself, so what the table shows and what ``rollbook log verify`` recomputes
(``systems.v5.ledger``) are the same reading.
"""

from __future__ import annotations

from sqlalchemy import BindParameter, bindparam, select
from sqlalchemy.orm import Session

from rollbook.entries import CompulsionEndReceipt, CompulsionReceipt, RollReceipt
from rollbook.play.systems import compulsion_rules, reads_compulsion
from rollbook.rules.base import RuleError
from rollbook.server.access import (
    find_character,
    find_entry,
    lock_character,
    lock_chronicle,
    require_storyteller,
)
from rollbook.server.models import Caller, LogEntry
from rollbook.server.problems import ProblemError, from_rule_error
from rollbook.server.store import actor_of, append_entry
from rollbook.server.usecases.scenes import open_scene_of
from rollbook.server.views import entry_view

CALL = "compulsion"
END = "compulsion_end"
BEAST_OUTCOMES = ("messy_critical", "bestial_failure")  # seed 001: "either result may call for a compulsion"
# The two kinds written into the statement (not bound): the partial index on them
# (``models.COMPULSION_KINDS_SQL``) serves only a query whose condition is the index's own.
_CALL_OR_END: BindParameter[tuple[str, str]] = bindparam(
    "compulsion_kinds", (CALL, END), expanding=True, literal_execute=True
)
_LOG = LogEntry.__table__
# Built once: each V5 test runs it (a statement built per call, and its row made an ORM entity,
# cost ~4 times its execution).
_LATEST_CALL_OR_END = (
    select(_LOG.c.kind, _LOG.c.seq, _LOG.c.receipt)
    .where(
        _LOG.c.chronicle_id == bindparam("chronicle"),
        _LOG.c.character_id == bindparam("character"),
        _LOG.c.kind.in_(_CALL_OR_END),
    )
    .order_by(_LOG.c.seq.desc())
    .limit(1)
)


def in_force(session: Session, chronicle_id: int, character_id: int) -> dict | None:
    """The compulsion in force for a character (``{"compulsion", "called", "until", "scene", …}``:
    the call's receipt and its seq), or None: the latest call not ended, and, for a scene-long one,
    its scene still open."""
    latest = session.execute(
        _LATEST_CALL_OR_END, {"chronicle": chronicle_id, "character": character_id}
    ).first()
    if latest is None or latest.kind != CALL:
        return None
    called = dict(latest.receipt or {})
    if called.get("until") == "scene":
        scene = open_scene_of(session, chronicle_id)
        if scene is None or scene.number != called.get("scene"):
            return None
    return {**called, "called": latest.seq}


def all_in_force(session: Session, chronicle_id: int) -> dict[int, dict]:
    """Every character's compulsion in force (character id -> as ``in_force``): what the table shows."""
    latest: dict[int, LogEntry] = {}
    for entry in session.scalars(
        select(LogEntry)
        .where(LogEntry.chronicle_id == chronicle_id, LogEntry.kind.in_((CALL, END)))
        .order_by(LogEntry.seq)
    ):
        if entry.character_id is not None:
            latest[entry.character_id] = entry
    calls = {character: entry for character, entry in latest.items() if entry.kind == CALL}
    if not calls:
        return {}
    scene = open_scene_of(session, chronicle_id)
    found = {}
    for character, entry in calls.items():
        called = dict(entry.receipt or {})
        if called.get("until") == "scene" and (scene is None or scene.number != called.get("scene")):
            continue
        found[character] = {**called, "called": entry.seq}
    return found


def for_roll(session: Session, chronicle_id: int, system: str, character_id: int) -> dict | None:
    """What ``play.perform`` takes of the compulsion in force (V5 only): its id and the call's seq."""
    if not reads_compulsion(system):
        return None
    found = in_force(session, chronicle_id, character_id)
    return None if found is None else {"compulsion": found["compulsion"], "called": found["called"]}


def current(session: Session, member: Caller, character_id: int) -> dict:
    """The compulsion in force for a character, as every member of the table sees it (the calls are
    public entries), or None."""
    character = find_character(session, member, character_id)
    return {"character": character.id, "compulsion": in_force(session, member.chronicle_id, character.id)}


def call(
    session: Session,
    storyteller: Caller,
    character_id: int,
    *,
    compulsion: str | None = None,
    until: str | None = None,
    roll: int | None = None,
) -> dict:
    """The Storyteller calls a compulsion for a V5 character: ``compulsion`` (default: the clan's),
    ``until`` ("scene": the open scene's end, the default when a scene is open; else "ended"),
    ``roll``: the messy critical or bestial failure of that character it follows (optional; the
    entry refers to it)."""
    require_storyteller(storyteller, "compulsion")
    chronicle = lock_chronicle(session, storyteller.chronicle_id)
    rules = compulsion_rules(chronicle.system) if reads_compulsion(chronicle.system) else None
    if rules is None:
        raise ProblemError(422, "compulsion_not_for_system", system=chronicle.system)
    _, character = lock_character(session, storyteller, character_id)
    try:
        chosen = rules.choose(
            str(character.sheet.get("clan") or ""),
            str(character.sheet.get("creature") or "vampire"),
            compulsion,
        )
        scene = open_scene_of(session, chronicle.id)
        until = rules.check_until(until or ("scene" if scene is not None else "ended"))
    except RuleError as refused:
        raise from_rule_error(refused) from None
    if until == "scene" and scene is None:
        raise ProblemError(409, "no_open_scene")
    if roll is not None:
        _beast_result(session, storyteller, character.id, roll)
    found = in_force(session, chronicle.id, character.id)
    if found is not None:
        raise ProblemError(409, "compulsion_in_force", seq=found["called"], compulsion=found["compulsion"])
    shape = rules.COMPULSIONS[chosen]
    receipt = CompulsionReceipt(
        character=character.id,
        compulsion=chosen,
        until=until,
        scene=scene.number if until == "scene" and scene is not None else None,  # none: refused above
        roll=roll,
        dice=shape.dice,
        attributes=list(shape.attributes),
        unless_serving=shape.unless_serving,
    )
    entry = append_entry(
        session,
        chronicle,
        kind=CALL,
        actor=actor_of(storyteller, character),
        visibility="public",
        receipt=receipt,
        character_id=character.id,
        refers_to=roll,
    )
    return {"compulsion": {**receipt.dump(), "called": entry.seq}, "entry": entry_view(entry, storyteller)}


def end(session: Session, storyteller: Caller, character_id: int) -> dict:
    """The Storyteller ends the compulsion in force for a character (409 ``no_compulsion`` when none)."""
    require_storyteller(storyteller, "compulsion")
    chronicle, character = lock_character(session, storyteller, character_id)
    found = in_force(session, chronicle.id, character.id)
    if found is None:
        raise ProblemError(409, "no_compulsion", character=character.id)
    entry = append_entry(
        session,
        chronicle,
        kind=END,
        actor=actor_of(storyteller, character),
        visibility="public",
        receipt=CompulsionEndReceipt(
            character=character.id, compulsion=found["compulsion"], called=found["called"]
        ),
        character_id=character.id,
        refers_to=found["called"],
    )
    return {"ended": found, "entry": entry_view(entry, storyteller)}


def end_on_feeding(session: Session, storyteller: Caller, chronicle, character, effects: list) -> dict | None:
    """Book (V5 core p. 208): the Hunger compulsion ends when the vampire slakes at least one Hunger;
    called by the feeding change (``usecases.characters.adjust``) in its transaction: the
    ``compulsion_end`` entry says why (``"reason": "slaked"``), or None when nothing ended."""
    slaked = any(
        isinstance(e, dict)
        and e.get("resource") == "hunger"
        and isinstance(e.get("before"), int)
        and isinstance(e.get("after"), int)
        and e["after"] < e["before"]
        for e in effects
    )
    found = in_force(session, chronicle.id, character.id) if slaked else None
    if found is None or found.get("compulsion") != "hunger":
        return None
    entry = append_entry(
        session,
        chronicle,
        kind=END,
        actor=actor_of(storyteller, character),
        visibility="public",
        receipt=CompulsionEndReceipt(
            character=character.id, compulsion="hunger", called=found["called"], reason="slaked"
        ),
        character_id=character.id,
        refers_to=found["called"],
    )
    return entry_view(entry, storyteller)


def _beast_result(session: Session, member: Caller, character_id: int, seq: int) -> None:
    """The roll a compulsion follows: a messy critical or a bestial failure of this character."""
    entry = find_entry(session, member, seq)
    result = RollReceipt.of(entry.receipt).result if entry.kind in ("roll", "reroll") else None
    if (
        entry.kind not in ("roll", "reroll")
        or entry.character_id != character_id
        or not isinstance(result, dict)
        or result.get("outcome") not in BEAST_OUTCOMES
    ):
        raise ProblemError(409, "not_a_beast_result", seq=seq)
