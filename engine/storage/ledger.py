"""The ``ledger`` table: every change to a server's data, with before and after, who, when and why.

One thing a member does is one batch of ledger rows: hiring a fighter adds a warrior *and*
takes the cost from the treasury; a post-battle sequence changes many warriors. Every row of a
batch carries the batch's id, the id of its first row (ids grow, so a newer batch has a larger
id), and undo takes a whole batch back. A row's ``before``/``after`` are JSON: the whole thing
for a creation (before NULL) or a deletion (after NULL), only the changed fields for an update.

Rows are kept in memory as the action records them and written together when the unit of work
ends (``flush``): one statement for the batch, with ids this transaction reserved
(``Connection.next_ids``). ``ledger_batch`` is the same for code outside the campaign's units of
work (a server setting)::

    with ledger_batch(store, guild_id=g, member_id=m, at=stamp) as batch:
        ...change rows through batch.c...
        batch.record(warband_id=None, warband_name="", what="settings.edition", entity="settings",
                     entity_id=None, before={...}, after={...})
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple, Protocol

from engine.campaign.model import Entity, LedgerEntry
from engine.storage.connection import Connection
from engine.storage.warriors import in_list

COLUMNS = ("id", "guild_id", "warband_id", "warband_name", "what", "entity", "entity_id", "before_json", "after_json",
           "reason", "member_id", "created_at", "undoes_id", "batch_id")
INSERT = f"INSERT INTO ledger ({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)})"
# What an entry is read from: its columns and whether a later row undid it.
ENTRY = ("SELECT l.id, l.warband_name, l.what, l.before_json, l.after_json, l.reason, l.member_id, l.created_at, "
         "l.undoes_id, l.batch_id, l.entity, l.entity_id, "
         "EXISTS (SELECT 1 FROM ledger u WHERE u.undoes_id = l.id), l.warband_id FROM ledger l")
TREASURY = ("gold_crowns", "wyrdstone_shards")


# json.dumps(value, ensure_ascii=False) makes a new encoder on every call; a batch writes two texts a row
_ENCODER = json.JSONEncoder(ensure_ascii=False)


def _json(value: Any) -> str | None:
    return None if value is None else _ENCODER.encode(value)


def entry_from_row(row: Sequence[Any]) -> LedgerEntry:
    (lid, warband, what, before, after, reason, member_id, created_at, undoes_id, batch_id, entity, entity_id, undone,
     warband_id) = row
    return LedgerEntry(id=lid, warband=warband, what=what, before=None if before is None else json.loads(before),
                       after=None if after is None else json.loads(after), reason=reason, member_id=member_id,
                       created_at=created_at, undoes_id=undoes_id, undone=bool(undone), batch_id=batch_id,
                       entity=Entity(entity), entity_id=entity_id, warband_id=warband_id)


class _Pending(NamedTuple):
    """A row recorded and not yet written (a tuple: a step records one per warrior it changes)."""

    warband_id: int | None
    warband_name: str
    what: str
    entity: str
    entity_id: int | None
    before: Any
    after: Any
    reason: str
    undoes_id: int | None


class LedgerRepository:
    """One server's ledger, and the batch one unit of work writes to it (``record``, then ``flush``)."""

    def __init__(self, c: Connection, guild_id: int, member_id: int, at: str) -> None:
        self.c = c
        self.guild_id = guild_id
        self.member_id = member_id
        self.at = at  # the time every row of the batch is stamped with
        self._batch_id: int | None = None
        self._pending: list[_Pending] = []
        self._reserved: list[int] = []  # ids reserved for rows not yet written

    # ---- the batch
    @property
    def batch_id(self) -> int:
        """The id of this batch (the id its first row has or will have)."""
        if self._batch_id is None:
            self._reserved = self.c.next_ids("ledger", 1)
            self._batch_id = self._reserved[0]
        return self._batch_id

    @property
    def batch_of_rows(self) -> int | None:
        """This batch's id once it has rows (recorded in this unit, or an earlier batch joined); None
        while it has none: an id reserved for no row is given to the next batch written, which would
        then pass for this one."""
        return self.batch_id if self._batch_id is not None or self._pending else None

    def join_batch(self, batch_id: int | None) -> None:
        """Write this unit's rows into an earlier batch (a post-battle sequence is one batch over
        several steps); None: a new batch, as usual."""
        if batch_id is not None:
            self._batch_id = batch_id

    def record(self, *, warband_id: int | None, warband_name: str, what: str, entity: str, entity_id: int | None,
               before: Any, after: Any, reason: str = "", undoes_id: int | None = None) -> None:
        """One row of this batch, written when the unit of work ends. ``before``/``after`` are
        JSON-ready: the whole entity for a creation (before None) or a deletion (after None),
        only the changed fields for an update. ``warband_id`` is None for a server setting."""
        self._pending.append(_Pending(warband_id, warband_name, what, str(entity), entity_id, before, after, reason, undoes_id))

    def flush(self) -> list[int]:
        """Write the rows recorded since the last flush (one statement); their ids, in order."""
        if not self._pending:
            return []
        batch_id = self.batch_id
        ids = self._reserved + self.c.next_ids("ledger", len(self._pending) - len(self._reserved))
        ids = ids[:len(self._pending)]
        rows = [(lid, self.guild_id, p.warband_id, p.warband_name, p.what, p.entity, p.entity_id, _json(p.before),
                 _json(p.after), p.reason, self.member_id, self.at, p.undoes_id, batch_id)
                for lid, p in zip(ids, self._pending)]
        self.c.executemany(INSERT, rows)
        self._pending, self._reserved = [], []
        return ids

    # ---- reading
    def entries(self, warband_id: int, limit: int) -> list[LedgerEntry]:
        """The warband's rows, newest first."""
        rows = self.c.rows(f"{ENTRY} WHERE l.guild_id = ? AND l.warband_id = ? ORDER BY l.id DESC LIMIT ?",
                           (self.guild_id, warband_id, limit))
        return [entry_from_row(r) for r in rows]

    def entries_after(self, warband_id: int, ledger_id: int, what: str, limit: int) -> list[LedgerEntry]:
        """The warband's rows ``what`` newer than row ``ledger_id``, oldest first (found from the
        (guild, warband, id) index at that row: only the newer rows are read)."""
        rows = self.c.rows(f"{ENTRY} WHERE l.guild_id = ? AND l.warband_id = ? AND l.id > ? AND l.what = ? ORDER BY l.id LIMIT ?",
                           (self.guild_id, warband_id, ledger_id, what, limit))
        return [entry_from_row(r) for r in rows]

    def entries_by_id(self, ids: Sequence[int]) -> list[LedgerEntry]:
        marks = ", ".join("?" for _ in ids)
        rows = self.c.rows(f"{ENTRY} WHERE l.guild_id = ? AND l.id IN ({marks}) ORDER BY l.id", (self.guild_id, *ids))
        return [entry_from_row(r) for r in rows]

    def treasury_totals(self, warband_id: int) -> tuple[int, int]:
        """Gold and wyrdstone as the sum of every row's change to the warband (a creation counts from 0)."""
        totals = [0, 0]
        for before_json, after_json in self.c.rows(
                "SELECT before_json, after_json FROM ledger WHERE guild_id = ? AND warband_id = ? AND entity = 'warband'",
                (self.guild_id, warband_id)):
            before = json.loads(before_json) if before_json else {}
            after = json.loads(after_json) if after_json else {}
            for n, key in enumerate(TREASURY):
                totals[n] += int(after.get(key, 0) or 0) - int(before.get(key, 0) or 0)
        return totals[0], totals[1]

    def imported_shards_found(self, *, only: Sequence[int] | None = None) -> dict[int, int]:
        """The shards found that each warband brought when it was imported (its import row's
        ``shards_found``), of the warbands ``only`` when given."""
        where, params = in_list("warband_id", only)
        found: dict[int, int] = {}
        for warband_id, after_json in self.c.rows(
                f"SELECT warband_id, after_json FROM ledger WHERE guild_id = ? AND what = 'warband.import'{where}",
                (self.guild_id, *params)):
            shards = int((json.loads(after_json) if after_json else {}).get("shards_found", 0) or 0)
            if shards:
                found[warband_id] = found.get(warband_id, 0) + shards
        return found

    def newest_undoable_batch(self, warband_id: int, passed_over: Sequence[str]) -> list[LedgerEntry]:
        """The rows of the warband's newest batch not yet undone (newest first), leaving out rows
        whose ``what`` is in ``passed_over``; empty when none is left."""
        skip = ", ".join("?" for _ in passed_over) or "''"
        alive = (f"l.guild_id = ? AND l.warband_id = ? AND l.undoes_id IS NULL AND l.what NOT IN ({skip}) "
                 "AND NOT EXISTS (SELECT 1 FROM ledger u WHERE u.undoes_id = l.id)")
        newest = self.c.row(f"{ENTRY} WHERE {alive} ORDER BY l.id DESC LIMIT 1", (self.guild_id, warband_id, *passed_over))
        if newest is None:
            return []
        entry = entry_from_row(newest)
        if entry.batch_id is None:  # written without a batch (bulk loads): a batch of one
            return [entry]
        rows = self.c.rows(f"{ENTRY} WHERE {alive} AND l.id >= ? AND l.batch_id = ? ORDER BY l.id DESC",
                           (self.guild_id, warband_id, *passed_over, entry.batch_id, entry.batch_id))
        return [entry_from_row(r) for r in rows]

    def batch_rows(self, batch_id: int, passed_over: Sequence[str]) -> list[LedgerEntry]:
        """Every row of the batch not yet undone, of every warband it changed (newest first), leaving
        out rows whose ``what`` is in ``passed_over``. Found through ledger_guild_id (guild_id, id)
        from the batch id up: undo asks for it only, and a batch it asks for is its warband's newest."""
        skip = ", ".join("?" for _ in passed_over) or "''"
        rows = self.c.rows(f"{ENTRY} WHERE l.guild_id = ? AND l.id >= ? AND l.batch_id = ? AND l.warband_id IS NOT NULL "
                           f"AND l.undoes_id IS NULL AND l.what NOT IN ({skip}) "
                           "AND NOT EXISTS (SELECT 1 FROM ledger u WHERE u.undoes_id = l.id) ORDER BY l.id DESC",
                           (self.guild_id, batch_id, batch_id, *passed_over))
        return [entry_from_row(r) for r in rows]

    def batch_undone(self, warband_id: int, batch_id: int | None) -> bool:
        """Some row of the batch was taken back by undo (undo takes a batch whole).

        Every row of a campaign batch changes its warband, and a batch's id is the id of its first
        row, so the rows are found through the (guild, warband, id) index from the batch id up."""
        if batch_id is None:
            return False
        return self.c.row("SELECT 1 FROM ledger l WHERE l.guild_id = ? AND l.warband_id = ? AND l.id >= ? AND l.batch_id = ? "
                          "AND EXISTS (SELECT 1 FROM ledger u WHERE u.undoes_id = l.id) LIMIT 1",
                          (self.guild_id, warband_id, batch_id, batch_id)) is not None

    def batch_changed(self, warband_id: int, batch_id: int | None, passed_over: Sequence[str] = ()) -> bool:
        """The batch holds a row of this warband other than those ``passed_over`` (by ``what``):
        something was changed under it."""
        if batch_id is None:
            return False
        skip = f" AND what NOT IN ({', '.join('?' for _ in passed_over)})" if passed_over else ""
        return self.c.row(f"SELECT 1 FROM ledger WHERE guild_id = ? AND warband_id = ? AND id >= ? AND batch_id = ?{skip} LIMIT 1",
                          (self.guild_id, warband_id, batch_id, batch_id, *passed_over)) is not None

    def newest_of_warband(self, warband_id: int) -> int | None:
        """The id of the warband's newest row: it changes with every change to the warband."""
        return self.c.scalar("SELECT max(id) FROM ledger WHERE guild_id = ? AND warband_id = ?", (self.guild_id, warband_id))

    def newest_setting(self) -> int | None:
        """The id of the server's newest settings row: it changes with every change to the server's settings."""
        return self.c.scalar("SELECT max(id) FROM ledger WHERE guild_id = ? AND warband_id IS NULL", (self.guild_id,))

    def changed_since(self, ledger_id: int) -> dict[int | None, set[str]]:
        """The warbands with a ledger row newer than ``ledger_id``, each with what those rows changed
        (their entities: ``warrior``, ``battle``, ...). None among them: a server setting changed."""
        changed: dict[int | None, set[str]] = {}
        # in id order, so the (guild, id) index finds only the rows after ledger_id (DISTINCT would read the server's every row)
        for warband_id, entity in self.c.rows("SELECT warband_id, entity FROM ledger WHERE guild_id = ? AND id > ? ORDER BY id",
                                              (self.guild_id, ledger_id)):
            changed.setdefault(warband_id, set()).add(entity)
        return changed

    def newest(self) -> int | None:
        """The id of the server's newest row of all."""
        return self.c.scalar("SELECT max(id) FROM ledger WHERE guild_id = ?", (self.guild_id,))


class _Store(Protocol):
    def write(self, *, lock: int | None = None) -> Any: ...


@contextmanager
def ledger_batch(store: _Store, *, guild_id: int, member_id: int, at: str) -> Iterator[LedgerRepository]:
    """One write transaction whose ledger rows form one batch, written when the block ends
    (for changes outside the campaign's units of work, such as a server setting)."""
    with store.write(lock=guild_id) as c:
        batch = LedgerRepository(c, guild_id, member_id, at)
        yield batch
        batch.flush()
