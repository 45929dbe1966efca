"""A system plugin that cannot be used (``rollbook.plugins.register_all``, the entry points of the group
``rollbook.systems``) is one line naming it and why, what it registered is removed again, and the
next plugin is registered all the same: one that fails to import, one whose registration fails half
way, one named for a shipped system (never imported), one registering another id or none, one named
for a system already registered (which stays), one replacing a shipped system's rules (restored)."""

from __future__ import annotations

import io
from importlib.metadata import EntryPoint

import pytest

from rollbook import i18n, plugins, rules
from rollbook.play import systems
from rollbook.rules import table
from rollbook.rules.base import RuleError
from rollbook.systems.v20 import rules as v20
from tests.toy_system import DOMAIN, registered, unregister


def _points(*pairs: tuple[str, str]) -> list[EntryPoint]:
    return [EntryPoint(name, value, plugins.GROUP) for name, value in pairs]


def _gone(system: str) -> bool:
    with pytest.raises(RuleError):
        rules.get_system(system)
    return system not in systems.system_ids()


def test_each_unusable_plugin_is_one_line_and_leaves_nothing_registered():
    said = io.StringIO()
    loaded = plugins.register_all(
        _points(
            ("gone", "tests.toy_system.absent:register"),
            ("toy", "tests.toy_system.plugins:half"),
            ("v5", "tests.toy_system.absent:register"),
            ("elsewhere", "tests.toy_system:register"),
            ("quiet", "tests.toy_system.plugins:nothing"),
        ),
        said,
    )
    assert loaded == ()
    assert said.getvalue().splitlines() == [
        "rollbook: system plugin elsewhere (tests.toy_system:register) not loaded: it registered toy, "
        "not elsewhere",
        "rollbook: system plugin gone (tests.toy_system.absent:register) not loaded: "
        "ModuleNotFoundError: No module named 'tests.toy_system.absent'",
        "rollbook: system plugin quiet (tests.toy_system.plugins:nothing) not loaded: it registered no "
        "system, not quiet",
        "rollbook: system plugin toy (tests.toy_system.plugins:half) not loaded: RuntimeError: the "
        "plugin's own set-up failed",
        "rollbook: system plugin v5 (tests.toy_system.absent:register) not loaded: v5 is a shipped system",
    ]
    assert _gone("toy") and _gone("elsewhere") and DOMAIN not in i18n.OUTSIDE_DOMAINS
    assert systems.system_ids()[:4] == systems.SYSTEM_IDS  # the shipped ones, all there


def test_a_plugin_is_registered_beside_a_broken_one_and_a_shipped_systems_rules_stay():
    said = io.StringIO()
    try:
        loaded = plugins.register_all(
            _points(("toy", "tests.toy_system:register"), ("broken", "tests.toy_system.absent:register")),
            said,
        )
        assert loaded == ("toy",) and "toy" in systems.system_ids()
        assert rules.get_system("toy").module is not None and DOMAIN in i18n.OUTSIDE_DOMAINS
        assert len(said.getvalue().splitlines()) == 1 and "plugin broken" in said.getvalue()
    finally:
        unregister()
    assert _gone("toy")

    said = io.StringIO()
    assert plugins.register_all(_points(("toy", "tests.toy_system.plugins:shipped_rules")), said) == ()
    assert rules.get_system("v20").module is v20  # restored
    assert said.getvalue() == (
        "rollbook: system plugin toy (tests.toy_system.plugins:shipped_rules) not loaded: it replaced "
        "the rules of v20, a shipped system\n"
    )
    assert _gone("toy")


def test_a_plugin_named_for_a_registered_system_leaves_it_registered():
    with registered() as toy:
        said = io.StringIO()
        assert plugins.register_all(_points((toy, "tests.toy_system:register")), said) == ()
        assert said.getvalue().endswith("not loaded: a system toy is already registered\n")
        assert toy in systems.system_ids() and rules.get_system(toy) is not None


def test_a_refused_plugins_table_rules_are_removed_with_it():
    """A plugin that declared a table rule (TR-2) and then failed leaves no rule declared: the rule's
    id is in no enum, panel or ``--table-rule`` help once the plugin is refused."""
    said = io.StringIO()
    before = set(table.TABLE_RULES)
    loaded = plugins.register_all(_points(("toy", "tests.toy_system.plugins:house_rule_then_failure")), said)
    assert loaded == () and "RuntimeError" in said.getvalue()
    assert set(table.TABLE_RULES) == before
    assert "toy_house.fours_succeed" not in table.TABLE_RULES
    assert _gone("toy") and DOMAIN not in i18n.OUTSIDE_DOMAINS
