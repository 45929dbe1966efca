"""Names, bodies and what one member stores, on both stores."""

from __future__ import annotations

import pytest

from rollbook.server.usecases import checks


def _create(client, table, headers, name: str, sheet: dict | None = None):
    return client.post(f"{table.base}/characters", headers=headers, json={"name": name, "sheet": sheet or {}})


def test_character_name_of_101_characters_refused(client, make_table):
    table = make_table("v20")
    for length in (101, 200):
        made = _create(client, table, table.st, "N" * length)
        assert made.status_code == 201, made.text
        assert made.json()["sheet"]["name"] == "N" * length
    refused = _create(client, table, table.st, "N" * 201)
    assert refused.status_code == 422 and refused.json()["code"] == "too_long"


@pytest.mark.parametrize(
    "body",
    [
        b'{"name": "\xff\xfe", "sheet": {}}',
        b'{"name": "X", "sheet": {}, "owner": ' + b"7" * 4301 + b"}",
        b'{"name": "X", "sheet": {"notes": "a"}, "owner": ' + b"7" * 5000 + b"}",
    ],
)
def test_invalid_utf8_or_huge_integer_answers_http_400(client, make_table, body):
    table = make_table("v20")
    answer = client.post(
        f"{table.base}/characters", headers={**table.st, "Content-Type": "application/json"}, content=body
    )
    assert answer.status_code == 400 and answer.json()["code"] == "body_not_json", answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")


@pytest.mark.parametrize("mark", ["\u200b", "\u200d", "\u202e", "\u2066", "\ufeff", "\u061c"])
def test_zero_width_and_rtl_override_accepted_in_names(client, make_table, mark):
    table = make_table("v20")
    for answer in (
        _create(client, table, table.st, f"Lu{mark}cita"),
        _create(client, table, table.st, "Lucita", {"name": f"Lu{mark}cita"}),
        client.post("/api/join", json={"invitation": table.invitation, "name": f"A{mark}nn"}),
        client.post("/api/chronicles", json={"name": f"Chi{mark}cago", "system": "v20"}),
    ):
        assert answer.status_code == 422 and answer.json()["code"] == "text_not_allowed", answer.text
    assert client.get(f"{table.base}/characters", headers=table.st).json()["characters"] == []


def test_no_bound_on_a_sheets_size(client, make_table):
    table = make_table("rollunder")
    cards = [{"name": f"Card {i}", "effect": "extra", "text": "t" * 15_000} for i in range(8)]
    answer = _create(client, table, table.st, "Big", {"cards": cards})
    assert answer.status_code == 422 and answer.json()["code"] == "sheet_too_large", answer.text
    assert answer.json()["params"]["most"] == checks.MAX_SHEET_BYTES
    made = _create(client, table, table.st, "Fits", {"cards": cards[:4]})
    assert made.status_code == 201, made.text
    grown = client.patch(
        f"{table.base}/characters/{made.json()['id']}", headers=table.st, json={"patch": {"cards": cards}}
    )
    assert grown.status_code == 422 and grown.json()["code"] == "sheet_too_large", grown.text


def test_no_bound_on_characters_per_member(client, make_table, monkeypatch):
    monkeypatch.setattr(checks, "MAX_CHARACTERS_PER_PLAYER", 3)
    table = make_table("v20")
    player = table.join("Ann")
    for n in range(3):
        assert _create(client, table, player, f"C{n}").status_code == 201
    refused = _create(client, table, player, "C3")
    assert refused.status_code == 422 and refused.json()["code"] == "too_many_characters"
    assert refused.json()["params"]["most"] == 3
    assert _create(client, table, table.st, "NPC").status_code == 201  # the Storyteller's count is their own
