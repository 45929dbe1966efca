"""The parts of a page a live entry redraws (``web.redraws``), without a browser: every part the
live feed may ask for is on its page, under its id, for the Storyteller and a player alike (an
absent one as an empty placeholder, so that the redraw finds where to go), and its own route draws
it again under the same id; an unknown part is a 404 with the API's code."""

from __future__ import annotations

import re

import pytest

from rollbook.web import redraws

from .helpers import chronicle_with_player

V5_SHEET = {"s.clan": "Gangrel", "s.attributes.dexterity": "3", "s.skills.firearms": "2"}


def _root_id(html: str) -> str:
    found = re.search(r'<(?:section|div|p)\b[^>]*\bid="([^"]+)"', html)
    assert found, html[:200]
    return found.group(1)


@pytest.mark.parametrize("who", ["storyteller", "player"])
def test_every_part_a_live_entry_redraws_is_on_its_page_and_drawn_again_by_its_route(app, who):
    storyteller, player, chronicle, sheet = chronicle_with_player(app, "v5", V5_SHEET)
    client = storyteller if who == "storyteller" else player
    sheet_html = client.get(sheet).text
    chronicle_html = client.get(chronicle).text
    assert 'id="redraws"' in sheet_html and 'id="redraws"' in chronicle_html
    for part in redraws.SHEET_PARTS:
        assert f'id="{part}"' in sheet_html, part
        drawn = client.get(f"{sheet}/parts/{part}", headers={"HX-Request": "true"})
        assert drawn.status_code == 200 and _root_id(drawn.text) == part, (part, drawn.text[:200])
    for part in redraws.CHRONICLE_PARTS:
        assert f'id="{part}"' in chronicle_html, part
        drawn = client.get(f"{chronicle}/parts/{part}", headers={"HX-Request": "true"})
        assert drawn.status_code == 200 and _root_id(drawn.text) == part, (part, drawn.text[:200])
    assert 'id="people-panel"' in chronicle_html and 'id="roll-panel"' in sheet_html


def test_an_unknown_part_is_a_404(app):
    storyteller, _, chronicle, sheet = chronicle_with_player(app, "v5", V5_SHEET)
    for url in (f"{sheet}/parts/feed", f"{chronicle}/parts/invitation"):
        answer = storyteller.get(url, headers={"HX-Request": "true"})
        assert answer.status_code == 404


def test_which_parts_an_entry_redraws():
    on_sheet = redraws.for_entry({"kind": "settings", "character": None}, 1, 7)
    assert [r.target for r in on_sheet] == ["sheet-tags", "roll-panel"]
    assert (
        on_sheet[-1].include == "#roll" and on_sheet[-1].url == "/chronicles/1/characters/7/roll-form/redrawn"
    )
    assert redraws.for_entry({"kind": "settings", "character": 8}, 1, 7) == []  # another's difficulty
    assert [r.target for r in redraws.for_entry({"kind": "compulsion", "character": 7}, 1, 7)] == [
        "compulsion",
        "roll-panel",
    ]
    assert redraws.for_entry({"kind": "compulsion", "character": 8}, 1, 7) == []
    assert [r.target for r in redraws.for_entry({"kind": "compulsion", "character": 8}, 1, None)] == [
        "people-panel"
    ]
    assert [r.target for r in redraws.for_entry({"kind": "quick_setting"}, 1, None)] == ["quick-panel"]
    assert redraws.for_entry({"kind": "roll", "character": 7}, 1, 7) == []  # its card says it all
