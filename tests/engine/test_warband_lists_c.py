"""Engineer C's warband data (issue #8 §1): the hired swords and seven published warbands.

The loader's own tests (test_warband_lists.py) check every file's schema and cross-references;
these check what is particular to these files, read through the loader as the bot reads them:
a starting warband a player would buy for each list, who may hire each hired sword, and the
creatures that never advance.
"""

from __future__ import annotations

import pytest

from engine.campaign.lists import catalogue as lists

C_WARBANDS = ("shadow-warriors", "dark-elves", "lizardmen", "norse", "tomb-guardians", "forest-goblins", "pit-fighters")
USUAL_MINIMUM_MODELS = 3


@pytest.fixture(scope="module")
def catalogue() -> lists.Catalogue:
    return lists.bundled_catalogue()


# A starting warband for each list, bought the way a player would: (fighter id, models, items
# each model carries beyond the free dagger). Prices come from the list itself, never from here.
STARTING_WARBANDS = {
    "shadow-warriors": [("shadow-master", 1, ["sword", "elf-bow"]), ("shadow-walker", 2, ["sword", "bow"]),
                        ("shadow-weaver", 1, []), ("shadow-warrior", 3, ["bow"])],
    "dark-elves": [("high-born", 1, ["sword", "repeater-crossbow", "light-armour"]), ("beastmaster", 1, ["beastlash"]),
                   ("cold-one-beasthound", 2, []), ("corsair", 3, ["sword"]), ("shade", 2, [])],
    "lizardmen": [("skink-priest", 1, ["blowpipe"]), ("saurus-totem-warrior", 1, ["shield"]),
                  ("skink-great-crest", 2, ["javelins"]), ("skink-brave", 5, ["short-bow"]), ("saurus-brave", 2, ["spear"])],
    "norse": [("jarl", 1, ["axe", "shield"]), ("berserker", 2, ["axe"]), ("bondsman", 2, ["axe"]),
              ("marauder", 3, ["axe", "shield"]), ("hunter", 2, ["bow"])],
    "tomb-guardians": [("tomb-lord", 1, ["sword", "shield"]), ("liche-priest", 1, ["staff"]), ("acolyte", 2, ["mace"]),
                       ("skeleton-warrior", 4, ["spear"]), ("tomb-guardian", 2, ["halberd"])],
    "forest-goblins": [("chieftain", 1, ["sword", "blowpipe"]), ("shaman", 1, []), ("brave", 2, ["spear"]),
                       ("forest-goblin", 6, ["short-bow"]), ("red-toof-boy", 3, ["spear"]), ("slugga", 2, ["throwing-knife"])],
    "pit-fighters": [("pit-king", 1, ["chaos-style"]), ("pit-veteran", 2, ["orc-style"]), ("troll-slayer", 1, ["axe", "axe"]),
                     ("pit-fighter", 2, ["orc-style"]), ("pursuer", 1, ["skink-style"])],
}


def test_every_warband_of_this_file_set_is_loaded(catalogue):
    assert set(C_WARBANDS) <= set(catalogue.warbands)
    assert set(STARTING_WARBANDS) == set(C_WARBANDS)


@pytest.mark.parametrize("warband_id", C_WARBANDS)
def test_a_legal_starting_warband_within_its_gold(catalogue, warband_id):
    warband = catalogue.warbands[warband_id]
    counts = {f.id: 0 for f in warband.fighters}
    spent = 0
    for fighter_id, models, kit in STARTING_WARBANDS[warband_id]:
        fighter = warband.fighter(fighter_id)
        counts[fighter.id] += models
        for item_id in kit:
            price = fighter.equipment_list.price_of(item_id) if fighter.equipment_list else None
            assert price is not None, f"{fighter.name} may not buy {item_id}"
            assert catalogue.items[item_id].may_be_bought_by(warband_id)
            spent += price * models
        spent += fighter.cost * models
    by_id = {f.id: f for f in warband.fighters}
    for fighter_id, n in counts.items():
        f = by_id[fighter_id]
        assert f.minimum <= n and (f.maximum is None or n <= f.maximum), f"{f.name}: {n}"
        if f.no_more_than:
            assert n <= counts[f.no_more_than]
    assert counts[warband.leader.id] == 1
    assert sum(n for i, n in counts.items() if by_id[i].is_hero) <= warband.max_heroes
    assert USUAL_MINIMUM_MODELS <= sum(counts.values()) <= warband.max_warriors
    assert spent <= warband.starting_gold, f"{warband.name}: {spent} gc of {warband.starting_gold}"


def test_list_figures_players_know(catalogue):
    lizardmen = catalogue.warband("Lizardmen")
    assert lizardmen.max_warriors == 20
    assert lizardmen.fighter("saurus brave").no_more_than == "skink-brave"
    assert lizardmen.fighter("saurus brave").equipment_list.price_of("light-armour") == 50  # armour is rare
    kroxigor = lizardmen.fighter("kroxigor")
    assert kroxigor.large and not kroxigor.gains_experience and [i.id for i in kroxigor.starting_equipment] == ["halberd"]
    assert catalogue.warband("Vikings").id == "norse" and catalogue.warband("norse").max_warriors == 15
    assert catalogue.warband("Khemri").fighter("tomb lord").cost == 150
    dark_elves = catalogue.warband("Druchii")
    assert dark_elves.fighter("fellblade").equipment_list.price_of("repeater-crossbow") is None  # melee only
    assert dark_elves.fighter("shade").maximum == 5
    assert catalogue.warband("Shadow Warriors").fighter("shadow master").profile.BS == 5
    assert catalogue.warband("Forest Goblins").fighter("gigantic spider").cost == 200
    pit = catalogue.warband("Gladiators")
    assert pit.fighter("pit fighter").equipment_list.price_of("sword") is None  # fighting styles only
    assert pit.fighter("pit fighter").equipment_list.price_of("undead-style") == 35


def test_warband_rules_the_campaign_engine_reads(catalogue):
    home_ground = {r.id: r for r in catalogue.warbands["tomb-guardians"].special_rules}["home-ground"]
    assert dict(home_ground.effects) == {"exploration_dice": 1}


@pytest.mark.parametrize("warband_id", C_WARBANDS)
def test_creatures_that_never_advance_have_their_profile_as_maximum(catalogue, warband_id):
    for fighter in catalogue.warbands[warband_id].fighters:
        if not fighter.gains_experience:
            assert fighter.race.maximum == fighter.profile, fighter.name
        if fighter.animal:
            assert fighter.equipment_list is None and not fighter.starting_equipment, fighter.name


def test_tomb_guardians_advance_but_skeletons_do_not(catalogue):
    tomb = catalogue.warbands["tomb-guardians"]
    assert tomb.fighter("tomb guardian").gains_experience
    assert tomb.fighter("tomb guardian").race.id == tomb.fighter("tomb lord").race.id
    assert not tomb.fighter("skeleton warrior").gains_experience


# ---------------------------------------------------------------- hired swords

THE_BRIEFS_TWELVE = ("ogre-bodyguard", "halfling-scout", "warlock", "freelancer", "elf-ranger", "dwarf-troll-slayer",
                     "pit-fighter", "imperial-assassin", "tilean-marksman", "highwayman", "roadwarden", "witch")


def test_the_common_hired_swords_are_there(catalogue):
    assert set(THE_BRIEFS_TWELVE) <= set(catalogue.hired_swords)
    ogre = catalogue.hired_sword("Ogre")
    assert (ogre.hire_fee, ogre.upkeep, ogre.rating, ogre.large) == (80, 30, 25, True)
    assert catalogue.hired_sword("troll slayer").id == "dwarf-troll-slayer"


def hirers(catalogue, sword_id: str, warband_ids) -> set[str]:
    sword = catalogue.hired_swords[sword_id]
    return {w for w in warband_ids if sword.may_be_hired_by(w)}


ALL_22 = ("reikland", "middenheim", "marienburg", "cult-of-the-possessed", "witch-hunters", "sisters-of-sigmar",
          "undead", "skaven", "orc-mob", "dwarf-treasure-hunters", "beastmen-raiders", "averlanders", "ostlanders",
          "kislevites", "carnival-of-chaos") + C_WARBANDS


def test_mercenary_only_hired_swords(catalogue):
    mercenaries_and_witch_hunters = {"reikland", "middenheim", "marienburg", "averlanders", "kislevites", "witch-hunters"}
    for sword_id in ("freelancer", "elf-ranger", "dwarf-troll-slayer"):
        assert hirers(catalogue, sword_id, ALL_22) == mercenaries_and_witch_hunters


def test_warband_side_limits(catalogue):
    everyone = set(catalogue.hired_swords)
    assert hirers_of(catalogue, "lizardmen") == {"chameleon-skink"}  # the one sword whose entry names them (issue 17)
    assert hirers_of(catalogue, "ostlanders") == {"ogre-bodyguard"}
    assert hirers_of(catalogue, "orc-mob") == hirers_of(catalogue, "forest-goblins") == {"ogre-bodyguard", "pit-fighter", "warlock",
                                                                                         "black-orc-overseer"}
    assert "elf-ranger" not in hirers_of(catalogue, "pit-fighters")
    assert {"imperial-assassin", "highwayman"}.isdisjoint(hirers_of(catalogue, "shadow-warriors"))
    assert {"halfling-scout", "pit-fighter", "tilean-marksman", "beast-hunter"}.isdisjoint(hirers_of(catalogue, "tomb-guardians"))
    # Reikland hires every hired sword but those tied to other kinds of warband (issue 17's grade 1b swords)
    assert everyone - hirers_of(catalogue, "reikland") == {"black-orc-overseer", "chameleon-skink", "clan-skryre-rat-ogre",
                                                           "dark-elf-assassin", "gaoler", "wolf-priest-of-ulric"}
    assert {"warlock", "witch", "imperial-assassin", "highwayman"}.isdisjoint(hirers_of(catalogue, "witch-hunters"))
    assert not catalogue.hired_swords["ogre-bodyguard"].may_be_hired_by("skaven")
    # their own lists: the Carnival hires no one, Beastmen only a sword whose entry names them
    assert hirers_of(catalogue, "carnival-of-chaos") == set()
    assert hirers_of(catalogue, "beastmen-raiders") == set()


def hirers_of(catalogue, warband_id: str) -> set[str]:
    return {s.id for s in catalogue.hired_swords.values() if s.may_be_hired_by(warband_id)}


def test_hired_sword_rules_the_campaign_engine_reads(catalogue):
    cook = {r.id: r for r in catalogue.hired_swords["halfling-scout"].special_rules}["cook"]
    assert dict(cook.effects) == {"max_warriors": 1}
    seeker = {r.id: r for r in catalogue.hired_swords["elf-ranger"].special_rules}["seeker"]
    assert dict(seeker.effects) == {"exploration_modifier": 1}
