"""Translation: Babel catalogues (``locale/<lang>/LC_MESSAGES/<domain>.po``) served through gettext.

The ``.po`` files are the only source: they are read with Babel and compiled in memory on
first use, so a catalogue can never be stale. msgids are the English text; every code the
rules emit has its msgid in ``rollbook.i18n.messages``.
"""

from __future__ import annotations

import gettext
import io
import locale
import os
from functools import lru_cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGUAGES = ("en", "fr", "es")
DEFAULT_LANGUAGE = "en"
LOCALE_DIR = Path(__file__).parent / "locale"


def N_(text: str) -> str:  # noqa: N802 - the gettext convention for "mark, translate later"
    return text


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """Every domain of one language chained together; English falls through to the msgids."""
    lang = normalize(lang)
    merged: gettext.NullTranslations = gettext.NullTranslations()
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    for po_path in sorted(folder.glob("*.po")) if folder.is_dir() else ():
        with po_path.open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        buffer = io.BytesIO()
        write_mo(buffer, catalog)
        buffer.seek(0)
        domain = gettext.GNUTranslations(buffer)
        domain.add_fallback(merged)
        merged = domain
    return merged


def normalize(lang: str | None) -> str:
    if not lang:
        return DEFAULT_LANGUAGE
    short = lang.replace("-", "_").split("_")[0].split(".")[0].lower()
    return short if short in LANGUAGES else DEFAULT_LANGUAGE


def language_from_environment() -> str:
    """ROLLBOOK_LANG, then the usual locale variables, then the process locale."""
    for variable in ("ROLLBOOK_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable)
        if value and value not in ("C", "POSIX", "C.UTF-8"):
            return normalize(value)
    current = locale.getlocale()[0]
    return normalize(current)


def gettext_for(lang: str):
    return translations(normalize(lang)).gettext


def translate(text: str, lang: str, **params) -> str:
    translated = translations(normalize(lang)).gettext(text)
    return translated.format(**params) if params else translated
