"""Discord's request signature: Ed25519 over ``X-Signature-Timestamp`` + the raw body.

Discord signs every interaction it sends with the application's key and sends invalid signatures on
purpose to check the endpoint refuses them (an endpoint that accepts one is dropped). ``verify`` is
called on the raw bytes, before anything is parsed. A timestamp older (or newer) than ``MAX_AGE``
is refused too: a captured request replayed later does not act again (the interaction id is also
the write's Idempotency-Key, ``app/api_discord.py``).
"""

from __future__ import annotations

import time

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

MAX_AGE = 300.0  # seconds: a stale timestamp is refused
_SIGNATURE_HEX = 128  # 64 bytes
_KEY_HEX = 64  # 32 bytes


def _from_hex(text: str | None, length: int) -> bytes | None:
    if not isinstance(text, str) or len(text) != length:
        return None
    try:
        return bytes.fromhex(text)
    except ValueError:
        return None


def verify(
    public_key_hex: str | None,
    signature_hex: str | None,
    timestamp: str | None,
    body: bytes,
    *,
    now: float | None = None,
) -> bool:
    """Whether ``body`` was signed by the application's key at ``timestamp`` (Unix seconds), less than
    ``MAX_AGE`` ago. False, never an exception, for anything missing or malformed."""
    key = _from_hex(public_key_hex, _KEY_HEX)
    signature = _from_hex(signature_hex, _SIGNATURE_HEX)
    if (
        key is None
        or signature is None
        or not timestamp
        or not timestamp.isascii()
        or not timestamp.isdigit()
    ):
        return False
    moment = time.time() if now is None else now
    if abs(moment - int(timestamp)) > MAX_AGE:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(signature, timestamp.encode("ascii") + body)
    except (InvalidSignature, ValueError):
        return False
    return True
