"""Issue 34 point 17: "Dés ne peut pas être vide." — the empty-field message agrees with any field name
(a plural one too) in fr and es."""

from __future__ import annotations

from rollbook.i18n import translate
from rollbook.i18n.messages_play import PLAY_ERROR_MESSAGES as MESSAGES


def test_issue34_point17_the_empty_field_message_agrees_with_a_plural_field():
    assert translate(MESSAGES["blank_text"], "fr", field="Dés") == "Le champ « Dés » ne peut pas être vide."
    assert translate(MESSAGES["blank_text"], "es", field="Dados") == "El campo «Dados» no puede estar vacío."
