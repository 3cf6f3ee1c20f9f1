"""/preferences: how the bot answers you. For now one choice: plain text instead of embeds.

Plain text is for screen readers and for anyone who prefers it. Your choice follows you to
every server and to direct messages; a server can also choose plain text for everyone
(`/admin plaintext`), and your own choice wins over the server's. The rewriting itself is
done once for every command, in the bot layer (bot/plain_text.py).
"""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from engine.preferences import ReplyStyle

MODES = {"on": True, "off": False, "server": None}


def describe(style: ReplyStyle, in_server: bool) -> str:
    now = "**plain text**" if style.plain_text else "**embeds**"
    if style.member_choice is not None:
        why = "your own choice"
    elif in_server and style.server_choice is not None:
        why = "this server's choice"
    else:
        why = "the default"
    return f"Answers come to you as {now} ({why})."


class Preferences(commands.Cog):
    preferences = app_commands.Group(name="preferences", description="How the bot answers you")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @preferences.command(name="plaintext", description="Get answers as plain text instead of embeds (screen readers)")
    @app_commands.describe(mode="on: plain text; off: embeds; server: whatever this server chose")
    @app_commands.choices(mode=[
        app_commands.Choice(name="on: plain text everywhere", value="on"),
        app_commands.Choice(name="off: embeds everywhere", value="off"),
        app_commands.Choice(name="server: follow each server's choice", value="server"),
    ])
    async def plaintext(self, interaction: discord.Interaction, mode: app_commands.Choice[str]) -> None:
        prefs = self.bot.preferences
        await asyncio.to_thread(prefs.set_member_plain_text, interaction.user.id, MODES[mode.value])
        style = await asyncio.to_thread(prefs.reply_style, interaction.guild_id, interaction.user.id)
        # text, not an embed: it reads the same in either style, including the one just left
        await interaction.response.send_message(
            "Saved. " + describe(style, interaction.guild_id is not None), ephemeral=True
        )

    @preferences.command(name="show", description="How the bot answers you, and why")
    async def show(self, interaction: discord.Interaction) -> None:
        style = await asyncio.to_thread(self.bot.preferences.reply_style, interaction.guild_id, interaction.user.id)
        text = describe(style, interaction.guild_id is not None) + "\nChange it with `/preferences plaintext`."
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Preferences(bot))
