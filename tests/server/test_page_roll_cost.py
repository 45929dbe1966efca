"""A roll posted from a page costs what the API's roll costs, plus one read (docs/ARCHITECTURE.md,
"present/"; ``bench/inproc.py``'s ``web``): the member is found, the form resolved and the roll made
in the roll's one write, which sends the very statements of the API's roll of the same action with
an Idempotency-Key (the form's key); the answer (the new card, the sheet's resources) is drawn from
one read transaction. On both stores, for the sheet's test, power, Rouse and change forms, a card's
Willpower reroll (the API's reroll's statements) and the chronicle's quick roll."""

from __future__ import annotations

import secrets

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import close_app, create_app
from rollbook.server import tx
from tests.statements import transactions

from .conftest import V20_SHEET, V20_TEST

HTMX = {"HX-Request": "true", "Origin": "http://testserver"}
MESMERIZE = {"discipline": "dominate", "level": 2, "power": "mesmerize"}
V5_SHEET = {
    "name": "Rook",
    "attributes": {"dexterity": 3, "manipulation": 3},
    "skills": {"firearms": 3, "persuasion": 2},
    "disciplines": {"dominate": 2},
    "powers": [MESMERIZE],
    "hunger": 1,
    "willpower": {"max": 6, "superficial": 0, "aggravated": 0},  # a Willpower reroll each, V5-8
}
# (system, sheet, the form's fields, the API's action or change, the API's path under the character)
CASES = {
    "test": ("v20", V20_SHEET, V20_TEST, {"action": V20_TEST}, "rolls"),
    "power": (
        "v5",
        V5_SHEET,
        {"kind": "power", "power": "mesmerize"},  # the form names the power: its Discipline is the sheet's
        {"action": {"kind": "power", "discipline": "dominate", "power": "mesmerize"}},
        "rolls",
    ),
    "rouse": ("v5", V5_SHEET, {"kind": "rouse"}, {"action": {"kind": "rouse"}}, "rolls"),
    "change": (
        "v20",
        {**V20_SHEET, "willpower": {"permanent": 9, "current": 9}},
        {"change": "spend_willpower", "amount": "1"},
        {"change": {"kind": "spend_willpower", "amount": 1}},
        "adjustments",
    ),
}


class Sixes:
    """Every die a 6: the API's roll and the page's take the same path (no Hunger gained, no botch)."""

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


def statements(app, call) -> list[list[str]]:
    """The statements ``call()`` sent, by transaction (in the order they began), SQLite's ``BEGIN``
    kept: a page's write begins as the API's does."""
    return [[statement for statement, _ in sent] for sent in transactions(app, call)]


def _table(client, system: str, sheet: dict) -> tuple[str, dict[str, str], str]:
    made = client.post("/api/chronicles", json={"name": "Cost", "system": system, "difficulty": 6})
    assert made.status_code == 201, made.text
    chronicle = made.json()["chronicle"]["id"]
    joined = client.post("/api/join", json={"invitation": made.json()["invitation"], "name": "P"})
    token = joined.json()["token"]
    player = {"Authorization": f"Bearer {token}"}
    added = client.post(
        f"/api/chronicles/{chronicle}/characters",
        json={"name": sheet["name"], "sheet": sheet},
        headers=player,
    )
    assert added.status_code == 201, added.text
    client.cookies.set("rollbook_keys", f"{chronicle}.{token}")  # the page's keychain
    return f"/chronicles/{chronicle}", player, f"/chronicles/{chronicle}/characters/{added.json()['id']}"


def _page(client, path: str, form: dict):
    answer = client.post(path, data={**form, "idempotency_key": secrets.token_urlsafe(18)}, headers=HTMX)
    assert answer.status_code == 200, answer.text
    assert 'id="entry-' in answer.text  # the new card came back
    return answer


def _api(client, path: str, body: dict, player: dict[str, str]):
    answer = client.post(
        f"/api{path}", json=body, headers={**player, "Idempotency-Key": secrets.token_urlsafe(16)}
    )
    assert answer.status_code == 201, answer.text
    return answer


def _is_read(statements: list[str]) -> bool:
    return all(s.lstrip().upper().startswith(("BEGIN", "SELECT", "WITH")) for s in statements)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_page_roll_sends_the_api_rolls_statements_and_one_read(quiet, case):
    app, client = quiet
    system, sheet, form, body, what = CASES[case]
    _chronicle, player, character = _table(client, system, sheet)
    path = f"{character}/{what}"
    _page(client, path, form)  # the chronicle's public seed committed, the first statements prepared
    _api(client, path, body, player)

    api = statements(app, lambda: _api(client, path, body, player))
    page = statements(app, lambda: _page(client, path, form))

    assert len(api) == 1, api
    assert len(page) == 2, page  # the write, then the answer's one read
    write, read = page
    assert write == api[0], "\n".join(write)  # no statement more than the API's roll (none to read the form)
    assert _is_read(read), "\n".join(read)


def test_a_quick_roll_from_the_chronicle_page_is_one_write_and_one_read(quiet):
    app, client = quiet
    chronicle, _player, _character = _table(client, "v20", V20_SHEET)
    _page(client, f"{chronicle}/quick", {"pool": "5", "difficulty": "6"})
    page = statements(app, lambda: _page(client, f"{chronicle}/quick", {"pool": "5", "difficulty": "6"}))
    assert len(page) == 2, page
    write, read = page
    assert not _is_read(write), "\n".join(write)  # the roll logged
    assert _is_read(read), "\n".join(read)


def test_a_willpower_reroll_from_a_card_sends_the_api_rerolls_statements_and_one_read(quiet):
    """V5-8: the card's reroll (no form key) against the API's reroll without an Idempotency-Key."""
    app, client = quiet
    chronicle, player, character = _table(client, "v5", V5_SHEET)
    test = {"action": {"kind": "test", "attribute": "dexterity", "skill": "firearms"}}
    seqs = [_api(client, f"{character}/rolls", test, player).json()["entry"]["seq"] for _ in range(4)]
    chosen = {"action": {"kind": "reroll", "dice": [0, 1]}}

    def api(seq: int):
        answer = client.post(f"/api{chronicle}/log/{seq}/rerolls", json=chosen, headers=player)
        assert answer.status_code == 201, answer.text

    def page(seq: int):
        answer = client.post(f"{chronicle}/entries/{seq}/reroll", data={"dice": ["0", "1"]}, headers=HTMX)
        assert answer.status_code == 200, answer.text
        assert 'id="entry-' in answer.text  # the new card came back

    api(seqs[0])  # the first of each way: nothing measured
    page(seqs[1])
    by_api = statements(app, lambda: api(seqs[2]))
    by_page = statements(app, lambda: page(seqs[3]))
    assert len(by_api) == 1, by_api
    assert len(by_page) == 2, by_page
    write, read = by_page
    assert write == by_api[0], "\n".join(write)
    assert _is_read(read), "\n".join(read)
