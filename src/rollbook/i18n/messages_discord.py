"""English msgids of the Discord interactions' refusals. Translated by the
``discord.po`` catalogues (fr, es), with the Discord modules' own labels."""

from __future__ import annotations

from rollbook.i18n import N_

DISCORD_MESSAGES: dict[str, str] = {
    "discord_signature_invalid": N_("The request's Discord signature is missing, invalid or stale."),
    "discord_not_linked": N_(
        "Link your Discord account here first: /link with an invitation code or your member key."
    ),
    "discord_unknown_command": N_("Unknown command {command}."),
    "discord_channel_taken": N_(
        "This channel is another chronicle's table: only that chronicle's Storyteller may unbind it."
    ),
    "discord_unknown_interaction": N_("This button or form is not known here ({type})."),
    "discord_name_a_character": N_("Name a character: you have several, or none."),
    "discord_grant_required": N_("Only the Storyteller sets {edges}: ask them with /ask."),
    # a roll only the Storyteller makes (R-7's opposed roll): no ask holds it, the Storyteller runs it
    "discord_storyteller_roll": N_("Only the Storyteller makes this roll: ask them to run /{command}."),
    "discord_unknown_trait": N_("{trait} is not a trait of this character's sheet."),
    "discord_bad_rating": N_("“{typed}” is not a trait and its rating, as “Dexterity 3”."),
    "discord_unknown_option": N_("The command {command} has no option {option}."),
    "discord_unknown_power": N_("{power} is not a power of this character's sheet: pick one of the list."),
    "discord_no_feeding": N_("Feeding is not a rule of this game."),
    "import_attachment_host": N_("Only a file attached in Discord is read."),
    "import_attachment_unread": N_("The attached file could not be read from Discord; try again."),
}
