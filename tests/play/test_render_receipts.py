"""Every kind of receipt the play layer makes renders (``rollbook.render.view``) in en, fr and es.

Generated: each action kind of each system (``ACTIONS``) must have a sample below, or this test fails,
so a new action kind is covered without anyone remembering to add it. Each sample is rolled with many
seeds, so the outcomes of each kind (success, failure, botch, criticals, soaked, damaged …) come up;
chained rolls (V20-17, T-4, T-5) and the V5 Willpower reroll follow real receipts.
"""

from __future__ import annotations

import pytest

from rollbook.dice import GivenFaces, HmacDice
from rollbook.play import SYSTEM_IDS, new_sheet, perform, perform_followup, system_module
from rollbook.render import ReceiptView, view

from .render_samples import SAMPLES, SHEETS

LANGS = ("en", "fr", "es")
SEEDS = range(24)


def sheet_of(system: str) -> dict:
    data = dict(SHEETS[system])
    if system == "tiers":
        data["skills"] = {**data["skills"], "climbing": 0}
    return new_sheet(system, data)


def rendered(receipt: dict) -> list[ReceiptView]:
    result = receipt["result"]
    views = [view(result, lang) for lang in LANGS]
    for shown in views:
        assert shown.outcome_label and shown.title and shown.lines
    if "rouse" in receipt:
        views += [view(receipt["rouse"]["result"], lang) for lang in LANGS]
    return views


def receipts_of(system: str, kind: str) -> list[dict]:
    receipts = []
    for number, (action, role, chain) in enumerate(SAMPLES[(system, kind)]):
        for seed in SEEDS:
            follows = None
            for step, faces in chain or ():
                follows = perform(
                    system,
                    sheet_of(system),
                    step,
                    mode="strict",
                    role=role,
                    source=GivenFaces(faces),
                    follows=follows,
                ).receipt
            receipts.append(
                perform(
                    system,
                    sheet_of(system),
                    action,
                    mode="strict",
                    role=role,
                    source=HmacDice(f"{system}-{kind}-{number}-{seed}"),
                    follows=follows,
                ).receipt
            )
    return receipts


def test_every_action_kind_of_every_system_has_a_sample():
    kinds = {(system, kind) for system in SYSTEM_IDS for kind in system_module(system).ACTIONS}
    assert kinds == set(SAMPLES), f"add samples for {sorted(kinds - set(SAMPLES))}"


@pytest.mark.parametrize("system,kind", sorted(SAMPLES))
def test_every_receipt_renders_in_every_language(system, kind):
    receipts = receipts_of(system, kind)
    outcomes = set()
    for receipt in receipts:
        assert receipt["kind"] == kind
        outcomes.add(rendered(receipt)[0].outcome)
    assert outcomes  # and each outcome met above rendered in every language


def test_the_v5_willpower_reroll_renders():
    sheet = sheet_of("v5")
    first = perform(
        "v5",
        sheet,
        SAMPLES[("v5", "test")][0][0],
        mode="casual",
        role="player",
        source=GivenFaces([1, 2, 10, 10, 3]),
    )
    rerolled = perform_followup(
        "v5",
        sheet,
        first.receipt,
        {"kind": "reroll", "dice": [0, 1]},
        mode="casual",
        role="player",
        source=GivenFaces([10, 6]),
    )
    assert rendered(rerolled.receipt)[0].outcome


def test_the_outcomes_of_damage_and_soak_all_came_up():
    """The seeds above reach every outcome code of the V20 damage and soak receipts (V20-16, V20-17)."""
    damage = {r["result"]["outcome"] for r in receipts_of("v20", "damage")}
    soak = {r["result"]["outcome"] for r in receipts_of("v20", "soak")}
    assert damage == {"damage", "no_damage"} and soak == {"soaked", "damaged"}
