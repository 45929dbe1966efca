"""The player's sheet editor adds a power (within the dots: ``play.PLAYER_ADDS``), not only the
descriptive fields; the new-character form offers "Add another power"; a Discipline's list of powers
offers none above the sheet's rating."""

from __future__ import annotations

import html
import re

from .helpers import api_table

INES = {
    "name": "Inès",
    "attributes": {"wits": 3},
    "disciplines": {"auspex": 2},
    "powers": [{"discipline": "auspex", "level": 1, "power": "sense_the_unseen"}],
}


def _form(page: str) -> dict[str, str]:
    """The sheet editor's fields as a browser sends them."""
    form = page.split('id="sheet-form"', 1)[1].split("</form>", 1)[0] if 'id="sheet-form"' in page else page
    fields = {}
    for tag in re.findall(r"<input\b[^>]*>", form):
        name = re.search(r'\sname="([^"]+)"', tag)
        if not name or re.search(r'type="(checkbox|submit|button)"', tag):
            continue
        value = re.search(r'\svalue="([^"]*)"', tag)
        fields[name.group(1)] = html.unescape(value.group(1)) if value else ""
    return fields


def test_the_players_editor_adds_a_power_of_a_rated_discipline(given_client):
    cid, st, alice = api_table(given_client, "v5", "en")
    me = given_client.get("/api/me", headers=alice).json()["member"]["id"]
    made = given_client.post(
        f"/api/chronicles/{cid}/characters", headers=st, json={"name": "Inès", "sheet": INES, "owner": me}
    )
    sheet = f"/chronicles/{cid}/characters/{made.json()['id']}"
    page = given_client.get(f"{sheet}?lang=en", headers=alice).text
    assert 'name="s.powers.1.name"' in page, "the player's editor offers a new power"
    # the Discipline's list stops at the sheet's rating (Auspex 2: no level 3 power)
    auspex = page.split('<datalist id="powers-auspex">', 1)[1].split("</datalist>", 1)[0]
    assert "Premonition" in auspex and not re.search(r">[3-9]</option>", auspex), auspex
    fields = _form(page)
    fields["s.powers.1.name"] = "Premonition"
    saved = given_client.post(f"{sheet}/sheet", headers=alice, data=fields, follow_redirects=False)
    assert saved.status_code == 303, saved.text[-2000:]
    powers = given_client.get(f"/api/chronicles/{cid}/characters/{made.json()['id']}", headers=alice).json()
    assert {p.get("power") for p in powers["sheet"]["powers"]} == {"sense_the_unseen", "premonition"}
    fields = _form(given_client.get(f"{sheet}?lang=en", headers=alice).text)
    fields[
        next(k for k, v in fields.items() if k.endswith(".name") and k.startswith("s.powers.") and not v)
    ] = "Homebrew sight"
    refused = given_client.post(f"{sheet}/sheet", headers=alice, data=fields, follow_redirects=False)
    assert refused.status_code in (409, 422) and "one a dot" in html.unescape(refused.text), (
        refused.status_code
    )


def test_the_new_character_form_offers_another_power_row(given_client):
    cid, _st, alice = api_table(given_client, "v5", "fr")
    page = given_client.get(f"/chronicles/{cid}/characters/new?lang=fr", headers=alice).text
    assert "data-add-power-row" in page and "Ajouter un autre pouvoir" in page


def test_PLAYER_ADDS_the_powers_held_are_read_only_in_the_players_editor_and_kept_by_the_server(given_client):
    """``play.PLAYER_ADDS``: a player adds a power, never changes one the sheet holds; the editor shows the
    held ones read-only (the Storyteller's editor keeps them editable), and a changed one posted anyway
    is refused, the sheet left as it was."""
    cid, st, alice = api_table(given_client, "v5", "fr")
    me = given_client.get("/api/me", headers=alice).json()["member"]["id"]
    made = given_client.post(
        f"/api/chronicles/{cid}/characters", headers=st, json={"name": "Inès", "sheet": INES, "owner": me}
    )
    sheet = f"/chronicles/{cid}/characters/{made.json()['id']}"

    def held_row(page: str) -> str:
        return re.search(r'<input id="sheet-powers-0-name"[^>]*>', page).group(0)

    players = given_client.get(f"{sheet}?lang=fr", headers=alice).text
    assert "readonly" in held_row(players) and 'list="powers-auspex"' not in held_row(players)
    assert 'name="s.powers.1.name"' in players and "readonly" not in re.search(
        r'<input id="sheet-powers-1-name"[^>]*>', players
    ).group(0), "the empty row takes a new power"
    assert "le Conteur modifie les autres" in html.unescape(players)
    storytellers = given_client.get(f"{sheet}?lang=fr", headers=st).text
    assert "readonly" not in held_row(storytellers) and 'list="powers-auspex"' in held_row(storytellers)

    fields = _form(players)
    assert fields["s.powers.0.name"]  # sent back as it is
    fields["s.powers.0.name"] = "Premonition"  # what a crafted post could try
    refused = given_client.post(f"{sheet}/sheet", headers=alice, data=fields, follow_redirects=False)
    assert refused.status_code == 403 and "demandez au Conteur" in html.unescape(refused.text), (
        refused.status_code
    )
    kept = given_client.get(f"/api/chronicles/{cid}/characters/{made.json()['id']}", headers=alice).json()
    assert [p.get("power") for p in kept["sheet"]["powers"]] == ["sense_the_unseen"]
