"""Foundry WoD20 (the Foundry VTT system "worldofdarkness", World of Darkness 20th anniversary) actor
JSON <-> a rollbook V20 sheet.

Read from the system's ``template.json``, repository JohanFalt/Foundry_WoD20, version 7.2.5 (commit
524df095, docs/import.md): actor types ``Vampire`` and ``Mortal`` (templates ``base``, ``ability``,
``mortal``, ``vampire``): ``attributes.<key>.{value,speciality}``, ``abilities.<key>.{type,value,
speciality,altlabel}`` (its own keys: ``animalken``, ``craft``; abilities of other games too),
``advantages.willpower.{permanent,temporary}``, ``advantages.bloodpool.{temporary,max,perturn}``,
``advantages.virtues.{conscience,selfcontrol,courage}.permanent``, ``advantages.path.{permanent,
label,custom}`` (``label`` ``wod.advantages.path.humanity`` or another Path), ``health.damage.
{bashing,lethal,aggravated}``, ``generation``, ``clan``, ``sire``, ``nature``, ``demeanor``,
``concept``, ``player``, ``notes``; items (``Item`` types of ``template.json`` and
``module/actor/template/vampire-actor-sheet.js``): ``Power`` of ``system.type``
``wod.types.discipline`` (rated by ``system.value``), ``wod.types.disciplinepower`` (``system.level``,
its Discipline's ``_id`` in ``system.parentid``), ``wod.types.disciplinepath``, ``wod.types.ritual``;
``Trait`` of ``wod.types.<group>secondability`` (an ability of one's own); ``Experience``
(``system.amount``, ``system.isspent``).

A Path other than Humanity keeps its rating as the sheet's ``humanity`` (a rollbook V20 sheet has
one morality track) and the report names the Path dropped. What the actor has no field for (the
clan's Disciplines, weapons, the names of homebrew traits) rides in ``flags.rollbook``.
"""

from __future__ import annotations

from rollbook.interop.common import drop_foundry_top, power, specialty, typed_names
from rollbook.interop.names import by_squash, power_name, slug, squashed, typed
from rollbook.interop.report import FileObject, Reader, Sheet, at, entries, sub, text_key
from rollbook.play import v20_sheet
from rollbook.play.powers import disciplines_with_powers, rated_only

FORMAT = "wod20"
SYSTEM = "v20"
ACTOR_TYPES = {"Vampire": "vampire", "Mortal": "mortal"}
GROUP_OF = {"talent": "talents", "skill": "skills", "knowledge": "knowledges"}
KEYS = {"animal_ken": "animalken", "crafts": "craft"}  # rollbook id -> WoD20 key (others are the same)
STANDARD = {
    group: by_squash(ids, {KEYS[i]: i for i in ids if i in KEYS})
    for group, (_, ids) in v20_sheet.ABILITY_GROUPS.items()
}
ATTRIBUTES = by_squash(v20_sheet.ATTRIBUTES)
VIRTUES = {"conscience": "conscience", "selfcontrol": "self_control", "courage": "courage"}
DISCIPLINES = by_squash((*disciplines_with_powers("v20"), *rated_only("v20")))
HUMANITY = "wod.advantages.path.humanity"
TEXTS = ("player", "concept", "nature", "demeanor", "clan", "sire")
FOUNDRY_STATE = (
    "_id",
    "img",
    "prototypeToken",
    "token",
    "ownership",
    "permission",
    "_stats",
    "folder",
    "sort",
    "effects",
)
SYSTEM_STATE = (
    "settings",
    "worldanvil",
    "conditions",
    "initiative",
    "movement",
    "soak",
    "traits",
    "money",
    "iscreated",
    "isupdated",
    "variant",
)


def detect(data: object) -> bool:
    return (
        isinstance(data, dict)
        and isinstance(data.get("system"), dict)
        and ("abilities" in data["system"] or "advantages" in data["system"])
    )


def read(data: FileObject, reader: Reader) -> str | None:
    root = "$"
    kind = text_key(data.get("type"))
    if kind not in ACTOR_TYPES:
        reader.problem(at(root, "type"), "import_actor_type", given=str(kind), expected=list(ACTOR_TYPES))
        return None
    creature = ACTOR_TYPES[kind]
    reader.draft["creature"] = creature
    system, base = data["system"], at(root, "system")
    assert isinstance(system, dict)  # ``detect`` saw to it
    name = reader.text(data.get("name"), at(root, "name"), 100)
    if name:
        reader.put("name", name, at(root, "name"))
    for key in TEXTS:
        value = reader.text(system.get(key), at(base, key))
        if value:
            reader.put(key, value, at(base, key))
    notes = reader.text(system.get("notes"), at(base, "notes"), 20000)
    if notes:
        reader.put("notes", notes, at(base, "notes"))
    if "generation" in system:
        if creature == "vampire":
            generation = reader.integer(system["generation"], at(base, "generation"), 4, 15, digits=True)
            if generation is not None:
                reader.put("generation", generation, at(base, "generation"))
        else:
            reader.drop(at(base, "generation"), "not_for_creature")
    _attributes(reader, system, base)
    _abilities(reader, system, base)
    _advantages(reader, system, base, creature)
    damage = (
        reader.obj(
            (reader.obj(system.get("health"), at(base, "health")) or {}).get("damage"),
            at(at(base, "health"), "damage"),
        )
        or {}
    )
    for key in ("bashing", "lethal", "aggravated"):
        if key in damage:
            where = at(at(at(base, "health"), "damage"), key)
            levels = reader.integer(damage[key], where, 0, 7)
            if levels:
                reader.put(f"health.{key}", levels, where)
    _items(reader, reader.array(data.get("items"), at(root, "items")) or [], at(root, "items"))
    _flags(reader, data, root)
    drop_foundry_top(reader, data, root, FOUNDRY_STATE)
    for key, value in system.items():
        if key in SYSTEM_STATE:
            reader.drop(at(base, key), "foundry_state", value)
        elif key not in (*TEXTS, "notes", "generation", "attributes", "abilities", "advantages", "health"):
            reader.drop(at(base, key), "no_such_field", value)
    return creature


def _specialties(reader: Reader, trait: str, text: object, where: str) -> None:
    if text in (None, ""):
        return
    if not isinstance(text, str):
        reader.problem(where, "import_wrong_type", expected="text", given=type(text).__name__)
        return
    for name in (part.strip() for part in text.split(",")):
        if name:
            specialty(reader, trait, name, where)


def _attributes(reader: Reader, system: FileObject, base: str) -> None:
    for key, here, entry in entries(reader, system, base, "attributes"):
        identifier = ATTRIBUTES.get(squashed(key))
        if identifier is None:
            reader.drop(here, "not_a_v20_attribute")  # composure, resolve: other games of the system
            continue
        value = reader.integer(entry.get("value"), at(here, "value"), 0, 10)
        if value is not None:
            reader.put(f"attributes.{identifier}", value, at(here, "value"))
            _specialties(reader, identifier, entry.get("speciality"), at(here, "speciality"))


def _ability(
    reader: Reader,
    group: str,
    identifier: str,
    homebrew: str | None,
    value: object,
    where_value: str,
    speciality: object,
    where_speciality: str,
) -> None:
    rating = reader.integer(value, where_value, 0, 10)
    if rating is None:
        return
    for other in ("talents", "skills", "knowledges"):
        if identifier in reader.draft.get(other, {}):
            reader.problem(where_value, "import_duplicate_trait", trait=identifier)
            return
    reader.put(f"{group}.{identifier}", rating, where_value, name=homebrew)
    if homebrew is not None and homebrew != identifier:
        reader.draft.setdefault("names", {})[identifier] = homebrew
    _specialties(reader, identifier, speciality, where_speciality)


def _abilities(reader: Reader, system: FileObject, base: str) -> None:
    for key, here, entry in entries(reader, system, base, "abilities"):
        kind = text_key(entry.get("type"))
        group = GROUP_OF.get(kind) if kind is not None else None
        if group is None:
            reader.problem(
                at(here, "type"), "import_bad_choice", given=str(entry.get("type")), expected=list(GROUP_OF)
            )
            continue
        identifier = STANDARD[group].get(squashed(key))
        homebrew = None
        if identifier is None:
            if not entry.get("value"):
                continue  # another game's ability, untrained
            label = entry.get("altlabel") or key
            identifier, homebrew = slug(str(label)), typed(str(label))
        _ability(
            reader,
            group,
            identifier,
            homebrew,
            entry.get("value", 0),
            at(here, "value"),
            entry.get("speciality"),
            at(here, "speciality"),
        )


def _advantages(reader: Reader, system: FileObject, base: str, creature: str) -> None:
    where = at(base, "advantages")
    advantages = reader.obj(system.get("advantages"), where) or {}
    for key, raw in advantages.items():
        here = at(where, key)
        entry = reader.obj(raw, here)
        if entry is None:
            continue
        if key == "willpower":
            for part, target in (("permanent", "willpower.permanent"), ("temporary", "willpower.current")):
                if part in entry:
                    value = reader.integer(entry[part], at(here, part), 0, 10)
                    if value is not None:
                        reader.put(target, value, at(here, part))
        elif key == "virtues":
            for virtue, target in VIRTUES.items():
                item = reader.obj(entry.get(virtue), at(here, virtue)) or {}
                if "permanent" in item:
                    value = reader.integer(item["permanent"], at(at(here, virtue), "permanent"), 0, 5)
                    if value is not None:
                        reader.put(f"virtues.{target}", value, at(at(here, virtue), "permanent"))
        elif key == "path":
            if "permanent" in entry:
                value = reader.integer(entry["permanent"], at(here, "permanent"), 0, 10)
                if value is not None:
                    reader.put("humanity", value, at(here, "permanent"))
            if entry.get("label", HUMANITY) != HUMANITY:
                reader.drop(at(here, "label"), "path_not_humanity")
        elif key == "bloodpool":
            if creature == "vampire" and "temporary" in entry:
                value = reader.integer(entry["temporary"], at(here, "temporary"), 0, 50)
                if value is not None:
                    reader.put("blood.current", value, at(here, "temporary"))
            reader.drop(at(here, "max"), "derived")
        elif any(isinstance(entry.get(part), int) and entry.get(part) for part in ("permanent", "temporary")):
            reader.drop(here, "not_a_v20_trait")  # rage, gnosis, faith …: other games of the system


def _discipline_id(reader: Reader, item: FileObject, where: str) -> tuple[str | None, str | None]:
    given = sub(item, "flags", "rollbook", "id")
    name = reader.text(item.get("name"), at(where, "name"), 100)
    if isinstance(given, str) and given:
        identifier = given
        return identifier, (typed(name) if name and identifier not in DISCIPLINES.values() else None)
    if not name:
        reader.problem(at(where, "name"), "import_bad_name", name="")
        return None, None
    found = DISCIPLINES.get(squashed(name))
    return (found, None) if found else (slug(name), typed(name))


def _items(reader: Reader, items: list[object], root: str) -> None:
    parents: dict[str, str] = {}
    powers: list[tuple[FileObject, FileObject, str]] = []  # item, its system, its place
    total = spent = 0
    experience_at: list[str] = []
    for index, raw in enumerate(items):
        where = at(root, index)
        item = reader.obj(raw, where)
        if item is None:
            continue
        data = reader.obj(item.get("system"), at(where, "system")) or {}
        kind, subtype = item.get("type"), data.get("type")
        if kind == "Power" and subtype in ("wod.types.discipline", "wod.types.disciplinepath"):
            identifier, homebrew = _discipline_id(reader, item, where)
            if identifier is None:
                continue
            rating = reader.integer(data.get("value", 0), at(at(where, "system"), "value"), 0, 10)
            if rating is None:
                continue
            if identifier in reader.draft.get("disciplines", {}):
                reader.problem(at(where, "name"), "import_duplicate_trait", trait=identifier)
                continue
            reader.put(f"disciplines.{identifier}", rating, at(at(where, "system"), "value"), name=homebrew)
            if homebrew is not None and homebrew != identifier:
                reader.draft.setdefault("names", {})[identifier] = homebrew
            item_id = item.get("_id")
            if isinstance(item_id, str):
                parents[item_id] = identifier
        elif kind == "Power" and subtype == "wod.types.disciplinepower":
            powers.append((item, data, where))
        elif kind == "Trait" and isinstance(subtype, str) and subtype.endswith("secondability"):
            group = GROUP_OF.get(subtype.removeprefix("wod.types.").removesuffix("secondability"))
            name = reader.text(item.get("name"), at(where, "name"), 100)
            if group is None or not name:
                reader.drop(where, "item_type")
                continue
            given = sub(item, "flags", "rollbook", "id")
            identifier = given if isinstance(given, str) and given else slug(name)
            _ability(
                reader,
                group,
                identifier,
                typed(name),
                data.get("value", 0),
                at(at(where, "system"), "value"),
                data.get("speciality"),
                at(at(where, "system"), "speciality"),
            )
        elif kind == "Experience":
            amount = reader.integer(data.get("amount", 0), at(at(where, "system"), "amount"), 0, 100000)
            if amount is not None:
                if data.get("isspent"):
                    spent += amount
                else:
                    total += amount
                experience_at.append(at(at(where, "system"), "amount"))
        elif kind == "Power" and subtype == "wod.types.ritual":
            reader.drop(where, "rituals")
        else:
            reader.drop(where, "item_type")
    if total:
        reader.put("experience.total", total, experience_at[0])
    if spent:
        reader.put("experience.spent", spent, experience_at[-1])
    for item, data, where in powers:
        parent = text_key(data.get("parentid"))
        discipline = parents.get(parent) if parent is not None else None
        if discipline is None:
            reader.problem(
                at(at(where, "system"), "parentid"),
                "power_discipline_missing",
                trait=str(data.get("parentid")),
            )
            continue
        level = reader.integer(data.get("level"), at(at(where, "system"), "level"), 1, 10, digits=True)
        if level is None:
            continue
        power(
            reader,
            "v20",
            discipline,
            item.get("name"),
            level,
            at(where, "name"),
            sub(item, "flags", "rollbook", "power"),
        )


def _flags(reader: Reader, data: FileObject, root: str) -> None:
    flags = reader.obj(data.get("flags"), at(root, "flags")) or {}
    where = at(at(root, "flags"), "rollbook")
    for key, value in (reader.obj(flags.get("rollbook"), where) or {}).items():
        here = at(where, key)
        if key == "clan_disciplines":
            for index, item in enumerate(reader.array(value, here) or []):
                if isinstance(item, str):
                    reader.append("clan_disciplines", item, at(here, index))
        elif key == "names":
            typed_names(reader, value, here)
        elif key == "weapons":
            for index, weapon in enumerate(reader.array(value, here) or []):
                reader.append("weapons", weapon, at(here, index))
        else:
            reader.drop(here, "unknown_field", value)
    for key, value in flags.items():
        if key != "rollbook":
            reader.drop(at(at(root, "flags"), key), "foundry_state", value)


# --- export -------------------------------------------------------------------------------------


def _title(identifier: str) -> str:
    return identifier.replace("_", " ").title()


def export(sheet: Sheet) -> FileObject:
    """A rollbook V20 sheet (as stored) -> a Foundry WoD20 actor (``type`` Vampire or Mortal)."""
    names = sheet["names"]
    specialties = {trait: ", ".join(items) for trait, items in sheet["specialties"].items()}
    abilities: dict[str, FileObject] = {}
    items: list[FileObject] = []
    for group, (kind, standard) in v20_sheet.ABILITY_GROUPS.items():
        for identifier, value in sheet[group].items():
            if identifier in standard:
                key = KEYS.get(identifier, identifier)
                abilities[key] = {
                    "type": kind,
                    "value": value,
                    "max": 5,
                    "label": f"wod.abilities.{key}",
                    "altlabel": "",
                    "speciality": specialties.get(identifier, ""),
                    "isvisible": True,
                    "isfavorited": False,
                }
            else:
                items.append(
                    {
                        "_id": f"rollbookabil{len(items):04d}",
                        "name": names.get(identifier, identifier),
                        "type": "Trait",
                        "flags": {"rollbook": {"id": identifier}},
                        "system": {
                            "type": f"wod.types.{kind}secondability",
                            "value": value,
                            "max": 5,
                            "speciality": specialties.get(identifier, ""),
                        },
                    }
                )
    disciplines: dict[str, str] = {}
    for index, (identifier, value) in enumerate(sheet["disciplines"].items()):
        item_id = f"rollbookdisc{index:04d}"
        disciplines[identifier] = item_id
        shown = _title(identifier) if identifier in DISCIPLINES.values() else identifier
        items.append(
            {
                "_id": item_id,
                "name": names.get(identifier, shown),
                "type": "Power",
                "flags": {"rollbook": {"id": identifier}},
                "system": {"type": "wod.types.discipline", "value": value, "max": 5, "level": "0"},
            }
        )
    for index, entry in enumerate(sheet["powers"]):
        known = entry.get("power")
        item: FileObject = {
            "_id": f"rollbookpowr{index:04d}",
            "name": power_name("v20", entry["discipline"], known) if known else entry["name"],
            "type": "Power",
            "system": {
                "type": "wod.types.disciplinepower",
                "level": str(entry["level"]),
                "value": 0,
                "max": 0,
                "parentid": disciplines[entry["discipline"]],
            },
        }
        if known:
            item["flags"] = {"rollbook": {"power": known}}
        items.append(item)
    experience = sheet["experience"]
    for index, (amount, spent) in enumerate(((experience["total"], False), (experience["spent"], True))):
        if amount:
            items.append(
                {
                    "_id": f"rollbookexpr{index:04d}",
                    "name": "rollbook",
                    "type": "Experience",
                    "system": {"amount": amount, "isspent": spent},
                }
            )
    flags: FileObject = {}
    if sheet["clan_disciplines"]:
        flags["clan_disciplines"] = list(sheet["clan_disciplines"])
    if names:
        flags["names"] = dict(names)
    if sheet["weapons"]:
        flags["weapons"] = [dict(weapon) for weapon in sheet["weapons"]]
    vampire = sheet["creature"] == "vampire"
    system: FileObject = {
        "player": sheet["player"],
        "concept": sheet["concept"],
        "nature": sheet["nature"],
        "demeanor": sheet["demeanor"],
        "notes": sheet["notes"],
        "clan": sheet["clan"],
        "sire": sheet["sire"],
        "attributes": {
            key: {
                "value": value,
                "bonus": 0,
                "total": value,
                "max": 5,
                "speciality": specialties.get(key, ""),
                "isvisible": True,
            }
            for key, value in sheet["attributes"].items()
        },
        "abilities": abilities,
        "advantages": {
            "willpower": {
                "permanent": sheet["willpower"]["permanent"],
                "temporary": sheet["willpower"]["current"],
                "max": 10,
                "roll": 0,
                "label": "wod.advantages.willpower",
            },
            "virtues": {
                key: {
                    "permanent": sheet["virtues"][target],
                    "temporary": 0,
                    "max": 5,
                    "roll": 0,
                    "label": f"wod.advantages.virtue.{key}",
                }
                for key, target in VIRTUES.items()
            },
            "path": {
                "permanent": sheet["humanity"],
                "value": 0,
                "max": 10,
                "roll": 0,
                "bearing": 0,
                "bearingtext": "",
                "label": HUMANITY,
                "custom": "",
            },
            "bloodpool": {
                "temporary": sheet["blood"]["current"],
                "max": sheet["blood"]["max"],
                "perturn": sheet["blood"]["per_turn"],
            },
        },
        "health": {
            "damage": {
                "bashing": sheet["health"]["bashing"],
                "lethal": sheet["health"]["lethal"],
                "aggravated": sheet["health"]["aggravated"],
                "woundlevel": "",
                "woundpenalty": 0,
            }
        },
    }
    if vampire:
        system["generation"] = sheet["generation"]
    return {
        "name": sheet["name"],
        "type": "Vampire" if vampire else "Mortal",
        "system": system,
        "items": items,
        "flags": {"rollbook": flags} if flags else {},
    }
