"""Sheets stay private, on SQLite and PostgreSQL: a Storyteller's edit of an NPC,
an edit of another player's character and a character's removal show their values (before/after, the
last sheet) to the Storyteller and to the character's owner only; every other player reads that a
sheet changed or a character was removed, nothing more, in the log, the export and the page. Both
the Storyteller's and a player's exports still verify."""

from __future__ import annotations

from rollbook.server.usecases import characters

from .conftest import V5_SHEET
from .forging import entries_of, verify
from .helpers import as_member

NPC = {**V5_SHEET, "name": "The Prince", "attributes": {"dexterity": 3, "wits": 2}}


def edit(table, headers, character_id: int, patch: dict) -> None:
    response = table.client.patch(
        f"{table.base}/characters/{character_id}", headers=headers, json={"patch": patch}
    )
    assert response.status_code == 200, response.text


def by_kind(entries: list[dict], kind: str) -> list[dict]:
    return [e for e in entries if e["kind"] == kind]


def test_sheet_edits_and_removals_are_read_by_owner_and_storyteller_only(app, make_table, tmp_path):
    table = make_table("v5")
    alice, bob = table.join("Alice"), table.join("Bob")
    prince = table.character(table.st, NPC)
    vasha = table.character(alice, {**V5_SHEET, "name": "Vasha"})
    spare = table.character(alice, {**V5_SHEET, "name": "Spare"})
    edit(
        table, table.st, prince["id"], {"attributes": {"wits": 5}}
    )  # the NPC's wits: the Storyteller's secret
    edit(table, alice, vasha["id"], {"concept": "Sniper of the seventh ward"})
    as_member(app, table.st, lambda s, m: characters.remove_character(s, m, spare["id"]))

    for headers, reads_npc, reads_alices in (
        (table.st, True, True),
        (alice, False, True),
        (bob, False, False),
    ):
        for entries in (table.log(headers, limit=500)["entries"], entries_of(table.export(headers))):
            npc_edit, own_edit = by_kind(entries, "sheet_edit")
            removal = by_kind(entries, "removal")[0]
            assert bool(npc_edit.get("redacted")) is not reads_npc
            assert bool(own_edit.get("redacted")) is not reads_alices
            assert bool(removal.get("redacted")) is not reads_alices
            if reads_npc:
                assert npc_edit["receipt"]["changes"] == [
                    {"field": "attributes.wits", "before": 2, "after": 5}
                ]
            else:
                assert (
                    npc_edit["receipt"] is None
                    and npc_edit["effects"] == []
                    and npc_edit["character"] is None
                )
            if reads_alices:
                assert removal["receipt"]["sheet"]["name"] == "Spare"
                assert own_edit["receipt"]["changes"][0]["after"] == "Sniper of the seventh ward"
            else:
                assert removal["receipt"] is None and own_edit["receipt"] is None
        page = table.client.get(f"/chronicles/{table.id}", headers=headers).text
        assert ("Sniper of the seventh ward" in page) is reads_alices
        checked = verify(tmp_path, entries_of(table.export(headers)))
        assert checked.returncode == 0, checked.stdout
