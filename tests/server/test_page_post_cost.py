"""Every change posted from the web pages costs its write plus at most one read (docs/ARCHITECTURE.md,
"web/"; bench/README.md, "Every POST of the pages"): the reader is found first thing in the write
(as the API's signed writes find theirs, never in a read before it), the write sends its own
statements, then the answer (a fragment, a page, or a redirect's nothing) is drawn from one read
transaction; no statement is sent twice in either. Every POST route of the web face (drawn from the
pages' routes, ``web.page_routers``: a new one with no case here fails) is posted as the Storyteller
and as a player where both may post it, as htmx posts it, on both stores. Where the API has the same
operation, the page's write sends the API's statements, in the same order."""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import close_app, create_app
from rollbook.server import tx
from tests.statements import sent

from .conftest import V5_TEST, V20_TEST

HTMX = {"HX-Request": "true", "Origin": "http://testserver"}
ORIGIN = {"Origin": "http://testserver"}
ROLES = ("storyteller", "player")
NIA = {
    "name": "Nia",
    "attributes": {"strength": 3, "dexterity": 3, "wits": 2},
    "talents": {"alertness": 2},
    "skills": {"firearms": 2, "melee": 2},
    "virtues": {"courage": 3},
    "willpower": {"permanent": 5, "current": 5},
    "weapons": [{"name": "knife", "damage": 1, "damage_type": "lethal"}],
}
BRAN = {"name": "Bran", "attributes": {"stamina": 2, "dexterity": 2}, "skills": {"firearms": 1}}
ROOK = {
    "name": "Rook",
    "clan": "Brujah",
    "attributes": {"dexterity": 3, "wits": 2},
    "skills": {"firearms": 3},
    "hunger": 1,
    "willpower": {"max": 6, "superficial": 0, "aggravated": 0},
}


class Sixes:
    """Every die a 6: each roll succeeds (an attack hits: its damage step is offered)."""

    name = "sixes"

    def draw(self, n: int, sides: int) -> tuple[int, ...]:
        return (min(6, sides),) * n


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def served(database_url):
    """An app of its own, no sweep of old keys: nothing else sends statements."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tx, "_sweep_due", lambda *_args: False)
        made = create_app(database_url, dice=Sixes)
        with TestClient(made) as client:
            yield made, client
        close_app(made)


def repeated(statements: list[tuple[str, str]]) -> list[str]:
    """The statements sent more than once with the same parameters (a row read twice)."""
    return sorted({s for s, p in statements if statements.count((s, p)) > 1})


def is_read(statements: list[tuple[str, str]]) -> bool:
    return all(s.lstrip().upper().startswith(("SELECT", "WITH")) for s, _ in statements)


@dataclass
class World:
    """A V20 chronicle at play (a player's character and the Storyteller's, a roll, an attack whose
    damage step is offered, a hidden roll, an ask waiting, a standing grant, a contest, an extended
    action, a saved roll), a V5 one (a roll to reroll) and what fills the posts."""

    client: TestClient
    tokens: dict[str, str]
    v5_tokens: dict[str, str]
    ids: dict[str, int | str] = field(default_factory=dict)

    def api(self, method: str, path: str, role: str = "storyteller", **body) -> dict:
        tokens = self.v5_tokens if path.startswith("/api/v5/") else self.tokens
        path = path.replace("/api/v5/", "/api/")
        answer = self.client.request(
            method, path, headers=bearer(tokens[role]), json=None if method == "GET" else body
        )
        assert answer.status_code in (200, 201, 202), (path, answer.text)
        return answer.json()


def _chronicle(client, system: str) -> tuple[dict, dict[str, str], int]:
    made = client.post("/api/chronicles", json={"name": "Posts", "system": system, "difficulty": 6})
    assert made.status_code == 201, made.text
    joined = client.post("/api/join", json={"invitation": made.json()["invitation"], "name": "P"})
    assert joined.status_code == 201, joined.text
    tokens = {
        "storyteller": made.json()["token"],
        "player": joined.json()["token"],
        "invitation": made.json()["invitation"],
    }
    return made.json(), tokens, made.json()["chronicle"]["id"]


def make_world(client) -> World:
    _made, tokens, cid = _chronicle(client, "v20")
    _v5, v5_tokens, v5_cid = _chronicle(client, "v5")
    w = World(client, tokens, v5_tokens, {"c": cid, "v5c": v5_cid})
    base = f"/api/chronicles/{cid}"
    nia = w.api("POST", f"{base}/characters", "player", name="Nia", sheet=NIA)["id"]
    bran = w.api("POST", f"{base}/characters", name="Bran", sheet=BRAN)["id"]
    w.ids.update(nia=nia, bran=bran)
    w.ids["seq"] = w.api("POST", f"{base}/characters/{nia}/rolls", "player", action=V20_TEST)["entry"]["seq"]
    attack = {"kind": "test", "attribute": "dexterity", "ability": "melee"}
    w.ids["attack"] = w.api("POST", f"{base}/characters/{nia}/rolls", "player", action=attack, target=bran)[
        "entry"
    ]["seq"]
    w.ids["hidden"] = w.api("POST", f"{base}/characters/{bran}/rolls", action=V20_TEST, hidden=True)["entry"][
        "seq"
    ]
    w.ids["ask"] = w.api(
        "POST", f"{base}/characters/{nia}/rolls", "player", action={**V20_TEST, "difficulty": 5}, ask=True
    )["ask"]["id"]
    w.ids["standing"] = w.api("POST", f"{base}/standing-grants", edges={"modifier": 1})["standing"]["id"]
    sides = {"character": nia, "action": V20_TEST}
    w.ids["contest"] = w.api(
        "POST", f"{base}/contests", attacker=sides, defender={"character": bran, "action": V20_TEST}
    )["contest"]["seq"]
    w.ids["extended"] = w.api(
        "POST", f"{base}/extended", character=nia, action=V20_TEST, target=50, max_rolls=10
    )["extended"]["seq"]
    w.ids["saved"] = w.api(
        "POST", f"{base}/saved-rolls", "player", character=nia, name="Shot", action=V20_TEST
    )["id"]
    w.ids["member"] = w.api("GET", "/api/me", "player")["member"]["id"]
    v5_base = f"/api/v5/chronicles/{v5_cid}"
    rook = w.api("POST", f"{v5_base}/characters", "player", name="Rook", sheet=ROOK)["id"]
    w.ids["rook"] = rook
    w.ids["v5seq"] = w.api("POST", f"{v5_base}/characters/{rook}/rolls", "player", action=V5_TEST)["entry"][
        "seq"
    ]
    return w


def key() -> dict[str, str]:
    return {"idempotency_key": secrets.token_urlsafe(18)}


# A post: (path, its form, the answer's status, the chronicle whose keychain signs it: "c" or "v5c").
Post = tuple[str, dict, int, str]
# Every POST route of the pages -> (who may post it, the post made in a fresh world, as that role).
CASES: dict[str, tuple[tuple[str, ...], Callable[[World, str], Post]]] = {}


def case(route: str, roles: tuple[str, ...] = ROLES):
    def register(make: Callable[[World, str], Post]) -> Callable[[World, str], Post]:
        CASES[route] = (roles, make)
        return make

    return register


C = "/chronicles/{chronicle_id}"
SHEET = C + "/characters/{character_id}"


@case("/chronicles")
def _create(w: World, _role: str) -> Post:
    return "/chronicles", {"name": "New", "system": "v20", "difficulty": "6"}, 303, "c"


@case("/join")
def _join(w: World, _role: str) -> Post:
    return "/join", {"invitation": w.tokens["invitation"], "name": "Newcomer"}, 303, "c"


@case("/signin")
def _signin(w: World, role: str) -> Post:
    return "/signin", {"token": w.tokens[role]}, 303, "c"


@case("/signout")
def _signout(w: World, _role: str) -> Post:
    return "/signout", {}, 303, "c"


@case(C + "/signout")
def _signout_of(w: World, _role: str) -> Post:
    return "/chronicles/{c}/signout", {}, 303, "c"


@case(C + "/settings", ("storyteller",))
def _settings(w: World, _role: str) -> Post:
    return "/chronicles/{c}/settings", {"difficulty": "7", "name": "Renamed"}, 303, "c"


@case(C + "/invitation", ("storyteller",))
def _invitation(w: World, _role: str) -> Post:
    return "/chronicles/{c}/invitation", {}, 303, "c"


@case(C + "/key-saved")
def _key_saved(w: World, _role: str) -> Post:
    return "/chronicles/{c}/key-saved", {}, 303, "c"


@case(C + "/key")
def _new_key(w: World, _role: str) -> Post:
    return "/chronicles/{c}/key", {}, 303, "c"


@case(C + "/members/{member_id}/remove", ("storyteller",))
def _remove_member(w: World, _role: str) -> Post:
    return "/chronicles/{c}/members/{member}/remove", {}, 303, "c"


@case(C + "/quick")
def _quick(w: World, _role: str) -> Post:
    return "/chronicles/{c}/quick", {"pool": "5", "difficulty": "6", **key()}, 200, "c"


@case(C + "/quick-setting", ("storyteller",))
def _quick_setting(w: World, _role: str) -> Post:
    return "/chronicles/{c}/quick-setting", {"allowed": ["off", "on"]}, 303, "c"


@case(C + "/characters")
def _add_character(w: World, _role: str) -> Post:
    return "/chronicles/{c}/characters", {"s.name": "Hero", "s.attributes.strength": "2", **key()}, 303, "c"


@case(SHEET + "/sheet")
def _edit_sheet(w: World, _role: str) -> Post:
    return "/chronicles/{c}/characters/{nia}/sheet", {"s.name": "Nia Renamed", **key()}, 303, "c"


@case(SHEET + "/remove", ("storyteller",))
def _remove_character(w: World, _role: str) -> Post:
    return "/chronicles/{c}/characters/{nia}/remove", key(), 303, "c"


@case(SHEET + "/rolls")
def _roll(w: World, _role: str) -> Post:
    return "/chronicles/{c}/characters/{nia}/rolls", {**V20_TEST, **key()}, 200, "c"


@case(SHEET + "/adjustments")
def _adjust(w: World, _role: str) -> Post:
    return (
        "/chronicles/{c}/characters/{nia}/adjustments",
        {"change": "spend_willpower", "amount": "1", **key()},
        200,
        "c",
    )


@case(C + "/entries/{seq}/reroll", ("player",))
def _reroll(w: World, _role: str) -> Post:
    return "/chronicles/{v5c}/entries/{v5seq}/reroll", {"dice": ["0", "1"]}, 200, "v5c"


@case(C + "/entries/{seq}/reveal", ("storyteller",))
def _reveal(w: World, _role: str) -> Post:
    return "/chronicles/{c}/entries/{hidden}/reveal", {}, 200, "c"


@case(C + "/entries/{seq}/follow", ("player",))
def _follow(w: World, _role: str) -> Post:
    form = {"kind": "damage", "character": str(w.ids["nia"]), "weapon": "knife", **key()}
    return "/chronicles/{c}/entries/{attack}/follow", form, 200, "c"


@case(C + "/asks/{ask_id}/grant", ("storyteller",))
def _grant(w: World, _role: str) -> Post:
    return "/chronicles/{c}/asks/{ask}/grant", {}, 200, "c"


@case(C + "/asks/{ask_id}/refuse", ("storyteller",))
def _refuse(w: World, _role: str) -> Post:
    return "/chronicles/{c}/asks/{ask}/refuse", {"reason": "no"}, 200, "c"


@case(C + "/asks/{ask_id}/withdraw", ("player",))
def _withdraw(w: World, _role: str) -> Post:
    return "/chronicles/{c}/asks/{ask}/withdraw", {}, 200, "c"


@case(C + "/scenes", ("storyteller",))
def _open_scene(w: World, _role: str) -> Post:
    return "/chronicles/{c}/scenes", {"name": "Docks"}, 200, "c"


def _in_a_scene(w: World) -> None:
    w.api("POST", f"/api/chronicles/{w.ids['c']}/scenes", name="Docks")


@case(C + "/scene/turns", ("storyteller",))
def _advance_turn(w: World, _role: str) -> Post:
    _in_a_scene(w)
    return "/chronicles/{c}/scene/turns", {}, 200, "c"


@case(C + "/scene/close", ("storyteller",))
def _close_scene(w: World, _role: str) -> Post:
    _in_a_scene(w)
    return "/chronicles/{c}/scene/close", {}, 200, "c"


@case(C + "/standing", ("storyteller",))
def _set_standing(w: World, _role: str) -> Post:
    return "/chronicles/{c}/standing", {"edge": "modifier", "value": "2"}, 303, "c"


@case(C + "/standing/{standing_id}/end", ("storyteller",))
def _end_standing(w: World, _role: str) -> Post:
    return "/chronicles/{c}/standing/{standing}/end", {}, 303, "c"


@case(SHEET + "/actions", ("storyteller",))
def _declare_actions(w: World, _role: str) -> Post:
    _in_a_scene(w)
    w.api("POST", f"/api/chronicles/{w.ids['c']}/scene/turns")  # a turn started
    return "/chronicles/{c}/characters/{nia}/actions", {"actions": "2"}, 303, "c"


@case(C + "/client-seed")
def _client_seed(w: World, _role: str) -> Post:
    return "/chronicles/{c}/client-seed", {"client_seed": "my own seed"}, 303, "c"


@case(C + "/fair/rotate", ("storyteller",))
def _rotate(w: World, _role: str) -> Post:
    return "/chronicles/{c}/fair/rotate", {}, 303, "c"


@case(C + "/fair/abandon", ("storyteller",))
def _abandon(w: World, _role: str) -> Post:  # F-1: every seed readable, so refused (nothing written)
    return "/chronicles/{c}/fair/abandon", {}, 409, "c"


@case(C + "/import")
def _import(w: World, _role: str) -> Post:
    source = json.dumps({"name": "Imported", "type": "Vampire", "system": {"advantages": {}}})
    return "/chronicles/{c}/import", {"pasted": source, **key()}, 201, "c"


@case(C + "/table-rules", ("storyteller",))
def _table_rules(w: World, _role: str) -> Post:
    return "/chronicles/{c}/table-rules", {"table_rules": "v20.ones_do_not_cancel", **key()}, 303, "c"


@case(C + "/contests", ("storyteller",))
def _declare_contest(w: World, _role: str) -> Post:
    form = {
        "attacker_character": str(w.ids["nia"]),
        "attacker_attribute": "dexterity",
        "attacker_ability": "firearms",
        "attacker_difficulty": "6",
        "defender_character": str(w.ids["bran"]),
        "defender_attribute": "dexterity",
        "defender_ability": "firearms",
        "defender_difficulty": "6",
        **key(),
    }
    return "/chronicles/{c}/contests", form, 303, "c"


@case(C + "/contests/{seq}/roll")
def _roll_side(w: World, role: str) -> Post:
    side = "attacker" if role == "player" else "defender"
    return "/chronicles/{c}/contests/{contest}/roll", {"side": side, **key()}, 200, "c"


@case(C + "/extended", ("storyteller",))
def _declare_extended(w: World, _role: str) -> Post:
    form = {
        "character": str(w.ids["nia"]),
        "attribute": "dexterity",
        "ability": "firearms",
        "difficulty": "6",
        "target": "20",
        "max_rolls": "5",
        **key(),
    }
    return "/chronicles/{c}/extended", form, 303, "c"


@case(C + "/extended/{seq}/roll")
def _roll_extended(w: World, _role: str) -> Post:
    return "/chronicles/{c}/extended/{extended}/roll", key(), 200, "c"


@case(SHEET + "/compulsion/call", ("storyteller",))
def _call_compulsion(w: World, _role: str) -> Post:
    return (
        "/chronicles/{v5c}/characters/{rook}/compulsion/call",
        {"back": "sheet", "compulsion": "", "until": "ended", **key()},
        303,
        "v5c",
    )


@case(SHEET + "/compulsion/end", ("storyteller",))
def _end_compulsion(w: World, _role: str) -> Post:
    w.api("POST", f"/api/v5/chronicles/{w.ids['v5c']}/characters/{w.ids['rook']}/compulsion")
    return "/chronicles/{v5c}/characters/{rook}/compulsion/end", {"back": "sheet", **key()}, 303, "v5c"


@case(SHEET + "/hunger-frenzy", ("storyteller",))
def _hunger_frenzy(w: World, _role: str) -> Post:  # V5-10: no failed Rouse at Hunger 5 offers it: refused
    return "/chronicles/{v5c}/characters/{rook}/hunger-frenzy", {"roll": "{v5seq}", **key()}, 409, "v5c"


@case(SHEET + "/saved")
def _save(w: World, _role: str) -> Post:
    return "/chronicles/{c}/characters/{nia}/saved", {**V20_TEST, "saved_name": "Again"}, 200, "c"


@case(C + "/saved/{saved_id}/roll", ("player",))
def _repeat(w: World, _role: str) -> Post:
    return "/chronicles/{c}/saved/{saved}/roll", key(), 200, "c"


@case(C + "/saved/{saved_id}/delete", ("player",))
def _delete_saved(w: World, _role: str) -> Post:
    return "/chronicles/{c}/saved/{saved}/delete", {"character": "{nia}"}, 200, "c"


@case("/solo")
def _start_solo(w: World, _role: str) -> Post:
    return "/solo", {"scenario": "drowned-lantern", **key()}, 303, "c"


@case("/solo/{chronicle_id}/act", ("player",))
def _act(w: World, _role: str) -> Post:
    solo = w.client.post("/api/solo", json={"scenario": "drowned-lantern"})
    assert solo.status_code == 201, solo.text
    w.ids["solo"] = solo.json()["chronicle"]["id"]
    w.tokens["solo"] = solo.json()["token"]
    return "/solo/{solo}/act", {"option": "choice:0", **key()}, 303, "solo"


def post_routes() -> set[str]:
    from rollbook.web import page_routers

    return {
        route.path
        for router in page_routers()
        for route in router.routes
        if set(getattr(route, "methods", None) or ()) - {"GET", "HEAD"}
    }


def test_every_post_route_has_a_case():
    assert post_routes() == set(CASES)


def _keychain(w: World, role: str, signer: str) -> str:
    if signer == "solo":
        return f"{w.ids['solo']}.{w.tokens['solo']}"
    held = [(w.ids["v5c"], w.v5_tokens[role]), (w.ids["c"], w.tokens[role])]
    return "~".join(f"{chronicle}.{token}" for chronicle, token in held)


def _filled(value, ids: dict) -> object:
    """``{name}`` in a path or a field filled from the world's ids."""
    if isinstance(value, list):
        return [_filled(v, ids) for v in value]
    return re.sub(r"\{(\w+)\}", lambda found: str(ids[found[1]]), value) if isinstance(value, str) else value


def _record(route: str, role: str, backend: str, counts: list[int]) -> None:
    """With ``ROLLBOOK_POST_COUNTS`` set, each post's statements per transaction (bench/README.md)."""
    path = os.environ.get("ROLLBOOK_POST_COUNTS")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps({"route": route, "role": role, "store": backend, "tx": counts}) + "\n")


# each route with each role that may post it (a player may not post the Storyteller's routes)
POSTERS = [(route, role) for route in sorted(CASES) for role in ROLES if role in CASES[route][0]]


@pytest.mark.parametrize("route,role", POSTERS)
def test_every_post_is_its_write_and_one_read_with_no_statement_sent_twice(served, database_url, route, role):
    make = CASES[route][1]
    app, client = served
    client.cookies.clear()
    w = make_world(client)
    path, form, status, signer = make(w, role)
    client.cookies.set("rollbook_keys", _keychain(w, role, signer))
    path = _filled(path, w.ids)
    form = {name: _filled(value, w.ids) for name, value in form.items()}
    answers: list = []

    def post() -> None:
        answers.append(client.post(path, data=form, headers=HTMX, follow_redirects=False))

    began = sent(app, post, keep_empty=False)
    (answer,) = answers
    assert answer.status_code == status, (path, answer.status_code, answer.text[:3000])
    shown = ["\n".join(s for s, _ in b) for b in began]
    _record(
        route, role, "sqlite" if database_url.startswith("sqlite") else "postgresql", [len(b) for b in began]
    )
    if status >= 400:  # a refusal (F-1, V5-10): nothing written, its page drawn as before
        return
    assert 1 <= len(began) <= 2, shown  # the write, then at most one read for the answer
    if len(began) == 2:
        assert not is_read(began[0]), shown  # no read before the write
        assert is_read(began[1]), shown
    answer_read = began[1] if len(began) == 2 else began[0] if is_read(began[0]) else []
    assert repeated(answer_read) == [], "\n".join(s for s, _ in answer_read)


# The API's same operation, where there is one: (method, path, body). The page's write sends its
# statements, in the same order (an Idempotency-Key sent when the page's form carries its key).
API_TWINS: dict[str, tuple[str, str, dict | None]] = {
    C + "/settings": ("PATCH", "/api/chronicles/{c}", {"difficulty": 7, "name": "Renamed"}),
    C + "/invitation": ("POST", "/api/chronicles/{c}/invitation", None),
    C + "/members/{member_id}/remove": ("DELETE", "/api/chronicles/{c}/members/{member}", None),
    C + "/characters": (
        "POST",
        "/api/chronicles/{c}/characters",
        {"name": "Hero", "sheet": {"name": "Hero", "attributes": {"strength": 2}}},
    ),
    C + "/entries/{seq}/reveal": ("POST", "/api/chronicles/{c}/log/{hidden}/reveal", None),
    C + "/asks/{ask_id}/grant": ("POST", "/api/chronicles/{c}/asks/{ask}/grant", {}),
    C + "/asks/{ask_id}/refuse": ("POST", "/api/chronicles/{c}/asks/{ask}/refuse", {"reason": "no"}),
    C + "/asks/{ask_id}/withdraw": ("POST", "/api/chronicles/{c}/asks/{ask}/withdraw", None),
    C + "/scenes": ("POST", "/api/chronicles/{c}/scenes", {"name": "Docks"}),
    C + "/scene/turns": ("POST", "/api/chronicles/{c}/scene/turns", None),
    C + "/scene/close": ("POST", "/api/chronicles/{c}/scene/close", None),
    C + "/standing": ("POST", "/api/chronicles/{c}/standing-grants", {"edges": {"modifier": 2}}),
    C + "/standing/{standing_id}/end": ("DELETE", "/api/chronicles/{c}/standing-grants/{standing}", None),
    SHEET + "/actions": ("POST", "/api/chronicles/{c}/characters/{nia}/actions", {"actions": 2}),
    C + "/client-seed": ("PUT", "/api/chronicles/{c}/members/me/client-seed", {"client_seed": "my own seed"}),
    C + "/fair/rotate": ("POST", "/api/chronicles/{c}/fair/rotate", {}),
    C + "/table-rules": (
        "PUT",
        "/api/chronicles/{c}/table-rules",
        {"table_rules": ["v20.ones_do_not_cancel"]},
    ),
    C + "/contests/{seq}/roll": (
        "POST",
        "/api/chronicles/{c}/contests/{contest}/rolls",
        {"side": "attacker"},
    ),
    C + "/extended": (
        "POST",
        "/api/chronicles/{c}/extended",
        {"character": "{nia}", "action": V20_TEST, "target": 20, "max_rolls": 5},
    ),
    C + "/extended/{seq}/roll": ("POST", "/api/chronicles/{c}/extended/{extended}/rolls", None),
    C + "/saved/{saved_id}/roll": ("POST", "/api/chronicles/{c}/saved-rolls/{saved}/rolls", None),
    C + "/saved/{saved_id}/delete": ("DELETE", "/api/chronicles/{c}/saved-rolls/{saved}", None),
    SHEET + "/compulsion/end": ("DELETE", "/api/chronicles/{v5c}/characters/{rook}/compulsion", None),
}


def _body(value, ids: dict):
    if isinstance(value, dict):
        return {name: _body(v, ids) for name, v in value.items()}
    if isinstance(value, str) and re.fullmatch(r"\{\w+\}", value):
        return ids[value[1:-1]]
    return value


@pytest.mark.parametrize("route", sorted(API_TWINS))
def test_a_pages_write_sends_the_apis_statements(served, route):
    """The page's write against the API's same operation, each in a fresh world of its own, posted by
    the first role who may post it: the same statements, in the same order."""
    roles, make = CASES[route]
    role = roles[-1]  # the player where a player may post it
    app, client = served
    method, api_path, body = API_TWINS[route]
    writes = []
    for face in ("api", "page"):
        client.cookies.clear()
        w = make_world(client)
        path, form, status, signer = make(w, role)
        tokens = w.v5_tokens if signer == "v5c" else w.tokens
        if face == "api":
            headers = bearer(tokens[role])
            if "idempotency_key" in form:
                headers["Idempotency-Key"] = secrets.token_urlsafe(16)
            url = _filled(api_path, w.ids)
            answers: list = []
            began = sent(
                app,
                lambda url=url, headers=headers, json=_body(body, w.ids), answers=answers: answers.append(
                    client.request(method, url, headers=headers, json=json)
                ),
                keep_empty=False,
            )
            assert answers[0].status_code < 300, answers[0].text
        else:
            client.cookies.set("rollbook_keys", _keychain(w, role, signer))
            data = {name: _filled(value, w.ids) for name, value in form.items()}
            url = _filled(path, w.ids)
            answers = []
            began = sent(
                app,
                lambda url=url, data=data, answers=answers: answers.append(
                    client.post(url, data=data, headers=HTMX, follow_redirects=False)
                ),
                keep_empty=False,
            )
            assert answers[0].status_code == status, answers[0].text[:2000]
        writes.append([statement for statement, _ in began[0]])
    api, page = writes
    assert page == api, "\n\n".join(["\n".join(api), "\n".join(page)])
