"""A unit of work: one transaction of one server, the repositories that work in it, and its ledger batch.

One reading unit crosses servers, for one member's own warbands only (``reading_for_member``):
a direct message has no server, and a member may ask for the sheet of a warband of theirs there.

Actions (engine/campaign/actions/) take one and an ``Actor``; they read and change the server's
data only through its repositories, never through SQL or a connection. A writing unit is one
``BEGIN IMMEDIATE`` transaction on SQLite (on PostgreSQL, one transaction holding the server's
lock): everything it reads stays as read until it ends, and everything it writes, ledger rows
included, commits together or not at all. When the block ends without an error, the batch's
ledger rows and the warbands' ``updated_at`` are written, then it commits; an error rolls all
of it back.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from engine.storage.battles import BattleRepository
from engine.storage.captives import CaptiveRepository
from engine.storage.connection import Connection
from engine.storage.games import GameRepository
from engine.storage.ledger import LedgerRepository
from engine.storage.searches import SearchRepository
from engine.storage.sequences import SequenceRepository
from engine.storage.server_tables import ServerTablesRepository
from engine.storage.upkeep import UpkeepRepository
from engine.storage.warbands import OwnedWarbandRepository, WarbandRepository
from engine.storage.warriors import WarriorRepository


class UnitOfWork:
    """One server's data inside one transaction (see the module docstring)."""

    def __init__(self, c: Connection, *, guild_id: int, database: str, member_id: int = 0, at: str = "") -> None:
        self.c = c
        self.database = database  # which database: what is kept in memory is kept per database and server
        self.guild_id = guild_id
        self.member_id = member_id
        self.at = at  # the time every change of this unit is stamped with
        self.memo = c.memo  # what this transaction read once and will not change under it
        self.warbands = WarbandRepository(c, guild_id)
        self.warriors = WarriorRepository(c, guild_id)
        self.battles = BattleRepository(c, guild_id)
        self.ledger = LedgerRepository(c, guild_id, member_id, at)
        self.sequences = SequenceRepository(c, guild_id)
        self.searches = SearchRepository(c, guild_id)
        self.tables = ServerTablesRepository(c, guild_id)
        self.captives = CaptiveRepository(c, guild_id)
        self.upkeep = UpkeepRepository(c, guild_id)
        self.games = GameRepository(c, guild_id)

    def flush(self) -> list[int]:
        """Write what waits for the end of the unit: the ledger rows (their ids) and the warbands touched."""
        ids = self.ledger.flush()
        self.warbands.write_touched(self.at)
        return ids


class MemberUnitOfWork:
    """One member's own warbands across servers, in one reading transaction; ``in_server`` opens a
    server's reading unit on the same snapshot, for the warband the member picked there."""

    def __init__(self, c: Connection, *, member_id: int, database: str, at: str = "") -> None:
        self.c = c
        self.database = database
        self.member_id = member_id
        self.at = at
        self.owned = OwnedWarbandRepository(c, member_id)

    def in_server(self, guild_id: int) -> UnitOfWork:
        uow = UnitOfWork(self.c, guild_id=guild_id, database=self.database)
        uow.at = self.at
        return uow


class _Store(Protocol):
    database: str

    def write(self, *, lock: int | None = None) -> Any: ...

    def read(self) -> Any: ...


@contextmanager
def unit_of_work(store: _Store, *, guild_id: int, member_id: int, at: str) -> Iterator[UnitOfWork]:
    """A writing unit of work of one server (see the module docstring)."""
    with store.write(lock=guild_id) as c:
        uow = UnitOfWork(c, guild_id=guild_id, database=store.database, member_id=member_id, at=at)
        yield uow
        uow.flush()


@contextmanager
def reading(store: _Store, *, guild_id: int) -> Iterator[UnitOfWork]:
    """A reading unit of work of one server: a consistent snapshot; nothing it writes is kept."""
    with store.read() as c:
        yield UnitOfWork(c, guild_id=guild_id, database=store.database)


@contextmanager
def reading_for_member(store: _Store, *, member_id: int) -> Iterator[MemberUnitOfWork]:
    """A reading unit of one member across servers: a consistent snapshot; nothing it writes is kept."""
    with store.read() as c:
        yield MemberUnitOfWork(c, member_id=member_id, database=store.database)
