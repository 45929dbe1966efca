"""Exact odds tables: rollbook against icepool and dyce, in the same run.

    pip install -e '.[bench]'
    python bench/run.py            # full tables, best of 3 runs each
    python bench/run.py --repeat 5

Computes, with each library written idiomatically:

- the full V20 table: pools 1–30 × difficulties 2–10 (strict, one success required): outcome
  probabilities (success / failure / botch) and the distribution of total successes;
- the full V5 table: pools 1–20 × Hunger 0–5 × difficulties 1–8: the six outcomes.

Every number is compared exactly (as fractions) across the three libraries, then the time of
each peer is printed as a ratio to rollbook's. rollbook starts cold every run (its memo tables
are cleared); the peers keep whatever they cache, so the ratios are if anything conservative.
Finally it times rollbook's optimal-reroll advice for every V5 first roll of pools up to 15.

    python bench/run.py --exchange     # the exchange odds (issue 33) beside 10**6 simulated exchanges

times the exact odds of whole exchanges (``systems.v20.odds_exchange``, ``systems.tiers.odds_exchange``) for every
combination of pools on a grid up to 20 dice (each cold: the memo tables cleared first), and beside
them, in the same run, the Monte-Carlo peer ``bench/exchange.py`` (numpy) simulating 10**6 exchanges
of the heaviest case, which must agree within 4 standard errors.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from fractions import Fraction

V20_POOLS = range(1, 31)
V20_DIFFICULTIES = range(2, 11)
V5_POOLS = range(1, 21)
V5_HUNGERS = range(0, 6)
V5_DIFFICULTIES = range(1, 9)
V5_OUTCOMES = ("critical", "messy_critical", "success", "failure", "total_failure", "bestial_failure")
ADVICE_POOLS = range(1, 16)
ADVICE_DIFFICULTY = 3
ADVICE_GOALS = ("win", "clean", "crit")


def _nonzero(mapping: dict) -> dict:
    return {k: Fraction(v) for k, v in mapping.items() if v}


# --- rollbook ---------------------------------------------------------------------------------------


def rollbook_v20(pools=V20_POOLS, difficulties=V20_DIFFICULTIES):
    from rollbook.systems.v20.odds import v20_table

    return v20_table(pools, difficulties)


def rollbook_v20_fractions(table) -> dict:
    return {
        key: (_nonzero(o.outcomes.fractions()), _nonzero(o.successes.fractions())) for key, o in table.items()
    }


def rollbook_v5(pools=V5_POOLS, hungers=V5_HUNGERS, difficulties=V5_DIFFICULTIES):
    from rollbook.systems.v5.odds import v5_table

    return v5_table(pools, hungers, difficulties)


def rollbook_v5_fractions(table) -> dict:
    return {key: _nonzero(o.outcomes.fractions()) for key, o in table.items()}


def rollbook_cold() -> None:
    """Forget every memo table, so each timed run computes from scratch."""
    from rollbook.odds import clear_caches

    clear_caches()


def rollbook_advice(pools=ADVICE_POOLS, difficulty=ADVICE_DIFFICULTY, goals=ADVICE_GOALS) -> int:
    """The optimal reroll for every first roll (class) of every pool and Hunger; returns how many."""
    from rollbook.systems.v5.odds import optimal_policy
    from rollbook.systems.v5.rules import V5Request

    count = 0
    for goal in goals:
        for pool in pools:
            for hunger in V5_HUNGERS:
                count += len(optimal_policy(V5Request(pool=pool, hunger=hunger, difficulty=difficulty), goal))
    return count


# --- icepool: MultisetEvaluator over pools of category dice (icepool's fastest idiom here; its
# author's V5 notebook also shows one-hot Vector sums, which measured 2–4× slower) ------------------


def icepool_v20(pools=V20_POOLS, difficulties=V20_DIFFICULTIES):
    import icepool

    class CountV20(icepool.MultisetEvaluator):
        def next_state(self, state, order, outcome, count):
            successes, ones = state or (0, 0)
            if outcome == "success":
                successes += count
            elif outcome == "one":
                ones += count
            return successes, ones

    def outcome(successes, ones):
        if successes == 0 and ones >= 1:
            return "botch"
        return "success" if successes - min(ones, successes) >= 1 else "failure"

    def net(successes, ones):
        return successes - min(ones, successes)

    evaluator = CountV20()
    table = {}
    for difficulty in difficulties:
        die = icepool.d10.map(
            lambda face, difficulty=difficulty: (
                "one" if face == 1 else "success" if face >= difficulty else "failure"
            )
        )
        for pool in pools:
            counts = evaluator(die.pool(pool))
            table[(pool, difficulty)] = (counts.map(outcome, star=True), counts.map(net, star=True))
    return table


def icepool_v20_fractions(table) -> dict:
    return {
        key: tuple(_nonzero({o: Fraction(q, die.denominator()) for o, q in die.items()}) for die in dice)
        for key, dice in table.items()
    }


def v5_outcome(plain: int, tens: int, hunger_ten: bool, hunger_one: bool, difficulty: int) -> str:
    """A V5 test's outcome from its counts (successes short of 10s, 10s, a Hunger 10?, a Hunger 1?),
    written here for the other libraries, apart from rollbook's rules (V5-3 … V5-7)."""
    successes = plain + tens + 2 * (tens // 2)
    if successes >= difficulty:
        if tens >= 2:
            return "messy_critical" if hunger_ten else "critical"
        return "success"
    if hunger_one:
        return "bestial_failure"
    return "total_failure" if successes == 0 else "failure"


def icepool_v5(pools=V5_POOLS, hungers=V5_HUNGERS, difficulties=V5_DIFFICULTIES):
    import icepool

    v5_die = icepool.Die({"one": 1, "failure": 4, "success": 4, "ten": 1})

    class CountV5(icepool.MultisetEvaluator):
        """(successes short of 10s, 10s, a Hunger 10?, a Hunger 1?) over a normal and a Hunger pool."""

        def next_state(self, state, order, outcome, normal, hunger):
            plain, tens, hunger_ten, hunger_one = state or (0, 0, False, False)
            if outcome == "ten":
                tens += normal + hunger
                hunger_ten = hunger_ten or hunger > 0
            elif outcome == "success":
                plain += normal + hunger
            elif outcome == "one":
                hunger_one = hunger_one or hunger > 0
            return plain, tens, hunger_ten, hunger_one

    evaluator = CountV5()
    table = {}
    for pool in pools:
        for hunger in hungers:
            hunger_dice = min(hunger, pool)
            counts = evaluator(v5_die.pool(pool - hunger_dice), v5_die.pool(hunger_dice))
            for difficulty in difficulties:

                def evaluate(plain, tens, hunger_ten, hunger_one, difficulty=difficulty):
                    return v5_outcome(plain, tens, hunger_ten, hunger_one, difficulty)

                table[(pool, hunger, difficulty)] = counts.map(evaluate, star=True)
    return table


def icepool_v5_fractions(table) -> dict:
    return {
        key: _nonzero({o: Fraction(q, die.denominator()) for o, q in die.items()})
        for key, die in table.items()
    }


# --- dyce (histograms of integers: each face's counts packed into one integer, summed, mapped) -------

_B = 64  # one base-64 digit per count (pools ≤ 30 never overflow a digit)


def dyce_v20(pools=V20_POOLS, difficulties=V20_DIFFICULTIES):
    from dyce import H

    def outcome(packed):
        successes, ones = packed % _B, packed // _B
        if successes == 0 and ones >= 1:
            return "botch"
        return "success" if successes - min(ones, successes) >= 1 else "failure"

    def net(packed):
        successes, ones = packed % _B, packed // _B
        return successes - min(ones, successes)

    table = {}
    for difficulty in difficulties:
        die = H(10).apply(lambda face, difficulty=difficulty: int(face >= difficulty) + _B * int(face == 1))
        for pool in pools:
            total = pool @ die
            table[(pool, difficulty)] = (total.apply(outcome), total.apply(net))
    return table


def dyce_v20_fractions(table) -> dict:
    return {
        key: tuple(_nonzero({o: Fraction(c, h.total) for o, c in h.items()}) for h in hs)
        for key, hs in table.items()
    }


def dyce_v5(pools=V5_POOLS, hungers=V5_HUNGERS, difficulties=V5_DIFFICULTIES):
    from dyce import H

    # digits: successes short of 10s, normal 10s, Hunger 10s, Hunger 1s
    normal = H({0: 5, 1: 4, _B: 1})
    hunger_h = H({_B**3: 1, 0: 4, 1: 4, _B**2: 1})
    table = {}
    for pool in pools:
        for hunger in hungers:
            hunger_dice = min(hunger, pool)
            parts = []
            if pool - hunger_dice:
                parts.append((pool - hunger_dice) @ normal)
            if hunger_dice:
                parts.append(hunger_dice @ hunger_h)
            total = parts[0] if len(parts) == 1 else parts[0] + parts[1]
            for difficulty in difficulties:

                def evaluate(packed, difficulty=difficulty):
                    plain, tens = packed % _B, packed // _B % _B
                    hunger_tens, hunger_ones = packed // _B**2 % _B, packed // _B**3
                    return v5_outcome(plain, tens + hunger_tens, hunger_tens > 0, hunger_ones > 0, difficulty)

                table[(pool, hunger, difficulty)] = total.apply(evaluate)
    return table


def dyce_v5_fractions(table) -> dict:
    return {key: _nonzero({o: Fraction(c, h.total) for o, c in h.items()}) for key, h in table.items()}


# --- timing and checking -----------------------------------------------------------------------------


def best_time(compute: Callable[[], object], repeat: int, before: Callable[[], None] | None = None):
    """(best wall time over ``repeat`` runs, the last result). Like ``timeit``, the garbage collector
    is paused while a run is timed (for every library alike)."""
    best, result = float("inf"), None
    for _ in range(repeat):
        if before is not None:
            before()
        result = None
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            result = compute()
            best = min(best, time.perf_counter() - start)
        finally:
            gc.enable()
    return best, result


def disagreements(reference: dict, other: dict) -> list:
    """Keys whose exact values differ (or are missing)."""
    bad = [key for key in reference if reference[key] != other.get(key)]
    bad += [key for key in other if key not in reference]
    return bad


def run_tables(repeat: int, small: bool = False):
    """Time and check both tables; returns rows of (name, cells, {library: seconds}, {library: bad keys})."""
    if small:
        v20_args = (range(1, 6), range(2, 11))
        v5_args = (range(1, 6), range(0, 6), range(1, 5))
    else:
        v20_args = (V20_POOLS, V20_DIFFICULTIES)
        v5_args = (V5_POOLS, V5_HUNGERS, V5_DIFFICULTIES)
    rows = []
    for name, args, libraries in (
        (
            "V20",
            v20_args,
            (
                ("rollbook", rollbook_v20, rollbook_v20_fractions),
                ("icepool", icepool_v20, icepool_v20_fractions),
                ("dyce", dyce_v20, dyce_v20_fractions),
            ),
        ),
        (
            "V5",
            v5_args,
            (
                ("rollbook", rollbook_v5, rollbook_v5_fractions),
                ("icepool", icepool_v5, icepool_v5_fractions),
                ("dyce", dyce_v5, dyce_v5_fractions),
            ),
        ),
    ):
        times, exact = {}, {}
        for library, compute, to_fractions in libraries:
            before = rollbook_cold if library == "rollbook" else None
            seconds, result = best_time(lambda compute=compute, args=args: compute(*args), repeat, before)
            times[library] = seconds
            exact[library] = to_fractions(result)
        reference = exact["rollbook"]
        bad = {
            library: disagreements(reference, exact[library]) for library in exact if library != "rollbook"
        }
        rows.append((name, len(reference), times, bad))
    return rows


# --- whole exchanges (issue 33) -----------------------------------------------------------------------

EXCHANGE_POOLS = (1, 5, 10, 15, 20)
EXCHANGE_BUDGET = 0.050  # seconds: an exchange answers as the player types


def exchange_grid(small: bool = False):
    """Every exchange of the grid: ("v20" | "tiers", a zero-argument function computing its exact odds)."""
    from rollbook.systems.tiers import odds_exchange as exchange_tiers
    from rollbook.systems.tiers.rules import TiersRequest
    from rollbook.systems.v20 import odds_exchange as exchange_v20
    from rollbook.systems.v20.rules import V20Request

    pools = (20,) if small else EXCHANGE_POOLS
    weapons, soaks = ((20,), (0, 20)) if small else ((1, 10, 20), (0, 10, 20))
    cases = []
    for attack in pools:
        for dodge in (None, 20):
            for damage in weapons:
                for soak in soaks:
                    request = V20Request(
                        pool=attack, difficulty=6, specialty=attack == 20, specialty_rating=5
                    )
                    weapon = exchange_v20.Weapon(damage, "lethal", strength=min(damage, 10))
                    defender = exchange_v20.Defender(
                        stamina=min(soak, 10),
                        fortitude=max(0, soak - 10),
                        health=(1, 1, 0),
                        dodge=None if dodge is None else V20Request(pool=dodge),
                    )
                    cases.append(
                        ("v20", lambda r=request, w=weapon, d=defender: exchange_v20.exchange_odds(r, w, d))
                    )
                    shot = TiersRequest(kind="skill", skill=attack, bonus=2, bullets=1 + damage // 5)
                    target = exchange_tiers.TiersDefender(
                        endurance=min(soak, 10), armor=max(0, soak - 10), level=1, length=8, dodge=dodge
                    )
                    cases.append(("tiers", lambda s=shot, t=target: exchange_tiers.exchange_odds(s, t)))
    return cases


def heaviest_exchanges():
    from rollbook.systems.tiers import odds_exchange as exchange_tiers
    from rollbook.systems.tiers.rules import TiersRequest
    from rollbook.systems.v20 import odds_exchange as exchange_v20
    from rollbook.systems.v20.rules import V20Request

    v20_case = (
        V20Request(pool=20, difficulty=6, specialty=True, specialty_rating=5),
        exchange_v20.Weapon(10, "lethal", strength=10),
        exchange_v20.Defender(stamina=10, fortitude=10, health=(1, 1, 0), dodge=V20Request(pool=20)),
    )
    tiers_case = (
        TiersRequest(kind="skill", skill=20, bonus=2, bullets=5),
        exchange_tiers.TiersDefender(endurance=10, armor=10, level=1, length=8, dodge=20),
    )
    return v20_case, tiers_case


def run_exchange(repeat: int, small: bool = False, simulated: int = 1_000_000):
    """(per system: (exchanges, slowest seconds, median seconds), the Monte-Carlo rows: (system,
    seconds for the exact odds, seconds for the simulation, disagreements))."""
    import importlib.util
    from pathlib import Path

    from rollbook.systems.tiers import odds_exchange as exchange_tiers
    from rollbook.systems.v20 import odds_exchange as exchange_v20

    timings: dict[str, list[float]] = {"v20": [], "tiers": []}
    for system, compute in exchange_grid(small):
        seconds, _ = best_time(compute, repeat, rollbook_cold)
        timings[system].append(seconds)
    grid = {
        system: (len(times), max(times), sorted(times)[len(times) // 2]) for system, times in timings.items()
    }

    spec = importlib.util.spec_from_file_location(
        "rollbook_bench_exchange", Path(__file__).with_name("exchange.py")
    )
    simulation = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(simulation)
    (attack, weapon, defender), (shot, target) = heaviest_exchanges()
    rows = []
    exact_seconds, exact = best_time(
        lambda: exchange_v20.exchange_odds(attack, weapon, defender), repeat, rollbook_cold
    )
    start = time.perf_counter()
    counts = simulation.simulate_v20(attack, weapon, defender, simulated)
    mc_seconds = time.perf_counter() - start
    bad = [
        *simulation.agreement(exact.outcomes.fractions(), counts["outcomes"], simulated),
        *simulation.agreement(exact.levels.fractions(), counts["levels"], simulated),
        *simulation.agreement(exact.wounds.fractions(), counts["wounds"], simulated),
    ]
    rows.append(("v20", exact_seconds, mc_seconds, bad))
    exact_seconds, exact = best_time(
        lambda: exchange_tiers.exchange_odds(shot, target), repeat, rollbook_cold
    )
    start = time.perf_counter()
    counts = simulation.simulate_tiers(shot, target, simulated)
    mc_seconds = time.perf_counter() - start
    bad = [
        *simulation.agreement(exact.outcomes.fractions(), counts["outcomes"], simulated),
        *simulation.agreement(exact.track.fractions(), counts["track"], simulated),
    ]
    rows.append(("tiers", exact_seconds, mc_seconds, bad))
    return grid, rows


def exchange_report(console, repeat: int, small: bool) -> bool:
    """Print the exchange section; True when every number agrees and every exchange is within budget."""
    from rich.table import Table

    simulated = 10_000 if small else 1_000_000
    grid, rows = run_exchange(repeat, small, simulated)
    table = Table(
        title=f"Exact odds of a whole exchange, every pool on a grid up to 20 dice, each cold "
        f"(best of {repeat})",
        title_justify="left",
    )
    for column in ("exchange", "exchanges", "slowest", "median", f"under {EXCHANGE_BUDGET * 1000:.0f} ms"):
        table.add_column(column, justify="right" if column != "exchange" else "left")
    ok = True
    names = {
        "v20": "V20: attack → dodge → damage → soak → track",
        "tiers": "Tiers: shot → dodge → soak → wounds",
    }
    for system, (count, slowest, median) in grid.items():
        within = slowest < EXCHANGE_BUDGET
        ok &= within
        table.add_row(
            names[system],
            str(count),
            f"{slowest * 1000:.1f} ms",
            f"{median * 1000:.1f} ms",
            "yes" if within else "NO",
        )
    console.print(table)
    peer = Table(
        title=f"The heaviest exchange beside its Monte-Carlo peer ({simulated:,} simulated exchanges, "
        "numpy, same run)",
        title_justify="left",
    )
    for column in ("exchange", "exact (cold)", "simulated", "simulated ÷ exact", "agree within 4 SE"):
        peer.add_column(column, justify="right" if column != "exchange" else "left")
    for system, exact_seconds, mc_seconds, bad in rows:
        ok &= not bad
        peer.add_row(
            names[system],
            f"{exact_seconds * 1000:.1f} ms",
            f"{mc_seconds:.2f} s",
            f"{mc_seconds / exact_seconds:.0f}×",
            "yes" if not bad else f"NO: {bad[:3]}",
        )
    console.print(peer)
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs per library; the best is kept (default 3)"
    )
    parser.add_argument("--small", action="store_true", help="small tables (a smoke run)")
    parser.add_argument(
        "--exchange",
        action="store_true",
        help="only the exchange odds (issue 33) beside 10**6 simulated exchanges",
    )
    options = parser.parse_args(argv)

    from rich.console import Console
    from rich.table import Table

    console = Console()
    if options.exchange:
        return 0 if exchange_report(console, options.repeat, options.small) else 1
    rows = run_tables(options.repeat, options.small)

    ratios = Table(
        title=f"Exact odds tables: time of each peer ÷ time of rollbook (same run, best of {options.repeat})",
        title_justify="left",
    )
    ratios.add_column("table")
    ratios.add_column("cells", justify="right")
    ratios.add_column("icepool ÷ rollbook", justify="right", style="bold")
    ratios.add_column("dyce ÷ rollbook", justify="right", style="bold")
    ratios.add_column("all numbers equal", justify="center")
    described = {
        "V20": "V20 pools 1–30 × difficulties 2–10, outcomes + success distributions",
        "V5": "V5 pools 1–20 × Hunger 0–5 × difficulties 1–8, six outcomes",
    }
    failed = False
    for name, cells, times, bad in rows:
        equal = all(not keys for keys in bad.values())
        failed |= not equal
        label = described[name] if not options.small else f"{name} (small)"
        ratios.add_row(
            label,
            str(cells),
            f"{times['icepool'] / times['rollbook']:.0f}×",
            f"{times['dyce'] / times['rollbook']:.0f}×",
            "yes" if equal else "NO: " + "; ".join(f"{lib} {keys[:3]}" for lib, keys in bad.items() if keys),
        )
    console.print(ratios)

    detail = Table(title="Wall times behind the ratios (seconds)", title_justify="left", style="dim")
    detail.add_column("table", style="dim")
    for library in ("rollbook", "icepool", "dyce"):
        detail.add_column(library, justify="right", style="dim")
    for name, _, times, _ in rows:
        detail.add_row(name, *(f"{times[lib]:.4f}" for lib in ("rollbook", "icepool", "dyce")))
    console.print(detail)

    pools = range(1, 6) if options.small else ADVICE_POOLS
    seconds, count = best_time(lambda: rollbook_advice(pools), options.repeat, rollbook_cold)
    console.print(
        f"Optimal-reroll advice for every V5 first roll of pools {pools.start}–{pools.stop - 1}, "
        f"Hunger 0–5, difficulty {ADVICE_DIFFICULTY}, goals {', '.join(ADVICE_GOALS)}: "
        f"{count:,} first-roll classes in [bold]{seconds:.3f} s[/bold] (cold)"
    )
    if failed:
        console.print("[bold red]The libraries disagree: see the table above.[/bold red]")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
