"""The sheet page's export link and the Storyteller's standing difficulty come from what the view
passes (the format whose module holds the system, the systems whose rolls take a standing
difficulty), never from a comparison of the chronicle's system id in the template."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.web.helpers import ROLLUNDER_SHEET, chronicle_with_player

TEMPLATE = Path(__file__).resolve().parents[2] / "src" / "rollbook" / "web" / "templates" / "sheet.html"


def test_the_sheet_template_does_not_branch_on_a_system_id():
    text = TEMPLATE.read_text(encoding="utf-8")
    found = re.findall(r"system\s*(?:==|!=|\bnot in\b|\bin\b)\s*[(\[\"']", text)
    assert not found, f"sheet.html compares a system with ids: {found}"


@pytest.mark.parametrize(
    ("system", "sheet", "link"),
    [
        ("v5", {"s.attributes.wits": "2"}, ("wod5e", "Export the sheet for WoD5e (Foundry)")),
        ("v20", {"s.attributes.dexterity": "3"}, ("wod20", "Export the sheet for WoD20 (Foundry)")),
        ("rollunder", ROLLUNDER_SHEET, None),
    ],
)
def test_the_export_link_names_the_system_s_format(app, system, sheet, link):
    storyteller, player, _chronicle, url = chronicle_with_player(app, system, sheet)
    page = player.get(url, params={"lang": "en"}).text
    found = re.search(r'id="export-link" download href="[^"]*format=(\w+)">([^<]*)</a>', page)
    assert (found.groups() if found else None) == link
    if link:
        assert player.get(f"{url}/export", params={"format": link[0]}).status_code == 200
    standing = 'id="standing-difficulty"' in storyteller.get(url).text
    assert standing == (system != "rollunder")  # V20 and V5 rolls take a standing difficulty
