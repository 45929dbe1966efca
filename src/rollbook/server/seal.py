"""The operator's secret and the sealed server seeds (SPEC F-1: a seed in use never leaves the server,
and a dump of the database alone does not reveal it).

A server seed is stored encrypted with AES-256-GCM (``cryptography``) under a key derived from the
operator's secret with scrypt (``SCRYPT_*`` below; a seed sealed before, under SHA-256 of the secret,
still opens), with the chronicle and the seed's commitment as associated data (a sealed seed copied
onto another chronicle's row does not open). The secret is, in order:

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
import threading
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from rollbook import settings

SHORTEST_SECRET = settings.SHORTEST_SECRET


class SecretKeyError(RuntimeError):
    """The operator's secret is missing, too short, or does not open a sealed seed."""


def secret_file(given: settings.Settings | None = None) -> Path:
    return Path(_secret_path(given or settings.current()))


def _secret_path(given: settings.Settings) -> str:
    """The key file's path, ``~`` expanded: a string, every roll of a fair chronicle reads it (a
    ``Path`` costs some twenty Python calls more)."""
    return os.path.expanduser(given.secret_key_file)


def operator_secret(given: settings.Settings | None = None, *, create: bool = True) -> str:
    """The operator's secret: ``ROLLBOOK_SECRET_KEY``, else the key file (created 0600 when missing,
    unless ``create`` is false: then a missing file is a ``SecretKeyError``)."""
    given = given or settings.current()
    if given.secret_key is not None:  # at least SHORTEST_SECRET characters: Settings checked it
        return given.secret_key.get_secret_value()
    path = _secret_path(given)
    try:
        text = _read_key_file(path)  # every roll of a fair chronicle comes here: one stat, not two
    except FileNotFoundError:
        if not create:
            raise SecretKeyError(f"the key file {Path(path)} is missing") from None
        _create_key_file(Path(path))
        text = _read_key_file(path)
    if len(text) < SHORTEST_SECRET:
        raise SecretKeyError(f"the key file {Path(path)} holds fewer than {SHORTEST_SECRET} characters")
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


def _read_key_file(path: str) -> str:
    """The key file's text, read again only when the file changed (its inode, size, mtime, ctime)."""
    info = os.stat(path)
    version = (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
    cached = _read_cache.get(path)
    if cached is not None and cached[0] == version:
        return cached[1]
    text = Path(path).read_text(encoding="utf-8").strip()
    _read_cache[path] = (version, text)
    return text


# The AES key is stretched from the operator's secret with scrypt (RFC 7914), so a short
# ROLLBOOK_SECRET_KEY does not open the seeds to a cheap guess. The salt is fixed (one secret per
# installation, the key must be found again on every start); n=2**15, r=8, p=1 take 32 MiB and
# some tens of milliseconds, once per process and secret (``_v2_key``). Changing any of these
# makes every seed sealed before unreadable: a new derivation needs a new format name.
SCRYPT_SALT = b"rollbook server seed seal v2"
SCRYPT_N = 2**15
SCRYPT_R = 8
SCRYPT_P = 1
_FORMAT = "aes256gcm-v2"  # the key from scrypt
_FORMAT_V1 = "aes256gcm-v1"  # sealed before scrypt: the key is SHA-256 of a prefix and the secret
_NONCE_BYTES = 12


def _scrypt_key(secret: str) -> bytes:
    """The v2 key of a secret, derived (slow on purpose: call ``_v2_key``, which keeps it)."""
    return Scrypt(salt=SCRYPT_SALT, length=32, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P).derive(
        secret.encode("utf-8")
    )


KEPT_KEYS = 4  # derived keys kept: a few secrets at most (the key file replaced is another secret)
_v2_keys: dict[str, bytes] = {}  # secret -> its v2 key, oldest first
_deriving = threading.Lock()
derivations = 0  # scrypt runs in this process (tests read it)


def _v2_key(secret: str) -> bytes:
    """``_scrypt_key``, derived once per process and secret, kept (every roll of a fair chronicle
    opens its seed). A kept key is read without the lock: a roll never waits behind another secret's
    derivation. Only a derivation takes it, and looks again once it holds it: the first rolls of
    several chronicles arriving together (a server just started) wait for one derivation instead of
    each deriving."""
    key = _v2_keys.get(secret)  # one dict look-up: atomic, no lock needed
    if key is not None:
        return key
    global derivations
    with _deriving:
        key = _v2_keys.get(secret)
        if key is None:
            key = _scrypt_key(secret)
            derivations += 1
            while len(_v2_keys) >= KEPT_KEYS:
                del _v2_keys[
                    next(iter(_v2_keys))
                ]  # the oldest secret's key (it derives again if it comes back)
            _v2_keys[secret] = key
    return key


def _v1_key(secret: str) -> bytes:
    return hashlib.sha256(b"rollbook server seed seal\0" + secret.encode("utf-8")).digest()


_KEYS = {_FORMAT: _v2_key, _FORMAT_V1: _v1_key}


def _context(chronicle_id: int, commitment: str) -> bytes:
    return f"rollbook-seed:{chronicle_id}:{commitment}".encode("ascii")


def seal(seed: bytes, chronicle_id: int, commitment: str, secret: str | None = None) -> str:
    """The stored form of a server seed: ``aes256gcm-v2:`` and base64 of nonce and ciphertext."""
    nonce = secrets.token_bytes(_NONCE_BYTES)
    key = _v2_key(secret or operator_secret())
    sealed = AESGCM(key).encrypt(nonce, seed, _context(chronicle_id, commitment))
    return f"{_FORMAT}:" + base64.b64encode(nonce + sealed).decode("ascii")


def unseal(stored: str, chronicle_id: int, commitment: str, secret: str | None = None) -> bytes:
    """The seed a ``seal`` stored; ``SecretKeyError`` when the secret (or the row) is not the one sealed.

    A seed sealed before scrypt (``aes256gcm-v1``) still opens, under the key it was sealed with; the
    Storyteller's next rotation seals its successor as v2 (nothing is written back here)."""
    kind, _, body = stored.partition(":")
    derive = _KEYS.get(kind)
    if derive is None:
        raise SecretKeyError(f"unknown sealed seed format {kind!r}")
    raw = base64.b64decode(body)
    try:
        # a seed is opened, never a key file made for it (a new key opens none of the seeds in use)
        return AESGCM(derive(secret or operator_secret(create=False))).decrypt(
            raw[:_NONCE_BYTES], raw[_NONCE_BYTES:], _context(chronicle_id, commitment)
        )
    except InvalidTag:
        raise SecretKeyError("the operator's secret does not open this chronicle's server seed") from None
