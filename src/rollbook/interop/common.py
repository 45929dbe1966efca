"""Pieces every V5 format shares: attribute, skill and Discipline keys to rollbook ids, a trait
added (known, or homebrew with its name as typed), a power added (known by its English name, or
homebrew), and the top-level keys of a Foundry actor (WoD20 and WoD5e) a sheet has no place for.
V5's traits are its sheet's (``V5Traits``), found by the system's id (``play.systems.own_module``)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol, cast

from rollbook.interop.names import by_squash, known_power, slug, squashed, typed
from rollbook.interop.report import FileObject, Reader, at, type_name
from rollbook.play.powers import disciplines_with_powers
from rollbook.play.systems import own_module


class V5Traits(Protocol):
    """What the V5 formats read of V5's sheet (``systems/v5/sheet.py``): its attributes and skills, and
    the creatures that have Hunger (V5-12)."""

    @property
    def ATTRIBUTES(self) -> tuple[str, ...]: ...
    @property
    def SKILLS(self) -> tuple[str, ...]: ...
    @property
    def HUNGRY(self) -> Collection[str]: ...


V5 = "v5"  # the system of the formats these pieces serve (``progeny``, ``wod5e``, ``v5bot``)
V5_SHEET = cast(V5Traits, own_module(V5, "sheet"))
V5_ATTRIBUTES = by_squash(V5_SHEET.ATTRIBUTES)
V5_SKILLS = by_squash(V5_SHEET.SKILLS)
V5_DISCIPLINES = by_squash(
    disciplines_with_powers(V5),
    {"sorcery": "blood_sorcery", "alchemy": "thin_blood_alchemy", "thin-blood alchemy": "thin_blood_alchemy"},
)
TRAIT_HIGH = 5


def trait_id(
    reader: Reader, name: object, source: str, known: dict[str, str]
) -> tuple[str | None, str | None]:
    """(id, homebrew name or None) of a trait named in the source; a problem when nothing can be made of it."""
    if not isinstance(name, str):
        reader.problem(source, "import_wrong_type", expected="text", given=type_name(name))
        return None, None
    found = known.get(squashed(name))
    if found:
        return found, None
    made = slug(name)
    if not made:
        reader.problem(source, "import_bad_name", name=typed(name))
        return None, None
    return made, typed(name)


def rated(
    reader: Reader,
    group: str,
    name: object,
    value: object,
    source_name: str,
    source_value: str,
    known: dict[str, str],
    low: int = 0,
    high: int = TRAIT_HIGH,
) -> str | None:
    """A rated trait of ``group`` (``skills``, ``disciplines``): known or homebrew. Returns its id."""
    identifier, homebrew = trait_id(reader, name, source_name, known)
    rating = reader.integer(value, source_value, low, high)
    if identifier is None or rating is None:
        return None
    if identifier in reader.draft.get(group, {}):
        reader.problem(source_name, "import_duplicate_trait", trait=identifier)
        return None
    reader.put(f"{group}.{identifier}", rating, source_value, name=homebrew)
    if homebrew is not None and homebrew != identifier:
        reader.draft.setdefault("names", {})[identifier] = homebrew
    return identifier


def specialty(reader: Reader, trait: str, name: object, source: str, *, on_rated_skill: bool = False) -> None:
    """A specialty of ``trait`` (its name as typed). ``on_rated_skill``: the format's system keeps a
    specialty only on a skill rated 1 or more (V5: ``systems.v5.sheet``), so one on a skill the file rates
    0 is dropped as ``specialty_untrained``, said in the report; the format module says so."""
    text = reader.text(name, source, 100)
    if text is None or not text.strip():
        reader.drop(source, "empty_name", name)
        return
    if on_rated_skill and reader.draft.get("skills", {}).get(trait) == 0:
        reader.drop(source, "specialty_untrained", name)
        return
    current = reader.draft.setdefault("specialties", {}).get(trait, [])
    if text in current:
        reader.drop(source, "duplicate", name)
        return
    reader.draft["specialties"][trait] = current  # keeps the list the reader appends to
    reader.append(f"specialties.{trait}", text, source)


def power(
    reader: Reader,
    system: str,
    discipline: str,
    name: object,
    level: int | None,
    source: str,
    power_id: object = None,
) -> None:
    """A Discipline power: a known one (its id given, or its English name at its level) or a homebrew
    one kept as typed. ``level`` None: the level of the known power of that name (else dropped)."""
    if power_id is not None and isinstance(power_id, str) and level is not None:
        reader.append("powers", {"discipline": discipline, "level": level, "power": power_id}, source)
        return
    text = reader.text(name, source, 100)
    if text is None or not text.strip():
        reader.drop(source, "empty_name", name)
        return
    found = known_power(system, discipline, text, level)
    if found is not None:
        reader.append("powers", {"discipline": discipline, "level": found[1], "power": found[0]}, source)
    elif level is None:
        reader.drop(source, "power_without_level")
    else:
        reader.append(
            "powers",
            {"discipline": discipline, "level": level, "name": typed(text)},
            source,
            name=typed(text),
        )


def no_hunger(reader: Reader, creature: str) -> None:
    """A ghoul or a mortal has no Hunger (V5-12), yet WoD5e and the V5 Discord bot store one on every
    character (WoD5e's ``hunger.value`` starts at 1 on every actor type; the bot's ``hunger`` defaults
    to 1): the value read is reported dropped, not refused."""
    if creature not in V5_SHEET.HUNGRY:
        if "hunger" in reader.draft:
            reader.unmap("hunger", "not_for_creature")
        reader.draft["hunger"] = 0


def drop_foundry_top(reader: Reader, data: FileObject, root: str, state: tuple[str, ...]) -> None:
    """Report as dropped a Foundry actor's own bookkeeping (``state``) and any top-level key other
    than those a reader takes (name, type, system, items, flags)."""
    for key in state:
        reader.drop(at(root, key), "foundry_state", data.get(key))
    for key in data:
        if key not in (*state, "name", "type", "system", "items", "flags"):
            reader.drop(at(root, key), "unknown_field", data[key])


def typed_names(reader: Reader, value: object, where: str) -> None:
    """``flags.rollbook.names`` of a Foundry actor: each trait's name as typed (a text), kept."""
    for trait, name in (reader.obj(value, where) or {}).items():
        if isinstance(name, str):
            reader.draft.setdefault("names", {})[trait] = name
            reader.origin[f"names.{trait}"] = at(where, trait)
