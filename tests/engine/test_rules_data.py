"""The committed rules data: schemas, sources, links, and a deterministic rebuild."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "rules_data"
# beside the repository (../shared/seeds), or beside the folder of worktrees (../../shared/seeds)
SEEDS = next((p for p in (REPO.parent / "shared" / "seeds", REPO.parent.parent / "shared" / "seeds") if p.is_dir()),
             REPO.parent / "shared" / "seeds")
ENTRY_FILES = sorted((DATA / "entries").glob("*.json"))


# ------------------------------------------------------------ JSON Schema (jsonschema, a test dependency)

def validate(instance, schema) -> list[str]:
    """Every schema error, each with the path where it is."""
    validator = Draft202012Validator(schema)
    return [f"${''.join(f'[{p}]' if isinstance(p, int) else f'.{p}' for p in e.absolute_path)}: {e.message}"
            for e in validator.iter_errors(instance)]


def test_validator_catches_errors():
    schema = json.loads((DATA / "schema" / "entries.schema.json").read_text())
    Draft202012Validator.check_schema(schema)
    bad = {"edition": "xx", "seed": "nope", "entries": [{"id": "Bad Id", "extra": 1}]}
    errors = validate(bad, schema)
    assert any("is not one of" in e for e in errors)
    assert any("'extra' was unexpected" in e and e.startswith("$.entries[0]") for e in errors)
    assert any("'source' is a required property" in e for e in errors)


# ------------------------------------------------------------ committed data

def load_all_entries() -> list[dict]:
    return [e for f in ENTRY_FILES for e in json.loads(f.read_text(encoding="utf-8"))["entries"]]


@pytest.mark.parametrize("path", ENTRY_FILES, ids=lambda p: p.name)
def test_entry_file_matches_schema(path):
    schema = json.loads((DATA / "schema" / "entries.schema.json").read_text())
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert validate(doc, schema) == []
    assert all(e["edition"] == doc["edition"] for e in doc["entries"])


def test_spells_and_corrections_match_schema():
    for data, schema in (("spells.json", "spells.schema.json"), ("overlay/corrections.json", "corrections.schema.json")):
        doc = json.loads((DATA / data).read_text(encoding="utf-8"))
        assert validate(doc, json.loads((DATA / "schema" / schema).read_text())) == [], data


def test_every_entry_has_a_source_and_links_resolve():
    entries = load_all_entries()
    ids = [e["id"] for e in entries]
    assert len(ids) == len(set(ids)), "duplicate entry ids"
    known = set(ids)
    for e in entries:
        assert e["source"]["file"] and e["source"]["lines"], e["id"]
        for a, b in e["source"]["lines"]:
            assert a <= b, e["id"]
        for r in e["related"]:
            assert r in known, f"{e['id']} related -> {r}"
        for c in e["counterparts"]:
            assert c["id"] in known and c["id"].split("/")[0] != e["edition"], f"{e['id']} counterpart {c}"
    spells = json.loads((DATA / "spells.json").read_text(encoding="utf-8"))["spells"]
    assert all(s["id"] in known for s in spells)


def test_stats_links_resolve_when_stats_exist():
    stats_files = sorted((DATA / "stats").glob("*.json")) if (DATA / "stats").is_dir() else []
    if not stats_files:
        pytest.skip("rules_data/stats/*.json not written yet")
    sys.path.insert(0, str(REPO / "tools"))
    from build_rules_data import collect_ids

    stats_ids = set()
    for f in stats_files:
        stats_ids |= collect_ids(json.loads(f.read_text(encoding="utf-8")))
    for e in load_all_entries():
        if "stats" in e:
            assert e["stats"] in stats_ids, f"{e['id']} stats -> {e['stats']}"


def test_expected_content():
    by_id = {e["id"]: e for e in load_all_entries()}
    parry = by_id["lrb/close-combat/parry"]
    assert parry["path"] == ["Close combat", "Parry"]
    assert "summary" in parry  # 001:113 paraphrases it
    # 000 tables are Markdown tables (000:518-519).
    assert "| BS of shooter | 1 |" in by_id["lrb/shooting/hitting-the-target"]["body"]
    # Special rules are entries, linked both ways.
    assert "lrb/special-rules/concussion" in by_id["lrb/weapons/hammer-staff-mace-or-club"]["related"]
    assert "lrb/weapons/flail" in by_id["lrb/special-rules/heavy"]["related"]
    # Scan noise is corrected (000:339, 000:889, 000:958).
    text = " ".join(e["body"] for e in by_id.values() if e["edition"] == "lrb")
    for noise in (r"\bbidden\b", r"\bunbinged\b", r"1'3", r"\bbate\b", "Mordbeim"):
        assert not re.search(noise, text), noise
    wd = " ".join(e["body"] for e in by_id.values() if e["edition"] == "wd")
    assert "Mordbeim" not in wd and "Mordheim" in wd


# ------------------------------------------------------------ rebuild

@pytest.mark.skipif(not SEEDS.is_dir(), reason="seed rulebooks not beside the repo (../shared/seeds)")
def test_build_is_deterministic_and_matches_committed(tmp_path):
    out = tmp_path / "rules_data"
    shutil.copytree(DATA / "overlay", out / "overlay")
    if (DATA / "stats").is_dir():
        shutil.copytree(DATA / "stats", out / "stats")
    cmd = [sys.executable, str(REPO / "tools" / "build_rules_data.py"), str(SEEDS), "--out", str(out)]
    subprocess.run(cmd, check=True, capture_output=True)
    first = {p.name: p.read_bytes() for p in sorted((out / "entries").glob("*.json"))}
    first["spells.json"] = (out / "spells.json").read_bytes()
    subprocess.run(cmd, check=True, capture_output=True)
    second = {p.name: p.read_bytes() for p in sorted((out / "entries").glob("*.json"))}
    second["spells.json"] = (out / "spells.json").read_bytes()
    assert first == second
    committed = {p.name: p.read_bytes() for p in ENTRY_FILES}
    committed["spells.json"] = (DATA / "spells.json").read_bytes()
    assert first == committed, "committed rules data is stale: run tools/build_rules_data.py"
