"""A rollbook sheet exported to WoD5e (V5) or Foundry WoD20 (V20) loads in the target's
data model shape (a JSON Schema written from those data models) and imports back as the same sheet."""

from __future__ import annotations

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook import play
from rollbook.interop import export_sheet, import_sheet
from rollbook.play.powers import known, rated_only
from rollbook.rules.base import RuleError
from rollbook.systems.v5 import sheet as v5_sheet
from rollbook.systems.v20 import sheet as v20_sheet
from tests.interop.conftest import exported_and_back, load, schema

WOD5E = jsonschema.Draft202012Validator(schema("wod5e-actor.schema.json"))
WOD20 = jsonschema.Draft202012Validator(schema("wod20-actor.schema.json"))

# Homebrew ids a name folds back to (``names.slug``) and that no format spells as a known trait.
homebrew_id = st.from_regex(r"\Azz[a-z]{1,6}(_[a-z0-9]{1,4})?\Z")
label = st.text(
    st.characters(codec="utf-8", categories=("L", "N"), exclude_characters=","), min_size=1, max_size=12
).map(lambda s: "Zz" + s)
text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=30)
rating5 = st.integers(0, 5)


def _names(ids):
    return st.dictionaries(st.sampled_from(sorted(ids)), label) if ids else st.just({})


@st.composite
def v5_sheets(draw) -> dict:
    creature = draw(st.sampled_from(v5_sheet.CREATURES))
    skills = {s: draw(rating5) for s in v5_sheet.SKILLS}
    brew_skills = {i: draw(rating5) for i in draw(st.lists(homebrew_id, max_size=2, unique=True))}
    skills.update(brew_skills)
    specialties = (
        {
            s: draw(st.lists(label, min_size=1, max_size=2, unique=True))
            for s in draw(
                st.lists(st.sampled_from([s for s, v in skills.items() if v]), unique=True, max_size=3)
            )
        }
        if any(skills.values())
        else {}
    )
    disciplines, powers = {}, []
    if creature != "mortal":
        for d in draw(st.lists(st.sampled_from(sorted(known("v5"))), unique=True, max_size=3)):
            disciplines[d] = draw(st.integers(1, 5))
            listed = [(pid, lvl) for pid, (lvl, _) in known("v5")[d].items() if lvl <= disciplines[d]]
            for pid, lvl in (
                draw(st.lists(st.sampled_from(listed), unique=True, max_size=2)) if listed else []
            ):
                powers.append({"discipline": d, "level": lvl, "power": pid, "name": None})
        brew = draw(st.lists(homebrew_id.filter(lambda i: i not in skills), max_size=1))
        for d in brew:
            disciplines[d] = draw(st.integers(1, 5))
            powers.append({"discipline": d, "level": 1, "power": None, "name": draw(label)})
    hungry = creature in v5_sheet.HUNGRY
    sheet = {
        "name": draw(label),
        "player": draw(text),
        "concept": draw(text),
        "clan": draw(text),
        "sire": draw(text),
        "predator": draw(text),
        "ambition": draw(text),
        "desire": draw(text),
        "notes": draw(text),
        "creature": creature,
        "attributes": {a: draw(st.integers(1, 5)) for a in v5_sheet.ATTRIBUTES},
        "skills": skills,
        "specialties": specialties,
        "disciplines": disciplines,
        "clan_disciplines": draw(st.lists(st.sampled_from(sorted(known("v5"))), unique=True, max_size=3)),
        "powers": powers,
        "names": draw(_names(set(brew_skills) | {d for d in disciplines if d not in known("v5")})),
        "hunger": draw(st.integers(0, 5)) if hungry else 0,
        "blood_potency": draw(st.integers(0, 10)) if creature == "vampire" else 0,
        "humanity": draw(st.integers(0, 7)),
        "stains": draw(st.integers(0, 3)),
        "health": {
            "max": draw(st.integers(3, 10)),
            "superficial": draw(st.integers(0, 1)),
            "aggravated": draw(st.integers(0, 1)),
        },
        "willpower": {
            "max": draw(st.integers(2, 10)),
            "superficial": draw(st.integers(0, 1)),
            "aggravated": 0,
        },
        "experience": draw(st.sampled_from([{"total": 0, "spent": 0}, {"total": 30, "spent": 12}])),
    }
    return play.new_sheet("v5", sheet)


@st.composite
def v20_sheets(draw) -> dict:
    creature = draw(st.sampled_from(["vampire", "mortal"]))
    generation = draw(st.integers(8, 13)) if creature == "vampire" else None
    groups = {}
    brewed: set[str] = set()
    for group, (_, standard) in v20_sheet.ABILITY_GROUPS.items():
        groups[group] = {s: draw(rating5) for s in standard}
        for i in draw(st.lists(homebrew_id.filter(lambda i: i not in brewed), max_size=1)):
            groups[group][i] = draw(rating5)
            brewed.add(i)
    attributes = {a: draw(st.integers(0, 5)) for a in v20_sheet.ATTRIBUTES}
    rated = {**attributes, **{k: v for g in groups.values() for k, v in g.items()}}
    specialties = {
        t: draw(st.lists(label, min_size=1, max_size=2, unique=True))
        for t in draw(st.lists(st.sampled_from(sorted(rated)), unique=True, max_size=3))
        if rated[t] >= 4
    }
    disciplines, powers = {}, []
    for d in draw(
        st.lists(st.sampled_from(sorted({*known("v20"), *rated_only("v20")})), unique=True, max_size=3)
    ):
        disciplines[d] = draw(st.integers(1, 5))
        listed = [(pid, lvl) for pid, (lvl, _) in known("v20").get(d, {}).items() if lvl <= disciplines[d]]
        for pid, lvl in draw(st.lists(st.sampled_from(listed), unique=True, max_size=2)) if listed else []:
            powers.append({"discipline": d, "level": lvl, "power": pid, "name": None})
    for d in draw(st.lists(homebrew_id.filter(lambda i: i not in brewed), max_size=1)):
        disciplines[d] = draw(st.integers(1, 5))
        powers.append({"discipline": d, "level": 1, "power": None, "name": draw(label)})
        brewed.add(d)
    courage = draw(st.integers(1, 5))
    sheet = {
        "name": draw(label),
        "player": draw(text),
        "concept": draw(text),
        "clan": draw(text),
        "sire": draw(text),
        "nature": draw(text),
        "demeanor": draw(text),
        "notes": draw(text),
        "creature": creature,
        "attributes": attributes,
        **groups,
        "disciplines": disciplines,
        "powers": powers,
        "clan_disciplines": draw(st.lists(st.sampled_from(sorted(known("v20"))), unique=True, max_size=2)),
        "names": draw(_names(brewed)),
        "specialties": specialties,
        "virtues": {
            "conscience": draw(st.integers(0, 5)),
            "self_control": draw(st.integers(0, 5)),
            "courage": courage,
        },
        "humanity": draw(st.integers(0, 10)),
        "willpower": {"permanent": courage, "current": draw(st.integers(0, courage))},
        "health": {
            "bashing": draw(st.integers(0, 2)),
            "lethal": draw(st.integers(0, 2)),
            "aggravated": draw(st.integers(0, 2)),
        },
        "weapons": draw(
            st.sampled_from(
                [[], [{"name": "Couteau", "kind": "hand_to_hand", "damage": 1, "damage_type": "lethal"}]]
            )
        ),
        "experience": draw(st.sampled_from([{"total": 0, "spent": 0}, {"total": 25, "spent": 25}])),
    }
    if generation is not None:
        sheet["generation"] = generation
        sheet["blood"] = {"current": draw(st.integers(0, 10))}
    return play.new_sheet("v20", sheet)


@settings(max_examples=60)
@given(v5_sheets())
def test_v5_export_validates_and_imports_back_as_the_same_sheet(sheet):
    back = exported_and_back("v5", sheet, "wod5e", WOD5E)
    assert back.sheet == sheet
    assert back.report.problems == ()


@settings(max_examples=60)
@given(v20_sheets())
def test_v20_export_validates_and_imports_back_as_the_same_sheet(sheet):
    back = exported_and_back("v20", sheet, "wod20", WOD20)
    assert back.sheet == sheet


@pytest.mark.parametrize(
    "name",
    [
        "wod5e_vampire.json",
        "wod5e_ghoul.json",
        "wod5e_thinblood.json",
        "progeny_vampire.json",
        "v5bot_vampire.json",
    ],
)
def test_imported_v5_fixtures_export_to_the_schema_and_back(name):
    sheet = import_sheet(load(name)).sheet
    exported = export_sheet("v5", sheet, "wod5e")
    WOD5E.validate(exported)
    assert import_sheet(exported).sheet == sheet


def test_imported_v20_fixture_exports_to_the_schema_and_back():
    sheet = import_sheet(load("wod20_vampire.json")).sheet
    exported = export_sheet("v20", sheet, "wod20")
    WOD20.validate(exported)
    assert import_sheet(exported).sheet == sheet


def test_the_hand_built_fixtures_fit_the_schemas():
    """The schemas are not written to fit the export alone: the fixtures built from the data models fit too."""
    for name in ("wod5e_vampire.json", "wod5e_ghoul.json", "wod5e_thinblood.json"):
        fixture = load(name)
        fixture["items"] = [i for i in fixture["items"] if i["type"] in ("power", "clan", "predatorType")]
        WOD5E.validate(fixture)


def test_export_refuses_the_other_game():
    with pytest.raises(RuleError) as refused:
        export_sheet("v5", import_sheet(load("wod5e_ghoul.json")).sheet, "wod20")
    assert refused.value.code == "export_wrong_system"


def test_v20_two_primary_paths_export_each_under_its_own_discipline():
    """Necromancy's and Thaumaturgy's primary paths on one sheet: each path item has its own id, so
    each power comes back under its own Discipline."""
    sheet = import_sheet(load("wod20_vampire.json")).sheet
    sheet = {
        **sheet,
        "disciplines": {**sheet["disciplines"], "necromancy": 1, "thaumaturgy": 1},
        "powers": [
            {"discipline": "necromancy", "level": 1, "power": "witness_of_death", "name": None},
            {"discipline": "thaumaturgy", "level": 1, "power": "a_taste_for_blood", "name": None},
        ],
    }
    exported = export_sheet("v20", sheet, "wod20")
    paths = [i["_id"] for i in exported["items"] if i["system"].get("type") == "wod.types.disciplinepath"]
    assert len(paths) == len(set(paths)) == 2
    assert import_sheet(exported).sheet == sheet
