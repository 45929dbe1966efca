"""Translation: Babel catalogues (``locale/<lang>/LC_MESSAGES/<domain>.po``) served through gettext.

The ``.po`` files are the source; they are compiled to ``.mo`` files beside them by Babel's
``compile_catalog`` when the package is built or installed (``setup.py``; ``pip install -e .``
does it too), and the runtime loads only the compiled ``.mo`` files. Every ``*.po`` of a language
is one domain; a msgid lives in exactly one domain (``tests/test_i18n.py`` enforces it), so the
domains of a language are chained without one hiding another. msgids are the English text; every
code the rules emit has its msgid in ``rollbook.i18n.messages``. A system registered from outside the
package brings its own words as a domain of its own (``compile_domain``, ``register_domain``), looked up
after the shipped domains.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

LOCALE_DIR = Path(__file__).parent / "locale"


@dataclass(frozen=True, slots=True)
class Language:
    """A language of the table: its code (its catalogues' folder under ``locale_dir``) and the one fact
    of its typography CLDR does not give (``colon``); the rest is read from Babel's CLDR data."""

    code: str
    colon: str = ": "  # what separates a label from its value
    locale_dir: Path = LOCALE_DIR  # where its catalogues are (another folder: a plug-in's or a test's)

    @property
    def name(self) -> str:
        """Its name in itself, as a menu lists it ("Français", "Español", "English")."""
        from babel import Locale  # Babel is read when a text is made, not when the CLI starts

        name = Locale.parse(self.code).display_name or self.code
        return name[:1].upper() + name[1:]

    @property
    def regional_tag(self) -> str:
        """The language in its likely region, CLDR's likely subtags ("es" -> "es-ES", "en" -> "en-US")."""
        from babel import Locale
        from babel.core import get_global

        likely = Locale.parse(get_global("likely_subtags").get(self.code, self.code))
        return f"{self.code}-{likely.territory}" if likely.territory else self.code

    @property
    def percent_affixes(self) -> tuple[str, str]:
        """What CLDR writes before and after a percentage's number ("", " %" in French; "%", "" in
        Turkish), its no-break space the narrow one the catalogues put before ":" (CLDR's is U+00A0)."""
        return _percent_affixes(self.code)


@cache
def _percent_affixes(code: str) -> tuple[str, str]:
    from babel.numbers import format_decimal, format_percent

    sample = format_percent(0, locale=code).replace("\xa0", "\u202f")
    before, _zero, after = sample.partition(format_decimal(0, locale=code))
    return before, after


# Each language of the table, once: every other list of languages (the API's choices, the pages'
# language menu, Discord's locales, the scenario format's texts) is read from this one. A language is
# this line and its catalogues (``locale/<code>/LC_MESSAGES/*.po``, one per domain).
REGISTERED: dict[str, Language] = {
    language.code: language
    for language in (
        Language("en"),
        Language("fr", colon="\u202f: "),  # French puts a narrow no-break space before ":"
        Language("es"),
    )
}
LANGUAGES: tuple[str, ...] = tuple(REGISTERED)
DEFAULT_LANGUAGE = "en"  # English is the msgids themselves: it has no catalogue
if TYPE_CHECKING:
    LanguageCode = str
else:  # the codes as a type: the API's models and the scenario format take one of them (its JSON enum)
    LanguageCode = Literal[LANGUAGES]


def register(language: Language) -> None:
    """A language added at run time (a plug-in's, a test's), before the faces are imported: their
    lists (the API's choices, Discord's locales, the pages' menu) are read from ``LANGUAGES`` then."""
    global LANGUAGES, LanguageCode
    REGISTERED[language.code] = language
    LANGUAGES = tuple(REGISTERED)
    LanguageCode = Literal[LANGUAGES]  # type: ignore[valid-type]  # the registered languages, known at run time
    translations.cache_clear()


def languages_text() -> str:
    """The languages as the CLI's help lists them ("en, fr or es")."""
    return ", ".join(LANGUAGES[:-1]) + " or " + LANGUAGES[-1]


def language(lang: str | None) -> Language:
    """The registered language a code or locale names (``normalize``'s), English for any other."""
    return REGISTERED[normalize(lang)]


def N_(text: str) -> str:
    return text


def counted(n: int, singular: str, plural: str) -> str:
    """A count and its noun in an English-only operator line (a log line, a CLI summary, a start-up
    error): "1 problem", "2 problems", "0 problems". A text a reader sees in their language takes its
    form from the catalogues instead (``Nn_``, ``ngettext``)."""
    return f"{n} {singular if n == 1 else plural}"


class Counted(str):
    """A msgid with a plural (a message table's value, still its singular text): ``error_message``
    picks its form by the parameter ``by`` names through the catalogue's plural rule."""

    plural: str
    by: str

    def __new__(cls, singular: str, plural: str, by: str) -> Counted:
        made = super().__new__(cls, singular)
        made.plural, made.by = plural, by
        return made


def Nn_(singular: str, plural: str, by: str) -> Counted:
    """A counted message marked for the catalogues (``msgid`` and ``msgid_plural``), its number the
    parameter ``by``: "1 extra face was given", "2 extra faces were given"."""
    return Counted(singular, plural, by)


class CatalogueNotCompiled(RuntimeError):
    """A ``.po`` catalogue has no compiled ``.mo`` beside it: the package was not built or installed."""


REBUILD_HINT = "run `pip install -e .` (or `pybabel compile -d src/rollbook/i18n/locale -D {domain}`)"


def domains(lang: str) -> list[str]:
    """The catalogue domains of one language: every ``*.po`` in its ``LC_MESSAGES`` folder."""
    folder = language(lang).locale_dir / normalize(lang) / "LC_MESSAGES"
    return sorted(po.stem for po in folder.glob("*.po"))


# The catalogue domains registered from outside (a system's, ``register_domain``), each with the folder
# of its catalogues (``<locale_dir>/<lang>/LC_MESSAGES/<domain>.po`` and its compiled ``.mo``), in order.
OUTSIDE_DOMAINS: dict[str, Path] = {}


def _catalogue_files(domain: str, locale_dir: Path) -> list[tuple[Path, Path]]:
    """Each language's ``.po`` of ``domain`` under ``locale_dir``, with the ``.mo`` compiled from it."""
    return [(po, po.with_suffix(".mo")) for po in sorted(locale_dir.glob(f"*/LC_MESSAGES/{domain}.po"))]


def compile_domain(domain: str, locale_dir: Path) -> None:
    """Compile a domain's catalogues outside the package (a registered system's) as ``pip install`` does
    the shipped ones (``setup.py``: Babel's ``compile_catalog``, its fuzzy entries left out, a catalogue
    with errors refused): each ``.po`` to its ``.mo`` beside it, when the ``.mo`` is older than it or
    missing; written whole, then moved in place (a reader never sees half of one)."""
    import os

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po, mo in _catalogue_files(domain, locale_dir):
        if mo.is_file() and mo.stat().st_mtime_ns >= po.stat().st_mtime_ns:
            continue
        with po.open("rb") as handle:
            catalogue = read_po(handle, locale=po.parent.parent.name, domain=domain)
        errors = [f"{po}: {message.id!r}: {error}" for message, found in catalogue.check() for error in found]
        if errors:
            raise ValueError("; ".join(errors))
        written = mo.with_name(f".{mo.name}.{os.getpid()}")
        with written.open("wb") as handle:
            write_mo(handle, catalogue, use_fuzzy=False)
        os.replace(written, mo)


def register_domain(domain: str, locale_dir: Path) -> None:
    """A catalogue domain a system registered from outside brings (its words in each language it has
    a catalogue for: ``<locale_dir>/<lang>/LC_MESSAGES/<domain>.po``, compiled: ``compile_domain``),
    looked up after the shipped domains: a msgid of theirs keeps their words. ``CatalogueNotCompiled``
    when a ``.po`` of it has no ``.mo``."""
    if domain in {po.stem for po in LOCALE_DIR.glob("*/LC_MESSAGES/*.po")}:
        raise ValueError(f"{domain} is a shipped domain")
    for po, mo in _catalogue_files(domain, locale_dir):
        if not mo.is_file():
            raise CatalogueNotCompiled(f"{po} is not compiled; run rollbook.i18n.compile_domain first")
    OUTSIDE_DOMAINS[domain] = locale_dir
    _outside.cache_clear()


def unregister_domain(domain: str) -> None:
    """Remove a domain ``register_domain`` added."""
    OUTSIDE_DOMAINS.pop(domain, None)
    _outside.cache_clear()


@cache
def _outside(lang: str) -> gettext.NullTranslations:
    """The registered domains' catalogues of one language chained, in their order of registration."""
    merged = gettext.NullTranslations()
    for domain, locale_dir in OUTSIDE_DOMAINS.items():
        mo_path = locale_dir / lang / "LC_MESSAGES" / f"{domain}.mo"
        if mo_path.is_file():
            with mo_path.open("rb") as handle:
                merged.add_fallback(gettext.GNUTranslations(handle))
    return merged


class OutsideTranslations(gettext.NullTranslations):
    """The domains registered from outside (``register_domain``) of one language, read when a text is
    looked up: the end of the language's chain (``translations``), so a chain made before a domain was
    registered (a page's template environment) finds its words too."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def gettext(self, message: str) -> str:
        return _outside(self.lang).gettext(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return _outside(self.lang).ngettext(msgid1, msgid2, n)

    def pgettext(self, context: str, message: str) -> str:
        return _outside(self.lang).pgettext(context, message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return _outside(self.lang).npgettext(context, msgid1, msgid2, n)


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """Every domain of one language chained together, the shipped ones, then those registered from
    outside (``OutsideTranslations``); English falls through to the msgids."""
    lang = normalize(lang)
    merged: gettext.NullTranslations = OutsideTranslations(lang)
    for domain in domains(lang):
        mo_path = language(lang).locale_dir / lang / "LC_MESSAGES" / f"{domain}.mo"
        if not mo_path.is_file():
            raise CatalogueNotCompiled(
                f"{mo_path.with_suffix('.po')} is not compiled; " + REBUILD_HINT.format(domain=domain)
            )
        with mo_path.open("rb") as handle:
            catalogue = gettext.GNUTranslations(handle)
        catalogue.add_fallback(merged)
        merged = catalogue
    return merged


def normalize(lang: str | None) -> str:
    if not lang:
        return DEFAULT_LANGUAGE
    short = lang.replace("-", "_").split("_")[0].split(".")[0].lower()
    return short if short in LANGUAGES else DEFAULT_LANGUAGE


def translate(text: str, lang: str, **params) -> str:
    lang = normalize(lang)
    translated = translations(lang).gettext(text)
    if not params:
        return translated
    return elided(translated, params, lang).format(**params)


def translate_n(singular: str, plural: str, n: int, lang: str, **params) -> str:
    """A counted text in the form the CLDR's plural rule of ``lang`` picks for ``n`` ("1 dé", "2 dés";
    French says "0 dé" too), ``{n}`` and ``params`` filled in."""
    lang = normalize(lang)
    values = {"n": n, **params}
    return elided(translations(lang).ngettext(singular, plural, n), values, lang).format(**values)


# French elides "de", "que", "le", "la", "jusque" before a vowel: "le jet d'Inès", not "de Inès". A
# catalogue's text cannot know the name a placeholder will hold, so the elision is made when the value
# is known. An initial h is left alone (aspirated or not, the spelling does not say).
_VOWELS = frozenset("AEIOUÀÂÄÆÉÈÊËÎÏÔÖŒÙÛÜaeiouàâäæéèêëîïôöœùûü")
_ELIDABLE = re.compile(r"(?<![\w’'-])(de|De|que|Que|le|Le|la|La|jusque|Jusque) (\{(\w+)\}|%\((\w+)\)s)")
_ELIDED = {"de": "d'", "que": "qu'", "le": "l'", "la": "l'", "jusque": "jusqu'"}  # as web.errors writes it


def elided(template: str, params: Mapping[str, object], lang: str) -> str:
    """``template`` (a translated text, ``{name}`` or ``%(name)s`` placeholders) with French elision
    before each placeholder whose value starts with a vowel; other languages unchanged."""
    if normalize(lang) != "fr" or " " not in template:
        return template

    def elide(match: re.Match) -> str:
        word, placeholder = match.group(1), match.group(2)
        value = str(params.get(match.group(3) or match.group(4), ""))
        if value[:1] not in _VOWELS:
            return match.group(0)
        short = _ELIDED[word.lower()]
        return (short.capitalize() if word[0].isupper() else short) + placeholder

    return _ELIDABLE.sub(elide, template)


def colon(lang: str) -> str:
    """What separates a label from its value: French puts a narrow no-break space before the colon
    (the CLDR's French percent sign takes the same space: ``percent_text``)."""
    return language(lang).colon


def labelled(label: str, value: object, lang: str) -> str:
    """ "Repris : 67" in French, "Mapped: 67" in English."""
    return f"{label}{colon(lang)}{value}"


def number_text(value: float | Fraction, lang: str, digits: int = 1) -> str:
    """A decimal number with the locale's decimal sign, through Babel ("1,40" in fr and es)."""
    from babel.numbers import format_decimal

    return format_decimal(round(float(value), digits), format="#,##0." + "0" * digits, locale=normalize(lang))


# The Tiers and roll-under seeds name the table's authority "le MJ" (maître de jeu; es "el
# DJ", director de juego), V20 and V5 "le Conteur" / "el Narrador". The catalogues say Storyteller; a game of the
# first kind reads each translated text through ``game_master_words`` (the articles agree: le/du/au MJ, el/del/al DJ).
GAME_MASTER_SYSTEMS = ("tiers", "rollunder")
# The two titles as the catalogues translate them ("Conteur" / "MJ", "Narrador" / "DJ"); English is the
# msgids themselves, its game master said short ("GM") as the French and Spanish catalogues say theirs.
STORYTELLER, GAME_MASTER = N_("Storyteller"), N_("game master")
ENGLISH_GAME_MASTER = "GM"


def game_master_words(text: str, lang: str) -> str:
    """A translated text as a game of a game master says it ("Seul le Conteur…" -> "Seul le MJ…")."""
    lang = normalize(lang)
    if lang == DEFAULT_LANGUAGE:
        return text.replace(STORYTELLER, ENGLISH_GAME_MASTER)
    catalogues = translations(lang)
    return text.replace(catalogues.gettext(STORYTELLER), catalogues.gettext(GAME_MASTER))


class GameMasterTranslations(gettext.NullTranslations):
    """A language's catalogues, every text read through ``game_master_words`` (the pages of a Tiers or
    roll-under chronicle)."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = normalize(lang)
        self.base = translations(self.lang)

    def gettext(self, message: str) -> str:
        return game_master_words(self.base.gettext(message), self.lang)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return game_master_words(self.base.ngettext(msgid1, msgid2, n), self.lang)

    def pgettext(self, context: str, message: str) -> str:
        return game_master_words(self.base.pgettext(context, message), self.lang)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return game_master_words(self.base.npgettext(context, msgid1, msgid2, n), self.lang)


def percent_text(p, lang: str) -> str:
    """A chance as people read it in their language, through Babel ("0,0 %" in fr and es, "0.0%" in en),
    one more digit below 1 % ("0,25 %", not "0,2 %"): the web's odds and the CLI's alike."""
    from babel.numbers import format_decimal

    lang = normalize(lang)
    value = float(p) * 100
    if 0 < value < 1:
        text = format_decimal(round(value, 2), format="#,##0.0#", locale=lang)
    else:
        text = format_decimal(round(value, 1), format="#,##0.0", locale=lang)
    before, after = language(lang).percent_affixes
    return f"{before}{text}{after}"
