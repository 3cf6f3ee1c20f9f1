"""The ``warbands`` table: one server's warbands, one member's own across servers, and the one place a row becomes a ``Warband``."""

from __future__ import annotations

import json
from dataclasses import replace
from collections.abc import Mapping, Sequence
from typing import Any

from engine.campaign.model import OwnedWarband, Warband, WarbandSummary, Warrior, name_key
from engine.storage.connection import Connection

COLUMNS = ("id", "guild_id", "owner_id", "name", "warband_type", "notes", "gold_crowns", "wyrdstone_shards",
           "created_at", "updated_at", "list_id", "stash")
SELECT = "SELECT " + ", ".join(COLUMNS) + " FROM warbands"
_PREFIX_END = "\U0010ffff"  # sorts after every name key: [key, key + this) holds the names starting with key


def warband_from_row(row: Sequence[Any], warriors: tuple[Warrior, ...] = ()) -> Warband:
    """The warband a row of ``COLUMNS`` describes."""
    (wid, guild_id, owner_id, name, warband_type, notes, gold, shards, created_at, updated_at, list_id, stash) = row
    return Warband(id=wid, guild_id=guild_id, owner_id=owner_id, name=name, warband_type=warband_type, notes=notes,
                   gold_crowns=gold, wyrdstone_shards=shards, created_at=created_at, updated_at=updated_at,
                   warriors=warriors, list_id=list_id, stash=() if stash == "[]" else tuple(json.loads(stash)))


def warband_columns(snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """Table columns for the keys present in a (possibly partial) warband snapshot (``Warband.snapshot()``)."""
    out: dict[str, Any] = {}
    for key, value in snapshot.items():
        if key == "name":
            out["name"] = value
            out["name_key"] = name_key(value)
        elif key == "type":
            out["warband_type"] = value
        elif key == "list":
            out["list_id"] = value
        elif key == "stash":
            out["stash"] = json.dumps(list(value))
        elif key in ("owner_id", "notes", "gold_crowns", "wyrdstone_shards"):
            out[key] = value
    return out


class WarbandRepository:
    """One server's warbands. Every query filters on the server.

    A change to a warband's warriors, battles or sequences marks it changed (``touch``); the
    unit of work writes its ``updated_at`` once, at the end, unless an ``update`` already did."""

    def __init__(self, c: Connection, guild_id: int) -> None:
        self.c = c
        self.guild_id = guild_id
        self.touched: set[int] = set()  # changed in this unit of work, updated_at not yet written
        self._updated: set[int] = set()  # updated_at written in this unit of work

    # ---- reading
    def named(self, name: str) -> Warband | None:
        """The warband called ``name`` (compared as a name key), without its warriors."""
        row = self.c.row(f"{SELECT} WHERE guild_id = ? AND name_key = ?", (self.guild_id, name_key(name)))
        return None if row is None else warband_from_row(row)

    def get(self, warband_id: int) -> Warband | None:
        row = self.c.row(f"{SELECT} WHERE guild_id = ? AND id = ?", (self.guild_id, warband_id))
        return None if row is None else warband_from_row(row)

    def called(self, name: str) -> str | None:
        """The stored name of the warband whose name key is ``name``'s, or None."""
        return self.c.scalar("SELECT name FROM warbands WHERE guild_id = ? AND name_key = ?", (self.guild_id, name_key(name)))

    def id_called(self, name: str) -> int | None:
        return self.c.scalar("SELECT id FROM warbands WHERE guild_id = ? AND name_key = ?", (self.guild_id, name_key(name)))

    def names(self) -> list[str]:
        return self.c.column("SELECT name FROM warbands WHERE guild_id = ?", (self.guild_id,))

    def count(self) -> int:
        return int(self.c.scalar("SELECT count(*) FROM warbands WHERE guild_id = ?", (self.guild_id,)))

    def every(self) -> list[Warband]:
        """Every warband of the server, without warriors."""
        return [warband_from_row(r) for r in self.c.rows(f"{SELECT} WHERE guild_id = ?", (self.guild_id,))]

    def summaries(self, owner_id: int | None = None) -> list[WarbandSummary]:
        sql = "SELECT name, owner_id, warband_type, gold_crowns, wyrdstone_shards, list_id FROM warbands WHERE guild_id = ?"
        params: list[Any] = [self.guild_id]
        if owner_id is not None:
            sql += " AND owner_id = ?"
            params.append(owner_id)
        return [WarbandSummary(*r) for r in self.c.rows(sql + " ORDER BY name_key", params)]

    def name_keys(self, owner_id: int | None) -> list[tuple[str, str]]:
        """(name key, name) of every warband of the server, or of ``owner_id``'s, in name-key order."""
        where, params = "guild_id = ?", [self.guild_id]
        if owner_id is not None:
            where += " AND owner_id = ?"
            params.append(owner_id)
        return [(k, n) for k, n in self.c.rows(f"SELECT name_key, name FROM warbands WHERE {where} ORDER BY name_key", params)]

    # ---- writing
    def add(self, owner_id: int, snapshot: Mapping[str, Any], at: str) -> Warband:
        """Store a new warband; it as stored."""
        cols = warband_columns({**snapshot, "owner_id": owner_id})
        wid = self.c.insert("warbands", {"guild_id": self.guild_id, **cols, "created_at": at, "updated_at": at})
        self._updated.add(wid)
        row = self.c.row(f"{SELECT} WHERE id = ?", (wid,))
        assert row is not None
        return warband_from_row(row)

    def update(self, warband: Warband, changes: Mapping[str, Any], at: str) -> Warband:
        """Write the snapshot keys in ``changes`` (only what changed); the warband as it is now."""
        cols = warband_columns(changes)
        sets = ", ".join(f"{k} = ?" for k in cols)
        self.c.execute(f"UPDATE warbands SET {sets}, updated_at = ? WHERE guild_id = ? AND id = ?",
                       (*cols.values(), at, self.guild_id, warband.id))
        self._updated.add(warband.id)
        self.touched.discard(warband.id)
        return with_snapshot(warband, changes, at)

    def touch(self, warband_id: int) -> None:
        """Something of this warband changed: its ``updated_at`` is written when the unit of work ends."""
        if warband_id not in self._updated:
            self.touched.add(warband_id)

    def write_touched(self, at: str) -> None:
        for warband_id in self.touched:
            self.c.execute("UPDATE warbands SET updated_at = ? WHERE guild_id = ? AND id = ?", (at, self.guild_id, warband_id))
        self._updated |= self.touched
        self.touched.clear()

    def put_back(self, warband_id: int, snapshot: Mapping[str, Any], at: str) -> None:
        """Restore the snapshot keys in ``snapshot`` (undo)."""
        cols = warband_columns(snapshot)
        sets = ", ".join(f"{k} = ?" for k in cols)
        self.c.execute(f"UPDATE warbands SET {sets}, updated_at = ? WHERE guild_id = ? AND id = ?",
                       (*cols.values(), at, self.guild_id, warband_id))
        self._updated.add(warband_id)
        self.touched.discard(warband_id)

    def delete(self, warband_id: int) -> None:
        """Delete the warband; its warriors, battles, searches and sequences go with it (ON DELETE CASCADE)."""
        self.c.execute("DELETE FROM warbands WHERE guild_id = ? AND id = ?", (self.guild_id, warband_id))
        self.touched.discard(warband_id)


class OwnedWarbandRepository:
    """One member's own warbands in every server: the only read of warbands that crosses servers.

    Every other query filters on one server. A direct message has no server, and a member may
    want the sheet of a warband of theirs there; so this repository is built for one owner and
    every query filters on that owner instead: it never sees a warband the member does not own,
    and it reads only names, types and servers (the sheet itself is read in its server, through
    that server's unit of work, once the owner is checked again)."""

    def __init__(self, c: Connection, owner_id: int) -> None:
        self.c = c
        self.owner_id = owner_id

    def starting(self, key: str, limit: int) -> list[OwnedWarband]:
        """The owner's warbands whose name key starts with ``key`` (by index), then contain it; by name, then server."""
        sql = "SELECT guild_id, name, warband_type FROM warbands WHERE owner_id = ? AND "
        found = self.c.rows(sql + "name_key >= ? AND name_key < ? ORDER BY name_key, guild_id LIMIT ?",
                            (self.owner_id, key, key + _PREFIX_END, limit))
        if key and len(found) < limit:
            found += self.c.rows(sql + "instr(name_key, ?) > 1 ORDER BY name_key, guild_id LIMIT ?",
                                 (self.owner_id, key, limit - len(found)))
        return [OwnedWarband(*row) for row in found]

    def named(self, name: str) -> list[OwnedWarband]:
        """The owner's warbands called ``name`` (as a name key): one per server at most."""
        rows = self.c.rows("SELECT guild_id, name, warband_type FROM warbands WHERE owner_id = ? AND name_key = ? "
                           "ORDER BY guild_id", (self.owner_id, name_key(name)))
        return [OwnedWarband(*row) for row in rows]

    def every(self, limit: int) -> list[OwnedWarband]:
        """The owner's warbands, at most ``limit`` (for 'did you mean')."""
        rows = self.c.rows("SELECT guild_id, name, warband_type FROM warbands WHERE owner_id = ? "
                           "ORDER BY name_key, guild_id LIMIT ?", (self.owner_id, limit))
        return [OwnedWarband(*row) for row in rows]


# Snapshot keys whose Warband field has another name (the rest share theirs).
_FIELD_OF = {"type": "warband_type", "list": "list_id"}


def with_snapshot(warband: Warband, changes: Mapping[str, Any], at: str) -> Warband:
    """``warband`` with the snapshot keys in ``changes`` applied, as stored at ``at`` (without reading it back)."""
    fields: dict[str, Any] = {_FIELD_OF.get(k, k): v for k, v in changes.items()}
    if "stash" in fields:
        fields["stash"] = tuple(fields["stash"])
    return replace(warband, **fields, updated_at=at)
