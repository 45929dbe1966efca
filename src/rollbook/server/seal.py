"""The operator's secret and the sealed server seeds (SPEC F-1: a seed in use never leaves the server,
and a dump of the database alone does not reveal it).

A server seed is stored encrypted with AES-256-GCM (``cryptography``) under a key derived from the
operator's secret, with the chronicle and the seed's commitment as associated data (a sealed seed
copied onto another chronicle's row does not open). The secret is, in order:

- ``ROLLBOOK_SECRET_KEY``: any text of at least 16 characters;
- else the key file ``ROLLBOOK_SECRET_KEY_FILE`` (default ``./rollbook-secret.key``), created on
  the first start with 64 random hexadecimal digits and permissions 0600.

Whoever holds both the database and the secret can read the seeds in use: keep the secret apart from
the database's backups. Losing it makes the seeds in use unreadable (the next roll of such a chronicle
fails until the Storyteller rotates: a rotation cannot reveal a seed it cannot open, see ``docs/server.md``).
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from rollbook import settings

SHORTEST_SECRET = settings.SHORTEST_SECRET
_FORMAT = "aes256gcm-v1"
_NONCE_BYTES = 12


class SecretKeyError(RuntimeError):
    """The operator's secret is missing, too short, or does not open a sealed seed."""


def secret_file(given: settings.Settings | None = None) -> Path:
    return Path((given or settings.current()).secret_key_file).expanduser()


def operator_secret(given: settings.Settings | None = None) -> str:
    """The operator's secret: ``ROLLBOOK_SECRET_KEY``, else the key file (created 0600 when missing)."""
    given = given or settings.current()
    if given.secret_key is not None:  # at least SHORTEST_SECRET characters: Settings checked it
        return given.secret_key.get_secret_value()
    path = secret_file(given)
    try:
        text = _read_key_file(path)  # every roll of a fair chronicle comes here: one stat, not two
    except FileNotFoundError:
        _create_key_file(path)
        text = _read_key_file(path)
    if len(text) < SHORTEST_SECRET:
        raise SecretKeyError(f"the key file {path} holds fewer than {SHORTEST_SECRET} characters")
    return text


def _create_key_file(path: Path) -> None:
    """A new key file of 64 random hexadecimal digits, 0600; another process's, if it made one first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process created it meanwhile: read theirs
        return
    with os.fdopen(descriptor, "w", encoding="ascii") as handle:
        handle.write(secrets.token_hex(32) + "\n")


_read_cache: dict[str, tuple[tuple[int, int, int, int], str]] = {}


def _read_key_file(path: Path) -> str:
    """The key file's text, read again only when the file changed (its inode, size, mtime, ctime)."""
    info = os.stat(path)
    version = (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
    cached = _read_cache.get(str(path))
    if cached is not None and cached[0] == version:
        return cached[1]
    text = path.read_text(encoding="utf-8").strip()
    _read_cache[str(path)] = (version, text)
    return text


def _key(secret: str) -> bytes:
    return hashlib.sha256(b"rollbook server seed seal\0" + secret.encode("utf-8")).digest()


def _context(chronicle_id: int, commitment: str) -> bytes:
    return f"rollbook-seed:{chronicle_id}:{commitment}".encode("ascii")


def seal(seed: bytes, chronicle_id: int, commitment: str, secret: str | None = None) -> str:
    """The stored form of a server seed: ``aes256gcm-v1:`` and base64 of nonce and ciphertext."""
    nonce = secrets.token_bytes(_NONCE_BYTES)
    sealed = AESGCM(_key(secret or operator_secret())).encrypt(nonce, seed, _context(chronicle_id, commitment))
    return f"{_FORMAT}:" + base64.b64encode(nonce + sealed).decode("ascii")


_opened: dict[tuple[str, str, int, str], bytes] = {}
_OPENED_MAX = 4096


def unseal(stored: str, chronicle_id: int, commitment: str, secret: str | None = None) -> bytes:
    """The seed a ``seal`` stored; ``SecretKeyError`` when the secret (or the row) is not the one sealed.

    A seed opened once is kept in this process's memory (it is the server's secret already, never
    logged or served), keyed by the secret, the sealed text, the chronicle and the commitment: the
    next roll of the chronicle does not decrypt it again, and another secret or row still has to open."""
    secret = secret or operator_secret()
    key = (secret, stored, chronicle_id, commitment)
    seed = _opened.get(key)
    if seed is None:
        seed = _open(stored, chronicle_id, commitment, secret)
        if len(_opened) >= _OPENED_MAX:
            _opened.clear()
        _opened[key] = seed
    return seed


def _open(stored: str, chronicle_id: int, commitment: str, secret: str) -> bytes:
    kind, _, body = stored.partition(":")
    if kind != _FORMAT:
        raise SecretKeyError(f"unknown sealed seed format {kind!r}")
    raw = base64.b64decode(body)
    try:
        return AESGCM(_key(secret)).decrypt(
            raw[:_NONCE_BYTES], raw[_NONCE_BYTES:], _context(chronicle_id, commitment))
    except InvalidTag:
        raise SecretKeyError("the operator's secret does not open this chronicle's server seed") from None
