"""Rules lookup as players ask: spell lists with their D6 tables, campaign tables the seeds lack,
questions that used to land on the wrong section, misspellings, and editions' counterparts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine.rules import RulesLibrary, load_library

REPO = Path(__file__).resolve().parents[2]
SPELL_LISTS = {  # list entry -> the seed lines of its "D6 Result" heading
    "lrb/magic/prayers-of-sigmar": 1589,
    "lrb/magic/necromancy": 1645,
    "lrb/magic/chaos-rituals": 1701,
    "lrb/magic/lesser-magic": 1763,
    "lrb/magic/magic-of-the-horned-rat": 1819,
}


@pytest.fixture(scope="module")
def lib():
    return load_library()


def table_rows(body: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip().strip("|").split("|")] for line in body.split("\n")
            if line.startswith("|") and not set(line) <= set("|-: ")]


@pytest.mark.parametrize("list_id", sorted(SPELL_LISTS))
def test_each_spell_list_answers_with_its_d6_spells(lib, list_id):
    spells = [s for s in json.loads((REPO / "rules_data" / "spells.json").read_text())["spells"]
              if s["list_id"] == list_id.split("/")[-1]]
    entry = lib.get(list_id)
    rows = table_rows(entry.body)
    assert rows[0] == ["D6", "Spell", "Difficulty"]
    assert rows[1:] == [[str(s["d6"]), s["name"], "Auto" if s["auto"] else str(s["difficulty"])]
                        for s in sorted(spells, key=lambda s: s["d6"])]
    assert [int(r[0]) for r in rows[1:]] == [1, 2, 3, 4, 5, 6]
    assert not entry.body.rstrip().endswith("D6 Result")  # the heading no longer dangles
    first, last = entry.source.lines[0]
    assert first <= SPELL_LISTS[list_id] <= last  # the heading's own line is still cited
    assert len(entry.source.lines) == 2  # and so are the spells the table lists


def test_lesser_magic_says_which_numbers_are_not_printed(lib):
    body = lib.get("lrb/magic/lesser-magic").body
    assert "Luck of Shemtek (000:1799)" in body and "Sword of Rezhebel (000:1807)" in body
    spells = {s["name"]: s for s in json.loads((REPO / "rules_data" / "spells.json").read_text())["spells"]}
    assert (spells["Luck of Shemtek"]["d6"], spells["Luck of Shemtek"]["d6_printed"]) == (5, False)
    assert "d6_printed" not in spells["Fires of U'Zhul"]


def test_a_d6_result_list_is_a_table(lib):
    rows = table_rows(lib.get("lrb/magic/eye-of-god").body)
    assert rows[0] == ["D6", "Result"] and [r[0] for r in rows[1:]] == ["1", "2-5", "6"]
    assert [r[0] for r in table_rows(lib.get("lrb/equipment/mordheim-map").body)[1:]] == ["1", "2-3", "4", "5", "6"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("spells of the horned rat", "lrb/magic/magic-of-the-horned-rat"),
        ("strike first", "lrb/close-combat/who-strikes-first"),  # 000:659-667
        ("can a wizard wear armour", "lrb/magic/casting-spells"),  # 000:1577
        ("serious injuries", "lrb/campaign/serious-injuries"),
        ("wyrdstone", "lrb/campaign/wyrdstone"),
        ("strike first spear", "lrb/special-rules/strike-first"),
        ("hiden", "lrb/movement/hiding"),
    ],
)
def test_questions_that_used_to_land_elsewhere(lib, query, expected):
    assert lib.lookup(query).entry.id == expected


def test_the_campaign_tables_say_they_are_not_in_the_rulebooks(lib):
    entry = lib.get("lrb/campaign/serious-injuries")
    assert "Not from the rulebook text" in entry.body and not entry.source.is_seed
    assert entry.source.cite() == "rules_data/campaign/lrb.json"
    rows = table_rows(entry.body)
    assert rows[0] == ["D66", "Result", "What happens"]
    assert [r[:2] for r in rows[1:3]] == [["11-15", "Dead"], ["16-21", "Multiple injuries"]]
    assert rows[-1][:2] == ["66", "Survives against the odds"] and all(r[2] for r in rows[1:])
    assert "000:1693" in entry.body  # the seeds' "11-16" is reported, not hidden
    assert lib.lookup("what does a leg wound do").entry.id == entry.id  # each result names the chart
    # the other editions borrow it, saying from where
    core = lib.lookup("serious injuries", "core")
    assert core.entry.id == "lrb/campaign/serious-injuries" and "campaign" in core.note


def test_campaign_entries_follow_the_campaign_file(tmp_path):
    data = tmp_path / "rules_data"
    shutil.copytree(REPO / "rules_data", data)
    campaign = json.loads((data / "campaign" / "lrb.json").read_text())
    campaign["serious_injuries"][0] = {"from": 11, "to": 16, "name": "Dead", "dead": True}
    campaign["serious_injuries"][1]["from"] = 21
    (data / "campaign" / "lrb.json").write_text(json.dumps(campaign))
    changed = RulesLibrary.load(data)
    assert ["11-16", "Dead"] == table_rows(changed.get("lrb/campaign/serious-injuries").body)[1][:2]
    assert changed.version != load_library().version  # buttons made from the old data are told so


def test_misspelt_words_are_mended_for_search_and_lookup(lib):
    assert lib.corrections("hiden models") == [("hiden", "hidden")]
    assert lib.search("hiden")[0].entry.id == "lrb/movement/hiding"
    assert lib.lookup("halbard").entry.id == "lrb/weapons/halberd"
    assert lib.corrections("kd ooa 2h") == []  # abbreviations players use are not "mended"


@pytest.mark.parametrize(
    ("entry_id", "counterpart"),
    [
        ("lrb/the-turn/turn-sequence", "core/the-turn/phases"),  # 000:277-293 is 002:210-228
        ("lrb/introduction/citadel-models", "core2/introduction/representative-models"),
        ("core2/introduction/d3", "lrb/introduction/dice"),
        ("lrb/close-combat/warriors-knocked-down", "core2/close-combat/attacking-knocked-down-warriors"),
    ],
)
def test_counterparts_with_other_titles_are_linked(lib, entry_id, counterpart):
    assert counterpart in [e.id for e, _ in lib.counterparts(lib.get(entry_id))]


def test_aliases_of_a_whole_chapter_leave_an_editions_own_section_alone(lib):
    # lrb has no "Toughness" section (its Characteristics alias it); core has one
    assert lib.lookup("toughness").entry.id == "lrb/characteristics"
    assert lib.lookup("toughness", "core").entry.id == "core/characteristics/toughness-t"
    assert "toughness" not in lib.get("core/characteristics").aliases


def test_a_characteristic_with_a_value_is_not_what_the_question_is_about(lib):
    assert lib.lookup("what do i need to hit with bs 4").entry.id == "lrb/shooting/hitting-the-target"
    assert lib.lookup("what does ws 0 mean").entry.id == "lrb/characteristics/zero-level-characteristics"


def test_wyrdstone_answers_with_what_the_seeds_say_and_the_selling_chart(lib):
    entry = lib.lookup("wyrdstone").entry
    assert "(000:120)" in entry.body and "000:174-182" in entry.body
    campaign = json.loads((REPO / "rules_data" / "campaign" / "lrb.json").read_text())
    rows = table_rows(entry.body)
    assert rows[0][0] == "Shards sold" and len(rows) == 1 + len(campaign["income"]["rows"])
    assert rows[1] == ["1", *[str(g) for g in campaign["income"]["rows"][0]["gold"]]]
    assert "lrb/campaign/exploration" in entry.related
    exploration = lib.get("lrb/campaign/exploration")
    assert table_rows(exploration.body)[1] == ["1-5", "1"]
    assert lib.lookup("what happens when i roll doubles exploring").entry.id == exploration.id


def test_a_campaign_file_without_a_table_makes_no_entry_for_it(tmp_path):
    data = tmp_path / "rules_data"
    shutil.copytree(REPO / "rules_data", data)
    campaign = json.loads((data / "campaign" / "lrb.json").read_text())
    for key in ("exploration", "income", "serious_injuries"):
        campaign.pop(key, None)
    (data / "campaign" / "lrb.json").write_text(json.dumps(campaign))
    lib = RulesLibrary.load(data)
    ids = {e.id for e in lib.entries()}
    assert "lrb/campaign/exploration" not in ids and "lrb/campaign/serious-injuries" not in ids
    assert "Shards sold" not in lib.get("lrb/campaign/wyrdstone").body  # the seeds' part stays
