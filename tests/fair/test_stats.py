"""Dice statistics: the chi-square survival function, the counts of each
face per die size and per member from an export (each die once; hidden rolls a player's export does
not show are not counted), and `rollbook fair stats EXPORT` (real subprocesses)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rollbook.fair import check_log
from rollbook.fair.stats import (
    FAIR,
    TOO_FEW,
    UNUSUAL_READING,
    VERY_UNUSUAL_READING,
    chi_square_sf,
    face_stats,
    tally,
)
from rollbook.render.fair_stats import reading, rows
from tests.fair.logs import a_whole_evening, redacted

# Critical values of the chi-square distribution at 5 % and 1 % (any statistics table).
CRITICAL = [
    (1, 3.841459, 0.05),
    (1, 6.634897, 0.01),
    (2, 5.991465, 0.05),
    (3, 11.344867, 0.01),
    (5, 11.070498, 0.05),
    (9, 16.918978, 0.05),
    (9, 21.665994, 0.01),
    (19, 30.143527, 0.05),
    (19, 36.190869, 0.01),
]


@pytest.mark.parametrize(("dof", "x", "p"), CRITICAL)
def test_the_survival_function_matches_the_tables(dof, x, p):
    assert chi_square_sf(x, dof) == pytest.approx(p, rel=1e-5)


def _series_sf(x: float, dof: int) -> float:
    """Q(a, h) = 1 - P(a, h), P by its power series (slow, independent of the closed forms)."""
    a, h = dof / 2, x / 2
    term = total = 1 / a
    n = 1
    while term > 1e-18 * total:
        term *= h / (a + n)
        total += term
        n += 1
    return 1 - math.exp(-h + a * math.log(h) - math.lgamma(a)) * total


@given(st.integers(1, 40), st.floats(0.01, 80))
def test_the_closed_forms_agree_with_the_series(dof, x):
    assert chi_square_sf(x, dof) == pytest.approx(_series_sf(x, dof), abs=1e-9)


def test_the_survival_function_edges():
    assert chi_square_sf(0, 9) == 1.0 and chi_square_sf(-1, 3) == 1.0
    assert chi_square_sf(1e4, 19) == pytest.approx(0.0, abs=1e-300)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError):
            chi_square_sf(1.0, bad)


def test_face_stats_readings():
    even = face_stats(10, [10] * 10)
    assert (even.total, even.expected, even.chi_square, even.p_value, even.reading) == (100, 10, 0, 1.0, FAIR)
    loaded = face_stats(10, [25, 5, 5, 5, 10, 10, 10, 10, 10, 10])  # χ² = 22.5 + 3 × 2.5 = 30
    assert loaded.chi_square == pytest.approx(30) and loaded.reading == VERY_UNUSUAL_READING
    assert loaded.p_value == pytest.approx(chi_square_sf(30, 9))
    odd = face_stats(6, {1: 14, 2: 5, 3: 10, 4: 10, 5: 10, 6: 11})  # χ² = 1.6 + 2.5 + 0.1 = 4.2: fair
    assert odd.reading == FAIR
    unusual = face_stats(6, [18, 5, 10, 10, 10, 7])  # χ² = 6.4 + 2.5 + 0.9 = 9.8 → p ≈ 8 %: fair
    assert unusual.reading == FAIR
    tilted = face_stats(6, [20, 5, 10, 10, 10, 5])  # χ² = 10 + 2.5 + 2.5 = 15 → p ≈ 1.0 %: unusual
    assert tilted.reading == UNUSUAL_READING and 0.01 < tilted.p_value < 0.05
    few = face_stats(10, [1, 0, 0, 2, 0, 0, 0, 0, 0, 1])
    assert few.reading == TOO_FEW and few.p_value is not None
    assert face_stats(10, {}).p_value is None
    assert "50 d10" in reading(few, "en") and "50 d10" in reading(few, "fr")
    assert "100,0" in reading(even, "fr") and "100.0%" in reading(even, "en")


def test_an_export_counts_every_die_once_per_member():
    entries = a_whole_evening().entries
    counted = tally(entries)
    report = check_log(entries)
    # every draw check_log reads (a follow-up's own draw only) is counted, die by die
    assert sum(sum(c.values()) for c in counted.table.values()) == sum(len(d.faces) for d in report.draws)
    assert counted.rolls == 11
    per_member = {m: sum(sum(c.values()) for c in sizes.values()) for m, sizes in counted.members.items()}
    assert sum(per_member.values()) == sum(sum(c.values()) for c in counted.table.values())
    for sides, faces in counted.table.items():
        assert all(1 <= face <= sides for face in faces)


def test_hidden_rolls_a_player_may_not_see_are_not_counted():
    entries = a_whole_evening().entries
    rolls = [e["seq"] for e in entries if e["kind"] == "roll"]
    whole = tally(entries)
    player = tally(redacted(entries, {rolls[0]}))
    first = next(e for e in entries if e["seq"] == rolls[0])
    assert player.rolls == whole.rolls - 1
    lost = sum(len(d.faces) for d in check_log([first]).draws) or len(first["receipt"]["faces"])
    assert (
        sum(sum(c.values()) for c in player.table.values())
        == sum(sum(c.values()) for c in whole.table.values()) - lost
    )


def test_rows_put_the_table_first_then_members_by_name():
    found = rows(tally(a_whole_evening().entries), "es")
    assert found[0].who == "Toda la mesa"
    whos = [r.who for r in found]
    assert whos.index("m1") < whos.index("m2") < whos.index("m3")


def run(*args, stdin=None, lang="en"):
    env = {**os.environ, "ROLLBOOK_LANG": lang, "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "rollbook", "fair", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_fair_stats_prints_the_table_from_an_export(tmp_path):
    export = tmp_path / "chronicle.jsonl"
    export.write_text("".join(json.dumps(e) + "\n" for e in a_whole_evening().entries))
    done = run("stats", str(export), "--lang", "fr")
    assert done.returncode == 0, done.stderr
    assert "Statistiques des dés" in done.stdout and "Toute la table" in done.stdout and "d10" in done.stdout
    as_json = run("stats", str(export), "--json")
    lines = [json.loads(line) for line in as_json.stdout.splitlines()]
    counted = tally(a_whole_evening().entries)
    assert [(x["who"], x["sides"]) for x in lines][0] == ("Whole table", 6)
    d10 = next(x for x in lines if x["who"] == "Whole table" and x["sides"] == 10)
    assert d10["counts"] == [counted.table[10].get(f, 0) for f in range(1, 11)]


def test_fair_stats_refuses_a_bad_file_in_one_line(tmp_path):
    missing = run("stats", str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "Traceback" not in missing.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"seq": 1}\nnot json\n')
    broken = run("stats", str(bad))
    assert broken.returncode == 2 and "line 2" in broken.stderr and "Traceback" not in broken.stderr
