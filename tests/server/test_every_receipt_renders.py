"""Every receipt renders on every page (issue 11), on both stores: every action kind of every system
(enumerated from the play layer's own registry, ``ACTIONS``: a new kind without a sample fails here),
each rolled a few times for its outcomes, the combat chains (V20-17, T-4, T-5) through ``follows``, the
V5 Willpower reroll, every change example, asks (granted, refused), hidden rolls (redacted for the
player) and a reveal; then the chronicle, sheet and entry pages through the real server, in en, fr and
es, as the Storyteller and as a player: never an error. One server per store, many receipts."""

from __future__ import annotations

import copy

import pytest
from fastapi.testclient import TestClient

from rollbook.dice import HmacDice
from rollbook.play import SYSTEM_IDS, system_module
from rollbook.play.examples import EXAMPLES
from rollbook.server.app import create_app

from .conftest import Table


def _play_samples():
    """The play layer's render test's samples (one or more per action kind; ``tests/play`` is its own package)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "play" / "test_render_receipts.py"
    spec = importlib.util.spec_from_file_location("render_receipt_samples", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SAMPLES, module.SHEETS


SAMPLES, SHEETS = _play_samples()

LANGS = ("en", "fr", "es")
SEEDS = 2  # each sample rolled this many times (the last step from a deterministic stream)
FEED = 50  # entries per chronicle: the chronicle page shows them all (its feed holds 60)


class Dice:
    """Queued faces first (a chain's earlier steps), then a deterministic stream."""

    name = "given"

    def __init__(self) -> None:
        self.faces: list[int] = []
        self.rest = HmacDice("every receipt")

    def __call__(self) -> Dice:
        return self

    def draw(self, n: int, sides: int) -> tuple[int, ...]:
        taken = tuple(self.faces[:n])
        del self.faces[:n]
        return taken + self.rest.draw(n - len(taken), sides) if len(taken) < n else taken


def sheet(system: str, name: str | None = None) -> dict:
    data = copy.deepcopy(SHEETS[system])
    if system == "tiers":
        data["skills"] = {**data["skills"], "climbing": 0}
        data["weapons"] = [{**weapon, "spare": 12} for weapon in data["weapons"]]  # a reload (T-3)
    if name:
        data["name"] = name
    return data


class Chronicles:
    """The chronicles of one system, each kept under ``FEED`` entries: a player (their character and an
    NPC defender per sample, made fresh so resources never run out)."""

    def __init__(self, client, system: str) -> None:
        self.client, self.system = client, system
        self.tables: list[tuple[Table, dict]] = []
        self.new()

    def new(self) -> None:
        response = self.client.post("/api/chronicles", json={"name": f"All {self.system}", "system": self.system})
        assert response.status_code == 201, response.text
        t = Table(self.client, response.json())
        self.tables.append((t, t.join("Player")))

    @property
    def current(self) -> tuple[Table, dict]:
        t, player = self.tables[-1]
        if t.log()["head"]["seq"] > FEED - 12:
            self.new()
        return self.tables[-1]


def players_own(t: Table, player: dict, data: dict) -> dict:
    """The player's character, made by the Storyteller (a roll-under sheet's cards are the Storyteller's, R-6)."""
    me = t.client.get("/api/me", headers=player).json()["member"]["id"]
    return t.character(t.st, data, owner=me)


def ok(response, status=201) -> dict:
    assert response.status_code == status, response.text
    return response.json()


def play_everything(client, dice: Dice, system: str) -> Chronicles:
    group = Chronicles(client, system)
    module = system_module(system)
    missing = sorted(set(module.ACTIONS) - {kind for s, kind in SAMPLES if s == system})
    assert not missing, f"add samples for {system} {missing} in tests/play/test_render_receipts.py"
    for kind in module.ACTIONS:
        for action, role, chain in SAMPLES[(system, kind)]:
            for _ in range(SEEDS):
                t, player = group.current
                mine = players_own(t, player, sheet(system))
                npc = t.character(t.st, sheet(system, "Foe"))
                follows = None
                for number, (step, faces) in enumerate(chain or ()):
                    dice.faces.extend(faces)
                    step_for = npc if step["kind"] in ("dodge", "soak") else mine
                    target = {"target": npc["id"]} if number == 0 else {}
                    follows = ok(t.roll(t.st, step_for["id"], step, follows=follows, **target))["entry"]["seq"]
                who = npc if chain and kind in ("dodge", "soak") else mine
                ok(t.roll(t.st, who["id"], action, follows=follows))
    t, player = group.current
    mine = players_own(t, player, sheet(system))
    first = SAMPLES[(system, next(iter(module.ACTIONS)))][0][0]
    ok(t.roll(t.st, mine["id"], first))  # something to reload, to heal
    for change in EXAMPLES[system].changes.values():
        value = {k: v.lower() if k == "weapon" else v for k, v in change.value.items()}
        ok(client.post(f"{t.base}/characters/{mine['id']}/adjustments", headers=t.st, json={"change": value}))
    hidden = ok(t.roll(t.st, mine["id"], first, hidden=True))["entry"]["seq"]
    ok(t.roll(t.st, mine["id"], first, hidden=True))  # stays hidden: redacted for the player
    ok(client.post(f"{t.base}/log/{hidden}/reveal", headers=t.st))
    for followup in EXAMPLES[system].followups.values():  # V5-8
        rolled = ok(t.roll(t.st, mine["id"], first))["entry"]["seq"]
        ok(client.post(f"{t.base}/log/{rolled}/rerolls", headers=t.st, json={"action": {**followup.value, "dice": [0]}}))
    mine = players_own(t, player, sheet(system))  # a fresh one for the asks
    asked = ok(t.roll(player, mine["id"], {**first, "modifier": 1} if system == "v20" else first, hidden=True,
                      ask=True), 202)
    ok(client.post(f"{t.base}/asks/{asked['ask']['id']}/grant", headers=t.st, json={}))
    asked = ok(t.roll(player, mine["id"], first, hidden=True, ask=True), 202)
    ok(client.post(f"{t.base}/asks/{asked['ask']['id']}/refuse", headers=t.st, json={"reason": "no"}), 200)
    return group


def render_everything(client, group: Chronicles) -> tuple[int, set[str]]:
    """Every page as both roles in every language; (pages rendered, the exchange markup seen)."""
    pages, seen = 0, set()
    for t, player in group.tables:
        web = f"/chronicles/{t.id}"
        characters = ok(client.get(f"{t.base}/characters", headers=t.st), 200)
        characters = characters if isinstance(characters, list) else characters["characters"]
        theirs = [c for c in characters if c["owner"] is not None][:1]
        entries = t.log(t.st, limit=200)["entries"]
        for viewer, headers in (("storyteller", t.st), ("player", player)):
            for lang in LANGS:
                page = client.get(f"{web}?lang={lang}", headers=headers)
                assert page.status_code == 200, (viewer, lang, page.text[-2000:])
                seen |= {mark for mark in ('class="steps"', 'class="follow ') if mark in page.text}
                for character in theirs + ([characters[-1]] if viewer == "storyteller" else []):
                    page = client.get(f"{web}/characters/{character['id']}?lang={lang}", headers=headers)
                    assert page.status_code == 200, (viewer, lang, page.text[-2000:])
                pages += 1 + len(theirs)
            for entry in entries:  # each entry page in one of the languages, in turn
                lang = LANGS[entry["seq"] % len(LANGS)]
                page = client.get(f"{web}/entries/{entry['seq']}?lang={lang}", headers=headers)
                assert page.status_code == 200, (viewer, lang, entry["seq"], page.text[-2000:])
                pages += 1
    return pages, seen


@pytest.fixture(scope="module")
def served(database_url):
    dice = Dice()
    with TestClient(create_app(database_url, dice=dice), raise_server_exceptions=True) as client:
        yield client, dice


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_every_receipt_renders_on_every_page_in_every_language_for_every_role(served, system):
    client, dice = served
    group = play_everything(client, dice, system)
    assert dice.faces == []
    kinds = {e["receipt"]["kind"] for t, _ in group.tables for e in t.log(t.st, limit=200)["entries"]
             if e["kind"] == "roll"}
    assert set(system_module(system).ACTIONS) <= kinds
    pages, seen = render_everything(client, group)
    assert pages > 0
    if module_chains(system):  # an exchange shows as one card with its steps, the next one offered
        assert seen == {'class="steps"', 'class="follow '}


def module_chains(system: str) -> dict:
    return system_module(system).CHAINS
