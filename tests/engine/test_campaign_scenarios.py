"""The rulebook's scenarios and the underdog table as data: the file against its schema, the
table, names, each scenario's awards and the underdog bands, against exact values."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import jsonschema
import pytest

from engine.campaign.model import Battle, BattleResult, Role
from engine.campaign.rules import scenarios
from engine.campaign.rules.battle_awards import battle_extra_experience
from engine.campaign.rules.scenarios import (
    COMMON_AWARDS, SCENARIO_DATA, WarriorOutcome, awards_for, battle_scenario, build_book, roll, scenario_book,
    scenario_by_name, scenario_only_experience, scenarios_like, table_dice,
)
from engine.campaign.rules.underdog import underdog_experience, underdog_for_battle
from engine.dice.source import Dice
from engine.editions import RULES_DATA
from engine.errors import MordheimError, NotFoundError

SCHEMA = json.loads((RULES_DATA / "schema" / "scenarios.schema.json").read_text(encoding="utf-8"))
DATA = json.loads(SCENARIO_DATA.read_text(encoding="utf-8"))


# ------------------------------------------------------------------ the file
def test_the_schema_is_valid_and_the_file_matches_it():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in jsonschema.Draft202012Validator(SCHEMA).iter_errors(DATA)]
    assert errors == []


def test_the_schema_catches_a_misspelt_fact_and_a_row_that_is_neither_scenario_nor_choice():
    bad = copy.deepcopy(DATA)
    bad["scenarios"][0]["awards"][0]["fact"] = "survivd"
    bad["scenario_table"]["rows"][0] = {"from": 2, "to": 2}
    messages = [e.message for e in jsonschema.Draft202012Validator(SCHEMA).iter_errors(bad)]
    assert any("'survivd' is not one of" in m for m in messages)
    assert any("is not valid under any of the given schemas" in m for m in messages)


def test_every_figure_names_its_source_and_every_choice_is_recorded():
    assert all("transcription" in s["source"] or "bundled data" in s["source"] for s in DATA["scenarios"])
    assert "000:84-85" in DATA["source"]
    assert DATA["discrepancies"] and DATA["left_out"]


def test_a_table_row_naming_no_scenario_or_a_gap_stops_the_load_naming_both():
    bad = copy.deepcopy(DATA)
    bad["scenario_table"]["rows"][1]["scenario"] = "street-fite"
    del bad["scenario_table"]["rows"][-1]
    with pytest.raises(ValueError) as raised:
        build_book(bad)
    assert "names no scenario: 'street-fite'" in str(raised.value)
    assert "every 2D6 total from 2 to 12 exactly once" in str(raised.value)


def test_underdog_bands_with_a_hole_stop_the_load():
    bad = copy.deepcopy(DATA)
    bad["underdog"]["rows"][2]["from"] = 77
    with pytest.raises(ValueError, match="a band starts at 77, not 76"):
        build_book(bad)


# ------------------------------------------------------------------ the table
def test_the_table_is_the_rulebooks():
    book = scenario_book()
    by_total = {total: book.row(total).scenario for total in range(2, 13)}
    assert {t: (s.name if s else "choose") for t, s in by_total.items()} == {
        2: "choose", 3: "Street Fight", 4: "Hidden Treasure", 5: "Wyrdstone Hunt", 6: "Occupy", 7: "Skirmish",
        8: "Breakthrough", 9: "Surprise Attack", 10: "Chance Encounter", 11: "Defend the Find", 12: "choose"}
    assert [s.number for s in book.scenarios] == list(range(1, 10))
    assert Counter(s.id for s in by_total.values() if s) == Counter({s.id: 1 for s in book.scenarios})


def test_dice_typed_at_the_table_give_the_row_and_are_shown():
    rolled = roll(table_dice("3 4", random.Random(0)))
    assert (rolled.total, rolled.scenario.name, rolled.roll.faces, rolled.roll.entered) == (7, "Skirmish", (3, 4), True)
    assert str(rolled.roll) == "Scenario table: 2D6 3+4 = 7 (entered)"
    assert roll(Dice(None, (1, 1))).scenario is None  # 2: the lower-rated player chooses
    assert roll(Dice(None, (6, 6))).row.summary.startswith("The player whose warband has the lower rating")


def test_the_bot_rolls_with_the_seeded_source():
    rng = random.Random(7)
    expected = (int(rng.random() * 6) + 1, int(rng.random() * 6) + 1)
    rolled = roll(table_dice(None, random.Random(7)))
    assert rolled.roll.faces == expected and not rolled.roll.entered


def test_every_total_comes_up_as_often_as_2d6_give_it():
    counts = Counter(a + b for a in range(1, 7) for b in range(1, 7))
    seen = Counter(roll(Dice(None, (a, b))).total for a in range(1, 7) for b in range(1, 7))
    assert seen == counts


@pytest.mark.parametrize("typed, why", [("3", "you typed 1 dice"), ("3 4 5", "you typed 3 dice"), ("3 x", "'x' is not a die roll"),
                                        ("7 1", "7 cannot be rolled on a D6")])
def test_wrong_dice_are_refused_saying_what_to_type(typed, why):
    with pytest.raises(MordheimError, match=why):
        roll(table_dice(typed, random.Random(0)))


# ------------------------------------------------------------------ names
@pytest.mark.parametrize("typed, name", [("Wyrdstone Hunt", "Wyrdstone Hunt"), ("wyrdstone-hunt", "Wyrdstone Hunt"),
                                         ("scenario 7", "Hidden Treasure"), ("wyrdstone hnut", "Wyrdstone Hunt"),
                                         ("Surprize Attak", "Surprise Attack"), ("defend teh find", "Defend the Find"),
                                         ("  STREET fight ", "Street Fight"), ("treasure", "Hidden Treasure")])
def test_a_scenario_is_found_by_name_alias_number_or_a_misspelling(typed, name):
    assert scenario_by_name(typed).name == name


def test_a_weak_match_names_the_closest_instead_of_guessing():
    with pytest.raises(NotFoundError) as raised:
        scenario_by_name("street hunt")
    assert set(raised.value.suggestions[:2]) == {"Street Fight", "Wyrdstone Hunt"}
    with pytest.raises(NotFoundError, match="Its scenarios: `Defend the Find`"):
        scenario_by_name("zzzz")


def test_autocomplete_offers_starting_then_containing_then_close_names():
    assert [s.name for s in scenarios_like("")][:3] == ["Defend the Find", "Skirmish", "Wyrdstone Hunt"]
    assert [s.name for s in scenarios_like("s")][:3] == ["Skirmish", "Street Fight", "Surprise Attack"]
    assert [s.name for s in scenarios_like("hunt")] == ["Wyrdstone Hunt"]
    assert [s.name for s in scenarios_like("ocupy")] == ["Occupy"]


def test_a_battles_scenario_is_a_rulebook_one_by_id_or_custom():
    assert battle_scenario("wyrdstone hunt") == scenarios.BattleScenario(name="Wyrdstone Hunt", scenario_id="wyrdstone-hunt")
    custom = battle_scenario("Bridge of Sighs")
    assert (custom.name, custom.scenario_id, custom.custom) == ("Bridge of Sighs", None, True)
    assert battle_scenario("custom: Wyrdstone Hunt 2") == scenarios.BattleScenario(name="Wyrdstone Hunt 2", scenario_id=None)
    assert battle_scenario("") == scenarios.BattleScenario(name="", scenario_id=None)


def test_a_near_miss_of_a_rulebook_name_is_refused_saying_both_fixes():
    with pytest.raises(MordheimError) as raised:
        battle_scenario("Wyrdston Hunt")
    assert "close to the rulebook's scenario `Wyrdstone Hunt`" in str(raised.value)
    assert "`custom: Wyrdston Hunt`" in str(raised.value)
    with pytest.raises(MordheimError, match="after `custom:`"):
        battle_scenario("custom:  ")


# ------------------------------------------------------------------ awards
def gained(name, outcome):
    return [(a.award, a.amount) for a in awards_for(scenario_by_name(name), outcome)]


def test_the_common_awards_of_every_scenario():
    for s in scenario_book().scenarios:
        ids = [a.id for a in s.awards]
        assert ids[:3] == ["survives", "winning-leader", "enemy-out-of-action"], s.id
        assert {a.id: a.amount for a in s.awards if a.id in COMMON_AWARDS} == {
            "survives": 1, "winning-leader": 1, "enemy-out-of-action": 1}, s.id


def test_a_winning_leader_who_took_two_enemies_out():
    leader = WarriorOutcome(role=Role.LEADER, warband_won=True, enemies_out_of_action=2)
    assert gained("Skirmish", leader) == [("survives", 1), ("winning-leader", 1), ("enemy-out-of-action", 2)]
    assert str(awards_for(scenario_by_name("Skirmish"), leader)[2]) == "+2 Per enemy out of action ×2"


def test_wyrdstone_hunt_counts_each_counter_for_heroes_henchmen_and_hired_swords():
    hero = WarriorOutcome(role=Role.HERO, wyrdstone_counters=2, enemies_out_of_action=1)
    assert gained("Wyrdstone Hunt", hero) == [("survives", 1), ("enemy-out-of-action", 1), ("wyrdstone-counter", 2)]
    group = WarriorOutcome(role=Role.HENCHMEN, wyrdstone_counters=1)
    assert gained("Wyrdstone Hunt", group) == [("survives", 1), ("wyrdstone-counter", 1)]
    sword = WarriorOutcome(role=Role.HIRED_SWORD, wyrdstone_counters=1, enemies_out_of_action=3)
    assert gained("Wyrdstone Hunt", sword) == [("survives", 1), ("wyrdstone-counter", 1)]  # no kills: as henchmen
    assert scenario_only_experience(scenario_by_name("Wyrdstone Hunt"), hero) == 2


def test_each_scenarios_own_award_goes_to_whom_the_rulebook_says():
    assert gained("Breakthrough", WarriorOutcome(role=Role.HENCHMEN, broke_through=True)) == [("survives", 1), ("breaking-through", 1)]
    assert gained("Street Fight", WarriorOutcome(role=Role.HERO, escaped_first=True)) == [("survives", 1), ("escaping", 1)]
    assert gained("Street Fight", WarriorOutcome(role=Role.HENCHMEN, escaped_first=True)) == [("survives", 1)]  # Heroes only
    assert gained("Hidden Treasure", WarriorOutcome(role=Role.HERO, found_chest=True)) == [("survives", 1), ("finding-the-chest", 2)]
    assert gained("Hidden Treasure", WarriorOutcome(role=Role.HIRED_SWORD, found_chest=True)) == [("survives", 1)]
    # a fact of another scenario gives nothing here
    assert gained("Skirmish", WarriorOutcome(role=Role.HERO, wyrdstone_counters=3, found_chest=True)) == [("survives", 1)]


def test_occupy_gives_the_winning_leader_only_on_a_win():
    assert gained("Occupy", WarriorOutcome(role=Role.LEADER, warband_won=False)) == [("survives", 1)]
    assert gained("Occupy", WarriorOutcome(role=Role.LEADER, warband_won=True)) == [("survives", 1), ("winning-leader", 1)]
    assert gained("Occupy", WarriorOutcome(role=Role.HERO, warband_won=True)) == [("survives", 1)]  # the leader only


def test_the_dead_and_those_who_never_gain_experience_gain_none():
    assert gained("Wyrdstone Hunt", WarriorOutcome(role=Role.HERO, survived=False, wyrdstone_counters=1, enemies_out_of_action=2)) == []
    assert gained("Skirmish", WarriorOutcome(role=Role.HENCHMEN, gains_experience=False)) == []


@pytest.mark.parametrize("outcome, why", [(WarriorOutcome(role=Role.HERO, enemies_out_of_action=31), "31 enemies out of action"),
                                          (WarriorOutcome(role=Role.HERO, wyrdstone_counters=-1), "-1 wyrdstone counters")])
def test_impossible_counts_are_refused(outcome, why):
    with pytest.raises(MordheimError, match=why):
        awards_for(scenario_by_name("Wyrdstone Hunt"), outcome)


# ------------------------------------------------------------------ underdogs
@pytest.mark.parametrize("own, opponent, bonus", [
    (100, 100, 0), (150, 100, 0), (100, 150, 0), (100, 151, 1), (100, 175, 1), (100, 176, 2), (100, 200, 2),
    (100, 201, 3), (100, 250, 3), (100, 251, 4), (100, 400, 4), (100, 401, 5), (0, 5000, 5)])
def test_underdog_experience_follows_the_rating_gap(own, opponent, bonus):
    assert underdog_experience(own, opponent) == bonus


@pytest.mark.parametrize("rating", [-1, 1.5, True, "90", 100_001])
def test_a_rating_that_is_no_rating_is_refused(rating):
    with pytest.raises(MordheimError, match="A warband rating must be a whole number"):
        underdog_experience(rating, 100)


def battle(rating, opponent_rating):
    return Battle(id=1, warband="Rats", warband_id=1, fought_on="2024-05-31", scenario="Skirmish", opponents="Raiders",
                  result=BattleResult.LOSS, notes="", recorded_by=1, rating=rating, opponent_rating=opponent_rating,
                  scenario_id="skirmish")


def test_a_recorded_battle_gives_its_underdog_experience_when_both_ratings_are_known():
    assert underdog_for_battle(battle(95, 160)) == 1
    assert underdog_for_battle(battle(160, 95)) == 0
    assert underdog_for_battle(battle(None, None)) is None


# ------------------------------------------------------------------ what the post-battle sequence pre-fills
def recorded(scenario_id, rating=None, opponent_rating=None, scenario="x"):
    return Battle(id=1, warband="Rats", warband_id=1, fought_on="2024-05-31", scenario=scenario, opponents="Raiders",
                  result=BattleResult.LOSS, notes="", recorded_by=1, scenario_id=scenario_id, rating=rating,
                  opponent_rating=opponent_rating)


def test_a_battle_adds_its_scenarios_own_awards_and_the_underdogs():
    hero = WarriorOutcome(role=Role.HERO, wyrdstone_counters=2, enemies_out_of_action=1)
    extra = battle_extra_experience(recorded("wyrdstone-hunt", 95, 200), hero)
    assert [(a.award, a.name, a.amount) for a in extra] == [("wyrdstone-counter", "Per wyrdstone counter ×2", 2),
                                                            ("underdog", "Underdog", 3)]
    group = WarriorOutcome(role=Role.HENCHMEN)
    assert [(a.award, a.amount) for a in battle_extra_experience(recorded("skirmish", 95, 200), group)] == [("underdog", 3)]
    assert battle_extra_experience(recorded("skirmish", 200, 95), group) == ()  # the higher-rated side gains nothing
    assert battle_extra_experience(recorded(None), hero) == ()  # a custom scenario against a warband of elsewhere
    animal = WarriorOutcome(role=Role.HENCHMEN, gains_experience=False)
    assert battle_extra_experience(recorded("skirmish", 95, 200), animal) == ()
