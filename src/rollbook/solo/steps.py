"""What the engine asks of the chronicle, one step at a time (SPEC S-2, S-3, S-5).

The engine (``solo.story``, ``solo.fight``) is a generator: it yields a step, the shell performs it
through the chronicle's own use cases (the same rolls, changes, scenes and turns as any table) and
sends back ``Done`` (the entry's seq, its receipt, every character's sheet after it). Nothing here
rolls a die or reads a database; a test drives the same generator with the play layer and fixed faces.

Who is who: ``"player"`` is the player's character; an NPC is named by its scenario id.

The solo log entries (plain JSON; the hash chain covers them like any other):

- ``solo_start`` (the scenario, as the Storyteller): ``{"scenario", "digest", "player": <character id>,
  "npcs": {npc id: character id}}`` — which scenario is the chronicle's Storyteller (its SHA-256).
- ``solo_choice`` (the player): ``{"passage", "option"}`` — each choice the player makes.
- ``solo_passage`` (the scenario): ``{"passage", "from", "flags": [...set now], "ending": kind | null}``
  — each passage reached; the state is the replay of these (S-5).
- the rolls of a check or an extended action carry ``"solo": {"passage", "role": "check" | "extended"}``
  and refer to the choice; a fight's rolls are the ordinary combat chain (``refers_to``, ``exchange``),
  its turns the ordinary scene and ``turn`` entries (A-3: blood per turn counts within them).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Literal, TypedDict

# A sheet, a play action, a receipt, a log entry: the play layer's plain JSON object
from rollbook.play.common import JsonObject as JsonObject

SOLO_START = "solo_start"
SOLO_CHOICE = "solo_choice"
SOLO_PASSAGE = "solo_passage"
SOLO_KINDS = (SOLO_START, SOLO_CHOICE, SOLO_PASSAGE)
PLAYER = "player"


class SoloTag(TypedDict):
    """The ``solo`` note of a check's or an extended action's roll."""

    passage: str
    role: Literal["check", "extended"]


@dataclass(frozen=True)
class Choose:
    """Log the player's choice (``solo_choice``), always the first step of an act."""

    passage: str
    option: str


@dataclass(frozen=True)
class Roll:
    """A roll of ``who``'s character, made by the scenario as Storyteller (A-1: its difficulty and edges).
    ``follows``: the seq of the chain's earlier step (V20-17); ``target``: who an attack is aimed at;
    ``tag``: the ``solo`` note of a check's or an extended action's roll (the entry refers to the choice)."""

    who: str
    action: JsonObject
    follows: int | None = None
    target: str | None = None
    tag: SoloTag | None = None


@dataclass(frozen=True)
class Adjust:
    """A change on a character: the player's own (Willpower a choice costs, blood spent), or, ``by`` the
    storyteller, what only the Storyteller may change (blood the story gives when the character feeds)."""

    who: str
    change: JsonObject
    by: str = "player"


@dataclass(frozen=True)
class Scene:
    """The fight's scene and turns (A-3): ``open`` (and its first turn), ``turn``, ``close``."""

    op: str
    name: str = ""


@dataclass(frozen=True)
class Arrive:
    """A passage reached (``solo_passage``): the flags it sets, its ending's kind."""

    passage: str
    came_from: str | None
    flags: tuple[str, ...] = ()
    ending: str | None = None


@dataclass(frozen=True)
class Done:
    """What the shell sends back: the new entry's seq and receipt, and every sheet after it."""

    seq: int | None
    receipt: JsonObject = field(default_factory=dict)
    sheets: dict[str, JsonObject] = field(default_factory=dict)  # who -> sheet


Step = Choose | Roll | Adjust | Scene | Arrive
# The engine: a generator of steps, each answered with its ``Done``.
Steps = Generator[Step, Done, None]


def drive(steps: Generator[Step, Done, object], perform: Callable[[Step], Done]) -> None:
    """The engine's generator run to its end: each step it yields performed by the shell's ``perform``,
    whose ``Done`` is sent back (the server's chronicle and the tests' stand-in drive it alike)."""
    done = None
    while True:
        try:
            step = next(steps) if done is None else steps.send(done)
        except StopIteration:
            return
        done = perform(step)
