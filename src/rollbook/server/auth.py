"""Bearer tokens and invitation codes: random secrets shown once, stored as SHA-256 hex digests.

A token names one member of one chronicle. The JSON API reads it from ``Authorization: Bearer``;
the web pages may send it as the ``rollbook_token`` cookie instead (``token_from_headers``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from rollbook.server.models import Member

COOKIE_NAME = "rollbook_token"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_invitation() -> str:
    return secrets.token_urlsafe(12)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def token_from_headers(authorization: str | None, cookie: str | None = None) -> str | None:
    """The token of ``Authorization: Bearer TOKEN``, else of the ``rollbook_token`` cookie."""
    if authorization:
        scheme, _, value = authorization.strip().partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    if cookie:
        return cookie.strip() or None
    return None


def authenticate(session: Session, token: str | None) -> Member | None:
    """The member a token opens, or None."""
    if not token or len(token) > 512:
        return None
    hashed = digest(token)
    member = session.scalars(select(Member).where(Member.token_hash == hashed)).first()
    if member is None or not hmac.compare_digest(member.token_hash, hashed):
        return None
    return member


# --- sealing a secret inside a stored idempotent response --------------------------------------
# A replayed create/join must return the same token, yet the database keeps no token in clear:
# the stored copy is XORed with a keystream derived from the Idempotency-Key, which the database
# keeps only as a hash. Only a client presenting the same key can unseal it.

def _keystream(key: str, length: int) -> bytes:
    out = b""
    counter = 0
    while len(out) < length:
        out += hmac.new(key.encode("utf-8"), b"rollbook-seal:" + counter.to_bytes(4, "big"), hashlib.sha256).digest()
        counter += 1
    return out[:length]


def seal(secret: str, key: str) -> str:
    data = secret.encode("utf-8")
    return bytes(a ^ b for a, b in zip(data, _keystream(key, len(data)))).hex()


def unseal(sealed: str, key: str) -> str:
    data = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(data, _keystream(key, len(data)))).decode("utf-8")
