"""Lookup accuracy over tests/rules_queries.json (deterministic, so asserted)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_accuracy_targets():
    sys.path.insert(0, str(REPO / "bench"))
    from rules_accuracy import evaluate

    from engine.rules import load_library

    queries = json.loads((REPO / "tests" / "rules_queries.json").read_text(encoding="utf-8"))["queries"]
    assert len(queries) >= 150
    top1, top5, misses = evaluate(load_library(), queries)
    assert top1 >= 0.90, misses
    assert top5 >= 0.98, misses


def test_queries_are_not_just_titles():
    from engine.rules import load_library

    lib = load_library()
    queries = json.loads((REPO / "tests" / "rules_queries.json").read_text(encoding="utf-8"))["queries"]
    verbatim = sum(1 for q in queries if q["q"].strip().lower() == lib.get(q["expect"]).title.lower())
    assert verbatim / len(queries) < 0.5
