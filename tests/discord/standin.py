"""A local stand-in of Discord's REST API: a real HTTP server on 127.0.0.1, on a free port,
serving the few endpoints rollbook calls, recording every request, and misbehaving on demand.

Endpoints (under ``/api/v10``, the stand-in's ``base``):

- ``PATCH /webhooks/{application}/{token}/messages/@original`` and ``POST /webhooks/{application}/{token}``:
  an interaction's answer and its follow-ups (any token is taken: the stand-in never issued them);
- ``PUT /applications/{application}/commands`` and ``…/guilds/{guild}/commands`` (``Bot`` token);
- ``POST /channels/{channel}/webhooks`` (``Bot`` token): a webhook of the channel, then
  ``POST /webhooks/{id}/{token}`` executes it (404 ``10015`` for a webhook it did not make).

On demand: ``rate_limit`` (a 429 with ``retry_after`` in the JSON body, or only in the
``Retry-After`` header; route or global), ``fail`` (a 5xx, some times), ``down``/``up`` (every
request on a path answered 503 until ``up``), ``refuse``/``accept`` (the port closed: connection
refused; then open again on the same port).

A helper module, not a test module: tests import it (``from tests.discord.standin import StandIn``).
"""

from __future__ import annotations

import itertools
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from rollbook.settings import Settings

PREFIX = "/api/v10"
APPLICATION_ID = "110000000000000001"
BOT_TOKEN = "stand-in-bot-token"


@dataclass(frozen=True)
class Seen:
    """One request the stand-in received, and what it answered."""

    method: str
    path: str  # without the /api/v10 prefix
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any
    status: int
    at: float  # time.monotonic() on arrival


@dataclass
class Plan:
    """An answer the stand-in gives instead of the normal one, to the next ``times`` matching requests."""

    pattern: str  # a regular expression searched in "METHOD path"
    status: int  # 0: the normal answer, with ``headers`` added
    times: int | None  # None: until removed (``up``)
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class RawFile:
    """A file's bytes, answered as they are (not as JSON)."""

    content: bytes


class StandIn:
    """The stand-in server (a context manager). ``base`` is what ``DISCORD_API_BASE`` points at."""

    def __init__(self, application_id: str = APPLICATION_ID, bot_token: str = BOT_TOKEN) -> None:
        self.application_id, self.bot_token = application_id, bot_token
        self.seen: list[Seen] = []
        self.commands: dict[str | None, list[dict]] = {}  # guild (None: global) -> the commands in force
        self.webhooks: dict[str, dict] = {}  # id -> the webhook made (with its channel and token)
        self.messages: dict[str, list[dict]] = {}  # channel id -> the messages posted there, in order
        self.originals: dict[str, dict] = {}  # interaction token -> its original message's body
        self.followups: dict[str, list[dict]] = {}  # interaction token -> its follow-ups
        self.edits: dict[str, list[dict]] = {}  # message id -> the edits of that message, in order
        self.files: dict[str, bytes] = {}  # attachment path -> the file a user attached (``attach``)
        self._plans: list[Plan] = []
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.port = 0

    # --- life -------------------------------------------------------------------------------------

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}{PREFIX}"

    def settings(self, **more: Any) -> Settings:
        """Settings pointed at the stand-in, with its application id and bot token."""
        return Settings(
            discord_api_base=self.base,
            discord_application_id=self.application_id,
            discord_bot_token=self.bot_token,
            **more,
        )

    def __enter__(self) -> StandIn:
        self.accept()
        return self

    def __exit__(self, *exc) -> None:
        self.refuse()

    def accept(self) -> None:
        """Listen (again, on the same port once it had one)."""
        if self._server is not None:
            return
        server = ThreadingHTTPServer(("127.0.0.1", self.port), _handler(self))
        server.daemon_threads = True
        self.port = server.server_address[1]
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="discord-standin", daemon=True
        )
        self._thread.start()

    def refuse(self) -> None:
        """Stop listening: a connection is refused until ``accept``."""
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
            self._thread.join(timeout=5)

    # --- misbehaviour on demand --------------------------------------------------------------------

    def rate_limit(
        self,
        pattern: str,
        retry_after: float,
        *,
        global_limit: bool = False,
        times: int = 1,
        in_body: bool = True,
    ) -> None:
        """The next ``times`` requests matching ``pattern`` ("METHOD path") answer 429: ``retry_after``
        in the JSON body (and the header), or (``in_body=False``) only in the ``Retry-After`` header."""
        headers = {"Retry-After": str(retry_after), "X-RateLimit-Scope": "global" if global_limit else "user"}
        if global_limit:
            headers["X-RateLimit-Global"] = "true"
        body = (
            {"message": "You are being rate limited.", "retry_after": retry_after, "global": global_limit}
            if in_body
            else None
        )
        self._plan(Plan(pattern, 429, times, body, headers))

    def bucket_spent(self, pattern: str, reset_after: float) -> None:
        """The next request matching ``pattern`` is answered as usual, saying its rate-limit bucket is
        spent (``X-RateLimit-Remaining: 0``) until ``reset_after`` seconds from now."""
        self._plan(
            Plan(
                pattern,
                0,
                1,
                None,
                {
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": str(reset_after),
                },
            )
        )

    def fail(self, pattern: str, status: int = 503, times: int = 1, body: dict | None = None) -> None:
        """The next ``times`` requests matching ``pattern`` answer ``status`` (with Discord's error ``body``)."""
        self._plan(Plan(pattern, status, times, body or {"message": "Service Unavailable", "code": 0}))

    def down(self, pattern: str = "") -> None:
        """Every request matching ``pattern`` answers 503 until ``up(pattern)``."""
        self._plan(Plan(pattern, 503, None, {"message": "Service Unavailable", "code": 0}))

    def up(self, pattern: str = "") -> None:
        with self._lock:
            self._plans = [
                plan for plan in self._plans if not (plan.times is None and plan.pattern == pattern)
            ]

    def clear_plans(self) -> None:
        """Behave again: every planned misbehaviour dropped."""
        with self._lock:
            self._plans = []

    def _plan(self, plan: Plan) -> None:
        with self._lock:
            self._plans.append(plan)

    def _planned(self, line: str) -> Plan | None:
        with self._lock:
            for plan in self._plans:
                if re.search(plan.pattern, line):
                    if plan.times is not None:
                        plan.times -= 1
                        if plan.times <= 0:
                            self._plans.remove(plan)
                    return plan
        return None

    def delete_webhooks(self, channel_id: str) -> None:
        """The channel's webhooks deleted (as from the channel's settings in Discord)."""
        with self._lock:
            for webhook_id in [
                key for key, made in self.webhooks.items() if made["channel_id"] == str(channel_id)
            ]:
                del self.webhooks[webhook_id]

    def attach(self, filename: str, content: bytes) -> dict:
        """A file as a user attaches it to a command: served at its ``url`` (as Discord's file host
        serves it), described as an interaction's ``resolved.attachments`` entry."""
        with self._lock:
            attachment_id = str(10**17 + next(self._ids))
            path = f"/attachments/{attachment_id}/{filename}"
            self.files[path] = content
        return {
            "id": attachment_id,
            "filename": filename,
            "size": len(content),
            "content_type": "application/json",
            "url": f"{self.base}{path}",
            "proxy_url": f"{self.base}{path}",
        }

    # --- what tests read ---------------------------------------------------------------------------

    def requests(self, pattern: str = "") -> list[Seen]:
        with self._lock:
            return [seen for seen in self.seen if re.search(pattern, f"{seen.method} {seen.path}")]

    def posted(self, channel_id: str) -> list[dict]:
        with self._lock:
            return list(self.messages.get(str(channel_id), []))

    # --- the endpoints -----------------------------------------------------------------------------

    def answer(self, method: str, path: str, query: dict, headers: dict, body: Any) -> tuple[int, Any, dict]:
        planned = self._planned(f"{method} {path}")
        if planned is not None and planned.status:
            return planned.status, planned.body, planned.headers
        if method == "GET" and path.startswith("/attachments/"):
            with self._lock:
                found = self.files.get(path)
            return (200, RawFile(found), {}) if found is not None else (404, {"message": "Not Found"}, {})
        status, answer, headers = self._normal(method, path, query, headers, body)
        return status, answer, {**headers, **(planned.headers if planned is not None else {})}

    def _normal(self, method: str, path: str, query: dict, headers: dict, body: Any) -> tuple[int, Any, dict]:
        bot = headers.get("authorization") == f"Bot {self.bot_token}"
        if match := re.fullmatch(r"/applications/(\d+)(?:/guilds/(\d+))?/commands", path):
            if method != "PUT":
                return 405, {"message": "405: Method Not Allowed", "code": 0}, {}
            if not bot:
                return 401, {"message": "401: Unauthorized", "code": 0}, {}
            if match.group(1) != self.application_id:
                return 403, {"message": "Missing Access", "code": 50001}, {}
            if not isinstance(body, list):
                return 400, {"message": "Invalid Form Body", "code": 50035}, {}
            made = [
                {**command, "id": str(next(self._ids)), "application_id": self.application_id}
                for command in body
            ]
            with self._lock:
                self.commands[match.group(2)] = made
            return 200, made, {}
        if match := re.fullmatch(r"/channels/(\d+)/webhooks", path):
            if method != "POST":
                return 405, {"message": "405: Method Not Allowed", "code": 0}, {}
            if not bot:
                return 401, {"message": "401: Unauthorized", "code": 0}, {}
            webhook_id = str(10**17 + next(self._ids))
            made = {
                "id": webhook_id,
                "type": 1,
                "channel_id": match.group(1),
                "name": (body or {}).get("name"),
                "token": f"hook-token-{webhook_id}",
                "application_id": self.application_id,
            }
            with self._lock:
                self.webhooks[webhook_id] = made
            return 200, {**made, "url": f"{self.base}/webhooks/{webhook_id}/{made['token']}"}, {}
        if match := re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path):
            if method != "PATCH":
                return 405, {"message": "405: Method Not Allowed", "code": 0}, {}
            if not bot:
                return 401, {"message": "401: Unauthorized", "code": 0}, {}
            return 200, self._edited(match.group(2), body), {}
        if match := re.fullmatch(r"/webhooks/(\d+)/([^/]+)/messages/(\d+)", path):
            with self._lock:
                made = self.webhooks.get(match.group(1))
            if method != "PATCH" or made is None or made["token"] != match.group(2):
                return 404, {"message": "Unknown Webhook", "code": 10015}, {}
            return 200, self._edited(match.group(3), body), {}
        if match := re.fullmatch(r"/webhooks/(\d+)/([^/]+)/messages/@original", path):
            if method != "PATCH" or match.group(1) != self.application_id:
                return 404, {"message": "Unknown Webhook", "code": 10015}, {}
            with self._lock:
                self.originals[match.group(2)] = body
            return 200, self._message(None, body), {}
        if match := re.fullmatch(r"/webhooks/(\d+)/([^/]+)", path):
            if method != "POST":
                return 405, {"message": "405: Method Not Allowed", "code": 0}, {}
            hook, token = match.groups()
            if hook == self.application_id:  # an interaction's follow-up
                with self._lock:
                    self.followups.setdefault(token, []).append(body)
                return 200, self._message(None, body), {}
            with self._lock:
                made = self.webhooks.get(hook)
                if made is None or made["token"] != token:
                    return 404, {"message": "Unknown Webhook", "code": 10015}, {}
                message = self._message(made["channel_id"], body, webhook_id=hook)
                self.messages.setdefault(made["channel_id"], []).append(message)
            return (200, message, {}) if query.get("wait") == ["true"] else (204, None, {})
        return 404, {"message": "404: Not Found", "code": 0}, {}

    def _edited(self, message_id: str, body: Any) -> dict:
        """A message edited (its components: the step done): recorded, and a posted one changed."""
        with self._lock:
            self.edits.setdefault(message_id, []).append(body)
            for posted in self.messages.values():
                for message in posted:
                    if message["id"] == message_id and isinstance(body, dict):
                        message.update(
                            {k: v for k, v in body.items() if k in ("content", "embeds", "components")}
                        )
        return {"id": message_id, **(body if isinstance(body, dict) else {})}

    def _message(self, channel_id: str | None, body: Any, **more: Any) -> dict:
        body = body if isinstance(body, dict) else {}
        return {
            "id": str(10**18 + next(self._ids)),
            "channel_id": channel_id,
            "content": body.get("content", ""),
            "embeds": body.get("embeds", []),
            "components": body.get("components", []),
            **more,
        }


def _handler(standin: StandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass  # quiet: the tests read ``seen``

        def _serve(self) -> None:
            arrived = time.monotonic()
            parts = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = raw.decode("utf-8", "replace")
            path = parts.path[len(PREFIX) :] if parts.path.startswith(PREFIX) else parts.path
            query = parse_qs(parts.query)
            headers = {name.lower(): value for name, value in self.headers.items()}
            status, answer, extra = standin.answer(self.command, path, query, headers, body)
            with standin._lock:
                standin.seen.append(Seen(self.command, path, query, headers, body, status, arrived))
            if isinstance(answer, RawFile):
                data, answer = answer.content, None
            else:
                data = b"" if answer is None else json.dumps(answer).encode()
            self.send_response(status)
            for name, value in extra.items():
                self.send_header(name, value)
            if answer is not None:
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            # one request per connection: once ``refuse`` closed the port, no kept-alive connection
            # is still answered by its handler thread
            self.send_header("Connection", "close")
            self.close_connection = True
            self.end_headers()
            if data:
                self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve

    return Handler
