"""Side-by-side timing: every figure is a ratio against a trivial command measured in the same run.

Machines here are shared and noisy, so absolute times mean little. Each measurement alternates
short batches of the command under test with batches of the reference (``/echo`` through the same
harness and tree), and reports the median of the per-batch ratios.

``MORDHEIM_BENCH_SMOKE=1`` is the smoke pass (tests/test_bench_smoke.py runs it with the tests):
every benchmark runs its code once over the smallest data that still takes every path (a
batch of two, a few warbands for a thousand, one process start for seven), so that a benchmark
that no longer runs is found; its figures mean nothing and no target is checked (``line``
says so). Each module picks its smaller sizes with ``smoke(normal, small)``.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Awaitable, Callable

from bot.client import MordheimBot
from bot.config import Config
from bot.harness import Actor, Harness

ROOT = Path(__file__).resolve().parent.parent
SMOKE = os.environ.get("MORDHEIM_BENCH_SMOKE", "").strip() not in ("", "0")
WARM_UP = 2 if SMOKE else 20  # calls of each side before ``ratio`` measures


def smoke(normal, small):
    """``small`` in the smoke pass, else ``normal``."""
    return small if SMOKE else normal


def ratio_calls(batches: int, per_batch: int) -> int:
    """How many times ``ratio(..., batches=, per_batch=)`` calls its target (warm-up included), for a
    benchmark that prepares one piece of data per call."""
    batches, per_batch = _sized(batches, per_batch)
    return WARM_UP + batches * per_batch


def _sized(batches: int, per_batch: int) -> tuple[int, int]:
    return (1, min(per_batch, 2)) if SMOKE else (batches, per_batch)


def new_harness(db_path: Path | None = None, seed: int = 1) -> Harness:
    import random

    if db_path is None:
        db_path = Path(tempfile.mkdtemp(prefix="mordheim-bench-")) / "bench.db"
    return Harness(MordheimBot(Config(db_path=db_path), rng=random.Random(seed)))


async def per_call(fn: Callable[[], Awaitable[object]], n: int, clock: Callable[[], float] = time.perf_counter) -> float:
    start = clock()
    for _ in range(n):
        await fn()
    return (clock() - start) / n


def per_call_sync(fn: Callable[[], object], n: int, clock: Callable[[], float] = time.perf_counter) -> float:
    start = clock()
    for _ in range(n):
        fn()
    return (clock() - start) / n


async def ratio(
    target: Callable[[], Awaitable[object]] | Callable[[], object],
    reference: Callable[[], Awaitable[object]],
    *,
    batches: int = 15,
    per_batch: int = 40,
    sync_target: bool = False,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[float, float, float]:
    """(median ratio target/reference, median target seconds, median reference seconds).

    ``clock``: wall time by default; ``time.process_time`` measures the CPU time of this process
    (every thread), which other processes on a shared, busy host do not change."""
    batches, per_batch = _sized(batches, per_batch)
    await per_call(reference, WARM_UP)  # warm up
    if sync_target:
        per_call_sync(target, WARM_UP)
    else:
        await per_call(target, WARM_UP)
    ratios, ts, rs = [], [], []
    for _ in range(batches):
        r = await per_call(reference, per_batch, clock)
        t = per_call_sync(target, per_batch, clock) if sync_target else await per_call(target, per_batch, clock)
        ratios.append(t / r)
        ts.append(t)
        rs.append(r)
    return statistics.median(ratios), statistics.median(ts), statistics.median(rs)


def echo(h: Harness, actor: Actor | None = None) -> Callable[[], Awaitable[object]]:
    actor = actor or Actor()
    return lambda: h.command("echo", actor, text="hello")


def line(name: str, value: float, target: float | None = None, unit: str = "×") -> str:
    verdict = ""
    if target is not None:
        verdict = "  smoke pass: not checked" if SMOKE else "  ok" if value <= target else "  OVER TARGET"
        verdict = f"  (target ≤ {target}{unit}){verdict}"
    return f"  {name:<58} {value:8.3f}{unit}{verdict}"


def run(coro) -> None:
    asyncio.run(coro)
