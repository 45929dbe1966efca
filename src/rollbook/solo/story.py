"""The engine as Storyteller (SPEC S-2, S-3, S-5): the state of a solo chronicle read from its log, the
choices it offers, and what a choice asks of the chronicle (``solo.steps``).

- ``replay(entries)``: progress is the log (S-5). The passage reached, the flags set, the rolls of an
  extended action so far and the fight's turns are the replay of the chronicle's entries (as the API
  and the export give them); nothing is stored beside them.
- ``options(scenario, state, sheets)``: what the player may choose now, each with a stable ``id``:
  ``choice:<n>`` (a passage's choices, by their flags and the Willpower they cost), ``roll`` and
  ``roll_wp`` (a check or an extended action's next roll, with a Willpower point: V20-9, when the
  scenario allows it), ``forgo`` (a check the player's own sheet cannot roll: its failure), and a
  fight's (``solo.fight``).
- ``act(scenario, state, option_id, sheets)``: the generator of steps for one choice. A check is
  one roll whose difficulty, specialty and dice are the scenario's (S-2, A-1), its result leading
  to its passage (botch, failure, success by degree); an extended action adds up (TR-4,
  ``rules.contests.extended``).
- ``begin(scenario, sheets)``: the steps of a new solo chronicle (the start passage reached).

Pure: the scenario's modules, play's rules and the rules core.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from dataclasses import dataclass, field
from typing import Literal, TypedDict

from rollbook.entries import Logged, RollReceipt, SoloPassageReceipt, SoloStartReceipt, V20TestResult
from rollbook.rules.base import RuleError
from rollbook.rules.contests import extended as extended_state
from rollbook.solo import actions, fight
from rollbook.solo.format import Attack, Check, Extended, Passage, Scenario
from rollbook.solo.steps import (
    PLAYER,
    SOLO_CHOICE,
    SOLO_PASSAGE,
    SOLO_START,
    Adjust,
    Arrive,
    Choose,
    Done,
    JsonObject,
    Roll,
    Step,
    Steps,
)


@dataclass(frozen=True)
class State:
    """A solo chronicle's progress, replayed from its log (S-5)."""

    scenario: str | None = None
    digest: str | None = None
    player: int | None = None  # the player's character id
    npcs: dict[str, int] = field(default_factory=dict)  # npc id -> character id
    passage: str | None = None
    flags: frozenset[str] = frozenset()
    ending: str | None = None
    extended: tuple[JsonObject, ...] = ()  # the rules results of the current extended action's rolls
    turns: int = 0  # choices made in the current passage (a fight's turns)
    last_choice: int | None = None  # the seq of the latest solo_choice

    @property
    def finished(self) -> bool:
        return self.ending is not None


def replay(entries: Iterable[JsonObject]) -> State:
    """The state after ``entries`` (log entries as plain dicts, in log order)."""
    state = State()
    values: JsonObject = {}  # State's fields, as the receipts hold them
    flags: set[str] = set()
    results: list[JsonObject] = []
    for line in entries:
        entry = Logged.of(line)
        kind = entry.kind
        if kind == SOLO_START:
            start = SoloStartReceipt.of(entry.stored)
            values.update(
                scenario=start.scenario, digest=start.digest, player=start.player, npcs=dict(start.npcs or {})
            )
        elif kind == SOLO_PASSAGE:
            passage = SoloPassageReceipt.of(entry.stored)
            flags.update(passage.flags or ())
            values.update(passage=passage.passage, ending=passage.ending, turns=0)
            results = []
        elif kind == SOLO_CHOICE:
            values.update(turns=values.get("turns", 0) + 1, last_choice=entry.seq)
        elif kind == "roll":
            roll = RollReceipt.of(entry.stored)
            tag = roll.solo if isinstance(roll.solo, dict) else {}
            if tag.get("role") == "extended" and tag.get("passage") == values.get("passage"):
                results.append(roll.result or {})
    return State(**{**state.__dict__, **values, "flags": frozenset(flags), "extended": tuple(results)})


def passage_of(scenario: Scenario, state: State) -> Passage | None:
    return scenario.passages.get(state.passage) if state.passage else None


def _roll_action(system: str, sheet: JsonObject, body: Check | Extended, willpower: bool) -> JsonObject:
    return actions.roll_action(
        system,
        sheet,
        body.traits,
        body.difficulty,
        specialty=getattr(body, "specialty", None),
        modifier=getattr(body, "modifier", 0),
        willpower=willpower,
    )


def _rollable(system: str, sheet: JsonObject, body: Check | Extended) -> JsonObject | None:
    """The roll a check or extended action makes on this sheet (its ``play.preview``), None when refused."""
    try:
        return actions.preview(system, sheet, _roll_action(system, sheet, body, False))
    except RuleError:
        return None


def npc_attacks(scenario: Scenario) -> dict[str, Attack]:
    return {npc_id: npc.attack for npc_id, npc in scenario.npcs.items()}


def options(scenario: Scenario, state: State, sheets: dict[str, JsonObject]) -> list[JsonObject]:
    """What the player may choose now (none once the story has ended)."""
    passage = passage_of(scenario, state)
    if passage is None or state.finished:
        return []
    player = sheets[PLAYER]
    willpower = (player.get("willpower") or {}).get("current") or 0
    if passage.choices is not None:
        found: list[JsonObject] = []
        for index, choice in enumerate(passage.choices):
            if choice.requires_flag is not None and choice.requires_flag not in state.flags:
                continue
            if choice.unless_flag is not None and choice.unless_flag in state.flags:
                continue
            if choice.willpower_cost > willpower:
                continue
            found.append(
                {
                    "id": f"choice:{index}",
                    "kind": "choice",
                    "index": index,
                    "goto": choice.goto,
                    "willpower_cost": choice.willpower_cost,
                }
            )
        return found
    if passage.fight is not None:
        return fight.options(scenario.system, passage.fight, sheets)
    body = passage.check or passage.extended
    if body is None:
        return []
    preview = _rollable(scenario.system, player, body)
    if preview is None:
        return [{"id": "forgo", "kind": "forgo"}]
    base = {
        "kind": "check" if passage.check is not None else "extended",
        "traits": list(body.traits),
        "difficulty": body.difficulty,
        "request": preview["request"],
        "pool": preview["pool"],
    }
    found = [{"id": "roll", **base, "willpower": False}]
    if body.willpower_allowed and willpower and preview["kind"] == "test":
        found.append({"id": "roll_wp", **base, "willpower": True})
    return found


def arrive(
    scenario: Scenario,
    to: str,
    came_from: str | None,
    flags: tuple[str, ...] = (),
    sheets: dict[str, JsonObject] | None = None,
) -> Steps:
    """A passage reached: its ``solo_passage`` (the flags set on the way and by it), then, for a fight,
    its scene (``fight.entered``)."""
    passage = scenario.passages[to]
    set_now = tuple(flag for flag in (*flags, passage.sets_flag) if flag)
    if passage.blood_gain:  # the character fed: the scenario, as Storyteller, restores the blood
        yield Adjust(
            PLAYER, {"kind": "restore", "resource": "blood", "amount": passage.blood_gain}, by="storyteller"
        )
    done = yield Arrive(to, came_from, set_now, passage.ending.kind if passage.ending else None)
    if passage.fight is not None:
        yield from _then(
            scenario,
            to,
            fight.entered(scenario.system, to, passage.fight, done.sheets or sheets or {}),
            sheets,
        )


def _then(
    scenario: Scenario, here: str, steps: Steps, sheets: dict[str, JsonObject] | None
) -> Generator[Step, Done, Done | None]:
    """Run ``steps``; an ``Arrive`` among them is a passage reached like any (``arrive``)."""
    done = None
    while True:
        try:
            step = next(steps) if done is None else steps.send(done)
        except StopIteration:
            return done
        if isinstance(step, Arrive):
            yield from arrive(
                scenario, step.passage, here, step.flags, (done.sheets if done else None) or sheets
            )
            return done
        done = yield step
        sheets = done.sheets or sheets if done is not None else sheets


def begin(scenario: Scenario, sheets: dict[str, JsonObject]) -> Steps:
    """A new solo chronicle: the start passage reached."""
    yield from arrive(scenario, scenario.start, None, (), sheets)


def act(scenario: Scenario, state: State, option_id: str, sheets: dict[str, JsonObject]) -> Steps:
    """The steps of one choice (refused with ``solo_choice_unknown`` unless ``options`` offers it now)."""
    if state.finished:
        raise RuleError("solo_finished")
    offered = {option["id"]: option for option in options(scenario, state, sheets)}
    option = offered.get(option_id)
    if option is None:
        raise RuleError("solo_choice_unknown", choice=option_id)
    here = state.passage
    assert here is not None  # ``options`` offers nothing before the story begins
    passage = scenario.passages[here]
    if passage.fight is not None:
        yield from _then(
            scenario,
            here,
            fight.turn(scenario.system, here, passage.fight, npc_attacks(scenario), option, sheets),
            sheets,
        )
        return
    yield Choose(here, option_id)
    if passage.choices is not None:
        choice = passage.choices[option["index"]]
        if choice.willpower_cost:
            yield Adjust(PLAYER, {"kind": "spend_willpower", "amount": choice.willpower_cost})
        yield from arrive(
            scenario, choice.goto, here, (choice.sets_flag,) if choice.sets_flag else (), sheets
        )
        return
    body = passage.check or passage.extended
    assert body is not None  # ``options`` offers a roll here only for a check or an extended action
    if option_id == "forgo":
        failure = body.outcomes.failure if isinstance(body, Check) else body.failure
        yield from arrive(scenario, failure, here, (), sheets)
        return
    role: Literal["check", "extended"] = "check" if isinstance(body, Check) else "extended"
    action = _roll_action(scenario.system, sheets[PLAYER], body, option["willpower"])
    done = yield Roll(PLAYER, action, tag={"passage": here, "role": role})
    rolled = RollReceipt.of(done.receipt).result
    result: JsonObject = rolled if isinstance(rolled, dict) else {}
    if isinstance(body, Check):  # S-2: each result leads to its passage, success by degree
        test = V20TestResult.of(result)
        goto = body.outcomes.for_result(test.outcome, test.successes)
        yield from arrive(scenario, goto, here, (), done.sheets or sheets)
        return
    # TR-4: the successes add up
    progress = extended_state(scenario.system, body.target, body.max_rolls, [*state.extended, result])
    if progress.status == "reached":
        yield from arrive(scenario, body.success, here, (), done.sheets or sheets)
    elif progress.status == "botched":
        yield from arrive(scenario, body.botch or body.failure, here, (), done.sheets or sheets)
    elif progress.status != "going":
        yield from arrive(scenario, body.failure, here, (), done.sheets or sheets)


class ExtendedProgress(TypedDict):
    total: int
    target: int
    rolls: int
    max_rolls: int
    status: str


def extended_progress(scenario: Scenario, state: State) -> ExtendedProgress | None:
    """The extended action's progress so far (``rules.contests.Extended`` as plain JSON), if one runs."""
    passage = passage_of(scenario, state)
    if passage is None or passage.extended is None:
        return None
    body = passage.extended
    progress = extended_state(scenario.system, body.target, body.max_rolls, list(state.extended))
    return {
        "total": progress.total,
        "target": body.target,
        "rolls": progress.rolls,
        "max_rolls": body.max_rolls,
        "status": progress.status,
    }


__all__ = [
    "SOLO_CHOICE",
    "SOLO_PASSAGE",
    "SOLO_START",
    "State",
    "act",
    "arrive",
    "begin",
    "extended_progress",
    "npc_attacks",
    "options",
    "passage_of",
    "replay",
]
