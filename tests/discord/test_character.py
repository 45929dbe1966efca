"""A sheet from Discord, on both stores: ``/link`` tells a player with no character what to do next;
``/character import`` reads the file attached to the command from the URL Discord gives (the stand-in
serves it, as Discord's file host does) through the web's importers, with the same report; a URL of
another host is never fetched; ``/character new`` opens a form whose traits are typed in the reader's
words."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.discord.helpers import ANNA, seated
from tests.discord.signing import command, modal, option
from tests.server.conftest import BACKENDS

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)

PROGENY = Path(__file__).resolve().parents[1] / "interop" / "fixtures" / "progeny_test_vampire.json"


def import_command(attachment: dict, **who) -> dict:
    payload = command("character", [], **who)
    payload["data"]["options"] = [
        {"name": "import", "type": 1, "options": [option("file", attachment["id"], 11)]}
    ]
    payload["data"]["resolved"] = {"attachments": {attachment["id"]: attachment}}
    return payload


def test_link_says_what_to_do_next_without_a_character(database_url, make_table, discord):
    table, channel, _keys = seated(make_table, discord, "v5")
    joined = discord.ok(
        command("link", [option("code", table.invitation)], user_id=ANNA, channel=channel, locale="fr")
    )
    assert "/personnage nouveau, ou /personnage importer" in joined["data"]["content"]


def test_an_attached_sheet_is_imported_with_the_webs_report(database_url, make_table, discord, discord_api):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    attachment = discord_api.attach("sheet.json", PROGENY.read_bytes())
    payload = import_command(attachment, user_id=ANNA, channel=channel, locale="fr")
    assert discord.ok(payload) == {"type": 5, "data": {"flags": 64}}
    edited = discord_api.originals[payload["token"]]
    assert edited["flags"] == 64 and "est à vous" in edited["content"]
    embed = edited["embeds"][0]
    assert embed["title"] == "Feuille importée depuis Progeny"
    assert "Repris" in [field["name"] for field in embed["fields"]]
    assert discord_api.requests(f"GET {attachment['url'].split('/api/v10')[1]}")
    [mine] = table.client.get(f"{table.base}/characters", headers=anna).json()["characters"]
    assert mine["name"] == edited["embeds"][0]["author"]["name"]
    assert [e for e in table.log()["entries"] if e["kind"] == "sheet_import"]

    elsewhere = {**attachment, "id": "1", "url": "https://example.org/sheet.json"}
    before = len(discord_api.requests("GET "))
    refused = import_command(elsewhere, user_id=ANNA, channel=channel)
    discord.ok(refused)
    assert discord_api.originals[refused["token"]]["content"] == "Only a file attached in Discord is read."
    assert len(discord_api.requests("GET ")) == before


def test_a_new_character_through_a_form(database_url, make_table, discord):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    opened = command("character", [], user_id=ANNA, channel=channel, locale="fr")
    opened["data"]["options"] = [{"name": "new", "type": 1, "options": []}]
    form = discord.ok(opened)
    assert form["type"] == 9 and form["data"]["custom_id"] == "rb:cn"
    fields = [row["components"][0] for row in form["data"]["components"]]
    assert [f["custom_id"] for f in fields] == ["name", "attributes", "skills", "disciplines"]
    assert [f["label"] for f in fields][:2] == ["Nom", "Attributs"]
    made = discord.ok(
        modal(
            "rb:cn",
            {
                "name": "Inès",
                "attributes": "Dextérité 3, Astuce 2",
                "skills": "firearms 2",
                "disciplines": "",
            },
            user_id=ANNA,
            channel=channel,
            locale="fr",
        )
    )
    assert made["data"]["flags"] == 64 and made["data"]["content"].startswith("Inès est à vous")
    [ines] = table.client.get(f"{table.base}/characters", headers=anna).json()["characters"]
    assert ines["sheet"]["attributes"]["dexterity"] == 3 and ines["sheet"]["attributes"]["wits"] == 2
    assert ines["sheet"]["skills"]["firearms"] == 2
    bad = discord.ok(modal("rb:cn", {"name": "X", "attributes": "très agile"}, user_id=ANNA, channel=channel))
    assert bad["data"]["flags"] == 64 and "très agile" in bad["data"]["content"]


# each system's new-character form: the sheet's rating groups as its sheet page shows them, four at most
FORM_SECTIONS = {
    "v20": ["attributes", "talents", "skills", "knowledges"],
    "v5": ["attributes", "skills", "disciplines"],
    "tiers": ["skills", "armor"],
    "rollunder": ["attributes", "skills"],
}


@pytest.mark.parametrize("system", sorted(FORM_SECTIONS))
def test_a_new_characters_form_asks_the_sheets_rating_groups(database_url, make_table, discord, system):
    table, channel, (anna,) = seated(make_table, discord, system, ANNA)
    opened = command("character", [], user_id=ANNA, channel=channel)
    opened["data"]["options"] = [{"name": "new", "type": 1, "options": []}]
    form = discord.ok(opened)
    fields = [row["components"][0]["custom_id"] for row in form["data"]["components"]]
    assert fields == ["name", *FORM_SECTIONS[system]]
    if system == "tiers":  # T-5: a location's armour typed on the form is on the sheet
        discord.ok(
            modal(
                "rb:cn",
                {"name": "Ada", "skills": "firearms 40", "armor": "head 2"},
                user_id=ANNA,
                channel=channel,
            )
        )
        [ada] = table.client.get(f"{table.base}/characters", headers=anna).json()["characters"]
        assert ada["sheet"]["armor"]["head"] == 2 and ada["sheet"]["skills"]["firearms"] == 40
