"""Each format's fixture imported, its report checked field by field; hostile files
refused with every problem named at its place; the package stays pure."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from rollbook import interop
from rollbook.interop import ImportRefused, detect, import_sheet
from rollbook.rules.base import RuleError
from tests.interop.conftest import load


def report(imported) -> dict:
    return imported.report.plain()


def mapped(imported) -> dict[str, str]:
    return {m["source"]: m["target"] for m in report(imported)["mapped"]}


def dropped(imported) -> dict[str, str]:
    return {d["source"]: d["reason"] for d in report(imported)["dropped"]}


def homebrew(imported) -> dict[str, tuple[str, str]]:
    return {h["source"]: (h["target"], h["name"]) for h in report(imported)["homebrew"]}


@pytest.mark.parametrize(
    ("name", "fmt", "creature"),
    [
        ("wod5e_vampire.json", "wod5e", "vampire"),
        ("wod5e_ghoul.json", "wod5e", "ghoul"),
        ("wod5e_thinblood.json", "wod5e", "thin_blood"),
        ("progeny_vampire.json", "progeny", "vampire"),
        ("progeny_thinblood.json", "progeny", "thin_blood"),
        ("v5bot_vampire.json", "v5bot", "vampire"),
        ("v5bot_ghoul.json", "v5bot", "ghoul"),
        ("v5bot_thinblood.json", "v5bot", "thin_blood"),
        ("wod20_vampire.json", "wod20", "vampire"),
    ],
)
def test_every_fixture_is_detected_and_imported(name, fmt, creature):
    data = load(name)
    assert detect(data) == fmt
    imported = import_sheet(data)
    assert (imported.format, imported.sheet["creature"], imported.report.creature) == (
        fmt,
        creature,
        creature,
    )
    assert imported.report.problems == ()
    # every mapped target is a real place in the sheet
    for target in mapped(imported).values():
        node = imported.sheet
        for part in target.split("."):
            node = node[int(part)] if isinstance(node, list) else node[part]


def test_wod5e_vampire_report_field_by_field():
    imported = import_sheet(load("wod5e_vampire.json"), system="v5")
    sheet = imported.sheet
    assert mapped(imported) | {} == mapped(imported)  # a dict: one target per source
    m = mapped(imported)
    assert m["$.name"] == "name" and sheet["name"] == "Élise Marchand"
    assert m["$.system.headers.concept"] == "concept"
    assert m["$.system.headers.sire"] == "sire" and sheet["sire"] == "Étienne"
    assert m["$.system.skills.animalken.value"] == "skills.animal_ken"  # WoD5e's own key
    assert m["$.system.skills.stealth.bonuses[0].source"] == "specialties.stealth.0"
    assert sheet["specialties"] == {"stealth": ["Égouts"], "occult": ["Rituels Tremere"]}
    assert m["$.system.disciplines.sorcery.value"] == "disciplines.blood_sorcery"  # its own key
    assert sheet["disciplines"] == {"auspex": 2, "obfuscate": 1, "blood_sorcery": 1}
    assert m["$.items[2].name"] == "powers.0" and sheet["powers"][0]["power"] == "heightened_senses"
    assert m["$.items[0].name"] == "clan" and sheet["clan"] == "Tremere"
    assert m["$.items[1].name"] == "predator" and sheet["predator"] == "Siren"
    assert m["$.system.hunger.value"] == "hunger" and sheet["hunger"] == 2
    assert m["$.system.humanity.stains"] == "stains" and sheet["stains"] == 1
    assert m["$.system.blood.potency"] == "blood_potency" and sheet["blood_potency"] == 2
    assert sheet["health"] == {"max": 4, "superficial": 2, "aggravated": 1}
    assert sheet["willpower"] == {"max": 5, "superficial": 1, "aggravated": 0}
    assert m["$.system.exp.max"] == "experience.total" and sheet["experience"] == {"total": 20, "spent": 15}
    # homebrew: names kept as typed, accents and capitals included
    h = homebrew(imported)
    assert h['$.system.skills["Égouts de Paris"].value'] == ("skills.egouts_de_paris", "Égouts de Paris")
    assert (
        sheet["names"] == {"egouts_de_paris": "Égouts de Paris"} and sheet["skills"]["egouts_de_paris"] == 2
    )
    assert h["$.items[5].name"] == ("powers.3", "Goûter le Sang")
    assert sheet["powers"][3] == {
        "discipline": "blood_sorcery",
        "level": 1,
        "power": None,
        "name": "Goûter le Sang",
    }
    # dropped, each with its reason
    d = dropped(imported)
    assert d["$.system.headers.generation"] == "no_generation_in_v5"
    assert d["$.system.skills.occult.bonuses[1]"] == "bonus_not_specialty"
    assert d["$.items[6]"] == "merits"
    assert d["$._id"] == "foundry_state" and d["$.flags.core"] == "foundry_state"
    assert "$.system.headers.chronicle" in d  # "Paris by Night": not silently lost
    # texts the sheet has no field for: kept in its notes, each under its label, HTML to text
    assert h["$.system.headers.touchstones"] == ("notes", "Touchstones")
    assert h["$.system.biography"] == ("notes", "Biography")
    assert sheet["notes"] == "Arrivée en 1998.\n\nTouchstones: Sa sœur\n\nBiography: Née à Lyon."


def test_wod5e_ghoul_has_no_hunger_and_keeps_its_discipline():
    imported = import_sheet(load("wod5e_ghoul.json"))
    assert imported.sheet["creature"] == "ghoul" and imported.sheet["hunger"] == 0
    assert imported.sheet["blood_potency"] == 0
    assert imported.sheet["powers"] == [
        {"discipline": "potence", "level": 1, "power": "lethal_body", "name": None}
    ]
    assert dropped(imported)["$.system.headers.domitor"] == "no_such_field"


def test_thin_bloods_by_their_clan_or_splat():
    wod5e = import_sheet(load("wod5e_thinblood.json"))
    assert wod5e.sheet["disciplines"] == {"thin_blood_alchemy": 1}
    assert mapped(wod5e)["$.system.disciplines.alchemy.value"] == "disciplines.thin_blood_alchemy"
    progeny = import_sheet(load("progeny_thinblood.json"))
    assert progeny.sheet["powers"] == [
        {"discipline": "thin_blood_alchemy", "level": 1, "power": "far_reach", "name": None}
    ]
    bot = import_sheet(load("v5bot_thinblood.json"))
    assert bot.sheet["creature"] == "thin_blood" and bot.sheet["specialties"] == {"science": ["Chimie"]}


def test_progeny_report_field_by_field():
    imported = import_sheet(load("progeny_vampire.json"))
    sheet, m, d = imported.sheet, mapped(imported), dropped(imported)
    assert m['$.skills["animal ken"]'] == "skills.animal_ken" and sheet["skills"]["animal_ken"] == 1
    assert m["$.skillSpecialties[1].name"] == "specialties.etiquette.0"
    assert m["$.predatorType.pickedSpecialties[0].name"] == "specialties.survival.0"
    assert sheet["specialties"]["academics"] == ["Littérature"]
    assert m["$.predatorType.name"] == "predator" and m["$.description"] == "concept"
    # a Discipline's rating is its number of powers (two Blood Sorcery powers at level 1 -> 2)
    assert sheet["disciplines"] == {"blood_sorcery": 2, "auspex": 1, "potence": 1}
    assert sheet["clan_disciplines"] == ["auspex", "dominate", "blood_sorcery"]
    assert m["$.maxHealth"] == "health.max" and sheet["health"]["max"] == 6
    assert m["$.willpower"] == "willpower.max" and m["$.bloodPotency"] == "blood_potency"
    assert d["$.merits"] == "merits" and d["$.flaws"] == "merits" and d["$.rituals"] == "rituals"
    assert d["$.generation"] == "no_generation_in_v5"
    assert homebrew(imported)["$.touchstones"] == ("notes", "Touchstones")
    assert sheet["notes"].endswith("Touchstones: Some dude")
    assert d["$.predatorType.pickedDiscipline"] == "creation_choice"
    assert d["$.disciplines[0].summary"] == "power_text"


def test_v5bot_report_field_by_field():
    imported = import_sheet(load("v5bot_vampire.json"))
    sheet, m, d, h = imported.sheet, mapped(imported), dropped(imported), homebrew(imported)
    assert m["$.traits[9].rating"] == "skills.animal_ken" and sheet["specialties"]["animal_ken"] == ["Chats"]
    assert m["$.traits[12].rating"] == "disciplines.animalism"
    assert m["$.traits[13].rating"] == "disciplines.blood_sorcery"
    assert [p["power"] for p in sheet["powers"]] == ["bond_famulus", "sense_the_beast", "corrosive_vitae"]
    assert d["$.traits[14].subtraits[0]"] == "power_without_level"  # "Unknown Trick": no level to give it
    assert h["$.traits[15].rating"] == ("skills.egouts", "Égouts") and sheet["names"] == {"egouts": "Égouts"}
    assert h["$.convictions"] == ("notes", "Convictions") and h["$.description"] == ("notes", "Description")
    assert sheet["notes"] == "Convictions: Never harm a child\n\nDescription: Tall."
    assert sheet["health"]["max"] == 6 and sheet["willpower"]["max"] == 5 and sheet["blood_potency"] == 2


def test_v5bot_stored_tracks():
    data = {**load("v5bot_ghoul.json"), "health": "../x..", "willpower": "/...", "hunger": 0}
    sheet = import_sheet(data).sheet
    assert sheet["health"] == {"max": 6, "superficial": 1, "aggravated": 1}
    assert sheet["willpower"] == {"max": 4, "superficial": 1, "aggravated": 0}


def test_wod20_vampire_report_field_by_field():
    imported = import_sheet(load("wod20_vampire.json"), system="v20")
    sheet, m, d, h = imported.sheet, mapped(imported), dropped(imported), homebrew(imported)
    assert m["$.system.generation"] == "generation" and sheet["generation"] == 10
    assert m["$.system.abilities.brawl.value"] == "talents.brawl"
    assert m["$.system.abilities.occult.value"] == "knowledges.occult"
    assert m["$.system.abilities.occult.speciality"] == "specialties.occult.0"
    assert m["$.system.attributes.intelligence.speciality"] == "specialties.intelligence.0"
    assert sheet["specialties"] == {"intelligence": ["Occultisme"], "occult": ["Thaumaturgie"]}
    assert m["$.system.advantages.path.permanent"] == "humanity" and sheet["humanity"] == 6
    assert m["$.system.advantages.virtues.selfcontrol.permanent"] == "virtues.self_control"
    assert m["$.system.advantages.willpower.temporary"] == "willpower.current"
    assert sheet["willpower"] == {"permanent": 6, "current": 5}
    assert m["$.system.advantages.bloodpool.temporary"] == "blood.current" and sheet["blood"]["current"] == 9
    assert sheet["health"] == {"bashing": 1, "lethal": 2, "aggravated": 0}
    assert m["$.items[0].system.value"] == "disciplines.thaumaturgy"
    assert sheet["disciplines"] == {"thaumaturgy": 2, "auspex": 1, "lure_of_flames": 1}
    assert [p.get("power") or p["name"] for p in sheet["powers"]] == [
        "a_taste_for_blood",
        "blood_rage",
        "heightened_senses",
        "Candle",
    ]
    assert h["$.items[2].system.value"] == ("disciplines.lure_of_flames", "Lure of Flames")
    assert h["$.items[8].system.value"] == ("skills.egouts", "Égouts")
    assert h["$.system.abilities.linguistics.value"] == ("knowledges.linguistique", "Linguistique")
    assert sheet["experience"] == {"total": 12, "spent": 10}
    assert d["$.items[7]"] == "rituals" and h["$.system.sect"] == ("notes", "Sect")
    assert sheet["notes"].endswith("Sect: Camarilla")
    assert d["$.system.attributes.composure"] == "not_a_v20_attribute"


def test_a_path_other_than_humanity_is_named_dropped():
    data = load("wod20_vampire.json")
    data["system"]["advantages"]["path"].update(label="custom", custom="Path of Night")
    imported = import_sheet(data)
    assert imported.sheet["humanity"] == 6
    assert dropped(imported)["$.system.advantages.path.label"] == "path_not_humanity"


# --- refusals: every problem at once, each at its place ------------------------------------------


def test_every_problem_is_named_at_once():
    data = load("wod5e_vampire.json")
    data["system"]["attributes"]["strength"]["value"] = 99
    data["system"]["skills"]["brawl"]["value"] = "three"
    data["system"]["hunger"]["value"] = 7
    data["items"][2]["system"]["level"] = 4  # Heightened Senses at 4, Auspex 2
    with pytest.raises(ImportRefused) as refused:
        import_sheet(data)
    problems = {(p.source, p.code) for p in refused.value.report.problems}
    assert problems >= {
        ("$.system.attributes.strength.value", "import_out_of_range"),
        ("$.system.skills.brawl.value", "import_wrong_type"),
        ("$.system.hunger.value", "import_out_of_range"),
    }
    assert refused.value.code == "import_refused" and refused.value.params["count"] == len(problems)


def test_sheet_validation_names_the_source_field():
    data = load("wod5e_vampire.json")
    data["items"][2]["system"]["level"] = 2
    data["items"][2]["name"] = "Premonition"  # a level-2 power is fine at Auspex 2 …
    data["system"]["disciplines"]["auspex"]["value"] = 1  # … not at Auspex 1
    with pytest.raises(ImportRefused) as refused:
        import_sheet(data)
    assert [(p.source, p.code) for p in refused.value.report.problems] == [
        ("$.items[2].name", "power_above_rating")
    ]


def test_specialty_on_an_untrained_skill_is_dropped_at_its_place():
    """Progeny writes its free specialties on skills at 0 into every export: dropped and said."""
    data = load("v5bot_vampire.json")
    data["traits"][11]["rating"] = 0  # Occult 0 …
    data["traits"][11]["subtraits"] = ["Grimoires"]  # … with a specialty
    imported = import_sheet(data)
    assert dropped(imported)["$.traits[11].subtraits[0]"] == "specialty_untrained"
    assert "occult" not in imported.sheet["specialties"]


def test_progenys_free_specialties_on_skills_at_0_are_dropped_and_said():
    """Progeny's own test export (progeny_1.0.0.json) has "Dance" on Performance 0 and the predator
    type's "The Road" on Survival 0."""
    data = load("progeny_vampire.json")
    data["skillSpecialties"].append({"skill": "science", "name": "Chemistry"})
    data["skills"]["survival"] = 0
    imported = import_sheet(data)
    d = dropped(imported)
    assert (
        d["$.skillSpecialties[2].name"]
        == d["$.predatorType.pickedSpecialties[0].name"]
        == "specialty_untrained"
    )
    assert "science" not in imported.sheet["specialties"] and "survival" not in imported.sheet["specialties"]


def test_v20_generation_limits_and_specialties():
    data = load("wod20_vampire.json")
    data["system"]["generation"] = 12
    data["system"]["attributes"]["strength"]["value"] = 6  # V20-19: 5 at Generation 8 and above
    data["system"]["abilities"]["brawl"]["speciality"] = "Griffes"  # V20-7: Brawl 3
    with pytest.raises(ImportRefused) as refused:
        import_sheet(data)
    assert {(p.source, p.code) for p in refused.value.report.problems} == {
        ("$.system.attributes.strength.value", "import_above_generation"),
        ("$.system.abilities.brawl.speciality", "specialty_rating_too_low"),
    }
    data = load("wod20_vampire.json")
    data["system"]["generation"] = 7
    data["system"]["attributes"]["strength"]["value"] = 6  # Generation 7: up to 6
    assert import_sheet(data).sheet["attributes"]["strength"] == 6


@pytest.mark.parametrize(
    "data", [[], "text", 3, {}, {"name": "x"}, {"system": {}, "type": "vampire"}, {"splat": "vampire"}]
)
def test_unknown_format_names_what_was_expected(data):
    with pytest.raises(RuleError) as refused:
        import_sheet(data)
    assert refused.value.code == "import_unknown_format"
    assert refused.value.params["expected"] == ["wod5e", "wod20", "progeny", "v5bot"]


def test_wrong_system_and_other_actor_types():
    with pytest.raises(RuleError) as refused:
        import_sheet(load("wod20_vampire.json"), system="v5")
    assert (refused.value.code, refused.value.params["system"]) == ("import_wrong_system", "v20")
    with pytest.raises(ImportRefused) as refused:
        import_sheet({**load("wod5e_ghoul.json"), "type": "werewolf"})
    assert refused.value.report.problems[0].source == "$.type"


def test_deep_and_huge_files_are_refused_before_reading():
    deep: dict = {}
    node = deep
    for _ in range(40):
        node["a"] = {}
        node = node["a"]
    with pytest.raises(RuleError) as refused:
        import_sheet({**load("wod5e_ghoul.json"), "deep": deep})
    assert refused.value.code == "import_too_deep"
    with pytest.raises(RuleError) as refused:
        import_sheet({**load("wod5e_ghoul.json"), "many": list(range(60_000))})
    assert refused.value.code == "import_too_big"


def test_a_missing_name_is_a_problem():
    data = load("v5bot_ghoul.json")
    del data["name"]
    with pytest.raises(ImportRefused) as refused:
        import_sheet(data)
    assert refused.value.report.problems[0].code == "import_missing_name"


def test_interop_is_pure():
    """No web, storage or CLI library (ARCHITECTURE: layer 2)."""
    banned = (
        "fastapi",
        "starlette",
        "sqlalchemy",
        "typer",
        "rich",
        "jinja2",
        "rollbook.server",
        "rollbook.web",
        "rollbook.cli",
        "httpx",
    )
    for path in Path(interop.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            for name in names:
                assert not name.startswith(banned), f"{path.name} imports {name}"


def test_report_is_plain_json():
    imported = import_sheet(load("wod20_vampire.json"))
    assert json.loads(json.dumps(imported.plain())) == imported.plain()


def test_the_other_splats_fields_every_wod5e_actor_carries_are_named_dropped():
    data = load("wod5e_ghoul.json")
    data["system"]["rage"] = {"value": 0, "max": 5}
    data["system"]["crinosHealth"] = {"aggravated": 0, "superficial": 0, "max": 4, "value": 4}
    data["system"]["despair"] = {"value": 0}
    d = dropped(import_sheet(data))
    assert d["$.system.rage"] == d["$.system.crinosHealth"] == d["$.system.despair"] == "not_for_creature"
