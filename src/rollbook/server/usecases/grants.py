"""The Storyteller's decisions on asks (SPEC A-1, A-2): grant as asked, grant changed, refuse; the
player may withdraw an ask while it waits.

A grant and its roll are one transaction: the ``grant`` entry, then the roll, made by the server
with the action the grant composed (``play.authority.compose``), its receipt naming the grant
(``receipt["authority"]``). One decision per ask: the decision's row is ``UNIQUE (ask_id)``, so
a second grant of the same ask, even a concurrent one, is refused (409 ``ask_decided``) and makes
no second roll.

An ask does not outlive its asker: removing a member, or giving a character to
someone else, withdraws that member's pending asks (``withdraw_pending``: one ``withdrawal`` entry each,
made by the Storyteller, its ``cause`` named), and a grant of an ask whose asker is gone or no longer
holds the character is refused (409 ``asker_gone``).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.orm import Session

from rollbook.dice import DiceSource
from rollbook.entries import RECEIPTS, AskReceipt
from rollbook.play import authority
from rollbook.server.access import (
    STORYTELLER,
    find_entry,
    lock_character,
    lock_chronicle,
    require_storyteller,
)
from rollbook.server.models import Ask, Caller, Character, Chronicle, Grant, Member
from rollbook.server.problems import ProblemError
from rollbook.server.store import AppendedEntry, actor_of, append_entry
from rollbook.server.tx import now
from rollbook.server.usecases.authority import ask_view, baseline_for, cards_stamp, find_ask
from rollbook.server.usecases.log import reveal_entry
from rollbook.server.usecases.rolls import perform_roll
from rollbook.server.views import entry_view

REASON_MAX = 500


def _pending(session: Session, member: Caller, ask_id: int) -> tuple[Chronicle, Ask]:
    chronicle = lock_chronicle(session, member.chronicle_id)
    ask, decided = find_ask(session, member, ask_id)
    if decided is not None:
        raise ProblemError(409, "ask_decided", ask=ask.id, decision=decided.decision, seq=decided.seq)
    return chronicle, ask


def _hidden_ask(session: Session, member: Caller, ask: Ask) -> bool:
    return find_entry(session, member, ask.seq).visibility == "hidden"


def _decide(
    session: Session,
    chronicle: Chronicle,
    ask: Ask,
    member: Caller,
    decision: str,
    edges: dict,
    receipt: dict,
    kind: str,
    character: Character | None = None,
    *,
    hidden: bool = False,
) -> tuple[Grant, AppendedEntry]:
    """The decision's row and entry; ``hidden`` (a hidden ask, or a grant of a hidden roll: F-7) makes
    the entry hidden too, so its public part says only that an ask was decided."""
    grant = Grant(
        chronicle_id=chronicle.id,
        ask_id=ask.id,
        member_id=member.id,
        decision=decision,
        edges=edges,
        seq=0,
        roll_seq=None,
        created_at=now(),
    )
    session.add(grant)
    session.flush()  # UNIQUE (ask_id): a concurrent decision fails here and its transaction is retried
    entry = append_entry(
        session,
        chronicle,
        kind=kind,
        actor=actor_of(member, character),
        visibility="hidden" if hidden else "public",
        receipt=RECEIPTS[kind].model_validate(
            {
                "ask": ask.id,
                "ask_seq": ask.seq,
                "character": ask.character_id,
                "decision": decision,
                **receipt,
            }
        ),
        character_id=ask.character_id,
        refers_to=ask.seq,
    )
    grant.seq = entry.seq
    session.flush()
    return grant, entry


def grant(
    session: Session,
    member: Caller,
    ask_id: int,
    *,
    edges: dict | Callable[[Chronicle, Ask], dict] | None = None,
    source: DiceSource | None = None,
) -> dict:
    """The Storyteller grants an ask, as asked (``edges`` None) or changed (``edges``: exactly the
    edges granted, e.g. fewer dice or another difficulty; or a page's form, resolved against the
    chronicle and the ask read here); the server makes the roll in this transaction, for the player
    who asked, and its receipt names the grant (A-2)."""
    require_storyteller(member, "grant")
    chronicle, ask = _pending(session, member, ask_id)
    if callable(edges):
        edges = edges(chronicle, ask)
    _, character = lock_character(session, member, ask.character_id)
    asker = session.get(Member, ask.member_id)
    if asker is None or asker.removed_at is not None or character.owner_id != ask.member_id:
        raise ProblemError(409, "asker_gone", ask=ask.id)
    granted = dict(ask.asked) if edges is None else authority.check_edges(chronicle.system, ask.kind, edges)
    decision = "as_asked" if granted == ask.asked else "changed"
    base, standing = baseline_for(session, chronicle, character, ask.kind)
    action, hidden = authority.compose(chronicle.system, ask.player, base, granted)
    grant_row, grant_entry = _decide(
        session,
        chronicle,
        ask,
        member,
        decision,
        granted,
        {"asked": ask.asked, "granted": granted, "baseline": base, "action": action, "hidden": hidden},
        "grant",
        character,
        hidden=hidden,
    )
    if not hidden and _hidden_ask(
        session, member, ask
    ):  # a hidden ask granted as a visible roll: shown with it
        reveal_entry(session, chronicle, member, find_entry(session, member, ask.seq))
    asked = AskReceipt.of(find_entry(session, member, ask.seq).receipt)  # a step of the combat chain
    rolled = perform_roll(
        session,
        chronicle,
        character,
        asker,
        action,
        hidden=hidden,
        role=STORYTELLER,
        stamp={
            "grant": grant_entry.seq,
            "ask": ask.seq,
            "standing": standing,
            **cards_stamp(chronicle.system, character.sheet, action),
        },
        source=source,
        viewer=member,
        follows=asked.follows,
        target=asked.target,
    )
    grant_row.roll_seq = rolled["entry"]["seq"]
    session.flush()
    return {"ask": ask_view(ask, grant_row, character), "grant": entry_view(grant_entry, member), **rolled}


def refuse(session: Session, member: Caller, ask_id: int, *, reason: str = "") -> dict:
    """The Storyteller refuses an ask: nothing is rolled (a log entry, A-2)."""
    require_storyteller(member, "refuse")
    if not isinstance(reason, str) or len(reason) > REASON_MAX:
        raise ProblemError(422, "too_long", field="reason", most=REASON_MAX)
    chronicle, ask = _pending(session, member, ask_id)
    character = session.get(Character, ask.character_id)
    grant_row, entry = _decide(
        session,
        chronicle,
        ask,
        member,
        "refused",
        {},
        {"asked": ask.asked, "reason": reason},
        "refusal",
        character,
        hidden=_hidden_ask(session, member, ask),
    )
    return {"ask": ask_view(ask, grant_row, character), "entry": entry_view(entry, member)}


def withdraw(session: Session, member: Caller, ask_id: int) -> dict:
    """The player who asked takes the ask back while it waits (a log entry)."""
    chronicle, ask = _pending(session, member, ask_id)
    if ask.member_id != member.id:
        raise ProblemError(403, "not_your_ask", ask=ask.id)
    character = session.get(Character, ask.character_id)
    grant_row, entry = _decide(
        session,
        chronicle,
        ask,
        member,
        "withdrawn",
        {},
        {"asked": ask.asked},
        "withdrawal",
        character,
        hidden=_hidden_ask(session, member, ask),
    )
    return {"ask": ask_view(ask, grant_row, character), "entry": entry_view(entry, member)}


WITHDRAWAL_CAUSES = ("member_removed", "owner_changed")


def withdraw_pending(
    session: Session,
    chronicle: Chronicle,
    storyteller: Caller,
    member_id: int,
    cause: str,
    *,
    character_id: int | None = None,
) -> list[int]:
    """Withdraw every pending ask of ``member_id`` (on ``character_id`` only, when given): the member
    was removed, or the character changed hands (``cause``, one of ``WITHDRAWAL_CAUSES``). Each is a
    ``withdrawal`` entry by the Storyteller who made the change. The caller holds the chronicle's lock.
    Answers the withdrawn asks' ids."""
    query = (
        select(Ask)
        .outerjoin(Grant, Grant.ask_id == Ask.id)
        .where(Ask.chronicle_id == chronicle.id, Ask.member_id == member_id, Grant.id.is_(None))
    )
    if character_id is not None:
        query = query.where(Ask.character_id == character_id)
    withdrawn = []
    for ask in session.scalars(query.order_by(Ask.id)).all():
        character = session.get(Character, ask.character_id)
        _decide(
            session,
            chronicle,
            ask,
            storyteller,
            "withdrawn",
            {},
            {"asked": ask.asked, "cause": cause},
            "withdrawal",
            character,
        )
        withdrawn.append(ask.id)
    return withdrawn
