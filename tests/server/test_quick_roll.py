"""Quick rolls without a sheet, on SQLite and PostgreSQL: each game's own request
("6 dice, Hunger 2", "5 dice, difficulty 7", a Tiers skill, a roll-under action), the receipt says it
used no sheet and nothing is spent; the Storyteller allows or forbids the players' quick rolls."""

from __future__ import annotations

import pytest

from rollbook.server.problems import ProblemError
from rollbook.server.usecases import rolls

from .helpers import as_member

CASES = {  # the Storyteller's quick rolls: edges included
    "v5": {"pool": 6, "hunger": 2, "difficulty": 3},
    "v20": {"pool": 5, "difficulty": 7},
    "tiers": {"skill": 60, "bonus": 5},
    "rollunder": {"action": "climb the wall", "level": 12, "advantage": True},
}
# A player's part of each (A-1: difficulty, advantage/disadvantage, bonus/malus are the Storyteller's;
# a Tiers skill and weapon bonus are the player's, T-1).
PLAYER_CASES = {
    "v5": {"pool": 6, "hunger": 2},
    "v20": {"pool": 5},
    "tiers": {"skill": 60, "bonus": 5},
    "rollunder": {"action": "climb the wall", "level": 12},
}


@pytest.mark.parametrize("system", sorted(CASES))
def test_a_quick_roll_uses_no_sheet(app, make_table, system):
    table = make_table(system)
    player = table.join("Julien")
    made = as_member(app, player, lambda s, m: rolls.quick_roll(s, m, PLAYER_CASES[system]))
    entry = made["entry"]
    assert entry["kind"] == "quick_roll" and entry["character"] is None and entry["effects"] == []
    receipt = entry["receipt"]
    assert receipt["sheet"] is None and receipt["quick"] == {"system": system, **PLAYER_CASES[system]}
    assert receipt["result"]["system"] == system and receipt["faces"]
    if system == "v5":
        assert (
            receipt["result"]["pool"] == 6
            and receipt["result"]["hunger_level"] == 2
            and len(receipt["faces"]) == 6
        )
    logged = [e for e in table.log()["entries"] if e["kind"] == "quick_roll"]
    assert [e["seq"] for e in logged] == [entry["seq"]]


def test_the_storyteller_forbids_and_allows_quick_rolls(app, make_table):
    table = make_table("v5")
    player = table.join("Julien")
    with pytest.raises(ProblemError) as refused:  # a player may not set it
        as_member(app, player, lambda s, m: rolls.set_quick_rolls(s, m, False))
    assert refused.value.status == 403
    as_member(app, table.st, lambda s, m: rolls.set_quick_rolls(s, m, False))
    with pytest.raises(ProblemError) as refused:
        as_member(app, player, lambda s, m: rolls.quick_roll(s, m, {"pool": 3}))
    assert refused.value.status == 403
    as_member(
        app, table.st, lambda s, m: rolls.quick_roll(s, m, {"pool": 3}, hidden=True)
    )  # the Storyteller may
    as_member(app, table.st, lambda s, m: rolls.set_quick_rolls(s, m, True))
    as_member(app, player, lambda s, m: rolls.quick_roll(s, m, {"pool": 3, "hunger": 1}))
    with pytest.raises(ProblemError) as refused:  # what the game does not take is refused by name
        as_member(app, player, lambda s, m: rolls.quick_roll(s, m, {"pool": 3, "level": 4}))
    assert refused.value.code == "field_not_for_system"


def other_face(system: str, face: int) -> int:
    """Another face the game's die can show (a Tiers d10 kept off its criticals 1 and 10)."""
    if system == "tiers":
        return 5 if face != 5 else 6
    return face % 2 + 1


@pytest.mark.parametrize("system", sorted(CASES))
def test_log_verify_rechecks_quick_rolls_and_catches_a_tampered_one(
    app, client, make_table, tmp_path, system
):
    """``rollbook log verify`` recomputes a quick roll like any roll: its result from its request and
    faces (the rules core), its fair faces under the revealed seed; a changed face or outcome is caught
    even when the forger recomputed the hash chain."""
    import json

    from .helpers import rehash, verify

    table = make_table(system)
    player = table.join("Julien")
    made = [
        as_member(app, who, lambda s, m, cases=cases: rolls.quick_roll(s, m, cases[system]))["entry"]
        for who, cases in ((player, PLAYER_CASES), (table.st, CASES), (player, PLAYER_CASES))
    ]
    assert all(e["receipt"]["request"] for e in made)
    assert client.post(f"{table.base}/fair/rotate", headers=table.st).status_code == 201  # the seed revealed
    lines = table.export().splitlines()
    clean = verify(tmp_path, lines)
    assert clean.returncode == 0, clean.stdout
    assert "3 receipts recomputed" in clean.stderr and "fair dice: 3 verified, 0 pending" in clean.stderr, (
        clean.stderr
    )
    seq = made[1]["seq"]

    def forged(change) -> str:
        entries = [json.loads(line) for line in lines]
        change(next(e for e in entries if e["seq"] == seq)["receipt"])
        result = verify(tmp_path, rehash([json.dumps(e) for e in entries], seq), "forged.jsonl")
        assert result.returncode == 1 and "hash mismatch" not in result.stdout, result.stdout
        return result.stdout

    def face(receipt):  # a face changed (the result left as it was)
        receipt["faces"][0] = other_face(system, receipt["faces"][0])

    def outcome(receipt):  # the outcome changed, the faces left as they were
        result = receipt["result"]
        key = next(k for k in ("successes", "outcome", "degree", "margin", "total") if k in result)
        result[key] = (
            (result[key] + 1) if isinstance(result[key], int) and not isinstance(result[key], bool) else "x"
        )

    def asked(receipt):  # what was asked changed, the request left as it was
        receipt["quick"][next(iter(CASES[system]))] = 3 if system != "rollunder" else "jump the wall"

    found = forged(face)
    assert f"entry {seq}: The faces" in found, found
    assert (
        f"entry {seq}: result differs from its faces" in found
        or f"entry {seq}: receipt does not check out (refused:" in found
    ), found
    assert f"entry {seq}: result differs from its faces" in forged(outcome)
    assert f"entry {seq}: receipt does not check out (request_mismatch" in forged(asked)


@pytest.mark.parametrize("system", ["v20", "v5", "rollunder"])
def test_A_1_a_players_quick_roll_carries_no_edge_of_the_storytellers(app, client, make_table, system):
    """A-1 without a sheet too: a player's quick roll that moves an edge off its baseline is refused
    ``grant_required`` (nothing logged); the Storyteller's is rolled as sent; a player's takes the
    chronicle's standing difficulty, and sending that same value is not an ask."""
    table = make_table(system)
    player = table.join("Julien")
    edges = {k: v for k, v in CASES[system].items() if k not in PLAYER_CASES[system]}
    before = len(table.log()["entries"])
    with pytest.raises(ProblemError) as refused:
        as_member(app, player, lambda s, m: rolls.quick_roll(s, m, CASES[system]))
    assert refused.value.status == 403 and refused.value.code == "grant_required"
    assert refused.value.params["edges"] == sorted(edges)
    assert len(table.log()["entries"]) == before
    assert as_member(app, table.st, lambda s, m: rolls.quick_roll(s, m, CASES[system]))["entry"]["receipt"][
        "quick"
    ] == {"system": system, **CASES[system]}
    if system in ("v20", "v5"):
        assert client.patch(table.base, headers=table.st, json={"difficulty": 8}).status_code == 200
        for sent in (PLAYER_CASES[system], {**PLAYER_CASES[system], "difficulty": 8}):
            receipt = as_member(app, player, lambda s, m, sent=sent: rolls.quick_roll(s, m, sent))["entry"][
                "receipt"
            ]
            assert receipt["quick"]["difficulty"] == 8 and receipt["request"]["difficulty"] == 8


@pytest.mark.parametrize("system", sorted(CASES))
def test_a_quick_roll_logged_before_its_request_was_kept_still_verifies(app, make_table, system):
    from rollbook.play.quick import verify_quick

    table = make_table(system)
    receipt = as_member(app, table.st, lambda s, m: rolls.quick_roll(s, m, CASES[system]))["entry"]["receipt"]
    del receipt["request"]
    assert verify_quick(receipt) == []
    receipt["faces"][0] = other_face(system, receipt["faces"][0])
    assert any(p.startswith(("result_mismatch", "refused:")) for p in verify_quick(receipt))
