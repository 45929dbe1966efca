"""Foundry WoD20 (the Foundry VTT system "worldofdarkness", World of Darkness 20th anniversary) actor
JSON <-> a rollbook V20 sheet: V20's part of the interop room (``interop.formats.SystemInterop``: its one
format, this module, read and written, and the checks of an imported draft, ``check``).

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

import sys
from typing import cast

from rollbook.interop.checks import power_problems
from rollbook.interop.common import drop_foundry_top, power, specialty, typed_names
from rollbook.interop.formats import Exporter, Format
from rollbook.interop.names import by_squash, html_text, power_name, slug, squashed, typed
from rollbook.interop.report import FileObject, Mapped, Reader, Sheet, at, entries, sub, text_key, type_name
from rollbook.play.powers import disciplines_with_powers, rated_only
from rollbook.systems.v20 import sheet as v20_sheet

FORMAT = "wod20"
SYSTEM = "v20"
DETECTION_RANK = 1  # after WoD5e's actor, the more specific Foundry shape (``interop.formats.Format``)
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
TEXTS = ("player", "concept", "nature", "demeanor", "sire")
# The clan select stores a translation key (assets/data/sheet/bio.js ``databio.clan``; its names in
# lang/en.json, fr.json, es.json), or "custom" with the name typed in ``custom.clan``. A reader's
# language WoD20 has no file for reads the English names.
CLANS = {
    "wod.bio.vampire.caitiff": {"en": "Caitiff", "fr": "Caitiff", "es": "Caitiff"},
    "wod.bio.vampire.assamite": {"en": "Assamite", "fr": "Assamite", "es": "Assamita"},
    "wod.bio.vampire.brujah": {"en": "Brujah", "fr": "Brujah", "es": "Brujah"},
    "wod.bio.vampire.set": {"en": "Followers of Set", "fr": "Disciples de Seth", "es": "Seguidores de Set"},
    "wod.bio.vampire.gangrel": {"en": "Gangrel", "fr": "Gangrel", "es": "Gangrel"},
    "wod.bio.vampire.giovanni": {"en": "Giovanni", "fr": "Giovanni", "es": "Giovanni"},
    "wod.bio.vampire.lasombra": {"en": "Lasombra", "fr": "Lasombra", "es": "Lasombra"},
    "wod.bio.vampire.malkavian": {"en": "Malkavian", "fr": "Malkavian", "es": "Malkavian"},
    "wod.bio.vampire.nosferatu": {"en": "Nosferatu", "fr": "Nosferatu", "es": "Nosferatu"},
    "wod.bio.vampire.ravnos": {"en": "Ravnos", "fr": "Ravnos", "es": "Ravnos"},
    "wod.bio.vampire.toreador": {"en": "Toreador", "fr": "Toreador", "es": "Toreador"},
    "wod.bio.vampire.tremere": {"en": "Tremere", "fr": "Tremere", "es": "Tremere"},
    "wod.bio.vampire.tzimisce": {"en": "Tzimisce", "fr": "Tzimisce", "es": "Tzimisce"},
    "wod.bio.vampire.ventrue": {"en": "Ventrue", "fr": "Ventrue", "es": "Ventrue"},
}


# The sect select stores a translation key too (bio.js ``databio.sect``: its six sects), named as
# WoD20's language files (lang/en.json, fr.json, es.json) write them; a key not listed here is kept as
# it is written.
SECTS = {
    "wod.bio.vampire.camarilla": {"en": "Camarilla", "fr": "Camarilla", "es": "Camarilla"},
    "wod.bio.vampire.sabbat": {"en": "Sabbat", "fr": "Sabbat", "es": "Sabbat"},
    "wod.bio.vampire.anarch": {"en": "Anarch Movement", "fr": "Mouvement Anarch", "es": "Anarquistas"},
    "wod.bio.vampire.independent": {"en": "Independent", "fr": "Indépendant", "es": "Independentes"},
    "wod.bio.vampire.blackhand": {
        "en": "The True Black Hand",
        "fr": "La Vraie Main Noire",
        "es": "Verdadera Mano Negra",
    },
    "wod.bio.vampire.inconnu": {"en": "Inconnu", "fr": "Inconnu", "es": "Inconnu"},
}


def sect_name(text: str, lang: str) -> str:
    names = SECTS.get(text)
    return names.get(lang, names["en"]) if names else text


def clan_name(key: str, lang: str) -> str:
    """A clan's name in the reader's language, as WoD20's language files write it (English if none)."""
    names = CLANS[key]
    return names.get(lang, names["en"])


# Experience items (module/scripts/create-helpers.js, item-helpers.js, handlebars.js
# getTotalExperience): earned, the ``expgained`` ones; spent, the ``expspent`` ones marked ``isspent``
# (one not marked is a purchase planned). An item of before 7.x has no ``type``: its ``isspent`` says.
EXP_GAINED, EXP_SPENT = "wod.types.expgained", "wod.types.expspent"
# A Discipline's primary path (play/powers_data.py: the powers rollbook knows are those of the primary
# path): on the sheet, a ``wod.types.disciplinepath`` item under its Discipline (``system.parentid``),
# the powers under the path (module/actor/template/vampire-actor-sheet.js).
PRIMARY_PATHS = {"thaumaturgy": "Path of Blood", "necromancy": "Sepulchre Path"}
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
        and (
            "abilities" in data["system"]
            or "advantages" in data["system"]
            or (data.get("type") == "PC" and isinstance(data["system"].get("bio"), dict))
        )
    )


def read(data: FileObject, reader: Reader) -> str | None:
    root = "$"
    kind = text_key(data.get("type"))
    if kind == "PC":
        return _read_pc(data, reader)
    if kind not in ACTOR_TYPES:
        reader.problem(at(root, "type"), "import_actor_type", given=str(kind), expected=list(ACTOR_TYPES))
        return None
    creature = ACTOR_TYPES[kind]
    reader.draft["creature"] = creature
    reader.mapped.append(Mapped(at(root, "type"), "creature"))
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
    if notes and html_text(notes):
        reader.put("notes", html_text(notes), at(base, "notes"))
    _clan(reader, system, base)
    sect = system.get("sect")
    if sect == "custom":  # the name is typed in ``custom.sect``
        reader.drop(at(base, "sect"), "foundry_state", sect)
    else:
        reader.note(at(base, "sect"), "sect", sect_name(sect, reader.lang) if isinstance(sect, str) else sect)
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
    _health(reader, system, base)
    _items(reader, reader.array(data.get("items"), at(root, "items")) or [], at(root, "items"))
    _flags(reader, data, root)
    drop_foundry_top(reader, data, root, FOUNDRY_STATE)
    for key, value in system.items():
        if key in SYSTEM_STATE:
            reader.drop(at(base, key), "foundry_state", value)
        elif key not in (
            *TEXTS,
            "clan",
            "sect",
            "custom",
            "notes",
            "generation",
            "attributes",
            "abilities",
            "advantages",
            "health",
        ):
            reader.drop(at(base, key), "no_such_field", value)
    return creature


# The 7.x ``PC`` actor (module/actor/datamodel/pc-actor-datamodel.js): what the legacy actors keep in
# ``system``, it keeps in items a Splat brought (module/scripts/drop-helpers.js DropSplatToActor):
# ``Ability`` items (``system.id``, ``system.type`` ``wod.abilities.talent|skill|knowledge``),
# ``Advantage`` items (``system.id`` ``willpower``, ``bloodpool``, ``path``, and the ``virtue`` group
# ``conscience``, ``selfcontrol``, ``courage``); its splat in ``settings.splat``; the bio in ``bio``
# with the splat's fields in ``bio.splatfields.<key>.value`` (clan, sire, generation …).
PC_SPLATS = {"vampire": "vampire", "mortal": "mortal"}
PC_BIO = ("nature", "demeanor", "concept")
PC_ABILITY_GROUPS = {f"wod.abilities.{kind}": group for kind, group in GROUP_OF.items()}


def _read_pc(data: FileObject, reader: Reader) -> str | None:
    root, base = "$", at("$", "system")
    system = data["system"]
    assert isinstance(system, dict)  # ``detect`` saw to it
    settings = reader.obj(system.get("settings"), at(base, "settings")) or {}
    splat = text_key(settings.get("splat"))
    if splat not in PC_SPLATS:
        reader.problem(
            at(at(base, "settings"), "splat"),
            "import_actor_type",
            given=f"PC ({splat or '-'})",
            expected=[*ACTOR_TYPES, *(f"PC ({s})" for s in PC_SPLATS)],
        )
        return None
    creature = PC_SPLATS[splat]
    reader.draft["creature"] = creature
    reader.mapped.append(Mapped(at(at(base, "settings"), "splat"), "creature"))
    reader.along(at(at(base, "settings"), "splat"), at(root, "type"))
    name = reader.text(data.get("name"), at(root, "name"), 100)
    if name:
        reader.put("name", name, at(root, "name"))
    bio_at = at(base, "bio")
    bio = reader.obj(system.get("bio"), bio_at) or {}
    for key, value in bio.items():
        where = at(bio_at, key)
        if key in PC_BIO:
            text = reader.text(value, where)
            if text:
                reader.put(key, text, where)
        elif key == "notes":
            notes = reader.text(value, where, 20000)
            if notes and html_text(notes):
                reader.put("notes", html_text(notes), where)
        elif key == "name":
            reader.drop(where, "derived", value)  # the actor's name again
        elif key == "splatfields":
            _splatfields(reader, value, where, creature)
        else:
            reader.drop(where, "no_such_field", value)
    _attributes(reader, system, base)
    _health(reader, system, base)
    _items(reader, reader.array(data.get("items"), at(root, "items")) or [], at(root, "items"), creature)
    _flags(reader, data, root)
    drop_foundry_top(reader, data, root, FOUNDRY_STATE)
    for key, value in system.items():
        if key not in ("bio", "attributes", "health"):
            reader.drop(at(base, key), "foundry_state", value)
    return creature


def _splatfields(reader: Reader, value: object, where: str, creature: str) -> None:
    """``bio.splatfields``: each field's ``value`` (its label, type and list: the sheet's layout)."""
    for key, here, entry in entries(
        reader, {"splatfields": value}, where.removesuffix(".splatfields"), "splatfields"
    ):
        field = entry.get("value")
        if key == "clan":
            text = reader.text(field, at(here, "value"))
            if text in CLANS:  # a key, as the legacy select stores it
                reader.put(
                    "clan",
                    clan_name(text, reader.lang),
                    at(here, "value"),
                )
            elif text:
                reader.put("clan", text, at(here, "value"))
        elif key == "sire":
            text = reader.text(field, at(here, "value"))
            if text:
                reader.put("sire", text, at(here, "value"))
        elif key == "sect":
            reader.note(
                at(here, "value"), "sect", sect_name(field, reader.lang) if isinstance(field, str) else field
            )
        elif key == "generation" and creature == "vampire":
            generation = reader.integer(field, at(here, "value"), 4, 15, digits=True)
            if generation is not None:
                reader.put("generation", generation, at(here, "value"))
            reader.drop(at(here, "mod"), "derived", entry.get("mod"))  # a temporary change
        else:
            reader.drop(at(here, "value"), "no_such_field", field)
        reader.rest(here, entry, ("value", "mod"), "foundry_state")


def _pc_ability(reader: Reader, item: FileObject, data: FileObject, where: str) -> None:
    group = PC_ABILITY_GROUPS.get(str(data.get("type")))
    key = text_key(data.get("id")) or text_key(item.get("name")) or ""
    identifier = STANDARD[group].get(squashed(key)) if group else None
    homebrew = None
    value_at = at(at(where, "system"), "value")
    if identifier is None:
        name = text_key(item.get("name"))
        if group is None or not data.get("value") or not name:
            reader.drop(where, "not_a_v20_trait")  # another game's ability, untrained
            return
        identifier, homebrew = slug(name), typed(name)
    _ability(
        reader,
        str(group),
        identifier,
        homebrew,
        data.get("value", 0),
        value_at,
        data.get("speciality"),
        at(at(where, "system"), "speciality"),
    )
    reader.along(value_at, at(where, "name"), at(at(where, "system"), "id"), at(at(where, "system"), "label"))
    _item_rest(reader, item, where, ("value", "speciality", "id", "label"), value_at)


def _pc_advantage(reader: Reader, item: FileObject, data: FileObject, where: str, creature: str) -> None:
    key, here = data.get("id"), at(where, "system")
    read: tuple[str, ...] = ()
    if key == "willpower":
        read = ("permanent", "temporary")
        for part, target in (("permanent", "willpower.permanent"), ("temporary", "willpower.current")):
            value = reader.integer(data.get(part, 0), at(here, part), 0, 10)
            if value is not None:
                reader.put(target, value, at(here, part))
    elif key in VIRTUES and data.get("group") == "virtue":
        read = ("permanent",)
        value = reader.integer(data.get("permanent", 0), at(here, "permanent"), 0, 5)
        if value is not None:
            reader.put(f"virtues.{VIRTUES[str(key)]}", value, at(here, "permanent"))
    elif key == "path":
        read = ("permanent",)
        value = reader.integer(data.get("permanent", 0), at(here, "permanent"), 0, 10)
        if value is not None:
            reader.put("humanity", value, at(here, "permanent"))
        if data.get("label", HUMANITY) != HUMANITY:
            reader.drop(at(here, "label"), "path_not_humanity")
            read += ("label",)
    elif key == "bloodpool" and creature == "vampire":
        read = ("temporary",)
        value = reader.integer(data.get("temporary", 0), at(here, "temporary"), 0, 50)
        if value is not None:
            reader.put("blood.current", value, at(here, "temporary"))
        reader.drop(at(here, "max"), "derived", data.get("max"))
        reader.drop(at(here, "perturn"), "derived", data.get("perturn"))
        read += ("max", "perturn")
    else:
        reader.drop(where, "not_a_v20_trait")  # rage, faith …: other games of the system
        return
    anchor = at(here, read[0])
    reader.along(anchor, at(where, "name"), at(here, "id"), at(here, "group"), at(here, "label"))
    _item_rest(reader, item, where, (*read, "id", "group", "label"), anchor)


def _health(reader: Reader, system: FileObject, base: str) -> None:
    health = reader.obj(system.get("health"), at(base, "health")) or {}
    damage = reader.obj(health.get("damage"), at(at(base, "health"), "damage")) or {}
    for key in ("bashing", "lethal", "aggravated"):
        if key in damage:
            where = at(at(at(base, "health"), "damage"), key)
            levels = reader.integer(damage[key], where, 0, 7)
            if levels is not None:
                reader.put(f"health.{key}", levels, where)
    # the wound level and penalty, and each health level's box: derived from the damage
    reader.rest(at(at(base, "health"), "damage"), damage, ("bashing", "lethal", "aggravated"), "derived")
    reader.rest(at(base, "health"), health, ("damage",), "derived")


def _clan(reader: Reader, system: FileObject, base: str) -> None:
    """``clan``: a translation key of the select, its name in the reader's language (``reader.lang``);
    "custom": the name in ``custom.clan``; anything else (a sheet of before 7.x): the name as typed."""
    custom = reader.obj(system.get("custom"), at(base, "custom")) or {}
    value = reader.text(system.get("clan"), at(base, "clan"))
    if value in CLANS:
        reader.put("clan", clan_name(value, reader.lang), at(base, "clan"))
    elif value == "custom":
        typed_clan = reader.text(custom.get("clan"), at(at(base, "custom"), "clan"))
        if typed_clan:
            reader.put("clan", typed_clan, at(at(base, "custom"), "clan"))
    elif value:
        reader.put("clan", value, at(base, "clan"))
    for key, text in custom.items():
        if key == "sect":
            reader.note(at(at(base, "custom"), key), "sect", text)
        elif not (key == "clan" and value == "custom"):
            reader.drop(at(at(base, "custom"), key), "no_such_field", text)


def _specialties(reader: Reader, trait: str, text: object, where: str) -> None:
    if text in (None, ""):
        return
    if not isinstance(text, str):
        reader.problem(where, "import_wrong_type", expected="text", given=type_name(text))
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
        reader.rest(here, entry, ("value", "speciality"), "foundry_state")  # its max, total, label …


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
                reader.drop(here, "not_a_v20_trait")  # another game's ability, untrained
                continue
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
        reader.along(at(here, "value"), at(here, "type"), at(here, "altlabel"))
        reader.rest(here, entry, ("value", "speciality", "type", "altlabel"), "foundry_state")


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
            reader.rest(here, entry, ("permanent", "temporary"), "foundry_state")
        elif key == "virtues":
            for virtue, target in VIRTUES.items():
                item = reader.obj(entry.get(virtue), at(here, virtue)) or {}
                if "permanent" in item:
                    value = reader.integer(item["permanent"], at(at(here, virtue), "permanent"), 0, 5)
                    if value is not None:
                        reader.put(f"virtues.{target}", value, at(at(here, virtue), "permanent"))
                reader.rest(at(here, virtue), item, ("permanent",), "foundry_state")
            reader.rest(here, entry, tuple(VIRTUES), "not_a_v20_trait")
        elif key == "path":
            if "permanent" in entry:
                value = reader.integer(entry["permanent"], at(here, "permanent"), 0, 10)
                if value is not None:
                    reader.put("humanity", value, at(here, "permanent"))
            if entry.get("label", HUMANITY) != HUMANITY:
                reader.drop(at(here, "label"), "path_not_humanity")
                reader.drop(at(here, "custom"), "path_not_humanity", entry.get("custom"))
            else:
                reader.along(at(here, "permanent"), at(here, "label"))
            reader.rest(here, entry, ("permanent", "label", "custom"), "foundry_state")
        elif key == "bloodpool":
            if creature == "vampire" and "temporary" in entry:
                value = reader.integer(entry["temporary"], at(here, "temporary"), 0, 50)
                if value is not None:
                    reader.put("blood.current", value, at(here, "temporary"))
            if creature == "vampire":
                reader.rest(here, entry, ("temporary",), "derived")  # max, per turn: by Generation
            else:
                reader.drop(here, "not_for_creature")
        else:
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


def _items(reader: Reader, items: list[object], root: str, creature: str = "vampire") -> None:
    parents: dict[str, str] = {}
    powers: list[tuple[FileObject, FileObject, str]] = []  # item, its system, its place
    total = spent = 0
    earned_at: list[str] = []
    spent_at: list[str] = []
    named = {
        raw["_id"]: raw.get("name")
        for raw in items
        if isinstance(raw, dict) and isinstance(raw.get("_id"), str)
    }
    primary: list[tuple[FileObject, str, str, str]] = []
    experience: list[tuple[FileObject, str]] = []  # a primary path: item, its id, parent id, place
    for index, raw in enumerate(items):
        where = at(root, index)
        item = reader.obj(raw, where)
        if item is None:
            continue
        data = reader.obj(item.get("system"), at(where, "system")) or {}
        kind, subtype = item.get("type"), data.get("type")
        parent_name = named.get(text_key(data.get("parentid")) or "")
        path_of = DISCIPLINES.get(squashed(parent_name)) if isinstance(parent_name, str) else None
        if (
            kind == "Power"
            and subtype == "wod.types.disciplinepath"
            and isinstance(item.get("name"), str)
            and isinstance(item.get("_id"), str)
            and path_of in PRIMARY_PATHS
            and squashed(str(item["name"])) == squashed(PRIMARY_PATHS[str(path_of)])
        ):
            primary.append((item, str(item["_id"]), str(data["parentid"]), where))
        elif kind == "Power" and subtype in ("wod.types.discipline", "wod.types.disciplinepath"):
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
            reader.along(at(at(where, "system"), "value"), at(where, "name"))
            _item_rest(reader, item, where, ("value",), at(at(where, "system"), "value"))
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
            _item_rest(reader, item, where, ("value", "speciality"), at(at(where, "system"), "value"))
        elif kind == "Experience":
            amount = reader.integer(
                data.get("amount", 0), at(at(where, "system"), "amount"), 0, 100000, digits=True
            )
            if amount is None:
                continue
            spent_flag = data.get("isspent")
            if subtype == EXP_GAINED or (subtype is None and not spent_flag):
                total += amount
                earned_at.append(at(at(where, "system"), "amount"))
            elif subtype == EXP_SPENT and not spent_flag:
                reader.drop(where, "experience_planned", amount)
                continue
            elif subtype in (EXP_SPENT, None):
                spent += amount
                spent_at.append(at(at(where, "system"), "amount"))
            else:
                reader.drop(where, "item_type")
                continue
            reader.drop(at(where, "name"), "experience_log", item.get("name"))
            experience.append((item, where))
        elif kind == "Power" and subtype == "wod.types.ritual":
            reader.drop(where, "rituals")
        elif kind == "Ability":
            _pc_ability(reader, item, data, where)
        elif kind == "Advantage":
            _pc_advantage(reader, item, data, where, creature)
        else:
            reader.drop(where, "item_type")
    for source in earned_at:
        reader.put("experience.total", total, source)
    for source in spent_at:
        reader.put("experience.spent", spent, source)
    for item, where in experience:
        reader.along(at(at(where, "system"), "amount"), at(at(where, "system"), "isspent"))
        _item_rest(reader, item, where, ("amount", "isspent"), at(at(where, "system"), "amount"))
    for item, path_id, parent_id, where in primary:  # the Discipline's own path: its rating, its powers
        if parent_id in parents:
            parents[path_id] = parents[parent_id]
            reader.mapped.append(
                Mapped(at(at(where, "system"), "value"), f"disciplines.{parents[parent_id]}")
            )
            reader.along(
                at(at(where, "system"), "value"), at(where, "name"), at(at(where, "system"), "parentid")
            )
            _item_rest(reader, item, where, ("value", "parentid"), at(at(where, "system"), "value"))
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
        reader.along(at(where, "name"), at(at(where, "system"), "level"), at(at(where, "system"), "parentid"))
        _item_rest(reader, item, where, ("level", "parentid"), at(where, "name"))


ITEM_STATE = ("_id", "img", "effects", "folder", "sort", "ownership", "_stats")
ITEM_TEXTS = ("description", "details", "reference", "worldanvil", "bonuslist", "property")


def _item_rest(reader: Reader, item: FileObject, where: str, read: tuple[str, ...], anchor: str) -> None:
    """A kept item's other fields: its ``type`` and ``system.type`` said with ``anchor`` (the field
    read), its texts and bookkeeping dropped."""
    reader.along(anchor, at(where, "type"), at(at(where, "system"), "type"))
    for key, value in item.items():
        if key in ITEM_STATE:
            reader.drop(at(where, key), "foundry_state", value)
        elif key == "flags" and isinstance(value, dict):
            reader.rest(at(where, key), value, ("rollbook",), "foundry_state")
        elif key not in ("name", "type", "system", "flags"):
            reader.drop(at(where, key), "unknown_field", value)
    data = item.get("system")
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ITEM_TEXTS:
                reader.drop(at(at(where, "system"), key), "item_text", value)
            elif key not in (*read, "type"):
                reader.drop(at(at(where, "system"), key), "foundry_state", value)


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
        elif key in ("clan", "sire"):  # as rollbook's sheet names it (a key of the select is a
            text = reader.text(value, here)  # language's); a mortal's, whose actor has no such field
            if text:
                reader.put(key, text, here)
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


def _clan_fields(clan: str) -> FileObject:
    """The clan as the select lists it: its translation key, or "custom" and the name typed."""
    if not clan:
        return {"clan": "", "custom": {"clan": "", "sect": ""}}
    key = next((k for k, names in CLANS.items() if clan in names.values()), None)
    if key is not None:
        return {"clan": key, "custom": {"clan": "", "sect": ""}}
    return {"clan": "custom", "custom": {"clan": clan, "sect": ""}}


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
    for number, (identifier, path) in enumerate(PRIMARY_PATHS.items()):
        if any(p["discipline"] == identifier for p in sheet["powers"]):
            path_id = f"rollbookpath{number:04d}"  # one id per path: each path's powers hang under their own
            items.append(
                {
                    "_id": path_id,
                    "name": path,
                    "type": "Power",
                    "system": {
                        "type": "wod.types.disciplinepath",
                        "value": sheet["disciplines"][identifier],
                        "max": 5,
                        "level": "0",
                        "parentid": disciplines[identifier],
                    },
                }
            )
            disciplines[identifier] = path_id  # the powers hang under the path
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
    for index, (amount, exp_type) in enumerate(
        ((experience["total"], EXP_GAINED), (experience["spent"], EXP_SPENT))
    ):
        if amount:
            items.append(
                {
                    "_id": f"rollbookexpr{index:04d}",
                    "name": "rollbook",
                    "type": "Experience",
                    # as the sheet's own buttons make them (create-helpers.js), ``isspent`` at the
                    # template's true: counted by item-helpers.js either way
                    "system": {"amount": amount, "type": exp_type, "isspent": True},
                }
            )
    flags: FileObject = {}
    if sheet["clan_disciplines"]:
        flags["clan_disciplines"] = list(sheet["clan_disciplines"])
    if names:
        flags["names"] = dict(names)
    key = _clan_fields(sheet["clan"])["clan"]
    if sheet["clan"] and (
        sheet["creature"] != "vampire" or (key != "custom" and CLANS[str(key)]["en"] != sheet["clan"])
    ):
        flags["clan"] = sheet["clan"]
    if sheet["sire"] and sheet["creature"] != "vampire":
        flags["sire"] = sheet["sire"]
    if sheet["weapons"]:
        flags["weapons"] = [dict(weapon) for weapon in sheet["weapons"]]
    vampire = sheet["creature"] == "vampire"
    system: FileObject = {
        "player": sheet["player"],
        "concept": sheet["concept"],
        "nature": sheet["nature"],
        "demeanor": sheet["demeanor"],
        "notes": sheet["notes"],
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
    if vampire:  # the vampire template's fields (template.json); a mortal's ride in the flags
        system.update(_clan_fields(sheet["clan"]), sire=sheet["sire"], generation=sheet["generation"])
    return {
        "name": sheet["name"],
        "type": "Vampire" if vampire else "Mortal",
        "system": system,
        "items": items,
        "flags": {"rollbook": flags} if flags else {},
    }


def check(reader: Reader) -> None:
    """The checks of an imported V20 draft (``interop.checks``): no trait above its Generation's maximum
    (V20-19: 5 at Generation 8 and above, mortals too; 6 at 7 … 10 at 3), a specialty on a trait rated 4
    or more (V20-7), each power as the sheet checks it."""
    draft = reader.draft
    creature = draft.get("creature", "vampire")
    generation = draft.get("generation", v20_sheet.DEFAULT_GENERATION) if creature == "vampire" else None
    top = v20_sheet.TRAIT_MAX_BY_GENERATION.get(generation, 5) if generation is not None else 5
    ratings: dict[str, int] = {}
    for group in ("attributes", "talents", "skills", "knowledges", "disciplines"):
        for trait, value in draft.get(group, {}).items():
            ratings.setdefault(trait, value)
            if value > top:  # V20-19
                reader.problem(
                    reader.source_of(f"{group}.{trait}"),
                    "import_above_generation",
                    trait=trait,
                    rating=value,
                    maximum=top,
                    generation=generation if generation is not None else "-",
                )
    for trait in draft.get("specialties", {}):
        value = ratings.get(trait, 1 if trait in v20_sheet.ATTRIBUTES else 0)
        if trait in draft.get("disciplines", {}) or value < 4:  # V20-7
            reader.problem(
                reader.source_of(f"specialties.{trait}"),
                "specialty_rating_too_low",
                trait=trait,
                rating=value,
            )
    power_problems(reader, SYSTEM, draft.get("powers", []), draft.get("disciplines", {}))


_WOD20 = cast(Exporter, sys.modules[__name__])  # this module is the format
FORMATS: tuple[Format, ...] = (_WOD20,)
EXPORTS: tuple[Exporter, ...] = (_WOD20,)
