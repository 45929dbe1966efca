"""Forms built from the play layer's JSON schemas (``rollbook.play.describe_actions``), and the
way back: posted form fields -> the action/change dict the server expects.

A field's widget comes from its schema type; fields that name a trait of the sheet (``attribute``,
``skill``, ``ability``, ``discipline``, ``specialty``, ``weapon``, ``location``…) become selects of
what the sheet holds, each trait shown with its rating, so a player picks traits and the server
builds the pool (V5-13). Nothing here decides a rule: the server validates everything again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as dc_field
from functools import cache
from typing import Any, overload

from rollbook.play import systems
from rollbook.present import labels
from rollbook.present.words import own_words, words
from rollbook.rules.base import RuleError

HIDDEN_FIELDS = {"kind"}


@dataclass
class Option:
    value: str
    label: str
    group: str | None = None
    trait: str | None = None  # a specialty's trait: the list follows the trait chosen


def one_off() -> frozenset[str]:
    """What belongs to one roll only: the next form starts without it (the traits and the difficulty
    carry over from the last roll, a specialty, a Willpower point, advantage or cards played do not):
    each registered system's words say theirs (``ONE_OFF``)."""
    found: set[str] = set()
    for system in systems.system_ids():
        own = own_words(system)
        found |= own.ONE_OFF if own is not None else frozenset()
    return frozenset(found)


def exclusive(system: str, kind: str) -> tuple[str, ...]:
    """A roll's fields of which only one may be chosen (the rules refuse two: one_trait_only/required):
    the system's words say which (``EXCLUSIVE``, by kind)."""
    own = own_words(system)
    return tuple(own.EXCLUSIVE.get(kind, ())) if own is not None else ()


def carry_over(last: Mapping[str, Any] | None) -> dict | None:
    """The last roll's values the next form starts from: without what belonged to that roll only."""
    if last is None:
        return None
    once = one_off()
    return {name: value for name, value in last.items() if name not in once}


def mark_exclusive(system: str, kind: str, fields: list, lang: str) -> None:
    """Fields of which only one may be chosen are marked (and the first carries the hint naming them)."""
    from rollbook.i18n import N_, translate

    names = exclusive(system, kind)
    if not names:
        return
    group = [f for f in fields if f.name in names]
    if len(group) < 2:
        return
    words = [f.label for f in group]
    hint = translate(N_("Choose only one of: {fields}"), lang, fields=", ".join(words))
    for f in group:
        f.exclusive = "pool"
    group[0].exclusive_hint = hint


@dataclass
class FieldView:
    name: str
    label: str
    widget: str  # select | number | checkbox | checks | text | textarea | datalist
    value: Any = None
    options: list[Option] = dc_field(default_factory=list)
    minimum: int | None = None
    maximum: int | None = None
    required: bool = False
    allow_empty: bool = False
    help: str = ""
    readonly: bool = False
    send_off: bool = False  # a checkbox ticked by default: an untick is posted as "off"
    once: bool = False  # belongs to one roll only: cleared after each roll (``one_off``)
    exclusive: str = ""  # a group of fields of which one only may be chosen (``exclusive``)
    exclusive_hint: str = ""

    @property
    def groups(self) -> list[tuple[str | None, list[Option]]]:
        out: list[tuple[str | None, list[Option]]] = []
        for option in self.options:
            if out and out[-1][0] == option.group:
                out[-1][1].append(option)
            else:
                out.append((option.group, [option]))
        return out


@cache
def describe(system: str) -> dict:
    from rollbook.play import describe_actions

    return describe_actions(system)


def action_kinds(system: str, role: str | None = None) -> list[str]:
    """The kinds of roll this role may make (a player is not offered the Storyteller's, e.g. the
    roll-under opposed roll, R-7)."""
    described = describe(system)
    kinds = list(described["actions"])
    if role is not None and role != "storyteller":
        kinds = [k for k in kinds if k not in described["storyteller_only"]]
    return kinds


def storyteller_values(system: str, kind: str, name: str) -> set[str]:
    """Choices of a field only the Storyteller may make (roll-under absurd/trivial tasks, R-8)."""
    return set(describe(system).get("storyteller_only_values", {}).get(f"{kind}.{name}", ()))


def change_kinds(system: str, role: str) -> list[str]:
    described = describe(system)
    kinds = list(described["changes"])
    if role != "storyteller":
        kinds = [k for k in kinds if k not in described["storyteller_only"]]
    return kinds


def nothing_to_change(change: str | None, sheet: dict, lang: str) -> str:
    """The sentence shown instead of a change form that has nothing to act on (no card to remove,
    no firearm to reload); empty when the form is useful."""
    from rollbook.i18n import N_, translate

    if change == "remove_card" and not (sheet.get("cards") or []):
        return translate(N_("No cards to remove."), lang)
    if change == "reload" and not any(
        isinstance(w, dict) and w.get("capacity") for w in sheet.get("weapons") or []
    ):
        return translate(N_("No firearm to reload."), lang)
    return ""


def schema_for(system: str, family: str, kind: str) -> dict:
    schemas = describe(system)[family]
    if kind not in schemas:
        raise RuleError("bad_choice", field="kind", value=kind, choices=sorted(schemas))
    return schemas[kind]


def plain_type(spec: dict) -> tuple[dict, bool]:
    """The non-null branch of an ``anyOf [T, null]`` and whether null is allowed."""
    if "anyOf" in spec:
        branches = [b for b in spec["anyOf"] if b.get("type") != "null"]
        nullable = len(branches) != len(spec["anyOf"])
        if len(branches) == 1:
            merged = {**spec, **branches[0]}
            merged.pop("anyOf", None)
            return merged, nullable
    return spec, False


# --- the sheet's traits, for selects ---------------------------------------------------------


def _rated(names_and_ratings, lang: str, group: str | None = None, names: dict | None = None) -> list[Option]:
    return [
        Option(name, f"{labels.trait(name, lang, names)} ({value})", group)
        for name, value in names_and_ratings
    ]


def trait_options(system: str, name: str, sheet: dict, spec: dict, lang: str) -> list[Option] | None:
    """Options for a field that names something on the sheet; None when the field is free."""
    from rollbook.i18n import translate

    attributes = sheet.get("attributes") or {}
    names = sheet.get("names") or {}  # a homebrew trait's name as typed
    if name in ("attribute", "second_attribute") and "enum" in spec:
        return [Option(v, f"{labels.trait(v, lang, names)} ({attributes.get(v, '?')})") for v in spec["enum"]]
    if name == "attribute" and isinstance(attributes, dict):  # free attributes (roll-under): the sheet's own
        return _rated(
            sorted(attributes.items(), key=lambda item: labels.trait(item[0], lang, names)), lang, names=names
        )
    if name == "virtue" and "enum" in spec:
        virtues = sheet.get("virtues") or {}
        return [Option(v, f"{labels.trait(v, lang, names)} ({virtues.get(v, '?')})") for v in spec["enum"]]
    if name in ("skill", "ability"):
        options: list[Option] = []
        for group, title in words(system).ABILITY_GROUPS:  # V20's three, titled; the others' skills
            ratings = sheet.get(group) or {}
            ordered = sorted(ratings.items(), key=lambda item: labels.trait(item[0], lang, names))
            options += _rated(ordered, lang, translate(title, lang) if title is not None else None, names)
        return options
    if name == "discipline":
        ratings = sheet.get("disciplines") or {}
        return _rated(
            sorted(ratings.items(), key=lambda item: labels.trait(item[0], lang, names)), lang, names=names
        )
    if name == "power" and words(system).POWERS_LISTED:  # the sheet's powers, each tied to its Discipline
        listed = [p for p in sheet.get("powers") or [] if isinstance(p, dict) and p.get("power")]
        listed.sort(key=lambda p: (labels.trait(str(p["discipline"]), lang, names), p.get("level") or 0))
        return [
            Option(
                str(p["power"]),
                f"{labels.power(system, str(p['discipline']), str(p['power']), lang)} "
                f"({labels.trait(str(p['discipline']), lang, names)} {p.get('level')})",
                trait=str(p["discipline"]),  # the list follows the Discipline chosen (table.js)
            )
            for p in listed
        ]
    if name == "specialty":
        options = []
        for trait, specialties in sorted((sheet.get("specialties") or {}).items()):
            for specialty in specialties:
                options.append(
                    Option(specialty, f"{specialty} ({labels.trait(trait, lang, names)})", trait=trait)
                )
        return options
    if name in ("weapon", "second_weapon"):
        options = []
        for weapon in sheet.get("weapons") or []:
            text = weapon["name"]
            if weapon.get("bonus"):
                text += f" (+{weapon['bonus']})"
            if weapon.get("capacity"):
                text += f" [{weapon.get('loaded')}/{weapon['capacity']}]"
            options.append(Option(weapon["name"], text))
        return options
    if name == "location":
        return [
            Option(k, f"{labels.trait(k, lang, names)} ({v})") for k, v in (sheet.get("armor") or {}).items()
        ]
    if name in ("card", "cards"):
        cards = sheet.get("cards") or []
        if isinstance(cards, list) and (cards or name == "cards"):
            return [
                Option(
                    c["name"] if isinstance(c, dict) else str(c),
                    card_label(c, lang) if isinstance(c, dict) else str(c),
                )
                for c in cards
            ]
    return None


def card_label(card: dict, lang: str) -> str:
    """ "Agile (advantage)", "Strong (+2)", "Lucky (extra effect)" — a roll-under card as held."""
    from rollbook.i18n import N_, translate

    effect = card.get("effect")
    if effect == "bonus":
        what = f"+{card.get('bonus', 0)}"
    elif effect == "advantage":
        what = translate(N_("advantage"), lang)
    else:
        what = translate(N_("extra effect"), lang)
    return f"{card.get('name', '')} ({what})"


def trait_suggestions(sheet: dict) -> list[str]:
    """Every trait id on the sheet (for a free trait name, e.g. experience spending)."""
    names: list[str] = []
    for key in ("attributes", "talents", "skills", "knowledges", "disciplines", "virtues"):
        value = sheet.get(key)
        if isinstance(value, dict):
            names += list(value)
    for key in ("humanity", "willpower", "blood_potency", "endurance", "level"):
        if key in sheet:
            names.append(key)
    return names


def _power_choice_coherent(fields: list[FieldView]) -> None:
    """A V5 power's form opens on a coherent choice: its Disciplines are those with a listed power,
    in the order of the powers' list, so the first Discipline and the first power go together."""
    by_name = {view.name: view for view in fields}
    power, discipline = by_name.get("power"), by_name.get("discipline")
    if power is None or discipline is None or not power.options:
        return
    order = list(dict.fromkeys(option.trait for option in power.options))
    kept = {option.value: option for option in discipline.options}
    discipline.options = [kept[name] for name in order if name in kept]


def fields_for(
    system: str,
    schema: dict,
    sheet: dict,
    lang: str,
    values: Mapping[str, Any] | None = None,
    skip: tuple[str, ...] = (),
) -> list[FieldView]:
    """The form fields of one action or change, pre-filled with ``values`` (the last submission)."""
    values = values or {}
    out: list[FieldView] = []
    once = one_off()
    for name, raw, is_required in _flat_properties(schema):
        if name in HIDDEN_FIELDS or name in skip:
            continue
        spec, nullable = plain_type(raw)
        label = labels.field(name.rsplit(".", 1)[-1], lang, raw.get("title"))
        head, _, sub = name.partition(".")
        nested = values.get(head) if sub else None
        value = values.get(
            name, nested.get(sub, raw.get("default")) if isinstance(nested, dict) else raw.get("default")
        )
        required = {name} if is_required else set()
        options = trait_options(system, name, sheet, spec, lang)
        if name == "weapon" and not options and words(system).WEAPON_FROM_SHEET:
            continue  # V20-17: an attack is declared with one of the sheet's weapons; none, no choice to offer
        kind = spec.get("type")
        if options is not None and kind == "array":  # several of the sheet's things (cards played)
            chosen = value if isinstance(value, list) else [value] if value else []
            view = FieldView(name, label, "checks", [str(v) for v in chosen], options)
        elif options is not None:
            view = FieldView(
                name,
                label,
                "select",
                value,
                options,
                required=name in required,
                allow_empty=nullable or name not in required,
            )
        elif "enum" in spec:
            view = FieldView(
                name,
                label,
                "select",
                value,
                [Option(v, labels.choice(v, lang, name)) for v in spec["enum"]],
                required=name in required,
                allow_empty=nullable,
            )
        elif kind == "boolean":
            view = FieldView(name, label, "checkbox", truthy(value), send_off=raw.get("default") is True)
        elif kind == "integer":
            view = FieldView(
                name,
                label,
                "number",
                value,
                minimum=spec.get("minimum"),
                maximum=spec.get("maximum"),
                required=name in required and not nullable,
            )
            if name == "difficulty":  # V20-15: the source names each difficulty
                view.help = words(system).difficulty_help(lang) or view.help
        elif kind == "string" and name == "trait":
            view = FieldView(
                name,
                label,
                "datalist",
                value,
                [Option(t, labels.trait(t, lang, sheet.get("names"))) for t in trait_suggestions(sheet)],
                required=name in required,
            )
        elif kind == "string":
            widget = "textarea" if spec.get("maxLength", 0) > 1000 else "text"
            view = FieldView(name, label, widget, value or "", required=name in required)
        elif kind == "array":
            text = ", ".join(map(str, value)) if isinstance(value, list) else (value or "")
            view = FieldView(name, label, "text", text, required=name in required)
        else:
            continue
        view.once = name in once
        out.append(view)
    _power_choice_coherent(out)
    return out


def truthy(value: Any) -> bool:
    if isinstance(value, (list, tuple)):  # "off" then "on": the box was ticked
        value = value[-1] if value else None
    if isinstance(value, bool):
        return value
    return str(value).lower() in ("on", "true", "1", "yes") if value is not None else False


def _flat_properties(schema: dict):
    """(form name, spec, required) of each field; an object field (``$ref``, e.g. the card a
    Storyteller grants) is spread into ``card.name``, ``card.effect``, …"""
    required = set(schema.get("required", ()))
    for name, raw in schema.get("properties", {}).items():
        ref = raw.get("$ref")
        if ref and ref.rsplit("/", 1)[-1] in schema.get("$defs", {}):
            inner = schema["$defs"][ref.rsplit("/", 1)[-1]]
            inner_required = set(inner.get("required", ()))
            for sub, sub_raw in inner.get("properties", {}).items():
                yield f"{name}.{sub}", sub_raw, sub in inner_required
        else:
            yield name, raw, name in required


# --- posted form -> action ---------------------------------------------------------------------


def parse_form(schema: dict, form: Mapping[str, Any], kind: str) -> dict:
    """Posted fields -> a plain action dict, typed by the schema. Empty fields are left out (the
    play layer's defaults apply); a number that is not a number is refused with the rules' code."""
    action: dict[str, Any] = {"kind": kind}
    for name, raw, _required in _flat_properties(schema):
        if name in HIDDEN_FIELDS:
            continue
        head, _, sub = name.partition(".")
        if sub:  # a field of an object: parsed on its own, then put in place
            part = parse_form({"properties": {sub: raw}}, {sub: form[name]} if name in form else {}, kind)
            part.pop("kind")
            if part:
                action.setdefault(head, {}).update(part)
            continue
        spec, _nullable = plain_type(raw)
        kind_of = spec.get("type")
        if kind_of == "boolean":
            value = form.get(name)
            if value is not None:
                action[name] = truthy(value)
            continue
        value = form.get(name)
        if value is None:
            continue
        if isinstance(value, (list, tuple)):  # repeated fields (ticked boxes)
            if kind_of == "array":
                items = [str(v).strip() for v in value if str(v).strip()]
                if items:
                    action[name] = items
                continue
            value = value[-1]
        text = str(value).strip()
        if text == "":
            continue
        if kind_of == "integer":
            try:
                action[name] = int(text)
            except ValueError:
                raise RuleError("not_an_integer", field=name, value=text) from None
        elif kind_of == "array":
            items = [part.strip() for part in text.split(",") if part.strip()]
            item_type = (spec.get("items") or {}).get("type")
            if item_type == "integer":
                try:
                    action[name] = [int(part) for part in items]
                except ValueError:
                    raise RuleError("not_an_integer", field=name, value=text) from None
            else:
                action[name] = items
        else:
            action[name] = text
    return action


@overload
def int_field(
    form: Mapping[str, Any], name: str, default: int, *, low: int | None = None, high: int | None = None
) -> int: ...


@overload
def int_field(
    form: Mapping[str, Any],
    name: str,
    default: None = None,
    *,
    low: int | None = None,
    high: int | None = None,
) -> int | None: ...


def int_field(
    form: Mapping[str, Any],
    name: str,
    default: int | None = None,
    *,
    low: int | None = None,
    high: int | None = None,
) -> int | None:
    value = form.get(name)
    if value is None or str(value).strip() == "":
        return default
    try:
        number = int(str(value).strip())
    except ValueError:
        raise RuleError("not_an_integer", field=name, value=str(value)) from None
    if (low is not None and number < low) or (high is not None and number > high):
        raise RuleError("out_of_range", field=name, value=number, low=low, high=high)
    return number


def parse_int(name: str, text: str, nullable: bool) -> int | None:
    """A form's integer box: empty is None where allowed, else a refusal naming the field."""
    text = text.strip()
    if text == "":
        if nullable:
            return None
        raise RuleError("not_an_integer", field=name, value=text)
    try:
        return int(text)
    except ValueError:
        raise RuleError("not_an_integer", field=name, value=text) from None
