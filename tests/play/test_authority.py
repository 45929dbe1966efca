"""The table's authority in the play layer (SPEC A-1 … A-4, V20-9, V20-13, V20-18, T-3): which
fields are the Storyteller's, asks split from requests, grants composed into the rolled action,
per-turn limits and the multiple-action offers, on fixed faces."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rollbook import play
from rollbook.dice import GivenFaces
from rollbook.play import authority, turns
from rollbook.play.authority import HIDDEN

from .helpers import refused

V20_SHEET = {
    "name": "Lucita",
    "attributes": {"dexterity": 3, "wits": 2},
    "skills": {"firearms": 2},
    "virtues": {"courage": 3},
    "willpower": {"permanent": 3, "current": 3},
    "generation": 8,
}
V20_TEST = {"kind": "test", "attribute": "dexterity", "ability": "firearms"}
V5_SHEET = {"name": "Sasha", "attributes": {"dexterity": 3}, "skills": {"firearms": 3}, "hunger": 1}
RU_SHEET = {"name": "Ayla", "skills": {"climb": 12}}
RU_CHECK = {"kind": "check", "action": "climb the wall", "skill": "climb"}


# --- every field of every action is classified --------------------------------------------


@pytest.mark.parametrize("system", play.SYSTEM_IDS)
def test_A1_every_action_field_is_the_players_or_an_edge(system):
    """A field added to an action model fails here until it is classified (and is an edge meanwhile)."""
    assert authority.unclassified(system) == []


def test_A1_unclassified_fields_are_edges_fail_closed():
    assert authority.is_edge("v20", "test", "some_new_field")
    assert not authority.is_edge("v20", "test", "attribute")
    assert authority.is_edge("tiers", "skill", HIDDEN)


def _every_kind():
    return [(system, kind) for system in play.SYSTEM_IDS for kind in authority.action_models(system)]


@pytest.mark.parametrize("system, kind", _every_kind())
def test_A1_the_edges_and_the_baseline_of_every_kind_are_its_models_own(system, kind):
    """The edges and defaults of a kind are worked out from its model at each call (``_edges_of``,
    ``_defaults_of``, nothing kept between calls); they stay what the model says, field by field,
    whatever a caller does to the list it was handed."""
    model = authority.action_models(system)[kind]
    edges = [name for name in model.model_fields if authority.is_edge(system, kind, name)] + [HIDDEN]
    assert authority.edge_fields(system, kind) == edges
    expected = {HIDDEN: False}
    for name in edges[:-1]:
        info = model.model_fields[name]
        if not info.is_required():
            expected[name] = info.default_factory() if info.default_factory is not None else info.default
    first = authority.baseline(system, kind)
    assert first == expected and list(first) == [name for name in edges if name in expected]
    authority.edge_fields(system, kind).append("mine")
    assert authority.edge_fields(system, kind) == edges


def test_A1_a_baseline_handed_out_is_the_callers_own(monkeypatch):
    """No edge of today's models defaults to a list or a dict, so the deep copy of such a default
    (``baseline``) is pinned here with one made up: emptying what one caller got changes neither the
    next caller's baseline nor the model's default; a standing value is copied too."""
    made_up = (("targets", ["a", "b"]), ("weights", {"x": [1]}), ("difficulty", 6), (HIDDEN, False))
    monkeypatch.setattr(authority, "_defaults_of", lambda system, kind: made_up)
    first = authority.baseline("v20", "test")
    first["targets"].clear()
    first["weights"]["x"].append(2)
    assert authority.baseline("v20", "test") == {
        "targets": ["a", "b"],
        "weights": {"x": [1]},
        "difficulty": 6,
        HIDDEN: False,
    }
    assert made_up[0][1] == ["a", "b"] and made_up[1][1] == {"x": [1]}
    standing = {"targets": ["s"]}
    authority.baseline("v20", "test", standing)["targets"].append("t")
    assert standing == {"targets": ["s"]}


@pytest.mark.parametrize(
    "system, kind, edges",
    [
        (
            "v20",
            "test",
            {"difficulty", "required", "modifier", "auto_successes", "knowledge_allowed", HIDDEN},
        ),
        ("v20", "willpower", {"difficulty", "required", "modifier", HIDDEN}),
        (
            "v5",
            "test",
            {"difficulty", "modifier", "serves_compulsion", HIDDEN},
        ),  # seed 001: serving the compulsion
        ("v5", "frenzy", {"difficulty", HIDDEN}),
        ("tiers", "skill", {HIDDEN}),
        ("rollunder", "check", {"bonus", "malus", "advantage", "disadvantage", "task", HIDDEN}),
        ("rollunder", "opposed", {"dice", "threshold", "task", HIDDEN}),
    ],
)
def test_A1_the_storytellers_edges_by_system(system, kind, edges):
    assert set(authority.edge_fields(system, kind)) == edges


# --- split a request into the player's part and the edges asked -----------------------------


def test_A1_a_plain_request_asks_nothing():
    cut = authority.split("v20", V20_TEST)
    assert cut.asked == {} and cut.player["attribute"] == "dexterity" and "modifier" not in cut.player
    assert cut.action["difficulty"] == 6 and cut.action["modifier"] == 0


def test_A1_the_default_value_of_an_edge_is_no_ask():
    assert authority.split("v20", {**V20_TEST, "difficulty": 6, "modifier": 0}).asked == {}


def test_A1_the_issue_s_mischievous_requests_become_asks():
    cut = authority.split("v20", {**V20_TEST, "modifier": 10, "required": 3, "auto_successes": 2})
    assert cut.asked == {"modifier": 10, "required": 3, "auto_successes": 2}
    ru = authority.split("rollunder", {**RU_CHECK, "advantage": True, "bonus": 8})
    assert ru.asked == {"advantage": True, "bonus": 8}
    assert ru.player == {
        "kind": "check",
        "action": "climb the wall",
        "skill": "climb",
        "attribute": None,
        "cards": [],
    }


def test_A1_standing_values_are_the_baseline():
    base = authority.baseline("v20", "test", {"difficulty": 8, "modifier": 1, "advantage": True})
    assert base == {
        "difficulty": 8,
        "required": 1,
        "modifier": 1,
        "auto_successes": 0,
        "knowledge_allowed": False,
        HIDDEN: False,
    }  # advantage is no V20 edge: ignored
    assert authority.split("v20", V20_TEST, base).action["difficulty"] == 8
    assert authority.split("v20", {**V20_TEST, "difficulty": 8}, base).asked == {}
    assert authority.split("v20", {**V20_TEST, "difficulty": 6}, base).asked == {"difficulty": 6}


def test_A1_a_hidden_roll_is_an_edge_in_every_system():
    assert authority.split("tiers", {"kind": "skill", "skill": "melee"}, hidden=True).asked == {HIDDEN: True}


def test_A1_an_edge_without_default_must_be_asked():
    assert authority.split("v5", {"kind": "frenzy", "difficulty": 3}).asked == {"difficulty": 3}
    refused("missing_field", authority.split, "v5", {"kind": "frenzy"})
    assert authority.split("v5", {"kind": "frenzy"}, standing={"difficulty": 2}).asked == {}


def test_A1_a_request_is_validated_whole_before_it_becomes_an_ask():
    refused("out_of_range", authority.split, "v20", {**V20_TEST, "modifier": 99})
    refused("unknown_field", authority.split, "v20", {**V20_TEST, "faces": [1]})
    refused("bad_choice", authority.split, "v20", {"kind": "nope"})


# --- grants build the rolled action -----------------------------------------------------------


def roll(system, sheet, action, faces, role="storyteller"):
    return play.perform(system, sheet, action, mode="strict", role=role, source=GivenFaces(faces))


def test_A1_granted_as_asked_rolls_the_asked_edges():
    cut = authority.split("v20", {**V20_TEST, "modifier": 2})
    action, hidden = authority.compose("v20", cut.player, authority.baseline("v20", "test"), cut.asked)
    assert action == cut.action and not hidden
    receipt = roll("v20", V20_SHEET, action, [6, 6, 6, 6, 6, 6, 6]).receipt
    assert receipt["pool"]["total"] == 7 and receipt["result"]["successes"] == 7


def test_A1_granted_changed_rolls_what_was_granted_not_what_was_asked():
    """The player asks +2 dice; the Storyteller grants +1 at difficulty 7: 6 dice at 7."""
    cut = authority.split("v20", {**V20_TEST, "modifier": 2})
    action, _ = authority.compose(
        "v20", cut.player, authority.baseline("v20", "test"), {"modifier": 1, "difficulty": 7}
    )
    receipt = roll("v20", V20_SHEET, action, [7, 7, 6, 6, 6, 1]).receipt
    assert receipt["pool"]["total"] == 6 and receipt["request"]["difficulty"] == 7
    assert receipt["result"]["successes"] == 1  # two 7s, one cancelled by the 1
    assert receipt["action"] == action


def test_A1_a_grant_names_only_edges_with_their_own_ranges():
    base = authority.baseline("v20", "test")
    player = authority.split("v20", V20_TEST).player
    refused("not_an_edge", authority.compose, "v20", player, base, {"attribute": "wits"})
    refused("out_of_range", authority.compose, "v20", player, base, {"difficulty": 11})
    refused("wrong_type", authority.compose, "v20", player, base, {"modifier": "2"})


def test_A1_knowledge_leave_and_power_successes_are_granted_edges():
    sheet = {**V20_SHEET, "knowledges": {"occult": 0}}
    cut = authority.split(
        "v20",
        {
            "kind": "test",
            "attribute": "wits",
            "ability": "occult",
            "knowledge_allowed": True,
            "auto_successes": 1,
        },
    )
    assert cut.asked == {"knowledge_allowed": True, "auto_successes": 1}
    action, _ = authority.compose(
        "v20", cut.player, authority.baseline("v20", "test"), {"knowledge_allowed": True}
    )
    receipt = roll("v20", sheet, action, [7, 2]).receipt  # V20-3: untrained Knowledge at 6 + 1
    assert receipt["result"]["difficulty"] == 7 and receipt["result"]["successes"] == 1
    assert receipt["result"]["auto_successes"] == 0  # the power success was not granted


def test_A1_rollunder_advantage_and_bonus_as_granted():
    cut = authority.split("rollunder", {**RU_CHECK, "advantage": True, "bonus": 8})
    action, _ = authority.compose(
        "rollunder", cut.player, authority.baseline("rollunder", "check"), {"bonus": 2}
    )
    receipt = roll("rollunder", RU_SHEET, action, [14]).receipt  # no advantage: one d20, target 12 + 2
    assert (
        receipt["faces"] == [14]
        and receipt["result"]["target"] == 14
        and receipt["result"]["outcome"] == "success"
    )


def test_A1_a_player_may_ask_for_an_opposed_roll_the_storyteller_shapes():
    cut = authority.split(
        "rollunder", {"kind": "opposed", "action": "arm wrestle", "dice": "2d6", "threshold": 9}
    )
    assert cut.asked == {"dice": "2d6", "threshold": 9}
    action, _ = authority.compose(
        "rollunder", cut.player, authority.baseline("rollunder", "opposed"), {"dice": "3d6", "threshold": 9}
    )
    receipt = roll("rollunder", RU_SHEET, action, [3, 3, 4]).receipt
    assert receipt["result"]["total"] == 10 and receipt["result"]["outcome"] == "failure"


def test_A1_v5_extra_dice_and_difficulty():
    cut = authority.split(
        "v5", {"kind": "test", "attribute": "dexterity", "skill": "firearms", "modifier": 2, "difficulty": 2}
    )
    action, _ = authority.compose(
        "v5", cut.player, authority.baseline("v5", "test"), {"modifier": 1, "difficulty": 2}
    )
    receipt = roll("v5", V5_SHEET, action, [6, 6, 2, 2, 2, 2, 2]).receipt
    assert receipt["pool"]["total"] == 7 and receipt["result"]["successes"] == 2


def test_A1_a_grant_may_make_the_roll_hidden():
    cut = authority.split("tiers", {"kind": "dodge", "attack_tier": 2}, hidden=True)
    _, hidden = authority.compose("tiers", cut.player, authority.baseline("tiers", "dodge"), cut.asked)
    assert hidden
    _, hidden = authority.compose("tiers", cut.player, authority.baseline("tiers", "dodge"), {})
    assert not hidden


def test_A2_asked_edges_of_a_stored_action_for_the_log_check():
    base = authority.baseline("v20", "test")
    assert authority.asked_edges("v20", authority.split("v20", V20_TEST).action, base) == {}
    assert authority.asked_edges("v20", authority.split("v20", {**V20_TEST, "modifier": 3}).action, base) == {
        "modifier": 3
    }


@given(modifier=st.integers(-20, 20), difficulty=st.integers(2, 10), required=st.integers(1, 20))
def test_A1_split_then_compose_as_asked_is_the_request(modifier, difficulty, required):
    request = {**V20_TEST, "modifier": modifier, "difficulty": difficulty, "required": required}
    base = authority.baseline("v20", "test")
    cut = authority.split("v20", request, base)
    assert authority.compose("v20", cut.player, base, cut.asked) == (cut.action, False)
    assert set(cut.asked) <= {"modifier", "difficulty", "required"}
    assert authority.compose("v20", cut.player, base, {})[0] == authority.split("v20", V20_TEST, base).action


def test_A1_standing_grant_values_are_checked_against_any_action_of_the_system():
    assert authority.check_edges("rollunder", None, {"advantage": True}) == {"advantage": True}
    refused("not_an_edge", authority.check_edges, "v20", None, {"advantage": True})
    refused("out_of_range", authority.check_edges, "v20", None, {"modifier": 50})


# --- per-turn limits ------------------------------------------------------------------------


def spend(sheet, amount):
    return play.adjust("v20", sheet, {"kind": "spend_blood", "amount": amount}, role="player")


def test_V20_18_blood_per_turn_counts_every_spend_of_the_turn():
    sheet = play.new_sheet("v20", V20_SHEET)  # Generation 8: 15 blood, 3 per turn
    assert sheet["blood"]["per_turn"] == 3
    usage = turns.TurnUsage()
    first = spend(sheet, 2)
    assert turns.check_turn("v20", sheet, first.receipt, first.effects, usage, running=True) == []
    usage = usage.plus(first.receipt, first.effects)
    second = spend(first.sheet, 1)
    turns.check_turn("v20", first.sheet, second.receipt, second.effects, usage, running=True)
    usage = usage.plus(second.receipt, second.effects)
    assert usage.blood == 3
    third = spend(second.sheet, 1)
    error = refused(
        "turn_blood_exceeded",
        turns.check_turn,
        "v20",
        second.sheet,
        third.receipt,
        third.effects,
        usage,
        running=True,
    )
    assert error.params == {"amount": 1, "spent": 3, "per_turn": 3}


def test_V20_18_a_new_turn_starts_from_nothing_and_without_a_turn_each_spend_is_bounded_alone():
    sheet = play.new_sheet("v20", V20_SHEET)
    spent = spend(sheet, 3)
    assert (
        turns.check_turn("v20", sheet, spent.receipt, spent.effects, turns.TurnUsage(blood=3), running=False)
        == []
    )
    assert turns.check_turn("v20", sheet, spent.receipt, spent.effects, turns.TurnUsage(), running=True) == []


def test_V20_9_a_second_willpower_success_in_a_turn_is_a_warning_never_a_refusal():
    sheet = play.new_sheet("v20", V20_SHEET)
    rolled = roll("v20", sheet, {**V20_TEST, "willpower": True}, [2, 2, 2, 2, 2], role="player")
    assert rolled.receipt["result"]["successes"] == 1  # V20-9: the success is on the receipt
    assert (
        turns.check_turn("v20", sheet, rolled.receipt, rolled.effects, turns.TurnUsage(), running=True) == []
    )
    warned = turns.check_turn(
        "v20", sheet, rolled.receipt, rolled.effects, turns.TurnUsage(willpower_successes=1), running=True
    )
    assert warned == [{"code": "willpower_per_turn", "count": 2, "limit": 1}]
    assert (
        turns.check_turn(
            "v20",
            sheet,
            rolled.receipt,
            rolled.effects,
            turns.TurnUsage(willpower_successes=1),
            running=False,
        )
        == []
    )


def test_V20_9_the_sheet_states_the_willpower_limit_and_blood_per_turn():
    sheet = play.new_sheet("v20", V20_SHEET)
    assert turns.sheet_limits("v20", sheet) == {"willpower_successes_per_turn": 1, "blood_per_turn": 3}


def test_T3_a_new_turn_clears_a_reload_and_only_the_storyteller_moves_a_running_turn():
    sheet = play.new_sheet(
        "tiers",
        {
            "name": "Kay",
            "skills": {"firearms": 5},
            "weapons": [{"name": "gun", "capacity": 6, "loaded": 0, "spare": 12}],
        },
    )
    reloaded = play.adjust("tiers", sheet, {"kind": "reload", "weapon": "gun"}, role="player").sheet
    assert reloaded["turn_spent"] and turns.new_turn_change("tiers", reloaded) == {"kind": "new_turn"}
    assert turns.new_turn_change("tiers", sheet) is None
    refused("turn_runs", turns.check_change, "tiers", {"kind": "new_turn"}, "player", running=True)
    turns.check_change("tiers", {"kind": "new_turn"}, "player", running=False)
    turns.check_change("tiers", {"kind": "new_turn"}, "storyteller", running=True)


# --- multiple actions ------------------------------------------------------------------------


def test_A4_V20_13_offers_raised_difficulty_and_split_pool():
    preview = play.preview("v20", V20_SHEET, V20_TEST, mode="strict", role="player")  # 5 dice
    offers = turns.multiple_actions("v20", "test", preview["pool"], difficulty=6, required=1, actions=2)
    assert [(o["difficulty"], o["required"], o["dice"], o["modifier"]) for o in offers] == [
        (7, 1, 3, -2),
        (7, 1, 2, -3),
    ]
    offers = turns.multiple_actions("v20", "test", preview["pool"], difficulty=9, required=1, actions=3)
    assert [(o["difficulty"], o["required"], o["dice"]) for o in offers] == [
        (10, 2, 2),
        (10, 2, 2),
        (10, 2, 1),
    ]


def test_A4_an_offer_is_rolled_only_as_a_granted_action():
    preview = play.preview("v20", V20_SHEET, V20_TEST, mode="strict", role="player")
    offer = turns.multiple_actions("v20", "test", preview["pool"], difficulty=6, required=1, actions=2)[1]
    cut = authority.split(
        "v20", {**V20_TEST, "difficulty": offer["difficulty"], "modifier": offer["modifier"]}
    )
    assert cut.asked == {"difficulty": 7, "modifier": -3}  # the Storyteller confirms it like any edge
    action, _ = authority.compose("v20", cut.player, authority.baseline("v20", "test"), cut.asked)
    receipt = roll("v20", V20_SHEET, action, [7, 6]).receipt
    assert receipt["pool"]["total"] == 2 and receipt["result"]["successes"] == 1


def test_A4_only_v20_has_the_multiple_action_helper():
    # each system's turn rules say which of its rolls split (V20-13): V20's three, none of another's
    assert dict(turns.MULTIPLE_ACTION_KINDS) == {"v20": ("test", "willpower", "virtue")}
    assert "tiers" not in turns.MULTIPLE_ACTION_KINDS and "v20" in turns.MULTIPLE_ACTION_KINDS
    for system, kind in (("tiers", "skill"), ("v20", "damage")):
        refused(
            "no_multiple_actions",
            turns.multiple_actions,
            system,
            kind,
            {"parts": []},
            difficulty=6,
            required=1,
            actions=2,
        )
    refused(
        "no_multiple_actions",
        turns.multiple_actions,
        "v5",
        "test",
        {"parts": []},
        difficulty=1,
        required=1,
        actions=2,
    )
