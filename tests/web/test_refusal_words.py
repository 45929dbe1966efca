"""Every refusal that names a trait says it in the reader's words on the pages: generated over every
message whose sentence has ``{trait}``, in French and Spanish, with a trait the catalogues know (its
id must not show) and a homebrew one (shown readable)."""

from __future__ import annotations

import string

import pytest

from rollbook.i18n.messages import ERROR_MESSAGES
from rollbook.rules.base import RuleError
from rollbook.web.errors import error_detail

NAMING_A_TRAIT = sorted(code for code, text in ERROR_MESSAGES.items() if "{trait}" in text)
KNOWN = {"fr": ("animal_ken", "Animaux"), "es": ("animal_ken", "Trato con animales")}


def params_for(code: str, trait: str) -> dict:
    names = {name for _, name, _, _ in string.Formatter().parse(ERROR_MESSAGES[code]) if name}
    return {**dict.fromkeys(names, 2), "trait": trait, "field": "skills.animal_ken"}


def test_there_are_refusals_naming_a_trait():
    assert {"unknown_trait", "trait_not_possessed", "power_above_rating"} <= set(NAMING_A_TRAIT)


@pytest.mark.parametrize("lang", sorted(KNOWN))
@pytest.mark.parametrize("code", NAMING_A_TRAIT)
def test_a_refusal_names_its_trait_in_words(code, lang):
    trait, words = KNOWN[lang]
    _, sentence = error_detail(RuleError(code, **params_for(code, trait)), lang)
    assert trait not in sentence and words in sentence, sentence
    _, sentence = error_detail(RuleError(code, **params_for(code, "necromancie_des_egouts")), lang)
    assert "necromancie_des_egouts" not in sentence and "Necromancie des egouts" in sentence, sentence
