"""The solo chronicle in words (one language at a time): a fault of ``rollbook scenario check`` as one
line with its place, a scenario's text in the reader's language, the label of a choice. Shared by the
terminal and the API (the web pages may use them too). The msgids are ``i18n.messages_solo``'s."""

from __future__ import annotations

from collections.abc import Collection

from rollbook.i18n import N_, normalize, translate, translations
from rollbook.i18n.messages import error_message
from rollbook.i18n.messages_solo import SOLO_LABELS
from rollbook.solo.format import Scenario, Text, is_language
from rollbook.solo.load import Fault

FAULT_LINE = N_("{place}, line {line}: {message}")
CLEAN = N_("Scenario {scenario}: no fault found.")


def fault_line(fault: Fault, lang: str) -> str:
    message = error_message(fault.code, lang, fault.params)
    return translate(FAULT_LINE, lang, place=fault.path or "/", line=fault.line or "?", message=message)


def clean_line(scenario_id: str, lang: str) -> str:
    return translate(CLEAN, lang, scenario=scenario_id)


def label(key: str, lang: str, **params: object) -> str:
    """One of ``SOLO_LABELS`` in ``lang``."""
    return translate(SOLO_LABELS[key], lang, **params)


def heal_label(amount: int, damage_type: str, lang: str) -> str:
    """The fight's "spend blood to heal" choice: its count agrees with its words in every language
    ("1 niveau létal", "2 niveaux létaux"), which a "level(s)" msgid cannot say (lethal is healed first,
    then bashing: ``solo.fight.heal_of``)."""
    forms = translations(normalize(lang))
    if damage_type == "lethal":
        text = forms.ngettext(
            "Spend {n} blood to heal {n} lethal level", "Spend {n} blood to heal {n} lethal levels", amount
        )
    else:
        text = forms.ngettext(
            "Spend {n} blood to heal {n} bashing level", "Spend {n} blood to heal {n} bashing levels", amount
        )
    return text.format(n=amount)


def pick(text: Text, lang: str, scenario: Scenario) -> str:
    """A scenario's text in ``lang``, else in the scenario's first language (a scenario may ship in fewer
    languages than the reader's: S-1 "one or more of fr/es/en")."""
    if is_language(lang) and lang in text:
        return text[lang]
    for other in scenario.languages:
        if other in text:
            return text[other]
    return next(iter(text.values()), "")


def npc_name(scenario: Scenario, npc_id: str, flags: Collection[str], lang: str) -> str:
    """The name of an NPC the player sees now (S-10): its ``shown_as`` until the flag ``revealed_by`` is set."""
    npc = scenario.npcs[npc_id]
    hidden = npc.shown_as is not None and (npc.revealed_by is None or npc.revealed_by not in flags)
    return pick(npc.shown_as if hidden and npc.shown_as is not None else npc.name, lang, scenario)


def paragraphs(text: str) -> list[str]:
    """A passage's text as paragraphs: a blank line parts them; the lines of one are joined (a YAML block
    keeps the author's line breaks, a terminal or a phone wraps anew)."""
    return [
        " ".join(line.strip() for line in block.splitlines() if line.strip())
        for block in text.strip().split("\n\n")
        if block.strip()
    ]


def trait_label(name: str, lang: str) -> str:
    """A trait id in the reader's language: the catalogues hold every standard trait's English name
    ("Dexterity", domain ``web``; chained at run time), a homebrew one reads as its id made readable."""
    english = name.replace("_", " ").capitalize()
    translated = translate(english, lang)
    if translated == english and " " in english:  # "Animal ken" is msgid "Animal Ken"
        translated = translate(english.title(), lang)
    return translated


def traits_label(names: list[str], lang: str) -> str:
    return " + ".join(trait_label(name, lang) for name in names)
