"""The ``warriors`` table: one server's warriors, and the one place a row becomes a ``Warrior``.

A warrior's list fields (equipment, skills, injuries, skill lists, special rules, hand edits)
are JSON lists in text columns; most are empty, stored as ``[]`` and read without the JSON
parser. A row read before gives back the same frozen ``Warrior`` (a roster rebuilt after one
change re-reads only what changed).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from engine.campaign.model import Profile, Role, Status, Warrior, name_key
from engine.storage.connection import Connection

# The columns a Warrior is built from, in the order ``warrior_from_row`` reads them.
COLUMNS = ("id", "warband_id", "name", "role", "warrior_type", "group_size", "m", "ws", "bs", "s", "t", "w", "i", "a", "ld",
           "equipment", "skills", "injuries", "experience", "status", "large", "fighter_type", "race", "skill_lists",
           "special_rules", "hand_edits")
SELECT = "SELECT " + ", ".join(COLUMNS) + " FROM warriors"
PROFILE_COLUMNS = {"M": "m", "WS": "ws", "BS": "bs", "S": "s", "T": "t", "W": "w", "I": "i", "A": "a", "Ld": "ld"}
LIST_FIELDS = ("equipment", "skills", "injuries", "skill_lists", "special_rules", "hand_edits")
# leader, heroes, then henchmen and hired swords; by id within each
ROSTER_ORDER = "ORDER BY CASE role WHEN 'leader' THEN 0 WHEN 'hero' THEN 1 ELSE 2 END, id"
_ROLES = {r.value: r for r in Role}
_STATUSES = {s.value: s for s in Status}
_KEPT = 4096
_made: dict[tuple[Any, ...], Warrior] = {}


def in_list(column: str, ids: Sequence[int] | None) -> tuple[str, list[int]]:
    """`` AND column IN (?, ...)`` and its parameters for ``ids``; nothing for None (every row)."""
    if ids is None:
        return "", []
    if not ids:
        return " AND 0 = 1", []
    return f" AND {column} IN ({', '.join('?' for _ in ids)})", list(ids)


def _names(text: str) -> tuple[str, ...]:
    return () if text == "[]" else tuple(json.loads(text))


def _text(names: Iterable[str]) -> str:
    names = list(names)
    return json.dumps(names) if names else "[]"


@lru_cache(maxsize=4096)
def _profile(m: int, ws: int, bs: int, s: int, t: int, w: int, i: int, a: int, ld: int) -> Profile:
    """The profile of these characteristics, checked once: warriors share a few dozen profiles,
    and a roster read after its rows changed (or were forgotten) builds every warrior again."""
    return Profile(M=m, WS=ws, BS=bs, S=s, T=t, W=w, I=i, A=a, Ld=ld)


def warrior_from_row(row: Sequence[Any], warband: str) -> Warrior:
    """The warrior a row of ``COLUMNS`` describes (the same object for a row read before)."""
    key = (warband, *row)
    made = _made.get(key)
    if made is not None:
        return made
    (wid, _warband_id, name, role, warrior_type, group_size, m, ws, bs, s, t, w, i, a, ld, equipment, skills, injuries,
     experience, status, large, fighter_type, race, skill_lists, special_rules, hand_edits) = row
    made = Warrior(
        id=wid, warband=warband, name=name, role=_ROLES[role], warrior_type=warrior_type, group_size=group_size,
        profile=_profile(m, ws, bs, s, t, w, i, a, ld),
        equipment=_names(equipment), skills=_names(skills), injuries=_names(injuries), experience=experience,
        status=_STATUSES[status], large=bool(large), fighter_type=fighter_type, race=race,
        skill_lists=_names(skill_lists), special_rules=_names(special_rules), hand_edits=_names(hand_edits),
    )
    if len(_made) >= _KEPT:
        _made.clear()
    _made[key] = made
    return made


def warrior_columns(snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """Table columns for the keys present in a (possibly partial) warrior snapshot (``Warrior.snapshot()``)."""
    out: dict[str, Any] = {}
    for key, value in snapshot.items():
        if key == "name":
            out["name"] = value
            out["name_key"] = name_key(value)
        elif key == "type":
            out["warrior_type"] = value
        elif key == "profile":
            out.update({PROFILE_COLUMNS[c]: v for c, v in value.items()})
        elif key in LIST_FIELDS:
            out[key] = _text(value)
        elif key == "large":
            out["large"] = int(bool(value))
        elif key in ("role", "status"):
            out[key] = str(value)
        else:
            out[key] = value
    return out


class WarriorRepository:
    """One server's warriors. Every query filters on the server."""

    def __init__(self, c: Connection, guild_id: int) -> None:
        self.c = c
        self.guild_id = guild_id

    # ---- reading
    def of_warband(self, warband_id: int, warband: str) -> tuple[Warrior, ...]:
        """Every warrior of the warband, dead and retired too: leader, heroes, then everyone else."""
        rows = self.c.rows(f"{SELECT} WHERE guild_id = ? AND warband_id = ? {ROSTER_ORDER}", (self.guild_id, warband_id))
        return tuple(warrior_from_row(r, warband) for r in rows)

    def named(self, warband_id: int, warband: str, name: str) -> Warrior | None:
        row = self.c.row(f"{SELECT} WHERE guild_id = ? AND warband_id = ? AND name_key = ?",
                         (self.guild_id, warband_id, name_key(name)))
        return None if row is None else warrior_from_row(row, warband)

    def get(self, warrior_id: int, warband: str = "") -> Warrior | None:
        row = self.c.row(f"{SELECT} WHERE guild_id = ? AND id = ?", (self.guild_id, warrior_id))
        return None if row is None else warrior_from_row(row, warband)

    def names(self, warband_id: int) -> list[str]:
        return self.c.column("SELECT name FROM warriors WHERE guild_id = ? AND warband_id = ?", (self.guild_id, warband_id))

    def active_by_warband(self, warband_names: Mapping[int, str], *, only: Sequence[int] | None = None) -> dict[int, list[Warrior]]:
        """Every active warrior of the server (of the warbands ``only``, when given), by warband id."""
        out: dict[int, list[Warrior]] = {}
        where, params = in_list("warband_id", only)
        for row in self.c.rows(f"{SELECT} WHERE guild_id = ? AND status = 'active'{where} ORDER BY id", (self.guild_id, *params)):
            out.setdefault(row[1], []).append(warrior_from_row(row, warband_names.get(row[1], "")))
        return out

    def called(self, name: str, limit: int) -> list[tuple[str, Warrior]]:
        """(warband name, warrior) for every warrior of the server with this name, by warband name."""
        rows = self.c.rows(
            "SELECT b.name, " + ", ".join(f"w.{c}" for c in COLUMNS) + " FROM warriors w "
            "JOIN warbands b ON b.id = w.warband_id AND b.guild_id = w.guild_id "
            "WHERE w.guild_id = ? AND w.name_key = ? ORDER BY b.name_key LIMIT ?",
            (self.guild_id, name_key(name), limit),
        )
        return [(r[0], warrior_from_row(r[1:], r[0])) for r in rows]

    def paths(self, limit: int) -> list[str]:
        """``Warband/Warrior`` for the server's warriors (for suggestions)."""
        return self.c.column("SELECT b.name || '/' || w.name FROM warriors w JOIN warbands b ON b.id = w.warband_id "
                             "AND b.guild_id = w.guild_id WHERE w.guild_id = ? LIMIT ?", (self.guild_id, limit))

    def names_matching(self, warband_id: int, key: str, limit: int) -> list[str]:
        """Warrior names of the warband containing ``key`` (a name key), those starting with it first."""
        return self.c.column(
            "SELECT name FROM warriors WHERE guild_id = ? AND warband_id = ? AND instr(name_key, ?) > 0 "
            "ORDER BY instr(name_key, ?) != 1, name_key LIMIT ?",
            (self.guild_id, warband_id, key, key, limit),
        )

    def paths_matching(self, warband_key: str | None, warrior_key: str, limit: int) -> list[str]:
        """``Warband/Warrior`` paths whose warrior part contains ``warrior_key`` and, when
        ``warband_key`` is given, whose warband part contains it; else whose warrior or warband
        name contains ``warrior_key``. Names starting with it come first."""
        if warband_key is not None:
            return self.c.column(
                "SELECT b.name || '/' || w.name FROM warriors w JOIN warbands b ON b.id = w.warband_id AND b.guild_id = w.guild_id "
                "WHERE w.guild_id = ? AND instr(w.name_key, ?) > 0 AND instr(b.name_key, ?) > 0 "
                "ORDER BY instr(w.name_key, ?) != 1, b.name_key, w.name_key LIMIT ?",
                (self.guild_id, warrior_key, warband_key, warrior_key, limit),
            )
        return self.c.column(
            "SELECT b.name || '/' || w.name FROM warriors w JOIN warbands b ON b.id = w.warband_id AND b.guild_id = w.guild_id "
            "WHERE w.guild_id = ? AND (instr(w.name_key, ?) > 0 OR instr(b.name_key, ?) > 0) "
            "ORDER BY instr(w.name_key, ?) != 1, instr(b.name_key, ?) != 1, b.name_key, w.name_key LIMIT ?",
            (self.guild_id, warrior_key, warrior_key, warrior_key, warrior_key, limit),
        )

    # ---- writing
    def add(self, warband_id: int, snapshot: Mapping[str, Any], at: str, *, warrior_id: int | None = None) -> int:
        """Store a new warrior (``warrior_id``: put one back under the id it had); its id."""
        row = {"guild_id": self.guild_id, "warband_id": warband_id, **warrior_columns(snapshot), "created_at": at, "updated_at": at}
        if warrior_id is not None:
            row["id"] = warrior_id
        return self.c.insert("warriors", row)

    def update(self, warrior_id: int, changes: Mapping[str, Any], at: str) -> None:
        """Write the snapshot keys in ``changes`` (only what changed) to one warrior."""
        self.update_many([(warrior_id, changes)], at)

    def update_many(self, changes: Sequence[tuple[int, Mapping[str, Any]]], at: str) -> None:
        """Write several warriors' changes: one statement for each set of columns that change together."""
        by_columns: dict[tuple[str, ...], list[list[Any]]] = {}
        for warrior_id, change in changes:
            cols = warrior_columns(change)
            if cols:
                by_columns.setdefault(tuple(cols), []).append([*cols.values(), at, self.guild_id, warrior_id])
        for names, rows in by_columns.items():
            sets = ", ".join(f"{name} = ?" for name in names)
            sql = f"UPDATE warriors SET {sets}, updated_at = ? WHERE guild_id = ? AND id = ?"
            if len(rows) == 1:
                self.c.execute(sql, rows[0])
            else:
                self.c.executemany(sql, rows)

    def delete(self, warrior_id: int) -> None:
        self.c.execute("DELETE FROM warriors WHERE guild_id = ? AND id = ?", (self.guild_id, warrior_id))
