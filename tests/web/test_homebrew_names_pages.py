"""A homebrew trait is shown as typed. Its id stays the folded canonical one everywhere (rolls,
forms, the API: "Escalade" is ``escalade``, "Nécromancie des Égouts" ``necromancie_des_egouts``); the
name as typed is kept beside it in the sheet's ``names`` and shown wherever the trait is (the sheet page,
the editor, the roll form's options, the odds line, the receipts, the log of edits), in every language;
traits the catalogues know keep their translated names."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from rollbook.present import labels
from rollbook.web import sheetpatch

HTMX = {"HX-Request": "true"}


def _chronicle(client: TestClient, system: str, lang: str) -> str:
    created = client.post(
        "/chronicles",
        data={"name": "Lyon", "system": system, "storyteller": "Ana", "language": lang},
        follow_redirects=False,
    )
    return created.headers["location"]


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_a_v5_homebrew_discipline_and_specialty_are_shown_as_typed(app, lang):
    homebrew = "Nécromancie des Égouts"
    stealth = "Furtivité" if lang == "fr" else "Sigilo"
    with TestClient(app) as storyteller:
        chronicle = _chronicle(storyteller, "v5", lang)
        added = storyteller.post(
            f"{chronicle}/characters",
            data={
                "s.name": "Nadia",
                "s.attributes.wits": "2",
                "s.skills.stealth": "2",
                "s.hunger": "1",
                "new.disciplines.name.0": homebrew,
                "new.disciplines.value.0": "2",
                "new.skills.name.0": "Savoir des Égouts",
                "new.skills.value.0": "1",
                "s.specialties": f"{stealth}: Égouts\nsavoir des égouts: Rats",
            },
            follow_redirects=False,
        )
        assert added.status_code == 303, added.text
        sheet_url = added.headers["location"]
        page = html.unescape(storyteller.get(sheet_url).text)
        # the ids stay the folded ones (forms and rolls send them)
        assert 'name="s.disciplines.necromancie_des_egouts"' in page
        assert 'value="necromancie_des_egouts"' in page  # the roll form's option
        # shown as typed: the sheet page, the editor, the roll form's options
        assert f">{homebrew}<" in page and f"{homebrew} (2)" in page
        assert "Necromancie des egouts" not in page and "Savoir des egouts" not in page
        assert re.search(rf"{stealth}\s?: Égouts", page) and re.search(r"Savoir des Égouts\s?: Rats", page)
        rolled = storyteller.post(
            f"{sheet_url}/rolls",
            data={
                "kind": "test",
                "attribute": "wits",
                "discipline": "necromancie_des_egouts",
                "difficulty": "2",
            },
            headers=HTMX,
        )
        assert rolled.status_code == 200, rolled.text
        receipt = html.unescape(rolled.text)
        assert f"{homebrew} 2" in receipt  # the pool line
        assert homebrew in html.unescape(storyteller.get(chronicle).text)  # the log's card title
        odds = storyteller.get(
            f"{sheet_url}/odds",
            params={
                "kind": "test",
                "attribute": "wits",
                "discipline": "necromancie_des_egouts",
                "difficulty": "2",
            },
            headers=HTMX,
        )
        assert odds.status_code == 200, odds.text
        assert f"{homebrew} 2" in html.unescape(odds.text)  # the odds' pool line


def test_a_roll_under_free_skill_typed_in_french_keeps_its_id_and_its_name(app):
    with TestClient(app) as storyteller:
        chronicle = _chronicle(storyteller, "rollunder", "fr")
        added = storyteller.post(
            f"{chronicle}/characters",
            data={
                "s.name": "Lou",
                "new.skills.name.0": "Escalade",
                "new.skills.value.0": "12",
                "new.skills.name.1": "Crochetage d'Égouts",
                "new.skills.value.1": "9",
            },
            follow_redirects=False,
        )
        assert added.status_code == 303, added.text
        sheet_url = added.headers["location"]
        page = html.unescape(storyteller.get(sheet_url).text)
        assert 'value="escalade"' in page and 'value="crochetage_d_egouts"' in page  # the ids, unchanged
        assert "Crochetage d'Égouts (9)" in page and "Escalade (12)" in page
        rolled = storyteller.post(
            f"{sheet_url}/rolls",
            data={"kind": "check", "action": "grimper", "skill": "crochetage_d_egouts"},
            headers=HTMX,
        )
        assert rolled.status_code == 200, rolled.text
        assert "Crochetage d'Égouts" in html.unescape(rolled.text)
        # a second player's browser reads the log: the name as typed there too
        invitation = storyteller.cookies.get("rollbook_invitation")
        with TestClient(app) as player:
            player.post("/join", data={"invitation": invitation, "name": "Bruno"}, follow_redirects=False)
            assert "Crochetage d'Égouts" in html.unescape(player.get(chronicle).text)


def test_names_are_kept_only_for_homebrew_and_only_when_they_change():
    sheet = {"names": {"egouts": "Égouts"}, "skills": {"egouts": 1}, "disciplines": {}}
    form = {
        "new.skills.name.0": "Furtivité",
        "new.skills.value.0": "1",
        "new.skills.name.1": "Égouts",
        "new.skills.value.1": "2",
        "new.disciplines.name.0": "Nécromancie des Égouts",
        "new.disciplines.value.0": "1",
    }
    patch = sheetpatch.patch_from_form("v5", form, sheet, None)
    assert patch["skills"]["stealth"] == 1 and patch["skills"]["egouts"] == 2
    assert patch["names"] == {"necromancie_des_egouts": "Nécromancie des Égouts"}  # Égouts unchanged, none
    for lang in ("en", "fr", "es"):
        assert labels.trait("necromancie_des_egouts", lang, patch["names"]) == "Nécromancie des Égouts"
    assert labels.trait("stealth", "fr", {"stealth": "x"}) == "Furtivité"  # a known trait stays translated
    assert labels.trait("egouts", "fr") == "Egouts"  # without its name: made readable, as before


@pytest.mark.parametrize(
    ("system", "sheet", "form"),
    [
        (
            "v5",
            {
                "names": {"egouts": "Égouts", "necromancie": "Nécromancie!"},
                "skills": {"egouts": 1},
                "disciplines": {"necromancie": 2},
            },
            {"s.skills.egouts": ""},
        ),
        ("v20", {"names": {"escalade": "Escalade!"}, "skills": {"escalade": 2}}, {"s.skills.escalade": ""}),
        ("rollunder", {"names": {"egouts": "Égouts"}, "skills": {"egouts": 5}}, {"s.skills.egouts": ""}),
    ],
    ids=["v5", "v20", "rollunder"],
)
def test_a_removed_homebrew_trait_takes_its_name_with_it(system, sheet, form):
    """The row of a homebrew trait emptied: its name goes too (``null`` in the patch), the names of
    traits still on the sheet stay."""
    patch = sheetpatch.patch_from_form(system, form, sheet, None)
    removed = next(iter(form)).rsplit(".", 1)[1]
    assert patch["names"][removed] is None
    assert all(value is None for value in patch["names"].values())
    assert set(patch["names"]) == {removed}


def test_a_name_still_mentioned_elsewhere_is_kept():
    """A trait whose rating is removed but whose specialty line still names it keeps its name."""
    sheet = {"names": {"egouts": "Égouts"}, "skills": {"egouts": 1}, "specialties": {"egouts": ["Rats"]}}
    patch = sheetpatch.patch_from_form("v5", {"s.skills.egouts": ""}, sheet, None)
    assert "names" not in patch
