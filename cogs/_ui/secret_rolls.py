"""Secret rolls in Discord: the public "a secret roll was made" line, its Reveal button, and the
copy for the server's secret-roll channel.

What a secret roll shows is kept in the database (``engine.rolls.SecretRolls``), and the Reveal
button carries only its id, so Reveal works after a restart. Who may press it:

- the roller: the table sees the roll (the public line is replaced by it, once);
- a member with Manage Server: sees it privately (whether or not a channel is named);
- anyone else: is told, privately, who may.

Nothing of the roll is posted publicly before the roller reveals it.
"""

from __future__ import annotations

import asyncio
import logging
import re

import discord

from cogs._ui.context import is_admin
from cogs._ui.views import guarded
from engine.errors import MordheimError, PermissionDenied
from engine.rolls.secret import SecretRolls

log = logging.getLogger("mordheim.dice")

SECRET_LINE = "🎲 **{name}** made a secret roll."
REVEALED_LINE = "🎲 **{name}**'s secret roll, revealed:"


def _name(member: discord.abc.User) -> str:
    return discord.utils.escape_markdown(member.display_name)[:100]


def shown_payload(embed: discord.Embed) -> dict:
    """What is kept for Reveal: the roll's embed as Discord would draw it."""
    return {"embeds": [embed.to_dict()]}


def shown_embeds(shown: dict) -> list[discord.Embed]:
    return [discord.Embed.from_dict(e) for e in shown.get("embeds") or []][:10]


class RevealButton(discord.ui.DynamicItem[discord.ui.Button], template=r"dice:reveal:(?P<id>\d+)"):
    """Reveal a secret roll: to the table by its roller, privately to Manage Server members."""

    def __init__(self, secret_id: int) -> None:
        super().__init__(discord.ui.Button(label="Reveal", emoji="👁", style=discord.ButtonStyle.secondary,
                                           custom_id=f"dice:reveal:{secret_id}"))
        self.secret_id = secret_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /):
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda i: press_reveal(i, self.secret_id))


def reveal_view(secret_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RevealButton(secret_id))
    view.stop()  # a dynamic item only: registered once by the cog, nothing to keep per message
    return view


def _secrets(interaction: discord.Interaction) -> SecretRolls:
    return SecretRolls(interaction.client.store)


async def press_reveal(interaction: discord.Interaction, secret_id: int) -> None:
    if interaction.guild_id is None:
        raise MordheimError("Secret rolls belong to a server.")
    secrets = _secrets(interaction)
    secret = await asyncio.to_thread(secrets.get, interaction.guild_id, secret_id)
    if interaction.user.id == secret.member_id:
        secret = await asyncio.to_thread(secrets.reveal, interaction.guild_id, secret_id, interaction.user.id)
        await interaction.response.edit_message(
            content=REVEALED_LINE.format(name=_name(interaction.user)), embeds=shown_embeds(secret.shown), view=None
        )
        return
    if is_admin(interaction):
        note = "Only you see this: you have Manage Server. " + (
            "The roller has revealed it to the table." if secret.revealed else "The roller has not revealed it."
        )
        await interaction.response.send_message(content=note, embeds=shown_embeds(secret.shown), ephemeral=True)
        return
    raise PermissionDenied(
        f"Only <@{secret.member_id}> can reveal this roll.",
        hint="Members with Manage Server can look at it with this button, or in the server's secret-roll channel.",
    )


async def post_secret(interaction: discord.Interaction, embed: discord.Embed, *, rerolled: bool = False) -> str | None:
    """Copy a secret roll (or its re-roll) to the server's secret-roll channel, if it names one.

    Returns a sentence for the roller when the copy could not be made, else None."""
    secrets = _secrets(interaction)
    channel_id = await asyncio.to_thread(secrets.channel, interaction.guild_id)
    if channel_id is None:
        return None
    what = "re-rolled their secret roll" if rerolled else "made a secret roll"
    content = f"🔒 <@{interaction.user.id}> {what} in <#{interaction.channel_id}>."
    channel = interaction.client.get_partial_messageable(channel_id, guild_id=interaction.guild_id)
    try:
        await channel.send(content=content, embed=embed, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as error:
        log.warning("Could not copy a secret roll to channel %s (guild %s): %s", channel_id, interaction.guild_id, error)
        return (f"It could not be copied to <#{channel_id}> (the bot may not see it or may not post there); "
                "members with Manage Server can still look at it with Reveal.")
    return None
