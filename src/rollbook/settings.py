"""The process's settings, read from the environment once, at start, into one typed object.

Every setting the server and the CLI take from the environment is a field of ``Settings``
(pydantic-settings): a value that does not parse (``ROLLBOOK_SESSION_HOURS=abc``) stops the start
with one line naming the variable (``SettingsError``), not the first request that needs it.

=============================== ============================================================
``ROLLBOOK_DATABASE_URL``        the store (default ``sqlite:///./rollbook.sqlite3``)
``ROLLBOOK_SESSION_HOURS``       sessions expire after this many hours (unset or 0: until closed)
``ROLLBOOK_SECRET_KEY``          the operator's secret (at least 16 characters), else
``ROLLBOOK_SECRET_KEY_FILE``     the key file holding it (default ``./rollbook-secret.key``)
``ROLLBOOK_TRUST_PROXY``         honour ``X-Forwarded-Proto``/``-Host`` (behind a TLS proxy)
``ROLLBOOK_SERVE_SETTINGS``      ``rollbook serve --workers N`` to its workers only: ``{"url", "threads"}``
``ROLLBOOK_LANG``                the CLI's language, else ``LC_ALL``, ``LC_MESSAGES``, ``LANG``
``ROLLBOOK_SOLO_SCENARIOS``      a folder of the host's own solo scenarios (``*.yaml``; SPEC S-10, docs/solo.md)
``ROLLBOOK_FEEDS_PER_MEMBER``    live feeds one member holds open in a process (default 16: the oldest closes)
``ROLLBOOK_FEEDS_PER_PROCESS``   live feeds a process holds open (default 2000: beyond, 429 ``too_many_feeds``)
``ROLLBOOK_SIGNINS_PER_ADDRESS`` sign-ins and joins one address may try a minute (default 30: beyond, 429)
``ROLLBOOK_SIGNINS_PER_CODE``    sign-ins and joins one key or invitation code may take a minute (default 10)
``DISCORD_APPLICATION_ID``,      the Discord application's id, public key and bot token
``DISCORD_PUBLIC_KEY``,
``DISCORD_BOT_TOKEN``
``DISCORD_API_BASE``             Discord's REST API (default ``https://discord.com/api/v10``; tests
                                 point it at a local stand-in)
=============================== ============================================================

An empty variable counts as unset. ``create_app`` and the CLI's ``main`` read the settings once
(``load``) and ``install`` them; the code that runs later asks ``current()``. A test builds its own
``Settings(...)`` and passes or installs it, or sets the environment before ``create_app``.
"""

from __future__ import annotations

import locale
from datetime import timedelta
from typing import Any

from pydantic import BaseModel, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from rollbook.i18n import normalize

DEFAULT_DATABASE_URL = "sqlite:///./rollbook.sqlite3"
DEFAULT_SECRET_FILE = "./rollbook-secret.key"
DEFAULT_DISCORD_API_BASE = "https://discord.com/api/v10"
SHORTEST_SECRET = 16
ENV_PREFIX = "ROLLBOOK_"
# the locale values that name no language: the next variable (or the process locale) decides
NO_LANGUAGE = ("C", "POSIX", "C.UTF-8")


class SettingsError(ValueError):
    """A setting of the environment does not parse: one line naming the variable."""


class ServeSettings(BaseModel):
    """What ``rollbook serve --workers N`` hands its worker processes (``serving.worker_app``)."""

    url: str
    threads: int = Field(ge=1)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_ignore_empty=True, extra="ignore", frozen=True, populate_by_name=True
    )

    database_url: str = DEFAULT_DATABASE_URL
    session_hours: float | None = Field(default=None, allow_inf_nan=False)
    secret_key: SecretStr | None = None
    secret_key_file: str = DEFAULT_SECRET_FILE
    trust_proxy: bool = False
    serve_settings: ServeSettings | None = None
    lang: str | None = None
    solo_scenarios: str | None = None  # S-10: the host's scenario folder, checked at start
    # the live feeds a process holds open: a member's (their oldest closed beyond it) and all (429 beyond)
    feeds_per_member: int = Field(default=16, ge=1)
    feeds_per_process: int = Field(default=2000, ge=1)
    # sign-in and join attempts a minute, per address and per code (server/ratelimit.py; 429 beyond)
    signins_per_address: int = Field(default=30, ge=1)
    signins_per_code: int = Field(default=10, ge=1)
    lc_all: str | None = Field(default=None, validation_alias="LC_ALL")
    lc_messages: str | None = Field(default=None, validation_alias="LC_MESSAGES")
    system_lang: str | None = Field(default=None, validation_alias="LANG")
    discord_application_id: str | None = Field(default=None, validation_alias="DISCORD_APPLICATION_ID")
    discord_public_key: str | None = Field(default=None, validation_alias="DISCORD_PUBLIC_KEY")
    discord_bot_token: SecretStr | None = Field(default=None, validation_alias="DISCORD_BOT_TOKEN")
    discord_api_base: str = Field(default=DEFAULT_DISCORD_API_BASE, validation_alias="DISCORD_API_BASE")

    @field_validator("secret_key")
    @classmethod
    def _long_enough(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None:
            return None
        stripped = value.get_secret_value().strip()
        if len(stripped) < SHORTEST_SECRET:
            raise ValueError(f"must be at least {SHORTEST_SECRET} characters")
        return SecretStr(stripped)

    @field_validator("discord_api_base")
    @classmethod
    def _an_http_base(cls, value: str) -> str:
        if not value.startswith(("https://", "http://")):
            raise ValueError("must be an http(s) URL")
        return value.rstrip("/")

    @property
    def session_ttl(self) -> timedelta | None:
        """How long a session lasts; None (no expiry) when unset, 0 or negative."""
        hours = self.session_hours
        return timedelta(hours=hours) if hours is not None and hours > 0 else None

    @property
    def language(self) -> str:
        """The CLI's language: ``ROLLBOOK_LANG``, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` (the
        first that names a language), then the process locale; English when none is supported."""
        for value in (self.lang, self.lc_all, self.lc_messages, self.system_lang):
            if value and value not in NO_LANGUAGE:
                return normalize(value)
        return normalize(locale.getlocale()[0])


def _variable(field: str) -> str:
    alias = Settings.model_fields[field].validation_alias if field in Settings.model_fields else None
    return alias if isinstance(alias, str) else ENV_PREFIX + field.upper()


def _one_line(error: ValidationError) -> str:
    parts = []
    for problem in error.errors():
        location = [str(part) for part in problem["loc"]]
        name = _variable(location[0]) if location else "settings"
        where = ".".join([name, *location[1:]])
        parts.append(f"{where}: {problem['msg']}")
    return "; ".join(parts)


def load(**given: Any) -> Settings:
    """The settings of the environment (``given`` fields override it); ``SettingsError`` when one
    does not parse."""
    try:
        return Settings(**given)
    except ValidationError as error:
        raise SettingsError(f"bad setting: {_one_line(error)}") from None


_installed: Settings | None = None


def install(settings: Settings | None) -> Settings | None:
    """Make ``settings`` the process's (None: read the environment again at the next ``current()``);
    returns the ones it replaces."""
    global _installed
    previous, _installed = _installed, settings
    return previous


def current() -> Settings:
    """The process's settings: the installed ones, else the environment's (read once, then kept)."""
    global _installed
    if _installed is None:
        _installed = load()
    return _installed
