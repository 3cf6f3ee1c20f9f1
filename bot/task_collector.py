"""The tasks one synchronous call starts, without looking at every task of the event loop.

discord.py answers a button, a menu or a form in tasks it creates and does not hand back.
``bot/answering.py`` waits for them (a clean stop waits for answers in progress; a press
nothing answered gets a reply once they are done). Comparing ``asyncio.all_tasks()`` before
and after walked every task of the process twice per interaction; instead the loop's task
factory notes each task created while ``collecting()`` is open, on the loop it was opened on.
A task created by one of those tasks later (a view's timeout, a write in the background) is
not collected.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from typing import Any


class TaskCollector:
    def __init__(self) -> None:
        self._sink: list[asyncio.Task] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        """Put this collector's task factory on ``loop`` (once; any factory already there still makes the tasks)."""
        previous = loop.get_task_factory()
        if getattr(previous, "collector", None) is self:
            return

        def factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any], **kwargs: Any) -> asyncio.Task:
            task = previous(loop, coro, **kwargs) if previous is not None else asyncio.Task(coro, loop=loop, **kwargs)
            if self._sink is not None and loop is self._loop:
                self._sink.append(task)
            return task

        factory.collector = self  # type: ignore[attr-defined]
        loop.set_task_factory(factory)

    @contextmanager
    def collecting(self) -> Iterator[list[asyncio.Task]]:
        """Within the block, every task created on the running loop is appended to the list given."""
        loop = asyncio.get_running_loop()
        self.install(loop)
        sink: list[asyncio.Task] = []
        outer = self._sink, self._loop
        self._sink, self._loop = sink, loop
        try:
            yield sink
        finally:
            self._sink, self._loop = outer
