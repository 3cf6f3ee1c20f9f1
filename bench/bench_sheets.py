"""Drawn answers: a 15-warrior roster sheet (PNG and PDF) and /luck's chart for 30 members, in CPU time beside /echo.

Issue 18 asks that a 15-warrior sheet render in at most 100 ms of CPU and the luck chart of a
30-member server in at most 150 ms. The drawing is what runs off the event loop, so it is
timed alone with ``time.process_time`` (CPU of the whole process, every thread), median of
many; then the whole command through the harness and the bot's real tree (the service read,
"thinking…", the drawing in its worker thread, the follow-up with the file), and ``/echo``
through the same harness in the same run, for scale; and how long the event loop is held up
while a sheet or a chart is drawn.

    python bench/bench_sheets.py
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import echo, new_harness, smoke  # noqa: E402
from bot.harness import Actor  # noqa: E402
from cogs._ui.luck_chart import board_chart, faces_chart  # noqa: E402
from cogs._ui.sheet_files import PDF, PNG, draw_sheet  # noqa: E402
from engine.dice import roll_set  # noqa: E402
from engine.rolls import roll_set_facts  # noqa: E402
from engine.rolls.record import record_for  # noqa: E402

SHEET_TARGET_MS = 100.0
LUCK_TARGET_MS = 150.0
WARBAND = "Fifteen Blades"
RUNS = smoke(30, 1)

#: (name, role, type, group size, experience): 15 warrior entries, every kind a sheet draws
FIFTEEN = [("Otto Kessler", "leader", "Captain", 1, 32), ("Hans Brandt", "hero", "Champion", 1, 14),
           ("Dieter Vogt", "hero", "Champion", 1, 9), ("Kurt", "hero", "Youngblood", 1, 3),
           ("Lukas", "hero", "Youngblood", 1, 0), ("Felix", "hero", "Youngblood", 1, 5)] + [
    (f"Henchmen {n}", "henchmen", "Marksman", 2 if n == 0 else 1, 2 * n) for n in range(8)] + [
    ("Aenur", "hired_sword", "Elf Ranger", 1, 12)]


def build_fifteen(campaigns: Any, guild_id: int, owner_id: int, name: str = WARBAND) -> str:
    """A warband of 15 warriors (6 heroes, 8 henchman groups, a hired sword) with kit, skills and an injury."""
    campaigns.create_warband(guild_id, owner_id, name, "Reiklanders", gold_crowns=480, wyrdstone_shards=3)
    for wname, role, wtype, size, xp in FIFTEEN:
        campaigns.add_warrior(guild_id, owner_id, False, name, wname, role=role, warrior_type=wtype, group_size=size,
                              profile=dict(M=4, WS=4, BS=4, S=3, T=3, W=1, I=4, A=1, Ld=8), experience=xp,
                              equipment=["Sword", "Dagger", "Light armour", "Shield", "Crossbow pistol"],
                              skills=["Combat Master", "Strongman"] if role in ("leader", "hero") else [])
    campaigns.injure(guild_id, owner_id, False, name, "Otto Kessler", "Leg wound")
    return name


def record_thirty_members(store: Any, guild_id: int, seed: int = 18) -> None:
    """30 members' rolls in one server: 10 to 400 D6 each."""
    rng = random.Random(seed)
    record = record_for(store)
    for member in range(30):
        for _ in range(rng.choice([1, 4, 12, 40])):
            record.add(guild_id, 7000 + member, f"Player {member}", roll_set_facts(roll_set("10d6", rng)))
    record.flush()


def cpu_ms(fn: Callable[[], object], runs: int = RUNS) -> float:
    """The median CPU milliseconds of ``fn()``."""
    fn()
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


async def loop_stalls_ms(fn: Callable[[], Awaitable[object]], runs: int = smoke(15, 1)) -> tuple[float, float]:
    """How long the event loop went without turning while ``await fn()`` ran (a ticker wakes
    every millisecond), the longest stall of each run: (median, worst) over ``runs``. What
    another interaction would wait for; the worst includes whatever else the process did then
    (a full garbage collection holds every thread: about 45 ms here, with the bot's heap)."""
    stalls = []
    for _ in range(runs):
        done = False

        async def ticker() -> float:
            longest, last = 0.0, time.perf_counter()
            while not done:
                await asyncio.sleep(0.001)
                now = time.perf_counter()
                longest, last = max(longest, now - last - 0.001), now
            return longest

        task = asyncio.create_task(ticker())
        await asyncio.sleep(0)
        await fn()
        done = True
        stalls.append(await task * 1000)
    return statistics.median(stalls), max(stalls)


async def cpu_ms_async(fn: Callable[[], Awaitable[object]], runs: int = RUNS) -> float:
    """The median CPU milliseconds of ``await fn()`` (worker threads included)."""
    await fn()
    times = []
    for _ in range(runs):
        start = time.process_time()
        await fn()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def show(name: str, value: float, target: float | None = None, echo_ms: float | None = None) -> None:
    verdict = f"  (target ≤ {target:g} ms)  {'ok' if value <= target else 'OVER TARGET'}" if target is not None else ""
    scale = f"  ({value / echo_ms:,.0f}× /echo)" if echo_ms else ""
    print(f"  {name:<62} {value:8.2f} ms{scale}{verdict}")


async def main() -> dict[str, float]:
    async with new_harness() as h:
        actor = Actor(user_id=501, guild_id=4242)
        build_fifteen(h.bot.campaigns, actor.guild_id, actor.user_id)
        record_thirty_members(h.bot.store, actor.guild_id)
        sheet = h.bot.campaigns.show_warband(actor.guild_id, WARBAND)
        members, _ = record_for(h.bot.store).board(actor.guild_id, 30)
        assert len(sheet.warband.warriors) == 15 and len(members) == 30

        async def sheet_command(kind: str):
            res = await h.command("warband sheet", actor, name=WARBAND, format=kind)
            assert not res.is_error and any(s.files for s in res.sent), res.text

        async def luck_command():
            res = await h.command("luck show", actor)
            assert not res.is_error and any(s.files for s in res.sent), res.text

        async def luck_member_command():
            res = await h.command("luck show", actor, member="7000")
            assert not res.is_error and any(s.files for s in res.sent), res.text

        figures = {
            "sheet_png": cpu_ms(lambda: draw_sheet(sheet, PNG)),
            "sheet_pdf": cpu_ms(lambda: draw_sheet(sheet, PDF)),
            "luck_board": cpu_ms(lambda: board_chart(members)),
            "luck_faces": cpu_ms(lambda: faces_chart(members[0])),
            "echo": await cpu_ms_async(echo(h, actor), runs=smoke(200, 2)),
            "sheet_png_command": await cpu_ms_async(lambda: sheet_command(PNG)),
            "sheet_pdf_command": await cpu_ms_async(lambda: sheet_command(PDF)),
            "luck_command": await cpu_ms_async(luck_command),
            "luck_member_command": await cpu_ms_async(luck_member_command),
        }
        figures["sheet_stall"], figures["sheet_stall_worst"] = await loop_stalls_ms(lambda: sheet_command(PNG))
        figures["luck_stall"], figures["luck_stall_worst"] = await loop_stalls_ms(luck_command)
        print("CPU time, median (time.process_time: every thread of the process):")
        e = figures["echo"]
        show("/echo through the harness (for scale)", e)
        show("roster sheet, 15 warriors: drawing the PNG (off the loop)", figures["sheet_png"], SHEET_TARGET_MS, e)
        show("roster sheet, 15 warriors: drawing the PDF (off the loop)", figures["sheet_pdf"], SHEET_TARGET_MS, e)
        show("/warband sheet format:png, the whole command", figures["sheet_png_command"], None, e)
        show("/warband sheet format:pdf, the whole command", figures["sheet_pdf_command"], None, e)
        show("/luck chart, 30 members: drawing it (off the loop)", figures["luck_board"], LUCK_TARGET_MS, e)
        show("/luck chart, one member's faces: drawing it", figures["luck_faces"], LUCK_TARGET_MS, e)
        show("/luck show (30 members), the whole command", figures["luck_command"], None, e)
        show("/luck show member:, the whole command", figures["luck_member_command"], None, e)
        print("the event loop meanwhile: the drawing is in a worker thread, and Python runs one thread at a time,")
        print("so the loop takes turns with it in slices (5 ms, Python's switch interval), not one block;")
        print("the longest stall of each run, median and worst:")
        show("event loop stall during /warband sheet, median", figures["sheet_stall"])
        show("event loop stall during /warband sheet, worst", figures["sheet_stall_worst"])
        show("event loop stall during /luck show, median", figures["luck_stall"])
        show("event loop stall during /luck show, worst", figures["luck_stall_worst"])
        return figures


if __name__ == "__main__":
    asyncio.run(main())
