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
        ("en", "No export format holds tiers characters; the formats are wod5e, wod20."),
        (
            "fr",
            "Aucun format d'export ne contient de personnages tiers\u202f; les formats sont wod5e, wod20.",
        ),
        ("es", "Ningún formato de exportación contiene personajes tiers; los formatos son wod5e, wod20."),
    ],
)
def test_a_system_no_format_holds_is_refused_naming_the_formats(lang, expected):
    with pytest.raises(RuleError) as refused:
        export_format("tiers")
    assert refused.value.code == "export_no_format"
    assert error_message(refused.value.code, lang, refused.value.params) == expected
