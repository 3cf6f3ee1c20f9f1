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
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass

from engine.storage.store import Store

from .facts import RollFacts
from .luck import FACES, MemberLuck

log = logging.getLogger("mordheim.rolls")

#: Rolls gathered before the bot writes them at once rather than waiting for its timer (a
#: backstop for bursts: normally the timer writes, off the path of any roll).
BATCH_SIZE = 5000
#: Rolls kept in memory at most while writing keeps failing; past it the oldest are dropped (and logged).
MAX_PENDING = 50_000
#: Rolls one history listing shows at most.
MAX_HISTORY = 50
#: Who saw a roll: everyone, its roller only, or its roller and the members with Manage Server.
VISIBILITIES = ("public", "private", "secret")


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


class RollEntry:
    """One roll to be written: who, in which server, what (``facts``) and when (``rolled_at``)."""

    __slots__ = ("guild_id", "member_id", "member_name", "facts", "visibility", "rolled_at")

    def __init__(self, guild_id: int, member_id: int, member_name: str, facts: RollFacts, visibility: str,
                 rolled_at: str) -> None:
        self.guild_id = guild_id
        self.member_id = member_id
        self.member_name = member_name
        self.facts = facts
        self.visibility = visibility
        self.rolled_at = rolled_at


class _Clock:
    """Seconds since the epoch as ISO text, worked out once per second however many rolls share it."""

    __slots__ = ("second", "text")

    def __init__(self) -> None:
        self.second = None
        self.text = ""

    def iso(self, at: float | str) -> str:
        if isinstance(at, str):
            return at
        second = int(at)
        if second != self.second:
            self.second = second
            self.text = dt.datetime.fromtimestamp(second, dt.timezone.utc).isoformat(timespec="seconds")
        return self.text


@dataclass(frozen=True)
class HistoryRow:
    """A stored roll as a listing shows it."""

    id: int
    member_id: int
    kind: str
    what: str
    result: str
    rerolled: bool
    visibility: str  # public, private or secret
    rolled_at: str

    def visible_to(self, member_id: int, manages_server: bool) -> bool:
        """Whether this member may read what was rolled: a private roll its roller only, a
        secret one its roller and the members with Manage Server."""
        if self.visibility == "public" or member_id == self.member_id:
            return True
        return self.visibility == "secret" and manages_server


class _Sums:
    """A batch's additions to one member's ``roll_stats`` row."""

    __slots__ = ("name", "rolls", "faces", "other_dice", "other_sum", "other_expected", "other_variance",
                 "tests", "tests_passed", "tests_expected", "tests_variance", "injuries", "injury_results",
                 "injuries_expected_out", "injuries_variance_out", "first_at", "last_at")

    def __init__(self, first: RollEntry, at: str) -> None:
        self.name = first.member_name
        self.rolls = 0
        self.faces = [0] * 6
        self.other_dice = self.other_sum = 0
        self.other_expected = self.other_variance = 0.0
        self.tests = self.tests_passed = 0
        self.tests_expected = self.tests_variance = 0.0
        self.injuries = 0
        self.injury_results = [0, 0, 0]
        self.injuries_expected_out = self.injuries_variance_out = 0.0
        self.first_at = self.last_at = at

    def add(self, entry: RollEntry, facts: RollFacts, at: str) -> None:
        self.name = entry.member_name or self.name
        self.rolls += 1
        self.last_at = at
        for sides, face in facts.dice:
            if sides == 6:
                self.faces[face - 1] += 1
            else:
                self.other_dice += 1
                self.other_sum += face
                self.other_expected += (sides + 1) / 2
                self.other_variance += (sides * sides - 1) / 12
        if facts.test is not None:
            p = facts.test.chance
            self.tests += 1
            self.tests_passed += facts.test.passed
            self.tests_expected += p
            self.tests_variance += p * (1 - p)
        if facts.injury is not None:
            p = facts.injury.chance_out
            self.injuries += 1
            self.injury_results[facts.injury.outcome - 1] += 1
            self.injuries_expected_out += p
            self.injuries_variance_out += p * (1 - p)

    def row(self, guild_id: int, member_id: int) -> tuple:
        return (
            guild_id, member_id, self.name, self.rolls, sum(self.faces), *self.faces,
            self.other_dice, self.other_sum, self.other_expected, self.other_variance,
            self.tests, self.tests_passed, self.tests_expected, self.tests_variance,
            self.injuries, *self.injury_results, self.injuries_expected_out, self.injuries_variance_out,
            self.first_at, self.last_at,
        )


_STAT_COLUMNS = (
    "guild_id", "member_id", "member_name", "rolls", "d6", *(f"d6_{f}" for f in FACES),
    "other_dice", "other_sum", "other_expected", "other_variance",
    "tests", "tests_passed", "tests_expected", "tests_variance",
    "injuries", "injuries_knocked_down", "injuries_stunned", "injuries_out_of_action",
    "injuries_expected_out", "injuries_variance_out", "first_at", "last_at",
)
_BOARD_COLUMNS = "member_id, member_name, rolls, " + ", ".join(f"d6_{f}" for f in FACES)
_SUMMED = [c for c in _STAT_COLUMNS if c not in ("guild_id", "member_id", "member_name", "first_at", "last_at")]
_UPSERT_STATS = (
    f"INSERT INTO roll_stats ({', '.join(_STAT_COLUMNS)}) VALUES ({', '.join('?' for _ in _STAT_COLUMNS)}) "
    "ON CONFLICT (guild_id, member_id) DO UPDATE SET member_name = excluded.member_name, "
    + ", ".join(f"{c} = {c} + excluded.{c}" for c in _SUMMED)
    + ", last_at = excluded.last_at"
)
_INSERT_ROLL = (
    "INSERT INTO rolls (guild_id, member_id, kind, what, result, dice, rerolled, visibility, rolled_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


class RollRecord:
    """Every server's roll record in one ``Store``. Thread-safe; ``add`` never touches the disk
    (but for reading a server's opt-outs the first time it sees that server)."""

    def __init__(self, store: Store, *, now: Callable[[], dt.datetime] | None = None) -> None:
        self.store = store
        self._now = now  # None: the system clock, read as cheaply as possible
        self._pending: list[RollEntry] = []
        self._lock = threading.Lock()  # guards _pending and _optouts
        self._writing = threading.RLock()  # one flush (or opt-out) at a time, so rows keep their order
        self._optouts: dict[int, set[int]] = {}
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
            members = set(c.column("SELECT member_id FROM roll_optouts WHERE guild_id = ?", (guild_id,)))
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

    def _write(self, batch: list[tuple]) -> None:
        sums: dict[tuple[int, int], _Sums] = {}
        rows = []
        clock = _Clock()
        for guild_id, member_id, name, facts, visibility, at in batch:
            f = facts if isinstance(facts, RollFacts) else facts()
            e = RollEntry(guild_id, member_id, name[:100], f, visibility, clock.iso(at))
            at = e.rolled_at
            # the dice as JSON [[sides, face], ...], written out by hand: json.dumps is the slow part here
            dice = "[" + ",".join(f"[{sides},{face}]" for sides, face in f.dice) + "]"
            rows.append((e.guild_id, e.member_id, f.kind, f.what[:200], f.result[:200],
                         dice, int(f.rerolled), e.visibility, at))
            key = (e.guild_id, e.member_id)
            if key not in sums:
                sums[key] = _Sums(e, at)
            sums[key].add(e, f, at)
        with self.store.write() as c:
            c.executemany(_INSERT_ROLL, rows)
            c.executemany(_UPSERT_STATS, [s.row(g, m) for (g, m), s in sums.items()])

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
                c.execute(
                    "INSERT OR IGNORE INTO roll_optouts (guild_id, member_id, since) VALUES (?, ?, ?)",
                    (guild_id, member_id, (self._now or _utc_now)().isoformat(timespec="seconds")),
                )
                if not forget:
                    return 0
                deleted = c.execute("DELETE FROM rolls WHERE guild_id = ? AND member_id = ?", (guild_id, member_id))
                c.execute("DELETE FROM roll_stats WHERE guild_id = ? AND member_id = ?", (guild_id, member_id))
                return deleted

    def opt_in(self, guild_id: int, member_id: int) -> bool:
        """Record this member's rolls here again; False if they were being recorded already."""
        with self._writing:
            self.records(guild_id, member_id)
            with self.store.write() as c:
                removed = c.execute(
                    "DELETE FROM roll_optouts WHERE guild_id = ? AND member_id = ?", (guild_id, member_id)
                )
            with self._lock:
                self._optouts[guild_id].discard(member_id)
            return bool(removed)

    # -- reading (each flushes first, so it sees every roll made so far) ----------------------

    def member(self, guild_id: int, member_id: int) -> MemberLuck | None:
        self.flush()
        with self.store.read() as c:
            row = c.one("SELECT * FROM roll_stats WHERE guild_id = ? AND member_id = ?", (guild_id, member_id))
        return MemberLuck.from_row(row) if row else None

    def board(self, guild_id: int, limit: int = 25) -> tuple[list[MemberLuck], dict[str, int]]:
        """The members of this server with the most rolls first, and the server's totals
        (``members``, ``rolls``, ``d6``), read together. Only the D6 columns are read: the board
        shows D6 luck, and every column read costs (one member's ``member`` reads them all)."""
        self.flush()
        with self.store.read() as c:
            rows = c.all(
                f"SELECT {_BOARD_COLUMNS} FROM roll_stats WHERE guild_id = ? ORDER BY rolls DESC, member_id LIMIT ?",
                (guild_id, limit),
            )
            totals = c.one(
                "SELECT COUNT(*) AS members, COALESCE(SUM(rolls), 0) AS rolls, COALESCE(SUM(d6), 0) AS d6 "
                "FROM roll_stats WHERE guild_id = ?", (guild_id,)
            )
        members = [MemberLuck.from_row({**r, "guild_id": guild_id}) for r in rows]
        return members, {k: int(v) for k, v in totals.items()}

    def history(self, guild_id: int, member_id: int | None = None, limit: int = 10) -> list[HistoryRow]:
        """The newest rolls of this server (or of one member), newest first."""
        self.flush()
        limit = max(1, min(int(limit), MAX_HISTORY))
        where, params = "guild_id = ?", [guild_id]
        if member_id is not None:
            where += " AND member_id = ?"
            params.append(member_id)
        with self.store.read() as c:
            rows = c.all(
                f"SELECT id, member_id, kind, what, result, rerolled, visibility, rolled_at FROM rolls "
                f"WHERE {where} ORDER BY id DESC LIMIT ?", (*params, limit)
            )
        return [HistoryRow(r["id"], r["member_id"], r["kind"], r["what"], r["result"], bool(r["rerolled"]),
                           r["visibility"], r["rolled_at"]) for r in rows]


_RECORDS: "weakref.WeakKeyDictionary[Store, RollRecord]" = weakref.WeakKeyDictionary()
_RECORDS_LOCK = threading.Lock()


def record_for(store: Store) -> RollRecord:
    """The one ``RollRecord`` of an open store, so every part of the bot adds to the same batch."""
    with _RECORDS_LOCK:
        record = _RECORDS.get(store)
        if record is None:
            record = _RECORDS[store] = RollRecord(store)
        return record

