"""Every declared table rule (SPEC TR-1, TR-2) on every face, generated from ``rules.table``: the
web form and the JSON API set it, the API's and the CLI's odds and the web's odds box answer the
distribution of the roll's own request (enumerated through the resolver), the roll is resolved under
it and its view shows it, ``rollbook log verify`` recomputes it; on SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import create_app
from rollbook.rules.base import RuleError
from rollbook.rules.table import TABLE_RULES, check_table_rules, register, rules_for
from tests.table_rule_faces import WITNESSES, QueuedDice, Witness, check_every_face
from tests.toy_system import house, house_registered


@pytest.fixture()
def dice() -> QueuedDice:
    return QueuedDice()


@pytest.fixture()
def given_client(database_url, dice):
    with TestClient(create_app(database_url, dice=dice)) as client:
        yield client


@pytest.mark.parametrize("rule_id", sorted(TABLE_RULES))
def test_TR_2_every_table_rule_is_honoured_on_every_face(
    given_client, dice, rule_id, monkeypatch, capsys, tmp_path
):
    assert rule_id in WITNESSES, f"{rule_id} is declared without a witness in tests/table_rule_faces.py"
    rule = TABLE_RULES[rule_id]
    check_every_face(
        given_client, dice, rule.system, rule_id, WITNESSES[rule_id], monkeypatch, capsys, tmp_path
    )


def test_TR_1_a_table_rule_declared_outside_the_package_appears_on_every_face(
    given_client, dice, monkeypatch, capsys, tmp_path
):
    """A toy table rule (``tests/toy_system/house.py``: its declaration and its deviation, nothing in
    ``src/``) is offered, set, rolled under, given odds, shown and verified like a shipped one; and
    gone from the faces once unregistered."""
    sheet = {"system": house.SYSTEM, "name": "Ann", "traits": {"might": 2}}
    witness = Witness(sheet, {"kind": "pool", "trait": "might"}, faces=(4, 2), cli=("--pool", "2"))
    with house_registered() as rule_id:
        assert rule_id in TABLE_RULES and rules_for(house.SYSTEM) == [rule_id]
        schema = given_client.get("/openapi.json").json()["components"]["schemas"]["TableRulesRequest"]
        assert rule_id in schema["properties"]["table_rules"]["items"]["enum"]
        check_every_face(given_client, dice, house.SYSTEM, rule_id, witness, monkeypatch, capsys, tmp_path)
    assert rule_id not in TABLE_RULES
    with pytest.raises(RuleError) as refused:
        check_table_rules(house.SYSTEM, [rule_id])
    assert refused.value.code == "unknown_table_rule"
    with pytest.raises(ValueError):
        register(replace(TABLE_RULES["v20.ones_do_not_cancel"], replaces="V20-7"))  # a shipped rule stays
    assert TABLE_RULES["v20.ones_do_not_cancel"].replaces == "V20-8"
