"""A character sheet as a form, built from the play layer's sheet schema (the way back, the posted
form to a patch, is ``sheetpatch``).

Who may edit what is the play layer's decision (``PLAYER_FIELDS``: a player edits the descriptive
fields of their own character; the Storyteller edits everything); the form only offers those
fields, and the server checks again. Field names are dotted paths under ``s.``
(``s.attributes.strength``, ``s.skills.brawl``); new entries of a mapping of traits come as
``new.<group>.name.<n>`` / ``new.<group>.value.<n>``; specialties are lines ``trait: a, b``; a list
of objects (Tiers weapons, roll-under cards) is one row of labelled inputs per item,
``s.<list>.<n>.<field>``, with one empty row at the end to add one (no JavaScript needed) — a row
whose name is left empty is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rollbook.i18n import N_, labelled, translate
from rollbook.play.systems import system_module
from rollbook.present import labels, typednames
from rollbook.present.forms import Option, describe, plain_type
from rollbook.web.powerform import PowerGroup, PowerRow, fill_power_section

DERIVED = {"system", "blood.max", "blood.per_turn", "essence.max"}
# drawn by their own widget (powers), or kept by the form itself (a homebrew trait's name as typed)
OWN_WIDGET = {"powers", "names"}
NEW_ROWS = 2
SECTION_TITLES = {
    "identity": N_("Identity"),
    "attributes": N_("Attributes"),
    "talents": N_("Talents"),
    "skills": N_("Skills"),
    "knowledges": N_("Knowledges"),
    "disciplines": N_("Disciplines"),
    "specialties": N_("Specialties"),
    "virtues": N_("Virtues"),
    "willpower": N_("Willpower"),
    "health": N_("Health"),
    "blood": N_("Blood pool"),
    "experience": N_("Experience"),
    "essence": N_("Essence"),
    "wounds": N_("Wounds"),
    "armor": N_("Armour"),
    "weapons": N_("Weapons"),
    "powers": N_("Powers"),
    "other": N_("Other traits"),
}
SUBFIELDS = {
    "max": N_("Boxes"),
    "superficial": N_("Superficial damage"),
    "aggravated": N_("Aggravated damage"),
    "bashing": N_("Bashing"),
    "lethal": N_("Lethal"),
    "permanent": N_("Permanent"),
    "current": N_("Current"),
    "total": N_("Total earned"),
    "spent": N_("Spent"),
    "level": N_("Level"),
    "length": N_("Track length"),
    "per_turn": N_("Per turn"),
}


# Labels of the fields of a list's rows (a weapon's kind, its magazine): ``labels.FIELDS`` names them, in the
# form and in the log of edits alike.
ROW_FIELDS = {key: labels.FIELDS[key] for key in ("kind", "capacity", "loaded", "spare")}
# The legend of one row, and of the empty row that adds one.
ROW_TITLES = {
    "weapons": (N_("Weapon {n}"), N_("New weapon")),
    "cards": (N_("Card {n}"), N_("New card")),
}


@dataclass
class SheetField:
    name: str  # form name
    label: str
    widget: str  # text | textarea | number | select | checkbox | pair
    value: Any = None
    minimum: int | None = None
    maximum: int | None = None
    options: list[Option] = field(default_factory=list)
    help: str = ""
    placeholder: str = ""
    send_off: bool = False  # a checkbox ticked by default: an untick is posted as "off"


@dataclass
class Row:
    """One item of a list of objects (a weapon, a card) as a row of labelled inputs."""

    legend: str
    fields: list[SheetField] = field(default_factory=list)
    new: bool = False


@dataclass
class Section:
    key: str
    title: str
    fields: list[SheetField] = field(default_factory=list)
    new_rows: list[tuple[str, str]] = field(default_factory=list)  # (name field, value field) for a mapping
    open: bool = True
    rows: list[Row] = field(default_factory=list)  # a list of objects, one row per item (and an empty one)
    hint: str = ""
    suggestions: list[Option] = field(default_factory=list)  # known names for a new row (a datalist)
    powers: list[PowerGroup] = field(default_factory=list)  # the Discipline powers (their own widget)
    power_rows: list[PowerRow] = field(default_factory=list)  # new powers of any Discipline (a new one too)
    power_lists: list[tuple[str, list[Option]]] = field(
        default_factory=list
    )  # every listed Discipline's powers


def schema_of(system: str) -> dict:
    """The play layer's sheet schema of a system."""
    return describe(system)["sheet"]


def resolved(schema: dict, spec: dict) -> dict:
    """A property's schema, its ``$ref`` followed."""
    ref = spec.get("$ref")
    if ref:
        return schema["$defs"][ref.rsplit("/", 1)[1]]
    return spec


def kind_of(spec: dict) -> str:
    """How a property is drawn and read back: map_int, map_list, list_obj, list_str, object, or its type."""
    if "patternProperties" in spec:
        inner = next(iter(spec["patternProperties"].values()))
        return "map_list" if inner.get("type") == "array" else "map_int"
    if spec.get("type") == "array":
        return "list_obj" if "$ref" in (spec.get("items") or {}) else "list_str"
    if "properties" in spec:
        return "object"
    return spec.get("type") or "string"


def editable_keys(system: str, role: str, creating: bool) -> set[str] | None:
    """None: everything. Otherwise the top-level keys this role may change (a player's new sheet:
    everything but what only the Storyteller gives, such as roll-under cards)."""
    if role == "storyteller":
        return None
    if creating:
        withheld = system_module(system).STORYTELLER_SHEET_FIELDS
        return set(schema_of(system)["properties"]) - withheld if withheld else None
    # and what a player may add to: a power within the dots the Storyteller gave (play.edit_sheet)
    return set(describe(system)["player_fields"]) | set(system_module(system).PLAYER_ADDS)


def _scalar(name: str, key: str, spec: dict, value: Any, lang: str) -> SheetField:
    spec, _nullable = plain_type(spec)
    label = labels.field(key, lang, spec.get("title"))
    if "enum" in spec:
        options = [Option(v, labels.choice(v, lang, key)) for v in spec["enum"]]
        return SheetField(name, label, "select", value, options=options)
    if spec.get("type") == "integer":
        return SheetField(name, label, "number", value, spec.get("minimum"), spec.get("maximum"))
    if spec.get("type") == "boolean":
        return SheetField(name, label, "checkbox", bool(value))
    widget = "textarea" if spec.get("maxLength", 0) > 1000 else "text"
    return SheetField(name, label, widget, value if value is not None else "")


def sections(
    system: str,
    sheet: dict,
    lang: str,
    editable: set[str] | None,
    *,
    creating: bool = False,
    adds_only: bool = False,
) -> list[Section]:
    """The editor's sections. ``creating``: the values the rules derive (Willpower and Health boxes,
    blood, Hunger…: nullable in the schema) start empty, so the rules fill them from the ratings.
    ``adds_only``: a player's own sheet, where the powers held are read-only (``play.PLAYER_ADDS``)."""
    schema = schema_of(system)
    names = sheet.get("names") or {}
    derived_hint = translate(N_("Empty: from the rules"), lang)
    identity = Section("identity", translate(SECTION_TITLES["identity"], lang))
    out: list[Section] = [identity]
    other = Section("other", translate(SECTION_TITLES["other"], lang))
    for key, raw in schema["properties"].items():
        if key in DERIVED or key in OWN_WIDGET or (editable is not None and key not in editable):
            continue
        spec = resolved(schema, raw)
        kind = kind_of(plain_type(spec)[0])
        value = sheet.get(key)
        title = translate(SECTION_TITLES.get(key, spec.get("title") or labels.readable(key)), lang)
        if kind in ("string", "integer", "boolean") or "enum" in plain_type(spec)[0]:
            target = identity if kind == "string" or key in ("creature", "generation") else other
            if key in ("humanity", "stains", "hunger", "blood_potency", "endurance", "turn_spent"):
                target = other
            scalar = _scalar(f"s.{key}", key, raw, value, lang)
            if creating and plain_type(raw)[1]:
                scalar.value, scalar.placeholder = None, derived_hint
            target.fields.append(scalar)
        elif kind == "object":
            section = Section(key, title, open=key == "attributes")
            for sub, sub_spec in spec["properties"].items():
                if f"{key}.{sub}" in DERIVED:
                    continue
                inner = (value or {}).get(sub)
                f = _scalar(f"s.{key}.{sub}", sub, sub_spec, inner, lang)
                if creating and plain_type(sub_spec)[1]:
                    f.value, f.placeholder = None, derived_hint
                if key in ("attributes", "virtues"):
                    f.label = labels.trait(sub, lang)
                elif sub in SUBFIELDS:
                    f.label = translate(SUBFIELDS[sub], lang)
                section.fields.append(f)
            out.append(section)
        elif kind == "map_int":
            section = Section(key, title, open=False)
            for name, rating in sorted(
                (value or {}).items(), key=lambda item: labels.trait(item[0], lang, names)
            ):
                section.fields.append(
                    SheetField(f"s.{key}.{name}", labels.trait(name, lang, names), "number", rating, 0)
                )
            section.new_rows = [(f"new.{key}.name.{n}", f"new.{key}.value.{n}") for n in range(NEW_ROWS)]
            section.suggestions = suggestions(system, key, value or {}, lang)
            out.append(section)
        elif kind == "map_list":
            lines = "\n".join(
                labelled(labels.trait(trait, lang, names), ", ".join(held), lang)
                for trait, held in sorted((value or {}).items())
            )
            section = Section(key, title, open=False)
            section.fields.append(
                SheetField(
                    f"s.{key}",
                    title,
                    "textarea",
                    lines,
                    help=translate(N_("One line per trait: trait: first, second"), lang),
                    placeholder=labelled(
                        labels.trait("firearms", lang), translate(N_("Pistols"), lang), lang
                    ),
                )
            )
            out.append(section)
        elif kind == "list_str":
            other.fields.append(
                SheetField(
                    f"s.{key}",
                    title,
                    "text",
                    ", ".join(labels.trait(v, lang, names) for v in value or []),
                    help=translate(N_("Names separated by commas, in any of the table's languages"), lang),
                )
            )
        elif kind == "list_obj":
            section = Section(
                key,
                title,
                open=False,
                rows=object_rows(schema, key, spec, value if isinstance(value, list) else [], lang),
                hint=translate(
                    N_("Leave a name empty to remove that row; fill in the last row to add one."), lang
                ),
            )
            out.append(section)
    if "powers" in schema["properties"] and (editable is None or "powers" in editable):
        section = Section("powers", translate(SECTION_TITLES["powers"], lang), open=False)
        fill_power_section(section, system, sheet, lang, adds_only=adds_only)
        at = next((n + 1 for n, s in enumerate(out) if s.key == "disciplines"), len(out))
        out.insert(at, section)
    if other.fields:
        out.insert(1, other)
    return [s for s in out if s.fields or s.new_rows or s.rows or s.powers or s.power_rows]


def suggestions(system: str, key: str, held: dict, lang: str) -> list[Option]:
    """Names a new row of ``key`` may take, in the reader's language: the game's disciplines, the
    traits the labels know for the other groups; what the sheet holds already is left out."""
    if key == "disciplines":
        known = labels.DISCIPLINES.get(system, ())
    else:
        return []
    names = sorted((labels.trait(k, lang) for k in known if k not in held), key=typednames.sort_key)
    return [Option(name, name) for name in names]


def items_of(schema: dict, spec: dict) -> dict:
    """The schema of one item of a list of objects (a weapon, a card)."""
    return resolved(schema, (plain_type(spec)[0].get("items") or {}))


def object_rows(schema: dict, key: str, spec: dict, items: list, lang: str) -> list[Row]:
    """One row per item of the list, then an empty row (the way to add one without JavaScript)."""
    item_schema = items_of(schema, spec)
    titled, new_title = ROW_TITLES.get(key, (N_("Item {n}"), N_("New item")))
    rows = []
    for n, item in enumerate([*items, None]):
        item = item if isinstance(item, dict) else None
        legend = translate(titled, lang, n=n + 1) if item is not None else translate(new_title, lang)
        row = Row(legend, new=item is None)
        for sub, sub_spec in item_schema.get("properties", {}).items():
            plain = plain_type(sub_spec)[0]
            if item is not None:  # as held (a field left out has the rules' default)
                value = item.get(sub) if item.get(sub) is not None else sub_spec.get("default")
            else:  # the empty row: boxes as the rules default them, the rest empty
                value = sub_spec.get("default") if plain.get("type") == "boolean" else None
            f = _scalar(f"s.{key}.{n}.{sub}", sub, sub_spec, value, lang)
            if sub in ROW_FIELDS:
                f.label = translate(ROW_FIELDS[sub], lang)
            if f.widget == "textarea":
                f.widget = "text"
            if f.widget == "checkbox":
                f.send_off = True
            if (
                f.widget == "number"
                and f.value is None
                and "default" in sub_spec
                and sub_spec["default"] is not None
            ):
                f.placeholder = str(sub_spec["default"])
            row.fields.append(f)
        rows.append(row)
    return rows
