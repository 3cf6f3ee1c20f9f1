"""The command tree: one place where errors become replies."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from engine.errors import MordheimError

log = logging.getLogger("mordheim.tree")

APOLOGY = "Sorry, something went wrong on our side while doing that. It has been logged; please try again."


def user_message(error: BaseException) -> str | None:
    """The text to show for an error meant for the user, or ``None`` for a bug."""
    while isinstance(error, (app_commands.CommandInvokeError, app_commands.TransformerError)) and error.__cause__:
        error = error.__cause__
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, MordheimError):
        text = str(error)
        pointer = getattr(error, "pointer", None)
        if pointer and pointer in text:  # keep the caret under the right character
            text = text.replace(pointer, f"```\n{pointer}\n```", 1)
        return text
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You can't use this command here."
    if isinstance(error, app_commands.CommandNotFound):
        return "That command no longer exists. Discord may still be showing an old list; try again in a minute."
    if isinstance(error, app_commands.CommandSignatureMismatch):
        return "This command has changed since Discord last saw it. Try again in a minute."
    if isinstance(error, app_commands.TransformerError):
        return f"I couldn't read `{str(error.value)[:80]}` as {error.type.name}."
    return None


class MordheimTree(app_commands.CommandTree):
    """Maps the engine's user-facing errors to an ephemeral reply; logs anything else."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        await self.report_error(interaction, error)

    async def report_error(self, interaction: discord.Interaction, error: BaseException) -> None:
        """Tell the member what went wrong, privately. Also used by views and modals."""
        text = user_message(error)
        if text is None:
            command = interaction.command.qualified_name if interaction.command else "component"
            log.error("Unhandled error in %s (guild %s)", command, interaction.guild_id, exc_info=error)
            text = APOLOGY
        text = text[:1900]
        embed = discord.Embed(description=text, colour=discord.Colour.red())
        try:
            if interaction.response.is_done():
                await interaction.followup.send(embed=embed, ephemeral=True)
            else:
                await interaction.response.send_message(embed=embed, ephemeral=True)
        except discord.HTTPException:
            log.exception("Could not send the error reply")
