"""Offered load for the overload wire test and bench/bench_overload.py: interactions sent to the
real bot process at a steady rate through tests/wire/fake_discord.py, and what became of them.

An interaction is *answered* when its first answer reached Discord within three seconds, *late*
when it came after (Discord refused it), and *dropped* when none came (the bot shed it).
"""

from __future__ import annotations

import asyncio
import gc
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from tests.wire.fake_discord import ANSWER_WITHIN, FakeDiscord

Send = Callable[[FakeDiscord], Awaitable[int]]

ROLL: Send = lambda fake: fake.slash("roll", expression="2d6")  # noqa: E731
RULE: Send = lambda fake: fake.slash("rule", query="parry")  # noqa: E731
RULE_TYPED: Send = lambda fake: fake.autocomplete("rule", "query", query="fla")  # noqa: E731
WARBAND_SHOW: Send = lambda fake: fake.slash("warband", sub="show", name="Thirty Strong")  # noqa: E731

#: The mix planning measured: /roll, /rule, autocomplete and /warband show in turn.
MIXED: tuple[Send, ...] = (ROLL, RULE, RULE_TYPED, WARBAND_SHOW)
ROLL_ONLY: tuple[Send, ...] = (ROLL,)


@dataclass
class Burst:
    """What became of one burst of interactions offered at ``rate`` per second."""

    rate: float
    seconds: float  # how long the offering took
    ids: list[int] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)  # of those answered in time, seconds
    late: int = 0
    twice: int = 0

    @property
    def offered(self) -> int:
        return len(self.ids)

    @property
    def answered(self) -> int:
        return len(self.latencies)

    @property
    def dropped(self) -> int:
        return self.offered - self.answered - self.late

    @property
    def answered_per_second(self) -> float:
        return self.answered / self.seconds

    def percentile(self, q: float) -> float:
        """The ``q`` quantile (0..1) of the answered latencies, in seconds (``nan`` if none)."""
        if not self.latencies:
            return float("nan")
        if len(self.latencies) == 1:
            return self.latencies[0]
        return statistics.quantiles(self.latencies, n=1000, method="inclusive")[min(998, max(0, round(q * 1000) - 1))]

    def line(self) -> str:
        return (f"{self.rate:7.0f}/s offered {self.offered:6d}: answered in time {self.answered:6d} "
                f"({self.answered_per_second:6.0f}/s), late {self.late:5d}, dropped {self.dropped:5d}, "
                f"p50 {self.percentile(0.5) * 1e3:7.1f} ms, p99 {self.percentile(0.99) * 1e3:7.1f} ms")


async def offer(fake: FakeDiscord, rate: float, seconds: float, mix: tuple[Send, ...], *, settle: bool = True) -> Burst:
    """Send ``rate × seconds`` interactions of ``mix`` (in turn) at a steady ``rate``, then wait
    until each is answered or past Discord's deadline (when ``settle``).

    The stand-in keeps every message and event it sent; its garbage collector, walking them all,
    would stop this process for a noticeable while and make the bot's answers look late. So it
    runs only between bursts."""
    gc.collect()
    gc.disable()
    try:
        return await _offer(fake, rate, seconds, mix, settle)
    finally:
        gc.enable()


async def _offer(fake: FakeDiscord, rate: float, seconds: float, mix: tuple[Send, ...], settle: bool) -> Burst:
    loop = asyncio.get_running_loop()
    total = max(1, round(rate * seconds))
    burst = Burst(rate=rate, seconds=seconds)
    start = loop.time()
    while len(burst.ids) < total:
        due = min(total, int((loop.time() - start) * rate) + 1)
        while len(burst.ids) < due:
            burst.ids.append(await mix[len(burst.ids) % len(mix)](fake))
        await asyncio.sleep(0.002)
    burst.seconds = max(seconds, loop.time() - start)
    if settle:
        await wait_out(fake, burst)
    return burst


async def wait_out(fake: FakeDiscord, burst: Burst) -> None:
    """Wait until every interaction of ``burst`` is answered or past its deadline, then count."""
    deadline = fake.sent_at[burst.ids[-1]] + ANSWER_WITHIN + 0.3
    ids = burst.ids
    while time.monotonic() < deadline and not all(i in fake.answered_at for i in ids[-50:]):
        await asyncio.sleep(0.05)
    if not all(i in fake.answered_at for i in ids):
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))
    late, twice = set(fake.late), set(fake.twice)
    burst.latencies = sorted(fake.answered_at[i] - fake.sent_at[i] for i in ids if i in fake.answered_at)
    burst.late = sum(1 for i in ids if i in late)
    burst.twice = sum(1 for i in ids if i in twice)


def processor_seconds(pid: int) -> float:
    """Processor time (user and system) process ``pid`` has used so far (Linux's /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def capacity(fake: FakeDiscord, pid: int, mix: tuple[Send, ...], *, seconds: float = 1.0) -> float:
    """About how many interactions per second the bot (process ``pid``) answers at most: one over
    the processor time it spends per answer, measured at 200/s, then twice more at three quarters
    of the figure found. Each answer also pays for the event loop waking up for fewer things at a
    gentler rate, so the figure rises towards the capacity; it stays below it (the bot's worker
    threads add a little of another core), and a machine busy with other work lowers it too."""
    figure = await _per_core(fake, pid, mix, 200, seconds)
    for _ in range(2):
        figure = max(figure, await _per_core(fake, pid, mix, max(200.0, 0.75 * figure), seconds))
    return figure


async def _per_core(fake: FakeDiscord, pid: int, mix: tuple[Send, ...], rate: float, seconds: float) -> float:
    before = processor_seconds(pid)
    burst = await offer(fake, rate, seconds, mix)
    return burst.answered / max(processor_seconds(pid) - before, 1e-3)
