"""Top-1 / top-5 accuracy of the rules lookup over tests/rules_queries.json, plus timings.

Run: python bench/rules_accuracy.py [-v]
A query's answer is right when it is the expected entry or one its "also" names (another entry
that answers the question as fully). Top-5 counts the answer or any of the suggestions offered
with it. The targets (issue 12): at least 300 queries, most of them questions; top-1 >= 95%.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from engine.rules.library import RulesLibrary  # noqa: E402

QUERIES = REPO / "tests" / "rules_queries.json"
TOP1_TARGET = 0.95
TOP5_TARGET = 0.98
MIN_QUERIES = 300
_QUESTION = re.compile(r"^(what|whats|what's|how|can|do|does|did|is|are|when|where|which|who|why|should|will|if|list)\b",
                       re.IGNORECASE)


def is_question(text: str) -> bool:
    """Phrased as a question ("can i parry a 6", "what does a net do?"), not as a title."""
    return bool(_QUESTION.match(text.strip())) or text.strip().endswith("?")


def evaluate(library: RulesLibrary, queries: list[dict]) -> tuple[float, float, list[tuple[dict, list[str]]]]:
    top1 = top5 = 0
    misses = []
    for q in queries:
        right = {q["expect"], *q.get("also", ())}
        r = library.lookup(q["q"], q.get("edition"))
        ranked = ([r.entry.id] if r.entry else []) + [e.id for e, _ in r.suggestions]
        if r.entry is not None and r.entry.id in right:  # a "did you mean" is not a top-1 answer
            top1 += 1
        else:
            misses.append((q, ranked[:5]))
        if right & set(ranked[:5]):
            top5 += 1
    n = len(queries)
    return top1 / n, top5 / n, misses


def time_build(runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        RulesLibrary.load()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def time_suggest(library: RulesLibrary, prefixes: list[str]) -> tuple[float, float]:
    """Median per-call time in ms, cold (cache cleared each call) and warm (cached)."""
    cold = []
    for p in prefixes:
        library._suggest.cache_clear()
        t = time.perf_counter()
        library.suggest(p, "lrb")
        cold.append(time.perf_counter() - t)
    warm = []
    for p in prefixes:
        t = time.perf_counter()
        library.suggest(p, "lrb")
        warm.append(time.perf_counter() - t)
    return statistics.median(cold) * 1000, statistics.median(warm) * 1000


def trivial_command(prefix: str) -> list[tuple[str, str]]:
    """What a trivial Discord autocomplete does: filter a short static list."""
    return [(c, c) for c in ("lrb", "core", "core2", "wd") if c.startswith(prefix)][:25]


def main() -> int:
    verbose = "-v" in sys.argv
    queries = json.loads(QUERIES.read_text(encoding="utf-8"))["queries"]
    build_ms = time_build()
    library = RulesLibrary.load()
    t1, t5, misses = evaluate(library, queries)
    prefixes = [q["q"][:n] for q in queries for n in (1, 2, 3, 5)]
    cold, warm = time_suggest(library, prefixes)
    t = time.perf_counter()
    for p in prefixes:
        trivial_command(p)
    trivial = (time.perf_counter() - t) / len(prefixes) * 1000
    questions = sum(1 for q in queries if is_question(q["q"]))
    print(f"queries: {len(queries)} (target >= {MIN_QUERIES}), {questions} of them questions ({questions / len(queries):.0%})")
    print(f"top-1 accuracy: {t1:.1%} (target >= {TOP1_TARGET:.0%}){'' if t1 >= TOP1_TARGET else '  BELOW TARGET'}")
    print(f"top-5 accuracy: {t5:.1%} (target >= {TOP5_TARGET:.0%}){'' if t5 >= TOP5_TARGET else '  BELOW TARGET'}")
    print(f"index build (median of 5): {build_ms:.1f} ms (target < 300 ms)")
    print(f"suggest median: {cold:.3f} ms uncached, {warm:.4f} ms cached; trivial command {trivial:.4f} ms")
    if verbose:
        for q, ranked in misses:
            print(f"  MISS {q['q']!r} [{q.get('edition', 'lrb')}] expected {q['expect']} got {ranked}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
