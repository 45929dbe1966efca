"""A page reads each row it needs once, in its one read (docs/ARCHITECTURE.md, "present/";
``bench/inproc.py``'s ``web`` and ``page``): the answer to a roll posted from the sheet page is the
API roll's statements plus one read, in which no statement is sent twice (the chronicle, the
character, the open scene and the standing grants were each read two or three times: 17 statements
where 11 are needed). The sheet page and the table page are one read each, their reader found in it
(its token, then the chronicle's row, read once for its language and everything the page draws),
each row read once; so are the parts of them a live entry redraws and the roll form's tab.
Statements are counted without ``BEGIN`` (SQLite's is sent by the engine's hook,
PostgreSQL's by the driver), on both stores."""

from __future__ import annotations

import secrets

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from rollbook.app.app import close_app, create_app
from rollbook.server import tx

from .conftest import V20_SHEET, V20_TEST

HTMX = {"HX-Request": "true", "Origin": "http://testserver"}
# The answer's one read: the chronicle and its log's head, the members, the characters, the new
# card's follow-ups (two) and the revealed seeds, the sheet's last roll, the open scene, the standing
# grants in force, the asks waiting.
ANSWER_READ = 11
# The pages' one read: the reader's token, the chronicle and its log's head, the members, the
# characters, the feed's entries, their follow-ups (two), the revealed seeds; the sheet page's the
# sheet's last roll, the open scene, the standing grants, the asks; the table page's the scene, the
# grants, the asks, who is online, the quick roll, the fair dice (the two seeds in use, the client seed).
SHEET_PAGE = 13
TABLE_PAGE = 17


class Sixes:
    """Every die a 6: each roll takes the same path."""

    name = "sixes"

    def draw(self, n: int, sides: int) -> tuple[int, ...]:
        return (min(6, sides),) * n


@pytest.fixture
def quiet(fresh_url, monkeypatch):
    """An app of its own, no feed open, no sweep of old keys: nothing else sends statements."""
    monkeypatch.setattr(tx, "_sweep_due", lambda *_args: False)
    made = create_app(fresh_url, dice=Sixes)
    with TestClient(made) as test_client:
        yield made, test_client
    close_app(made)


def sent(app, call) -> list[list[tuple[str, str]]]:
    """The statements ``call()`` sent (each with its parameters), by transaction, ``BEGIN`` left out."""
    begun: list[list[tuple[str, str]]] = []

    def began(_connection) -> None:  # SQLite's BEGIN is sent before this hears it: left out below
        begun.append([])

    def executed(_connection, _cursor, statement, parameters, *_rest) -> None:
        if not statement.lstrip().upper().startswith("BEGIN"):
            begun[-1].append((statement, repr(parameters)))

    engine = app.state.db.engine
    event.listen(engine, "begin", began)
    event.listen(engine, "before_cursor_execute", executed)
    try:
        call()
    finally:
        event.remove(engine, "before_cursor_execute", executed)
        event.remove(engine, "begin", began)
    return begun


def repeated(statements: list[tuple[str, str]]) -> list[str]:
    """The statements sent more than once with the same parameters (a row read twice)."""
    return sorted({s for s, p in statements if statements.count((s, p)) > 1})


@pytest.fixture
def table(quiet):
    app, client = quiet
    made = client.post("/api/chronicles", json={"name": "Reads", "system": "v20", "difficulty": 6})
    assert made.status_code == 201, made.text
    chronicle = made.json()["chronicle"]["id"]
    joined = client.post("/api/join", json={"invitation": made.json()["invitation"], "name": "P"})
    player = {"Authorization": f"Bearer {joined.json()['token']}"}
    added = client.post(
        f"/api/chronicles/{chronicle}/characters", json={"name": "Lucita", "sheet": V20_SHEET}, headers=player
    )
    assert added.status_code == 201, added.text
    client.cookies.set("rollbook_keys", f"{chronicle}.{joined.json()['token']}")  # the page's keychain
    character = f"/chronicles/{chronicle}/characters/{added.json()['id']}"
    return app, client, player, f"/chronicles/{chronicle}", character


def _web_roll(client, character: str) -> None:
    answer = client.post(
        f"{character}/rolls", data={**V20_TEST, "idempotency_key": secrets.token_urlsafe(18)}, headers=HTMX
    )
    assert answer.status_code == 200, answer.text
    assert 'id="entry-' in answer.text  # the new card came back


def _api_roll(client, character: str, player: dict[str, str]) -> None:
    answer = client.post(
        f"/api{character}/rolls",
        json={"action": V20_TEST},
        headers={**player, "Idempotency-Key": secrets.token_urlsafe(16)},
    )
    assert answer.status_code == 201, answer.text


def test_a_web_roll_costs_the_api_rolls_statements_plus_one_read_of_each_row_once(table):
    app, client, player, _chronicle, character = table
    for _ in range(2):  # the first statements prepared, the public seed committed
        _web_roll(client, character)
        _api_roll(client, character, player)
    api = sent(app, lambda: _api_roll(client, character, player))
    web = sent(app, lambda: _web_roll(client, character))
    assert len(api) == 1 and len(web) == 2, (api, web)  # the roll's write; the page's: its write, one read
    write, read = web
    assert len(write) == len(api[0])
    assert repeated(read) == [], "\n".join(s for s, _ in read)
    assert len(read) <= ANSWER_READ, "\n".join(s for s, _ in read)
    assert len(write) + len(read) <= len(api[0]) + ANSWER_READ


# What a page or a part of it draws (its path under the chronicle's, or under the character's when it
# starts with "characters/"), and its budget of statements (without ``BEGIN``) in its one read.
PAGES = {
    "sheet": ("characters/", SHEET_PAGE),
    "table": ("", TABLE_PAGE),
    # the parts a live entry redraws (``web.redraws``), the roll form of a tab, redrawn when a grant
    # changes: the same reads without the feed's (the fair dice's part: the quick roll's and the
    # panels' too)
    "chronicle part": ("parts/fair", 14),
    "sheet part": ("characters/parts/traits", 9),
    "roll form": ("characters/roll-form?kind=test", 9),
    "roll form redrawn": ("characters/roll-form/redrawn?kind=test", 8),
    "one receipt": ("entries/2", 10),  # its follow-ups: a reveal's, a reroll's and the steps taken
}


@pytest.mark.parametrize("which", sorted(PAGES))
def test_a_page_reads_each_row_once(table, which):
    app, client, player, chronicle, character = table
    path, budget = PAGES[which]
    if path.startswith("characters/"):
        path = character + path.removeprefix("characters")
    else:
        path = f"{chronicle}/{path}" if path else chronicle
    for _ in range(3):  # a feed with cards in it
        _web_roll(client, character)
        _api_roll(client, character, player)

    def load() -> None:
        answer = client.get(
            path, headers={"HX-Request": "true"} if "/parts/" in path or "form" in path else {}
        )
        assert answer.status_code == 200, answer.text
        assert which not in ("sheet", "table") or 'id="entry-' in answer.text  # the feed's cards drawn

    load()
    reads = sent(app, load)
    assert len(reads) == 1, "\n\n".join("\n".join(s for s, _ in r) for r in reads)  # no read of its own
    (page_read,) = reads
    assert repeated(page_read) == [], "\n".join(s for s, _ in page_read)
    assert len(page_read) <= budget, "\n".join(s for s, _ in page_read)
