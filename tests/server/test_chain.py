"""The hash chain's canonical form and verifier, without a database."""

from __future__ import annotations

import hashlib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook.server.chain import GENESIS_HASH, canonical, entry_hash, hash_of, plain, verify_entries


def _chain(n: int, chronicle: int = 7, visibility: dict[int, str] | None = None) -> list[dict]:
    entries, prev = [], GENESIS_HASH
    for seq in range(1, n + 1):
        entry = {
            "chronicle": chronicle,
            "seq": seq,
            "prev_hash": prev,
            "created_at": f"2025-01-01T00:00:0{seq}.000000Z",
            "kind": "adjust",
            "actor": {"member": 1, "name": "Éloïse", "role": "storyteller", "character": 2},
            "visibility": (visibility or {}).get(seq, "public"),
            "receipt": {"change": {"kind": "award_experience", "amount": seq}},
        }
        entry["entry_hash"] = hash_of(entry)
        prev = entry["entry_hash"]
        entries.append(entry)
    return entries


def test_canonical_form_is_sorted_compact_utf8():
    assert (
        canonical({"b": 1, "a": "é", "c": [1, {"z": 0, "y": None}]})
        == '{"a":"é","b":1,"c":[1,{"y":null,"z":0}]}'.encode()
    )


def test_entry_hash_is_sha256_of_the_canonical_listed_fields():
    fields = {
        "chronicle": 1,
        "seq": 1,
        "prev_hash": GENESIS_HASH,
        "created_at": "2025-01-01T00:00:00.000000Z",
        "kind": "roll",
        "actor": {"member": 1},
        "visibility": "public",
        "receipt": {"system": "v20"},
    }
    expected = hashlib.sha256(
        json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    ).hexdigest()
    assert entry_hash(**fields) == expected


def test_clean_chain_has_no_problem():
    entries = _chain(4)
    problems, counts = verify_entries(enumerate(entries, 1))
    assert problems == [] and counts["entries"] == 4


def test_an_edited_entry_is_a_hash_mismatch():
    entries = _chain(4)
    entries[2]["receipt"]["change"]["amount"] = 99
    problems, _ = verify_entries(enumerate(entries, 1))
    assert problems == ["entry 3: hash mismatch"]


def test_a_rehashed_edit_breaks_the_next_link():
    entries = _chain(4)
    entries[1]["receipt"]["change"]["amount"] = 99
    entries[1]["entry_hash"] = hash_of(entries[1])
    problems, _ = verify_entries(enumerate(entries, 1))
    assert problems == ["entry 3: prev_hash does not match the entry before it"]


def test_a_deleted_entry_is_a_gap():
    entries = _chain(5)
    del entries[2]
    problems, _ = verify_entries(enumerate(entries, 1))
    assert "entry 4: entry 3 missing before it" in problems
    assert "entry 4: prev_hash does not match the entry before it" in problems


def test_reordered_entries_and_other_chronicles_are_caught():
    entries = _chain(3)
    entries[1], entries[2] = entries[2], entries[1]
    problems, _ = verify_entries(enumerate(entries, 1))
    assert any("out of order" in p for p in problems)
    mixed = _chain(2) + _chain(3, chronicle=8)[2:]
    problems, _ = verify_entries(enumerate(mixed, 1))
    assert any("belongs to chronicle 8" in p for p in problems)


def test_redacted_entries_keep_their_links_checked():
    entries = _chain(3, visibility={2: "hidden"})
    entries[1].update(actor=None, receipt=None, redacted=True)
    problems, counts = verify_entries(enumerate(entries, 1))
    assert problems == [] and counts["redacted"] == 1
    entries[1]["visibility"] = "public"  # a redaction of what it says was public
    problems, _ = verify_entries(enumerate(entries, 1))
    assert problems == ["entry 2: a redacted entry that is not hidden"]


def test_receipts_are_recomputed_by_the_given_checker():
    entries = _chain(2)
    entries[1]["receipt"] = {"system": "v20", "faces": [1]}
    entries[1]["entry_hash"] = hash_of(entries[1])
    problems, counts = verify_entries(enumerate(entries, 1), lambda receipt: ["result_mismatch:successes"])
    assert problems == ["entry 2: result differs from its faces (result_mismatch:successes)"]
    assert counts["receipts"] == 1


_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
_keys = st.text(max_size=6) | st.integers(-1000, 1000) | st.booleans()
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.dictionaries(_keys, inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300)
@given(_values)
def test_plain_is_what_the_json_round_trip_gives(value):
    """``plain`` (pydantic-core) gives what ``json.loads(json.dumps(...))`` gave: tuples as
    lists, keys as strings, every number as it was; the stored and hashed forms are built from it."""
    expected = json.loads(json.dumps(value, ensure_ascii=False))
    assert plain(value) == expected
    assert canonical(plain(value)) == canonical(expected)
