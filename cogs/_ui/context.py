"""What a command needs to know about where it was used: the server's settings, and how the member reads."""

from __future__ import annotations

import asyncio

import discord

from engine.editions import Edition, get_edition
from engine.settings import ServerSettings


async def server_settings(interaction: discord.Interaction) -> ServerSettings:
    """This server's settings (edition, house rules); the defaults in direct messages."""
    if interaction.guild_id is None:
        return ServerSettings(guild_id=0, edition_id=get_edition(None).id)
    return await asyncio.to_thread(interaction.client.settings.get, interaction.guild_id)


def server_settings_now(interaction: discord.Interaction) -> ServerSettings:
    """The same as ``server_settings`` without leaving the event loop: one indexed read of a
    small row, well under a millisecond (see bench/), cheaper than a thread hop."""
    if interaction.guild_id is None:
        return ServerSettings(guild_id=0, edition_id=get_edition(None).id)
    return interaction.client.settings.get(interaction.guild_id)


async def server_edition(interaction: discord.Interaction, requested: str | None = None) -> Edition:
    """The edition asked for, else the server's; raises the engine's NotFoundError for an unknown id."""
    if requested:
        return get_edition(requested)
    return get_edition((await server_settings(interaction)).edition_id)


def is_admin(interaction: discord.Interaction) -> bool:
    """Whether the member has Manage Server here (never true in direct messages)."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild


def reads_plain_text(interaction: discord.Interaction) -> bool:
    """Whether this member, here, gets answers as plain text (bot/plain_text.py turns the embeds
    into text; a picture then needs its words sent as text too). Kept in memory: no thread hop."""
    preferences = getattr(interaction.client, "preferences", None)
    if preferences is None:
        return False
    return bool(preferences.reply_style(interaction.guild_id, interaction.user.id).plain_text)
