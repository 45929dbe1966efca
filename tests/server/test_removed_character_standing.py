"""(a removed character's standing grant), on SQLite and PostgreSQL: the standing grants
in force name each grant's character by the one read ``list_standing`` makes, the removed character's
too — the API's list and the chronicle page's panel say "Zed: +1 die", not ": +1 die"."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from .conftest import bearer


def _standing_panel(page: str) -> str:
    panel = page.split('id="standing"', 1)[1].split("</section>", 1)[0]
    return re.sub(r"\s+", " ", re.sub("<[^>]+>", " ", panel))


def test_a_removed_characters_standing_grant_keeps_its_name(app):
    with TestClient(app) as storyteller:
        chronicle = storyteller.post(
            "/chronicles",
            data={"name": "Lyon", "system": "v20", "storyteller": "Ana"},
            follow_redirects=False,
        ).headers["location"]
        ids = {}
        for name in ("Zed", "Yves"):
            sheet = storyteller.post(
                f"{chronicle}/characters",
                data={"s.name": name, "s.attributes.dexterity": "2"},
                follow_redirects=False,
            )
            assert sheet.status_code == 303, sheet.text
            ids[name] = sheet.headers["location"]
        for character in ("Zed", "Yves", ""):  # one grant each, and one for every character
            made = storyteller.post(
                f"{chronicle}/standing",
                follow_redirects=False,
                data={
                    "character": ids[character].rsplit("/", 1)[1] if character else "",
                    "edge": "modifier",
                    "value": "+1",
                },
            )
            assert made.status_code == 303, made.text
        assert storyteller.post(f"{ids['Zed']}/remove", follow_redirects=False).status_code == 303
        panel = _standing_panel(storyteller.get(chronicle).text)
        assert re.search(r"Zed\s*:", panel) and re.search(r"Yves\s*:", panel), panel
        assert not re.search(r"(^|[^\w\s])\s*:\s*\+1", panel), panel  # no grant without its name
        api = storyteller.get(
            f"/api{chronicle}/standing-grants", headers=bearer(storyteller.cookies.get("rollbook_token"))
        )
        assert api.status_code == 200, api.text
        named = sorted((g["character"] is not None, g["character_name"]) for g in api.json()["standing"])
        assert named == [(False, None), (True, "Yves"), (True, "Zed")]
