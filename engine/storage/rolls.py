"""The roll record's tables: ``rolls`` (every roll), ``roll_stats`` (each member's running sums,
what /luck reads) and ``roll_optouts`` (members who asked not to be recorded).

Every query names the server. The SQL is the common ground of SQLite and PostgreSQL
(``ON CONFLICT ... DO``, ``COALESCE(SUM(x), 0)``, columns of the row being updated named
with their table).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

from engine.rolls.luck import FACES, MemberLuck
from engine.rolls.model import HistoryRow, RollEntry, RollTally
from engine.storage.connection import Connection

_LUCK_FIELDS = tuple(f.name for f in fields(MemberLuck) if f.init and f.name != "faces")  # a column each
_STAT_COLUMNS = (
    "guild_id", "member_id", "member_name", "rolls", "d6", *(f"d6_{f}" for f in FACES),
    "other_dice", "other_sum", "other_expected", "other_variance",
    "tests", "tests_passed", "tests_expected", "tests_variance",
    "injuries", "injuries_knocked_down", "injuries_stunned", "injuries_out_of_action",
    "injuries_expected_out", "injuries_variance_out", "first_at", "last_at",
)
_BOARD_COLUMNS = "member_id, member_name, rolls, " + ", ".join(f"d6_{f}" for f in FACES)
_SUMMED = [c for c in _STAT_COLUMNS if c not in ("guild_id", "member_id", "member_name", "first_at", "last_at")]
_ADD_TO_STATS = (
    f"INSERT INTO roll_stats ({', '.join(_STAT_COLUMNS)}) VALUES ({', '.join('?' for _ in _STAT_COLUMNS)}) "
    "ON CONFLICT (guild_id, member_id) DO UPDATE SET member_name = excluded.member_name, "
    + ", ".join(f"{c} = roll_stats.{c} + excluded.{c}" for c in _SUMMED)
    + ", last_at = excluded.last_at"
)
_INSERT_ROLL = (
    "INSERT INTO rolls (guild_id, member_id, kind, what, result, dice, rerolled, visibility, rolled_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _roll_row(e: RollEntry) -> tuple[Any, ...]:
    f = e.facts
    # the dice as JSON [[sides, face], ...], written out by hand: json.dumps is the slow part here
    dice = "[" + ",".join(f"[{sides},{face}]" for sides, face in f.dice) + "]"
    return (e.guild_id, e.member_id, f.kind, f.what[:200], f.result[:200], dice, int(f.rerolled), e.visibility,
            e.rolled_at)


def _stats_row(guild_id: int, member_id: int, t: RollTally) -> tuple[Any, ...]:
    return (
        guild_id, member_id, t.name, t.rolls, sum(t.faces), *t.faces,
        t.other_dice, t.other_sum, t.other_expected, t.other_variance,
        t.tests, t.tests_passed, t.tests_expected, t.tests_variance,
        t.injuries, *t.injury_results, t.injuries_expected_out, t.injuries_variance_out,
        t.first_at, t.last_at,
    )


def _luck(row: dict[str, Any]) -> MemberLuck:
    """A ``roll_stats`` row, whole or only some of its columns (the rest stay at zero)."""
    faces = (row["d6_1"], row["d6_2"], row["d6_3"], row["d6_4"], row["d6_5"], row["d6_6"])
    return MemberLuck(faces=faces, **{k: row[k] for k in _LUCK_FIELDS if k in row})


class RollRepository:
    """The roll record of every server, through one transaction's ``Connection``."""

    def __init__(self, c: Connection) -> None:
        self.c = c

    # -- recording -----------------------------------------------------------------------

    def record(self, entries: Sequence[RollEntry], tallies: Mapping[tuple[int, int], RollTally]) -> None:
        """Write a batch of rolls, and add each member's tally (by server and member) to their sums."""
        self.c.executemany(_INSERT_ROLL, [_roll_row(e) for e in entries])
        self.c.executemany(_ADD_TO_STATS, [_stats_row(g, m, t) for (g, m), t in tallies.items()])

    def forget_member(self, guild_id: int, member_id: int) -> int:
        """Delete a member's recorded rolls here and their sums; returns how many rolls were deleted."""
        deleted = self.c.execute("DELETE FROM rolls WHERE guild_id = ? AND member_id = ?", (guild_id, member_id))
        self.c.execute("DELETE FROM roll_stats WHERE guild_id = ? AND member_id = ?", (guild_id, member_id))
        return deleted

    # -- opting out ----------------------------------------------------------------------

    def opted_out(self, guild_id: int) -> set[int]:
        """The members of this server whose rolls are not recorded."""
        return set(self.c.column("SELECT member_id FROM roll_optouts WHERE guild_id = ?", (guild_id,)))

    def opt_out(self, guild_id: int, member_id: int, since: str) -> None:
        """Stop recording this member here (nothing changes if they had opted out already)."""
        self.c.execute(
            "INSERT INTO roll_optouts (guild_id, member_id, since) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, member_id) DO NOTHING",
            (guild_id, member_id, since),
        )

    def opt_in(self, guild_id: int, member_id: int) -> bool:
        """Record this member here again; False if they had not opted out."""
        return bool(self.c.execute("DELETE FROM roll_optouts WHERE guild_id = ? AND member_id = ?", (guild_id, member_id)))

    # -- reading -------------------------------------------------------------------------

    def luck(self, guild_id: int, member_id: int) -> MemberLuck | None:
        """One member's whole record here, or None if nothing of theirs is recorded."""
        row = self.c.one("SELECT * FROM roll_stats WHERE guild_id = ? AND member_id = ?", (guild_id, member_id))
        return None if row is None else _luck(row)

    def luck_board(self, guild_id: int, limit: int) -> list[MemberLuck]:
        """The members with the most rolls first, with their D6 faces only (what the board shows)."""
        rows = self.c.all(
            f"SELECT {_BOARD_COLUMNS} FROM roll_stats WHERE guild_id = ? ORDER BY rolls DESC, member_id LIMIT ?",
            (guild_id, limit),
        )
        return [_luck({**r, "guild_id": guild_id}) for r in rows]

    def server_totals(self, guild_id: int) -> dict[str, int]:
        """How many members have a record here, and their rolls and D6es."""
        row = self.c.one(
            "SELECT COUNT(*) AS members, COALESCE(SUM(rolls), 0) AS rolls, COALESCE(SUM(d6), 0) AS d6 "
            "FROM roll_stats WHERE guild_id = ?", (guild_id,)
        )
        return {k: int(v) for k, v in (row or {}).items()}

    def history(self, guild_id: int, member_id: int | None, limit: int) -> list[HistoryRow]:
        """The newest rolls of this server (or of one member of it), newest first."""
        where, params = "guild_id = ?", [guild_id]
        if member_id is not None:
            where += " AND member_id = ?"
            params.append(member_id)
        rows = self.c.all(
            f"SELECT id, member_id, kind, what, result, rerolled, visibility, rolled_at FROM rolls "
            f"WHERE {where} ORDER BY id DESC LIMIT ?", (*params, limit)
        )
        return [HistoryRow(r["id"], r["member_id"], r["kind"], r["what"], r["result"], bool(r["rerolled"]),
                           r["visibility"], r["rolled_at"]) for r in rows]
