"""/warband show and the warband autocomplete at scale, each as a ratio to the trivial /echo.

The database holds 1,000 servers and 10,000 warbands (``bench_storage.build_big_db``); the
shown warband has 30 warriors. Both commands go through the harness and the bot's real tree,
like /echo, so the ratio is what the warband code adds on top of discord.py's own path.

    python bench/bench_warbands.py
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_storage import BIG_GUILD, BIG_OWNER, BIG_WARBAND, build_big_db  # noqa: E402
from bench.common import echo, line, new_harness, ratio  # noqa: E402
from bot.harness import Actor  # noqa: E402

SHOW_TARGET = 3.0
AUTOCOMPLETE_TARGET = 2.0


async def main() -> dict[str, float]:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mordheim-bench-") as folder:
        path = Path(folder) / "big.db"
        t = time.perf_counter()
        build_big_db(path)
        print(f"build_big_db: 1,000 servers, 10,000 warbands, 30 warriors in one: {time.perf_counter() - t:.1f} s")
        async with new_harness(path) as h:
            actor = Actor(user_id=BIG_OWNER, guild_id=BIG_GUILD)
            show = await h.command("warband show", actor, name=BIG_WARBAND)
            assert not show.is_error, show.text
            assert "Warrior 0 (" in show.text
            assert (await h.autocomplete("warband show", "name", actor, name="the")).choices[0]["value"] == BIG_WARBAND

            async def show_call():
                return await h.command("warband show", actor, name=BIG_WARBAND)

            async def cold_show_call():
                h.bot.campaigns._sheets.clear()  # as right after a change: the sheet is rebuilt; unchanged warriors are reused
                return await h.command("warband show", actor, name=BIG_WARBAND)

            async def autocomplete_call():
                return await h.autocomplete("warband show", "name", actor, name="the")

            async def changeable_call():
                return await h.autocomplete("warband treasury", "name", actor, name="")

            reference = echo(h, actor)
            figures = {}
            print("ratios to /echo through the same harness (median of batches):")
            for label, fn, target in (
                ("/warband show (30 warriors, paged)", show_call, SHOW_TARGET),
                ("/warband show, sheet rebuilt after a change", cold_show_call, None),
                ("warband autocomplete (any warband, 'the')", autocomplete_call, AUTOCOMPLETE_TARGET),
                ("warband autocomplete (only changeable, '')", changeable_call, AUTOCOMPLETE_TARGET),
            ):
                r, t_s, ref_s = await ratio(fn, reference, batches=11, per_batch=25)
                figures[label] = r
                print(line(label, r, target))
                print(f"  {'':58} {t_s * 1e3:8.2f} ms vs /echo {ref_s * 1e3:.2f} ms")
    print(f"total {time.perf_counter() - started:.1f} s")
    return figures


if __name__ == "__main__":
    asyncio.run(main())
