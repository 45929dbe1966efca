"""Playing alone on the pages (SPEC S-1 … S-6): "Play alone" on the home page, the shelf of
scenarios, a solo chronicle started with the pregenerated character, the solo table (the passage,
the options with their odds, health, blood and Willpower), a fight played to an ending with dice
chosen roll by roll, resuming at the passage reached (S-5). No English on a French or Spanish solo
page: ``test_translated_pages`` (no English, no raw code) plays them too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import create_app

from .helpers import text_of
from .solo_play import ALL, HIT, MISS, SAMPLE, TO_THE_FIGHT, RollByRoll, form_key, press, start, table

SHEETS = Path(__file__).parents[1] / "interop" / "files"  # other tools' character files
TITLES = {
    "en": "The Drowned Men's Lantern",
    "fr": "La Lanterne des Noyés",
    "es": "La Linterna de los Ahogados",
}


@pytest.fixture
def solo(fresh_sqlite):
    dice = RollByRoll()
    with TestClient(create_app(fresh_sqlite, migrate=False, dice=lambda: dice)) as client:
        yield client, dice


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_the_home_page_offers_to_play_alone_and_the_shelf_lists_the_sample(solo, lang):
    client, _dice = solo
    home = client.get(f"/?lang={lang}")
    assert 'href="/solo"' in home.text
    shelf = client.get(f"/solo?lang={lang}")
    assert TITLES[lang] in text_of(shelf.text) and "Nadia Ferrer" in shelf.text


def test_a_solo_chronicle_begins_at_the_start_in_the_readers_language_s1(solo):
    client, _dice = solo
    where = start(client, "es")
    assert re.fullmatch(r"/solo/\d+", where)
    now = table(client, where)
    assert now.passage == "quay" and "El río huele a gasóleo" in now.html
    assert now.options == ["choice:0", "choice:1"]
    assert "Nadia Ferrer" in now.status and "5/11" in now.status and "5/5" in now.status  # blood, Willpower


def test_a_player_brings_their_own_character_from_foundry(solo):
    """The shelf's "own character": a Foundry WoD20 actor read by ``rollbook.interop`` plays instead of
    the pregenerated one; a file of another game is refused on the shelf, in place."""
    client, _dice = solo
    shelf = client.get("/solo")
    own = {"scenario": SAMPLE, "character": "own", "idempotency_key": form_key(shelf.text)}
    started = client.post(
        "/solo",
        data=own,
        follow_redirects=False,
        files={"file": ("anatole.json", (SHEETS / "wod20_vampire.json").read_bytes(), "application/json")},
    )
    assert started.status_code == 303, started.text[-500:]
    now = table(client, started.headers["location"])
    assert now.passage == "quay" and "Anatole" in now.status and "Nadia" not in now.status
    refused = client.post(
        "/solo",
        data={
            **own,
            "pasted": (SHEETS / "wod5e_vampire.json").read_text(),
            "idempotency_key": form_key(shelf.text),
        },
    )
    assert refused.status_code == 422 and 'id="start-drowned-lantern-alert"' in refused.text
    alert = text_of(re.search(r'id="start-drowned-lantern-alert".*?</div>', refused.text, re.S).group(0))
    assert "Vampire: the Masquerade 20th (V20)" in alert  # the systems by their names, not their codes


def test_a_check_shows_its_odds_and_the_willpower_box_spends_a_point_s2(solo):
    client, dice = solo
    where = start(client)
    press(client, where, "choice:0")  # the Lantern
    check = press(client, where, "choice:0")  # play her game: Manipulation + Subterfuge, difficulty 7
    assert check.passage == "lantern_lie"
    assert "Manipulation + Subterfuge (difficulty 7)" in check.html
    assert re.search(
        r"Chance of success: \d+\.\d% \(botch: \d+\.\d%\)", check.html
    )  # the odds before the roll
    assert "With a Willpower point:" in check.html and check.option("roll") == "roll|roll_wp"
    dice.queue(MISS)  # no die succeeds: the Willpower point's automatic success alone (V20-9)
    after = press(client, where, "roll", willpower=True)
    assert after.passage == "lantern_success" and "4/5" in after.status
    assert (
        "Willpower" in after.html and "What the dice said" in after.html
    )  # the receipt, as the table's card


def test_a_fight_with_soak_and_blood_played_to_an_ending_s3(solo):
    client, dice = solo
    where = start(client)
    for option in TO_THE_FIGHT:
        now = press(client, where, option)
    assert now.passage == "fight_warehouse" and "Elias Kessler" in now.html
    assert [value.split("|")[0] for value in now.options] == [
        "attack:0:kessler",
        "attack:1:kessler",
        "dodge",
        "flee",
    ]
    # Turn 1: Nadia misses; Kessler hits (one success), his knife does 3 lethal, she soaks 1
    dice.queue(MISS, HIT, (7, 7, 7), (9,))
    now = press(client, where, "attack:0")
    assert now.passage == "fight_warehouse" and "Hurt −1" in now.status
    assert "Soak" in now.html and "Damage" in now.html  # the exchange's steps, on the card
    # Turn 2: a blood point heals a lethal level (V20-16); Kessler misses
    dice.queue(MISS)
    now = press(client, where, "heal")
    assert "7/11" in now.status and "Bruised" in now.status  # 5, 8 once fed in the alley, one spent
    # Turn 3: every die a 10: Kessler goes down
    dice.queue(ALL, ALL, MISS)
    now = press(client, where, "attack:0")
    assert now.passage == "after_fight"
    end = press(client, where, "choice:1")  # stay with Abel
    assert end.passage == "end_debt" and end.options == [] and "A bitter ending" in end.html
    assert 'action="/solo/' not in end.html and 'href="/solo"' in end.html


def test_the_table_reopens_at_the_passage_reached_s5(solo):
    client, _dice = solo
    where = start(client)
    press(client, where, "choice:1")  # the alley
    assert table(client, where).passage == "alley"
    shelf = client.get("/solo")
    assert f'href="{where}"' in shelf.text  # "Continue": the stories this browser has begun
    home = client.get("/")  # the home page's list of this browser's chronicles opens the solo table too
    assert f'href="{where}"' in home.text and f'href="/chronicles/{where.rsplit("/", 1)[1]}"' not in home.text
    stranger = TestClient(client.app)
    assert stranger.get(where).status_code == 401
