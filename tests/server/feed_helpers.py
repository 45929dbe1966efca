"""Helpers of the live-feed tests (``test_feed_*.py``, ``test_listen.py``): a feed read in a
thread, event by event, and waiting on a condition."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from typing import Self

import httpx


def until(condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


class ReadInThread:
    """A reader whose ``_thread`` starts on entry, which returns once the stream is open (``opened``),
    and is joined on exit."""

    open_within = 20.0  # seconds

    def __enter__(self) -> Self:
        self._thread.start()
        assert self.opened.wait(self.open_within)
        return self

    def __exit__(self, *exc) -> None:
        self._thread.join(timeout=30)


class EventReader(ReadInThread):
    """A ``text/event-stream`` read in a thread: every event as ``{"event", "id", "data", "at"}``
    (``data`` parsed as JSON when it is), until the server ends the stream, or with ``cut``, until
    the test leaves it (the client hangs up: a test that has what it came for does not wait out the
    feed's ``idle_timeout``)."""

    def __init__(
        self,
        url: str,
        path: str,
        headers: dict | None = None,
        params: dict | None = None,
        *,
        cut: bool = False,
    ) -> None:
        self.cut = cut
        self._socket: socket.socket | None = None
        self.events: list[dict] = []
        self.status: int | None = None
        self.opened = threading.Event()
        self.ended = threading.Event()
        self.ended_at: float | None = None
        self._thread = threading.Thread(
            target=self._read, args=(url, path, headers or {}, params or {}), daemon=True
        )

    def _read(self, url: str, path: str, headers: dict, params: dict) -> None:
        try:
            with (
                httpx.Client(base_url=url, timeout=httpx.Timeout(30, read=60)) as http,
                http.stream("GET", path, headers=headers, params=params) as stream,
            ):
                self.status = stream.status_code
                # httpx's documented ``network_stream`` extension: the connection's socket, to hang up
                self._socket = stream.extensions["network_stream"].get_extra_info("socket")
                self.opened.set()
                event: dict = {}
                data: list[str] = []
                for line in stream.iter_lines():
                    if not line:
                        if data or event:
                            text = "\n".join(data)
                            try:
                                parsed = json.loads(text)
                            except ValueError:
                                parsed = text
                            self.events.append(
                                {
                                    "event": event.get("event", "message"),
                                    "id": event.get("id"),
                                    "data": parsed,
                                    "at": time.monotonic(),
                                }
                            )
                        event, data = {}, []
                    elif line.startswith(":"):
                        continue
                    else:
                        name, _, value = line.partition(":")
                        value = value.removeprefix(" ")
                        if name == "data":
                            data.append(value)
                        elif name in ("event", "id"):
                            event[name] = value
        except httpx.HTTPError:
            if not self.cut:  # hung up by the test: expected; else the failure is the test's to see
                raise
        finally:
            self.ended_at = time.monotonic()
            self.opened.set()
            self.ended.set()

    def __exit__(self, *exc) -> None:
        if self.cut and self._socket is not None and not self.ended.is_set():
            try:
                self._socket.shutdown(socket.SHUT_RDWR)  # wakes the thread's read, which ends
            except OSError:  # ended meanwhile
                pass
        super().__exit__(*exc)

    def named(self, name: str) -> list[dict]:
        return [event for event in self.events if event["event"] == name]

    def seqs(self) -> list[int]:
        return [event["data"]["seq"] for event in self.named("entry")]
