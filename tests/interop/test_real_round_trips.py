"""Each file the players' tools write (tests/interop/fixtures/), as a player takes it through the
chronicle's pages on both stores (SQLite, PostgreSQL): "Import a sheet" with the file stores the sheet
``rollbook.interop`` reads and shows its report entry by entry; the sheet page's "Export for Foundry"
gives the actor that, imported again on the page, stores the same sheet; and the API's export of the
stored character, imported through the API, gives it once more (rollbook -> tool -> rollbook equal).
Chromium over the same page: test_real_faces.py."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rollbook.interop import import_sheet

FIXTURES = Path(__file__).parent / "fixtures"

# (file, pick, the chronicle's game): every fixture, each character of the bot's guild export
REAL = [
    ("progeny_test_vampire.json", None, "v5"),
    ("progeny_test_thinblood.json", None, "v5"),
    ("progeny_test_vampire.wod5e.json", None, "v5"),
    ("progeny_test_thinblood.wod5e.json", None, "v5"),
    ("progeny_test_vampire.inconnu.json", None, "v5"),
    ("progeny_test_thinblood.inconnu.json", None, "v5"),
    ("inconnu_guild_export.json", 0, "v5"),
    ("inconnu_guild_export.json", 1, "v5"),
    ("inconnu_guild_export.json", 2, "v5"),
    ("wod5e53_vampire.json", None, "v5"),
    ("wod5e53_ghoul.json", None, "v5"),
    ("wod5e53_mortal.json", None, "v5"),
    ("wod5e53_thinblood.json", None, "v5"),
    ("wod20_72_vampire.json", None, "v20"),
    ("wod20_72_mortal.json", None, "v20"),
    ("wod20_72_pc_vampire.json", None, "v20"),
    ("wod20_72_pc_mortal.json", None, "v20"),
]


@pytest.fixture
def chronicle(app):
    """A page session (its cookies also open the chronicle's API) on a new chronicle of ``system``."""
    opened: list[TestClient] = []

    def open_chronicle(system: str) -> tuple[TestClient, str]:
        client = TestClient(app)
        client.__enter__()
        opened.append(client)
        created = client.post(
            "/chronicles",
            data={"name": "Réels", "system": system, "storyteller": "Ana", "language": "en"},
            follow_redirects=False,
        )
        return client, created.headers["location"]

    yield open_chronicle
    for client in opened:
        client.__exit__(None, None, None)


def page_import(client: TestClient, chronicle: str, name: str, text: bytes, pick: int | None) -> str:
    """The page's import of a file (the character ``pick`` chosen): the imported character's path."""
    answer = client.post(
        f"{chronicle}/import",
        files={"file": (name, text, "application/json")},
        data={} if pick is None else {"pick": str(pick)},
    )
    assert answer.status_code == 201, answer.text[-2000:]
    return answer.text


def shown_report(page: str) -> dict[str, list[str]]:
    """The report's places, list by list, as the page shows them."""
    shown = {}
    for kind in ("mapped", "homebrew", "dropped"):
        block = re.search(rf'id="report-{kind}"(.*?)</(?:ul|ol)>', page, re.S)
        shown[kind] = (
            sorted(html.unescape(c) for c in re.findall(r"<code>([^<]*)</code>", block.group(1)))
            if block
            else []
        )
    return shown


def stored(client: TestClient, chronicle: str, character: str) -> dict:
    answer = client.get(f"/api{chronicle}/characters")
    assert answer.status_code == 200, answer.text
    return next(c for c in answer.json()["characters"] if c["id"] == int(character))["sheet"]


@pytest.mark.parametrize(("name", "pick", "system"), REAL)
def test_a_real_file_through_the_pages_and_back_on_both_stores(chronicle, name, pick, system):
    client, base = chronicle(system)
    text = (FIXTURES / name).read_bytes()
    expected = import_sheet(json.loads(text), system=system, pick=pick)
    page = page_import(client, base, name, text, pick)
    character = re.search(r'id="open-imported" href="[^"]+/characters/(\d+)"', page).group(1)
    plain = expected.report.plain()
    assert shown_report(page) == {k: sorted(e["source"] for e in plain[k]) for k in shown_report(page)}
    assert stored(client, base, character) == expected.sheet
    # the sheet page's "Export for Foundry", then that file imported on the page again
    sheet_page = client.get(f"{base}/characters/{character}").text
    link = html.unescape(re.search(r'id="export-link" download href="([^"]+)"', sheet_page).group(1))
    exported = client.get(link)
    assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
    again = page_import(client, base, "actor.json", exported.content, None)
    again_id = re.search(r'id="open-imported" href="[^"]+/characters/(\d+)"', again).group(1)
    assert stored(client, base, again_id) == expected.sheet
    # the API's export, imported through the API
    fmt = "wod5e" if system == "v5" else "wod20"
    actor = client.get(f"/api{base}/characters/{character}/export", params={"format": fmt}).json()
    answer = client.post(f"/api{base}/characters/import", json={"source": actor, "format": fmt})
    assert answer.status_code == 201, answer.text
    assert answer.json()["sheet"] == expected.sheet
    assert stored(client, base, str(answer.json()["character"]["id"])) == expected.sheet
