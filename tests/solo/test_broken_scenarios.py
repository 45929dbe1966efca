"""`rollbook scenario check` on the broken scenarios of ``tests/solo/broken/`` (SPEC S-4), one fault
per file, and on the sample scenario (S-6): each fault found with its place (a YAML path and its
line), exit 1; the sample clean, exit 0."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rollbook.solo.check import check_text
from tests.in_process import run_here

BROKEN = Path(__file__).parent / "broken"
SAMPLE = Path(__file__).parents[2] / "src" / "rollbook" / "solo" / "scenarios" / "drowned-lantern.yaml"

# file -> (code, place): the place each file's header comment names
FAULTS = {
    "dangling_link": ("dangling_link", "passages.quay.choices.2.goto"),
    "unreachable_passage": ("unreachable_passage", "passages.attic"),
    "unknown_trait": ("unknown_trait", "passages.sneak.check.traits"),
    "missing_language": ("missing_language", "passages.knife.text"),
    "fight_no_way_out": ("fight_no_way_out", "passages.knife"),
}


def test_one_broken_scenario_per_fault_of_s4():
    assert sorted(path.stem for path in BROKEN.glob("*.yaml")) == sorted(FAULTS)


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_each_fault_is_found_at_its_place_s4(name):
    text = (BROKEN / f"{name}.yaml").read_text(encoding="utf-8")
    found = check_text(text).faults
    code, place = FAULTS[name]
    assert (found[0].code, found[0].path) == (code, place)
    assert found[0].line and place in text.splitlines()[1]  # the header names the place
    # one fault per file (a fight with no way out also leaves its loop with no way out)
    assert all(fault.code in (code, "no_way_out") for fault in found)


def run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "ROLLBOOK_LANG": "en"}
    return subprocess.run(
        [sys.executable, "-m", "rollbook", *args], capture_output=True, text=True, env=env, timeout=60
    )


def test_the_command_line_names_each_place_and_exits_1(monkeypatch, capsys):
    """In this process (tests/in_process.py); the command as a process is run on the sample below."""
    for name, (_code, place) in FAULTS.items():
        done = run_here(monkeypatch, capsys, "scenario", "check", str(BROKEN / f"{name}.yaml"))
        assert done.returncode == 1, (name, done.stdout, done.stderr)
        assert place in done.stdout and "line " in done.stdout and not done.stderr


def test_the_sample_scenario_checks_clean_s6():
    assert check_text(SAMPLE.read_text(encoding="utf-8")).faults == ()
    done = run("scenario", "check", str(SAMPLE))
    assert done.returncode == 0 and "drowned-lantern" in done.stdout
