"""Engineer B's warband data (issue #8 §1): the common skill lists and seven published warbands.

The loader's own tests (test_warband_lists.py) check every file's schema and cross-references;
these check what is particular to these files, through the same loader the bot uses.
"""

from __future__ import annotations

import pytest

from engine.campaign.lists import catalogue as lists
from engine.campaign.lists.checks import COMMON_SKILL_LISTS

B_WARBANDS = ("orc-mob", "dwarf-treasure-hunters", "beastmen-raiders", "averlanders", "ostlanders",
              "kislevites", "carnival-of-chaos")


@pytest.fixture(scope="module")
def catalogue() -> lists.Catalogue:
    return lists.bundled_catalogue()


# ---------------------------------------------------------------- skills.json


def test_the_five_common_lists_hold_every_rulebook_skill(catalogue):
    by_list = {list_id: {s.name for s in skill_list.skills} for list_id, skill_list in catalogue.skill_lists.items()
               if list_id in COMMON_SKILL_LISTS}
    assert by_list == {
        "combat": {"Strike to Injure", "Combat Master", "Weapons Training", "Web of Steel",
                   "Expert Swordsman", "Step Aside"},
        "shooting": {"Quick Shot", "Pistolier", "Eagle Eyes", "Weapons Expert", "Nimble",
                     "Trick Shooter", "Hunter", "Knife-Fighter"},
        "academic": {"Battle Tongue", "Sorcery", "Streetwise", "Haggle", "Arcane Lore",
                     "Wyrdstone Hunter", "Warrior Wizard"},
        "strength": {"Mighty Blow", "Pit Fighter", "Resilient", "Fearsome", "Strongman",
                     "Unstoppable Charge"},
        "speed": {"Leap", "Sprint", "Acrobat", "Lightning Reflexes", "Jump Up", "Dodge",
                  "Scale Sheer Surfaces"},
    }


def test_every_common_skill_has_its_own_summary(catalogue):
    every = [s for skill_list in catalogue.skill_lists.values() if skill_list.id in COMMON_SKILL_LISTS for s in skill_list.skills]
    assert len({s.id for s in every}) == len({s.summary for s in every}) == len(every) == 34
    assert all(s.list_id in catalogue.skill_lists for s in every)


def test_streetwise_is_the_only_common_skill_the_trading_post_reads(catalogue):
    with_effects = {s.id: dict(s.effects) for skill_list in catalogue.skill_lists.values() if skill_list.id in COMMON_SKILL_LISTS
                    for s in skill_list.skills if s.effects}
    assert with_effects == {"streetwise": {"rare_item_search": 2}}


def test_skills_only_some_heroes_may_take_say_who(catalogue):
    restricted = {s.id: s.restriction for skill_list in catalogue.skill_lists.values() if skill_list.id in COMMON_SKILL_LISTS
                  for s in skill_list.skills if s.restriction}
    assert set(restricted) == {"battle-tongue", "sorcery", "arcane-lore", "warrior-wizard"}
    assert "Leaders" in restricted["battle-tongue"]


# ---------------------------------------------------------------- the seven published warbands


def test_all_seven_warbands_load_and_are_found_by_what_players_type(catalogue):
    for typed, warband_id in [("Orcs", "orc-mob"), ("dwarfs", "dwarf-treasure-hunters"), ("Beastmen", "beastmen-raiders"),
                              ("Averland", "averlanders"), ("ostland", "ostlanders"), ("Kislev", "kislevites"),
                              ("Carnival", "carnival-of-chaos")]:
        assert catalogue.find_warband(typed).id == warband_id


# A starting warband for each list, bought the way a player would: (fighter, models, items each
# model carries beyond the free dagger). Costs and prices come from the catalogue, never from here.
STARTING_WARBANDS = {
    "orc-mob": [("orc-boss", 1, ["sword", "helmet"]), ("orc-shaman", 1, []), ("big-un", 2, ["axe", "shield"]),
                ("orc-boyz", 3, ["axe", "shield"]), ("goblin-warriors", 4, ["short-bow"]), ("cave-squigs", 2, [])],
    "dwarf-treasure-hunters": [("noble", 1, ["axe", "shield", "helmet"]), ("engineer", 1, ["handgun"]),
                               ("troll-slayer", 1, ["axe"]), ("clansmen", 2, ["axe", "shield"]),
                               ("thunderers", 2, ["crossbow"])],
    "beastmen-raiders": [("beastmen-chieftain", 1, ["axe", "shield"]), ("beastmen-shaman", 1, []),
                         ("bestigor", 2, ["double-handed-weapon"]), ("gor", 3, ["axe", "shield"]), ("ungor", 2, ["spear"])],
    "averlanders": [("captain", 1, ["sword", "pistol"]), ("sergeant", 1, ["halberd"]), ("bergjaeger", 1, ["long-bow"]),
                    ("youngblood", 1, ["spear"]), ("mountainguard", 2, ["halberd"]), ("marksmen", 2, ["crossbow"]),
                    ("halfling-scouts", 2, ["bow"])],
    "ostlanders": [("elder", 1, ["sword", "light-armour"]), ("priest-of-taal", 1, []),
                   ("blood-brothers", 2, ["double-handed-weapon"]), ("kin", 3, ["spear"]), ("jaegers", 2, ["bow"])],
    "kislevites": [("druzhina-captain", 1, ["sword", "bow"]), ("esaul", 1, ["spear"]), ("bear-tamer", 1, ["axe"]),
                   ("youths", 2, ["spear"]), ("cossacks", 3, ["spear"]), ("trained-bear", 1, [])],
    "carnival-of-chaos": [("carnival-master", 1, ["sword"]), ("brutes", 1, ["flail"]),
                          ("tainted-ones", 2, ["sword", "blessing-cloud-of-flies"]), ("plague-bearers", 1, []),
                          ("nurglings", 3, []), ("brethren", 2, ["spear"])],
}


@pytest.mark.parametrize("warband_id", B_WARBANDS)
def test_a_legal_starting_warband_fits_in_the_starting_gold(catalogue, warband_id):
    warband = catalogue.warbands[warband_id]
    roster = [(warband.fighter(fighter_id), models, items) for fighter_id, models, items in STARTING_WARBANDS[warband_id]]
    count = {fighter.id: models for fighter, models, _ in roster}

    spent = 0
    for fighter, models, items in roster:
        assert fighter.minimum <= models <= (fighter.maximum or models), fighter.id
        if fighter.no_more_than:
            assert models <= count.get(fighter.no_more_than, 0), fighter.id
        prices = [fighter.equipment_list.price_of(item) if fighter.equipment_list else None for item in items]
        assert None not in prices, f"{fighter.id} may not buy {items}"
        spent += models * (fighter.cost + sum(prices))

    assert all(f.minimum == 0 or f.id in count for f in warband.fighters), "every required type is hired"
    assert [f.role for f, _, _ in roster].count("leader") == 1
    assert sum(models for f, models, _ in roster if f.is_hero) <= warband.max_heroes
    assert 3 <= sum(count.values()) <= warband.max_warriors
    assert spent <= warband.starting_gold, f"{warband_id} spends {spent} of {warband.starting_gold}"


@pytest.mark.parametrize("warband_id", B_WARBANDS)
def test_warband_has_one_leader_and_names_the_book_it_comes_from(catalogue, warband_id):
    warband = catalogue.warbands[warband_id]
    leaders = [f for f in warband.fighters if f.role == "leader"]
    assert len(leaders) == 1 and (leaders[0].minimum, leaders[0].maximum) == (1, 1)
    assert any(r.id == "leader" for r in leaders[0].special_rules)
    assert any(book in warband.source for book in ("Town Cryer", "Empire in Flames", "Mordheim Annual"))


def test_figures_players_know(catalogue):
    orcs = catalogue.warbands["orc-mob"]
    assert (orcs.max_warriors, orcs.fighter("Orc Boss").cost, orcs.fighter("troll").cost) == (20, 80, 200)
    assert orcs.fighter("cave squigs").no_more_than == "goblin-warriors"
    dwarfs = catalogue.warbands["dwarf-treasure-hunters"]
    assert dwarfs.max_warriors == 12 and dwarfs.fighter("noble").profile.WS == 5
    assert dwarfs.fighter("troll slayer").equipment_list.price_of("light-armour") is None, "Slayers wear no armour"
    assert dwarfs.fighter("noble").equipment_list.price_of("gromril-armour") == 75
    assert catalogue.warbands["kislevites"].fighter("trained bear").large
    assert catalogue.warbands["beastmen-raiders"].fighter("minotaur").gains_experience


def test_the_plague_cart_makes_room_for_two_more_warriors(catalogue):
    carnival = catalogue.warbands["carnival-of-chaos"]
    cart = carnival.fighter("plague cart")
    assert cart.maximum == 1 and not cart.gains_experience and cart.equipment_list is None
    assert {r.id: dict(r.effects) for r in cart.special_rules if r.effects} == {"plague-cart": {"max_warriors": 2}}


def test_creatures_never_advance_or_buy_anything(catalogue):
    for warband_id, fighter_id in [("orc-mob", "troll"), ("orc-mob", "cave-squigs"), ("beastmen-raiders", "warhounds-of-chaos"),
                                   ("kislevites", "trained-bear"), ("carnival-of-chaos", "plague-bearers"),
                                   ("carnival-of-chaos", "nurglings")]:
        fighter = catalogue.warbands[warband_id].fighter(fighter_id)
        assert not fighter.gains_experience and fighter.equipment_list is None, fighter_id


def test_henchmen_learn_no_skills(catalogue):
    for warband_id in B_WARBANDS:
        for fighter in catalogue.warbands[warband_id].fighters:
            if fighter.role == "henchman":
                assert fighter.skill_lists == (), fighter.id
