"""Every receipt played through the API: the chronicles of one system, each action kind of
it rolled from the play layer's samples (``tests/play/render_samples.py``), the combat chains, the
changes, a reroll, hidden rolls and a reveal, asks granted and refused. Shared by the server's and
the web's rendering tests."""

from __future__ import annotations

import copy

from rollbook.dice import HmacDice
from rollbook.play import system_module
from rollbook.play.examples import EXAMPLES
from tests.play.render_samples import SAMPLES, SHEETS

from .conftest import Table

SEEDS = 2  # each sample rolled this many times (the last step from a deterministic stream)
FEED = 50  # entries per chronicle: the chronicle page shows them all (its feed holds 60)


class Dice:
    """Queued faces first (a chain's earlier steps), then a deterministic stream."""

    name = "given"

    def __init__(self, stream: str = "every receipt") -> None:
        self.faces: list[int] = []
        self.rest = HmacDice(stream)

    def push(self, *faces: int) -> None:
        self.faces.extend(faces)

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
        response = self.client.post(
            "/api/chronicles", json={"name": f"All {self.system}", "system": self.system}
        )
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
    assert not missing, f"add samples for {system} {missing} in tests/play/render_samples.py"
    for kind in module.ACTIONS:
        for action, _role, chain in SAMPLES[(system, kind)]:
            for _ in range(SEEDS):
                t, player = group.current
                mine = players_own(t, player, sheet(system))
                npc = t.character(t.st, sheet(system, "Foe"))
                follows = None
                for number, (step, faces) in enumerate(chain or ()):
                    dice.faces.extend(faces)
                    step_for = npc if step["kind"] in ("dodge", "soak") else mine
                    target = {"target": npc["id"]} if number == 0 else {}
                    follows = ok(t.roll(t.st, step_for["id"], step, follows=follows, **target))["entry"][
                        "seq"
                    ]
                who = npc if chain and kind in ("dodge", "soak") else mine
                ok(t.roll(t.st, who["id"], action, follows=follows))
    t, player = group.current
    mine = players_own(t, player, sheet(system))
    first = SAMPLES[(system, next(iter(module.ACTIONS)))][0][0]
    ok(t.roll(t.st, mine["id"], first))  # something to reload, to heal
    if system == "tiers":  # T-3 Reading: a magazine is changed only when empty
        weapons = [
            {**w, "loaded": 0} if w.get("capacity") else w
            for w in t.sheet(t.st, mine["id"])["sheet"]["weapons"]
        ]
        ok(
            client.patch(
                f"{t.base}/characters/{mine['id']}", headers=t.st, json={"patch": {"weapons": weapons}}
            ),
            200,
        )
    for change in EXAMPLES[system].changes.values():
        value = {k: v.lower() if k == "weapon" else v for k, v in change.value.items()}
        ok(client.post(f"{t.base}/characters/{mine['id']}/adjustments", headers=t.st, json={"change": value}))
    hidden = ok(t.roll(t.st, mine["id"], first, hidden=True))["entry"]["seq"]
    ok(t.roll(t.st, mine["id"], first, hidden=True))  # stays hidden: redacted for the player
    ok(client.post(f"{t.base}/log/{hidden}/reveal", headers=t.st))
    for followup in EXAMPLES[system].followups.values():  # V5-8
        rolled = ok(t.roll(t.st, mine["id"], first))["entry"]["seq"]
        ok(
            client.post(
                f"{t.base}/log/{rolled}/rerolls",
                headers=t.st,
                json={"action": {**followup.value, "dice": [0]}},
            )
        )
    mine = players_own(t, player, sheet(system))  # a fresh one for the asks
    asked = ok(
        t.roll(
            player, mine["id"], {**first, "modifier": 1} if system == "v20" else first, hidden=True, ask=True
        ),
        202,
    )
    ok(client.post(f"{t.base}/asks/{asked['ask']['id']}/grant", headers=t.st, json={}))
    asked = ok(t.roll(player, mine["id"], first, hidden=True, ask=True), 202)
    ok(client.post(f"{t.base}/asks/{asked['ask']['id']}/refuse", headers=t.st, json={"reason": "no"}), 200)
    return group
