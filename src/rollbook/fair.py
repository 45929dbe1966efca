"""Provably fair dice, checked from a chronicle's exported log (SPEC F-1 to F-6).

Pure: the standard library, ``rollbook.dice``, the rules and the i18n messages; no web, no database.
``rollbook fair verify`` reads an export with ``check_log`` (``rollbook log verify`` can add the same
call next to its hash-chain check); the server writes exactly the entries described below and shows
a receipt's state with ``fair_status``. Faces come from ``rollbook.dice.FairDice``
(F-4, ``hmac-sha256-v1``).

The log entries this module reads
=================================
Every entry is an exported log line (see ``rollbook.server.chain``): ``{"chronicle", "seq",
"prev_hash", "entry_hash", "created_at", "kind", "actor", "visibility", "receipt", …}``. This module
reads ``chronicle``, ``seq``, ``kind``, ``actor["member"]``, ``receipt`` and ``redacted``. Entries of
other kinds are ignored; a redacted entry (a player's export of a hidden roll) is counted, not read.

``seed_commit`` (F-1), public, appended before any roll uses the seed::

    "receipt": {"algorithm": "hmac-sha256-v1", "commitment": "<64 lowercase hex: SHA-256 of the seed>"}

``seed_reveal`` (F-5, F-6), public; a rotation is a ``seed_reveal`` of the seed in use followed by
the ``seed_commit`` of the next one, in the same transaction (two consecutive entries)::

    "receipt": {"algorithm": "hmac-sha256-v1", "commitment": "<64 hex>", "seed": "<64 lowercase hex: the 32 bytes>"}

``client_seed`` (F-2), public, written when a member sets their client seed (at most 64 characters;
``""`` until the first such entry); it applies to that member's later rolls::

    "receipt": {"member": MEMBER_ID, "client_seed": "<text>"}

A roll (kind ``roll``): the rules receipt of ``rollbook.play.perform`` plus its fairness record
(F-6); ``actor["member"]`` is the member rolling, whose client seed it uses::

    "receipt": {"system": …, "request": {…}, "faces": [...], …,
                "fair": {"algorithm": "hmac-sha256-v1", "commitment": "<64 hex>", "client_seed": "<text>", "nonce": N}}

One nonce covers every die of the action, drawn from one ``FairDice`` in the order the rules ask
(F-3, F-4): ``receipt["faces"]``, then for a V5 test with a Blood Surge ``receipt["rouse"]["faces"]``
(exactly what ``perform`` draws from the one source it is given).

A follow-up (kind ``reroll``, V5-8): the receipt of ``rollbook.play.perform_followup``, i.e. the roll's
receipt copied (its ``"fair"`` unchanged) with ``"rerolls"`` one element longer; that new element
carries the follow-up's own record and nonce (F-3)::

    "rerolls": [..., {"dice": [...], "faces": [...], "fair": {"algorithm", "commitment", "client_seed", "nonce"}}]

Its faces are ``len(dice)`` d10 from ``FairDice(seed, chronicle, client seed of the member rerolling,
nonce)``. The copied draws (the roll's own, earlier rerolls) must repeat their first appearance
exactly; they are checked once, where they first appear.

The server's recipe (one transaction)::

    source = FairDice(seed, chronicle_id, client_seed, next_nonce)
    performed = perform(..., source=source);           receipt["fair"] = source.record()
    performed = perform_followup(..., source=source);  receipt["rerolls"][-1]["fair"] = source.record()

Results carry codes and numbers only (``FairProblem.code`` + params; English and translations in
``rollbook.i18n.messages_fair``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rollbook import dice
from rollbook.dice import FAIR_ALGORITHM, LARGEST_ID, SEED_BYTES, FairDice, commitment_of
from rollbook.i18n.messages import error_message
from rollbook.play.common import Shim, request_from_plain
from rollbook.rules import get_system, rollunder, tiers, v5, v20
from rollbook.rules.base import RuleError

CLIENT_SEED_MAX = 64  # F-2
SEED_COMMIT, SEED_REVEAL, CLIENT_SEED = "seed_commit", "seed_reveal", "client_seed"
ROLL, REROLL = "roll", "reroll"
VERIFIED, PENDING, MISMATCH = "verified", "pending", "mismatch"
MOST_DICE = 10_000  # a replay that asks for more dice than this is not a roll of these rules

_HEX64 = re.compile(r"[0-9a-f]{64}")


# --- one roll's faces, by hand ---------------------------------------------------------------------

def faces_for(seed: bytes, chronicle: int, client_seed: str, nonce: int, sizes: Iterable[int]) -> tuple[int, ...]:
    """F-4: the faces of dice of these sizes, in order, under one seed, chronicle, client seed and nonce."""
    source = FairDice(seed, chronicle, client_seed, nonce)
    return tuple(face for sides in sizes for face in source.draw(1, sides))


def parse_seed(text: str) -> bytes:
    """A revealed seed as given by a person or an export: 64 hexadecimal digits (32 bytes)."""
    cleaned = text.strip().lower() if isinstance(text, str) else ""
    if not _HEX64.fullmatch(cleaned):
        raise RuleError("bad_seed_hex", length=len(cleaned))
    return bytes.fromhex(cleaned)


def is_commitment(text: Any) -> bool:
    """F-1: a commitment is 64 lowercase hexadecimal digits."""
    return isinstance(text, str) and _HEX64.fullmatch(text) is not None


def seed_matches(seed: bytes, commitment: str) -> bool:
    """F-6: a revealed seed is the committed one when its SHA-256 is the commitment."""
    return len(seed) == SEED_BYTES and commitment_of(seed) == commitment


def check_client_seed(value: Any) -> str:
    """F-2: a client seed is text of at most 64 characters (``""`` is the default); refused otherwise."""
    if not isinstance(value, str):
        raise RuleError("wrong_type", field="client_seed", detail="text")
    if len(value) > CLIENT_SEED_MAX:
        raise RuleError("client_seed_too_long", most=CLIENT_SEED_MAX, given=len(value))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise RuleError("client_seed_not_text") from None
    return value


# --- the dice a receipt drew ---------------------------------------------------------------------

@dataclass(frozen=True)
class ReceiptDraw:
    """One nonce's dice as a receipt records them: the roll's own draw or one follow-up."""

    part: str  # ROLL or REROLL
    reroll: int | None  # index in receipt["rerolls"] for a follow-up
    record: Any  # the "fair" object as stored (None when the draw has none)
    faces: tuple[int, ...]  # the stored faces, in drawing order (a V5 Rouse die after the roll's dice)
    sizes: tuple[int, ...]  # the die sizes the rules ask for, given the stored faces (what a browser needs)


def receipt_draws(receipt: Mapping) -> list[ReceiptDraw]:
    """The draws a rules receipt records, in order: the roll's (``faces`` then ``rouse.faces``), then
    each follow-up in ``rerolls``. Raises ``RuleError("fair_cannot_replay")`` on a receipt whose dice
    cannot be rebuilt."""
    plan = _RollPlan.of(receipt)
    draws = [ReceiptDraw(ROLL, None, receipt.get("fair"), plan.stored_faces(), plan.stored_sizes())]
    rerolls = receipt.get("rerolls") or []
    if not isinstance(rerolls, list):
        raise RuleError("fair_cannot_replay")
    for index, entry in enumerate(rerolls):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("dice"), list):
            raise RuleError("fair_cannot_replay")
        faces = _faces(entry.get("faces"))
        draws.append(ReceiptDraw(REROLL, index, entry.get("fair"), faces, (_REROLL_SIDES,) * len(entry["dice"])))
    return draws


def recompute(receipt: Mapping, draw: ReceiptDraw, seed: bytes, chronicle: int) -> tuple[int, ...]:
    """The faces a draw should have under a revealed seed: the rules' dice requests replayed on
    ``FairDice`` (the roll's dice, then a Rouse die; a follow-up's d10s)."""
    record = draw.record
    source = FairDice(seed, chronicle, record["client_seed"], record["nonce"])
    if draw.part == REROLL:
        return source.draw(len(draw.sizes), _REROLL_SIDES)
    return _RollPlan.of(receipt).replay(source)


_REROLL_SIDES = 10  # V5-8: a Willpower reroll redraws d10s (V5 is the only system with follow-up dice)


class _CountingSource:
    """A dice source that refuses to draw more than MOST_DICE dice (a replay must end)."""

    def __init__(self, source: FairDice) -> None:
        self.source = source
        self.drawn = 0

    def draw(self, n: int, sides: int) -> tuple[int, ...]:
        self.drawn += n
        if self.drawn > MOST_DICE:
            raise RuleError("fair_cannot_replay")
        return self.source.draw(n, sides)


@dataclass(frozen=True)
class _Step:
    system: Any
    request: Any
    faces: tuple[int, ...]


@dataclass(frozen=True)
class _RollPlan:
    """What ``rollbook.play.perform`` drew from its one source: the request's dice, then (V5-11) the
    Rouse check of a Blood Surge."""

    steps: tuple[_Step, ...]

    @classmethod
    def of(cls, receipt: Mapping) -> _RollPlan:
        try:
            system_id = receipt.get("system")
            requests = {"v20": v20.V20Request, "v5": v5.V5Request, "tiers": tiers.TiersRequest,
                        "rollunder": rollunder.RollUnderRequest}
            if system_id == "v20" and receipt.get("kind") == "soak":  # V20-16: soak has its own pool
                system, request_cls = Shim(v20.soak_needed, v20.resolve_soak), v20.SoakRequest
            elif isinstance(system_id, str) and system_id in requests:
                system, request_cls = get_system(system_id), requests[system_id]
            else:
                raise RuleError("fair_cannot_replay")
            steps = [_Step(system, request_from_plain(request_cls, receipt.get("request")),
                           _faces(receipt.get("faces")))]
            if system_id == "v5" and "rouse" in receipt:  # V5-11: the Rouse die after the test's dice
                rouse = receipt["rouse"]
                if not isinstance(rouse, Mapping):
                    raise RuleError("fair_cannot_replay")
                steps.append(_Step(system, request_from_plain(v5.V5Request, rouse.get("request")),
                                   _faces(rouse.get("faces"))))
        except RuleError as refused:
            if refused.code == "fair_cannot_replay":
                raise
            raise RuleError("fair_cannot_replay") from None
        return cls(tuple(steps))

    def stored_faces(self) -> tuple[int, ...]:
        return tuple(face for step in self.steps for face in step.faces)

    def stored_sizes(self) -> tuple[int, ...]:
        """The sizes the rules ask for, step by step, given the stored faces (as far as they go)."""
        sizes: list[int] = []
        for step in self.steps:
            asked: list[int] = []
            try:
                while len(asked) <= len(step.faces):
                    more = step.system.needed(step.request, step.faces[:len(asked)])
                    if not more:
                        break
                    asked.extend(more)
            except (RuleError, TypeError, ValueError):
                raise RuleError("fair_cannot_replay") from None
            sizes.extend(asked)
        return tuple(sizes)

    def replay(self, source: FairDice) -> tuple[int, ...]:
        counting = _CountingSource(source)
        faces: tuple[int, ...] = ()
        try:
            for step in self.steps:
                drawn, _ = dice.roll(step.system, step.request, counting)
                faces += tuple(drawn)
        except (TypeError, ValueError):
            raise RuleError("fair_cannot_replay") from None
        except RuleError as refused:
            if refused.code == "fair_cannot_replay":
                raise
            raise RuleError("fair_cannot_replay") from None
        return faces


def _faces(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or any(isinstance(f, bool) or not isinstance(f, int) for f in value):
        raise RuleError("fair_cannot_replay")
    return tuple(value)


# --- checking a whole log --------------------------------------------------------------------------

@dataclass(frozen=True)
class FairProblem:
    """One finding, as a code and its parameters (``rollbook.i18n.messages_fair`` has the sentences)."""

    seq: int
    code: str
    params: dict = field(default_factory=dict)
    reroll: int | None = None  # set when the problem is a follow-up's (index in receipt["rerolls"])


@dataclass(frozen=True)
class DrawCheck:
    """The verdict on one nonce's dice: VERIFIED, PENDING (seed not revealed yet) or MISMATCH."""

    seq: int
    part: str
    reroll: int | None
    member: int | None
    commitment: str | None
    client_seed: str | None
    nonce: int | None
    sizes: tuple[int, ...]
    faces: tuple[int, ...]
    expected: tuple[int, ...] | None  # recomputed under the revealed seed (None while pending)
    status: str
    problems: tuple[FairProblem, ...]


@dataclass(frozen=True)
class SeedState:
    commitment: str
    committed_at: int
    revealed_at: int | None
    seed: str | None  # lowercase hex, once revealed (and only if it matches the commitment)


@dataclass(frozen=True)
class FairReport:
    draws: tuple[DrawCheck, ...]
    problems: tuple[FairProblem, ...]  # every problem, the draws' included, in log order
    seeds: tuple[SeedState, ...]
    unproven: tuple[int, ...]  # rolls with no fairness record made while no seed was in use
    redacted: int

    @property
    def clean(self) -> bool:
        return not self.problems

    def counts(self) -> dict[str, int]:
        counts = {VERIFIED: 0, PENDING: 0, MISMATCH: 0}
        for draw in self.draws:
            counts[draw.status] += 1
        counts["unproven"] = len(self.unproven)
        return counts

    def status_of(self, seq: int) -> str | None:
        """The fairness state of one entry: MISMATCH if any of its draws is, else PENDING if any is,
        else VERIFIED; None for an entry with no fair draw of its own."""
        statuses = {draw.status for draw in self.draws if draw.seq == seq}
        for status in (MISMATCH, PENDING, VERIFIED):
            if status in statuses:
                return status
        return None


@dataclass
class _Seed:
    commitment: str
    committed_at: int
    revealed_at: int | None = None
    seed: bytes | None = None
    bad_reveal: bool = False


@dataclass
class _Draw:
    seq: int
    part: str
    reroll: int | None
    member: int | None
    chronicle: Any
    receipt: Mapping
    drawn: ReceiptDraw
    problems: list[FairProblem]


class _LogCheck:
    def __init__(self) -> None:
        self.seeds: dict[str, _Seed] = {}
        self.active: str | None = None
        self.client_seeds: dict[Any, tuple[str, int]] = {}
        self.used: dict[tuple[str, int], tuple[int, tuple]] = {}
        self.last_nonce: dict[str, int] = {}
        self.draws: list[_Draw] = []
        self.problems: list[FairProblem] = []
        self.unproven: list[int] = []
        self.redacted = 0

    # seed entries

    def commit(self, seq: int, receipt: Any) -> None:
        commitment = receipt.get("commitment") if isinstance(receipt, Mapping) else None
        if not is_commitment(commitment) or receipt.get("algorithm") != FAIR_ALGORITHM:
            self.problems.append(FairProblem(seq, "seed_commit_malformed"))
            return
        if commitment in self.seeds:
            self.problems.append(FairProblem(seq, "seed_commit_repeated", {
                "commitment": commitment, "first": self.seeds[commitment].committed_at}))
            return
        if self.active is not None:  # F-5: one seed in use at a time, else the server could pick one
            self.problems.append(FairProblem(seq, "seed_commit_while_active", {"active": self.active}))
        self.seeds[commitment] = _Seed(commitment, seq)
        self.active = commitment

    def reveal(self, seq: int, receipt: Any) -> None:
        commitment = receipt.get("commitment") if isinstance(receipt, Mapping) else None
        text = receipt.get("seed") if isinstance(receipt, Mapping) else None
        if not is_commitment(commitment) or not (isinstance(text, str) and _HEX64.fullmatch(text)):
            self.problems.append(FairProblem(seq, "seed_reveal_malformed"))
            return
        known = self.seeds.get(commitment)
        if known is None:
            self.problems.append(FairProblem(seq, "seed_reveal_uncommitted", {"commitment": commitment}))
            return
        if known.revealed_at is not None:
            self.problems.append(FairProblem(seq, "seed_revealed_twice", {
                "commitment": commitment, "first": known.revealed_at}))
            return
        known.revealed_at = seq
        seed = bytes.fromhex(text)
        if seed_matches(seed, commitment):  # F-6: each revealed seed checked against its commitment
            known.seed = seed
        else:
            known.bad_reveal = True
            self.problems.append(FairProblem(seq, "seed_reveal_mismatch", {"commitment": commitment}))
        if self.active == commitment:
            self.active = None

    def set_client_seed(self, seq: int, receipt: Any) -> None:
        member = receipt.get("member") if isinstance(receipt, Mapping) else None
        value = receipt.get("client_seed") if isinstance(receipt, Mapping) else None
        try:
            check_client_seed(value)
        except RuleError:
            value = None
        if member is None or isinstance(member, bool) or value is None:
            self.problems.append(FairProblem(seq, "client_seed_entry_malformed", {"most": CLIENT_SEED_MAX}))
            return
        self.client_seeds[member] = (value, seq)

    # roll entries

    def roll(self, entry: Mapping, receipt: Mapping) -> None:
        seq = entry["seq"]
        try:
            drawn = receipt_draws(receipt)
        except RuleError:
            if "fair" in receipt or self.active is not None:
                self.problems.append(FairProblem(seq, "fair_cannot_replay"))
            else:
                self.unproven.append(seq)
            return
        actor = entry.get("actor")
        member = actor.get("member") if isinstance(actor, Mapping) else None
        # A follow-up's receipt repeats the roll's earlier draws; only its last reroll is new (F-3).
        new_from = len(drawn) - 1 if entry.get("kind") == REROLL else 0
        for index, draw in enumerate(drawn):
            new = index >= new_from
            if draw.record is None:
                if not new:
                    continue
                if self.active is not None:  # F-6: every online roll carries its record
                    self.problems.append(FairProblem(seq, "fair_record_missing", {"commitment": self.active},
                                                     draw.reroll))
                elif seq not in self.unproven:
                    self.unproven.append(seq)
                continue
            self.one_draw(entry, receipt, draw, member, new)

    def one_draw(self, entry: Mapping, receipt: Mapping, draw: ReceiptDraw, member: Any, new: bool) -> None:
        seq = entry["seq"]
        problems: list[FairProblem] = []

        def problem(code: str, **params: Any) -> None:
            problems.append(FairProblem(seq, code, params, draw.reroll))

        record = draw.record
        shape_ok = (isinstance(record, Mapping) and is_commitment(record.get("commitment"))
                    and isinstance(record.get("client_seed"), str)
                    and isinstance(record.get("nonce"), int) and not isinstance(record.get("nonce"), bool)
                    and 1 <= record["nonce"] <= LARGEST_ID)
        if not shape_ok:
            problem("fair_record_malformed")
            self.finish(entry, receipt, draw, member, problems)
            return
        if record.get("algorithm") != FAIR_ALGORITHM:
            problem("fair_unknown_algorithm", algorithm=str(record.get("algorithm")))
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
        if known is None:  # F-1: committed in the log before any roll uses it
            problem("fair_uncommitted", commitment=commitment)
        elif known.revealed_at is not None:
            problem("fair_used_after_reveal", commitment=commitment, revealed=known.revealed_at)
        elif commitment != self.active:
            problem("fair_not_current", commitment=commitment, current=self.active)
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
                    problem("fair_client_seed_differs", used=client, expected=expected, member=member,
                            set_in=set_in)
        self.finish(entry, receipt, draw, member, problems)

    def finish(self, entry: Mapping, receipt: Mapping, draw: ReceiptDraw, member: Any,
               problems: list[FairProblem]) -> None:
        self.draws.append(_Draw(entry["seq"], draw.part, draw.reroll, member, entry.get("chronicle"), receipt, draw,
                                problems))

    # the end: faces under the revealed seeds

    def report(self) -> FairReport:
        checks = []
        for pending in self.draws:
            checks.append(self.verdict(pending))
            self.problems.extend(pending.problems)
        if not self.redacted:  # nonces of hidden rolls are invisible in a player's export
            self.nonce_gaps()
        self.problems.sort(key=lambda p: (p.seq, -1 if p.reroll is None else p.reroll))
        seeds = tuple(SeedState(s.commitment, s.committed_at, s.revealed_at, s.seed.hex() if s.seed else None)
                      for s in self.seeds.values())
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
            if isinstance(chronicle, bool) or not isinstance(chronicle, int) or not 0 <= chronicle <= LARGEST_ID:
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
            seq=pending.seq, part=pending.part, reroll=pending.reroll, member=pending.member,
            commitment=commitment, client_seed=record.get("client_seed") if well_formed else None,
            nonce=record.get("nonce") if well_formed else None, sizes=drawn.sizes, faces=drawn.faces,
            expected=expected, status=status, problems=tuple(pending.problems))

    def nonce_gaps(self) -> None:
        """F-3: under each seed the nonces run 1, 2, 3, … with none skipped (a skipped nonce is a roll
        the log does not show)."""
        by_seed: dict[str, list[tuple[int, int]]] = {}
        for (commitment, nonce), (seq, _) in self.used.items():
            by_seed.setdefault(commitment, []).append((nonce, seq))
        for commitment, used in by_seed.items():
            nonces = {nonce for nonce, _ in used}
            missing = [n for n in range(1, max(nonces) + 1) if n not in nonces]
            if missing:
                known = self.seeds.get(commitment)
                at = known.revealed_at if known and known.revealed_at else max(seq for _, seq in used)
                self.problems.append(FairProblem(at, "fair_nonce_missing", {
                    "commitment": commitment, "nonces": _ranges(missing)}))


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
    """F-1 to F-6 over a whole export, in log order: each revealed seed against its commitment, each
    commitment in the log before its first use and one in use at a time, nonces never reused and never
    skipped, each roll's client seed the member's own, and every face recomputed under revealed seeds
    (rolls under a seed not yet revealed are PENDING, not VERIFIED). Entries that are not objects with
    a ``seq`` are skipped: the hash chain's verifier reports them."""
    check = _LogCheck()
    for entry in entries:
        if not isinstance(entry, Mapping) or isinstance(entry.get("seq"), bool) or not isinstance(entry.get("seq"), int):
            continue
        if entry.get("redacted"):
            check.redacted += 1
            continue
        kind, receipt = entry.get("kind"), entry.get("receipt")
        if kind == SEED_COMMIT:
            check.commit(entry["seq"], receipt)
        elif kind == SEED_REVEAL:
            check.reveal(entry["seq"], receipt)
        elif kind == CLIENT_SEED:
            check.set_client_seed(entry["seq"], receipt)
        elif isinstance(receipt, Mapping) and isinstance(receipt.get("system"), str) and "request" in receipt:
            check.roll(entry, receipt)
    return check.report()


def fair_status(receipt: Mapping, chronicle: int, revealed: Mapping[str, bytes]) -> str | None:
    """One receipt's state for the table (F-6), given the seeds revealed so far (by commitment):
    MISMATCH when a draw under a revealed seed does not recompute to its stored faces, else PENDING
    while a draw's seed is unrevealed, else VERIFIED; None for a receipt with no fairness record (the
    caller shows its source instead). The log-wide checks (nonces, order) are ``check_log``'s."""
    try:
        draws = [draw for draw in receipt_draws(receipt) if draw.record is not None]
    except RuleError:
        return MISMATCH if "fair" in receipt else None
    if not draws:
        return None
    status = VERIFIED
    for draw in draws:
        record = draw.record
        commitment = record.get("commitment") if isinstance(record, Mapping) else None
        seed = revealed.get(commitment) if isinstance(commitment, str) else None
        if seed is None:
            status = PENDING
            continue
        try:
            if (record.get("algorithm") != FAIR_ALGORITHM or not seed_matches(seed, commitment)
                    or recompute(receipt, draw, seed, chronicle) != draw.faces):
                return MISMATCH
        except (RuleError, KeyError, TypeError):
            return MISMATCH
    return status


# --- for people: dice lists and problem lines ----------------------------------------------------

_DICE_TERM = re.compile(r"(\d*)d(\d+)")
MOST_HAND_DICE, MOST_SIDES = 1000, 1000


def parse_dice_list(text: str) -> tuple[int, ...]:
    """Die sizes in drawing order from ``5d10``, ``2d6,1d8``, ``2d6+1d8`` or ``d20 d6`` (a missing count
    is 1): what a player types to recompute a roll by hand. Refused with ``bad_dice_list``."""
    sizes: list[int] = []
    terms = re.split(r"[,+\s]+", text.strip().lower()) if isinstance(text, str) else []
    for term in terms:
        match = _DICE_TERM.fullmatch(term)
        count = int(match.group(1) or 1) if match else 0
        sides = int(match.group(2)) if match else 0
        if not 1 <= count <= MOST_HAND_DICE or not 2 <= sides <= MOST_SIDES:
            raise RuleError("bad_dice_list", value=text)
        sizes.extend([sides] * count)
    if not sizes or len(sizes) > MOST_HAND_DICE:
        raise RuleError("bad_dice_list", value=text)
    return tuple(sizes)


_SEED_PARAMS = ("commitment", "active", "current")
_TEXT_PARAMS = ("used", "expected")


def describe(problem: FairProblem, lang: str = "en") -> str:
    """One line a person reads, e.g. ``entry 12, reroll 1: The faces 4, 4 differ from …``: the entry and
    follow-up it concerns, then the translated message (long commitments shortened to 12 digits)."""
    params: dict[str, Any] = {}
    for name, value in problem.params.items():
        if name in _SEED_PARAMS and isinstance(value, str):
            value = value[:12] + "…"
        elif name in _TEXT_PARAMS and isinstance(value, str):
            value = json.dumps(value, ensure_ascii=False)
        params[name] = value
    where = f"entry {problem.seq}" + (f", reroll {problem.reroll + 1}" if problem.reroll is not None else "")
    return f"{where}: {error_message(problem.code, lang, params)}"


__all__ = [
    "CLIENT_SEED_MAX", "SEED_COMMIT", "SEED_REVEAL", "CLIENT_SEED", "VERIFIED", "PENDING", "MISMATCH",
    "faces_for", "parse_seed", "is_commitment", "seed_matches", "check_client_seed", "ReceiptDraw",
    "receipt_draws", "recompute", "FairProblem", "DrawCheck", "SeedState", "FairReport", "check_log",
    "fair_status", "parse_dice_list", "describe",
]
