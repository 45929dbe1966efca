"""Input hygiene (server/hygiene.py): control characters and lone surrogates refused on every text
field, body size and nesting limits; each a 4xx problem+json and nothing written, on both stores."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook.server import hygiene

from .conftest import V20_SHEET, V20_TEST
from .helpers import problem

BAD = ["\x00", "\x07", "\x1b", "\x7f", "\x85", "\ud800", "\udfff"]


def _raw(value) -> bytes:
    """JSON with every non-ASCII character escaped (a lone surrogate can only travel as \\udXXX)."""
    return json.dumps(value, ensure_ascii=True).encode("ascii")


def _post(client, url, value, headers=None):
    return client.post(
        url, content=_raw(value), headers={"content-type": "application/json", **(headers or {})}
    )


@pytest.mark.parametrize("bad", BAD, ids=lambda c: f"U+{ord(c):04X}")
def test_bad_characters_in_a_chronicle_name_are_refused(client, app, bad):
    response = _post(client, "/api/chronicles", {"name": f"Night{bad}fall", "system": "v20"})
    problem(response, 422, "text_not_allowed")
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["params"]["field"] == "name"


def test_every_text_field_is_checked_and_nothing_is_written(client, make_table):
    table = make_table("v20")
    character = table.character(table.st, V20_SHEET)
    before = table.log()["head"]
    cases = [
        (f"{table.base}/characters", {"name": "Lu\x00cita", "sheet": V20_SHEET}, "name"),
        (
            f"{table.base}/characters",
            {"name": "Lucita", "sheet": {**V20_SHEET, "notes": "a\ud83d"}},
            "sheet.notes",
        ),
        (
            f"{table.base}/characters",
            {"name": "Lucita", "sheet": {**V20_SHEET, "k\x00ey": 1}},
            "sheet.k\ufffdey",
        ),
        (
            f"{table.base}/characters/{character['id']}/rolls",
            {"action": {**V20_TEST, "ability": "fire\x00arms"}},
            "action.ability",
        ),
        ("/api/join", {"invitation": table.invitation, "name": "A\x00nn"}, "name"),
        (
            f"{table.base}/characters/{character['id']}/adjustments",
            {"change": {"kind": "x", "list": ["ok", "\x01"]}},
            "change.list[1]",
        ),
    ]
    for url, body, field in cases:
        response = _post(client, url, body, table.st)
        problem(response, 422, "text_not_allowed")
        assert response.json()["params"]["field"] == field
    response = client.patch(
        table.base, content=_raw({"name": "\ud800"}), headers={**table.st, "content-type": "application/json"}
    )
    problem(response, 422, "text_not_allowed")
    assert table.log()["head"] == before
    assert len(client.get(f"{table.base}/characters", headers=table.st).json()["characters"]) == 1
    # tab, line feed and carriage return are text; so is any printable character
    fine = _post(
        client,
        f"{table.base}/characters",
        {"name": "Lucita\tla\nde\r Roma 🦇 é", "sheet": V20_SHEET},
        table.st,
    )
    assert fine.status_code == 201, fine.text


def test_query_parameters_and_forms_are_checked(client, make_table):
    table = make_table("v20")
    problem(client.get(f"{table.base}/log?after=1%00", headers=table.st), 422, "text_not_allowed")
    response = client.post(
        "/join",
        content=b"invitation=x&name=A%00nn",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    problem(response, 422, "text_not_allowed")
    response = client.post(
        "/join",
        content=b"invitation=x&name=%ff%fe",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    problem(response, 422, "text_not_allowed")


def test_a_5_mb_body_is_413(client, make_table):
    table = make_table("v20")
    big = _raw({"name": "Big", "sheet": {**V20_SHEET, "notes": "x" * (5 * 1024 * 1024)}})
    response = client.post(
        f"{table.base}/characters", content=big, headers={**table.st, "content-type": "application/json"}
    )
    problem(response, 413, "body_too_large")
    assert response.json()["params"]["limit"] == hygiene.MAX_BODY

    def chunks():  # no Content-Length: counted as it streams
        for _ in range(6):
            yield b"x" * (1024 * 1024)

    streamed = client.post(
        f"{table.base}/characters", content=chunks(), headers={**table.st, "content-type": "application/json"}
    )
    problem(streamed, 413, "body_too_large")
    assert len(client.get(f"{table.base}/characters", headers=table.st).json()["characters"]) == 0


@pytest.mark.parametrize("depth", [hygiene.MAX_DEPTH + 1, 100_000])
def test_deep_nesting_is_refused(client, make_table, depth):
    table = make_table("v20")
    body = b'{"name": "Deep", "sheet": {"x": ' + b"[" * depth + b"]" * depth + b"}}"
    response = client.post(
        f"{table.base}/characters", content=body, headers={**table.st, "content-type": "application/json"}
    )
    problem(response, 422, "json_too_deep")


def test_nesting_inside_strings_does_not_count():
    assert (
        hygiene.json_depth(
            b'{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "b": [1, {"c": "\\"]"}]}'
        )
        == 3
    )


def test_the_refusal_speaks_the_readers_language(client):
    response = _post(client, "/api/chronicles?lang=fr", {"name": "\x00", "system": "v20"})
    assert "caractère" in response.json()["detail"]


def test_the_nesting_count_is_linear_on_hostile_bodies():
    """An unterminated string full of escaped quotes once made the count quadratic (hours for 1 MiB)."""
    import time

    for raw in (b'"' + b'\\"' * (hygiene.MAX_BODY // 2), b'"' * hygiene.MAX_BODY, b"[" * hygiene.MAX_BODY):
        started = time.monotonic()
        hygiene.json_depth(raw)
        assert time.monotonic() - started < 5


_TEXT = st.text(st.characters(codec=None) | st.sampled_from(BAD), max_size=6)  # BAD: lone surrogates too
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=8,
)


def _refused(raw: bytes) -> bool:
    try:
        hygiene.check_body("application/json", raw)
    except hygiene.Refused as refused:
        assert refused.code == "text_not_allowed"
        return True
    return False


@settings(max_examples=300, deadline=None)
@given(value=_JSON)
def test_a_body_is_refused_exactly_when_one_of_its_texts_is_bad_raw_or_escaped(value):
    """Whether text travels escaped (``\\u0085``) or raw in UTF-8 (DEL and the C1 controls may, in a
    JSON string), and whatever path the check takes (a body without escapes is checked on its raw
    text), the verdict is the parsed texts' own."""
    expected = any(hygiene.bad_text(text) for _, text in hygiene.strings_of(value))
    assert _refused(json.dumps(value, ensure_ascii=True).encode("ascii")) == expected
    raw = json.dumps(value, ensure_ascii=False)
    if not any("\ud800" <= char <= "\udfff" for char in raw):  # a lone surrogate is not UTF-8
        assert _refused(raw.encode("utf-8")) == expected


@pytest.mark.parametrize("bad", ["\x7f", "\x85", "\x9f"], ids=lambda c: f"U+{ord(c):04X}")
def test_a_bad_character_sent_raw_in_utf8_is_refused(client, bad):
    body = f'{{"name": "Night{bad}fall", "system": "v20"}}'.encode()
    assert b"\\" not in body
    response = client.post("/api/chronicles", content=body, headers={"content-type": "application/json"})
    problem(response, 422, "text_not_allowed")
    assert response.json()["params"]["field"] == "name"
