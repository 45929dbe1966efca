"""A chronicle whose system no export format holds (Tiers) is refused with a sentence naming the
formats there are, in fr, es and en; never "The - format" (a format nobody asked for)."""

from __future__ import annotations

import pytest

from rollbook.i18n.messages import error_message
from rollbook.interop import export_format
from rollbook.rules.base import RuleError


def test_each_exported_system_has_its_format():
    assert (export_format("v5"), export_format("v20")) == ("wod5e", "wod20")


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "No export format holds Tiers (paliers) characters; the formats are wod5e, wod20."),
        (
            "fr",
            "Aucun format d'export ne contient de personnages Paliers\u202f; les formats sont wod5e, wod20.",
        ),
        (
            "es",
            "Ningún formato de exportación contiene personajes Escalones (paliers); los formatos son wod5e, wod20.",
        ),
    ],
)
def test_a_system_no_format_holds_is_refused_naming_the_formats(lang, expected):
    with pytest.raises(RuleError) as refused:
        export_format("tiers")
    assert refused.value.code == "export_no_format"
    assert error_message(refused.value.code, lang, refused.value.params) == expected


@pytest.mark.parametrize(
    ("lang", "system", "chronicle"),
    [
        ("en", "Vampire: the Masquerade 20th (V20)", "Tiers (paliers)"),
        ("fr", "Vampire\u202f: la Mascarade 20e anniversaire (V20)", "Paliers"),
        ("es", "Vampiro: la Mascarada 20.º aniversario (V20)", "Escalones (paliers)"),
    ],
)
def test_a_refusal_names_the_systems_in_the_reader_s_language(lang, system, chronicle):
    """An export or import refused for its system names the systems as the reader knows them, never by
    their ids ("tiers", "v20")."""
    params = {"format": "wod20", "system": "v20", "chronicle": "tiers"}
    for code in ("export_wrong_system", "import_wrong_system"):
        said = error_message(code, lang, params)
        assert system in said and chronicle in said and " tiers" not in said and " v20 " not in said, said
