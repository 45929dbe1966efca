"""Translations come from the Babel catalogues: every msgid the code marks is translated in fr and es,
each msgid lives in one domain, and the compiled ``.mo`` files the runtime loads are up to date."""

from __future__ import annotations

import gettext
import io
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo

from rollbook.i18n import Counted, domains, normalize, translate, translations
from rollbook.i18n.messages import ERROR_MESSAGES
from tests.catalogues import catalogue_paths, read_catalogue, translated_msgids

SOURCE = Path(__file__).resolve().parents[1] / "src" / "rollbook"
TRANSLATED = ("fr", "es")
KEYWORDS = {
    "N_": None,
    "Nn_": (1, 2),
    "_": None,
    "t": (1,),
    "tn": (1, 2),
    "translate_n": (1, 2),
    "translate": (1,),
    "gettext": None,
    "ngettext": (1, 2),
}
REBUILD = "rebuild with `.venv/bin/pip install -e .` (Babel's compile_catalog, see setup.py)"


def marked_msgids() -> set[str]:
    return {msgid for msgid, _ in marked_msgids_with_places()}


def marked_msgids_with_places() -> set[tuple[str, str]]:
    """(msgid, file) for every string the code marks: N_, _, t, tn, translate, (n)gettext, and ``_()`` in templates."""
    method_map = [("**.py", "python"), ("**/templates/**.html", "jinja2")]
    found = set()
    for filename, _, message, _, _ in extract_from_dir(str(SOURCE), method_map, keywords=KEYWORDS):
        msgid = message[0] if isinstance(message, tuple) else message
        if isinstance(msgid, str) and msgid:
            found.add((msgid, filename))
    return found


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_marked_message_is_translated(lang):
    places = marked_msgids_with_places()
    marked = {msgid for msgid, _ in places}
    # An extraction that finds nothing would make this test pass vacuously: the error catalogue alone is
    # marked, so its messages must all be among the extracted msgids, and the templates' _() are read too.
    assert len(marked) >= len(ERROR_MESSAGES) > 0 and set(ERROR_MESSAGES.values()) <= marked
    assert any(place.endswith(".html") for _, place in places), "no msgid extracted from the templates"
    missing = sorted(marked - translated_msgids(lang))
    where = sorted({place for msgid, place in places if msgid in missing})
    assert not missing, (
        f"{len(missing)} msgids lack a {lang} translation, e.g. {missing[:5]} (used in {where[:5]})"
    )


def test_every_language_has_the_same_domains():
    assert domains("fr"), "no catalogue found"
    assert domains("fr") == domains("es"), "each domain needs a fr and an es catalogue"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_msgid_lives_in_exactly_one_domain(lang):
    """The domains of a language are chained at run time: a msgid in two of them would have two translations
    and one would silently hide the other. Move it to the domain of the area that owns it."""
    homes: dict[str, list[str]] = {}
    for po_path in catalogue_paths(lang):
        for m in read_catalogue(po_path):
            if m.id:
                homes.setdefault(m.id[0] if isinstance(m.id, tuple) else m.id, []).append(po_path.name)
    collisions = {msgid: files for msgid, files in homes.items() if len(files) > 1}
    assert not collisions, (
        f"{len(collisions)} msgids are in more than one {lang} catalogue: {sorted(collisions.items())[:5]}"
    )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalogue_headers_are_not_fuzzy(lang):
    """Babel's compile_catalog skips a catalogue whose header is marked fuzzy: its translations would not ship."""
    fuzzy = [p.name for p in catalogue_paths(lang) if read_catalogue(p).fuzzy]
    assert not fuzzy, f"remove the '#, fuzzy' line of the header of {lang}/LC_MESSAGES/{fuzzy}"


def _undated(catalog: dict) -> dict:
    """The catalog without its header's dates: Babel stamps "now" into a .po that names no
    POT-Creation-Date, so a .po rewritten unchanged (a rebase) would otherwise read as edited."""
    header = "\n".join(
        line
        for line in str(catalog.get("", "")).split("\n")
        if not line.startswith(("POT-Creation-Date", "PO-Revision-Date"))
    )
    return {**catalog, "": header}


def compiled_messages(mo_path: Path) -> dict:
    with mo_path.open("rb") as handle:
        return _undated(dict(gettext.GNUTranslations(handle)._catalog))


def messages_of(po_path: Path) -> dict:
    """What the .po compiles to, read back the way the runtime reads a .mo."""
    buffer = io.BytesIO()
    write_mo(buffer, read_catalogue(po_path))
    buffer.seek(0)
    return _undated(dict(gettext.GNUTranslations(buffer)._catalog))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_compiled_catalogues_are_up_to_date(lang):
    """The runtime loads only the .mo files, compiled at build/install time: each must exist and not be older
    than its .po (a .po that git merely rewrote with the same content, after a rebase, is not an edit)."""
    for po_path in catalogue_paths(lang):
        mo_path = po_path.with_suffix(".mo")
        assert mo_path.is_file(), f"{po_path} was never compiled (no {mo_path.name}): {REBUILD}"
        if mo_path.stat().st_mtime < po_path.stat().st_mtime:
            assert compiled_messages(mo_path) == messages_of(po_path), (
                f"{mo_path} is older than {po_path.name}, which was edited since: {REBUILD}"
            )


def test_an_error_code_has_one_message():
    """Each area keeps its codes in its own table; a code in two tables would silently lose one text."""
    from rollbook.i18n.messages import AREA_MESSAGES, ENGINE_MESSAGES

    tables = (ENGINE_MESSAGES, *AREA_MESSAGES)
    repeated = sorted(
        {
            code
            for i, table in enumerate(tables)
            for code in table
            for other in tables[i + 1 :]
            if code in other
        }
    )
    assert not repeated, f"error codes defined by two areas: {repeated}"
    assert len(ERROR_MESSAGES) == sum(len(table) for table in tables)


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
            if isinstance(msgid, Counted):  # every form the language's rule picks (1, 2, a million)
                forms = [translations(lang).ngettext(msgid, msgid.plural, n) for n in (1, 2, 1_000_000)]
            else:
                forms = [translations(lang).gettext(msgid)]
            for translated in forms:
                assert translated not in (msgid, getattr(msgid, "plural", msgid)), (
                    code,
                    lang,
                    "untranslated: gettext fell back to the English msgid",
                )
                got = {name for _, name, _, _ in string.Formatter().parse(translated) if name}
                assert got == fields, (code, lang, translated)


@pytest.mark.parametrize(
    ("lang", "nonces", "count", "said"),
    [
        ("en", "3", 1, "nonce 3 never appears"),
        ("en", "3-4", 2, "nonces 3-4 never appear"),
        ("fr", "3", 1, "le nonce 3 n’apparaît"),
        ("fr", "3-4", 2, "les nonces 3-4 n’apparaissent"),
        ("es", "3", 1, "el nonce 3 no aparece"),
        ("es", "3, 5", 2, "los nonces 3, 5 no aparecen"),
    ],
)
def test_missing_nonces_are_counted_in_their_language_s_form(lang, nonces, count, said):
    """F-3: a missing nonce is "nonce", two are "nonces", never a hand-made "nonce(s)"."""
    from rollbook.i18n.messages import error_message

    text = error_message("fair_nonce_missing", lang, {"commitment": "ab", "nonces": nonces, "count": count})
    assert said in text and "(s)" not in text, text


@pytest.mark.parametrize(
    ("lang", "extra", "said"),
    [
        ("en", 1, "1 extra face was given"),
        ("en", 2, "2 extra faces were given"),
        ("fr", 1, "1 face en trop a été donnée"),
        ("fr", 2, "2 faces en trop ont été données"),
        ("es", 1, "se dio 1 cara de más"),
        ("es", 3, "se dieron 3 caras de más"),
    ],
)
def test_extra_tiers_faces_are_counted_in_their_language_s_form(lang, extra, said):
    """T-2: one face given past the chain's end is "face", more are "faces", never "face(s)"."""
    from rollbook.i18n.messages import error_message

    text = error_message("extra_faces_after_chain", lang, {"position": 1, "face": 4, "extra": extra})
    assert said in text and "(s)" not in text, text


def plural_forms_counts(po_path: Path) -> tuple[int | None, list[tuple[str, int]]]:
    """A catalogue as written: its header's ``nplurals`` (None without a Plural-Forms line) and each
    plural entry's msgid with how many ``msgstr[i]`` forms it holds (read from the text: Babel's reader
    drops the forms a wrong header does not count)."""
    text = po_path.read_text(encoding="utf-8")
    header = re.search(r'^"Plural-Forms: nplurals=(\d+);', text, re.MULTILINE)
    entries = []
    for block in re.split(r"\n\s*\n", text):
        if "\nmsgid_plural " in "\n" + block:
            msgid = re.search(r'^msgid "(.*)"', block, re.MULTILINE)
            entries.append(
                (msgid.group(1) if msgid else block[:60], len(re.findall(r"^msgstr\[\d+\]", block, re.M)))
            )
    return (int(header.group(1)) if header else None), entries


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_catalogue_counts_its_language_s_plural_forms(lang):
    """gettext picks a plural entry's form by its catalogue's own Plural-Forms header: each catalogue says
    Babel's (CLDR's) number of forms for its language, and each plural entry holds that many."""
    from babel.messages.plurals import get_plural

    wanted = get_plural(lang).num_plurals
    wrong = []
    for po_path in catalogue_paths(lang):
        declared, entries = plural_forms_counts(po_path)
        if declared != wanted:
            wrong.append(f"{po_path.name}: nplurals={declared}")
        wrong += [f"{po_path.name}: {msgid!r} has {n} forms" for msgid, n in entries if n != wanted]
    assert not wrong, f"{lang} needs nplurals={wanted}: {wrong}"


HAND_MADE_PLURAL = re.compile(r"[A-Za-z]\((?:s|es)\)")  # "problem(s)", "match(es)"; not "%(s)s"
NOT_A_PLURAL = ("http(s)",)  # a scheme, not a count


def hand_made_plurals(tree) -> list[tuple[int, str]]:
    """Each string literal of a module (f-strings' literal parts included, docstrings left out: they
    are read by developers, not said to a reader) that writes a plural by hand, with its line."""
    import ast

    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            text = node.value
            for allowed in NOT_A_PLURAL:
                text = text.replace(allowed, "")
            if HAND_MADE_PLURAL.search(text):
                found.append((node.lineno, node.value))
    return found


def test_the_ratchet_finds_a_hand_made_plural_and_lets_placeholders_and_docstrings_be():
    import ast

    tree = ast.parse(
        'def f(n):\n    """the token(s) given"""\n    return f"{n} problem(s)", "%(s)s", "an http(s) URL"\n'
    )
    assert hand_made_plurals(tree) == [(3, " problem(s)")]


def test_no_string_literal_writes_a_hand_made_plural():
    """Every count says its noun in the form it takes ("1 problem", "2 problems"): a text a reader sees
    in their language through a catalogue plural entry (``Nn_``, ``ngettext``), an English-only operator
    line through ``rollbook.i18n.counted``; never "problem(s)"."""
    import ast

    found = [
        f"{path.relative_to(SOURCE)}:{line}: {text!r}"
        for path in sorted(SOURCE.rglob("*.py"))
        for line, text in hand_made_plurals(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not found, found
