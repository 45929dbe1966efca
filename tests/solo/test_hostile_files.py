"""SPEC S-9: the loader reads plain YAML within bounds — a hostile file is refused promptly (never a
hang, never code run) with one line in the reader's language, exit 2 at the CLI; a syntax slip is
said in every language and placed at the line at fault."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from rollbook.solo.check import check_text
from rollbook.solo.load import MAX_BYTES, MAX_DEPTH, MAX_NODES, Unreadable
from rollbook.solo.text import fault_line
from tests.in_process import run_here

TINY = (Path(__file__).parent / "data" / "tiny.yaml").read_text(encoding="utf-8")


def billion_laughs() -> str:
    """The classic 493-byte shape: nine levels of nine aliases (9⁹ strings once expanded)."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for before, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [{','.join(['*' + before] * 9)}]")
    return "\n".join(lines) + "\n"


def refused(text: str | bytes) -> Unreadable:
    began = time.monotonic()
    with pytest.raises(Unreadable) as caught:
        check_text(text)
    assert time.monotonic() - began < 10  # promptly: the bounds act before any expansion
    return caught.value


def test_S_9_a_billion_laughs_is_refused_before_it_is_expanded():
    text = billion_laughs()
    assert len(text.encode()) < 600
    assert refused(text).code == "scenario_too_many_values"
    assert refused(text).params == {"most": MAX_NODES}


def test_S_9_an_alias_inside_itself_is_refused():
    assert refused("a: &a [*a]\n").code == "scenario_too_deep"


def test_S_9_a_thousand_nested_brackets_are_refused_not_a_traceback():
    error = refused("a: " + "[" * 1000 + "]" * 1000 + "\n")
    assert error.code == "scenario_too_deep" and error.params == {"most": MAX_DEPTH, "line": 1}


def test_S_9_aliases_cannot_nest_deeper_than_the_bound_either():
    lines, previous = [], "x"
    for index in range(6):  # each level 10 deep, each holding the one before: 60 deep once expanded
        name = f"l{index}"
        lines.append(f"{name}: &{name} " + "[" * 10 + (f"*{previous}" if index else "1") + "]" * 10)
        previous = name
    assert refused("\n".join(lines) + "\n").code == "scenario_too_deep"


def test_S_9_a_file_above_the_size_cap_is_refused_at_once():
    big = TINY + "# " + "x" * MAX_BYTES + "\n"
    assert refused(big).code == "scenario_too_big"


def test_S_9_a_file_at_the_size_cap_is_checked_promptly():
    """A scenario just under the cap (a thousand checks in a chain) is checked in seconds, not a minute."""
    parts = [TINY.replace("goto: brawl\n", "goto: p0\n", 1)]
    index = 0
    while sum(map(len, parts)) < MAX_BYTES - 400:
        parts.append(
            f"  p{index}:\n    text: {{fr: Rue {index}., es: Calle {index}., en: Street {index}.}}\n"
            f"    check:\n      traits: [manipulation, subterfuge]\n"
            f"      outcomes: {{botch: p{index + 1}, failure: p{index + 1}, success: p{index + 1}}}\n"
        )
        index += 1
    parts.append(
        f"  p{index}:\n    text: {{fr: a, es: b, en: c}}\n    fight: {{npcs: [thug], win: home, lose: gutter}}\n"
    )
    text = "".join(parts)
    assert len(text.encode()) <= MAX_BYTES
    began = time.monotonic()
    report = check_text(text)
    assert report.faults == () and time.monotonic() - began < 30


@pytest.mark.parametrize("tag", ["!!python/object/apply:os.system ['echo hi']", "!!binary aGk=", "!local x"])
def test_S_9_tags_are_refused(tag):
    error = refused(f"id: x\nsystem: {tag}\n")
    assert error.code == "scenario_yaml_tag" and error.params["line"] == 2


def test_S_9_an_indentation_slip_is_placed_at_its_line():
    """``text:`` one space short on line 20: PyYAML notices only at ``choices:``, line 24."""
    lines = TINY.splitlines()
    assert lines[19] == "    text:"
    lines[19] = "   text:"
    error = refused("\n".join(lines) + "\n")
    assert error.code == "yaml_indentation" and error.params["line"] == 20
    lines = TINY.splitlines()
    lines[18] = "   alley:"  # one space too many: the passages after it are the right ones
    assert refused("\n".join(lines) + "\n").params["line"] == 19


def test_S_9_yaml_and_format_faults_are_said_in_the_readers_language():
    error = refused(TINY.replace("    text:\n      fr: Un", "\ttext:\n      fr: Un"))
    assert error.code == "yaml_tab"
    faults = check_text(
        TINY.replace("difficulty: 7", "difficulty: 12").replace("kind: dark", "kind: grim")
    ).faults
    assert [f.code for f in faults] == ["out_of_range", "value_not_one_of"]
    fr = [fault_line(fault, "fr") for fault in faults]
    assert "difficulty" in fr[0] and "10" in fr[0] and "12" in fr[0]
    assert "grim n’est pas l’une des valeurs good, bitter, dark" in fr[1]
    for lang in ("fr", "es"):
        for fault in faults:
            line = fault_line(fault, lang)
            assert "Input should" not in line and "less than" not in line, line


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_S_9_the_cli_refuses_a_hostile_file_in_one_line_exit_2(tmp_path, monkeypatch, capsys, lang):
    laughs = tmp_path / "laughs.yaml"
    laughs.write_text(billion_laughs(), encoding="utf-8")
    deep = tmp_path / "deep.yaml"
    deep.write_text("a: " + "[" * 1000 + "]" * 1000 + "\n", encoding="utf-8")
    env = {"ROLLBOOK_LANG": lang, "ROLLBOOK_DATABASE_URL": f"sqlite:///{tmp_path / 'solo.sqlite3'}"}
    for command in (("scenario", "check"), ("solo",)):
        for file in (laughs, deep):
            done = run_here(monkeypatch, capsys, *command, str(file), env=env)
            assert done.returncode == 2, (command, file, done.stdout, done.stderr)
            assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    done = run_here(monkeypatch, capsys, "scenario", "check", str(deep), env=env)
    assert {"en": "nested more than", "fr": "imbriquées", "es": "anidados"}[lang] in done.stderr


def test_S_9_the_terminal_refuses_a_story_that_would_strand_the_player(tmp_path, monkeypatch, capsys):
    """Every choice hidden by a flag (``Your choice [1-0]`` for ever), a fight that loses into itself (a
    RecursionError): ``rollbook solo`` lists the checker's faults and exits 2 before play."""
    stranded = tmp_path / "stranded.yaml"
    stranded.write_text(
        TINY.replace("        goto: lie\n", "        goto: lie\n        requires_flag: fought\n")
        .replace("        goto: brawl\n", "        goto: brawl\n        unless_flag: lied\n")
        .replace("  alley:\n", "  alley:\n    sets_flag: lied\n", 1)
        .replace("  brawl:\n", "  brawl:\n    sets_flag: fought\n", 1),
        encoding="utf-8",
    )
    looping = tmp_path / "looping.yaml"
    looping.write_text(TINY.replace("lose: gutter", "lose: brawl"), encoding="utf-8")
    env = {"ROLLBOOK_DATABASE_URL": f"sqlite:///{tmp_path / 'solo.sqlite3'}"}
    done = run_here(monkeypatch, capsys, "solo", str(stranded), stdin="1\n", env=env)
    assert done.returncode == 2 and "every choice of the passage alley" in done.stderr, done.stderr
    done = run_here(monkeypatch, capsys, "solo", str(looping), stdin="2\n", env=env)
    assert done.returncode == 2 and "leads back into itself" in done.stderr and "Traceback" not in done.stderr
