"""The view of a receipt (dice, outcome, explained lines) and the translation helpers the system views use."""

from __future__ import annotations

from dataclasses import dataclass, field

from rollbook.i18n import translate, translations
from rollbook.i18n.messages_rules import TABLE_RULE_NAMES, TABLE_RULE_NOTES
from rollbook.rules.table import in_force_replacing


@dataclass(frozen=True, slots=True)
class DieView:
    face: int
    sides: int
    group: str = "normal"  # normal | hunger | reroll | dropped | soak ...
    marks: tuple[str, ...] = ()  # success, failure, one, cancelled, ten, crit_pair, specialty, kept, rerolled
    index: int | None = None  # position among the rerollable dice, where that matters


@dataclass(frozen=True, slots=True)
class Line:
    label: str
    value: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class ReceiptView:
    system: str
    system_name: str
    title: str
    outcome: str  # the code
    outcome_label: str  # in the reader's language
    tone: str  # good | bad | critical | messy | bestial | botch | neutral
    dice: tuple[DieView, ...] = ()
    lines: tuple[Line, ...] = ()
    history: tuple[Line, ...] = field(default_factory=tuple)  # rerolls, chained criticals, …


def numbered_dice(indices, faces) -> str:
    """Dice named the one way players count them: 1-based numbers among the normal
    dice, each with its face beside it — ``(0, 2)`` of faces ``(4, 7, 2)`` -> "1 (4), 3 (2)". ``faces``:
    the face of each numbered die, in the order of ``indices``, or a pair "old → new" for a reroll."""
    return ", ".join(f"{index + 1} ({face})" for index, face in zip(indices, faces, strict=False))


def t(text: str, lang: str, **params) -> str:
    return translate(text, lang, **params)


def tn(singular: str, plural: str, n: int, lang: str, **params) -> str:
    """A counted phrase in the reader's language, with its plural form chosen for ``n`` (gettext)."""
    return translations(lang).ngettext(singular, plural, n).format(n=n, **params)


def table_rule_note(table_rules: list[str] | None, spec_rule: str, lang: str) -> str | None:
    """TR-1: the words a view says beside the number ``spec_rule`` counts when a table rule the receipt
    was resolved under (``table_rules``) replaces it (read off the declarations, ``rules.table``); None when none does.
    A rule without a note of its own is named (its name, or its id)."""
    rule = in_force_replacing(table_rules, spec_rule)
    if rule is None:
        return None
    words = TABLE_RULE_NOTES.get(rule.id) or TABLE_RULE_NAMES.get(rule.id)
    return t(words, lang) if words else rule.id
