"""A character sheet's form posted -> a patch for ``characters.edit_character`` (the form itself is
``sheetform``'s; the field names are described there): trait names typed in any of the table's
languages stored by their id, a homebrew name kept beside it (the sheet's ``names``), the names of
traits no longer on the sheet removed with them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rollbook.play.common import merge
from rollbook.present import labels, typednames
from rollbook.present.forms import parse_int, plain_type, truthy
from rollbook.rules.base import RuleError
from rollbook.web.powerform import powers_from_form
from rollbook.web.sheetform import DERIVED, NEW_ROWS, OWN_WIDGET, items_of, kind_of, resolved, schema_of

# a value a lenient read leaves out (a refused form drawn again with the rest as typed)
_SKIP = object()


def patch_from_form(
    system: str, form: Mapping[str, Any], sheet: dict, editable: set[str] | None, *, lenient: bool = False
) -> dict:
    """The posted form -> a patch for ``characters.edit_character`` (``null`` removes an entry).

    Trait names may be typed in English, French or Spanish (stored by their id). Entries of a mapping
    of traits are read from the sheet's own and from any ``s.<group>.<id>`` posted (a row added before
    a refusal comes back as one). ``lenient``: a value that cannot be read is left out instead of
    refused (to draw a refused form again with everything else as typed)."""
    schema = schema_of(system)
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
        spec = resolved(schema, raw)
        plain, nullable = plain_type(spec)
        kind = kind_of(plain)
        name = f"s.{key}"
        if kind == "boolean":
            patch[key] = name in form and str(form.get(name)).lower() in ("on", "true", "1")
        elif kind in ("string", "integer") or "enum" in plain:
            if name not in form:
                continue
            text = str(form.get(name))
            value = (
                number(key, text, nullable or "default" in raw) if plain.get("type") == "integer" else text
            )
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
            posted = [n[len(name) + 1 :] for n in form if isinstance(n, str) and n.startswith(name + ".")]
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
                value = number(
                    f"{key}.{trait_id(new_name)}", str(form.get(f"new.{key}.value.{n}") or "1"), False
                )
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
            for trait in sheet.get(key) or {}:
                if trait not in parsed:
                    parsed[trait] = None  # removed
            patch[key] = {k: v for k, v in parsed.items() if v or v is None} or {}
            for k, v in list(patch[key].items()):
                if v == []:
                    patch[key][k] = None
        elif kind == "list_str":
            if name not in form:
                continue
            patch[key] = [
                trait_id(part, False) for part in str(form.get(name)).split(",") if trait_id(part, False)
            ]
        elif kind == "list_obj":
            if f"{name}.0.name" not in form:
                continue
            try:
                patch[key] = _rows_from_form(schema, key, spec, form)
            except RuleError:
                if not lenient:
                    raise
    if (
        "powers" in schema["properties"]
        and (editable is None or "powers" in editable)
        and "s.powers.0.name" in form
    ):
        patch["powers"] = powers_from_form(system, form, lenient, trait_id)
    if editable is None or "names" in editable:
        all_names = {**_stale_names(sheet, patch, held_names), **typed_names}
        if all_names:
            patch["names"] = all_names
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


def without_nulls(value: Any) -> Any:
    """A new sheet from a patch: drop the ``null``s (nothing to remove yet)."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) for v in value]
    return value


def _rows_from_form(schema: dict, key: str, spec: dict, form: Mapping[str, Any]) -> list[dict]:
    """The rows of a list of objects posted as ``s.<key>.<n>.<field>`` -> the list of objects (the
    same shape the server always received: fields left empty are left out, so the rules' defaults
    apply; a row without a name is dropped)."""
    item_schema = items_of(schema, spec)
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
                item[sub] = (
                    parse_int(f"{key}.{n}.{sub}", text, False) if plain.get("type") == "integer" else text
                )
            items.append(item)
        n += 1
    return items
