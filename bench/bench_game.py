"""The live battle tracker: a state press, as a ratio to the trivial /echo.

A state press is what a player does most during a game: on his marking panel he presses a
warrior's state (knocked down, stunned...). The bot stores the mark (the game's row) and draws the
panel again, through the harness and the bot's real tree like /echo; the public tracker message is
edited after it, once for the marks of a second (cogs/_ui/tracker_edits.py: Discord lets a bot
edit a message only so often), so that edit is timed on its own below. The game is two warbands
of twenty models (five heroes and three groups of five each), the largest the lists allow; each
press turns one warrior between knocked down and stunned, on the panel as the previous press left it.
Timed in CPU time (``time.process_time``: this process, every thread), as the campaign issues
state their figures; on a shared host wall time also counts other processes.

    python bench/bench_game.py
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import echo, line, new_harness, ratio  # noqa: E402
from bot.harness import Actor  # noqa: E402

PRESS_TARGET = 2.5  # issue 18: a state press at most 2.5x /echo
GUILD = 4343
RED, BLUE = Actor(user_id=7, guild_id=GUILD), Actor(user_id=8, guild_id=GUILD)
PROFILE = dict(M=4, WS=4, BS=4, S=3, T=3, W=1, I=4, A=1, Ld=8)


def warband(c, owner: int, name: str) -> None:
    c.create_warband(GUILD, owner, name, "Skaven", gold_crowns=100)
    for n in range(5):
        c.add_warrior(GUILD, owner, False, name, f"Hero {n}", role="leader" if n == 0 else "hero", warrior_type="Skaven",
                      profile=PROFILE)
    for n in range(3):
        c.add_warrior(GUILD, owner, False, name, f"Group {n}", role="henchmen", warrior_type="Skaven", profile=PROFILE,
                      group_size=5)


async def prebuilt_press(h, panel: int, press):
    """``ratio`` of the same press answered with the panel drawn beforehand (the cog's press
    replaced for this line only): what discord.py and the harness cost, engine aside."""
    cog = h.bot.get_cog("GameCog")
    view = cog.tracker.get(GUILD, 1)
    from cogs._ui.game_panel import panel_components, panel_embed
    from cogs._ui.pressed import edit_pressed
    key = view.state.sides[1].pieces[7].key
    embed, ui = panel_embed(view, 1, key), panel_components(view, 1, key, 0)

    async def answer(interaction, *_args) -> None:  # sent as the cog sends a panel (cogs/_ui/pressed.py)
        await edit_pressed(interaction, embed=embed, view=ui)

    cog.press_panel = answer  # this instance only: its items call _cog(i).press_panel
    try:
        return await ratio(press, echo(h, BLUE), batches=9, per_batch=10, clock=time.process_time)
    finally:
        del cog.press_panel


async def main() -> dict[str, float]:
    started = time.perf_counter()
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="mordheim-bench-") as folder:
        async with new_harness(Path(folder) / "game.db") as h:
            c = h.bot.campaigns
            warband(c, RED.user_id, "Reds")
            warband(c, BLUE.user_id, "Blues")
            start = await h.command("game start", RED, warband1="Reds", warband2="Blues", scenario="Wyrdstone Hunt")
            assert not start.is_error, start.text
            tracker = start.message_id
            mark = next(x["custom_id"] for x in h.messages[tracker].components() if x["custom_id"].startswith("gt:mark:") and
                        x["custom_id"].endswith(":1"))
            opened = await h.click(tracker, mark, BLUE)
            panel = opened.message_id
            pick = next(x for x in h.messages[panel].components() if x["custom_id"].startswith("gps:pick:"))
            picked = await h.select(panel, pick["custom_id"], [pick["options"][7]["value"]], BLUE)
            assert not picked.is_error, picked.text

            async def press():
                button = next(x for x in h.messages[panel].components() if x["custom_id"].startswith("gp:set:")
                              and x["custom_id"].rsplit(":", 1)[1] in ("knocked_down", "stunned") and not x.get("disabled"))
                res = await h.click(panel, button["custom_id"], BLUE)
                assert not res.is_error, res.text
                return res

            print("ratios to /echo through the same harness (median of batches):")
            r, t_s, ref_s = await ratio(press, echo(h, BLUE), batches=9, per_batch=10, clock=time.process_time)
            label = "/game: a state press (panel → mark stored → panel), 2×20"
            figures[label] = r
            print(line(label, r, PRESS_TARGET))
            print(f"  {'':58} {t_s * 1e3:8.2f} ms vs /echo {ref_s * 1e3:.2f} ms")
            r, t_s, ref_s = await prebuilt_press(h, panel, press)
            figures["state press answered with prebuilt messages"] = r
            print(line("  same press, answered with messages built before", r))
            print(f"  {'':58} {t_s * 1e3:8.2f} ms vs /echo {ref_s * 1e3:.2f} ms")

            cog = h.bot.get_cog("GameCog")
            await cog.edits.settled()

            async def tracker_edit():  # what the marks of a second cost once more: the tracker drawn and edited
                await cog._edit_tracker(GUILD, 1)

            r, t_s, ref_s = await ratio(tracker_edit, echo(h, BLUE), batches=9, per_batch=10, clock=time.process_time)
            figures["the tracker's edit after the marks of a second"] = r
            print(line("  the tracker's edit after the marks of a second", r))
            print(f"  {'':58} {t_s * 1e3:8.2f} ms vs /echo {ref_s * 1e3:.2f} ms")

            async def treasury():  # the simplest write of the campaign, for scale (as bench_warbands measures it)
                return await h.command("warband treasury", RED, name="Reds", reason="bench", gold=1)

            r, t_s, ref_s = await ratio(treasury, echo(h, BLUE), batches=9, per_batch=10, clock=time.process_time)
            figures["/warband treasury (the simplest write, for scale)"] = r
            print(line("/warband treasury (the simplest write, for scale)", r))
            print(f"  {'':58} {t_s * 1e3:8.2f} ms vs /echo {ref_s * 1e3:.2f} ms")
    print(f"total {time.perf_counter() - started:.1f} s")
    return figures


if __name__ == "__main__":
    asyncio.run(main())
