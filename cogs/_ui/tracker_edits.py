"""The battle tracker's message edited after marks, gathered: one edit shows the marks of a moment.

Discord lets a bot create or edit only a few messages every few seconds in a server, and a message
older than an hour only so many times more, while a table marks several warriors in a few
seconds. So a mark does not edit the tracker itself: it asks for an edit here, which waits
``delay`` seconds for the marks that follow, then edits once, showing the game as it is then.
A mark that comes while an edit is on its way asks for the next one. ``settled`` waits for every
edit asked for (tests do, with ``delay`` 0); ``hurry`` makes the waiting ones at once (a stop does).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("mordheim.game")

EDIT_DELAY = 1.0  # seconds an edit waits for the marks that follow


class TrackerEdits:
    """Edits asked for by marks, at most one waiting per game; ``edit(guild_id, game_id)`` makes one."""

    def __init__(self, edit: Callable[[int, int], Awaitable[None]], *, delay: float = EDIT_DELAY) -> None:
        self._edit = edit
        self.delay = delay
        # games whose edit has not started yet, and who to tell if it fails (the newest mark's member)
        self._waiting: dict[tuple[int, int], Callable[[], Awaitable[object]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._hurried: asyncio.Event | None = None  # made on the loop, the first time an edit waits

    def ask(self, guild_id: int, game_id: int, *, if_it_fails: Callable[[], Awaitable[object]]) -> None:
        """Edit the game's tracker soon (an edit already waiting will show this mark too);
        ``if_it_fails`` tells the member who marked, when the edit cannot be made."""
        key = (guild_id, game_id)
        waiting = key in self._waiting
        self._waiting[key] = if_it_fails
        if waiting:
            return
        task = asyncio.get_running_loop().create_task(self._run(key), name="mordheim-tracker-edit")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, key: tuple[int, int]) -> None:
        if self._hurried is None:
            self._hurried = asyncio.Event()
        try:
            await asyncio.wait_for(self._hurried.wait(), timeout=self.delay)
        except TimeoutError:
            pass
        finally:
            tell = self._waiting.pop(key)  # from here on, a new mark asks for another edit
        try:
            await self._edit(*key)
        except Exception:  # the marks are kept: the next edit shows them, or /game show
            log.warning("Could not edit the tracker of game %s", key[1], exc_info=True)
            try:
                await tell()
            except Exception:  # the member's interaction may be over; the log has it
                log.warning("Could not tell the member that game %s's tracker was not edited", key[1], exc_info=True)

    async def settled(self) -> None:
        """Wait until every edit asked for so far is made."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def hurry(self) -> None:
        """Make the edits asked for now, without waiting for more marks, and wait for them."""
        if self._hurried is not None:
            self._hurried.set()
        await self.settled()
        if self._hurried is not None:
            self._hurried.clear()
