"""Helpers of the solo-chronicle tests (issue 37): dice chosen roll by roll, and the sample's way to
its fight (a non-test module: the page test and the browser test share it)."""

from __future__ import annotations

import threading
from collections import deque


class RollByRoll:
    """A dice source that chooses each roll's faces whatever its pool: every ``draw`` is one roll (the
    V20 rules ask a pool's dice at once, ``dice.roll``), and takes the next queued roll: an ``int`` is
    that face on every die; a tuple is those faces first, then 2s (a plain failure face: no 1, no
    success at difficulty 3 or more). Wound penalties and extra successes change a pool's size; a
    test that scripts "a miss", "one success" or "every die a 10" does not have to count them."""

    name = "roll-by-roll"

    def __init__(self) -> None:
        self.rolls: deque = deque()
        self.drawn: list[tuple[int, ...]] = []
        self.lock = threading.Lock()

    def queue(self, *rolls) -> None:
        with self.lock:
            self.rolls.extend(rolls)

    def clear(self) -> None:
        with self.lock:
            self.rolls.clear()

    def draw(self, n: int, sides: int) -> tuple[int, ...]:
        with self.lock:
            assert self.rolls, f"a roll of {n}d{sides} that the test did not script"
            spec = self.rolls.popleft()
            faces = (spec,) * n if isinstance(spec, int) else (tuple(spec) + (2,) * n)[:n]
            assert all(1 <= face <= sides for face in faces), (faces, sides)
            self.drawn.append(faces)
            return faces


MISS = 2  # every die a 2: a failure, not a botch
HIT = (8,)  # one success
ALL = 10  # every die a success

# The sample scenario (drowned-lantern) from the quay to the fight in the sail loft, no roll on the
# way: the alley, drink (no Willpower), the pier, the loading door kicked in.
TO_THE_FIGHT = ("choice:1", "choice:2", "choice:0", "choice:0")
