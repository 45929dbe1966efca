"""The sign-in and join budgets: how many attempts one address, and one code, may make in a minute.

Signing in (the web's ``/signin``, the API's ``POST /api/session``) and joining (``/join``, ``POST
/api/join``) take a secret someone types; the codes and keys are long random values, so guessing is
not the risk, flooding is (each join makes a member; each attempt costs a database look-up). Each
attempt spends one unit of the caller's address's budget (``ROLLBOOK_SIGNINS_PER_ADDRESS`` a
minute) and one of the code's (``ROLLBOOK_SIGNINS_PER_CODE``: the invitation code, the key);
beyond either, 429 ``too_many_signins`` with ``Retry-After``, before any look-up.

Per process, in memory (like the live feeds' bounds): with several processes each holds its own.
Behind a reverse proxy the address is the client's only when ``ROLLBOOK_TRUST_PROXY`` is set
(else every visitor is the proxy's one address).
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

from starlette.requests import Request

from rollbook.server.problems import ProblemError

WINDOW = 60.0  # seconds: the budgets are per minute
MOST_KEYS = 50_000  # addresses and codes remembered at once (the oldest forgotten first)


class Budget:
    """At most ``most`` attempts per key in any ``WINDOW`` seconds (a sliding window)."""

    def __init__(self, most: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.most = most
        self.clock = clock
        self._spent: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def spend(self, key: str) -> float | None:
        """Spend one attempt of ``key``: None when within the budget, else the seconds until one is
        free again (nothing spent)."""
        now = self.clock()
        with self._lock:
            times = self._spent.get(key)
            if times is None:
                times = self._spent[key] = deque()
                while len(self._spent) > MOST_KEYS:
                    self._spent.popitem(last=False)
            else:
                self._spent.move_to_end(key)
            while times and times[0] <= now - WINDOW:
                times.popleft()
            if len(times) >= self.most:
                return times[0] + WINDOW - now
            times.append(now)
            return None


class Signins:
    """The two budgets of a process: per address and per code."""

    def __init__(self, per_address: int, per_code: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.address = Budget(per_address, clock)
        self.code = Budget(per_code, clock)

    def spend(self, address: str | None, code: str) -> None:
        """One attempt from ``address`` with ``code``; 429 ``too_many_signins`` beyond a budget."""
        digest = hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest()  # no secret held
        for budget, key, per in ((self.address, address or "", "address"), (self.code, digest, "code")):
            wait = budget.spend(key)
            if wait is not None:
                seconds = max(1, math.ceil(wait))
                raise ProblemError(
                    429,
                    "too_many_signins",
                    headers={"Retry-After": str(seconds)},
                    most=budget.most,
                    per=per,
                    seconds=seconds,
                )


def spend_signin(request: Request, code: str) -> None:
    """One sign-in or join attempt of this request's address with ``code`` (``app.state.signins``,
    made by ``create_app``)."""
    signins: Signins | None = getattr(request.app.state, "signins", None)
    if signins is not None:
        signins.spend(request.client.host if request.client else None, code)
