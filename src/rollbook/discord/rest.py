"""Discord's REST API, the few calls rollbook makes: ``DiscordRest``, an httpx client.

- ``edit_original`` (``PATCH /webhooks/{application}/{token}/messages/@original``): a deferred
  interaction's answer; ``followup`` (``POST /webhooks/{application}/{token}``): one more message;
  both authenticated by the interaction's token alone.
- ``put_commands`` (``PUT /applications/{application}/commands``, or ``…/guilds/{guild}/commands``):
  the application's commands overwritten in bulk; ``create_channel_webhook``
  (``POST /channels/{channel}/webhooks``): both with ``Authorization: Bot <token>``.
- ``execute_webhook(url, body)``: a message posted through a channel webhook, ``?wait=true`` so that
  Discord answers once the message exists (the poster advances its cursor only then).

Every call has a budget, the most time it may take in all (``budget=``, else the client's): within
it a 429 is honoured (its ``retry_after``, from the JSON body, else the ``Retry-After`` header; a
global limit holds every route of this client, a route's limit only that route), and a 5xx or a
connection that fails is tried again after a backoff. Past the budget, or when Discord cannot be
reached, ``DiscordUnavailable`` (with ``retry_after`` when Discord said how long); any other 4xx is
``DiscordRefused`` at once (retrying cannot help: a bad token, an unknown webhook, a body refused).
A budget of 0 makes one attempt and never waits: the channel poster schedules its own retries so
that a channel that is down or limited never holds the others back (``discord.poster``).

``DiscordRest(base_url, bot_token, *, client=None, max_retries=3, application_id=None, budget=30)``
(``DiscordRest.from_settings()``: ``DISCORD_API_BASE``, ``DISCORD_BOT_TOKEN``,
``DISCORD_APPLICATION_ID``) is synchronous: it is called from worker threads and background work.
``client_for(app.state)`` is the app's one client, ``app.state.discord_rest`` (a test sets one
pointed at the stand-in, ``tests/discord/standin.py``).

Tokens (the bot's, an interaction's, a webhook's) are never in an error's message nor in a log line:
a call is named by its route (``PATCH /webhooks/{application}/{token}/messages/@original``).
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, urlsplit

import httpx

from rollbook import __version__
from rollbook.settings import DEFAULT_DISCORD_API_BASE, Settings, current

logger = logging.getLogger("rollbook.discord")

DEFAULT_BUDGET = 30.0  # seconds a call may take in all, waits and retries included
MAX_RETRIES = 3  # a 5xx or a failed connection is tried again this many times (within the budget)
TIMEOUT = httpx.Timeout(10.0, connect=5.0)
BACKOFF_FIRST = 0.25  # the first wait after a 5xx or a failed connection; doubles, up to BACKOFF_LAST
BACKOFF_LAST = 4.0
RATE_LIMIT_FALLBACK = 1.0  # a 429 that says nothing of how long (a proxy's): wait this long
RATE_LIMIT_LEAST = 0.01  # a 429 "retry after 0" still waits a little: never a busy loop
WEBHOOK_PATH = re.compile(r"/webhooks/(\d+)/([A-Za-z0-9_.\-]+)/?$")
SNOWFLAKE = re.compile(r"\d{1,20}")


class _HideTokens(logging.Filter):
    """httpx logs each request's URL at INFO (``HTTP Request: POST https://…``): an interaction's or a
    webhook's token is in that URL, and would be in the log of an operator who turns INFO on."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        hidden = TOKEN_IN_PATH.sub(r"/webhooks/\1/…", message)
        if hidden != message:
            record.msg, record.args = hidden, ()
        return True


TOKEN_IN_PATH = re.compile(r"/webhooks/(\d+)/[^/\s\"?]+")
logging.getLogger("httpx").addFilter(_HideTokens())


class DiscordError(Exception):
    """A call to Discord that did not succeed: ``route`` names it (never a token), ``status`` is the
    HTTP status Discord answered (None: no answer)."""

    def __init__(self, message: str, *, route: str, status: int | None = None) -> None:
        super().__init__(message)
        self.route, self.status = route, status


class DiscordUnavailable(DiscordError):
    """Discord did not accept the call within its budget: rate limited, 5xx, or not reached.
    ``retry_after``: the seconds Discord asked to wait (None when it did not say); ``global_limit``:
    the limit holds every route of the application."""

    def __init__(
        self,
        message: str,
        *,
        route: str,
        status: int | None = None,
        retry_after: float | None = None,
        global_limit: bool = False,
    ) -> None:
        super().__init__(message, route=route, status=status)
        self.retry_after, self.global_limit = retry_after, global_limit


class DiscordRefused(DiscordError):
    """Discord refused the call (a 4xx other than 429): retrying it cannot help. ``code`` and
    ``detail`` are Discord's JSON error code and message (``10015`` Unknown Webhook, ``50001``…)."""

    def __init__(self, message: str, *, route: str, status: int, code: int | None, detail: str) -> None:
        super().__init__(message, route=route, status=status)
        self.code, self.detail = code, detail


class DiscordNotConfigured(DiscordError):
    """A call needs a setting that is unset (``variable``: the environment variable to set)."""

    def __init__(self, variable: str, *, route: str) -> None:
        super().__init__(f"{variable} is not set", route=route)
        self.variable = variable


def _user_agent() -> str:
    # Discord asks for this shape (DiscordBot (url, version)); another may be refused by its edge
    return f"DiscordBot (https://github.com/rollbook/rollbook, {__version__})"


USER_AGENT = _user_agent()


def _segment(value: str, what: str) -> str:
    text = str(value)
    if not text or "/" in text or text in (".", ".."):
        raise ValueError(f"not a Discord {what}: {text[:20]!r}")
    return quote(text, safe="")


def _snowflake(value: str | int, what: str) -> str:
    text = str(value)
    if not SNOWFLAKE.fullmatch(text):
        raise ValueError(f"not a Discord {what} id: {text[:25]!r}")
    return text


def _seconds(value: Any) -> float | None:
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return None
    return seconds if seconds >= 0 and seconds == seconds and seconds != float("inf") else None


def _json(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


class AttachmentRefused(Exception):
    """An attached file that is not read (``DiscordRest.fetch_attachment``): its problem code."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


# Discord's file hosts: an attachment's ``url`` (and ``proxy_url``)
ATTACHMENT_HOSTS = frozenset({"cdn.discordapp.com", "media.discordapp.net"})


class DiscordRest:
    """The calls rollbook makes to Discord's REST API (the module's docstring). Thread-safe: one
    client is shared by the interactions endpoint's background work and the channel poster."""

    def __init__(
        self,
        base_url: str = DEFAULT_DISCORD_API_BASE,
        bot_token: str | None = None,
        *,
        client: httpx.Client | None = None,
        max_retries: int = MAX_RETRIES,
        application_id: str | None = None,
        budget: float = DEFAULT_BUDGET,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base = base_url.rstrip("/")
        self.application_id = application_id  # None: the settings' DISCORD_APPLICATION_ID, when needed
        self.max_retries, self.budget = max_retries, budget
        self._bot_token = bot_token
        self._sleep = sleep
        self._own_client = client is None
        self._http = client if client is not None else httpx.Client(timeout=TIMEOUT, follow_redirects=False)
        self._lock = threading.Lock()
        self._global_until = 0.0  # time.monotonic() before which no call is made (a global 429)
        self._route_until: dict[str, float] = {}  # the same for one route (its 429, or its bucket spent)
        self.calls = 0  # HTTP requests sent (tests and logs read it)

    @classmethod
    def from_settings(cls, settings: Settings | None = None, **options: Any) -> DiscordRest:
        """A client of the settings' ``DISCORD_API_BASE``, ``DISCORD_BOT_TOKEN`` and
        ``DISCORD_APPLICATION_ID``."""
        settings = settings or current()
        token = settings.discord_bot_token.get_secret_value() if settings.discord_bot_token else None
        options.setdefault("application_id", settings.discord_application_id)
        return cls(settings.discord_api_base, token, **options)

    def close(self) -> None:
        if self._own_client:
            self._http.close()

    def __enter__(self) -> DiscordRest:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- the calls -------------------------------------------------------------------------------

    def edit_original(
        self, application_id: str, interaction_token: str, body: dict, *, budget: float | None = None
    ) -> dict:
        """The deferred answer (type 5) of an interaction, edited into its message."""
        path = (
            f"/webhooks/{_snowflake(application_id, 'application')}/{_segment(interaction_token, 'token')}"
            "/messages/@original"
        )
        return self._call(
            "PATCH", path, "PATCH /webhooks/{application}/{token}/messages/@original", body, budget=budget
        )

    def followup(
        self, application_id: str, interaction_token: str, body: dict, *, budget: float | None = None
    ) -> dict:
        """One more message answering an interaction (an ephemeral one with ``flags: 64``)."""
        path = f"/webhooks/{_snowflake(application_id, 'application')}/{_segment(interaction_token, 'token')}"
        return self._call("POST", path, "POST /webhooks/{application}/{token}", body, budget=budget)

    def put_commands(
        self, commands: list[dict], guild_id: str | None = None, *, budget: float | None = None
    ) -> list[dict]:
        """The application's commands, overwritten in bulk: one guild's (at once), else global."""
        application = self._application("PUT /applications/{application}/commands")
        if guild_id is None:
            path, route = f"/applications/{application}/commands", "PUT /applications/{application}/commands"
        else:
            path = f"/applications/{application}/guilds/{_snowflake(guild_id, 'guild')}/commands"
            route = "PUT /applications/{application}/guilds/{guild}/commands"
        return self._call("PUT", path, route, list(commands), bot=True, budget=budget)

    def create_channel_webhook(self, channel_id: str, name: str, *, budget: float | None = None) -> str:
        """A webhook of the channel (the bot needs Manage Webhooks there): the URL to execute it."""
        route = "POST /channels/{channel}/webhooks"
        made = self._call(
            "POST",
            f"/channels/{_snowflake(channel_id, 'channel')}/webhooks",
            route,
            {"name": name[:80]},
            bot=True,
            budget=budget,
        )
        if not isinstance(made, dict) or "id" not in made or not made.get("token"):
            raise DiscordUnavailable(
                "Discord answered a webhook without its id and token", route=route, status=200
            )
        return f"{self.base}/webhooks/{_snowflake(made['id'], 'webhook')}/{_segment(made['token'], 'token')}"

    def edit_message(
        self, channel_id: str, message_id: str, body: dict, *, webhook_url: str | None = None
    ) -> dict:
        """A message of the channel edited (its components, once its step is done): through the
        channel webhook that posted it (``webhook_url``), else as the bot's own message (an
        interaction's answer) with ``Authorization: Bot <token>``."""
        message = _snowflake(message_id, "message")
        if webhook_url is not None:
            found = WEBHOOK_PATH.search(urlsplit(webhook_url).path)
            if found is None:
                raise ValueError("not a Discord webhook URL")
            return self._call(
                "PATCH",
                f"/webhooks/{found.group(1)}/{found.group(2)}/messages/{message}",
                "PATCH /webhooks/{webhook}/{token}/messages/{message}",
                body,
                bucket=f"webhook {found.group(1)}",
            )
        return self._call(
            "PATCH",
            f"/channels/{_snowflake(channel_id, 'channel')}/messages/{message}",
            "PATCH /channels/{channel}/messages/{message}",
            body,
            bot=True,
        )

    def execute_webhook(self, url: str, body: dict, *, budget: float | None = None) -> dict:
        """A message posted through a channel webhook, answered once it exists (``?wait=true``). The
        URL is read for its webhook's id and token only and sent to this client's base: a stored URL
        never sends the message anywhere else (``discord.com/api/webhooks/…`` or any version)."""
        found = WEBHOOK_PATH.search(urlsplit(url).path)
        if found is None:
            raise ValueError("not a Discord webhook URL")
        path = f"/webhooks/{found.group(1)}/{found.group(2)}"
        return self._call(
            "POST",
            path,
            "POST /webhooks/{webhook}/{token}",
            body,
            params={"wait": "true"},
            budget=budget,
            bucket=f"webhook {found.group(1)}",
        )

    def fetch_attachment(self, url: str, most: int) -> bytes:
        """A file a user attached to a command (``/character import``), read from the URL Discord gave,
        at most ``most`` bytes. Only Discord's own file hosts (``ATTACHMENT_HOSTS``, over HTTPS) or
        this client's API host are fetched: an interaction names the URL, and it never sends the
        server elsewhere. ``AttachmentRefused`` (its ``code``) for another host, a file too big or
        one that cannot be read."""
        parts = urlsplit(url)
        ours = urlsplit(self.base)
        allowed = (parts.scheme == "https" and parts.hostname in ATTACHMENT_HOSTS) or (
            parts.scheme == ours.scheme and parts.netloc == ours.netloc
        )
        if not allowed:
            raise AttachmentRefused("import_attachment_host")
        try:
            with self._http.stream("GET", url, headers={"User-Agent": _user_agent()}) as response:
                if response.status_code != 200:
                    raise AttachmentRefused("import_attachment_unread")
                raw = b""
                for chunk in response.iter_bytes():
                    raw += chunk
                    if len(raw) > most:
                        raise AttachmentRefused("import_too_big")
                return raw
        except httpx.HTTPError:
            raise AttachmentRefused("import_attachment_unread") from None

    # --- one call, its waits and retries ---------------------------------------------------------

    def _application(self, route: str) -> str:
        application = self.application_id or current().discord_application_id
        if not application:
            raise DiscordNotConfigured("DISCORD_APPLICATION_ID", route=route)
        return _snowflake(application, "application")

    def _headers(self, bot: bool, route: str) -> dict[str, str]:
        if not bot:
            return {}
        if not self._bot_token:
            raise DiscordNotConfigured("DISCORD_BOT_TOKEN", route=route)
        return {"Authorization": f"Bot {self._bot_token}"}

    def _call(
        self,
        method: str,
        path: str,
        route: str,
        body: Any,
        *,
        bot: bool = False,
        params: dict | None = None,
        budget: float | None = None,
        bucket: str | None = None,
    ) -> Any:
        headers = {"User-Agent": USER_AGENT, **self._headers(bot, route)}
        bucket = bucket or f"{method} {path}"
        deadline = time.monotonic() + (self.budget if budget is None else max(0.0, budget))
        failures = 0
        while True:
            self._wait_for_limits(bucket, route, deadline)
            try:
                with self._lock:
                    self.calls += 1
                response = self._http.request(
                    method, self.base + path, json=body, params=params, headers=headers
                )
            except httpx.TransportError as error:  # refused, reset, timed out: maybe not for long
                problem: DiscordUnavailable = DiscordUnavailable(
                    f"Discord was not reached ({type(error).__name__})", route=route
                )
            else:
                if response.is_success:
                    self._note_bucket(bucket, response)
                    return _json(response) if response.status_code != 204 else None
                if response.status_code == 429:
                    self._rate_limited(bucket, response, route)
                    continue  # the wait (or the refusal past the budget) is _wait_for_limits's
                if response.status_code < 500:
                    raise self._refused(response, route)
                problem = DiscordUnavailable(
                    f"Discord answered {response.status_code}", route=route, status=response.status_code
                )
            pause = min(BACKOFF_LAST, BACKOFF_FIRST * 2**failures)
            failures += 1
            if failures > self.max_retries or time.monotonic() + pause > deadline:
                raise problem
            logger.info("rollbook: %s: %s; trying again in %.2f s", route, problem, pause)
            self._sleep(pause)

    def _wait_for_limits(self, bucket: str, route: str, deadline: float) -> None:
        """Wait out a rate limit in force (global or this route's), or refuse when it outlasts the budget."""
        with self._lock:
            global_until = self._global_until
            until = max(global_until, self._route_until.get(bucket, 0.0))
        left = until - time.monotonic()
        if left <= 0:
            return
        if time.monotonic() + left > deadline:
            raise DiscordUnavailable(
                f"rate limited by Discord for {left:.2f} s more",
                route=route,
                status=429,
                retry_after=left,
                global_limit=global_until >= until,
            )
        self._sleep(left)

    def _rate_limited(self, bucket: str, response: httpx.Response, route: str) -> None:
        data = _json(response)
        data = data if isinstance(data, dict) else {}
        headers = response.headers
        retry_after = _seconds(data.get("retry_after"))
        if retry_after is None:
            retry_after = _seconds(headers.get("Retry-After"))
        if retry_after is None:
            retry_after = _seconds(headers.get("X-RateLimit-Reset-After"))
        if retry_after is None:
            retry_after = RATE_LIMIT_FALLBACK
        retry_after = max(RATE_LIMIT_LEAST, retry_after)
        is_global = (
            bool(data.get("global"))
            or headers.get("X-RateLimit-Global", "").lower() == "true"
            or headers.get("X-RateLimit-Scope", "").lower() == "global"
        )
        until = time.monotonic() + retry_after
        with self._lock:
            if is_global:
                self._global_until = max(self._global_until, until)
            else:
                self._route_until[bucket] = max(self._route_until.get(bucket, 0.0), until)
        logger.info(
            "rollbook: %s: rate limited (%s) for %.2f s",
            route,
            "global" if is_global else "route",
            retry_after,
        )

    def _note_bucket(self, bucket: str, response: httpx.Response) -> None:
        """A bucket spent (``X-RateLimit-Remaining: 0``) holds its route until its reset: waiting
        beforehand costs less than the 429 it would bring."""
        if response.headers.get("X-RateLimit-Remaining") != "0":
            return
        reset_after = _seconds(response.headers.get("X-RateLimit-Reset-After"))
        if reset_after:
            with self._lock:
                self._route_until[bucket] = max(
                    self._route_until.get(bucket, 0.0), time.monotonic() + reset_after
                )

    @staticmethod
    def _refused(response: httpx.Response, route: str) -> DiscordRefused:
        data = _json(response)
        data = data if isinstance(data, dict) else {}
        code = data.get("code") if isinstance(data.get("code"), int) else None
        detail = str(data.get("message") or response.reason_phrase or "")[:200]
        return DiscordRefused(
            f"Discord refused {route}: {response.status_code} {detail}".strip(),
            route=route,
            status=response.status_code,
            code=code,
            detail=detail,
        )


_made = threading.Lock()


def client_for(state: Any) -> DiscordRest:
    """The app's one client (``app.state.discord_rest``): the one a test set there (pointed at the
    stand-in), else one made from the app's settings (``state.settings``) on first use and kept."""
    with _made:
        client = getattr(state, "discord_rest", None)
        if client is None:
            client = DiscordRest.from_settings(getattr(state, "settings", None))
            state.discord_rest = client
        return client
