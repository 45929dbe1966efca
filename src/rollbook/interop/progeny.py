"""Progeny (the V5 character builder, progeny.odin-matthias.de) JSON -> a rollbook V5 sheet.

Read from Progeny's own data model, ``frontend/src/data/Character.ts`` (zod ``characterSchema``) and
its test export ``frontend/src/test/jsonExports/progeny_1.0.0.json``, repository
Odin94/Progeny-vtm-v5-character-creator at commit 1433980b (docs/import.md): flat attribute and
skill maps (``"animal ken"`` with a blank), ``skillSpecialties`` and the predator type's
``pickedSpecialties`` (``{skill, name}``), ``disciplines`` as a list of powers (``{name, level,
discipline}``, the Discipline named ``"blood sorcery"``, ``"thin-blood alchemy"`` …),
``availableDisciplineNames`` (the clan's), ``bloodPotency``, ``maxHealth``, ``willpower``,
``humanity``, ``experience``, and since schema 8 ``ephemeral`` (Hunger, damage, stains, experience
spent). A Discipline's rating is its number of powers (one power per dot), at least its highest
power's level. Progeny builds vampires only; the clan "Thin-blood" makes a thin-blood. Progeny gives
its free specialties whatever the skill's dots (its own test export has "Dance" on Performance 0): a
specialty on a skill at 0 is dropped, and the report says so.
"""

from __future__ import annotations

from rollbook.interop.common import (
    V5_ATTRIBUTES,
    V5_DISCIPLINES,
    V5_SKILLS,
    power,
    rated,
    specialty,
    trait_id,
)
from rollbook.interop.names import squashed
from rollbook.interop.report import FileObject, Reader, at

FORMAT = "progeny"
SYSTEM = "v5"
DETECTION_RANK = 2  # ``interop.formats.Format``: after the Foundry actors

TEXTS = {
    "name": "name",
    "description": "concept",
    "sire": "sire",
    "ambition": "ambition",
    "desire": "desire",
    "player": "player",
}
NUMBERS = {
    "bloodPotency": ("blood_potency", 0, 10),
    "maxHealth": ("health.max", 1, 20),
    "willpower": ("willpower.max", 1, 20),
    "humanity": ("humanity", 0, 10),
    "experience": ("experience.total", 0, 100000),
}
EPHEMERAL = {
    "hunger": ("hunger", 0, 5),
    "superficialDamage": ("health.superficial", 0, 20),
    "aggravatedDamage": ("health.aggravated", 0, 20),
    "superficialWillpowerDamage": ("willpower.superficial", 0, 20),
    "aggravatedWillpowerDamage": ("willpower.aggravated", 0, 20),
    "humanityStains": ("stains", 0, 10),
    "experienceSpent": ("experience.spent", 0, 100000),
}
DROPPED = {
    "touchstones": None,  # kept in the notes
    "merits": "merits",
    "flaws": "merits",
    "rituals": "rituals",
    "ceremonies": "rituals",
    "generation": "no_generation_in_v5",
    "id": "source_bookkeeping",
    "version": "source_bookkeeping",
    "characterVersion": "source_bookkeeping",
    "chronicle": "no_such_field",
    "sect": None,  # kept in the notes
    "clanBane": "no_such_field",
    "customDisciplines": "no_such_field",
    "notes": None,
}


# A homebrew clan (Progeny's ClanPicker leaves ``clan`` "" and keeps the clan in ``homebrewClan``;
# its exporters name it ``homebrewClan.name``): its name is the clan; the rest, by what it holds.
HOMEBREW_CLAN = {
    "description": "item_text",
    "summary": "item_text",
    "bane": "item_text",
    "compulsion": "item_text",
    "logo": "source_bookkeeping",
    "homebrewSource": "source_bookkeeping",
    "nativeDisciplines": "creation_choice",  # availableDisciplineNames holds them
    "nativeDisciplineRefs": "creation_choice",
    "excludedPredatorTypes": "creation_choice",
    "excludedMeritsAndFlaws": "creation_choice",
}


def detect(data: object) -> bool:
    return (
        isinstance(data, dict)
        and "bloodPotency" in data
        and isinstance(data.get("attributes"), dict)
        and isinstance(data.get("skills"), dict)
    )


def read(data: FileObject, reader: Reader) -> str:
    """Reads the file into ``reader.draft``; returns the creature."""
    root = "$"
    creature = "vampire"
    clan = reader.text(data.get("clan"), at(root, "clan"))
    if clan:
        reader.put("clan", clan, at(root, "clan"))
        if squashed(clan) == "thinblood":
            creature = "thin_blood"
    homebrew_clan = reader.obj(data.get("homebrewClan"), at(root, "homebrewClan")) or {}
    where = at(root, "homebrewClan")
    for key, value in homebrew_clan.items():
        if key == "name":
            name = reader.text(value, at(where, key))
            if name and not clan:
                reader.put("clan", name, at(where, key))
            else:
                reader.drop(at(where, key), "no_such_field", value)
        else:
            reader.drop(at(where, key), HOMEBREW_CLAN.get(key, "no_such_field"), value)
    reader.draft["creature"] = creature
    for key, target in TEXTS.items():
        text = reader.text(data.get(key), at(root, key), 100 if key == "name" else 200)
        if text:
            reader.put(target, text, at(root, key))
    notes = reader.text(data.get("notes"), at(root, "notes"), 20000)
    if notes:
        reader.put("notes", notes, at(root, "notes"))
    _touchstones(reader, data.get("touchstones"), at(root, "touchstones"))
    reader.note(at(root, "sect"), "sect", data.get("sect"))
    for key, (target, low, high) in NUMBERS.items():
        if key in data:
            number = reader.integer(data[key], at(root, key), low, high)
            if number is not None:
                reader.put(target, number, at(root, key))
    ephemeral = reader.obj(data.get("ephemeral"), at(root, "ephemeral")) or {}
    for key, value in ephemeral.items():
        where = at(at(root, "ephemeral"), key)
        if key in EPHEMERAL:
            target, low, high = EPHEMERAL[key]
            number = reader.integer(value, where, low, high)
            if number is not None:  # Hunger 0 too: Progeny's own test character is at Hunger 0
                reader.put(target, number, where)
        else:
            reader.drop(where, "no_such_field", value)
    attributes = reader.obj(data.get("attributes"), at(root, "attributes")) or {}
    for key, value in attributes.items():
        where = at(at(root, "attributes"), key)
        identifier = V5_ATTRIBUTES.get(squashed(key))
        if identifier is None:
            reader.problem(where, "import_unknown_attribute", name=key)
            continue
        number = reader.integer(value, where, 1, 5)
        if number is not None:
            reader.put(f"attributes.{identifier}", number, where)
    skills = reader.obj(data.get("skills"), at(root, "skills")) or {}
    for key, value in skills.items():
        rated(
            reader, "skills", key, value, at(at(root, "skills"), key), at(at(root, "skills"), key), V5_SKILLS
        )
    for group in ("skillSpecialties",):
        for index, item in enumerate(reader.array(data.get(group), at(root, group)) or []):
            _specialty(reader, item, at(at(root, group), index))
    predator = reader.obj(data.get("predatorType"), at(root, "predatorType")) or {}
    where = at(root, "predatorType")
    name = reader.text(predator.get("name"), at(where, "name"))
    if name:
        reader.put("predator", name, at(where, "name"))
    for index, item in enumerate(
        reader.array(predator.get("pickedSpecialties"), at(where, "pickedSpecialties")) or []
    ):
        _specialty(reader, item, at(at(where, "pickedSpecialties"), index))
    reader.drop(at(where, "pickedDiscipline"), "creation_choice", predator.get("pickedDiscipline"))
    reader.drop(at(where, "pickedMeritsAndFlaws"), "merits", predator.get("pickedMeritsAndFlaws"))
    for index, given in enumerate(
        reader.array(data.get("availableDisciplineNames"), at(root, "availableDisciplineNames")) or []
    ):
        source = at(at(root, "availableDisciplineNames"), index)
        identifier, _ = trait_id(reader, given, source, V5_DISCIPLINES)
        if identifier and identifier not in reader.draft.get("clan_disciplines", []):
            reader.append("clan_disciplines", identifier, source)
    _disciplines(
        reader, reader.array(data.get("disciplines"), at(root, "disciplines")) or [], at(root, "disciplines")
    )
    for key, reason in DROPPED.items():
        if reason and key in data:
            reader.drop(at(root, key), reason, data[key])
    known = (
        set(TEXTS)
        | set(NUMBERS)
        | set(DROPPED)
        | {
            "clan",
            "homebrewClan",
            "ephemeral",
            "attributes",
            "skills",
            "skillSpecialties",
            "predatorType",
            "availableDisciplineNames",
            "disciplines",
        }
    )
    for key in data:
        if key not in known:
            reader.drop(at(root, key), "unknown_field", data[key])
    return creature


def _touchstones(reader: Reader, value: object, where: str) -> None:
    """``touchstones`` (``{name, description, conviction}`` each): one line each in the notes, as
    "name (conviction) — description"; any other field of a touchstone dropped."""
    if not isinstance(value, list):
        reader.drop(where, "no_such_field", value)
        return
    lines = []
    for index, item in enumerate(value):
        here = at(where, index)
        touchstone = item if isinstance(item, dict) else {}
        parts = {key: touchstone.get(key) for key in ("name", "conviction", "description")}
        if not isinstance(item, dict) or not all(
            part is None or isinstance(part, str) for part in parts.values()
        ):
            reader.drop(here, "no_such_field", item)
            continue
        name, conviction, description = (str(part or "").strip() for part in parts.values())
        line = f"{name} ({conviction})" if name and conviction else name or conviction
        line = f"{line} — {description}" if line and description else line or description
        if line:
            lines.append(line)
        reader.rest(here, touchstone, ("name", "conviction", "description"), "unknown_field")
    reader.note(where, "touchstones", lines)


def _specialty(reader: Reader, value: object, where: str) -> None:
    item = reader.obj(value, where)
    if item is None:
        return
    skill, homebrew = trait_id(reader, item.get("skill"), at(where, "skill"), V5_SKILLS)
    if skill is None:
        return
    if homebrew is not None and skill not in reader.draft.get("skills", {}):
        reader.problem(at(where, "skill"), "unknown_trait", trait=skill)
        return
    if reader.draft.get("skills", {}).get(skill, 0) == 0:
        # Progeny gives the free specialties (Academics, Craft, Performance, Science, the predator type's)
        # whatever the skill's dots: a rollbook sheet keeps a specialty on a skill rated 1 or more.
        reader.drop(at(where, "name"), "specialty_untrained", item.get("name"))
    else:
        specialty(reader, skill, item.get("name"), at(where, "name"))
    reader.along(at(where, "name"), at(where, "skill"))


def _disciplines(reader: Reader, powers: list[object], root: str) -> None:
    """Progeny lists powers; each Discipline's rating is its count of powers, at least its highest level."""
    counted: dict[str, list[int]] = {}
    first_source: dict[str, str] = {}
    readable: list[tuple[str, object, int, str]] = []
    for index, item in enumerate(powers):
        where = at(root, index)
        item = reader.obj(item, where)
        if item is None:
            continue
        discipline, homebrew = trait_id(
            reader, item.get("discipline"), at(where, "discipline"), V5_DISCIPLINES
        )
        level = reader.integer(item.get("level"), at(where, "level"), 1, 5)
        if discipline is None or level is None:
            continue
        if homebrew is not None and homebrew != discipline:
            reader.draft.setdefault("names", {})[discipline] = homebrew
        counted.setdefault(discipline, []).append(level)
        first_source.setdefault(discipline, at(where, "discipline"))
        readable.append((discipline, item.get("name"), level, at(where, "name")))
        for key in ("description", "summary", "dicePool", "rouseChecks", "amalgamPrerequisites"):
            reader.drop(at(where, key), "power_text", item.get(key))
    for discipline, levels in counted.items():
        rating = max(len(levels), max(levels))
        if rating > 5:
            reader.problem(first_source[discipline], "import_out_of_range", value=rating, low=0, high=5)
            continue
        unknown = discipline not in V5_DISCIPLINES.values()
        name = reader.draft.get("names", {}).get(discipline, discipline) if unknown else None
        reader.put(f"disciplines.{discipline}", rating, first_source[discipline], name=name)
    for discipline, name, level, where in readable:
        if discipline in reader.draft.get("disciplines", {}):
            power(reader, "v5", discipline, name, level, where)
            item = where.removesuffix(".name")
            reader.along(where, at(item, "discipline"), at(item, "level"))
