"""Embed builders every cog shares, so answers look alike."""

from __future__ import annotations

import discord

INFO = discord.Colour.dark_gold()
SUCCESS = discord.Colour.green()
FAILURE = discord.Colour.dark_red()
NEUTRAL = discord.Colour.blurple()

EMBED_DESCRIPTION_LIMIT = 4096
EMBED_FIELD_LIMIT = 1024


def info_embed(title: str, description: str = "", *, colour: discord.Colour = INFO, footer: str | None = None) -> discord.Embed:
    embed = discord.Embed(title=title[:256], description=clip(description, EMBED_DESCRIPTION_LIMIT), colour=colour)
    if footer:
        embed.set_footer(text=footer[:2048])
    return embed


def clip(text: str, limit: int) -> str:
    """Text cut to ``limit`` characters with a visible ellipsis (use pages where losing text matters)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
