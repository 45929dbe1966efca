"""``rollbook log verify`` catches an edit inside the log with no ``--head``, even when the forger
recomputed the whole hash chain, on exports of SQLite and PostgreSQL
chronicles: a request changed with its result recomputed while its action says otherwise; the last
rolls under a seed dropped before its reveal (F-8); an effect edited or removed."""

from __future__ import annotations

import copy

import pytest

from rollbook.fair import parse_seed
from rollbook.play import verify_receipt
from rollbook.play.common import replay
from rollbook.rules.base import to_plain
from rollbook.systems.v20 import rules as rules_v20

from .conftest import V20_SHEET, V20_TEST
from .forging import (
    entries_of,
    find,
    grant_as_asked,
    rechained,
    v20_replayed,
    v20_rolled_as,
    v20_spend_removed,
    verify,
)


def forged(tmp_path, entries: list[dict]):
    """The forged export, rechained, through ``rollbook log verify`` (no --head): its output lines."""
    result = verify(tmp_path, rechained(entries), "forged.jsonl")
    assert "hash mismatch" not in result.stdout and "prev_hash" not in result.stdout, result.stdout
    return result


def clean(tmp_path, export: str) -> list[dict]:
    entries = entries_of(export)
    result = verify(tmp_path, entries)
    assert result.returncode == 0, result.stdout
    return entries


def rolls(entries: list[dict]) -> list[dict]:
    return [e for e in entries if e["kind"] == "roll"]


def test_request_changed_with_result_recomputed_is_caught_without_head(make_table, tmp_path):
    table = make_table("v20")
    player = table.join("Ana")
    lucita = table.character(player, V20_SHEET)
    assert table.roll(player, lucita["id"], V20_TEST).status_code == 201
    entries = clean(tmp_path, table.export())
    roll = rolls(entries)[0]
    assert roll["receipt"]["action"]["difficulty"] == 6
    receipt = roll["receipt"]
    receipt["request"]["difficulty"] = 3  # an easier roll, its result recomputed as the verifier would
    _, result = replay(rules_v20.V20Request, rules_v20.resolve, receipt)
    receipt["result"] = to_plain(result)
    assert verify_receipt(copy.deepcopy(receipt)) == []  # the arithmetic alone checks out
    answer = forged(tmp_path, entries)
    assert answer.returncode == 1
    assert f"entry {roll['seq']}: the request's difficulty is 3 but its action says 6" in answer.stdout


def test_last_rolls_dropped_before_the_reveal_are_missing_without_head(make_table, client, tmp_path):
    """F-8: the reveal counts the rolls under its seed; an export holding fewer lacks one."""
    table = make_table("v20")
    player = table.join("Ana")
    lucita = table.character(player, V20_SHEET)
    for _ in range(3):
        assert table.roll(player, lucita["id"], V20_TEST).status_code == 201
    rotated = client.post(f"{table.base}/fair/rotate", headers=table.st)
    assert rotated.status_code == 201 and rotated.json()["revealed"]["rolls"] == 3
    entries = clean(tmp_path, table.export(player))
    last = rolls(entries)[-1]
    assert last["receipt"]["fair"]["nonce"] == 3
    entries = [e for e in entries if e["seq"] != last["seq"]]  # the forger drops it and rechains
    answer = forged(tmp_path, entries)
    assert answer.returncode == 1
    assert "served the nonces up to 3 (3 in all), but the log holds them up to " in answer.stdout
    assert "(2 in all)" in answer.stdout, answer.stdout
    reveal = next(e for e in entries if e["kind"] == "seed_reveal")
    assert reveal["receipt"]["rolls"] == reveal["receipt"]["last_nonce"] == 3
    assert rotated.json()["revealed"]["last_nonce"] == 3


def test_effects_edited_or_removed_are_caught_without_head(make_table, tmp_path):
    """Effects recomputed from the receipt and the sheet's before-values: a Willpower spend (V20-9)
    whose effect is edited, or removed (from the entry and its receipt), fails."""
    table = make_table("v20")
    player = table.join("Ana")
    lucita = table.character(player, V20_SHEET)
    for _ in range(2):
        answer = table.roll(player, lucita["id"], {**V20_TEST, "willpower": True})
        assert answer.status_code == 201, answer.text
    entries = clean(tmp_path, table.export())
    first, second = rolls(entries)
    assert first["effects"] == [{"resource": "willpower", "before": 3, "after": 2}]
    assert second["effects"] == [{"resource": "willpower", "before": 2, "after": 1}]

    edited = copy.deepcopy(entries)
    roll = next(e for e in edited if e["seq"] == first["seq"])
    roll["effects"] = roll["receipt"]["effects"] = [{"resource": "willpower", "before": 3, "after": 3}]
    answer = forged(tmp_path, edited)
    assert answer.returncode == 1 and f"entry {first['seq']}: the Willpower spent" in answer.stdout, (
        answer.stdout
    )

    removed = copy.deepcopy(entries)
    roll = next(e for e in removed if e["seq"] == first["seq"])
    roll["effects"] = roll["receipt"]["effects"] = []
    answer = forged(tmp_path, removed)
    assert answer.returncode == 1 and f"entry {first['seq']}: the Willpower spent" in answer.stdout, (
        answer.stdout
    )

    # the second spend moved to look like the first: its before-value no longer follows the sheet
    chained = copy.deepcopy(entries)
    roll = next(e for e in chained if e["seq"] == second["seq"])
    roll["effects"] = roll["receipt"]["effects"] = [{"resource": "willpower", "before": 3, "after": 2}]
    roll["receipt"]["request"]["willpower_current"] = 3
    roll["receipt"]["result"] = to_plain(replay(rules_v20.V20Request, rules_v20.resolve, roll["receipt"])[1])
    answer = forged(tmp_path, chained)
    assert answer.returncode == 1
    assert f"entry {second['seq']}: willpower was 2 after the character's last change" in answer.stdout, (
        answer.stdout
    )


def test_a_request_reading_another_willpower_than_the_sheet_held_is_caught(make_table, tmp_path):
    """The request rebuilt from the sheet's stored values: a Willpower spend whose request (and
    effect) claim the sheet held more than the character's previous spend left."""
    table = make_table("v20")
    player = table.join("Ana")
    lucita = table.character(player, V20_SHEET)
    for _ in range(2):
        assert table.roll(player, lucita["id"], {**V20_TEST, "willpower": True}).status_code == 201
    entries = clean(tmp_path, table.export())
    second = rolls(entries)[1]
    receipt = second["receipt"]
    receipt["request"]["willpower_current"] = 3
    second["effects"] = receipt["effects"] = [{"resource": "willpower", "before": 3, "after": 2}]
    receipt["result"] = to_plain(replay(rules_v20.V20Request, rules_v20.resolve, receipt)[1])
    answer = forged(tmp_path, entries)
    assert answer.returncode == 1
    assert (
        f"entry {second['seq']}: the request read a current Willpower of 3 but the character's last change "
        "left 2" in answer.stdout
    ), answer.stdout


# --- a grant rewritten to "as asked" together with its roll ---------------------

ASKED = {"difficulty": 4, "modifier": 2}
GRANTED = {"difficulty": 7, "modifier": 1}  # the Storyteller changed both edges


def granted_export(make_table, client, tmp_path) -> list[dict]:
    """Ana asks a Willpower roll at difficulty 4 with 2 more dice, the Storyteller grants difficulty 7
    and 1 die (the roll spends Willpower 3 -> 2, V20-9); then two rolls of hers without a grant spend
    2 -> 1 and 1 -> 0; the seed is revealed (F-5), so every face is checked (F-4)."""
    table = make_table("v20")
    player = table.join("Ana")
    lucita = table.character(player, V20_SHEET)
    asked = table.roll(player, lucita["id"], {**V20_TEST, "willpower": True, **ASKED}, ask=True)
    assert asked.status_code == 202, asked.text
    granted = client.post(
        f"{table.base}/asks/{asked.json()['ask']['id']}/grant", headers=table.st, json={"edges": GRANTED}
    )
    assert granted.status_code == 201, granted.text
    for _ in range(2):
        assert table.roll(player, lucita["id"], {**V20_TEST, "willpower": True}).status_code == 201
    assert client.post(f"{table.base}/fair/rotate", headers=table.st).status_code == 201
    entries = clean(tmp_path, table.export())
    grant, roll = find(entries, "grant"), find(entries, "roll")
    assert grant["receipt"]["decision"] == "changed" and grant["receipt"]["granted"] == GRANTED
    assert (
        roll["receipt"]["authority"]["grant"] == grant["seq"]
        and roll["receipt"]["request"]["difficulty"] == 7
    )
    assert [find(entries, "roll", n)["effects"][0]["after"] for n in range(3)] == [2, 1, 0]
    return entries


def _seed(entries: list[dict]) -> bytes:
    return parse_seed(find(entries, "seed_reveal")["receipt"]["seed"])


def _grant_and_roll(entries, **rewrite) -> None:
    action = grant_as_asked(entries)["receipt"]["action"]
    v20_rolled_as(find(entries, "roll"), action, **rewrite)


def _ask_grant_and_roll(entries) -> None:
    """Ask, grant and roll all say the Storyteller's edges were asked; the ask's pool left as asked."""
    ask = find(entries, "ask")
    ask["receipt"]["asked"] = dict(GRANTED)
    grant = find(entries, "grant")["receipt"]
    grant["asked"] = grant["granted"] = dict(GRANTED)
    grant["decision"] = "as_asked"


def _roll_and_effects(entries) -> None:
    v20_spend_removed(find(entries, "roll"))


def _later_roll_and_effects(entries) -> None:
    v20_spend_removed(find(entries, "roll", 1))


def _effects_only(entries) -> None:
    find(entries, "roll")["effects"] = [{"resource": "willpower", "before": 3, "after": 3}]


def _effects_removed(entries) -> None:
    roll = find(entries, "roll")
    roll["effects"] = roll["receipt"]["effects"] = []


# Each partial rewrite -> (entry kind and index it is reported on, the line verify prints there)
PARTIAL = {
    "grant only": (
        lambda e: grant_as_asked(e),
        ("roll", 0),
        "the roll's action is not what grant {grant} granted",
    ),
    "grant's decision only": (
        lambda e: find(e, "grant")["receipt"].update(decision="as_asked"),
        ("grant", 0),
        "ask {ask} granted 'as asked' with other edges",
    ),
    "grant and the roll's action": (
        lambda e: _grant_and_roll(e, request=False, pool=False, result=False),
        ("roll", 0),
        "the request's difficulty is 7 but its action says 4",
    ),
    "grant and the roll's action, its pool left": (
        lambda e: _grant_and_roll(e, pool=False),
        ("roll", 0),
        "the pool adds 1 dice but its action's modifier is 2",
    ),
    "grant and the roll, no face drawn for the die added": (
        lambda e: _grant_and_roll(e, result=False),
        ("roll", 0),
        "wrong_face_count",
    ),
    "grant and the roll, the die added made up": (
        lambda e: (
            _grant_and_roll(e, seed=_seed(e), result=False),
            find(e, "roll")["receipt"]["faces"].__setitem__(
                -1, find(e, "roll")["receipt"]["faces"][-1] % 10 + 1
            ),
            v20_replayed(find(e, "roll")),
        ),
        ("roll", 0),
        "differ from the faces recomputed from the revealed seed",
    ),
    "ask, grant and roll, the ask's pool left": (
        lambda e: (_ask_grant_and_roll(e), _grant_and_roll(e, seed=_seed(e))),
        ("ask", 0),
        "the ask's pool adds 2 dice but it asks a modifier of 1",
    ),
    "the granted roll and its effects": (
        _roll_and_effects,
        ("roll", 0),
        "the roll's action is not what grant {grant} granted",
    ),
    "a roll and its effects, a later spend following": (
        _later_roll_and_effects,
        ("roll", 2),
        "willpower was 2 after the character's last change, but this entry says it was 1 before",
    ),
    "effects only": (_effects_only, ("roll", 0), "the entry's effects are not its receipt's"),
    "effects removed": (_effects_removed, ("roll", 0), "the Willpower spent is not the receipt's"),
}


@pytest.mark.parametrize("name", list(PARTIAL))
def test_every_partial_rewrite_of_a_grant_its_roll_and_effects_is_caught_without_head(
    make_table, client, tmp_path, name
):
    """A-1/A-2, V20-9: the ask records what was asked, the grant what was granted and the action it
    composes, the roll's action is that action, its request and pool are built from it, its faces are
    the seed's (F-4), its effects follow from the receipt and the sheet's before-values: rewriting any
    of them without all the others is caught, with the hash chain recomputed and no --head."""
    entries = granted_export(make_table, client, tmp_path)
    rewrite, (kind, n), words = PARTIAL[name]
    seq = find(entries, kind, n)["seq"]
    words = words.format(grant=find(entries, "grant")["seq"], ask=find(entries, "ask")["seq"])
    rewrite(entries)
    answer = forged(tmp_path, entries)
    assert answer.returncode == 1, answer.stdout
    assert any(line.startswith(f"entry {seq}:") and words in line for line in answer.stdout.splitlines()), (
        answer.stdout
    )


def test_a_consistent_rewrite_needs_the_head(make_table, client, tmp_path):
    """The limit, stated in docs/server.md ("What verify cannot see without a head"): a forger who
    rewrites the grant to "as asked" AND its roll's action, request, pool, faces (drawn from the
    revealed seed, F-4) and result, and a last Willpower spend out of its roll with its effects (no
    later entry reads that Willpower), leaves a log every rule of which holds: nothing in it says what
    the Storyteller granted or what the sheet holds now. Only an anchor from outside the file catches
    it: a log_head a member noted (``--head``) at or after the rewritten entry."""
    entries = granted_export(make_table, client, tmp_path)
    head = f"{entries[-1]['seq']}:{entries[-1]['entry_hash']}"
    granted = find(entries, "roll")
    earlier = f"{granted['seq']}:{granted['entry_hash']}"  # a head noted right after the granted roll
    assert verify(tmp_path, entries, "log.jsonl", "--head", earlier).returncode == 0  # the log grew past it
    _grant_and_roll(entries, seed=_seed(entries))
    v20_spend_removed(find(entries, "roll", 2))
    roll = find(entries, "roll")
    assert roll["receipt"]["request"]["difficulty"] == 4 and roll["receipt"]["pool"]["total"] == 7
    assert len(roll["receipt"]["faces"]) == 7
    assert forged(tmp_path, entries).returncode == 0  # nothing inside the log contradicts it
    answer = verify(tmp_path, entries, "forged.jsonl", "--head", head)
    assert answer.returncode == 1
    assert f"entry {head.split(':')[0]}: the log does not end with the expected head" in answer.stdout
    answer = verify(tmp_path, entries, "forged.jsonl", "--head", earlier)
    assert answer.returncode == 1
    assert f"entry {granted['seq']}: not the entry noted as the head" in answer.stdout, answer.stdout
