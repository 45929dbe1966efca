"""Differential test: `rollbook resolve` against an independent reference written from SPEC.md.

For each system, thousands of seeded request lines (random valid requests, edge cases and
refusals) are written to a temporary file and resolved by ONE run of the real CLI
(`python -m rollbook resolve FILE`). Every output line is compared with the reference
(tests/reference): a refusal must be `{"error": {"code": str, "message": str}}` with one of the codes
the reference's refusal names (the defect it found; rollbook's stable codes), otherwise every
minimum receipt field of SPEC's resolve contract must be equal. The exit status must be 1 when any
line failed, else 0.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import ERROR, resolve_text
from reference.generate import LINES, dumps

MAX_SHOWN = 40


def run_resolve(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "rollbook", "resolve", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def is_error_object(obj: object) -> bool:
    if not isinstance(obj, dict) or "error" not in obj:
        return False
    err = obj["error"]
    return isinstance(err, dict) and isinstance(err.get("code"), str) and isinstance(err.get("message"), str)


def compare(line: str, expected: dict | str, got: object) -> str | None:
    """None when the CLI's answer agrees with the reference, else a description of the difference."""
    if expected == ERROR:
        if not is_error_object(got):
            return "expected an error object"
        codes = getattr(expected, "codes", frozenset())
        if got["error"]["code"] not in codes:  # refused, but for another reason than the reference's
            return f"refused as {got['error']['code']!r}, expected one of {sorted(codes)}"
        return None
    if not isinstance(got, dict):
        return "expected a receipt object"
    if "error" in got:
        return "expected a receipt, got an error"
    wrong = [k for k, v in expected.items() if k not in got or got[k] != v or type(got[k]) is not type(v)]
    request = json.loads(line)
    if "id" in request and got.get("id") != request["id"]:
        wrong.append("id")
    if wrong:
        return "fields differ: " + ", ".join(wrong)
    return None


def report(rows: list[tuple[int, str, object, object, str]], total: int) -> str:
    lines = [f"{len(rows)} of {total} lines disagree with the reference:"]
    for number, line, expected, got, why in rows[:MAX_SHOWN]:
        shown_expected = dict(expected.items()) if isinstance(expected, dict) else expected
        lines.append(
            f"  line {number}: {why}\n    request:  {line}\n    expected: {shown_expected}\n    got:      {got}"
        )
    if len(rows) > MAX_SHOWN:
        lines.append(f"  … and {len(rows) - MAX_SHOWN} more")
    return "\n".join(lines)


@pytest.mark.parametrize("system", ["v20", "v5", "tiers", "rollunder"])
def test_resolve_agrees_with_reference(system: str, tmp_path: Path) -> None:
    lines = LINES[system]()
    expected = [resolve_text(line) for line in lines]
    assert expected[0] != ERROR, "the first line is a valid probe request"
    assert len(lines) >= 3000

    source = tmp_path / f"{system}.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = run_resolve([str(source)])
    out = done.stdout.splitlines()
    assert out, f"no output from rollbook resolve (exit {done.returncode}):\n{done.stderr[-3000:]}"

    first = json.loads(out[0])
    # The first line is a valid probe: an error here (e.g. unknown_system) is a failure, never a skip.
    assert not is_error_object(first), f"the probe request was refused: {first}"

    assert len(out) == len(lines), f"{len(lines)} lines in, {len(out)} lines out\n{done.stderr[-3000:]}"

    rows = []
    for number, (line, exp, text) in enumerate(zip(lines, expected, out), start=1):
        try:
            got: object = json.loads(text)
        except ValueError:
            got = f"<not JSON: {text!r}>"
        why = compare(line, exp, got)
        if why is not None:
            rows.append((number, line, exp, got, why))
    assert not rows, report(rows, len(lines))

    any_error = any(e == ERROR for e in expected)
    assert done.returncode == (1 if any_error else 0), (
        f"exit status {done.returncode}, expected {1 if any_error else 0}\n{done.stderr[-3000:]}"
    )


def test_exit_status_zero_when_every_line_resolves() -> None:
    """All-valid input read from standard input: one receipt per line, in order, exit status 0."""
    requests = [
        {"system": "v20", "faces": [6, 7, 1], "id": 1},
        {"system": "v20", "faces": []},
        {"system": "v5", "normal": [10, 3], "hunger": [10], "difficulty": 3, "id": "two"},
        {"system": "v5", "kind": "rouse", "normal": [4]},
    ]
    lines = [dumps(r) for r in requests]
    done = run_resolve([], stdin="\n".join(lines) + "\n")
    out = done.stdout.splitlines()
    assert len(out) == len(lines), done.stderr[-3000:]
    for line, text in zip(lines, out):
        assert compare(line, resolve_text(line), json.loads(text)) is None, (line, text)
    assert done.returncode == 0, done.stderr[-3000:]


def test_exit_status_one_when_a_line_fails() -> None:
    """A bad line in the middle yields its own error line and the rest continue (exit status 1)."""
    lines = [dumps({"system": "v20", "faces": [6]}), "not json", dumps({"system": "v20", "faces": [1]})]
    done = run_resolve([], stdin="\n".join(lines) + "\n")
    out = [json.loads(t) for t in done.stdout.splitlines()]
    assert len(out) == 3, done.stderr[-3000:]
    assert out[0].get("outcome") == "success"
    assert is_error_object(out[1])
    assert out[2].get("outcome") == "botch"
    assert done.returncode == 1
