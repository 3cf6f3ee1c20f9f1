"""/warband show, hiring, buying and the warband autocomplete at scale, each as a ratio to the trivial /echo.

The database holds 1,000 servers and 10,000 warbands (``bench_storage.build_big_db``); the
shown warband has 30 warriors. A list-built warband of 30 warrior rows (hired and equipped
through the list, half of them since dead) is shown beside it: the issue asks that a list-built
warband's sheet cost what the hand-kept one's does. Hiring and buying each write a warrior,
the treasury and two ledger rows as one action, into warbands of their own so no limit is hit.
Every command goes through the harness and the bot's real tree, like /echo, so the ratio is
what the warband code adds on top of discord.py's own path. Each is timed in CPU time
(``time.process_time``: this process, every thread), the measure issue 15 states its figures in;
on a shared host wall time also counts whatever other processes run meanwhile. Below hiring and buying, the same
command answered with a hire (a purchase) made beforehand: the options read, the answer drawn
and sent, without the engine; the engine's own cost is the difference between the two lines.
Below that, the CPU time the command spends inside SQLite (its statements, the BEGIN and the
COMMIT: bench/sqlite_share.py), for scale: the two lines added are what the command would cost if
the engine's Python took no time at all.

    python bench/bench_warbands.py
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_storage import BIG_GUILD, BIG_OWNER, BIG_WARBAND, SERVERS, WARBANDS, build_big_db  # noqa: E402
from bench.common import echo, line, new_harness, ratio, ratio_calls, smoke  # noqa: E402
from bench.sqlite_share import median_inside_sqlite  # noqa: E402
from bot.harness import Actor  # noqa: E402
from engine.campaign.actions import sheets  # noqa: E402

SHOW_TARGET = 3.0
AUTOCOMPLETE_TARGET = 2.0
HIRE_BUY_TARGET = 2.0  # issue 8: hiring and buying at most 2x /echo
LIST_BAND = "The List Band"
CALLS = ratio_calls(11, 25)  # what ratio() runs: warm-up plus batches
SHARE_CALLS = smoke(100, 2)  # calls whose time inside SQLite is added up (on warbands of their own)


def build_list_band(h, actor) -> None:
    """A 32-row warband hired and equipped from the Reikland list (15 alive, 15 since dead), with a
    hired sword whose kit was chosen and a Dramatis Persona (the sheet says what each brings)."""
    c = h.bot.campaigns
    g, owner = actor.guild_id, actor.user_id
    c.create_warband(g, owner, LIST_BAND, "Reiklanders", gold_crowns=100_000)
    c.hire_fighter(g, owner, False, LIST_BAND, "Mercenary Captain", name="Warrior 0")
    hires = ["Champion", "Champion", "Youngblood", "Youngblood"] + ["Warrior"] * 25
    for n, fighter in enumerate(hires, start=1):
        if n >= 15:  # the list allows 15 alive: the one before falls to make room
            c.edit_warrior(g, owner, False, LIST_BAND, f"Warrior {n - 1}", status="dead")
        c.hire_fighter(g, owner, False, LIST_BAND, fighter, name=f"Warrior {n}")
        for item in ("Sword", "Dagger", "Light armour"):
            c.buy(g, owner, False, LIST_BAND, item, warrior=f"Warrior {n}")
    c.hire_sword(g, owner, False, LIST_BAND, "Ogre Bodyguard", kit="Two axes")
    c.hire_character(g, owner, False, LIST_BAND, "Johann the Knife")


def build_shoppers(h, actor, count: int) -> list[str]:
    """``count`` list-built warbands with gold and a captain, for hires and purchases that never hit a limit."""
    c = h.bot.campaigns
    names = [f"Shopper {n}" for n in range(count)]
    for name in names:
        c.create_warband(actor.guild_id, actor.user_id, name, "Reiklanders", gold_crowns=100_000)
        c.hire_fighter(actor.guild_id, actor.user_id, False, name, "Mercenary Captain", name="Otto")
    return names


async def main() -> dict[str, float]:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mordheim-bench-") as folder:
        path = Path(folder) / "big.db"
        t = time.perf_counter()
        build_big_db(path)
        print(f"build_big_db: {SERVERS:,} servers, {WARBANDS:,} warbands, 30 warriors in one: {time.perf_counter() - t:.1f} s")
        async with new_harness(path) as h:
            actor = Actor(user_id=BIG_OWNER, guild_id=BIG_GUILD)
            show = await h.command("warband show", actor, name=BIG_WARBAND)
            assert not show.is_error, show.text
            assert "Warrior 0 (" in show.text
            assert (await h.autocomplete("warband show", "name", actor, name="the")).choices[0]["value"] == BIG_WARBAND

            async def show_call():
                return await h.command("warband show", actor, name=BIG_WARBAND)

            async def cold_show_call():
                sheets._kept.clear()  # as right after a change: the sheet is rebuilt; unchanged warriors are reused
                return await h.command("warband show", actor, name=BIG_WARBAND)

            async def autocomplete_call():
                return await h.autocomplete("warband show", "name", actor, name="the")

            async def changeable_call():
                return await h.autocomplete("warband rename", "name", actor, name="")

            t = time.perf_counter()
            build_list_band(h, actor)
            *shoppers, spare = build_shoppers(h, actor, CALLS + SHARE_CALLS + 1)
            print(f"list-built warband (32 rows) and {CALLS + 1} shoppers: {time.perf_counter() - t:.1f} s")
            hires, buys = iter(shoppers), iter(shoppers * 3)
            campaigns = h.bot.campaigns
            made = {"hire_fighter": campaigns.hire_fighter(actor.guild_id, actor.user_id, False, spare, "Warrior", count=5),
                    "buy": campaigns.buy(actor.guild_id, actor.user_id, False, spare, "Sword", warrior="Otto")}

            def without_engine(service, method: str, command: str, **options):
                """``command`` with ``service.method`` answering at once with what it answered beforehand."""
                async def call():
                    setattr(service, method, lambda *args, **kwargs: made[method])  # this instance only
                    try:
                        res = await h.command(command, actor, **options)
                    finally:
                        delattr(service, method)
                    assert not res.is_error, res.text
                    return res
                return call

            async def list_show_call():
                return await h.command("warband show", actor, name=LIST_BAND)

            async def cold_list_show_call():
                sheets._kept.clear()
                return await h.command("warband show", actor, name=LIST_BAND)

            async def hire_call():
                res = await h.command("hire fighter", actor, warband=next(hires), type="Warrior", count=5)
                assert not res.is_error, res.text
                return res

            async def treasury_call():  # the simplest write there was before, for scale: one row, one ledger row
                return await h.command("warband treasury", actor, name=next(buys), reason="bench", gold=1)

            async def buy_call():
                res = await h.command("trade buy", actor, warband=next(buys), warrior="Otto", item="Sword")
                assert not res.is_error, res.text
                return res

            hire_without_engine = without_engine(campaigns, "hire_fighter", "hire fighter", warband=spare, type="Warrior", count=5)
            buy_without_engine = without_engine(campaigns, "buy", "trade buy", warband=spare, warrior="Otto", item="Sword")
            reference = echo(h, actor)
            figures = {}
            print("ratios to /echo through the same harness (median of batches):")
            for label, fn, target in (
                ("/warband show (30 warriors, paged)", show_call, SHOW_TARGET),
                ("/warband show, sheet rebuilt after a change", cold_show_call, None),
                ("warband autocomplete (any warband, 'the')", autocomplete_call, AUTOCOMPLETE_TARGET),
                ("warband autocomplete (only changeable, '')", changeable_call, AUTOCOMPLETE_TARGET),
                ("/warband show, list-built (32 rows, costs, hire options)", list_show_call, SHOW_TARGET),
                ("/warband show, list-built, sheet rebuilt", cold_list_show_call, None),
                ("/warband treasury (the simplest write, for scale)", treasury_call, None),
                ("/hire fighter (5 henchmen: warrior, gold, ledger)", hire_call, HIRE_BUY_TARGET),
                ("  same command, the hire made beforehand (no engine)", hire_without_engine, None),
                ("/trade buy (list price: kit, gold, ledger)", buy_call, HIRE_BUY_TARGET),
                ("  same command, the purchase made beforehand (no engine)", buy_without_engine, None),
            ):
                r, t_s, ref_s = await ratio(fn, reference, batches=11, per_batch=25, clock=time.process_time)
                figures[label] = r
                print(line(label, r, target))
                print(f"  {'':58} {t_s * 1e3:8.2f} ms vs /echo {ref_s * 1e3:.2f} ms")
                if fn in (hire_call, buy_call):
                    share = await median_inside_sqlite(h.bot.campaigns.store, fn, SHARE_CALLS) / ref_s
                    figures[f"{label}: inside SQLite"] = share
                    print(line("  of it inside SQLite (statements, BEGIN, COMMIT)", share))
            same = figures["/warband show, list-built (32 rows, costs, hire options)"] / figures["/warband show (30 warriors, paged)"]
            rebuilt = figures["/warband show, list-built, sheet rebuilt"] / figures["/warband show, sheet rebuilt after a change"]
            print("list-built (32 rows) against hand-kept (30 rows), this run:")
            print(line("/warband show, list-built / hand-kept", same, 1.25))
            print(line("/warband show rebuilt, list-built / hand-kept", rebuilt))
    print(f"total {time.perf_counter() - started:.1f} s")
    return figures


if __name__ == "__main__":
    asyncio.run(main())
