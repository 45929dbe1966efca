"""Provably fair dice on the pages (SPEC F-1 … F-8): each roll card's fairness state (pending while
its seed is in use, verified once revealed, with the commitment), the data the page's "verify"
button recomputes in the browser with Web Crypto (``static/fair.js``, ``static/fair-verify.js``: no
trust in the server's word), the cards of the seed and client-seed entries, and the chronicle page's
panel (the member's client seed, the commitment in use, the Storyteller's rotation)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from rollbook import fair
from rollbook.entries import (
    ClientSeedReceipt,
    Logged,
    SeedAbandonReceipt,
    SeedCommitReceipt,
    SeedRevealReceipt,
    ValidationError,
)
from rollbook.i18n import N_, translate, translate_n
from rollbook.play import quick
from rollbook.rules.base import RuleError

FAIR_KINDS = (fair.SEED_COMMIT, fair.SEED_REVEAL, fair.SEED_ABANDON, fair.CLIENT_SEED)
SEED_REVEAL = fair.SEED_REVEAL
SHORT = 12  # hex digits of a commitment shown on a card


@dataclass
class FairBadge:
    status: str  # fair.PENDING | fair.VERIFIED | fair.MISMATCH
    commitment: str  # the first draw's commitment (64 hex)
    text: str  # the state in words
    draws: str = ""  # JSON for the verify button (revealed draws only): seed, commitment, chronicle, …

    @property
    def short(self) -> str:
        return self.commitment[:SHORT]


def short(commitment: str | None) -> str:
    return (commitment or "")[:SHORT]


def badge(entry: dict, revealed: dict[str, bytes], lang: str) -> FairBadge | None:
    """The fairness state of a roll entry as this page shows it; None for an entry without dice of its
    own under a seed (a change, a roll with a test's chosen faces, a redacted entry)."""
    try:
        logged = Logged.of(entry)
        made = logged.read()
    except (KeyError, ValidationError):  # no entry of the log's kinds: no dice of its own to show
        return None
    stamp = getattr(made, "fair", None)  # F-6: the fair dice a roll (or a change that rolls) drew
    receipt = logged.stored
    if logged.redacted or not isinstance(receipt, dict) or not isinstance(stamp, dict):
        return None
    if logged.kind == "quick_roll":  # dice without a sheet: the rules receipt it stands for
        try:
            receipt = quick.rules_receipt(receipt)
        except RuleError:
            pass  # unreadable: fair_status calls it a mismatch
    chronicle = logged.chronicle
    status = fair.fair_status(receipt, chronicle, revealed)
    if status is None:
        return None
    try:
        draws = [d for d in fair.receipt_draws(receipt) if isinstance(d.record, dict)]
    except RuleError:
        draws = []
    commitment = str(stamp.get("commitment", ""))
    data = []
    for draw in draws:
        seed = revealed.get(draw.record.get("commitment"))
        if seed is not None:
            data.append(
                {
                    "seed": seed.hex(),
                    "commitment": draw.record.get("commitment"),
                    "chronicle": chronicle,
                    "clientSeed": draw.record.get("client_seed"),
                    "nonce": draw.record.get("nonce"),
                    "stream": draw.record.get("stream", fair.PUBLIC),  # F-7
                    "sizes": list(draw.sizes),
                    "faces": list(draw.faces),
                }
            )
    if status == fair.PENDING:
        text = translate(
            N_("Fair dice: pending — seed {commitment}… not revealed yet"), lang, commitment=short(commitment)
        )
    elif status == fair.VERIFIED:
        text = translate(
            N_("Fair dice: verified — seed {commitment}… revealed"), lang, commitment=short(commitment)
        )
    else:
        text = translate(
            N_("Fair dice: mismatch — these faces are not those of seed {commitment}…"),
            lang,
            commitment=short(commitment),
        )
    return FairBadge(status, commitment, text, json.dumps(data, ensure_ascii=False) if data else "")


def describe_entry(
    kind: str, receipt: dict, lang: str, members: dict[int, str] | None = None
) -> tuple[str, str]:
    """(title, line) of a seed commitment, a seed revealed, a client seed set."""
    if kind == fair.SEED_COMMIT:
        return (
            translate(N_("New server seed committed"), lang),
            translate(
                N_("Commitment (SHA-256 of the seed): {commitment}"),
                lang,
                commitment=SeedCommitReceipt.of(receipt).commitment,
            ),
        )
    if kind == fair.SEED_REVEAL:
        revealed = SeedRevealReceipt.of(receipt)
        return (
            translate(N_("Server seed revealed"), lang),
            translate(
                N_("Seed {seed} (commitment {commitment}…): every roll made under it can now be checked"),
                lang,
                seed=revealed.seed,
                commitment=short(revealed.commitment),
            ),
        )
    if kind == fair.SEED_ABANDON:  # F-1: the server's secret no longer opened it
        abandoned = SeedAbandonReceipt.of(receipt)
        return (
            translate(N_("Server seed given up, unreadable"), lang),
            translate_n(
                "The server's secret no longer opens seed {commitment}…: the {n} roll made under it "
                "can never be checked",
                "The server's secret no longer opens seed {commitment}…: the {n} rolls made under it "
                "can never be checked",
                abandoned.rolls,
                lang,
                commitment=short(abandoned.commitment),
            ),
        )
    value = ClientSeedReceipt.of(receipt).client_seed
    return (
        translate(N_("Client seed set"), lang),
        json.dumps(value, ensure_ascii=False) if value else translate(N_("(empty: the default)"), lang),
    )
