"""`rollbook odds <id> --chart FILE` for a system registered without a command of its own (as a
shipped system's): its outcomes drawn, one bar each (``odds.chart.outcomes_chart``), beside its table
or its JSON; a file that is neither .svg nor .png, or a request the roll refuses, is one line and
no file."""

from __future__ import annotations

import json

import pytest

from tests.in_process import run_here
from tests.toy_system import registered


@pytest.fixture()
def toy():
    with registered() as system:
        yield system


def test_a_registered_systems_odds_drawn(toy, monkeypatch, capsys, tmp_path):
    pytest.importorskip("matplotlib")
    picture = tmp_path / "toy.svg"
    drawn = run_here(monkeypatch, capsys, "odds", toy, "--pool", "3", "--chart", str(picture))
    assert drawn.returncode == 0, drawn.stderr
    assert "19/27" in drawn.stdout and "Chart written to" in drawn.stdout  # Rich wraps the path
    svg = picture.read_text(encoding="utf-8")
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert "success" in svg and "failure" in svg and "toy: {'pool': 3}" in svg  # its bars, its title

    png = tmp_path / "push.png"
    pushed = run_here(
        monkeypatch, capsys, "odds", toy, "--kind", "push", "--pool", "2", "--chart", str(png), "--json"
    )
    assert pushed.returncode == 0, pushed.stderr
    assert json.loads(pushed.stdout)["outcomes"] == {"success": "3/4", "failure": "1/4"}  # JSON alone
    assert png.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ("--pool", "3", "--chart", "toy.gif"),
            "rollbook: --chart needs a file name ending in .svg or .png, not toy.gif",
        ),
        (("--pool", "0", "--chart", "toy.svg"), "rollbook: pool must be between 1 and 30, not 0."),
    ],
)
def test_a_chart_refused_is_one_line_and_no_file(toy, monkeypatch, capsys, tmp_path, args, said):
    monkeypatch.chdir(tmp_path)
    refused = run_here(monkeypatch, capsys, "odds", toy, *args)
    assert refused.returncode == 2 and refused.stderr.strip() == said
    assert list(tmp_path.iterdir()) == []
