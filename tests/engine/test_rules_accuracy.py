"""Lookup accuracy over tests/rules_queries.json (deterministic, so asserted; the benchmark prints it)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

from rules_accuracy import MIN_QUERIES, TOP1_TARGET, TOP5_TARGET, evaluate, is_question  # noqa: E402

from engine.rules import load_library  # noqa: E402


def queries() -> list[dict]:
    return json.loads((REPO / "tests" / "rules_queries.json").read_text(encoding="utf-8"))["queries"]


def test_accuracy_targets():
    qs = queries()
    assert len(qs) >= MIN_QUERIES
    top1, top5, misses = evaluate(load_library(), qs)
    assert top1 >= TOP1_TARGET, [(q["q"], got) for q, got in misses]
    assert top5 >= TOP5_TARGET, [(q["q"], got) for q, got in misses]


def test_most_queries_are_questions_not_titles():
    lib = load_library()
    qs = queries()
    assert sum(1 for q in qs if is_question(q["q"])) / len(qs) > 0.5
    verbatim = sum(1 for q in qs if q["q"].strip().lower() == lib.get(q["expect"]).title.lower())
    assert verbatim / len(qs) < 0.2


def test_every_expected_answer_exists_and_is_of_its_edition_or_borrowed():
    lib = load_library()
    for q in queries():
        for eid in (q["expect"], *q.get("also", ())):
            entry = lib.get(eid)
            assert entry.id in {e.id for e in lib.entries(q.get("edition"))}, (q, eid)
