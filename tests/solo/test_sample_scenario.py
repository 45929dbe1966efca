"""The sample scenario (SPEC S-6): "The Drowned Men's Lantern", shipped with rollbook.

What S-6 asks of it, pinned here on the file itself: fr/es/en throughout, a social check with a
botch path, a Willpower choice, a fight (with soak and blood: the engine's, S-3), an extended action
(the chase) and at least three endings; the pregenerated character and every NPC a valid V20 sheet.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from rollbook import play
from rollbook.solo.format import Scenario

SAMPLE = Path(__file__).parents[2] / "src" / "rollbook" / "solo" / "scenarios" / "drowned-lantern.yaml"


def sample() -> Scenario:
    return Scenario.model_validate(yaml.safe_load(SAMPLE.read_text(encoding="utf-8")))


def test_the_sample_is_in_three_languages_s6():
    scenario = sample()
    assert scenario.languages == ["fr", "es", "en"]
    for passage in scenario.passages.values():
        assert set(passage.text) == {"fr", "es", "en"}
        for choice in passage.choices or ():
            assert set(choice.text) == {"fr", "es", "en"}


def test_every_sheet_of_the_sample_is_a_valid_v20_sheet():
    scenario = sample()
    sheets = [scenario.pregenerated] + [npc.sheet for npc in scenario.npcs.values()]
    for sheet in sheets:
        assert play.new_sheet("v20", sheet)["system"] == "v20"


def test_the_sample_has_what_s6_asks():
    scenario = sample()
    passages = scenario.passages
    bodies = [passage.body for passage in passages.values()]
    social = [p.check for p in passages.values() if p.check and p.check.traits[0] == "manipulation"]
    assert social and all(check.outcomes.botch != check.outcomes.failure for check in social)  # a botch path
    assert any(
        choice.willpower_cost for p in passages.values() for choice in p.choices or ()
    )  # a Willpower choice
    assert "fight" in bodies and "extended" in bodies  # a fight, a chase
    assert bodies.count("ending") >= 3
    assert {p.ending.kind for p in passages.values() if p.ending} == {"good", "bitter", "dark"}


CLERK = SAMPLE.parent / "night-clerk.yaml"


def test_the_second_sample_is_clean_and_shows_s7_to_s10():
    """The author's guide's example (docs/solo.md): checked clean; endings reached after a check without a
    fight (S-7); a fight (S-8) whose results lead to endings (S-9); choices that one flag shows and hides,
    beside one that needs none (S-9); an NPC shown under another name until a flag reveals it (S-10)."""
    from rollbook.solo.check import check_text
    from rollbook.solo.text import npc_name

    report = check_text(CLERK.read_bytes())
    assert report.faults == () and report.scenario is not None
    scenario = report.scenario
    passages = scenario.passages
    ask = passages["ask"].check
    assert (
        ask is not None and passages[ask.outcomes.success].ending and passages[ask.outcomes.failure].choices
    )
    fight = passages["stairs_fight"].fight
    assert fight is not None and all(passages[goto].ending for goto in (fight.win, fight.lose, fight.flee))
    stairs = passages["stairs"].choices or []
    assert {c.requires_flag for c in stairs} >= {"read_register"} and {c.unless_flag for c in stairs} >= {
        "read_register"
    }
    assert any(c.requires_flag is None and c.unless_flag is None and not c.willpower_cost for c in stairs)
    assert npc_name(scenario, "clerk", frozenset(), "fr") == "Le veilleur de nuit"
    assert npc_name(scenario, "clerk", frozenset({"read_register"}), "es") == "Odile Brand"
    assert set(scenario.languages) == {"fr", "es", "en"}
