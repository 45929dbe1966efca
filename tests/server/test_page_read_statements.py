"""A page reads each row it needs once, in its one read (docs/ARCHITECTURE.md, "present/";
``bench/inproc.py``'s ``web`` and ``page``): the answer to a roll posted from the sheet page is the
API roll's statements plus one read, in which no statement is sent twice (the chronicle, the
character, the open scene and the standing grants were each read two or three times: 17 statements
where 11 are needed). The sheet page and the table page are one read each, their reader found in it
(its token, then the chronicle's row, read once for its language and everything the page draws),
each row read once; so are the parts of them a live entry redraws and the roll form's tab. Every
GET page of the web face (drawn from the pages' routes, ``web.page_routers``: a new one with no
request here fails) is one transaction, its reader found in it, in which no statement is sent twice,
as the Storyteller and as a player; the Storyteller's queue reads its asks' characters with them (as
many statements for 5 pending asks as for 1). Statements are counted without ``BEGIN`` (SQLite's is
sent by the engine's hook, PostgreSQL's by the driver), on both stores."""

from __future__ import annotations

import secrets

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import close_app, create_app
from rollbook.server import tx
from tests.statements import sent

from .conftest import V5_SHEET, V5_TEST, V20_SHEET, V20_TEST

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


# --- every GET page of the web face, drawn from the app's routes -------------------------------------

# Every GET route of the pages (``rollbook.web.page_routers``), the requests that draw it: a path's
# ``{…}`` filled from the world below (``world``), with the query a page needs; ``htmx``: asked as htmx
# asks it (a fragment). A new GET page with no line here fails ``test_every_get_page_is_measured``.
PAGE_REQUESTS: dict[str, list[tuple[str, bool]]] = {
    "/": [("/", False)],
    "/join": [("/join", False)],
    "/join/{invitation}": [("/join/{invitation}", False)],
    "/solo": [("/solo", False)],
    "/solo/{chronicle_id}": [("/solo/{solo}", False)],
    "/chronicles/{chronicle_id}": [("{c}", False)],
    "/chronicles/{chronicle_id}/parts/{part}": [
        ("{c}/parts/chronicle-tags", True),
        ("{c}/parts/quick-panel", True),
        ("{c}/parts/fair", True),
    ],
    "/chronicles/{chronicle_id}/people": [("{c}/people", True)],
    "/chronicles/{chronicle_id}/night": [("{c}/night", False)],
    "/chronicles/{chronicle_id}/log.jsonl": [("{c}/log.jsonl", False)],
    "/chronicles/{chronicle_id}/import": [("{c}/import", False)],
    "/chronicles/{chronicle_id}/fair/stats": [("{c}/fair/stats", True)],
    "/chronicles/{chronicle_id}/entries/{seq}": [("{c}/entries/{seq}", False)],
    "/chronicles/{chronicle_id}/entries/{seq}/advice": [("{v5}/entries/{v5seq}/advice?goal=win", True)],
    "/chronicles/{chronicle_id}/characters/new": [("{c}/characters/new", False)],
    "/chronicles/{chronicle_id}/characters/{character_id}": [
        ("{sheet}", False),
        ("{sheet}?kind=test", False),
    ],
    "/chronicles/{chronicle_id}/characters/{character_id}/roll-form": [("{sheet}/roll-form?kind=test", True)],
    "/chronicles/{chronicle_id}/characters/{character_id}/roll-form/redrawn": [
        ("{sheet}/roll-form/redrawn?kind=test", True)
    ],
    "/chronicles/{chronicle_id}/characters/{character_id}/change-form": [
        ("{sheet}/change-form?change=reload", True)
    ],
    "/chronicles/{chronicle_id}/characters/{character_id}/parts/{part}": [
        ("{sheet}/parts/sheet-tags", True),
        ("{sheet}/parts/compulsion", True),
        ("{sheet}/parts/traits", True),
        ("{sheet}/parts/limits", True),
        ("{sheet}/parts/turn-actions", True),
    ],
    "/chronicles/{chronicle_id}/characters/{character_id}/odds": [
        ("{sheet}/odds?kind=test&attribute=dexterity&ability=firearms", True),
        ("{sheet}/odds?kind=test&attribute=dexterity&ability=firearms&difficulty=5", True),
    ],
    "/chronicles/{chronicle_id}/characters/{character_id}/exchange-odds": [
        (
            "{sheet}/exchange-odds?kind=test&attribute=dexterity&ability=melee&target={target}&exchange_weapon=knife",
            True,
        )
    ],
    "/chronicles/{chronicle_id}/characters/{character_id}/saved": [("{sheet}/saved", True)],
    "/chronicles/{chronicle_id}/characters/{character_id}/print": [("{sheet}/print", False)],
    "/chronicles/{chronicle_id}/characters/{character_id}/export": [("{sheet}/export?format=wod20", False)],
}
# GET routes of the pages that draw no page: the live feed is a stream (one read per batch, shared by
# its viewers: ``test_feed_fanout``, ``test_live_shared_cards``).
NOT_PAGES = {"/chronicles/{chronicle_id}/live"}


def get_pages() -> set[str]:
    from rollbook.web import page_routers

    return {
        route.path
        for router in page_routers()
        for route in router.routes
        if "GET" in (getattr(route, "methods", None) or ())
    }


def test_every_get_page_is_measured():
    assert get_pages() - NOT_PAGES == set(PAGE_REQUESTS)


@pytest.fixture(scope="module")
def world(database_url):
    """Who reads (the Storyteller, a player: each a browser's keychain of a V20 chronicle with a feed,
    an ask waiting and a second character; a V5 chronicle with a roll; a solo chronicle) and what fills
    the pages' paths."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tx, "_sweep_due", lambda *_args: False)
        made = create_app(database_url, dice=Sixes)
        with TestClient(made) as client:
            yield made, client, _world(client)
        close_app(made)


def _chronicle(client, system: str, sheet: dict, action: dict) -> tuple[dict, dict, int, int]:
    """A chronicle of ``system``, its Storyteller's and a player's tokens, the player's character and
    the seq of its roll."""
    made = client.post("/api/chronicles", json={"name": "Pages", "system": system, "difficulty": 6})
    assert made.status_code == 201, made.text
    body = made.json()
    joined = client.post("/api/join", json={"invitation": body["invitation"], "name": "P"})
    assert joined.status_code == 201, joined.text
    tokens = {
        "storyteller": body["token"],
        "player": joined.json()["token"],
        "invitation": body["invitation"],
    }
    cid = body["chronicle"]["id"]
    player = {"Authorization": f"Bearer {tokens['player']}"}
    added = client.post(
        f"/api/chronicles/{cid}/characters", json={"name": "Pc", "sheet": sheet}, headers=player
    )
    assert added.status_code == 201, added.text
    rolled = client.post(
        f"/api/chronicles/{cid}/characters/{added.json()['id']}/rolls",
        json={"action": action},
        headers=player,
    )
    assert rolled.status_code == 201, rolled.text
    return tokens, {"c": cid}, added.json()["id"], rolled.json()["entry"]["seq"]


def _world(client) -> dict:
    tokens, fill, character, seq = _chronicle(client, "v20", V20_SHEET, V20_TEST)
    cid = fill["c"]
    st = {"Authorization": f"Bearer {tokens['storyteller']}"}
    player = {"Authorization": f"Bearer {tokens['player']}"}
    target = client.post(
        f"/api/chronicles/{cid}/characters",
        json={"name": "Ghoul", "sheet": {**V20_SHEET, "name": "Ghoul"}},
        headers=st,
    )
    assert target.status_code == 201, target.text
    base = f"/chronicles/{cid}/characters/{character}"
    for _ in range(2):  # a feed with cards in it
        _api_roll(client, base, player)
    asked = client.post(
        f"/api{base}/rolls", json={"action": {**V20_TEST, "difficulty": 5}, "ask": True}, headers=player
    )
    assert asked.status_code == 202, asked.text  # the Storyteller's queue holds an ask
    saved = client.post(
        f"/api/chronicles/{cid}/saved-rolls",
        json={"character": character, "name": "Shot", "action": V20_TEST},
        headers=player,
    )
    assert saved.status_code == 201, saved.text
    v5_tokens, v5, _v5_character, v5_seq = _chronicle(client, "v5", V5_SHEET, V5_TEST)
    solo = client.post("/api/solo", json={"scenario": "drowned-lantern"})
    assert solo.status_code == 201, solo.text
    keychain = {
        role: "~".join(
            f"{chronicle}.{token}"
            for chronicle, token in (
                (v5["c"], v5_tokens[role]),
                (solo.json()["chronicle"]["id"], solo.json()["token"]),
                (cid, tokens[role]),
            )
        )
        for role in ("storyteller", "player")
    }
    return {
        "keychain": keychain,
        "fill": {
            "c": f"/chronicles/{cid}",
            "sheet": base,
            "target": target.json()["id"],
            "seq": seq,
            "v5": f"/chronicles/{v5['c']}",
            "v5seq": v5_seq,
            "solo": solo.json()["chronicle"]["id"],
            "invitation": tokens["invitation"],
        },
    }


@pytest.mark.parametrize("role", ["storyteller", "player"])
@pytest.mark.parametrize("route", sorted(PAGE_REQUESTS))
def test_every_get_page_is_one_transaction_with_no_statement_sent_twice(world, route, role):
    app, client, found = world
    client.cookies.set("rollbook_keys", found["keychain"][role])
    for path, htmx in PAGE_REQUESTS[route]:
        path = path.format(**found["fill"])

        def load(path=path, htmx=htmx) -> None:
            answer = client.get(path, headers={"HX-Request": "true"} if htmx else {}, follow_redirects=False)
            assert answer.status_code == 200, (path, answer.status_code, answer.text[:2000])

        load()  # statements prepared, the first read of anything made
        began = sent(app, load)
        assert len(began) == 1, (path, ["\n".join(s for s, _ in b) for b in began])
        assert repeated(began[0]) == [], (path, "\n".join(s for s, _ in began[0]))


def _queue_of(client, asks: int) -> tuple[str, str]:
    """A V20 chronicle whose Storyteller's queue holds ``asks`` pending asks, each for a character of
    its own; the Storyteller's keychain set. (The table page, the last character's sheet page.)"""
    made = client.post("/api/chronicles", json={"name": "Queue", "system": "v20", "difficulty": 6})
    assert made.status_code == 201, made.text
    cid = made.json()["chronicle"]["id"]
    joined = client.post("/api/join", json={"invitation": made.json()["invitation"], "name": "P"})
    player = {"Authorization": f"Bearer {joined.json()['token']}"}
    for number in range(asks):
        added = client.post(
            f"/api/chronicles/{cid}/characters",
            json={"name": f"Pc {number}", "sheet": V20_SHEET},
            headers=player,
        )
        assert added.status_code == 201, added.text
        asked = client.post(
            f"/api/chronicles/{cid}/characters/{added.json()['id']}/rolls",
            json={"action": {**V20_TEST, "difficulty": 5}, "ask": True},
            headers=player,
        )
        assert asked.status_code == 202, asked.text
    client.cookies.set("rollbook_keys", f"{cid}.{made.json()['token']}")
    return f"/chronicles/{cid}", f"/chronicles/{cid}/characters/{added.json()['id']}"


def test_the_storytellers_queue_reads_its_asks_characters_in_one_statement(quiet):
    """The queue's odds need each ask's character: read with the asks (one statement), not one more
    statement per ask: the table page and the sheet page send as many statements with 5 pending asks
    (5 characters) as with 1."""
    app, client = quiet
    counts = {}
    for asks in (1, 5):
        pages = _queue_of(client, asks)
        for path in pages:
            assert client.get(path).status_code == 200
            answer: list = []
            (read,) = sent(app, lambda path=path, answer=answer: answer.append(client.get(path)))
            assert answer[0].status_code == 200 and answer[0].text.count('data-ask="') == asks
            counts[asks, path.count("/characters/")] = len(read)
    assert counts[1, 0] == counts[5, 0], counts  # the table page
    assert counts[1, 1] == counts[5, 1], counts  # the sheet page


# A character of each system (the pages of each system's sheet: its tabs and its changes).
SHEETS = {"v20": V20_SHEET, "v5": V5_SHEET, "tiers": {"name": "Ilse"}, "rollunder": {"name": "Rook"}}


@pytest.mark.parametrize("system", sorted(SHEETS))
def test_each_systems_sheet_page_and_tabs_are_one_read_with_no_statement_sent_twice(world, system):
    """The sheet page on each of its system's roll tabs and changes, each tab's and change's form
    (htmx), and the table page: as the Storyteller and as a player, one read in which no statement
    is sent twice."""
    from rollbook.present import forms

    app, client, _found = world
    made = client.post("/api/chronicles", json={"name": "Tabs", "system": system})
    assert made.status_code == 201, made.text
    cid = made.json()["chronicle"]["id"]
    joined = client.post("/api/join", json={"invitation": made.json()["invitation"], "name": "P"})
    tokens = {"storyteller": made.json()["token"], "player": joined.json()["token"]}
    added = client.post(
        f"/api/chronicles/{cid}/characters",
        json={"name": "Pc", "sheet": SHEETS[system]},
        headers={"Authorization": f"Bearer {tokens['player']}"},
    )
    assert added.status_code == 201, added.text
    sheet = f"/chronicles/{cid}/characters/{added.json()['id']}"
    for role, token in tokens.items():
        client.cookies.set("rollbook_keys", f"{cid}.{token}")
        kinds, changes = forms.action_kinds(system, role), forms.change_kinds(system, role)
        assert kinds, (system, role)
        requests = [(f"/chronicles/{cid}", False), (sheet, False)]
        requests += [(f"{sheet}?kind={kind}", False) for kind in kinds]
        requests += [(f"{sheet}/roll-form?kind={kind}", True) for kind in kinds]
        requests += [(f"{sheet}?change={change}", False) for change in changes]
        requests += [(f"{sheet}/change-form?change={change}", True) for change in changes]
        for path, htmx in requests:

            def load(path=path, htmx=htmx) -> None:
                answer = client.get(
                    path, headers={"HX-Request": "true"} if htmx else {}, follow_redirects=False
                )
                assert answer.status_code == 200, (path, answer.status_code, answer.text[:2000])

            load()
            began = sent(app, load)
            assert len(began) == 1, (role, path, ["\n".join(s for s, _ in b) for b in began])
            assert repeated(began[0]) == [], (role, path, "\n".join(s for s, _ in began[0]))
