"""English msgids for the table's authority (SPEC A-1 … A-4): asks and grants, standing grants,
scenes and turns, per-turn limits. Translated by the ``authority.po`` catalogues (fr, es), in the
games' own words: the Storyteller is the Conteur / Narrador of the Vampire games and the MJ / DJ
(game master) of the Tiers and roll-under games.
"""

from __future__ import annotations

from rollbook.i18n import N_, translate

AUTHORITY_ERROR_MESSAGES: dict[str, str] = {
    # play layer (rollbook.play.authority, rollbook.play.turns)
    "not_an_edge": N_(
        "{field} is not something the Storyteller grants here; the Storyteller grants: {edges}."
    ),
    "turn_blood_exceeded": N_(
        "{spent} blood already spent this turn; {amount} more would pass the {per_turn} per turn "
        "of this Generation."
    ),
    "turn_runs": N_("A turn is running: only the Storyteller moves to the next turn ({action})."),
    # TR-2 v20.willpower_once_per_turn: V20-9's limit enforced by the table
    "willpower_per_turn": N_(
        "This table allows {limit} Willpower success per turn: this one would be number {count}, "
        "so it is refused until the next turn."
    ),
    "no_multiple_actions": N_(
        "Multiple actions are offered for V20 tests, willpower and virtue rolls, not {system} {kind}."
    ),
    # server (rollbook.server.usecases.authority, grants, scenes)
    "grant_required": N_(
        'Only the Storyteller sets {edges}: ask the Storyteller (send the roll with "ask": true).'
    ),
    "ask_not_found": N_("No ask {ask} in this chronicle."),
    "ask_decided": N_("Ask {ask} was already decided ({decision}, entry {seq})."),
    "not_your_ask": N_("Only the player who asked may withdraw ask {ask}."),
    "asker_gone": N_(
        "Ask {ask} was made by a player who has left the table or no longer plays this character."
    ),
    "nothing_granted": N_("A standing grant needs at least one edge."),
    "standing_not_found": N_("No standing grant {standing} in this chronicle."),
    "standing_ended": N_("Standing grant {standing} already ended (entry {seq})."),
    "scene_already_open": N_("A scene is already open: close it first."),
    "no_open_scene": N_("No scene is open."),
    "no_running_turn": N_("The scene's turns have not started: start the first turn."),
}

# Warnings on a receipt or an answer: {"code": ..., params}; shown, never enforced.
AUTHORITY_WARNINGS: dict[str, str] = {
    "willpower_per_turn": N_(
        "Willpower success number {count} this turn: the table allows {limit} per turn."
    ),
}


def warning_text(warning: dict, lang: str) -> str:
    """One translated line for a warning of the per-turn limits (V20-9)."""
    template = AUTHORITY_WARNINGS.get(warning.get("code", ""), warning.get("code", ""))
    params = {k: v for k, v in warning.items() if k != "code"}
    try:
        return translate(template, lang, **params)
    except (KeyError, IndexError):
        return translate(template, lang)
