"""Work that takes real CPU, drawing a roster sheet or a chart: done off the event loop, in one place.

A sheet takes tens of milliseconds to draw; on the event loop that would hold up every other
interaction meanwhile. The cog answers "thinking…" first (``interaction.response.defer()``),
draws here, and sends the file as a follow-up. Today a worker thread (``asyncio.to_thread``)
does it; a bounded queue of heavy work (``bot/work_queue.py``, coming) replaces this one function.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable, TypeVar

T = TypeVar("T")


async def off_the_loop(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` run in a worker thread; the event loop goes on meanwhile."""
    return await asyncio.to_thread(fn, *args, **kwargs)
