"""SQLite's writer lane: one writer at a time, first come, first served, in this process and among
the processes that share the database file.

Without it the writers would meet at SQLite's own write lock, whose busy handler sleeps up to
100 ms between tries and serves no one in order: seconds-long tails under load, worse with several
processes (bench/README.md).
"""

from __future__ import annotations

import fcntl
import os
import threading
import weakref
from collections import deque
from pathlib import Path


class LaneTimeout(Exception):
    """A writer waited longer than ``WriterLane.timeout`` for its turn (``tx.run`` retries it, then
    answers 409 busy)."""


_LEAVING = object()  # a WriterLane's owner while its last holder gives it up
_HANDED_OVER = object()  # its owner from the hand-over until the woken waiter records itself


class WriterLane:
    """One SQLite writer thread at a time in this process, served first come, first served, and,
    with a ``lock_path``, one at a time among the processes that share the database file.

    ``with lane:`` waits for the turn (a hand-over: the writer that leaves wakes the oldest waiter,
    nobody polls or sleeps) and gives it up on leaving, whatever happened inside. A thread that
    already holds the lane enters again without waiting (a nested write meets SQLite's own lock,
    as without the lane). A wait longer than ``timeout`` seconds raises ``LaneTimeout``.

    Across processes (``rollbook serve --workers N`` on one SQLite file): the thread that holds this
    process's turn also holds an exclusive ``flock`` on ``lock_path`` (``<database>.lane``) until it
    gives the turn up; the kernel wakes the next process when it is released (``_FileLock``). A wait
    longer than ``timeout`` raises ``LaneTimeout`` too. A process that dies releases it.
    """

    def __init__(self, timeout: float = 60.0, *, lock_path: Path | None = None) -> None:
        self.timeout = timeout
        self._guard = threading.Lock()
        self._waiters: deque[threading.Lock] = deque()
        self._owner: object = None
        self._depth = 0
        self._file = _FileLock(lock_path) if lock_path is not None else None

    def __enter__(self) -> WriterLane:
        depth = self._take_turn(threading.get_ident())
        if depth == 1 and self._file is not None:
            try:
                self._file.acquire(self.timeout)
            except BaseException:
                self._leave()
                raise
        return self

    def __exit__(self, *_exc) -> None:
        with self._guard:
            self._depth -= 1
            if self._depth:
                return
            self._owner = _LEAVING  # until handed over below: not re-entered, not taken
        try:
            if self._file is not None:
                self._file.release()
        finally:
            self._leave()

    def _take_turn(self, owner: int) -> int:
        """This process's turn: the depth it is now held at by ``owner``."""
        with self._guard:
            if self._owner == owner:
                self._depth += 1
                return self._depth
            if self._owner is None:
                self._owner, self._depth = owner, 1
                return 1
            turn = threading.Lock()
            turn.acquire()
            self._waiters.append(turn)
        if not turn.acquire(timeout=self.timeout):
            with self._guard:
                if turn in self._waiters:  # still waiting: leave the queue
                    self._waiters.remove(turn)
                    raise LaneTimeout(self.timeout)
            # handed over between the timeout and the guard: the turn is ours after all
        with self._guard:
            self._owner, self._depth = owner, 1
        return 1

    def _leave(self) -> None:
        """The turn, held at depth 1 or 0 by the caller, goes to the oldest waiter (or is free)."""
        with self._guard:
            self._depth = 0
            self._owner = None
            if self._waiters:
                self._owner = _HANDED_OVER
                self._waiters.popleft().release()

    @property
    def waiting(self) -> int:
        return len(self._waiters)


class _FileLock:
    """An exclusive ``flock`` on one file (the kernel ties the lock to an open file: two lanes in one
    process exclude each other as two processes do).

    A wait is the kernel's (a blocked ``flock``, woken when the holder releases: fairer and quicker
    than trying again after pauses), on a descriptor of its own in a helper thread, so that it can be
    given up after the lane's timeout: a writer must not wait forever on a process that hangs with
    the lock. A wait given up leaves its helper blocked; when it gets the lock it lets it go at once.
    An error of the wait itself (not a timeout) is raised as it is."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd = self._open()
        self._held: int | None = None
        weakref.finalize(self, os.close, self._fd)

    def _open(self) -> int:
        return os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)

    def acquire(self, timeout: float) -> None:
        """Hold the lock, waiting up to ``timeout`` seconds (then ``LaneTimeout``)."""
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            self._held = self._fd
            return
        except BlockingIOError:
            pass
        fd = self._open()
        ended = threading.Event()
        guard = threading.Lock()
        outcome: dict[str, object] = {}

        def block() -> None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except BaseException as error:
                outcome["error"] = error
                os.close(fd)
                ended.set()
                return
            with guard:
                if outcome.get("given_up"):
                    fcntl.flock(fd, fcntl.LOCK_UN)
                    os.close(fd)
                    return
                outcome["granted"] = True
                ended.set()

        threading.Thread(target=block, name="rollbook-lane-wait", daemon=True).start()
        ended.wait(timeout)
        with guard:
            if "error" in outcome:
                raise outcome["error"]  # type: ignore[misc]  # the dict holds an exception under "error" only
            if not outcome.get("granted"):
                outcome["given_up"] = True
                raise LaneTimeout(timeout)
        self._held = fd

    def release(self) -> None:
        fd, self._held = self._held, None
        if fd is None:  # pragma: no cover - a release without the lock: nothing to let go
            return
        fcntl.flock(fd, fcntl.LOCK_UN)
        if fd != self._fd:
            os.close(fd)
