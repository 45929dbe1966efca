"""The two seed streams (SPEC F-7) and the reveal's count (F-8) in ``check_log``: hidden rolls from
the hidden stream, visible ones from the public stream, nonces counted per stream; an export written
before F-7 (one stream, no "stream" field) still verifies; a reveal's ``rolls``/``last_nonce`` catch
the last rolls dropped before it."""

from __future__ import annotations

from rollbook.fair import HIDDEN, PUBLIC, VERIFIED, check_log

from .logs import StreamLog, a_whole_evening, redacted, seed_of


def codes(report) -> list[str]:
    return [problem.code for problem in report.problems]


def two_streams() -> StreamLog:
    log = StreamLog()
    log.set_client_seed(2, "alice")
    log.commit_stream(PUBLIC, seed_of("public 1"))
    log.stream_roll(2, "v20")
    log.commit_stream(HIDDEN, seed_of("hidden 1"))
    log.stream_roll(1, "v20", visibility="hidden")
    log.stream_roll(2, "v5")
    log.stream_roll(1, "v5", visibility="hidden")
    return log


def test_an_export_from_before_f7_still_verifies():
    log = a_whole_evening()
    log.roll(1, "v20", visibility="hidden")  # before F-7 a hidden roll drew from the one seed
    log.reveal()
    assert not any("stream" in (entry["receipt"] or {}) for entry in log.entries)
    assert any(entry["visibility"] == "hidden" for entry in log.entries)  # its hidden rolls used the one seed
    report = check_log(log.entries)
    assert report.clean, report.problems


def test_two_streams_count_their_own_nonces_and_verify_once_revealed():
    log = two_streams()
    rolls = [e for e in log.entries if e["kind"] == "roll"]
    assert [(r["receipt"]["fair"]["stream"], r["receipt"]["fair"]["nonce"]) for r in rolls] == [
        (PUBLIC, 1),
        (HIDDEN, 1),
        (PUBLIC, 2),
        (HIDDEN, 2),
    ]
    log.reveal_stream(PUBLIC)
    log.commit_stream(PUBLIC, seed_of("public 2"))
    report = check_log(log.entries)
    assert report.clean, report.problems
    assert [d.status for d in report.draws] == [VERIFIED, "pending", VERIFIED, "pending"]
    log.reveal_stream(HIDDEN)
    report = check_log(log.entries)
    assert report.clean and {d.status for d in report.draws} == {VERIFIED}
    assert {s.stream for s in report.seeds} == {PUBLIC, HIDDEN}


def test_a_hidden_roll_from_the_public_stream_is_caught_f7():
    """Its faces would be anyone's once the public seed is revealed."""
    log = two_streams()
    log.stream_roll(1, "v20", visibility="hidden", stream=PUBLIC)
    log.stream_roll(2, "v20", visibility="public", stream=HIDDEN)
    assert codes(check_log(log.entries)) == ["fair_wrong_stream", "fair_wrong_stream"]


def test_a_record_naming_another_stream_than_its_seed_is_caught():
    log = two_streams()
    entry = next(e for e in log.entries if e["kind"] == "roll" and e["visibility"] == "public")
    entry["receipt"]["fair"]["stream"] = HIDDEN
    assert "fair_stream_differs" in codes(check_log(log.entries))


def test_one_seed_in_use_per_stream():
    log = two_streams()
    log.commit_stream(HIDDEN, seed_of("hidden 2"))
    assert codes(check_log(log.entries)) == ["seed_commit_while_active"]


def test_the_reveal_counts_its_rolls_f8():
    log = two_streams()
    log.reveal_stream(PUBLIC)
    dropped = [
        e
        for e in log.entries
        if not (
            e["kind"] == "roll"
            and e["receipt"]["fair"] == {**e["receipt"]["fair"], "stream": PUBLIC, "nonce": 2}
        )
    ]
    assert len(dropped) == len(log.entries) - 1
    report = check_log(dropped)
    assert codes(report) == ["fair_rolls_missing"]
    assert report.problems[0].params["rolls"] == 2 and report.problems[0].params["found"] == 1
    lying = two_streams()
    lying.reveal_stream(PUBLIC, rolls=1)
    assert codes(check_log(lying.entries)) == ["fair_rolls_beyond_reveal"]


def test_a_players_export_hides_the_hidden_stream_not_a_public_gap():
    """Redacted hidden rolls leave no gap in the public stream (F-7): a public roll dropped from a
    player's export is still a missing nonce, while the hidden stream's unseen nonces are not."""
    log = two_streams()
    log.stream_roll(2, "v20")
    hidden = {e["seq"] for e in log.entries if e["visibility"] == "hidden"}
    export = redacted(log.entries, hidden)
    assert check_log(export).clean
    second_public = next(
        e["seq"]
        for e in log.entries
        if e["kind"] == "roll" and e["visibility"] == "public" and e["receipt"]["fair"]["nonce"] == 2
    )
    assert codes(check_log([e for e in export if e["seq"] != second_public])) == ["fair_nonce_missing"]


def legacy_with_hidden_rolls() -> StreamLog:
    """A chronicle made before F-7: one seed (no "stream"), a visible and a hidden roll under it."""
    log = StreamLog()
    log.commit(seed_of("one stream"))
    log.roll(2, "v20")
    log.roll(1, "v20", visibility="hidden")
    log.streams[HIDDEN] = (log.seed, log.nonce)  # the server upgraded: the seed goes on as the hidden one
    return log


def test_a_seed_from_before_f7_goes_on_as_the_hidden_stream_after_the_upgrade():
    """Migration 0010_legacy_hidden_seed: the one seed in use, holding hidden rolls, continues as the
    hidden stream's; a new public seed is committed; both verify once revealed."""
    log = legacy_with_hidden_rolls()
    log.commit_stream(PUBLIC, seed_of("public after"))
    log.stream_roll(2, "v20")
    log.stream_roll(1, "v20", visibility="hidden")  # nonce 3 of the old seed, now the hidden stream's
    log.reveal_stream(PUBLIC)
    log.reveal_stream(HIDDEN)
    report = check_log(log.entries)
    assert report.clean, report.problems
    assert {d.status for d in report.draws} == {VERIFIED}
    # a hidden roll first, before any visible roll commits the new public seed
    first = legacy_with_hidden_rolls()
    first.stream_roll(1, "v20", visibility="hidden")
    first.reveal_stream(HIDDEN)
    first.commit_stream(PUBLIC, seed_of("public after"))
    assert check_log(first.entries).clean, check_log(first.entries).problems
