"""Issue 19 §1: the real bot process under load, over a loopback stand-in for Discord.

Starts `mordheim-bot run` against tests/wire/fake_discord.py and offers interactions at steady
rates (the mix planning measured: /roll, /rule, /rule's autocomplete and /warband show in turn),
each for a few seconds, and prints the curve: offered rate -> answered within Discord's three
seconds, late (answered after, which Discord refuses), dropped (shed by the bot, never answered),
and the p50/p99 latency of those answered. The stand-in runs in this process, so the two share
the machine; these are absolute figures, so compare curves measured on the same machine.

The issue's targets: at 3,000/s offered at least 90% as many answered in time as at 1,500/s,
nothing late at any rate, p99 at 1,000/s mixed at most 50 ms.

    python bench/bench_overload.py [seconds per rate]
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import SMOKE, smoke  # noqa: E402
from tests.wire.bot_process import BOT_TOKEN, seed, start_bot, stopped  # noqa: E402
from tests.wire.fake_discord import FakeDiscord  # noqa: E402
from tests.wire.load import MIXED, ROLL_ONLY, capacity, offer  # noqa: E402

RATES = smoke((250, 500, 1000, 1500, 2000, 3000, 4000), (1000, 1500, 3000))  # the smoke pass: the rates the targets read
ROLL_RATES = smoke((1000, 2000, 3000), (1000,))
PAUSE = smoke(0.5, 0.1)  # seconds between two rates


async def main(seconds: float = smoke(3.0, 0.2)) -> dict[str, float]:
    started = time.perf_counter()
    figures: dict[str, float] = {}
    fake = FakeDiscord(BOT_TOKEN)
    await fake.start()
    with tempfile.TemporaryDirectory(prefix="mordheim-bench-") as folder:
        db = Path(folder) / "data" / "mordheim.db"
        seed(db)
        bot = start_bot(fake, db, Path(folder) / "bot.log", log_level="WARNING")
        try:
            await fake.wait_for(lambda: fake.identifies and fake.command_syncs, timeout=30)
            await offer(fake, 200, smoke(1.0, 0.2), MIXED)  # warm up: caches, the rules library, the database
            most = await capacity(fake, bot.pid, MIXED, seconds=smoke(1.0, 0.2))
            print(f"capacity from processor time per answer (tests/wire/load.py), mixed: {most:.0f}/s")
            print(f"curve, mixed, {seconds:g} s per rate:")
            bursts = {}
            for rate in RATES:
                burst = bursts[rate] = await offer(fake, rate, seconds, MIXED)
                print("  " + burst.line())
                await asyncio.sleep(PAUSE)
            print("/roll alone:")
            for rate in ROLL_RATES:
                print("  " + (await offer(fake, rate, seconds, ROLL_ONLY)).line())
                await asyncio.sleep(PAUSE)
            kept = bursts[3000].answered_per_second / max(1e-9, bursts[1500].answered_per_second)
            late = sum(b.late for b in bursts.values())
            p99 = bursts[1000].percentile(0.99) * 1e3
            figures.update({"kept at 3000/s vs 1500/s": kept, "late": late, "p99 at 1000/s (ms)": p99})
            unchecked = "  smoke pass: not checked"
            print(f"  answered in time at 3,000/s vs at 1,500/s: {kept:.2f} (target >= 0.90)"
                  f"{unchecked if SMOKE else '  ok' if kept >= 0.9 else '  UNDER TARGET'}")
            print(f"  answered late, all rates: {late} (target 0){unchecked if SMOKE else '  ok' if late == 0 else '  OVER TARGET'}")
            print(f"  p99 at 1,000/s mixed: {p99:.1f} ms (target <= 50 ms){unchecked if SMOKE else '  ok' if p99 <= 50 else '  OVER TARGET'}")
        finally:
            if bot.poll() is not None:
                print(f"the bot process had ended (exit {bot.returncode}); its log:")
                print((Path(folder) / "bot.log").read_text()[-3000:])
            bot.terminate()
            try:
                await stopped(bot, timeout=20)
            except Exception:
                bot.kill()
            await fake.stop()
    print(f"total {time.perf_counter() - started:.1f} s")
    return figures


if __name__ == "__main__":
    asyncio.run(main(*(float(a) for a in sys.argv[1:2])))
