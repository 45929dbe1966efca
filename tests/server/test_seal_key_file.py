"""The operator's key file is read again whenever it changes (it is no longer read on every roll)."""

from __future__ import annotations

import os

from rollbook.server import seal
from rollbook.settings import Settings


def test_a_changed_key_file_is_read_again(tmp_path, monkeypatch):
    path = tmp_path / "rollbook-secret.key"
    monkeypatch.setattr(
        seal.settings, "current", lambda: Settings(secret_key=None, secret_key_file=str(path))
    )
    path.write_text("a" * 32 + "\n")
    assert seal.operator_secret() == "a" * 32
    assert seal.operator_secret() == "a" * 32
    path.write_text("b" * 40 + "\n")  # another size
    assert seal.operator_secret() == "b" * 40
    stat = path.stat()
    path.write_text("c" * 40 + "\n")  # same size, other content and time
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert seal.operator_secret() == "c" * 40
    replacement = tmp_path / "new.key"
    replacement.write_text("d" * 40 + "\n")
    os.replace(replacement, path)  # another file in its place (another inode)
    assert seal.operator_secret() == "d" * 40


def test_a_missing_key_file_is_made_0600_and_a_home_path_follows_home(tmp_path, monkeypatch):
    """The first start makes the key file (0600, 64 hexadecimal digits); a ``~`` path is the home
    of the moment (the path is built once per setting and home, not once per roll)."""
    given = Settings(secret_key=None, secret_key_file="~/keys/rollbook.key")
    for home in ("first", "second"):
        monkeypatch.setenv("HOME", str(tmp_path / home))
        secret = seal.operator_secret(given)
        made = tmp_path / home / "keys" / "rollbook.key"
        assert made.read_text().strip() == secret and len(secret) == 64
        assert made.stat().st_mode & 0o777 == 0o600
        assert seal.operator_secret(given) == secret
    assert (tmp_path / "first" / "keys" / "rollbook.key").read_text() != (
        tmp_path / "second" / "keys" / "rollbook.key"
    ).read_text()
