"""/rule finds the warband data (engine/rules/warbands.py): every list, list fighter, hired sword, Dramatis
Persona, skill, list rule and list item, by name and by the questions players ask about them; each entry of
its own kind, in our words from the data's summaries, citing its data file; the rulebooks' own
entries keep their names."""

from __future__ import annotations

import pytest

from engine.campaign.lists.catalogue import bundled_catalogue
from engine.rules import load_library
from engine.rules.models import CATALOGUE_KINDS
from engine.rules.text import key

LIB = load_library()
CATALOGUE = bundled_catalogue()

BY_NAME = {  # a sample of each kind, typed as players type them
    "skaven": "lrb/warband-lists/skaven", "Clan Eshin": "lrb/warband-lists/skaven", "orc mob": "lrb/warband-lists/orc-mob",
    "Pirates": "lrb/warband-lists/pirates", "assassin adept": "lrb/fighters/assassin-adept",
    "ghoul": "lrb/fighters/ghoul", "verminkin": "lrb/fighters/verminkin", "rat ogre": "lrb/fighters/rat-ogre",
    "clan skryre rat ogre": "lrb/hired-swords/clan-skryre-rat-ogre", "rat ogre hired sword": "lrb/hired-swords/clan-skryre-rat-ogre",
    "ogre bodyguard": "lrb/hired-swords/ogre-bodyguard", "Elf Ranger": "lrb/hired-swords/elf-ranger",
    "bard": "lrb/hired-swords/bard", "aenur": "lrb/dramatis-personae/aenur",
    "johann the knife": "lrb/dramatis-personae/johann-the-knife", "veskit": "lrb/dramatis-personae/veskit",
    "strike to injure": "lrb/skills/strike-to-injure", "wall runner": "lrb/skills/wall-runner",
    "black hunger": "lrb/skills/black-hunger", "animosity": "lrb/warband-rules/animosity",
    "plague cart": "lrb/warband-rules/plague-cart", "bow duty": "lrb/warband-rules/bow-duty",
    "weeping blades": "lrb/warband-items/weeping-blades", "sigmarite warhammer": "lrb/warband-items/sigmarite-warhammer",
    "blowpipe": "lrb/warband-items/blowpipe", "hired swords": "lrb/hired-swords",
    "dramatis personae": "lrb/dramatis-personae", "warband lists": "lrb/warband-lists",
}

QUESTIONS = {
    "how much does an ogre bodyguard cost": "lrb/hired-swords/ogre-bodyguard",
    "what is the upkeep of a freelancer": "lrb/hired-swords/freelancer",
    "who can hire aenur": "lrb/dramatis-personae/aenur",
    "can a dwarf hire an elf ranger": "lrb/hired-swords/elf-ranger",
    "what can an ogre bodyguard be armed with": "lrb/hired-swords/ogre-bodyguard",
    "which warbands can hire a dwarf troll slayer": "lrb/hired-swords/dwarf-troll-slayer",
    "what does wall runner do": "lrb/skills/wall-runner",
    "what does the plague cart do": "lrb/warband-rules/plague-cart",
    "how much do weeping blades cost": "lrb/warband-items/weeping-blades",
    "how much is johann the knife": "lrb/dramatis-personae/johann-the-knife",
    "what does the cult of the possessed start with": "lrb/warband-lists/cult-of-the-possessed",
    "what is a rat ogre": "lrb/fighters/rat-ogre",
    "eshin rat ogre": "lrb/fighters/rat-ogre",
    "rat ogre henchman": "lrb/fighters/rat-ogre",
    "how much does a ghoul cost": "lrb/fighters/ghoul",
}


@pytest.mark.parametrize("query", list(BY_NAME))
def test_found_by_name(query):
    r = LIB.lookup(query)
    assert r.entry is not None and r.entry.id == BY_NAME[query], (query, r.entry and r.entry.id, r.suggestions[:3])


@pytest.mark.parametrize("query", list(QUESTIONS))
def test_found_by_the_questions_players_ask(query):
    r = LIB.lookup(query)
    assert r.entry is not None and r.entry.id == QUESTIONS[query], (query, r.entry and r.entry.id, r.suggestions[:3])


def test_every_list_hired_sword_and_character_has_an_entry_of_its_own_kind():
    ids = {e.id for e in LIB.entries("lrb")}
    assert {f"lrb/warband-lists/{w}" for w in CATALOGUE.warbands} <= ids
    assert {f"lrb/hired-swords/{s}" for s in CATALOGUE.hired_swords} <= ids
    assert {f"lrb/dramatis-personae/{c}" for c in CATALOGUE.dramatis_personae} <= ids
    kinds = {e.kind for e in LIB.entries("lrb") if e.kind in CATALOGUE_KINDS}
    assert kinds == set(CATALOGUE_KINDS)


def test_every_skill_rule_and_item_is_found_by_its_name():
    """Each skill, list rule and item name finds an entry: its own, or the rulebook's of that name."""
    names = {s.name for sl in CATALOGUE.skill_lists.values() for s in sl.skills}
    names |= {s.name for w in CATALOGUE.warbands.values() for sl in w.skill_lists.values() for s in sl.skills}
    names |= {r.name for w in CATALOGUE.warbands.values() for f in w.fighters for r in f.special_rules}
    names |= {i.name for i in CATALOGUE.items.values()}
    lost = [n for n in sorted(names) if LIB.lookup_exact(n) is None]
    assert not lost, lost[:20]


def test_entries_cite_their_data_file_and_say_where_they_come_from():
    aenur = LIB.get("lrb/dramatis-personae/aenur")
    assert aenur.source.cite() == "rules_data/warbands/dramatis_personae.json" and aenur.kind == "dramatis-persona"
    assert "Not from the rulebook text" in aenur.body and "150 gc" in aenur.body and "grade 1a" in aenur.body
    ogre = LIB.get("lrb/hired-swords/ogre-bodyguard")
    assert "His employer chooses his weapons" in ogre.body and "Two axes" in ogre.body and "`/hire sword`" in ogre.body
    skaven = LIB.get("lrb/warband-lists/skaven")
    assert "Assassin Adept" in skaven.body and "Wall Runner" in skaven.body and "Veskit" in skaven.body
    wall = LIB.get("lrb/skills/wall-runner")
    assert "Skaven of Clan Eshin" in wall.body  # who may learn it


def test_the_rulebooks_keep_their_names():
    """A name a rulebook entry has in its own words (its title, an alias its text uses) is left to it: the
    catalogue adds no entry or alias of that name. A mere synonym yields to an entry of that very name
    (the Sprint skill, where "sprint" is only Running's synonym)."""
    def own(e):
        text = f" {key(e.title + ' ' + e.body.replace('*', ''))} "
        return (e.title, *(a for a in e.aliases if f" {key(a)} " in text))

    book = {key(n) for e in LIB.entries("lrb") if e.kind not in CATALOGUE_KINDS for n in own(e)}
    for e in LIB.entries("lrb"):
        if e.kind in CATALOGUE_KINDS:
            assert not {key(n) for n in (e.title, *e.aliases)} & book, e.id
    assert LIB.lookup("fear").entry.id == "lrb/psychology/fear"
    assert LIB.lookup("sword").entry.id == "lrb/weapons/sword"
    assert LIB.lookup("sprint").entry.id == "lrb/skills/sprint"


def test_a_fighter_of_several_lists_is_one_entry_the_lists_most_play_with_first():
    """'rat ogre' is the Rat Ogre of the rulebook's Skaven list (grade 1a) before Clan Pestilens's (1b);
    the Clan Skryre Rat Ogre is a hired sword of his own name."""
    ogre = LIB.get("lrb/fighters/rat-ogre")
    assert ogre.kind == "fighter" and ogre.source.cite() == "rules_data/warbands/lists/skaven.json"
    eshin, pestilens = ogre.body.index("**Skaven of Clan Eshin** list"), ogre.body.index("**Skaven of Clan Pestilens** list")
    assert eshin < pestilens and "210 gc" in ogre.body and "M 6 WS 3 BS 3 S 5 T 5 W 3 I 4 A 3 Ld 4" in ogre.body
    assert "Needs its masters" in ogre.body  # the Skaven list's own rule, with its summary
    assert set(ogre.related) == {"lrb/warband-lists/skaven", "lrb/warband-lists/skaven-of-clan-pestilens"}


def test_every_fighter_is_found_by_his_name():
    """Each list fighter's name finds an entry: his own, or another of that name (the rulebook's Wardogs,
    the Possessed list, the Ogre Bodyguard), whose name it leaves alone."""
    names = {f.name for w in CATALOGUE.warbands.values() for f in w.fighters}
    lost = [n for n in sorted(names) if LIB.lookup_exact(n) is None]
    assert not lost, lost[:20]
    assert LIB.lookup("ogre").entry.id == "lrb/hired-swords/ogre-bodyguard"
    assert LIB.lookup("possessed").entry.id == "lrb/warband-lists/cult-of-the-possessed"
    assert LIB.lookup("wardog").entry.id == "lrb/equipment/wardogs"
    assert LIB.get("lrb/fighters/ogre").title == "Ogre (fighter)"


# A list (or its book) named beside one of its entries: the entry, not the list nor a like-sounding name
# (playtest: "plague censer" was the Carnival's Plague Cart, "clan pestilens censer" the whole list,
# "nemesis crown dwarfs" Bugman's ale).
NAMED_WITH_ITS_LIST = {
    "plague censer": "lrb/warband-items/censer",  # Plague Monks is the Pestilens list's other name
    "clan pestilens censer": "lrb/warband-items/censer",
    "pestilens warpstone amulet": "lrb/warband-items/warpstone-amulet",
    "pirates parrot": "lrb/warband-items/parrot",
    "witch elf style pit fighters": "lrb/warband-items/witch-elf-style",
    "black orcs animosity": "lrb/warband-rules/animosity",
    "mootlanders ladle": "lrb/warband-items/ladle",
    "nemesis crown dwarfs": "lrb/warband-lists/dwarf-rangers",  # the book's dwarfs: part of the name, and the book
    "nemesis crown orcs": "lrb/warband-lists/black-orcs",
    "town cryer pirates": "lrb/warband-lists/pirates",
    # the list alone is still the list
    "clan pestilens": "lrb/warband-lists/skaven-of-clan-pestilens",
    "plague monks": "lrb/warband-lists/skaven-of-clan-pestilens",
    "dwarfs": "lrb/warband-lists/dwarf-treasure-hunters",
}


@pytest.mark.parametrize("query", list(NAMED_WITH_ITS_LIST))
def test_a_list_named_beside_its_entry_finds_the_entry(query):
    r = LIB.lookup(query)
    assert r.entry is not None and r.entry.id == NAMED_WITH_ITS_LIST[query], (query, r.entry and r.entry.id, r.suggestions[:3])


def test_an_entry_knows_the_lists_it_belongs_to():
    assert "Plague Monks" in LIB.get("lrb/warband-items/censer").home
    assert "Nemesis Crown supplement" in LIB.get("lrb/warband-lists/dwarf-rangers").home
    assert {"Black Orcs", "Orc Mob", "Forest Goblins"} <= set(LIB.get("lrb/warband-rules/animosity").home)
    assert "Skaven of Clan Eshin" in LIB.get("lrb/fighters/rat-ogre").home
    assert not LIB.get("lrb/weapons/sword").home  # the rulebooks' entries belong to no list


def test_a_name_nothing_has_says_so_with_the_nearest_names():
    """Neither the seeds nor the warband data have the Hand of Glory: the lookup says nothing comes
    close (``unknown``) and offers the names spelt most like it."""
    r = LIB.lookup("hand of glory")
    assert r.entry is None and r.unknown
    assert "lrb/special-rules/hand-to-hand" in [e.id for e, _ in r.suggestions]
    assert not LIB.lookup("rat ogre").unknown and not LIB.lookup("wolfcloak").unknown  # a "did you mean"
