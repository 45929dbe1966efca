"""rollbook.fair.check_log over synthetic exports built with FairDice (SPEC F-1 to F-6)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rollbook.dice import FAIR_ALGORITHM, FairDice, GivenFaces, commitment_of
from rollbook.fair import (
    MISMATCH,
    PENDING,
    VERIFIED,
    check_client_seed,
    check_log,
    faces_for,
    fair_status,
    parse_seed,
    receipt_draws,
)
from rollbook.fair.text import describe
from rollbook.rules.base import RuleError
from tests.fair.logs import STORYTELLER_MEMBER, ChronicleLog, a_whole_evening, seed_of


def codes(report, seq=None):
    return sorted({p.code for p in report.problems if seq is None or p.seq == seq})


def draw_at(report, seq, reroll=None):
    return next(d for d in report.draws if d.seq == seq and d.reroll == reroll)


def entry_of_kind(log, kind, nth=0):
    return [e for e in log.entries if e["kind"] == kind][nth]


# --- a clean evening ------------------------------------------------------------------------------


def test_an_evening_of_fair_rolls_verifies_and_the_unrevealed_seed_stays_pending():
    """F-6: every face under the revealed seed is recomputed and matches; rolls under the seed in use
    are PENDING, not VERIFIED; nothing is reported."""
    log = a_whole_evening()
    report = check_log(log.entries)
    assert report.clean and report.problems == ()
    counts = report.counts()
    assert counts == {VERIFIED: 9, PENDING: 2, MISMATCH: 0, "unproven": 0}
    for draw in report.draws:
        if draw.status == VERIFIED:
            assert draw.expected == draw.faces
        else:
            assert draw.expected is None
    first, second = report.seeds
    assert first.revealed_at is not None and first.seed == seed_of("first seed").hex()
    assert second.revealed_at is None and second.seed is None  # F-1: the seed in use is never shown
    # The follow-up has its own nonce (F-3), the roll's own draw is not counted twice.
    reroll_entry = entry_of_kind(log, "reroll")
    assert [d.part for d in report.draws if d.seq == reroll_entry["seq"]] == ["reroll"]
    assert report.status_of(reroll_entry["seq"]) == VERIFIED and report.status_of(1) is None
    assert report.status_of(log.entries[-1]["seq"]) == PENDING


def test_revealing_the_last_seed_turns_pending_rolls_verified():
    log = a_whole_evening()
    log.reveal()
    report = check_log(log.entries)
    assert report.clean and report.counts()[VERIFIED] == 11 and report.counts()[PENDING] == 0


def test_every_draw_is_recomputable_by_hand_from_the_export_alone():
    """F-6: a verifier needs nothing but the export and F-4: seed from the reveal entry, chronicle and
    nonce and client seed from the roll, die sizes from the rules."""
    log = a_whole_evening()
    log.reveal()
    seeds = {
        e["receipt"]["commitment"]: bytes.fromhex(e["receipt"]["seed"])
        for e in log.entries
        if e["kind"] == "seed_reveal"
    }
    checked = 0
    for entry in log.entries:
        if entry["kind"] not in ("roll", "reroll"):
            continue
        for draw in receipt_draws(entry["receipt"]):
            record = draw.record
            faces = faces_for(
                seeds[record["commitment"]],
                entry["chronicle"],
                record["client_seed"],
                record["nonce"],
                draw.sizes,
            )
            assert faces == draw.faces
            checked += 1
    assert checked == 12  # eleven rolls and one follow-up, with the roll its follow-up repeats


def test_receipt_draws_name_the_dice_in_the_order_the_rules_ask():
    """F-4: dice in the order the rules ask: a roll-under opposed roll's mixed dice, a Blood Surge test's
    Rouse die after the test's dice (V5-11), a follow-up's d10s under their own record."""
    log = a_whole_evening()
    opposed = next(e for e in log.entries if e["receipt"].get("kind") == "opposed")
    assert receipt_draws(opposed["receipt"])[0].sizes == (6, 6, 8, 20)
    surge = next(e for e in log.entries if "rouse" in e["receipt"])
    roll_draw = receipt_draws(surge["receipt"])[0]
    assert roll_draw.faces == tuple(surge["receipt"]["faces"] + surge["receipt"]["rouse"]["faces"])
    reroll = entry_of_kind(log, "reroll")
    draws = receipt_draws(reroll["receipt"])
    assert [d.part for d in draws] == ["roll", "reroll"] and draws[1].sizes == (10, 10)
    assert draws[1].record["nonce"] == draws[0].record["nonce"] + 1


def test_a_tiers_critical_chain_is_replayed_die_by_die():
    """T-2 under F-4: a Tiers roll asks for one more d10 while the last face is a 1; the verifier
    replays that chain from the seed."""
    log = ChronicleLog()
    log.commit(seed_of("chain"))
    while True:
        entry = log.roll(2, "tiers")
        if len(entry["receipt"]["faces"]) >= 2:
            break
    log.reveal()
    report = check_log(log.entries)
    assert report.clean
    chain = draw_at(report, entry["seq"])
    assert chain.status == VERIFIED and chain.faces[0] == 1 and len(chain.sizes) == len(chain.faces) >= 2


# --- each kind of tampering caught ----------------------------------------------------------------


def revealed_evening() -> ChronicleLog:
    log = a_whole_evening()
    log.reveal()
    return log


def first_roll(log, kind="roll"):
    return next(e for e in log.entries if e["kind"] == kind and "fair" in e["receipt"])


def test_a_changed_face_is_caught():
    log = revealed_evening()
    entry = first_roll(log)
    entry["receipt"]["faces"][0] = entry["receipt"]["faces"][0] % 10 + 1
    report = check_log(log.entries)
    assert codes(report) == ["fair_faces_differ"]
    problem = report.problems[0]
    assert problem.seq == entry["seq"] and problem.params["faces"] != problem.params["expected"]
    assert draw_at(report, entry["seq"]).status == MISMATCH


def test_a_changed_rouse_face_is_caught():
    log = revealed_evening()
    entry = next(e for e in log.entries if "rouse" in e["receipt"])
    entry["receipt"]["rouse"]["faces"][0] = entry["receipt"]["rouse"]["faces"][0] % 10 + 1
    assert codes(check_log(log.entries)) == ["fair_faces_differ"]


def test_a_changed_reroll_face_is_caught_on_the_follow_up():
    log = revealed_evening()
    entry = entry_of_kind(log, "reroll")
    entry["receipt"]["rerolls"][-1]["faces"][0] = entry["receipt"]["rerolls"][-1]["faces"][0] % 10 + 1
    report = check_log(log.entries)
    assert codes(report) == ["fair_faces_differ"]
    assert report.problems[0].seq == entry["seq"] and report.problems[0].reroll == 0


def test_a_follow_up_that_rewrites_the_rolls_own_faces_is_caught():
    log = revealed_evening()
    entry = entry_of_kind(log, "reroll")
    entry["receipt"]["faces"][-1] = entry["receipt"]["faces"][-1] % 10 + 1
    report = check_log(log.entries)
    assert codes(report) == ["fair_faces_differ", "fair_quoted_draw_differs"]


def test_a_changed_nonce_is_caught():
    log = revealed_evening()
    entry = first_roll(log)
    entry["receipt"]["fair"]["nonce"] = 40
    found = codes(check_log(log.entries))
    assert "fair_faces_differ" in found and "fair_nonce_order" in found and "fair_nonce_missing" in found


def test_a_changed_client_seed_is_caught():
    log = revealed_evening()
    entry = first_roll(log)
    entry["receipt"]["fair"]["client_seed"] = "something else"
    assert codes(check_log(log.entries), entry["seq"]) == ["fair_client_seed_differs", "fair_faces_differ"]


def test_a_roll_that_ignores_the_members_client_seed_is_caught_even_when_the_faces_match():
    """F-2: the member's latest client seed applies to their later rolls; the server cannot pick another."""
    log = ChronicleLog()
    log.commit(seed_of("s"))
    log.set_client_seed(2, "mine")
    log.client_seeds[2] = "the server's choice"  # the server rolls with a client seed the player never set
    entry = log.roll(2, "v20")
    log.reveal()
    report = check_log(log.entries)
    assert codes(report) == ["fair_client_seed_differs"]
    assert report.problems[0].params == {
        "used": "the server's choice",
        "expected": "mine",
        "member": 2,
        "set_in": 2,
    }
    assert draw_at(report, entry["seq"]).status == MISMATCH


def test_a_changed_revealed_seed_is_caught_and_its_rolls_cannot_be_verified():
    log = revealed_evening()
    reveal = entry_of_kind(log, "seed_reveal")
    reveal["receipt"]["seed"] = seed_of("another").hex()
    report = check_log(log.entries)
    assert codes(report, reveal["seq"]) == ["seed_reveal_mismatch"]
    assert "fair_seed_not_verifiable" in codes(report)
    assert all(d.status == MISMATCH for d in report.draws if d.seq < reveal["seq"])


def test_a_changed_request_is_caught_through_the_dice_it_asks_for():
    log = revealed_evening()
    entry = first_roll(log)  # V20: more dice in the pool means more faces than were drawn
    entry["receipt"]["request"]["pool"] += 1
    assert codes(check_log(log.entries)) == ["fair_faces_differ"]


def test_a_removed_roll_leaves_a_nonce_missing():
    log = revealed_evening()
    removed = first_roll(log)
    log.entries.remove(removed)
    report = check_log(log.entries)
    assert codes(report) == ["fair_nonce_missing"] and report.problems[0].params["nonces"] == "1"
    assert report.problems[0].params["count"] == 1  # its message says "nonce", not "nonce(s)"
    assert "nonce 1 never appears in the log" in describe(report.problems[0], "en")


def test_a_reused_nonce_is_caught():
    log = ChronicleLog()
    log.commit(seed_of("s"))
    log.roll(2, "v20")
    log.nonce -= 1  # the server hands out the same nonce again
    again = log.roll(2, "v5")
    log.reveal()
    report = check_log(log.entries)
    assert codes(report) == ["fair_nonce_reused"] and report.problems[0].seq == again["seq"]


def test_rolls_need_a_commitment_logged_before_them_and_not_yet_revealed():
    """F-1: the commitment is in the log before any roll uses it; F-5: a revealed seed is not used again."""
    log = ChronicleLog()
    early_seed = seed_of("early")
    log.seed = early_seed
    early = log.roll(2, "v20")  # rolled before its commitment was logged
    log.commit(early_seed)
    log.nonce = 1
    log.roll(2, "v20")
    log.reveal()
    log.seed = early_seed  # still rolling on the revealed seed: anyone could now predict the faces
    late = log.roll(2, "v20")
    report = check_log(log.entries)
    assert codes(report, early["seq"]) == ["fair_uncommitted"]
    assert codes(report, late["seq"]) == ["fair_used_after_reveal"]


def test_one_seed_in_use_at_a_time():
    """F-5: a new seed is committed only as the old one is revealed, or the server could choose
    between two seeds after seeing their faces."""
    log = ChronicleLog()
    log.commit(seed_of("a"))
    second = log.commit(seed_of("b"))
    log.seed, log.nonce = seed_of("a"), 0
    stale = log.roll(2, "v20")
    report = check_log(log.entries)
    assert codes(report, second["seq"]) == ["seed_commit_while_active"]
    assert codes(report, stale["seq"]) == ["fair_not_current"]


def test_a_roll_without_its_record_while_a_seed_is_in_use_is_caught():
    log = revealed_evening()
    entry = first_roll(log)
    del entry["receipt"]["fair"]
    found = codes(check_log(log.entries))
    assert "fair_record_missing" in found


def test_rolls_before_any_seed_are_unproven_not_problems():
    """Rolls from before fair dice (or physical dice typed in) say which source they had; no problem."""
    log = ChronicleLog()
    entry = log.plain_roll(2, "v20", GivenFaces([6, 6, 2, 3, 9, 10, 1]))
    report = check_log(log.entries)
    assert report.clean and report.unproven == (entry["seq"],) and report.draws == ()


@pytest.mark.parametrize(
    "change,code",
    [
        (lambda fair: fair.update(algorithm="hmac-sha512-v9"), "fair_unknown_algorithm"),
        (lambda fair: fair.pop("nonce"), "fair_record_malformed"),
        (lambda fair: fair.update(nonce="1"), "fair_record_malformed"),
        (lambda fair: fair.update(commitment="ABC"), "fair_record_malformed"),
        (lambda fair: fair.update(client_seed=None), "fair_record_malformed"),
    ],
)
def test_a_malformed_record_is_caught(change, code):
    log = revealed_evening()
    entry = first_roll(log)
    change(entry["receipt"]["fair"])
    assert code in codes(check_log(log.entries), entry["seq"])


@pytest.mark.parametrize(
    "kind,receipt,code",
    [
        ("seed_commit", {"algorithm": FAIR_ALGORITHM, "commitment": "xyz"}, "seed_commit_malformed"),
        ("seed_commit", {"algorithm": "md5", "commitment": "0" * 64}, "seed_commit_malformed"),
        (
            "seed_reveal",
            {"algorithm": FAIR_ALGORITHM, "commitment": "0" * 64, "seed": "zz"},
            "seed_reveal_malformed",
        ),
        (
            "seed_reveal",
            {
                "algorithm": FAIR_ALGORITHM,
                "commitment": commitment_of(seed_of("never")),
                "seed": seed_of("never").hex(),
            },
            "seed_reveal_uncommitted",
        ),
        ("client_seed", {"member": 2, "client_seed": "x" * 65}, "client_seed_entry_malformed"),
        ("client_seed", {"client_seed": "x"}, "client_seed_entry_malformed"),
    ],
)
def test_malformed_seed_entries_are_caught(kind, receipt, code):
    log = ChronicleLog()
    log.append(kind, receipt)
    assert codes(check_log(log.entries)) == [code]


def test_a_seed_revealed_twice_or_committed_twice_is_caught():
    log = ChronicleLog()
    log.commit(seed_of("a"))
    first_reveal = log.reveal()
    log.append("seed_reveal", first_reveal["receipt"])
    log.append("seed_commit", {"algorithm": FAIR_ALGORITHM, "commitment": commitment_of(seed_of("a"))})
    assert codes(check_log(log.entries)) == ["seed_commit_repeated", "seed_revealed_twice"]


def test_a_players_export_with_hidden_rolls_does_not_report_their_nonces_missing():
    """A hidden roll is redacted in a player's export: its nonce is invisible, not missing."""
    log = ChronicleLog()
    log.commit(seed_of("s"))
    hidden = log.roll(STORYTELLER_MEMBER, "v20", visibility="hidden")
    log.roll(2, "v20")
    log.reveal()
    hidden.update(actor=None, receipt=None, redacted=True)
    report = check_log(log.entries)
    assert report.clean and report.redacted == 1 and report.counts()[VERIFIED] == 1


def test_garbage_entries_are_left_to_the_chain_verifier():
    report = check_log(["<not JSON>", {"no": "seq"}, {"seq": True}, 5])
    assert report.clean and report.draws == ()


# --- one receipt's state, for the table ---------------------------------------------------------


def test_fair_status_of_one_receipt():
    log = a_whole_evening()
    revealed = {
        e["receipt"]["commitment"]: bytes.fromhex(e["receipt"]["seed"])
        for e in log.entries
        if e["kind"] == "seed_reveal"
    }
    early, late = first_roll(log), log.entries[-1]
    assert fair_status(early["receipt"], log.chronicle, revealed) == VERIFIED
    assert fair_status(late["receipt"], log.chronicle, revealed) == PENDING
    edited = copy.deepcopy(early["receipt"])
    edited["faces"][0] = edited["faces"][0] % 10 + 1
    assert fair_status(edited, log.chronicle, revealed) == MISMATCH
    assert (
        fair_status(early["receipt"], log.chronicle + 1, revealed) == MISMATCH
    )  # another chronicle's stream
    plain = copy.deepcopy(early["receipt"])
    del plain["fair"]
    assert fair_status(plain, log.chronicle, revealed) is None


# --- helpers for people and the server -------------------------------------------------------------


def test_client_seeds_are_short_text():
    """F-2: at most 64 characters; "" is the default."""
    assert check_client_seed("") == "" and check_client_seed("é" * 64) == "é" * 64
    for bad, code in (
        ("x" * 65, "client_seed_too_long"),
        (5, "wrong_type"),
        ("\udc00", "client_seed_not_text"),
    ):
        with pytest.raises(RuleError) as refused:
            check_client_seed(bad)
        assert refused.value.code == code


def test_parse_seed_takes_64_hex_digits():
    assert parse_seed(" " + bytes(range(32)).hex().upper() + "\n") == bytes(range(32))
    for bad in ("abc", "g" * 64, "0" * 66, None):
        with pytest.raises(RuleError) as refused:
            parse_seed(bad)
        assert refused.value.code == "bad_seed_hex"


# --- invariants ---------------------------------------------------------------------------------

ROLLS = st.sampled_from(["v20", "v20-soak", "v5", "v5-surge", "tiers", "rollunder"])
# Each soak may take up to 3 lethal levels (V20-16) and the character is incapacitated at 7 (then the
# next roll is refused): a valid evening has at most two soaks on the one sheet.
MOST_SOAKS = 2
EVENINGS = st.lists(ROLLS, min_size=1, max_size=6).filter(
    lambda actions: actions.count("v20-soak") <= MOST_SOAKS
)


@given(
    seed_label=st.text(max_size=8),
    client=st.text(max_size=64),
    actions=EVENINGS,
    victim=st.integers(min_value=0),
    bump=st.integers(min_value=1, max_value=9),
)
def test_any_fair_log_verifies_and_any_single_changed_face_is_caught(
    seed_label, client, actions, victim, bump
):
    log = ChronicleLog(chronicle=3)
    log.commit(seed_of(seed_label))
    log.set_client_seed(2, client)
    for action in actions:
        log.roll(2, action)
    log.reveal()
    report = check_log(log.entries)
    assert report.clean and report.counts()[VERIFIED] == len(actions)
    with_faces = [e for e in log.entries if e["kind"] == "roll" and e["receipt"]["faces"]]
    if not with_faces:
        return
    entry = with_faces[victim % len(with_faces)]
    faces = entry["receipt"]["faces"]
    sides = 20 if entry["receipt"]["system"] == "rollunder" else 10
    faces[victim % len(faces)] = (faces[victim % len(faces)] - 1 + bump) % sides + 1
    tampered = check_log(log.entries)
    assert draw_at(tampered, entry["seq"]).status == MISMATCH
    assert "fair_faces_differ" in codes(tampered, entry["seq"])


def test_fair_dice_agree_with_faces_for():
    seed = seed_of("x")
    assert FairDice(seed, 1, "c", 9).draw(6, 10) == faces_for(seed, 1, "c", 9, [10] * 6)
