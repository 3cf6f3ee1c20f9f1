"""The post-battle sequence and the campaign standings, each as a ratio to the trivial /echo.

Every step's answer is a press of the sequence message's real button (or menu) through the
harness and the bot's real tree, like /echo. A step changes the database, so each press takes
a fresh sequence prepared at that step (untimed); the standings are those of a server with 1,000
warbands of 8 warriors (50 of them with 3 battles and a finished sequence), unchanged and right after
a battle changed one warband (the battle alone measured beside it, so the difference is the standings).

The steps are timed in CPU time (``time.process_time``: this process, every thread), the
measure issue 15 states its figures in: on a shared host, wall time also counts whatever other
processes run meanwhile, and one batch of a step or of /echo can take ten times another.

Below each step, what the same press costs when it is answered with a message built beforehand
(the cog's press replaced for that line only): discord.py reading the interaction and its
message, the harness, and sending the edit. That part is the same whatever the step does, so
the step's own cost is the difference between the two lines. Between the two, the CPU time the
step spends inside SQLite (its statements, the BEGIN and the COMMIT: bench/sqlite_share.py): the
prebuilt line and that one added are what the step would cost if its Python took no time at all.

    python bench/bench_postbattle.py
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import echo, line, new_harness, ratio, ratio_calls, smoke  # noqa: E402
from bench.sqlite_share import median_inside_sqlite  # noqa: E402
from bot.harness import Actor  # noqa: E402

STEP_TARGET = 3.0  # issue 15: every post-battle step at most 3x /echo, experience included
STANDINGS_TARGET = 3.0
STANDINGS_WARBANDS = smoke(1000, 12)  # issue 15: a server of 1,000 warbands (the smoke pass: a dozen)
STANDINGS_SEQUENCES = smoke(50, 3)
GUILD, OWNER = 4242, 7
ACTOR = Actor(user_id=OWNER, guild_id=GUILD)
BATCHES, PER_BATCH = 9, 8
SHARE_PRESSES = smoke(24, 1)  # presses of one step whose time inside SQLite is added up
NEEDED = ratio_calls(BATCHES, PER_BATCH) + SHARE_PRESSES  # presses of one step: a sequence prepared for each
PROFILE = dict(M=4, WS=4, BS=4, S=3, T=3, W=1, I=4, A=1, Ld=8)
STEP_CLOCK = time.process_time  # the steps' clock: CPU time (see the module's docstring)
STEPS = ("confirm", "injuries", "xp", "explore", "sell", "upkeep", "finish")


def warband(c, name: str, *, battles: int = 1, sword: bool = False) -> None:
    c.create_warband(GUILD, OWNER, name, "Reikland", gold_crowns=100)
    for n, (role, size) in enumerate((("leader", 1), ("hero", 1), ("hero", 1), ("hero", 1), ("henchmen", 3), ("henchmen", 2),
                                      ("henchmen", 2), ("henchmen", 2))):
        c.add_warrior(GUILD, OWNER, False, name, f"W{n}", role=role, warrior_type="Human", profile=PROFILE, group_size=size,
                      experience=3 + n)
    if sword:  # a hired sword who fights: the sequence stops at his upkeep
        c.hire_sword(GUILD, OWNER, False, name, "Halfling Scout")
    for _ in range(battles):
        c.record_battle(GUILD, OWNER, False, name, result="win")


def advance(pb, v, until: str):
    """Take the sequence ``v`` through its steps (answering choices) until it stands at ``until``."""
    order = ("setup", "injuries", "experience", "exploration", "income", "upkeep", "trading")
    while v.state.step != until:
        if v.state.pending:
            p = v.state.pending[0]
            if p.kind == "place_hero":
                v = pb.explore(GUILD, OWNER, False, v.id, v.version, hero_id=int(p.options[0]))
            elif p.kind == "pit_fight":
                v = pb.settle_pit_fight(GUILD, OWNER, False, v.id, v.version, p.warrior_id, True)
            elif p.kind == "reroll":
                v = pb.reroll_exploration(GUILD, OWNER, False, v.id, v.version, [])
            elif p.kind == "share_xp":
                v = pb.share_experience(GUILD, OWNER, False, v.id, v.version, {int(p.options[0]): int(p.note)})
            else:
                value = p.options[0] if p.kind == "choose" else f"Skill {v.version}" if p.kind == "skill" else f"Lad {v.version}"
                lists = ("combat", "strength") if p.kind == "talent" else ()  # two lists the heroes may use
                v = pb.choose(GUILD, OWNER, False, v.id, v.version, p.warrior_id, p.kind, value, skill_lists=lists)
            continue
        step = v.state.step
        if step == "setup":
            v = pb.set_fighters(GUILD, OWNER, False, v.id, v.version, out_of_action={v.state.fighters[1].warrior_id: 1})
            v = pb.confirm_fighters(GUILD, OWNER, False, v.id, v.version)
        elif step == "injuries":
            v = pb.roll_injuries(GUILD, OWNER, False, v.id, v.version)
        elif step == "experience":
            v = pb.apply_experience(GUILD, OWNER, False, v.id, v.version)
        elif step == "exploration":
            v = pb.explore(GUILD, OWNER, False, v.id, v.version)
        elif step == "income":
            v = pb.sell(GUILD, OWNER, False, v.id, v.version, min(1, v.wyrdstone_shards))
        elif step == "upkeep":
            v = pb.pay_upkeep(GUILD, OWNER, False, v.id, v.version)
        elif step == "trading":
            v = pb.finish(GUILD, OWNER, False, v.id, v.version)
        assert order.index(v.state.step) >= order.index(step) or v.state.step == "done"
    return v


async def prebuilt_press(h, cog, pb, pressed: tuple[int, str, list[str]], reference) -> tuple[float, float, float]:
    """``ratio`` of the press ``pressed`` answered with its message as it is (rendered once,
    beforehand), against ``reference``: the part of a step's answer that is discord.py and the
    harness. The message is unchanged by it, so the same press can be made again and again."""
    mid, custom_id, values = pressed
    embed, ui = cog.render(pb.get(GUILD, int(custom_id.split(":")[2])))

    async def answer(interaction, *_args) -> None:
        await interaction.response.edit_message(embed=embed, view=ui)

    async def press():
        res = await (h.select(mid, custom_id, values, ACTOR) if values else h.click(mid, custom_id, ACTOR))
        assert not res.is_error and res.first.callback_type == 7, res.text
        return res

    cog.press = answer  # this instance only: its buttons call self.press
    try:
        return await ratio(press, reference, batches=BATCHES, per_batch=PER_BATCH, clock=STEP_CLOCK)
    finally:
        del cog.press


async def main() -> dict[str, float]:
    started = time.perf_counter()
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="mordheim-bench-") as folder:
        async with new_harness(Path(folder) / "pb.db") as h:
            c = h.bot.campaigns
            pb = h.bot.get_cog("PostBattleCog").service
            t = time.perf_counter()
            pools: dict[str, list[tuple[int, str, list[str]]]] = {}
            at = {"confirm": "setup", "injuries": "injuries", "xp": "experience", "explore": "exploration",
                  "sell": "income", "upkeep": "upkeep", "finish": "trading"}
            n = 0
            for action in STEPS:
                pool = pools[action] = []
                while len(pool) < NEEDED + 1:  # one more, pressed again and again for the prebuilt line
                    n += 1
                    name = f"Band {n}"
                    warband(c, name, sword=action == "upkeep")
                    v = advance(pb, pb.start(GUILD, OWNER, False, name), at[action])
                    if v.state.pending:  # this one stopped for a choice: not the plain step we time
                        pb.cancel(GUILD, OWNER, False, v.id)
                        continue
                    msg = await h.command("postbattle resume", ACTOR, warband=name)
                    comp = next(x for x in h.messages[msg.message_id].components() if x.get("custom_id", "").split(":")[1:2] == [action])
                    values = [comp["options"][-1]["value"]] if comp.get("type") == 3 else []
                    pool.append((msg.message_id, comp["custom_id"], values))
            print(f"prepared {n} warbands with a sequence at each step: {time.perf_counter() - t:.1f} s")
            reference = echo(h, ACTOR)
            print("ratios to /echo through the same harness (median of batches, CPU time):")
            cog = h.bot.get_cog("PostBattleCog")
            for action in STEPS:
                pool = pools[action]
                again = pool.pop(0)

                async def press(pool=pool):
                    mid, custom_id, values = pool.pop()
                    res = await (h.select(mid, custom_id, values, ACTOR) if values else h.click(mid, custom_id, ACTOR))
                    assert not res.is_error, res.text
                    return res

                r, t_s, ref_s = await ratio(press, reference, batches=BATCHES, per_batch=PER_BATCH, clock=STEP_CLOCK)
                label = f"post-battle step '{action}' (press → message updated)"
                figures[label] = r
                print(line(label, r, STEP_TARGET))
                print(f"  {'':58} {t_s * 1e3:8.2f} ms vs /echo {ref_s * 1e3:.2f} ms")
                share = await median_inside_sqlite(c.store, press, SHARE_PRESSES) / ref_s
                figures[f"'{action}' press: inside SQLite"] = share
                print(line("  of it inside SQLite (statements, BEGIN, COMMIT)", share))
                r, t_s, ref_s = await prebuilt_press(h, cog, pb, again, reference)
                label = "  same press, answered with a message built before"
                figures[f"'{action}' press answered with a prebuilt message"] = r
                print(line(label, r))
                print(f"  {'':58} {t_s * 1e3:8.2f} ms vs /echo {ref_s * 1e3:.2f} ms")
        async with new_harness(Path(folder) / "standings.db") as h:
            c = h.bot.campaigns
            pb = h.bot.get_cog("PostBattleCog").service
            t = time.perf_counter()
            for n in range(STANDINGS_WARBANDS):
                name = f"Warband {n:04d}"
                warband(c, name, battles=3 if n < STANDINGS_SEQUENCES else 1)
                if n < STANDINGS_SEQUENCES:  # some with finished sequences (their shards found count)
                    advance(pb, pb.start(GUILD, OWNER, False, name), "trading")
                    v = pb.open_sequence(GUILD, name)
                    pb.finish(GUILD, OWNER, False, v.id, v.version)
            print(f"prepared a server of {STANDINGS_WARBANDS} warbands ({STANDINGS_SEQUENCES} after a post-battle "
                  f"sequence): {time.perf_counter() - t:.1f} s")
            first = await h.command("campaign standings", ACTOR)
            assert not first.is_error and "**1. " in first.text, first.text[:300]
            rounds = iter(range(10**6))

            async def standings():
                return await h.command("campaign standings", ACTOR)

            async def battle():
                n = next(rounds) % STANDINGS_WARBANDS
                return await h.command("battle record", ACTOR, warband=f"Warband {n:04d}", result="draw")

            async def battle_then_standings():
                await battle()
                return await standings()

            r, t_s, ref_s = await ratio(standings, echo(h, ACTOR), batches=11, per_batch=10)
            label = f"/campaign standings ({STANDINGS_WARBANDS} warbands, unchanged)"
            figures[label] = r
            print(line(label, r, STANDINGS_TARGET))
            print(f"  {'':58} {t_s * 1e3:8.2f} ms vs /echo {ref_s * 1e3:.2f} ms")
            both, t_both, ref_both = await ratio(battle_then_standings, echo(h, ACTOR), batches=11, per_batch=10)
            alone, t_alone, ref_alone = await ratio(battle, echo(h, ACTOR), batches=11, per_batch=10)
            after = both - alone
            label = f"/campaign standings ({STANDINGS_WARBANDS} warbands) after a battle changed one"
            figures[label] = after
            print(line(label, after, STANDINGS_TARGET))
            print(f"  {'':58} (battle + standings {both:.2f}x, the battle alone {alone:.2f}x: its line is rebuilt, not the table)")
    print(f"total {time.perf_counter() - started:.1f} s")
    return figures


if __name__ == "__main__":
    asyncio.run(main())
