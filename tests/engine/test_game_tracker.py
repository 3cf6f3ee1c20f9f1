"""The battle tracker's verbs on both databases: what /game start refuses, the game's record as one
ledger batch, a warband deleted mid-game, and a mark stored with its versions."""

from __future__ import annotations

import random

import pytest

from engine.campaign.game_service import BattleTracker
from engine.campaign.rules.game_state import GAME_RECORDS
from engine.campaign.service import Campaigns, PostBattle
from engine.errors import MordheimError, PermissionDenied
from tests.conftest import both_backends

pytestmark = both_backends

G = 7
RED, BLUE, OTHER = 1, 2, 3
PROFILE = dict(M=4, WS=4, BS=4, S=3, T=3, W=1, I=4, A=1, Ld=8)


def band(c: Campaigns, name: str, owner: int, *, henchmen: int = 3) -> None:
    c.create_warband(G, owner, name, "Reikland", gold_crowns=100)
    c.add_warrior(G, owner, False, name, f"{name} Captain", role="leader", warrior_type="Human", profile=PROFILE)
    c.add_warrior(G, owner, False, name, f"{name} Hero", role="hero", warrior_type="Human", profile=PROFILE)
    c.add_warrior(G, owner, False, name, f"{name} Men", role="henchmen", warrior_type="Human", profile=PROFILE,
                  group_size=henchmen)


@pytest.fixture
def both(store):
    c = Campaigns(store)
    band(c, "Reds", RED)
    band(c, "Blues", BLUE)
    return c, BattleTracker(store, random.Random(4))


def test_what_game_start_refuses(both):
    c, t = both
    with pytest.raises(MordheimError, match="2 to 4"):
        t.start(G, RED, False, ["Reds"])
    with pytest.raises(MordheimError, match="cannot fight itself"):
        t.start(G, RED, False, ["Reds", "reds"])
    with pytest.raises(PermissionDenied, match="only for a warband of yours"):
        t.start(G, OTHER, False, ["Reds", "Blues"])
    with pytest.raises(MordheimError, match="no warband called 'Greens'"):
        t.start(G, RED, False, ["Reds", "Greens"])
    with pytest.raises(MordheimError, match="mention"):
        t.start(G, RED, False, ["Reds", "Blues"], scenario="<@123> Hunt")
    game = t.start(G, OTHER, True, ["Reds", "Blues"])  # Manage Server may start anyone's
    assert game.state.scenario == "Skirmish"
    with pytest.raises(MordheimError, match="already fighting in game #1"):
        t.start(G, RED, False, ["Blues", "Reds"])
    c.create_warband(G, OTHER, "Empty", "Reikland", gold_crowns=100)
    band(c, "Greens", OTHER)
    band(c, "Blacks", OTHER)
    second = t.start(G, OTHER, False, ["Greens", "Blacks"])  # several games at once, each warband in one
    assert [g.id for g in t.open_games(G)] == [game.id, second.id] and t.open_games(G + 1) == []
    t.cancel(G, RED, False, game.id)
    with pytest.raises(MordheimError, match="no active warriors"):
        t.start(G, OTHER, False, ["Empty", "Reds"])
    with pytest.raises(MordheimError, match="cancelled"):
        t.next_turn(G, RED, False, game.id, game.tracker_version)
    assert [g.id for g in t.open_games(G)] == [second.id]


def test_the_game_record_is_one_ledger_batch(both):
    c, t = both
    game = t.start(G, RED, False, ["Reds", "Blues"], scenario="Wyrdstone Hunt")
    blues = game.state.sides[1]
    hero = game.state.sides[0].pieces[1]
    game = t.mark(G, BLUE, False, game.id, game.version, 1, blues.pieces[2].key, "out_of_action", taken_out_by=f"0:{hero.key}")
    game = t.carry(G, BLUE, False, game.id, game.version, 1, blues.pieces[1].key, 1)
    game = t.next_turn(G, RED, False, game.id, game.tracker_version)
    game = t.undo(G, RED, False, game.id, game.tracker_version)
    game = t.next_turn(G, RED, False, game.id, game.tracker_version)
    game = t.end(G, RED, False, game.id, game.tracker_version, winner=0)
    assert game.status == "ended" and len(game.opened) == 2
    rows = [e for name in ("Reds", "Blues") for e in c.ledger(G, name, limit=50)
            if e.what in GAME_RECORDS or e.what == "battle"]
    assert {e.batch_id for e in rows} == {rows[0].batch_id}
    assert sorted(e.what for e in rows) == ["battle", "battle", "game.record", "game.record", "game.start", "game.start"]
    record = next(e for e in c.ledger(G, "Blues", limit=50) if e.what == "game.record")
    assert record.after["out_of_action"] == ["Blues Men 1 (Reds Hero)"] and record.after["wyrdstone"] == 1
    assert sorted(e.what for e in c.ledger(G, "Reds", limit=50) if e.what == "battle") == ["battle"]
    # the sequences opened by the end are filled in from the game
    reds_seq = next(v for v in game.opened if v.warband == "Reds")
    assert {f.name: f.kills for f in reds_seq.state.fighters}["Reds Hero"] == 1
    blues_seq = next(v for v in game.opened if v.warband == "Blues")
    assert {f.name: f.out_of_action for f in blues_seq.state.fighters}["Blues Men"] == 1
    with pytest.raises(MordheimError, match="over"):
        t.end(G, RED, False, game.id, game.tracker_version, winner=0)


def test_a_warband_deleted_mid_game_and_one_with_a_sequence_open(both):
    c, t = both
    band(c, "Greens", OTHER)
    game = t.start(G, RED, False, ["Reds", "Blues", "Greens"])
    c.record_battle(G, OTHER, False, "Greens", result="win")
    pb = PostBattle(t.store)
    pb_open = pb.start(G, OTHER, False, "Greens")  # after another battle, recorded during the game, not finished
    c.delete_warband(G, BLUE, False, "Blues")
    game = t.end(G, RED, False, game.id, game.tracker_version, winner=None)
    assert [s.result for s in game.state.sides] == ["draw", "draw", "draw"]
    assert any("Blues no longer exists" in n for n in game.notes)
    assert any("Greens has a post-battle sequence open" in n for n in game.notes)
    assert [v.warband for v in game.opened] == ["Reds"]
    with pytest.raises(MordheimError, match="earlier battle"):
        t.sequence_after(G, OTHER, False, game.id, 2)
    pb.cancel(G, OTHER, False, pb_open.id)
    later = t.sequence_after(G, OTHER, False, game.id, 2)  # the tracker's Post-battle button, once the old one is closed
    assert later.warband == "Greens" and "draw" in later.state.battle
    assert t.sequence_after(G, OTHER, False, game.id, 2).id == later.id  # pressed again: the same sequence
    with pytest.raises(PermissionDenied):
        t.sequence_after(G, BLUE, False, game.id, 2)


def test_a_rulebook_scenario_game_records_its_id_and_ratings_and_its_counters_earn_experience(both):
    c, t = both
    game = t.start(G, RED, False, ["Reds", "Blues"], scenario="wyrdstone hunt")
    assert game.state.scenario == "Wyrdstone Hunt" and game.state.scenario_id == "wyrdstone-hunt"
    blue_hero = game.state.sides[1].pieces[1]
    for _ in range(2):  # a counter is picked up one at a time
        game = t.carry(G, BLUE, False, game.id, game.version, 1, blue_hero.key, 1)
    game = t.end(G, RED, False, game.id, game.tracker_version, winner=0)
    (battle,) = c.list_battles(G, "Blues")
    assert battle.scenario_id == "wyrdstone-hunt" and battle.rating is not None and battle.opponent_rating is not None
    blues_seq = next(v for v in game.opened if v.warband == "Blues")
    assert {f.name: f.counters for f in blues_seq.state.fighters}["Blues Hero"] == 2
    pb = PostBattle(c.store, random.Random(5))
    v = pb.confirm_fighters(G, BLUE, False, blues_seq.id, blues_seq.version)
    v = pb.roll_injuries(G, BLUE, False, v.id, v.version)
    v = pb.apply_experience(G, BLUE, False, v.id, v.version)
    hero = c.get_warrior(G, "Blues", "Blues Hero")
    assert hero.experience == 1 + 2  # survives, and a counter each (Wyrdstone Hunt)


# ---------------------------------------------------------------------- the states kept in memory
def test_a_mark_made_by_another_process_is_seen_by_the_next_press(open_database):
    here, there = BattleTracker(open_database(), random.Random(1)), BattleTracker(open_database(), random.Random(2))
    c = Campaigns(here.store)
    band(c, "Reds", RED)
    band(c, "Blues", BLUE)
    game = here.start(G, RED, False, ["Reds", "Blues"])
    first, second = (p.key for p in game.state.sides[1].pieces[:2])
    drawn = here.mark(G, BLUE, False, game.id, game.version, 1, first, "stunned")  # kept in memory here
    elsewhere = there.mark(G, BLUE, False, game.id, drawn.version, 1, second, "knocked_down")  # written by another process
    seen = here.get(G, game.id)
    assert seen.version == elsewhere.version and seen.state == elsewhere.state
    assert seen.state.sides[1].piece(second).state == "knocked_down" and seen.state.sides[1].piece(first).state == "stunned"
    with pytest.raises(MordheimError, match="changed since this panel was drawn"):  # a panel drawn before it
        here.mark(G, BLUE, False, game.id, drawn.version, 1, second, "stunned")
    after = here.undo(G, BLUE, False, game.id, seen.tracker_version)  # the other process's mark is the newest
    assert after.state.sides[1].piece(second).state == "standing" and after.state.sides[1].piece(first).state == "stunned"


def test_two_servers_and_two_databases_never_share_a_kept_state(tmp_path):
    from engine.storage import open_store

    trackers = []
    for n in range(2):  # the same server and game id in two databases of one process
        store = open_store(str(tmp_path / f"{n}.db"))
        c = Campaigns(store)
        band(c, "Reds", RED)
        band(c, "Blues", BLUE)
        trackers.append(BattleTracker(store, random.Random(n)))
    one, other = (t.start(G, RED, False, ["Reds", "Blues"]) for t in trackers)
    assert one.id == other.id
    key = one.state.sides[1].pieces[0].key
    marked = trackers[0].mark(G, BLUE, False, one.id, one.version, 1, key, "stunned")
    assert trackers[1].get(G, other.id).state.sides[1].piece(key).state == "standing"
    assert trackers[0].get(G, one.id).state == marked.state
    c = Campaigns(trackers[0].store)  # another server of the first database, with warbands of the same names
    for name, owner in (("Reds", RED), ("Blues", BLUE)):
        c.create_warband(G + 1, owner, name, "Reikland", gold_crowns=100)
        c.add_warrior(G + 1, owner, False, name, f"{name} Captain", role="leader", warrior_type="Human", profile=PROFILE)
    theirs = trackers[0].start(G + 1, RED, False, ["Reds", "Blues"])
    with pytest.raises(MordheimError, match="no game #"):
        trackers[0].get(G + 1, one.id)
    assert [p.state for p in trackers[0].get(G + 1, theirs.id).state.sides[1].pieces] == ["standing"]
    assert trackers[0].get(G, one.id).state == marked.state
    for t in trackers:
        t.store.close()
