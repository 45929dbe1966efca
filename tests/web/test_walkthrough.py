"""A second newcomer walkthrough of the web table, pinned (Starlette's TestClient, no browser): the
Storyteller's "Hidden roll" box is a one-off choice, refusals name fields by their labels, a change
with nothing to act on says so, weapons and cards are edited as rows of labelled inputs, and counted
words agree with their numbers in every language."""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient

from rollbook.present.preview import describe_pool
from rollbook.web import sheetpatch

from .helpers import ROLLUNDER_SHEET, chronicle_with_player, give_agile, text_of

HTMX = {"HX-Request": "true"}


def _alert(html: str) -> str:
    return text_of(html).strip()


def test_the_hidden_roll_box_comes_back_unticked_after_a_roll(app):
    storyteller, player, _chronicle_url, sheet = chronicle_with_player(app, "v5", {"s.attributes.wits": "2"})
    rolled = storyteller.post(
        f"{sheet}/rolls", data={"kind": "test", "attribute": "wits", "hidden": "on"}, headers=HTMX
    )
    assert rolled.status_code == 200 and "badge-hidden" in rolled.text
    box = re.search(
        r'<div class="field check" id="roll-hidden-field" hx-swap-oob="true">.*?</div>', rolled.text, re.S
    )
    assert box, "the box is not redrawn after the roll"
    assert 'id="roll-hidden"' in box.group(0) and "checked" not in box.group(0)
    # without JavaScript: the page after the roll (303) has the box unticked too
    plain = storyteller.post(
        f"{sheet}/rolls", data={"kind": "test", "attribute": "wits", "hidden": "on"}, follow_redirects=True
    )
    assert re.search(r'<input type="checkbox" id="roll-hidden" name="hidden" value="on">', plain.text)
    # a player's roll carries no Storyteller's box
    mine = player.post(f"{sheet}/rolls", data={"kind": "test", "attribute": "wits"}, headers=HTMX)
    assert mine.status_code == 200 and "roll-hidden" not in mine.text


def test_refusals_name_the_field_by_its_label_in_the_readers_language(app):
    _storyteller, player, _chronicle_url, sheet = chronicle_with_player(
        app, "v20", {"s.attributes.dexterity": "3"}
    )
    applied = player.post(
        f"{sheet}/adjustments", data={"change": "damage", "damage_type": "lethal"}, headers=HTMX
    )
    assert applied.status_code == 422 and applied.headers["HX-Retarget"] == "#change-alert"
    assert _alert(applied.text) == "Missing field Health levels."  # not "levels"
    french = player.post(
        f"{sheet}/adjustments?lang=fr", data={"change": "damage", "damage_type": "lethal"}, headers=HTMX
    )
    assert "Niveaux de santé" in _alert(french.text) and "levels" not in _alert(french.text)
    rolled = player.post(f"{sheet}/rolls", data={"kind": "test", "difficulty": "6"}, headers=HTMX)
    assert (
        rolled.headers["HX-Retarget"] == "#roll-alert" and _alert(rolled.text) == "Missing field Attribute."
    )
    spanish = player.post(
        f"{sheet}/rolls?lang=es",
        data={"kind": "test", "attribute": "dexterity", "difficulty": "x"},
        headers=HTMX,
    )
    assert _alert(spanish.text).startswith("Dificultad ")  # not_an_integer: the label, not "difficulty"
    # without JavaScript: the page comes back with the label in place
    page = player.post(f"{sheet}/adjustments", data={"change": "damage", "damage_type": "lethal"})
    assert "Missing field Health levels." in text_of(page.text)


def test_remove_a_card_without_cards_says_so_and_offers_no_button(app):
    storyteller, _player, _chronicle_url, sheet = chronicle_with_player(app, "rollunder", {})
    panel = storyteller.get(f"{sheet}/change-form?change=remove_card", headers=HTMX).text
    assert "No cards to remove." in text_of(panel)
    assert "<select" not in panel and "<button" not in panel and 'id="change"' not in panel
    french = storyteller.get(f"{sheet}/change-form?change=remove_card&lang=fr", headers=HTMX).text
    assert "Aucune carte à retirer." in text_of(french)
    # granting a card redraws the panel (out of band): the card can now be removed
    granted = storyteller.post(
        f"{sheet}/adjustments",
        headers=HTMX,
        data={
            "change": "grant_card",
            "card.name": "Agile",
            "card.effect": "advantage",
            "card.consumable": "off",
        },
    )
    assert granted.status_code == 200, granted.text
    assert '<div id="change-panel" hx-swap-oob="true">' in granted.text
    remove = storyteller.get(f"{sheet}/change-form?change=remove_card", headers=HTMX).text
    assert re.search(r'<option value="Agile"', remove) and "<button" in remove
    removed = storyteller.post(
        f"{sheet}/adjustments", headers=HTMX, data={"change": "remove_card", "card": "Agile"}
    )
    assert removed.status_code == 200 and "No cards to remove." in text_of(removed.text)


def test_weapons_are_rows_of_labelled_inputs_with_an_empty_row_to_add_one(app):
    storyteller = TestClient(app)
    created = storyteller.post(
        "/chronicles", data={"name": "T", "system": "tiers", "storyteller": "Ana"}, follow_redirects=False
    )
    chronicle = created.headers["location"]
    page = storyteller.get(f"{chronicle}/characters/new").text
    assert 's.weapons"' not in page and "<textarea" not in page.split("Weapons", 1)[1].split("</details>")[0]
    for sub, label in (
        ("name", "Name"),
        ("bonus", "Bonus"),
        ("capacity", "Magazine capacity"),
        ("loaded", "Rounds loaded"),
        ("spare", "Spare rounds"),
    ):
        assert re.search(rf'<label for="sheet-s-weapons-0-{sub}">{label}</label>', page), sub
    added = storyteller.post(
        f"{chronicle}/characters",
        follow_redirects=False,
        data={
            "s.name": "Marion",
            "s.weapons.0.name": "Pistol",
            "s.weapons.0.bonus": "2",
            "s.weapons.0.capacity": "8",
            "s.weapons.0.loaded": "",
            "s.weapons.0.spare": "",
        },
    )
    assert added.status_code == 303, added.text
    sheet = added.headers["location"]
    editor = storyteller.get(sheet).text
    assert 'name="s.weapons.0.name" value="Pistol"' in editor and re.search(
        r'name="s.weapons.0.loaded" [^>]*value="8"', editor
    )
    assert 'name="s.weapons.1.name" value=""' in editor  # one empty row to add the next weapon
    assert "New weapon" in text_of(editor)
    # add a second weapon in the empty row, and drop the first by emptying its name
    version = re.search(r'name="version" value="(\d+)"', editor).group(1)
    saved = storyteller.post(
        f"{sheet}/sheet",
        follow_redirects=False,
        data={
            "version": version,
            "s.name": "Marion",
            "s.weapons.0.name": "",
            "s.weapons.0.bonus": "2",
            "s.weapons.0.capacity": "8",
            "s.weapons.0.loaded": "8",
            "s.weapons.0.spare": "0",
            "s.weapons.1.name": "Sword",
            "s.weapons.1.bonus": "3",
            "s.weapons.1.capacity": "",
            "s.weapons.1.loaded": "",
            "s.weapons.1.spare": "",
        },
    )
    assert saved.status_code == 303, saved.text
    after = storyteller.get(sheet).text
    editor_after = after.split('<form id="sheet"', 1)[1].split("</form>", 1)[0]  # the feed logs the edit
    assert 'name="s.weapons.0.name" value="Sword"' in editor_after and "Pistol" not in editor_after
    bad = storyteller.post(
        f"{sheet}/sheet",
        data={
            "version": str(int(version) + 1),
            "s.name": "Marion",
            "s.weapons.0.name": "Sword",
            "s.weapons.0.bonus": "lots",
        },
    )
    assert bad.status_code == 422 and "Bonus must be a whole number, not lots." in text_of(bad.text)


def test_rows_post_the_same_patch_as_before():
    """The server still receives a list of objects, fields left empty left out (the rules' defaults)."""
    form = {
        "s.weapons.0.name": "Pistol",
        "s.weapons.0.bonus": "2",
        "s.weapons.0.capacity": "8",
        "s.weapons.0.loaded": "",
        "s.weapons.0.spare": "",
        "s.weapons.1.name": " ",
        "s.weapons.1.bonus": "",
    }
    assert sheetpatch.patch_from_form("tiers", form, {}, None)["weapons"] == [
        {"name": "Pistol", "bonus": 2, "capacity": 8}
    ]
    cards = {
        "s.cards.0.name": "Agile",
        "s.cards.0.effect": "advantage",
        "s.cards.0.bonus": "",
        "s.cards.0.consumable": ["off", "on"],
        "s.cards.0.text": "",
        "s.cards.1.name": "Strong",
        "s.cards.1.effect": "bonus",
        "s.cards.1.bonus": "2",
        "s.cards.1.consumable": "off",
        "s.cards.1.text": "Once a night",
        "s.cards.2.name": "",
        "s.cards.2.effect": "advantage",
        "s.cards.2.consumable": ["off", "on"],
    }
    assert sheetpatch.patch_from_form("rollunder", cards, {}, None)["cards"] == [
        {"name": "Agile", "effect": "advantage", "consumable": True},
        {"name": "Strong", "effect": "bonus", "bonus": 2, "consumable": False, "text": "Once a night"},
    ]
    assert "cards" not in sheetpatch.patch_from_form(
        "rollunder", {}, {"cards": []}, None
    )  # not in the form: kept


def test_cards_rows_on_the_sheet_editor(app):
    storyteller, _player, _chronicle_url, sheet = chronicle_with_player(app, "rollunder", ROLLUNDER_SHEET)
    give_agile(storyteller, sheet)
    editor = storyteller.get(sheet).text
    row = re.search(r'<fieldset class="obj-row" data-list="cards">.*?</fieldset>', editor, re.S).group(0)
    assert "Card 1" in row and 'value="Agile"' in row
    assert re.search(r'<option value="advantage" selected>', row)
    assert re.search(
        r'<input type="hidden" name="s.cards.0.consumable" value="off"><input id="sheet-s-cards-0-consumable"'
        r' name="s.cards.0.consumable" type="checkbox" value="on" checked>',
        row,
    )
    assert "Used up when played" in row and "What it does" in row
    new = re.search(r'<fieldset class="obj-row is-new" data-list="cards">.*?</fieldset>', editor, re.S).group(
        0
    )
    assert "New card" in new and 'name="s.cards.1.name" value=""' in new
    spanish = text_of(storyteller.get(f"{sheet}?lang=es").text)
    assert "Carta 1" in spanish and "Nueva carta" in spanish


@pytest.mark.parametrize(
    ("lang", "one", "zero", "many"),
    [
        ("en", "Wits 1 = 1 die", "0 dice", "Wits 2 = 2 dice"),
        ("fr", "Astuce 1 = 1 dé", "0 dé", "Astuce 2 = 2 dés"),
        ("es", "Astucia 1 = 1 dado", "0 dados", "Astucia 2 = 2 dados"),
    ],
)
def test_pool_lines_agree_with_their_numbers(lang, one, zero, many):
    def pool(rating, total, **more):
        return describe_pool(
            {
                "parts": [{"trait": "attributes.wits", "rating": rating}] if rating else [],
                "total": total,
                **more,
            },
            lang,
            "v5",
        )

    assert pool(1, 1) == one and pool(0, 0) == zero and pool(2, 2) == many
    assert "dice" not in pool(1, 1, hunger_dice=1) or lang != "en"
    if lang == "en":
        assert pool(1, 1, hunger_dice=1).endswith("· 1 of them a Hunger die")
        assert pool(2, 2, hunger_dice=2).endswith("· 2 of them Hunger dice")
        tiers = describe_pool(
            {"parts": [{"trait": "skills.firearms", "rating": 7}], "total": 7, "bullets": 1}, lang, "tiers"
        )
        assert tiers.endswith("× 1 bullet")


def test_receipts_and_resources_count_in_words(app):
    _storyteller, player, _chronicle_url, sheet = chronicle_with_player(
        app,
        "tiers",
        {
            "s.skills.firearms": "7",
            "s.weapons.0.name": "Pistol",
            "s.weapons.0.capacity": "1",
            "s.weapons.0.spare": "1",
        },
    )
    page = player.get(sheet).text
    assert "1 spare round" in text_of(page) and "1 spare rounds" not in text_of(page)
    assert 'aria-label="1 bullet in a magazine of 1"' in page
    rolled = player.post(
        f"{sheet}/rolls",
        data={"kind": "skill", "skill": "firearms", "weapon": "Pistol", "bullets": "1"},
        headers=HTMX,
    )
    assert rolled.status_code == 200, rolled.text
    words = text_of(rolled.text)
    assert "1 bullet" in words and "1 bullets" not in words
    french = text_of(player.get(f"{sheet}?lang=fr").text)
    assert "1 balle de réserve" in french and "0 balle dans un chargeur de 1" in unescape(
        player.get(sheet).text
    )
