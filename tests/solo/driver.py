"""A solo chronicle without a database, for the engine's pure tests: the steps of ``rollbook.solo.story``
performed by the play layer itself (``play.perform`` with fixed dice, ``play.adjust``), the log kept as a
list of entries like the export's. What the server does with the same steps is ``usecases.solo``."""

from __future__ import annotations

from pathlib import Path

import yaml

from rollbook import play
from rollbook.solo import story
from rollbook.solo.check import npc_sheet
from rollbook.solo.format import Scenario
from rollbook.solo.steps import (
    PLAYER,
    SOLO_CHOICE,
    SOLO_PASSAGE,
    Adjust,
    Arrive,
    Choose,
    Done,
    Roll,
    Scene,
    drive,
)
from tests.solo.dice import ScriptDice

DATA = Path(__file__).parent / "data"


def tiny_data() -> dict:
    return yaml.safe_load((DATA / "tiny.yaml").read_text(encoding="utf-8"))


def scenario_of(data: dict) -> Scenario:
    return Scenario.model_validate(data)


class Chronicle:
    def __init__(self, scenario: Scenario, dice: ScriptDice | None = None) -> None:
        self.scenario = scenario
        self.dice = dice or ScriptDice()
        self.sheets = {PLAYER: play.new_sheet("v20", dict(scenario.pregenerated))}
        self.sheets.update({npc: play.new_sheet("v20", npc_sheet(scenario, npc)) for npc in scenario.npcs})
        self.ids = {who: index for index, who in enumerate(self.sheets, start=1)}
        self.entries: list[dict] = []
        self.log(
            "solo_start",
            {
                "scenario": scenario.id,
                "digest": "test",
                "player": self.ids[PLAYER],
                "npcs": {npc: self.ids[npc] for npc in scenario.npcs},
            },
        )
        self.drive(story.begin(scenario, dict(self.sheets)))

    def log(self, kind: str, receipt: dict, who: str | None = None, refers_to: int | None = None) -> dict:
        entry = {
            "seq": len(self.entries) + 1,
            "kind": kind,
            "receipt": receipt,
            "character": self.ids.get(who) if who else None,
            "refers_to": refers_to,
        }
        self.entries.append(entry)
        return entry

    @property
    def state(self) -> story.State:
        return story.replay(self.entries)  # S-5: the state is the log's

    def options(self) -> list[str]:
        return [option["id"] for option in story.options(self.scenario, self.state, dict(self.sheets))]

    def act(self, option: str) -> None:
        self.drive(story.act(self.scenario, self.state, option, dict(self.sheets)))

    def drive(self, steps) -> None:
        drive(steps, self.perform)

    def receipt(self, seq: int) -> dict:
        return self.entries[seq - 1]["receipt"]

    def rolls(self) -> list[dict]:
        return [entry for entry in self.entries if entry["kind"] == "roll"]

    def perform(self, step) -> Done:
        if isinstance(step, Choose):
            entry = self.log(SOLO_CHOICE, {"passage": step.passage, "option": step.option})
            self.choice = entry["seq"]
        elif isinstance(step, Roll):
            follows = self.receipt(step.follows) if step.follows else None
            made = play.perform(
                "v20",
                self.sheets[step.who],
                step.action,
                mode="strict",
                role="storyteller",
                source=self.dice,
                follows=follows,
            )
            self.sheets[step.who] = made.sheet
            receipt = dict(made.receipt)
            if step.tag:
                receipt["solo"] = step.tag
            entry = self.log("roll", receipt, step.who, step.follows or (self.choice if step.tag else None))
        elif isinstance(step, Adjust):
            made = play.adjust("v20", self.sheets[step.who], step.change, role="player")
            self.sheets[step.who] = made.sheet
            entry = self.log("adjust", made.receipt or {}, step.who)
        elif isinstance(step, Scene):
            entry = self.log({"open": "scene_open", "turn": "turn", "close": "scene_close"}[step.op], {})
        else:
            assert isinstance(step, Arrive)
            entry = self.log(
                SOLO_PASSAGE,
                {
                    "passage": step.passage,
                    "from": step.came_from,
                    "flags": list(step.flags),
                    "ending": step.ending,
                },
            )
        return Done(entry["seq"], entry["receipt"], dict(self.sheets))
