"""The command tree: one place where errors become replies.

An error while answering an autocomplete is answered as an autocomplete with no choices
(Discord would refuse a message there); every other interaction gets a private message,
unless Discord has already said the interaction is gone (10062 Unknown interaction: its three
seconds passed), when nobody is left to tell and another answer would only be refused too.
Every command's options are checked for type before it runs (``bot/option_types.py``).
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.option_types import WrongOptionType, check_option_types
from bot.work_queue import Busy
from engine.errors import MordheimError
from engine.storage.errors import DatabaseBusy

log = logging.getLogger("mordheim.tree")

APOLOGY = "Sorry, something went wrong on our side while doing that. It has been logged; please try again."
UNKNOWN_COMPONENT = (
    "This button or menu belongs to an answer the bot no longer knows (it has restarted since, or the "
    "answer is too old). Run the command again to get a fresh one."
)
STOPPING = "The bot is restarting. Try again in a few seconds."
DATABASE_BUSY = ("The bot could not reach its database just then, so nothing was changed. "
                 "Try again in a few seconds.")
MOVED_ON = (
    "This button, menu or form has moved on or was already used (the message may have changed since, "
    "perhaps from another device), so nothing was done. Look at the message as it is now, or run the command again."
)
UNKNOWN_INTERACTION = 10062  # Discord's code: the interaction expired (or never was)
EXPIRED = "mordheim_expired"  # set in ``Interaction.extras`` once Discord said 10062


class UnknownComponent(app_commands.AppCommandError):
    """A button, menu or form whose custom id no view or dynamic item of this process claims."""

    def __init__(self) -> None:
        super().__init__(UNKNOWN_COMPONENT)


class Stopping(app_commands.AppCommandError):
    """An interaction that arrived after the bot began to stop."""

    def __init__(self) -> None:
        super().__init__(STOPPING)


class MovedOn(app_commands.AppCommandError):
    """A press or a form that this process claims but that nothing answered: a step that moved on,
    a button already used or removed (see ``bot/answering.py``)."""

    def __init__(self) -> None:
        super().__init__(MOVED_ON)


def is_expired(error: BaseException) -> bool:
    """Whether ``error`` is (or wraps) Discord's 10062 Unknown interaction: too late to answer."""
    while isinstance(error, app_commands.AppCommandError) and error.__cause__ is not None:
        error = error.__cause__
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


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
    if isinstance(error, (UnknownComponent, Stopping, MovedOn, Busy, WrongOptionType)):
        return str(error)
    if isinstance(error, DatabaseBusy):
        log.warning("Database unreachable for one interaction: %s", error)
        return DATABASE_BUSY
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

    async def answer(self, interaction: discord.Interaction) -> None:
        """Run a command or an autocomplete and answer its errors: what discord.py's
        ``_from_interaction`` does in a task of its own, awaited here by ``bot/answering.py``."""
        try:
            await self._call(interaction)
        except app_commands.AppCommandError as error:
            await self._dispatch_error(interaction, error)

    async def _call(self, interaction: discord.Interaction) -> None:
        # discord.py logs an error raised inside an autocomplete callback and answers nothing, so
        # Discord shows "loading options failed"; an error before it (a check, an unknown
        # command) reaches on_error. Either way the member gets an empty list of choices.
        try:
            if interaction.type in (discord.InteractionType.application_command, discord.InteractionType.autocomplete):
                command = interaction.command
                if isinstance(command, app_commands.Command):
                    check_option_types(command, interaction.data)
            await super()._call(interaction)
        finally:
            if interaction.type is discord.InteractionType.autocomplete and not interaction.response.is_done():
                await no_choices(interaction)

    async def report_error(self, interaction: discord.Interaction, error: BaseException) -> None:
        """Tell the member what went wrong, privately. Also used by views and modals."""
        if is_expired(error):
            interaction.extras[EXPIRED] = True
            log.debug("Interaction %s expired before it was answered", interaction.id)
            return
        if interaction.extras.get(EXPIRED) and not interaction.response.is_done():
            return
        text = user_message(error)
        if text is None:
            command = interaction.command.qualified_name if interaction.command else "component"
            log.error("Unhandled error in %s (guild %s)", command, interaction.guild_id, exc_info=error)
            text = APOLOGY
        if interaction.type is discord.InteractionType.autocomplete:
            await no_choices(interaction)  # the only answer an autocomplete may have
            return
        text = text[:1900]
        embed = discord.Embed(description=text, colour=discord.Colour.red())
        try:
            if interaction.response.is_done():
                await interaction.followup.send(embed=embed, ephemeral=True)
            else:
                await interaction.response.send_message(embed=embed, ephemeral=True)
        except discord.HTTPException as failure:
            if is_expired(failure):
                interaction.extras[EXPIRED] = True
                log.debug("Interaction %s expired before its error reply", interaction.id)
            else:
                log.exception("Could not send the error reply")


async def no_choices(interaction: discord.Interaction) -> None:
    """Answer an autocomplete with an empty list, unless it was answered already."""
    if interaction.response.is_done():
        return
    try:
        await interaction.response.autocomplete([])
    except discord.HTTPException:  # expired (autocomplete has three seconds): nothing to tell anyone
        log.debug("Could not answer an autocomplete with no choices", exc_info=True)
