"""The CLI's command of a system registered from outside derives from its action catalogue
(``cli.base.quick_command``): ``rollbook roll <id>`` and ``rollbook odds <id>`` take ``--kind``, each of
its rolls that follows none (``ACTIONS``, ``ROLL_RECORDS``, ``CHAINS``), and each kind's own values,
typed and described as its model says, its quick roll the default kind. Shown with a variant of the
toy whose quick roll names no kind (``QUICK.FIELDS`` its pool alone): its push is on the CLI all the
same, and its odds are ``POST …/odds``' for the same roll, on both stores."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import pytest
from pydantic import Field

from rollbook.play.common import Model, Recorded, by_kind, quick_number
from tests.in_process import run_here
from tests.toy_system import registered, toy, variant

MIGHT = {"name": "Ann", "traits": {"might": 3}}


class _PoolOnly:
    """The toy's quick roll as a system with one kind of quick roll declares it: a pool of dice, no
    kind among its values (the push is in ``ACTIONS`` alone)."""

    FIELDS = ("pool",)
    KIND = "pool"
    REQUEST = toy.ToyRequest

    @staticmethod
    def request(mode: str, values: Any) -> toy.ToyRequest:
        return toy.ToyRequest(pool=quick_number(values, "pool", 3))


@pytest.fixture()
def no_quick_kind():
    with registered(variant("no_quick_kind", QUICK=_PoolOnly())) as system:
        yield system


def test_the_push_of_a_system_whose_quick_roll_names_no_kind_is_rolled_on_the_cli(
    no_quick_kind, monkeypatch, capsys
):
    rolled = run_here(monkeypatch, capsys, "roll", no_quick_kind, "--kind", "push", "--pool", "3", "--json")
    assert rolled.returncode == 0, rolled.stderr
    receipt = json.loads(rolled.stdout)
    assert receipt["success_at"] == toy.PUSH_AT and len(receipt["faces"]) == 3  # a push's receipt (Toy-2)
    assert receipt["successes"] == sum(1 for face in receipt["faces"] if face >= toy.PUSH_AT)
    # the quick roll is the default kind: a pool's receipt, its own default pool
    plain = run_here(monkeypatch, capsys, "roll", no_quick_kind, "--json")
    assert plain.returncode == 0, plain.stderr
    assert "success_at" not in json.loads(plain.stdout) and len(json.loads(plain.stdout)["faces"]) == 3
    shown = run_here(monkeypatch, capsys, "roll", no_quick_kind, "--kind", "push", "--pool", "2")
    assert shown.returncode == 0 and "Pool 2" in shown.stdout, shown.stdout + shown.stderr


def test_the_push_odds_on_the_cli_are_the_apis(make_table, no_quick_kind, monkeypatch, capsys):
    """``rollbook odds toy --kind push --pool 3`` answers what ``POST …/odds`` answers for a push of a
    trait rated 3: the same request, the same odds (1 - (1/2)^3)."""
    table = make_table(no_quick_kind)
    player = table.join("Pat")
    character = table.character(player, {"system": no_quick_kind, **MIGHT})["id"]
    api = table.client.post(
        f"{table.base}/characters/{character}/odds",
        headers=player,
        json={"action": {"kind": "push", "trait": "might"}},
    )
    assert api.status_code == 200, api.text
    odds = run_here(monkeypatch, capsys, "odds", no_quick_kind, "--kind", "push", "--pool", "3", "--json")
    assert odds.returncode == 0, odds.stderr
    answered = json.loads(odds.stdout)
    assert answered["request"] == api.json()["request"] == {"pool": 3}
    assert answered["outcomes"] == api.json()["odds"]["outcomes"] == {"success": "7/8", "failure": "1/8"}
    assert Fraction(answered["outcomes"]["failure"]) == Fraction(1, 2) ** 3
    pool = run_here(monkeypatch, capsys, "odds", no_quick_kind, "--pool", "3", "--json")  # the quick roll's
    assert json.loads(pool.stdout)["outcomes"]["failure"] == "8/27", pool.stdout + pool.stderr


@pytest.mark.parametrize(
    "given",
    [
        ("--kind", "shove", "--pool", "3"),  # no such kind
        ("--kind", "push", "--pool", "three"),  # a pool is a number (its model's type)
        ("--kind", "push", "--pool", "3", "--hunger", "2"),  # no such value of a toy roll
        ("--kind", "push", "--pool", "3", "--pool-size", "2"),
    ],
)
@pytest.mark.parametrize("command", ["roll", "odds"])
def test_a_bad_kind_or_value_is_one_line_and_status_2(no_quick_kind, command, given, monkeypatch, capsys):
    refused = run_here(monkeypatch, capsys, command, no_quick_kind, *given)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert refused.stderr.startswith("rollbook: ") and refused.stderr.count("\n") == 1, refused.stderr


def test_a_push_out_of_the_rules_bounds_is_one_line_and_status_2(no_quick_kind, monkeypatch, capsys):
    refused = run_here(monkeypatch, capsys, "roll", no_quick_kind, "--kind", "push", "--pool", "0")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr  # Toy-1: 1 to 30


def test_the_options_are_described_in_the_readers_language(no_quick_kind, monkeypatch, capsys):
    """``--kind`` names each kind in the system's words (``WORDS.KINDS``) under the web tabs' "Kind of
    roll", a value by the web form's label of its field, in the language of ``--lang``."""
    english = run_here(monkeypatch, capsys, "roll", no_quick_kind, "--help")
    assert english.returncode == 0, english.stderr
    flat = " ".join(english.stdout.split())
    assert "--kind" in flat and "Kind of roll: pool (Dice), push (Push)" in flat, flat
    french = run_here(monkeypatch, capsys, "roll", no_quick_kind, "--help", "--lang", "fr")
    flat = " ".join(french.stdout.split())
    assert "Type de jet : pool (Dés)" in flat and "Réserve" in flat, flat
    # ``rollbook odds`` takes no --lang: the environment's language
    odds = run_here(monkeypatch, capsys, "odds", no_quick_kind, "--help", env={"ROLLBOOK_LANG": "es"})
    flat = " ".join(odds.stdout.split())
    assert "Tipo de tirada" in flat and "Reserva" in flat, flat


@dataclass(frozen=True)
class AimRequest:
    """A third kind's rules request (the toy's rules read its pool): where the shot goes, how steady."""

    pool: int
    target: str
    steady: int = 1


class AimAction(Model):
    kind: Literal["aim"]
    trait: str
    target: Literal["near", "far"] = "near"
    steady: int = Field(1, ge=1, le=3)


@pytest.fixture()
def aimed():
    with registered(
        variant(
            "aimed",
            QUICK=_PoolOnly(),
            ACTIONS=by_kind(toy.PoolAction, toy.PushAction, AimAction),
            ROLL_RECORDS={**toy.ROLL_RECORDS, "aim": Recorded(AimRequest, toy.ToyReceipt)},
        )
    ) as system:
        yield system


def test_a_kinds_values_are_typed_by_its_action_model(aimed, monkeypatch, capsys):
    """A kind's value takes its action model's choices and bounds (``AimAction``: a target near or far,
    steady 1 to 3), a value another kind has not is refused for it, one the kind needs is asked for."""
    rolled = run_here(
        monkeypatch, capsys, "roll", aimed, "--kind", "aim", "--pool", "2", "--target", "far", "--json"
    )
    assert rolled.returncode == 0, rolled.stderr
    assert len(json.loads(rolled.stdout)["faces"]) == 2
    for given in (
        ("--kind", "aim", "--pool", "2", "--target", "middle"),  # not a choice of its model
        ("--kind", "aim", "--pool", "2", "--target", "far", "--steady", "4"),  # out of its bounds
        ("--kind", "aim", "--pool", "2"),  # its request needs a target
        ("--kind", "push", "--pool", "2", "--target", "far"),  # a push has no target
    ):
        refused = run_here(monkeypatch, capsys, "roll", aimed, *given)
        assert refused.returncode == 2, (given, refused.stdout)
        assert refused.stderr.startswith("rollbook: ") and refused.stderr.count("\n") == 1, refused.stderr
    shown = run_here(monkeypatch, capsys, "roll", aimed, "--help")
    flat = " ".join(shown.stdout.split())
    assert "near|far" in flat and "1<=x<=3" in flat, flat
