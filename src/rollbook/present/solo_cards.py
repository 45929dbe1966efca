"""The solo chronicle's own log entries as the table's cards: a solo chronicle is an
ordinary chronicle, so its page's feed shows them beside the receipts. The entries are the engine's
(``solo.steps``: ``solo_start``, ``solo_choice``, ``solo_passage``); the story itself is read on
``/solo/{id}`` (``routes.solo``), so a card only says what happened, in the reader's language."""

from __future__ import annotations

from rollbook.entries import SoloPassageReceipt
from rollbook.i18n import N_, translate
from rollbook.solo import text as solo_text

KINDS = ("solo_start", "solo_choice", "solo_passage")

BEGINS = N_("The story begins: the scenario is the Storyteller")
CHOOSES = N_("The player chooses")
GOES_ON = N_("The story goes on")
ENDS = N_("The story ends")


def describe_entry(kind: str, receipt: dict, lang: str) -> tuple[str, str]:
    """(the card's title, its line under the title) of a solo entry."""
    if kind == "solo_start":
        return translate(BEGINS, lang), ""
    if kind == "solo_choice":
        return translate(CHOOSES, lang), ""
    ending = SoloPassageReceipt.of(receipt).ending
    if ending in ("good", "bitter", "dark"):
        return translate(ENDS, lang), solo_text.label(f"ending.{ending}", lang)
    return translate(GOES_ON, lang), ""
