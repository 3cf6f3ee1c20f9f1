"""The line interactions wait in when they come faster than the bot can answer them.

Discord gives an interaction three seconds for its first answer and refuses one that comes
later. A bot that starts every interaction the moment it arrives shares its event loop among
all of them; past its capacity every answer slows down together, and at 3,000/s planning saw
the bot work through a backlog already past the deadline and send 3,011 answers too late
(issue 19). So:

- at most ``limit`` interactions are answered at once; the others wait in this line;
- commands, buttons and forms go before autocomplete: while any of them waits, autocomplete
  waits (a member typing gets choices a moment later, or not at all, and types on);
- first come, first served while the line moves; once the oldest waiting has waited more than
  ``backlog_after``, the newest go first (they can still be answered in time; the oldest are
  about to expire anyway), and autocomplete is always newest first (the latest keystroke is
  the one the member sees);
- an interaction older than ``stale_after`` (2.5 s) when its turn comes is dropped before any
  work: an answer begun then would reach Discord too late. When answers themselves take long
  (a machine short of processor), the bar comes down so that the turn plus the time answers take
  now still fits in Discord's three seconds.

Nothing here knows about tasks or Discord: ``start`` and ``drop`` are called with what was
queued, and ``finished`` is called when something started is done. Times are this process's
monotonic clock, passed in so tests can move it.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
ANSWER_WITHIN = 3.0  # seconds Discord waits for an interaction's first answer
STALE_AFTER = 2.5  # seconds: Discord's three, less time to do the work and send the answer
MARGIN = 0.1  # seconds kept back for the answer's way to Discord
BACKLOG_AFTER = 0.5  # seconds the oldest may wait before the newest go first
SLOW_ANSWER_HALF_LIFE = 1.0  # seconds: how quickly a slow answer stops counting


def created_ms(snowflake: int) -> int:
    """When Discord made the thing with this id, in milliseconds since 1970 (Discord's clock)."""
    return (snowflake >> 22) + DISCORD_EPOCH_MS


class Ages:
    """When each interaction was made, on this process's monotonic clock, from its snowflake.

    A host whose clock is a few seconds off Discord's would otherwise find every interaction
    too old (or none): the smallest age seen over the last one to two ``window``s is taken as
    the offset of the two clocks (plus the gateway's quickest delivery) and taken off. So the
    first interaction after a start counts as fresh whatever its id says; a new session is
    never sent old interactions, and a resumed one has the offset from before."""

    def __init__(self, *, window: float = 60.0, wall: Callable[[], float] = time.time,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        self._wall = wall
        self._clock = clock
        self._since = clock()
        self._least = self._least_before = float("inf")

    @property
    def offset(self) -> float:
        """Seconds this host's clock seems to be ahead of Discord's (0 before anything arrived)."""
        least = min(self._least, self._least_before)
        return 0.0 if least == float("inf") else least

    def born(self, snowflake: int) -> float:
        now = self._clock()
        if now - self._since > self.window:
            self._least_before, self._least, self._since = self._least, float("inf"), now
        age = self._wall() - created_ms(snowflake) / 1000
        self._least = min(self._least, age)
        return now - (age - self.offset)


@dataclass(slots=True)
class Arrival:
    """One interaction waiting for its turn."""

    born: float  # when Discord made it (monotonic clock)
    autocomplete: bool
    item: Any  # what ``start`` and ``drop`` are given
    started: float = 0.0  # when its turn came


class Line:
    """Admits interactions to be answered, at most ``limit`` at once (see the module's docstring)."""

    def __init__(self, start: Callable[[Arrival], None], drop: Callable[[Arrival], None], *, limit: int,
                 stale_after: float = STALE_AFTER, backlog_after: float = BACKLOG_AFTER,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if limit < 1:
            raise ValueError("limit must be at least 1")
        self.limit = limit
        self.stale_after = stale_after
        self.backlog_after = backlog_after
        self._start = start
        self._drop = drop
        self._clock = clock
        self.answering = 0
        self.dropped = 0  # in all, since the start
        self.slow = 0.0  # how long answers take lately, seconds (the longest, fading; see finished)
        self._slow_at = clock()
        self._commands: deque[Arrival] = deque()  # commands, buttons, menus, forms
        self._typing: deque[Arrival] = deque()  # autocomplete

    @property
    def waiting(self) -> int:
        return len(self._commands) + len(self._typing)

    def arrive(self, arrival: Arrival) -> None:
        (self._typing if arrival.autocomplete else self._commands).append(arrival)
        self._admit()

    def finished(self, arrival: Arrival, *, timed: bool = True) -> None:
        """``arrival``, started, is done: its place goes to the next in line. When ``timed`` (its
        first answer came at the end: it did not defer), the time it took counts towards how
        long answers take lately."""
        if timed:
            now = self._clock()
            fade = 0.5 ** ((now - self._slow_at) / SLOW_ANSWER_HALF_LIFE)
            self.slow, self._slow_at = max(min(now - arrival.started, ANSWER_WITHIN), self.slow * fade), now
        self.answering -= 1
        self._admit()

    @property
    def slow_now(self) -> float:
        """``slow`` faded to this moment. ``slow`` itself moves only when an answer finishes; after one
        answer of three seconds the bar was 0 and every interaction after it was dropped, so none
        finished to fade it: the bot answered nothing more until it restarted."""
        return self.slow * 0.5 ** ((self._clock() - self._slow_at) / SLOW_ANSWER_HALF_LIFE)

    @property
    def too_old(self) -> float:
        """The age (seconds) past which an interaction is dropped when its turn comes."""
        return max(0.0, min(self.stale_after, ANSWER_WITHIN - MARGIN - self.slow_now))

    def _admit(self) -> None:
        while self.answering < self.limit:
            now = self._clock()
            arrival = self._next(now)
            if arrival is None:
                return
            self.answering += 1
            arrival.started = now
            self._start(arrival)

    def _next(self, now: float) -> Arrival | None:
        too_old = self.too_old
        for line, newest_first in ((self._commands, False), (self._typing, True)):
            while line and now - line[0].born > too_old:
                self._shed(line.popleft())
            while line:
                if newest_first or now - line[0].born > self.backlog_after:
                    arrival = line.pop()
                else:
                    arrival = line.popleft()
                if now - arrival.born <= too_old:
                    return arrival
                self._shed(arrival)
        return None

    def _shed(self, arrival: Arrival) -> None:
        self.dropped += 1
        self._drop(arrival)
