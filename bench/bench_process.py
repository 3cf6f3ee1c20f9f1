"""What issue #11's bot-layer mechanisms cost, each as a ratio measured in the same run.

- every interaction now enters through ``bot/state.py`` (reply style read from the database,
  unknown-component check, task tracking): /echo through it against /echo through
  discord.py's own ``parse_interaction_create``;
- plain text: /roll for a member who reads plain text against /roll with embeds;
- kept pages: a paged answer (pages encoded, then written by a worker thread) and a page
  turn (read back and the page saved, in one transaction) against /echo.

Issue #11 sets no ratio for these (its only figure is answers "within a few milliseconds"),
so none is printed as a target; the milliseconds are printed beside each ratio. On a busy
machine the two figures with worker threads suffer most: a thread waits for a free core.

    python bench/bench_process.py
"""

from __future__ import annotations

import asyncio
import functools
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from discord.state import AutoShardedConnectionState  # noqa: E402

from bench.common import echo, line, new_harness, ratio  # noqa: E402
from bot.harness import Actor  # noqa: E402

GUILD = 7
READER = Actor(user_id=11, guild_id=GUILD)  # reads plain text
PLAYER = Actor(user_id=12, guild_id=GUILD)


def thirty_warriors(campaigns) -> None:
    campaigns.create_warband(GUILD, PLAYER.user_id, "Thirty Strong", "Skaven")
    for n in range(30):
        role = "leader" if n == 0 else "hero" if n < 6 else "henchmen"
        campaigns.add_warrior(GUILD, PLAYER.user_id, False, "Thirty Strong", f"Warrior {n}", role=role,
                              warrior_type="Verminkin", profile=dict(M=5, WS=3, BS=3, S=3, T=3, W=1, I=4, A=1, Ld=5),
                              equipment=["Sword", "Dagger", "Light armour"], experience=n)
        if n >= 19:
            campaigns.edit_warrior(GUILD, PLAYER.user_id, False, "Thirty Strong", f"Warrior {n}", status="dead")


async def main() -> dict[str, float]:
    started = time.perf_counter()
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="mordheim-bench-") as folder:
        async with new_harness(Path(folder) / "hooked.db") as h, new_harness(Path(folder) / "bare.db") as bare:
            state = bare.bot._connection
            state.parse_interaction_create = functools.partial(AutoShardedConnectionState.parse_interaction_create, state)
            thirty_warriors(h.bot.campaigns)
            await h.command("preferences plaintext", READER, mode="on")
            shown = await h.command("warband show", PLAYER, name="Thirty Strong")
            page_message = shown.message_id
            assert len(h.messages[page_message].components()) == 3, "the sheet should be paged"
            direction = ["page:next"]

            async def page_turn():
                result = await h.click(page_message, direction[0], PLAYER)
                counter = h.messages[page_message].components()[1]["label"]
                first, count = counter.split("/")
                if first in ("1", count):  # bounce between the first and the last page
                    direction[0] = "page:prev" if first == count else "page:next"
                return result

            reference = echo(h, PLAYER)
            print("ratios measured side by side (median of batches):")
            for label, fn, ref in (
                ("/echo through bot/state.py vs discord.py's own entry", reference, echo(bare, PLAYER)),
                ("/roll 2d6 as plain text vs as an embed", lambda: h.command("roll", READER, expression="2d6"),
                 lambda: h.command("roll", PLAYER, expression="2d6")),
                ("/warband show, pages kept in the database, vs /echo", lambda: h.command("warband show", PLAYER, name="Thirty Strong"),
                 reference),
                ("a page turn (read back from the database) vs /echo", page_turn, reference),
            ):
                r, t_s, ref_s = await ratio(fn, ref, batches=11, per_batch=25)
                figures[label] = r
                print(line(label, r))
                print(f"  {'':58} {t_s * 1e3:8.2f} ms vs {ref_s * 1e3:.2f} ms")
    print(f"total {time.perf_counter() - started:.1f} s")
    return figures


if __name__ == "__main__":
    asyncio.run(main())
