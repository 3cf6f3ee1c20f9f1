"""What a process keeps in memory of rarely changed data, behind a version stamp (engine/storage/stamps.py).

Every write of the data bumps its stamp in the same transaction. ``KeptByStamp`` answers from
memory; it reads a value it has not seen, and compares the stamp at most once every
``check_every`` seconds: a different stamp means another process (a shard process on the same
host, another host on PostgreSQL) changed something, and everything kept is forgotten. A
change made through this process is remembered as it is written, so it is seen at once; another
process's within ``check_every`` seconds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

CHECK_EVERY = 1.0  # seconds between two looks at a stamp: how long another process's change may go unseen
MAX_KEPT = 100_000  # values kept at most; past it the longest kept is forgotten


class KeptByStamp(Generic[K, V]):
    """Values by key, kept under one stamp (thread-safe: the event loop reads, worker threads write)."""

    def __init__(self, stamp: Callable[[], int], *, clock: Callable[[], float] = time.monotonic,
                 check_every: float = CHECK_EVERY, limit: int = MAX_KEPT) -> None:
        self._stamp = stamp  # reads the stamp now (one indexed read)
        self._clock = clock
        self._check_every = check_every
        self._limit = limit
        self._lock = threading.Lock()
        self._values: dict[K, V] = {}
        self._version = -1  # the stamp what is kept was read under (-1: nothing read yet)
        self._checked_at = -float("inf")

    def get(self, key: K, read: Callable[[], tuple[int, V]]) -> V:
        """The value of ``key``: kept, or ``read()`` (the stamp and the value, read in one transaction)."""
        if self._clock() - self._checked_at >= self._check_every:
            version = self._stamp()
            with self._lock:
                self._checked_at = self._clock()
                if version != self._version:
                    self._values, self._version = {}, version
        try:
            return self._values[key]
        except KeyError:
            pass
        version, value = read()
        with self._lock:
            if version > self._version:  # newer than what is kept: that is forgotten
                self._values, self._version = {}, version
            if version == self._version:  # (an older read lost a race with a write: not kept)
                self._keep(key, value)
        return value

    def wrote(self, version: int, key: K, value: V) -> None:
        """This process wrote ``value`` and the stamp became ``version``. If the stamp moved by more
        than this write, another process wrote meanwhile: everything else is forgotten."""
        with self._lock:
            if version != self._version + 1:
                self._values = {}
            self._version = version
            self._keep(key, value)

    def _keep(self, key: K, value: V) -> None:
        if key not in self._values and len(self._values) >= self._limit:
            del self._values[next(iter(self._values))]  # the longest kept
        self._values[key] = value
