"""Provably fair dice, checked from a chronicle's exported log (SPEC F-1 to F-8).

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

Two streams (F-7): visible rolls draw from the ``public`` stream, hidden rolls (visibility
``hidden``) and their follow-ups from the ``hidden`` one; each stream has its own seed, commitment
and nonces, and one seed in use at a time. Entries written before F-7 name no stream: one stream,
the public one, whose seed hidden rolls used too (they still verify).

``seed_commit`` (F-1), public, appended before any roll uses the seed::

    "receipt": {"algorithm": "hmac-sha256-v1", "commitment": "<64 lowercase hex: SHA-256 of the seed>",
                "stream": "public" | "hidden"}

``seed_reveal`` (F-5, F-6, F-8), public; a rotation is a ``seed_reveal`` of the public seed in use
followed by the ``seed_commit`` of the next one, in the same transaction (the hidden seed is revealed
only with all its rolls); ``rolls`` counts the rolls and follow-ups that used the seed, ``last_nonce``
is the last nonce served (an export holding fewer lacks a roll)::

    "receipt": {"algorithm": "hmac-sha256-v1", "commitment": "<64 hex>", "seed": "<64 lowercase hex: the 32 bytes>",
                "stream": "public" | "hidden", "rolls": N, "last_nonce": N}

``client_seed`` (F-2), public, written when a member sets their client seed (at most 64 characters;
``""`` until the first such entry); it applies to that member's later rolls::

    "receipt": {"member": MEMBER_ID, "client_seed": "<text>"}

A roll (kind ``roll``): the rules receipt of ``rollbook.play.perform`` plus its fairness record
(F-6); ``actor["member"]`` is the member rolling, whose client seed it uses::

    "receipt": {"system": …, "request": {…}, "faces": [...], …,
                "fair": {"algorithm": "hmac-sha256-v1", "commitment": "<64 hex>", "client_seed": "<text>", "nonce": N,
                         "stream": "public" | "hidden"}}

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

from rollbook.fair.check import check_log
from rollbook.fair.replay import ReceiptDraw, receipt_draws, recompute
from rollbook.fair.report import DrawCheck, FairProblem, FairReport, SeedState
from rollbook.fair.seeds import (
    CLIENT_SEED,
    CLIENT_SEED_MAX,
    HIDDEN,
    MISMATCH,
    MOST_DICE,
    PENDING,
    PUBLIC,
    REROLL,
    ROLL,
    SEED_ABANDON,
    SEED_COMMIT,
    SEED_REVEAL,
    STREAMS,
    VERIFIED,
    check_client_seed,
    faces_for,
    is_commitment,
    parse_seed,
    seed_matches,
)
from rollbook.fair.status import fair_status
from rollbook.fair.text import describe, parse_dice_list

__all__ = [
    "CLIENT_SEED_MAX",
    "SEED_COMMIT",
    "SEED_ABANDON",
    "SEED_REVEAL",
    "CLIENT_SEED",
    "ROLL",
    "REROLL",
    "MOST_DICE",
    "VERIFIED",
    "PENDING",
    "MISMATCH",
    "PUBLIC",
    "HIDDEN",
    "STREAMS",
    "faces_for",
    "parse_seed",
    "is_commitment",
    "seed_matches",
    "check_client_seed",
    "ReceiptDraw",
    "receipt_draws",
    "recompute",
    "FairProblem",
    "DrawCheck",
    "SeedState",
    "FairReport",
    "check_log",
    "fair_status",
    "parse_dice_list",
    "describe",
]
