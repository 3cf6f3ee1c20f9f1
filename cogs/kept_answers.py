"""The buttons of paged answers and confirm questions, ready from the start and after a restart.

Their state is in the database (see cogs/_ui/views.py); this extension registers their
dynamic items when the bot starts, so a press on a message sent by an earlier process is
answered, and deletes expired state once an hour.
"""

from __future__ import annotations

import asyncio
import logging

from discord.ext import commands, tasks

from cogs._ui.views import ConfirmButton, PageButton

log = logging.getLogger("mordheim.kept_answers")


class KeptAnswers(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PageButton, ConfirmButton)
        self.sweep.start()

    async def cog_unload(self) -> None:
        self.sweep.cancel()
        self.bot.remove_dynamic_items(PageButton, ConfirmButton)

    @tasks.loop(hours=1)
    async def sweep(self) -> None:
        removed = await asyncio.to_thread(self.bot.kept_answers.sweep)
        if removed:
            log.info("Forgot %d expired paged answers and questions.", removed)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(KeptAnswers(bot))
