"""Campaign rules data (rules_data/campaign) and a server's override of it."""

from __future__ import annotations

import json
import random

import pytest

from engine.errors import PermissionDenied
from engine.campaign.service import Campaigns
from engine.errors import InvalidData
from engine.campaign.rules.campaign_rules import CAMPAIGN_DATA, D66_ROLLS, default_rules, validate_data, validate_override

from tests.conftest import both_backends

pytestmark = both_backends


def test_bundled_data_is_valid_and_names_its_source():
    data = json.loads(CAMPAIGN_DATA.read_text(encoding="utf-8"))
    assert validate_data(data) == []
    assert "Living Rulebook" in data["source"]
    assert any("000:1693" in d and "11-16" in d for d in data["discrepancies"])
    assert "000:1475" in data["halfling_cookbook"]["seed"]
    assert "000:1499" in data["henchman_out_of_action"]["seed"]


def test_advance_thresholds():
    rules = default_rules()
    assert rules.hero_advance_xp[:5] == (2, 4, 6, 8, 11) and rules.hero_advance_xp[-1] == 90
    assert rules.henchman_advance_xp == (2, 5, 9, 14)
    assert rules.next_advance("hero", 0) == 2
    assert rules.next_advance("leader", 20) == 24
    assert rules.next_advance("hero", 90) is None
    assert rules.next_advance("henchmen", 14) is None
    assert rules.advances_between("henchmen", 1, 9) == [2, 5, 9]


def test_serious_injury_chart_covers_every_d66_roll():
    rules = default_rules()
    assert {rules.serious_injury(r).name for r in (11, 15)} == {"Dead"}
    assert rules.serious_injury(16).name == "Multiple injuries"  # LRB; seed 000:1693 says 11-16 (recorded)
    assert rules.serious_injury(66).name == "Survives against the odds"
    assert all(rules.serious_injury(r) for r in D66_ROLLS)
    d66, entry = rules.roll_serious_injury(random.Random(3))
    assert d66 in D66_ROLLS and entry == rules.serious_injury(d66)


def test_henchmen_out_of_action():  # seed 000:1499
    rules = default_rules()
    assert [rules.henchman_survives(d) for d in range(1, 7)] == [False, False, True, True, True, True]


def test_override_problems_are_all_listed():
    problems = validate_override({
        "hero_advance_xp": [5, 3],
        "max_henchman_group_size": 0,
        "serious_injuries": [{"from": 11, "to": 16, "name": "Dead"}],
        "nonsense": 1,
        "source": "me",
    })
    assert len(problems) == 5


def test_server_override_changes_the_rules(open_database):
    with open_database() as store:
        c = Campaigns(store)
        with pytest.raises(PermissionDenied):
            c.set_campaign_rules(1, 2, False, {"max_henchman_group_size": 6})
        with pytest.raises(InvalidData, match="max_warband_size"):
            c.set_campaign_rules(1, 2, True, '{"max_warband_size": -1}')
        c.set_campaign_rules(1, 2, True, '{"max_henchman_group_size": 6, "rating": {"per_warrior": 4}}')
        c.create_warband(1, 2, "Six Pack", "Skaven")
        w = c.add_warrior(1, 2, False, "Six Pack", "Boyz", role="henchmen", warrior_type="Orc",
                          profile=dict(M=4, WS=3, BS=3, S=3, T=4, W=1, I=2, A=1, Ld=7), group_size=6)
        assert w.group_size == 6
        sheet = c.show_warband(1, "Six Pack")
        assert sheet.rating.total == 6 * 4 and sheet.max_models == 20
        assert c.campaign_rules(2).max_henchman_group_size == 5  # other servers untouched
        c.set_campaign_rules(1, 2, True, None)
        assert c.campaign_rules(1).max_henchman_group_size == 5
