"""The files the players' tools write, read as they come (tests/interop/fixtures/: each written by the
tool's own code or assembled from its own data model, the upstream file and commit named in the
script beside it: progeny_exports.ts, foundry_actors.mjs, inconnu_export.py; docs/import.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rollbook.i18n.messages import error_message
from rollbook.interop import ImportRefused, export_sheet, import_sheet
from rollbook.interop.report import at, empty
from rollbook.rules.base import RuleError

FIXTURES = Path(__file__).parent / "fixtures"


def real(name: str):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def by_source(imported, kind: str) -> dict[str, str]:
    plain = imported.report.plain()
    key = {"mapped": "target", "dropped": "reason", "homebrew": "target"}[kind]
    return {entry["source"]: entry[key] for entry in plain[kind]}


# (file, pick, format, creature)
REAL = [
    ("progeny_test_vampire.json", None, "progeny", "vampire"),
    ("progeny_test_thinblood.json", None, "progeny", "thin_blood"),
    ("progeny_test_vampire.wod5e.json", None, "wod5e", "vampire"),
    ("progeny_test_thinblood.wod5e.json", None, "wod5e", "thin_blood"),
    ("progeny_test_vampire.inconnu.json", None, "v5bot", "vampire"),
    ("progeny_test_thinblood.inconnu.json", None, "v5bot", "thin_blood"),
    ("inconnu_guild_export.json", 0, "v5bot", "vampire"),
    ("inconnu_guild_export.json", 1, "v5bot", "ghoul"),
    ("inconnu_guild_export.json", 2, "v5bot", "thin_blood"),
    ("wod5e53_vampire.json", None, "wod5e", "vampire"),
    ("wod5e53_ghoul.json", None, "wod5e", "ghoul"),
    ("wod5e53_mortal.json", None, "wod5e", "mortal"),
    ("wod5e53_thinblood.json", None, "wod5e", "thin_blood"),
    ("wod20_72_vampire.json", None, "wod20", "vampire"),
    ("wod20_72_mortal.json", None, "wod20", "mortal"),
    ("wod20_72_pc_vampire.json", None, "wod20", "vampire"),
    ("wod20_72_pc_mortal.json", None, "wod20", "mortal"),
]


@pytest.mark.parametrize(("name", "pick", "fmt", "creature"), REAL)
def test_every_real_file_imports(name, pick, fmt, creature):
    imported = import_sheet(real(name), pick=pick)
    assert (imported.format, imported.sheet["creature"]) == (fmt, creature)
    assert imported.report.problems == ()
    for target in by_source(imported, "mapped").values():  # every target is a place of the sheet
        node = imported.sheet
        for part in target.split("."):
            node = node[int(part)] if isinstance(node, list) else node[part]


@pytest.mark.parametrize(
    ("name", "pick", "source"),
    [
        ("wod5e53_ghoul.json", None, "$.system.hunger.value"),
        ("wod5e53_mortal.json", None, "$.system.hunger.value"),
        ("inconnu_guild_export.json", 1, "$[1].hunger"),
    ],
)
def test_ghouls_and_mortals_keep_no_hunger_and_say_so(name, pick, source):
    """V5-12: WoD5e creates every actor with hunger.value 1, the bot every character with hunger 1."""
    imported = import_sheet(real(name), pick=pick)
    assert imported.sheet["hunger"] == 0
    assert by_source(imported, "dropped")[source] == "not_for_creature"
    assert source not in by_source(imported, "mapped")


def test_wod5e_experience_log():
    """5.3's getDerivedExperience: earned = exp.max + entries >= 0; left = exp.value + every entry."""
    vampire = import_sheet(real("wod5e53_vampire.json"))
    assert vampire.sheet["experience"] == {"total": 15, "spent": 10}
    mapped, dropped = by_source(vampire, "mapped"), by_source(vampire, "dropped")
    assert mapped["$.system.experiences[0].value"] == "experience.total"
    assert mapped["$.system.experiences[2].value"] == "experience.spent"
    assert dropped["$.system.experiences[2].name"] == "experience_log"
    assert "$.system.experiences" not in dropped
    thin = import_sheet(real("wod5e53_thinblood.json"))  # exp typed before 5.3, and a log entry
    assert thin.sheet["experience"] == {"total": 5, "spent": 0}


def test_wod5e_html_notes_and_item_texts():
    imported = import_sheet(real("wod5e53_vampire.json"))
    # the touchstones header (HTML) kept in the notes after the actor's own notes, as text
    assert imported.sheet["notes"] == (
        "Vit à Montmartre.\n- Dette envers le Prince\n\nTouchstones: Sa sœur Claire"
    )
    assert by_source(imported, "homebrew")["$.system.headers.touchstones"] == "notes"
    dropped = by_source(imported, "dropped")
    assert dropped["$.items[0].system.bane"] == dropped["$.items[0].system.description"] == "item_text"
    assert dropped["$.items[4].system.dicepool"] == "item_text"
    assert dropped["$.items[2].system.cost"] == "item_text"


def test_texts_without_a_field_are_kept_in_the_notes_in_the_readers_language():
    """WoD5e's ``bio`` texts and the touchstones, each a section of the notes under its label in the
    import's language (French: a narrow no-break space before the colon); several paragraphs or
    list items go under their label, one a line."""
    data = real("wod5e53_vampire.json")
    data["system"]["notes"] = ""
    data["system"]["bio"] = {"age": {"trueage": "212", "apparent": ""}, "dateof": {"death": "1812"}}
    data["system"]["bio"]["history"] = "<p>Née à Lyon.</p><p>Arrivée en 1998.</p>"
    imported = import_sheet(data, lang="fr")
    assert imported.sheet["notes"] == (
        "Pierres de touche\u202f: Sa sœur Claire\n\nÂge réel\u202f: 212\n\nDate de mort\u202f: 1812"
        "\n\nHistoire\u202f:\nNée à Lyon.\nArrivée en 1998."
    )
    homebrew = {h.source: (h.target, h.name) for h in imported.report.homebrew}
    assert homebrew["$.system.bio.age.trueage"] == ("notes", "Âge réel")
    assert homebrew["$.system.bio.history"] == ("notes", "Histoire")
    assert "$.system.bio.age.apparent" not in homebrew  # empty: nothing to keep
    sect = real("wod20_72_vampire.json")
    assert import_sheet(sect, lang="es").sheet["notes"].endswith("Secta: Camarilla")


@pytest.mark.parametrize(
    ("key", "lang", "named"),
    [
        ("sabbat", "en", "Sect: Sabbat"),
        ("anarch", "en", "Sect: Anarch Movement"),
        ("anarch", "fr", "Secte\u202f: Mouvement Anarch"),
        ("anarch", "es", "Secta: Anarquistas"),
        ("independent", "fr", "Secte\u202f: Indépendant"),
        ("independent", "es", "Secta: Independentes"),  # WoD20's es.json spelling
        ("blackhand", "en", "Sect: The True Black Hand"),
        ("blackhand", "fr", "Secte\u202f: La Vraie Main Noire"),
        ("inconnu", "es", "Secta: Inconnu"),
    ],
)
def test_every_sect_of_wod20_s_select_is_named_in_the_notes(key, lang, named):
    """WoD20's sect select (bio.js: camarilla, sabbat, anarch, independent, blackhand, inconnu) stores
    a translation key: each is named as WoD20's language files name it, never kept as the key."""
    actor = real("wod20_72_vampire.json")
    actor["system"]["sect"] = f"wod.bio.vampire.{key}"
    notes = import_sheet(actor, lang=lang).sheet["notes"]
    assert notes.endswith(named) and "wod.bio" not in notes, notes


def test_a_text_the_notes_have_no_room_for_is_dropped_and_said():
    """The notes' bound (20,000 characters): a section that would pass it is reported dropped
    (``notes_full``), never a refusal; a later one that fits is still kept."""
    data = real("wod5e53_vampire.json")
    data["system"]["notes"] = "x" * 19_950
    data["system"]["biography"] = "y" * 100
    data["system"]["bio"]["history"] = "short"
    imported = import_sheet(data)
    assert by_source(imported, "dropped")["$.system.biography"] == "notes_full"
    assert len(imported.sheet["notes"]) <= 20_000
    assert imported.sheet["notes"].endswith("History: short")
    assert by_source(imported, "homebrew")["$.system.bio.history"] == "notes"


def test_a_noted_field_of_another_type_is_dropped_not_refused():
    data = real("wod5e53_vampire.json")
    data["system"]["headers"]["touchstones"] = 3
    data["system"]["biography"] = ["Née à Lyon."]
    imported = import_sheet(data)
    dropped = by_source(imported, "dropped")
    assert dropped["$.system.headers.touchstones"] == "no_such_field"
    assert imported.sheet["notes"].endswith("Biography: Née à Lyon.")
    bot = real("inconnu_guild_export.json")
    bot[0]["convictions"] = ["Never harm a child", {"odd": 1}]
    assert by_source(import_sheet(bot, pick=0), "dropped")["$[0].convictions"] == "no_such_field"


def test_inconnus_profile_and_convictions_are_kept_in_the_notes():
    bot = import_sheet(real("inconnu_guild_export.json"), pick=0)
    homebrew = by_source(bot, "homebrew")
    assert homebrew["$[0].profile.biography"] == homebrew["$[0].profile.description"] == "notes"
    assert bot.sheet["notes"].startswith("Convictions: Test conviction\n\nBiography:\nClan: Brujah\n")
    assert bot.sheet["notes"].endswith("\n\nDescription: A test vampire character")


def test_progenys_own_exports_of_its_test_character():
    """Progeny's free specialty (Sandman's Medicine "Anesthetics", Medicine 0) is in its WoD5e and
    Inconnu exports too: dropped and said, as from its own JSON."""
    wod5e = import_sheet(real("progeny_test_vampire.wod5e.json"))
    assert by_source(wod5e, "dropped")["$.system.skills.medicine.bonuses[0].source"] == "specialty_untrained"
    assert wod5e.sheet["specialties"] == {"intimidation": ["Direct Specialty"]}
    bot = import_sheet(real("progeny_test_vampire.inconnu.json"))
    dropped = by_source(bot, "dropped")
    assert "specialty_untrained" in [dropped[s] for s in dropped if "subtraits" in s]
    assert bot.sheet["specialties"] == {"intimidation": ["Direct Specialty"]}  # underscores: blanks
    # Progeny's test character has Prowess (Potence 2 in the book) at Potence 1: the bot's file gives
    # no level to place it
    assert "power_above_rating" in dropped.values()
    # its thin-blood's WoD5e export leaves alchemy out of system.disciplines: rated by its power
    thin = import_sheet(real("progeny_test_thinblood.wod5e.json"))
    assert thin.sheet["disciplines"] == {"thin_blood_alchemy": 1}
    assert thin.sheet["powers"][0]["power"] == "far_reach"


def test_progeny_hunger_0_is_hunger_0():
    imported = import_sheet(real("progeny_test_vampire.json"))
    assert imported.sheet["hunger"] == 0
    assert by_source(imported, "mapped")["$.ephemeral.hunger"] == "hunger"


def test_inconnu_guild_export_offers_its_characters():
    data = real("inconnu_guild_export.json")
    with pytest.raises(RuleError) as refused:
        import_sheet(data)
    assert refused.value.code == "import_pick_character"
    assert refused.value.params["names"] == ["Test Vampire", "Renfield", "Test Thinblood"]
    assert "{" not in error_message("import_pick_character", "fr", refused.value.params)
    vampire = import_sheet(data, pick=0)
    assert vampire.sheet["health"] == {"max": 5, "superficial": 1, "aggravated": 0}
    assert vampire.sheet["experience"] == {"total": 9, "spent": 5} and vampire.sheet["hunger"] == 3
    ghoul = import_sheet(data, pick=1)
    assert ghoul.sheet["names"] == {"black_market": "Black Market"}  # the bot's underscore: a blank
    assert ghoul.sheet["powers"] == [
        {"discipline": "potence", "level": 1, "power": "lethal_body", "name": None}
    ]
    assert ghoul.sheet["specialties"] == {"brawl": ["Grappling"]}
    with pytest.raises(RuleError) as refused:
        import_sheet(data, pick=3)
    assert refused.value.code == "out_of_range"


def test_wod20_experience_by_type_and_clan_by_key():
    vampire = import_sheet(real("wod20_72_vampire.json"))
    # earned: the "expgained" items (their isspent left true); spent: "expspent" marked isspent;
    # a purchase planned (isspent false) is not spent yet
    assert vampire.sheet["experience"] == {"total": 15, "spent": 7}
    assert by_source(vampire, "dropped")["$.items[7]"] == "experience_planned"
    assert vampire.sheet["clan"] == "Tremere"
    assert import_sheet(real("wod20_72_vampire.json"), lang="fr").sheet["clan"] == "Tremere"
    data = real("wod20_72_vampire.json")
    data["system"]["clan"] = "wod.bio.vampire.set"
    assert import_sheet(data, lang="fr").sheet["clan"] == "Disciples de Seth"
    assert import_sheet(data).sheet["clan"] == "Followers of Set"
    data["system"]["clan"], data["system"]["custom"]["clan"] = "custom", "Salubri"
    assert import_sheet(data).sheet["clan"] == "Salubri"
    assert vampire.sheet["notes"] == "Chantry de Vienne\n\nSect: Camarilla"  # the sect's key, named
    mortal = import_sheet(real("wod20_72_mortal.json"))
    assert mortal.sheet["experience"] == {"total": 6, "spent": 0}


def test_wod20_pc_actors():
    """The 7.x PC actor (its README's choice for V20): abilities and advantages as items a Splat
    brought, the splat's bio fields in bio.splatfields."""
    vampire = import_sheet(real("wod20_72_pc_vampire.json"))
    sheet, mapped = vampire.sheet, by_source(vampire, "mapped")
    assert (sheet["clan"], sheet["sire"], sheet["generation"]) == ("Tzimisce", "Vykos", 9)
    assert mapped["$.system.bio.splatfields.generation.value"] == "generation"
    assert sheet["knowledges"]["medicine"] == 4 and sheet["specialties"] == {"medicine": ["Chirurgie"]}
    assert sheet["virtues"] == {"conscience": 2, "self_control": 3, "courage": 4}
    assert sheet["humanity"] == 5 and sheet["willpower"] == {"permanent": 6, "current": 5}
    assert sheet["blood"]["current"] == 12 and sheet["health"]["bashing"] == 2
    assert sheet["powers"] == [
        {"discipline": "vicissitude", "level": 1, "power": "malleable_visage", "name": None}
    ]
    assert sheet["experience"] == {"total": 20, "spent": 12}
    assert sheet["notes"] == "Hôpital Lariboisière\n\nSect: Sabbat"  # the sect kept in the notes
    assert by_source(vampire, "homebrew")["$.system.bio.splatfields.sect.value"] == "notes"
    mortal = import_sheet(real("wod20_72_pc_mortal.json"))
    assert mortal.sheet["creature"] == "mortal" and mortal.sheet["skills"]["drive"] == 3
    other = real("wod20_72_pc_mortal.json")
    other["system"]["settings"]["splat"] = "werewolf"
    with pytest.raises(ImportRefused) as refused:
        import_sheet(other)
    assert refused.value.report.problems[0].source == "$.system.settings.splat"


def test_wod20_export_is_what_foundry_reads():
    """Experience items with system.type (item-helpers.js sums by it); a clan the select lists."""
    sheet = import_sheet(real("wod20_72_vampire.json")).sheet
    actor = export_sheet("v20", sheet, "wod20")
    experience = [i["system"] for i in actor["items"] if i["type"] == "Experience"]
    earned = sum(s["amount"] for s in experience if s["type"] == "wod.types.expgained")
    spent = sum(s["amount"] for s in experience if s["type"] == "wod.types.expspent" and s["isspent"])
    assert (earned, spent) == (15, 7)
    assert actor["system"]["clan"] == "wod.bio.vampire.tremere"
    assert import_sheet(actor).sheet == sheet
    sheet["clan"] = "Salubri"
    actor = export_sheet("v20", sheet, "wod20")
    assert (actor["system"]["clan"], actor["system"]["custom"]["clan"]) == ("custom", "Salubri")
    assert import_sheet(actor).sheet == sheet
    sheet["clan"] = "Disciples de Seth"
    actor = export_sheet("v20", sheet, "wod20")
    assert actor["system"]["clan"] == "wod.bio.vampire.set" and import_sheet(actor).sheet == sheet


def test_wod20_primary_path_is_its_discipline_both_ways():
    """Thaumaturgy's Path of Blood (a ``disciplinepath`` item under the Discipline, its powers under
    the path): the powers rollbook knows are the primary path's (play/powers_data.py)."""
    imported = import_sheet(real("wod20_72_vampire.json"))
    assert imported.sheet["disciplines"] == {"thaumaturgy": 2, "auspex": 1}
    assert imported.sheet["powers"][0] == {
        "discipline": "thaumaturgy",
        "level": 1,
        "power": "a_taste_for_blood",
        "name": None,
    }
    assert by_source(imported, "mapped")["$.items[1].system.value"] == "disciplines.thaumaturgy"
    actor = export_sheet("v20", imported.sheet, "wod20")
    items = {item["_id"]: item for item in actor["items"]}
    path = next(i for i in actor["items"] if i["system"]["type"] == "wod.types.disciplinepath")
    assert path["name"] == "Path of Blood" and items[path["system"]["parentid"]]["name"] == "Thaumaturgy"
    taste = next(i for i in actor["items"] if i["name"] == "A Taste for Blood")
    assert taste["system"]["parentid"] == path["_id"]
    assert import_sheet(actor).sheet == imported.sheet


@pytest.mark.parametrize(
    ("name", "pick"),
    [
        ("wod5e53_ghoul.json", None),
        ("inconnu_guild_export.json", 1),
        ("progeny_test_vampire.inconnu.json", None),
        ("progeny_test_thinblood.wod5e.json", None),
    ],
)
def test_round_trip_through_wod5e(name, pick):
    sheet = import_sheet(real(name), pick=pick).sheet
    assert import_sheet(export_sheet("v5", sheet, "wod5e")).sheet == sheet


def test_refusal_messages_fill_every_placeholder():
    """A sheet-level refusal (the experience spent above the earned) names its field."""
    data = real("wod20_72_mortal.json")
    data["items"][0]["system"]["type"] = "wod.types.expspent"  # 6 spent, nothing earned
    with pytest.raises(ImportRefused) as refused:
        import_sheet(data)
    for problem in refused.value.report.problems:
        for lang in ("en", "fr", "es"):
            text = error_message(problem.code, lang, dict(problem.params))
            assert "{" not in text, text


def leaves(value: object, path: str):
    if isinstance(value, dict) and value:
        for key, child in value.items():
            yield from leaves(child, at(path, key))
    elif isinstance(value, list) and value:
        for index, child in enumerate(value):
            yield from leaves(child, at(path, index))
    else:
        yield path, value


@pytest.mark.parametrize(("name", "pick", "fmt", "creature"), REAL)
def test_every_leaf_of_a_real_file_is_in_the_report(name, pick, fmt, creature):
    """Each value of the file is mapped, kept as homebrew or dropped with its reason, itself or as a
    part of an object the report names; an empty value (null, "", [], {}, false) holds nothing."""
    data = real(name)
    imported = import_sheet(data, pick=pick)
    root, node = ("$", data) if pick is None else (f"$[{pick}]", data[pick])
    report = imported.report
    sources = {entry.source for entry in (*report.mapped, *report.homebrew, *report.dropped)}
    missing = []
    for path, value in leaves(node, root):
        if empty(value):
            continue
        place = path
        while place not in sources and place != root:
            place = place[: max(place.rfind("."), place.rfind("["))]
        if place == root:
            missing.append((path, value))
    assert missing == []


def shape_mismatches(written: object, real_value: object, path: str, free: tuple[str, ...]) -> list[str]:
    """Where ``written`` has a field the tool's own actor (``real_value``, every field at its
    data model's initial value) lacks, or a value of another JSON type. ``free``: objects whose keys
    are the actor's own (skills, Disciplines) and so are compared entry by entry with any entry."""
    if isinstance(real_value, dict) and isinstance(written, dict):
        problems = []
        for key, value in written.items():
            here = at(path, key)
            if path.endswith(free) and real_value:
                problems += shape_mismatches(value, next(iter(real_value.values())), here, free)
            elif key not in real_value:
                problems.append(f"{here}: not a field of the actor")
            else:
                problems += shape_mismatches(value, real_value[key], here, free)
        return problems
    if real_value is None or (isinstance(real_value, list) and not real_value):
        return []  # a field whose initial value says nothing of its type
    if type(written) is not type(real_value) and not (
        isinstance(written, (int, float)) and isinstance(real_value, (int, float))
    ):
        return [f"{path}: {type(written).__name__}, the actor's {type(real_value).__name__}"]
    return []


@pytest.mark.parametrize(
    ("name", "pick", "system", "fmt", "model", "free"),
    [
        ("wod5e53_vampire.json", None, "v5", "wod5e", "wod5e53_vampire.json", (".skills", ".disciplines")),
        ("wod5e53_ghoul.json", None, "v5", "wod5e", "wod5e53_vampire.json", (".skills", ".disciplines")),
        ("inconnu_guild_export.json", 2, "v5", "wod5e", "wod5e53_vampire.json", (".skills", ".disciplines")),
        ("wod20_72_vampire.json", None, "v20", "wod20", "wod20_72_vampire.json", (".abilities",)),
        ("wod20_72_pc_vampire.json", None, "v20", "wod20", "wod20_72_vampire.json", (".abilities",)),
        ("wod20_72_mortal.json", None, "v20", "wod20", "wod20_72_mortal.json", (".abilities",)),
        ("wod20_72_pc_mortal.json", None, "v20", "wod20", "wod20_72_mortal.json", (".abilities",)),
        ("wod5e53_mortal.json", None, "v5", "wod5e", "wod5e53_mortal.json", (".skills", ".disciplines")),
    ],
)
def test_exports_have_the_fields_and_types_of_the_tools_own_actors(name, pick, system, fmt, model, free):
    """What rollbook writes is made of the fields, with their JSON types, of an actor the system's
    own data model makes (the fixtures built from WoD5e's WoDActorModel and WoD20's template.json);
    each item as the system's own item of that type."""
    actor = export_sheet(system, import_sheet(real(name), pick=pick).sheet, fmt)
    own = real(model)
    problems = shape_mismatches(actor["system"], own["system"], "$.system", free)
    kinds = {(i["type"], (i["system"].get("type") if fmt == "wod20" else None)): i for i in own["items"]}
    for index, item in enumerate(actor["items"]):
        key = (item["type"], item["system"].get("type") if fmt == "wod20" else None)
        if key in kinds:
            problems += shape_mismatches(item["system"], kinds[key]["system"], f"$.items[{index}].system", ())
    assert problems == []
