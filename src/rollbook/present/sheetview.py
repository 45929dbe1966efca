"""A character sheet read-only, in the reader's words: identity lines, rating groups (with each
Discipline's powers), specialties, the V5 damage tracks and V20 health levels as boxes, the
Willpower left. Drawn by the sheet page, the printable sheet, the solo table and Discord."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from rollbook.i18n import N_, translate
from rollbook.play import systems
from rollbook.present import labels, typednames
from rollbook.present.words import own_words, words


@dataclass
class Rating:
    key: str
    label: str
    value: int
    maximum: int
    dots: bool = True
    powers: list[str] = field(default_factory=list)  # a Discipline's powers, in the reader's words


@dataclass
class RatingGroup:
    key: str
    title: str
    ratings: list[Rating]


class _RatingGroups(Mapping[str, tuple[tuple[str, str, int], ...]]):
    """Each registered system's sections of ratings, by system id, as its words declare them
    (``RATING_GROUPS``: its key, its title's msgid, the top rating); a system without words has none."""

    def __getitem__(self, system: str) -> tuple[tuple[str, str, int], ...]:
        own = own_words(system)
        if own is None:
            raise KeyError(system)
        return own.RATING_GROUPS

    def __iter__(self) -> Iterator[str]:
        return (system for system in systems.system_ids() if own_words(system) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


RATING_GROUPS: Mapping[str, tuple[tuple[str, str, int], ...]] = _RatingGroups()
IDENTITY_FIELDS = (
    "player",
    "concept",
    "clan",
    "sire",
    "predator",
    "nature",
    "demeanor",
    "ambition",
    "desire",
)


def identity(sheet: dict, lang: str) -> list[tuple[str, str]]:
    out = []
    for key in IDENTITY_FIELDS:
        value = sheet.get(key)
        if value:
            out.append((labels.field(key, lang), value))
    if sheet.get("creature"):
        out.append((labels.field("creature", lang), labels.choice(sheet["creature"], lang)))
    if sheet.get("generation"):
        out.append((labels.field("generation", lang), str(sheet["generation"])))
    return out


def rating_groups(system: str, sheet: dict, lang: str) -> list[RatingGroup]:
    groups = []
    names = sheet.get("names") or {}  # homebrew traits, as typed
    # the book's order of the attributes (a store may give a sheet's keys back in another: JSONB)
    own = own_words(system)  # the book's order of the attributes, in the system's words
    attribute_order = list(own.BOOK_ATTRIBUTES if own is not None else ()) + list(
        (sheet.get("attributes") or {}).keys()
    )
    sections = RATING_GROUPS.get(system, ())
    for key, title, top in sections:
        values = sheet.get(key)
        if not isinstance(values, dict) or not values:
            continue
        items = list(values.items())
        if key not in ("attributes", "virtues"):
            # abilities: the rated ones first, then alphabetically in the reader's language
            items.sort(key=lambda item: (item[1] == 0, labels.trait(item[0], lang, names)))
        elif key == "attributes" and words(system).ATTRIBUTES_BY_NAME:  # the sheet's own, by name
            items.sort(key=lambda item: labels.trait(item[0], lang, names))
        elif key == "attributes":
            items.sort(key=lambda item: attribute_order.index(item[0]))
        ratings = [
            Rating(k, labels.trait(k, lang, names), int(v), max(top, int(v)), dots=top <= 10)
            for k, v in items
        ]
        if key == "disciplines":
            for r in ratings:
                r.powers = powers_of(system, sheet, r.key, lang)
        groups.append(RatingGroup(key, translate(title, lang), ratings))
    return groups


def powers_of(system: str, sheet: dict, discipline: str, lang: str) -> list[str]:
    """The sheet's powers of one Discipline, by level: a known power in the reader's language, a
    homebrew one as typed ("Égouts" stays "Égouts")."""
    held = [p for p in sheet.get("powers") or [] if isinstance(p, dict) and p.get("discipline") == discipline]
    held.sort(key=lambda p: (p.get("level") or 0, typednames.sort_key(power_words(system, p, lang))))
    return [f"{power_words(system, p, lang)} ({p.get('level')})" for p in held]


def power_words(system: str, power: dict, lang: str) -> str:
    if power.get("power"):
        return labels.power(system, str(power.get("discipline")), str(power["power"]), lang)
    return str(power.get("name") or "")


def specialties(sheet: dict, lang: str) -> list[tuple[str, str]]:
    typed = sheet.get("names") or {}
    return [
        (labels.trait(trait, lang, typed), ", ".join(names))
        for trait, names in (sheet.get("specialties") or {}).items()
        if names
    ]


def v5_track(track: dict) -> list[str]:
    """Boxes left to right: aggravated (X), then superficial (/), then empty."""
    maximum = track.get("max") or 0
    agg = track.get("aggravated", 0)
    sup = track.get("superficial", 0)
    return ["aggravated"] * agg + ["superficial"] * sup + ["empty"] * max(0, maximum - agg - sup)


V20_HEALTH = (
    (N_("Bruised"), 0),
    (N_("Hurt"), -1),
    (N_("Injured"), -1),
    (N_("Wounded"), -2),
    (N_("Mauled"), -2),
    (N_("Crippled"), -5),
    (N_("Incapacitated"), None),
)


def v20_health(health: dict, lang: str) -> list[tuple[str, str, str]]:
    """The seven health levels, most severe damage first: (label, penalty, mark)."""
    marks = (
        ["aggravated"] * health.get("aggravated", 0)
        + ["lethal"] * health.get("lethal", 0)
        + ["bashing"] * health.get("bashing", 0)
    )
    out = []
    for index, (label, penalty) in enumerate(V20_HEALTH):
        text = "" if penalty is None or penalty == 0 else str(penalty).replace("-", "−")
        out.append((translate(label, lang), text, marks[index] if index < len(marks) else "empty"))
    return out


def willpower_current(system: str, sheet: dict) -> int | None:
    return words(system).willpower_current(sheet)  # V20's current; V5's boxes less its damage
