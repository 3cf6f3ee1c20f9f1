"""The bot process: one ``commands.Bot`` subclass that loads every cog and shared resource."""

from __future__ import annotations

import logging
import pkgutil
import random

import discord
from discord.ext import commands

import cogs
from bot.config import Config
from bot.sync import SyncRecord, sync_commands
from bot.tree import MordheimTree
from engine.rng import system_rng

log = logging.getLogger("mordheim.bot")


def discover_cogs() -> list[str]:
    """Every extension module in ``cogs/`` (modules whose name starts with ``_`` are helpers)."""
    return sorted(
        f"cogs.{m.name}" for m in pkgutil.iter_modules(cogs.__path__) if not m.name.startswith("_") and not m.ispkg
    )


class MordheimBot(commands.Bot):
    """Slash commands only; no privileged intents; nobody is ever pinged by accident."""

    def __init__(self, config: Config, *, rng: random.Random | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # the only intent we need: to know which servers we are in
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=MordheimTree,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
        )
        self.config = config
        self.rng: random.Random = rng if rng is not None else system_rng()
        self.store = None  # engine storage, opened once in setup_hook
        self.settings = None  # engine.settings.Settings over that store: edition, house rules
        self.campaigns = None  # engine.warbands.Campaigns over that store: warbands

    async def setup_hook(self) -> None:
        self.open_resources()
        for extension in discover_cogs():
            await self.load_extension(extension)
        if self.config.has_token and self.config.sync_on_start == "auto":
            await self.sync_commands(force=False)

    def open_resources(self) -> None:
        """Open the database once; every cog shares it through ``bot.store``."""
        if self.store is None:
            from engine.storage import Store

            from engine.settings import Settings
            from engine.warbands import Campaigns

            self.store = Store.open(self.config.db_path)
            self.settings = Settings(self.store)
            self.campaigns = Campaigns(self.store)

    async def sync_commands(self, *, force: bool) -> bool:
        record = SyncRecord(self.config.db_path.parent / "command-sync.json")
        return await sync_commands(self.tree, record, guild_id=self.config.guild_id, force=force)

    async def close(self) -> None:
        await super().close()
        if self.store is not None:
            self.store.close()
            self.store = None
