"""Every face of one table rule (SPEC TR-1, TR-2), checked from its declaration (``rules.table``) and
a witness: a sheet, a Storyteller's action and the faces the rule changes the result of.

``WITNESSES`` holds one per shipped rule; a rule declared without one fails the generated test
(``tests/server/test_table_rule_faces.py``), and a system defined outside the package brings its own
(``tests/toy_system``). ``check_every_face`` drives one rule through the JSON API (the Storyteller's
setting, a roll, the odds), the web pages (the panel's box, the settings card, the odds box), the CLI
(``rollbook odds SYSTEM --table-rule ID``, ``rollbook log verify``) and the receipt's view, and checks
the odds against the distribution of the roll's own request, enumerated through the resolver.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from html import unescape
from pathlib import Path
from typing import Any

from rollbook import play, render, rules
from rollbook.dice import GivenFaces
from rollbook.play import systems
from rollbook.play.common import request_from_plain
from rollbook.rules.table import TABLE_RULES

LANGS = ("en", "fr", "es")


@dataclass(frozen=True)
class Witness:
    """What shows a table rule at work. ``faces``: a roll of ``action`` whose result the rule changes
    (empty for a rule of the running turn: then ``per_turn``, a second roll of the turn refused with
    that code). ``cli``: the options of ``rollbook odds SYSTEM`` for the same request (None: the
    system has no odds command). ``form``: the action as the web form posts it (default: ``action``)."""

    sheet: dict[str, Any]
    action: dict[str, Any]
    faces: tuple[int, ...] = ()
    per_turn: str = ""
    cli: tuple[str, ...] | None = None
    form: dict[str, str] = field(default_factory=dict)


V20_SHEET = {
    "name": "Ana",
    "attributes": {"dexterity": 4},
    "skills": {"firearms": 1},
    "specialties": {"dexterity": ["quick draw"]},
    "willpower": {"permanent": 5, "current": 5},
}
# Dexterity 4 + Firearms 1 - 3 = two dice, few enough for the enumeration of every roll
V20_TWO_DICE = {"kind": "test", "attribute": "dexterity", "ability": "firearms", "modifier": -3}

WITNESSES: dict[str, Witness] = {
    # V20-7 replaced: the specialty's 10 is one success and a reroll (a 5: no success), not two
    "v20.specialty_reroll_tens": Witness(
        V20_SHEET,
        {**V20_TWO_DICE, "specialty": "quick draw"},
        faces=(10, 3, 5),
        cli=("--pool", "2", "--specialty-rating", "4"),
    ),
    # V20-8 off: the 1 cancels nothing, the 6 stays a success
    "v20.ones_do_not_cancel": Witness(V20_SHEET, V20_TWO_DICE, faces=(6, 1), cli=("--pool", "2")),
    # V20-9's limit enforced: a second Willpower success in the running turn is refused
    "v20.willpower_once_per_turn": Witness(
        V20_SHEET,
        {**V20_TWO_DICE, "willpower": True},
        per_turn="willpower_per_turn",
        cli=("--pool", "2", "--willpower"),
    ),
}


class QueuedDice:
    """The app's dice: the faces the test queues, in order (a draw not queued fails the test)."""

    name = "given"

    def __init__(self) -> None:
        self.faces: list[int] = []

    def __call__(self) -> QueuedDice:
        return self

    def draw(self, n: int, sides: int) -> tuple[int, ...]:
        assert len(self.faces) >= n, "the test queues every face"
        taken, self.faces[:n] = tuple(self.faces[:n]), []
        return taken


def finished_rolls(system: str, request: Any) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    """Every finished sequence of faces of ``request`` (``needed`` asked after each die, so chained
    dice are followed to their end) with its probability."""
    rules_system = rules.get_system(system)
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        faces, mass = stack.pop()
        sizes = rules_system.needed(request, faces)
        if not sizes:
            yield faces, mass
            continue
        sides = sizes[0]
        stack.extend((faces + (face,), mass / sides) for face in range(1, sides + 1))


def outcome_distribution(system: str, request: Any) -> dict[str, Fraction]:
    """outcome -> probability of the request, through the system's own resolver."""
    rules_system = rules.get_system(system)
    outcomes: Counter[str] = Counter()
    for faces, mass in finished_rolls(system, request):
        outcomes[rules_system.resolve(request, faces).outcome] += mass  # type: ignore[attr-defined]
    return {outcome: p for outcome, p in outcomes.items() if p}


def fractions(outcomes: dict[str, str]) -> dict[str, Fraction]:
    return {outcome: Fraction(p) for outcome, p in outcomes.items() if Fraction(p)}


def rules_request(system: str, kind: str, plain: dict[str, Any]) -> Any:
    return request_from_plain(systems.system_module(system).ROLL_RECORDS[kind].request, plain)


def run_cli(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    """``rollbook ARGS`` in this process (where a system registered by the test exists too)."""
    from rollbook.cli import main

    monkeypatch.setattr(sys, "argv", ["rollbook", *args])
    code = 0
    try:
        main()
    except SystemExit as ended:
        code = int(ended.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def _form_exact(fragment: str) -> dict[str, Fraction]:
    """The odds box's exact fraction of each outcome."""
    found = re.findall(r'data-outcome="([^"]+)".*?<span class="exact">([^<]*)</span>', fragment, re.S)
    return {code: Fraction(text) for code, text in found if text and Fraction(text)}


def _text(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def check_every_face(
    client, dice: QueuedDice, system: str, rule_id: str, witness: Witness, monkeypatch, capsys, tmp_path: Path
) -> None:
    """One table rule honoured on every face, and its odds the distribution of the roll's request."""
    from rollbook.present.contests import rule_name

    rule = TABLE_RULES[rule_id]
    assert rule.system == system and rule.replaces  # TR-1: each rule cites the rule it replaces
    created = client.post("/api/chronicles", json={"name": f"Rule {rule_id}", "system": system}).json()
    st = {"Authorization": f"Bearer {created['token']}"}
    cid = created["chronicle"]["id"]
    base = f"/api/chronicles/{cid}"
    character = client.post(f"{base}/characters", headers=st, json={"name": "Ana", "sheet": witness.sheet})
    assert character.status_code == 201, character.text
    who = character.json()["id"]

    # The web form: the Storyteller's panel offers the rule (unticked), in words, and saves it.
    page = client.get(f"/chronicles/{cid}", headers=st).text
    box = re.search(
        rf'<input type="checkbox"[^>]*name="table_rules" value="{re.escape(rule_id)}"[^>]*>', page
    )
    assert box is not None and "checked" not in box.group(0), "the panel offers every declared rule"
    saved = client.post(
        f"/chronicles/{cid}/table-rules", headers=st, data={"table_rules": rule_id}, follow_redirects=False
    )
    assert saved.status_code == 303, saved.text
    page = client.get(f"/chronicles/{cid}", headers=st).text
    assert re.search(rf'value="{re.escape(rule_id)}" checked', page)
    for lang in LANGS:  # the settings card names it in the reader's words
        words = rule_name(rule_id, lang)
        assert words in _text(client.get(f"/chronicles/{cid}", headers=st, params={"lang": lang}).text)
    # The JSON API: the same setting (PUT …/table-rules) answers the set in force.
    put = client.put(f"{base}/table-rules", headers=st, json={"table_rules": [rule_id]})
    assert put.status_code == 200 and put.json()["table_rules"] == [rule_id], put.text

    # The odds, over the API, for the roll the action makes.
    asked = client.post(f"{base}/characters/{who}/odds", headers=st, json={"action": witness.action})
    assert asked.status_code == 200, asked.text
    odds = asked.json()
    assert list(odds["request"]["table_rules"]) == [rule_id]
    request = rules_request(system, witness.action["kind"], odds["request"])
    exact = fractions(odds["odds"]["outcomes"])
    assert exact == outcome_distribution(system, request), "the odds are the roll's distribution"

    # The roll: resolved under the rule, which the receipt records; its request is the odds' own.
    roll_faces = witness.faces or tuple([5] * request.pool)
    dice.faces[:] = list(roll_faces)
    rolled = client.post(f"{base}/characters/{who}/rolls", headers=st, json={"action": witness.action})
    assert rolled.status_code == 201, rolled.text
    receipt = rolled.json()["entry"]["receipt"]
    assert receipt["table_rules"] == [rule_id] and receipt["request"] == odds["request"]
    assert play.verify_receipt(receipt) == []
    if witness.faces:  # honoured: the same faces without the rule give another result
        without = play.perform(
            system,
            witness.sheet,
            witness.action,
            mode="strict",
            role="storyteller",
            source=GivenFaces(list(witness.faces)),
        ).receipt
        assert (receipt["result"]["successes"], receipt["result"]["outcome"]) != (
            without["result"]["successes"],
            without["result"]["outcome"],
        ), "the rule changes this roll"
        unruled = play.preview(system, witness.sheet, witness.action, mode="strict", role="storyteller")
        assert (
            outcome_distribution(system, rules_request(system, witness.action["kind"], unruled["request"]))
            != exact
        )
        # the receipt's view: the card and the embed say what the rule changed
        for lang in LANGS:
            assert render.view(receipt["result"], lang) != render.view(without["result"], lang)
    else:  # a rule of the running turn: honoured by the second roll of the turn, refused
        assert client.post(f"{base}/scenes", headers=st, json={"name": "Fight"}).status_code == 201
        assert client.post(f"{base}/scene/turns", headers=st).status_code == 201
        dice.faces[:] = list(roll_faces) * 2
        first = client.post(f"{base}/characters/{who}/rolls", headers=st, json={"action": witness.action})
        assert first.status_code == 201, first.text
        second = client.post(f"{base}/characters/{who}/rolls", headers=st, json={"action": witness.action})
        assert second.status_code == 409 and second.json()["code"] == witness.per_turn, second.text
        dice.faces[:] = []

    # The web's odds box: the same exact odds as the API's, from the form's values.
    form = witness.form or {
        name: str(value).lower() if value is True else str(value) for name, value in witness.action.items()
    }
    box_html = client.get(f"/chronicles/{cid}/characters/{who}/odds", headers=st, params=form).text
    assert _form_exact(box_html) == exact, box_html

    # The CLI: `rollbook odds SYSTEM … --table-rule ID` and `rollbook log verify` of the export.
    if witness.cli is not None:
        code, out, err = run_cli(
            monkeypatch, capsys, "odds", system, *witness.cli, "--table-rule", rule_id, "--json"
        )
        assert code == 0, err
        printed = json.loads(out)
        assert printed["request"]["table_rules"] == [rule_id]
        assert fractions(printed["outcomes"]) == exact
    exported = tmp_path / f"{rule_id}.jsonl"
    exported.write_text(client.get(f"{base}/log/export", headers=st).text)
    code, out, err = run_cli(monkeypatch, capsys, "log", "verify", str(exported))
    assert code == 0, out + err


__all__ = ["LANGS", "QueuedDice", "WITNESSES", "Witness", "check_every_face", "outcome_distribution"]
