"""The receipt log's hash chain: canonical form, entry hash, and the verifier.

Pure (standard library + ``rollbook.play.verify_receipt`` passed in): ``rollbook log verify``
checks an exported JSON Lines file with it, without a server or a database.

Each entry is hashed over the canonical JSON (sorted keys, compact separators, non-ASCII kept,
UTF-8) of exactly these fields::

    {"chronicle", "seq", "prev_hash", "created_at", "kind", "actor", "visibility", "receipt"}

``prev_hash`` of the first entry (seq 1) is 64 zeros; every later entry's ``prev_hash`` is the
``entry_hash`` of the entry before it. An export line carries these fields, ``entry_hash``, and
unhashed conveniences (``character``, ``refers_to``, ``effects``). A hidden entry exported for a
player is *redacted* (``"redacted": true``, ``actor`` and ``receipt`` null): its link to its
neighbours is still checked, its own hash cannot be.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from typing import Any

GENESIS_HASH = "0" * 64
HASHED_FIELDS = ("chronicle", "seq", "prev_hash", "created_at", "kind", "actor", "visibility", "receipt")
KINDS = ("roll", "reroll", "adjust", "reveal", "ask", "grant", "refusal", "withdrawal", "standing_grant",
         "standing_end", "scene_open", "turn", "scene_close", "actions", "sheet_edit", "removal")


def canonical(value: Any) -> bytes:
    """The canonical JSON form: sort_keys, compact separators, ensure_ascii=False, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def plain(value: Any) -> Any:
    """A value as the JSON it will be stored as (tuples become lists, keys become strings)."""
    return json.loads(json.dumps(value, ensure_ascii=False))


def entry_hash(*, chronicle: int, seq: int, prev_hash: str, created_at: str, kind: str, actor: Any,
               visibility: str, receipt: Any) -> str:
    body = {
        "chronicle": chronicle,
        "seq": seq,
        "prev_hash": prev_hash,
        "created_at": created_at,
        "kind": kind,
        "actor": actor,
        "visibility": visibility,
        "receipt": receipt,
    }
    return hashlib.sha256(canonical(body)).hexdigest()


def hash_of(entry: dict) -> str:
    return entry_hash(**{name: entry.get(name) for name in HASHED_FIELDS})


def is_rules_receipt(receipt: Any) -> bool:
    """Receipts of the rules engine name their system; the log's own payloads (reveal, …) do not."""
    return isinstance(receipt, dict) and isinstance(receipt.get("system"), str)


def verify_entries(
    entries: Iterable[tuple[int, Any]],
    verify_receipt: Callable[[dict], list[str]] | None = None,
    ledger: Any = None,
) -> tuple[list[str], dict[str, int]]:
    """Check a log given as (line number, parsed JSON) pairs, in file order.

    ``ledger``: an object whose ``check(entry)`` returns the problems of each readable entry in
    log order (``rollbook.server.ledger.AuthorityLedger``: asks, grants and the rolls made under
    them, SPEC A-2). Returns (problems, counts); each problem is one line such as
    ``entry 3: hash mismatch``.
    """
    problems: list[str] = []
    counts = {"entries": 0, "redacted": 0, "receipts": 0}
    previous: dict | None = None
    chronicle = None
    for line_number, entry in entries:
        if not isinstance(entry, dict):
            problems.append(f"line {line_number}: not a JSON object")
            continue
        seq = entry.get("seq")
        if isinstance(seq, bool) or not isinstance(seq, int):
            problems.append(f"line {line_number}: no entry number (seq)")
            continue
        label = f"entry {seq}"
        counts["entries"] += 1
        missing = [name for name in (*HASHED_FIELDS, "entry_hash") if name not in entry]
        if missing:
            problems.append(f"{label}: missing field(s) {', '.join(missing)}")
            previous = entry
            continue
        if chronicle is None:
            chronicle = entry["chronicle"]
        elif entry["chronicle"] != chronicle:
            problems.append(f"{label}: belongs to chronicle {entry['chronicle']}, not {chronicle}")

        expected_seq = 1 if previous is None else previous.get("seq", 0) + 1
        if seq != expected_seq:
            if previous is not None and seq <= previous.get("seq", 0):
                problems.append(f"{label}: out of order or repeated (after entry {previous.get('seq')})")
            elif previous is None:
                problems.append(f"{label}: entries 1 to {seq - 1} are missing")
            else:
                gap = f"entry {expected_seq}" if seq == expected_seq + 1 else f"entries {expected_seq} to {seq - 1}"
                problems.append(f"{label}: {gap} missing before it")
        expected_prev = GENESIS_HASH if previous is None and seq == 1 else (previous or {}).get("entry_hash")
        if expected_prev is not None and entry["prev_hash"] != expected_prev:
            problems.append(f"{label}: prev_hash does not match the entry before it")

        if entry.get("redacted"):
            counts["redacted"] += 1
        else:
            if hash_of(entry) != entry["entry_hash"]:
                problems.append(f"{label}: hash mismatch")
            receipt = entry["receipt"]
            if verify_receipt is not None and is_rules_receipt(receipt):
                counts["receipts"] += 1
                try:
                    found = verify_receipt(receipt)
                except Exception as error:  # a receipt the checker cannot even read is a problem too
                    found = [f"receipt cannot be checked ({type(error).__name__}: {error})"]
                problems.extend(f"{label}: {describe(problem)}" for problem in found)
            if ledger is not None:
                problems.extend(f"{label}: {problem}" for problem in ledger.check(entry))
        previous = entry
    return problems, counts


def describe(problem: str) -> str:
    """A receipt checker's code as a line a person reads (the code kept in brackets)."""
    if problem.startswith("result_mismatch"):
        return f"result differs from its faces ({problem})"
    if problem.startswith("pool_mismatch"):
        return f"pool differs from its traits ({problem})"
    return f"receipt does not check out ({problem})"


def read_jsonl(lines: Iterable[str]) -> Iterable[tuple[int, Any]]:
    """Parse JSON Lines, keeping line numbers; a line that is not JSON yields a marker string."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            yield number, json.loads(text)
        except json.JSONDecodeError:
            yield number, "<not JSON>"
