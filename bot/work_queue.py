"""A bounded queue for expensive work (exact odds of big fights, renders), run in threads.

Work like this must not run on the event loop, where it would hold up every other answer; and
under load it must not pile up either: each piece running in a thread still takes its share of
the interpreter, and a piece that waits long is answered long after the member gave up.
``WorkQueue`` runs at most ``workers`` pieces at once, lets at most ``waiting`` more wait for
a thread, and refuses the rest at once with ``Busy``, whose message the tree shows privately.

    bot.heavy_work.check_room()  # before deferring: a refusal is then the private first answer
    await interaction.response.defer(thinking=True)
    result = await bot.heavy_work.run(odds, attacker, defender)
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from discord import app_commands

T = TypeVar("T")

BUSY = "The bot is busy with other work like this right now. Try again in a moment."


class Busy(app_commands.AppCommandError):
    """The work queue is full: the member is asked to try again shortly."""

    def __init__(self) -> None:
        super().__init__(BUSY)


class WorkQueue:
    def __init__(self, *, workers: int, waiting: int, name: str = "mordheim-work") -> None:
        if workers < 1 or waiting < 0:
            raise ValueError("a work queue needs at least one worker and a waiting room of zero or more")
        self.workers = workers
        self.waiting = waiting
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)
        self._admitted = 0  # running or waiting for a thread

    @property
    def full(self) -> bool:
        """Whether ``run`` would refuse now (a command may check before it defers)."""
        return self._admitted >= self.workers + self.waiting

    def check_room(self) -> None:
        """Raise ``Busy`` now if ``run`` would refuse: a command checks before it defers, so the
        refusal is its private first answer rather than a follow-up."""
        if self.full:
            raise Busy()

    @property
    def in_flight(self) -> int:
        return self._admitted

    async def run(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` in a worker thread; raises ``Busy`` at once when the queue is full."""
        self.check_room()
        self._admitted += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, functools.partial(fn, *args, **kwargs))
        finally:
            self._admitted -= 1

    def close(self) -> None:
        """Stop taking work; what was admitted still finishes in its thread."""
        self._executor.shutdown(wait=False, cancel_futures=True)
