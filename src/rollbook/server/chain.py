"""The receipt log's hash chain: canonical form, entry hash, and the verifier.

Pure (standard library and pydantic-core, ``rollbook.play.quick`` for quick rolls + ``rollbook.play.verify_receipt`` passed in,
``rollbook.entries`` for the kinds and their receipts): ``rollbook log verify`` checks an exported JSON Lines
file with it, without a server or a database.

Each entry is hashed over the canonical JSON (sorted keys, compact separators, non-ASCII kept,
UTF-8) of exactly these fields::

    {"chronicle", "seq", "prev_hash", "created_at", "kind", "actor", "visibility", "receipt"}

and, since migration 0003_security, of the entry's three other exported fields too::

    {…, "character", "refers_to", "effects"}

so every field of an export line is covered by its hash. Entries written before (hashed over the
eight fields only: ``legacy``) still verify; their ``character``, ``refers_to`` and ``effects`` are
not covered, and the verifier counts them. A forger cannot pass a newer entry off as a legacy one:
its stored ``entry_hash`` is the hash of all eleven fields, which the eight alone do not give.

Entries written since redactions became checkable are hashed in two steps (``committed_hash``), so
that a redacted line can be checked too and a public entry cannot pose as a hidden one::

    content_hash = SHA-256 of {"actor", "receipt", "character", "refers_to", "effects"}
    entry_hash   = SHA-256 of {"chronicle", "seq", "prev_hash", "created_at", "kind", "visibility",
                               "content_hash", "prev_visibility"}

(the same canonical JSON; ``prev_visibility``: the visibility of the entry before it, null for seq 1).
A redacted line carries its ``content_hash``: its kind and visibility are covered by its hash, and
the next entry's hash says whether it was hidden. Older entries keep the hash they were written with.

``prev_hash`` of the first entry (seq 1) is 64 zeros; every later entry's ``prev_hash`` is the
``entry_hash`` of the entry before it. An export line carries these fields and ``entry_hash``, and
nothing else (any other field is a problem). A hidden entry exported for a player is *redacted*
(``"redacted": true``, ``actor``, ``receipt``, ``character``, ``refers_to`` null, ``effects``
empty): its link to its neighbours is still checked, its own hash cannot be.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from typing import Any, TypeGuard

from pydantic_core import from_json, to_json

from rollbook.entries import RECEIPTS, ExportLine, Logged, RulesReceipt, ValidationError, receipt_of
from rollbook.play.quick import verify_quick

GENESIS_HASH = "0" * 64
HASHED_FIELDS = ("chronicle", "seq", "prev_hash", "created_at", "kind", "actor", "visibility", "receipt")
EXTRA_FIELDS = ("character", "refers_to", "effects")  # hashed too since 0003_security
CONTENT_FIELDS = ("actor", "receipt", "character", "refers_to", "effects")  # what a redaction hides
HEADER_FIELDS = ("chronicle", "seq", "prev_hash", "created_at", "kind", "visibility")  # what it shows
EXPORTED_FIELDS = frozenset((*HASHED_FIELDS, *EXTRA_FIELDS, "entry_hash", "redacted", "content_hash"))
VISIBILITIES = ("public", "hidden")
_LEGACY: Any = object()


# One encoder for every hash: ``json.dumps`` with these options builds a new one per call.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical(value: Any) -> bytes:
    """The canonical JSON form: sort_keys, compact separators, ensure_ascii=False, UTF-8."""
    return _CANONICAL.encode(value).encode("utf-8")


def plain(value: Any) -> Any:
    """A value as the JSON it will be stored as (tuples become lists, keys become strings), through
    pydantic-core's serializer and parser, the fastest round trip at hand (a roll makes several;
    bench/README.md has the figures). Not the hash's form: that is ``canonical``."""
    return from_json(to_json(value))


def entry_hash(
    *,
    chronicle: int,
    seq: int,
    prev_hash: str,
    created_at: str,
    kind: str,
    actor: Any,
    visibility: str,
    receipt: Any,
    character: Any = _LEGACY,
    refers_to: Any = _LEGACY,
    effects: Any = _LEGACY,
) -> str:
    """SHA-256 of the canonical JSON of the entry's fields: the eight, and ``character``,
    ``refers_to``, ``effects`` when given (every entry the server writes; without them: a legacy hash)."""
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
    extras = {"character": character, "refers_to": refers_to, "effects": effects}
    if any(value is not _LEGACY for value in extras.values()):
        if any(value is _LEGACY for value in extras.values()):
            raise TypeError("entry_hash: character, refers_to and effects go together")
        body.update(extras)
    return hashlib.sha256(canonical(body)).hexdigest()


def hash_of(entry: dict) -> str:
    """The hash of an entry (an export line): of all eleven fields when it has them."""
    if all(name in entry for name in EXTRA_FIELDS):
        # an export line's JSON values, hashed as they are (a malformed line's hash does not match)
        fields: dict[str, Any] = {name: entry.get(name) for name in (*HASHED_FIELDS, *EXTRA_FIELDS)}
        return entry_hash(**fields)
    return legacy_hash_of(entry)


def legacy_hash_of(entry: dict) -> str:
    """The hash over the eight fields only (entries written before 0003_security)."""
    fields: dict[str, Any] = {name: entry.get(name) for name in HASHED_FIELDS}  # as in ``hash_of``
    return entry_hash(**fields)


def content_hash(entry: Any) -> str:
    """SHA-256 of the canonical JSON of what a redaction hides (``CONTENT_FIELDS``), read from a
    dict or from an object's attributes (a stored entry: ``character_id``)."""
    if isinstance(entry, dict):
        content = {name: entry.get(name) for name in CONTENT_FIELDS}
    else:
        content = {
            "actor": entry.actor,
            "receipt": entry.receipt,
            "character": entry.character_id,
            "refers_to": entry.refers_to,
            "effects": entry.effects or [],
        }
    return hashlib.sha256(canonical(content)).hexdigest()


def committed_hash(
    *,
    chronicle: Any,
    seq: Any,
    prev_hash: Any,
    created_at: Any,
    kind: Any,
    visibility: Any,
    content_hash: Any,
    prev_visibility: Any,
) -> str:
    """The entry hash of the entries written since redactions became checkable (module docstring)."""
    header = {
        "chronicle": chronicle,
        "seq": seq,
        "prev_hash": prev_hash,
        "created_at": created_at,
        "kind": kind,
        "visibility": visibility,
        "content_hash": content_hash,
        "prev_visibility": prev_visibility,
    }
    return hashlib.sha256(canonical(header)).hexdigest()


def committed_hash_of(entry: dict, prev_visibility: Any, content: Any = None) -> str:
    """``committed_hash`` of an export line (``content``: its content hash, computed from the line
    unless given, as for a redacted line)."""
    header = {name: entry.get(name) for name in HEADER_FIELDS}
    return committed_hash(
        **header,
        content_hash=content_hash(entry) if content is None else content,
        prev_visibility=prev_visibility,
    )


def redaction_of(entry: Any) -> str | None:
    """The content hash a redacted view of a stored entry carries: None for an entry hashed before
    redactions became checkable (its hash is not ``committed_hash``, whatever came before it)."""
    content = content_hash(entry)
    for prev_visibility in (*VISIBILITIES, None):
        digest = committed_hash(
            chronicle=entry.chronicle_id,
            seq=entry.seq,
            prev_hash=entry.prev_hash,
            created_at=entry.created_at,
            kind=entry.kind,
            visibility=entry.visibility,
            content_hash=content,
            prev_visibility=prev_visibility,
        )
        if digest == entry.entry_hash:
            return content
    return None


QUICK_ROLL = "quick_roll"  # dice without a sheet: the rules receipt under "result" (rollbook.play.quick)


def is_rules_receipt(receipt: Any) -> TypeGuard[dict[str, Any]]:
    """Receipts of the rules engine name their system (``entries.RulesReceipt``); the log's own
    payloads (reveal, …) do not."""
    try:
        RulesReceipt.of(receipt)
    except ValidationError:
        return False
    return True


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
    counts = {"entries": 0, "redacted": 0, "receipts": 0, "legacy": 0}
    previous: dict | None = None
    chronicle = None
    committed_since: int | None = None  # the first entry hashed with its content hash (``committed_hash``)
    for line_number, entry in entries:
        if not isinstance(entry, dict):
            problems.append(f"line {line_number}: not a JSON object")
            continue
        try:
            line = ExportLine.of(entry)
        except ValidationError:  # no seq, or not an integer
            problems.append(f"line {line_number}: no entry number (seq)")
            continue
        seq = line.seq
        label = f"entry {seq}"
        counts["entries"] += 1
        missing = [name for name in (*HASHED_FIELDS, "entry_hash") if name not in entry]
        if missing:
            problems.append(
                f"{label}: missing {'field' if len(missing) == 1 else 'fields'} {', '.join(missing)}"
            )
            previous = entry
            continue
        header = {name: entry[name] for name in HEADER_FIELDS}  # present: checked just above
        if chronicle is None:
            chronicle = header["chronicle"]
        elif header["chronicle"] != chronicle:
            problems.append(f"{label}: belongs to chronicle {header['chronicle']}, not {chronicle}")

        expected_seq = 1 if previous is None else previous.get("seq", 0) + 1
        if seq != expected_seq:
            if previous is not None and seq <= previous.get("seq", 0):
                problems.append(f"{label}: out of order or repeated (after entry {previous.get('seq')})")
            elif previous is None:
                problems.append(f"{label}: entries 1 to {seq - 1} are missing")
            else:
                gap = (
                    f"entry {expected_seq}"
                    if seq == expected_seq + 1
                    else f"entries {expected_seq} to {seq - 1}"
                )
                problems.append(f"{label}: {gap} missing before it")
        expected_prev = GENESIS_HASH if previous is None and seq == 1 else (previous or {}).get("entry_hash")
        if expected_prev is not None and header["prev_hash"] != expected_prev:
            problems.append(f"{label}: prev_hash does not match the entry before it")

        unknown = sorted(str(name) for name in entry if name not in EXPORTED_FIELDS)
        if unknown:
            fields = "field" if len(unknown) == 1 else "fields"
            problems.append(f"{label}: unexpected {fields} {', '.join(unknown)} (not covered by the hash)")
        redacted = bool(line.redacted)
        committed = _committed(entry, line, previous, redacted)
        if committed is True:
            committed_since = seq if committed_since is None else committed_since
        elif isinstance(committed, str):
            problems.append(committed)
        if redacted:
            counts["redacted"] += 1
            if line.redacted is not True or any(
                entry.get(name) not in (None, []) for name in ("actor", "receipt", *EXTRA_FIELDS)
            ):
                problems.append(
                    f"{label}: a redacted entry that shows content (only its hashes are exported)"
                )
            if header["visibility"] != "hidden":
                problems.append(f"{label}: a redacted entry that is not hidden")
            if committed is None and "content_hash" in entry:
                problems.append(f"{label}: hash mismatch")
            elif committed is None and committed_since is not None:
                problems.append(
                    f"{label}: a redaction without its content hash, after entry {committed_since} "
                    "(hashed with its own)"
                )
        else:
            if committed is None and hash_of(entry) != line.entry_hash:
                if legacy_hash_of(entry) == line.entry_hash:
                    counts["legacy"] += 1
                else:
                    problems.append(f"{label}: hash mismatch")
            receipt = line.stored
            problems.extend(
                f"{label}: {problem}"
                for problem in header_problems(entry) + kind_problems(header["kind"], receipt)
            )
            if verify_receipt is not None and (is_rules_receipt(receipt) or header["kind"] == QUICK_ROLL):
                counts["receipts"] += 1
                try:
                    found = verify_quick(receipt) if header["kind"] == QUICK_ROLL else verify_receipt(receipt)
                except Exception as error:  # a receipt the checker cannot even read is a problem too
                    found = [f"receipt cannot be checked ({type(error).__name__}: {error})"]
                problems.extend(f"{label}: {describe(problem)}" for problem in found)
            if ledger is not None:
                problems.extend(f"{label}: {problem}" for problem in ledger.check(entry))
        previous = entry
    return problems, counts


def header_problems(entry: dict) -> list[str]:
    """The fields an entry's readers read (``rollbook.entries.Logged``: its actor, character, effects …)
    are of their JSON types (the ledgers skip an entry that is not, so it is a problem here)."""
    try:
        Logged.of(entry)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "entry"
        return [f"not a log entry ({where}: {first['msg']})"]
    return []


def kind_problems(kind: Any, receipt: Any) -> list[str]:
    """An entry's kind is one of the log's (``rollbook.entries.KINDS``) and its receipt is of that kind."""
    if not isinstance(kind, str) or kind not in RECEIPTS:
        return [f"unknown kind {kind!r}"]
    try:
        receipt_of(kind, receipt)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "receipt"
        return [f"not a {kind} receipt ({where}: {first['msg']})"]
    return []


def _committed(entry: dict, line: ExportLine, previous: dict | None, redacted: bool) -> bool | str | None:
    """Whether the line's hash is its ``committed_hash``: True; a problem when it is only with the
    entry before it of the other visibility (that entry posed as what it is not); None otherwise."""
    seq = line.seq
    if redacted and not isinstance(line.content_hash, str):
        return None
    content = line.content_hash if redacted else content_hash(entry)
    follows = previous is not None and previous.get("seq") == seq - 1
    if previous is None or not follows:
        told: tuple = (None,) if seq == 1 else (*VISIBILITIES, None)  # an entry before it is missing
    else:
        told = (previous.get("visibility"),)
    if any(committed_hash_of(entry, visibility, content) == line.entry_hash for visibility in told):
        return True
    if previous is not None and follows:
        for visibility in VISIBILITIES:
            if visibility not in told and committed_hash_of(entry, visibility, content) == line.entry_hash:
                return (
                    f"entry {previous['seq']}: exported as {previous.get('visibility')}, but entry {seq} "
                    f"records it {visibility}"
                )
    return None


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
