"""The Babel catalogues as the tests read them (shared by ``test_i18n`` and the area tests that check
their own msgids): each language's ``.po`` files and the msgids translated in them."""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po

from rollbook.i18n import LOCALE_DIR


def catalogue_paths(lang: str) -> list[Path]:
    return sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po"))


def read_catalogue(po_path: Path):
    with po_path.open("rb") as handle:
        return read_po(handle)


def translated_msgids(lang: str) -> set[str]:
    """msgids with a non-empty, non-fuzzy translation in any of the language's .po catalogues."""
    found = set()
    for po_path in catalogue_paths(lang):
        for m in read_catalogue(po_path):
            forms = m.string if isinstance(m.string, tuple) else (m.string,)
            if m.id and all(forms) and not m.fuzzy:
                found.add(m.id[0] if isinstance(m.id, tuple) else m.id)
    return found
