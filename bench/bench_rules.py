"""Rules benchmark: /rule autocomplete and /rule through the harness vs /echo, and the index build.

    python bench/bench_rules.py

Targets (rules cog issue): autocomplete ≤ 1.5× echo; /rule ≤ 2× echo; building the library
(entries, FTS5 index, per-edition name tables) < 300 ms. Issue 12: the lookup's top-1 accuracy
over tests/rules_queries.json (at least 300 queries, most of them questions) ≥ 95%; issue 19: the
top-1 over the held-out tests/rules_queries_heldout.json (never tuned against) ≥ 95%, printed
beside it (bench/rules_accuracy.py -v lists the tuning set's misses).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import SMOKE, echo, line, new_harness, ratio, smoke  # noqa: E402
from bench.rules_accuracy import (HELD_OUT_QUERIES, HELD_OUT_TOP1_TARGET, MIN_HELD_OUT_QUERIES,  # noqa: E402
                                  MIN_QUERIES, TOP1_TARGET, TOP5_TARGET, evaluate, is_question, load_queries)
from engine.rules import RulesLibrary, load_library  # noqa: E402

AUTOCOMPLETE_PREFIXES = ["", "fla", "par", "knocked d", "sw"]
RULE_QUERIES = ["parry", "flail", "lrb/weapons/flail", "knocked down", "what happens when i fall"]


def build_times(n: int = 5) -> list[float]:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        RulesLibrary.load()
        times.append(time.perf_counter() - start)
    return times


async def main() -> None:
    print("Rules (ratios to /echo through the same harness and tree)")
    async with new_harness() as h:
        reference = echo(h)

        prefixes = iter(AUTOCOMPLETE_PREFIXES * 10_000)
        r, t, e = await ratio(lambda: h.autocomplete("rule", "query", query=next(prefixes)), reference)
        print(line("/rule autocomplete through the harness ÷ /echo", r, 1.5))
        print(f"  {'':<58} (autocomplete {t * 1e6:.0f} µs, /echo {e * 1e6:.0f} µs)")

        queries = iter(RULE_QUERIES * 10_000)
        r, t, e = await ratio(lambda: h.command("rule", query=next(queries)), reference, batches=11, per_batch=25)
        print(line("/rule (mixed exact, id, fuzzy, question) ÷ /echo", r, 2.0))
        print(f"  {'':<58} (/rule {t * 1e6:.0f} µs, /echo {e * 1e6:.0f} µs)")

        r, t, e = await ratio(lambda: h.command("rule", query="parry"), reference)
        print(line("/rule parry (exact name) ÷ /echo", r, 2.0))

        # The cog remembers recent lookups; without that memory every query hops to a thread.
        lookups = h.bot.get_cog("Rules")._lookups

        async def cold(query: str):
            lookups.clear()
            return await h.command("rule", query=query)

        r, t, e = await ratio(lambda: cold("parry"), reference, batches=9, per_batch=25)
        print(line("/rule parry, lookup not remembered (for information) ÷ /echo", r))
        r, t, e = await ratio(lambda: cold("what happens when i fall"), reference, batches=7, per_batch=15)
        print(line("/rule question, lookup not remembered (for information) ÷ /echo", r))

    times = build_times(smoke(5, 1))
    print(line("index build, RulesLibrary.load() (median of 5)", statistics.median(times) * 1000, 300, unit=" ms"))

    queries = load_queries()[:smoke(None, 10)]
    held_out = load_queries(HELD_OUT_QUERIES)[:smoke(None, 10)]
    top1, top5, _ = evaluate(load_library(), queries)
    held_top1, held_top5, _ = evaluate(load_library(), held_out)
    questions = sum(1 for q in queries if is_question(q["q"]))
    print(f"  lookup over {len(queries)} tuning queries (target ≥ {MIN_QUERIES}), {questions / len(queries):.0%} of them"
          f" questions, and {len(held_out)} held-out queries (target ≥ {MIN_HELD_OUT_QUERIES}), never tuned against")
    verdict = "smoke pass: not checked" if SMOKE else "ok" if top1 >= TOP1_TARGET else "BELOW TARGET"
    print(f"  {'top-1 accuracy, tuning set':<58} {top1:8.1%}  (target ≥ {TOP1_TARGET:.0%})  {verdict}")
    verdict = "smoke pass: not checked" if SMOKE else "ok" if held_top1 >= HELD_OUT_TOP1_TARGET else "BELOW TARGET"
    print(f"  {'top-1 accuracy, held-out set':<58} {held_top1:8.1%}  (target ≥ {HELD_OUT_TOP1_TARGET:.0%})  {verdict}")
    verdict = "smoke pass: not checked" if SMOKE else "ok" if top5 >= TOP5_TARGET else "BELOW TARGET"
    print(f"  {'top-5 accuracy, tuning set':<58} {top5:8.1%}  (target ≥ {TOP5_TARGET:.0%})  {verdict}")
    print(f"  {'top-5 accuracy, held-out set (for information)':<58} {held_top5:8.1%}")

if __name__ == "__main__":
    asyncio.run(main())
