"""Hostile files: any value anywhere in a fixture replaced by any JSON value is imported
or refused with a ``RuleError`` (a clear problem), never another exception; a refusal names every
problem with a JSON path of the file."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook.interop import ImportRefused, import_sheet
from rollbook.rules.base import RuleError
from tests.interop.conftest import load

NAMES = ["wod5e_vampire.json", "progeny_vampire.json", "v5bot_vampire.json", "wod20_vampire.json"]
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


def replaced(data, path, new):
    data = copy.deepcopy(data)
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = new
    return data


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=150)
@given(data=st.data())
def test_any_value_anywhere_is_imported_or_refused_clearly(name, data):
    original = load(name)
    where = data.draw(st.sampled_from([p for p in paths(original) if p]))
    hostile = replaced(original, where, data.draw(json_values))
    try:
        import_sheet(hostile)
    except ImportRefused as refused:
        assert refused.report.problems and all(p.source.startswith("$") for p in refused.report.problems)
    except RuleError as refused:
        assert refused.code in (
            "import_unknown_format",
            "import_wrong_system",
            "import_too_deep",
            "import_too_big",
        )
