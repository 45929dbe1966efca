"""English msgids of the solo chronicle (issue 37, ``rollbook.solo``): the faults ``rollbook scenario
check`` finds (S-4), the refusals of play, and the words the terminal and the API show. Translated by
the ``solo.po`` catalogues."""

from __future__ import annotations

from rollbook.i18n import N_

SOLO_MESSAGES: dict[str, str] = {
    # reading a file
    "scenario_too_big": N_("A scenario file holds at most {most} bytes."),
    "scenario_not_yaml": N_("The scenario is not YAML (line {line}): {detail}."),
    "scenario_not_a_mapping": N_("A scenario is a YAML mapping (id, system, title, passages, …)."),
    "scenario_invalid": N_("The scenario has {count} fault(s); the first: {first}"),
    # the faults (S-4)
    "unknown_key": N_("Unknown key {key}."),
    "missing_key": N_("A required key is missing here."),
    "bad_value": N_("This value does not fit the format: {detail}."),
    "duplicate_key": N_("The key {key} is given twice (the second would silently replace the first)."),
    "dangling_link": N_("No passage is named {goto}."),
    "unknown_npc": N_("No NPC is named {npc}."),
    "unreachable_passage": N_("The passage {passage} cannot be reached from the start."),
    "no_way_out": N_("No ending can be reached from the passage {passage}."),
    "fight_no_way_out": N_("The fight {passage} has no way out: no ending can be reached from its outcomes."),
    "missing_language": N_("The text has no {language} version."),
    "extra_language": N_("The text has a {language} version, but the scenario's languages are {languages}."),
    "flag_never_set": N_("The flag {flag} is required here but nothing sets it."),
    # playing
    "scenario_unknown": N_("No scenario is named {scenario}."),
    "scenario_changed": N_(
        "The scenario {scenario} changed since this chronicle began; it cannot be resumed."
    ),
    "not_a_solo_chronicle": N_("This chronicle is not a solo chronicle."),
    "solo_finished": N_("The story has ended."),
    "solo_choice_unknown": N_("{choice} is not one of the choices offered now."),
    "solo_player_only": N_("Only the player of the solo chronicle may choose."),
}

# Words the terminal (``cli/solo.py``) and the API's state show.
SOLO_LABELS: dict[str, str] = {
    "ending.good": N_("A good ending"),
    "ending.bitter": N_("A bitter ending"),
    "ending.dark": N_("A dark ending"),
    "option.roll": N_("Roll {traits} (difficulty {difficulty})"),
    "option.roll_willpower": N_("Roll {traits} (difficulty {difficulty}), spending a Willpower point"),
    "option.attack": N_("Attack {target}: {traits} (difficulty {difficulty})"),
    "option.attack_willpower": N_(
        "Attack {target}: {traits} (difficulty {difficulty}), spending a Willpower point"
    ),
    "option.dodge": N_("Dodge: Dexterity + Athletics (difficulty 6)"),
    "option.flee": N_("Flee"),
    "option.willpower_cost": N_("(costs {cost} Willpower)"),
    "state.health": N_("Health"),
    "state.blood": N_("Blood"),
    "state.willpower": N_("Willpower"),
    "state.turn": N_("Turn {turn}"),
    "state.odds": N_("Chance of success: {success} (botch: {botch})"),
    "state.extended": N_("Successes {total} of {target}, roll {rolls} of {max_rolls}"),
    "state.down": N_("down"),
    "state.choose": N_("Your choice"),
    "state.resumed": N_("Resumed at the passage reached."),
    "state.the_end": N_("The end."),
}
