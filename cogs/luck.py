"""/luck: every member's rolls in this server against what fair dice give, with charts.

``/luck show`` answers with its embed (text charts, numbers, verdicts) and a picture beside it
(cogs/_ui/luck_chart.py): the table's D6 averages in their bands, or one member's faces. The
picture is drawn off the event loop after a "thinking…" answer, and carries its words as its
description; a member who reads plain text gets the text only (nothing they could not read).
A picture of the same numbers drawn lately (no new roll between) is sent at once, not drawn again.

Decisions worth knowing:

- The record is the dice cog's (``engine.rolls.record_for`` gives both cogs the same one);
  this cog only reads it, and records nothing itself.
- ``/luck show`` answers in public by default: luck is table talk. ``private`` keeps it to you.
  ``/luck rolls`` (the list of rolls) and the opt-out commands answer only you.
- The list shows no one more than the roll showed: a private roll is "a private roll" to all
  but its roller; a secret one is "a secret roll" to all but its roller and the members with
  Manage Server (revealed or not: the list never gives a secret away).
- Reads come from running sums (one row per member), so /luck costs the same with 100 rolls
  or 100,000. When rolls are still waiting to be written, the read goes to a thread, which
  writes them first; otherwise it is one small indexed read, done inline, or none when no roll
  was made in the server since the same read (the record keeps it: engine/rolls/record.py).
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.context import is_admin, reads_plain_text
from cogs._ui.embeds import INFO, NEUTRAL, clip
from cogs._ui.luck_chart import (KeptCharts, board_alt_text, board_chart, board_shows, faces_alt_text, faces_chart,
                                 faces_shows)
from cogs._ui.views import Confirm
from engine.errors import MordheimError
from engine.rolls import MemberLuck, face_chart, luck_board_chart
from engine.rolls.luck import MIN_DICE_FOR_VERDICT
from engine.rolls.record import record_for
from engine.rolls.record import MAX_HISTORY

BOARD_SIZE = 15  # members in the text board
CHART_SIZE = 30  # members in the chart (the most rolls first)


def _count(n: int, word: str) -> str:
    """``1 roll``, ``2 rolls``, ``1,000 rolls``."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _server_only(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise MordheimError("The roll record belongs to a server: each server keeps its own.",
                            hint="Use /luck in a server where you roll.")
    return interaction.guild_id


def _name(m: MemberLuck) -> str:
    return discord.utils.escape_markdown(m.member_name or f"member {m.member_id}")


def member_embed(m: MemberLuck) -> discord.Embed:
    embed = discord.Embed(title=clip(f"🍀 Luck of {m.member_name or m.member_id}", 256), colour=INFO,
                          description=m.verdict)
    embed.add_field(name="D6 faces", value=f"```\n{face_chart(m)}\n```", inline=False)
    if m.sixes_and_ones_line:
        embed.add_field(name="Sixes and ones", value=m.sixes_and_ones_line, inline=False)
    if m.faces_fair_chance is not None:
        embed.add_field(name="Spread of the faces",
                        value=f"Fair dice spread their faces at least this unevenly {m.faces_fair_chance:.0%} of the time "
                              "(chi-square over the six faces).", inline=False)
    for name, line in (("Tests", m.tests_line), ("Injury rolls", m.injuries_line), ("Other dice", m.other_dice_line)):
        if line:
            embed.add_field(name=name, value=line, inline=False)
    embed.set_footer(text=f"{_count(m.rolls, 'roll')} recorded since {m.first_at[:10]} · /luck optout stops the record")
    return embed


def board_embed(members: list[MemberLuck], totals: dict[str, int]) -> discord.Embed:
    embed = discord.Embed(title="🍀 Luck at this table", colour=INFO)
    lines = [f"```\n{luck_board_chart(members)}\n```"]
    judged = [m for m in members if m.d6 >= MIN_DICE_FOR_VERDICT]
    if len(judged) >= 2:
        best = max(judged, key=lambda m: m.d6_z)
        worst = min(judged, key=lambda m: m.d6_z)
        lines.append(f"Luckiest: **{_name(best)}** ({best.d6_average:.2f} over {best.d6} D6). "
                     f"Unluckiest: **{_name(worst)}** ({worst.d6_average:.2f} over {worst.d6} D6).")
    else:
        lines.append(f"Luck is named once two members have rolled {MIN_DICE_FOR_VERDICT} D6s or more.")
    embed.description = clip("\n".join(lines), 4000)
    embed.set_footer(text=f"{_count(totals['rolls'], 'roll')}, {totals['d6']:,} D6, {_count(totals['members'], 'member')} · "
                          "/luck show member:… for one member's faces")
    return embed


@dataclass(frozen=True)
class _Chart:
    """The picture of an answer: ``draw(data)`` its PNG, ``shows(data)`` every number it draws (its
    key among the charts kept), ``describe(data)`` its words."""

    draw: Callable[[Any], bytes]
    shows: Callable[[Any], Hashable]
    describe: Callable[[Any], str]
    data: Any
    filename: str

    def file(self, png: bytes) -> discord.File:
        return discord.File(io.BytesIO(png), filename=self.filename, description=self.describe(self.data))


class Luck(commands.Cog):
    luck = app_commands.Group(name="luck", description="Everyone's dice against what fair dice give")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.record = None
        self.charts = KeptCharts()

    async def cog_load(self) -> None:
        if self.bot.store is not None:
            self.record = record_for(self.bot.store)

    async def _read(self, fn, *args):
        """A read of the record: inline when nothing waits to be written, else in a thread (it writes first)."""
        if self.record.pending:
            return await asyncio.to_thread(fn, *args)
        return fn(*args)

    @luck.command(name="show", description="The table's luck, or one member's, with a chart")
    @app_commands.describe(member="One member's faces, tests and injuries", private="Only you see the answer")
    async def show(self, interaction: discord.Interaction, member: discord.User | None = None, private: bool = False) -> None:
        guild_id = _server_only(interaction)
        if member is not None:
            found = await self._read(self.record.member, guild_id, member.id)
            if found is None:
                raise MordheimError(f"No roll of <@{member.id}> is recorded in this server.",
                                    hint="Rolls made with /roll, /test, /leadership, /injury, /artillery and /scatter are recorded.")
            chart = _Chart(faces_chart, faces_shows, faces_alt_text, found, "luck-faces.png") if found.d6 else None
            await self._answer(interaction, member_embed(found), private, chart)
            return
        members, totals = await self._read(self.record.board, guild_id, max(BOARD_SIZE, CHART_SIZE))
        if not members:
            embed = discord.Embed(title="🍀 Luck at this table", colour=NEUTRAL,
                                  description="No roll is recorded in this server yet. Roll with /roll, /test or /leadership.")
            await interaction.response.send_message(embed=embed, ephemeral=private)
            return
        charted = members[:CHART_SIZE]
        drawn = any(m.d6 for m in charted)
        chart = _Chart(board_chart, board_shows, board_alt_text, charted, "luck-table.png") if drawn else None
        await self._answer(interaction, board_embed(members[:BOARD_SIZE], totals), private, chart)

    async def _answer(self, interaction: discord.Interaction, embed: discord.Embed, private: bool, chart: _Chart | None) -> None:
        """The embed, with its chart: kept from an earlier answer that showed the same numbers, else
        drawn off the loop after "thinking…". Only the embed when the member reads plain text or
        there is no chart (no D6 to draw)."""
        if chart is None or reads_plain_text(interaction):
            await interaction.response.send_message(embed=embed, ephemeral=private)
            return
        shows = chart.shows(chart.data)
        png = self.charts.get(shows)
        if png is not None:
            await interaction.response.send_message(embed=embed, file=chart.file(png), ephemeral=private)
            return
        self.bot.heavy_work.check_room()  # a full queue: "busy", privately, before the public "thinking..."
        await interaction.response.defer(ephemeral=private, thinking=True)
        png = await self.bot.heavy_work.run(chart.draw, chart.data)
        self.charts.keep(shows, png)
        await interaction.followup.send(embed=embed, file=chart.file(png), ephemeral=private)

    @luck.command(name="rolls", description="The newest rolls recorded in this server, or one member's")
    @app_commands.describe(member="Only this member's rolls", limit=f"How many (1-{MAX_HISTORY}, default 10)")
    async def rolls(self, interaction: discord.Interaction, member: discord.User | None = None,
                    limit: app_commands.Range[int, 1, MAX_HISTORY] = 10) -> None:
        guild_id = _server_only(interaction)
        rows = await self._read(self.record.history, guild_id, member.id if member else None, limit)
        if not rows:
            raise MordheimError("No roll is recorded here yet." if member is None else f"No roll of <@{member.id}> is recorded here.")
        manages = is_admin(interaction)
        lines = []
        for r in rows:
            if r.visible_to(interaction.user.id, manages):
                what = f"{discord.utils.escape_markdown(r.what)} → {discord.utils.escape_markdown(r.result)}"
            else:
                what = f"a {r.visibility} roll"
            tag = " (re-roll)" if r.rerolled else ""
            lines.append(f"`{r.rolled_at[:16].replace('T', ' ')}` <@{r.member_id}> — {what}{tag}")
        embed = discord.Embed(title="Recorded rolls, newest first", colour=NEUTRAL, description=clip("\n".join(lines), 4000))
        embed.set_footer(text="Times are UTC · a private roll shows only to its roller, a secret one also to Manage Server")
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @luck.command(name="optout", description="Stop recording your rolls in this server")
    @app_commands.describe(forget="Also delete the rolls of yours already recorded here")
    async def optout(self, interaction: discord.Interaction, forget: bool = False) -> None:
        guild_id = _server_only(interaction)
        member_id = interaction.user.id
        if not forget:
            await asyncio.to_thread(self.record.opt_out, guild_id, member_id)
            await interaction.response.send_message(
                "Your rolls in this server are no longer recorded; the ones already recorded stay. "
                "`/luck optout forget:true` deletes them, `/luck optin` records again.", ephemeral=True)
            return

        async def forget_them(press: discord.Interaction) -> None:
            deleted = await asyncio.to_thread(self.record.opt_out, guild_id, member_id, forget=True)
            await press.response.edit_message(
                content=f"Done: your rolls here are no longer recorded, and the {_count(deleted, 'roll')} recorded "
                        f"{'is' if deleted == 1 else 'are'} deleted. "
                        "`/luck optin` records again.", embed=None, view=None)

        view = Confirm(member_id, forget_them, label="Delete my rolls")
        await interaction.response.send_message(
            "This stops recording your rolls in this server and deletes every roll of yours recorded here. "
            "It cannot be undone.", view=view, ephemeral=True)

    @luck.command(name="optin", description="Record your rolls in this server again")
    async def optin(self, interaction: discord.Interaction) -> None:
        guild_id = _server_only(interaction)
        changed = await asyncio.to_thread(self.record.opt_in, guild_id, interaction.user.id)
        text = "Your rolls in this server are recorded again." if changed else "Your rolls in this server are already recorded."
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Luck(bot))
