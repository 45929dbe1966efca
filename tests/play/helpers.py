"""Shared helpers for the play-layer tests."""

from __future__ import annotations

import copy
import json

import pytest

from rollbook.rules.base import RuleError


class NoDice:
    """A dice source that fails the test if anything is drawn: refusals come before the dice."""

    name = "none"

    def draw(self, n: int, sides: int):
        raise AssertionError(f"a die was drawn ({n}d{sides}) before the refusal")


def refused(code: str, call, *args, **kwargs) -> RuleError:
    """Assert ``call`` refuses with ``code`` and leaves every dict argument untouched."""
    snapshots = [copy.deepcopy(a) for a in args] + [copy.deepcopy(v) for v in kwargs.values()]
    with pytest.raises(RuleError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value
    after = list(args) + list(kwargs.values())
    for before, now in zip(snapshots, after):
        if isinstance(before, (dict, list)):
            assert before == now, "a refusal mutated its input"
    return caught.value


def plain(value) -> None:
    """Receipts and sheets are plain JSON."""
    assert json.loads(json.dumps(value)) == value
