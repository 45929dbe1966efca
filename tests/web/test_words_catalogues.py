"""French punctuation in the catalogues themselves: a narrow no-break space (U+202F, the CLDR's French
spacing, as ``i18n.colon`` and ``i18n.percent_text`` write it) before ":", ";", "!", "?" and a percent
sign in every French msgstr, never a plain or a wide no-break space, never a sign glued to its word. A
page shows what the catalogue says, so a msgstr that breaks this shows on some page; the check runs on the
catalogues, where every msgstr is read and not only the ones the generated pages happen to show."""

from __future__ import annotations

import re

import pytest

from tests.catalogues import catalogue_paths, read_catalogue

# a plain space or a no-break space before a sign; a percent sign is a sign, not "%(name)s" or "%s"
SPACED = re.compile(r"[ \u00a0](?:[:;!?]|%(?![(sdif]))")
# a word glued to its sign ("Repris: 67"), not a time, a URL or "{n}:" inside a code
GLUED = re.compile(r"(?<=[^\s\d/:\u202f])[:;!?](?=\s|$)")
# what a translation quotes as code keeps its own spelling: 'Authorization: Bearer …', "ask": true,
# and the YAML "clé: valeur" of the scenario errors (YAML wants no space before the colon)
CODE = re.compile(r"'Authorization: [^']*'|\"\w+\":|\(clé: valeur\)")


def spacing_faults(text: str) -> list[str]:
    """Where ``text`` (a French msgstr) spaces a ":", ";", "!", "?" or "%" otherwise than U+202F."""
    text = CODE.sub("CODE", text)
    found = [f"{text[max(0, m.start() - 20) : m.end() + 5]!r}" for m in SPACED.finditer(text)]
    return found + [f"{text[max(0, m.start() - 20) : m.end() + 5]!r}" for m in GLUED.finditer(text)]


def test_the_spacing_check_finds_each_fault():
    assert spacing_faults("Repris : 67") and spacing_faults("Repris: 67") and spacing_faults("Quoi ?")
    assert spacing_faults("4,2 %") and spacing_faults("a ; b") and spacing_faults("Non\u00a0!")
    assert spacing_faults("Repris\u202f: 67 ; b") == ["'Repris\\u202f: 67 ; b'"]
    clean = "Repris\u202f: 67\u202f; {n}\u202f% · %(p)s · 21:40 · https://x.fr/a · 'Authorization: Bearer'"
    assert spacing_faults(clean) == []


def _french_catalogues():
    for path in catalogue_paths("fr"):
        yield pytest.param(path, id=path.stem)


@pytest.mark.parametrize("path", list(_french_catalogues()))
def test_french_msgstrs_put_a_narrow_no_break_space_before_the_high_signs(path):
    faults = []
    for message in read_catalogue(path):
        if not message.id:  # the header
            continue
        for form in message.string if isinstance(message.string, tuple) else (message.string,):
            faults += [f"{message.id!r}: {where}" for where in spacing_faults(form or "")]
    assert not faults, f"{len(faults)} French msgstrs of {path.name} space a sign wrongly:\n" + "\n".join(
        faults[:20]
    )
