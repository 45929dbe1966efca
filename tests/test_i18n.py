"""Translations come from the Babel catalogues: every msgid the code marks is translated in fr and es."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from rollbook.i18n import normalize, translate, translations
from rollbook.i18n.messages import ERROR_MESSAGES

SOURCE = Path(__file__).resolve().parents[1] / "src" / "rollbook"


def marked_msgids() -> set[str]:
    method_map = [("**.py", "python"), ("**/templates/**.html", "jinja2")]
    found = set()
    for _, _, message, _, _ in extract_from_dir(str(SOURCE), method_map, keywords={"N_": None, "t": (1,), "tn": (1, 2), "translate": (1,), "_": None, "ngettext": (1, 2)}):
        msgid = message[0] if isinstance(message, tuple) else message
        if isinstance(msgid, str) and msgid:
            found.add(msgid)
    return found


def translated_msgids(lang: str) -> set[str]:
    """msgids with a non-empty, non-fuzzy translation in any of the language's .po catalogues."""
    found = set()
    for po_path in (SOURCE / "i18n" / "locale" / lang / "LC_MESSAGES").glob("*.po"):
        with po_path.open("rb") as handle:
            for m in read_po(handle):
                forms = m.string if isinstance(m.string, tuple) else (m.string,)
                if m.id and all(forms) and not m.fuzzy:
                    found.add(m.id[0] if isinstance(m.id, tuple) else m.id)
    return found


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_every_marked_message_is_translated(lang):
    marked = marked_msgids()
    # An extraction that finds nothing would make this test pass vacuously: the error catalogue alone is
    # marked, so its messages must all be among the extracted msgids.
    assert len(marked) >= len(ERROR_MESSAGES) > 0 and set(ERROR_MESSAGES.values()) <= marked
    missing = sorted(marked - translated_msgids(lang))
    assert not missing, f"{len(missing)} msgids lack a {lang} translation, e.g. {missing[:5]}"


def test_games_own_terms():
    assert translate("Bestial Failure", "fr") == "Échec Bestial"
    assert translate("Messy Critical", "fr") == "Critique Sanglant"
    assert translate("Botch", "fr") == "Échec critique"
    assert translate("Bestial Failure", "es") == "Fallo bestial"
    assert translate("Messy Critical", "es") == "Crítico sucio"
    assert translate("Botch", "es") == "Pifia"


def test_language_names_normalise():
    assert normalize("fr_FR.UTF-8") == "fr" and normalize("es-ES") == "es" and normalize("de") == "en"
    assert normalize(None) == "en"


def test_every_error_code_has_a_message_with_its_placeholders_in_every_language():
    import string

    for code, msgid in ERROR_MESSAGES.items():
        fields = {name for _, name, _, _ in string.Formatter().parse(msgid) if name}
        for lang in ("fr", "es"):
            translated = translations(lang).gettext(msgid)
            assert translated != msgid, (code, lang, "untranslated: gettext fell back to the English msgid")
            got = {name for _, name, _, _ in string.Formatter().parse(translated) if name}
            assert got == fields, (code, lang, translated)
