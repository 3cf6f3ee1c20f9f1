"""A roster sheet is rebuilt exactly when something it shows has changed (on a real SQLite file)."""

import pytest

from engine.campaign.service import Campaigns

from tests.conftest import both_backends

pytestmark = both_backends

G, OWNER = 1, 10
HUMAN = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}


@pytest.fixture
def make(store):
    c = Campaigns(store)
    c.create_warband(G, OWNER, "Reavers", "Reiklanders")
    c.add_warrior(G, OWNER, False, "Reavers", "Otto", role="leader", warrior_type="Captain", profile=HUMAN)
    return c


def test_repeat_view_reuses_the_sheet(make):
    c = make
    assert c.show_warband(G, "Reavers") is c.show_warband(G, "reavers")


def test_every_kind_of_change_shows_at_once(make):
    c = make
    before = c.show_warband(G, "Reavers")
    c.change_treasury(G, OWNER, False, "Reavers", gold=25, reason="sold wyrdstone")
    after = c.show_warband(G, "Reavers")
    assert after is not before and after.warband.gold_crowns == before.warband.gold_crowns + 25
    c.add_xp(G, OWNER, False, "Reavers", "Otto", 3)
    assert c.show_warband(G, "Reavers").rating.total == after.rating.total + 3
    c.record_battle(G, OWNER, False, "Reavers", result="win")
    assert c.show_warband(G, "Reavers").record["win"] == 1
    c.undo_last(G, OWNER, False, "Reavers")
    assert c.show_warband(G, "Reavers").record["win"] == 0


def test_server_campaign_rules_change_the_sheet(make):
    c = make
    before = c.show_warband(G, "Reavers")
    c.set_campaign_rules(G, OWNER, True, {"rating": {"per_warrior": 4}})
    after = c.show_warband(G, "Reavers")
    assert after is not before and after.rating.total == before.rating.total - 1


def test_other_servers_never_share_a_sheet(make):
    c = make
    c.create_warband(2, OWNER, "Reavers", "Skaven")
    assert c.show_warband(2, "Reavers").warband.warband_type == "Skaven of Clan Eshin"  # the list 'Skaven' names
    assert c.show_warband(G, "Reavers").warband.warband_type == "Reikland Mercenaries"


def test_a_changed_warrior_is_read_again_and_the_rest_reused(make):
    c = make
    c.add_warrior(G, OWNER, False, "Reavers", "Hans", role="hero", warrior_type="Champion", profile=HUMAN)
    before = {w.name: w for w in c.show_warband(G, "Reavers").warband.warriors}
    c.equip(G, OWNER, False, "Reavers", "Otto", "sword")
    after = {w.name: w for w in c.show_warband(G, "Reavers").warband.warriors}
    assert after["Otto"].equipment == ("Sword",) and before["Otto"].equipment == ()  # the lists' spelling
    assert after["Hans"] is before["Hans"]  # unchanged row, same object
