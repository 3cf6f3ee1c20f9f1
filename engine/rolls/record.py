"""The roll record: every roll of every member of a server, kept unless the member opts out.

A roll must not wait for the disk (issue 12: a roll with the record on stays within 1.5× the
trivial ``/echo``), so ``add`` only appends to a list in memory (the roll's facts may even be
given as a function, worked out at write time), and ``flush`` writes what has gathered in one
transaction: the rows, and each member's running sums in ``roll_stats`` (so ``/luck`` reads
one row per member, however many rolls were made). The bot flushes every
second and whenever a batch fills, and once more when it stops: a clean stop loses nothing,
and a failed write puts the batch back to be written next time. Readers flush first, so
what they read includes every roll made so far.

Opt-outs are read once per server and then kept in memory. That is correct because only
this process writes them (one process owns a server's rows, ARCHITECTURE.md "Scale"), and
every change goes through ``opt_out``/``opt_in`` here, which update memory and disk together.
For the same reason each server's record has a version stamp in memory, bumped by every write
that changes its sums (a batch of its rolls, a member's rolls forgotten): what ``/luck show``
read is kept under it and given again while no roll was made there since.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

from engine.storage.rolls import RollRepository
from engine.storage.store import Store

from .facts import RollFacts
from .luck import MemberLuck
from .model import VISIBILITIES, HistoryRow, RollEntry, RollTally

log = logging.getLogger("mordheim.rolls")

#: Rolls gathered before the bot writes them at once rather than waiting for its timer (a
#: backstop for bursts: normally the timer writes, off the path of any roll).
BATCH_SIZE = 5000
#: Rolls kept in memory at most while writing keeps failing; past it the oldest are dropped (and logged).
MAX_PENDING = 50_000
#: Rolls one history listing shows at most.
MAX_HISTORY = 50
#: Reads of ``/luck show`` kept for servers where no roll was made since (a board or one member each).
READS_KEPT = 1024


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


class _Clock:
    """Seconds since the epoch as ISO text, worked out once per second however many rolls share it."""

    __slots__ = ("second", "text")

    def __init__(self) -> None:
        self.second: int | None = None
        self.text = ""

    def iso(self, at: float | str) -> str:
        if isinstance(at, str):
            return at
        second = int(at)
        if second != self.second:
            self.second = second
            self.text = dt.datetime.fromtimestamp(second, dt.timezone.utc).isoformat(timespec="seconds")
        return self.text


class RollRecord:
    """Every server's roll record in one ``Store``. Thread-safe; ``add`` never touches the disk
    (but for reading a server's opt-outs the first time it sees that server)."""

    def __init__(self, store: Store, *, now: Callable[[], dt.datetime] | None = None) -> None:
        self.store = store
        self._now = now  # None: the system clock, read as cheaply as possible
        self._pending: list[tuple[Any, ...]] = []  # (guild, member, name, facts, visibility, at): see add
        self._lock = threading.Lock()  # guards _pending, _optouts, _versions and _reads
        self._writing = threading.RLock()  # one flush (or opt-out) at a time, so rows keep their order
        self._optouts: dict[int, set[int]] = {}
        self._versions: dict[int, int] = {}  # server -> writes that changed its sums (see the module's docstring)
        self._reads: dict[tuple[Any, ...], tuple[int, Any]] = {}  # what a read gave, under its server's version
        self.dropped = 0  # rolls dropped because writing kept failing (see MAX_PENDING)

    # -- recording ------------------------------------------------------------------------

    def records(self, guild_id: int | None, member_id: int) -> bool:
        """Whether this member's rolls here are recorded (never in direct messages)."""
        if guild_id is None:
            return False
        optouts = self._optouts.get(guild_id)
        if optouts is None:
            optouts = self._load_optouts(guild_id)
        return member_id not in optouts

    def _load_optouts(self, guild_id: int) -> set[int]:
        with self.store.read() as c:
            members = RollRepository(c).opted_out(guild_id)
        with self._lock:
            return self._optouts.setdefault(guild_id, members)

    def add(self, guild_id: int | None, member_id: int, member_name: str,
            facts: RollFacts | Callable[[], RollFacts], *, visibility: str = "public") -> bool:
        """Keep one roll, to be written by the next ``flush``. False when it is not recorded.

        ``facts`` may be a function giving the roll's facts, called when the roll is written.
        ``visibility`` is who saw the roll: ``public``, ``private`` (its roller) or ``secret``
        (its roller and Manage Server); listings show no one more than that."""
        if visibility not in VISIBILITIES:
            raise ValueError(f"unknown visibility {visibility!r}")
        if not self.records(guild_id, member_id):
            return False
        at = time.time() if self._now is None else self._now().isoformat(timespec="seconds")
        with self._lock:  # a plain tuple: this is the roll's path; RollEntry is made at write time
            self._pending.append((guild_id, member_id, member_name, facts, visibility, at))
            if len(self._pending) > MAX_PENDING:
                del self._pending[0]
                self.dropped += 1
                log.error("Roll record: writing keeps failing; dropped the oldest unwritten roll (%d so far)", self.dropped)
        return True

    @property
    def pending(self) -> int:
        """Rolls kept in memory, not written yet."""
        return len(self._pending)

    def flush(self) -> int:
        """Write every roll gathered so far in one transaction; returns how many were written.

        If the write fails, the rolls go back to be written by the next flush, and the error
        is raised."""
        with self._writing:
            with self._lock:
                batch, self._pending = self._pending, []
            if not batch:
                return 0
            try:
                self._write(batch)
            except BaseException:
                with self._lock:
                    self._pending[:0] = batch
                raise
            return len(batch)

    def _write(self, batch: list[tuple[Any, ...]]) -> None:
        tallies: dict[tuple[int, int], RollTally] = {}
        entries = []
        clock = _Clock()
        for guild_id, member_id, name, facts, visibility, at in batch:
            f = facts if isinstance(facts, RollFacts) else facts()
            e = RollEntry(guild_id, member_id, name[:100], f, visibility, clock.iso(at))
            entries.append(e)
            key = (guild_id, member_id)
            tally = tallies.get(key)
            if tally is None:
                tally = tallies[key] = RollTally(e)
            tally.add(e)
        with self.store.write() as c:
            RollRepository(c).record(entries, tallies)
        self._changed({guild_id for guild_id, _ in tallies})

    # -- members' choices -------------------------------------------------------------------

    def opt_out(self, guild_id: int, member_id: int, *, forget: bool = False) -> int:
        """Stop recording this member's rolls here; with ``forget``, delete those recorded.

        Rolls made before the opt-out are kept (written now), unless ``forget``.
        Returns how many stored rolls were deleted."""
        with self._writing:
            self.records(guild_id, member_id)  # the server's opt-outs are in memory from here on
            with self._lock:
                self._optouts[guild_id].add(member_id)  # from here on nothing new is kept
            self.flush()  # what was made before stays recorded (and forget deletes it with the rest)
            with self.store.write() as c:
                rolls = RollRepository(c)
                rolls.opt_out(guild_id, member_id, (self._now or _utc_now)().isoformat(timespec="seconds"))
                forgotten = rolls.forget_member(guild_id, member_id) if forget else 0
            if forget:
                self._changed({guild_id})
            return forgotten

    def opt_in(self, guild_id: int, member_id: int) -> bool:
        """Record this member's rolls here again; False if they were being recorded already."""
        with self._writing:
            self.records(guild_id, member_id)
            with self.store.write() as c:
                removed = RollRepository(c).opt_in(guild_id, member_id)
            with self._lock:
                self._optouts[guild_id].discard(member_id)
            return removed

    # -- reading (each flushes first, so it sees every roll made so far) ----------------------

    def _changed(self, guilds: set[int]) -> None:
        """These servers' sums changed (called once the write is committed)."""
        with self._lock:
            for guild_id in guilds:
                self._versions[guild_id] = self._versions.get(guild_id, 0) + 1

    def _kept_read(self, key: tuple[Any, ...], read: Callable[[RollRepository], Any]) -> Any:
        """``read`` of the server ``key[0]``, or what it gave before if no write changed that server since."""
        self.flush()
        version = self._versions.get(key[0], 0)  # before reading: a write after it makes what is read newer, not older
        kept = self._reads.get(key)
        if kept is not None and kept[0] == version:
            return kept[1]
        with self.store.read() as c:
            value = read(RollRepository(c))
        with self._lock:
            self._reads.pop(key, None)
            self._reads[key] = (version, value)
            while len(self._reads) > READS_KEPT:
                del self._reads[next(iter(self._reads))]  # the one kept longest ago
        return value

    def member(self, guild_id: int, member_id: int) -> MemberLuck | None:
        return self._kept_read((guild_id, "member", member_id), lambda rolls: rolls.luck(guild_id, member_id))

    def board(self, guild_id: int, limit: int = 25) -> tuple[list[MemberLuck], dict[str, int]]:
        """The members of this server with the most rolls first, and the server's totals
        (``members``, ``rolls``, ``d6``), read together. Only the D6 columns are read: the board
        shows D6 luck, and every column read costs (one member's ``member`` reads them all)."""
        members, totals = self._kept_read((guild_id, "board", limit),
                                          lambda rolls: (rolls.luck_board(guild_id, limit), rolls.server_totals(guild_id)))
        return list(members), dict(totals)

    def history(self, guild_id: int, member_id: int | None = None, limit: int = 10) -> list[HistoryRow]:
        """The newest rolls of this server (or of one member), newest first."""
        self.flush()
        limit = max(1, min(int(limit), MAX_HISTORY))
        with self.store.read() as c:
            return RollRepository(c).history(guild_id, member_id, limit)


_RECORDS: "weakref.WeakKeyDictionary[Store, RollRecord]" = weakref.WeakKeyDictionary()
_RECORDS_LOCK = threading.Lock()


def record_for(store: Store) -> RollRecord:
    """The one ``RollRecord`` of an open store, so every part of the bot adds to the same batch."""
    with _RECORDS_LOCK:
        record = _RECORDS.get(store)
        if record is None:
            record = _RECORDS[store] = RollRecord(store)
        return record

