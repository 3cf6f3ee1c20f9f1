"""The post-battle experience step adds what the battle's rulebook scenario awards beyond the usual
three (here Wyrdstone Hunt's +1 per counter carried) and the underdog experience, both read from
the battle as /battle record stored it (issue 16 §2); a custom scenario gives only the usual."""

from __future__ import annotations

import random

import pytest

from engine.campaign.rules.scenario_finds import scenario_shards
from engine.campaign.rules.sequence import Fighter
from engine.campaign.service import Campaigns, PostBattle
from engine.errors import MordheimError

from tests.conftest import both_backends

pytestmark = both_backends

G, OWNER = 1, 10


@pytest.fixture()
def c(store):
    return Campaigns(store)


def two_warbands(c: Campaigns) -> None:
    """Raiders rated 76 (Otto 20 xp, two Champions of 8, five Warriors) and Rats rated 25 (an
    Assassin Adept of 20 xp): 51 apart, the Rats are the underdog by the first band (+1)."""
    c.create_warband(G, OWNER, "Raiders", "Reiklanders", gold_crowns=1000)
    c.hire_fighter(G, OWNER, False, "Raiders", "Mercenary Captain", name="Otto")
    c.hire_fighter(G, OWNER, False, "Raiders", "Champion", name="Hans")
    c.hire_fighter(G, OWNER, False, "Raiders", "Champion", name="Karl")
    c.hire_fighter(G, OWNER, False, "Raiders", "Warrior", name="Lads", count=5)
    c.create_warband(G, OWNER, "Rats", "Skaven", gold_crowns=1000)
    c.hire_fighter(G, OWNER, False, "Rats", "Assassin Adept", name="Skritt")
    assert c.show_warband(G, "Raiders").rating.total - c.show_warband(G, "Rats").rating.total == 51


def through_experience(pb: PostBattle, warband: str, v=None, **given):
    v = v or pb.start(G, OWNER, False, warband)
    if given:
        v = pb.set_fighters(G, OWNER, False, v.id, v.version, **given)
    v = pb.confirm_fighters(G, OWNER, False, v.id, v.version)
    v = pb.roll_injuries(G, OWNER, False, v.id, v.version)
    return pb.apply_experience(G, OWNER, False, v.id, v.version)


def test_wyrdstone_counters_and_the_underdog_are_added_to_the_usual_awards(c):
    two_warbands(c)
    c.record_battle_between(G, OWNER, False, "Rats", "Raiders", result="loss", scenario="Wyrdstone Hunt")
    pb = PostBattle(c.store, random.Random(3))
    skritt = c.get_warrior(G, "Rats", "Skritt")
    v = through_experience(pb, "Rats", counters={skritt.id: 2})
    # survives +1, two counters +2, underdog +1 (51 apart); no winning leader: the Rats lost
    assert v.warrior(skritt.id).experience == 20 + 4
    assert any("Underdog +1" in a and "counter" in a.casefold() for a in v.state.extra["awards"])
    v = through_experience(pb, "Raiders")
    # the Raiders are the higher rated: survives +1 and the winning leader +1, nothing more
    assert v.warrior(c.get_warrior(G, "Raiders", "Otto").id).experience == 20 + 2


def test_a_custom_scenario_gives_only_the_usual_awards_and_asks_for_no_counters(c):
    two_warbands(c)
    c.record_battle_between(G, OWNER, False, "Rats", "Raiders", result="loss", scenario="Mine shaft brawl")
    pb = PostBattle(c.store, random.Random(3))
    skritt = c.get_warrior(G, "Rats", "Skritt")
    v = pb.start(G, OWNER, False, "Rats")
    with pytest.raises(MordheimError, match="awards nothing for wyrdstone counters"):
        pb.set_fighters(G, OWNER, False, v.id, v.version, counters={skritt.id: 2})
    v = through_experience(pb, "Rats", v)
    assert v.warrior(skritt.id).experience == 20 + 1 + 1  # survives, and the underdog (ratings stored all the same)


def test_the_scenarios_feat_is_given_to_whoever_did_it(c):
    two_warbands(c)
    c.record_battle_between(G, OWNER, False, "Raiders", "Rats", result="win", scenario="Hidden Treasure")
    pb = PostBattle(c.store, random.Random(3))
    ids = {w.name: w.id for w in c.get_warband(G, "Raiders").warriors}
    v = pb.start(G, OWNER, False, "Raiders")
    assert v.state.extra["feat"] == "Finding the chest" and not v.state.extra["asks_counters"]
    v = through_experience(pb, "Raiders", v, feat=[ids["Hans"]])
    assert v.warrior(ids["Hans"]).experience == 8 + 1 + 2  # survives, and +2 for the chest
    assert v.warrior(ids["Karl"]).experience == 8 + 1


def test_counters_held_at_the_end_are_the_wyrdstone_hunts_shards_and_only_its():
    """Each counter still held at the end is a shard (scenarios.json wyrdstone-hunt); a carrier
    taken out of action dropped his, and a group keeps its counters unless every model fell."""
    fighters = (Fighter(1, "Hans", True, 1, counters=2), Fighter(2, "Otto", True, 1, out_of_action=1, counters=1),
                Fighter(3, "Pip", False, 1, hired_sword=True, out_of_action=1, counters=1),
                Fighter(4, "Marksmen", False, 3, out_of_action=2, counters=1),
                Fighter(5, "Swords", False, 2, out_of_action=2, counters=2), Fighter(6, "Late", True, 1, fought=False, counters=0))
    assert [f.counters_held for f in fighters] == [2, 0, 0, 1, 0, 0]
    found = scenario_shards("wyrdstone-hunt", fighters)
    assert (found.carried, found.shards, found.dropped) == (7, 3, (("Otto", 1), ("Pip", 1), ("Swords", 2)))
    assert found.line() == "Wyrdstone Hunt: 7 counters carried → 3 shards (dropped when taken out of action: Otto 1, Pip 1, Swords 2)"
    for other in ("skirmish", "defend-the-find", "chance-encounter", "hidden-treasure", None):
        assert scenario_shards(other, fighters) is None  # their shards and chest need facts the sequence is not told
    assert scenario_shards("wyrdstone-hunt", (Fighter(1, "Hans", True, 1),)) is None  # nobody carried one


def test_a_counter_dropped_out_of_action_earns_no_experience(c):
    two_warbands(c)
    c.record_battle_between(G, OWNER, False, "Raiders", "Rats", result="win", scenario="Wyrdstone Hunt")
    pb = PostBattle(c.store, random.Random(3))
    ids = {w.name: w.id for w in c.get_warband(G, "Raiders").warriors}
    v = pb.start(G, OWNER, False, "Raiders")
    v = pb.set_fighters(G, OWNER, False, v.id, v.version, out_of_action={ids["Karl"]: 1}, counters={ids["Hans"]: 1, ids["Karl"]: 2})
    v = pb.confirm_fighters(G, OWNER, False, v.id, v.version)
    v = pb.roll_injuries(G, OWNER, False, v.id, v.version, entered={ids["Karl"]: "45"})
    v = pb.apply_experience(G, OWNER, False, v.id, v.version)
    assert v.warrior(ids["Hans"]).experience == 8 + 1 + 1 and v.warrior(ids["Karl"]).experience == 8 + 1
