"""The V5 Discord bot's (Inconnu, github.com/tiltowait/inconnu) character body -> a rollbook V5 sheet.

Read from the bot's models, repository tiltowait/inconnu at commit f1b25d83 (docs/import.md):
``src/routes/characters/models.py`` (``CreationBody``: ``name``, ``splat``, ``health``,
``willpower``, ``humanity``, ``blood_potency``, ``convictions``, ``biography``, ``description``,
``traits``), ``src/models/vchardocs.py`` (``VCharSplat``: vampire, ghoul, mortal, thin-blood;
``VCharTrait``: ``name``, ``rating``, ``type`` attribute/skill/discipline/custom/inherent,
``subtraits``: a skill's specialties or a Discipline's powers), ``src/constants.py`` (trait names
in CamelCase: ``AnimalKen``, ``BloodSorcery``; damage tracks as text ``.`` none, ``/``
superficial, ``x`` aggravated), ``src/models/vchar.py`` (the stored document: ``potency``,
``hunger``, ``stains``, ``health``/``willpower`` as those tracks, ``experience``).

The bot's powers carry no level: a power of the game's list is found by its name (its level is the
list's); any other is dropped, and the report says so.
"""

from __future__ import annotations

from rollbook.interop.common import (
    V5_ATTRIBUTES,
    V5_DISCIPLINES,
    V5_SKILLS,
    no_hunger,
    power,
    rated,
    specialty,
)
from rollbook.interop.names import known_power, squashed
from rollbook.interop.report import FileObject, Mapped, Reader, at

FORMAT = "v5bot"
SYSTEM = "v5"
DETECTION_RANK = 3  # ``interop.formats.Format``: last
SPLATS = {
    "vampire": "vampire",
    "ghoul": "ghoul",
    "mortal": "mortal",
    "thin-blood": "thin_blood",
    "thin_blood": "thin_blood",
}
DROPPED = {
    "header": "no_such_field",
    "macros": "no_such_field",
    "log": "source_bookkeeping",
    "guild": "source_bookkeeping",
    "user": "source_bookkeeping",
    "_id": "source_bookkeeping",
    "id": "source_bookkeeping",
    "spc": "source_bookkeeping",
}


def detect(data: object) -> bool:
    return isinstance(data, dict) and "splat" in data and isinstance(data.get("traits"), list)


def spaced(name: object) -> object:
    """The bot's trait names have no blank (``Black_Market``, Progeny's export of "Black Market";
    ``src/constants.py``: ``AnimalKen``): an underscore is a blank."""
    return " ".join(name.replace("_", " ").split()) if isinstance(name, str) else name


def _track(reader: Reader, track: str, value: object, where: str) -> None:
    if isinstance(value, str):  # the stored document: one character per box
        if not value or set(value) - set("./x"):
            reader.problem(where, "import_bad_track", track=track)
            return
        if len(value) > 20:
            reader.problem(where, "import_out_of_range", value=len(value), low=1, high=20)
            return
        reader.put(f"{track}.max", len(value), where)
        for mark, kind in (("/", "superficial"), ("x", "aggravated")):
            if value.count(mark):
                reader.put(f"{track}.{kind}", value.count(mark), where)
        return
    number = reader.integer(value, where, 1, 20)
    if number is not None:
        reader.put(f"{track}.max", number, where)


def read(data: FileObject, reader: Reader) -> str | None:
    root = "$"
    splat = data.get("splat")
    creature = SPLATS.get(splat) if isinstance(splat, str) else None
    if creature is None:
        reader.problem(at(root, "splat"), "import_bad_choice", given=str(splat), expected=list(SPLATS)[:4])
        return None
    reader.draft["creature"] = creature
    reader.mapped.append(Mapped(at(root, "splat"), "creature"))
    name = reader.text(data.get("name"), at(root, "name"), 100)
    if name:
        reader.put("name", name, at(root, "name"))
    for key in ("health", "willpower"):
        if key in data:
            _track(reader, key, data[key], at(root, key))
    for key, target, high in (
        ("humanity", "humanity", 10),
        ("stains", "stains", 10),
        ("hunger", "hunger", 5),
        ("blood_potency", "blood_potency", 10),
        ("potency", "blood_potency", 10),
    ):
        if key in data:
            value = reader.integer(data[key], at(root, key), 0, high)
            if value is not None:
                reader.put(target, value, at(root, key))
    experience = reader.obj(data.get("experience"), at(root, "experience")) or {}
    for keys, into in ((("lifetime", "total"), "experience.total"), (("unspent", "current"), None)):
        for key in keys:
            if key in experience:
                value = reader.integer(experience[key], at(at(root, "experience"), key), 0, 100000)
                if value is not None and into:
                    reader.put(into, value, at(at(root, "experience"), key))
                elif value is not None:
                    total = reader.draft.get("experience", {}).get("total", value)
                    reader.put("experience.spent", max(total - value, 0), at(at(root, "experience"), key))
    reader.drop(at(at(root, "experience"), "log"), "source_bookkeeping", experience.get("log"))
    traits = data["traits"]
    assert isinstance(traits, list)  # ``detect`` saw to it
    later: list[tuple[str, list[object], str]] = []
    for index, raw in enumerate(traits):
        where = at(at(root, "traits"), index)
        trait = reader.obj(raw, where)
        if trait is None:
            continue
        kind = trait.get("type")
        name_at, rating_at = at(where, "name"), at(where, "rating")
        subtraits = (
            reader.array(trait.get("subtraits", trait.get("raw_subtraits")), at(where, "subtraits")) or []
        )
        if kind == "attribute":
            trait_name = trait.get("name")
            identifier = V5_ATTRIBUTES.get(squashed(trait_name)) if isinstance(trait_name, str) else None
            if identifier is None:
                reader.problem(name_at, "import_unknown_attribute", name=str(trait.get("name")))
                continue
            value = reader.integer(trait.get("rating"), rating_at, 1, 5)
            if value is not None:
                reader.put(f"attributes.{identifier}", value, rating_at)
        elif kind in ("skill", "custom"):
            skill = rated(
                reader,
                "skills",
                spaced(trait.get("name")),
                trait.get("rating"),
                name_at,
                rating_at,
                V5_SKILLS,
            )
            if skill is not None:
                for sub, text in enumerate(subtraits):
                    # Progeny's Inconnu export writes its free specialties whatever the skill's dots:
                    # V5 keeps a specialty on a rated skill
                    specialty(
                        reader, skill, spaced(text), at(at(where, "subtraits"), sub), on_rated_skill=True
                    )
        elif kind == "discipline":
            discipline = rated(
                reader,
                "disciplines",
                spaced(trait.get("name")),
                trait.get("rating"),
                name_at,
                rating_at,
                V5_DISCIPLINES,
            )
            if discipline is not None:
                later.append((discipline, subtraits, where))
        elif kind == "inherent":
            reader.drop(where, "derived")
            continue
        else:
            reader.problem(
                at(where, "type"),
                "import_bad_choice",
                given=str(kind),
                expected=["attribute", "skill", "discipline", "custom", "inherent"],
            )
            continue
        reader.along(rating_at, name_at, at(where, "type"))  # a trait's name and type: its rating's
        reader.rest(where, trait, ("name", "rating", "type", "subtraits", "raw_subtraits"), "unknown_field")
    for discipline, subtraits, where in later:
        rating = reader.draft.get("disciplines", {}).get(discipline, 0)
        for sub, text in enumerate(subtraits):
            here = at(at(where, "subtraits"), sub)
            found = known_power("v5", discipline, text) if isinstance(text, str) else None
            if found is not None and found[1] > rating:
                # the bot gives no level: a power known above the Discipline's rating (Progeny's test
                # character has Prowess, Potence 2, at Potence 1) cannot be placed
                reader.drop(here, "power_above_rating")
                continue
            power(reader, "v5", discipline, spaced(text), None, here)
    no_hunger(reader, creature)
    reader.note(at(root, "convictions"), "convictions", data.get("convictions"))
    for key in ("biography", "description"):
        reader.note(at(root, key), key, data.get(key))
    _profile(reader, data.get("profile"), at(root, "profile"))
    for key, reason in DROPPED.items():
        if key in data:
            reader.drop(at(root, key), reason, data[key])
    known = {
        *DROPPED,
        "convictions",
        "biography",
        "description",
        "profile",
        "name",
        "splat",
        "health",
        "willpower",
        "humanity",
        "stains",
        "hunger",
        "blood_potency",
        "potency",
        "experience",
        "traits",
    }
    for key in data:
        if key not in known:
            reader.drop(at(root, key), "unknown_field", data[key])
    return creature


def _profile(reader: Reader, value: object, where: str) -> None:
    """The stored document's ``profile`` (``src/models/vchar.py``: ``biography``, ``description``,
    ``images``): its texts kept in the notes, its images (addresses on the bot's host) dropped."""
    if not isinstance(value, dict):
        reader.drop(where, "no_such_field", value)
        return
    for key, inner in value.items():
        if key in ("biography", "description"):
            reader.note(at(where, key), key, inner)
        else:
            reader.drop(at(where, key), "no_such_field", inner)
