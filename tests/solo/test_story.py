"""The engine as Storyteller, pure (SPEC S-2, S-3, S-5): the steps of ``rollbook.solo.story`` and
``rollbook.solo.fight`` performed by the play layer with fixed faces (``tests/solo/driver.py``)."""

from __future__ import annotations

import pytest

from rollbook.rules.base import RuleError
from rollbook.solo import story
from rollbook.solo.fight import down
from rollbook.solo.steps import PLAYER
from tests.solo.dice import ScriptDice
from tests.solo.driver import Chronicle, scenario_of, tiny_data

TEXT = {"fr": "a", "es": "b", "en": "c"}


def tiny(**changes) -> Chronicle:
    data = tiny_data()
    for name, passage in changes.items():
        data["passages"][name] = passage
    return Chronicle(scenario_of(data), ScriptDice())


def test_the_start_passage_is_reached_and_replayed_from_the_log_s5():
    chronicle = tiny()
    assert chronicle.state.passage == "alley" and not chronicle.state.finished
    assert chronicle.options() == ["choice:0", "choice:1"]
    assert [entry["kind"] for entry in chronicle.entries] == ["solo_start", "solo_passage"]


def test_a_check_takes_its_difficulty_from_the_scenario_and_leads_by_result_s2():
    chronicle = tiny()
    chronicle.act("choice:0")
    assert chronicle.state.passage == "lie" and chronicle.options() == ["roll", "roll_wp"]
    chronicle.dice.push(8)  # 5 dice (Manipulation 3 + Subterfuge 2) at difficulty 7: 5 successes
    chronicle.act("roll")
    roll = chronicle.rolls()[-1]
    assert roll["receipt"]["request"]["difficulty"] == 7  # the scenario's, the player added none
    assert roll["receipt"]["solo"] == {"passage": "lie", "role": "check"}
    assert roll["refers_to"] == chronicle.state.last_choice
    assert (
        chronicle.state.passage == "home" and chronicle.state.ending == "good" and chronicle.options() == []
    )


@pytest.mark.parametrize(
    "face,outcome,goto", [(1, "botch", "gutter_b"), (3, "failure", "gutter_f"), (7, "success", "home")]
)
def test_each_result_of_a_check_has_its_passage_s2(face, outcome, goto):
    outcomes = {"botch": "gutter_b", "failure": "gutter_f", "success": "home", "success_3": "best"}
    ending = {"text": TEXT, "ending": {"kind": "dark"}}
    chronicle = tiny(
        lie={
            "text": TEXT,
            "check": {"traits": ["manipulation", "subterfuge"], "difficulty": 7, "outcomes": outcomes},
        },
        gutter_b=ending,
        gutter_f=ending,
        best=ending,
    )
    chronicle.act("choice:0")
    chronicle.dice.push(face, face)  # the faces alike: 5 dice, each a 7 is 5 successes → success_3
    chronicle.act("roll")
    assert chronicle.rolls()[-1]["receipt"]["result"]["outcome"] == outcome
    assert chronicle.state.passage == ("best" if face == 7 else goto)


def test_success_by_degree_takes_the_highest_degree_reached_s2():
    chronicle = tiny(
        lie={
            "text": TEXT,
            "check": {
                "traits": ["manipulation"],
                "difficulty": 6,
                "outcomes": {
                    "botch": "gutter",
                    "failure": "gutter",
                    "success": "gutter",
                    "success_3": "home",
                },
            },
        }
    )
    chronicle.act("choice:0")
    chronicle.dice.push(9)  # Manipulation 3: three successes
    chronicle.act("roll")
    assert chronicle.state.passage == "home"


def test_willpower_on_a_check_is_the_players_and_spent_v20_9():
    chronicle = tiny()
    chronicle.act("choice:0")
    chronicle.dice.push(1)  # five 1s: a botch, but the Willpower success blocks it (V20-11)
    chronicle.act("roll_wp")
    receipt = chronicle.rolls()[-1]["receipt"]
    assert receipt["result"]["outcome"] == "success" and receipt["result"]["auto_successes"] == 1
    assert chronicle.sheets[PLAYER]["willpower"]["current"] == 2
    assert chronicle.state.passage == "home"


def test_a_choice_offered_only_by_its_flags_and_willpower_costs():
    data = tiny_data()
    data["passages"]["alley"]["choices"] += [
        {"text": TEXT, "goto": "home", "requires_flag": "knows"},
        {"text": TEXT, "goto": "home", "willpower_cost": 4},
        {"text": TEXT, "goto": "home", "willpower_cost": 1, "sets_flag": "brave"},
        {"text": TEXT, "goto": "lie", "unless_flag": "knows"},
    ]
    chronicle = Chronicle(scenario_of(data))
    assert chronicle.options() == ["choice:0", "choice:1", "choice:4", "choice:5"]  # Willpower 3: not 4
    chronicle.act("choice:4")
    assert chronicle.sheets[PLAYER]["willpower"]["current"] == 2
    assert chronicle.entries[-2]["kind"] == "adjust" and "brave" in chronicle.state.flags


def test_an_option_not_offered_is_refused():
    chronicle = tiny()
    with pytest.raises(RuleError) as refused:
        chronicle.act("choice:7")
    assert refused.value.code == "solo_choice_unknown"
    chronicle.act("choice:0")
    with pytest.raises(RuleError):
        chronicle.act("choice:0")  # a check offers rolls, not choices


def test_a_check_the_players_sheet_cannot_roll_is_forgone_as_a_failure():
    chronicle = tiny(
        lie={
            "text": TEXT,
            "check": {
                "traits": ["manipulation", "dominate"],
                "difficulty": 7,
                "outcomes": {"botch": "brawl", "failure": "gutter", "success": "home"},
            },
        }
    )
    chronicle.act("choice:0")
    assert chronicle.options() == ["forgo"]
    chronicle.act("forgo")
    assert chronicle.state.passage == "gutter" and chronicle.rolls() == []


def test_an_extended_action_adds_up_and_ends_by_its_target_or_its_rolls_tr4():
    chase = {
        "text": TEXT,
        "extended": {
            "traits": ["dexterity", "athletics"],
            "difficulty": 6,
            "target": 6,
            "max_rolls": 3,
            "success": "home",
            "failure": "gutter",
        },
    }
    chronicle = tiny(lie=chase)
    chronicle.act("choice:0")
    chronicle.dice.push(7, 7)  # 5 dice: 5 successes, then 5 more: 10 ≥ 6
    chronicle.act("roll")
    assert chronicle.state.passage == "lie" and len(chronicle.state.extended) == 1
    assert story.extended_progress(chronicle.scenario, chronicle.state)["total"] == 5
    chronicle.act("roll")
    assert chronicle.state.passage == "home"
    slow = tiny(lie=chase)
    slow.act("choice:0")
    slow.dice.push(3, 3, 3)
    for _ in range(3):
        slow.act("roll")
    assert slow.state.passage == "gutter"


def test_a_fight_won_with_the_chain_attack_damage_soak_s3():
    chronicle = tiny()
    chronicle.act("choice:1")
    assert chronicle.state.passage == "brawl"
    assert chronicle.options() == ["attack:0:thug", "attack_wp:0:thug", "dodge"]
    chronicle.dice.default = 10
    first = len(chronicle.entries)
    chronicle.act(
        "attack:0:thug"
    )  # 6 successes; a punch: Strength 3 + 5 = 8 bashing; the thug soaks 2 (Stamina)
    kinds = [(entry["kind"], entry["receipt"].get("kind")) for entry in chronicle.entries[first : first + 4]]
    assert kinds == [("solo_choice", None), ("roll", "test"), ("roll", "damage"), ("roll", "soak")]
    soak = chronicle.entries[first + 3]
    assert (
        soak["character"] == chronicle.ids["thug"] and soak["refers_to"] == soak["seq"] - 1
    )  # V20-17: the chain
    assert sum(chronicle.sheets["thug"]["health"].values()) == 6 and chronicle.entries[-1]["kind"] == "turn"
    turns = 1
    while chronicle.state.passage == "brawl" and turns < 6:
        chronicle.act("attack:0:thug")
        turns += 1
    assert [entry["kind"] for entry in chronicle.entries[-2:]] == ["scene_close", "solo_passage"]
    assert down("v20", chronicle.sheets["thug"]) and chronicle.state.passage == "home"


def test_a_fight_lost_npc_attack_damage_and_the_players_soak_s3():
    chronicle = tiny()
    chronicle.act("choice:1")
    chronicle.dice.push(1, 10, 10, 1)  # the player botches; the thug hits: 2 + 3 dice of damage, none soaked
    chronicle.dice.default = 10
    turns = 0
    while chronicle.state.passage == "brawl" and turns < 5:
        chronicle.dice.push(1)
        chronicle.act("attack:0:thug")
        turns += 1
    assert chronicle.state.passage == "gutter" and chronicle.state.ending == "dark"
    assert down("v20", chronicle.sheets[PLAYER])
    soaks = [entry for entry in chronicle.rolls() if entry["receipt"]["kind"] == "soak"]
    assert soaks and all(entry["character"] == chronicle.ids[PLAYER] for entry in soaks)


def test_wound_penalties_reduce_the_next_pool_v20_16():
    chronicle = tiny()
    chronicle.act("choice:1")
    chronicle.dice.push(
        1, 10, 6, 6
    )  # a botch; the thug's 4 successes: 2 + 3 dice of damage, 5 levels; 3 soaked
    chronicle.act("attack:0:thug")
    damage = sum(chronicle.sheets[PLAYER]["health"].values())
    assert damage == 2
    chronicle.dice.push(10, 1)  # the thug hits again; the player's dodge (V20-20) follows it
    chronicle.act("dodge")
    dodge = [entry for entry in chronicle.rolls() if entry["receipt"]["kind"] == "dodge"][-1]
    assert dodge["receipt"]["pool"]["wound_penalty"] == -1  # Hurt at 2 levels (V20-16)


def test_V20_20_a_solo_dodge_follows_each_attack_and_takes_its_successes():
    chronicle = tiny()
    chronicle.act("choice:1")
    chronicle.dice.push(10, 10)  # the thug's 4 dice: 4 successes; the dodge's 5 dice: 5 successes
    first = len(chronicle.entries)
    chronicle.act("dodge")
    rolls = [entry for entry in chronicle.entries[first:] if entry["kind"] == "roll"]
    attack, dodge = rolls  # no damage follows: every success was dodged
    assert attack["character"] == chronicle.ids["thug"] and attack["receipt"]["result"]["successes"] == 4
    assert dodge["character"] == chronicle.ids[PLAYER] and dodge["refers_to"] == attack["seq"]
    assert dodge["receipt"]["kind"] == "dodge" and dodge["receipt"]["attack"]["left"] == 0
    assert chronicle.entries[-1]["kind"] == "turn" and chronicle.state.turns == 1
    assert sum(chronicle.sheets[PLAYER]["health"].values()) == 0


def test_V20_20_a_solo_dodge_that_leaves_successes_is_followed_by_damage_with_those_left():
    chronicle = tiny()
    chronicle.act("choice:1")
    chronicle.dice.push(10, 1, 6, 1)  # the thug's 4 successes; the dodge botches (none taken); damage; soak
    first = len(chronicle.entries)
    chronicle.act("dodge")
    rolls = [entry for entry in chronicle.entries[first:] if entry["kind"] == "roll"]
    assert [entry["receipt"]["kind"] for entry in rolls] == ["test", "dodge", "damage", "soak"]
    attack, dodge, damage, _soak = rolls
    assert dodge["receipt"]["attack"]["left"] == 4 and damage["refers_to"] == dodge["seq"]
    extra = [m for m in damage["receipt"]["pool"]["modifiers"] if m["source"] == "attack_successes"]
    assert extra == [{"source": "attack_successes", "dice": 3, "successes": 4}]  # V20-17: beyond the first


def test_healing_with_blood_is_offered_when_hurt_v20_16():
    chronicle = tiny()
    chronicle.act("choice:1")
    assert "heal" not in chronicle.options()
    chronicle.dice.push(1, 10, 10, 1)
    chronicle.act("attack:0:thug")
    assert "heal" in chronicle.options()
    before = chronicle.sheets[PLAYER]["blood"]["current"]
    heal = next(
        o for o in story.options(chronicle.scenario, chronicle.state, chronicle.sheets) if o["id"] == "heal"
    )
    assert heal["amount"] <= chronicle.sheets[PLAYER]["blood"]["per_turn"]  # V20-18
    chronicle.dice.push(1)
    chronicle.act("heal")
    assert chronicle.sheets[PLAYER]["blood"]["current"] == before - heal["amount"]


def test_flee_leaves_the_fight():
    data = tiny_data()
    data["passages"]["brawl"]["fight"]["flee"] = "home"
    chronicle = Chronicle(scenario_of(data))
    chronicle.act("choice:1")
    assert chronicle.options()[-1] == "flee"
    chronicle.act("flee")
    assert chronicle.state.passage == "home" and chronicle.entries[-2]["kind"] == "scene_close"


def test_the_story_ended_refuses_any_choice():
    chronicle = tiny()
    chronicle.act("choice:0")
    chronicle.dice.push(8)
    chronicle.act("roll")
    with pytest.raises(RuleError) as refused:
        chronicle.act("roll")
    assert refused.value.code == "solo_finished"


def test_a_fight_whose_npcs_are_down_already_is_won_on_arrival_s3():
    data = tiny_data()
    data["npcs"]["thug"]["sheet"]["health"] = {"lethal": 7}
    chronicle = Chronicle(scenario_of(data))
    chronicle.act("choice:1")
    assert chronicle.state.passage == "home"
    assert [e["receipt"]["passage"] for e in chronicle.entries if e["kind"] == "solo_passage"] == [
        "alley",
        "brawl",
        "home",
    ]


def test_the_replay_reads_only_the_current_extended_actions_rolls_s5():
    chase = {
        "text": TEXT,
        "extended": {
            "traits": ["dexterity", "athletics"],
            "difficulty": 6,
            "target": 20,
            "max_rolls": 5,
            "success": "home",
            "failure": "gutter",
        },
    }
    chronicle = tiny(lie=chase)
    chronicle.act("choice:0")
    chronicle.dice.push(7)
    chronicle.act("roll")
    replayed = story.replay(chronicle.entries)
    assert replayed.extended[0]["successes"] == 5 and replayed.passage == "lie"
    assert story.replay(chronicle.entries[:-1]).extended == ()  # before the roll: nothing added up


def test_V20_21_potence_reaches_a_solo_fights_damage_roll():
    data = tiny_data()
    data["pregenerated"]["disciplines"] = {"potence": 2}
    chronicle = Chronicle(scenario_of(data), ScriptDice())
    chronicle.act("choice:1")
    chronicle.dice.default = 10
    first = len(chronicle.entries)
    chronicle.act("attack:0:thug")  # a Brawl attack: its damage adds Potence's automatic levels
    damage = next(e for e in chronicle.entries[first:] if e["receipt"].get("kind") == "damage")
    assert damage["receipt"]["request"]["potence"] == 2
    assert damage["receipt"]["result"]["auto_sources"] == {"potence": 2}
    assert damage["receipt"]["result"]["levels"] == damage["receipt"]["pool"]["total"] + 2
