"""Running a change the bot makes for a member: on the event loop when it can, in a worker thread when it must."""

from __future__ import annotations

import asyncio
from typing import Any, Callable, TypeVar

from engine.storage import Store, WriteWouldWait

T = TypeVar("T")


async def call_write(store: Store, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run one service method that makes one change: on the event loop when its write can begin
    at once, else in a worker thread (``asyncio.to_thread``, as ``cogs._ui.campaign.call`` does).

    Why not always a thread: a hire, a page turn or a post-battle step is a few tenths of a
    millisecond of Python and SQLite, and the hop to a thread and back adds 0.05 to 0.15 ms more
    (the most on a busy host), while Python runs one thread at a time, so the thread's work
    holds the event loop up just the same. A thread only helps while a write waits for the lock
    or the file, and ``Store.without_waiting`` says so (``WriteWouldWait``) before anything is
    done. So ``fn`` must hold exactly one write transaction and do nothing that counts before it
    begins (roll no dice, change nothing outside the database): then running it again in the
    thread repeats nothing.
    """
    try:
        with store.without_waiting():
            return fn(*args, **kwargs)
    except WriteWouldWait:
        return await asyncio.to_thread(fn, *args, **kwargs)
