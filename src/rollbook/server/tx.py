"""Transactions: one write transaction per change, retried on the races the database reports,
and exactly-once execution of a request that carries an ``Idempotency-Key``.

- ``run(db, work)``: ``work(session)`` inside ``Database.write()``; a lost race (a stale sheet, a
  unique key taken meanwhile, a serialization failure, a deadlock, SQLite's "database is locked")
  rolls back and runs ``work`` again, up to 6 times, then answers 409 ``busy``.
- ``idempotent(db, scope=, key=, request_fingerprint=, work=)``: the same, and with a key the
  response is stored in the change's own transaction; a retry gets the stored response.
- ``StaleSheet``: raised by ``store.save_sheet`` when the conditional UPDATE matched no row.

Nothing here knows HTTP: the JSON API and the web pages both call these.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from rollbook.server import auth
from rollbook.server.chain import canonical
from rollbook.server.models import IdempotencyRecord
from rollbook.server.problems import ProblemError

T = TypeVar("T")

ATTEMPTS = 6
RETRY_SQLSTATES = ("40001", "40P01", "55P03")  # serialization failure, deadlock, lock not available


def now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class StaleSheet(Exception):
    """The conditional UPDATE found another version: the transaction is retried."""


def _retryable(error: Exception) -> bool:
    if isinstance(error, StaleSheet):
        return True
    if isinstance(error, IntegrityError):  # a lost race on a unique key (seq, idempotency key); not a bug
        return "unique" in str(error.orig).lower()
    if isinstance(error, OperationalError):
        if getattr(error.orig, "sqlstate", None) in RETRY_SQLSTATES:
            return True
        return "database is locked" in str(error.orig)
    return False


def _backoff(attempt: int) -> float:
    """5 to 50 ms, times the attempt number (jitter from ``secrets``: no ``random`` in this package)."""
    return (0.005 + secrets.randbelow(45_001) / 1_000_000) * (attempt + 1)


def run(db, work: Callable[[Session], T], *, attempts: int = ATTEMPTS) -> T:
    """Run ``work(session)`` in a write transaction, retrying the races the database reports."""
    for attempt in range(attempts):
        try:
            with db.write() as session:
                return work(session)
        except Exception as error:  # noqa: BLE001 - filtered just below
            if not _retryable(error):
                raise
            if attempt == attempts - 1:
                raise ProblemError(409, "busy") from error
            time.sleep(_backoff(attempt))
    raise ProblemError(409, "busy")  # pragma: no cover


def fingerprint(method: str, path: str, body: Any) -> str:
    """What a request asks, independent of its JSON formatting."""
    return hashlib.sha256(canonical({"method": method.upper(), "path": path, "body": body})).hexdigest()


def idempotent(db, *, scope: str, key: str | None, request_fingerprint: str,
               work: Callable[[Session], tuple[int, dict]]) -> tuple[int, dict, bool]:
    """Exactly-once execution of a state-changing request: ``(status, body, replayed)``.

    With a key, the response is stored in the same transaction as the change. A retry with the same
    key and the same request returns the stored status and body; the same key with another request
    is refused (422 ``idempotency_key_reused``). Concurrent requests with one key: the loser's
    insert of the key violates ``UNIQUE (scope, key_hash)``, its transaction rolls back (nothing is
    spent) and the retry finds the winner's stored response. Refusals are not stored.
    """
    if key is not None and not (1 <= len(key) <= 255 and key.isprintable()):
        raise ProblemError(400, "idempotency_key_invalid")
    key_hash = auth.digest(key) if key is not None else None

    def attempt(session: Session) -> tuple[int, dict, bool]:
        if key is not None:
            stored = session.scalars(
                select(IdempotencyRecord).where(IdempotencyRecord.scope == scope, IdempotencyRecord.key_hash == key_hash)
            ).first()
            if stored is not None:
                if stored.fingerprint != request_fingerprint:
                    raise ProblemError(422, "idempotency_key_reused")
                return stored.status, _unseal_body(json.loads(stored.body), key), True
        status, body = work(session)
        if key is not None:
            session.add(IdempotencyRecord(
                scope=scope, key_hash=key_hash, fingerprint=request_fingerprint, status=status,
                body=json.dumps(_seal_body(body, key), ensure_ascii=False), created_at=now(),
            ))
            session.flush()
        return status, body, False

    return run(db, attempt)


def _seal_body(body: dict, key: str) -> dict:
    """A token in a stored response is sealed with the key: the database never holds it in clear."""
    if isinstance(body, dict) and isinstance(body.get("token"), str):
        return {**body, "token": {"sealed": auth.seal(body["token"], key)}}
    return body


def _unseal_body(body: dict, key: str) -> dict:
    if isinstance(body, dict) and isinstance(body.get("token"), dict) and "sealed" in body["token"]:
        return {**body, "token": auth.unseal(body["token"]["sealed"], key)}
    return body
