"""The stored ``name_key`` columns recomputed when ``name_key`` changes, and the names that then clash settled.

Names are unique by ``name_key``: a warband's in its server, a warrior's in his warband. When
``name_key`` learns that two names look the same (``Al<U+200B>pha`` and ``Alpha``, full-width
``Ａｌｐｈａ`` and ``ALPHA``), the keys stored before say otherwise, and two rows may now hold one
key. The older row (the smaller id) keeps its name; each later one is renamed by appending
`` (2)``, `` (3)``... (the first number whose name is free), shortened first if that would pass
the 64-character limit. Only rows whose key or name changes are written, and nothing else is:
no ledger row, no ``updated_at``. A migration of each dialect runs it once (schema.py 0016,
schema_postgres.py 0006).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from engine.campaign.model import NAME_MAX, name_key

# (table, the column a name is unique within)
NAMED_TABLES = (("warbands", "guild_id"), ("warriors", "warband_id"))


class Rekeyed(NamedTuple):
    id: int
    name: str
    key: str


def settle(rows: Iterable[tuple[int, int, str, str]]) -> list[Rekeyed]:
    """The rows ``(id, scope, name, stored key)`` whose name or key must change: each row's key
    recomputed, and each row whose new key an older row of its scope holds renamed."""
    ordered = sorted(rows)
    fresh = [(rid, scope, name, stored, name_key(name)) for rid, scope, name, stored in ordered]
    taken: dict[Any, set[str]] = {}
    clashing = []
    for row in fresh:
        keys = taken.setdefault(row[1], set())
        if row[4] in keys:
            clashing.append(row)
        else:
            keys.add(row[4])
    renamed: dict[int, tuple[str, str]] = {}
    for rid, scope, name, _stored, _key in clashing:
        keys = taken[scope]
        n = 2
        while True:
            suffix = f" ({n})"
            candidate = name[: NAME_MAX - len(suffix)].rstrip() + suffix
            key = name_key(candidate)
            if key not in keys:
                break
            n += 1
        keys.add(key)
        renamed[rid] = (candidate, key)
    out = []
    for rid, _scope, name, stored, key in fresh:
        new_name, new_key = renamed.get(rid, (name, key))
        if new_name != name or new_key != stored:
            out.append(Rekeyed(rid, new_name, new_key))
    return out


def rekey_names(conn: Any, mark: str = "?") -> dict[str, list[Rekeyed]]:
    """Recompute ``name_key`` of every warband and warrior on a DB-API connection inside a migration's
    transaction (``mark``: the driver's placeholder, ``?`` for sqlite3, ``%s`` for psycopg). Returns
    what changed, by table."""
    changed: dict[str, list[Rekeyed]] = {}
    for table, scope in NAMED_TABLES:
        rows = conn.execute(f"SELECT id, {scope}, name, name_key FROM {table}").fetchall()
        todo = settle(rows)
        if not todo:
            continue
        cursor = conn.cursor()
        # every changing key out of the way first, so that no update meets a key another row
        # still holds under the unique index; a control character is in no name
        cursor.executemany(f"UPDATE {table} SET name_key = {mark} WHERE id = {mark}", [(f"\x01{r.id}", r.id) for r in todo])
        cursor.executemany(f"UPDATE {table} SET name = {mark}, name_key = {mark} WHERE id = {mark}",
                           [(r.name, r.key, r.id) for r in todo])
        changed[table] = todo
    return changed
