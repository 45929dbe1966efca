"""A second action of a registered system, declared once (``tests/toy_system/toy.py``: the toy's
``push``, its pool where a 4 succeeds too) and found on every face with no file of ``src/`` naming it:
the JSON API (the OpenAPI document's request schema, ``POST …/rolls``, ``POST …/odds``, its edge
refused, asked and granted: A-1, A-2), the web pages (the sheet's roll form offers it, rolls it, its
card, its odds box), Discord (``/roll``, ``/ask`` and ``/odds`` name it), the CLI (``rollbook roll
toy``, ``rollbook odds toy``) and ``rollbook log verify`` of the export, on both stores."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import close_app, create_app
from rollbook.discord.commands import command_definitions
from rollbook.play import verify_receipt
from rollbook.present.preview import odds_view
from rollbook.server.chain import read_jsonl, verify_entries
from rollbook.server.ledger import AuthorityLedger
from tests.discord.helpers import ANNA, ST, seated
from tests.discord.signing import command, component, option
from tests.in_process import run_here
from tests.toy_system import registered
from tests.toy_system import toy as toy_module

HTMX = {"HX-Request": "true"}
PUSH = {"kind": "push", "trait": "might"}
MIGHT = {"name": "Ann", "traits": {"might": 3}}


@pytest.fixture()
def toy():
    with registered() as system:
        yield system


def pushed(faces: list[int]) -> int:
    return sum(1 for face in faces if face >= toy_module.PUSH_AT)


def test_the_push_is_in_the_openapi_documents_request_schema(database_url, toy):
    """The request schema of ``POST …/rolls`` and ``…/odds`` (``Action``) holds the push's model, drawn
    from the system's ``ACTIONS`` when the document is (an app of its own: a document is drawn once)."""
    made = create_app(database_url)
    try:
        with TestClient(made) as fresh:
            document = fresh.get("/openapi.json").json()
    finally:
        close_app(made)
    schemas = document["components"]["schemas"]
    kinds = set()
    for schema in schemas.values():
        kind = schema.get("properties", {}).get("kind")
        if isinstance(kind, dict):
            kinds.update(kind.get("enum") or [kind.get("const")])
    assert "push" in kinds and "pool" in kinds
    # the toy's union of actions, by kind, among the systems' (``play.schema``: the registry's)
    action = schemas["Action"]["anyOf"]
    assert {"$ref": "#/components/schemas/ToyAction"} in action, action
    mapping = schemas["ToyAction"]["discriminator"]["mapping"]
    assert set(mapping) == {"pool", "push"}, mapping
    pushed_schema = schemas[mapping["push"].rsplit("/", 1)[1]]
    assert pushed_schema["properties"]["extra"]["maximum"] == 10
    # its edge, as a grant may set it (``Edges``)
    assert "extra" in schemas["ToyEdges"]["properties"]


def test_the_push_on_the_api_rolled_given_odds_asked_granted_and_verified(
    make_table, toy, tmp_path, monkeypatch, capsys
):
    table = make_table(toy)
    player = table.join("Pat")
    character = table.character(player, {"system": toy, **MIGHT})["id"]

    odds = table.client.post(
        f"{table.base}/characters/{character}/odds", headers=player, json={"action": PUSH}
    )
    assert odds.status_code == 200, odds.text
    assert odds.json()["request"] == {"pool": 3}
    assert odds.json()["odds"]["outcomes"] == {"success": "7/8", "failure": "1/8"}  # 1 - (1/2)^3

    rolled = table.roll(player, character, PUSH)
    assert rolled.status_code == 201, rolled.text
    receipt = rolled.json()["entry"]["receipt"]
    assert receipt["kind"] == "push" and len(receipt["faces"]) == 3
    assert receipt["result"]["successes"] == pushed(receipt["faces"])
    assert receipt["result"]["success_at"] == 4 and verify_receipt(receipt) == []

    # its edge (extra dice) refused without a grant, asked, then granted as asked
    refused = table.roll(player, character, {**PUSH, "extra": 2})
    assert refused.status_code == 403, refused.text
    asked = table.roll(player, character, {**PUSH, "extra": 2}, ask=True)
    assert asked.status_code == 202, asked.text
    granted = table.client.post(
        f"{table.base}/asks/{asked.json()['ask']['id']}/grant", headers=table.st, json={}
    )
    assert granted.status_code == 201, granted.text
    grant_receipt = granted.json()["entry"]["receipt"]
    assert grant_receipt["kind"] == "push" and grant_receipt["request"] == {"pool": 5}
    assert len(grant_receipt["faces"]) == 5 and verify_receipt(grant_receipt) == []

    problems, _ = verify_entries(read_jsonl(table.export().splitlines()), verify_receipt, AuthorityLedger())
    assert problems == []
    exported = tmp_path / "push.jsonl"
    exported.write_text(table.export())
    verified = run_here(monkeypatch, capsys, "log", "verify", str(exported))
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_the_push_on_the_web_pages(app, toy):
    """The sheet's roll form offers the push (a tab of its own, in the toy's words), its odds box
    answers the push's odds, and the form rolls it: its card, titled in the toy's words."""
    storyteller, player = TestClient(app), TestClient(app)
    created = storyteller.post(
        "/chronicles", data={"name": "Pushes", "system": toy, "storyteller": "Ana"}, follow_redirects=False
    )
    assert created.status_code == 303, created.text
    invitation = storyteller.cookies.get("rollbook_invitation")
    joined = player.post("/join", data={"invitation": invitation, "name": "Bruno"}, follow_redirects=False)
    assert joined.status_code == 303, joined.text
    added = player.post(
        f"{created.headers['location']}/characters",
        data={"s.name": "Ann", "s.traits.might": "3"},
        follow_redirects=False,
    )
    assert added.status_code == 303, added.text
    sheet = added.headers["location"]

    page = player.get(sheet)
    assert page.status_code == 200 and "?kind=push" in page.text and ">Push</a>" in page.text
    form = player.get(f"{sheet}/roll-form", params={"kind": "push"}, headers=HTMX)
    assert form.status_code == 200 and '<input type="hidden" name="kind" value="push">' in form.text
    assert 'name="trait"' in form.text

    odds = player.get(f"{sheet}/odds", params=PUSH, headers=HTMX)
    assert "Chance of success: 87.5" in odds.text, odds.text  # 7/8, as POST …/odds answers
    rolled = player.post(f"{sheet}/rolls", data=PUSH, headers=HTMX)
    assert rolled.status_code == 200 and 'class="card kind-roll' in rolled.text, rolled.text
    assert "Push" in rolled.text and "Might 3 = 3 dice" in rolled.text
    assert "Fair dice: mismatch" not in rolled.text

    asked = player.post(f"{sheet}/rolls", data={**PUSH, "extra": "2"}, headers=HTMX)
    assert asked.status_code == 200 and 'class="card kind-ask"' in asked.text, asked.text


def _options(definitions: list[dict], name: str) -> dict[str, dict]:
    found = {definition["name"]: definition for definition in definitions}[name]
    return {option["name"]: option for option in found["options"]}


def test_the_commands_name_the_push_while_it_is_registered(toy):
    """``/roll``, ``/ask`` and ``/odds`` take the kind of roll a registered system declares beyond its
    plain test (its ``ACTIONS``), each named in its words (``WORDS.KINDS``)."""
    definitions = command_definitions()
    for name in ("roll", "ask", "odds"):
        kind = _options(definitions, name)["kind"]
        assert {"pool", "push"} <= {choice["value"] for choice in kind["choices"]}, kind
        assert {"name": "Push", "value": "push"}.items() <= next(
            c for c in kind["choices"] if c["value"] == "push"
        ).items()
        assert kind["name_localizations"] == {
            "fr": "type_de_jet",
            "es-ES": "tipo_de_tirada",
        }  # the tabs' words
        assert len(_options(definitions, name)) <= 25


def test_the_push_on_discord_rolled_asked_granted_and_given_odds(make_table, discord, discord_api, toy):
    table, channel, (anna,) = seated(make_table, discord, toy, ANNA)
    character = table.character(anna, {"system": toy, **MIGHT})["id"]
    push = [option("trait", "might"), option("kind", "push")]

    answer = discord.ok(command("roll", push, user_id=ANNA, channel=channel))
    [roll] = [entry for entry in table.log()["entries"] if entry["kind"] == "roll"]
    assert roll["receipt"]["kind"] == "push" and len(roll["receipt"]["faces"]) == 3, answer
    assert verify_receipt(roll["receipt"]) == []
    assert answer["data"]["embeds"][0]["title"] == "Push"

    # the edge on a push refused on /roll, asked on /ask, granted by the Storyteller's button
    before = len(table.log()["entries"])
    refused = discord.ok(command("roll", [*push, option("extra", 2, 4)], user_id=ANNA, channel=channel))
    assert refused["data"]["flags"] == 64 and "/ask" in refused["data"]["content"], refused
    assert len(table.log()["entries"]) == before
    asked = discord.ok(command("ask", [*push, option("extra", 2, 4)], user_id=ANNA, channel=channel))
    [grant] = [
        c["custom_id"]
        for row in asked["data"].get("components", [])
        for c in row["components"]
        if c["custom_id"].startswith("rb:g:")
    ]
    granted = discord.ok(component(grant, user_id=ST, channel=channel))
    assert granted["data"].get("embeds"), granted
    rolls = [entry for entry in table.log()["entries"] if entry["kind"] == "roll"]
    assert rolls[-1]["receipt"]["kind"] == "push" and rolls[-1]["receipt"]["request"] == {"pool": 5}

    # /odds of the push: the odds of the request the roll makes (POST …/odds for the same action)
    api = table.client.post(f"{table.base}/characters/{character}/odds", headers=anna, json={"action": PUSH})
    assert api.status_code == 200, api.text
    asked_odds = command("odds", push, user_id=ANNA, channel=channel)
    assert discord.ok(asked_odds) == {"type": 5}
    shown = discord_api.originals[asked_odds["token"]]["embeds"][0]["description"].splitlines()
    expected = odds_view({"system": toy, "kind": "push", "request": api.json()["request"]}, "en")
    assert expected is not None and "87.5" in expected.headline
    assert shown[0] == expected.headline, shown


def test_the_push_on_the_cli(toy, monkeypatch, capsys):
    """``rollbook roll toy`` and ``rollbook odds toy`` take the kind its quick roll names (``--kind``):
    a push's receipt and odds (1 - (1/2)^3)."""
    rolled = run_here(monkeypatch, capsys, "roll", "toy", "--kind", "push", "--pool", "4", "--json")
    assert rolled.returncode == 0, rolled.stderr
    receipt = json.loads(rolled.stdout)
    assert receipt["success_at"] == 4 and len(receipt["faces"]) == 4
    assert receipt["successes"] == pushed(receipt["faces"])
    odds = run_here(monkeypatch, capsys, "odds", "toy", "--kind", "push", "--pool", "3", "--json")
    assert odds.returncode == 0, odds.stderr
    assert json.loads(odds.stdout)["outcomes"] == {"success": "7/8", "failure": "1/8"}
    assert Fraction(json.loads(odds.stdout)["outcomes"]["failure"]) == Fraction(1, 2) ** 3
    refused = run_here(monkeypatch, capsys, "roll", "toy", "--kind", "shove", "--pool", "3")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
