"""V20-19 through the API, on SQLite and PostgreSQL: a Strict chronicle refuses a sheet with
a trait above its Generation's maximum, a new one or an edit; a Casual chronicle takes it."""

from __future__ import annotations

from .conftest import V20_SHEET


def test_V20_19_strict_refuses_and_casual_takes_a_trait_above_the_generation(client, make_table):
    strict = make_table("v20")
    above = {**V20_SHEET, "attributes": {"dexterity": 6, "wits": 2}}
    refused = client.post(
        f"{strict.base}/characters", headers=strict.st, json={"name": "Nia", "sheet": above}
    )
    assert refused.status_code == 422 and refused.json()["code"] == "trait_above_generation"
    assert refused.json()["params"]["maximum"] == 5
    nia = strict.character(strict.st, V20_SHEET)
    edited = client.patch(
        f"{strict.base}/characters/{nia['id']}",
        headers=strict.st,
        json={"patch": {"skills": {"firearms": 6}}},
    )
    assert edited.status_code == 422 and edited.json()["code"] == "trait_above_generation"
    elder = client.patch(
        f"{strict.base}/characters/{nia['id']}",
        headers=strict.st,
        json={"patch": {"generation": 7, "skills": {"firearms": 6}}},
    )
    assert elder.status_code == 200, elder.text  # 6 at Generation 7
    casual = make_table("v20", mode="casual")
    taken = client.post(f"{casual.base}/characters", headers=casual.st, json={"name": "Nia", "sheet": above})
    assert taken.status_code == 201 and taken.json()["sheet"]["attributes"]["dexterity"] == 6
    page = client.get(f"/chronicles/{casual.id}/characters/{taken.json()['id']}", headers=casual.st)
    assert page.status_code == 200 and "above the maximum of Generation 13 (5)" in page.text
