"""The typed parts of ``/openapi.json``: what a roll, a follow-up, a change and a sheet may be, and
what the roll, adjustment and log routes answer, for every system.

One definition: the schemas come from the play layer's own models (``play.schema.components``,
merged into the document's components by ``install``). A request body names them by reference
(``ActionJSON`` is ``dict`` in Python, described as ``#/components/schemas/Action``), so the
request is still validated by the play layer against the *chronicle's* system, with the problem
codes the play layer gives: the same ``kind`` exists in several systems (``test`` in V20 and V5,
``soak`` in V20 and Tiers), and the document says so (``Action`` is ``anyOf`` the per-system unions,
each discriminated on ``kind``).

The answers are described, not filtered: the ``*Answer`` models below are documentation (FastAPI's
``responses=``), the use cases' dicts are answered as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, create_model

from rollbook import entries
from rollbook.play import authority as play_authority
from rollbook.play import schema as play_schema
from rollbook.play import systems as play_systems
from rollbook.play.examples import EXAMPLES


def operation_id(route) -> str:
    """An operation is named by its function (``roll``, ``add_character``): what a generated client
    calls it. Unique: ``tests/server/test_typed_api.py`` checks it. Every API router is made with it
    (``generate_unique_id_function``): their routes are the app's own (``app.API_ROUTERS``)."""
    return route.name


REF = "#/components/schemas/{model}"
_PENDING = "x-rollbook-ref"  # a reference Pydantic must not follow while FastAPI builds the document


def ref(name: str) -> dict[str, str]:
    """A reference to a component. Written as ``x-rollbook-ref`` while FastAPI generates the
    document (Pydantic would look the component up, and the play layer's are merged in afterwards),
    turned into ``$ref`` by ``install``."""
    return {_PENDING: REF.format(model=name)}


def described_as(schema: dict[str, Any]) -> WithJsonSchema:
    return WithJsonSchema(schema)


def _resolve(value: Any) -> Any:
    if isinstance(value, dict):
        return {("$ref" if key == _PENDING else key): _resolve(inner) for key, inner in value.items()}
    if isinstance(value, list):
        return [_resolve(inner) for inner in value]
    return value


# --- request bodies: plain JSON in Python, the play layer's schemas in the document -------------

ActionJSON = Annotated[dict[str, Any], described_as(ref("Action"))]
EdgesJSON = Annotated[dict[str, Any], described_as(ref("Edges"))]
FollowupJSON = Annotated[dict[str, Any], described_as(ref("Followup"))]
ChangeJSON = Annotated[dict[str, Any], described_as(ref("Change"))]
NewSheetJSON = Annotated[dict[str, Any], described_as(ref("NewSheet"))]
SheetPatchJSON = Annotated[dict[str, Any], described_as(ref("SheetPatch"))]
SheetJSON = Annotated[dict[str, Any], described_as(ref("Sheet"))]


def _system_choices(schema: dict[str, Any]) -> None:
    schema["enum"] = list(play_systems.system_ids())  # the registry when the document is drawn


# A system id: one of the registry's (``play.systems``), the shipped ones and any registered; the use
# case refuses any other (``bad_choice``).
SystemId = Annotated[str, Field(json_schema_extra=_system_choices)]
EffectJSON = Annotated[dict[str, Any], described_as({"anyOf": [ref("ResourceChange"), ref("Flag")]})]


# --- answers ------------------------------------------------------------------------------------


class _Doc(BaseModel):
    model_config = ConfigDict(extra="allow")


class ChronicleView(_Doc):
    id: int
    name: str
    system: SystemId
    mode: Literal["strict", "casual"]
    language: str
    difficulty: int | None
    created_at: str


class MemberView(_Doc):
    id: int
    chronicle: int
    name: str
    role: Literal["storyteller", "player"]
    created_at: str


class Created(_Doc):
    """A chronicle created: you are its Storyteller. The token and the invitation are shown once."""

    chronicle: ChronicleView
    member: MemberView
    token: str = Field(description="Your bearer token: ``Authorization: Bearer TOKEN``.")
    invitation: str = Field(description="The code players join with.")


class Joined(_Doc):
    """A chronicle joined as a player; the token is shown once."""

    chronicle: ChronicleView
    member: MemberView
    token: str = Field(description="Your bearer token: ``Authorization: Bearer TOKEN``.")


class Actor(_Doc):
    """Who acted, as the log records it."""

    member: int
    name: str
    role: Literal["storyteller", "player"]
    character: int | None = None


class CharacterView(_Doc):
    """A character with its sheet, as stored (every default filled in)."""

    id: int
    chronicle: int
    owner: int | None = Field(description="The member who plays it; null: an NPC.")
    name: str
    sheet: SheetJSON | None = Field(description="Null in the roster for a character another player holds.")
    version: int = Field(description="Raised by every change of the sheet (``version`` of a PATCH).")
    difficulty: int | None
    created_at: str
    updated_at: str


_ENTRY_COMMON = """ ``prev_hash``/``entry_hash`` chain the log (``rollbook log verify``). A player sees a hidden
entry redacted (``redacted``: its hashes only, ``receipt`` null) until it is revealed (``revealed_by``)."""


class _Entry(_Doc):
    chronicle: int
    seq: int
    prev_hash: str
    entry_hash: str
    created_at: str
    actor: Actor | None
    visibility: Literal["public", "hidden"]
    character: int | None
    refers_to: int | None = Field(description="The entry this one follows up, reveals or decides.")
    effects: list[EffectJSON]
    revealed_by: int | None = Field(None, description="A hidden roll: the entry that revealed it.")
    redacted: bool | None = Field(
        None, description="True when a player reads a hidden roll not yet revealed."
    )
    content_hash: str | None = Field(
        None,
        description="A redacted entry: the hash of what it hides, which its entry_hash covers with its "
        "kind and visibility (absent for entries written before redactions were checkable).",
    )


ROLL_ENTRY_KINDS = ("roll", "reroll")


class DrawnSchema:
    """A schema drawn when the document is, not at import (``draw()``, read from the registry then): a
    system registered from outside is in it while it is registered (``play.systems.register``)."""

    def __init__(self, draw: Callable[[], dict[str, Any]]) -> None:
        self.draw = draw

    def __get_pydantic_json_schema__(self, _core_schema: Any, _handler: Any) -> dict[str, Any]:
        return self.draw()


def _receipts(union: str) -> dict[str, Any]:
    """Every registered system's receipts of one sort (``RollReceipt``, ``ChangeReceipt``), by
    reference to its union (``play.schema``): the shipped systems', then those registered."""
    return {"anyOf": [ref(f"{play_schema.title(system)}{union}") for system in play_systems.system_ids()]}


RollReceiptJSON = Annotated[dict[str, Any], DrawnSchema(lambda: _receipts("RollReceipt"))]
ChangeReceiptJSON = Annotated[dict[str, Any], DrawnSchema(lambda: _receipts("ChangeReceipt"))]


class RollEntry(_Entry):
    __doc__ = (
        "A roll, or a follow-up of one (a V5 Willpower reroll: the roll's receipt again, with its "
        "reroll): the receipt of the chronicle's system, by kind." + _ENTRY_COMMON
    )

    kind: Literal[ROLL_ENTRY_KINDS]  # type: ignore[valid-type]  # the roll kinds, read from the entry models
    receipt: RollReceiptJSON | None


class AdjustEntry(_Entry):
    __doc__ = (
        "A change without dice (spend, restore, award, reload …): its receipt, by system and kind."
        + _ENTRY_COMMON
    )

    kind: Literal["adjust"]
    receipt: ChangeReceiptJSON | None


def _kind_entry(kind: str) -> type[_Entry]:
    """The entry of one kind of the log (``rollbook.entries``), its receipt that kind's model."""
    receipt = entries.RECEIPTS[kind]
    fields: dict[str, Any] = {"kind": (Literal[kind], ...), "receipt": (receipt | None, ...)}
    model: type[_Entry] = create_model(entries.entry_name(kind), __base__=_Entry, **fields)
    model.__doc__ = (receipt.__doc__ or f"A ``{kind}`` entry.").strip() + _ENTRY_COMMON
    return model


# Every other kind of the log, each with its receipt's model (the rolls' and changes' are the play layer's).
KIND_ENTRIES = tuple(_kind_entry(kind) for kind in entries.KINDS if kind not in (*ROLL_ENTRY_KINDS, "adjust"))


LOG_ENTRY = {
    "anyOf": [ref("RollEntry"), ref("AdjustEntry"), *(ref(model.__name__) for model in KIND_ENTRIES)],
    "description": "One entry of the chronicle's log, by kind.",
}
LogEntryJSON = Annotated[dict[str, Any], described_as(LOG_ENTRY)]


class RollAnswer(_Doc):
    """A roll, follow-up or change made: its log entry, the character after it, what it changed
    and the warnings of the running turn (SPEC A-3)."""

    entry: LogEntryJSON
    character: CharacterView
    effects: list[EffectJSON]
    warnings: list[dict[str, Any]]


class AskAnswer(_Doc):
    """A player's roll that sets what the Storyteller sets, waiting for the Storyteller (SPEC A-1)."""

    ask: dict[str, Any]


class LogPage(_Doc):
    """Entries with seq > ``after``, oldest first."""

    entries: list[LogEntryJSON]
    next: int | None = Field(description="The ``after`` of the next page; null: no more.")
    head: dict[str, Any] | None = Field(description="The head of the log: seq and entry_hash.")


class RevealAnswer(_Doc):
    entry: LogEntryJSON
    revealed: LogEntryJSON


class CharacterList(_Doc):
    characters: list[CharacterView]


# What the server adds to the play layer's receipts when it logs them.
SERVER_RECEIPT_FIELDS: dict[str, dict[str, Any]] = {
    "authority": {
        "type": "object",
        "description": "SPEC A-2: the grant, or the baseline and standing grants, the roll was made under.",
    },
    "turn": {
        "type": "object",
        "description": "SPEC A-3: the scene and turn the roll or change was made in, "
        "with the turn's warnings.",
    },
    "fair": {
        "type": "object",
        "description": "SPEC F-6: the provably fair dice the roll drew: algorithm "
        "(hmac-sha256-v1), the seed's commitment, the client seed, the nonce "
        "(a follow-up's own record is in its last ``rerolls`` element).",
        "required": ["algorithm", "commitment", "client_seed", "nonce"],
        "properties": {
            "algorithm": {"type": "string"},
            "commitment": {"type": "string"},
            "client_seed": {"type": "string"},
            "nonce": {"type": "integer"},
        },
    },
    "exchange": {
        "type": "object",
        "description": "The combat chain (V20-17, T-4, T-5): the attacker, the target "
        "and where the exchange stands.",
    },
}

# OpenAPI links: what an answer leads to (a client, and schemathesis' stateful tests, follow them).
_CHARACTER = {"chronicle_id": "$response.body#/chronicle", "character_id": "$response.body#/id"}
_ENTRY = {"chronicle_id": "$response.body#/entry/chronicle", "seq": "$response.body#/entry/seq"}
LINKS: dict[tuple[str, str], dict[str, dict[str, Any]]] = {
    ("create_chronicle", "201"): {
        "AddCharacter": {
            "operationId": "add_character",
            "parameters": {"chronicle_id": "$response.body#/chronicle/id"},
            "description": "Add a character to the new chronicle (with its token).",
        },
    },
    ("add_character", "201"): {
        "Roll": {"operationId": "roll", "parameters": _CHARACTER, "description": "Roll for the character."},
        "Adjust": {
            "operationId": "adjust",
            "parameters": _CHARACTER,
            "description": "A change on its sheet.",
        },
        "EditCharacter": {
            "operationId": "edit_character",
            "parameters": _CHARACTER,
            "description": "Edit its sheet.",
        },
    },
    ("roll", "201"): {
        "Reroll": {
            "operationId": "reroll",
            "parameters": _ENTRY,
            "description": "Follow the roll up (V5-8).",
        },
        "LogEntry": {
            "operationId": "log_entry",
            "parameters": _ENTRY,
            "description": "The roll's log entry.",
        },
    },
}

RESPONSE_MODELS: tuple[type[BaseModel], ...] = (
    ChronicleView,
    MemberView,
    Created,
    Joined,
    Actor,
    CharacterView,
    RollEntry,
    AdjustEntry,
    *KIND_ENTRIES,
    RollAnswer,
    AskAnswer,
    LogPage,
    RevealAnswer,
    CharacterList,
)


# --- examples of each system's common rolls, shown by /docs (``openapi_examples`` of the bodies) -----


def _examples(group: str, wrap: str) -> dict[str, dict[str, Any]]:
    return {
        key: {"summary": example.summary, "value": {wrap: example.value}}
        for given in EXAMPLES.values()
        for key, example in getattr(given, group).items()
    }


ROLL_EXAMPLES = _examples("actions", "action")
FOLLOWUP_EXAMPLES = _examples("followups", "action")
CHANGE_EXAMPLES = _examples("changes", "change")
CHARACTER_EXAMPLES = {
    f"{system}_sheet": {
        "summary": given.sheet.summary,
        "value": {"name": given.sheet.value["name"], "sheet": given.sheet.value},
    }
    for system, given in EXAMPLES.items()
}


def _schema_examples(components: dict[str, dict]) -> None:
    """The same examples on each system's unions and new sheet (a reader of the schema alone sees them)."""
    for system, given in EXAMPLES.items():
        t = play_schema.title(system)
        components[f"{t}NewSheet"]["examples"] = [given.sheet.value]
        for group, union in (("actions", "Action"), ("followups", "Followup"), ("changes", "Change")):
            values = [example.value for example in getattr(given, group).values()]
            if values:
                components[f"{t}{union}"]["examples"] = values


def _edges(components: dict[str, dict]) -> None:
    """SPEC A-1: the edges a grant or a standing grant may set, per system (``play.authority``): each
    edge field with its schema as the action that has it declares it, and ``hidden``."""
    names = []
    for system in play_systems.system_ids():
        t = play_schema.title(system)
        properties: dict[str, Any] = {}
        for kind in play_schema.actions(system):
            action = components[components[f"{t}Action"]["discriminator"]["mapping"][kind].rsplit("/", 1)[1]]
            for name in play_authority.edge_fields(system, kind):
                if name != play_authority.HIDDEN and name not in properties:
                    properties[name] = {k: v for k, v in action["properties"][name].items() if k != "default"}
        properties[play_authority.HIDDEN] = {
            "type": "boolean",
            "title": "Hidden",
            "description": "A hidden roll.",
        }
        components[f"{t}Edges"] = {
            "type": "object",
            "title": f"{t}Edges",
            "properties": properties,
            "additionalProperties": False,
            "description": f"SPEC A-1: what the Storyteller sets on a {t} roll; each value is checked by the "
            "field of the roll's own action (an edge the action lacks is refused: not_an_edge).",
        }
        names.append(f"{t}Edges")
    components["Edges"] = {
        "anyOf": [{"$ref": REF.format(model=name)} for name in names],
        "description": "The edges of the chronicle's system (SPEC A-1).",
    }


def json_response(name: str, description: str) -> dict[str, Any]:
    """A ``responses=`` entry that points at a component by name."""
    return {"description": description, "content": {"application/json": {"schema": ref(name)}}}


def _components() -> dict[str, dict]:
    """The play layer's components, the log's receipts opened to the server's fields, and the answers."""
    components = play_schema.components(REF)
    for system in play_systems.system_ids():
        for union in (f"{play_schema.title(system)}RollReceipt", f"{play_schema.title(system)}ChangeReceipt"):
            for member in components[union]["oneOf"]:
                schema = components[member["$ref"].rsplit("/", 1)[1]]  # a receipt's JSON schema
                schema["properties"].update(SERVER_RECEIPT_FIELDS)
    _schema_examples(components)
    _edges(components)
    from pydantic.json_schema import models_json_schema

    _, top = models_json_schema([(model, "serialization") for model in RESPONSE_MODELS], ref_template=REF)
    for name, schema in _resolve(top.get("$defs", {})).items():
        if name in components:
            raise ValueError(f"two schemas would be named {name!r} in the API schema")
        components[name] = schema
    return components


# ``server.hygiene``: no text holds a control character but tab, line feed and carriage return (422
# ``text_not_allowed``, for every string and key of a body and every query parameter). Said in the
# document too, on every string that no pattern, enum or format already bounds, and on the keys of
# every open mapping, so that a client (or a fuzzer) knows it.
TEXT_PATTERN = "^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$"


def plain_text(value: Any) -> Any:
    if isinstance(value, list):
        return [plain_text(inner) for inner in value]
    if not isinstance(value, dict):
        return value
    out = {
        key: (inner if key in ("example", "examples", "default", "const", "enum") else plain_text(inner))
        for key, inner in value.items()
    }
    if out.get("type") == "string" and not {"pattern", "enum", "const", "format"} & out.keys():
        out["pattern"] = TEXT_PATTERN
    if (
        out.get("type") == "object"
        and isinstance(out.get("additionalProperties"), dict)
        and "propertyNames" not in out
    ):
        out["propertyNames"] = {"pattern": TEXT_PATTERN}
    return out


def install(document: dict[str, Any]) -> dict[str, Any]:
    """Merge the typed components into an OpenAPI document made by FastAPI (a clash is an error) and
    resolve the references to them."""
    document.update(_resolve(document))
    for path in document.get("paths", {}).values():
        for operation in path.values():
            for status, response in operation.get("responses", {}).items():
                links = LINKS.get((operation.get("operationId", ""), status))
                if links:
                    response["links"] = links
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in _components().items():
        if name in schemas and schemas[name] != schema:
            raise ValueError(f"two schemas would be named {name!r} in the API schema")
        schemas[name] = schema
    document["components"] = plain_text(document["components"])
    for path in document.get("paths", {}).values():
        for operation in path.values():
            for parameter in operation.get("parameters", []):
                parameter["schema"] = plain_text(parameter.get("schema", {}))
                if parameter.get("in") == "header" and parameter.get("name") == "Idempotency-Key":
                    _ascii_key(parameter)
            if "application/json" in (operation.get("requestBody") or {}).get("content", {}) or any(
                p.get("name") == "Idempotency-Key" for p in operation.get("parameters", [])
            ):
                operation.setdefault("responses", {}).setdefault("400", BAD_REQUEST)
    return document


# Every JSON operation may answer 400: a body that is not JSON (body_not_json,
# ``server/hygiene.py``) or an Idempotency-Key outside its rule (idempotency_key_invalid).
BAD_REQUEST = {
    "description": "Bad Request: the body is not JSON (`body_not_json`) or the Idempotency-Key is "
    "not 1 to 255 printable ASCII characters (`idempotency_key_invalid`).",
    "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
}


def _ascii_key(parameter: dict[str, Any]) -> None:
    """The Idempotency-Key's rule (``tx.check_key``): 1 to 255 printable ASCII characters."""
    schema = parameter.get("schema") or {}
    for option in schema.get("anyOf", [schema]):
        if option.get("type") == "string":
            option["pattern"] = "^[ -~]{1,255}$"
            option["minLength"] = 1
            option["maxLength"] = 255
    parameter["schema"] = schema
