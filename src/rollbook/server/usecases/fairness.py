"""Provably fair dice on the server (SPEC F-1 … F-6), in the caller's transaction (which holds the
chronicle's lock: ``access.lock_chronicle``):

- ``seed_in_use``: the chronicle's server seed; the first roll of a chronicle creates one and appends
  its ``seed_commit`` entry before the roll's (F-1). The seed is sealed under the operator's secret
  (``server.seal``) and never served while in use.
- ``fair_dice``: the ``FairDice`` of one roll or follow-up: the seed in use, the chronicle, the
  client seed of the member rolling and the next nonce (F-3, F-4); the caller stores its ``record()``
  in the receipt (F-6). ``dice_for``: that, or a test's chosen source (``create_app(dice=...)``).
- ``set_client_seed``: a member's client seed (F-2), a ``client_seed`` entry.
- ``rotate`` / ``rotate_seed``: reveal the seed in use (``seed_reveal``) and commit the next one
  (``seed_commit``) in one transaction (F-5); the Storyteller's, and the server's when a scene closes.
- ``fair_state``, ``revealed_seeds``: what members may know (commitments, revealed seeds, their own
  client seed).

The log entries are exactly those ``rollbook.fair`` documents and ``rollbook.fair.check_log`` reads.
"""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from rollbook import dice
from rollbook.dice import FAIR_ALGORITHM, DiceSource, FairDice, SecureDice, commitment_of
from rollbook.fair import CLIENT_SEED, SEED_COMMIT, SEED_REVEAL, check_client_seed
from rollbook.rules.base import RuleError
from rollbook.server import seal
from rollbook.server.access import STORYTELLER, lock_chronicle, require_storyteller
from rollbook.server.direct import Statement
from rollbook.server.models import Chronicle, ClientSeed, FairSeed, LogEntry, Member
from rollbook.server.store import actor_of, append_entry
from rollbook.server.tx import now
from rollbook.server.views import entry_view

SERVER_ACTOR = {"member": None, "name": "", "role": "server", "character": None}


def _in_use(session: Session, chronicle_id: int) -> FairSeed | None:
    return session.scalars(
        select(FairSeed).where(FairSeed.chronicle_id == chronicle_id, FairSeed.revealed_seq.is_(None))
        .with_for_update()
    ).first()


def commit_seed(session: Session, chronicle: Chronicle, actor: dict) -> FairSeed:
    """F-1: a new server seed, sealed, its commitment appended to the log (before any roll uses it)."""
    seed = dice.new_seed()
    commitment = commitment_of(seed)
    entry = append_entry(session, chronicle, kind=SEED_COMMIT, actor=actor, visibility="public",
                         receipt={"algorithm": FAIR_ALGORITHM, "commitment": commitment})
    row = FairSeed(chronicle_id=chronicle.id, commitment=commitment, sealed=seal.seal(seed, chronicle.id, commitment),
                   nonce=0, committed_seq=entry.seq, revealed_seq=None, created_at=now())
    session.add(row)
    session.flush()
    return row


def seed_in_use(session: Session, chronicle: Chronicle, actor: dict | None = None) -> FairSeed:
    """The chronicle's seed in use; committed now (by ``actor``, default the server) if it has none."""
    return _in_use(session, chronicle.id) or commit_seed(session, chronicle, actor or SERVER_ACTOR)


_CLIENT_SEED = select(ClientSeed.client_seed).where(ClientSeed.member_id == bindparam("member"))


def client_seed_of(session: Session, member_id: int) -> str:
    """F-2: the member's client seed as last set, ``""`` until then (one prebuilt Core statement)."""
    seed = session.execute(_CLIENT_SEED, {"member": member_id}).scalar()
    return seed if seed is not None else ""


_SEEDS = FairSeed.__table__
_CLIENT_SEEDS = ClientSeed.__table__
# The next nonce under the seed in use and the member's client seed, in one statement (the seed row
# locked by the UPDATE itself).
_NEXT_NONCE = Statement(_SEEDS.update()
                         .where(_SEEDS.c.chronicle_id == bindparam("chronicle"), _SEEDS.c.revealed_seq.is_(None))
                         .values(nonce=_SEEDS.c.nonce + 1)
                         .returning(_SEEDS.c.nonce, _SEEDS.c.sealed, _SEEDS.c.commitment,
                                    select(_CLIENT_SEEDS.c.client_seed)
                                    .where(_CLIENT_SEEDS.c.member_id == bindparam("member"))
                                    .scalar_subquery().label("client_seed")))


def fair_dice(session: Session, chronicle: Chronicle, member: Member) -> FairDice:
    """F-3, F-4: the dice of one roll or follow-up by ``member``: the next nonce under the seed in use."""
    client_seed = None
    if any(isinstance(held, (FairSeed, ClientSeed)) for held in session.identity_map.values()):
        # a seed row the ORM holds (committed or rotated in this transaction) must see the new nonce,
        # a client seed it holds is read through it
        row = seed_in_use(session, chronicle, actor_of(member))
        row.nonce += 1
        session.flush()
        nonce, sealed, commitment = row.nonce, row.sealed, row.commitment
    else:
        next_ = _NEXT_NONCE.first(session.connection(), {"chronicle": chronicle.id, "member": member.id})
        if next_ is None:  # the chronicle's first roll: commit a seed (F-1), then take its first nonce
            row = commit_seed(session, chronicle, actor_of(member))
            row.nonce += 1
            session.flush()
            nonce, sealed, commitment = row.nonce, row.sealed, row.commitment
        else:
            nonce, sealed, commitment, client_seed = next_
            client_seed = client_seed or ""
    if client_seed is None:
        client_seed = client_seed_of(session, member.id)
    seed = seal.unseal(sealed, chronicle.id, commitment)
    return FairDice(seed, chronicle.id, client_seed, nonce)


def dice_for(session: Session, chronicle: Chronicle, member: Member,
             source: DiceSource | None) -> tuple[DiceSource, FairDice | None]:
    """The source of one roll: ``FairDice`` (returned twice: the caller stores its ``record()``) for
    the server's own dice (``None`` or ``SecureDice``); a test's chosen source as given, with no
    fairness record (``create_app(dice=...)`` is a Python argument for tests only)."""
    if source is None or isinstance(source, SecureDice):
        fair = fair_dice(session, chronicle, member)
        return fair, fair
    return source, None


def set_client_seed(session: Session, member: Member, client_seed: str) -> dict:
    """F-2: the member's client seed for their later rolls (at most 64 characters), logged."""
    client_seed = check_client_seed(client_seed)
    if "\x00" in client_seed:  # text a database stores as it is (PostgreSQL refuses NUL)
        raise RuleError("client_seed_not_text")
    chronicle = lock_chronicle(session, member.chronicle_id)
    entry = append_entry(session, chronicle, kind=CLIENT_SEED, actor=actor_of(member), visibility="public",
                         receipt={"member": member.id, "client_seed": client_seed})
    row = session.get(ClientSeed, member.id)
    if row is None:
        session.add(ClientSeed(member_id=member.id, chronicle_id=chronicle.id, client_seed=client_seed,
                               seq=entry.seq, updated_at=now()))
    else:
        row.client_seed, row.seq, row.updated_at = client_seed, entry.seq, now()
    session.flush()
    return {"client_seed": client_seed, "entry": entry_view(entry, member)}


def rotate_seed(session: Session, chronicle: Chronicle, actor: dict, *, only_if_used: bool = False) -> dict | None:
    """F-5: reveal the seed in use and commit the next, in the caller's transaction. With
    ``only_if_used`` (a scene closing) nothing happens unless a roll used the seed in use."""
    row = _in_use(session, chronicle.id)
    if only_if_used and (row is None or row.nonce == 0):
        return None
    revealed = None
    if row is not None:
        seed = seal.unseal(row.sealed, chronicle.id, row.commitment)
        entry = append_entry(session, chronicle, kind=SEED_REVEAL, actor=actor, visibility="public",
                             receipt={"algorithm": FAIR_ALGORITHM, "commitment": row.commitment, "seed": seed.hex()})
        row.revealed_seq = entry.seq
        session.flush()
        revealed = {"commitment": row.commitment, "seed": seed.hex(), "rolls": row.nonce,
                    "committed_seq": row.committed_seq, "revealed_seq": entry.seq}
    new = commit_seed(session, chronicle, actor)
    return {"revealed": revealed, "commitment": new.commitment, "committed_seq": new.committed_seq}


def rotate(session: Session, member: Member) -> dict:
    """The Storyteller's rotation (F-5): the seed in use revealed, the next one committed."""
    require_storyteller(member, "rotate_seed")
    chronicle = lock_chronicle(session, member.chronicle_id)
    return rotate_seed(session, chronicle, actor_of(member))


def revealed_seeds(session: Session, chronicle_id: int) -> dict[str, bytes]:
    """The seeds revealed in the chronicle's log, by commitment (read from the public entries)."""
    rows = session.scalars(
        select(LogEntry.receipt).where(LogEntry.chronicle_id == chronicle_id, LogEntry.kind == SEED_REVEAL)
    ).all()
    return {receipt["commitment"]: bytes.fromhex(receipt["seed"]) for receipt in rows}


def fair_state(session: Session, member: Member) -> dict:
    """What a member may know: the algorithm, the commitment in use (never its seed), the nonces it
    served, the member's own client seed and every revealed seed."""
    row = session.scalars(
        select(FairSeed).where(FairSeed.chronicle_id == member.chronicle_id, FairSeed.revealed_seq.is_(None))
    ).first()
    revealed = session.execute(
        select(LogEntry.seq, LogEntry.receipt).where(LogEntry.chronicle_id == member.chronicle_id,
                                                     LogEntry.kind == SEED_REVEAL).order_by(LogEntry.seq)
    ).all()
    return {
        "algorithm": FAIR_ALGORITHM, "chronicle": member.chronicle_id,
        "commitment": row.commitment if row is not None else None,
        "committed_seq": row.committed_seq if row is not None else None,
        "rolls": row.nonce if row is not None else 0,
        "client_seed": client_seed_of(session, member.id),
        "revealed": [{"commitment": receipt["commitment"], "seed": receipt["seed"], "seq": seq}
                     for seq, receipt in revealed],
        "may_rotate": member.role == STORYTELLER,
    }
