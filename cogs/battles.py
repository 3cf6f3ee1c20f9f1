"""/battle: record a warband's battles and list them."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.campaign import call, campaigns, require_server, safe, send_pages
from cogs._ui.context import is_admin
from cogs._ui.roster import battle_pages, done_embed
from cogs._ui.warrior_choices import changeable_warband_choices, warband_choices

Name = app_commands.Range[str, 1, 100]
RESULT_CHOICES = [app_commands.Choice(name=n, value=v) for n, v in (("Won", "win"), ("Lost", "loss"), ("Drawn", "draw"))]


class Battles(commands.Cog):
    """The /battle command group."""

    battle = app_commands.Group(name="battle", description="Battles fought by this server's warbands", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        require_server(interaction)
        return True

    @battle.command(name="record", description="Record a battle a warband fought")
    @app_commands.describe(warband="Which warband", result="Won, lost or drawn", scenario="e.g. Skirmish, Wyrdstone Hunt",
                           opponents="Who they fought", date="When, as 2024-05-31 (default today)", notes="What happened")
    @app_commands.choices(result=RESULT_CHOICES)
    @app_commands.autocomplete(warband=changeable_warband_choices)
    async def record(self, interaction: discord.Interaction, warband: Name, result: str, scenario: Name | None = None,
                     opponents: Name | None = None, date: app_commands.Range[str, 1, 20] | None = None,
                     notes: app_commands.Range[str, 0, 1000] = "") -> None:
        g = require_server(interaction)
        b = await call(campaigns(interaction).record_battle, g, interaction.user.id, is_admin(interaction), warband,
                       result=result, scenario=scenario or "", opponents=opponents or "", fought_on=date, notes=notes)
        bits = [f"**{b.result.upper()}** on {b.fought_on}"]
        if b.scenario:
            bits.append(safe(b.scenario))
        if b.opponents:
            bits.append(f"vs {safe(b.opponents)}")
        await interaction.response.send_message(embed=done_embed(f"Battle recorded for {safe(b.warband)}", " · ".join(bits)))

    @battle.command(name="list", description="A warband's battles, newest first")
    @app_commands.describe(warband="Which warband", limit="How many (default 20)")
    @app_commands.autocomplete(warband=warband_choices)
    async def list_(self, interaction: discord.Interaction, warband: Name, limit: app_commands.Range[int, 1, 200] = 20) -> None:
        g = require_server(interaction)
        svc = campaigns(interaction)
        wb = await call(svc.get_warband, g, warband)
        battles = await call(svc.list_battles, g, wb.name, limit=limit)
        await send_pages(interaction, battle_pages(wb.name, battles))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Battles(bot))
