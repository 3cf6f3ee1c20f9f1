"""What every campaign command (warbands, warriors, battles) needs: the server, the service, safe text.

Campaign data belongs to a server, so these commands refuse direct messages with a clear,
private message; every service call takes the server id from the interaction, never from
what a member typed or from an old message.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable, TypeVar

import discord
from discord import app_commands

from cogs._ui.views import Paginator, check_same_server  # noqa: F401 - the campaign cogs import check_same_server from here
from engine.warbands import Campaigns

T = TypeVar("T")

SERVER_ONLY = (
    "Warbands belong to a server's campaign, so this command works in a server, not in direct messages. "
    "Run it in a channel of the server whose campaign you play."
)


class ServerOnly(app_commands.NoPrivateMessage):
    """Raised by the campaign cogs' ``interaction_check`` in a direct message; the tree shows it privately."""

    def __init__(self) -> None:
        super().__init__(SERVER_ONLY)


def require_server(interaction: discord.Interaction) -> int:
    """The server's id, or ``ServerOnly`` in a direct message."""
    if interaction.guild_id is None:
        raise ServerOnly()
    return interaction.guild_id


def campaigns(interaction: discord.Interaction) -> Campaigns:
    return interaction.client.campaigns  # type: ignore[attr-defined]


async def call(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run one short, synchronous service method off the event loop."""
    return await asyncio.to_thread(fn, *args, **kwargs)


_MARKDOWN = str.maketrans({c: "\\" + c for c in "\\*_~|`"})
_LINE_START = ("#", "-", ">")


def safe(text: str) -> str:
    """Member-typed text as it may appear in an embed: no markdown tricks, no mentions.

    The same escapes as ``discord.utils.escape_markdown`` for one line of text, in one
    ``str.translate`` pass (roster sheets escape hundreds of names per page).
    """
    text = str(text).translate(_MARKDOWN)
    if text.startswith(_LINE_START):
        text = "\\" + text
    if "[" in text and "](" in text:  # [label](url) would become a masked link
        text = text.replace("[", "\\[")
    if "@" in text or "<#" in text:
        text = discord.utils.escape_mentions(text)
    return text


class ServerPaginator(Paginator):
    """Pages whose buttons work only for the member who asked, in the server where they asked
    (every kept page set checks both; see cogs/_ui/views.py)."""

    def __init__(self, owner_id: int, guild_id: int | None, pages: list[discord.Embed]) -> None:
        super().__init__(owner_id, pages)
        self.guild_id = guild_id


async def send_pages(interaction: discord.Interaction, pages: list[discord.Embed], *, ephemeral: bool = False) -> None:
    """One embed, or pages with previous/next buttons when there are several."""
    if len(pages) == 1:
        await interaction.response.send_message(embed=pages[0], ephemeral=ephemeral)
        return
    view = ServerPaginator(interaction.user.id, interaction.guild_id, pages)
    await interaction.response.send_message(embed=view.embed, view=view, ephemeral=ephemeral)
