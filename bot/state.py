"""Where every interaction enters the bot: discord.py's connection state, with what all of them need.

discord.py reads each INTERACTION_CREATE in ``parse_interaction_create``. This subclass takes
that one step, so every cog, present or future, gets the same behaviour without knowing:

- a frame the bot cannot read (no id, no token, a button press without data) is logged and
  dropped (``bot/frames.py``): one bad frame must not end the process;
- while the bot is stopping, a short private "restarting" instead of new work;
- interactions wait their turn in a line (``bot/admission.py``): a bounded number are answered
  at once, commands before autocomplete, and one whose turn comes too late for Discord's three
  seconds is dropped before any work;
- each is then answered in a task of its own (``bot/answering.py``): as plain text for members
  who read it, every press answered, the tasks discord.py starts for it awaited. The client
  tracks these tasks, so a stop can wait for them.

``store_view`` is where discord.py attaches a view to a message it sent; a view that wants
its buttons to outlive the process (``cogs/_ui/views.py``) defines
``keep_for_restarts(client, message_id, guild_id=...)`` and is called there, once the
message id is known.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import discord
from discord.state import AutoShardedConnectionState

from bot.admission import Ages, Arrival, Line
from bot.answering import ORIGIN, answer, refuse
from bot.frames import AUTOCOMPLETE, unreadable
from bot.task_collector import TaskCollector
from bot.tree import Stopping

log = logging.getLogger("mordheim.state")

SHED_REPORT_EVERY = 10.0  # seconds between two log lines about interactions dropped under load


class MordheimState(AutoShardedConnectionState):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ages = Ages()
        self.collector = TaskCollector()
        self._line: Line | None = None  # made when the first interaction comes, from the client's settings
        self._shed = 0  # dropped since the last report

    @property
    def line(self) -> Line:
        if self._line is None:
            self._line = Line(self._begin, self._drop, limit=self._get_client().config.answering_at_once)
        return self._line

    def parse_interaction_create(self, data: dict[str, Any]) -> asyncio.Future[None] | None:
        """Take one interaction in. Returns a future that is done once it has been answered,
        refused or dropped (the harness waits for it), or ``None`` for a frame dropped unread."""
        try:
            problem = unreadable(data)
            if problem is not None:
                frame = data if isinstance(data, dict) else {}
                log.warning("Dropped an interaction frame the bot cannot read (type %r, id %r): %s.",
                            frame.get("type"), frame.get("id"), problem)
                return None
            done = asyncio.get_running_loop().create_future()
            arrival = Arrival(born=self.ages.born(int(data["id"])), autocomplete=data["type"] == AUTOCOMPLETE,
                              item=(data, done))
            if self._get_client().stopping:
                self._begin(arrival, refusal=Stopping())
            else:
                self.line.arrive(arrival)
            return done
        except Exception:  # a bug here must not end the gateway's loop, and with it the process
            log.exception("Dropped an interaction: taking it in failed")
            return None

    def _begin(self, arrival: Arrival, *, refusal: Exception | None = None) -> None:
        data, done = arrival.item
        if refusal is None:
            work = answer(self, data, arrival.born, self.collector)
        else:
            work = refuse(self, data, arrival.born, refusal)
        task = asyncio.get_running_loop().create_task(work, name="mordheim-interaction")
        self._get_client().track(task)

        def ended(task: asyncio.Task) -> None:
            failed = None if task.cancelled() else task.exception()
            if refusal is None:
                self.line.finished(arrival, timed=not task.cancelled() and failed is None and task.result() is True)
            if not done.done():
                done.set_result(None)
            if failed is not None:
                log.error("Answering interaction %s failed", data.get("id"), exc_info=failed)

        task.add_done_callback(ended)

    def _drop(self, arrival: Arrival) -> None:
        data, done = arrival.item
        done.set_result(None)
        log.debug("Dropped interaction %s: its turn came %.1f s after it was made", data["id"], time.monotonic() - arrival.born)
        self._shed += 1
        if self._shed == 1:  # the first of a while: say how many in the next SHED_REPORT_EVERY seconds
            asyncio.get_running_loop().call_later(SHED_REPORT_EVERY, self._report_shed)

    def _report_shed(self) -> None:
        log.warning("Under load: %d interactions dropped in the last %.0f s, too old when their turn came "
                    "(%d being answered, %d waiting).", self._shed, SHED_REPORT_EVERY, self.line.answering, self.line.waiting)
        self._shed = 0

    def store_view(self, view: discord.ui.View, message_id: int | None = None) -> None:
        keep = getattr(view, "keep_for_restarts", None)
        if keep is not None and message_id is not None:
            origin = ORIGIN.get()
            try:
                keep(self._get_client(), message_id, guild_id=origin.guild_id if origin else None)
            except Exception:  # the answer is out; only its buttons will say they were not kept
                log.exception("Could not keep the buttons of message %s", message_id)
        super().store_view(view, message_id)
