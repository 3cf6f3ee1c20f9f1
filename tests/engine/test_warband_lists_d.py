"""Issue 17's data: the grade 1b warband lists, grades on every list and hired sword, shared skill lists.

Figures spot-checked here were read in two public sources (BSData's catalogue of the list and
hmVBfv's roster builder, Evin89's where it has the list; rules_data/warbands/README.md).
"""

from __future__ import annotations

import json

import jsonschema
import pytest

from engine.campaign.lists import catalogue as lists

SCHEMA = json.loads(lists.SCHEMA_PATH.read_text(encoding="utf-8"))
FILES = lists.read_bundled_files()
NEW_LISTS = ("pirates", "tileans-miragliano", "tileans-remas", "tileans-trantio", "skaven-of-clan-pestilens",
             "outlaws-of-stirwood-forest", "arabian-tomb-raiders", "bretonnian-knights", "black-orcs", "hochland-bandits",
             "horned-hunters", "imperial-outriders", "gunnery-school-of-nuln", "ostermarkers", "mootlanders",
             "dwarf-rangers", "amazons")


@pytest.fixture(scope="module")
def catalogue() -> lists.Catalogue:
    return lists.bundled_catalogue()


@pytest.mark.parametrize("path", sorted(f"lists/{w}.json" for w in NEW_LISTS) + ["races-more-d.json", "skills.json"])
def test_new_files_are_read_and_match_the_schema(path):
    kind, data = FILES[path]
    errors = list(jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{kind}"}).iter_errors(data))
    assert errors == []


def test_every_list_and_hired_sword_has_a_grade():
    for path, (kind, data) in FILES.items():
        if kind == "warband":
            assert data.get("grade") in ("1a", "1b"), path
        if kind == "hired_swords":
            assert all(h.get("grade") in ("1a", "1b") for h in data["hired_swords"])
    graded = {data["id"]: data["grade"] for kind, data in FILES.values() if kind == "warband"}
    assert graded["reikland"] == graded["orc-mob"] == graded["carnival-of-chaos"] == "1a"
    assert all(graded[w] == "1b" for w in NEW_LISTS)
    assert sum(g == "1a" for g in graded.values()) == 15


def test_at_least_37_warband_lists_load(catalogue):
    assert len(catalogue.warbands) >= 37
    assert set(NEW_LISTS) <= set(catalogue.warbands)


def test_at_least_40_hired_swords_load(catalogue):
    assert len(catalogue.hired_swords) >= 40


def profile(fighter) -> str:
    p = fighter.profile
    return " ".join(str(getattr(p, c)) for c in ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld"))


# (warband, fighter, cost, starting experience, max, profile M WS BS S T W I A Ld): BSData and hmVBfv agree on each
PUBLISHED = [
    ("pirates", "pirate-captain", 60, 20, 1, "4 4 3 3 3 1 4 1 8"),
    ("pirates", "boatswain", 32, 0, 5, "4 3 3 3 3 1 3 1 7"),
    ("tileans-remas", "captain", 60, 20, 1, "4 4 4 3 3 1 4 2 9"),
    ("tileans-miragliano", "duellist", 35, 0, 5, "4 4 3 3 3 1 4 1 7"),
    ("skaven-of-clan-pestilens", "plague-priest", 85, 20, 1, "5 4 4 4 4 1 5 1 7"),
    ("skaven-of-clan-pestilens", "monk-initiate", 20, 0, 2, "5 2 3 2 2 1 4 1 4"),
    ("outlaws-of-stirwood-forest", "marksman", 25, 0, 7, "4 3 4 3 3 1 3 1 7"),
    ("arabian-tomb-raiders", "bedouin", 35, 0, 2, "4 3 3 3 3 1 3 1 7"),
    ("bretonnian-knights", "questing-knight", 80, 20, 1, "4 4 3 4 3 1 4 1 8"),
    ("black-orcs", "black-orc-boss", 90, 20, 1, "4 4 4 4 4 1 3 1 8"),
    ("black-orcs", "troll", 200, 0, 1, "6 3 1 5 4 3 1 3 4"),
    ("hochland-bandits", "duelist", 45, 12, 1, "4 4 4 3 3 1 4 1 7"),
    ("hochland-bandits", "thug", 30, 0, None, "4 3 3 4 3 1 3 1 7"),
    ("horned-hunters", "priest-of-taal", 45, 12, 1, "4 2 3 3 3 1 3 1 7"),
    ("imperial-outriders", "knight", 85, 20, 1, "4 4 3 3 3 1 4 1 8"),
    ("imperial-outriders", "chasseur", 55, 0, 5, "4 3 4 3 3 1 3 1 7"),
    ("gunnery-school-of-nuln", "instructor", 45, 12, 1, "4 3 4 3 3 1 4 1 7"),
    ("ostermarkers", "swordsman", 35, 0, 5, "4 4 3 3 3 1 3 1 7"),
    ("mootlanders", "moot-elder", 55, 20, 1, "4 3 5 2 2 1 6 1 9"),
    ("mootlanders", "master-chef", 35, 8, 1, "4 3 4 3 2 1 5 1 9"),
    ("dwarf-rangers", "runesmith", 85, 20, 1, "3 5 4 3 4 1 2 1 10"),
    ("dwarf-rangers", "longbeard", 50, 0, 5, "3 5 3 3 4 1 3 1 9"),
    ("amazons", "serpent-priestess", 70, 20, 1, "4 4 4 3 3 1 4 1 8"),
    ("amazons", "jaguar-warrior", 30, 0, 3, "4 3 3 3 3 1 3 1 7"),
]


@pytest.mark.parametrize(("warband_id", "fighter_id", "cost", "experience", "maximum", "line"), PUBLISHED)
def test_published_figures(catalogue, warband_id, fighter_id, cost, experience, maximum, line):
    fighter = catalogue.warbands[warband_id].fighter(fighter_id)
    assert (fighter.cost, fighter.experience, fighter.maximum, profile(fighter)) == (cost, experience, maximum, line)


def test_list_sizes_gold_and_prices(catalogue):
    sizes = {w: (catalogue.warbands[w].max_warriors, catalogue.warbands[w].starting_gold) for w in NEW_LISTS}
    assert sizes["pirates"] == (15, 500) and sizes["black-orcs"] == (12, 500)
    assert sizes["mootlanders"] == (20, 500) and sizes["tileans-trantio"] == (15, 600)
    gunnery = catalogue.warbands["gunnery-school-of-nuln"].equipment_lists["gunnery-marksman"]
    assert gunnery.price_of("hochland-long-rifle") == 100  # the school's reduced price
    pestilens = catalogue.warbands["skaven-of-clan-pestilens"].equipment_lists["pestilens-heroes"]
    assert pestilens.price_of("censer") == 40 and catalogue.items["censer"].rarity == 9


def test_skaven_heroes_learn_skaven_skills(catalogue):
    night_runner = catalogue.warbands["skaven"].fighter("night-runner")
    skaven_lists = [s for s in night_runner.skill_lists if s.id == "skaven"]
    assert skaven_lists and "Wall Runner" in {s.name for s in skaven_lists[0].skills}
    priest = catalogue.warbands["skaven-of-clan-pestilens"].leader
    assert "Black Hunger" in {s.name for sl in priest.skill_lists for s in sl.skills}


def test_every_new_list_has_heroes_with_special_skills_or_the_common_lists(catalogue):
    own = {"pirates": "pirate-skills", "skaven-of-clan-pestilens": "pestilens-skills", "arabian-tomb-raiders": "arabian-skills",
           "bretonnian-knights": "bretonnian-virtues", "black-orcs": "black-orc-skills", "hochland-bandits": "bandit-skills",
           "horned-hunters": "horned-hunter-skills", "amazons": "amazon-skills", "imperial-outriders": "cavalry",
           "dwarf-rangers": "dwarf-special"}
    for warband_id, list_id in own.items():
        leader = catalogue.warbands[warband_id].leader
        assert list_id in {s.id for s in leader.skill_lists}, warband_id
        assert all(s.summary for sl in leader.skill_lists for s in sl.skills)


def test_shared_skill_lists_live_in_skills_json(catalogue):
    for list_id in ("dwarf-special", "troll-slayer-skills", "cavalry"):
        assert list_id in catalogue.skill_lists
    slayer = catalogue.warbands["pit-fighters"].fighter("troll-slayer")
    assert "troll-slayer-skills" in {s.id for s in slayer.skill_lists}
    assert catalogue.warbands["dwarf-rangers"].fighter("troll-slayer").skill_lists[-1].id == "troll-slayer-skills"


def test_who_may_hire_whom_for_the_new_lists(catalogue):
    swords = catalogue.hired_swords
    assert swords["freelancer"].may_be_hired_by("pirates") and swords["elf-ranger"].may_be_hired_by("tileans-remas")
    assert not swords["halfling-scout"].may_be_hired_by("skaven-of-clan-pestilens")
    assert not swords["halfling-scout"].may_be_hired_by("black-orcs")
    assert {s.id for s in swords.values() if s.may_be_hired_by("imperial-outriders")} == {"freelancer", "roadwarden", "highwayman"}
    assert not swords["elf-ranger"].may_be_hired_by("dwarf-rangers")


# ---------------------------------------------------------------- issue 17, part 2: the grade 1b hired swords

SWORDS = FILES["hired_swords.json"][1]["hired_swords"]
SHARED_RULES = {r["id"]: r["name"] for r in FILES["special_rules.json"][1]["special_rules"]}


def test_the_hired_swords_file_matches_the_schema():
    errors = list(jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": "#/$defs/hired_swords"}).iter_errors(
        FILES["hired_swords.json"][1]))
    assert errors == []


def test_every_grade_1b_hired_sword_names_its_book():
    grade_1b = [s for s in SWORDS if s["grade"] == "1b"]
    assert len(grade_1b) >= 29
    books = ("Town Cryer", "Fanatic Magazine", "Nemesis Crown", "Mordheim Facebook group")
    assert all(s["source"].startswith(books) for s in grade_1b), [s["id"] for s in grade_1b if not s["source"].startswith(books)]
    assert {s["id"] for s in SWORDS if s["grade"] == "1a"} >= {"arabian-merchant", "ogre-bodyguard", "beast-hunter"}


# (sword, fee, upkeep, rating, profile): mordheimer.net's Grade 1A/1B pages, hmVBfv and Izgardon agree; the Priest of Morr's
# rating is None (5 + his 8 experience, as BSData rates him)
PUBLISHED_SWORDS = [
    ("arabian-merchant", 20, 10, 10, "4 2 2 3 3 1 4 1 7"),
    ("bard", 20, 10, 8, "4 3 3 3 3 1 3 1 7"),
    ("bounty-hunter", 40, 15, 20, "4 4 3 4 3 1 4 1 8"),
    ("clan-skryre-rat-ogre", 100, 0, 25, "4 3 3 5 5 3 1 3 10"),
    ("dark-elf-assassin", 70, 25, 25, "5 5 5 4 4 1 7 1 8"),
    ("dwarf-pathfinder", 35, 15, 12, "3 4 3 3 4 1 2 1 9"),
    ("elf-mage", 45, 0, 23, "5 4 3 3 3 2 6 1 8"),
    ("kislev-ranger", 30, 15, 15, "4 3 4 3 3 1 4 1 7"),
    ("norse-shaman", 45, 25, 25, "4 3 2 3 3 1 4 1 8"),
    ("priest-of-morr", 35, 0, None, "4 2 2 3 3 1 4 1 9"),
    ("tomb-robber", 30, 15, 20, "4 4 3 3 3 1 5 1 7"),
    ("warrior-priest-of-sigmar", 40, 20, 16, "4 3 3 3 3 1 4 1 8"),
]


@pytest.mark.parametrize(("sword_id", "fee", "upkeep", "rating", "line"), PUBLISHED_SWORDS)
def test_published_hired_sword_figures(catalogue, sword_id, fee, upkeep, rating, line):
    sword = catalogue.hired_swords[sword_id]
    assert (sword.hire_fee, sword.upkeep, sword.rating, profile(sword)) == (fee, upkeep, rating, line)


def test_kit_the_sources_agree_on(catalogue):
    kit = {s: sorted(i.id for i in catalogue.hired_swords[s].equipment) for s in ("dwarf-treasure-hunter", "pathfinder", "old-prospector")}
    assert kit["dwarf-treasure-hunter"] == ["dagger", "double-handed-weapon", "gromril-armour", "hammer", "helmet", "lantern"]
    assert kit["pathfinder"] == ["dagger", "healing-herbs", "long-bow", "rope-and-hook", "sword"]
    assert kit["old-prospector"] == ["blunderbuss", "double-handed-weapon"]
    assert catalogue.hired_swords["priest-of-morr"].experience == 8
    assert catalogue.hired_swords["clan-skryre-rat-ogre"].large
    assert catalogue.races["skryre-rat-ogre"].maximum == catalogue.hired_swords["clan-skryre-rat-ogre"].profile


def test_employer_choices_name_items_and_the_default_is_the_listed_kit(catalogue):
    with_choices = [s for s in SWORDS if s.get("choices")]
    assert {s["id"] for s in with_choices} >= {"ogre-bodyguard", "dwarf-troll-slayer", "black-orc-overseer", "gaoler", "norse-shaman",
                                                "witch-hunter", "wolf-priest-of-ulric"}
    for sword in with_choices:
        for choice in sword["choices"]:
            assert all(item in catalogue.items for option in choice["options"] for item in option["items"]), sword["id"]
            if "default" in choice:
                listed = list(sword["equipment"])
                for item in choice["options"][choice["default"]]["items"]:
                    listed.remove(item)  # raises if the default option is not in the listed kit


def test_rules_sharing_an_id_with_special_rules_json_are_that_rule():
    for sword in SWORDS:
        for rule in sword["special_rules"]:
            if rule["id"] in SHARED_RULES:
                assert rule["name"] == SHARED_RULES[rule["id"]], (sword["id"], rule["id"])
    assert {"wanderer", "infiltrate", "fey", "loner"} <= set(SHARED_RULES)


def test_companions_and_starting_skills():
    by_id = {s["id"]: s for s in SWORDS}
    assert by_id["snake-charmer"]["companions"][0]["profile"]["S"] == 1
    assert by_id["wolf-priest-of-ulric"]["companions"][0]["profile"] == {"M": 6, "WS": 4, "BS": 0, "S": 4, "T": 4, "W": 1, "I": 4,
                                                                        "A": 2, "Ld": 5}
    assert by_id["arabian-merchant"]["skills"] == ["Haggle"] and by_id["old-prospector"]["skills"] == ["Wyrdstone Hunter", "Resilient"]
    assert all(s["hire_note"] for s in SWORDS if s["id"] in ("old-prospector", "clan-skryre-rat-ogre", "halfling-thief", "priest-of-morr"))


def test_who_may_hire_the_grade_1b_swords(catalogue):
    def hirers(sword_id):
        return {w for w in catalogue.warbands if catalogue.hired_swords[sword_id].may_be_hired_by(w)}

    assert hirers("gaoler") == {"witch-hunters"} and hirers("wolf-priest-of-ulric") == {"middenheim"}
    assert hirers("chameleon-skink") == {"lizardmen"} and hirers("clan-skryre-rat-ogre") == {"skaven", "skaven-of-clan-pestilens"}
    assert hirers("black-orc-overseer") == {"orc-mob", "forest-goblins", "black-orcs"}
    assert hirers("dark-elf-assassin") == {"undead", "tomb-guardians", "skaven", "skaven-of-clan-pestilens", "cult-of-the-possessed",
                                           "dark-elves"}
    outlaws_refuse = {s for s in ("bounty-hunter", "wolf-priest-of-ulric", "norse-shaman", "dark-elf-assassin")
                      if catalogue.hired_swords[s].may_be_hired_by("outlaws-of-stirwood-forest")}
    assert outlaws_refuse == set()  # the Outlaws' own list bars these four
    assert "elf-mage" not in {s.id for s in catalogue.hired_swords.values() if s.may_be_hired_by("dwarf-rangers")}
    assert not catalogue.hired_swords["snake-charmer"].may_be_hired_by("shadow-warriors")  # no poison for Shadow Warriors
    assert not catalogue.hired_swords["old-prospector"].may_be_hired_by("dwarf-treasure-hunters")
    assert hirers("witch-hunter") >= {"reikland", "norse", "witch-hunters"} and "cult-of-the-possessed" not in hirers("witch-hunter")
    assert "middenheim" not in hirers("warrior-priest-of-sigmar") and "bretonnian-knights" in hirers("warrior-priest-of-sigmar")
    for warband_id in ("carnival-of-chaos", "beastmen-raiders"):
        assert not any(s.may_be_hired_by(warband_id) for s in catalogue.hired_swords.values())


# ---------------------------------------------------------------- issue 17, part 3: the Dramatis Personae

PERSONAE = FILES["dramatis_personae.json"][1]


def test_the_dramatis_personae_file_matches_the_schema():
    assert FILES["dramatis_personae.json"][0] == "dramatis_personae"
    errors = list(jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": "#/$defs/dramatis_personae"}).iter_errors(PERSONAE))
    assert errors == []


def test_every_published_character_is_there_with_book_and_grade():
    people = PERSONAE["dramatis_personae"]
    assert len(people) >= 15
    assert len({p["id"] for p in people}) == len(people) and len({p["name"] for p in people}) == len(people)
    assert all(len(p["source"]) >= 3 and p["grade"] in ("1a", "1b") for p in people)
    grades = {p["id"]: p["grade"] for p in people}
    assert [g for g in grades.values()].count("1a") == 7  # the rulebook's four and Marianna, Nicodemus, Ulli & Marquand
    assert {"aenur", "johann-the-knife", "bertha-bestraufrung", "veskit"} <= {p["id"] for p in people if p["source"].startswith("Mordheim rulebook")}


def test_dramatis_personae_name_known_items_races_and_warbands(catalogue):
    for person in PERSONAE["dramatis_personae"]:
        kit = person["equipment"] + [i for c in person.get("companions", []) for i in c.get("equipment", [])]
        assert all(item in catalogue.items for item in kit), person["id"]
        assert person["race"] in catalogue.races, person["id"]
        hiring = person["may_be_hired_by"]
        named = (hiring["include"] if isinstance(hiring["include"], list) else []) + hiring.get("exclude", [])
        assert set(named) <= set(catalogue.warbands), person["id"]
        for rule in person["special_rules"]:
            if rule["id"] in SHARED_RULES:
                assert rule["name"] == SHARED_RULES[rule["id"]], (person["id"], rule["id"])


# (character, fee, upkeep, rating, profile): BSData's Characters.cat and mordheimer.net's pages agree (Evin89 for the rulebook three,
# hmVBfv for Marianna)
PUBLISHED_PERSONAE = [
    ("aenur", 150, 0, 100, "5 8 4 4 3 2 7 3 8"),
    ("johann-the-knife", 70, 30, 60, "4 3 6 4 3 2 6 1 7"),
    ("veskit", 80, 35, 70, "5 5 4 4 4 2 5 4 8"),
    ("countess-marianna-chevaux", 150, 75, 90, "6 6 6 4 4 2 9 3 9"),
]


@pytest.mark.parametrize(("person_id", "fee", "upkeep", "rating", "line"), PUBLISHED_PERSONAE)
def test_published_dramatis_personae_figures(person_id, fee, upkeep, rating, line):
    person = next(p for p in PERSONAE["dramatis_personae"] if p["id"] == person_id)
    shown = " ".join(str(person["profile"][c]) for c in ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld"))
    assert (person["hire_fee"], person["upkeep"], person["rating"], shown) == (fee, upkeep, rating, line)


def test_who_may_hire_the_dramatis_personae():
    people = {p["id"]: p["may_be_hired_by"] for p in PERSONAE["dramatis_personae"]}
    assert people["bertha-bestraufrung"] == {"include": ["sisters-of-sigmar"]} and people["penthesilea"] == {"include": ["amazons"]}
    assert people["veskit"] == {"include": ["skaven", "skaven-of-clan-pestilens"]}
    for elf in ("aenur", "dijin-katal"):  # the Dwarf lists take no Elf, hired sword or character
        assert {"dwarf-treasure-hunters", "dwarf-rangers"} <= set(people[elf]["exclude"])
    assert "witch-hunters" in people["nicodemus"]["exclude"]
    ulli = next(p for p in PERSONAE["dramatis_personae"] if p["id"] == "ulli-and-marquand")["companions"][0]
    assert ulli["profile"]["W"] == 2 and ulli["skills"] == ["Strongman", "Unstoppable Charge", "Combat Master"]


# ---------------------------------------------------------------- issue 17, part 4: seven disputed figures, re-checked

def test_the_seven_disputed_figures(catalogue):
    carnival = catalogue.warbands["carnival-of-chaos"]
    assert carnival.fighter("carnival master").equipment_list.price_of("bow") == 15  # BSData heroes, hmVBfv, ybarthCH
    assert carnival.fighter("carnival master").equipment_list.price_of("short-bow") == 10
    assert carnival.fighter("brutes").equipment_list.price_of("flail") == 10  # hmVBfv, ybarthCH
    ostlanders = catalogue.warbands["ostlanders"]
    assert ostlanders.fighter("kin").equipment_list.price_of("spear") == 5  # ybarthCH and the list copied by hammerheim-rules
    assert ostlanders.fighter("jaegers").equipment_list.price_of("spear") == 5
    assert catalogue.warbands["dark-elves"].fighter("corsair").profile.BS == 4  # BSData, hmVBfv, Evin89 (ybarthCH 3)
    assert catalogue.warbands["lizardmen"].fighter("saurus totem warrior").profile.A == 1  # plus the bite
    assert catalogue.races["saurus"].maximum.A == 4
    assert [s.id for s in catalogue.warbands["skaven"].fighter("night runner").skill_lists] == ["combat", "shooting", "skaven"]
    assert [s.id for s in catalogue.warbands["forest-goblins"].fighter("brave").skill_lists] == ["combat", "shooting", "speed"]
    for warband_id in ("carnival-of-chaos", "ostlanders", "lizardmen", "skaven", "forest-goblins", "dark-elves"):
        assert catalogue.raw_warband(warband_id)["discrepancies"], warband_id
