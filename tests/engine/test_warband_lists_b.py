"""Engineer B's warband data (issue #8 §1): the common skill lists and the seven published
warbands of this branch. The loader's own tests cover every file's schema and cross-references;
these check what is particular to these files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

DATA = Path(__file__).resolve().parents[2] / "rules_data"
SCHEMA = json.loads((DATA / "schema" / "warbands.schema.json").read_text(encoding="utf-8"))


def schema_errors(instance, kind: str) -> list[str]:
    validator = jsonschema.Draft202012Validator({"$ref": f"#/$defs/{kind}", "$defs": SCHEMA["$defs"]})
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(instance)]


@pytest.fixture(scope="module")
def skills() -> dict:
    return json.loads((DATA / "warbands" / "skills.json").read_text(encoding="utf-8"))


def test_skills_file_matches_the_schema(skills):
    assert schema_errors(skills, "skills") == []


def test_the_five_common_lists_hold_every_rulebook_skill(skills):
    by_list = {skill_list["id"]: {s["name"] for s in skill_list["skills"]} for skill_list in skills["skill_lists"]}
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


def test_skill_ids_are_unique_and_every_summary_is_its_own(skills):
    every = [s for skill_list in skills["skill_lists"] for s in skill_list["skills"]]
    assert len({s["id"] for s in every}) == len(every)
    assert len({s["summary"] for s in every}) == len(every)


def test_streetwise_is_the_only_common_skill_the_trading_post_reads(skills):
    with_effects = {s["id"]: s["effects"] for skill_list in skills["skill_lists"]
                    for s in skill_list["skills"] if "effects" in s}
    assert with_effects == {"streetwise": {"rare_item_search": 2}}


def test_skills_only_some_heroes_may_take_say_who(skills):
    restricted = {s["id"] for skill_list in skills["skill_lists"] for s in skill_list["skills"]
                  if s.get("restriction")}
    assert restricted == {"battle-tongue", "sorcery", "arcane-lore", "warrior-wizard"}


# ------------------------------------------------------------------ the seven published warbands

B_WARBANDS = ("orc-mob", "dwarf-treasure-hunters", "beastmen-raiders", "averlanders", "ostlanders",
              "kislevites", "carnival-of-chaos")


def warband_file(warband_id: str) -> dict:
    return json.loads((DATA / "warbands" / "lists" / f"{warband_id}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("warband_id", B_WARBANDS)
def test_warband_file_matches_the_schema(warband_id):
    assert schema_errors(warband_file(warband_id), "warband") == []


def test_races_file_matches_the_schema():
    races = json.loads((DATA / "warbands" / "races-more-b.json").read_text(encoding="utf-8"))
    assert schema_errors(races, "races") == []


# A starting warband for each list, bought the way a player would: (fighter id, models, items
# each model carries beyond the free dagger). Prices come from the list itself, never from here.
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
def test_a_legal_starting_warband_fits_in_the_starting_gold(warband_id):
    warband = warband_file(warband_id)
    fighters = {f["id"]: f for f in warband["fighters"]}
    lists = {l["id"]: {i["item"]: i["price"] for i in l["items"]} for l in warband["equipment_lists"]}
    roster = STARTING_WARBANDS[warband_id]
    count = {fid: n for fid, n, _ in roster}

    spent = 0
    for fighter_id, models, items in roster:
        fighter = fighters[fighter_id]
        assert fighter["min"] <= models <= (fighter["max"] or models), fighter_id
        if fighter.get("no_more_than"):
            assert models <= count.get(fighter["no_more_than"], 0), fighter_id
        prices = lists.get(fighter["equipment_list"], {})
        assert set(items) <= set(prices), f"{fighter_id} may not buy {set(items) - set(prices)}"
        spent += models * (fighter["cost"] + sum(prices[i] for i in items))

    roles = [fighters[fid]["role"] for fid, n, _ in roster for _ in range(n)]
    assert roles.count("leader") == 1
    assert roles.count("leader") + roles.count("hero") <= warband.get("max_heroes", 6)
    assert 3 <= len(roles) <= warband["max_warriors"]
    assert all(fighters[f["id"]]["min"] == 0 or f["id"] in count for f in warband["fighters"])
    assert spent <= warband["starting_gold"], f"{warband_id} spends {spent} of {warband['starting_gold']}"


@pytest.mark.parametrize("warband_id", B_WARBANDS)
def test_every_warband_names_its_published_source_and_the_data_it_was_read_from(warband_id):
    warband = warband_file(warband_id)
    assert any(book in warband["source"] for book in ("Town Cryer", "Empire in Flames", "Mordheim Annual"))
    assert any("BSData/mordheim" in s for s in warband["data_sources"])
    assert len(warband["data_sources"]) >= 2, "every list is cross-checked against a second source"


def test_the_plague_cart_makes_room_for_two_more_warriors():
    rules = {r["id"]: r for r in warband_file("carnival-of-chaos")["special_rules"]}
    assert rules["plague-cart"]["effects"] == {"max_warriors": 2}
    cart = next(f for f in warband_file("carnival-of-chaos")["fighters"] if f["id"] == "plague-cart")
    assert "plague-cart" in cart["special_rules"] and cart["max"] == 1


def test_henchmen_learn_no_skills_and_animals_buy_nothing():
    for warband_id in B_WARBANDS:
        for fighter in warband_file(warband_id)["fighters"]:
            if fighter["role"] == "henchman":
                assert fighter["skill_lists"] == [], fighter["id"]
            if fighter.get("animal"):
                assert fighter["equipment_list"] is None, fighter["id"]
