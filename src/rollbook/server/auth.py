"""Bearer tokens and invitation codes: random secrets shown once, stored as SHA-256 hex digests.

A token names one member of one chronicle (``member_tokens``): their **key** (given when they
create or join a chronicle; a rotation replaces it) or a **session** opened with it (closed on sign
out; it expires after ``session_ttl()`` when ``ROLLBOOK_SESSION_HOURS`` sets one). A revoked or
expired token, or one of a removed member, opens nothing. The JSON API reads it from
``Authorization: Bearer``; the web pages may send it as the ``rollbook_token`` cookie instead
(``token_from_headers``).

``seal``/``unseal``: a secret kept inside a stored idempotent response is encrypted with AES-GCM
under a key derived (HKDF-SHA256) from the client's Idempotency-Key, which the database holds only
as a hash: only a client presenting the same key can read it back.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from rollbook import settings
from rollbook.server.models import Caller, Member, MemberToken

COOKIE_NAME = "rollbook_token"
KEY = "key"
SESSION = "session"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_invitation() -> str:
    return secrets.token_urlsafe(12)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def stamp(moment: datetime) -> str:
    """The ISO 8601 UTC form every timestamp of the database uses (``tx.now()``'s)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def session_ttl() -> timedelta | None:
    """How long a session lasts: ``ROLLBOOK_SESSION_HOURS`` (unset, empty or 0: until closed)."""
    return settings.current().session_ttl


def token_from_headers(authorization: str | None, cookie: str | None = None) -> str | None:
    """The token of ``Authorization: Bearer TOKEN``, else of the ``rollbook_token`` cookie."""
    if authorization:
        scheme, _, value = authorization.strip().partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    if cookie:
        return cookie.strip() or None
    return None


def issue(session: Session, member: Caller, kind: str, *, ttl: timedelta | None = None) -> dict:
    """A new token of ``kind`` for the member: ``{"token", "expires_at"}`` (the token shown once)."""
    token = new_token()
    moment = datetime.now(UTC)
    expires_at = stamp(moment + ttl) if ttl is not None else None
    session.add(
        MemberToken(
            member_id=member.id,
            token_hash=digest(token),
            kind=kind,
            created_at=stamp(moment),
            expires_at=expires_at,
        )
    )
    session.flush()
    return {"token": token, "expires_at": expires_at}


def live_token(session: Session, token: str | None) -> MemberToken | None:
    """The live row of a token (not revoked, not expired, its member not removed), or None."""
    hashed = _looked_up_by(token)
    if hashed is None:
        return None
    row = session.scalars(select(MemberToken).where(MemberToken.token_hash == hashed)).first()
    if row is None or not _still_open(row, hashed) or row.revoked_at is not None:
        return None
    return row


def _looked_up_by(token: str | None) -> str | None:
    """The digest a presented token is looked up by; None for no token or an oversized one."""
    if not token or len(token) > 512:
        return None
    return digest(token)


def _still_open(row, hashed: str) -> bool:
    """A looked-up token row is the token presented (compared in constant time) and not expired."""
    if row is None or not hmac.compare_digest(row.token_hash, hashed):
        return False
    return row.expires_at is None or row.expires_at > stamp(datetime.now(UTC))


@dataclass(frozen=True, slots=True, eq=False)
class MemberRow:
    """The member a live token opens, as the token check read them (a ``Member``'s columns, read the
    same way): every signed request's caller, handed to the use cases. Frozen: a plain row, not an
    ORM object the transaction's unit of work would follow (a change to who signed is a use case's
    own UPDATE, never this object's); no ORM load (its identity map is not needed here)."""

    id: int
    chronicle_id: int
    name: str
    role: str
    created_at: str
    removed_at: str | None


_MEMBERS = Member.__table__
_TOKENS = MemberToken.__table__
_MEMBER_OF_TOKEN = (
    select(
        _MEMBERS.c.id,
        _MEMBERS.c.chronicle_id,
        _MEMBERS.c.name,
        _MEMBERS.c.role,
        _MEMBERS.c.created_at,
        _MEMBERS.c.removed_at,
        _TOKENS.c.token_hash,
        _TOKENS.c.expires_at,
    )
    .join(_TOKENS, _TOKENS.c.member_id == _MEMBERS.c.id)
    .where(_TOKENS.c.token_hash == bindparam("hashed"), _TOKENS.c.revoked_at.is_(None))
)


def authenticate(session: Session, token: str | None) -> MemberRow | None:
    """The member a live token opens, or None (one query: the token's row and its member; the
    same conditions as ``live_token``: not revoked, not expired, the member not removed). Every
    signed request checks its token so, in its own transaction (a write's: its refusal before the
    write, and nothing between the check and the write)."""
    hashed = _looked_up_by(token)
    if hashed is None:
        return None
    row = session.execute(_MEMBER_OF_TOKEN, {"hashed": hashed}).first()
    if row is None or not _still_open(row, hashed) or row.removed_at is not None:
        return None
    return MemberRow(row.id, row.chronicle_id, row.name, row.role, row.created_at, row.removed_at)


def removed_from(session: Session, token: str | None) -> int | None:
    """The chronicle whose Storyteller removed the member this token was given to (its pages say so
    to that reader, instead of asking for a token), or None."""
    hashed = _looked_up_by(token)
    if hashed is None:
        return None
    row = session.execute(
        select(MemberToken.token_hash, Member.chronicle_id, Member.removed_at)
        .join(Member, Member.id == MemberToken.member_id)
        .where(MemberToken.token_hash == hashed)
    ).first()
    if row is None or row.removed_at is None or not hmac.compare_digest(row.token_hash, hashed):
        return None
    return int(row.chronicle_id)


# --- sealing a secret inside a stored idempotent response --------------------------------------

_SEAL_INFO = b"rollbook idempotent response v1"


def _seal_key(key: str, context: bytes) -> bytes:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    return HKDF(
        algorithm=hashes.SHA256(), length=32, salt=hashlib.sha256(context).digest(), info=_SEAL_INFO
    ).derive(key.encode("utf-8"))


def seal(secret: str, key: str, context: bytes = b"") -> str:
    """``secret`` encrypted (AES-256-GCM, a random 96-bit nonce, ``context`` authenticated)."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    nonce = secrets.token_bytes(12)
    data = AESGCM(_seal_key(key, context)).encrypt(nonce, secret.encode("utf-8"), context)
    return base64.b64encode(nonce + data).decode("ascii")


def unseal(sealed: str, key: str, context: bytes = b"") -> str:
    """The secret ``seal`` encrypted; ``cryptography.exceptions.InvalidTag`` for another key or context."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    raw = base64.b64decode(sealed)
    return AESGCM(_seal_key(key, context)).decrypt(raw[:12], raw[12:], context).decode("utf-8")
