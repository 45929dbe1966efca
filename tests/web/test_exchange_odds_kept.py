"""A Tiers exchange card's expected odds are worked out once per distinct exchange in a process
(``present.exchange.odds_once``), not on every render: every page of every member in every language shows
the same cards, and each Tiers exchange is some 25 ms of exact arithmetic. The numbers shown are the
odds of that exchange; another exchange gets its own."""

from __future__ import annotations

import re

from rollbook.present.exchange import ODDS_KEPT, odds_once
from rollbook.present.preview import percent
from rollbook.systems.tiers import odds_exchange as exchange_tiers
from rollbook.systems.tiers.rules import TiersRequest

from .helpers import bearer
from .helpers import text_of as text

HTMX = {"HX-Request": "true"}
SHOOTER = {
    "name": "Ana",
    "skills": {"firearms": 6},
    "weapons": [{"name": "pistol", "bonus": 2, "capacity": 6}],
}
TARGET = {"name": "Rook", "skills": {"dodge": 4}, "endurance": 3, "armor": {"torso": 2}}


def _counted(monkeypatch) -> list[tuple]:
    calls: list[tuple] = []
    real = exchange_tiers.exchange_odds

    def counting(shot, defender):
        calls.append((shot, defender))
        return real(shot, defender)

    monkeypatch.setattr(exchange_tiers, "exchange_odds", counting)
    return calls


def _exchange(client, dice, armor: int) -> tuple[str, dict]:
    """A Tiers chronicle where Ana shoots Rook, who dodges (and fails) and soaks: the whole exchange."""
    created = client.post("/api/chronicles", json={"name": "Kept", "system": "tiers"}).json()
    heads = {
        "st": bearer(created["token"]),
        "alice": bearer(
            client.post("/api/join", json={"invitation": created["invitation"], "name": "Alice"}).json()[
                "token"
            ]
        ),
    }
    base = f"/api/chronicles/{created['chronicle']['id']}/characters"
    ana = client.post(base, headers=heads["alice"], json={"name": "Ana", "sheet": SHOOTER}).json()["id"]
    rook = client.post(
        base, headers=heads["st"], json={"name": "Rook", "sheet": {**TARGET, "armor": {"torso": armor}}}
    ).json()["id"]
    page = f"/chronicles/{created['chronicle']['id']}"
    dice.faces += [6]
    shot = client.post(
        f"{page}/characters/{ana}/rolls",
        headers={**heads["alice"], **HTMX},
        data={"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": "2", "target": rook},
    )
    assert shot.status_code == 200, shot.text
    seq = int(re.search(r"/entries/(\d+)/follow", client.get(page, headers=heads["st"]).text)[1])
    dice.faces += [1, 3]
    assert (
        client.post(
            f"{page}/entries/{seq}/follow",
            headers={**heads["st"], **HTMX},
            data={"kind": "dodge", "character": rook},
        ).status_code
        == 200
    )
    dice.faces += [4]
    assert (
        client.post(
            f"{page}/entries/{seq + 1}/follow",
            headers={**heads["st"], **HTMX},
            data={"kind": "soak", "character": rook, "location": "torso"},
        ).status_code
        == 200
    )
    return page, heads


def test_a_tiers_exchange_is_worked_out_once_for_every_page_role_and_language(
    given_client, given_dice, monkeypatch
):
    calls = _counted(monkeypatch)
    page, heads = _exchange(given_client, given_dice, armor=2)
    shown = set()
    for who in ("st", "alice"):
        for lang in ("en", "fr", "es"):
            html = given_client.get(f"{page}?lang={lang}", headers=heads[who]).text
            if "%" in text(html):
                shown.add(lang)
    assert len(calls) == 1, f"worked out {len(calls)} times for 6 renders of one exchange"
    assert shown == {"en", "fr", "es"}
    shot, defender = calls[0]
    expected = exchange_tiers.exchange_odds(shot, defender)
    assert f"hit {percent(expected.hit, 'en')}" in text(
        given_client.get(f"{page}?lang=en", headers=heads["alice"]).text
    )
    assert len(calls) == 2  # the check's own call above; the page still asked nothing more


def test_another_exchange_gets_its_own_odds(given_client, given_dice, monkeypatch):
    calls = _counted(monkeypatch)
    first, heads = _exchange(given_client, given_dice, armor=2)
    given_client.get(first, headers=heads["st"])
    second, heads2 = _exchange(given_client, given_dice, armor=5)
    given_client.get(second, headers=heads2["st"])
    assert [defender.armor for _, defender in calls] == [2, 5]
    assert all(isinstance(shot, TiersRequest) for shot, _ in calls)


def test_the_kept_odds_are_bounded():
    assert odds_once.cache_info().maxsize == ODDS_KEPT
