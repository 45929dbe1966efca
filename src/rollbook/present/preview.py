"""Odds before the roll: the pool the server would build, and its exact outcome probabilities.

The pool comes from the play layer itself: ``rollbook.play.preview`` builds the roll from the stored
sheet exactly as ``play.perform`` would (both use the system module's ``prepare``) and draws no die;
it answers the exact rules request (``"request"``) and the pool it built (``"pool"``). Any refusal
(a specialty on a low trait, no Willpower left, a bad difficulty) is raised exactly as the real
roll would raise it, so the form shows the server's error before anything is rolled. The odds are
then computed by ``rollbook.odds.odds_for`` for that request.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol, cast

from rollbook import play
from rollbook.i18n import N_, normalize, percent_text, translate, translations
from rollbook.odds import fraction_text, odds_for
from rollbook.play import systems
from rollbook.play.common import request_from_plain
from rollbook.present import labels
from rollbook.present.words import own_words, words
from rollbook.render.base import numbered_dice

TONES = {
    "success": "good",
    "failure": "bad",
    "botch": "botch",
    "critical": "critical",
    "messy_critical": "messy",
    "total_failure": "bad",
    "bestial_failure": "bestial",
    "critical_success": "critical",
    "critical_failure": "botch",
}


def percent(p: Fraction | float, lang: str) -> str:
    return percent_text(p, lang)  # one formatting for the web and the CLI


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


def _rows(system: str, outcomes: dict[str, str], lang: str) -> list[OddsRow]:
    """One row per outcome of the odds contract's ``{"code": "p/q"}``."""
    outcome_words = words(system).OUTCOMES  # each system's own words (none: the common outcomes')
    rows = []
    for code, text in outcomes.items():
        p = Fraction(text)
        label = translate(outcome_words.get(code, code), lang)
        rows.append(
            OddsRow(
                code,
                label,
                fraction_text(p),
                percent(p, lang),
                TONES.get(code, "neutral"),
                round(float(p) * 100, 2),
            )
        )
    return rows


def _rules_request(system: str, kind: object, plain: dict):
    """The rules request object back from its plain dict; None for a roll the engine has no odds
    for (a V20 soak: its system's ``NO_ODDS_KINDS``)."""
    request_type = None
    if system in play.system_ids():  # the rules request the roll's kind makes (``play.systems``)
        request_type = systems.request_type(system, kind)
    if request_type is None or kind in words(system).NO_ODDS_KINDS:
        return None
    return request_from_plain(request_type, plain)


def odds_view(built: dict, lang: str) -> OddsView | None:
    """The exact odds of the roll ``play.preview`` built (or a receipt: the same keys); None when
    the engine has none for it."""
    system = built.get("system")
    if not isinstance(system, str):  # no system: no request type, no odds
        return None
    try:
        request = _rules_request(system, built.get("kind"), built.get("request") or {})
        if request is None:
            return None
        own = own_words(system)
        if own is None:  # registered from outside: the odds registered, the chance of "success"
            odds = odds_for(system, request)
            success = percent(Fraction(odds["outcomes"]["success"]), lang)
            headline = translate(N_("Chance of success: {p}"), lang, p=success)
            return OddsView(rows=_rows(system, odds["outcomes"], lang), headline=headline)
        outcomes, headline, notes = own.odds_words(request, lang)
        return OddsView(rows=_rows(system, outcomes, lang), headline=headline, notes=notes)
    except (AttributeError, TypeError, KeyError):  # a receipt without the keys a request needs
        return None


# --- V5 Willpower reroll advice (V5-8) ---------------------------------------------------------


class Advised(Protocol):
    """One choice of dice to reroll, as the advice shows it."""

    @property
    def dice(self) -> Sequence[int]: ...  # indices into the normal dice

    @property
    def faces(self) -> Sequence[int]: ...  # their faces

    @property
    def probability(self) -> Fraction: ...  # of the goal after rerolling them


# the normal dice's faces, the Hunger dice's, the difficulty and the goal -> every choice, best first
Advise = Callable[[Sequence[int], Sequence[int], int, str], Sequence[Advised]]


class RerollAdvisor(Protocol):
    """A system's part of the advice on a Willpower reroll (V5-8), its odds module found by name
    (``play.systems.part``): ``advise`` (``systems/v5/odds.py``'s), or None for a system whose rolls
    take no reroll (the other shipped systems' odds modules declare None; a system registered from
    outside has none)."""

    @property
    def advise(self) -> Advise | None: ...


def _advise(system: object) -> Advise | None:
    part = cast("RerollAdvisor | None", systems.part(system, "odds", lambda module: None))
    return part.advise if part is not None else None


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
    best_text: str = ""  # the best dice numbered from 1, faces beside: "1 (2), 3 (4)"


def reroll_advice(result: dict, goal: str, chosen: list[int], lang: str) -> AdviceView | None:
    """The odds engine's advice on a V5 test's final dice: the best choice of up to three normal
    dice for the goal, the chance with no reroll, and the chance of the dice the player ticked. The
    advice is that of the system the result names (its odds module's ``advise``); None for a system
    that advises none."""
    advise = _advise(result.get("system"))
    if advise is None:
        return None
    choices = advise(result["normal"], result["hunger"], result["difficulty"], goal)
    if not choices:
        return None
    best = choices[0]
    by_faces = {tuple(sorted(a.faces)): a for a in choices}
    keep = by_faces.get(())
    view = AdviceView(
        goal=goal,
        best_dice=list(best.dice),
        best_faces=list(best.faces),
        best=percent(best.probability, lang),
        best_fraction=fraction_text(best.probability),
        keep=percent(keep.probability, lang) if keep else "",
        best_text=numbered_dice(best.dice, [result["normal"][i] for i in best.dice]),
    )
    picked = [i for i in chosen if 0 <= i < len(result["normal"])]
    if picked:
        faces = tuple(sorted(result["normal"][i] for i in picked))
        match = by_faces.get(faces)
        if match is not None:
            view.chosen = percent(match.probability, lang)
            view.chosen_dice = picked
    return view


def plural(lang: str):
    """The catalogues of a language, for ``.ngettext(singular, plural, n)`` (msgid_plural entries of
    web.po; each language's Plural-Forms picks the form: fr says "1 dé" and "0 dé")."""
    return translations(normalize(lang))


def describe_pool(pool: dict, lang: str, system: str = "v5", names: dict | None = None) -> str:
    """A receipt's pool in words: "Dexterity 3 + Firearms 2 = 5 dice" (V20, V5);
    "Firearms 60 + Pistol 5 = 65" (Tiers: the effective skill); "Climb 12 + bonus 2 = target 14"."""
    if not pool:
        return ""
    terms = [
        f"{labels.trait(p['trait'].rsplit('.', 1)[-1], lang, names)} {p['rating']}"
        for p in pool.get("parts", [])
    ]
    for modifier in pool.get("modifiers", []):
        source = modifier.get("source", "")
        name = (
            modifier.get("weapon")
            or modifier.get("card")
            or translate(labels.SOURCES.get(source, source), lang)
        )
        amount = next(
            (modifier[k] for k in ("dice", "value", "bonus") if isinstance(modifier.get(k), int)), None
        )
        terms.append(f"{name} {amount:+d}" if amount is not None else name)
    if pool.get("wound_penalty"):  # V5: Impaired (a full Health or Willpower track); V20: wounds
        terms.append(translate(words(system).WOUND_PENALTY, lang, n=f"{pool['wound_penalty']:+d}"))
    text = " + ".join(terms).replace("+ -", "− ").replace("+ +", "+ ")
    text = words(system).pool_total(text, pool.get("total"), pool, lang)
    if pool.get("bullets"):
        text += " · " + plural(lang).ngettext("× {n} bullet", "× {n} bullets", pool["bullets"]).format(
            n=pool["bullets"]
        )
    if pool.get("hunger_dice"):
        text += " · " + plural(lang).ngettext(
            "{n} of them a Hunger die", "{n} of them Hunger dice", pool["hunger_dice"]
        ).format(n=pool["hunger_dice"])
    return text


def preview(
    system: str,
    sheet: dict,
    action: dict,
    *,
    mode: str,
    role: str,
    lang: str,
    table_rules: tuple[str, ...] | list[str] = (),
    compulsion: dict | None = None,
) -> tuple[OddsView | None, str]:
    """(odds, pool in words) for an action, under the chronicle's table rules (TR-1) and the V5
    compulsion in force (seed 001); refusals propagate as RuleError."""
    built = play.preview(
        system, sheet, action, mode=mode, role=role, table_rules=table_rules, compulsion=compulsion
    )
    view = odds_view(built, lang)
    if view is not None and not words(system).may_reroll(sheet):  # V5-8: no Willpower, no reroll to offer
        reroll_note = translate(N_("With the best Willpower reroll afterwards: {p}"), lang, p="")
        view.notes = [n for n in view.notes if not n.startswith(reroll_note.rstrip())]
        view.notes.append(translate(N_("No Willpower left to spend."), lang))
    pool_text = describe_pool(built.get("pool") or {}, lang, system, sheet.get("names"))
    if view is not None:
        view.pool = pool_text
    return view, pool_text
