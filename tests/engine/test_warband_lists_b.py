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
