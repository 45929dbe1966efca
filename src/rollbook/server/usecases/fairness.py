"""Provably fair dice on the server (SPEC F-1 … F-8), in the caller's transaction (which holds the
chronicle's lock: ``access.lock_chronicle``):

- Two streams (F-7): visible rolls draw from the ``public`` stream, hidden rolls and their follow-ups
  from the ``hidden`` one; each has its own seed, ``seed_commit`` entry (naming its ``"stream"``) and
  nonce count, so revealing the public seed tells nothing of a hidden roll's faces.
- ``seed_in_use``: a stream's server seed; the first roll of a stream creates one and appends its
  ``seed_commit`` entry before the roll's (F-1). The seed is sealed under the operator's secret
  (``server.seal``) and never served while in use.
- ``fair_dice``: the ``FairDice`` of one roll or follow-up: the stream's seed in use, the chronicle,
  the client seed of the member rolling and the next nonce (F-3, F-4); the caller stores its
  ``record()`` (stream included) in the receipt (F-6). ``dice_for``: that, or a test's chosen source
  (``create_app(dice=...)``).
- ``set_client_seed``: a member's client seed (F-2), a ``client_seed`` entry.
- ``rotate`` / ``rotate_seed``: reveal the public seed in use (``seed_reveal``, with ``"rolls"`` and
  ``"last_nonce"``: F-8) and commit the next one (``seed_commit``) in one transaction (F-5); the
  Storyteller's, and the server's when a scene closes. The hidden seed is revealed with it only when
  every hidden roll under it has been revealed, or when the Storyteller reveals them all together
  (``rotate(..., reveal_hidden=True)``: the hidden rolls become visible in that transaction).
- ``fair_state``, ``revealed_seeds``: what members may know (commitments, revealed seeds, their own
  client seed).

The log entries are exactly those ``rollbook.fair`` documents and ``rollbook.fair.check_log`` reads.
"""

from __future__ import annotations

from typing import Literal, overload

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from rollbook import dice
from rollbook.dice import FAIR_ALGORITHM, DiceSource, FairDice, SecureDice, commitment_of
from rollbook.entries import (
    ClientSeedReceipt,
    QuickRollReceipt,
    RollReceipt,
    SeedAbandonReceipt,
    SeedCommitReceipt,
    SeedRevealReceipt,
    receipt_of,
)
from rollbook.fair import (
    CLIENT_SEED,
    HIDDEN,
    PUBLIC,
    SEED_ABANDON,
    SEED_COMMIT,
    SEED_REVEAL,
    check_client_seed,
)
from rollbook.rules.base import RuleError
from rollbook.server import seal
from rollbook.server.access import STORYTELLER, lock_chronicle, require_storyteller
from rollbook.server.models import Caller, Chronicle, ClientSeed, FairSeed, LogEntry
from rollbook.server.problems import ProblemError
from rollbook.server.store import actor_of, append_entry
from rollbook.server.tx import now
from rollbook.server.usecases.log import ROLL_ENTRY_KINDS, reveal_entry
from rollbook.server.views import entry_view, revealed_by

SERVER_ACTOR = {"member": None, "name": "", "role": "server", "character": None}


class StreamDice(FairDice):
    """``FairDice`` whose record names its stream (F-7): ``{"algorithm", "commitment", "client_seed",
    "nonce", "stream"}``."""

    def __init__(self, seed: bytes, chronicle: int, client_seed: str, nonce: int, stream: str) -> None:
        super().__init__(seed, chronicle, client_seed, nonce)
        self.stream = stream

    def record(self) -> dict:
        return {**super().record(), "stream": self.stream}


def stream_of(hidden: bool) -> str:
    """F-7: a hidden roll (or a follow-up of one) draws from the hidden stream, any other from the public."""
    return HIDDEN if hidden else PUBLIC


def _in_use(session: Session, chronicle_id: int, stream: str = PUBLIC) -> FairSeed | None:
    return session.scalars(
        select(FairSeed)
        .where(
            FairSeed.chronicle_id == chronicle_id, FairSeed.stream == stream, FairSeed.revealed_seq.is_(None)
        )
        .with_for_update()
    ).first()


def commit_seed(session: Session, chronicle: Chronicle, actor: dict, stream: str = PUBLIC) -> FairSeed:
    """F-1: a new server seed of ``stream`` (F-7), sealed, its commitment appended to the log (before
    any roll uses it)."""
    seed = dice.new_seed()
    commitment = commitment_of(seed)
    entry = append_entry(
        session,
        chronicle,
        kind=SEED_COMMIT,
        actor=actor,
        visibility="public",
        receipt=SeedCommitReceipt(algorithm=FAIR_ALGORITHM, commitment=commitment, stream=stream),
    )
    row = FairSeed(
        chronicle_id=chronicle.id,
        commitment=commitment,
        stream=stream,
        sealed=seal.seal(seed, chronicle.id, commitment),
        nonce=0,
        committed_seq=entry.seq,
        revealed_seq=None,
        created_at=now(),
    )
    session.add(row)
    session.flush()
    return row


def seed_in_use(
    session: Session, chronicle: Chronicle, actor: dict | None = None, stream: str = PUBLIC
) -> FairSeed:
    """The chronicle's seed in use in ``stream``; committed now (by ``actor``, default the server) if
    it has none."""
    return _in_use(session, chronicle.id, stream) or commit_seed(
        session, chronicle, actor or SERVER_ACTOR, stream
    )


_CLIENT_SEED = select(ClientSeed.client_seed).where(ClientSeed.member_id == bindparam("member"))


def client_seed_of(session: Session, member_id: int) -> str:
    """F-2: the member's client seed as last set, ``""`` until then (one prebuilt Core statement)."""
    seed = session.execute(_CLIENT_SEED, {"member": member_id}).scalar()
    return seed if seed is not None else ""


_SEEDS = FairSeed.__table__
_CLIENT_SEEDS = ClientSeed.__table__
# The next nonce under the seed in use and the member's client seed, in one statement (the seed row
# locked by the UPDATE itself).
_NEXT_NONCE = (
    _SEEDS.update()
    .where(
        _SEEDS.c.chronicle_id == bindparam("chronicle"),
        _SEEDS.c.stream == bindparam("seed_stream"),
        _SEEDS.c.revealed_seq.is_(None),
    )
    .values(nonce=_SEEDS.c.nonce + 1)
    .returning(
        _SEEDS.c.nonce,
        _SEEDS.c.sealed,
        _SEEDS.c.commitment,
        select(_CLIENT_SEEDS.c.client_seed)
        .where(_CLIENT_SEEDS.c.member_id == bindparam("member"))
        .scalar_subquery()
        .label("client_seed"),
    )
)


def fair_dice(session: Session, chronicle: Chronicle, member: Caller, stream: str = PUBLIC) -> StreamDice:
    """F-3, F-4: the dice of one roll or follow-up by ``member``: the next nonce under the seed in use
    in ``stream`` (F-7)."""
    client_seed = None
    if any(isinstance(held, (FairSeed, ClientSeed)) for held in session.identity_map.values()):
        # a seed row the ORM holds (committed or rotated in this transaction) must see the new nonce,
        # a client seed it holds is read through it
        row = seed_in_use(session, chronicle, actor_of(member), stream)
        row.nonce += 1
        session.flush()
        nonce, sealed, commitment = row.nonce, row.sealed, row.commitment
    else:
        next_ = session.execute(
            _NEXT_NONCE, {"chronicle": chronicle.id, "member": member.id, "seed_stream": stream}
        ).first()
        if next_ is None:  # the stream's first roll: commit a seed (F-1), then take its first nonce
            row = commit_seed(session, chronicle, actor_of(member), stream)
            row.nonce += 1
            session.flush()
            nonce, sealed, commitment = row.nonce, row.sealed, row.commitment
        else:
            nonce, sealed, commitment, client_seed = next_
            client_seed = client_seed or ""
    if client_seed is None:
        client_seed = client_seed_of(session, member.id)
    seed = seal.unseal(sealed, chronicle.id, commitment)
    return StreamDice(seed, chronicle.id, client_seed, nonce, stream)


def dice_for(
    session: Session, chronicle: Chronicle, member: Caller, source: DiceSource | None, *, hidden: bool = False
) -> tuple[DiceSource, FairDice | None]:
    """The source of one roll: ``FairDice`` (returned twice: the caller stores its ``record()``) for
    the server's own dice (``None`` or ``SecureDice``), from the hidden stream for a hidden roll or a
    follow-up of one (F-7); a test's chosen source as given, with no fairness record
    (``create_app(dice=...)`` is a Python argument for tests only)."""
    if source is None or isinstance(source, SecureDice):
        fair = fair_dice(session, chronicle, member, stream_of(hidden))
        return fair, fair
    return source, None


def set_client_seed(session: Session, member: Caller, client_seed: str) -> dict:
    """F-2: the member's client seed for their later rolls (at most 64 characters), logged."""
    client_seed = check_client_seed(client_seed)
    if "\x00" in client_seed:  # text a database stores as it is (PostgreSQL refuses NUL)
        raise RuleError("client_seed_not_text")
    chronicle = lock_chronicle(session, member.chronicle_id)
    entry = append_entry(
        session,
        chronicle,
        kind=CLIENT_SEED,
        actor=actor_of(member),
        visibility="public",
        receipt=ClientSeedReceipt(member=member.id, client_seed=client_seed),
    )
    row = session.get(ClientSeed, member.id)
    if row is None:
        session.add(
            ClientSeed(
                member_id=member.id,
                chronicle_id=chronicle.id,
                client_seed=client_seed,
                seq=entry.seq,
                updated_at=now(),
            )
        )
    else:
        row.client_seed, row.seq, row.updated_at = client_seed, entry.seq, now()
    session.flush()
    return {"client_seed": client_seed, "entry": entry_view(entry, member)}


def _reveal(session: Session, chronicle: Chronicle, actor: dict, row: FairSeed) -> dict:
    """F-5, F-8: the ``seed_reveal`` entry of ``row``: the seed, its stream, how many rolls and
    follow-ups used it and the last nonce (a verifier reports a roll missing when an export holds fewer)."""
    seed = seal.unseal(row.sealed, chronicle.id, row.commitment)
    entry = append_entry(
        session,
        chronicle,
        kind=SEED_REVEAL,
        actor=actor,
        visibility="public",
        receipt=SeedRevealReceipt(
            algorithm=FAIR_ALGORITHM,
            commitment=row.commitment,
            seed=seed.hex(),
            stream=row.stream,
            rolls=row.nonce,
            last_nonce=row.nonce,
        ),
    )
    row.revealed_seq = entry.seq
    session.flush()
    return {
        "commitment": row.commitment,
        "seed": seed.hex(),
        "stream": row.stream,
        "rolls": row.nonce,
        "last_nonce": row.nonce,
        "committed_seq": row.committed_seq,
        "revealed_seq": entry.seq,
    }


def _hidden_rolls(session: Session, chronicle_id: int, row: FairSeed) -> list[LogEntry]:
    """The hidden entries whose dice (or whose follow-up's new dice) came from the hidden seed ``row``."""
    entries = session.scalars(
        select(LogEntry)
        .where(
            LogEntry.chronicle_id == chronicle_id,
            LogEntry.visibility == "hidden",
            LogEntry.seq > row.committed_seq,
            LogEntry.kind.in_(ROLL_ENTRY_KINDS),
        )
        .order_by(LogEntry.seq)
    ).all()
    return [entry for entry in entries if row.commitment in _commitments_of(entry.kind, entry.receipt)]


def _shown(under: list[LogEntry], revealed: dict[int, int]) -> set[int]:
    """The seqs of ``under`` that are revealed: by their own reveal, or by a reveal of a later
    follow-up of theirs (a reroll's receipt carries the first faces and every reroll: revealing the
    latest receipt shows them all, docs/server.md §7)."""
    follows = {e.seq: e.refers_to for e in under if e.kind == "reroll" and isinstance(e.refers_to, int)}
    shown = set(revealed)
    for seq in revealed:
        earlier = follows.get(seq)
        while earlier is not None and earlier not in shown:
            shown.add(earlier)
            earlier = follows.get(earlier)
    return shown


def _commitments_of(kind: str, stored: object) -> set[str]:
    """The seeds a roll entry's dice came from: its own draw's and each follow-up's (F-6 records)."""
    read = receipt_of(kind, stored) if isinstance(stored, dict) else None
    if not isinstance(read, RollReceipt | QuickRollReceipt):
        return set()
    rerolls = (read.rerolls if isinstance(read, RollReceipt) else None) or []
    records = [read.fair] + [r.get("fair") for r in rerolls if isinstance(r, dict)]
    return {
        commitment
        for record in records
        if isinstance(record, dict) and isinstance(commitment := record.get("commitment"), str)
    }


@overload
def rotate_seed(
    session: Session,
    chronicle: Chronicle,
    actor: dict,
    *,
    only_if_used: Literal[False] = False,
    reveal_hidden: bool = False,
    revealer: Caller | None = None,
) -> dict: ...
@overload
def rotate_seed(
    session: Session,
    chronicle: Chronicle,
    actor: dict,
    *,
    only_if_used: bool,
    reveal_hidden: bool = False,
    revealer: Caller | None = None,
) -> dict | None: ...
def rotate_seed(
    session: Session,
    chronicle: Chronicle,
    actor: dict,
    *,
    only_if_used: bool = False,
    reveal_hidden: bool = False,
    revealer: Caller | None = None,
) -> dict | None:
    """F-5: reveal the public seed in use and commit the next, in the caller's transaction. With
    ``only_if_used`` (a scene closing) nothing happens to a stream unless a roll used its seed.

    F-7: the hidden seed in use is revealed too when every hidden roll under it has been revealed;
    with ``reveal_hidden`` (the Storyteller's ``revealer``) its hidden rolls still hidden are revealed
    first, in this transaction, so the seed always goes with its rolls. The next hidden seed is
    committed by the next hidden roll (F-1: before any roll uses it)."""
    row = _in_use(session, chronicle.id, PUBLIC)
    hidden_row = _in_use(session, chronicle.id, HIDDEN)
    hidden_revealed = None
    if hidden_row is not None and hidden_row.nonce > 0:
        under = _hidden_rolls(session, chronicle.id, hidden_row)
        shown = _shown(under, revealed_by(session, chronicle.id, [entry.seq for entry in under]))
        waiting = [entry for entry in under if entry.seq not in shown]
        if waiting and reveal_hidden and revealer is not None:
            for entry in waiting:
                reveal_entry(session, chronicle, revealer, entry)
            waiting = []
        if not waiting:
            hidden_revealed = _reveal(session, chronicle, actor, hidden_row)
    if only_if_used and (row is None or row.nonce == 0):
        return (
            None
            if hidden_revealed is None
            else {
                "revealed": None,
                "hidden_revealed": hidden_revealed,
                "commitment": row.commitment if row else None,
                "committed_seq": row.committed_seq if row else None,
            }
        )
    revealed = _reveal(session, chronicle, actor, row) if row is not None else None
    new = commit_seed(session, chronicle, actor, PUBLIC)
    return {
        "revealed": revealed,
        "hidden_revealed": hidden_revealed,
        "commitment": new.commitment,
        "committed_seq": new.committed_seq,
    }


def rotate(session: Session, member: Caller, *, reveal_hidden: bool = False) -> dict:
    """The Storyteller's rotation (F-5): the public seed in use revealed, the next one committed; the
    hidden seed too when all its rolls are revealed, or (``reveal_hidden``) with all of them (F-7)."""
    require_storyteller(member, "rotate_seed")
    chronicle = lock_chronicle(session, member.chronicle_id)
    return rotate_seed(session, chronicle, actor_of(member), reveal_hidden=reveal_hidden, revealer=member)


def unreadable_streams(session: Session, chronicle_id: int) -> list[str]:
    """The streams whose seed in use the operator's secret does not open (F-1: it was sealed under
    another secret, or the key file went missing)."""
    rows = session.scalars(
        select(FairSeed).where(FairSeed.chronicle_id == chronicle_id, FairSeed.revealed_seq.is_(None))
    ).all()
    unreadable = []
    for row in rows:
        try:
            seal.unseal(row.sealed, chronicle_id, row.commitment)
        except seal.SecretKeyError:
            unreadable.append(row.stream)
    return sorted(unreadable)


def abandon(session: Session, member: Caller) -> dict:
    """The Storyteller gives up the chronicle's seeds in use that the operator's secret no longer
    opens: a public ``seed_abandon`` entry each (its commitment, stream and how many rolls drew from
    it, F-8; those rolls stay pending for good, as the entry says), then a new public seed committed
    under the secret the server holds now (F-1; a new hidden seed comes with the next hidden roll).
    A seed the secret opens is never abandoned (409 ``seed_readable``: rotate it, F-5)."""
    require_storyteller(member, "abandon_seed")
    chronicle = lock_chronicle(session, member.chronicle_id)
    gone = []
    for stream in (PUBLIC, HIDDEN):
        row = _in_use(session, chronicle.id, stream)
        if row is None:
            continue
        try:
            seal.unseal(row.sealed, chronicle.id, row.commitment)
            continue
        except seal.SecretKeyError:
            pass
        entry = append_entry(
            session,
            chronicle,
            kind=SEED_ABANDON,
            actor=actor_of(member),
            visibility="public",
            receipt=SeedAbandonReceipt(
                algorithm=FAIR_ALGORITHM,
                commitment=row.commitment,
                stream=row.stream,
                rolls=row.nonce,
                last_nonce=row.nonce,
                cause="unreadable",
            ),
        )
        row.revealed_seq = entry.seq  # no longer in use: never opened, never revealed
        session.flush()
        gone.append(
            {"commitment": row.commitment, "stream": row.stream, "rolls": row.nonce, "seq": entry.seq}
        )
    if not gone:
        raise ProblemError(409, "seed_readable")
    new = _in_use(session, chronicle.id, PUBLIC) or commit_seed(session, chronicle, actor_of(member), PUBLIC)
    return {"abandoned": gone, "commitment": new.commitment, "committed_seq": new.committed_seq}


def seed_reveals(session: Session, chronicle_id: int) -> list[tuple[int, SeedRevealReceipt]]:
    """The seeds revealed in the chronicle's log, oldest first: (the reveal's seq, its receipt), read
    from the public entries (F-5)."""
    rows = session.execute(
        select(LogEntry.seq, LogEntry.receipt)
        .where(LogEntry.chronicle_id == chronicle_id, LogEntry.kind == SEED_REVEAL)
        .order_by(LogEntry.seq)
    ).all()
    return [(seq, SeedRevealReceipt.of(receipt)) for seq, receipt in rows]


def seeds_of(reveals: list[tuple[int, SeedRevealReceipt]]) -> dict[str, bytes]:
    """``seed_reveals``' seeds by commitment."""
    return {reveal.commitment: bytes.fromhex(reveal.seed) for _seq, reveal in reveals}


def revealed_seeds(session: Session, chronicle_id: int) -> dict[str, bytes]:
    """The seeds revealed in the chronicle's log, by commitment (read from the public entries)."""
    return seeds_of(seed_reveals(session, chronicle_id))


def fair_state(
    session: Session, member: Caller, reveals: list[tuple[int, SeedRevealReceipt]] | None = None
) -> dict:
    """What a member may know: the algorithm, the public commitment in use (never its seed), the
    nonces it served, the hidden stream's commitment (F-7; how many hidden rolls it served only to the
    Storyteller), the member's own client seed and every revealed seed. ``reveals``: ``seed_reveals``',
    when the caller read them in this transaction (a page whose feed's cards show their fairness)."""
    row = session.scalars(
        select(FairSeed).where(
            FairSeed.chronicle_id == member.chronicle_id,
            FairSeed.stream == PUBLIC,
            FairSeed.revealed_seq.is_(None),
        )
    ).first()
    hidden = session.scalars(
        select(FairSeed).where(
            FairSeed.chronicle_id == member.chronicle_id,
            FairSeed.stream == HIDDEN,
            FairSeed.revealed_seq.is_(None),
        )
    ).first()
    revealed = seed_reveals(session, member.chronicle_id) if reveals is None else reveals
    return {
        "algorithm": FAIR_ALGORITHM,
        "chronicle": member.chronicle_id,
        "commitment": row.commitment if row is not None else None,
        "committed_seq": row.committed_seq if row is not None else None,
        "rolls": row.nonce if row is not None else 0,
        "client_seed": client_seed_of(session, member.id),
        # F-7: the hidden stream's commitment is public (its rolls' nonces are not: a player sees no count)
        "hidden_commitment": hidden.commitment if hidden is not None else None,
        "revealed": [
            {
                "commitment": reveal.commitment,
                "seed": reveal.seed,
                "seq": seq,
                "stream": reveal.stream if "stream" in reveal.model_fields_set else PUBLIC,
            }
            for seq, reveal in revealed
        ],
        "may_rotate": member.role == STORYTELLER,
        **(
            {
                "hidden_rolls": hidden.nonce if hidden is not None else 0,
                # F-1: seeds in use the secret no longer opens (the Storyteller may abandon them)
                "unreadable": unreadable_streams(session, member.chronicle_id),
            }
            if member.role == STORYTELLER
            else {}
        ),
    }
