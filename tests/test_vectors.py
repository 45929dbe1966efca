"""Published test vectors of established V5 and V20 dice bots (and the seeds' worked examples),
transcribed into resolve-contract requests, run through `rollbook resolve`.

Each line of tests/vectors/*.jsonl is a contract request plus:
- "expect": receipt fields and their values, or {"error": CODE} for a refusal (its stable code);
- "source": the repository, file and test the case comes from;
- optionally "spec_differs" (the bot's own answer differs from SPEC.md, which is binding: the
  expectation is SPEC's answer, and the text says what the bot does) and "note".
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import ERROR, resolve_request

VECTORS = Path(__file__).resolve().parent / "vectors"
META = ("expect", "source", "spec_differs", "note")
FILES = sorted(p.name for p in VECTORS.glob("*.jsonl"))


def load(name: str) -> list[dict]:
    rows = []
    for text in (VECTORS / name).read_text(encoding="utf-8").splitlines():
        if text.strip():
            rows.append(json.loads(text))
    return rows


def request_of(row: dict) -> dict:
    return {k: v for k, v in row.items() if k not in META}


def mismatch(expect: dict, got: object, *, code: bool = True) -> str | None:
    """None when ``got`` is what ``expect`` says; a refusal must carry the expected code (``code``:
    the reference, written from SPEC.md, refuses without naming one)."""
    if "error" in expect:
        if not (
            isinstance(got, dict)
            and isinstance(got.get("error"), dict)
            and isinstance(got["error"].get("code"), str)
        ):
            return "expected a refusal"
        if code and got["error"]["code"] != expect["error"]:
            return f"expected the refusal {expect['error']!r}, got {got['error']['code']!r}"
        return None
    if not isinstance(got, dict) or "error" in got:
        return "expected a receipt"
    wrong = [k for k, v in expect.items() if k not in got or got[k] != v or type(got[k]) is not type(v)]
    return ("fields differ: " + ", ".join(wrong)) if wrong else None


def test_vector_files_are_well_formed() -> None:
    assert {"v20_bots.jsonl", "v5_bots.jsonl"} <= set(FILES)
    for name in FILES:
        for row in load(name):
            assert isinstance(row.get("expect"), dict) and row["expect"], row
            if "error" in row["expect"]:  # a refusal names its code, and nothing else
                assert row["expect"].keys() == {"error"} and isinstance(row["expect"]["error"], str), row
            assert isinstance(row.get("source"), str) and row["source"], row
            assert row.get("system") in ("v20", "v5", "tiers", "rollunder"), row


@pytest.mark.parametrize("name", FILES)
def test_reference_agrees_with_vectors(name: str) -> None:
    """The independent reference gives every expectation (checks the transcription, no CLI needed)."""
    bad = []
    for row in load(name):
        answer = resolve_request(request_of(row))
        got = {"error": {"code": "reference", "message": ""}} if answer == ERROR else answer
        why = mismatch(row["expect"], got, code=False)
        if why:
            bad.append(f"{row['source']}: {why}; got {got}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("name", FILES)
def test_rollbook_resolve_matches_vectors(name: str, tmp_path: Path) -> None:
    rows = load(name)
    source = tmp_path / name
    source.write_text("".join(json.dumps(request_of(r)) + "\n" for r in rows), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "rollbook", "resolve", str(source)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = done.stdout.splitlines()
    assert len(out) == len(rows), (
        f"{len(rows)} lines in, {len(out)} out (exit {done.returncode})\n{done.stderr[-3000:]}"
    )
    bad = []
    for row, text in zip(rows, out):
        got = json.loads(text)
        why = mismatch(row["expect"], got)
        if why:
            bad.append(
                f"{row['source']}\n    request:  {json.dumps(request_of(row))}\n    expected: {row['expect']}\n    got:      {got}\n    ({why})"
            )
    assert not bad, f"{len(bad)} of {len(rows)} vectors fail:\n" + "\n".join(bad)
    any_refusal = any("error" in r["expect"] for r in rows)
    assert done.returncode == (1 if any_refusal else 0)
