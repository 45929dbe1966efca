"""Progeny's files against Progeny's own schema: the zod ``characterSchema`` its "Load JSON" parses a
file with, written out as a JSON Schema by zod's own ``z.toJSONSchema`` (tests/interop/fixtures/
progeny_schema.ts names the upstream commit; progeny_character.schema.json is what it wrote). The
fixtures Progeny's exporters wrote are files it loads; every field that schema names is read, kept or
dropped by name (never an unknown field), a homebrew clan included (docs/import.md)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from rollbook.interop import import_sheet
from rollbook.interop.report import at

FIXTURES = Path(__file__).parent / "fixtures"
PROGENY = jsonschema.Draft202012Validator(
    json.loads((FIXTURES / "progeny_character.schema.json").read_text(encoding="utf-8"))
)
FILES = ["progeny_test_vampire.json", "progeny_test_thinblood.json"]


def real(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def homebrew_clan() -> dict:
    """Progeny's test character given a homebrew clan as its ClanPicker gives one: ``clan`` "", the
    clan and every field Progeny's schema names for it in ``homebrewClan``."""
    data = real("progeny_test_vampire.json")
    data["clan"] = ""
    data["homebrewClan"] = {
        "name": "Nagaraja",
        "description": "Necromancers of the flesh.",
        "summary": "Eaters of the dead",
        "logo": "",
        "bane": "Flesh of the dead",
        "compulsion": "Hunger for the dead",
        "nativeDisciplines": ["auspex", "dominate", "oblivion"],
        "nativeDisciplineRefs": [{"type": "official", "name": "oblivion"}],
        "excludedPredatorTypes": ["Consensualist"],
        "excludedMeritsAndFlaws": [],
        "homebrewSource": {"itemId": "c1", "collectionId": "k1", "collectionName": "Lost clans"},
    }
    return data


@pytest.mark.parametrize("name", FILES)
def test_progenys_own_schema_accepts_what_its_exporter_wrote(name):
    assert list(PROGENY.iter_errors(real(name))) == []


def test_progenys_own_schema_refuses_what_progeny_would_not_load():
    broken = real(FILES[0])
    broken["clan"] = "Baali"  # not a clan of Progeny's list
    del broken["ephemeral"]
    assert {tuple(error.path) for error in PROGENY.iter_errors(broken)} >= {("clan",), ()}


@pytest.mark.parametrize("data", [real(FILES[0]), real(FILES[1]), homebrew_clan()], ids=[*FILES, "homebrew"])
def test_every_field_of_progenys_schema_is_read_kept_or_dropped_by_name(data):
    assert list(PROGENY.iter_errors(data)) == []  # a file Progeny itself loads
    imported = import_sheet(copy.deepcopy(data))
    plain = imported.report.plain()
    dropped = {entry["source"]: entry["reason"] for entry in plain["dropped"]}
    assert "unknown_field" not in dropped.values() and "no_such_field" not in {
        reason for source, reason in dropped.items() if source.startswith("$.homebrewClan")
    }
    sources = {entry["source"] for kind in ("mapped", "homebrew", "dropped") for entry in plain[kind]}
    properties = PROGENY.schema["properties"]
    for key, value in data.items():
        assert key in properties
        if value in ("", [], {}, None):
            continue  # nothing to account for
        if isinstance(value, dict) and key in ("homebrewClan", "ephemeral", "attributes", "skills"):
            for sub, held in value.items():
                if held not in ("", [], {}, None):
                    place = at(at("$", key), sub)
                    assert any(s == place or s.startswith((f"{place}.", f"{place}[")) for s in sources), place
        else:
            place = at("$", key)
            assert any(s == place or s.startswith((f"{place}.", f"{place}[")) for s in sources), place


def test_a_homebrew_clan_is_the_sheets_clan():
    imported = import_sheet(homebrew_clan())
    assert imported.sheet["clan"] == "Nagaraja" and imported.sheet["creature"] == "vampire"
    mapped = {entry["source"]: entry["target"] for entry in imported.report.plain()["mapped"]}
    assert mapped["$.homebrewClan.name"] == "clan"
