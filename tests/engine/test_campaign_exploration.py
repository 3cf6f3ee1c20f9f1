"""Exploration (shards by total, every place found by doubles to six of a kind) and income."""

from __future__ import annotations

import random

import pytest

from engine.dice.source import Dice
from engine.campaign.rules.exploration import exploration_dice, explore, find_multiple
from engine.campaign.rules.income import sell_wyrdstone
from engine.campaign.rules.campaign_warrior import CampaignWarrior
from engine.errors import MordheimError
from engine.campaign.rules.campaign_rules import default_rules
from engine.campaign.model import Profile

TABLES = default_rules().tables
EXPLORATION = TABLES.exploration
LEADER = CampaignWarrior(name="Captain", role="leader", profile=Profile(4, 4, 4, 3, 3, 1, 4, 1, 8), maximum=TABLES.default_maximum)
HERO = CampaignWarrior(name="Hans", role="hero", profile=Profile(4, 3, 3, 3, 3, 1, 3, 1, 7), maximum=TABLES.default_maximum)


@pytest.mark.parametrize(("total", "shards"), [(1, 1), (5, 1), (6, 2), (11, 2), (12, 3), (17, 3), (18, 4), (24, 4),
                                               (25, 5), (30, 5), (31, 6), (35, 6), (36, 7), (60, 7)])
def test_shards_by_total(total, shards):
    assert EXPLORATION.shards(total) == shards


def test_dice_one_per_searching_hero_and_one_for_a_win():
    assert exploration_dice(3, True, EXPLORATION) == 4
    assert exploration_dice(3, False, EXPLORATION, extra=1) == 4
    with pytest.raises(MordheimError):
        exploration_dice(12, True, EXPLORATION)


def test_largest_set_then_highest_face():
    assert find_multiple((3, 3, 5, 5, 5)) == (3, 5)
    assert find_multiple((1, 1, 3, 3)) == (2, 3)
    assert find_multiple((1, 2, 3, 4)) is None
    assert find_multiple((2, 2, 2, 2, 6, 6, 6)) == (4, 2)


def run(faces, entered="", warband="reikland", hero=HERO, seed=None, **kw):
    dice = Dice.entered(entered, random.Random(seed) if seed is not None else None)
    e = explore(faces, EXPLORATION, dice, warband_id=warband, hero=hero, leader=LEADER, **kw)
    assert dice.unused == ()
    return e


def test_every_multiple_has_a_place():
    names = {(p.count, p.face): p.name for p in EXPLORATION.places}
    assert len(names) == 30
    for count in range(2, 7):
        for face in range(1, 7):
            e = run((face,) * count, seed=count * 10 + face)
            assert e.place is not None and e.place.name == names[(count, face)] and e.lines


def test_well_passed_and_failed():
    passed = run((1, 1), "3")  # Hans T3: 3 passes
    assert passed.finds.shards == 1 + 1
    failed = run((1, 1), "4")
    assert failed.finds.shards == 1 and failed.finds.missed_games == (("Hans", 1),)
    six = run((1, 1), "6", hero=CampaignWarrior(name="Big", role="hero", profile=Profile(4, 3, 3, 3, 6, 1, 3, 1, 7), maximum=TABLES.default_maximum))
    assert six.finds.missed_games  # a 6 always fails (000:251)


def test_shop_gold_and_lucky_charm_on_a_1():
    assert run((2, 2), "4").finds.gold == 4
    one = run((2, 2), "1")
    assert one.finds.gold == 1 and one.finds.items[0].item == "lucky-charm"


@pytest.mark.parametrize(("entered", "gold", "item"), [("2 5", 5, None), ("3", 0, "dagger"), ("4", 0, "axe"), ("5", 0, "sword"), ("6", 0, "light-armour")])
def test_corpse(entered, gold, item):
    e = run((3, 3), entered)
    assert e.finds.gold == gold and [i.item for i in e.finds.items] == ([item] if item else [])


@pytest.mark.parametrize(("warband", "gold", "note"), [("skaven", 7, None), ("undead", 0, "Zombie"), ("reikland", 0, "extra die")])
def test_straggler_by_warband(warband, gold, note):
    e = run((4, 4), "3 4" if gold else "", warband=warband)
    assert e.finds.gold == gold
    assert (note is None and not e.finds.notes) or note in e.finds.notes[0]
    assert run((4, 4), warband="cult-of-the-possessed").finds.leader_experience == 1


def test_overturned_cart():
    assert run((5, 5), "1").finds.items[0].item == "mordheim-map"
    assert run((5, 5), "3 2 6").finds.gold == 8
    assert {i.item for i in run((5, 5), "6").finds.items} == {"jewelled-sword", "jewelled-dagger"}


def test_ruined_hovels_and_market_hall():
    assert run((6, 6), "5").finds.gold == 5
    assert run((5, 5, 5), "6 6").finds.gold == 12


def test_tavern_leadership_test_and_temperate_warbands():
    assert run((1, 1, 1), "4 3  1 2 3 4").finds.gold == 10  # 7 ≤ Ld 8: 4D6 gc
    assert run((1, 1, 1), "5 5  6").finds.gold == 6  # 10 > 8: D6 gc
    assert run((1, 1, 1), "1 1 1 1", warband="witch-hunters").finds.gold == 4


def test_smithy_halberds_d3():
    e = run((2, 2, 2), "4 5")
    assert e.finds.items[0].item == "halberd" and e.finds.items[0].count == 3


def test_prisoners_and_returning_a_favour():
    assert run((3, 3, 3), "2 2 2", warband="skaven").finds.gold == 6
    assert run((3, 3, 3), "1 6", warband="reikland").finds.gold == 7
    assert run((3, 3, 3), "5", warband="cult-of-the-possessed").finds.heroes_experience == 3
    assert "hired sword" in run((6, 6, 6)).finds.notes[0]


def test_fletcher_gunsmith_armourer_dwarf_smithy_item_tables():
    assert run((4, 4, 4), "5").finds.items[0].item == "hunting-arrows"
    assert run((1, 1, 1, 1), "6").finds.items[0].item == "hochland-long-rifle"
    assert run((4, 4, 4, 4), "6").finds.items[0].item == "ithilmar-armour"
    assert run((3, 3, 3, 3, 3, 3), "6").finds.items[0].item == "gromril-armour"


def test_shrine_and_graveyard_by_warband():
    assert run((2, 2, 2, 2), "1 2 3").finds.gold == 6
    sisters = run((2, 2, 2, 2), "1 2 3", warband="sisters-of-sigmar")
    assert sisters.finds.gold == 6 and "blessed" in sisters.finds.notes[0]
    assert run((5, 5, 5, 5), "4").finds.gold == 40
    assert run((5, 5, 5, 5), "4", warband="witch-hunters").finds.heroes_experience == 4


def test_merchants_house_double_finds_the_freetraders_symbol():
    assert run((4, 4, 4, 4, 4), "2 3").finds.gold == 25
    double = run((4, 4, 4, 4, 4), "3 3")
    assert double.finds.gold == 0 and double.finds.items[0].item == "freetraders-symbol"


def test_shattered_building_and_the_pit():
    e = run((5, 5, 5, 5, 5), "5  3 3")  # D3 of 5 = 3 shards; Ld test 6 ≤ 8 passes: a wardog
    assert e.finds.shards == 5 + 3 and e.finds.items[0].item == "wardog"
    lost = run((1,) * 6, "1")
    assert lost.finds.heroes_lost == ("Hans",)
    back = run((1,) * 6, "4 5")
    assert back.finds.shards == 2 + 6
    assert run((1,) * 6, visit_place=False).finds.shards == 2


def test_hidden_treasure_and_slaughtered_warband_roll_for_each_item():
    treasure = run((2,) * 6, "1 1 1 1 1  1 1 1 1 1 1 1")  # 5D6x5 = 25, then every item missed
    assert treasure.finds.gold == 25 and treasure.finds.items == () and treasure.finds.shards == 3
    warband = run((4,) * 6, "1 1 1  2  1 1 1 1 1 1 1 1")
    assert warband.finds.gold == 15 and [(i.item, i.count) for i in warband.finds.items] == [("dagger", 2)]


def test_nobles_villa_artefacts():
    assert run((6,) * 6, "5 6").finds.items[0].item == "all-seeing-eye-of-numas"
    assert run((6,) * 6, "3 4").finds.items[0].count == 4


def test_no_dice_no_finds():
    assert explore((), EXPLORATION, Dice()).finds.shards == 0


@pytest.mark.parametrize(("shards", "size", "gold"), [(1, 1, 45), (1, 3, 45), (1, 4, 40), (1, 16, 25), (3, 10, 60),
                                                      (5, 9, 90), (7, 13, 100), (8, 15, 110), (12, 20, 100), (0, 5, 0)])
def test_income_chart(shards, size, gold):
    assert sell_wyrdstone(shards, 20, size, TABLES.income).gold == gold


def test_cannot_sell_more_than_held():
    with pytest.raises(MordheimError, match="cannot sell 3"):
        sell_wyrdstone(3, 2, 8, TABLES.income)
