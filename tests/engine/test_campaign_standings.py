"""Battles on both sides, standings per server and the campaign log."""

from __future__ import annotations

import random

import pytest

from engine.campaign.service import Campaigns, PostBattle
from engine.errors import MordheimError, NotFoundError, PermissionDenied

from tests.conftest import both_backends

pytestmark = both_backends

P = dict(M=4, WS=4, BS=4, S=3, T=3, W=1, I=4, A=1, Ld=8)


@pytest.fixture()
def campaign(store):
    return Campaigns(store)


def test_a_battle_against_another_warband_is_recorded_on_both(campaign):
    c = campaign
    c.create_warband(1, 10, "Raiders", "Reikland")
    c.create_warband(1, 20, "Rats", "Skaven")
    c.add_warrior(1, 10, False, "Raiders", "Boss", role="leader", warrior_type="Leader", profile=P)
    c.add_warrior(1, 20, False, "Rats", "Boss", role="leader", warrior_type="Leader", profile=P)
    ours, theirs = c.record_battle_between(1, 10, False, "Raiders", "rats", result="win", scenario="Skirmish")
    assert (ours.result, ours.opponents, theirs.result, theirs.opponents) == ("win", "Rats", "loss", "Raiders")
    assert [b.result for b in c.list_battles(1, "Rats")] == ["loss"]
    log = c.campaign_log(1)
    assert len(log) == 1 and log[0].both_sides and log[0].warband == "Raiders" and log[0].opponent == "Rats"
    c.undo_last_batch(1, 20, False, "Rats")  # the Rats' owner takes back his side only
    assert c.list_battles(1, "Rats") == [] and len(c.list_battles(1, "Raiders")) == 1
    assert len(c.campaign_log(1)) == 1


def test_opponent_must_be_another_warband_of_this_server(campaign):
    c = campaign
    c.create_warband(1, 10, "Raiders", "Reikland")
    c.create_warband(2, 30, "Elsewhere", "Skaven")
    with pytest.raises(NotFoundError):
        c.record_battle_between(1, 10, False, "Raiders", "Elsewhere", result="win")
    with pytest.raises(MordheimError, match="cannot fight itself"):
        c.record_battle_between(1, 10, False, "Raiders", "raiders", result="draw")
    with pytest.raises(PermissionDenied):
        c.record_battle(1, 99, False, "Raiders", result="win")
    assert c.campaign_log(2) == []


def test_standings(campaign):
    c = campaign
    for n, (name, owner) in enumerate((("Raiders", 10), ("Rats", 20), ("Dwarfs", 30))):
        c.create_warband(1, owner, name, "Reikland")
        c.add_warrior(1, owner, False, name, "Boss", role="leader", warrior_type="Leader", profile=P, experience=20 + n)
        c.add_warrior(1, owner, False, name, "Lads", role="henchmen", warrior_type="Lad", profile=P, group_size=3, experience=2)
    c.record_battle_between(1, 10, False, "Raiders", "Rats", result="win")
    c.record_battle_between(1, 30, False, "Dwarfs", "Rats", result="draw")
    c.record_battle(1, 10, False, "Raiders", result="loss", opponents="Strangers")
    s = c.standings(1)
    assert [r.warband for r in s.rows] == ["Raiders", "Dwarfs", "Rats"]
    raiders = s.rows[0]
    assert (raiders.battles, raiders.wins, raiders.draws, raiders.losses) == (2, 1, 0, 1)
    assert raiders.rating == (5 + 20) + 3 * (5 + 2) and raiders.best_hero == "Boss (20 xp)"
    assert [(h.warband, h.experience) for h in s.heroes] == [("Dwarfs", 22), ("Rats", 21), ("Raiders", 20)]
    assert c.standings(2).rows == ()


def test_remembered_standings_are_given_only_while_nothing_changed(campaign):
    """What the event loop asks before building: the standings built before, while they are current."""
    c = campaign
    pb = PostBattle(c.store, random.Random(5))
    c.create_warband(1, 10, "Raiders", "Reikland")
    c.add_warrior(1, 10, False, "Raiders", "Boss", role="leader", warrior_type="Leader", profile=P, experience=20)
    c.create_warband(2, 30, "Elsewhere", "Skaven")
    assert c.remembered_standings(1) is None  # never built
    built = c.standings(1)
    assert c.remembered_standings(1) is built
    assert c.remembered_standings(2) is None  # another server's are its own
    c.record_battle(1, 10, False, "Raiders", result="win")
    assert c.remembered_standings(1) is None  # a battle: a ledger row
    c.standings(1)
    v = pb.start(1, 10, False, "Raiders")
    assert c.remembered_standings(1) is not None  # a sequence started changes nothing the standings show
    c.standings(1)
    pb.cancel(1, 10, False, v.id)
    assert c.remembered_standings(1) is None  # a sequence closed before its end: what it found stops counting
    assert c.standings(1).rows[0].battles == 1
    c.create_warband(2, 30, "Others", "Skaven")
    assert c.remembered_standings(1) is not None  # another server's change changes nothing here


def test_standings_brought_up_to_date_are_those_built_afresh(campaign):
    """Every kind of change, one at a time: the standings kept and brought up to date (a battle
    re-reads only its warband's record; anything else its whole line) equal a build from nothing."""
    from engine.campaign.actions import standings as module

    c = campaign
    pb = PostBattle(c.store, random.Random(3))
    for n, name in enumerate(("Raiders", "Rats", "Dwarfs", "Wolves")):
        c.create_warband(1, 10 + n, name, "Reikland")
        c.add_warrior(1, 10 + n, False, name, "Boss", role="leader", warrior_type="Leader", profile=P, experience=20 + n)
        c.add_warrior(1, 10 + n, False, name, "Kid", role="hero", warrior_type="Youngblood", profile=P, experience=n)
    c.create_warband(2, 99, "Elsewhere", "Skaven")

    def sequence_found_a_shard():
        v = pb.start(1, 11, False, "Rats")
        v = pb.set_fighters(1, 11, False, v.id, v.version, out_of_action={})
        v = pb.confirm_fighters(1, 11, False, v.id, v.version)
        while v.state.step != "done":
            if v.state.pending or v.state.step not in ("injuries", "experience", "exploration", "income", "upkeep", "trading"):
                pb.cancel(1, 11, False, v.id)
                return
            step = {"injuries": pb.roll_injuries, "experience": pb.apply_experience, "exploration": pb.explore,
                    "upkeep": pb.pay_upkeep, "trading": pb.finish}.get(v.state.step)
            v = pb.sell(1, 11, False, v.id, v.version, 0) if step is None else step(1, 11, False, v.id, v.version)

    changes = [
        lambda: c.record_battle(1, 10, False, "Raiders", result="win"),  # moves to the top
        lambda: c.record_battle(1, 12, False, "Dwarfs", result="draw"),  # stays in its place
        lambda: c.record_battle_between(1, 13, False, "Wolves", "Rats", result="win"),  # two warbands at once
        lambda: c.add_xp(1, 11, False, "Rats", "Kid", 30),  # a hero climbs the heroes' table
        lambda: c.rename_warband(1, 12, False, "Dwarfs", "Aardvarks"),
        lambda: c.edit_warband(1, 12, False, "Aardvarks", owner_id=77),
        lambda: c.undo_last_batch(1, 10, False, "Raiders"),  # the win taken back
        lambda: c.record_battle(1, 10, False, "Raiders", result="loss"),
        lambda: c.add_xp(1, 10, False, "Raiders", "Boss", 1),
        lambda: c.record_battle(1, 10, False, "Raiders", result="win"),  # a battle and a hero's xp together
        sequence_found_a_shard,
        lambda: c.create_warband(1, 14, "Newcomers", "Reikland"),
        lambda: c.delete_warband(1, 13, False, "Wolves"),
        lambda: c.create_warband(2, 99, "Far Away", "Skaven"),  # another server's change
    ]
    c.standings(1)
    for n, change in enumerate(changes):
        change()
        if n == 8:  # this and the next change together
            continue
        kept = c.remembered_standings(1, changes_at_most=3)
        assert kept is not None
        module._kept.clear()
        afresh = c.standings(1)
        assert kept == afresh, n
        assert c.remembered_standings(1) is afresh
    assert [r.warband for r in afresh.rows][:1] == ["Raiders"] and "Wolves" not in {r.warband for r in afresh.rows}
    assert next(r for r in afresh.rows if r.warband == "Rats").shards_found > 0  # the sequence ran to its end
    assert c.standings(2).rows[0].warband in ("Elsewhere", "Far Away")
