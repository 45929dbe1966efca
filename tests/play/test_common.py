"""The play layer's shared contract: dispatch, roles, editing, receipts, schemas."""

from __future__ import annotations

import contextlib
import copy
import json

import pytest

from rollbook import play
from rollbook.dice import GivenFaces
from rollbook.play import (
    SYSTEM_IDS,
    Performed,
    adjust,
    describe_actions,
    edit_sheet,
    new_sheet,
    perform,
    perform_followup,
    verify_receipt,
)
from rollbook.rules.base import RuleError

from .helpers import NoDice, plain, refused

MINIMAL = {
    "v20": {"name": "Nia"},
    "v5": {"name": "Marlow"},
    "tiers": {"name": "Ana"},
    "rollunder": {"name": "Zed"},
}


def test_system_ids_are_the_four_systems():
    assert SYSTEM_IDS == ("v20", "v5", "tiers", "rollunder")


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_new_sheet_fills_defaults_and_is_idempotent(system):
    sheet = new_sheet(system, MINIMAL[system])
    plain(sheet)
    assert sheet["system"] == system and sheet["name"] == MINIMAL[system]["name"]
    assert new_sheet(system, sheet) == sheet  # validating a stored sheet changes nothing


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_new_sheet_refuses_unknown_fields_and_missing_name(system):
    refused("unknown_field", new_sheet, system, {"name": "X", "colour": "red"})
    refused("missing_field", new_sheet, system, {})
    refused("blank_text", new_sheet, system, {"name": "   "})
    refused("not_an_object", new_sheet, system, ["name"])


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_new_sheet_refuses_another_systems_id(system):
    other = "v5" if system != "v5" else "v20"
    refused("bad_choice", new_sheet, system, {"name": "X", "system": other})


def test_unknown_system_refused():
    refused("unknown_system", new_sheet, "dnd", {"name": "X"})
    assert verify_receipt({"system": "dnd"}) == ["unknown_system"]


def test_strict_types_no_coercion():
    refused("wrong_type", new_sheet, "v20", {"name": "Nia", "humanity": "7"})
    refused("wrong_type", new_sheet, "v20", {"name": "Nia", "humanity": 7.0})
    sheet = new_sheet("v20", {"name": "Nia"})
    refused(
        "wrong_type",
        perform,
        "v20",
        sheet,
        {"kind": "test", "attribute": "wits", "willpower": 1},
        mode="strict",
        role="player",
        source=NoDice(),
    )


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_bad_role_and_mode_refused(system):
    sheet = new_sheet(system, MINIMAL[system])
    refused("bad_choice", edit_sheet, system, sheet, {"notes": "x"}, role="god")
    refused("bad_choice", adjust, system, sheet, {"kind": "x"}, role="admin")
    refused("bad_choice", perform, system, sheet, {"kind": "x"}, mode="easy", role="player", source=NoDice())


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_unknown_action_kind_refused(system):
    sheet = new_sheet(system, MINIMAL[system])
    refused(
        "bad_choice",
        perform,
        system,
        sheet,
        {"kind": "teleport"},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    refused("missing_field", perform, system, sheet, {}, mode="strict", role="player", source=NoDice())
    refused("bad_choice", adjust, system, sheet, {"kind": "teleport"}, role="storyteller")


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_player_may_edit_names_and_notes(system):
    sheet = new_sheet(system, MINIMAL[system])
    edited = edit_sheet(system, sheet, {"name": "Renamed", "notes": "met the Prince"}, role="player")
    assert edited["name"] == "Renamed" and edited["notes"] == "met the Prince"
    assert sheet["name"] == MINIMAL[system]["name"]  # input untouched


@pytest.mark.parametrize(
    ("system", "patch", "field"),
    [
        ("v20", {"willpower": {"current": 0}}, "willpower.current"),
        ("v20", {"attributes": {"strength": 5}}, "attributes.strength"),
        ("v20", {"experience": {"total": 100}}, "experience.total"),
        ("v5", {"hunger": 0}, "hunger"),
        ("v5", {"health": {"superficial": 0, "aggravated": 0, "max": 10}}, "health.max"),
        ("tiers", {"skills": {"dodge": 3}}, "skills.dodge"),
        ("tiers", {"turn_spent": True}, "turn_spent"),
        ("rollunder", {"cards": [{"name": "Ace", "effect": "advantage"}]}, "cards"),
    ],
)
def test_player_may_not_edit_resources(system, patch, field):
    sheet = new_sheet(system, MINIMAL[system])
    error = refused("forbidden_edit", edit_sheet, system, sheet, patch, role="player")
    assert error.params["field"] == field
    edit_sheet(system, sheet, patch, role="storyteller")  # the Storyteller may


def test_player_resending_unchanged_values_is_not_an_edit():
    sheet = new_sheet("v20", {"name": "Nia"})
    assert edit_sheet("v20", sheet, copy.deepcopy(sheet), role="player") == sheet


def test_edit_merges_and_null_removes_a_key():
    sheet = new_sheet("v20", {"name": "Nia", "disciplines": {"celerity": 2, "obfuscate": 1}})
    edited = edit_sheet("v20", sheet, {"disciplines": {"obfuscate": None, "auspex": 1}}, role="storyteller")
    assert edited["disciplines"] == {"celerity": 2, "auspex": 1}
    reset = edit_sheet("v20", sheet, {"humanity": None}, role="storyteller")
    assert reset["humanity"] == 7  # back to its default


def test_edit_revalidates():
    sheet = new_sheet("v20", {"name": "Nia"})
    refused("out_of_range", edit_sheet, "v20", sheet, {"willpower": {"current": 9}}, role="storyteller")
    refused("not_an_object", edit_sheet, "v20", sheet, ["x"], role="storyteller")


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_describe_actions_gives_json_schemas(system):
    described = describe_actions(system)
    json.dumps(described)
    assert described["system"] == system
    assert described["sheet"]["type"] == "object"
    for kind, schema in described["actions"].items():
        assert schema["properties"]["kind"]["const"] == kind
        assert schema["additionalProperties"] is False
    for kind, schema in described["changes"].items():
        assert schema["properties"]["kind"]["const"] == kind
    assert set(described["player_fields"]) >= {"name", "notes"}


@pytest.mark.parametrize("system", ["v20", "tiers"])
def test_systems_without_followups_refuse_them(system):
    sheet = new_sheet(system, MINIMAL[system])
    refused(
        "no_followup",
        perform_followup,
        system,
        sheet,
        {"system": system},
        {"kind": "reroll", "dice": [0]},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_followup_receipt_of_another_system_refused():
    sheet = new_sheet("v5", {"name": "Marlow"})
    refused(
        "receipt_system_mismatch",
        perform_followup,
        "v5",
        sheet,
        {"system": "v20"},
        {"kind": "reroll", "dice": [0]},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_verify_receipt_of_a_change_has_nothing_to_recompute():
    sheet = new_sheet("v20", {"name": "Nia"})
    done = adjust("v20", sheet, {"kind": "award_experience", "amount": 5}, role="storyteller")
    assert isinstance(done, Performed) and done.receipt["change"]["amount"] == 5
    assert verify_receipt(done.receipt) == []
    assert verify_receipt({"system": "v20"}) == ["missing:request"]
    assert verify_receipt("nope") == ["not_an_object"]


def test_verify_receipt_reports_malformed_requests():
    sheet = new_sheet("v20", {"name": "Nia"})
    done = perform(
        "v20",
        sheet,
        {"kind": "test", "attribute": "wits"},
        mode="strict",
        role="player",
        source=GivenFaces([7]),
    )
    broken = copy.deepcopy(done.receipt)
    broken["request"]["colour"] = "red"
    assert verify_receipt(broken) == ["refused:bad_request"]
    broken = copy.deepcopy(done.receipt)
    broken["faces"] = [7, 7]
    assert verify_receipt(broken) == ["refused:wrong_face_count"]


def _imported(path) -> set[str]:
    """Every module a file imports; ``from rollbook import dice`` counts as ``rollbook.dice``."""
    import ast

    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            if (
                node.module == "rollbook"
                or (node.module or "").count(".") == 2
                and node.module.startswith("rollbook.systems.")
            ):
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
            else:
                found.add(node.module or "")
    return found


def test_play_imports_no_web_storage_or_cli_library():
    from pathlib import Path

    # unicodedata: a sheet's clan as typed, accents folded (systems.v5.compulsions); pure standard library
    allowed = {
        "__future__",
        "copy",
        "collections",
        "dataclasses",
        "functools",
        "importlib",
        "marshal",
        "re",
        "types",
        "typing",
        "unicodedata",
        "pydantic",
        "rollbook",
    }
    from rollbook.systems import ROOMS

    def room(name: str) -> str:
        """``rollbook.play.common`` -> ``play``; a system's module, its room (``systems.v5.sheet`` -> ``play``)."""
        parts = name.split(".")
        return ROOMS.get(parts[3], "?") if parts[1] == "systems" and len(parts) >= 4 else parts[1]

    source = Path(play.__file__).parents[1]
    # the play room: its own files and each shipped system's play modules (``rollbook.systems.ROOMS``)
    files = [
        *Path(play.__file__).parent.glob("*.py"),
        *(p for p in (source / "systems").glob("*/*.py") if ROOMS.get(p.stem) == "play"),
    ]
    assert source / "systems" / "v5" / "compulsions.py" in files
    for path in files:
        for name in _imported(path):
            assert name.split(".")[0] in allowed, f"{path.name} imports {name}"
            if name.startswith("rollbook") and name != "rollbook.systems":  # the systems' list, stdlib only
                assert room(name) in ("rules", "dice", "play", "validation"), f"{path} imports {name}"


def test_refusals_are_rule_errors_with_codes():
    with pytest.raises(RuleError) as caught:
        new_sheet("v20", {"name": "Nia", "generation": 3})
    assert caught.value.code == "out_of_range" and caught.value.params["field"] == "generation"


def test_performed_validates_a_changed_sheet_and_hands_back_an_unchanged_one_as_loaded(monkeypatch):
    """A roll that changes nothing on the sheet is not validated a second time; a changed
    sheet still is, and a change that breaks a check of the sheet is still refused."""
    from rollbook.play import common, system_module

    loaded = common.parse(
        system_module("v20").Sheet,
        play.new_sheet("v20", {"name": "Ann", "willpower": {"permanent": 5}}),
        "sheet",
    )
    validations: list[int] = []
    original = common.revalidate
    monkeypatch.setattr(common, "revalidate", lambda sheet: validations.append(1) or original(sheet))
    unchanged = common.performed(loaded.model_copy(), None, common.Effects(), loaded=loaded)
    assert unchanged.sheet == common.dump(loaded) and validations == []
    spent = loaded.model_copy(update={"willpower": loaded.willpower.model_copy(update={"current": 4})})
    assert common.performed(spent, None, common.Effects(), loaded=loaded).sheet["willpower"]["current"] == 4
    assert validations == [1]
    broken = loaded.model_copy(update={"willpower": loaded.willpower.model_copy(update={"current": 9})})
    with pytest.raises(ValueError, match="out_of_range"):  # revalidate's refusal, as before
        common.performed(broken, None, common.Effects(), loaded=loaded)


def test_no_example_changes_the_sheet_it_is_given():
    """Every example action and change of every system, on its example sheet, leaves the sheet dict it
    was given as it was (the new sheet is a copy); a sheet strict validation refuses is refused."""
    from rollbook.play.examples import EXAMPLES

    for system, examples in EXAMPLES.items():
        sheet = play.new_sheet(system, examples.sheet.value)
        before = copy.deepcopy(sheet)
        for role in ("player", "storyteller"):
            for example in examples.actions.values():
                with contextlib.suppress(RuleError):
                    play.perform(
                        system,
                        sheet,
                        example.value,
                        mode="casual",
                        role=role,
                        source=GivenFaces([1, 5, 10] * 20),
                    )
            for example in examples.changes.values():
                with contextlib.suppress(RuleError):
                    play.adjust(system, sheet, example.value, role=role)
        assert sheet == before, system
    refused_sheet = {**play.new_sheet("v20", {"name": "Ann"}), "skills": {1: 2}}  # 1 is not "1"
    with pytest.raises(RuleError):
        play.new_sheet("v20", refused_sheet)


@pytest.mark.parametrize(
    "refused",
    [
        {"generation": True},
        {"generation": 13.0},
        {"generation": "13"},
        {"clan_disciplines": ("potence",)},
        {"attributes": {**play.new_sheet("v20", {"name": "Ann"})["attributes"], "strength": True}},
    ],
    ids=["bool", "float", "text", "tuple", "nested bool"],
)
def test_strict_validation_keeps_apart_values_that_compare_equal(refused):
    """A value of another type that compares equal (13 and 13.0 and True == 1; a tuple for a list)
    is refused, even right after the accepted sheet was loaded."""
    accepted = {**play.new_sheet("v20", {"name": "Ann"}), "clan_disciplines": ["potence"]}
    play.new_sheet("v20", accepted)
    with pytest.raises(RuleError):
        play.new_sheet("v20", {**accepted, **refused})


def _emptied(value) -> None:
    """Every list and dict inside ``value`` cleared, deepest first."""
    children = list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else []
    for child in children:
        _emptied(child)
    if isinstance(value, (dict, list)):
        value.clear()


def test_validation_shares_no_container_with_the_dict_it_reads():
    """An action or change is validated without a copy first (``play._kind``,
    ``play.authority.split``): strict validation builds the model's own containers, so emptying every
    list and dict of the data afterwards leaves the model as it was — every example of every system."""
    from rollbook.play import common, system_module
    from rollbook.play.examples import EXAMPLES

    checked = 0
    for system, examples in EXAMPLES.items():
        module = system_module(system)
        for models, found in ((module.ACTIONS, examples.actions), (module.CHANGES, examples.changes)):
            for name, example in found.items():
                data = copy.deepcopy(example.value)
                try:
                    model = common.parse_kind(models, data, "action")
                except RuleError:
                    continue
                before = common.dump(model)
                _emptied(data)
                assert common.dump(model) == before, (system, name)
                checked += 1
    assert checked == sum(len(examples.actions) + len(examples.changes) for examples in EXAMPLES.values())


def _any_schemas(schema) -> int:
    if isinstance(schema, dict):
        return (schema.get("type") == "any") + sum(_any_schemas(value) for value in schema.values())
    if isinstance(schema, (list, tuple)):
        return sum(_any_schemas(value) for value in schema)
    return 0


def test_no_action_or_change_model_takes_an_untyped_value():
    """Why validation builds its own containers, for every kind of every system, examples or not: no
    field (nor item of one) is ``Any`` — an ``Any`` value is kept as given, shared with the request."""
    from rollbook.play import SYSTEM_IDS, system_module

    for system in SYSTEM_IDS:
        module = system_module(system)
        for kind, model in {**module.ACTIONS, **module.CHANGES}.items():
            assert _any_schemas(model.__pydantic_core_schema__) == 0, (system, kind)
    assert _any_schemas({"type": "list", "items_schema": {"type": "any"}}) == 1
