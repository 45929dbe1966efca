"""A page's form sent for a character the reader cannot open (another player's, another
chronicle's, a missing id) is refused with the page's answer (403/404, the error page), on both
stores: never a server error. Without JavaScript the refusal redraws the form's page, which this
reader cannot see; the refusal is then the error page."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import BACKENDS
from tests.web.helpers import chronicle_with_player

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)

FORMS = {
    "sheet": {"version": "1", "s.notes": "mine now"},
    "rolls": {"kind": "test", "attribute": "wits", "ability": "alertness"},
    "adjustments": {"change": "spend_willpower"},
    "remove": {},
    "saved": {"label": "Mine", "kind": "test", "attribute": "wits"},
    "actions": {"action": "dodge"},
}


def _character_id(sheet_url: str) -> int:
    return int(re.search(r"/characters/(\d+)", sheet_url).group(1))


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_form_on_a_character_the_reader_cannot_open_is_refused_not_a_server_error(database_url, app, form):
    storyteller, bruno, chronicle, bruno_sheet = chronicle_with_player(app, "v20", {"s.attributes.wits": "2"})
    carla = TestClient(app)
    joined = carla.post(
        "/join",
        data={"invitation": storyteller.cookies.get("rollbook_invitation"), "name": "Carla"},
        follow_redirects=False,
    )
    assert joined.status_code == 303
    _other_st, _dan, other_chronicle, other_sheet = chronicle_with_player(app, "v20", {})
    targets = {
        "another player's": f"{chronicle}/characters/{_character_id(bruno_sheet)}",
        "another chronicle's": f"{chronicle}/characters/{_character_id(other_sheet)}",
        "a missing": f"{chronicle}/characters/999999",
    }
    for what, url in targets.items():
        for htmx in (False, True):
            headers = {"HX-Request": "true"} if htmx else {}
            response = carla.post(f"{url}/{form}", data=FORMS[form], headers=headers, follow_redirects=False)
            assert response.status_code in (403, 404, 422), (what, htmx, response.status_code, response.text)
            assert "text/html" in response.headers["content-type"], (what, htmx)
    assert other_chronicle != chronicle
