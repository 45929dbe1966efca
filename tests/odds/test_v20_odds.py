"""V20 odds (SPEC V20-1 … V20-15) against brute force through ``systems.v20.rules.resolve``."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rollbook.rules.base import RuleError
from rollbook.systems.v20 import odds as odds20
from rollbook.systems.v20.odds import odds, v20_odds
from rollbook.systems.v20.rules import DEGREES, V20Request

from .brute import v20_brute

DATA = Path(__file__).resolve().parent / "data"
# SPEC V20-15 as written in SPEC.md (the rule and its table, copied verbatim): the source's table is data
# of the repository, so the tests need nothing outside it.
SPEC_V20_15_CLAUSE = (DATA / "spec_v20_15.md").read_text(encoding="utf-8")
SPEC_V20_15 = "\n".join(line for line in SPEC_V20_15_CLAUSE.splitlines() if line.startswith("|"))


def test_V20_15_source_table_reproduced_digit_for_digit():
    assert SPEC_V20_15.count("\n") == 8  # header, rule, difficulties 3 to 9
    assert odds20.source_table_markdown() == SPEC_V20_15


def test_V20_15_source_table_cells_are_the_odds_of_3_to_5_dice():
    """Each cell of the SPEC table is the lowest–highest chance over pools of 3, 4 and 5 dice, at the
    row's difficulty, one success required, no specialty or Willpower (read off the clause, not the code's table)."""
    assert "pools of 3–5, difficulties 3–9, one success required, no" in " ".join(SPEC_V20_15_CLAUSE.split())
    for line in SPEC_V20_15.splitlines()[2:]:
        difficulty, success, botch = (cell.strip() for cell in line.strip("|").split("|"))
        chances = [odds(pool, int(difficulty)) for pool in (3, 4, 5)]
        for cell, values in ((success, [c.success for c in chances]), (botch, [c.botch for c in chances])):
            low, high = cell.rstrip("%").split("–")
            assert (odds20.percent_one_decimal(min(values)), odds20.percent_one_decimal(max(values))) == (
                low,
                high,
            ), line


def test_V20_15_rounding_is_exact_half_up():
    assert odds20.percent_one_decimal(Fraction(1695, 10000)) == "17.0"  # pool 4, difficulty 9 botch: 16.95%
    assert odds20.percent_one_decimal(Fraction(1694999, 10**7)) == "16.9"


CONFIGS = [
    dict(difficulty=2),
    dict(difficulty=3),
    dict(difficulty=6),
    dict(difficulty=8),
    dict(difficulty=10),
    dict(difficulty=6, required=2),
    dict(difficulty=7, required=3),
    dict(difficulty=6, mode="casual"),  # V20-5: applied 3
    dict(difficulty=3, mode="casual"),  # V20-5 Reading: applied 1, a 1 succeeds and cancels
    dict(difficulty=10, untrained="skill"),  # V20-4 Book: over 10 -> one more success required
    dict(difficulty=6, untrained="talent"),
    dict(difficulty=9, untrained="knowledge", knowledge_allowed=True),
    dict(difficulty=6, specialty=True, specialty_rating=4),  # V20-7
    dict(difficulty=9, specialty=True, specialty_rating=5, required=2),
    dict(difficulty=6, willpower=True),  # V20-9
    dict(difficulty=8, auto_successes=2, required=3),
    dict(difficulty=4, mode="casual", specialty=True, specialty_rating=5, willpower=True),
]


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.parametrize("pool", range(0, 6))
def test_V20_odds_equal_brute_force_through_the_resolver(pool, options):
    """V20-1 … V20-12: every pool ≤ 5, outcomes and total successes, exactly."""
    request = V20Request(pool=pool, **options)
    exact = v20_odds(request)
    outcomes, totals = v20_brute(request)
    assert exact.outcomes.nonzero().fractions() == outcomes
    assert exact.successes.nonzero().fractions() == totals


def test_V20_odds_order_free_enumeration_of_five_dice():
    """The multiset shortcut of the brute force agrees with all 100 000 ordered rolls of 5 dice."""
    request = V20Request(pool=5, difficulty=6, specialty=True, specialty_rating=4)
    assert v20_brute(request, ordered=True) == v20_brute(request, ordered=False)
    assert v20_odds(request).outcomes.nonzero().fractions() == v20_brute(request, ordered=True)[0]


def test_V20_12_degrees_by_net_successes():
    result = odds(5, 6)
    assert result.degrees.probability("marginal") == result.successes.probability(1)
    assert result.degrees.probability("phenomenal") == sum(
        p for t, p in result.successes.fractions().items() if t >= 5
    )
    assert result.degrees.total() == result.success


def test_V20_11_empty_pool_is_never_a_botch():
    assert odds(0, 6).outcomes.fractions() == {"success": 0, "failure": 1, "botch": 0}
    assert odds(0, 6, willpower=True).success == 1


def test_V20_9_willpower_prevents_every_botch():
    assert odds(7, 9, willpower=True).botch == 0


def test_V20_pool_up_to_fifty():
    result = odds(50, 10)
    assert result.outcomes.total() == 1 and result.successes.total() == 1
    with pytest.raises(RuleError):
        odds(51, 6)


def test_V20_7_specialty_refused_below_four():
    with pytest.raises(RuleError):
        odds(5, 6, specialty=True, specialty_rating=3)


requests = st.builds(
    lambda pool, difficulty, required, mode, untrained, specialty, willpower, auto: V20Request(
        pool=pool,
        difficulty=difficulty,
        required=required,
        mode=mode,
        untrained=untrained,
        knowledge_allowed=True,
        specialty=specialty is not None and untrained is None,
        specialty_rating=specialty if untrained is None else None,
        willpower=willpower,
        auto_successes=auto,
    ),
    st.integers(0, 50),
    st.integers(2, 10),
    st.integers(1, 6),
    st.sampled_from(["strict", "casual"]),
    st.sampled_from([None, "talent", "skill", "knowledge"]),
    st.sampled_from([None, 4, 5]),
    st.booleans(),
    st.integers(0, 3),
)


@given(requests)
def test_V20_odds_sum_to_exactly_one(request):
    result = v20_odds(request)
    assert result.outcomes.total() == 1
    assert result.successes.total() == 1
    assert result.degrees.total() == result.success
    assert set(result.degrees.keys()) == set(DEGREES)


@given(st.integers(1, 30), st.integers(2, 9), st.sampled_from(["strict", "casual"]))
def test_V20_6_a_higher_difficulty_never_raises_success_nor_lowers_botch(pool, difficulty, mode):
    easier, harder = odds(pool, difficulty, mode=mode), odds(pool, difficulty + 1, mode=mode)
    assert harder.success <= easier.success
    assert harder.botch >= easier.botch


@given(requests)
def test_V20_9_willpower_never_lowers_success(request):
    if request.willpower_roll:
        return
    from dataclasses import replace

    with_wp = v20_odds(replace(request, willpower=True))
    assert with_wp.success >= v20_odds(replace(request, willpower=False)).success
    assert with_wp.botch == 0


@given(st.integers(1, 30), st.integers(2, 10), st.integers(1, 5))
def test_V20_7_specialty_never_lowers_success_and_more_required_never_raises_it(pool, difficulty, required):
    plain = odds(pool, difficulty, required=required)
    assert (
        odds(pool, difficulty, required=required, specialty=True, specialty_rating=4).success >= plain.success
    )
    assert odds(pool, difficulty, required=required + 1).success <= plain.success


def test_V20_8_more_dice_can_lower_success():
    """Not an invariant: with the Rule of One a second die can cost more than it brings."""
    assert odds(2, 2).success < odds(1, 2).success


@pytest.mark.parametrize("options", CONFIGS[::3], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_V20_diagonal_sums_equal_cell_by_cell(monkeypatch, options):
    """The fast path (whole diagonals, its shape checked on ``outcome_of``) equals the plain one."""
    fast = {pool: v20_odds(V20Request(pool=pool, **options)) for pool in (1, 7, 20)}
    odds20.clear_caches()
    monkeypatch.setattr(odds20, "_diagonal_base", lambda die: None)
    for pool, expected in fast.items():
        slow = v20_odds(V20Request(pool=pool, **options))
        assert slow.outcomes == expected.outcomes and slow.successes == expected.successes
        assert slow.degrees == expected.degrees
    odds20.clear_caches()


# --- TR-1, TR-2: the odds under the table rules, against brute force through the resolver --------

TABLE_RULE_SETS = [
    (),
    ("v20.specialty_reroll_tens",),
    ("v20.ones_do_not_cancel",),
    ("v20.ones_do_not_cancel", "v20.specialty_reroll_tens"),
    ("v20.willpower_once_per_turn",),
]


@pytest.mark.parametrize("rules", TABLE_RULE_SETS)
@pytest.mark.parametrize(
    "pool,difficulty,mode,required",
    [
        (0, 6, "strict", 1),
        (1, 6, "strict", 1),
        (2, 6, "strict", 1),
        (2, 9, "strict", 2),
        (2, 2, "casual", 1),
        (2, 8, "strict", 3),
    ],
)
def test_TR_2_odds_under_table_rules_equal_brute_force(rules, pool, difficulty, mode, required):
    """TR-1/TR-5: every outcome and total of the exact odds equals the enumeration of every finished face
    sequence (the rerolled tens included, to the bound) through ``systems.v20.rules.resolve``."""
    from .brute import v20_chain_brute

    request = V20Request(
        pool=pool,
        difficulty=difficulty,
        mode=mode,
        required=required,
        specialty=True,
        specialty_rating=4,
        table_rules=rules,
    )
    outcomes, totals = v20_chain_brute(request)
    exact = v20_odds(request)
    assert {k: v for k, v in exact.outcomes.items() if v} == outcomes
    assert {k: v for k, v in exact.successes.items() if v} == totals
    assert sum(exact.outcomes.fractions().values()) == 1


def test_TR_2_ones_do_not_cancel_raises_success_and_keeps_botch():
    plain, ruled = odds(5, 6), odds(5, 6, table_rules=("v20.ones_do_not_cancel",))
    assert ruled.success > plain.success and ruled.botch == plain.botch


def test_TR_2_specialty_reroll_tens_vs_counting_twice_big_pool():
    """A pool the brute force cannot reach: the odds stay a distribution, and the botch (no 10 at all)
    is the same whether a 10 counts twice or rerolls."""
    double = odds(20, 6, specialty=True, specialty_rating=5)
    reroll = odds(20, 6, specialty=True, specialty_rating=5, table_rules=("v20.specialty_reroll_tens",))
    assert sum(reroll.outcomes.fractions().values()) == 1
    assert reroll.botch == double.botch  # a botch has no 10 either way


@pytest.mark.parametrize(
    "lang,names",
    [
        (
            "fr",
            ["Facile", "Routinière", "Directe", "Standard", "Exigeante", "Difficile", "Presque impossible"],
        ),
        ("es", ["Fácil", "Rutinaria", "Sencilla", "Estándar", "Desafiante", "Difícil", "Casi imposible"]),
        (
            "en",
            [
                "Easy",
                "Routine",
                "Straightforward",
                "Standard",
                "Challenging",
                "Difficult",
                "Extremely difficult",
            ],
        ),
    ],
)
def test_V20_15_source_table_names_each_difficulty_in_fr_es_en(monkeypatch, capsys, lang, names):
    """`rollbook odds v20 --source-table --lang fr|es|en` (today: --lang does not apply to v20);
    run in this process as a user runs it (tests/odds/cli.py)."""
    import json

    from .cli import run

    code, out, err = run(monkeypatch, capsys, "v20", "--source-table", "--lang", lang, "--json")
    assert code == 0, err
    rows = json.loads(out)["source_table"]
    assert [row["name"] for row in rows] == names and [row["difficulty"] for row in rows] == list(
        range(3, 10)
    )
    code, table, err = run(monkeypatch, capsys, "v20", "--source-table", "--lang", lang)
    assert code == 0, err
    assert all(name in table for name in names)


def test_V20_15_a_receipt_names_its_difficulty_and_says_its_table_rules():
    from rollbook.render import view
    from rollbook.rules.base import to_plain
    from rollbook.systems.v20.rules import resolve

    receipt = to_plain(
        resolve(V20Request(pool=3, difficulty=7, table_rules=("v20.ones_do_not_cancel",)), (7, 1, 1))
    )
    lines = view(receipt, "fr").lines
    assert any("7 (Exigeante)" in line.value for line in lines)
    assert any("les 1 n'annulent aucune réussite" in line.note for line in lines)
