"""The ``battles`` table: one server's battles, one row per warband that fought (two for a battle
between two of the server's warbands, both carrying the first row's id as ``pair_id``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.campaign.model import Battle, BattleResult
from engine.storage.connection import Connection
from engine.storage.warriors import in_list

COLUMNS = ("id", "warband_id", "fought_on", "scenario", "opponents", "result", "notes", "recorded_by",
           "opponent_warband_id", "pair_id", "scenario_id", "rating", "opponent_rating")
SELECT = "SELECT " + ", ".join(COLUMNS) + " FROM battles"
NEWEST_FIRST = "ORDER BY fought_on DESC, id DESC"


def battle_from_row(row: Sequence[Any], warband: str) -> Battle:
    (bid, warband_id, fought_on, scenario, opponents, result, notes, recorded_by, opponent_id, pair_id, scenario_id, rating,
     opponent_rating) = row
    return Battle(id=bid, warband=warband, warband_id=warband_id, fought_on=fought_on, scenario=scenario, opponents=opponents,
                  result=BattleResult(result), notes=notes, recorded_by=recorded_by, opponent_warband_id=opponent_id,
                  pair_id=pair_id, scenario_id=scenario_id, rating=rating, opponent_rating=opponent_rating)


@dataclass(frozen=True)
class LoggedBattle:
    """A row of the server's battle log: the battle with its warband's name and the opponent's."""

    battle: Battle
    opponent_name: str | None  # the other warband of the server, when it still exists


class BattleRepository:
    """One server's battles. Every query filters on the server."""

    def __init__(self, c: Connection, guild_id: int) -> None:
        self.c = c
        self.guild_id = guild_id

    def of_warband(self, warband_id: int, warband: str, limit: int | None = None) -> list[Battle]:
        """Newest first; every one when ``limit`` is None."""
        sql = f"{SELECT} WHERE guild_id = ? AND warband_id = ? {NEWEST_FIRST}"
        params: list[Any] = [self.guild_id, warband_id]
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [battle_from_row(r, warband) for r in self.c.rows(sql, params)]

    def in_order(self, warband_id: int, warband: str) -> list[Battle]:
        """The warband's battles in the order they were recorded."""
        rows = self.c.rows(f"{SELECT} WHERE guild_id = ? AND warband_id = ? ORDER BY id", (self.guild_id, warband_id))
        return [battle_from_row(r, warband) for r in rows]

    def get(self, battle_id: int, warband: str = "") -> Battle | None:
        row = self.c.row(f"{SELECT} WHERE guild_id = ? AND id = ?", (self.guild_id, battle_id))
        return None if row is None else battle_from_row(row, warband)

    def count(self, warband_id: int) -> int:
        return int(self.c.scalar("SELECT count(*) FROM battles WHERE guild_id = ? AND warband_id = ?", (self.guild_id, warband_id)))

    def count_between(self, warband_id: int, after_id: int, before_id: int) -> int:
        """The warband's battles recorded after battle ``after_id`` and before ``before_id``."""
        return int(self.c.scalar("SELECT count(*) FROM battles WHERE guild_id = ? AND warband_id = ? AND id > ? AND id < ?",
                                 (self.guild_id, warband_id, after_id, before_id)))

    def record_of(self, warband_id: int) -> dict[str, int]:
        """Wins, draws and losses of one warband."""
        record = {str(r): 0 for r in BattleResult}
        for result, n in self.c.rows("SELECT result, count(*) FROM battles WHERE guild_id = ? AND warband_id = ? GROUP BY result",
                                     (self.guild_id, warband_id)):
            record[result] = n
        return record

    def records(self, *, only: Sequence[int] | None = None) -> dict[int, dict[str, int]]:
        """Wins, draws and losses of every warband of the server that fought (of the warbands ``only``, when given)."""
        out: dict[int, dict[str, int]] = {}
        where, params = in_list("warband_id", only)
        for warband_id, result, n in self.c.rows(
                f"SELECT warband_id, result, count(*) FROM battles WHERE guild_id = ?{where} GROUP BY warband_id, result",
                (self.guild_id, *params)):
            out.setdefault(warband_id, {str(r): 0 for r in BattleResult})[result] = n
        return out

    def log(self, limit: int) -> list[LoggedBattle]:
        """The server's battles, newest first, a battle recorded on both sides once."""
        rows = self.c.rows(
            "SELECT w.name, o.name, " + ", ".join(f"b.{c}" for c in COLUMNS) + " FROM battles b "
            "JOIN warbands w ON w.id = b.warband_id AND w.guild_id = b.guild_id "
            "LEFT JOIN warbands o ON o.id = b.opponent_warband_id AND o.guild_id = b.guild_id "
            "WHERE b.guild_id = ? AND (b.pair_id IS NULL OR b.pair_id = b.id "
            "  OR NOT EXISTS (SELECT 1 FROM battles f WHERE f.id = b.pair_id AND f.guild_id = b.guild_id)) "
            "ORDER BY b.fought_on DESC, b.id DESC LIMIT ?", (self.guild_id, limit))
        return [LoggedBattle(battle=battle_from_row(r[2:], r[0]), opponent_name=r[1]) for r in rows]

    def add(self, warband_id: int, battle: Mapping[str, Any], *, recorded_by: int, at: str,
            opponent_warband_id: int | None = None, pair_id: int | None = None, battle_id: int | None = None) -> int:
        """Store a battle (a ``Battle.snapshot()``, with its ``scenario_id``, ``rating`` and
        ``opponent_rating`` when known); ``battle_id`` puts one back under the id it had."""
        row = {"guild_id": self.guild_id, "warband_id": warband_id, **battle, "recorded_by": recorded_by, "created_at": at,
               "opponent_warband_id": opponent_warband_id, "pair_id": pair_id}
        if battle_id is not None:
            row["id"] = battle_id
        return self.c.insert("battles", row)

    def set_pair(self, battle_id: int, pair_id: int) -> None:
        self.c.execute("UPDATE battles SET pair_id = ? WHERE guild_id = ? AND id = ?", (pair_id, self.guild_id, battle_id))

    def sides_of(self, pair_id: int) -> list[int]:
        """The warbands whose rows carry ``pair_id``: every side of one battle recorded on several
        warbands (two by ``/battle record opponent:``, every side of a ``/game``), in the order recorded."""
        return [r[0] for r in self.c.rows("SELECT warband_id FROM battles WHERE guild_id = ? AND pair_id = ? ORDER BY id",
                                          (self.guild_id, pair_id))]

    def delete(self, battle_id: int) -> None:
        self.c.execute("DELETE FROM battles WHERE guild_id = ? AND id = ?", (self.guild_id, battle_id))
