"""WoD5e (the Foundry VTT system "wod5e", World of Darkness 5e) actor JSON <-> a rollbook V5 sheet.

Read from the system's data models, repository WoD5E-Developers/wod5e, version 5.3.25 (commit
66705147, docs/import.md): ``system/actor/data-models/base-actor-model.js`` (``headers``, ``exp``,
``health`` and ``willpower`` with ``superficial``/``aggravated``/``max``/``value``, ``notes``),
``fields/vampire-fields.js`` (``hunger``, ``humanity.{value,stains}``, ``blood.{potency,generation}``,
``disciplines`` an object by key), ``fields/skill-fields.js`` and ``attribute-fields.js``
(``<key>.value``; a skill's specialties are its ``bonuses`` shown when inactive, as the skill
application writes them, ``system/actor/applications/scripts/specialty-bonuses.js``, and
``scripts/migration/migrate-specialties.js`` with ``activeWhen.check == "never"``), ``api/def/skills.js`` and
``api/def/disciplines.js`` (its own keys: ``animalken``, ``sorcery``, ``alchemy``, ``rituals``,
``ceremonies``), ``system.json`` (actor types ``vampire``, ``ghoul``, ``mortal``; items ``power``
with ``system.discipline``/``level``, ``clan``, ``predatorType``, ``feature``).

Thin-bloods have no actor type of their own: a vampire whose clan item is "Thin-blood" is one.
What a rollbook sheet holds and the actor has no field for (the player, the clan's Disciplines, a
thin-blood, the names of homebrew traits) rides in ``flags.rollbook``, Foundry's place for data of
other packages, so an export imported back is the same sheet.
"""

from __future__ import annotations

from typing import TypedDict

from rollbook.interop.common import (
    V5_ATTRIBUTES,
    V5_DISCIPLINES,
    V5_SKILLS,
    drop_foundry_top,
    no_hunger,
    power,
    rated,
    specialty,
    typed_names,
)
from rollbook.interop.names import html_text, power_name, squashed
from rollbook.interop.report import FileObject, Mapped, Reader, Sheet, at, entries, sub

FORMAT = "wod5e"
SYSTEM = "v5"
DETECTION_RANK = 0  # the most specific shape: tried first (``interop.formats.Format``)
ACTOR_TYPES = {"vampire": "vampire", "ghoul": "ghoul", "mortal": "mortal"}
OTHER_ACTORS = ("hunter", "werewolf", "spc", "group")
SKILL_KEYS = {"animal_ken": "animalken"}  # rollbook id -> WoD5e key (others are the same)
DISCIPLINE_KEYS = {"blood_sorcery": "sorcery", "thin_blood_alchemy": "alchemy"}
HEADERS = {"concept": "concept", "ambition": "ambition", "desire": "desire", "sire": "sire"}
FOUNDRY_STATE = ("_id", "img", "prototypeToken", "ownership", "_stats", "folder", "sort", "effects")
SYSTEM_STATE = (
    "locked",
    "group",
    "hasSkillAttributeData",
    "settings",
    "selectedDiscipline",
    "selectedDisciplinePower",
    "derivedXP",
    "bonuses",
    "headerbg",
    "background",
)
SYSTEM_DROPPED = ("privatenotes", "spcType")  # the player's private notes stay private
# The actor's texts a rollbook sheet has no field for (base-actor-model.js): kept in its notes, each
# under its label. ``bio`` holds an object of texts (``age.trueage`` …), each its own section.
SYSTEM_NOTED = {
    "biography": "biography",
    "appearance": "appearance",
    "equipment": "equipment",
    "description": "description",
}
BIO_NOTED = {
    ("age", "trueage"): "true_age",
    ("age", "apparent"): "apparent_age",
    ("dateof", "birth"): "birth",
    ("dateof", "death"): "death",
    ("history",): "history",
}
# The texts of an item (system/item/data-models/base-item-model.js and the vtm models): the book has
# them; a power's cost and dice pool follow from its name.
ITEM_TEXTS = ("description", "bane", "cost", "dicepool", "bonuses", "macroid", "dataItemId", "source")
# Every WoD5e actor carries the werewolf's and the hunter's fields too (fields/werewolf-fields.js,
# fields/hunter-fields.js): not a V5 vampire's, ghoul's or mortal's.
OTHER_SPLATS = (
    "crinosHealth",
    "balance",
    "rage",
    "talismans",
    "frenzyActive",
    "lostTheWolf",
    "activeForm",
    "renown",
    "forms",
    "selectedGift",
    "selectedGiftPower",
    "gifts",
    "despair",
    "desperation",
    "danger",
    "selectedEdge",
    "selectedEdgePerk",
    "edges",
)


def detect(data: object) -> bool:
    return (
        isinstance(data, dict)
        and isinstance(data.get("system"), dict)
        and isinstance(data.get("type"), str)
        and data["type"] in (*ACTOR_TYPES, *OTHER_ACTORS)
        and ("attributes" in data["system"] or "skills" in data["system"] or "hunger" in data["system"])
    )


def read(data: FileObject, reader: Reader) -> str | None:
    root = "$"
    kind = data.get("type")
    if kind not in ACTOR_TYPES:
        reader.problem(at(root, "type"), "import_actor_type", given=str(kind), expected=list(ACTOR_TYPES))
        return None
    creature = ACTOR_TYPES[kind]
    reader.mapped.append(Mapped(at(root, "type"), "creature"))
    system = data["system"]
    assert isinstance(system, dict)  # ``detect`` saw to it
    base = at(root, "system")
    flags = reader.obj(data.get("flags"), at(root, "flags")) or {}
    ours = reader.obj(flags.get("rollbook"), at(at(root, "flags"), "rollbook")) or {}
    name = reader.text(data.get("name"), at(root, "name"), 100)
    if name:
        reader.put("name", name, at(root, "name"))
    headers = reader.obj(system.get("headers"), at(base, "headers")) or {}
    for key, value in headers.items():
        where = at(at(base, "headers"), key)
        if key in HEADERS:
            text = reader.text(value, where)
            if text:
                reader.put(HEADERS[key], text, where)
        elif key == "generation":
            reader.drop(where, "no_generation_in_v5", value)
        elif key == "touchstones":
            reader.note(where, "touchstones", value, html=True)
        else:
            reader.drop(where, "no_such_field", value)
    notes = reader.text(system.get("notes"), at(base, "notes"), 20000)
    if notes and html_text(notes):  # an HTMLField: its text
        reader.put("notes", html_text(notes), at(base, "notes"))
    _attributes(reader, system, base)
    _skills(reader, system, base)
    _tracks(reader, system, base)
    _items(reader, reader.array(data.get("items"), at(root, "items")) or [], at(root, "items"))
    # what the actor has no field for (written by rollbook's export)
    fwhere = at(at(root, "flags"), "rollbook")
    for key, value in ours.items():
        where = at(fwhere, key)
        if key == "player":
            text = reader.text(value, where)
            if text:
                reader.put("player", text, where)
        elif key == "creature" and value == "thin_blood" and creature == "vampire":
            creature = "thin_blood"
            reader.put("creature", "thin_blood", where)
        elif key == "clan_disciplines":
            for index, item in enumerate(reader.array(value, where) or []):
                if isinstance(item, str) and item not in reader.draft.get("clan_disciplines", []):
                    reader.append("clan_disciplines", item, at(where, index))
        elif key == "names":
            typed_names(reader, value, where)
        else:
            reader.drop(where, "unknown_field", value)
    for key, value in flags.items():
        if key != "rollbook":
            reader.drop(at(at(root, "flags"), key), "foundry_state", value)
    if creature == "vampire" and squashed(reader.draft.get("clan", "")) == "thinblood":
        creature = "thin_blood"
    reader.draft["creature"] = creature
    no_hunger(reader, creature)
    drop_foundry_top(reader, data, root, FOUNDRY_STATE)
    for key, value in system.items():
        if key in SYSTEM_STATE:
            reader.drop(at(base, key), "foundry_state", value)
        elif key in SYSTEM_DROPPED:
            reader.drop(at(base, key), "no_such_field", value)
        elif key in SYSTEM_NOTED:
            reader.note(at(base, key), SYSTEM_NOTED[key], value, html=True)
        elif key == "bio":
            _bio(reader, value, at(base, key))
        elif key in OTHER_SPLATS:
            reader.drop(at(base, key), "not_for_creature", value)
        elif key not in (
            "headers",
            "notes",
            "attributes",
            "skills",
            "disciplines",
            "hunger",
            "humanity",
            "blood",
            "health",
            "willpower",
            "exp",
            "experiences",
        ):
            reader.drop(at(base, key), "unknown_field", value)
    return creature


def _bio(reader: Reader, value: object, where: str, path: tuple[str, ...] = ()) -> None:
    """``system.bio``: each text of ``BIO_NOTED`` kept in the notes; any other leaf dropped."""
    if isinstance(value, dict):
        for key, inner in value.items():
            _bio(reader, inner, at(where, key), (*path, key))
    elif path in BIO_NOTED:
        reader.note(where, BIO_NOTED[path], value, html=True)
    else:
        reader.drop(where, "no_such_field", value)


def _attributes(reader: Reader, system: FileObject, base: str) -> None:
    for key, here, entry in entries(reader, system, base, "attributes"):
        identifier = V5_ATTRIBUTES.get(squashed(key))
        if identifier is None:
            reader.drop(here, "not_a_v5_attribute", entry.get("value"))
            continue
        value = reader.integer(entry.get("value"), at(here, "value"), 1, 5)
        if value is not None:
            reader.put(f"attributes.{identifier}", value, at(here, "value"))
        reader.rest(here, entry, ("value",), "foundry_state")


def _skills(reader: Reader, system: FileObject, base: str) -> None:
    for key, here, entry in entries(reader, system, base, "skills"):
        skill = rated(reader, "skills", key, entry.get("value", 0), here, at(here, "value"), V5_SKILLS)
        for index, bonus in enumerate(reader.array(entry.get("bonuses"), at(here, "bonuses")) or []):
            bwhere = at(at(here, "bonuses"), index)
            bonus = reader.obj(bonus, bwhere)
            if bonus is None or skill is None:
                continue
            # a specialty: what the skill application writes (scripts/specialty-bonuses.js: displayWhenInactive,
            # "ALWAYS true for specialties") and the migration of old specialty items (activeWhen "never")
            if bonus.get("displayWhenInactive") is True or sub(bonus, "activeWhen", "check") == "never":
                # Progeny's WoD5e export writes its free specialties (Academics, Craft, Performance,
                # Science, the predator type's) whatever the skill's dots: V5 keeps them on rated skills
                specialty(reader, skill, bonus.get("source"), at(bwhere, "source"), on_rated_skill=True)
                # the bonus's other fields (its +1, its path, when it shows) make it the specialty
                reader.along(at(bwhere, "source"), *(at(bwhere, k) for k in bonus if k != "source"))
            else:
                reader.drop(bwhere, "bonus_not_specialty")
        reader.drop(at(here, "description"), "no_such_field", entry.get("description"))
        reader.rest(here, entry, ("value", "bonuses", "description"), "foundry_state")
    for key, here, entry in entries(reader, system, base, "disciplines"):
        if key in ("rituals", "ceremonies"):
            reader.drop(at(here, "value"), "rituals", entry.get("value"))
            continue
        value = entry.get("value", 0)
        if value == 0:  # every Discipline of the list is on every actor, at 0
            reader.drop(at(here, "value"), "not_rated", value)
        else:
            rated(reader, "disciplines", key, value, here, at(here, "value"), V5_DISCIPLINES)
        reader.drop(at(here, "description"), "no_such_field", entry.get("description"))
        # the names of its powers, also the ``power`` items the actor carries
        reader.drop(at(here, "powers"), "derived", entry.get("powers"))
        reader.rest(here, entry, ("value", "description", "powers"), "foundry_state")


def _tracks(reader: Reader, system: FileObject, base: str) -> None:
    hunger = reader.obj(system.get("hunger"), at(base, "hunger")) or {}
    if "value" in hunger:
        value = reader.integer(hunger["value"], at(at(base, "hunger"), "value"), 0, 5)
        if value is not None:
            reader.put("hunger", value, at(at(base, "hunger"), "value"))
    reader.rest(at(base, "hunger"), hunger, ("value",), "derived")  # max: 5 for everyone
    humanity = reader.obj(system.get("humanity"), at(base, "humanity")) or {}
    for key, target in (("value", "humanity"), ("stains", "stains")):
        if key in humanity:
            value = reader.integer(humanity[key], at(at(base, "humanity"), key), 0, 10)
            if value is not None:
                reader.put(target, value, at(at(base, "humanity"), key))
    blood = reader.obj(system.get("blood"), at(base, "blood")) or {}
    for key, raw in blood.items():
        where = at(at(base, "blood"), key)
        if key == "potency":
            number = reader.integer(raw, where, 0, 10)
            if number is not None:
                reader.put("blood_potency", number, where)
        elif key == "generation":
            reader.drop(where, "no_generation_in_v5", raw)
        else:
            reader.drop(where, "no_such_field", raw)
    for track in ("health", "willpower"):
        entry = reader.obj(system.get(track), at(base, track)) or {}
        for key in ("max", "superficial", "aggravated"):
            if key in entry:
                where = at(at(base, track), key)
                value = reader.integer(entry[key], where, 1 if key == "max" else 0, 20)
                if value is not None:
                    reader.put(f"{track}.{key}", value, where)
        reader.rest(at(base, track), entry, ("max", "superficial", "aggravated"), "derived")
    _experience(reader, system, base)


def _experience(reader: Reader, system: FileObject, base: str) -> None:
    """WoD5e 5.3 derives the points from ``exp`` and the log ``experiences`` (system/actor/scripts/
    experience.js, getDerivedExperience): earned = ``exp.max`` + every entry of 0 or more; left =
    ``exp.value`` + every entry (a spend is negative). Spent = earned − left."""
    exp = reader.obj(system.get("exp"), at(base, "exp")) or {}
    where = at(base, "exp")
    value = reader.integer(exp.get("value", 0), at(where, "value"), 0, 100000)
    total = reader.integer(exp.get("max", 0), at(where, "max"), 0, 100000)
    if value is None or total is None:
        return
    earned_at = [at(where, "max")]
    spent_at = [at(where, "value")]
    log = at(base, "experiences")
    for index, raw in enumerate(reader.array(system.get("experiences"), log) or []):
        here = at(log, index)
        entry = reader.obj(raw, here)
        if entry is None:
            continue
        amount = reader.integer(entry.get("value"), at(here, "value"), -100000, 100000, digits=True)
        if amount is None:
            continue
        if amount >= 0:
            total += amount
            earned_at.append(at(here, "value"))
        else:
            spent_at.append(at(here, "value"))
        value += amount
        for key in entry:
            if key != "value":
                reader.drop(at(here, key), "experience_log", entry[key])
    total = max(total, value)  # points left typed above the points earned (before 5.3): all earned
    for source in earned_at:
        reader.put("experience.total", total, source)
    for source in spent_at:
        reader.put("experience.spent", total - max(value, 0), source)
    reader.rest(where, exp, ("value", "max"), "unknown_field")


def _items(reader: Reader, items: list[object], root: str) -> None:
    powers: list[tuple[FileObject, str]] = []
    for index, item in enumerate(items):
        where = at(root, index)
        item = reader.obj(item, where)
        if item is None:
            continue
        kind = item.get("type")
        if kind in ("clan", "predatorType"):
            _item_texts(reader, item, where)
        if kind == "clan":
            name = reader.text(item.get("name"), at(where, "name"))
            if name:
                reader.put("clan", name, at(where, "name"))
                reader.along(at(where, "name"), at(where, "type"))
        elif kind == "predatorType":
            name = reader.text(item.get("name"), at(where, "name"))
            if name:
                reader.put("predator", name, at(where, "name"))
                reader.along(at(where, "name"), at(where, "type"))
        elif kind == "power":
            powers.append((item, where))
        elif kind == "feature":
            reader.drop(where, "merits")
        else:
            reader.drop(where, "item_type")
    for item, where in powers:
        data = reader.obj(item.get("system"), at(where, "system")) or {}
        key = data.get("discipline")
        discipline = V5_DISCIPLINES.get(squashed(key)) if isinstance(key, str) else None
        if discipline is None and isinstance(key, str) and key in reader.draft.get("disciplines", {}):
            discipline = key  # a homebrew Discipline's key
        if key in ("rituals", "ceremonies"):
            reader.drop(where, "rituals")
            continue
        _item_texts(reader, item, where)
        level = reader.integer(data.get("level"), at(at(where, "system"), "level"), 1, 5)
        if discipline is None:
            reader.problem(at(at(where, "system"), "discipline"), "power_discipline_missing", trait=str(key))
            continue
        if level is None:
            continue
        if discipline not in reader.draft.get("disciplines", {}):
            # a power of a Discipline the actor rates nowhere (Progeny's export leaves ``alchemy`` out of
            # ``system.disciplines``): the Discipline rated by its powers, one dot each, at least the
            # highest power's level (as Progeny rates it)
            levels = [
                other_level
                for other, _ in powers
                if sub(other, "system", "discipline") == key
                for other_level in [sub(other, "system", "level")]
                if isinstance(other_level, int) and 1 <= other_level <= 5
            ]
            reader.put(
                f"disciplines.{discipline}",
                min(5, max(len(levels), max(levels, default=level))),
                at(at(where, "system"), "discipline"),
            )
        power(
            reader,
            "v5",
            discipline,
            item.get("name"),
            level,
            at(where, "name"),
            sub(item, "flags", "rollbook", "power"),
        )
        # its type, Discipline and level: the power's
        reader.along(at(where, "name"), at(where, "type"), at(at(where, "system"), "discipline"))
        reader.along(at(where, "name"), at(at(where, "system"), "level"))


def _item_texts(reader: Reader, item: FileObject, where: str) -> None:
    """An item's own texts and bookkeeping: each named dropped."""
    data = item.get("system")
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ITEM_TEXTS:
                reader.drop(at(at(where, "system"), key), "item_text", value)
            elif key not in ("discipline", "level"):
                reader.drop(at(at(where, "system"), key), "foundry_state", value)
    for key, value in item.items():
        if key in ("_id", "img", "effects", "folder", "sort", "ownership", "_stats"):
            reader.drop(at(where, key), "foundry_state", value)
        elif key == "flags":
            for flag, content in value.items() if isinstance(value, dict) else ():
                if flag != "rollbook":
                    reader.drop(at(at(where, "flags"), flag), "foundry_state", content)
        elif key not in ("name", "type", "system"):
            reader.drop(at(where, key), "unknown_field", value)


# --- export -------------------------------------------------------------------------------------


class StoredPower(TypedDict, total=False):
    """A power of a stored sheet (``play.powers.Power``): a known one's id, or a homebrew one's name."""

    discipline: str
    level: int
    power: str
    name: str


def _power_item(index: int, entry: StoredPower, names: dict[str, str]) -> FileObject:
    discipline = entry["discipline"]
    known = entry.get("power")
    item: FileObject = {
        "_id": f"rollbookpower{index:03d}",
        "name": power_name("v5", discipline, known) if known else entry["name"],
        "type": "power",
        "system": {
            "description": "",
            "discipline": DISCIPLINE_KEYS.get(discipline, discipline),
            "level": entry["level"],
            "cost": 0,
            "dicepool": {},
            "bonuses": [],
            "selected": False,
        },
    }
    if known:
        item["flags"] = {"rollbook": {"power": known}}
    return item


def export(sheet: Sheet) -> FileObject:
    """A rollbook V5 sheet (as stored) -> a WoD5e actor (``type`` vampire, ghoul or mortal)."""
    creature = sheet["creature"]
    skills: dict[str, FileObject] = {}
    for skill, value in sheet["skills"].items():
        key = SKILL_KEYS.get(skill, skill)
        skills[key] = {
            "value": value,
            "active": False,
            "description": "",
            "macroid": "",
            "bonuses": [
                {
                    "source": name,
                    "value": 1,
                    "paths": [f"skills.{key}"],
                    "displayWhenInactive": True,
                    "activeWhen": {"check": "never"},
                }
                for name in sheet["specialties"].get(skill, [])
            ],
        }
    disciplines = {
        DISCIPLINE_KEYS.get(d, d): {
            "value": value,
            "powers": [],
            "description": "",
            "visible": True,
            "selected": False,
        }
        for d, value in sheet["disciplines"].items()
    }
    items: list[FileObject] = []
    if sheet["clan"]:
        items.append(
            {
                "_id": "rollbookclan0000",
                "name": sheet["clan"],
                "type": "clan",
                "system": {"description": "", "bane": "", "bonuses": []},
            }
        )
    if sheet["predator"]:
        items.append(
            {
                "_id": "rollbookpredator",
                "name": sheet["predator"],
                "type": "predatorType",
                "system": {"description": "", "bonuses": [], "dicepool": {}},
            }
        )
    items += [_power_item(i, p, sheet["names"]) for i, p in enumerate(sheet["powers"])]
    track = {
        name: {
            "max": sheet[name]["max"],
            "superficial": sheet[name]["superficial"],
            "aggravated": sheet[name]["aggravated"],
            "value": sheet[name]["max"] - sheet[name]["superficial"] - sheet[name]["aggravated"],
        }
        for name in ("health", "willpower")
    }
    flags: FileObject = {}
    if sheet["player"]:
        flags["player"] = sheet["player"]
    if creature == "thin_blood":
        flags["creature"] = "thin_blood"
    if sheet["clan_disciplines"]:
        flags["clan_disciplines"] = list(sheet["clan_disciplines"])
    if sheet["names"]:
        flags["names"] = dict(sheet["names"])
    experience = sheet["experience"]
    return {
        "name": sheet["name"],
        "type": "vampire" if creature in ("vampire", "thin_blood") else creature,
        "system": {
            "locked": False,
            "hasSkillAttributeData": True,
            "headers": {
                "concept": sheet["concept"],
                "chronicle": "",
                "ambition": sheet["ambition"],
                "desire": sheet["desire"],
                "touchstones": "",
                "tenets": "",
                "sire": sheet["sire"],
                "generation": "",
                "domitor": "",
            },
            "notes": sheet["notes"],
            "attributes": {
                name: {"value": value, "active": False} for name, value in sheet["attributes"].items()
            },
            "skills": skills,
            "disciplines": disciplines,
            "hunger": {"value": sheet["hunger"], "max": 5},
            "humanity": {"value": sheet["humanity"], "stains": sheet["stains"]},
            "blood": {"potency": sheet["blood_potency"], "generation": ""},
            "health": track["health"],
            "willpower": track["willpower"],
            "exp": {"value": experience["total"] - experience["spent"], "max": experience["total"]},
        },
        "items": items,
        "flags": {"rollbook": flags} if flags else {},
    }
