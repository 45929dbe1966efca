"""The components under a V5 test (V5-8), built from a real receipt of chosen faces: the
"Reroll with Willpower" button names the dice the odds engine advises, numbered from 1 with their
faces, and the select offers every normal die so numbered. Pure: no store."""

from __future__ import annotations

from rollbook import play
from rollbook.dice import GivenFaces
from rollbook.discord.components import entry_message
from rollbook.present.preview import reroll_advice
from tests.discord.limits import problems

SHEET = {
    "name": "Sasha",
    "attributes": {"dexterity": 3},
    "skills": {"firearms": 2},
    "hunger": 1,
    "willpower": {"max": 4, "superficial": 0, "aggravated": 0},
}
ACTION = {"kind": "test", "attribute": "dexterity", "skill": "firearms", "difficulty": 3}


def entry_of(faces: list[int]) -> dict:
    performed = play.perform(
        "v5", dict(SHEET), ACTION, mode="casual", role="storyteller", source=GivenFaces(faces)
    )
    receipt = performed.receipt if hasattr(performed, "receipt") else performed["receipt"]
    return {
        "chronicle": 1,
        "seq": 7,
        "kind": "roll",
        "created_at": "2026-12-03T08:00:00.000000Z",
        "visibility": "public",
        "actor": {"member": 2, "name": "Bruno", "role": "player", "character": 3},
        "receipt": receipt,
        "character": 3,
        "refers_to": None,
        "effects": [],
    }


def test_the_reroll_button_names_the_advised_dice_and_the_select_every_normal_die():
    entry = entry_of([2, 3, 7, 1, 9])  # normal 2 3 7 1, Hunger 9: one success of three needed
    viewer = {"id": 2, "role": "player", "chronicle": 1}
    result = {"character": {"id": 3, "name": "Sasha", "owner": 2}}
    for lang, word in (("en", "Die"), ("fr", "Dé"), ("es", "Dado")):
        embed, rows = entry_message(lang, entry, viewer, "v5", result)
        assert problems({"embeds": [embed], "components": rows}) == []
        items = [c for row in rows for c in row["components"]]
        select = next(c for c in items if c["type"] == 3)
        if lang == "en":
            assert [o["label"] for o in select["options"]] == ["Die 1: 2", "Die 2: 3", "Die 3: 7", "Die 4: 1"]
        assert [o["value"] for o in select["options"]] == ["0", "1", "2", "3"] and select["max_values"] == 3
        assert all(o["label"].startswith(word) for o in select["options"])
        advice = reroll_advice(entry["receipt"]["result"], "win", [], lang)
        button = next(c for c in items if c["type"] == 2)
        assert button["custom_id"] == "rb:rr:7:" + ".".join(str(i) for i in advice.best_dice)
        for index, face in zip(advice.best_dice, advice.best_faces):
            assert f"{index + 1} ({face})" in button["label"]  # 1-based, its face beside it
        assert "`1`:2" in embed["description"]  # the dice in the embed numbered as the select names them


def test_no_reroll_for_another_players_roll():
    entry = entry_of([2, 3, 7, 1, 9])
    _embed, rows = entry_message(
        "en",
        entry,
        {"id": 99, "role": "player", "chronicle": 1},
        "v5",
        {"character": {"id": 3, "name": "Sasha", "owner": 2}},
    )
    assert rows == []
