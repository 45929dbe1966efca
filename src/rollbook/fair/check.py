"""Checking a whole exported log (SPEC F-1 to F-8): ``check_log`` walks it in log order, then recomputes
the faces under the revealed seeds (see ``rollbook.fair`` for the entries it reads; ``report.py`` for
what it answers)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeGuard

from rollbook.dice import FAIR_ALGORITHM, LARGEST_ID
from rollbook.entries import (
    ClientSeedReceipt,
    DiceReceipt,
    ExportLine,
    Logged,
    SeedAbandonReceipt,
    SeedCommitReceipt,
    SeedRevealReceipt,
    ValidationError,
)
from rollbook.fair.replay import ReceiptDraw, receipt_draws, recompute
from rollbook.fair.report import DrawCheck, FairProblem, FairReport, SeedState
from rollbook.fair.seeds import (
    _HEX64,
    CLIENT_SEED,
    CLIENT_SEED_MAX,
    HIDDEN,
    MISMATCH,
    PENDING,
    PUBLIC,
    REROLL,
    SEED_ABANDON,
    SEED_COMMIT,
    SEED_REVEAL,
    STREAMS,
    VERIFIED,
    check_client_seed,
    is_commitment,
    seed_matches,
)
from rollbook.play import quick
from rollbook.rules.base import RuleError

QUICK_ROLL = "quick_roll"
_REVEAL_FIELDS = tuple(SeedRevealReceipt.model_fields)  # algorithm, commitment, seed, stream, rolls, …
_WHOLE = "receipt"  # a reveal whose receipt is no object at all


@dataclass
class _Seed:
    commitment: str
    committed_at: int
    stream: str = PUBLIC
    legacy: bool = False  # committed before F-7 (no "stream"): hidden rolls drew from it too
    revealed_at: int | None = None
    abandoned_at: int | None = None  # given up unrevealed (``seed_abandon``): its rolls stay pending
    seed: bytes | None = None
    bad_reveal: bool = False
    counted: tuple[int, int] | None = None  # F-8: (rolls, last_nonce) as its reveal records them


@dataclass
class _Draw:
    seq: int
    part: str
    reroll: int | None
    member: int | None
    chronicle: int | None
    receipt: Mapping[str, Any]
    drawn: ReceiptDraw
    problems: list[FairProblem]


class _LogCheck:
    def __init__(self) -> None:
        self.seeds: dict[str, _Seed] = {}
        self.active: dict[str, str] = {}  # F-7: the seed in use, by stream
        self.client_seeds: dict[Any, tuple[str, int]] = {}
        # (commitment, nonce) -> (seq, what was drawn: algorithm, client seed, sizes, faces)
        self.used: dict[tuple[str, int], tuple[int, tuple[object, ...]]] = {}
        self.last_nonce: dict[str, int] = {}
        self.draws: list[_Draw] = []
        self.problems: list[FairProblem] = []
        self.unproven: list[int] = []
        self.redacted = 0

    # seed entries

    def commit(self, seq: int, stored: Any) -> None:
        try:
            receipt = SeedCommitReceipt.of(stored)
        except ValidationError:  # a field of another JSON type, or none: no commitment of a seed
            self.problems.append(FairProblem(seq, "seed_commit_malformed"))
            return
        commitment = receipt.commitment
        named = "stream" in receipt.model_fields_set  # F-7; a seed committed before it names none
        stream = receipt.stream if named else PUBLIC
        if (
            not is_commitment(commitment)
            or receipt.algorithm != FAIR_ALGORITHM
            or stream is None
            or stream not in STREAMS
        ):
            self.problems.append(FairProblem(seq, "seed_commit_malformed"))
            return
        if commitment in self.seeds:
            self.problems.append(
                FairProblem(
                    seq,
                    "seed_commit_repeated",
                    {"commitment": commitment, "first": self.seeds[commitment].committed_at},
                )
            )
            return
        active = self.active.get(stream)
        if active is not None and self.seeds[active].legacy and named and HIDDEN not in self.active:
            # F-7 reaching a chronicle made before it: the one seed in use, holding hidden rolls not
            # revealed yet, continues as the hidden stream's (migration 0010_legacy_hidden_seed)
            self.seeds[active].stream = HIDDEN
            self.active[HIDDEN] = active
            active = None
        if (
            active is not None
        ):  # F-5, F-7: one seed in use at a time per stream, else the server could pick one
            self.problems.append(FairProblem(seq, "seed_commit_while_active", {"active": active}))
        self.seeds[commitment] = _Seed(commitment, seq, stream, legacy=not named)
        self.active[stream] = commitment

    def reveal(self, seq: int, stored: Any) -> None:
        wrong = _reveal_faults(stored)
        receipt = None
        try:
            receipt = SeedRevealReceipt.of(stored)
        except ValidationError as refused:  # a field of another JSON type, or none: no seed revealed
            wrong |= {str(error["loc"][0]) if error["loc"] else _WHOLE for error in refused.errors()}
        counted = _counted(receipt) if receipt is not None else False
        if receipt is None or counted is False or wrong:
            self.malformed_reveal(seq, wrong or {_WHOLE})
            return
        commitment, text = receipt.commitment, receipt.seed
        known = self.seeds.get(commitment)
        if known is None:
            self.problems.append(FairProblem(seq, "seed_reveal_uncommitted", {"commitment": commitment}))
            return
        if known.revealed_at is not None:
            self.problems.append(
                FairProblem(
                    seq, "seed_revealed_twice", {"commitment": commitment, "first": known.revealed_at}
                )
            )
            return
        # F-7: the stream it names (a reveal written before F-7 names none: its seed's)
        stream = receipt.stream if "stream" in receipt.model_fields_set else known.stream
        if known.legacy and stream is not None and stream in STREAMS and stream != known.stream:
            # a seed committed before F-7 names its stream first in its reveal (0010_legacy_hidden_seed)
            if self.active.get(known.stream) == commitment:
                del self.active[known.stream]
                self.active.setdefault(stream, commitment)
            known.stream = stream
        if stream != known.stream:
            self.problems.append(
                FairProblem(
                    seq,
                    "seed_reveal_stream_differs",
                    {"commitment": commitment, "stream": str(stream), "committed": known.stream},
                )
            )
        known.revealed_at = seq
        known.counted = counted
        seed = bytes.fromhex(text)
        if seed_matches(seed, commitment):  # F-6: each revealed seed checked against its commitment
            known.seed = seed
        else:
            known.bad_reveal = True
            self.problems.append(FairProblem(seq, "seed_reveal_mismatch", {"commitment": commitment}))
        if self.active.get(known.stream) == commitment:
            del self.active[known.stream]

    def malformed_reveal(self, seq: int, wrong: set[str]) -> None:
        """F-5, F-6: a reveal that reveals nothing, naming its wrong fields in the receipt's order."""
        named = [name for name in _REVEAL_FIELDS if name in wrong] + sorted(wrong - set(_REVEAL_FIELDS))
        self.problems.append(FairProblem(seq, "seed_reveal_malformed", {"field": ", ".join(named)}))

    def abandon(self, seq: int, stored: Any) -> None:
        """A seed the server could no longer open, ended unrevealed: no roll may use it after this
        entry, and a new one may be committed in its stream; its rolls stay pending."""
        try:
            receipt = SeedAbandonReceipt.of(stored)
        except ValidationError:  # a field missing or of another JSON type: it abandons no seed
            self.problems.append(FairProblem(seq, "seed_abandon_malformed"))
            return
        commitment = receipt.commitment
        if not is_commitment(commitment) or receipt.stream not in STREAMS:  # F-1, F-7
            self.problems.append(FairProblem(seq, "seed_abandon_malformed"))
            return
        known = self.seeds.get(commitment)
        if known is None or known.revealed_at is not None or known.abandoned_at is not None:
            self.problems.append(FairProblem(seq, "seed_abandon_not_in_use", {"commitment": commitment}))
            return
        known.abandoned_at = seq
        if self.active.get(known.stream) == commitment:
            del self.active[known.stream]

    def set_client_seed(self, seq: int, stored: Any) -> None:
        try:
            receipt = ClientSeedReceipt.of(stored)
            check_client_seed(receipt.client_seed)
        except (ValidationError, RuleError):  # no member, or no client seed (F-2: text, at most 64)
            self.problems.append(FairProblem(seq, "client_seed_entry_malformed", {"most": CLIENT_SEED_MAX}))
            return
        self.client_seeds[receipt.member] = (receipt.client_seed, seq)

    # roll entries

    def roll(self, entry: Logged, receipt: Mapping[str, Any]) -> None:
        seq = entry.seq
        try:
            drawn = receipt_draws(receipt)
        except RuleError:
            if "fair" in receipt or self.active.get(PUBLIC) is not None:
                self.problems.append(FairProblem(seq, "fair_cannot_replay"))
            else:
                self.unproven.append(seq)
            return
        member = (entry.actor or {}).get("member")
        # A follow-up's receipt repeats the roll's earlier draws; only its last reroll is new (F-3).
        new_from = len(drawn) - 1 if entry.kind == REROLL else 0
        for index, draw in enumerate(drawn):
            new = index >= new_from
            if draw.record is None:
                if not new:
                    continue
                active = self.active.get(PUBLIC)
                if active is not None:  # F-6: every online roll carries its record
                    self.problems.append(
                        FairProblem(seq, "fair_record_missing", {"commitment": active}, draw.reroll)
                    )
                elif seq not in self.unproven:
                    self.unproven.append(seq)
                continue
            self.one_draw(entry, receipt, draw, member, new)

    def one_draw(
        self, entry: Logged, receipt: Mapping[str, Any], draw: ReceiptDraw, member: Any, new: bool
    ) -> None:
        seq = entry.seq
        problems: list[FairProblem] = []

        def problem(code: str, **params: Any) -> None:
            problems.append(FairProblem(seq, code, params, draw.reroll))

        record = draw.record
        shape_ok = (
            isinstance(record, Mapping)
            and is_commitment(record.get("commitment"))
            and isinstance(record.get("client_seed"), str)
            and isinstance(record.get("nonce"), int)
            and not isinstance(record.get("nonce"), bool)
            and 1 <= record["nonce"] <= LARGEST_ID
            and isinstance(record.get("algorithm"), str)  # F-6: named as text (another one is unknown)
            and isinstance(record.get("stream", PUBLIC), str)  # F-7: none before it (the public one)
        )
        if not shape_ok:
            problem("fair_record_malformed")
            self.finish(entry, receipt, draw, member, problems)
            return
        if record.get("algorithm") != FAIR_ALGORITHM:
            problem("fair_unknown_algorithm", algorithm=record["algorithm"])
        commitment, nonce, client = record["commitment"], record["nonce"], record["client_seed"]
        content = (record.get("algorithm"), client, draw.sizes, draw.faces)
        earlier = self.used.get((commitment, nonce))
        if earlier is not None:
            if not new and earlier[1] == content:
                return  # the roll's own draw repeated by its follow-up: checked where it first appeared
            if not new:
                problem("fair_quoted_draw_differs", nonce=nonce, first=earlier[0])
            else:
                problem("fair_nonce_reused", nonce=nonce, commitment=commitment, first=earlier[0])
            self.finish(entry, receipt, draw, member, problems)
            return
        self.used[(commitment, nonce)] = (seq, content)
        known = self.seeds.get(commitment)
        stream = record.get("stream", PUBLIC)
        if (
            known is not None
            and known.legacy
            and stream == HIDDEN != known.stream
            and HIDDEN not in self.active
            and self.active.get(known.stream) == commitment
        ):
            # a seed committed before F-7 that went on as the hidden stream's (0010_legacy_hidden_seed)
            del self.active[known.stream]
            known.stream = HIDDEN
            self.active[HIDDEN] = commitment
        if known is None:  # F-1: committed in the log before any roll uses it
            problem("fair_uncommitted", commitment=commitment)
        elif known.revealed_at is not None:
            problem("fair_used_after_reveal", commitment=commitment, revealed=known.revealed_at)
        elif known.abandoned_at is not None:
            problem("fair_used_after_abandon", commitment=commitment, abandoned=known.abandoned_at)
        elif commitment != self.active.get(known.stream):
            problem("fair_not_current", commitment=commitment, current=self.active.get(known.stream))
        if known is not None and stream != known.stream:
            problem("fair_stream_differs", stream=stream, committed=known.stream, commitment=commitment)
        elif known is not None and not known.legacy:
            # F-7: a hidden roll from the public stream would be recomputed by anyone once it is revealed
            hidden = entry.visibility == "hidden"
            if hidden != (known.stream == HIDDEN):
                problem(
                    "fair_wrong_stream",
                    stream=known.stream,
                    visibility=str(entry.visibility),
                    commitment=commitment,
                )
        previous = self.last_nonce.get(commitment)
        if previous is not None and nonce <= previous:  # F-3: the next nonce, never one used before
            problem("fair_nonce_order", nonce=nonce, previous=previous)
        self.last_nonce[commitment] = max(nonce, previous or 0)
        if member is not None:  # F-2: the member's latest client seed applies to their later rolls
            expected, set_in = self.client_seeds.get(member, ("", None))
            if client != expected:
                if set_in is None:
                    problem("fair_client_seed_not_default", used=client, member=member)
                else:
                    problem(
                        "fair_client_seed_differs",
                        used=client,
                        expected=expected,
                        member=member,
                        set_in=set_in,
                    )
        self.finish(entry, receipt, draw, member, problems)

    def finish(
        self,
        entry: Logged,
        receipt: Mapping[str, Any],
        draw: ReceiptDraw,
        member: Any,
        problems: list[FairProblem],
    ) -> None:
        self.draws.append(
            _Draw(entry.seq, draw.part, draw.reroll, member, entry.chronicle, receipt, draw, problems)
        )

    # the end: faces under the revealed seeds

    def report(self) -> FairReport:
        checks = []
        for pending in self.draws:
            checks.append(self.verdict(pending))
            self.problems.extend(pending.problems)
        self.nonce_gaps()
        self.counts_revealed()
        self.problems.sort(key=lambda p: (p.seq, -1 if p.reroll is None else p.reroll))
        seeds = tuple(
            SeedState(s.commitment, s.committed_at, s.revealed_at, s.seed.hex() if s.seed else None, s.stream)
            for s in self.seeds.values()
        )
        return FairReport(tuple(checks), tuple(self.problems), seeds, tuple(self.unproven), self.redacted)

    def verdict(self, pending: _Draw) -> DrawCheck:
        drawn, record = pending.drawn, pending.drawn.record
        well_formed = not any(p.code == "fair_record_malformed" for p in pending.problems)
        commitment = record.get("commitment") if well_formed else None
        known = self.seeds.get(commitment) if commitment else None
        expected = None

        def problem(code: str, **params: Any) -> None:
            pending.problems.append(FairProblem(pending.seq, code, params, drawn.reroll))

        if known is not None and known.seed is not None and well_formed:
            chronicle = pending.chronicle
            if chronicle is None or not 0 <= chronicle <= LARGEST_ID:
                problem("fair_cannot_replay")
            else:
                try:
                    expected = recompute(pending.receipt, drawn, known.seed, chronicle)
                except RuleError:
                    problem("fair_cannot_replay")
                else:
                    if expected != drawn.faces:
                        problem("fair_faces_differ", faces=list(drawn.faces), expected=list(expected))
        elif known is not None and known.bad_reveal:
            problem("fair_seed_not_verifiable", commitment=commitment)
        if pending.problems:
            status = MISMATCH
        elif expected is None:
            status = PENDING
        else:
            status = VERIFIED
        return DrawCheck(
            seq=pending.seq,
            part=pending.part,
            reroll=pending.reroll,
            member=pending.member,
            commitment=commitment,
            client_seed=record.get("client_seed") if well_formed else None,
            nonce=record.get("nonce") if well_formed else None,
            sizes=drawn.sizes,
            faces=drawn.faces,
            expected=expected,
            status=status,
            problems=tuple(pending.problems),
            stream=str(record.get("stream", PUBLIC)) if well_formed else PUBLIC,
        )

    def may_hide(self, known: _Seed | None) -> bool:
        """Whether an export may hold rolls of this seed that it does not show: a player's export
        (redacted entries) of a seed committed before F-7 (hidden rolls drew from it) or of a hidden
        seed not revealed yet (F-7: revealed only with all its rolls)."""
        if not self.redacted:
            return False
        return known is None or known.legacy or (known.stream == HIDDEN and known.revealed_at is None)

    def used_by_seed(self) -> dict[str, list[tuple[int, int]]]:
        by_seed: dict[str, list[tuple[int, int]]] = {}
        for (commitment, nonce), (seq, _) in self.used.items():
            by_seed.setdefault(commitment, []).append((nonce, seq))
        return by_seed

    def nonce_gaps(self) -> None:
        """F-3: under each seed the nonces run 1, 2, 3, … with none skipped (a skipped nonce is a roll
        the log does not show)."""
        for commitment, used in self.used_by_seed().items():
            known = self.seeds.get(commitment)
            if self.may_hide(known):
                continue
            nonces = {nonce for nonce, _ in used}
            missing = [n for n in range(1, max(nonces) + 1) if n not in nonces]
            if missing:
                at = known.revealed_at if known and known.revealed_at else max(seq for _, seq in used)
                self.problems.append(
                    FairProblem(
                        at,
                        "fair_nonce_missing",
                        {"commitment": commitment, "nonces": _ranges(missing), "count": len(missing)},
                    )
                )

    def counts_revealed(self) -> None:
        """F-8: a reveal says how many rolls and follow-ups used the seed and the last nonce; an export
        that holds fewer lacks a roll (the last ones dropped before the reveal, even with the hash chain
        recomputed and no head to compare with)."""
        by_seed = self.used_by_seed()
        for known in self.seeds.values():
            if known.counted is None or known.revealed_at is None or self.may_hide(known):
                continue  # (a seed's count comes with its reveal)
            rolls, last = known.counted
            nonces = {nonce for nonce, _ in by_seed.get(known.commitment, [])}
            found_last = max(nonces, default=0)
            if len(nonces) < rolls or found_last < last:
                self.problems.append(
                    FairProblem(
                        known.revealed_at,
                        "fair_rolls_missing",
                        {
                            "commitment": known.commitment,
                            "rolls": rolls,
                            "found": len(nonces),
                            "last": last,
                            "found_last": found_last,
                        },
                    )
                )
            elif len(nonces) > rolls or found_last > last:
                self.problems.append(
                    FairProblem(
                        known.revealed_at,
                        "fair_rolls_beyond_reveal",
                        {
                            "commitment": known.commitment,
                            "rolls": rolls,
                            "found": len(nonces),
                            "last": last,
                            "found_last": found_last,
                        },
                    )
                )


def _reveal_faults(stored: Any) -> set[str]:
    """The fields of a ``seed_reveal`` receipt that are missing or not of their form: the algorithm as
    the one its seed was committed under (F-6: a commitment names ``FAIR_ALGORITHM``, so a reveal
    naming another opens no seed the check can replay), the seed and its commitment as 64 lowercase hex digits (F-1), the stream as text (F-7;
    a reveal written before it names none), the counts as counts (F-8; neither before it)."""
    if not isinstance(stored, Mapping):
        return {_WHOLE}
    seed = stored.get("seed")
    well = {
        "algorithm": stored.get("algorithm") == FAIR_ALGORITHM,
        "commitment": is_commitment(stored.get("commitment")),
        "seed": isinstance(seed, str) and _HEX64.fullmatch(seed) is not None,
        "stream": isinstance(stored.get("stream", PUBLIC), str),
    }
    if "rolls" in stored or "last_nonce" in stored:
        well |= {name: _is_count(stored.get(name)) for name in ("rolls", "last_nonce")}
    return {name for name, ok in well.items() if not ok}


def _counted(receipt: SeedRevealReceipt) -> tuple[int, int] | None | Literal[False]:
    """F-8: (rolls, last_nonce) of a reveal entry; None for a reveal written before F-8 (neither field),
    False when malformed."""
    given = receipt.model_fields_set
    if "rolls" not in given and "last_nonce" not in given:
        return None
    rolls, last_nonce = receipt.rolls, receipt.last_nonce
    if not _is_count(rolls) or not _is_count(last_nonce):
        return False
    return rolls, last_nonce


def _is_count(value: object) -> TypeGuard[int]:
    """An integer 0 … LARGEST_ID (not a bool)."""
    return not isinstance(value, bool) and isinstance(value, int) and 0 <= value <= LARGEST_ID


def _ranges(numbers: list[int]) -> str:
    parts, start = [], None
    for index, number in enumerate(numbers):
        if start is None:
            start = number
        if index + 1 == len(numbers) or numbers[index + 1] != number + 1:
            parts.append(str(start) if start == number else f"{start}-{number}")
            start = None
    return ", ".join(parts)


def check_log(entries: Iterable[Any]) -> FairReport:
    """F-1 to F-8 over a whole export, in log order: each revealed seed against its commitment, each
    commitment in the log before its first use and one in use at a time in each stream (F-7: a hidden
    roll from the hidden stream, a visible one from the public), nonces never reused and never
    skipped, as many rolls under each revealed seed as its reveal counts (F-8), each roll's client
    seed the member's own, and every face recomputed under revealed seeds (rolls under a seed not yet
    revealed are PENDING, not VERIFIED). Entries that are not objects with a ``seq`` and a ``kind``
    are skipped: the hash chain's verifier reports them."""
    check = _LogCheck()
    for line in entries:
        try:
            stated = ExportLine.of(line)
        except ValidationError:  # no object with a seq
            continue
        if stated.redacted:  # as stated (the chain's verifier checks it is ``true``)
            check.redacted += 1
            continue
        entry = _header(line)
        if entry is None:
            continue
        seq, kind, stored = entry.seq, entry.kind, entry.stored
        if kind == SEED_COMMIT:
            check.commit(seq, stored)
        elif kind == SEED_REVEAL:
            check.reveal(seq, stored)
        elif kind == SEED_ABANDON:
            check.abandon(seq, stored)
        elif kind == CLIENT_SEED:
            check.set_client_seed(seq, stored)
        elif kind == QUICK_ROLL:  # dice without a sheet: the same draw, its rules receipt rebuilt
            try:
                if not isinstance(stored, Mapping):
                    raise RuleError("not_an_object", field="quick")  # as rules_receipt refuses it
                view = quick.rules_receipt(stored)
            except RuleError:
                check.problems.append(FairProblem(seq, "fair_cannot_replay"))
            else:
                check.roll(entry, view)
        elif _rolled(stored):
            check.roll(entry, stored)
    return check.report()


def _header(line: Any) -> Logged | None:
    """An entry's header (``Logged``), a field of another JSON type read as absent: the hash chain's
    verifier reports it (``not a log entry``), and the roll is still checked here (a chronicle that is
    no id cannot replay its dice); None when there is no entry (no object, no ``seq`` or ``kind``)."""
    try:
        return Logged.of(line)
    except ValidationError as refused:
        if not isinstance(line, Mapping):
            return None
        wrong = {str(error["loc"][0]) for error in refused.errors() if error["loc"]}
    if wrong & {"seq", "kind"}:
        return None
    try:
        return Logged.of({field: value for field, value in line.items() if field not in wrong})
    except ValidationError:
        return None


def _rolled(stored: Any) -> TypeGuard[Mapping[str, Any]]:
    """Whether a receipt is a rules receipt: a system and the request it resolved (a roll, a change
    that rolls, whatever its entry's kind)."""
    try:
        return "request" in DiceReceipt.of(stored).model_fields_set
    except ValidationError:
        return False
