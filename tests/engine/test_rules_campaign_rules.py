"""The campaign chapters' rules that are no table (rules_data/campaign/rules.json): the file against
its schema, one /rule entry each (engine/rules/campaign.py) saying it is not in the seeds, citing
where it is printed and the seed lines it leans on; and the Experience entry's advance tables, which
say who learns skills. The playtest's questions find them (also in tests/rules_queries.json)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from engine.rules import RulesLibrary, load_library

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "rules_data"
SEEDS = next((p / "shared" / "seeds" for p in REPO.parents if (p / "shared" / "seeds").is_dir()), REPO / ".." / "shared" / "seeds")
RULES = json.loads((DATA / "campaign" / "rules.json").read_text(encoding="utf-8"))


def test_the_file_matches_its_schema():
    schema = json.loads((DATA / "schema" / "campaign_rules.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert [e.message for e in Draft202012Validator(schema).iter_errors(RULES)] == []
    bad = {**RULES, "rules": [{**RULES["rules"][0], "paragraphs": []}]}
    assert list(Draft202012Validator(schema).iter_errors(bad))


def test_each_rule_is_an_entry_that_says_where_it_comes_from():
    lib = load_library()
    for rule in RULES["rules"]:
        entry = lib.get(f"lrb/campaign/{rule['id']}")
        assert entry.title == rule["title"] and entry.source.cite() == "rules_data/campaign/rules.json"
        assert "Not from the rulebook text" in entry.body and rule["source"] in entry.body
        assert all(lib.get(r) for r in entry.related)
        assert all(lib.lookup_exact(a).entry.id == entry.id for a in rule["aliases"]), rule["id"]


@pytest.mark.parametrize(("query", "expected"), [
    ("upkeep", "lrb/campaign/hired-swords-upkeep"),
    ("hired swords upkeep", "lrb/campaign/hired-swords-upkeep"),
    ("what happens if my leader is killed", "lrb/campaign/death-of-the-leader"),
    ("my leader died", "lrb/campaign/death-of-the-leader"),
    ("can henchmen use skills", "lrb/campaign/experience"),
    ("what is the upkeep of a freelancer", "lrb/hired-swords/freelancer"),  # one hired sword's, not the rule
    ("what happens if my leader is out of action", "lrb/psychology/rout-test"),  # in a battle, not the campaign
])
def test_the_questions_players_ask(query, expected):
    assert load_library().lookup(query).entry.id == expected


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed rulebooks are not beside the project")
def test_the_seed_lines_the_leaders_death_cites_say_so():
    text = (SEEDS / "000_e71f97bd3b98baf5.txt").read_text(encoding="utf-8").splitlines()
    assert "leader's Leadership" in text[817 - 1]  # the Rout test is taken on it
    assert "highest Leadership" in text[819 - 1]  # the leader down: the best of those standing
    assert 'within 6" of his leader' in text[829 - 1] and "knocked down" in text[831 - 1]
    assert "Heroes will learn new skills" in text[122 - 1]  # cited by the Experience entry
    assert "1-2: Dead; 3-6: Alive" in text[1499 - 1]  # cited by the upkeep entry
    body = load_library().get("lrb/campaign/death-of-the-leader").body
    assert all(cite in body for cite in ("000:817", "000:819-821", "000:829-831"))


def test_the_experience_entry_shows_both_advance_tables_and_who_learns_skills():
    entry = load_library().get("lrb/campaign/experience")
    campaign = json.loads((DATA / "campaign" / "lrb.json").read_text(encoding="utf-8"))
    for table in ("hero_advances", "henchman_advances"):
        assert all(r["name"] in entry.body for r in campaign[table]["results"])
    assert "Henchmen learn no skills" in entry.body and "(000:122)" in entry.body


def test_without_the_file_there_are_no_such_entries(tmp_path):
    data = tmp_path / "rules_data"
    shutil.copytree(DATA, data)
    (data / "campaign" / "rules.json").unlink()
    ids = {e.id for e in RulesLibrary.load(data).entries()}
    assert "lrb/campaign/hired-swords-upkeep" not in ids and "lrb/campaign/experience" in ids
