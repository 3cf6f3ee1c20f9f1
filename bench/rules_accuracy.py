"""Top-1 / top-5 accuracy of the rules lookup, plus timings, over two query sets:

- the tuning set, tests/rules_queries.json: the lookup is tuned on it (its misses are listed with -v);
- the held-out set, tests/rules_queries_heldout.json (issue 19 §4): players' phrasings written
  before the lookup was run on them and never tuned against; only its figures are printed, never
  its misses, so that no change is made for one of its queries.

Run: python bench/rules_accuracy.py [-v]
A query's answer is right when it is the expected entry or one its "also" names (another entry
that answers the question as fully). Top-5 counts the answer or any of the suggestions offered
with it. The targets: at least 300 tuning queries, most of them questions (issue 12), at least 70
held-out ones (issue 19); top-1 >= 95% on each.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.common import smoke  # noqa: E402
from engine.rules.library import RulesLibrary  # noqa: E402
from engine.rules.questions import is_question  # noqa: E402  (how the lookup tells a question)

QUERIES = REPO / "tests" / "rules_queries.json"
HELD_OUT_QUERIES = REPO / "tests" / "rules_queries_heldout.json"
TOP1_TARGET = 0.95
TOP5_TARGET = 0.98
HELD_OUT_TOP1_TARGET = 0.95
MIN_QUERIES = 300
MIN_HELD_OUT_QUERIES = 70
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


def load_queries(path: Path = QUERIES) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["queries"]


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
    queries = load_queries()[:smoke(None, 10)]  # the smoke pass (bench/common.py): a few of each
    held_out = load_queries(HELD_OUT_QUERIES)[:smoke(None, 10)]
    build_ms = time_build(smoke(5, 1))
    library = RulesLibrary.load()
    t1, t5, misses = evaluate(library, queries)
    h1, h5, _ = evaluate(library, held_out)  # its misses are never shown: see the module's docstring
    prefixes = [q["q"][:n] for q in queries for n in (1, 2, 3, 5)]
    cold, warm = time_suggest(library, prefixes)
    t = time.perf_counter()
    for p in prefixes:
        trivial_command(p)
    trivial = (time.perf_counter() - t) / len(prefixes) * 1000
    questions = sum(1 for q in queries if is_question(q["q"]))
    print(f"tuning queries: {len(queries)} (target >= {MIN_QUERIES}), {questions} of them questions ({questions / len(queries):.0%});"
          f" held-out queries: {len(held_out)} (target >= {MIN_HELD_OUT_QUERIES})")
    print(f"top-1 accuracy: tuning {t1:.1%}, held-out {h1:.1%} (target >= {TOP1_TARGET:.0%})"
          f"{'' if min(t1, h1) >= TOP1_TARGET else '  BELOW TARGET'}")
    print(f"top-5 accuracy: tuning {t5:.1%} (target >= {TOP5_TARGET:.0%}){'' if t5 >= TOP5_TARGET else '  BELOW TARGET'},"
          f" held-out {h5:.1%}")
    print(f"index build (median of 5): {build_ms:.1f} ms (target < 300 ms)")
    print(f"suggest median: {cold:.3f} ms uncached, {warm:.4f} ms cached; trivial command {trivial:.4f} ms")
    if verbose:
        for q, ranked in misses:
            print(f"  MISS {q['q']!r} [{q.get('edition', 'lrb')}] expected {q['expect']} got {ranked}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
