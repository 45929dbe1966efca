"""English msgids of the saved rolls' refusals. Translated by the
``table_tools.po`` catalogues (fr, es)."""

from __future__ import annotations

from rollbook.i18n import N_

SAVED_MESSAGES: dict[str, str] = {
    "saved_roll_not_found": N_("You have no saved roll {saved} in this chronicle."),
    "saved_roll_exists": N_("You already saved a roll named “{name}” for this character."),
    "too_many_saved_rolls": N_("A member saves at most {most} rolls in a chronicle."),
}
