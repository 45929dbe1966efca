"""A system's face at the table (``present.table_face``) is found through the registry: V5's, its
package's ``present`` module (compulsions, seed 001; the hunger frenzy test, V5-10), none for the other
shipped systems nor for a system registered from outside that declares ``PRESENT = None``."""

from __future__ import annotations

import inspect
from types import FunctionType

from rollbook.play.systems import SYSTEM_IDS
from rollbook.present.table_face import FACES, TableFace, entry_face, table_face
from tests.toy_system import registered


def test_v5_alone_has_a_face_at_the_table():
    assert list(FACES) == ["v5"]
    assert [system for system in SYSTEM_IDS if table_face(system) is not None] == ["v5"]
    with registered():
        assert table_face("toy") is None and list(FACES) == ["v5"]


def test_an_entry_kind_finds_the_face_of_its_system():
    assert entry_face("compulsion") is FACES["v5"]
    assert entry_face("compulsion_end") is FACES["v5"]
    assert entry_face("roll") is None and entry_face("adjust") is None


def test_v5s_face_declares_every_member_with_its_parameters():
    face = FACES["v5"]
    for name, declared in vars(TableFace).items():
        if name.startswith("_") or not isinstance(declared, (property, FunctionType)):
            continue
        assert hasattr(face, name), name
        if isinstance(declared, FunctionType):
            wanted = [p for p in inspect.signature(declared).parameters.values() if p.name != "self"]
            positional = [None for p in wanted if p.kind is not inspect.Parameter.KEYWORD_ONLY]
            keywords = {p.name: None for p in wanted if p.kind is inspect.Parameter.KEYWORD_ONLY}
            inspect.signature(getattr(face, name)).bind(*positional, **keywords)
