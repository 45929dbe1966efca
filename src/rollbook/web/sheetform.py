"""A character sheet as a form (built from the play layer's sheet schema) and back to a patch.

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

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rollbook.i18n import N_, translate
from rollbook.play.common import merge
from rollbook.play.systems import system_module
from rollbook.rules.base import RuleError
from rollbook.web import labels, typednames
from rollbook.web.forms import Option, describe, parse_int, plain_type, truthy
from rollbook.web.powerform import PowerGroup, PowerRow, fill_power_section, powers_from_form

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
    power_lists: list[tuple[str, list[Option]]] = field(default_factory=list)  # every listed Discipline's powers


def _schema(system: str) -> dict:
    return describe(system)["sheet"]


def _resolve(schema: dict, spec: dict) -> dict:
    ref = spec.get("$ref")
    if ref:
        return schema["$defs"][ref.rsplit("/", 1)[1]]
    return spec


def _kind(spec: dict) -> str:
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
    everything but what only the Storyteller gives, such as roll-under cards, issue 31 point 9)."""
    if role == "storyteller":
        return None
    if creating:
        withheld = getattr(system_module(system), "STORYTELLER_SHEET_FIELDS", frozenset())
        return set(_schema(system)["properties"]) - withheld if withheld else None
    return set(describe(system)["player_fields"])


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


def sections(system: str, sheet: dict, lang: str, editable: set[str] | None, *,
             creating: bool = False) -> list[Section]:
    """The editor's sections. ``creating``: the values the rules derive (Willpower and Health boxes,
    blood, Hunger…: nullable in the schema) start empty, so the rules fill them from the ratings."""
    schema = _schema(system)
    names = sheet.get("names") or {}
    derived_hint = translate(N_("Empty: from the rules"), lang)
    identity = Section("identity", translate(SECTION_TITLES["identity"], lang))
    out: list[Section] = [identity]
    other = Section("other", translate(SECTION_TITLES["other"], lang))
    for key, raw in schema["properties"].items():
        if key in DERIVED or key in OWN_WIDGET or (editable is not None and key not in editable):
            continue
        spec = _resolve(schema, raw)
        kind = _kind(plain_type(spec)[0])
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
            for name, rating in sorted((value or {}).items(), key=lambda item: labels.trait(item[0], lang, names)):
                section.fields.append(SheetField(f"s.{key}.{name}", labels.trait(name, lang, names), "number",
                                                 rating, 0))
            section.new_rows = [(f"new.{key}.name.{n}", f"new.{key}.value.{n}") for n in range(NEW_ROWS)]
            section.suggestions = suggestions(system, key, value or {}, lang)
            out.append(section)
        elif kind == "map_list":
            lines = "\n".join(f"{labels.trait(trait, lang, names)}: {', '.join(held)}"
                              for trait, held in sorted((value or {}).items()))
            section = Section(key, title, open=False)
            section.fields.append(SheetField(f"s.{key}", title, "textarea", lines,
                                             help=translate(N_("One line per trait: trait: first, second"), lang),
                                             placeholder=f"{labels.trait('firearms', lang)}: "
                                                         f"{translate(N_('Pistols'), lang)}"))
            out.append(section)
        elif kind == "list_str":
            other.fields.append(SheetField(f"s.{key}", title, "text",
                                           ", ".join(labels.trait(v, lang, names) for v in value or []),
                                           help=translate(N_("Names separated by commas, in any of the table's "
                                                             "languages"), lang)))
        elif kind == "list_obj":
            section = Section(key, title, open=False,
                              rows=object_rows(schema, key, spec, value if isinstance(value, list) else [], lang),
                              hint=translate(N_("Leave a name empty to remove that row; fill in the last row to "
                                                "add one."), lang))
            out.append(section)
    if "powers" in schema["properties"] and (editable is None or "powers" in editable):
        section = Section("powers", translate(SECTION_TITLES["powers"], lang), open=False)
        fill_power_section(section, system, sheet, lang)
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


def _item_schema(schema: dict, spec: dict) -> dict:
    return _resolve(schema, (plain_type(spec)[0].get("items") or {}))


def object_rows(schema: dict, key: str, spec: dict, items: list, lang: str) -> list[Row]:
    """One row per item of the list, then an empty row (the way to add one without JavaScript)."""
    item_schema = _item_schema(schema, spec)
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
            if f.widget == "number" and f.value is None and "default" in sub_spec and sub_spec["default"] is not None:
                f.placeholder = str(sub_spec["default"])
            row.fields.append(f)
        rows.append(row)
    return rows


def _rows_from_form(schema: dict, key: str, spec: dict, form: Mapping[str, Any]) -> list[dict]:
    """The rows of a list of objects posted as ``s.<key>.<n>.<field>`` -> the list of objects (the
    same shape the server always received: fields left empty are left out, so the rules' defaults
    apply; a row without a name is dropped)."""
    item_schema = _item_schema(schema, spec)
    items = []
    n = 0
    while f"s.{key}.{n}.name" in form:
        prefix = f"s.{key}.{n}."
        name = str(form.get(prefix + "name") or "").strip()
        if name:
            item: dict[str, Any] = {"name": name}
            for sub, sub_spec in item_schema.get("properties", {}).items():
                if sub == "name":
                    continue
                plain, _nullable = plain_type(sub_spec)
                raw = form.get(prefix + sub)
                if plain.get("type") == "boolean":
                    item[sub] = truthy(raw)
                    continue
                if isinstance(raw, (list, tuple)):
                    raw = raw[-1] if raw else None
                text = "" if raw is None else str(raw).strip()
                if text == "":
                    continue
                item[sub] = parse_int(f"{key}.{n}.{sub}", text, False) if plain.get("type") == "integer" else text
            items.append(item)
        n += 1
    return items


def trait_id(text: str) -> str:
    """"Animal Ken", "Furtivité", "Presencia" -> "animal_ken", "stealth", "presence" (the play layer's
    trait ids; a name typed in the table's language is the trait it names)."""
    return typednames.trait_from_text(text)


def patch_from_form(system: str, form: Mapping[str, Any], sheet: dict, editable: set[str] | None, *,
                    lenient: bool = False) -> dict:
    """The posted form -> a patch for ``characters.edit_character`` (``null`` removes an entry).

    Trait names may be typed in English, French or Spanish (stored by their id). Entries of a mapping
    of traits are read from the sheet's own and from any ``s.<group>.<id>`` posted (a row added before
    a refusal comes back as one). ``lenient``: a value that cannot be read is left out instead of
    refused (to draw a refused form again with everything else as typed)."""
    schema = _schema(system)
    patch: dict[str, Any] = {}
    held_names = sheet.get("names") or {}
    typed_names: dict[str, str] = {}

    def trait_id(text: str, names_it: bool = True) -> str:
        """A trait typed -> its id; a homebrew name is kept beside it as typed (the sheet's ``names``).
        A row that adds a trait names it; a mention (a specialty's line, a list) only names a trait
        that has no name yet."""
        identifier, typed = typednames.typed_name(text)
        if not typed or typed == (held_names.get(identifier) or labels.readable(identifier)):
            return identifier
        if names_it or (identifier not in held_names and identifier not in typed_names):
            typed_names[identifier] = typed
        return identifier

    def number(name: str, text: str, nullable: bool) -> Any:
        try:
            return parse_int(name, text, nullable)
        except RuleError:
            if lenient:
                return _SKIP
            raise

    for key, raw in schema["properties"].items():
        if key in DERIVED or key in OWN_WIDGET or (editable is not None and key not in editable):
            continue
        spec = _resolve(schema, raw)
        plain, nullable = plain_type(spec)
        kind = _kind(plain)
        name = f"s.{key}"
        if kind == "boolean":
            patch[key] = name in form and str(form.get(name)).lower() in ("on", "true", "1")
        elif kind in ("string", "integer") or "enum" in plain:
            if name not in form:
                continue
            text = str(form.get(name))
            value = number(key, text, nullable or "default" in raw) if plain.get("type") == "integer" else text
            if value is not _SKIP:
                patch[key] = value
        elif kind == "object":
            sub_patch: dict[str, Any] = {}
            for sub, sub_spec in spec["properties"].items():
                sub_name = f"s.{key}.{sub}"
                if f"{key}.{sub}" in DERIVED or sub_name not in form:
                    continue
                inner, inner_nullable = plain_type(sub_spec)
                text = str(form.get(sub_name))
                if inner.get("type") == "integer":
                    value = number(f"{key}.{sub}", text, inner_nullable or "default" in sub_spec)
                    if value is not _SKIP:
                        sub_patch[sub] = value
                elif inner.get("type") == "boolean":
                    sub_patch[sub] = text.lower() in ("on", "true", "1")
                else:
                    sub_patch[sub] = text
            if sub_patch:
                patch[key] = sub_patch
        elif kind == "map_int":
            entries: dict[str, Any] = {}
            posted = [n[len(name) + 1:] for n in form if isinstance(n, str) and n.startswith(name + ".")]
            for trait in dict.fromkeys([*(sheet.get(key) or {}), *posted]):
                sub_name = f"s.{key}.{trait}"
                if sub_name in form and typednames.trait_from_text(trait) == trait:
                    value = number(f"{key}.{trait}", str(form.get(sub_name)), True)
                    if value is not _SKIP:
                        entries[trait] = value
            for n in range(NEW_ROWS):
                new_name = str(form.get(f"new.{key}.name.{n}") or "").strip()
                if not new_name:
                    continue
                value = number(f"{key}.{trait_id(new_name)}", str(form.get(f"new.{key}.value.{n}") or "1"), False)
                if value is not _SKIP and trait_id(new_name):
                    entries[trait_id(new_name)] = value
            if entries:
                patch[key] = entries
        elif kind == "map_list":
            if name not in form:
                continue
            parsed: dict[str, Any] = {}
            for line in str(form.get(name)).splitlines():
                if not line.strip():
                    continue
                trait, _, rest = line.partition(":")
                names = [part.strip() for part in rest.split(",") if part.strip()]
                if trait_id(trait, False):
                    parsed.setdefault(trait_id(trait, False), []).extend(names)
            for trait in (sheet.get(key) or {}):
                if trait not in parsed:
                    parsed[trait] = None  # removed
            patch[key] = {k: v for k, v in parsed.items() if v or v is None} or {}
            for k, v in list(patch[key].items()):
                if v == []:
                    patch[key][k] = None
        elif kind == "list_str":
            if name not in form:
                continue
            patch[key] = [trait_id(part, False) for part in str(form.get(name)).split(",") if trait_id(part, False)]
        elif kind == "list_obj":
            if f"{name}.0.name" not in form:
                continue
            try:
                patch[key] = _rows_from_form(schema, key, spec, form)
            except RuleError:
                if not lenient:
                    raise
    if "powers" in schema["properties"] and (editable is None or "powers" in editable) and "s.powers.0.name" in form:
        patch["powers"] = powers_from_form(system, form, lenient, trait_id)
    if editable is None or "names" in editable:
        names = {**_stale_names(sheet, patch, held_names), **typed_names}
        if names:
            patch["names"] = names
    return patch


def _stale_names(sheet: dict, patch: dict, held_names: dict) -> dict[str, None]:
    """The homebrew names of traits the edited sheet no longer mentions (a row removed), removed with
    them: a trait is mentioned by a key or a text anywhere else on the sheet (a rating, a specialty's
    line, a power's discipline)."""
    if not held_names:
        return {}
    mentioned: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            mentioned.update(key for key in value if isinstance(key, str))
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            mentioned.add(value)

    edited = merge(sheet, patch)
    edited.pop("names", None)
    walk(edited)
    return {trait: None for trait in held_names if trait not in mentioned}


_SKIP = object()


def without_nulls(value: Any) -> Any:
    """A new sheet from a patch: drop the ``null``s (nothing to remove yet)."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) for v in value]
    return value
