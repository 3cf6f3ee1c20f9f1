"""Dice benchmark: `/roll 2d6` through the harness vs `/echo`, and the engine's own cost.

    python bench/bench_dice.py

Targets (issue 2): /roll ≤ 1.5× echo; engine 2d6, 10d6 4+ and D66 each ≤ 0.1× echo.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import echo, line, new_harness, ratio  # noqa: E402
from engine.dice import roll  # noqa: E402
from engine.rng import system_rng  # noqa: E402


async def main() -> None:
    print("Dice (ratios to /echo through the same harness and tree)")
    async with new_harness() as h:
        reference = echo(h)
        r, t, e = await ratio(lambda: h.command("roll", expression="2d6"), reference)
        print(line("/roll 2d6 through the harness ÷ /echo", r, 1.5))
        print(f"  {'':<58} (/roll {t * 1e6:.0f} µs, /echo {e * 1e6:.0f} µs)")
        rng = system_rng()  # what production uses
        for expr in ("2d6", "10d6 4+", "D66"):
            r, t, e = await ratio(lambda expr=expr: roll(expr, rng), reference, sync_target=True, per_batch=200)
            print(line(f"engine roll('{expr}') ÷ /echo", r, 0.1))
        seeded = random.Random(1)
        r, t, _ = await ratio(lambda: roll("10d6 4+", seeded), reference, sync_target=True, per_batch=200)
        print(line("engine roll('10d6 4+') with a seeded Random ÷ /echo", r, 0.1))


if __name__ == "__main__":
    asyncio.run(main())
