"""A fourth language, German, registered as a plug-in registers one (``i18n.register``, before any
face is imported: the faces read the languages at import), its catalogues those of the folder given on
the command line; then each face that takes a language is asked in it, and what each answered is
printed as one JSON object. Run by ``test_fourth_language.py`` in a process of its own.

Usage: ``python fourth_language.py LOCALE_DIR DATABASE_URL``
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

from rollbook import i18n

i18n.register(i18n.Language("de", locale_dir=Path(sys.argv[1])))

# the faces, imported once the language is registered
from fastapi.testclient import TestClient  # noqa: E402

from rollbook import cli  # noqa: E402
from rollbook.app.app import close_app, create_app  # noqa: E402
from rollbook.discord import commands, embeds  # noqa: E402
from rollbook.solo import format as scenario_format  # noqa: E402


def api_and_pages(database_url: str) -> dict:
    app = create_app(database_url)
    try:
        with TestClient(app) as client:
            made = client.post("/api/chronicles", json={"name": "Tisch", "system": "v20", "language": "de"})
            refused = client.post("/api/chronicles?lang=de", json={"name": "Tisch", "system": "d6"})
            schemas = client.get("/openapi.json").json()["components"]["schemas"]
            home = client.get("/?lang=de")
            scenarios = client.get("/api/solo/scenarios?lang=de")
    finally:
        close_app(app)
    return {
        "api_created": [made.status_code, made.json().get("chronicle", {}).get("language")],
        "api_refusal": [refused.status_code, refused.json().get("detail")],
        "api_choices": schemas["ChronicleCreate"]["properties"]["language"]["enum"],
        "solo_start_choices": schemas["SoloStart"]["properties"]["language"]["enum"],
        "solo_scenarios": scenarios.status_code,
        "page": [home.status_code, home.text],
    }


def discord() -> dict:
    roll = next(command for command in commands.command_definitions() if command["name"] == "roll")
    return {
        "discord_locales": commands.LOCALES,
        "discord_roll_description": roll["description_localizations"].get("de"),
        "discord_language": embeds.discord_language("de"),
    }


def command_line() -> dict:
    sys.argv = ["rollbook", "roll", "v20", "--pool", "3", "--lang", "de"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            cli.main()
            status = 0
        except SystemExit as done:
            status = int(done.code or 0)
    return {"cli": [status, out.getvalue()]}


def scenario_format_choices() -> dict:
    schema = scenario_format.Scenario.model_json_schema()
    return {"scenario_languages": schema["properties"]["languages"]["items"]["enum"]}


def words() -> dict:
    return {"percent": i18n.percent_text(0.5, "de"), "name": i18n.language("de").name}


if __name__ == "__main__":
    answers = {
        **api_and_pages(sys.argv[2]),
        **discord(),
        **command_line(),
        **scenario_format_choices(),
        **words(),
    }
    sys.stdout.write(json.dumps(answers))
