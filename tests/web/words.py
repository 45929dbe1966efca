"""The words check the generated words test applies to every card, page and Discord embed in French and
Spanish, built from the catalogues and the CLDR's rules through Babel rather than from a hand-made list:

- plural agreement: a count the CLDR says is singular ("one": 0 and 1 in French, 1 in Spanish) before a
  plural word of the catalogues' own plural forms ("1 dés", "1 dados"), and hand-made plurals ("champ(s)");
- decimal signs: a decimal number written with the English point where the locale's sign is a comma;
- French colon and percent spacing: a colon or a percent sign glued to what it follows ("Repris: 67",
  "4,2%"; the catalogues' space, a no-break one or the narrow one all pass);
- French elision: "de", "que", "le", "la" before a word that starts with a vowel ("de Inès")."""

from __future__ import annotations

import re
from functools import cache

from babel import Locale
from babel.messages.pofile import read_po
from babel.numbers import get_decimal_symbol

from .helpers import LOCALE

COUNT = re.compile(r"^(?:\{n\}|\{count\}|%\(num\)s|%\(n\)s|\{dice\}) (\w+)")
VOWEL = "AEIOUÀÂÄÉÈÊËÎÏÔÖÙÛÜaeiouàâäéèêëîïôöùûü"
ELISION = re.compile(rf"(?<![\w’'-])(?:[Dd]e|[Qq]ue|[Ll]e|[Ll]a|[Jj]usque) (?=[{VOWEL}]\w)")
HAND_MADE_PLURAL = re.compile(r"\w\((?:s|es|x)\)")
GLUED_COLON = re.compile(r"(?<=[^\s\d/:])[:;!?](?=\s|$)")
GLUED_PERCENT = re.compile(r"\d%")


@cache
def plural_words(lang: str) -> frozenset[str]:
    """The words the catalogues put after a count in a plural form only ("dés", not "dé")."""
    words = set()
    for po in (LOCALE / lang / "LC_MESSAGES").glob("*.po"):
        with po.open("rb") as handle:
            for message in read_po(handle):
                if not isinstance(message.string, tuple) or not message.string[0]:
                    continue
                one = COUNT.match(message.string[0])
                for form in message.string[1:]:
                    other = COUNT.match(form or "")
                    if other and (not one or one.group(1) != other.group(1)):
                        words.add(other.group(1))
    return frozenset(words)


@cache
def singular_counts(lang: str) -> tuple[int, ...]:
    """The small whole counts the CLDR's plural rule of ``lang`` calls "one"."""
    rule = Locale.parse(lang).plural_form
    return tuple(n for n in range(0, 3) if rule(n) == "one")


def word_problems(text: str, lang: str) -> list[str]:
    """What reads wrong in ``text`` (a page's visible text or an embed's) in ``lang``."""
    found = []
    counts = "|".join(str(n) for n in singular_counts(lang))
    plurals = "|".join(sorted(map(re.escape, plural_words(lang)), key=len, reverse=True))
    for match in re.finditer(rf"(?<![\d.,\w−-])(?:{counts})\s(?:{plurals})\b", text):
        found.append(
            f"plural after a singular count: {text[max(0, match.start() - 25) : match.end() + 15]!r}"
        )
    for match in HAND_MADE_PLURAL.finditer(text):
        found.append(f"hand-made plural: {text[max(0, match.start() - 12) : match.end()]!r}")
    if get_decimal_symbol(lang) != ".":
        for match in re.finditer(r"(?<![\w.:/#-])\d+\.\d+(?![\w.:/-])", text):
            found.append(f"decimal point: {text[max(0, match.start() - 20) : match.end() + 5]!r}")
    for match in GLUED_PERCENT.finditer(text):
        found.append(f"percent glued to its number: {text[max(0, match.start() - 20) : match.end()]!r}")
    if lang == "fr":
        for match in GLUED_COLON.finditer(text):
            found.append(f"colon without its space: {text[max(0, match.start() - 20) : match.end() + 8]!r}")
        for match in ELISION.finditer(text):
            found.append(f"no elision: {text[match.start() : match.end() + 12]!r}")
    return found
