"""What every campaign command (warbands, warriors, battles) needs: the server, the service, safe text.

Campaign data belongs to a server, so these commands refuse direct messages with a clear,
private message; every service call takes the server id from the interaction, never from
what a member typed or from an old message.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any, Callable, TypeVar

import discord
from discord import app_commands

from engine.campaign.service import Campaigns

T = TypeVar("T")

SERVER_ONLY = (
    "Warbands belong to a server's campaign, so this command works in a server, not in direct messages. "
    "Run it in a channel of the server whose campaign you play."
)


class ServerOnly(app_commands.NoPrivateMessage):
    """Raised by the campaign cogs' ``interaction_check`` in a direct message; the tree shows it privately."""

    def __init__(self, more: str = "") -> None:
        super().__init__(SERVER_ONLY + more)


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
_HAS_MARKDOWN = re.compile(r"[\\*_~|`]")
_LINE_START = ("#", "-", ">")


def safe(text: str) -> str:
    """Member-typed text as it may appear in an embed: no markdown tricks, no mentions.

    The same escapes as ``discord.utils.escape_markdown`` for one line of text, in one
    ``str.translate`` pass, and only for text that has a character to escape: most names have
    none, and a search costs a third of the translation (roster sheets and the standings
    escape hundreds of names per page).
    """
    text = str(text)
    if _HAS_MARKDOWN.search(text):
        text = text.translate(_MARKDOWN)
    if text.startswith(_LINE_START):
        text = "\\" + text
    if "[" in text and "](" in text:  # [label](url) would become a masked link
        text = text.replace("[", "\\[")
    if "@" in text or "<#" in text:
        text = discord.utils.escape_mentions(text)
    return text


_QUOTED_COMMAND = re.compile(r"\\`(/[a-z][a-z -]*)\\`")  # a slash command in backticks, once ``safe`` escaped them


def safe_line(text: str) -> str:
    """A line the bot wrote around member-typed names (a post-battle summary's, a captive's): as
    ``safe`` shows it, but the slash commands it quotes in backticks (`/postbattle captives`)
    stay commands rather than showing their backticks escaped. A name can only make a code span
    of itself this way, which shows its text as typed."""
    text = safe(text)
    return _QUOTED_COMMAND.sub(r"`\1`", text) if "\\`" in text else text

