"""`rollbook scenario check` (SPEC S-4): each fault found, with its place (a YAML path and its line)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from rollbook.solo.check import check_text
from rollbook.solo.load import Unreadable
from rollbook.solo.text import fault_line
from tests.in_process import run_here

TINY = (Path(__file__).parent / "data" / "tiny.yaml").read_text(encoding="utf-8")


def faults(text: str) -> list[tuple[str, str]]:
    return [(fault.code, fault.path) for fault in check_text(text).faults]


def mutated(change) -> str:
    data = yaml.safe_load(TINY)
    change(data)
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def test_the_tiny_scenario_is_clean():
    report = check_text(TINY)
    assert report.faults == () and report.scenario.id == "tiny"


def test_a_dangling_link_s4():
    found = check_text(TINY.replace("goto: brawl", "goto: brawll")).faults
    assert [(f.code, f.path, f.params, f.line) for f in found] == [
        ("dangling_link", "passages.alley.choices.1.goto", {"goto": "brawll"}, 28)
    ]
    assert "line 28" in fault_line(found[0], "en") and "brawll" in fault_line(found[0], "en")


def test_a_dangling_start_and_outcome_s4():
    text = mutated(lambda d: d["passages"]["lie"]["check"]["outcomes"].update(botch="nowhere"))
    assert ("dangling_link", "passages.lie.check.outcomes.botch") in faults(text)
    assert ("dangling_link", "start") in faults(mutated(lambda d: d.update(start="nowhere")))


def test_an_unreachable_passage_s4():
    def orphan(d):
        d["passages"]["cellar"] = {"text": {"fr": "a", "es": "b", "en": "c"}, "ending": {"kind": "bitter"}}

    assert faults(mutated(orphan)) == [("unreachable_passage", "passages.cellar")]


def test_an_unknown_trait_s4():
    found = check_text(TINY.replace("[manipulation, subterfuge]", "[manipulation, subtrefuge]")).faults
    assert [(f.code, f.path, f.line) for f in found] == [("unknown_trait", "passages.lie.check.traits", 32)]
    assert faults(TINY.replace("[manipulation, subterfuge]", "[charm, subterfuge]")) == [
        ("unknown_trait", "passages.lie.check.traits")
    ]


def test_a_discipline_the_pregenerated_character_lacks_s4():
    assert faults(TINY.replace("[manipulation, subterfuge]", "[manipulation, dominate]")) == [
        ("unknown_trait", "passages.lie.check.traits")
    ]


def test_an_npc_sheet_is_validated_as_any_sheet():
    text = mutated(lambda d: d["npcs"]["thug"]["sheet"]["attributes"].update(strength=11))
    assert [code for code, _ in faults(text)] == ["out_of_range"]
    text = mutated(
        lambda d: d["npcs"]["thug"].update(attack={"traits": ["dexterity", "melee"], "weapon": "axe"})
    )
    assert faults(text) == [("unknown_weapon", "npcs.thug.attack.weapon")]


def test_a_missing_language_s4():
    found = check_text(TINY.replace("es: Golpea., ", "")).faults
    assert [(f.code, f.path, f.params, f.line) for f in found] == [
        ("missing_language", "passages.brawl.text", {"language": "es"}, 36)
    ]
    assert faults(mutated(lambda d: d["passages"]["alley"]["choices"][0]["text"].pop("fr"))) == [
        ("missing_language", "passages.alley.choices.0.text")
    ]


def test_a_fight_with_no_way_out_s4():
    def loop(d):
        d["passages"]["brawl"]["fight"].update(win="brawl2", lose="brawl2")
        d["passages"]["brawl2"] = {
            "text": {"fr": "a", "es": "b", "en": "c"},
            "choices": [{"text": {"fr": "a", "es": "b", "en": "c"}, "goto": "brawl"}],
        }
        d["passages"]["gutter"]["text"]["en"] = "x"
        d["passages"]["alley"]["choices"].append(
            {"text": {"fr": "a", "es": "b", "en": "c"}, "goto": "gutter"}
        )

    assert faults(mutated(loop)) == [
        ("fight_no_way_out", "passages.brawl"),
        ("no_way_out", "passages.brawl2"),
    ]


def test_an_unknown_npc_and_a_flag_never_set():
    assert faults(TINY.replace("npcs: [thug]", "npcs: [thug, ghoul]")) == [
        ("unknown_npc", "passages.brawl.fight.npcs.1")
    ]
    text = mutated(lambda d: d["passages"]["alley"]["choices"][0].update(requires_flag="knows_name"))
    assert faults(text) == [("flag_never_set", "passages.alley.choices.0.requires_flag")]


def test_format_faults_have_their_place():
    found = check_text(TINY.replace("    choices:\n", "    choises:\n", 1)).faults
    codes = {(f.code, f.path) for f in found}
    assert ("unknown_key", "passages.alley.choises") in codes
    assert all(f.line for f in found)


def test_a_key_given_twice_is_a_fault():
    text = TINY.replace(
        "  gutter:\n", "  home:\n    text: {fr: a, es: b, en: c}\n    ending: {kind: bitter}\n  gutter:\n"
    )
    assert ("duplicate_key", "passages.home") in faults(text)


def test_not_yaml_is_unreadable():
    with pytest.raises(Unreadable) as refused:
        check_text("a: [\n")
    assert refused.value.code == "yaml_unclosed" and refused.value.params["line"] == 2
    with pytest.raises(Unreadable):
        check_text("- a list\n")


def test_the_cli_check_and_schema(tmp_path, monkeypatch, capsys):
    """In this process (tests/in_process.py; test_broken_scenarios runs the command as a process)."""

    def run(*args: str):
        return run_here(monkeypatch, capsys, *args)

    good = tmp_path / "tiny.yaml"
    good.write_text(TINY, encoding="utf-8")
    done = run("scenario", "check", str(good))
    assert done.returncode == 0 and "no fault" in done.stdout
    bad = tmp_path / "bad.yaml"
    bad.write_text(TINY.replace("goto: brawl", "goto: brawll"), encoding="utf-8")
    done = run("scenario", "check", str(bad), "--lang", "es")
    assert done.returncode == 1 and "passages.alley.choices.1.goto, línea 28" in done.stdout
    assert (
        json.loads(run("scenario", "check", str(bad), "--json").stdout)["faults"][0]["code"]
        == "dangling_link"
    )
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: [\n", encoding="utf-8")
    done = run("scenario", "check", str(broken))
    assert (
        done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    )
    schema = json.loads(run("scenario", "schema").stdout)
    assert "passages" in schema["properties"]


def test_S_9_a_passage_whose_every_choice_the_flags_can_hide_is_refused():
    """Only ``requires_flag: lied`` and ``unless_flag: lied`` … with the flag ``fought`` read too: once
    a playthrough has set neither way out, the player would see ``Your choice [1-0]`` for ever."""

    def hidden(d):
        d["passages"]["alley"]["choices"][0]["sets_flag"] = "lied"
        d["passages"]["lie"] = {
            "text": {"fr": "a", "es": "b", "en": "c"},
            "choices": [
                {"text": {"fr": "a", "es": "b", "en": "c"}, "goto": "home", "requires_flag": "fought"},
                {"text": {"fr": "a", "es": "b", "en": "c"}, "goto": "gutter", "unless_flag": "lied"},
            ],
        }
        d["passages"]["brawl"]["sets_flag"] = "fought"

    found = check_text(mutated(hidden)).faults
    assert [(f.code, f.path, f.params) for f in found] == [
        ("no_choice_left", "passages.lie.choices", {"passage": "lie", "flags": ["lied"]})
    ]
    assert "lied" in fault_line(found[0], "fr") and "Volonté" in fault_line(found[0], "fr")


def test_S_9_a_choice_that_costs_willpower_is_not_counted_on():
    def costly(d):
        for choice in d["passages"]["alley"]["choices"]:
            choice["willpower_cost"] = 1

    assert faults(mutated(costly)) == [("no_choice_left", "passages.alley.choices")]
    # one free choice besides is enough
    assert faults(mutated(lambda d: d["passages"]["alley"]["choices"][0].update(willpower_cost=1))) == []


def test_S_9_flags_that_always_leave_a_choice_pass():
    def guarded(d):
        d["passages"]["alley"]["choices"][0].update(unless_flag="seen")
        d["passages"]["alley"]["choices"][1].update(requires_flag="seen")
        d["passages"]["alley"]["sets_flag"] = "seen"  # set on arrival: the second is always there

    assert faults(mutated(guarded)) == []


@pytest.mark.parametrize("result", ["lose", "win", "flee"])
def test_S_9_a_fight_that_leads_back_into_itself_is_refused(result):
    assert ("fight_loop", f"passages.brawl.fight.{result}") in faults(
        mutated(lambda d: d["passages"]["brawl"]["fight"].update({result: "brawl"}))
    )


def test_S_9_two_fights_that_lose_into_each_other_are_refused_a_passage_between_is_not():
    def pair(d):
        d["passages"]["brawl"]["fight"]["lose"] = "brawl2"
        d["passages"]["brawl2"] = {
            "text": {"fr": "a", "es": "b", "en": "c"},
            "fight": {"npcs": ["thug"], "win": "home", "lose": "brawl"},
        }

    assert [f for f in faults(mutated(pair)) if f[0] == "fight_loop"] == [
        ("fight_loop", "passages.brawl.fight.lose"),
        ("fight_loop", "passages.brawl2.fight.lose"),
    ]

    def between(d):
        pair(d)
        d["passages"]["brawl2"]["fight"]["lose"] = "gutter"
        d["passages"]["gutter"] = {
            "text": {"fr": "a", "es": "b", "en": "c"},
            "choices": [
                {"text": {"fr": "a", "es": "b", "en": "c"}, "goto": "brawl"},
                {"text": {"fr": "a", "es": "b", "en": "c"}, "goto": "home"},
            ],
        }

    assert faults(mutated(between)) == []


def test_a_wrong_start_is_its_one_fault():
    text = mutated(lambda d: d.update(start="nowhere"))
    assert faults(text) == [("dangling_link", "start")]
