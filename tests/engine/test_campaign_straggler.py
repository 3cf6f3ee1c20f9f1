"""A straggler questioned (rules_data/campaign/lrb.json exploration, Straggler, "Questioned": next
exploration, one extra die and drop any one) is carried to the warband's next sequence, stored in the
finished sequence's state (so it survives restarts and goes with its batch's undo), rolled there as
one more die, and the player chooses the die to drop before the dice count."""

from __future__ import annotations

import random

import pytest

from engine.campaign.service import Campaigns, PostBattle
from engine.errors import MordheimError

from tests.conftest import both_backends
from tests.engine.test_campaign_postbattle_exploring import band

pytestmark = both_backends

G, OWNER = 1, 10


@pytest.fixture()
def c(store):
    return Campaigns(store)


def to_exploration(pb: PostBattle):
    """Start the sequence after the newest battle and go to its exploration, any advance taken as offered."""
    v = pb.start(G, OWNER, False, "Band")
    v = pb.roll_injuries(G, OWNER, False, v.id, pb.confirm_fighters(G, OWNER, False, v.id, v.version).version)
    v = pb.apply_experience(G, OWNER, False, v.id, v.version)
    while v.state.pending:
        p = v.state.pending[0]
        pick = p.options[0] if p.kind == "choose" else v.skill_menu[0].skills[0][0]
        v = pb.choose(G, OWNER, False, v.id, v.version, p.warrior_id, p.kind, pick)
    assert v.state.step == "exploration"
    return v


def finish(pb: PostBattle, v):
    return pb.finish(G, OWNER, False, v.id, pb.sell(G, OWNER, False, v.id, v.version, 0).version)


def test_the_next_exploration_rolls_one_die_more_and_the_player_drops_one(c):
    band(c, "Reiklanders", "Mercenary Captain", "Champion")
    pb = PostBattle(c.store, random.Random(7))
    v = to_exploration(pb)
    v = pb.explore(G, OWNER, False, v.id, v.version, entered="4 4 1")  # a double 4: the Straggler
    assert any("next exploration rolls 1 extra die" in line for line in v.state.lines), v.state.lines
    finish(pb, v)
    c.record_battle(G, OWNER, False, "Band", result="win")
    v = to_exploration(pb)
    assert any("this exploration rolls 1 extra die" in n for n in v.state.notes)
    with pytest.raises(MordheimError, match=r"rolls 4 dice .*\+1 for the straggler questioned"):
        pb.explore(G, OWNER, False, v.id, v.version, entered="1 2 3")
    v = pb.explore(G, OWNER, False, v.id, v.version, entered="2 5 3 1")
    assert [(p.kind, p.options) for p in v.state.pending] == [("drop", ("0", "1", "2", "3"))]
    with pytest.raises(MordheimError, match="Choose 1 exploration die to drop"):
        pb.drop_exploration_dice(G, OWNER, False, v.id, v.version, [0, 1])
    v = pb.drop_exploration_dice(G, OWNER, False, v.id, v.version, [3])  # drops the 1: 2 5 3
    assert v.state.explore_dice == (2, 5, 3) and v.state.explored
    finish(pb, v)
    c.record_battle(G, OWNER, False, "Band", result="win")  # used: the one after rolls as usual
    v = to_exploration(pb)
    assert not any("extra die" in n for n in v.state.notes)
    v = pb.explore(G, OWNER, False, v.id, v.version, entered="3 5 1")
    assert v.state.explored and not v.state.pending


def test_undoing_the_sequence_that_questioned_him_takes_the_die_back(c):
    band(c, "Reiklanders", "Mercenary Captain", "Champion")
    pb = PostBattle(c.store, random.Random(7))
    v = to_exploration(pb)
    finish(pb, pb.explore(G, OWNER, False, v.id, v.version, entered="4 4 1"))
    c.undo_last_batch(G, OWNER, False, "Band")
    v = to_exploration(pb)
    assert not any("extra die" in n for n in v.state.notes)
