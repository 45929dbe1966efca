"""English msgids of the server's security refusals (tokens, idempotency keys, input hygiene, the
web's origin check). Translated by the ``security.po`` catalogues (fr, es)."""

from __future__ import annotations

from rollbook.i18n import N_

SECURITY_MESSAGES: dict[str, str] = {
    "idempotency_key_too_short": N_(
        "An Idempotency-Key that creates or joins a chronicle guards the token it answers: "
        "send a random key of at least {minimum} characters."
    ),
    "not_a_session": N_("This token is a key, not a session: rotate the key to replace it."),
    "storyteller_not_removable": N_("The Storyteller cannot be removed from their chronicle."),
    "text_not_allowed": N_(
        "{field} holds a character text may not hold (a control character, an invisible or direction mark, or a lone surrogate)."
    ),
    "body_too_large": N_("The request body is larger than {limit} bytes."),
    "json_too_deep": N_("The request body nests deeper than {limit} levels."),
    "too_many_characters": N_("A member holds at most {most} characters in a chronicle."),
    "sheet_too_large": N_("A sheet takes at most {most} bytes; this one takes {given}."),
    "too_many_feeds": N_("This server holds {most} live feeds already: try again in a while."),
    "too_many_signins": N_("Too many attempts to sign in or join: try again in {seconds} seconds."),
    "origin_refused": N_("This form was sent from another site: refused. Reload the page and send it again."),
}

# A log entry's title on the table (web feed cards).
MEMBER_REMOVED = N_("{name} was removed from the chronicle")
