"""The typed API: ``/openapi.json`` describes every sheet, action, follow-up and change of
every system, and the receipts and log entries the server answers, from the play layer's own models
(one definition); the server's real answers fit what it describes; the refusals keep their codes."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from rollbook import play
from rollbook.app import openapi
from rollbook.play import examples, schema

from .conftest import V20_SHEET

SYSTEMS = play.SYSTEM_IDS
REF = "#/components/schemas/"


@pytest.fixture(scope="module")
def document(client) -> dict:
    response = client.get("/openapi.json")
    assert response.status_code == 200
    return response.json()


def validate(document: dict, schema_: dict, value) -> list[str]:
    registry = Registry().with_resource(
        "urn:api", Resource.from_contents(document, default_specification=DRAFT202012)
    )
    rebased = json.loads(json.dumps(schema_).replace(f'"{REF}', '"urn:api#/components/schemas/'))
    found = Draft202012Validator(rebased, registry=registry).iter_errors(value)
    return [f"{'/'.join(map(str, error.absolute_path))}: {error.message[:300]}" for error in found]


def component(document: dict, name: str) -> dict:
    return {"$ref": f"{REF}{name}"}


def body_field(document: dict, model: str, field: str) -> dict:
    return document["components"]["schemas"][model]["properties"][field]


def test_request_bodies_name_the_play_layers_schemas(document):
    assert body_field(document, "RollRequest", "action")["$ref"] == f"{REF}Action"
    assert body_field(document, "FollowupRequest", "action")["$ref"] == f"{REF}Followup"
    assert body_field(document, "AdjustRequest", "change")["$ref"] == f"{REF}Change"
    assert body_field(document, "CharacterCreate", "sheet")["$ref"] == f"{REF}NewSheet"
    assert {"$ref": f"{REF}SheetPatch"} in body_field(document, "CharacterUpdate", "patch")["anyOf"]
    assert body_field(document, "OffersRequest", "action")["$ref"] == f"{REF}Action"


def test_every_kind_of_every_system_is_described_once_from_the_play_models(document):
    schemas = document["components"]["schemas"]
    for system in SYSTEMS:
        module = play.system_module(system)
        t = schema.title(system)
        for group, models in (
            ("Action", module.ACTIONS),
            ("Followup", module.FOLLOWUPS),
            ("Change", module.CHANGES),
        ):
            if not models:
                assert f"{t}{group}" not in schemas
                continue
            union = schemas[f"{t}{group}"]
            assert union["discriminator"]["propertyName"] == "kind"
            assert set(union["discriminator"]["mapping"]) == set(models), (system, group)
            assert {"$ref": f"{REF}{t}{group}"} in schemas[group]["anyOf"]
        assert set(schemas[f"{t}RollReceipt"]["discriminator"]["mapping"]) == set(module.ACTIONS)
        assert set(schemas[f"{t}ChangeReceipt"]["discriminator"]["mapping"]) == set(module.CHANGES)
    # one definition: the document's schemas are the play layer's, ranges and enums included
    test = schemas["V20TestAction"]["properties"]
    assert test["difficulty"]["minimum"] == 2 and test["difficulty"]["maximum"] == 10
    assert "dexterity" in test["attribute"]["enum"]
    for name, described in schema.components().items():
        if not name.endswith("Receipt"):
            assert {k: v for k, v in schemas[name].items() if k != "examples"} == openapi.plain_text(
                described
            ), name


def test_the_document_is_valid_and_every_reference_resolves(document):
    text = json.dumps(document)
    assert "x-rollbook-ref" not in text
    for described in document["components"]["schemas"].values():
        Draft202012Validator.check_schema(described)
    registry = Registry().with_resource(
        "urn:api", Resource.from_contents(document, default_specification=DRAFT202012)
    )
    resolver = registry.resolver()
    for target in {part.split('"')[0] for part in text.split(f'"$ref": "{REF}')[1:]}:
        resolver.lookup(f"urn:api#/components/schemas/{target}")


def test_answers_are_described(document):
    paths = document["paths"]
    rolls = paths["/api/chronicles/{chronicle_id}/characters/{character_id}/rolls"]["post"]["responses"]
    assert rolls["201"]["content"]["application/json"]["schema"] == component(document, "RollAnswer")
    assert rolls["202"]["content"]["application/json"]["schema"] == component(document, "AskAnswer")
    rerolls = paths["/api/chronicles/{chronicle_id}/log/{seq}/rerolls"]["post"]["responses"]
    assert rerolls["201"]["content"]["application/json"]["schema"] == component(document, "RollAnswer")
    log = paths["/api/chronicles/{chronicle_id}/log"]["get"]["responses"]
    assert log["200"]["content"]["application/json"]["schema"] == component(document, "LogPage")


@pytest.mark.parametrize(
    ("path", "method", "group", "wrap"),
    [
        ("/api/chronicles/{chronicle_id}/characters/{character_id}/rolls", "post", "actions", "action"),
        ("/api/chronicles/{chronicle_id}/log/{seq}/rerolls", "post", "followups", "action"),
        ("/api/chronicles/{chronicle_id}/characters/{character_id}/adjustments", "post", "changes", "change"),
    ],
)
def test_docs_show_examples_of_each_systems_common_rolls(client, document, path, method, group, wrap):
    body = document["paths"][path][method]["requestBody"]["content"]["application/json"]
    shown = body["examples"]
    expected = {
        key: example for given in examples.EXAMPLES.values() for key, example in getattr(given, group).items()
    }
    assert set(shown) == set(expected)
    for key, example in expected.items():
        assert shown[key] == {"summary": example.summary, "value": {wrap: example.value}}
        assert not validate(document, body["schema"], shown[key]["value"]), key
    if group == "actions":
        systems = {key.split("_")[0] for key in shown}
        assert systems == set(SYSTEMS)
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/openapi.json" in docs.text


def test_docs_show_a_sheet_of_each_system(document):
    body = document["paths"]["/api/chronicles/{chronicle_id}/characters"]["post"]["requestBody"]["content"]
    shown = body["application/json"]["examples"]
    assert set(shown) == {f"{system}_sheet" for system in SYSTEMS}
    for example in shown.values():
        assert not validate(document, body["application/json"]["schema"], example["value"])
    for system in SYSTEMS:
        union = document["components"]["schemas"][f"{schema.title(system)}Action"]
        assert union["examples"] and all(
            not validate(document, component(document, f"{schema.title(system)}Action"), value)
            for value in union["examples"]
        )


def _answer(document: dict, response, name: str) -> dict:
    assert response.status_code in (200, 201), response.text
    body = response.json()
    problems = validate(document, component(document, name), body)
    assert not problems, (name, problems[:5])
    return body


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_answers_of_every_system_fit_the_document(document, make_table, system):
    """Every example of the system through the server (sheet, rolls, changes, follow-ups): each answer,
    each log entry and the log page fit what the document describes; a player's redacted view too."""
    given = examples.EXAMPLES[system]
    table = make_table(system)
    sheet = given.sheet.value
    created = _answer(
        document,
        table.client.post(
            f"{table.base}/characters", headers=table.st, json={"name": sheet["name"], "sheet": sheet}
        ),
        "CharacterView",
    )
    cid = created["id"]
    first = None
    for key, example in given.actions.items():
        answer = _answer(document, table.roll(table.st, cid, example.value), "RollAnswer")
        first = first or answer["entry"]["seq"]
        assert answer["entry"]["receipt"]["kind"] == example.value["kind"], key
    for example in given.followups.values():
        _answer(
            document,
            table.client.post(
                f"{table.base}/log/{first}/rerolls", headers=table.st, json={"action": example.value}
            ),
            "RollAnswer",
        )
    for example in given.changes.values():
        _answer(
            document,
            table.client.post(
                f"{table.base}/characters/{cid}/adjustments", headers=table.st, json={"change": example.value}
            ),
            "RollAnswer",
        )
    hidden = _answer(
        document,
        table.roll(table.st, cid, next(iter(given.actions.values())).value, hidden=True),
        "RollAnswer",
    )
    player = table.join()
    page = _answer(document, table.client.get(f"{table.base}/log", headers=player), "LogPage")
    assert any(entry.get("redacted") for entry in page["entries"])
    page = _answer(document, table.client.get(f"{table.base}/log", headers=table.st), "LogPage")
    kinds = {entry["kind"] for entry in page["entries"]}
    assert "roll" in kinds and ("adjust" in kinds or not given.changes)
    log_entry = document["paths"]["/api/chronicles/{chronicle_id}/log/{seq}"]["get"]["responses"]["200"]
    for entry in page["entries"]:
        fetched = table.client.get(f"{table.base}/log/{entry['seq']}", headers=table.st)
        assert not validate(document, log_entry["content"]["application/json"]["schema"], fetched.json())
    reveal = table.client.post(f"{table.base}/log/{hidden['entry']['seq']}/reveal", headers=table.st)
    _answer(document, reveal, "RevealAnswer")
    _answer(document, table.client.get(f"{table.base}/characters", headers=table.st), "CharacterList")


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"action": {"kind": "rouse"}}, 422, "bad_choice"),  # a V5 kind, in a V20 chronicle
        ({"action": {"attribute": "dexterity"}}, 422, "missing_field"),
        ({"action": {"kind": "test", "attribute": "luck"}}, 422, "bad_choice"),
        ({"action": "test"}, 422, "wrong_type"),
        ({"action": {"kind": "test", "attribute": "dexterity", "faces": [10]}}, 422, "faces_not_allowed"),
    ],
)
def test_a_wrong_body_keeps_its_problem_code(make_table, body, status, code):
    table = make_table("v20")
    character = table.character(table.st, V20_SHEET)
    response = table.client.post(
        f"{table.base}/characters/{character['id']}/rolls", headers=table.st, json=body
    )
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == code


def test_operations_are_named_by_their_function_once(document):
    """What a generated client calls them (``roll``, ``add_character``); a second route with the same
    function name would make two operations of one name."""
    ids = [operation["operationId"] for path in document["paths"].values() for operation in path.values()]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert {"create_chronicle", "add_character", "roll", "reroll", "adjust", "log_page"} <= set(ids)


def test_text_without_control_characters_is_said_in_the_document(document):
    """server.hygiene refuses control characters in any text: every free string says so (a pattern)."""
    schemas = document["components"]["schemas"]
    assert schemas["V20Sheet"]["properties"]["concept"]["pattern"] == openapi.TEXT_PATTERN
    assert schemas["ChronicleCreate"]["properties"]["name"]["pattern"] == openapi.TEXT_PATTERN
    assert schemas["V20TestAction"]["properties"]["attribute"].get("pattern") is None  # an enum already


def test_answers_link_to_what_follows(document):
    """create chronicle -> add character -> roll, adjust, edit -> reroll, the entry: OpenAPI links."""
    operations = {op["operationId"]: op for path in document["paths"].values() for op in path.values()}
    chain = [
        ("create_chronicle", "AddCharacter", "add_character"),
        ("add_character", "Roll", "roll"),
        ("add_character", "Adjust", "adjust"),
        ("roll", "Reroll", "reroll"),
    ]
    for source, name, target in chain:
        link = operations[source]["responses"]["201"]["links"][name]
        assert link["operationId"] == target
        path_params = {p["name"] for p in operations[target].get("parameters", []) if p["in"] == "path"}
        assert set(link["parameters"]) == path_params, (source, name)


def test_the_edges_a_grant_sets_are_described_per_system(document):
    """SPEC A-1: a grant's and a standing grant's ``edges``: every edge of the system's actions, each
    with the schema its action gives it; nothing else."""
    from rollbook.play import authority

    assert {"$ref": f"{REF}Edges"} in body_field(document, "GrantRequest", "edges")["anyOf"]
    assert body_field(document, "StandingRequest", "edges")["$ref"] == f"{REF}Edges"
    schemas = document["components"]["schemas"]
    for system in SYSTEMS:
        edges = schemas[f"{schema.title(system)}Edges"]
        assert set(edges["properties"]) == set(authority.all_edge_fields(system)), system
        assert edges["additionalProperties"] is False
    assert schemas["V20Edges"]["properties"]["difficulty"]["maximum"] == 10
    for fits in ({"modifier": 1}, {"advantage": True}, {"difficulty": 7, "hidden": True}, {}):
        assert not validate(document, component(document, "Edges"), fits), fits
    for refused in ({"luck": 1}, {"modifier": "one"}, {"attribute": "wits"}):
        assert validate(document, component(document, "Edges"), refused), refused


def test_the_document_lists_the_paths_in_the_order_the_api_declares_them(client, document):
    """The schema (``/openapi.json``, the docs) lists every path in the order the API declares them."""
    from rollbook.app.api import router

    declared = list(dict.fromkeys(route.path for route in router.routes))
    assert [path for path in document["paths"] if path in declared] == declared
    assert list(document["paths"])[:2] == ["/api/health", "/api/systems"]
