"""/rule finds the scenarios, the scenario table and the underdog table, built from the same data
file the bot plays by (rules_data/campaign/scenarios.json)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine.rules import RulesLibrary, load_library

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lib():
    return load_library()


def rows(body: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip().strip("|").split("|")] for line in body.split("\n")
            if line.startswith("|") and not set(line) <= set("|-: ")]


@pytest.mark.parametrize("query, entry_id", [
    ("skirmish", "lrb/campaign/scenario-skirmish"), ("Wyrdstone Hunt", "lrb/campaign/scenario-wyrdstone-hunt"),
    ("wyrdstone hunt scenario", "lrb/campaign/scenario-wyrdstone-hunt"), ("scenario 7", "lrb/campaign/scenario-hidden-treasure"),
    ("defend the find", "lrb/campaign/scenario-defend-the-find"), ("surprise atack", "lrb/campaign/scenario-surprise-attack"),
    ("scenario table", "lrb/campaign/scenario-table"), ("underdog", "lrb/campaign/underdogs"),
    ("underdog experience", "lrb/campaign/underdogs"),
])
def test_each_scenario_and_table_is_found_by_name(lib, query, entry_id):
    assert lib.lookup(query).entry.id == entry_id


def test_a_scenario_entry_has_its_summary_awards_and_source_and_says_it_is_not_in_the_seeds(lib):
    entry = lib.get("lrb/campaign/scenario-wyrdstone-hunt")
    assert "Not from the rulebook text" in entry.body and entry.source.cite() == "rules_data/campaign/scenarios.json"
    assert "*Scenario 3 of the rulebook.*" in entry.body
    assert "+1 survives, +1 winning leader, +1 per enemy out of action, +1 per wyrdstone counter." in entry.body
    assert "yeganer/mordheim-rules" in entry.body


def test_the_table_and_underdog_entries_are_tables_of_the_data(lib):
    table = rows(lib.get("lrb/campaign/scenario-table").body)
    assert table[0] == ["2D6", "Scenario"] and table[2] == ["3", "Street Fight (scenario 5)"] and len(table) == 12
    underdogs = rows(lib.get("lrb/campaign/underdogs").body)
    assert underdogs[1:] == [["0-50", "none"], ["51-75", "+1"], ["76-100", "+2"], ["101-150", "+3"], ["151-300", "+4"],
                             ["301+", "+5"]]
    assert "lrb/campaign/underdogs" in lib.get("lrb/campaign/warband-rating").related


def test_the_other_editions_borrow_the_scenarios_saying_from_where(lib):
    found = lib.lookup("street fight", "core")
    assert found.entry.id == "lrb/campaign/scenario-street-fight" and "Living Rulebook" in found.note


def test_the_entries_follow_the_data_file(tmp_path):
    data = tmp_path / "rules_data"
    shutil.copytree(REPO / "rules_data", data)
    scenarios = json.loads((data / "campaign" / "scenarios.json").read_text())
    scenarios["underdog"]["rows"][1]["experience"] = 9
    (data / "campaign" / "scenarios.json").write_text(json.dumps(scenarios))
    changed = RulesLibrary.load(data)
    assert rows(changed.get("lrb/campaign/underdogs").body)[2] == ["51-75", "+9"]
    assert changed.version != load_library().version
