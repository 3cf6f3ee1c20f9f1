"""Captured (serious injury 61) and sold to the pits (65). A captive is away from his warband (no
size, income or rating), and the battle's opponent, a warband of this server, ransoms, exchanges
or sells him, each result written on both warbands; a captor outside the server leaves the
captive's owner to record it. A pit fight is fought with the combat engine and applied."""

from __future__ import annotations

import pytest

from engine.campaign.service import Campaigns, Captives, PostBattle
from engine.errors import MordheimError, PermissionDenied

from tests.conftest import both_backends
from tests.engine.test_campaign_postbattle_lists import Faces

pytestmark = both_backends

G, RED, BLUE = 1, 10, 20


@pytest.fixture()
def c(store):
    return Campaigns(store)


def warband(c: Campaigns, name: str, owner: int) -> dict[str, int]:
    c.create_warband(G, owner, name, "Reiklanders", gold_crowns=500)
    c.hire_fighter(G, owner, False, name, "Mercenary Captain", name=f"{name} Captain")
    c.hire_fighter(G, owner, False, name, "Champion", name=f"{name} Champion")
    c.hire_fighter(G, owner, False, name, "Warrior", name=f"{name} Guards", count=3)
    c.buy(G, owner, False, name, "Sword", warrior=f"{name} Champion")
    return {w.name: w.id for w in c.get_warband(G, name).warriors}


def capture(c: Campaigns, name: str, owner: int, hero_id: int):
    """Run ``name``'s sequence after its newest battle to the end, ``hero_id`` out of action and captured (D66 61)."""
    pb = PostBattle(c.store, Faces(*[1] * 12))
    v = pb.start(G, owner, False, name)
    v = pb.set_fighters(G, owner, False, v.id, v.version, out_of_action={hero_id: 1})
    v = pb.roll_injuries(G, owner, False, v.id, pb.confirm_fighters(G, owner, False, v.id, v.version).version, entered={hero_id: "61"})
    v = pb.apply_experience(G, owner, False, v.id, v.version)
    while v.state.pending:
        p = v.state.pending[0]
        v = pb.choose(G, owner, False, v.id, v.version, p.warrior_id, p.kind, p.options[0] if p.kind == "choose" else "Sprint")
    v = pb.explore(G, owner, False, v.id, v.version)
    v = pb.finish(G, owner, False, v.id, pb.sell(G, owner, False, v.id, v.version, 0).version)
    return v


def test_a_captured_hero_is_away_and_his_captor_asks_a_ransom_his_owner_pays(c):
    red = warband(c, "Red", RED)
    warband(c, "Blue", BLUE)
    c.record_battle_between(G, RED, False, "Red", "Blue", result="loss")
    sheet = c.show_warband(G, "Red")
    models, rating, heroes = sheet.models, sheet.rating.total, sheet.heroes
    v = capture(c, "Red", RED, red["Red Champion"])
    assert v.warrior(red["Red Champion"]).status == "captured"
    assert "Red Champion is held by Blue: its owner may ransom him, exchange him or sell him to the slavers" in v.state.notes[0]
    sheet = c.show_warband(G, "Red")
    assert sheet.rating.total < rating  # away: no rating (nor fighting, nor the income chart's size)
    assert (sheet.models, sheet.heroes) == (models, heroes)  # but his place on the roster is kept for its limits (issue 16)
    cap = Captives(c.store)
    held = cap.view(G, "Blue").held
    assert [(x.name, x.warband, x.captor, x.kit) for x in held] == [("Red Champion", "Red", "Blue", ("Dagger", "Sword"))]
    assert [x.name for x in cap.view(G, "Red").taken] == ["Red Champion"]
    with pytest.raises(PermissionDenied):
        cap.offer_ransom(G, RED, False, held[0].id, 1)  # the captor sets the price
    with pytest.raises(MordheimError, match="has asked no ransom for Red Champion yet"):
        cap.pay_ransom(G, RED, False, held[0].id)
    cap.offer_ransom(G, BLUE, False, held[0].id, 40)
    red_gold, blue_gold = c.get_warband(G, "Red").gold_crowns, c.get_warband(G, "Blue").gold_crowns
    with pytest.raises(PermissionDenied):
        cap.pay_ransom(G, BLUE, False, held[0].id)  # the captive's owner pays
    done = cap.pay_ransom(G, RED, False, held[0].id)
    assert done.lines == ("Red paid 40 gc to Blue: Red Champion is back with all his kit.",) and done.taken == ()
    assert c.get_warband(G, "Red").gold_crowns == red_gold - 40 and c.get_warband(G, "Blue").gold_crowns == blue_gold + 40
    back = c.get_warrior(G, "Red", "Red Champion")
    assert back.status == "active" and back.equipment == ("Dagger", "Sword")
    assert any(e.what == "captive.ransom" for e in c.ledger(G, "Blue", limit=5))
    assert any(e.what == "captive.ransomed" for e in c.ledger(G, "Red", limit=5))
    with pytest.raises(MordheimError, match="no longer held captive"):
        cap.pay_ransom(G, RED, False, held[0].id)


def test_sold_to_the_slavers_his_kit_stays_with_the_captor(c):
    red = warband(c, "Red", RED)
    warband(c, "Blue", BLUE)
    c.record_battle_between(G, RED, False, "Red", "Blue", result="loss")
    capture(c, "Red", RED, red["Red Champion"])
    cap = Captives(c.store)
    captive = cap.view(G, "Blue").held[0]
    gold = c.get_warband(G, "Blue").gold_crowns
    sold = cap.sell(G, BLUE, False, captive.id, entered="3")  # D6 3: 15 gc
    assert sold.dice == ("Slavers' price for Red Champion (D6x5 gc): D6 3 (entered)",)
    assert c.get_warband(G, "Blue").gold_crowns == gold + 15 and c.get_warband(G, "Blue").stash == ("Dagger", "Sword")
    gone = c.get_warrior(G, "Red", "Red Champion")
    assert gone.status == "retired" and gone.equipment == ()


def test_captives_are_exchanged_one_for_the_other(c):
    red = warband(c, "Red", RED)
    blue = warband(c, "Blue", BLUE)
    c.record_battle_between(G, RED, False, "Red", "Blue", result="draw")
    capture(c, "Red", RED, red["Red Champion"])
    capture(c, "Blue", BLUE, blue["Blue Champion"])
    cap = Captives(c.store)
    held_by_blue = cap.view(G, "Blue").held[0]
    held_by_red = cap.view(G, "Red").held[0]
    with pytest.raises(MordheimError, match="is not a warrior of Blue held by Red"):
        cap.exchange(G, BLUE, False, held_by_blue.id, held_by_blue.id)
    cap.exchange(G, BLUE, False, held_by_blue.id, held_by_red.id)
    assert c.get_warrior(G, "Red", "Red Champion").status == "active" and c.get_warrior(G, "Blue", "Blue Champion").status == "active"
    assert cap.view(G, "Red").held == () and cap.view(G, "Blue").held == ()
    # one piece or not at all: neither owner takes back the exchange alone; Manage Server takes back both
    for owner, name in ((RED, "Red"), (BLUE, "Blue")):
        with pytest.raises(PermissionDenied, match="the exchange of Red Champion of Red for Blue Champion of Blue"):
            c.undo_last_batch(G, owner, False, name)
    undone = c.undo_last_batch(G, 99, True, "Red")
    assert [(e.warband, e.what) for e in undone] == [("Red", "undo captive.exchanged"), ("Blue", "undo captive.exchanged")]
    assert c.get_warrior(G, "Red", "Red Champion").status == "captured" and c.get_warrior(G, "Blue", "Blue Champion").status == "captured"
    assert [x.name for x in cap.view(G, "Blue").held] == ["Red Champion"] and [x.name for x in cap.view(G, "Red").held] == ["Blue Champion"]


def test_a_captor_outside_the_server_leaves_the_owner_to_record_it_and_undo_frees_him(c):
    red = warband(c, "Red", RED)
    c.record_battle(G, RED, False, "Red", result="loss", opponents="Pete's Orcs")
    v = capture(c, "Red", RED, red["Red Champion"])
    assert "record his fate with `/postbattle captives`" in v.state.notes[0]
    cap = Captives(c.store)
    captive = cap.view(G, "Red").taken[0]
    assert captive.captor is None
    with pytest.raises(MordheimError, match="outside this server's campaign"):
        cap.offer_ransom(G, RED, False, captive.id, 10)
    gold = c.get_warband(G, "Red").gold_crowns
    cap.settle_outside(G, RED, False, captive.id, "ransomed", price=25)
    assert c.get_warband(G, "Red").gold_crowns == gold - 25 and c.get_warrior(G, "Red", "Red Champion").status == "active"
    c.undo_last_batch(G, RED, False, "Red")  # the ransom taken back: held again
    assert [x.name for x in cap.view(G, "Red").taken] == ["Red Champion"]
    c.undo_last_batch(G, RED, False, "Red")  # the sequence taken back: never captured
    assert cap.view(G, "Red").taken == () and c.get_warrior(G, "Red", "Red Champion").status == "active"


def test_a_battle_recorded_against_several_warbands_of_the_server_lets_the_captives_owner_name_his_captor(c):
    """Issue 16: a multiplayer battle typed in ``/battle record opponents:``, no record of who took
    him out: his owner says which of the server's warbands holds him (not "outside this server")."""
    red = warband(c, "Red", RED)
    warband(c, "Blue", BLUE)
    warband(c, "Green", 30)
    c.record_battle(G, RED, False, "Red", result="loss", opponents="Blue, Green and Pete's Orcs")
    v = capture(c, "Red", RED, red["Red Champion"])
    assert "Red Champion is held by Blue or Green: say which with `/postbattle captives`" in v.state.notes[0]
    cap = Captives(c.store)
    captive = cap.view(G, "Red").taken[0]
    blue_id, green_id = c.get_warband(G, "Blue").id, c.get_warband(G, "Green").id
    assert captive.captor is None and captive.candidates == ((blue_id, "Blue"), (green_id, "Green"))
    with pytest.raises(PermissionDenied):
        cap.choose_captor(G, BLUE, False, captive.id, blue_id)  # his own warband's owner says who holds him
    with pytest.raises(MordheimError, match="did not fight Red in the battle"):
        cap.choose_captor(G, RED, False, captive.id, c.get_warband(G, "Red").id)
    done = cap.choose_captor(G, RED, False, captive.id, green_id)
    assert done.lines[0].startswith("Red Champion is held by Green: its owner may ransom him")
    assert [(x.name, x.captor, x.candidates) for x in done.taken] == [("Red Champion", "Green", ())]
    assert [x.name for x in cap.view(G, "Green").held] == ["Red Champion"] and cap.view(G, "Blue").held == ()
    with pytest.raises(MordheimError, match="captor is known already"):
        cap.choose_captor(G, RED, False, captive.id, blue_id)
    cap.offer_ransom(G, 30, False, captive.id, 20)  # Green's owner now decides his fate


def test_one_warband_of_the_server_among_the_typed_opponents_is_the_captor(c):
    red = warband(c, "Red", RED)
    warband(c, "Blue", BLUE)
    c.record_battle(G, RED, False, "Red", result="loss", opponents="Pete's Orcs & blue")
    v = capture(c, "Red", RED, red["Red Champion"])
    assert "Red Champion is held by Blue: its owner may ransom him" in v.state.notes[0]
    assert [x.name for x in Captives(c.store).view(G, "Blue").held] == ["Red Champion"]


@pytest.mark.parametrize(("profile", "won"), [
    (dict(M=4, WS=9, BS=3, S=9, T=9, W=3, I=9, A=4, Ld=9), True),  # he cannot lose to a pit fighter
    (dict(M=4, WS=1, BS=1, S=1, T=1, W=1, I=1, A=1, Ld=5), False),  # he cannot win
])
def test_sold_to_the_pits_is_fought_with_the_combat_engine_and_applied(c, profile, won):
    import random

    c.create_warband(G, RED, "Red", "Reikland", gold_crowns=100)
    c.add_warrior(G, RED, False, "Red", "Boss", role="leader", warrior_type="Captain", profile=profile)
    c.add_warrior(G, RED, False, "Red", "Hans", role="hero", warrior_type="Champion", profile=profile, experience=3,
                  equipment=["Sword", "Helmet"])
    c.record_battle(G, RED, False, "Red", result="loss")
    hans = c.get_warrior(G, "Red", "Hans")
    pb = PostBattle(c.store, random.Random(5))
    v = pb.start(G, RED, False, "Red")
    v = pb.set_fighters(G, RED, False, v.id, v.version, out_of_action={hans.id: 1})
    v = pb.roll_injuries(G, RED, False, v.id, pb.confirm_fighters(G, RED, False, v.id, v.version).version, entered={hans.id: "65"})
    assert [p.kind for p in v.state.pending] == ["pit_fight"] and v.state.step == "injuries"
    v = pb.fight_pit(G, RED, False, v.id, v.version, hans.id, entered="4 11" if not won else "4")  # Hans charges; dead on 11
    assert v.state.step == "experience" and v.state.pending == ()
    assert v.state.lines[-2].startswith(f"Hans fought the pit fighter (") and v.state.lines[-2].endswith("won" if won else "lost")
    assert "Pit fight: who charges (4+ Hans): D6 4 (entered)" in v.state.dice
    assert any(d.startswith("Pit fight, round 1 (Hans's turn): ") for d in v.state.dice)
    after = v.warrior(hans.id)
    if won:
        assert (after.experience, v.gold_crowns, after.status, after.equipment) == (5, 150, "active", ("Sword", "Helmet"))
    else:
        assert after.status == "dead" and "Pit fight lost by Hans: dead on 11-35: D66 11 (entered)" in v.state.dice
    assert v.state.extra["pit_fights"]["Hans"][0] == "Hans charges."
