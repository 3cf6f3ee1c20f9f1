"""Experience awards and advance rolls: every result of both tables, racial maxima respected."""

from __future__ import annotations

import pytest

from engine.campaign.rules.advances import choose_characteristic, henchman_advance, hero_advance, learn_skill, promote
from engine.dice.source import Dice
from engine.campaign.rules.experience import battle_experience
from engine.campaign.rules.campaign_warrior import CampaignWarrior
from engine.campaign.actions.postbattle import talent_skill_lists
from engine.errors import MordheimError
from engine.campaign.rules.campaign_rules import default_rules
from engine.campaign.lists.catalogue import bundled_catalogue
from engine.campaign.model import Profile

TABLES = default_rules().tables
HUMAN_MAX = TABLES.default_maximum  # M4 WS6 BS6 S4 T4 W3 I6 A4 Ld9
START = Profile(M=4, WS=3, BS=3, S=3, T=3, W=1, I=3, A=1, Ld=7)


def man(role="hero", **kw) -> CampaignWarrior:
    return CampaignWarrior(**{**dict(name="Otto", role=role, profile=START, maximum=HUMAN_MAX), **kw})


def at_max(*chars: str, **kw) -> CampaignWarrior:
    return man(profile=Profile(**{**START.as_dict(), **{c: getattr(HUMAN_MAX, c) for c in chars}}), **kw)


@pytest.mark.parametrize("dice", ["1 1", "2 3", "1 4", "5 5", "6 4", "6 6"])  # 2, 5, 5 ... 10, 12
def test_hero_new_skill(dice):
    a = hero_advance(man(), TABLES.hero_advances, Dice.entered(dice))
    assert a.skill and a.waiting and a.warrior == man()


@pytest.mark.parametrize(("d6", "char"), [(1, "S"), (3, "S"), (4, "A"), (6, "A")])
def test_hero_6_strength_or_attacks(d6, char):
    a = hero_advance(man(), TABLES.hero_advances, Dice.entered(f"3 3 {d6}"))
    assert a.characteristic == char and getattr(a.warrior.profile, char) == getattr(START, char) + 1


def test_hero_7_chooses_ws_or_bs():
    a = hero_advance(man(), TABLES.hero_advances, Dice.entered("3 4"))
    assert a.choose_from == ("WS", "BS") and a.warrior == man()
    chosen = choose_characteristic(a, "bs")
    assert chosen.warrior.profile.BS == 4 and not chosen.waiting
    with pytest.raises(MordheimError, match="not one of the choices"):
        choose_characteristic(a, "S")


@pytest.mark.parametrize(("d6", "char"), [(2, "I"), (5, "Ld")])
def test_hero_8_initiative_or_leadership(d6, char):
    assert hero_advance(man(), TABLES.hero_advances, Dice.entered(f"4 4 {d6}")).characteristic == char


@pytest.mark.parametrize(("d6", "char"), [(3, "W"), (4, "T")])
def test_hero_9_wounds_or_toughness(d6, char):
    assert hero_advance(man(), TABLES.hero_advances, Dice.entered(f"4 5 {d6}")).characteristic == char


def test_hero_at_maximum_takes_the_other_of_the_pair():
    a = hero_advance(at_max("S"), TABLES.hero_advances, Dice.entered("3 3 1"))
    assert a.characteristic == "A" and "S is at its maximum" in a.notes[0]
    b = hero_advance(at_max("WS"), TABLES.hero_advances, Dice.entered("3 4"))
    assert b.characteristic == "BS" and b.warrior.profile.BS == 4


def test_hero_with_both_at_maximum_chooses_any_other():
    a = hero_advance(at_max("S", "A"), TABLES.hero_advances, Dice.entered("3 3 5"))
    assert a.choose_from and "S" not in a.choose_from and "A" not in a.choose_from and "WS" in a.choose_from
    assert choose_characteristic(a, "WS").warrior.profile.WS == 4


def test_hero_at_every_maximum_takes_a_skill():
    a = hero_advance(man(profile=HUMAN_MAX), TABLES.hero_advances, Dice.entered("3 4"))
    assert a.skill and "every other characteristic" in a.notes[0]


def test_learn_skill_from_his_lists_once():
    a = hero_advance(man(skills=("Dodge",)), TABLES.hero_advances, Dice.entered("1 1"))
    learnt = learn_skill(a, "strike to injure", ["Strike to Injure", "Dodge", "Step Aside"])
    assert learnt.warrior.skills == ("Dodge", "Strike to Injure") and not learnt.waiting
    with pytest.raises(MordheimError, match="already has"):
        learn_skill(a, "dodge", None)
    with pytest.raises(MordheimError, match="not on Otto's skill lists"):
        learn_skill(a, "Sprint", ["Strike to Injure"])
    assert learn_skill(a, "Sprint", None).warrior.skills[-1] == "Sprint"  # lists unknown: any skill


def group(**kw) -> CampaignWarrior:
    return man(role="henchmen", name="Marksmen", group_size=3, **kw)


@pytest.mark.parametrize(("dice", "char"), [("1 1", "I"), ("2 2", "I"), ("2 3", "S"), ("4 4", "A"), ("4 5", "Ld")])
def test_henchman_characteristics(dice, char):
    a = henchman_advance(group(), TABLES.henchman_advances, Dice.entered(dice), heroes_full=False)
    assert a.characteristic == char and a.warrior.increased == (char,)


@pytest.mark.parametrize("dice", ["3 3", "3 4"])
def test_henchman_6_7_chooses_bs_or_ws(dice):
    a = henchman_advance(group(), TABLES.henchman_advances, Dice.entered(dice), heroes_full=False)
    assert a.choose_from == ("BS", "WS")
    assert choose_characteristic(a, "WS").warrior.increased == ("WS",)


@pytest.mark.parametrize("dice", ["4 6", "5 6", "6 6"])
def test_henchman_lads_got_talent(dice):
    a = henchman_advance(group(), TABLES.henchman_advances, Dice.entered(dice), heroes_full=False)
    assert a.talent
    p = promote(a.warrior, "Young Karl", ())
    assert p.hero.role == "hero" and p.hero.group_size == 1 and p.group.group_size == 2


def test_talent_is_rolled_again_with_the_most_heroes_or_for_the_rest_of_a_promoted_group():
    a = henchman_advance(group(), TABLES.henchman_advances, Dice.entered("6 6 2 3"), heroes_full=True)
    assert a.characteristic == "S" and "most heroes" in a.notes[0]
    b = henchman_advance(group(), TABLES.henchman_advances, Dice.entered("6 6 2 3"), heroes_full=False, talent_allowed=False)
    assert b.characteristic == "S" and "promoted group" in b.notes[0]


def test_henchmen_raise_each_characteristic_once_and_reroll():
    once = group(increased=("S",))
    a = henchman_advance(once, TABLES.henchman_advances, Dice.entered("2 3 4 4"), heroes_full=False)
    assert a.characteristic == "A" and "+1 already taken" in a.notes[0]
    b = henchman_advance(group(increased=("WS",)), TABLES.henchman_advances, Dice.entered("3 3"), heroes_full=False)
    assert b.characteristic == "BS"  # the other of the choice, no re-roll


def test_a_promoted_lad_takes_two_skill_lists_his_warbands_heroes_may_use():
    catalogue = bundled_catalogue()
    reikland = catalogue.warband("reikland")  # heroes: combat, shooting, academic, strength, speed
    for typed in [("combat",), ("combat", "combat"), ("combat", "skaven"), ("combat", "speed", "academic"), ()]:
        with pytest.raises(MordheimError, match="two different skill lists") as refused:
            talent_skill_lists(typed, catalogue, reikland)
        assert "Combat" in refused.value.hint and "Skaven" not in refused.value.hint
    assert talent_skill_lists(("Combat", " speed "), catalogue, reikland) == ("combat", "speed")  # names or ids, any case
    assert talent_skill_lists((), catalogue, None) == ()  # a custom warband may leave them out
    assert talent_skill_lists(("academic", "Strength"), catalogue, None) == ("academic", "strength")
    g = group()
    assert promote(g, "Karl", ("combat", "speed")).hero.skill_lists == ("combat", "speed")


def test_usual_experience_awards():
    awards = TABLES.awards
    leader = man(role="leader")
    assert [(e.award, e.amount) for e in battle_experience(leader, awards, won=True, enemies_out_of_action=2)] == [
        ("Survives", 1), ("Winning leader", 1), ("Enemy out of action ×2", 2)]
    assert battle_experience(man(status="dead"), awards, won=True) == ()
    assert [e.amount for e in battle_experience(group(), awards, won=False, scenario=1)] == [1, 1]
    with pytest.raises(MordheimError, match="only heroes"):
        battle_experience(group(), awards, won=False, enemies_out_of_action=1)
