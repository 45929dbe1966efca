"""Odds before the roll: the pool the server would build, and its exact outcome probabilities.

The pool comes from the play layer itself: ``play.perform`` is pure, so it is called on the stored
sheet with a dice source that draws placeholder faces, and the receipt it returns carries the
exact rules request (``receipt["request"]``) and the pool it built (``receipt["pool"]``). Any
refusal (a specialty on a low trait, no Willpower left, a bad difficulty) is raised exactly as
the real roll would raise it, so the form shows the server's error before anything is rolled.
The odds are then computed by ``rollbook.odds`` for that request.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from babel.numbers import format_decimal

from rollbook.i18n import N_, translate
from rollbook.rules.base import RuleError

OUTCOME_LABELS = {
    "v20": {"success": N_("Success"), "failure": N_("Failure"), "botch": N_("Botch")},
    "v5": {"critical": N_("Critical"), "messy_critical": N_("Messy Critical"), "success": N_("Success"),
           "failure": N_("Failure"), "total_failure": N_("Total Failure"), "bestial_failure": N_("Bestial Failure")},
    "tiers": {"success": N_("Success"), "failure": N_("Failure")},
    "rollunder": {"critical_success": N_("Critical success"), "success": N_("Success"), "failure": N_("Failure"),
                  "critical_failure": N_("Critical failure")},
}
TONES = {"success": "good", "failure": "bad", "botch": "botch", "critical": "critical",
         "messy_critical": "messy", "total_failure": "bad", "bestial_failure": "bestial",
         "critical_success": "critical", "critical_failure": "botch"}
MAX_OPTIMAL_POOL = 20  # the optimal-reroll table is exact but grows with the pool (20 dice: ~0.2 s cold)


class _Placeholder:
    """Draws middle faces: the faces of a dry run never matter, only the request it builds (a
    middle face never asks for another die, as a Tiers critical 1 would: T-2)."""

    name = "placeholder"

    def draw(self, n: int, sides: int):
        return (sides // 2 + 1,) * n


def dry_run(system: str, sheet: dict, action: dict, *, mode: str, role: str) -> dict:
    from rollbook.play import perform

    return perform(system, sheet, action, mode=mode, role=role, source=_Placeholder()).receipt


def percent(p: Fraction | float, lang: str) -> str:
    value = float(p) * 100
    text = format_decimal(round(value, 1), format="#,##0.0", locale=lang)
    return f"{text}\u202f%" if lang in ("fr", "es") else f"{text}%"


@dataclass
class OddsRow:
    code: str
    label: str
    fraction: str
    percent: str
    tone: str
    width: float  # 0–100, for the bar


@dataclass
class OddsView:
    rows: list[OddsRow] = field(default_factory=list)
    headline: str = ""  # "Chance of success: 84.4 %"
    notes: list[str] = field(default_factory=list)
    pool: str = ""  # how the pool was built, in words


def _rows(system: str, outcomes, lang: str) -> list[OddsRow]:
    from rollbook.odds import fraction_text

    rows = []
    for code, p in outcomes.items():
        label = translate(OUTCOME_LABELS.get(system, {}).get(code, code), lang)
        rows.append(OddsRow(code, label, fraction_text(p), percent(p, lang), TONES.get(code, "neutral"),
                            round(float(p) * 100, 2)))
    return rows


def odds_view(receipt: dict, lang: str) -> OddsView | None:
    """The exact odds of the request a dry run built; None when the engine has none for it."""
    system = receipt.get("system")
    kind = receipt.get("kind")
    request = receipt.get("request") or {}
    try:
        if system == "v20" and kind != "soak":
            return _v20(request, lang)
        if system == "v5":
            return _v5(request, lang)
        if system in ("tiers", "rollunder"):
            return _other(system, receipt, lang)
    except (ImportError, AttributeError, TypeError, KeyError):
        return None
    return None


def _v20(plain: dict, lang: str) -> OddsView:
    from rollbook.odds.v20 import v20_odds
    from rollbook.play.common import request_from_plain
    from rollbook.rules.v20 import V20Request

    odds = v20_odds(request_from_plain(V20Request, plain))
    view = OddsView(rows=_rows("v20", odds.outcomes, lang))
    view.headline = translate(N_("Chance of success: {p}"), lang, p=percent(odds.success, lang))
    return view


def _v5(plain: dict, lang: str) -> OddsView:
    from rollbook.odds import v5 as v5_odds_module
    from rollbook.play.common import request_from_plain
    from rollbook.rules.v5 import V5Request

    request = request_from_plain(V5Request, plain)
    if request.kind == "rouse":
        odds = v5_odds_module.rouse_odds(request.hunger, request.blood_potency_reroll, request.creature)
        view = OddsView(rows=_rows("v5", odds.outcomes, lang))
        view.headline = translate(N_("Chance that Hunger rises: {p}"), lang,
                                  p=percent(odds.hunger_gain.probability(1), lang))
        return view
    odds = v5_odds_module.v5_odds(request)
    win = odds.of_goal("win")
    view = OddsView(rows=_rows("v5", odds.outcomes, lang))
    view.headline = translate(N_("Chance to win: {p}"), lang, p=percent(win, lang))
    if request.kind == "test" and request.pool <= MAX_OPTIMAL_POOL:
        best = v5_odds_module.v5_odds(request, reroll="optimal", goal="win")
        view.notes.append(translate(N_("With the best Willpower reroll afterwards: {p}"), lang,
                                    p=percent(best.goal_probability, lang)))
    return view


def _other(system: str, receipt: dict, lang: str) -> OddsView | None:
    """Tiers (``odds.tiers.tiers_odds``) and roll-under (``odds.rollunder.rollunder_odds``)."""
    from rollbook.play.common import request_from_plain

    if system == "tiers":
        from rollbook.odds.tiers import tiers_odds
        from rollbook.rules.tiers import TiersRequest

        odds = tiers_odds(request_from_plain(TiersRequest, receipt.get("request")))
        kind = receipt.get("request", {}).get("kind")
        label = {"dodge": N_("Chance to dodge: {p}"), "soak": N_("Chance to take no damage: {p}")}.get(
            kind, N_("Chance of success: {p}"))
        view = OddsView(rows=_rows(system, odds.outcomes, lang))
        view.headline = translate(label, lang, p=percent(odds.success, lang))
        if odds.critical:
            view.notes.append(translate(N_("Critical (a 1, roll again): {p}"), lang, p=percent(odds.critical, lang)))
        return view
    from rollbook.odds.rollunder import rollunder_odds
    from rollbook.rules.rollunder import RollUnderRequest

    odds = rollunder_odds(request_from_plain(RollUnderRequest, receipt.get("request")))
    view = OddsView(rows=_rows(system, odds.outcomes, lang))
    view.headline = translate(N_("Chance of success: {p}"), lang, p=percent(odds.success, lang))
    return view


# --- V5 Willpower reroll advice (V5-8) ---------------------------------------------------------

@dataclass
class AdviceView:
    goal: str
    best_dice: list[int]
    best_faces: list[int]
    best: str  # percent
    best_fraction: str
    keep: str  # percent with no reroll
    chosen: str | None = None  # percent for the chosen dice
    chosen_dice: list[int] = field(default_factory=list)


def reroll_advice(result: dict, goal: str, chosen: list[int], lang: str) -> AdviceView | None:
    """The odds engine's advice on a V5 test's final dice: the best choice of up to three normal
    dice for the goal, the chance with no reroll, and the chance of the dice the player ticked."""
    try:
        from rollbook.odds import fraction_text
        from rollbook.odds.v5 import advise
    except ImportError:
        return None
    choices = advise(result["normal"], result["hunger"], result["difficulty"], goal)
    if not choices:
        return None
    best = choices[0]
    by_faces = {tuple(sorted(a.faces)): a for a in choices}
    keep = by_faces.get((), None)
    view = AdviceView(goal=goal, best_dice=list(best.dice), best_faces=list(best.faces),
                      best=percent(best.probability, lang), best_fraction=fraction_text(best.probability),
                      keep=percent(keep.probability, lang) if keep else "")
    picked = [i for i in chosen if 0 <= i < len(result["normal"])]
    if picked:
        faces = tuple(sorted(result["normal"][i] for i in picked))
        match = by_faces.get(faces)
        if match is not None:
            view.chosen = percent(match.probability, lang)
            view.chosen_dice = picked
    return view


def describe_pool(pool: dict, lang: str, system: str = "v5") -> str:
    """A receipt's pool in words: "Dexterity 3 + Firearms 2 = 5 dice" (V20, V5);
    "Firearms 60 + Pistol 5 = 65" (Tiers: the effective skill); "Climb 12 + bonus 2 = target 14"."""
    from rollbook.web import labels

    if not pool:
        return ""
    terms = [f"{labels.trait(p['trait'].rsplit('.', 1)[-1], lang)} {p['rating']}" for p in pool.get("parts", [])]
    for modifier in pool.get("modifiers", []):
        source = modifier.get("source", "")
        name = modifier.get("weapon") or modifier.get("card") or translate(labels.SOURCES.get(source, source), lang)
        amount = next((modifier[k] for k in ("dice", "value", "bonus") if isinstance(modifier.get(k), int)), None)
        terms.append(f"{name} {amount:+d}" if amount is not None else name)
    if pool.get("wound_penalty"):
        terms.append(translate(N_("wounds {n}"), lang, n=f"{pool['wound_penalty']:+d}"))
    text = " + ".join(terms).replace("+ -", "− ").replace("+ +", "+ ")
    total = pool.get("total")
    if total is not None:
        if system in ("v20", "v5") and total == 1:
            template = N_("{terms} = {n} die") if text else N_("{n} die")
        elif system in ("v20", "v5"):
            template = N_("{terms} = {n} dice") if text else N_("{n} dice")
        elif system == "tiers":
            template = N_("{terms} = effective {n}") if text else N_("effective {n}")
        else:
            template = N_("{terms} = target {n}") if text else N_("target {n}")
        text = translate(template, lang, terms=text, n=total)
    if pool.get("dice") and system == "rollunder":
        text = translate(N_("{dice} against {n}"), lang, dice=pool["dice"], n=total)
    if pool.get("bullets"):
        text += " · " + translate(N_("× {n} bullets"), lang, n=pool["bullets"])
    if pool.get("hunger_dice"):
        text += " · " + translate(N_("{n} of them Hunger dice"), lang, n=pool["hunger_dice"])
    return text


def error_text(error: Exception, lang: str) -> str:
    from rollbook.server.problems import ProblemError, detail, from_rule_error

    if isinstance(error, RuleError):
        problem = from_rule_error(error)
        return detail(problem.code, lang, problem.params)
    if isinstance(error, ProblemError):
        return detail(error.code, lang, error.params)
    return str(error)


def preview(system: str, sheet: dict, action: dict, *, mode: str, role: str, lang: str) -> tuple[OddsView | None, str]:
    """(odds, pool in words) for an action; refusals propagate as RuleError."""
    receipt = dry_run(system, sheet, action, mode=mode, role=role)
    view = odds_view(receipt, lang)
    pool_text = describe_pool(receipt.get("pool") or {}, lang, system)
    if view is not None:
        view.pool = pool_text
    return view, pool_text
