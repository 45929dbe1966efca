"""Transactions: one write transaction per change, retried on the races the database reports,
and exactly-once execution of a request that carries an ``Idempotency-Key``.

- ``run(db, work)``: ``work(session)`` in a write transaction (``Database.run_write``: on SQLite the
  writes that queue together share one durable commit, each in its own savepoint); a lost race rolls back and runs
  ``work`` again, up to 6 times, then answers 409 ``busy``. A lost race is recognised by what the
  database reports, never by an error's text: a connection that ended before the COMMIT was sent
  (``ConnectionLost``); a stale sheet (``StaleSheet``); SQLSTATE 23505 on one
  of the constraints that settle races (``RACE_CONSTRAINTS``); SQLSTATE 40001/40P01/55P03
  (serialization failure, deadlock, lock not available); SQLite's SQLITE_BUSY/SQLITE_LOCKED; a
  writer that waited its turn in the SQLite writer lane too long (``lane.LaneTimeout``); a write of a
  SQLite batch whose shared transaction another write's failure ended (``writer.BatchLost``). Any
  other integrity error is a bug: it is raised (the app logs it and answers 500).
- ``idempotent(db, scope=, key=, request_fingerprint=, work=)``: the key is **claimed first**, in the
  change's own transaction (an ``INSERT … ON CONFLICT`` on ``UNIQUE (scope, key_hash)``: a concurrent
  request with the same key waits on the database's unique index until the first commits or rolls
  back), then the work runs and its response is stored in the claimed row. Every retry gets that one
  response; a refusal rolls the claim back with the work (refusals are not stored). The scope may be
  found in the transaction itself (``scope`` a function of the session: the member a token opens).
- ``sweep(db)``: deletes the records past their ``expires_at`` (a day, ``RECORD_TTL``).
- ``StaleSheet``: raised by ``store.save_sheet`` when the conditional UPDATE matched no row.

Nothing here knows HTTP: the JSON API, the web pages and the CLI all call these (from a worker
thread: the retries sleep there).
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import logging
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from pydantic_core import to_json
from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session

from rollbook.server import auth
from rollbook.server.chain import canonical
from rollbook.server.db import changed_rows
from rollbook.server.engines import sqlite_busy
from rollbook.server.lane import LaneTimeout
from rollbook.server.models import IdempotencyRecord
from rollbook.server.problems import ProblemError
from rollbook.server.writer import BatchLost

T = TypeVar("T")

log = logging.getLogger("rollbook.server")

ATTEMPTS = 6
RETRY_SQLSTATES = ("40001", "40P01", "55P03")  # serialization failure, deadlock, lock not available
UNIQUE_VIOLATION = "23505"
# The unique constraints that settle a race (the loser retries and finds the winner's row).
RACE_CONSTRAINTS = frozenset(
    {
        "uq_idempotency_keys_scope_key",
        "uq_log_entries_chronicle_seq",
        "uq_grants_ask_id",
        "uq_member_tokens_token_hash",
    }
)
RECORD_TTL = timedelta(days=1)
PENDING = 0  # a claimed record's status until the work's response is stored (never committed so)
SECRET_FIELDS = ("token", "invitation")
ANONYMOUS_KEY_MIN = 32
SWEEP_ONE_IN = 64


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class StaleSheet(Exception):
    """The conditional UPDATE found another version: the transaction is retried."""


class ConnectionLost(Exception):
    """The database connection ended while the work ran, before the COMMIT was sent (a PostgreSQL
    restart, a terminated backend: the statement's error says the connection was invalidated).
    The server rolls back a transaction whose connection ends, so nothing of the work was kept and
    ``run`` runs it again on a new connection. A connection that ends during the COMMIT is not
    this: whether the COMMIT took effect is unknown, and its error is raised as it is (a request
    with an Idempotency-Key, retried, then gets the one answer)."""


def lost_connection(error: BaseException) -> bool:
    """Whether a database error says its connection ended (SQLAlchemy invalidated it)."""
    return isinstance(error, DBAPIError) and bool(error.connection_invalidated)


def _before_commit(work: Callable[[Session], T]) -> Callable[[Session], T]:
    """``work``, with a lost connection during it raised as ``ConnectionLost``."""

    def guarded(session: Session) -> T:
        try:
            return work(session)
        except DBAPIError as error:
            if lost_connection(error):
                raise ConnectionLost() from error
            raise

    return guarded


def _sqlstate(error: BaseException) -> str | None:
    return getattr(getattr(error, "orig", None), "sqlstate", None)


def _constraint(error: BaseException) -> str | None:
    """The constraint a PostgreSQL error names (psycopg's diagnostics); None on SQLite."""
    diag = getattr(getattr(error, "orig", None), "diag", None)
    return None if diag is None else diag.constraint_name


def retryable(error: BaseException) -> bool:
    """A lost race, as the database reports it (SQLSTATE, constraint name, SQLite's error code)."""
    if isinstance(error, (StaleSheet, LaneTimeout, BatchLost, ConnectionLost)):
        return True
    if not isinstance(error, DBAPIError):
        return False
    state = _sqlstate(error)
    if isinstance(error, IntegrityError):
        return state == UNIQUE_VIOLATION and _constraint(error) in RACE_CONSTRAINTS
    if state in RETRY_SQLSTATES:
        return True
    return sqlite_busy(error.orig)


def _backoff(attempt: int) -> float:
    """5 to 50 ms, times the attempt number (jitter from ``secrets``: no ``random`` in this package)."""
    return (0.005 + secrets.randbelow(45_001) / 1_000_000) * (attempt + 1)


def run(db, work: Callable[[Session], T], *, attempts: int = ATTEMPTS) -> T:
    """Run ``work(session)`` in a write transaction, retrying the races the database reports."""
    work = _before_commit(work)
    for attempt in range(attempts):
        try:
            return db.run_write(work)
        except Exception as error:
            _lost_race(error, attempt, attempts)
            time.sleep(_backoff(attempt))
    raise ProblemError(409, "busy")  # pragma: no cover


def _lost_race(error: Exception, attempt: int, attempts: int) -> None:
    """Returns when ``error`` is a lost race to retry; raises it (or 409 ``busy`` after the last
    attempt) otherwise. Must be called from an ``except`` block."""
    if not retryable(error):
        if isinstance(error, IntegrityError):
            log.error(
                "rollbook: integrity error (not a race): sqlstate=%s constraint=%s",
                _sqlstate(error),
                _constraint(error),
            )
        raise error
    if attempt == attempts - 1:
        if isinstance(error, ConnectionLost) and error.__cause__ is not None:  # out of reach: its error (500)
            raise error.__cause__ from None
        raise ProblemError(409, "busy") from error


def fingerprint(method: str, path: str, body: Any) -> str:
    """What a request asks, independent of its JSON formatting."""
    return hashlib.sha256(canonical({"method": method.upper(), "path": path, "body": body})).hexdigest()


def check_key(key: str | None, *, min_length: int = 1) -> None:
    """An Idempotency-Key is 1 to 255 printable ASCII characters; ``min_length`` more where the key
    alone guards a secret (anonymous create and join: ``ANONYMOUS_KEY_MIN``)."""
    if key is None:
        return
    if not (1 <= len(key) <= 255 and key.isascii() and key.isprintable()):
        raise ProblemError(400, "idempotency_key_invalid")
    if len(key) < min_length:
        raise ProblemError(422, "idempotency_key_too_short", minimum=min_length)


Scope = str | Callable[[Session], str]


def idempotent(
    db,
    *,
    scope: Scope,
    key: str | None,
    request_fingerprint: str,
    work: Callable[[Session], tuple[int, dict]],
    min_key_length: int = 1,
) -> tuple[int, dict, bool]:
    """Exactly-once execution of a state-changing request: ``(status, body, replayed)``.

    With a key, the key is claimed before the work, in the same transaction, and the response is
    stored there. A retry with the same key and request gets the stored status and body (whether it
    came before, during or after the first); the same key with another request is refused (422
    ``idempotency_key_reused``). Refusals are not stored. A stored body holding a secret (a token, an
    invitation code) is sealed with AES-GCM under a key derived from the Idempotency-Key.

    ``scope`` is the key's scope, or a function that finds it in the transaction, first thing (the
    member a signed request's token opens: its refusal comes before the key's own, as when the scope
    is found before the transaction).
    """
    result = run(db, _once(scope, key, request_fingerprint, work, min_key_length))
    if _sweep_due(key, result):
        try:
            sweep(db)
        except Exception:
            log.warning("rollbook: sweeping expired idempotency records failed", exc_info=True)
    return result


_stored = itertools.count(1)  # the keyed responses this process stored


def _sweep_due(key: str | None, result: tuple[int, dict, bool]) -> bool:
    """Every ``SWEEP_ONE_IN``-th stored response sweeps. Counted, not drawn: a draw from the system's
    randomness is a system call on every write, where the worker thread gives up the GIL and, the
    server busy, waits to get it back (13% of a roll's samples under load)."""
    return key is not None and not result[2] and next(_stored) % SWEEP_ONE_IN == 0


def _once(
    scope: Scope,
    key: str | None,
    request_fingerprint: str,
    work: Callable[[Session], tuple[int, dict]],
    min_key_length: int,
) -> Callable[[Session], tuple[int, dict, bool]]:
    """The transaction's work: without a key ``work`` alone; with one, claim the key first (or find
    the stored response), then ``work``, then store its response. A ``scope`` found in the
    transaction is found first, then the key is checked."""
    if callable(scope):

        def scoped(session: Session) -> tuple[int, dict, bool]:
            return _once(scope(session), key, request_fingerprint, work, min_key_length)(session)

        return scoped
    check_key(key, min_length=min_key_length)
    if key is None:

        def alone(session: Session) -> tuple[int, dict, bool]:
            status, body = work(session)
            return status, body, False

        return alone
    key_hash = auth.digest(key)
    context = f"{scope}\n{key_hash}\n{request_fingerprint}".encode()

    def attempt(session: Session) -> tuple[int, dict, bool]:
        stamp = datetime.now(UTC)
        claimed = _claim(
            session, scope, key_hash, request_fingerprint, auth.stamp(stamp), auth.stamp(stamp + RECORD_TTL)
        )
        if claimed is None:
            stored = session.scalars(
                select(IdempotencyRecord)
                .where(IdempotencyRecord.scope == scope, IdempotencyRecord.key_hash == key_hash)
                .execution_options(populate_existing=True)
            ).one()
            if not hmac.compare_digest(stored.fingerprint, request_fingerprint):
                raise ProblemError(422, "idempotency_key_reused")
            if stored.status == PENDING:  # pragma: no cover - a claim is never committed pending
                raise ProblemError(409, "busy")
            return stored.status, _open(json.loads(stored.body), key, context), True
        status, body = work(session)
        session.execute(
            _STORE_RESPONSE,
            {
                "claimed": claimed,
                "answer_status": status,
                # pydantic-core's encoder, as the answer's own (``app.api.Answer``): the same JSON
                # value in a fifth of ``json.dumps``'s time (a roll's answer: ~14 µs against ~75 µs)
                "answer_body": to_json(_close(body, key, context)).decode(),
            },
        )
        return status, body, False

    return attempt


_KEYS = IdempotencyRecord.__table__


def _claim_statement(insert):
    statement = insert(_KEYS).values(
        scope=bindparam("scope"),
        key_hash=bindparam("key_hash"),
        fingerprint=bindparam("fingerprint"),
        status=PENDING,
        body="",
        created_at=bindparam("stamp"),
        expires_at=bindparam("expires_at"),
    )
    return statement.on_conflict_do_update(
        index_elements=[_KEYS.c.scope, _KEYS.c.key_hash],
        set_={
            "fingerprint": statement.excluded.fingerprint,
            "status": PENDING,
            "body": "",
            "created_at": statement.excluded.created_at,
            "expires_at": statement.excluded.expires_at,
        },
        where=_KEYS.c.expires_at <= bindparam("stamp"),
    ).returning(_KEYS.c.id)


_CLAIMS = {"postgresql": _claim_statement(pg_insert), "sqlite": _claim_statement(sqlite_insert)}
_STORE_RESPONSE = (
    update(_KEYS)
    .where(_KEYS.c.id == bindparam("claimed"))
    .values(status=bindparam("answer_status"), body=bindparam("answer_body"))
)


def _claim(
    session: Session, scope: str, key_hash: str, request_fingerprint: str, stamp: str, expires_at: str
) -> int | None:
    """Insert the key's record (pending); an expired record with the key is taken over. The id, or
    None when a live record holds the key (PostgreSQL waits here for a concurrent claim to end)."""
    claim = _CLAIMS[session.get_bind().dialect.name]
    return session.execute(
        claim,
        {
            "scope": scope,
            "key_hash": key_hash,
            "fingerprint": request_fingerprint,
            "stamp": stamp,
            "expires_at": expires_at,
        },
    ).scalar()


def sweep(db, *, at: str | None = None) -> int:
    """Delete the idempotency records that expired (before ``at``, default now): how many."""
    return run(db, _sweep_work(at or now()))


def _sweep_work(moment: str) -> Callable[[Session], int]:
    def work(session: Session) -> int:
        return changed_rows(
            session.execute(
                delete(IdempotencyRecord)
                .where(IdempotencyRecord.expires_at <= moment)
                .execution_options(synchronize_session=False)
            )
        )

    return work


def _has_secret(body: Any) -> bool:
    return isinstance(body, dict) and any(name in body for name in SECRET_FIELDS)


def _close(body: Any, key: str, context: bytes) -> Any:
    """The body as stored: sealed whole when it holds a secret."""
    if _has_secret(body):
        return {"sealed": auth.seal(json.dumps(body, ensure_ascii=False), key, context)}
    return body


def _open(stored: Any, key: str, context: bytes) -> Any:
    if isinstance(stored, dict) and set(stored) == {"sealed"} and isinstance(stored["sealed"], str):
        return json.loads(auth.unseal(stored["sealed"], key, context))
    return stored
