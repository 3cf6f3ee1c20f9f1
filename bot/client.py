"""The bot process: one ``commands.AutoShardedBot`` subclass that loads every cog and shared resource."""

from __future__ import annotations

import asyncio
import logging
import pkgutil
import random
from collections.abc import Callable

import discord
from discord.ext import commands

import cogs
from bot.command_scope import SERVER_INSTALL, SERVERS_ONLY, apply_command_scopes
from bot.config import Config
from bot.answering import Origin
from bot.state import MordheimState
from bot.sync import SyncRecord, sync_commands
from bot.tree import MordheimTree
from bot.work_queue import WorkQueue
from engine.rng import system_rng

log = logging.getLogger("mordheim.bot")


def discover_cogs() -> list[str]:
    """Every extension module in ``cogs/`` (modules whose name starts with ``_`` are helpers)."""
    return sorted(
        f"cogs.{m.name}" for m in pkgutil.iter_modules(cogs.__path__) if not m.name.startswith("_") and not m.ispkg
    )


class MordheimBot(commands.AutoShardedBot):
    """Slash commands only; no privileged intents; nobody is ever pinged by accident.

    Auto-sharded: with no shard settings it runs as many shards as Discord recommends (one
    for a small bot, the same as an unsharded one); ``MORDHEIM_SHARD_COUNT`` and
    ``MORDHEIM_SHARD_IDS`` split the shards across processes.
    """

    def __init__(self, config: Config, *, rng: random.Random | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # the only intent we need: to know which servers we are in
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=MordheimTree,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            # a command is offered outside servers only when bot/command_scope.py says so
            allowed_contexts=SERVERS_ONLY,
            allowed_installs=SERVER_INSTALL,
            shard_count=config.shard_count,
            shard_ids=list(config.shard_ids) if config.shard_ids is not None else None,
        )
        self.config = config
        self.rng: random.Random = rng if rng is not None else system_rng()
        self.store = None  # engine storage, opened once in setup_hook
        self.settings = None  # engine.settings.Settings over that store: edition, house rules
        self.campaigns = None  # engine.campaign.service.Campaigns over that store: warbands and the campaign
        self.preferences = None  # engine.preferences.Preferences: plain text or embeds
        self.kept_answers = None  # engine.storage.kept_answers.KeptAnswers: buttons that outlive the process
        self.stopping = False  # set by stop(): new interactions are turned away
        self.in_flight: set[asyncio.Task] = set()  # tasks answering interactions right now
        # exact odds and other work too slow for the event loop: a thread, a few waiting, then "busy"
        self.heavy_work = WorkQueue(workers=config.heavy_workers, waiting=config.heavy_waiting, name="mordheim-heavy")
        self.background_writes: set[asyncio.Task] = set()  # database writes an answer does not wait for

    def _get_state(self, **options) -> MordheimState:
        return MordheimState(dispatch=self.dispatch, handlers=self._handlers, hooks=self._hooks, http=self.http, **options)

    async def setup_hook(self) -> None:
        self.open_resources()
        for extension in discover_cogs():
            await self.load_extension(extension)
        apply_command_scopes(self.tree)
        if self.config.has_token and self.config.sync_on_start == "auto" and self.config.syncs_commands:
            await self.sync_commands(force=False)

    def open_resources(self, store=None) -> None:
        """Open the database once (or take ``store``, opened already); every cog shares it through ``bot.store``."""
        if self.store is None:
            from engine.campaign.service import Campaigns
            from engine.preferences import Preferences
            from engine.settings import Settings
            from engine.storage import open_store
            from engine.storage.kept_answers import KeptAnswers

            self.store = store if store is not None else open_store(self.config.database)
            self.settings = Settings(self.store)
            self.campaigns = Campaigns(self.store)
            self.preferences = Preferences(self.store)
            self.kept_answers = KeptAnswers(self.store)

    async def sync_commands(self, *, force: bool) -> bool:
        record = SyncRecord(self.config.db_path.parent / "command-sync.json")
        return await sync_commands(self.tree, record, guild_id=self.config.guild_id, force=force)

    # ----- what every interaction needs (called by bot/state.py) -------------------------

    def reads_plain_text(self, origin: Origin) -> bool:
        """Whether this member, here, gets answers as plain text instead of embeds."""
        if self.preferences is None:
            return False
        return self.preferences.reply_style(origin.guild_id, origin.user_id).plain_text

    def track(self, task: asyncio.Task) -> None:
        """Count ``task`` among the answers in progress until it ends (a stop waits for them)."""
        self.in_flight.add(task)
        task.add_done_callback(self.in_flight.discard)

    def write_in_background(self, write: Callable[[], object]) -> asyncio.Task:
        """Run a database write in a worker thread, off the event loop and after the answer
        (a write may wait for another process's); ``close`` waits for it."""
        task = asyncio.get_running_loop().create_task(asyncio.to_thread(write), name="mordheim-background-write")
        self.background_writes.add(task)
        task.add_done_callback(self._background_write_done)
        return task

    def _background_write_done(self, task: asyncio.Task) -> None:
        self.background_writes.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("A background database write failed", exc_info=task.exception())

    # ----- stopping ----------------------------------------------------------------------

    async def stop(self, *, timeout: float | None = None) -> None:
        """Stop cleanly: turn new interactions away, let those in progress finish (at most
        ``timeout`` seconds, then they are cancelled), close the gateway with 1000 and the
        database. Safe to call twice."""
        timeout = self.config.stop_timeout if timeout is None else timeout
        self.stopping = True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        announced = False
        # the refusals of interactions arriving meanwhile are in flight too, so wait until none is
        while pending := {t for t in self.in_flight if not t.done()}:
            if not announced:
                log.info("Stopping: waiting up to %.0f s for %d answers in progress.", timeout, len(pending))
                announced = True
            remaining = deadline - loop.time()
            if remaining <= 0:
                for task in pending:
                    task.cancel()
                log.warning("Stopping: %d answers did not finish in %.0f s and were cancelled.", len(pending), timeout)
                await asyncio.wait(pending, timeout=1.0)
                break
            await asyncio.wait(pending, timeout=remaining, return_when=asyncio.FIRST_COMPLETED)
        await self.close()

    async def close(self) -> None:
        if self.background_writes:
            await asyncio.wait(set(self.background_writes), timeout=5.0)
        await super().close()
        self.heavy_work.close()
        if self.store is not None:
            self.store.close()  # waits for a write in a worker thread to commit first
            self.store = None
