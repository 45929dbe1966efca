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
