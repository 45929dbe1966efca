"""The log's blind spots closed, on exports of SQLite and PostgreSQL chronicles: a ``sheet_edit``
no longer restarts the verifier's chain of every resource of its character (the fields it changes
are in it, before and after; every other resource is carried through it), so an effect edited before
a player's notes edit fails ``rollbook log verify`` without ``--head``."""

from __future__ import annotations

import copy

from rollbook.play.common import replay
from rollbook.rules.base import to_plain
from rollbook.systems.v20 import rules as rules_v20

from .conftest import V20_SHEET, V20_TEST
from .forging import entries_of, rechained, verify

SPEND = {**V20_TEST, "willpower": True}  # V20-9: one point of Willpower


def _spend(table, headers, character_id: int) -> None:
    answer = table.roll(headers, character_id, SPEND)
    assert answer.status_code == 201, answer.text


def _edit(table, headers, character_id: int, patch: dict) -> None:
    answer = table.client.patch(
        f"{table.base}/characters/{character_id}", headers=headers, json={"patch": patch}
    )
    assert answer.status_code == 200, answer.text


def _read_more_willpower(roll: dict, held: int) -> None:
    """The forger's rewrite: the roll read (and spent from) ``held`` Willpower, its result recomputed."""
    receipt = roll["receipt"]
    receipt["request"]["willpower_current"] = held
    roll["effects"] = receipt["effects"] = [{"resource": "willpower", "before": held, "after": held - 1}]
    receipt["result"] = to_plain(replay(rules_v20.V20Request, rules_v20.resolve, receipt)[1])


def _clean(tmp_path, export: str) -> list[dict]:
    entries = entries_of(export)
    result = verify(tmp_path, entries)
    assert result.returncode == 0, result.stdout
    return entries


def _forged(tmp_path, entries: list[dict]):
    result = verify(tmp_path, rechained(entries), "forged.jsonl")
    assert "hash mismatch" not in result.stdout and "prev_hash" not in result.stdout, result.stdout
    return result


def test_an_effect_edited_before_a_notes_edit_is_caught_without_head(make_table, tmp_path):
    table = make_table("v20")
    player = table.join("Ana")
    lucita = table.character(player, V20_SHEET)
    _spend(table, player, lucita["id"])
    _edit(table, player, lucita["id"], {"concept": "Sniper"})  # the player's own notes
    _spend(table, player, lucita["id"])
    for headers in (table.st, player):  # the Storyteller's export and the owner's
        entries = _clean(tmp_path, table.export(headers))
        edit = next(e for e in entries if e["kind"] == "sheet_edit")
        assert edit["receipt"]["changes"] == [{"field": "concept", "before": "", "after": "Sniper"}]
        first, second = (e for e in entries if e["kind"] == "roll")
        assert first["seq"] < edit["seq"] < second["seq"]
        _read_more_willpower(first, 4)  # the sheet "held" 4, not 3: consistent in itself
        answer = _forged(tmp_path, entries)
        assert answer.returncode == 1, answer.stdout
        assert (
            f"entry {second['seq']}: willpower was 3 after the character's last change, but this entry "
            "says it was 2 before" in answer.stdout
        ), answer.stdout


def test_a_willpower_edit_carries_the_chain_on_and_its_before_value_is_checked(make_table, tmp_path):
    """The Storyteller sets current Willpower back to 3: the next spend follows on from the edit's
    after-value (a clean log verifies), and an effect edited before it no longer matches the edit's
    before-value."""
    table = make_table("v20")
    player = table.join("Ana")
    lucita = table.character(player, V20_SHEET)
    _spend(table, player, lucita["id"])
    _edit(table, table.st, lucita["id"], {"willpower": {"current": 3}})
    _spend(table, player, lucita["id"])
    entries = _clean(tmp_path, table.export())
    edit = next(e for e in entries if e["kind"] == "sheet_edit")
    assert edit["receipt"]["changes"] == [{"field": "willpower.current", "before": 2, "after": 3}]
    first, second = (e for e in entries if e["kind"] == "roll")
    assert second["effects"] == [{"resource": "willpower", "before": 3, "after": 2}]

    forged = copy.deepcopy(entries)
    _read_more_willpower(next(e for e in forged if e["seq"] == first["seq"]), 4)
    answer = _forged(tmp_path, forged)
    assert answer.returncode == 1, answer.stdout
    assert (
        f"entry {edit['seq']}: willpower was 3 after the character's last change, but this sheet edit "
        "says it was 2 before" in answer.stdout
    ), answer.stdout

    # the spend after the edit rewritten to read the Willpower left before it: caught too
    forged = copy.deepcopy(entries)
    _read_more_willpower(next(e for e in forged if e["seq"] == second["seq"]), 2)
    answer = _forged(tmp_path, forged)
    assert answer.returncode == 1
    assert f"entry {second['seq']}: willpower was 3 after the character's last change" in answer.stdout


# --- a redaction commits to the hidden entry's content and kind ------------------------------------


def _forged_redaction(entry: dict) -> None:
    """What a forger does to a public entry of a player's export: pose it as a hidden one, redacted
    (its hashes kept: the chain and any noted head still match)."""
    entry.update(
        actor=None,
        receipt=None,
        character=None,
        refers_to=None,
        effects=[],
        visibility="hidden",
        redacted=True,
    )
    entry.pop("content_hash", None)


def _willpower_spent_and_a_hidden_roll(table, client, tmp_path):
    """Ana rolls and spends a point of Willpower outside a roll (a public entry without dice), the Storyteller
    makes a hidden roll (redacted for players), Ana rolls: the export Bea (another player) reads, and
    its head."""
    ana, bea = table.join("Ana"), table.join("Bea")
    lucita = table.character(ana, V20_SHEET)
    assert table.roll(ana, lucita["id"], V20_TEST).status_code == 201
    spent = client.post(
        f"{table.base}/characters/{lucita['id']}/adjustments",
        headers=ana,
        json={"change": {"kind": "spend_willpower", "amount": 1}},
    )
    assert spent.status_code == 201, spent.text
    assert table.roll(table.st, lucita["id"], V20_TEST, hidden=True).status_code == 201
    assert table.roll(ana, lucita["id"], V20_TEST).status_code == 201
    entries = entries_of(table.export(bea))
    head = f"{entries[-1]['seq']}:{entries[-1]['entry_hash']}"
    answer = verify(tmp_path, entries, "log.jsonl", "--head", head)
    assert answer.returncode == 0, answer.stdout
    return entries, head


def test_a_public_entry_cannot_pose_as_a_redaction_even_with_the_head(make_table, client, tmp_path):
    table = make_table("v20")
    entries, head = _willpower_spent_and_a_hidden_roll(table, client, tmp_path)
    hidden = next(e for e in entries if e.get("redacted"))
    assert hidden["kind"] == "roll" and hidden["content_hash"]  # the genuine redaction commits to its content
    spend = next(e for e in entries if e["kind"] == "adjust")
    assert spend["visibility"] == "public" and spend["effects"][0]["resource"] == "willpower"
    after = next(e for e in entries if e["seq"] == spend["seq"] + 1)

    forged = copy.deepcopy(entries)
    _forged_redaction(next(e for e in forged if e["seq"] == spend["seq"]))
    answer = verify(tmp_path, forged, "forged.jsonl", "--head", head)
    assert answer.returncode == 1, answer.stdout
    assert f"entry {spend['seq']}: a redaction without its content hash" in answer.stdout, answer.stdout
    assert (
        f"entry {spend['seq']}: exported as hidden, but entry {after['seq']} records it public"
        in answer.stdout
    ), answer.stdout

    # a content hash made up for it does not give the entry's hash either
    forged = copy.deepcopy(entries)
    posed = next(e for e in forged if e["seq"] == spend["seq"])
    _forged_redaction(posed)
    posed["content_hash"] = hidden["content_hash"]
    answer = verify(tmp_path, forged, "forged.jsonl", "--head", head)
    assert answer.returncode == 1 and f"entry {spend['seq']}: hash mismatch" in answer.stdout, answer.stdout


def test_a_genuine_redaction_is_checked_and_its_kind_is_committed(make_table, client, tmp_path):
    """A hidden roll exported redacted: its hash is recomputed from what the line shows (its kind
    among it), so a redaction relabelled as another kind, or moved, fails."""
    table = make_table("v20")
    entries, head = _willpower_spent_and_a_hidden_roll(table, client, tmp_path)
    hidden = next(e for e in entries if e.get("redacted"))
    relabelled = copy.deepcopy(entries)
    next(e for e in relabelled if e["seq"] == hidden["seq"])["kind"] = "sheet_edit"
    answer = verify(tmp_path, relabelled, "forged.jsonl")
    assert answer.returncode == 1 and f"entry {hidden['seq']}: hash mismatch" in answer.stdout, answer.stdout


# --- each card its own chain (R-6) ----------------------------------------------------------------


def test_two_cards_granted_in_a_row_verify(make_table, client, tmp_path):
    """Each card a roll-under sheet holds is its own resource in the verifier's chain: granting two
    (each from none to held) and playing a consumable one is a clean log (it failed while every card
    shared one chain)."""
    table = make_table("rollunder")
    ana = table.join("Ana")
    ayla = table.character(ana, {"name": "Ayla", "skills": {"climb": 12}})
    for card in ({"name": "Rope", "effect": "bonus", "bonus": 2}, {"name": "Luck", "effect": "advantage"}):
        given = client.post(
            f"{table.base}/characters/{ayla['id']}/adjustments",
            headers=table.st,
            json={"change": {"kind": "grant_card", "card": card}},
        )
        assert given.status_code == 201, given.text
    check = {"kind": "check", "action": "Climb the wall", "skill": "climb", "cards": ["Rope"]}
    assert table.roll(ana, ayla["id"], check).status_code == 201
    entries = _clean(tmp_path, table.export())
    grants = [e for e in entries if e["kind"] == "adjust"]
    assert [e["effects"][0]["after"] for e in grants] == ["Rope", "Luck"]
