"""English msgids of the combat chain on the server (SPEC V20-17, T-4, T-5: ``server.usecases.exchange``).
Translated by the ``exchange.po`` catalogues (fr, es)."""

from __future__ import annotations

from rollbook.i18n import N_

EXCHANGE_ERROR_MESSAGES: dict[str, str] = {
    "step_taken": N_(
        "Entry {seq} was already followed by entry {by}: each step of an exchange follows once."
    ),
    "not_the_defender": N_("Entry {seq} is not aimed at {character}: the defender rolls this step."),
    "not_your_step": N_(
        "Entry {seq} was rolled for another character: {character} does not take the next step."
    ),
    "target_not_for_kind": N_("A {kind} roll names no target: the attack does."),
    "target_is_attacker": N_("{character} cannot attack themselves."),
    "exchange_scene_closed": N_(
        "Entry {seq} was rolled in scene {scene}, which is closed: its exchange is over."
    ),
}
