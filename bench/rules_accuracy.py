"""Top-1 / top-5 accuracy of the rules lookup over tests/rules_queries.json, plus timings.

Run: python bench/rules_accuracy.py [-v]
Top-5 counts the answer or any of the suggestions offered with it.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from engine.rules.library import RulesLibrary  # noqa: E402

QUERIES = REPO / "tests" / "rules_queries.json"


def evaluate(library: RulesLibrary, queries: list[dict]) -> tuple[float, float, list[tuple[dict, list[str]]]]:
    top1 = top5 = 0
    misses = []
    for q in queries:
        r = library.lookup(q["q"], q.get("edition"))
        ranked = ([r.entry.id] if r.entry else []) + [e.id for e, _ in r.suggestions]
        if r.entry is not None and r.entry.id == q["expect"]:  # a "did you mean" is not a top-1 answer
            top1 += 1
        else:
            misses.append((q, ranked[:5]))
        if q["expect"] in ranked[:5]:
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
    print(f"queries: {len(queries)}")
    print(f"top-1 accuracy: {t1:.1%} (target >= 90%)")
    print(f"top-5 accuracy: {t5:.1%} (target >= 98%)")
    print(f"index build (median of 5): {build_ms:.1f} ms (target < 300 ms)")
    print(f"suggest median: {cold:.3f} ms uncached, {warm:.4f} ms cached; trivial command {trivial:.4f} ms")
    if verbose:
        for q, ranked in misses:
            print(f"  MISS {q['q']!r} [{q.get('edition', 'lrb')}] expected {q['expect']} got {ranked}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
