"""English msgids for the codes of discipline powers on a sheet (``rollbook.play.powers``), translated
by the ``powers.po`` catalogues."""

from __future__ import annotations

from rollbook.i18n import N_

POWERS_MESSAGES: dict[str, str] = {
    "power_choice": N_(
        "A power of {discipline} is either chosen from the list or named, not both and not neither."
    ),
    "power_discipline_missing": N_("The sheet has no Discipline {trait} for this power."),
    "power_above_rating": N_(
        "A level {level} power of {trait} needs {trait} {level} (the sheet has {rating})."
    ),
    "unknown_power": N_("{power} is not a level {level} power of {trait}."),
    "powers_beyond_dots": N_(
        "{trait} {rating} holds {rating} powers at most (one a dot): ask the Storyteller for another dot."
    ),
}
