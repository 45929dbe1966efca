"""English msgids for every error code, outcome and label the engine emits.

Rules code emits codes; this is where those codes meet sentences. Other areas keep theirs in their
own ``messages_<area>.py`` (a dict and nothing else), a shipped system in its package's ``messages``
(``rollbook.systems.<id>.messages``, its ``MESSAGES``, found by name); ``ERROR_MESSAGES`` is the
engine's merged with every area's, once, here.
Translations live in the ``.po`` catalogues, keyed by these English texts.
"""

from __future__ import annotations

from typing import Any

from rollbook.i18n import N_, Counted, elided, translate, translations
from rollbook.i18n.messages_authority import AUTHORITY_ERROR_MESSAGES
from rollbook.i18n.messages_discord import DISCORD_MESSAGES
from rollbook.i18n.messages_exchange import EXCHANGE_ERROR_MESSAGES
from rollbook.i18n.messages_exchange_odds import EXCHANGE_ODDS_MESSAGES
from rollbook.i18n.messages_fair import FAIR_MESSAGES
from rollbook.i18n.messages_interop import INTEROP_MESSAGES
from rollbook.i18n.messages_play import PLAY_ERROR_MESSAGES
from rollbook.i18n.messages_powers import POWERS_MESSAGES
from rollbook.i18n.messages_rules import RULES_MESSAGES
from rollbook.i18n.messages_saved import SAVED_MESSAGES
from rollbook.i18n.messages_security import SECURITY_MESSAGES
from rollbook.i18n.messages_solo import SOLO_MESSAGES
from rollbook.play.systems import SYSTEM_IDS, own_module

ENGINE_MESSAGES: dict[str, str] = {
    # rules.base
    "face_out_of_range": N_(
        "Face {face} (position {index} of {field}) is not on a d{sides}: faces run 1 to {sides}."
    ),
    "not_an_integer": N_("{field} must be a whole number, not {value}."),
    "out_of_range": N_("{field} must be between {low} and {high}, not {value}."),
    "out_of_range_min": N_("{field} must be at least {low}, not {value}."),
    "out_of_range_max": N_("{field} must be at most {high}, not {value}."),
    "wrong_face_count": N_("{field} needs {expected} faces; {given} were given."),
    "unknown_system": N_("Unknown game system {system}; known systems: {known}."),
    "bad_choice": N_("{field} must be one of {choices}, not {value}."),
    "not_enough_faces": N_("The roll needs {needed} faces; only {given} were given."),
    "bad_die": N_("Cannot draw {n} dice of {sides} sides."),
    # V20
    "untrained_knowledge_refused": N_(
        "An untrained Knowledge cannot be rolled unless the Storyteller allows it."
    ),
    "specialty_untrained": N_("A specialty cannot be used with an untrained ability."),
    "specialty_rating_missing": N_("A specialty needs the rating of its trait."),
    "willpower_on_willpower_roll": N_("Willpower cannot add a success to a Willpower roll."),
    "willpower_exhausted": N_("No Willpower left to spend."),
    # V5
    "rouse_only": N_("{field} applies to Rouse checks only."),
    "hunger_not_allowed": N_("A {kind} roll of a {creature} carries no Hunger dice."),
    "too_many_hunger_dice": N_("At most 5 Hunger dice; {given} were given."),
    "reroll_not_allowed": N_("A Willpower reroll is not allowed on a {kind} roll."),
    "reroll_limit_strict": N_("A Strict chronicle allows one Willpower reroll per roll."),
    "reroll_dice_count": N_("A Willpower reroll takes 1 to {most} dice, not {given}."),
    "reroll_duplicate_die": N_("A die can be named only once in a reroll."),
    "reroll_bad_index": N_("{number} is not the number of a normal die (they are numbered from 1)."),
    "reroll_hunger_die": N_("Die {number} is a Hunger die: Hunger dice can never be rerolled."),
    # the resolve contract
    "invalid_json": N_("The line is not valid JSON: {detail}."),
    "not_an_object": N_("Each line must be one JSON object."),
    "missing_system": N_("The request names no system (v20, v5, tiers, rollunder)."),
    "unknown_field": N_("Unknown field {field}."),
    "missing_field": N_("Missing field {field}."),
    "wrong_type": N_("{field} has the wrong type: {detail}."),
    "invalid_request": N_("Invalid request: {detail}."),
}

# Every area's codes, in one table (an area's code that repeats another's is a test failure, not an override).
AREA_MESSAGES: tuple[dict[str, str], ...] = (
    PLAY_ERROR_MESSAGES,
    FAIR_MESSAGES,
    AUTHORITY_ERROR_MESSAGES,
    EXCHANGE_ERROR_MESSAGES,
    SECURITY_MESSAGES,
    POWERS_MESSAGES,
    RULES_MESSAGES,
    INTEROP_MESSAGES,
    EXCHANGE_ODDS_MESSAGES,
    SOLO_MESSAGES,
    *(module.MESSAGES for system in SYSTEM_IDS if (module := own_module(system, "messages"))),
    DISCORD_MESSAGES,
    SAVED_MESSAGES,
)
ERROR_MESSAGES: dict[str, str] = {
    code: text for table in (ENGINE_MESSAGES, *AREA_MESSAGES) for code, text in table.items()
}


# The shipped systems' names (``present.labels.system_name`` reads them too): a refusal naming a system
# by its id (``SYSTEM_PARAMS``) says its name in the reader's language, never the id ("tiers").
SYSTEM_NAMES = {
    "v20": N_("Vampire: the Masquerade 20th (V20)"),
    "v5": N_("Vampire: the Masquerade 5th (V5)"),
    "tiers": N_("Tiers (paliers)"),
    "rollunder": N_("Roll-under d20"),
}
SYSTEM_PARAMS = {
    "import_wrong_system": ("system", "chronicle"),
    "export_wrong_system": ("system", "chronicle"),
    "export_no_format": ("system",),
}


def error_message(code: str, lang: str, params: dict[str, Any]) -> str:
    """One translated line for an error code and its parameters."""
    named = [key for key in SYSTEM_PARAMS.get(code, ()) if params.get(key) in SYSTEM_NAMES]
    if named:
        params = {**params, **{key: translate(SYSTEM_NAMES[params[key]], lang) for key in named}}
    if code == "out_of_range":
        if params.get("high") is None:
            code = "out_of_range_min"
        elif params.get("low") is None:
            code = "out_of_range_max"
    template = ERROR_MESSAGES.get(code)
    if template is None:
        return code
    printable = {k: _printable(v) for k, v in params.items()}
    if isinstance(template, Counted):  # its form by the count, the language's plural rule
        n = params.get(template.by)
        chosen = translations(lang).ngettext(template, template.plural, n if isinstance(n, int) else 2)
        try:
            return elided(chosen, printable, lang).format(**printable)
        except (KeyError, IndexError):
            return chosen
    try:
        return translate(template, lang, **printable)
    except (KeyError, IndexError):
        return translate(template, lang)


def _printable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return value
