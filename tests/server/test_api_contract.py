"""What the API answers matches what its OpenAPI says, on both stores."""

from __future__ import annotations

import re

import pytest

CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def test_openapi_omits_the_400_and_the_idempotency_keys_rule(client):
    document = client.get("/openapi.json").json()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if "application/json" in (operation.get("requestBody") or {}).get("content", {}):
                assert "400" in operation["responses"], f"{method.upper()} {path} documents no 400"
            for parameter in operation.get("parameters", []):
                if parameter["name"] == "Idempotency-Key":
                    text = [o for o in parameter["schema"]["anyOf"] if o.get("type") == "string"][0]
                    assert text["pattern"] == "^[ -~]{1,255}$", f"{method.upper()} {path}"


def test_a_405_allow_lists_one_method(client, make_table):
    table = make_table("v20")
    answer = client.put(f"{table.base}/characters", headers=table.st)
    assert answer.status_code == 405
    assert set(answer.headers["allow"].replace(" ", "").split(",")) == {"GET", "POST"}


@pytest.mark.parametrize("path", ["/problems/a%01b", "/api/problems/x%7Fy", "/problems/%1B%5B31m"])
def test_problem_page_echoes_a_control_character(client, path):
    answer = client.get(path)
    assert answer.status_code == 404
    body = answer.json()
    for key in ("detail", "instance"):
        assert not CONTROL.search(body.get(key, "")), body
    assert not CONTROL.search(str(body.get("params", {})))


@pytest.mark.parametrize(
    "action, code",
    [
        ({"kind": "jump"}, "bad_choice"),
        ({"kind": "test", "attribute": "nope"}, "bad_choice"),
        ({"kind": "test", "attribute": "dexterity", "faces": [10]}, None),
        ("a string", None),
    ],
)
def test_offers_accepts_invalid_actions(client, make_table, action, code):
    table = make_table("v20")
    character = table.character(table.st, {"name": "L"})
    answer = client.post(
        f"{table.base}/characters/{character['id']}/offers", headers=table.st, json={"action": action}
    )
    assert answer.status_code == 422, answer.text
    if code:
        assert answer.json()["code"] == code
    fine = client.post(
        f"{table.base}/characters/{character['id']}/offers",
        headers=table.st,
        json={"action": {"kind": "test", "attribute": "dexterity"}},
    )
    assert fine.status_code == 200 and fine.json()["offers"] == []


@pytest.mark.parametrize("value", ["1\x01", "\x7f", "2\x1b[0m"])
def test_last_event_id_accepts_control_characters(client, make_table, value):
    table = make_table("v20")
    answer = client.get(
        f"{table.base}/events", params={"idle_timeout": 0.1}, headers={**table.st, "Last-Event-ID": value}
    )
    assert answer.status_code == 422 and answer.json()["code"] == "text_not_allowed"
    assert answer.json()["params"]["field"] == "Last-Event-ID"
