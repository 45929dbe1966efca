"""The scenario format (SPEC S-1): the models of rollbook.solo.format, frozen, unknown keys refused."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from rollbook.solo.format import Outcomes, Passage, Scenario, schema

TINY = Path(__file__).parent / "data" / "tiny.yaml"


def tiny() -> dict:
    return yaml.safe_load(TINY.read_text(encoding="utf-8"))


def test_the_tiny_scenario_of_docs_solo_md_is_valid():
    scenario = Scenario.model_validate(tiny())
    assert scenario.start == "alley"
    assert scenario.passages["brawl"].body == "fight"
    assert scenario.passages["brawl"].fight.attacks[0].traits == ["dexterity", "brawl"]  # the default attack
    assert scenario.passages["home"].ending.kind == "good"


def test_docs_solo_md_shows_the_tiny_scenario():
    text = (Path(__file__).parents[2] / "docs" / "solo.md").read_text(encoding="utf-8")
    example = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    assert yaml.safe_load(example) == tiny()


def test_an_unknown_key_is_refused_s1():
    data = tiny()
    data["passages"]["alley"]["choices"][0]["gotoo"] = "lie"
    with pytest.raises(ValidationError) as refused:
        Scenario.model_validate(data)
    assert any(error["type"] == "extra_forbidden" for error in refused.value.errors())


def test_a_passage_has_exactly_one_body():
    with pytest.raises(ValidationError):
        Passage.model_validate(
            {"text": {"en": "x"}, "ending": {"kind": "good"}, "choices": [{"text": {"en": "y"}, "goto": "a"}]}
        )
    with pytest.raises(ValidationError):
        Passage.model_validate({"text": {"en": "x"}})


def test_a_scenario_is_frozen():
    scenario = Scenario.model_validate(tiny())
    with pytest.raises(ValidationError):
        scenario.start = "home"


def test_success_by_degree_s2():
    outcomes = Outcomes(botch="b", failure="f", success="s", success_3="s3")
    assert outcomes.for_result("botch", 0) == "b"
    assert outcomes.for_result("failure", 0) == "f"
    assert outcomes.for_result("success", 1) == "s"
    assert outcomes.for_result("success", 2) == "s"
    assert outcomes.for_result("success", 3) == "s3"
    assert outcomes.for_result("success", 7) == "s3"


def test_the_links_of_each_body():
    scenario = Scenario.model_validate(tiny())
    assert scenario.passages["lie"].links() == [
        ("check.outcomes.botch", "brawl"),
        ("check.outcomes.failure", "brawl"),
        ("check.outcomes.success", "home"),
        ("check.outcomes.success_3", "home"),
    ]
    assert scenario.passages["brawl"].links() == [("fight.win", "home"), ("fight.lose", "gutter")]
    assert scenario.passages["home"].links() == []


def test_the_published_schema_s1():
    published = schema()
    assert set(published["required"]) >= {
        "id",
        "system",
        "title",
        "languages",
        "start",
        "pregenerated",
        "passages",
    }
    assert "Passage" in published["$defs"]
