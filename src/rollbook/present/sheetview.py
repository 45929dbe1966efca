"""A character sheet read-only, in the reader's words: identity lines, rating groups (with each
Discipline's powers), specialties, the V5 damage tracks and V20 health levels as boxes, the
Willpower left. Drawn by the sheet page, the printable sheet, the solo table and Discord."""

from __future__ import annotations

from dataclasses import dataclass, field

from rollbook.i18n import N_, translate
from rollbook.play.v5_sheet import ATTRIBUTES as V5_ATTRIBUTES
from rollbook.play.v20_sheet import ATTRIBUTES as V20_ATTRIBUTES
from rollbook.present import labels, typednames
from rollbook.present.words import words


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


RATING_GROUPS = {
    "v5": (
        ("attributes", N_("Attributes"), 5),
        ("skills", N_("Skills"), 5),
        ("disciplines", N_("Disciplines"), 5),
    ),
    "v20": (
        ("attributes", N_("Attributes"), 5),
        ("talents", N_("Talents"), 5),
        ("skills", N_("Skills"), 5),
        ("knowledges", N_("Knowledges"), 5),
        ("disciplines", N_("Disciplines"), 5),
        ("virtues", N_("Virtues"), 5),
    ),
    "tiers": (("skills", N_("Skills"), 100), ("armor", N_("Armour"), 100)),
    "rollunder": (("attributes", N_("Attributes"), 20), ("skills", N_("Skills"), 20)),
}
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


BOOK_ATTRIBUTES = {"v5": V5_ATTRIBUTES, "v20": V20_ATTRIBUTES}


def rating_groups(system: str, sheet: dict, lang: str) -> list[RatingGroup]:
    groups = []
    names = sheet.get("names") or {}  # homebrew traits, as typed
    # the book's order of the attributes (a store may give a sheet's keys back in another: JSONB)
    attribute_order = list(BOOK_ATTRIBUTES.get(system, ())) + list((sheet.get("attributes") or {}).keys())
    for key, title, top in RATING_GROUPS.get(system, ()):
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
