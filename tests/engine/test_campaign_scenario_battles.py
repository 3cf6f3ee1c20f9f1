"""Battles stored with their scenario through the service: one side or both, a warband exported
and imported again (files carry the scenario's name only), and undo."""

from __future__ import annotations

import pytest

from engine.campaign.service import Campaigns
from engine.errors import MordheimError

from tests.conftest import both_backends

pytestmark = both_backends

G, OWNER = 31, 310
HUMAN = dict(M=4, WS=3, BS=3, S=3, T=3, W=1, I=3, A=1, Ld=7)  # seed 000:243


@pytest.fixture
def campaigns(open_database):
    store = open_database()
    c = Campaigns(store)
    c.create_warband(G, OWNER, "Raiders", "custom")
    c.add_warrior(G, OWNER, False, "Raiders", "Captain", role="leader", warrior_type="Human", profile=HUMAN, experience=20)
    yield c
    store.close()


def test_one_sides_battle_stores_the_scenarios_id_and_no_ratings(campaigns):
    b = campaigns.record_battle(G, OWNER, False, "Raiders", result="win", scenario="hidden treasure", opponents="Orcs")
    assert (b.scenario, b.scenario_id, b.rating, b.opponent_rating) == ("Hidden Treasure", "hidden-treasure", None, None)
    stored, = campaigns.list_battles(G, "Raiders")
    assert stored == b


def test_a_near_miss_is_refused_before_anything_is_stored(campaigns):
    with pytest.raises(MordheimError, match="`custom: Hiden Treasure`"):
        campaigns.record_battle(G, OWNER, False, "Raiders", result="win", scenario="Hiden Treasure")
    assert campaigns.list_battles(G, "Raiders") == []


def test_an_exported_warband_imported_again_keeps_its_battles_scenarios(campaigns):
    campaigns.record_battle(G, OWNER, False, "Raiders", result="win", scenario="Occupy")
    campaigns.record_battle(G, OWNER, False, "Raiders", result="loss", scenario="Bridge of Sighs")
    data = campaigns.export_warband(G, "Raiders")
    campaigns.delete_warband(G, OWNER, False, "Raiders")
    campaigns.import_warband(G, OWNER, data)
    battles = sorted(campaigns.list_battles(G, "Raiders"), key=lambda b: b.scenario)
    assert [(b.scenario, b.scenario_id) for b in battles] == [("Bridge of Sighs", None), ("Occupy", "occupy")]
    assert set(data["battles"][0]) == {"fought_on", "scenario", "opponents", "result", "notes"}  # the file's format is unchanged


def test_undo_removes_the_battle_and_its_scenario(campaigns):
    campaigns.record_battle(G, OWNER, False, "Raiders", result="draw", scenario="Skirmish")
    campaigns.undo_last_batch(G, OWNER, False, "Raiders")
    assert campaigns.list_battles(G, "Raiders") == []
