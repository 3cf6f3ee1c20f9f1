"""The seed tables reproduced exactly, with their lines."""

import json

from engine.combat import falling_hits, get_ruleset, jump_tests, make_fighter, shot_odds
from engine.combat.items import STATS, armour, equipment, weapons
from engine.combat.tables import bs_to_hit, cc_to_hit_chart, strength_save_modifier, to_wound_chart

# 000:699-715, rows attacker WS 1-10, columns defender WS 1-10
CC_CHART = """4 4 5 5 5 5 5 5 5 5
3 4 4 4 5 5 5 5 5 5
3 3 4 4 4 4 5 5 5 5
3 3 3 4 4 4 4 4 5 5
3 3 3 3 4 4 4 4 4 4
3 3 3 3 3 4 4 4 4 4
3 3 3 3 3 3 4 4 4 4
3 3 3 3 3 3 3 4 4 4
3 3 3 3 3 3 3 3 4 4
3 3 3 3 3 3 3 3 3 4"""

# 000:521-533 (the full shooting copy; 000:721-731 lacks T10), rows S1-10, columns T1-10
WOUND_CHART = """4 5 6 6 - - - - - -
3 4 5 6 6 - - - - -
2 3 4 5 6 6 - - - -
2 2 3 4 5 6 6 - - -
2 2 2 3 4 5 6 6 - -
2 2 2 2 3 4 5 6 6 -
2 2 2 2 2 3 4 5 6 6
2 2 2 2 2 2 3 4 5 6
2 2 2 2 2 2 2 3 4 5
2 2 2 2 2 2 2 2 3 4"""


def test_bs_table_000_518():
    assert [bs_to_hit(bs) for bs in range(1, 11)] == [6, 5, 4, 3, 2, 1, 0, -1, -2, -3]


def test_close_combat_to_hit_chart_000_699():
    for a, row in enumerate(CC_CHART.splitlines(), start=1):
        assert [cc_to_hit_chart(a, d) for d in range(1, 11)] == [int(x) for x in row.split()], a


def test_wound_chart_000_521():
    for s, row in enumerate(WOUND_CHART.splitlines(), start=1):
        assert [to_wound_chart(s, t) for t in range(1, 11)] == [None if x == "-" else int(x) for x in row.split()], s


def test_strength_save_modifiers_000_598():
    assert [strength_save_modifier(s) for s in range(1, 11)] == [0, 0, 0, -1, -2, -3, -4, -5, -6, -6]


def test_core2_formulas_004():
    r = get_ruleset("core2")
    assert r.to_wound_target(3, 10) == 6  # 004:377 a 6 always wounds
    assert r.to_wound_target(10, 1) == 2  # a 1 always fails
    assert r.cc_needed(1, 10, 0, False) == 5  # 004:543 never worse than 5+
    assert r.cc_needed(3, 3, 0, True) == 6  # 004:674 fear overrides the cap


def test_s3_bow_vs_t4_needs_5_004_378():
    # 004:378 "Strength 3 bow ... Orc with Toughness 4 ... needs to roll a 5+"; 000's chart agrees
    assert get_ruleset("core2").to_wound_target(3, 4) == 5
    assert get_ruleset("lrb").to_wound_target(3, 4) == 5


def test_heavy_armour_and_shield_vs_crossbow_saves_on_5_000_609():
    r = get_ruleset("lrb")
    dieter = make_fighter("Dieter", "human", armour="heavy armour, shield")
    assert dieter.armour_save(shooting=True) == 4
    assert dieter.armour_save(shooting=True) - r.save_modifier(4, 0, False) == 5


def test_crossbow_odds_match_hand_computation():
    dieter = make_fighter("Dieter", "human", armour="heavy armour, shield")
    o = shot_odds(make_fighter("Shooter"), dieter, "crossbow", range_inches=10).fighters[0]
    # hit 4+ (1/2), wound S4 vs T3 3+ (2/3); criticals on a 6 ignore or double; unharmed > 0.5
    assert abs(sum(o.outcomes.values()) - 1) < 1e-12
    assert 0.5 < o.outcomes["unharmed"] < 1


def test_falling_000_431_and_jumping_000_415():
    assert falling_hits(4) == {"hits": "D3", "strength": 4, "armour_save": False, "criticals": False, "source": "000:431"}
    assert jump_tests(5) == 2
    assert jump_tests(6) == 3


def test_every_data_file_follows_the_schema():
    for name, key in (("weapons", "weapons"), ("armour", "armour"), ("equipment", "equipment")):
        doc = json.loads((STATS / f"{name}.json").read_text(encoding="utf-8"))
        assert doc["schema_version"] == 1
        for item in doc[key]:
            assert item["id"] == item["id"].lower() and " " not in item["id"]
            assert item["name"] and isinstance(item["aliases"], list)
            assert item["source"].startswith("000:")
    for w in weapons().values():
        assert w.kind in ("close", "missile")
        assert w.critical in ("bladed", "bludgeoning", "missile", "unarmed", "thrusting")
    for needed in ("sword", "morning-star", "double-handed-weapon", "crossbow-pistol", "hochland-long-rifle"):
        assert needed in weapons()
    assert {"light-armour", "heavy-armour", "gromril-armour", "ithilmar-armour", "shield", "buckler", "helmet"} <= set(armour())
    assert {"black-lotus", "dark-venom", "lucky-charm", "elven-cloak", "mandrake-root"} <= set(equipment())


def test_creature_templates_agree_with_the_warband_lists():
    """A template that is also a fighter of a warband list (rules_data/warbands) has its profile,
    and every rule of that fighter the engine plays is among the template's traits."""
    from engine.combat.profile import find_template
    from engine.combat.special_rules import LIST_RULES, TARGETED_LIST_RULES
    from engine.campaign.lists.catalogue import bundled_catalogue

    catalogue = bundled_catalogue()
    doc = json.loads((STATS / "creatures.json").read_text(encoding="utf-8"))
    linked = [c for c in doc["creatures"] if c.get("warband_list")]
    assert len(linked) >= 7
    for c in linked:
        list_id, fighter_id = c["warband_list"].split("/")
        fighter = next(f for f in catalogue.warbands[list_id].fighters if f.id == fighter_id)
        assert fighter.profile.as_dict() == c["profile"], c["id"]
        played = {({**LIST_RULES, **TARGETED_LIST_RULES}).get(r.id) for r in fighter.special_rules} - {None}
        assert played <= find_template(c["id"]).traits, (c["id"], played)
