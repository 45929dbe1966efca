"""The authorisation matrix: every operation of /openapi.json × the Storyteller, the player who owns
the character, another player, a member of another chronicle, a token that opens nobody, and no
token; on SQLite and PostgreSQL.

The operations come from the app's own OpenAPI document, so a new endpoint is in the matrix the day
it is added: with no token it must answer 401 (unless it is public), from another chronicle 403 or
404; and ``ALLOWED`` below, which names who gets past the door of every known operation, fails the
test until the new one is classified. "Gets past the door" means an answer other than 401, 403 or
404: a 409 or 422 is the rules speaking to someone who was let in.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import pytest

from .conftest import V20_SHEET, V20_TEST, bearer

ROLES = ("storyteller", "player", "other", "stranger", "forged", "anonymous")
DENIED = {401, 403, 404}
EVERYONE = set(ROLES)
MEMBERS = {"storyteller", "player", "other", "stranger"}
TABLE = {"storyteller", "player", "other"}
OWNER = {"storyteller", "player"}
ST = {"storyteller"}

# Who gets past the door, by operation (method and path as /openapi.json names them).
ALLOWED: dict[str, set[str]] = {
    "GET /api/health": EVERYONE,
    "GET /api/systems": EVERYONE,
    "POST /api/chronicles": EVERYONE,
    "POST /api/join": EVERYONE,
    "GET /problems/{code}": EVERYONE,
    "GET /api/me": MEMBERS,
    "POST /api/session": MEMBERS,
    "DELETE /api/session": MEMBERS,
    "GET /api/chronicles/{chronicle_id}": TABLE,
    "PATCH /api/chronicles/{chronicle_id}": ST,
    "PUT /api/chronicles/{chronicle_id}/table-rules": ST,
    "POST /api/chronicles/{chronicle_id}/contests": ST,
    "GET /api/chronicles/{chronicle_id}/contests/{contest_seq}": TABLE,
    "POST /api/chronicles/{chronicle_id}/contests/{contest_seq}/rolls": OWNER,
    "POST /api/chronicles/{chronicle_id}/extended": ST,
    "GET /api/chronicles/{chronicle_id}/extended/{extended_seq}": TABLE,
    "POST /api/chronicles/{chronicle_id}/extended/{extended_seq}/rolls": OWNER,
    "POST /api/chronicles/{chronicle_id}/invitation": ST,
    "GET /api/chronicles/{chronicle_id}/members": TABLE,
    "POST /api/chronicles/{chronicle_id}/members/me/key": TABLE,
    "DELETE /api/chronicles/{chronicle_id}/members/{member_id}": ST,
    "GET /api/chronicles/{chronicle_id}/characters": TABLE,
    "POST /api/chronicles/{chronicle_id}/characters": TABLE,
    "POST /api/chronicles/{chronicle_id}/characters/import": TABLE,
    "GET /api/chronicles/{chronicle_id}/characters/{character_id}/export": OWNER,
    "GET /api/chronicles/{chronicle_id}/characters/{character_id}": OWNER,
    "PATCH /api/chronicles/{chronicle_id}/characters/{character_id}": OWNER,
    "POST /api/chronicles/{chronicle_id}/characters/{character_id}/rolls": OWNER,
    "POST /api/chronicles/{chronicle_id}/characters/{character_id}/adjustments": OWNER,
    "POST /api/chronicles/{chronicle_id}/characters/{character_id}/actions": ST,
    "POST /api/chronicles/{chronicle_id}/characters/{character_id}/offers": OWNER,
    # saved rolls: each member's own list; a saved roll is its maker's alone (the player's here)
    "GET /api/chronicles/{chronicle_id}/saved-rolls": TABLE,
    "POST /api/chronicles/{chronicle_id}/saved-rolls": OWNER,
    "DELETE /api/chronicles/{chronicle_id}/saved-rolls/{saved_id}": {"player"},
    "POST /api/chronicles/{chronicle_id}/saved-rolls/{saved_id}/rolls": {"player"},
    # V5 at the table: a V20 table here, so past the door means the rules' 409/422
    "GET /api/chronicles/{chronicle_id}/characters/{character_id}/compulsion": TABLE,
    "POST /api/chronicles/{chronicle_id}/characters/{character_id}/compulsion": ST,
    "DELETE /api/chronicles/{chronicle_id}/characters/{character_id}/compulsion": ST,
    "POST /api/chronicles/{chronicle_id}/characters/{character_id}/hunger-frenzy": ST,
    "GET /api/chronicles/{chronicle_id}/log": TABLE,
    "GET /api/chronicles/{chronicle_id}/log/export": TABLE,
    "GET /api/chronicles/{chronicle_id}/log/{seq}": TABLE,
    "POST /api/chronicles/{chronicle_id}/log/{seq}/rerolls": OWNER,
    "POST /api/chronicles/{chronicle_id}/log/{seq}/reveal": ST,
    "GET /api/chronicles/{chronicle_id}/events": TABLE,
    "GET /api/chronicles/{chronicle_id}/asks": TABLE,
    "GET /api/chronicles/{chronicle_id}/asks/{ask_id}": OWNER,
    "POST /api/chronicles/{chronicle_id}/asks/{ask_id}/grant": ST,
    "POST /api/chronicles/{chronicle_id}/asks/{ask_id}/refuse": ST,
    "POST /api/chronicles/{chronicle_id}/asks/{ask_id}/withdraw": {"player"},
    "GET /api/chronicles/{chronicle_id}/standing-grants": TABLE,
    "POST /api/chronicles/{chronicle_id}/standing-grants": ST,
    "DELETE /api/chronicles/{chronicle_id}/standing-grants/{standing_id}": ST,
    "GET /api/chronicles/{chronicle_id}/scene": TABLE,
    "POST /api/chronicles/{chronicle_id}/scenes": ST,
    "POST /api/chronicles/{chronicle_id}/scene/turns": ST,
    "POST /api/chronicles/{chronicle_id}/scene/close": ST,
    "GET /api/chronicles/{chronicle_id}/fair": TABLE,
    "PUT /api/chronicles/{chronicle_id}/members/me/client-seed": TABLE,
    "POST /api/chronicles/{chronicle_id}/fair/rotate": ST,
    "POST /api/chronicles/{chronicle_id}/fair/abandon": ST,  # F-1: 409 seed_readable past the door
    "GET /api/chronicles/{chronicle_id}/odds/exchange": OWNER,  # attacker = target: 422 past the door
    "POST /api/chronicles/{chronicle_id}/odds/exchange": OWNER,
    "POST /api/chronicles/{chronicle_id}/characters/{character_id}/odds": OWNER,
    "GET /api/solo/scenarios": EVERYONE,
    "POST /api/solo": EVERYONE,
    "GET /api/chronicles/{chronicle_id}/solo": TABLE,  # past the door: 409, not a solo chronicle
    "POST /api/chronicles/{chronicle_id}/solo/act": {"player", "other"},  # a solo chronicle's player only
}

# A valid body for each operation that takes one (an invalid body would be refused before the door).
BODIES: dict[str, object] = {
    "POST /api/chronicles": {"name": "Matrix", "system": "v20"},
    "POST /api/join": "join",
    "PATCH /api/chronicles/{chronicle_id}": {"name": "Renamed"},
    "PUT /api/chronicles/{chronicle_id}/table-rules": {"table_rules": []},
    "POST /api/chronicles/{chronicle_id}/contests": "contest",
    "POST /api/chronicles/{chronicle_id}/contests/{contest_seq}/rolls": {"side": "attacker"},
    "POST /api/chronicles/{chronicle_id}/extended": "extended",
    "POST /api/chronicles/{chronicle_id}/characters": {"name": "New", "sheet": V20_SHEET},
    "POST /api/chronicles/{chronicle_id}/characters/import": {
        "source": {"name": "Imported", "type": "Vampire", "system": {"advantages": {}}}
    },
    "PATCH /api/chronicles/{chronicle_id}/characters/{character_id}": {"name": "Renamed"},
    "POST /api/chronicles/{chronicle_id}/characters/{character_id}/rolls": {"action": V20_TEST},
    "POST /api/chronicles/{chronicle_id}/characters/{character_id}/odds": {"action": V20_TEST},
    "POST /api/chronicles/{chronicle_id}/characters/{character_id}/adjustments": {
        "change": {"kind": "spend_willpower"}
    },
    "POST /api/chronicles/{chronicle_id}/characters/{character_id}/actions": {"actions": 2},
    "POST /api/chronicles/{chronicle_id}/characters/{character_id}/offers": {"action": V20_TEST},
    "POST /api/chronicles/{chronicle_id}/characters/{character_id}/compulsion": {},
    "POST /api/chronicles/{chronicle_id}/characters/{character_id}/hunger-frenzy": {"roll": 1},
    "POST /api/chronicles/{chronicle_id}/log/{seq}/rerolls": {"action": {}},
    "POST /api/chronicles/{chronicle_id}/asks/{ask_id}/grant": {},
    "POST /api/chronicles/{chronicle_id}/asks/{ask_id}/refuse": {"reason": "no"},
    "POST /api/chronicles/{chronicle_id}/standing-grants": {"edges": {"modifier": 1}},
    "POST /api/chronicles/{chronicle_id}/scenes": {"name": "Scene"},
    "PUT /api/chronicles/{chronicle_id}/members/me/client-seed": {"client_seed": "abc"},
    "POST /api/chronicles/{chronicle_id}/odds/exchange": "attack",
    "POST /api/solo": {"scenario": "drowned-lantern"},
    "POST /api/chronicles/{chronicle_id}/saved-rolls": "saved",
    "POST /api/chronicles/{chronicle_id}/solo/act": {"option": "choice:0"},
}
# Run first: it needs the ask still waiting (a grant decides it).
FIRST = ("POST /api/chronicles/{chronicle_id}/asks/{ask_id}/withdraw",)
# Run last, in this order: they change the caller's own tokens.
LAST = (
    "DELETE /api/chronicles/{chronicle_id}/saved-rolls/{saved_id}",  # after its repeat
    "DELETE /api/session",
    "POST /api/chronicles/{chronicle_id}/members/me/key",
)


@dataclass
class World:
    headers: dict[str, dict[str, str]]
    params: dict[str, object]
    invitation: str


def _world(client, make_table) -> World:
    table = make_table("v20")
    player, other, victim = table.join("Player"), table.join("Other"), table.join("Victim")
    stranger = make_table("v20")
    character = table.character(player, V20_SHEET)
    rolled = table.roll(player, character["id"], V20_TEST)
    assert rolled.status_code == 201, rolled.text
    asked = table.roll(player, character["id"], {**V20_TEST, "difficulty": 8}, ask=True)
    assert asked.status_code == 202, asked.text
    standing = client.post(f"{table.base}/standing-grants", headers=table.st, json={"edges": {"modifier": 1}})
    assert standing.status_code == 201, standing.text
    victim_id = client.get("/api/me", headers=victim).json()["member"]["id"]
    npc = table.character(table.st, {**V20_SHEET, "name": "Rival"})
    contest = client.post(
        f"{table.base}/contests", headers=table.st, json=_contest_body(character["id"], npc["id"])
    )
    assert contest.status_code == 201, contest.text
    extended = client.post(f"{table.base}/extended", headers=table.st, json=_extended_body(character["id"]))
    assert extended.status_code == 201, extended.text
    saved = client.post(f"{table.base}/saved-rolls", headers=player, json=_saved_body(character["id"]))
    assert saved.status_code == 201, saved.text
    return World(
        headers={
            "storyteller": table.st,
            "player": player,
            "other": other,
            "stranger": stranger.st,
            "forged": bearer(secrets.token_urlsafe(32)),
            "anonymous": {},
        },
        params={
            "chronicle_id": table.id,
            "character_id": character["id"],
            "seq": rolled.json()["entry"]["seq"],
            "ask_id": asked.json()["ask"]["id"],
            "member_id": victim_id,
            "standing_id": standing.json()["standing"]["id"],
            "code": "busy",
            "contest_seq": contest.json()["contest"]["seq"],
            "extended_seq": extended.json()["extended"]["seq"],
            "npc": npc["id"],
            "saved_id": saved.json()["id"],
        },
        invitation=table.invitation,
    )


def _contest_body(attacker: int, defender: int) -> dict:
    return {
        "attacker": {"character": attacker, "action": V20_TEST},
        "defender": {"character": defender, "action": V20_TEST},
    }


def _saved_body(character: int) -> dict:
    return {"character": character, "name": f"Shoot {secrets.token_hex(2)}", "action": V20_TEST}


def _extended_body(character: int) -> dict:
    return {"character": character, "action": V20_TEST, "target": 50, "max_rolls": 10}


def operations(app) -> list[tuple[str, str]]:
    found = [
        (method.upper(), path)
        for path, ops in app.openapi()["paths"].items()
        for method in ops
        if method in ("get", "post", "put", "patch", "delete")
    ]

    def order(op: tuple[str, str]) -> tuple[int, int]:
        name = f"{op[0]} {op[1]}"
        if name in FIRST:
            return 0, FIRST.index(name)
        if name in LAST:
            return 2, LAST.index(name)
        return 1, 0

    return sorted(found, key=order)


def _call(client, world: World, role: str, method: str, path: str):
    name = f"{method} {path}"
    url = path.format(**world.params)
    body = BODIES.get(name)
    if body == "join":
        body = {"invitation": world.invitation, "name": f"Joiner {secrets.token_hex(2)}"}
    pair = {"attacker": world.params["character_id"], "target": world.params["character_id"]}
    if body == "attack":
        body = pair
    if body == "contest":
        body = _contest_body(world.params["character_id"], world.params["npc"])
    if body == "extended":
        body = _extended_body(world.params["character_id"])
    if body == "saved":
        body = _saved_body(world.params["character_id"])
    headers = dict(world.headers[role])
    query = {"idle_timeout": 0.2} if path.endswith("/events") else None
    if path.endswith("/odds/exchange") and method == "GET":
        query = pair
    return client.request(method, url, headers=headers, params=query, json=body if body is not None else None)


@pytest.mark.parametrize("role", ROLES)
def test_the_authorization_matrix(app, client, make_table, role):
    world = _world(client, make_table)
    wrong: list[str] = []
    for method, path in operations(app):
        name = f"{method} {path}"
        response = _call(client, world, role, method, path)
        status = response.status_code
        if status >= 500:
            wrong.append(f"{name} as {role}: {status} {response.text[:200]}")
            continue
        if response.headers.get("content-type", "").startswith("application/json") is False and status >= 400:
            if not response.headers.get("content-type", "").startswith("application/problem+json"):
                wrong.append(f"{name} as {role}: a {status} that is not problem+json")
        allowed = ALLOWED.get(name)
        if allowed is None:  # a new operation: the generic rules hold until it is classified
            if role == "anonymous" and status != 401:
                wrong.append(f"{name} (unclassified) as anonymous: {status}, not 401")
            elif role == "stranger" and status not in (403, 404):
                wrong.append(f"{name} (unclassified) as another chronicle's member: {status}")
            else:
                wrong.append(f"{name}: add it to ALLOWED in tests/server/test_authorization.py")
            continue
        passed = status not in DENIED
        if passed != (role in allowed):
            wrong.append(f"{name} as {role}: {status} {response.text[:160]}")
        elif not passed and role == "anonymous" and status != 401:
            wrong.append(f"{name} as anonymous: {status}, not 401")
        elif (
            not passed
            and role == "forged"
            and (status, response.json().get("code")) != (401, "token_invalid")
        ):
            # the endpoint checks the token first thing, in its own thread (api.Caller): before any 404
            wrong.append(f"{name} with a token that opens nobody: {status} {response.json().get('code')}")
        elif not passed and role == "stranger" and response.json().get("code") != "wrong_chronicle":
            wrong.append(f"{name} as another chronicle's member: {response.json().get('code')}")
    assert not wrong, "\n".join(wrong)
