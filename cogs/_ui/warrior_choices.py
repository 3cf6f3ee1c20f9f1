"""Autocomplete for warband and warrior names, scoped to the caller's server. Any cog may use these.

Each function has the shape discord.py's ``@app_commands.autocomplete(option=...)`` wants:
``async (interaction, current) -> list[Choice[str]]`` with at most 25 choices. They offer names
from the interaction's own server only (nothing in direct messages), and the command must still
re-check the value it receives (the service does, by name, in the same server).

- ``warband_choices``: every warband of the server (for commands that only read).
- ``changeable_warband_choices``: only warbands the caller may change (owner, or Manage Server).
- ``opponent_choices``: every warband of the server but the one typed in the ``warband`` option.
- ``warrior_choices``: warriors of the warband already typed in the ``warband`` option.
- ``warrior_path_choices``: ``Warband/Warrior`` across the server, the form
  ``Campaigns.find_warrior`` takes (for dice tests, combat and the like).
- ``sheet_warband_choices``: in a server, ``warband_choices``; in a direct message, the member's
  own warbands in every server, shown as ``Server · Warband`` and sent back as ``server id/name``
  (``own_warband_pick`` reads it back; the service checks again that the member owns it).

For a cog's own autocomplete: ``typed`` reads what is already typed in another option (the
warband, say), and ``labelled_choices`` turns the engine's (label, value) pairs into choices.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from cogs._ui.campaign import call, campaigns
from cogs._ui.context import is_admin
from engine.campaign.model import name_key

CHOICE_LIMIT = 25
CHOICE_TEXT_LIMIT = 100  # Discord's limit on a choice's name and its string value


def labelled_choices(pairs: list[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    """(label, value) pairs as at most 25 choices; a value Discord could not send back intact is left out."""
    return [app_commands.Choice(name=label, value=value) for label, value in pairs if len(value) <= CHOICE_TEXT_LIMIT][:CHOICE_LIMIT]


def _choices(names: list[str]) -> list[app_commands.Choice[str]]:
    return labelled_choices([(name, name) for name in names])


def typed(interaction: discord.Interaction, option: str) -> str | None:
    """What is typed so far in this command's ``option`` (None when nothing is)."""
    value = getattr(interaction.namespace, option, None)
    return value if isinstance(value, str) and value.strip() else None


async def _warband_names(interaction: discord.Interaction, current: str, **options: Any) -> list[str]:
    """The server's warband names matching ``current``: from memory on the loop when they are
    kept and current (one indexed read), else read in a thread (and kept from then on)."""
    service, guild_id = campaigns(interaction), interaction.guild_id
    names = service.remembered_names(guild_id, current or "", **options)
    return names if names is not None else await call(service.names_for_autocomplete, guild_id, current or "", **options)


async def warband_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """This server's warbands whose name starts with (then contains) what is typed."""
    if interaction.guild_id is None:
        return []
    return _choices(await _warband_names(interaction, current))


async def opponent_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Like ``warband_choices``, without the warband typed in ``warband``: it cannot fight itself."""
    if interaction.guild_id is None:
        return []
    names = await _warband_names(interaction, current, limit=CHOICE_LIMIT + 1)
    ours = typed(interaction, "warband")
    return _choices([n for n in names if ours is None or name_key(n) != name_key(ours)])


async def changeable_warband_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Like ``warband_choices``, but only the warbands this member may change."""
    if interaction.guild_id is None:
        return []
    return _choices(await _warband_names(interaction, current, only_changeable_by=(interaction.user.id, is_admin(interaction))))


async def warrior_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Warriors of the warband typed in this command's ``warband`` option (none until it is typed)."""
    warband = typed(interaction, "warband")
    if interaction.guild_id is None or warband is None:
        return []
    names = await call(campaigns(interaction).warrior_names_for_autocomplete, interaction.guild_id, warband, current or "")
    return _choices(names)


async def warrior_path_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """``Warband/Warrior`` paths in this server matching what is typed (warrior name, or ``band/name``)."""
    if interaction.guild_id is None:
        return []
    return _choices(await call(campaigns(interaction).warrior_paths_for_autocomplete, interaction.guild_id, current or ""))


_PICKED = re.compile(r"(\d{1,20})/(.+)", re.DOTALL)


def server_name(interaction: discord.Interaction, guild_id: int) -> str:
    """The server's name as the bot knows it, else its id."""
    guild = interaction.client.get_guild(guild_id)
    return guild.name if guild is not None else f"server {guild_id}"


async def sheet_warband_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """In a server, its warbands; in a direct message, the member's own warbands of every server."""
    if interaction.guild_id is not None:
        return await warband_choices(interaction, current)
    owned = await call(campaigns(interaction).own_warbands, interaction.user.id, current or "")
    return labelled_choices([(f"{server_name(interaction, w.guild_id)} · {w.name}"[:CHOICE_TEXT_LIMIT], f"{w.guild_id}/{w.name}")
                             for w in owned])


def own_warband_pick(value: str) -> tuple[int | None, str]:
    """What ``sheet_warband_choices`` sent in a direct message: (server id, warband name); a name
    typed by hand has no server (the member's own warband of that name, wherever it is)."""
    picked = _PICKED.fullmatch(value.strip())
    if picked is None:
        return None, value
    return int(picked[1]), picked[2]
