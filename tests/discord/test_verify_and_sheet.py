"""``/verify`` links the export a browser opens (the page's, with the member's key; not the API's 401
JSON) and ``/sheet`` shows what a player checks between rolls: V5 specialties, powers, Blood Potency
and experience; V20 attributes in the book's order with the wound penalty. Both stores."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.discord.helpers import ANNA, seated
from tests.discord.signing import command
from tests.server.conftest import BACKENDS

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)


def _fields(answer: dict) -> dict[str, str]:
    (embed,) = answer["data"]["embeds"]
    return {f["name"]: f["value"] for f in embed["fields"]}


def test_verify_links_the_export_a_browser_opens(app, make_table, discord):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    answer = discord.ok(command("verify", [], user_id=ANNA, channel=channel))
    url = re.search(r"https?://\S+", answer["data"]["content"]).group(0)
    path = url.split("://", 1)[1].split("/", 1)[1]
    assert not path.startswith("api/"), url
    with TestClient(app) as browser:  # the member's key in the browser (the web's sign-in)
        browser.headers.update(anna)
        opened = browser.get("/" + path)
        assert opened.status_code == 200 and opened.headers["content-type"].startswith("application/jsonl")
    with TestClient(app) as stranger:  # without a key: the page's sign-in words, not the API's JSON
        refused = stranger.get("/" + path, headers={"Accept": "text/html"})
        assert refused.headers["content-type"].startswith("text/html"), refused.text[:300]


V5_FULL = {
    "name": "Sasha",
    "attributes": {"wits": 2, "dexterity": 3},
    "skills": {"firearms": 3},
    "disciplines": {"auspex": 2},
    "powers": [{"discipline": "auspex", "level": 1, "power": "sense_the_unseen"}],
    "specialties": {"firearms": ["Pistols"]},
    "blood_potency": 2,
    "experience": {"total": 12, "spent": 5},
    "hunger": 1,
}
V20_HURT = {
    "name": "Lucita",
    "attributes": {"wits": 2, "strength": 2, "dexterity": 3, "charisma": 4},
    "skills": {"firearms": 2},
    "willpower": {"permanent": 3, "current": 3},
    "health": {"lethal": 2},
}


def test_sheet_shows_specialties_powers_blood_potency_and_experience_in_v5(make_table, discord):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    table.character(anna, V5_FULL)
    fields = _fields(discord.ok(command("sheet", [], user_id=ANNA, channel=channel, locale="fr")))
    assert fields["Spécialités"] == "Armes à feu\u202f: Pistols", fields  # a specialty as typed
    assert "Auspex 2\u202f: " in fields["Pouvoirs"] and "(1)" in fields["Pouvoirs"], fields
    assert fields["Puissance du Sang"] == "2", fields
    assert fields["Expérience"].startswith("7 "), fields


def test_sheet_lists_v20_attributes_in_the_books_order_with_the_wound_penalty(make_table, discord):
    table, channel, (anna,) = seated(make_table, discord, "v20", ANNA)
    table.character(anna, V20_HURT)
    fields = _fields(discord.ok(command("sheet", [], user_id=ANNA, channel=channel)))
    attributes = [part.rsplit(" ", 1)[0] for part in fields["Attributes"].split(", ")]
    book = ["Strength", "Dexterity", "Stamina", "Charisma", "Manipulation", "Appearance", "Perception"]
    assert attributes == [*book, "Intelligence", "Wits"], fields["Attributes"]
    assert "wound penalty −1" in fields["Health"], fields["Health"]
