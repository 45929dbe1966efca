"""English msgids for the codes of sheet import and export (``rollbook.interop``).
Translated by the ``interop.po`` catalogues."""

from __future__ import annotations

from rollbook.i18n import N_

INTEROP_MESSAGES: dict[str, str] = {
    "import_refused": N_(
        "The {format} file cannot be imported as it is (problems: {count}; the first at {field})."
    ),
    "import_unknown_format": N_("This file is not one of the formats rollbook reads ({expected})."),
    "import_wrong_system": N_(
        "A {format} file holds a {system} character; this chronicle plays {chronicle}."
    ),
    "export_wrong_system": N_(
        "The {format} format holds {system} characters; this chronicle plays {chronicle}."
    ),
    "export_no_format": N_("No export format holds {system} characters; the formats are {formats}."),
    "import_too_deep": N_("The file is nested more than {most} levels deep."),
    "import_too_big": N_("The file holds more than {most} values."),
    "import_not_json": N_("The file is not JSON."),
    "import_file_too_large": N_("The file is larger than {limit} MiB."),
    "import_wrong_type": N_("Expected {expected} here, found {given}."),
    "import_out_of_range": N_("{value} is outside {low}–{high}."),
    "import_text_too_long": N_("At most {most} characters here; {given} were given."),
    "import_bad_name": N_("“{name}” cannot name a trait."),
    "import_duplicate_trait": N_("The trait {trait} appears twice."),
    "import_unknown_attribute": N_("{name} is not an Attribute of the game."),
    "import_actor_type": N_("A {given} actor cannot be imported; expected one of {expected}."),
    "import_bad_choice": N_("{given} is not one of {expected}."),
    "import_bad_track": N_("The {track} track holds marks other than “.”, “/” and “x”."),
    "import_above_generation": N_(
        "{trait} is rated {rating}; at Generation {generation} a trait stops at {maximum}."
    ),
    "import_missing_name": N_("The character has no name."),
    "import_bad_power": N_("This Discipline power cannot be read."),
    "import_pick_character": N_("The file holds {count} characters ({names}): choose one (0 to {most})."),
}

# The labels of the texts an import keeps in the sheet's notes, one section each ("Touchstones: …"):
# a place the file has and a rollbook sheet has not (``rollbook.interop.Reader.note``).
NOTE_LABELS: dict[str, str] = {
    "touchstones": N_("Touchstones"),
    "convictions": N_("Convictions"),
    "biography": N_("Biography"),
    "description": N_("Description"),
    "appearance": N_("Appearance"),
    "equipment": N_("Equipment"),
    "history": N_("History"),
    "true_age": N_("True age"),
    "apparent_age": N_("Apparent age"),
    "birth": N_("Date of birth"),
    "death": N_("Date of death"),
    "sect": N_("Sect"),
}
