"""Every benchmark in one run: `python bench/run.py` (or `python -m bench.run`).

Each figure is a ratio measured side by side in this run (see bench/common.py), so the
numbers are comparable across noisy machines; the targets come from the issues.
"""

from __future__ import annotations

import asyncio
import importlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SECTIONS = ["bench.bench_dice", "bench.bench_rules", "bench.bench_combat", "bench.bench_warbands", "bench.bench_lists",
            "bench.bench_process", "bench.bench_postbattle", "bench.bench_startup", "bench.bench_overload",
            "bench.bench_sheets", "bench.bench_game"]


async def main(selected: list[str]) -> None:
    for name in SECTIONS:
        if selected and not any(s in name for s in selected):
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            print(f"{name}: not available ({exc})")
            continue
        start = time.perf_counter()
        result = module.main()
        if asyncio.iscoroutine(result):
            await result
        print(f"  ({name} took {time.perf_counter() - start:.1f} s)\n")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
