"""The formats by system (``rollbook.interop.formats``): each system declares its part of the room (its
formats, those it writes, its import checks), found through the registry; the package's lists are
derived from it, in detection order, and a system registered from outside brings its own."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from rollbook.interop import EXPORTS, FORMATS, SYSTEMS
from rollbook.interop.formats import PARTS, exporters, formats, interop_of
from rollbook.interop.report import Reader
from tests.toy_system import registered, variant


def test_each_format_is_declared_by_its_system_and_listed_in_detection_order():
    assert {fmt.FORMAT: fmt.SYSTEM for fmt in formats()} == {
        "wod5e": "v5",
        "wod20": "v20",
        "progeny": "v5",
        "v5bot": "v5",
    }
    assert FORMATS == ("wod5e", "wod20", "progeny", "v5bot")  # a WoD5e actor is tried first
    assert SYSTEMS == ("v5", "v20") and EXPORTS == {"wod5e": "v5", "wod20": "v20"}
    assert [fmt.FORMAT for fmt in exporters()] == ["wod5e", "wod20"]
    assert set(PARTS) == {"v20", "v5"}  # Tiers and roll-under: no other tool's file holds them
    with pytest.raises(KeyError):
        interop_of("tiers")


def test_a_system_registered_from_outside_brings_its_formats_and_its_checks():
    toy_file = SimpleNamespace(
        FORMAT="toyfile",
        SYSTEM="toy",
        DETECTION_RANK=9,
        detect=lambda data: isinstance(data, dict) and "might" in data,
        read=lambda data, reader: None,
    )
    checked: list[str] = []
    part = SimpleNamespace(
        FORMATS=(toy_file,), EXPORTS=(), check=lambda reader: checked.append(reader.system)
    )
    with registered(variant("interop", INTEROP=part)) as toy:
        assert formats()[-1] is toy_file and toy in PARTS
        interop_of(toy).check(Reader("toyfile", toy, "en"))
        assert checked == [toy]
    assert toy_file not in formats()
