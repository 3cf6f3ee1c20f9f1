"""Dice benchmark: `/roll 2d6` through the harness vs `/echo`, with the roll record on and off,
`/luck` over 100,000 stored rolls, and the engine's own cost.

    python bench/bench_dice.py

Targets (issues 2 and 12): /roll ≤ 1.5× echo with the roll record on (it is on by default: the
record takes each roll in memory and writes batches in the background, and that writing is
measured here too, as it shares the process); /luck over 100,000 stored rolls ≤ 3× echo;
engine 2d6, 10d6 4+ and D66 each ≤ 0.1× echo. /luck show is measured three ways: its text alone
(a member who reads plain text gets no chart), text and chart asked again with no roll since the
chart was drawn (the chart is kept by the numbers it shows), and with the chart drawn anew, as
after a new roll (drawing a PNG with Pillow: for information, it has no target).
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import echo, line, new_harness, ratio, smoke  # noqa: E402
from bot.harness import Actor  # noqa: E402
from engine.dice import leadership_test, roll, roll_set  # noqa: E402
from engine.rng import system_rng  # noqa: E402
from engine.rolls import check_facts, roll_set_facts  # noqa: E402
from engine.rolls.record import record_for  # noqa: E402

STORED_ROLLS = smoke(100_000, 200)
MEMBERS = 12
PLAIN_READER = Actor(user_id=999, name="reader")  # reads answers as plain text: the text part of /luck, no chart


def store_rolls(h, n: int) -> float:
    """``n`` rolls of the usual kinds by MEMBERS members, written as the bot writes them; seconds taken."""
    record = record_for(h.bot.store)
    rng = random.Random(7)
    kinds = [roll_set_facts(roll_set(text, rng)) for text in ("2d6", "d6 4+", "3d6", "2d6<=7", "d66", "5d6 4+")]
    kinds.append(check_facts(leadership_test(7, rng)))
    guild = Actor().guild_id
    start = time.perf_counter()
    for n in range(n):
        record.add(guild, 700 + n % MEMBERS, f"member {n % MEMBERS}", kinds[n % len(kinds)])
        if record.pending >= 5000:
            record.flush()
    record.flush()
    return time.perf_counter() - start


async def main() -> None:
    print("Dice (ratios to /echo through the same harness and tree)")
    async with new_harness() as h:
        reference = echo(h)
        dice = h.bot.get_cog("Dice")
        for _ in range(smoke(300, 3)):  # the bot runs for days: measure it warmed up, not its first rolls
            await h.command("roll", expression="2d6")
            await reference()
        r, t, e = await ratio(lambda: h.command("roll", expression="2d6"), reference, batches=21)
        print(line("/roll 2d6, roll record on (the default) ÷ /echo", r, 1.5))
        print(f"  {'':<58} (/roll {t * 1e6:.0f} µs, /echo {e * 1e6:.0f} µs)")
        # what the background writer spends per roll, off the roll's path (once a second)
        for _ in range(smoke(500, 5)):
            await h.command("roll", expression="2d6")
        waiting = dice.record.pending
        start = time.perf_counter()
        dice.record.flush()
        per_roll = (time.perf_counter() - start) / max(1, waiting)
        print(line("  its background write, per roll (for information) ÷ /echo", per_roll / e))
        print(f"  {'':<58} ({waiting} rolls in one transaction, {per_roll * 1e6:.1f} µs a roll)")
        record, dice.record = dice.record, None
        r, t, e = await ratio(lambda: h.command("roll", expression="2d6"), reference, batches=21)
        dice.record = record
        print(line("/roll 2d6, roll record off (for information) ÷ /echo", r))
        r, t, e = await ratio(lambda: h.command("roll", expression="3x d6 4+, 2d6<=7"), reference)
        print(line("/roll 3x d6 4+, 2d6<=7 (a set, record on) ÷ /echo", r))

        seconds = store_rolls(h, STORED_ROLLS)
        print(f"  {'(stored ' + format(STORED_ROLLS, ',') + ' rolls in ' + format(seconds, '.1f') + ' s, written as the bot writes them)':<58}")
        await h.command("preferences plaintext", PLAIN_READER, mode="on")
        charts = h.bot.get_cog("Luck").charts

        async def drawn(**options):
            charts.clear()  # the chart drawn again, as after a new roll (whose new read, a small part, is not made here)
            return await h.command("luck show", **options)

        for label, options in (("/luck show", {}), ("/luck show member", {"member": str(700)})):
            r, t, e = await ratio(lambda: h.command("luck show", PLAIN_READER, **options), reference)
            print(line(f"{label}, its text (plain-text reader) ÷ /echo", r, 3.0))
            r, t, e = await ratio(lambda: h.command("luck show", **options), reference)
            print(line(f"{label}, text and chart, no roll since drawn ÷ /echo", r, 3.0))
            r, t, e = await ratio(lambda: drawn(**options), reference, batches=7, per_batch=10)
            print(line(f"  its chart drawn anew (for information) ÷ /echo", r))
            print(f"  {'':<58} ({t * 1e3:.1f} ms, /echo {e * 1e6:.0f} µs; over {STORED_ROLLS:,} stored rolls)")

        rng = system_rng()  # what production uses
        for expr in ("2d6", "10d6 4+", "D66"):
            r, t, e = await ratio(lambda expr=expr: roll(expr, rng), reference, sync_target=True, per_batch=200)
            print(line(f"engine roll('{expr}') ÷ /echo", r, 0.1))
        seeded = random.Random(1)
        r, t, _ = await ratio(lambda: roll("10d6 4+", seeded), reference, sync_target=True, per_batch=200)
        print(line("engine roll('10d6 4+') with a seeded Random ÷ /echo", r, 0.1))


if __name__ == "__main__":
    asyncio.run(main())
