"""`rollbook roll v5 …`: a V5 roll with the secure dice, then the Willpower reroll (SPEC V5-8).

After a test the player may reroll up to three **normal** dice with Willpower (Hunger dice never,
V5-8, V5-2): on a terminal the receipt is shown with the odds engine's advice (``systems.v5.odds.advise``:
the best dice to reroll for the goal, and the chance with and without it) and the prompt asks which
dice; a script passes ``--reroll 1,2,3`` (the normal dice numbered from 1, as the receipt, the web
table and the advice number them) or nothing. The rerolled receipt keeps the original faces and the
reroll (``systems.v5.rules.reroll``).
"""

from __future__ import annotations

import sys
from fractions import Fraction

import typer

from rollbook.cli.roll import JsonOption, LangOption, language, roll_app, show
from rollbook.dice import SecureDice
from rollbook.dice import roll as draw_and_resolve
from rollbook.i18n import N_, percent_text, translate
from rollbook.render.base import numbered_dice
from rollbook.rules.base import RuleError, check_choice, to_plain
from rollbook.systems.v5 import rules as v5
from rollbook.systems.v5.odds import advise

GOALS = {"win": N_("a win"), "clean": N_("a win without a Messy Critical"), "crit": N_("a critical")}


def reroll_dice(text: str | None) -> tuple[int, ...]:
    """``"1,2,3"`` (dice as people count them, from 1) -> (0, 1, 2), the positions the rules take; empty
    or ``none`` -> () (no reroll). The rules check the rest (V5-8)."""
    if text is None or text.strip().lower() in ("", "none", "-"):
        return ()
    dice = []
    for part in text.replace(" ", ",").split(","):
        if part.strip():
            try:
                number = int(part)
            except ValueError:
                raise RuleError("reroll_bad_index", index=part.strip(), number=part.strip()) from None
            if number < 1:
                raise RuleError("reroll_bad_index", index=number - 1, number=number)
            dice.append(number - 1)
    return tuple(dice)


def _percent(chance: Fraction, lang: str) -> str:
    return percent_text(chance, lang)  # "0,0 %" in fr and es, as the web writes it


def advice_lines(receipt: v5.V5Receipt, goal: str, lang: str) -> list[str]:
    """The prompt's text: the dice by index, the odds engine's best reroll for the goal, the chance
    without a reroll (the advice's exact probabilities)."""
    normal = numbered_dice(range(len(receipt.normal)), receipt.normal)
    lines = [
        translate(
            N_("Willpower reroll (V5-8): up to three normal dice; Hunger dice are never rerolled."), lang
        ),
        translate(N_("Normal dice: {dice}"), lang, dice=normal),
    ]
    if receipt.hunger:
        lines.append(
            translate(N_("Hunger dice: {dice}"), lang, dice=" ".join(str(f) for f in receipt.hunger))
        )
    choices = advise(receipt.normal, receipt.hunger, receipt.difficulty, goal)
    best = choices[0]
    keep = next(a for a in choices if not a.dice)
    aim = translate(GOALS[goal], lang)
    if best.dice:
        lines.append(
            translate(
                N_("Best for {goal}: reroll {dice} ({chance}; without a reroll {keep})."),
                lang,
                goal=aim,
                dice=numbered_dice(best.dice, [receipt.normal[i] for i in best.dice]),
                chance=_percent(best.probability, lang),
                keep=_percent(keep.probability, lang),
            )
        )
    else:
        lines.append(
            translate(
                N_("Best for {goal}: keep the dice ({chance})."),
                lang,
                goal=aim,
                chance=_percent(keep.probability, lang),
            )
        )
    return lines


@roll_app.command("v5")
def roll_v5(
    kind: str = typer.Argument("test", help="test, rouse, willpower, remorse or frenzy."),
    pool: int = typer.Option(1, "--pool", help="Dice in the pool; Hunger dice replace some of them (V5-2)."),
    hunger: int = typer.Option(0, "--hunger", help="Hunger 0–5 (for rouse: the current Hunger)."),
    difficulty: int = typer.Option(1, "--difficulty", help="Successes needed (V5-1)."),
    creature: str = typer.Option(
        "vampire", "--creature", help="vampire, thin_blood, ghoul or mortal (V5-12)."
    ),
    blood_potency_reroll: bool = typer.Option(
        False, "--bp-reroll", help="Rouse: Blood Potency reroll, keep the better."
    ),
    mode: str = typer.Option(
        "strict", "--mode", help="strict (one Willpower reroll per roll) or casual (again and again, V5-8)."
    ),
    reroll: list[str] | None = typer.Option(
        None,
        "--reroll",
        help="Willpower reroll (V5-8) of these normal dice, numbered from 1: 1,2,3 (up to three; "
        "Hunger dice never); repeat it for another reroll in --mode casual. Without it a "
        "terminal asks, with the odds engine's advice.",
    ),
    goal: str = typer.Option("win", "--goal", help="What the reroll advice aims for: win, clean or crit."),
    interactive: bool | None = typer.Option(
        None,
        "--interactive/--no-interactive",
        help="Ask for the Willpower reroll (default: when on a terminal).",
    ),
    show_advice: bool = typer.Option(
        False,
        "--advise",
        help="Without asking: show the roll and the odds engine's reroll advice (dice numbered from 1).",
    ),
    lang: str | None = LangOption,
    as_json: bool = JsonOption,
) -> None:
    """A V5 test with Hunger dice, or a Rouse, Willpower, Remorse or frenzy roll (no Hunger, V5-9);
    after a test, the Willpower reroll (V5-8)."""
    if goal not in GOALS:
        raise RuleError("bad_choice", field="goal", value=goal, choices=list(GOALS))
    checked_mode = check_choice("mode", mode, v5.MODES)
    if kind == "rouse":
        request = v5.rouse_request(
            hunger,
            blood_potency_reroll=blood_potency_reroll,
            creature=check_choice("creature", creature, v5.CREATURES),
        )
    else:
        request = v5.V5Request(
            pool=pool,
            hunger=hunger,
            difficulty=difficulty,
            kind=check_choice("kind", kind, v5.KINDS),
            creature=check_choice("creature", creature, v5.CREATURES),
            blood_potency_reroll=blood_potency_reroll,
            mode=checked_mode,
        )
    rerolls = [reroll_dice(text) for text in reroll or []]
    rerolls = [dice for dice in rerolls if dice]
    if rerolls and kind != "test":
        raise RuleError("reroll_not_allowed", kind=kind)  # V5-8: tests only
    if len(rerolls) > 1 and mode == "strict":
        raise RuleError("reroll_limit_strict")  # V5-8: one reroll per roll in Strict; Casual again and again
    _, receipt = draw_and_resolve(v5, request, SecureDice())  # the V5 rules module: a V5Receipt
    lang_ = language(lang)
    if interactive is None:
        interactive = sys.stdin.isatty() and sys.stdout.isatty() and not as_json
    if reroll is None and interactive and kind == "test" and receipt.normal:
        show(to_plain(receipt), lang, False)
        for line in advice_lines(receipt, goal, lang_):
            typer.echo(line)
        answer = typer.prompt(
            translate(N_("Reroll which dice? (numbers such as 1,3; Enter: none)"), lang_),
            default="",
            show_default=False,
        )
        dice = reroll_dice(answer)
        if not dice:
            return
        rerolls = [dice]
    shown = receipt
    if show_advice and not rerolls and not interactive and not as_json and isinstance(shown, v5.V5Receipt):
        show(to_plain(shown), lang, False)
        for line in advice_lines(shown, goal, lang_) if kind == "test" and shown.normal else ():
            typer.echo(line)
        return
    for dice in rerolls:  # V5-8: each a Willpower reroll of normal dice (Casual: again)
        receipt = v5.reroll(request, receipt, dice, SecureDice().draw(len(dice), v5.SIDES))
    show(to_plain(receipt), lang, as_json)
