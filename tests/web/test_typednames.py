"""A homebrew trait typed on the sheet form becomes the same id as the same name in an imported sheet
(``interop.names.slug``, as sheet import uses it): one rule, so a trait typed on the page and one imported meet."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from rollbook.interop import names
from rollbook.present import typednames

TRAIT_ID = re.compile(r"^[a-z][a-z0-9_]*$")


def test_a_long_homebrew_name_cut_at_a_blank_keeps_no_trailing_underscore():
    typed = "a" * 39 + " bord"  # the 40th character of the id would be the blank's underscore
    assert typednames.trait_from_text(typed) == "a" * 39 == names.slug(typed)


def test_known_names_in_three_languages_still_meet_their_id():
    assert {typednames.trait_from_text(name) for name in ("Furtivité", "Sigilo", "Stealth", "stealth")} == {
        "stealth"
    }
    assert typednames.trait_from_text("Égouts") == "egouts"
    assert typednames.trait_from_text("3 Rats") == "t_3_rats"


@given(st.text(max_size=60))
def test_any_text_becomes_a_valid_id_or_nothing(text):
    made = typednames.trait_from_text(text)
    assert made == "" or (TRAIT_ID.match(made) and not made.endswith("_") and len(made) <= 40)
