"""The operator's key file is read again whenever it changes (it is no longer read on every roll)."""

from __future__ import annotations

import os

from rollbook.server import seal


def test_a_changed_key_file_is_read_again(tmp_path, monkeypatch):
    path = tmp_path / "rollbook-secret.key"
    monkeypatch.delenv(seal.SECRET_VARIABLE, raising=False)
    monkeypatch.setenv(seal.SECRET_FILE_VARIABLE, str(path))
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
