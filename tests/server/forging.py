"""What a forger holding a whole export does (issue 31): edit entries, then recompute the hash chain
from the first one changed, with every field hashed; and ``rollbook log verify`` on the result with
no ``--head``. A helpers module (no tests here)."""

from __future__ import annotations

import json
from pathlib import Path

from rollbook.server.chain import GENESIS_HASH, hash_of

from .conftest import run_cli


def entries_of(export: str) -> list[dict]:
    return [json.loads(line) for line in export.splitlines() if line.strip()]


def rechained(entries: list[dict]) -> list[dict]:
    """The chain recomputed over every entry (a redacted one keeps its stored hash: it cannot be
    recomputed, and the forger holds the Storyteller's export anyway)."""
    previous = GENESIS_HASH
    for index, entry in enumerate(entries):
        entry["seq"] = index + 1
        entry["prev_hash"] = previous
        if not entry.get("redacted"):
            entry["entry_hash"] = hash_of(entry)
        previous = entry["entry_hash"]
    return entries


def verify(tmp_path: Path, entries: list[dict], name: str = "log.jsonl"):
    """``rollbook log verify FILE`` (no ``--head``): the completed process."""
    path = tmp_path / name
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries), encoding="utf-8")
    return run_cli("log", "verify", str(path))
