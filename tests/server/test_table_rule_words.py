"""A table rule's refusal in the reader's words (SPEC TR-2, V20-9), on SQLite and PostgreSQL:
``v20.willpower_once_per_turn`` refuses a second Willpower success in a running turn with a sentence in
en, fr and es (the JSON API's ``detail`` and the web page's alert), never the bare code."""

from __future__ import annotations

from html import unescape

import pytest

from .conftest import V20_SHEET, V20_TEST, Table

WORDS = {
    "en": "This table allows 1 Willpower success per turn: this one would be number 2",
    "fr": "Cette table permet 1 réussite de Volonté par tour\u202f: celle-ci serait la n° 2",
    "es": "Esta mesa permite 1 éxito de Voluntad por turno: este sería el número 2",
}


def _turn_with_one_willpower_success(client, make_table) -> tuple[Table, int]:
    table = make_table("v20")
    character = table.character(table.st, {**V20_SHEET, "willpower": {"permanent": 6, "current": 6}})
    rules = {"table_rules": ["v20.willpower_once_per_turn"]}
    assert client.put(f"{table.base}/table-rules", headers=table.st, json=rules).status_code == 200
    assert client.post(f"{table.base}/scenes", headers=table.st, json={"name": "Fight"}).status_code == 201
    assert client.post(f"{table.base}/scene/turns", headers=table.st).status_code == 201
    assert table.roll(table.st, character["id"], {**V20_TEST, "willpower": True}).status_code == 201
    return table, character["id"]


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_TR_2_willpower_per_turn_is_refused_in_the_readers_words_at_the_api(client, make_table, lang):
    table, character = _turn_with_one_willpower_success(client, make_table)
    refused = client.post(
        f"{table.base}/characters/{character}/rolls",
        params={"lang": lang},
        headers=table.st,
        json={"action": {**V20_TEST, "willpower": True}},
    )
    assert refused.status_code == 409 and refused.json()["code"] == "willpower_per_turn"
    assert WORDS[lang] in refused.json()["detail"]


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_TR_2_willpower_per_turn_is_refused_in_the_readers_words_on_the_page(client, make_table, lang):
    table, character = _turn_with_one_willpower_success(client, make_table)
    form = {**V20_TEST, "willpower": "on", "difficulty": "6", "modifier": "0"}
    refused = client.post(
        f"/chronicles/{table.id}/characters/{character}/rolls",
        params={"lang": lang},
        headers={**table.st, "HX-Request": "true"},
        data=form,
    )
    assert refused.status_code == 409, refused.text
    text = unescape(refused.text)
    assert WORDS[lang] in text and ">willpower_per_turn<" not in text
