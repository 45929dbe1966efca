"""`rollbook roll tiers …`: a Tiers roll (skill, dodge or soak) with the secure dice (SPEC T-1 … T-7)."""

from __future__ import annotations

import typer

from rollbook.cli.roll import JsonOption, LangOption, roll_app, secure_roll, show
from rollbook.rules.base import RuleError, check_choice
from rollbook.systems.tiers import rules as tiers


@roll_app.command("tiers")
def roll_tiers(
    kind: str = typer.Option("skill", "--kind", help="skill, dodge or soak."),
    skill: int | None = typer.Option(None, "--skill", help="The skill rolled (skill, dodge)."),
    bonus: int = typer.Option(0, "--bonus", help="Weapon bonus added to the skill (T-7)."),
    weapon_bonus: list[int] | None = typer.Option(
        None,
        "--weapon-bonus",
        help="One weapon's bonus; give it twice with --two-weapons (T-7: the larger applies, once).",
    ),
    two_weapons: bool = typer.Option(
        False, "--two-weapons", help="The Two Weapons skill, with two --weapon-bonus."
    ),
    bullets: int | None = typer.Option(
        None, "--bullets", help="Firearms: bullets declared before the roll; multiplies the tier (T-3)."
    ),
    magazine: int | None = typer.Option(
        None, "--magazine", help="Rounds left in the magazine; more bullets are refused (T-3)."
    ),
    attack_tier: int | None = typer.Option(None, "--attack-tier", help="The attack's tier (dodge, soak)."),
    endurance: int | None = typer.Option(None, "--endurance", help="Soak: Endurance."),
    armor: int | None = typer.Option(None, "--armor", help="Soak: armour of the body location hit."),
    lang: str | None = LangOption,
    as_json: bool = JsonOption,
) -> None:
    """A Tiers roll: 1d10 subtracted from the skill, critical 1s rolled again (T-1, T-2)."""
    if weapon_bonus:
        if bonus:
            raise RuleError("bonus_conflict")
        bonus = tiers.weapon_bonus(tuple(weapon_bonus), two_weapons)  # T-7
    elif two_weapons:
        raise RuleError("two_weapons_needs_two", given=0)
    request = tiers.TiersRequest(
        kind=check_choice("kind", kind, tiers.KINDS),
        skill=skill,
        bonus=bonus,
        bullets=bullets,
        attack_tier=attack_tier,
        endurance=endurance,
        armor=armor,
        magazine=magazine,
    )
    show(secure_roll("tiers", request)[1], lang, as_json)
