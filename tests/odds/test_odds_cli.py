"""`rollbook odds` as a user meets it (SPEC "The odds contract"): JSON fractions, tables, charts, errors."""

from __future__ import annotations

import json
import sys
from fractions import Fraction

import pytest

from .cli import run


def contract(data, codes):
    """The odds contract: reduced p/q strings ("0", "1" alone) for exactly these codes, summing to 1."""
    assert set(data["outcomes"]) == set(codes)
    total = Fraction(0)
    for text in data["outcomes"].values():
        value = Fraction(text)
        assert text == (
            str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
        )
        total += value
    assert total == 1


V5_CODES = ("critical", "messy_critical", "success", "failure", "total_failure", "bestial_failure")


@pytest.mark.parametrize(
    "args,system,codes",
    [
        (["v20", "--pool", "5", "--difficulty", "6"], "v20", ("success", "failure", "botch")),
        (
            [
                "v20",
                "--pool",
                "7",
                "--difficulty",
                "10",
                "--required",
                "2",
                "--mode",
                "casual",
                "--untrained",
                "skill",
                "--willpower",
            ],
            "v20",
            ("success", "failure", "botch"),
        ),
        (["v20", "--pool", "4", "--specialty-rating", "5"], "v20", ("success", "failure", "botch")),
        (["v5", "--pool", "6", "--hunger", "2", "--difficulty", "3"], "v5", V5_CODES),
        (
            ["v5", "--pool", "6", "--hunger", "2", "--difficulty", "3", "--reroll", "avoid-messy"],
            "v5",
            V5_CODES,
        ),
        (
            [
                "v5",
                "--pool",
                "5",
                "--hunger",
                "3",
                "--difficulty",
                "3",
                "--reroll",
                "optimal",
                "--goal",
                "clean",
            ],
            "v5",
            V5_CODES,
        ),
        (["v5", "--kind", "rouse", "--hunger", "4"], "v5", ("success", "failure")),
        (
            [
                "v5",
                "--advise",
                "--normal",
                "8,2,10",
                "--hunger",
                "1,6,4",
                "--difficulty",
                "4",
                "--goal",
                "win",
            ],
            "v5",
            V5_CODES,
        ),
        (["tiers", "--skill", "5", "--bonus", "2", "--bullets", "3"], "tiers", ("success", "failure")),
        (
            ["tiers", "--kind", "soak", "--endurance", "3", "--armor", "1", "--attack-tier", "5"],
            "tiers",
            ("success", "failure"),
        ),
        (
            ["rollunder", "--level", "12", "--bonus", "1", "--malus", "3", "--advantage"],
            "rollunder",
            ("critical_success", "success", "failure", "critical_failure"),
        ),
        (
            ["rollunder", "--dice", "2d8+1d4", "--threshold", "9"],
            "rollunder",
            ("critical_success", "success", "failure", "critical_failure"),
        ),
    ],
)
def test_odds_contract_json(monkeypatch, capsys, args, system, codes):
    code, out, err = run(monkeypatch, capsys, *args, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["system"] == system
    contract(data, codes)


def test_odds_contract_v5_optimal_has_the_goal(monkeypatch, capsys):
    code, out, _ = run(
        monkeypatch,
        capsys,
        "v5",
        "--pool",
        "5",
        "--hunger",
        "2",
        "--difficulty",
        "3",
        "--reroll",
        "optimal",
        "--goal",
        "crit",
        "--json",
    )
    data = json.loads(out)
    goal = Fraction(data["goal"])
    assert goal == Fraction(data["outcomes"]["critical"]) + Fraction(data["outcomes"]["messy_critical"])


def test_V20_15_source_table_command(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, "v20", "--source-table")
    assert code == 0
    for row in ("92.0–96.8%", "0.0–0.7%", "74.0–84.4%", "2.1–6.1%", "39.8–49.4%", "16.0–17.0%"):
        assert row in out
    code, out, _ = run(monkeypatch, capsys, "v20", "--source-table", "--json")
    rows = json.loads(out)["source_table"]
    assert [r["botch"] for r in rows][-1] == "16.0–17.0%" and len(rows) == 7


def test_odds_tables_name_the_request(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, "v5", "--pool", "6", "--hunger", "2", "--difficulty", "3")
    assert code == 0
    assert "V5 odds: pool 6, Hunger 2" in out and "bestial failure" in out and "Margin" in out
    code, out, _ = run(monkeypatch, capsys, "v20", "--pool", "5", "--difficulty", "7")
    assert "V20 odds: pool 5, difficulty 7" in out and "phenomenal" in out


@pytest.mark.parametrize(
    "args,words",
    [
        (["v20", "--pool", "5", "--hunger", "2"], "--hunger does not apply to v20"),
        (["v20", "--pool", "5", "--difficulty", "11"], "difficulty"),
        (["v20", "--pool", "5", "--specialty-rating", "3"], "rated 3"),
        (["v20", "--pool", "51"], "pool"),
        (["v20"], "--pool"),
        (["v5", "--pool", "0"], "pool"),
        (["v5", "--pool", "3", "--hunger", "6"], "hunger"),
        (["v5", "--pool", "3", "--reroll", "all"], "--reroll"),
        (["v5", "--pool", "3", "--reroll", "optimal", "--goal", "glory"], "--goal"),
        (["v5", "--advise", "--normal", "8,x"], "--normal"),
        (["v5", "--advise", "--normal", "11", "--hunger", ""], "11"),
        (["tiers", "--skill", "5", "--level", "3"], "--level does not apply to tiers"),
        (["tiers", "--kind", "dodge", "--skill", "5"], "attack_tier"),
        (["rollunder", "--dice", "3x6", "--threshold", "4"], "3x6"),
        (["chess"], "unknown system"),
        (["v20", "--pool", "3", "--chart", "picture.gif"], ".svg or .png"),
        (["v20", "--pool", "3", "--chart", "/nonexistent/dir/x.svg"], "cannot write the chart"),
    ],
)
def test_odds_bad_input_is_one_line_and_status_2(monkeypatch, capsys, args, words):
    code, out, err = run(monkeypatch, capsys, *args)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and words in err


@pytest.mark.parametrize(
    "args,name",
    [
        (["v20", "--pool", "4"], "v20.svg"),
        (["v5", "--pool", "6", "--difficulty", "3"], "v5.png"),
        (["tiers", "--kind", "soak", "--endurance", "3", "--armor", "2", "--attack-tier", "6"], "soak.svg"),
        (["rollunder", "--dice", "3d6", "--threshold", "10"], "opposed.svg"),
    ],
)
def test_odds_chart_files(monkeypatch, capsys, tmp_path, args, name):
    path = tmp_path / name
    code, out, err = run(monkeypatch, capsys, *args, "--chart", str(path))
    assert code == 0, err
    data = path.read_bytes()
    assert (b"<svg" in data[:1000]) if name.endswith(".svg") else data.startswith(b"\x89PNG")


@pytest.mark.parametrize(
    "system,own,foreign",
    [
        (
            "v20",
            ("--pool", "--specialty-rating", "--source-table", "--chart-pools"),
            ("--hunger", "--skill", "--level"),
        ),
        (
            "v5",
            ("--hunger", "--reroll", "--advise", "--humanity"),
            ("--specialty-rating", "--bullets", "--threshold"),
        ),
        ("tiers", ("--skill", "--bullets", "--attack-tier", "--armor"), ("--pool", "--hunger", "--level")),
        (
            "rollunder",
            ("--level", "--advantage", "--dice", "--threshold"),
            ("--pool", "--skill", "--bullets"),
        ),
    ],
)
def test_each_system_is_a_sub_command_with_only_its_own_options(monkeypatch, capsys, system, own, foreign):
    code, out, _ = run(monkeypatch, capsys, system, "--help")
    assert code == 0
    assert all(option in out for option in (*own, "--chart", "--json")), out
    assert not any(option in out for option in foreign), out
    code, out, _ = run(monkeypatch, capsys, "--help")
    assert code == 0 and all(name in out for name in ("v20", "v5", "tiers", "rollunder"))


def test_chart_without_the_charts_extra_is_one_line_and_status_2(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if `pip install rollbook` without [charts]
    code, out, err = run(monkeypatch, capsys, "v20", "--pool", "4", "--chart", str(tmp_path / "v20.svg"))
    assert code == 2 and not (tmp_path / "v20.svg").exists()
    assert len(err.strip().splitlines()) == 1 and "pip install 'rollbook[charts]'" in err
