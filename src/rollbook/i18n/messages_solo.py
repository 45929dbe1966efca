"""English msgids of the solo chronicle (``rollbook.solo``): the faults ``rollbook scenario
check`` finds (S-4), the refusals of play, and the words the terminal and the API show. Translated by
the ``solo.po`` catalogues."""

from __future__ import annotations

from rollbook.i18n import N_

SOLO_MESSAGES: dict[str, str] = {
    # reading a file
    "scenario_too_big": N_("A scenario file holds at most {most} bytes."),
    "scenario_not_a_mapping": N_("A scenario is a YAML mapping (id, system, title, passages, …)."),
    "scenario_invalid": N_("Faults in the scenario: {count}; the first: {first}"),
    # S-9: a hostile or broken file refused promptly, in the reader's language
    "scenario_not_utf8": N_("A scenario file is UTF-8 text."),
    "scenario_too_deep": N_("Line {line}: values are nested more than {most} deep."),
    "scenario_too_many_values": N_(
        "The scenario holds more than {most} values once its aliases are expanded."
    ),
    "scenario_yaml_tag": N_("Line {line}: the tag {tag} is not plain YAML (a scenario takes no tags)."),
    "yaml_indentation": N_(
        "The scenario is not YAML (line {line}): this line is not indented like its block."
    ),
    "yaml_colon": N_(
        "The scenario is not YAML (line {line}): a colon inside a value (quote the value) or a wrong indentation."
    ),
    "yaml_tab": N_("The scenario is not YAML (line {line}): a tab; YAML is indented with spaces."),
    "yaml_colon_missing": N_("The scenario is not YAML (line {line}): a key without its colon."),
    "yaml_alias_undefined": N_("The scenario is not YAML (line {line}): an alias to no anchor."),
    "yaml_anchor_twice": N_("The scenario is not YAML (line {line}): an anchor given twice."),
    "yaml_escape": N_("The scenario is not YAML (line {line}): an unknown escape in a quoted text."),
    "yaml_unclosed": N_("The scenario is not YAML (line {line}): a bracket, brace or quote left open."),
    "yaml_syntax": N_("The scenario is not YAML (line {line})."),
    # the faults (S-4)
    "unknown_key": N_("Unknown key {key}."),
    "missing_key": N_("A required key is missing here."),
    "bad_value": N_("This value does not fit the format ({type})."),
    "value_pattern": N_("{value} does not fit the pattern {pattern}."),
    "value_not_one_of": N_("{value} is not one of {expected}."),
    "expected_mapping": N_("A mapping (key: value) is expected here."),
    "expected_list": N_("A list is expected here."),
    "expected_text": N_("A text is expected here."),
    "expected_whole_number": N_("A whole number is expected here."),
    "expected_yes_no": N_("true or false is expected here."),
    "too_few_items": N_("Items here: {least} at least."),
    "too_many_items": N_("At most {most} items here."),
    "text_empty": N_("The text is empty."),
    "text_too_long": N_("At most {most} characters here."),
    "passage_body": N_(
        "A passage has exactly one of choices, check, extended, fight, ending; it has: {found}."
    ),
    "duplicate_key": N_("The key {key} is given twice (the second would silently replace the first)."),
    "dangling_link": N_("No passage is named {goto}."),
    "unknown_npc": N_("No NPC is named {npc}."),
    "unreachable_passage": N_("The passage {passage} cannot be reached from the start."),
    "no_way_out": N_("No ending can be reached from the passage {passage}."),
    "fight_no_way_out": N_("The fight {passage} has no way out: no ending can be reached from its outcomes."),
    "missing_language": N_("The text has no {language} version."),
    "extra_language": N_("The text has a {language} version, but the scenario's languages are {languages}."),
    "flag_never_set": N_("The flag {flag} is required here but nothing sets it."),
    "no_choice_left": N_(
        "With the flags {flags} set, every choice of the passage {passage} is hidden by its flags or costs "
        "Willpower: the player could choose nothing (give it a choice free of both)."
    ),
    "fight_loop": N_(
        "The fight {passage} leads back into itself through {goto} with no passage between (a fight "
        "entered already decided is decided again, for ever)."
    ),
    "scenario_too_complex": N_("More than {most} playthroughs to explore: the checker stops there."),
    # playing
    "scenario_unknown": N_("No scenario is named {scenario}."),
    "scenario_id_not_file": N_(
        "A host's scenario file is named after its id, and no shipped scenario has it ({scenario})."
    ),
    "scenario_changed": N_(
        "The scenario {scenario} changed since this chronicle began; it cannot be resumed."
    ),
    "not_a_solo_chronicle": N_("This chronicle is not a solo chronicle."),
    "solo_finished": N_("The story has ended."),
    "solo_no_choice": N_(
        "No choice can be made at {passage}: the scenario needs a fix (rollbook scenario check)."
    ),
    "solo_fight_turn": N_(
        "A fight is running: each turn is one of the fight's choices (attack, dodge, spend blood, flee), "
        "not a roll or a change made apart."
    ),
    "solo_passage_moved": N_(
        "The story has moved on since this page was shown (now at {passage}): choose again."
    ),
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
    "option.forgo": N_("Give up this roll (it counts as a failure)"),
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
