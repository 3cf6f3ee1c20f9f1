"""Small commands about the bot itself: /help and the trivial /echo the benchmarks compare against."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.embeds import info_embed

HELP_TEXT = (
    "**/roll** `2d6+1 to hit` — any dice expression (see `/help topic:dice`).\n"
    "**/test**, **/leadership**, **/injury**, **/artillery**, **/scatter** — Mordheim rolls in the game's words.\n"
    "**/rule** and **/rules search** — look up any rule, weapon, item or spell.\n"
    "**/shoot**, **/fight**, **/odds** — resolve a shot or a fight, or see its exact odds.\n"
    "**/warband**, **/warrior**, **/battle** — this server's campaign warbands.\n"
    "**/settings** — this server's edition and house rules (Manage Server)."
)


class Meta(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What the bot can do and how to use it")
    async def help(self, interaction: discord.Interaction) -> None:
        embed = info_embed("Mordheim bot", HELP_TEXT)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="echo", description="Repeat some text back to you (a quick check that the bot answers)")
    @app_commands.describe(text="What to repeat")
    async def echo(self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 2000]) -> None:
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Meta(bot))
