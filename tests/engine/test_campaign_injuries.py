"""Serious injuries and the henchmen's out-of-action roll: every chart entry's effect applied."""

from __future__ import annotations

import random

import pytest

from engine.dice.source import Dice
from engine.campaign.rules.injuries import henchmen_out_of_action, serious_injury, settle_pit_fight
from engine.campaign.rules.campaign_warrior import CampaignWarrior
from engine.errors import MordheimError
from engine.campaign.rules.campaign_rules import build_rules, default_rules
from engine.campaign.model import Profile

RULES = default_rules()
START = Profile(M=4, WS=4, BS=4, S=3, T=3, W=1, I=4, A=1, Ld=8)


def hero(**kw) -> CampaignWarrior:
    base = dict(name="Hans", role="hero", profile=START, maximum=RULES.tables.default_maximum,
                equipment=("sword", "light armour"), experience=10)
    return CampaignWarrior(**{**base, **kw})


def injure(dice: str, **kw):
    d = Dice.entered(dice)
    result = serious_injury(hero(**kw), RULES, d)
    assert d.unused == ()
    return result


def changed(result) -> dict[str, int]:
    return {c: v - START.as_dict()[c] for c, v in result.warrior.profile.as_dict().items() if v != START.as_dict()[c]}


@pytest.mark.parametrize("d66", [11, 12, 13, 14, 15])
def test_dead_loses_everything(d66):
    r = injure(str(d66))
    assert r.warrior.status == "dead" and r.warrior.equipment == ()
    assert r.results == (f"Dead (dead; all he carried is lost) [{d66}]",)


def test_multiple_injuries_rolls_d6_more_and_rerolls_dead_captured_and_multiple():
    # 16 → D6 of 3 more; 12 (Dead), 61 (Captured), 21 (Multiple) are rolled again; 22, 34, 45 count.
    r = injure("16 3 12 22 61 34 21 45")
    assert r.warrior.status == "active" and not r.warrior.captured
    assert changed(r) == {"M": -1, "WS": -1}
    assert r.results == ("Multiple injuries: 3 more rolls", "Dead — re-rolled [12]", "Leg wound (−1 M) [22]",
                         "Captured — re-rolled [61]", "Hand injury (−1 WS) [34]", "Multiple injuries — re-rolled [21]",
                         "Full recovery [45]")
    assert r.warrior.injuries == ("Leg wound (−1 M)", "Hand injury (−1 WS)")


def test_leg_wound():
    r = injure("22")
    assert changed(r) == {"M": -1} and r.warrior.injuries == ("Leg wound (−1 M)",)


def test_arm_wound_severe_on_a_1_light_otherwise():
    severe = injure("23 1")
    assert severe.warrior.injuries == ("Arm wound (one arm: a single one-handed weapon only)",)
    assert severe.warrior.missed_games == 0
    light = injure("23 2")
    assert light.warrior.missed_games == 1 and light.warrior.injuries == ("Arm wound (misses 1 game)",)


@pytest.mark.parametrize(("d6", "rule"), [(1, "stupidity"), (3, "stupidity"), (4, "frenzy"), (6, "frenzy")])
def test_madness(d6, rule):
    assert injure(f"24 {d6}").warrior.injuries == (f"Madness ({rule})",)


def test_smashed_leg():
    assert "may not run" in injure("25 1").warrior.injuries[0]
    healing = injure("25 5")
    assert healing.warrior.missed_games == 1 and changed(healing) == {}


def test_chest_wound():
    assert changed(injure("26")) == {"T": -1}


def test_blinded_in_one_eye_then_the_other_retires():
    once = injure("31")
    assert changed(once) == {"BS": -1} and once.warrior.status == "active"
    twice = serious_injury(once.warrior, RULES, Dice.entered("31"))
    assert twice.warrior.status == "retired"
    assert twice.warrior.profile.BS == once.warrior.profile.BS  # retired, not blinded again
    assert "must retire" in twice.results[0]


def test_old_battle_wound():
    assert injure("32").warrior.injuries == ("Old battle wound (misses a battle on a D6 roll of 1 before it)",)


def test_nervous_condition():
    assert changed(injure("33")) == {"I": -1}


def test_hand_injury():
    assert changed(injure("34")) == {"WS": -1}


@pytest.mark.parametrize(("d6", "games"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_deep_wound_misses_d3_games(d6, games):
    assert injure(f"35 {d6}").warrior.missed_games == games


def test_robbed_loses_every_item():
    r = injure("36")
    assert r.warrior.equipment == () and r.warrior.status == "active"


@pytest.mark.parametrize("d66", [41, 44, 46, 51, 55])
def test_full_recovery_changes_nothing(d66):
    r = injure(str(d66))
    assert r.warrior == hero() and r.results == (f"Full recovery [{d66}]",)


@pytest.mark.parametrize(("d6", "whom"), [(2, "the warrior who injured him"), (4, "the enemy leader"),
                                          (5, "the enemy warband"), (6, "every warband of that type")])
def test_bitter_enmity(d6, whom):
    assert f"hatred of {whom}" in injure(f"56 {d6}").warrior.injuries[0]


def test_captured_keeps_his_kit_and_is_away():
    r = injure("61")
    assert r.warrior.captured and r.warrior.equipment == hero().equipment and r.warrior.status == "captured"


@pytest.mark.parametrize("d66", [62, 63])
def test_hardened(d66):
    assert injure(str(d66)).warrior.injuries == ("Hardened (immune to fear)",)


def test_horrible_scars():
    assert injure("64").warrior.injuries == ("Horrible scars (causes fear)",)


def test_sold_to_the_pits_won():
    r = injure("65")
    assert r.pit_fight is not None
    won = settle_pit_fight(r, True, Dice())
    assert won.gold == 50 and won.warrior.experience == 12 and won.warrior.equipment == hero().equipment
    assert won.pit_fight is None
    assert r.warrior.injuries == ("Sold to the pits (must fight in the pits)",)  # while the fight waits
    assert won.warrior.injuries == ("Sold to the pits (won the pit fight: +50 gc, +2 xp)",)  # then its outcome instead


def test_sold_to_the_pits_lost_dead_on_11_to_35():
    r = injure("65")
    dead = settle_pit_fight(r, False, Dice.entered("35"))
    assert dead.warrior.status == "dead" and dead.gold == 0
    assert dead.warrior.injuries == ("Sold to the pits (died in the pits)",)
    alive = settle_pit_fight(r, False, Dice.entered("36"))
    assert alive.warrior.status == "active" and alive.warrior.equipment == ()
    assert alive.warrior.injuries == ("Sold to the pits (lost the pit fight, and his kit)",)


def test_a_pit_fight_in_multiple_injuries_settles_its_own_mark_only():
    r = injure("16 2 65 22")  # two more rolls: Sold to the pits, then a leg wound
    assert r.warrior.injuries == ("Sold to the pits (must fight in the pits)", "Leg wound (−1 M)")
    won = settle_pit_fight(r, True, Dice())
    assert won.warrior.injuries == ("Sold to the pits (won the pit fight: +50 gc, +2 xp)", "Leg wound (−1 M)")


def test_survives_against_the_odds():
    r = injure("66")
    assert r.warrior.experience == 11


def test_the_bot_rolls_what_was_not_entered_and_says_so():
    d = Dice.entered("23", random.Random(4))
    r = serious_injury(hero(), RULES, d)
    assert [x.entered for x in r.rolls] == [True, False]


def test_a_d6_is_refused_where_a_d66_is_needed():
    with pytest.raises(MordheimError, match="a D6, not a D66"):
        serious_injury(hero(), RULES, Dice.entered("5"))
    with pytest.raises(MordheimError, match="not a D66"):
        serious_injury(hero(), RULES, Dice.entered("17"))
    with pytest.raises(MordheimError, match="cannot be rolled on a D6"):
        serious_injury(hero(), RULES, Dice.entered("24 7"))
    with pytest.raises(MordheimError, match="needs one more D6"):
        serious_injury(hero(), RULES, Dice.entered("24"))
    with pytest.raises(MordheimError, match="not a die roll"):
        Dice.entered("3x")


def test_every_label_fits_a_warriors_injury_list():
    for d66 in [11, 16, 22, 23, 24, 25, 26, 31, 32, 33, 34, 35, 36, 41, 56, 61, 62, 64, 65, 66]:
        for d6 in range(1, 7):
            r = serious_injury(hero(), RULES, Dice.entered(str(d66), random.Random(d6)))
            assert all(len(label) <= 64 for label in r.warrior.injuries), r.warrior.injuries


def test_characteristics_never_drop_below_1():
    r = serious_injury(hero(profile=Profile(M=1, WS=1, BS=1, S=1, T=1, W=1, I=1, A=1, Ld=1)), RULES, Dice.entered("22"))
    assert r.warrior.profile.M == 1


def test_henchmen_die_on_1_or_2_each():  # seed 000:1499
    group = CampaignWarrior(name="Marksmen", role="henchmen", profile=START, maximum=RULES.tables.default_maximum, group_size=3)
    r = henchmen_out_of_action(group, 3, RULES, Dice.entered("1 3 2"))
    assert r.lost == 2 and r.warrior.group_size == 1 and r.warrior.status == "active"
    gone = henchmen_out_of_action(group, 3, RULES, Dice.entered("2 2 1"))
    assert gone.warrior.status == "dead"
    safe = henchmen_out_of_action(group, 1, RULES, Dice.entered("3"))
    assert safe.lost == 0 and safe.warrior == group
    with pytest.raises(MordheimError, match="cannot have been taken out of action"):
        henchmen_out_of_action(group, 4, RULES, Dice())
    with pytest.raises(MordheimError, match="henchman"):
        serious_injury(group, RULES, Dice.entered("22"))


def test_an_old_names_only_override_keeps_working_with_the_bundled_effects():
    rules = build_rules({"serious_injuries": [{"from": 11, "to": 36, "name": "Dead"}, {"from": 41, "to": 66, "name": "Leg wound"}]})
    r = serious_injury(hero(), rules, Dice.entered("52"))
    assert r.warrior.profile.M == 3
    assert serious_injury(hero(), rules, Dice.entered("36")).warrior.status == "dead"


def test_a_pit_fight_round_without_dice_says_why():
    """A stunned hero struck by the pit fighter is out of action with no die rolled (seed
    000:783): the round's dice line says so instead of ending empty."""
    from engine.campaign.lists.catalogue import bundled_catalogue
    from engine.campaign.rules import pit_fight

    pit_fighter = pit_fight.pit_fighter(bundled_catalogue().hired_swords.values())
    skritch = pit_fight.Combatant("Skritch", Profile(M=5, WS=4, BS=4, S=3, T=3, W=1, I=5, A=1, Ld=7), ("Sword", "Dagger"))
    rounds = [d for seed in range(60)
              for d in pit_fight.fight(skritch, pit_fighter, Dice(random.Random(seed)), random.Random(seed)).dice
              if d.startswith("Pit fight, round")]
    assert not [d for d in rounds if d.endswith(": ")]
    assert "Pit fight, round 2 (the pit fighter's turn): no dice: Skritch was stunned, so he is out of action without a roll" in rounds
