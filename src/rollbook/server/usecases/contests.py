"""Contested and extended rolls at the table (SPEC TR-3, TR-4), V20 and V5.

- A contest: the Storyteller declares it (``declare_contest``: who against whom, which roll each
  makes) — a ``contest`` entry of the log. Each side then rolls its own part (``roll_contest_side``:
  whoever may act for that side's character, the action exactly as declared): a ``roll`` entry that
  refers to the declaration (its receipt's ``contest`` says which side). When both sides have
  rolled, a ``contest_result`` entry in the same transaction names both rolls, the winner and the
  margin (``rules.contests.contest``; a tie is the defender's).
- An extended action: the Storyteller declares it (``declare_extended``: the character, the roll,
  the target number of successes, optionally the most rolls) — an ``extended`` entry; each roll
  (``roll_extended``) is a ``roll`` entry that refers to it (its receipt's ``extended`` says which
  roll it is). The running total, the rolls left and the status are read off those rolls
  (``rules.contests.extended``): a V20 botch ends it and loses everything, a V5 bestial failure
  ends it, a V5 messy critical is a complication.

Their entries' receipts name the game as ``"game"`` (not ``"system"``: they are not rules receipts
to recompute). The declared actions are the Storyteller's (A-1): the rolls are made under the Storyteller's
authority, as declared, under the chronicle's table rules (TR-1).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from rollbook import play
from rollbook.dice import DiceSource
from rollbook.entries import ContestReceipt, ContestResultReceipt, ExtendedReceipt, RollReceipt
from rollbook.play.common import dump, parse_kind
from rollbook.rules import contests
from rollbook.rules.base import RuleError
from rollbook.server.access import (
    STORYTELLER,
    find_character,
    find_entry,
    lock_character,
    lock_chronicle,
    may_act_for,
    require_storyteller,
)
from rollbook.server.models import Caller, Character, Chronicle, LogEntry, LoggedEntry
from rollbook.server.problems import ProblemError
from rollbook.server.store import actor_of, append_entry
from rollbook.server.usecases.checks import CONTEST_KINDS, reject_faces
from rollbook.server.usecases.rolls import perform_roll
from rollbook.server.views import entry_view

CONTEST = "contest"
CONTEST_RESULT = "contest_result"
EXTENDED = "extended"
KINDS = (CONTEST, CONTEST_RESULT, EXTENDED)
SIDES = ("attacker", "defender")


def _system(chronicle: Chronicle) -> str:
    try:
        contests.check_system(chronicle.system)
    except RuleError as refused:
        raise ProblemError(422, refused.code, **refused.params) from None
    return chronicle.system


def _declared_action(
    session: Session, member: Caller, chronicle: Chronicle, character_id: object, action: object
) -> tuple[Character, dict]:
    """A character of the chronicle and a roll it can make (every refusal of the roll made now)."""
    if isinstance(character_id, bool) or not isinstance(character_id, int):
        raise ProblemError(422, "not_an_integer", field="character", value=str(character_id))
    character = find_character(session, member, character_id)
    reject_faces(action)
    if not isinstance(action, dict):
        raise ProblemError(422, "not_an_object", field="action")
    kinds = CONTEST_KINDS[chronicle.system]
    if action.get("kind") not in kinds:
        raise ProblemError(
            422, "bad_choice", field="action.kind", value=str(action.get("kind")), choices=list(kinds)
        )
    play.preview(
        chronicle.system,
        copy.deepcopy(character.sheet),
        action,
        mode=chronicle.mode,
        role=STORYTELLER,
        table_rules=chronicle.table_rules or (),
    )
    # the action as the roll's receipt will hold it (validated, defaults filled): what verify compares
    return character, dump(
        parse_kind(play.system_module(chronicle.system).ACTIONS, copy.deepcopy(action), "action")
    )


# --- TR-3: contests ---------------------------------------------------------------------------------


def declare_contest(
    session: Session,
    member: Caller,
    *,
    attacker: dict | Callable[[Chronicle], dict],
    defender: dict | Callable[[Chronicle], dict],
) -> dict:
    """TR-3: the Storyteller declares a contest: ``{"character": id, "action": {...}}`` for each side
    (or a page's form of it, read against the chronicle locked here)."""
    require_storyteller(member, "contest")
    chronicle = lock_chronicle(session, member.chronicle_id)
    attacker = attacker(chronicle) if callable(attacker) else attacker
    defender = defender(chronicle) if callable(defender) else defender
    system = _system(chronicle)
    sides = {}
    for name, part in (("attacker", attacker), ("defender", defender)):
        if not isinstance(part, dict):
            raise ProblemError(422, "not_an_object", field=name)
        action = part.get("action")
        if isinstance(action, dict):
            try:
                contests.check_contest_side(
                    system, action.get("kind"), action.get("difficulty") is not None, f"{name}.action"
                )
            except RuleError as refused:
                raise ProblemError(422, refused.code, **refused.params) from None
        character, action = _declared_action(
            session, member, chronicle, part.get("character"), part.get("action")
        )
        sides[name] = {"character": character.id, "name": character.name, "action": action}
    if sides["attacker"]["character"] == sides["defender"]["character"]:
        raise ProblemError(422, "contest_same_character", character=sides["attacker"]["character"])
    entry = append_entry(
        session,
        chronicle,
        kind=CONTEST,
        actor=actor_of(member),
        visibility="public",
        receipt=ContestReceipt.of({"game": system, **sides}),
    )  # no "system": not a rules receipt
    return {"contest": _contest_view(session, entry), "entry": entry_view(entry, member)}


def _parts(session: Session, chronicle_id: int, seq: int) -> list[LogEntry]:
    return list(
        session.scalars(
            select(LogEntry)
            .where(
                LogEntry.chronicle_id == chronicle_id,
                LogEntry.refers_to == seq,
                LogEntry.kind.in_(("roll", CONTEST_RESULT)),
            )
            .order_by(LogEntry.seq)
        )
    )


def _declaration(session: Session, member: Caller, seq: int, kind: str) -> LogEntry:
    entry = find_entry(session, member, seq)
    if entry.kind != kind:
        raise ProblemError(404, f"{kind}_not_found", seq=seq)
    return entry


def _contest_view(session: Session, declaration: LoggedEntry) -> dict:
    """A contest as it stands: each side's declared roll, its roll's seq and result, and the result."""
    receipt = ContestReceipt.of(declaration.receipt)
    sides = {"attacker": receipt.attacker, "defender": receipt.defender}
    view: dict[str, Any] = {
        "seq": declaration.seq,
        "system": receipt.game,
        "result": None,
        "sides": {name: {**sides[name].dump(), "seq": None, "outcome": None} for name in SIDES},
    }
    for part in _parts(session, declaration.chronicle_id, declaration.seq):
        if part.kind == CONTEST_RESULT:
            view["result"] = {**ContestResultReceipt.of(part.receipt).dump(), "seq": part.seq}
            continue
        rolled = RollReceipt.of(part.receipt)
        side = (rolled.contest or {}).get("side")
        if side in SIDES:
            view["sides"][side].update(seq=part.seq, outcome=contests.side(receipt.game, rolled.result))
    return view


def get_contest(session: Session, member: Caller, seq: int) -> dict:
    return _contest_view(session, _declaration(session, member, seq, CONTEST))


def roll_contest_side(
    session: Session, member: Caller, seq: int, side: str, *, source: DiceSource | None = None
) -> dict:
    """TR-3: one side rolls its part, as declared, by whoever may act for its character; the second
    side's roll brings the ``contest_result`` entry (both rolls, the winner, the margin)."""
    if side not in SIDES:
        raise ProblemError(422, "bad_choice", field="side", value=str(side), choices=list(SIDES))
    chronicle = lock_chronicle(session, member.chronicle_id)
    declaration = _declaration(session, member, seq, CONTEST)
    before = _contest_view(session, declaration)
    if before["sides"][side]["seq"] is not None:
        raise ProblemError(409, "contest_side_rolled", side=side, seq=before["sides"][side]["seq"])
    declared = ContestReceipt.of(declaration.receipt)
    part = declared.attacker if side == "attacker" else declared.defender
    _, character = lock_character(session, member, part.character)
    may_act_for(member, character)
    rolled = perform_roll(
        session,
        chronicle,
        character,
        member,
        copy.deepcopy(part.action),
        hidden=False,
        role=STORYTELLER,
        stamp={},
        source=source,
        part_of=(seq, "contest", {"of": seq, "side": side}),
    )
    other = "defender" if side == "attacker" else "attacker"
    answer = {**rolled, "contest": None}
    if before["sides"][other]["seq"] is not None:
        first = session.scalars(
            select(LogEntry).where(
                LogEntry.chronicle_id == chronicle.id, LogEntry.seq == before["sides"][other]["seq"]
            )
        ).one()
        results = {
            side: RollReceipt.of(rolled["entry"]["receipt"]).result,
            other: RollReceipt.of(first.receipt).result,
        }
        outcome = contests.contest(chronicle.system, results["attacker"], results["defender"])
        seqs = {side: rolled["entry"]["seq"], other: first.seq}
        receipt = ContestResultReceipt.of(
            {
                "contest": seq,
                "game": chronicle.system,
                "winner": outcome["winner"],
                "margin": outcome["margin"],
                "tie": outcome["tie"],
                **{
                    name: {
                        "character": (
                            declared.attacker if name == "attacker" else declared.defender
                        ).character,
                        "roll": seqs[name],
                        **outcome[name],
                    }
                    for name in SIDES
                },
            }
        )
        append_entry(
            session,
            chronicle,
            kind=CONTEST_RESULT,
            actor=actor_of(member),
            visibility="public",
            receipt=receipt,
            refers_to=seq,
        )
    answer["contest"] = _contest_view(session, declaration)
    return answer


# --- TR-4: extended actions ------------------------------------------------------------------------


def declare_extended(
    session: Session,
    member: Caller,
    *,
    character_id: int,
    action: dict | Callable[[Chronicle], dict],
    target: int,
    max_rolls: int | None = None,
) -> dict:
    """TR-4: the Storyteller declares an extended action: the roll (or a page's form, read against
    the chronicle locked here), the successes to gather, the most rolls (optional)."""
    require_storyteller(member, "extended")
    chronicle = lock_chronicle(session, member.chronicle_id)
    if callable(action):
        action = action(chronicle)
    system = _system(chronicle)
    try:
        contests.check_extended(target, max_rolls)
    except RuleError as refused:
        raise ProblemError(422, refused.code, **refused.params) from None
    character, action = _declared_action(session, member, chronicle, character_id, action)
    entry = append_entry(
        session,
        chronicle,
        kind=EXTENDED,
        actor=actor_of(member),
        visibility="public",
        receipt=ExtendedReceipt(
            game=system,
            character=character.id,
            name=character.name,
            action=action,
            target=target,
            max_rolls=max_rolls,
        ),
        character_id=character.id,
    )
    return {"extended": _extended_view(session, entry), "entry": entry_view(entry, member)}


def _extended_view(session: Session, declaration: LoggedEntry) -> dict:
    """An extended action as it stands: its rolls, the running total, the rolls left, the status."""
    receipt = ExtendedReceipt.of(declaration.receipt)
    rolls = [
        part for part in _parts(session, declaration.chronicle_id, declaration.seq) if part.kind == "roll"
    ]
    state = contests.extended(
        receipt.game,
        receipt.target,
        receipt.max_rolls,
        [RollReceipt.of(part.receipt).result for part in rolls],
    )
    return {
        "seq": declaration.seq,
        "system": receipt.game,
        "character": receipt.character,
        "name": receipt.name,
        "action": receipt.action,
        **state.plain(),
        "roll_seqs": [part.seq for part in rolls],
    }


def get_extended(session: Session, member: Caller, seq: int) -> dict:
    return _extended_view(session, _declaration(session, member, seq, EXTENDED))


def roll_extended(session: Session, member: Caller, seq: int, *, source: DiceSource | None = None) -> dict:
    """TR-4: the next roll of an extended action (refused once it is over)."""
    chronicle = lock_chronicle(session, member.chronicle_id)
    declaration = _declaration(session, member, seq, EXTENDED)
    before = _extended_view(session, declaration)
    if before["status"] != "going":
        raise ProblemError(409, "extended_over", state=before["status"])
    declared = ExtendedReceipt.of(declaration.receipt)
    _, character = lock_character(session, member, declared.character)
    may_act_for(member, character)
    state = contests.Extended(
        before["target"],
        before["max_rolls"],
        before["total"],
        before["rolls"],
        before["status"],
        before["complications"],
        before["lost"],
    )

    def note(receipt: dict) -> dict:  # the running total and rolls left after this roll, in its receipt
        return {
            "of": seq,
            "roll": before["rolls"] + 1,
            **contests.extended_step(chronicle.system, state, RollReceipt.of(receipt).result).plain(),
        }

    rolled = perform_roll(
        session,
        chronicle,
        character,
        member,
        copy.deepcopy(declared.action),
        hidden=False,
        role=STORYTELLER,
        stamp={},
        source=source,
        part_of=(seq, "extended", note),
    )
    return {**rolled, "extended": _extended_view(session, declaration)}


__all__ = [
    "CONTEST",
    "CONTEST_RESULT",
    "EXTENDED",
    "KINDS",
    "declare_contest",
    "declare_extended",
    "get_contest",
    "get_extended",
    "roll_contest_side",
    "roll_extended",
]
