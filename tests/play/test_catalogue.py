"""The action catalogue (SPEC A-1, A-2): every action of every system declared once, its fields split
between the player and the Storyteller exactly as ``play.authority`` classifies them, and its worked
example made by its system's example character (after the steps it follows in the combat chain)."""

from __future__ import annotations

import pytest

from rollbook import play
from rollbook.dice import SeededDice
from rollbook.play import authority, catalogue, quick
from rollbook.play.systems import SYSTEM_IDS, system_module


def test_A1_every_action_and_follow_up_of_every_system_is_declared_once():
    ids = [action.id for action in catalogue.ACTIONS]
    assert len(ids) == len(set(ids))
    for system in SYSTEM_IDS:
        module = system_module(system)
        assert {a.kind for a in catalogue.of(system, "roll")} == set(module.ACTIONS)
        assert {a.kind for a in catalogue.of(system, "followup")} == set(module.FOLLOWUPS)
        assert [a.kind for a in catalogue.of(system, "quick")] == [quick.QUICK_KINDS[system]]
        for kind in catalogue.CONTEST_KINDS.get(system, ()):
            assert catalogue.find(system, kind, "contest_side").model is module.ACTIONS[kind]
            assert catalogue.find(system, kind, "extended_step").model is module.ACTIONS[kind]


@pytest.mark.parametrize("action", catalogue.of_way("roll"), ids=lambda a: a.id)
def test_A1_a_rolls_fields_are_the_players_or_edges_and_hidden_is_an_edge(action):
    assert action.model is not None
    fields = set(action.model.model_fields)
    assert action.player | (set(action.edges) - {authority.HIDDEN}) == fields
    assert not action.player & set(action.edges)
    assert action.edges[-1] == authority.HIDDEN
    assert list(action.edges) == authority.edge_fields(action.system, action.kind)


@pytest.mark.parametrize("action", catalogue.of_way("quick"), ids=lambda a: a.id)
def test_A1_a_quick_rolls_edges_are_its_actions_edges(action):
    for name in action.edges[:-1]:
        assert authority.is_edge(action.system, action.kind, name)
    assert set(action.player) | set(action.edges[:-1]) == set(quick.QUICK_FIELDS[action.system])


def test_A1_an_unknown_kind_is_the_play_layers_refusal():
    with pytest.raises(play.RuleError) as refused:
        catalogue.find("v5", "fly")
    assert refused.value.code == "bad_choice" and "power" in refused.value.params["choices"]


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_every_example_is_made_by_its_systems_character(system):
    """Each example at its baseline (the V5 frenzy's difficulty, a soak's damage, a Tiers soak's
    location: what only the Storyteller gives, given here as a grant would), after the steps it follows."""
    sheet = catalogue.EXAMPLE_SHEETS[system]
    receipts: dict[str, dict] = {}
    granted = {"difficulty": 3, "damage": 3, "damage_type": "lethal", "attack_tier": 2, "location": "torso"}
    for action in catalogue.of(system, "roll"):
        role = "storyteller" if action.storyteller_only else "player"
        edges = {k: v for k, v in granted.items() if k in action.edges and k not in ("damage", "damage_type")}
        if action.follows:
            edges = {k: v for k, v in edges.items() if k == "location"}
        elif action.kind == "soak":
            edges = {k: v for k, v in granted.items() if k in action.edges}
        player = {k: v for k, v in action.example.items() if k not in action.edges}
        request = (
            dict(action.example)
            if action.storyteller_only
            else authority.compose(system, player, {}, edges)[0]
        )
        follows = receipts.get(action.follows[-1]) if action.follows else None
        done = play.perform(
            system, sheet, request, mode="strict", role=role, source=SeededDice(7), follows=follows
        )
        receipts[action.kind] = done.receipt


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_A1_decide_asks_what_a_player_moves_off_the_baseline_and_nothing_of_the_storyteller(system):
    for action in catalogue.of(system, "roll"):
        if action.storyteller_only:
            continue
        base = authority.baseline(system, action.kind, {"difficulty": 3})  # a frenzy's has no default
        player = {k: v for k, v in action.example.items() if k not in action.edges}
        decision = catalogue.decide(system, player, base, role="player", hidden=True)
        assert decision.asked.get(authority.HIDDEN) is True
        assert catalogue.decide(system, player, base, role="storyteller", hidden=True).asked == {}
