"""What exploring gives is applied, not only noted: items into the stash (a ledger row of the
sequence's batch), experience for the heroes shared as the owner says, and the warband's
exploration re-rolls (the Entrance to the catacombs, a master map) offered and rolled."""

from __future__ import annotations

import pytest

from engine.campaign.service import Campaigns, PostBattle
from engine.errors import MordheimError

from tests.conftest import both_backends
from tests.engine.test_campaign_postbattle_lists import Faces

pytestmark = both_backends

G, OWNER = 1, 10


@pytest.fixture()
def c(store):
    return Campaigns(store)


def band(c: Campaigns, warband_type: str, leader: str, hero: str) -> dict[str, int]:
    c.create_warband(G, OWNER, "Band", warband_type, gold_crowns=1000)
    c.hire_fighter(G, OWNER, False, "Band", leader, name="Boss")
    c.hire_fighter(G, OWNER, False, "Band", hero, name="Hans")
    c.record_battle(G, OWNER, False, "Band", result="win")
    return {w.name: w.id for w in c.get_warband(G, "Band").warriors}


def to_exploration(pb: PostBattle):
    v = pb.start(G, OWNER, False, "Band")
    v = pb.roll_injuries(G, OWNER, False, v.id, pb.confirm_fighters(G, OWNER, False, v.id, v.version).version)
    v = pb.apply_experience(G, OWNER, False, v.id, v.version)
    assert v.state.step == "exploration", v.state.pending
    return v


def test_items_found_go_into_the_stash_in_the_sequences_batch(c):
    band(c, "Reiklanders", "Mercenary Captain", "Champion")
    pb = PostBattle(c.store, Faces(1))  # the Shop's gold die shows 1: a lucky charm too
    v = to_exploration(pb)
    v = pb.explore(G, OWNER, False, v.id, v.version, entered="2 2 5")  # a double 2: the Shop
    assert v.state.items_found == ("Lucky charm",) and "into the stash: Lucky charm" in v.state.lines
    assert c.get_warband(G, "Band").stash == ("Lucky charm",)
    found = [e for e in c.ledger(G, "Band", limit=30) if e.what == "postbattle.found"]
    assert len(found) == 1 and found[0].after == {"stash": ["Lucky charm"]}
    assert found[0].batch_id == next(e.batch_id for e in c.ledger(G, "Band", limit=30) if e.what == "postbattle.treasury")
    v = pb.finish(G, OWNER, False, v.id, pb.sell(G, OWNER, False, v.id, v.version, 0).version)
    c.undo_last_batch(G, OWNER, False, "Band")
    assert c.get_warband(G, "Band").stash == ()


def test_experience_a_place_gives_the_heroes_is_shared_as_the_owner_says(c):
    ids = band(c, "Witch Hunters", "Witch Hunter Captain", "Witch Hunter")
    before = {w.id: w.experience for w in c.get_warband(G, "Band").warriors}
    pb = PostBattle(c.store, Faces(4))  # Graves sealed: D6 = 4 experience to share
    v = to_exploration(pb)
    v = pb.explore(G, OWNER, False, v.id, v.version, entered="5 5 5 5", extra_dice=1)  # four 5s: the Graveyard
    assert [(p.kind, p.note) for p in v.state.pending] == [("share_xp", "4")] and v.state.step == "exploration"
    with pytest.raises(MordheimError, match="gives 4 experience to share; 3 were given"):
        pb.share_experience(G, OWNER, False, v.id, v.version, {ids["Boss"]: 3})
    pb.rng.faces = [3, 4]  # Hans's 9 + 1 + 3 crosses 11: an advance, 2D6 = 7, +1 WS or BS (his choice)
    v = pb.share_experience(G, OWNER, False, v.id, v.version, {ids["Boss"]: 1, ids["Hans"]: 3})
    assert [(p.kind, p.name, p.options) for p in v.state.pending] == [("choose", "Hans", ("WS", "BS"))]
    after = {w.id: w.experience for w in v.warriors}
    survived = 1  # and the leader +1 for the win
    assert after[ids["Boss"]] == before[ids["Boss"]] + survived + 1 + 1
    assert after[ids["Hans"]] == before[ids["Hans"]] + survived + 3
    assert any(line.startswith("Hans +3 experience (Graveyard)") for line in v.state.lines)
    while v.state.pending:  # an advance the shared experience reached waits here, in the exploration step
        p = v.state.pending[0]
        v = pb.choose(G, OWNER, False, v.id, v.version, p.warrior_id, p.kind, p.options[0] if p.kind == "choose" else "Sprint")
    assert v.state.step == "income"


def test_the_entrance_to_the_catacombs_lets_the_warband_re_roll_one_die_from_then_on(c):
    band(c, "Reiklanders", "Mercenary Captain", "Champion")
    pb = PostBattle(c.store, Faces())
    v = to_exploration(pb)
    v = pb.explore(G, OWNER, False, v.id, v.version, entered="6 6 6 6 6", extra_dice=2)  # five 6s
    assert "Entrance to the catacombs" in v.state.lines[-1] and v.state.pending == ()  # no re-roll yet: found now
    pb.finish(G, OWNER, False, v.id, pb.sell(G, OWNER, False, v.id, v.version, 0).version)

    c.record_battle(G, OWNER, False, "Band", result="loss")  # nobody advances; two dice (no win)
    pb = PostBattle(c.store, Faces(4))  # the re-rolled die shows 4
    v = to_exploration(pb)
    v = pb.explore(G, OWNER, False, v.id, v.version, entered="1 3")
    assert [(p.kind, p.note) for p in v.state.pending] == [("reroll", "1|the entrance to the catacombs the warband found")]
    with pytest.raises(MordheimError, match="Choose the dice to re-roll first"):
        pb.explore(G, OWNER, False, v.id, v.version)
    with pytest.raises(MordheimError, match="may re-roll 1 exploration die, not 2"):
        pb.reroll_exploration(G, OWNER, False, v.id, v.version, [0, 1])
    v = pb.reroll_exploration(G, OWNER, False, v.id, v.version, [0])
    assert v.state.explore_dice == (4, 3) and v.state.step == "income" and v.state.shards_found == 2  # total 7
    assert "Exploration, die 1 (1) re-rolled: D6 4" in v.state.dice and "Exploration after re-rolls: 4 3 = 7" in v.state.dice
    assert v.state.dice.count("Exploration: 2D6 1 3 = 4 (entered)") == 1


def test_a_master_map_carried_by_a_hero_on_his_feet_gives_a_re_roll_and_keeping_the_dice_is_a_choice(c):
    ids = band(c, "Reiklanders", "Mercenary Captain", "Champion")
    c.equip(G, OWNER, False, "Band", "Hans", "Master map")
    pb = PostBattle(c.store, Faces())
    v = to_exploration(pb)
    v = pb.explore(G, OWNER, False, v.id, v.version, entered="1 3 4")
    assert [(p.kind, p.note) for p in v.state.pending] == [("reroll", "1|Hans's Master map")]
    v = pb.reroll_exploration(G, OWNER, False, v.id, v.version, [])  # keep them
    assert v.state.explore_dice == (1, 3, 4) and v.state.step == "income" and v.state.explored
    c.undo_last_batch(G, OWNER, False, "Band")

    v = pb.start(G, OWNER, False, "Band")  # out of action, he brings no re-roll
    v = pb.set_fighters(G, OWNER, False, v.id, v.version, out_of_action={ids["Hans"]: 1})
    v = pb.roll_injuries(G, OWNER, False, v.id, pb.confirm_fighters(G, OWNER, False, v.id, v.version).version,
                         entered={ids["Hans"]: "45"})
    v = pb.apply_experience(G, OWNER, False, v.id, v.version)
    v = pb.explore(G, OWNER, False, v.id, v.version, entered="1 3")
    assert v.state.pending == () and v.state.step == "income"


def test_the_places_follow_up_dice_are_typed_after_the_exploration_dice_and_extra_ones_are_refused(c):
    """Issue 18: every die can be typed at the table, the place's follow-up dice too (the Shop's
    D6 deciding the lucky charm); the bot rolls only what is not typed."""
    band(c, "Reiklanders", "Mercenary Captain", "Champion")
    pb = PostBattle(c.store, Faces())  # the bot rolls nothing
    v = to_exploration(pb)
    with pytest.raises(MordheimError, match=r"1 entered die was not needed \(4\): this exploration rolls 3 dice, and Shop "
                                            r"asked 1 follow-up die"):
        pb.explore(G, OWNER, False, v.id, v.version, entered="2 2 5 1 4")
    with pytest.raises(MordheimError, match=r"2 entered dice were not needed \(1 4\): .* they found no place that asks more"):
        pb.explore(G, OWNER, False, v.id, v.version, entered="1 2 5 1 4")
    v = pb.explore(G, OWNER, False, v.id, v.version, entered="2 2 5 1")  # a double 2, the Shop; its gold die 1: a lucky charm
    assert v.state.items_found == ("Lucky charm",) and v.state.gold_found == 1
    assert "Exploration: 3D6 2 2 5 = 9 (entered)" in v.state.dice and any(d.endswith("D6 1 (entered)") for d in v.state.dice)
    c.undo_last_batch(G, OWNER, False, "Band")

    pb = PostBattle(c.store, Faces(3))  # the Corpse's D6 typed (2: a purse), the purse's D6 left to the bot (3)
    v = to_exploration(pb)
    v = pb.explore(G, OWNER, False, v.id, v.version, entered="3 3 5 2")
    assert v.state.gold_found == 3 and any(d.endswith("D6 2 (entered)") for d in v.state.dice)


def test_follow_up_dice_typed_before_a_re_roll_are_used_after_it_and_a_die_not_needed_is_said(c):
    band(c, "Reiklanders", "Mercenary Captain", "Champion")
    c.equip(G, OWNER, False, "Band", "Hans", "Master map")
    pb = PostBattle(c.store, Faces())
    v = to_exploration(pb)
    v = pb.explore(G, OWNER, False, v.id, v.version, entered="2 2 5 1")
    assert [p.kind for p in v.state.pending] == ["reroll"]
    v = pb.reroll_exploration(G, OWNER, False, v.id, v.version, [])  # kept: the Shop, its die typed with the others
    assert v.state.items_found == ("Lucky charm",) and "follow_up_dice" not in v.state.extra
    c.undo_last_batch(G, OWNER, False, "Band")

    pb = PostBattle(c.store, Faces(4))
    v = to_exploration(pb)
    v = pb.explore(G, OWNER, False, v.id, v.version, entered="2 2 5 1")
    v = pb.reroll_exploration(G, OWNER, False, v.id, v.version, [0])  # re-rolled to 4: no place; the die typed is left out
    assert v.state.explore_dice == (4, 2, 5) and v.state.step == "income"
    assert "Follow-up dice typed but not needed, left out: 1" in v.state.dice


def test_when_nobody_searches_the_exploration_says_so(c):
    ids = band(c, "Reiklanders", "Mercenary Captain", "Champion")
    c.record_battle(G, OWNER, False, "Band", result="loss")  # no die for a win
    pb = PostBattle(c.store, Faces())
    v = pb.start(G, OWNER, False, "Band")
    v = pb.set_fighters(G, OWNER, False, v.id, v.version, out_of_action={ids["Boss"]: 1, ids["Hans"]: 1})
    v = pb.roll_injuries(G, OWNER, False, v.id, pb.confirm_fighters(G, OWNER, False, v.id, v.version).version,
                         entered={ids["Boss"]: "45", ids["Hans"]: "45"})
    v = pb.explore(G, OWNER, False, v.id, pb.apply_experience(G, OWNER, False, v.id, v.version).version)
    assert "Exploration: nobody searched the ruins (no exploration dice): nothing found" in v.state.lines
    assert not any("(total 0)" in line for line in v.state.lines) and not any("0D6" in d for d in v.state.dice)
