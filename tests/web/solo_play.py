"""Helpers of the solo-chronicle tests: dice chosen roll by roll, and the sample's way to
its fight (a non-test module: the page test and the browser test share it)."""

from __future__ import annotations

import re
import threading
from collections import deque

from fastapi.testclient import TestClient

from .helpers import text_of

SAMPLE = "drowned-lantern"


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


# --- the solo table through a TestClient (the page tests and the words test) -------------------


def form_key(html: str) -> str:
    return re.search(r'name="idempotency_key" value="([^"]+)"', html).group(1)


def start(client: TestClient, lang: str = "en") -> str:
    shelf = client.get(f"/solo?lang={lang}")
    assert shelf.status_code == 200
    started = client.post(
        "/solo", data={"scenario": SAMPLE, "idempotency_key": form_key(shelf.text)}, follow_redirects=False
    )
    assert started.status_code == 303, started.text[-500:]
    return started.headers["location"]


class Table:
    """The solo table as the page shows it now."""

    def __init__(self, html: str) -> None:
        self.html = html
        self.passage = re.search(r'data-passage="([^"]+)"', html).group(1)
        self.options = re.findall(r'name="option" value="([^"]+)"', html)
        status = re.search(r'class="solo-status".*?</section>', html, re.S).group(0)
        self.status = text_of(status)

    def option(self, prefix: str) -> str:
        return next(value for value in self.options if value.split("|")[0].startswith(prefix))


def table(client: TestClient, where: str) -> Table:
    shown = client.get(where)
    assert shown.status_code == 200, shown.text[-500:]
    return Table(shown.text)


def press(client: TestClient, where: str, prefix: str, *, willpower: bool = False) -> Table:
    now = table(client, where)
    data = {"option": now.option(prefix), "idempotency_key": form_key(now.html)}
    if willpower:
        data["willpower"] = "on"
    done = client.post(f"{where}/act", data=data, follow_redirects=False)
    assert done.status_code == 303, done.text[-500:]
    return table(client, where)
