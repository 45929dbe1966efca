"""Settings in one place (rollbook.settings): read once at start, a bad value stops the start with one
line naming the variable; the Discord placeholders keep their names."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta

import pytest

from rollbook import settings
from rollbook.settings import Settings, SettingsError


def test_a_session_hours_that_does_not_parse_is_refused_at_load(monkeypatch):
    monkeypatch.setenv("ROLLBOOK_SESSION_HOURS", "abc")
    with pytest.raises(SettingsError, match="ROLLBOOK_SESSION_HOURS"):
        settings.load()


def test_create_app_refuses_a_bad_setting_before_anything_starts(monkeypatch, tmp_path):
    from rollbook.app.app import create_app

    monkeypatch.setenv("ROLLBOOK_SESSION_HOURS", "abc")
    with pytest.raises(SettingsError, match="ROLLBOOK_SESSION_HOURS"):
        create_app(f"sqlite:///{tmp_path / 'never.sqlite3'}")
    assert not (tmp_path / "never.sqlite3").exists()


def test_rollbook_serve_exits_2_with_one_line_on_a_bad_setting(tmp_path):
    env = {
        **os.environ,
        "ROLLBOOK_SESSION_HOURS": "abc",
        "ROLLBOOK_DATABASE_URL": f"sqlite:///{tmp_path / 'never.sqlite3'}",
    }
    done = subprocess.run(
        [sys.executable, "-c", "from rollbook.cli import main; main()", "serve", "--port", "1"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rollbook: ") and "ROLLBOOK_SESSION_HOURS" in lines[0]
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "never.sqlite3").exists()


@pytest.mark.parametrize(
    ("value", "ttl"),
    [("2", timedelta(hours=2)), ("0.5", timedelta(minutes=30)), ("0", None), ("-1", None), ("", None)],
)
def test_session_hours(monkeypatch, value, ttl):
    monkeypatch.setenv("ROLLBOOK_SESSION_HOURS", value)
    assert settings.load().session_ttl == ttl


def test_a_short_secret_key_is_refused(monkeypatch):
    monkeypatch.setenv("ROLLBOOK_SECRET_KEY", "short")
    with pytest.raises(SettingsError, match="ROLLBOOK_SECRET_KEY.*16"):
        settings.load()
    monkeypatch.setenv("ROLLBOOK_SECRET_KEY", "  sixteen chars ok  ")
    assert settings.load().secret_key.get_secret_value() == "sixteen chars ok"


@pytest.mark.parametrize(
    ("value", "trusted"),
    [("1", True), ("true", True), ("yes", True), ("0", False), ("no", False), ("", False)],
)
def test_trust_proxy(monkeypatch, value, trusted):
    monkeypatch.setenv("ROLLBOOK_TRUST_PROXY", value)
    assert settings.load().trust_proxy is trusted


def test_trust_proxy_that_is_no_yes_or_no_is_refused(monkeypatch):
    monkeypatch.setenv("ROLLBOOK_TRUST_PROXY", "maybe")
    with pytest.raises(SettingsError, match="ROLLBOOK_TRUST_PROXY"):
        settings.load()


def test_the_language_follows_rollbook_lang_then_the_locale_variables(monkeypatch):
    for variable in ("ROLLBOOK_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    assert settings.load().language == "es"
    monkeypatch.setenv("LC_MESSAGES", "C.UTF-8")  # names no language: the next variable decides
    assert settings.load().language == "es"
    monkeypatch.setenv("LC_ALL", "fr_FR.UTF-8")
    assert settings.load().language == "fr"
    monkeypatch.setenv("ROLLBOOK_LANG", "en")
    assert settings.load().language == "en"
    monkeypatch.setenv("ROLLBOOK_LANG", "de")  # unsupported: English
    assert settings.load().language == "en"


def test_the_database_url_default_and_an_empty_variable(monkeypatch):
    monkeypatch.setenv("ROLLBOOK_DATABASE_URL", "")
    assert settings.load().database_url == settings.DEFAULT_DATABASE_URL
    monkeypatch.setenv("ROLLBOOK_DATABASE_URL", "postgresql://x@h/db")
    from rollbook.server.db import database_url

    settings.install(settings.load())
    assert database_url() == "postgresql+psycopg://x@h/db"
    assert database_url("sqlite:///given.sqlite3") == "sqlite:///given.sqlite3"


def test_the_discord_settings_keep_their_names(monkeypatch):
    monkeypatch.setenv("DISCORD_APPLICATION_ID", "123")
    monkeypatch.setenv("DISCORD_PUBLIC_KEY", "ab" * 32)
    monkeypatch.setenv("DISCORD_BOT_TOKEN", "bot-token")
    loaded = settings.load()
    assert loaded.discord_application_id == "123"
    assert loaded.discord_public_key == "ab" * 32
    assert loaded.discord_bot_token.get_secret_value() == "bot-token"
    assert "bot-token" not in repr(loaded)
    assert Settings(discord_application_id="9").discord_application_id == "9"


def test_the_serve_settings_reach_the_workers(monkeypatch):
    monkeypatch.setenv("ROLLBOOK_SERVE_SETTINGS", '{"url": "sqlite:///w.sqlite3", "threads": 3}')
    serve = settings.load().serve_settings
    assert (serve.url, serve.threads) == ("sqlite:///w.sqlite3", 3)


def test_current_reads_the_environment_once_until_installed(monkeypatch):
    monkeypatch.setenv("ROLLBOOK_SESSION_HOURS", "3")
    first = settings.current()
    monkeypatch.setenv("ROLLBOOK_SESSION_HOURS", "abc")  # read once: a later change is not seen
    assert settings.current() is first and first.session_hours == 3
    given = Settings(session_hours=1)
    settings.install(given)
    assert settings.current() is given
