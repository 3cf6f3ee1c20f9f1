"""Every benchmark in one run: `python bench/run.py [section ...]` (or `python -m bench.run`).

Each figure is a ratio measured side by side in this run (see bench/common.py), so the
numbers are comparable across noisy machines; the targets come from the issues. With
``MORDHEIM_BENCH_SMOKE=1`` it is the smoke pass: every section once over the smallest data, no
target checked (tests/test_bench_smoke.py runs it with the tests, so that a benchmark that no
longer runs is found). A section that fails prints its traceback and the others still run; the
exit status is then 1, naming the sections that failed.
"""

from __future__ import annotations

import asyncio
import importlib
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SECTIONS = ["bench.bench_dice", "bench.bench_rules", "bench.rules_accuracy", "bench.bench_combat", "bench.bench_storage",
            "bench.bench_warbands", "bench.bench_lists", "bench.bench_process", "bench.bench_postbattle",
            "bench.bench_startup", "bench.bench_overload", "bench.bench_sheets", "bench.bench_roster_import",
            "bench.bench_postgres", "bench.bench_game"]


async def main(selected: list[str]) -> list[str]:
    """Run the sections ``selected`` names a part of (all when none); the names of those that failed."""
    from bench.common import SMOKE

    if SMOKE:
        print("Smoke pass (MORDHEIM_BENCH_SMOKE): every benchmark once over the smallest data; the figures mean nothing.\n")
    failed = []
    for name in SECTIONS:
        if selected and not any(s in name for s in selected):
            continue
        start = time.perf_counter()
        try:
            module = importlib.import_module(name)
            result = module.main()
            if asyncio.iscoroutine(result):
                await result
        except Exception:
            traceback.print_exc()
            failed.append(name)
            print(f"  ({name} FAILED after {time.perf_counter() - start:.1f} s)\n", flush=True)
            continue
        print(f"  ({name} took {time.perf_counter() - start:.1f} s)\n", flush=True)
    return failed


if __name__ == "__main__":
    failures = asyncio.run(main(sys.argv[1:]))
    if failures:
        print("Failed: " + ", ".join(failures), file=sys.stderr)
        sys.exit(1)
