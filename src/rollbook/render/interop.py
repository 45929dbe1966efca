"""An import's report (``rollbook.interop.Report`` as plain JSON) in the reader's language: the
same lines on the web page and in the terminal."""

from __future__ import annotations

from dataclasses import dataclass

from rollbook.entries import SheetExportReceipt, SheetImportReceipt
from rollbook.i18n import N_, labelled, translate
from rollbook.i18n.messages import error_message

FORMAT_NAMES = {
    "progeny": "Progeny",
    "wod5e": "WoD5e (Foundry)",
    "v5bot": "V5 Discord bot (Inconnu)",
    "wod20": "WoD20 (Foundry)",
}

REASONS = {
    "no_such_field": N_("a rollbook sheet has no such field"),
    "foundry_state": N_("the virtual tabletop's own bookkeeping"),
    "source_bookkeeping": N_("the source tool's own bookkeeping"),
    "unknown_field": N_("a field the format does not define"),
    "merits": N_("merits, flaws and backgrounds are not on a rollbook sheet"),
    "rituals": N_("rituals and ceremonies are not on a rollbook sheet"),
    "touchstones": N_("touchstones and convictions are not on a rollbook sheet"),
    "no_generation_in_v5": N_("a V5 sheet here has no Generation"),
    "creation_choice": N_("a choice made at creation, already in the traits"),
    "power_text": N_("a power's text (the book has it)"),
    "power_without_level": N_("a power not in the game's list, and the file gives no level"),
    "bonus_not_specialty": N_("a situational bonus, not a specialty"),
    "empty_name": N_("no name"),
    "duplicate": N_("given twice"),
    "not_a_v5_attribute": N_("not an Attribute of V5"),
    "not_a_v20_attribute": N_("not an Attribute of V20"),
    "not_a_v20_trait": N_("a trait of another game"),
    "item_type": N_("an item rollbook does not keep"),
    "derived": N_("derived from other traits"),
    "path_not_humanity": N_("a Path other than Humanity: its rating is kept as Humanity, its name is not"),
    "not_for_creature": N_("does not apply to this creature"),
    "not_rated": N_("rated 0: nothing to keep"),
    "item_text": N_("an item's own text or dice (the book has it)"),
    "experience_log": N_(
        "a line of the experience log: its points are counted, its label and date are not kept"
    ),
    "experience_planned": N_("experience planned, not spent yet"),
    "power_above_rating": N_("a known power above its Discipline's rating, and the file gives no level"),
    "notes_full": N_("no room left in the sheet's notes"),
    "specialty_untrained": N_(
        "a specialty on a skill without dots (rollbook keeps specialties on skills rated 1 or more)"
    ),
}


@dataclass(frozen=True)
class Line:
    source: str
    text: str


def reason(code: str, lang: str) -> str:
    return translate(REASONS[code], lang) if code in REASONS else code


# The JSON types an ``import_wrong_type`` problem names (``interop.report.type_name``), as words.
TYPE_WORDS = {
    "integer": N_("integer"),
    "number": N_("number"),
    "text": N_("text"),
    "list": N_("list"),
    "object": N_("object"),
    "boolean": N_("boolean"),
    "null": N_("null"),
    "other": N_("other"),
}


def problem(found: dict, lang: str) -> str:
    """A problem of an import report (``interop.report``: another tool's file, no log entry), in words."""
    code, params = found["code"], dict(found.get("params") or {})
    if code == "import_wrong_type":  # the type words in the reader's language too
        for key in ("expected", "given"):
            word = params.get(key)
            if isinstance(word, str) and word in TYPE_WORDS:
                params[key] = translate(TYPE_WORDS[word], lang)
    return error_message(code, lang, params)


def lines(report: dict, lang: str) -> dict[str, list[Line]]:
    """The report's four lists as lines: ``mapped`` (source → target), ``homebrew`` (with the name as
    typed), ``dropped`` (with the reason), ``problems`` (the sentence)."""
    return {
        "mapped": [Line(m["source"], m["target"]) for m in report.get("mapped", [])],
        "homebrew": [Line(h["source"], f"{h['target']} “{h['name']}”") for h in report.get("homebrew", [])],
        "dropped": [Line(d["source"], reason(d["reason"], lang)) for d in report.get("dropped", [])],
        "problems": [Line(p["source"], problem(p, lang)) for p in report.get("problems", [])],
    }


# The log entries of an import and an export (server/usecases/interop.py), as a card's title and line.
INTEROP_KINDS = ("sheet_import", "sheet_export")


def describe_entry(kind: str, receipt: dict, lang: str) -> tuple[str, str]:
    """(title, line) of a ``sheet_import`` or ``sheet_export`` entry: its origin or target, the
    report's counts; never a rating (there is none in the entry)."""
    if kind == "sheet_export":
        target = SheetExportReceipt.of(receipt).format
        return translate(N_("Sheet exported for {format}"), lang, format=FORMAT_NAMES.get(target, target)), ""
    imported = SheetImportReceipt.of(receipt)
    origin = str((imported.origin or {}).get("format", ""))
    counts = imported.counts or {}
    line = " · ".join(
        labelled(translate(TITLES[key], lang), counts.get(key, 0), lang)
        for key in ("mapped", "homebrew", "dropped")
    )
    return translate(N_("Sheet imported from {format}"), lang, format=FORMAT_NAMES.get(origin, origin)), line


TITLES = {
    "mapped": N_("Mapped"),
    "homebrew": N_("Kept as homebrew"),
    "dropped": N_("Not kept"),
    "problems": N_("Problems"),
}
