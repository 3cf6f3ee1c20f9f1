"""The warband lists as data (rules_data/warbands/) and their loader (engine/campaign/lists/catalogue.py).

Every bundled file against the schema (jsonschema), every cross-reference, and what a
player and a server admin meet: lookups by alias, closest names, a server's own list.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from engine.errors import NotFoundError
from engine.campaign.lists import catalogue as lists
from engine.errors import InvalidData
from engine.campaign.lists.checks import CHARACTERISTICS, COMMON_SKILL_LISTS

DATA = lists.DATA_DIR
SCHEMA = json.loads(lists.SCHEMA_PATH.read_text(encoding="utf-8"))
FILES = lists.read_bundled_files()
RULEBOOK = ("reikland", "middenheim", "marienburg", "cult-of-the-possessed", "witch-hunters", "sisters-of-sigmar", "undead", "skaven")
USUAL_MINIMUM_MODELS = 3  # a warband fields at least three models (the usual rule of warband creation)


@pytest.fixture(scope="module")
def catalogue() -> lists.Catalogue:
    return lists.bundled_catalogue()


# ---------------------------------------------------------------- the files


def test_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_every_json_file_under_warbands_is_read():
    on_disk = {p.relative_to(DATA).as_posix() for p in DATA.rglob("*.json")}
    assert on_disk == set(FILES)
    assert {"items.json", "races.json", "special_rules.json"} <= set(FILES)


@pytest.mark.parametrize("path", sorted(FILES))
def test_bundled_file_matches_schema(path):
    kind, data = FILES[path]
    validator = jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{kind}"})
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(data)]
    assert errors == []


@pytest.mark.parametrize("path", sorted(p for p, (kind, _) in FILES.items() if kind == "warband"))
def test_warband_file_names_its_sources(path):
    _, data = FILES[path]
    assert path == f"lists/{data['id']}.json"
    assert data["source"] and data["data_sources"], "name the book and the community data read"


def test_every_cross_reference_resolves():
    assert lists.cross_reference_problems(FILES) == []


def test_all_rulebook_warbands_are_there(catalogue):
    assert set(RULEBOOK) <= set(catalogue.warbands)


def test_every_listed_item_exists_and_has_a_price(catalogue):
    for warband in catalogue.warbands.values():
        raw = {e["id"]: e for e in catalogue.raw_warband(warband.id)["equipment_lists"]}
        for equipment_list in warband.equipment_lists.values():
            assert len(equipment_list.items) == len(raw[equipment_list.id]["items"])
            for listed, row in zip(equipment_list.items, raw[equipment_list.id]["items"]):
                assert listed.item is catalogue.items[row["item"]]
                assert listed.price == row["price"] >= 0
                assert equipment_list.price_of(row["item"]) == row["price"]
                assert listed.item.may_be_bought_by(warband.id), f"{warband.id} lists {listed.item.id} it may not buy"


def test_no_race_maximum_below_a_starting_profile(catalogue):
    fighters = [(f"{w.id}/{f.id}", f.race, f.profile) for w in catalogue.warbands.values() for f in w.fighters]
    fighters += [(f"hired/{h.id}", h.race, h.profile) for h in catalogue.hired_swords.values()]
    assert fighters
    for who, race, profile in fighters:
        for c in CHARACTERISTICS:
            assert getattr(race.maximum, c) >= getattr(profile, c), f"{who}: {c} {getattr(profile, c)} above the {race.id} maximum"


def test_items_fight_as_a_combat_stats_entry_or_not_at_all(catalogue):
    stats = lists.combat_ids()
    assert {"dagger", "hammer", "light-armour", "helmet", "wardog"} <= stats
    for item in catalogue.items.values():
        assert item.combat is None or item.combat in stats, item.id
    assert catalogue.item("mace").combat == "hammer"
    assert catalogue.item("brace of pistols").combat == "pistol"


def test_trading_post_has_common_and_rare_items_with_variable_prices(catalogue):
    post = {i.id: i for i in catalogue.trading_post()}
    assert post["sword"].common and post["sword"].price == 10
    assert post["elven-cloak"].rarity == 12 and post["elven-cloak"].price_dice == "d6*10"
    assert post["bugmans-ale"].price_text() == "50 + 3D6 gc"
    assert post["gromril-weapon"].price == 0 and "4 times" in post["gromril-weapon"].price_note
    assert all(i.warband is None for i in post.values())
    assert "sigmarite-warhammer" not in post and catalogue.item("sigmarite warhammer").warband == "sisters-of-sigmar"


def test_who_may_buy_an_item(catalogue):
    assert not catalogue.item("halfling cookbook").may_be_bought_by("undead")
    assert catalogue.item("halfling cookbook").may_be_bought_by("reikland")
    assert catalogue.item("sigmarite warhammer").may_be_bought_by("sisters-of-sigmar")
    assert not catalogue.item("sigmarite warhammer").may_be_bought_by("witch-hunters")
    assert not catalogue.item("tome of magic").may_be_bought_by("witch-hunters")


# ---------------------------------------------------------------- the rulebook warbands


@pytest.mark.parametrize("warband_id", RULEBOOK)
def test_rulebook_warband_has_exactly_one_leader_type(catalogue, warband_id):
    leaders = [f for f in catalogue.warbands[warband_id].fighters if f.role == "leader"]
    assert len(leaders) == 1
    assert (leaders[0].minimum, leaders[0].maximum) == (1, 1)
    assert any(r.id == "leader" for r in leaders[0].special_rules)


def cheapest_legal_start(warband: lists.WarbandList) -> tuple[dict[str, int], int]:
    """The cheapest roster that meets every minimum and fields at least three models.

    Models are added one at a time, always the cheapest type that still fits its maximum, the
    hero limit, the warband size and any 'no more than' rule.
    """
    counts = {f.id: f.minimum for f in warband.fighters}
    by_id = {f.id: f for f in warband.fighters}

    def fits(f: lists.FighterType) -> bool:
        after = counts[f.id] + 1
        heroes = sum(counts[g.id] for g in warband.fighters if g.is_hero) + f.is_hero
        return ((f.maximum is None or after <= f.maximum) and heroes <= warband.max_heroes
                and sum(counts.values()) < warband.max_warriors
                and (f.no_more_than is None or after <= counts[f.no_more_than]))

    while sum(counts.values()) < USUAL_MINIMUM_MODELS:
        options = [f for f in sorted(warband.fighters, key=lambda f: f.cost) if fits(f)]
        assert options, f"{warband.id}: no fighter can be added to reach {USUAL_MINIMUM_MODELS} models"
        counts[options[0].id] += 1
    return counts, sum(by_id[i].cost * n for i, n in counts.items())


@pytest.mark.parametrize("warband_id", RULEBOOK)
def test_rulebook_warband_fields_a_legal_start_within_its_gold(catalogue, warband_id):
    warband = catalogue.warbands[warband_id]
    counts, cost = cheapest_legal_start(warband)
    assert counts[warband.leader.id] == 1
    assert sum(counts.values()) >= USUAL_MINIMUM_MODELS
    assert cost <= warband.starting_gold, f"{warband.name}: the cheapest start costs {cost} gc of {warband.starting_gold}"


def test_list_figures_players_know(catalogue):
    """A few figures every Mordheim player knows, read through the loader from the data."""
    skaven = catalogue.warband("Clan Eshin")
    assert (skaven.max_warriors, skaven.starting_gold) == (20, 500)
    assert skaven.fighter("rat ogre").large and skaven.fighter("rat ogre").animal
    assert catalogue.warband("Marienburgers").starting_gold == 600
    assert catalogue.warband("Witch Hunters").max_warriors == 12
    reikland = catalogue.warband("Reiklanders")
    assert reikland.fighter("marksmen").profile.BS == 4
    assert reikland.fighter("marksman").equipment_list.price_of("hochland-long-rifle") == 200
    assert reikland.fighter("captain").skill_lists == tuple(catalogue.skill_lists[s] for s in COMMON_SKILL_LISTS)
    assert catalogue.warband("Middenheim").fighter("champion").profile.S == 4
    undead = catalogue.warband("undead")
    assert undead.fighter("zombie").equipment_list is None
    assert not undead.fighter("zombies").gains_experience and not undead.fighter("dire wolf").gains_experience
    assert undead.fighter("ghoul").gains_experience and undead.fighter("vampire").gains_experience


def test_common_skill_lists_always_resolve(catalogue):
    assert set(COMMON_SKILL_LISTS) <= set(catalogue.skill_lists)
    sisters = catalogue.warband("sisters of sigmar")
    augur = sisters.fighter("augur")
    assert [s.id for s in augur.skill_lists] == ["academic", "speed", "sisters-of-sigmar"]
    assert augur.equipment_list.price_of("light-armour") is None  # she never wears armour


def test_warband_special_rule_effects_are_numbers(catalogue):
    traders = {r.id: r for r in catalogue.warband("marienburg").special_rules}["traders"]
    assert traders.effects == {"rare_item_search": 1}


# ---------------------------------------------------------------- lookups


def test_every_name_alias_and_id_finds_its_warband(catalogue):
    claimed: dict[str, str] = {}
    for warband in catalogue.warbands.values():
        for name in (warband.id, warband.name, *warband.aliases):
            for spelling in (name, name.upper(), f"  {name.lower()}  "):
                assert catalogue.find_warband(spelling) is warband, spelling
            key = lists.lookup_key(name)
            assert claimed.setdefault(key, warband.id) == warband.id, f"'{name}' names two warbands"
    assert catalogue.find_warband("Clan Eshin").id == "skaven"
    assert catalogue.find_warband("Reiklanders").id == "reikland"
    assert catalogue.find_warband("Possessed").id == "cult-of-the-possessed"
    assert catalogue.find_warband("Sons of Hashut") is None  # a custom type (grade 1c, no bundled list)
    names = catalogue.warband_names()
    assert names == sorted(names) and "Skaven of Clan Eshin" in names


def test_closest_names_when_not_found(catalogue):
    with pytest.raises(NotFoundError) as error:
        catalogue.warband("Reiklandr")
    assert "Reikland Mercenaries" in error.value.suggestions
    with pytest.raises(NotFoundError) as error:
        catalogue.item("halbred")
    assert error.value.suggestions[0] == "Halberd"
    with pytest.raises(NotFoundError) as error:
        catalogue.warband("skaven").fighter("night runer")
    assert error.value.suggestions[0] == "Night Runner"
    assert "Skaven of Clan Eshin list has no fighter" in str(error.value)


def test_fighters_by_id_name_or_plural(catalogue):
    possessed = catalogue.warband("cult of the possessed")
    assert possessed.fighter("Darksouls").id == "darksoul"
    assert possessed.fighter("beastmen").id == "beastman"
    assert possessed.fighter("brethren").id == "brethren"
    assert catalogue.warband("witch hunters").fighter("warrior priest").id == "warrior-priest"
    assert catalogue.item("Bugman's Ale").id == "bugmans-ale"


# ---------------------------------------------------------------- cross-reference checks on broken copies


def broken(mutate) -> list[str]:
    files = copy.deepcopy(FILES)
    mutate(files)
    return lists.cross_reference_problems(files)


def test_an_item_defined_twice_is_reported_with_both_files():
    def twice(files):
        files["lists/skaven.json"][1]["items"].append(copy.deepcopy(files["items.json"][1]["items"][0]))

    problems = broken(twice)
    assert any(p.startswith("lists/skaven.json: items[") and "already defined in items.json" in p for p in problems)


def test_a_race_defined_in_two_races_files_is_reported():
    def twice(files):
        files["races-more-b.json"] = ("races", {"source": "x", "races": [copy.deepcopy(files["races.json"][1]["races"][0])]})

    assert any("(human): race already defined in" in p and "races-more-b.json" in p and "races.json" in p for p in broken(twice))


def test_broken_references_in_a_bundled_list_are_each_reported():
    def mangle(files):
        reikland = files["lists/reikland.json"][1]
        marksman = reikland["fighters"][4]
        marksman["equipment_list"] = "missile"
        marksman["skill_lists"] = ["sneaking"]
        marksman["special_rules"] = ["flying"]
        marksman["race"] = "dwarf"
        reikland["equipment_lists"][0]["items"].append({"item": "laser", "price": 5})

    problems = broken(mangle)
    assert "lists/reikland.json: fighters[4] (marksman): equipment list 'missile' is not defined; use one of: marksman, mercenary (or null)" in problems
    assert any("fighters[4] (marksman): skill list 'sneaking' is not defined" in p for p in problems)
    assert any("fighters[4] (marksman): special rule 'flying' is not defined" in p for p in problems)
    assert any("fighters[4] (marksman): starting profile is above the dwarf maximum (M 4 > 3)" in p for p in problems)
    assert any("equipment_lists[0] (mercenary): items[20]: item 'laser' is not defined" in p for p in problems)


def test_a_list_may_name_an_item_another_list_defines_whatever_the_file_order():
    """lists_api.md: an item two lists need is defined once, in one of them."""
    files = copy.deepcopy(FILES)
    spade = {"id": "grave-spade", "name": "Grave spade", "kind": "close-combat", "price": 5, "rarity": "common", "combat": "hammer",
             "source": "test", "summary": "A spade."}
    files["lists/undead.json"][1]["items"] = [spade]
    files["lists/cult-of-the-possessed.json"][1]["equipment_lists"][0]["items"].append({"item": "grave-spade", "price": 5})
    assert lists.cross_reference_problems(files) == []
    built = lists.build_catalogue(files)
    listed = built.warbands["cult-of-the-possessed"].equipment_lists["possessed"].listed("grave-spade")
    assert listed.item is built.items["grave-spade"] is built.warbands["undead"].items["grave-spade"]
    assert listed.item.warband == "undead" and listed.item.may_be_bought_by("cult-of-the-possessed")


def test_a_name_that_would_find_two_warbands_or_items_is_reported():
    def clash(files):
        files["lists/undead.json"][1]["aliases"].append("Clan Eshin")
        files["lists/skaven.json"][1]["items"][0]["aliases"] = ["Sword"]

    problems = broken(clash)
    assert "lists/undead.json: the warband name or alias 'Clan Eshin' already names warband 'skaven'; drop it or make it distinct" in problems
    assert any("(weeping-blades): the item name or alias 'Sword' already names item 'sword'" in p for p in problems)


def test_skills_file_must_hold_the_five_common_lists():
    def partial(files):
        files["skills.json"] = ("skills", {"source": "x", "skill_lists": [
            {"id": s, "name": s, "skills": [{"id": f"{s}-1", "name": "x", "summary": "x"}]} for s in COMMON_SKILL_LISTS[:4]]})

    assert "skills.json: the common skill list 'speed' is missing" in broken(partial)


# ---------------------------------------------------------------- a server's own list


def house_list() -> dict:
    """A small, legal list of a server's own: its own item and rule, shared rules and races."""
    return {
        "id": "averheim-watch", "name": "Averheim Town Watch", "aliases": ["Watchmen"], "source": "Our campaign (2024)",
        "summary": "The town watch sent into the ruins to keep order.", "starting_gold": 500, "max_warriors": 12,
        "special_rules": [{"id": "on-duty", "name": "On duty", "summary": "Watchmen never flee from a lone enemy."}],
        "items": [{"id": "watch-lantern-pole", "name": "Lantern pole", "kind": "close-combat", "price": 8, "rarity": "common",
                   "combat": "spear", "restricted_to": ["averheim-watch"], "source": "Our campaign (2024)",
                   "summary": "A long pole with a lantern on it."}],
        "equipment_lists": [{"id": "watch", "name": "Watch equipment", "items": [
            {"item": "dagger", "price": 2, "note": "the first one is free"}, {"item": "watch-lantern-pole", "price": 8},
            {"item": "halberd", "price": 10}, {"item": "helmet", "price": 10}]}],
        "fighters": [
            {"id": "sergeant", "name": "Sergeant", "role": "leader", "cost": 50, "experience": 20, "min": 1, "max": 1, "race": "human",
             "profile": {"M": 4, "WS": 4, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 4, "A": 1, "Ld": 8}, "equipment_list": "watch",
             "skill_lists": ["combat", "strength"], "special_rules": ["leader", "on-duty"]},
            {"id": "watchman", "name": "Watchman", "role": "henchman", "cost": 25, "experience": 0, "min": 2, "max": None, "race": "human",
             "profile": {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}, "equipment_list": "watch",
             "skill_lists": [], "special_rules": []},
        ],
    }


def test_a_good_house_list_is_accepted_and_added(catalogue):
    assert lists.validate_house_list(house_list(), catalogue) == []
    server = catalogue.with_house_lists([house_list()])
    watch = server.warband("watchmen")
    assert watch.house and watch.fighter("watchman").equipment_list.price_of("watch-lantern-pole") == 8
    assert server.item("lantern pole").may_be_bought_by("averheim-watch")
    assert not server.item("lantern pole").may_be_bought_by("reikland")
    assert catalogue.find_warband("watchmen") is None, "the bundled catalogue is never changed"


def test_two_house_lists_cannot_define_one_item_twice(catalogue):
    other = house_list()
    other["id"], other["name"], other["aliases"] = "averheim-militia", "Averheim Militia", []
    other["items"][0]["restricted_to"] = ["averheim-militia"]
    server = catalogue.with_house_lists([house_list()])
    assert ("items[0] (watch-lantern-pole): item id already defined in the averheim-watch list; an item id must be unique "
            "across items.json and every list") in lists.validate_house_list(other, server)
    with pytest.raises(InvalidData):
        catalogue.with_house_lists([house_list(), other])
    assert lists.validate_house_list(other, catalogue) == []  # alone it is fine


def test_a_house_list_may_replace_a_bundled_one_with_its_own_items(catalogue):
    skaven = copy.deepcopy(catalogue.raw_warband("skaven"))
    skaven["fighters"][0]["cost"] = 70
    assert lists.validate_house_list(skaven, catalogue) == []
    server = catalogue.with_house_lists([skaven])
    assert server.warband("Clan Eshin").house and server.warband("skaven").leader.cost == 70
    assert server.item("weeping blades").warband == "skaven"
    assert catalogue.warband("skaven").leader.cost == 60


def test_a_broken_house_list_gets_every_problem_listed(catalogue):
    bad = house_list()
    sergeant, watchman = bad["fighters"]
    bad["colour"] = "blue"  # not a field
    watchman["cost"] = -5
    watchman["equipment_list"] = "missile"
    watchman["role"] = "leader"  # a second leader
    sergeant["skill_lists"] = ["combat", "magic"]
    sergeant["special_rules"] = ["leader", "flying"]
    sergeant["race"] = "robot"
    watchman["profile"]["WS"] = 7  # above the human maximum of 6
    bad["equipment_lists"][0]["items"].append({"item": "laser-rifle", "price": 40})
    bad["equipment_lists"][0]["items"].append({"item": "sigmarite-warhammer", "price": 15})

    problems = lists.validate_house_list(bad, catalogue)
    expected = [
        "(the whole file): unknown field 'colour'; remove or rename it (known fields: $schema, id, name,",
        "fighters[1] (watchman).cost: -5 is below the minimum of 0",
        "fighters[1] (watchman): equipment list 'missile' is not defined; use one of: watch (or null)",
        "fighters[0] (sergeant): skill list 'magic' is not defined",
        "fighters[0] (sergeant): special rule 'flying' is not defined",
        "fighters[0] (sergeant): race 'robot' is not defined",
        "fighters[1] (watchman): starting profile is above the human maximum (WS 7 > 6)",
        "equipment_lists[0] (watch): items[4]: item 'laser-rifle' is not defined",
        "equipment_lists[0] (watch): items[5]: 'sigmarite-warhammer' may only be bought by sisters-of-sigmar",
        "a warband needs exactly one fighter type with role 'leader', this one has 2",
    ]
    for line in expected:
        assert any(p.startswith(line) for p in problems), f"missing: {line}\n" + "\n".join(problems)
    with pytest.raises(InvalidData) as error:
        catalogue.with_house_lists([bad])
    assert error.value.problems == problems
    assert "Averheim Town Watch" in str(error.value)


def test_a_house_list_may_not_take_the_names_of_other_lists_or_items(catalogue):
    bad = house_list()
    bad["aliases"] = ["Reiklanders"]
    bad["items"][0]["name"] = "Halberd"
    problems = lists.validate_house_list(bad, catalogue)
    assert "the warband name or alias 'Reiklanders' already names warband 'reikland'; drop it or make it distinct" in problems
    assert "items[0] (watch-lantern-pole): the item name or alias 'Halberd' already names item 'halberd'; drop it or make it distinct" in problems


def test_house_list_problems_are_capped(catalogue):
    bad = house_list()
    bad["equipment_lists"][0]["items"] += [{"item": f"thing-{n}", "price": 1} for n in range(40)]
    problems = lists.validate_house_list(bad, catalogue)
    assert len(problems) == lists.SHOWN_PROBLEMS
    assert problems[-1] == "... and 16 more problems"


def test_a_house_list_that_is_not_an_object(catalogue):
    assert lists.validate_house_list(["reikland"], catalogue) == [
        "(the whole file): a warband list must be a JSON object like rules_data/warbands/lists/reikland.json"]


def test_a_house_list_whose_required_hires_cost_more_than_its_gold(catalogue):
    bad = house_list()
    bad["fighters"][1]["min"] = 30
    problems = lists.validate_house_list(bad, catalogue)
    assert "the fighters' minimum counts add up to 31, more than max_warriors 12" in problems
    assert "the fighters every warband must hire (min counts) cost 800 gc, more than the starting gold 500" in problems


def test_the_loader_reads_what_tests_read():
    """The catalogue is built from exactly the files on disk (a new file is never silently skipped)."""
    assert set(FILES) == {p.relative_to(DATA).as_posix() for p in Path(DATA).rglob("*.json")}
    assert {f"lists/{w}.json" for w in lists.bundled_catalogue().warbands} == {p for p, (k, _) in FILES.items() if k == "warband"}
