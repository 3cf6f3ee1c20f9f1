"""An exploration keeps at most six of the dice it rolls, the player's pick (rules_data/campaign/lrb.json
exploration.dice_kept; the Income chapter's procedure: "a maximum of six dice", even when seven or
more are rolled), after the straggler's extra die is dropped and before any re-roll."""

from __future__ import annotations

import random

import pytest

from engine.campaign.service import Campaigns, PostBattle
from engine.errors import MordheimError

from tests.conftest import both_backends
from tests.engine.test_campaign_straggler import finish, to_exploration
from tests.engine.test_campaign_postbattle_exploring import G, OWNER, band

pytestmark = both_backends


@pytest.fixture()
def c(store):
    return Campaigns(store)


def test_seven_dice_or_more_keep_six_of_the_players_choice(c):
    band(c, "Reiklanders", "Mercenary Captain", "Champion")  # two heroes and a win: three dice
    pb = PostBattle(c.store, random.Random(3))
    v = to_exploration(pb)
    v = pb.explore(G, OWNER, False, v.id, v.version, extra_dice=5, entered="6 1 6 2 3 4 5 1")  # eight dice
    assert [(p.kind, p.note) for p in v.state.pending] == [("drop", "2|a warband keeps at most 6 exploration dice")]
    assert not v.state.explored
    with pytest.raises(MordheimError, match="Choose 2 exploration dice to drop"):
        pb.drop_exploration_dice(G, OWNER, False, v.id, v.version, [1])
    v = pb.drop_exploration_dice(G, OWNER, False, v.id, v.version, [1, 7])  # the two 1s go
    assert v.state.explore_dice == (6, 6, 2, 3, 4, 5) and v.state.explored
    assert any("dropped 1 1 (a warband keeps at most 6 exploration dice)" in d for d in v.state.dice), v.state.dice


def test_six_dice_or_fewer_drop_nothing(c):
    band(c, "Reiklanders", "Mercenary Captain", "Champion")
    pb = PostBattle(c.store, random.Random(3))
    v = to_exploration(pb)
    v = pb.explore(G, OWNER, False, v.id, v.version, extra_dice=3, entered="6 1 6 2 3 4")  # exactly six
    assert v.state.explored and not any(p.kind == "drop" for p in v.state.pending)
    finish(pb, v)


def test_the_straggler_die_and_the_six_kept_are_dropped_together(c):
    band(c, "Reiklanders", "Mercenary Captain", "Champion")
    pb = PostBattle(c.store, random.Random(7))
    v = to_exploration(pb)
    finish(pb, pb.explore(G, OWNER, False, v.id, v.version, entered="4 4 1"))  # a double 4: the straggler questioned
    c.record_battle(G, OWNER, False, "Band", result="win")
    v = to_exploration(pb)
    v = pb.explore(G, OWNER, False, v.id, v.version, extra_dice=4, entered="1 2 3 4 5 6 6 6")  # 3 + 4 + the straggler's 1
    assert [(p.kind, p.note) for p in v.state.pending] == [
        ("drop", "2|the straggler questioned after an earlier battle; a warband keeps at most 6 exploration dice")]
    v = pb.drop_exploration_dice(G, OWNER, False, v.id, v.version, [0, 1])
    assert v.state.explore_dice == (3, 4, 5, 6, 6, 6)
