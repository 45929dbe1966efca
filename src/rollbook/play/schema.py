"""JSON schemas of the play layer, for the API's OpenAPI document: every sheet, action, follow-up,
change and receipt of every system, from the very models the play layer validates with.

Nothing here restates a field: each system module's ``Sheet``, ``ACTIONS``, ``FOLLOWUPS``, ``CHANGES``
and ``ROLL_RECORDS`` / ``CHANGE_RECORDS`` (``common.Recorded``: the rules dataclasses a receipt
stores) are handed to Pydantic's JSON schema generator, so ranges, enums and descriptions are
those the play layer checks. A kind added to a system module appears here by itself.

The same ``kind`` exists in several systems (``test`` in V20 and V5, ``soak`` in V20 and Tiers): the
chronicle's system decides which model applies. So each system has its own unions, discriminated on
``kind`` (``V20Action``, ``V5Change``, …), and what the API accepts is ``anyOf`` those per-system
unions (``Action``, ``Change``, …): honest, since a body may fit two systems; the server validates it
against its chronicle's system alone.

Component names: a system's models are prefixed with its title (``V20TestAction``,
``TiersSoakAction``, ``V5Reroll``); shared ones keep their name (``Experience``).

``components()`` is pure (no web library): the server merges it into ``/openapi.json``.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model
from pydantic.json_schema import (
    CoreModeRef,
    CoreRef,
    DefsRef,
    GenerateJsonSchema,
    JsonDict,
    JsonSchemaMode,
    JsonSchemaValue,
)

from rollbook.play.common import JsonObject, Model, Recorded
from rollbook.play.systems import SYSTEM_IDS, system_ids, system_module

TITLES = {"v20": "V20", "v5": "V5", "tiers": "Tiers", "rollunder": "RollUnder"}
REF_TEMPLATE = "#/components/schemas/{model}"

SHEET_PATCH_NOTE = (
    "A JSON merge patch of the sheet: objects merge key by key, any other value replaces, "
    "null removes a key (a field with a default goes back to it). The result is validated "
    "as a whole sheet."
)


def title(system: str) -> str:
    """A system's name in its schemas' names: a shipped one's (``TITLES``), else its id in camel case
    (``toy_house`` -> ``ToyHouse``: a system registered from outside, ``play.systems.register``)."""
    return TITLES.get(system) or "".join(part.capitalize() for part in system.split("_"))


def _registered_modules() -> dict[str, str]:
    """The play module of each system registered from outside, by its dotted name: its id."""
    return {
        system_module(system).__name__: system  # type: ignore[attr-defined]  # a module, registered as one
        for system in system_ids()
        if system not in SYSTEM_IDS
    }


# --- what every receipt has -------------------------------------------------------------------


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class PoolPart(_Open):
    """One trait of a pool: its rating as read from the sheet (``group``, ``untrained``,
    ``specialty`` where they apply)."""

    trait: str
    rating: int


class Pool(_Open):
    """How the server built the roll from the sheet: the traits, the modifiers (equipment, cards,
    specialties, a Blood Surge, …), the wound penalty and the total (dice, a level or a threshold,
    depending on the system)."""

    parts: list[PoolPart]
    modifiers: list[dict[str, Any]]
    wound_penalty: int
    total: int


class ResourceChange(_Open):
    """A resource of the sheet changed: ``resource`` is its dotted path (``willpower``,
    ``health.lethal``, ``ammunition.loaded`` …), with the values before and after."""

    resource: str
    before: Any
    after: Any


class Flag(_Open):
    """Something the Storyteller should know, by code (``incapacitated``, ``impaired``,
    ``hunger_frenzy_risk``, ``magazine_empty`` …), with its numbers."""

    flag: str


Effect = ResourceChange | Flag


def _drop_default(schema: JsonDict) -> None:
    schema.pop("default", None)


class RerollRecord(BaseModel):
    """A follow-up on the roll (V5-8): the indices of the normal dice rerolled and their new faces;
    online, the follow-up's own fairness record (SPEC F-6: its nonce)."""

    model_config = ConfigDict(extra="forbid")

    dice: list[int]
    faces: list[int]
    fair: dict[str, Any] | None = Field(
        None,
        json_schema_extra=_drop_default,
        description="Online: algorithm, commitment, client_seed, nonce (F-6).",
    )


def _record_fields(record: Recorded) -> dict[str, Any]:
    fields: dict[str, Any] = {key: (kind, ...) for key, kind in record.always.items()}
    fields.update(
        {
            key: (kind, Field(None, json_schema_extra=_drop_default, description="Only in some receipts."))
            for key, kind in record.sometimes.items()
        }
    )
    return fields


def _receipt_model(name: str, doc: str, fields: dict[str, Any]) -> type[BaseModel]:
    return create_model(
        name, __config__=ConfigDict(extra="forbid", title=name), __doc__=doc, __module__=__name__, **fields
    )


def roll_receipt_model(system: str, kind: str) -> type[BaseModel]:
    """The receipt of a roll of ``kind`` (``common.roll_receipt``), and of its follow-ups."""
    module = system_module(system)
    record: Recorded = module.ROLL_RECORDS[kind]
    fields: dict[str, Any] = {
        "system": (Literal[system], ...),
        "rules_version": (
            int | None,
            Field(
                None,
                ge=1,
                description=(
                    "The version of the rules that resolved the roll (a verifier resolves it by that version); "
                    "absent on receipts made before versions were recorded."
                ),
            ),
        ),
        "kind": (Literal[kind], ...),
        "action": (module.ACTIONS[kind], Field(description="The action as validated, defaults filled in.")),
        "pool": (Pool, ...),
        "request": (record.request, Field(description="The rules request built from the sheet.")),
        "faces": (list[int], Field(description="Every die drawn, in order.")),
        "rerolls": (list[RerollRecord], Field(description="Follow-ups (V5 Willpower rerolls), in order.")),
        "result": (record.result, Field(description="What the rules made of the faces (after the rerolls).")),
        **_record_fields(record),
        "effects": (list[Effect], Field(description="What the roll changed on the sheet, in order.")),
        "table_rules": (
            list[str],
            Field(
                default_factory=list,
                description=(
                    "The table rules the roll was resolved under (SPEC TR-1), sorted; absent before they existed."
                ),
            ),
        ),
    }
    return _receipt_model(
        f"{title(system)}{_camel(kind)}RollReceipt",
        f"The receipt of a {title(system)} `{kind}` roll: everything needed to check it again.",
        fields,
    )


def change_receipt_model(system: str, kind: str) -> type[BaseModel]:
    """The receipt of a change of ``kind`` (``common.change_receipt``)."""
    module = system_module(system)
    record: Recorded = module.CHANGE_RECORDS.get(kind, Recorded())
    fields: dict[str, Any] = {
        "system": (Literal[system], ...),
        "kind": (Literal[kind], ...),
        "change": (module.CHANGES[kind], Field(description="The change as validated, defaults filled in.")),
        **_record_fields(record),
        "effects": (list[Effect], Field(description="What the change did to the sheet, in order.")),
    }
    return _receipt_model(
        f"{title(system)}{_camel(kind)}ChangeReceipt",
        f"The receipt of a {title(system)} `{kind}` change (no dice).",
        fields,
    )


def _camel(kind: str) -> str:
    return "".join(part.capitalize() for part in kind.split("_"))


# --- the registry, read from the system modules ------------------------------------------------


def _kinds(models: Mapping[str, type[Model]]) -> dict[str, type[Model]]:
    for kind, model in models.items():
        declared = model.model_fields["kind"].annotation
        if getattr(declared, "__args__", None) != (kind,):
            raise TypeError(f"{model.__qualname__}: its kind is not {kind!r}")
    return dict(models)


def actions(system: str) -> dict[str, type[Model]]:
    return _kinds(system_module(system).ACTIONS)


def followups(system: str) -> dict[str, type[Model]]:
    return _kinds(system_module(system).FOLLOWUPS)


def changes(system: str) -> dict[str, type[Model]]:
    return _kinds(system_module(system).CHANGES)


def sheet(system: str) -> type[Model]:
    return system_module(system).Sheet


# --- naming -----------------------------------------------------------------------------------

# A system's modules: its package's ``play`` and its parts ``sheet``, ``changes``; ``rules``
# (``rollbook.systems.v20.play``, ``rollbook.systems.v20.sheet``…).
_SYSTEM_MODULE = re.compile(r"^rollbook\.systems\.(?P<system>\w+)\.(?:play|sheet|changes|rules)$")


def component_name(core_ref: str) -> str:
    """``rollbook.systems.v20.play.TestAction:1234`` (or ``systems.v20.sheet.Weapon``) -> ``V20TestAction``
    (``V20Weapon``); a shared type keeps its name."""
    qualified = core_ref.rsplit(":", 1)[0]
    module, _, name = qualified.rpartition(".")
    found = _SYSTEM_MODULE.match(module)
    system = found["system"] if found and found["system"] in TITLES else _registered_modules().get(module)
    if system is not None:
        prefix = title(system)
        return name if name.startswith(prefix) else prefix + name
    return name


class _Named(GenerateJsonSchema):
    """Pydantic's generator, with component names of our choosing (a clash is an error, never a
    silently merged or renamed schema).

    Only Pydantic's public hooks: ``get_defs_ref`` hands Pydantic's own naming a reference that
    already is the component's name (no module, no id), so the name Pydantic picks for it is that
    name; ``definitions`` checks that it did."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._owners: dict[str, str] = {}

    def get_defs_ref(self, core_mode_ref: CoreModeRef) -> DefsRef:
        core_ref, mode = core_mode_ref
        if "[" in core_ref:
            return super().get_defs_ref(core_mode_ref)  # a generic: Pydantic's own name
        name = component_name(core_ref)
        qualified = core_ref.rsplit(":", 1)[0]
        owner = self._owners.setdefault(name, qualified)
        if owner != qualified:
            raise ValueError(f"two types would be named {name!r} in the API schema: {owner} and {core_ref}")
        return super().get_defs_ref((CoreRef(name), mode))

    def names(self) -> set[str]:
        """The component names given so far (generics aside)."""
        return set(self._owners)


def definitions(
    inputs: list[tuple[Any, Literal["validation"], Any]], ref_template: str
) -> tuple[dict[tuple[Any, JsonSchemaMode], JsonSchemaValue], dict[DefsRef, JsonSchemaValue]]:
    """Pydantic's ``generate_definitions`` of ``inputs`` (key, mode, core schema), every model's
    definition under its ``component_name``: the references to each input, and the definitions."""
    generator = _Named(ref_template=ref_template)
    refs, defs = generator.generate_definitions(inputs)
    missing = generator.names() - defs.keys()
    if missing:  # Pydantic named one otherwise (it does when another definition could take the name)
        raise ValueError(f"schemas not named as their types in the API schema: {sorted(missing)}")
    return refs, defs


# --- assembly -----------------------------------------------------------------------------------


def _ref(name: str, ref_template: str) -> JsonObject:
    return {"$ref": ref_template.format(model=name)}


def _one_of(
    names: Mapping[str, str], ref_template: str, description: str, discriminator: str = "kind"
) -> JsonObject:
    """A union discriminated on ``discriminator``: value -> component name."""
    return {
        "oneOf": [_ref(name, ref_template) for name in names.values()],
        "discriminator": {
            "propertyName": discriminator,
            "mapping": {value: ref_template.format(model=name) for value, name in names.items()},
        },
        "description": description,
    }


def _any_of(names: Iterable[str], ref_template: str, description: str) -> JsonObject:
    return {"anyOf": [_ref(name, ref_template) for name in names], "description": description}


def _new_sheet(sheet_schema: JsonObject, system: str) -> JsonObject:
    """The sheet a new character is created with: the name may be left out (it defaults to the
    character's)."""
    schema = copy.deepcopy(sheet_schema)
    schema["required"] = [field for field in schema.get("required", []) if field != "name"]
    if not schema["required"]:
        del schema["required"]
    schema["title"] = f"{title(system)}NewSheet"
    schema["description"] = (
        f"A new {title(system)} sheet: any field left out takes its default; the name "
        "defaults to the character's."
    )
    return schema


def _patch(schema: Any, defs: dict[str, JsonObject], patches: dict[str, JsonObject], ref_prefix: str) -> Any:
    """The merge-patch form of a JSON schema: objects partial (nothing required) and every member
    nullable (null removes it); arrays and scalars replace as they are. ``patches`` collects the
    patch forms of the referenced components (``<Name>Patch``)."""
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        name = schema["$ref"].removeprefix(ref_prefix)
        patched = f"{name}Patch"
        if patched not in patches and name in defs:
            patches[patched] = {}  # reserve: recursive models
            patches[patched] = {**_patch(defs[name], defs, patches, ref_prefix), "title": patched}
        return {**{k: v for k, v in schema.items() if k != "$ref"}, "$ref": ref_prefix + patched}
    if "anyOf" in schema:
        return {**schema, "anyOf": [_patch(branch, defs, patches, ref_prefix) for branch in schema["anyOf"]]}
    if schema.get("type") != "object":
        return schema
    out = {
        k: v
        for k, v in schema.items()
        if k not in ("required", "properties", "patternProperties", "additionalProperties")
    }
    for members in ("properties", "patternProperties"):
        if members in schema:
            out[members] = {
                name: _nullable(_patch(member, defs, patches, ref_prefix))
                for name, member in schema[members].items()
            }
    if isinstance(schema.get("additionalProperties"), dict):
        out["additionalProperties"] = _nullable(
            _patch(schema["additionalProperties"], defs, patches, ref_prefix)
        )
    elif "additionalProperties" in schema:
        out["additionalProperties"] = schema["additionalProperties"]
    return out


def _nullable(schema: JsonObject) -> JsonObject:
    if "anyOf" in schema:
        if {"type": "null"} in schema["anyOf"]:
            return schema
        return {**schema, "anyOf": [*schema["anyOf"], {"type": "null"}]}
    keep: JsonObject = {k: schema[k] for k in ("description", "title") if k in schema}
    inner = {k: v for k, v in schema.items() if k not in keep and k != "default"}
    return {"anyOf": [inner, {"type": "null"}], **keep}


def _keys_by_name(schema: Any) -> Any:
    """Pydantic writes ``dict[TraitName, int]`` as ``patternProperties`` alone, which lets any other
    key through (the model refuses them) and which client generators ignore. The same constraint,
    as generators read it: the key pattern under ``propertyNames``, the values under
    ``additionalProperties``."""
    if isinstance(schema, dict):
        out = {key: _keys_by_name(value) for key, value in schema.items()}
        patterns = out.get("patternProperties")
        if (
            isinstance(patterns, dict)
            and len(patterns) == 1
            and "additionalProperties" not in out
            and "properties" not in out
        ):
            ((pattern, values),) = patterns.items()
            del out["patternProperties"]
            out["propertyNames"] = {**out.get("propertyNames", {}), "pattern": pattern}
            out["additionalProperties"] = values
        return out
    if isinstance(schema, list):
        return [_keys_by_name(item) for item in schema]
    return schema


def _components(ref_template: str) -> dict[str, JsonObject]:
    inputs: list[tuple[tuple[str, str], Literal["validation"], Any]] = []

    def add(key: tuple[str, str], model: Any) -> None:
        inputs.append((key, "validation", TypeAdapter(model).core_schema))

    for system in system_ids():  # the registry when the document is drawn
        add((system, "sheet"), sheet(system))
        for group, models in (
            ("action", actions(system)),
            ("followup", followups(system)),
            ("change", changes(system)),
        ):
            for kind, model in models.items():
                add((system, f"{group}:{kind}"), model)
        for kind in actions(system):
            add((system, f"roll_receipt:{kind}"), roll_receipt_model(system, kind))
        for kind in changes(system):
            add((system, f"change_receipt:{kind}"), change_receipt_model(system, kind))

    refs, defs = definitions(inputs, ref_template)
    prefix = ref_template.split("{model}")[0]

    def name_of(key: tuple[str, str]) -> str:
        ref: str = refs[(key, "validation")]["$ref"]
        return ref.removeprefix(prefix)

    components: dict[str, JsonObject] = {
        name: _keys_by_name({**schema, "title": name}) for name, schema in defs.items()
    }
    unions: dict[str, list[str]] = {
        "Action": [],
        "Followup": [],
        "Change": [],
        "Sheet": [],
        "NewSheet": [],
        "SheetPatch": [],
        "Receipt": [],
    }
    patches: dict[str, JsonObject] = {}
    for system in system_ids():
        t = title(system)
        sheet_name = name_of((system, "sheet"))
        components[f"{t}NewSheet"] = _new_sheet(components[sheet_name], system)
        patch = _patch(components[sheet_name], components, patches, prefix)
        patch.update(title=f"{t}SheetPatch", description=f"{t}: {SHEET_PATCH_NOTE}")
        components[f"{t}SheetPatch"] = patch
        unions["Sheet"].append(sheet_name)
        unions["NewSheet"].append(f"{t}NewSheet")
        unions["SheetPatch"].append(f"{t}SheetPatch")
        for group, models, what in (
            ("action", actions(system), "roll"),
            ("followup", followups(system), "follow-up"),
            ("change", changes(system), "change"),
        ):
            if not models:
                continue  # e.g. V20 has no follow-up
            union = f"{t}{group.capitalize()}"
            components[union] = _one_of(
                {kind: name_of((system, f"{group}:{kind}")) for kind in models},
                ref_template,
                f"Every {what} of a {t} chronicle, by kind.",
            )
            unions[group.capitalize()].append(union)
        components[f"{t}RollReceipt"] = _one_of(
            {kind: name_of((system, f"roll_receipt:{kind}")) for kind in actions(system)},
            ref_template,
            f"The receipt of a {t} roll, by kind.",
        )
        components[f"{t}ChangeReceipt"] = _one_of(
            {kind: name_of((system, f"change_receipt:{kind}")) for kind in changes(system)},
            ref_template,
            f"The receipt of a {t} change, by kind.",
        )
        unions["Receipt"] += [f"{t}RollReceipt", f"{t}ChangeReceipt"]
    for name in patches:
        if name in components:
            raise ValueError(f"two schemas would be named {name!r}")
    components.update(patches)
    descriptions = {
        "Action": "What to roll, named by traits (never faces): one of the actions of the chronicle's system, "
        "which alone decides how the body is read.",
        "Followup": "A follow-up on a roll of the chronicle's system (V5: a Willpower reroll).",
        "Change": "A change without dice (spend, restore, award, reload …) of the chronicle's system.",
        "Sheet": "A character sheet of the chronicle's system, as stored (every default filled in).",
        "NewSheet": "The sheet of a new character, checked by the chronicle's system.",
        "SheetPatch": SHEET_PATCH_NOTE,
        "Receipt": "The receipt of a roll or a change, as logged: codes and numbers only.",
    }
    for name, members in unions.items():
        if name in components:
            raise ValueError(f"two schemas would be named {name!r}")
        components[name] = _any_of(members, ref_template, descriptions[name])
    return components


def components(ref_template: str = REF_TEMPLATE) -> dict[str, JsonObject]:
    """Every schema the API refers to for sheets, actions, follow-ups, changes and receipts, by
    component name (a fresh copy: the caller may change it)."""
    return copy.deepcopy(_components(ref_template))


def system_union(system: str, group: str) -> str | None:
    """The component name of a system's union of ``group`` (``action``, ``followup``, ``change``),
    None when the system has none (V20 has no follow-up)."""
    models = {"action": actions, "followup": followups, "change": changes}[group](system)
    return f"{title(system)}{group.capitalize()}" if models else None


__all__ = [
    "TITLES",
    "REF_TEMPLATE",
    "components",
    "component_name",
    "definitions",
    "system_union",
    "actions",
    "followups",
    "changes",
    "sheet",
    "roll_receipt_model",
    "change_receipt_model",
    "Pool",
    "PoolPart",
    "ResourceChange",
    "Flag",
    "Effect",
    "RerollRecord",
    "title",
]
