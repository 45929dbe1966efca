"""The solo chronicle in words (rollbook.solo.text): faults, traits and passages in the reader's language."""

from __future__ import annotations

from rollbook.solo.load import Fault
from rollbook.solo.text import fault_line, paragraphs, trait_label, traits_label


def test_a_fault_is_one_translated_line_with_its_place():
    fault = Fault("dangling_link", "passages.alley.choices.0.goto", {"goto": "lye"}, 26)
    assert fault_line(fault, "en") == "passages.alley.choices.0.goto, line 26: No passage is named lye."
    assert (
        fault_line(fault, "fr")
        == "passages.alley.choices.0.goto, ligne 26\u202f: Aucun passage ne s’appelle lye."
    )
    assert fault_line(Fault("unknown_trait", "npcs.x.sheet", {"trait": "charm"}), "es").endswith("charm.")


def test_traits_read_in_the_readers_language():
    assert traits_label(["dexterity", "athletics"], "fr") == "Dextérité + Athlétisme"
    assert trait_label("animal_ken", "en") == "Animal Ken"
    assert trait_label("sewer_lore", "fr") == "Sewer Lore"  # a homebrew trait: its id made readable


def test_a_passage_reflows_into_paragraphs():
    assert paragraphs("One line\nand its end.\n\n  Second\n  paragraph.\n") == [
        "One line and its end.",
        "Second paragraph.",
    ]
