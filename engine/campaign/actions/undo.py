"""The warband ledger: one row per change, with before and after, who, when and why.

A row's ``before``/``after`` are JSON: the whole thing for a creation (before NULL) or a
deletion (after NULL), only the changed fields for an update. Rows are written in batches,
one per member action (engine/storage/ledger.py). Undo takes back the newest batch not yet
undone as a whole: its rows newest first, each restoring ``before``, each undo a ledger row
of a new batch pointing at the row it undoes.
"""

from __future__ import annotations

import json
from typing import Any

from engine.errors import MordheimError
from engine.storage.ledger import LedgerBatch
from engine.storage.store import Connection
from engine.campaign.model import LedgerEntry, warband_columns, warrior_columns

NOT_UNDOABLE = ("warband.create", "warband.import", "warband.delete")
# Records of dice already rolled (a rare-item search): shown in the log, passed over by undo,
# so undo can never buy a second roll.
PASSED_OVER_BY_UNDO = ("trade.search",)
TREASURY = ("gold_crowns", "wyrdstone_shards")
TABLES = {"warband": "warbands", "warrior": "warriors", "battle": "battles", "search": "rare_item_searches"}


def diff(before: dict[str, Any], after: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Only the fields that changed, on both sides."""
    keys = [k for k in after if before.get(k) != after[k]]
    return {k: before.get(k) for k in keys}, {k: after[k] for k in keys}


def _entry(row: dict[str, Any], undone: bool) -> LedgerEntry:
    return LedgerEntry(
        id=row["id"],
        warband=row["warband_name"],
        what=row["what"],
        before=None if row["before_json"] is None else json.loads(row["before_json"]),
        after=None if row["after_json"] is None else json.loads(row["after_json"]),
        reason=row["reason"],
        member_id=row["member_id"],
        created_at=row["created_at"],
        undoes_id=row["undoes_id"],
        undone=undone,
        batch_id=row["batch_id"],
    )


def entries(c: Connection, guild_id: int, warband_id: int, limit: int) -> list[LedgerEntry]:
    rows = c.all(
        "SELECT l.*, EXISTS (SELECT 1 FROM ledger u WHERE u.undoes_id = l.id) AS undone FROM ledger l "
        "WHERE l.guild_id = ? AND l.warband_id = ? ORDER BY l.id DESC LIMIT ?",
        (guild_id, warband_id, limit),
    )
    return [_entry(r, bool(r["undone"])) for r in rows]


def treasury_totals(c: Connection, guild_id: int, warband_id: int) -> tuple[int, int]:
    """Gold and wyrdstone as the sum of every ledger row's change (creation counts from 0)."""
    totals = [0, 0]
    for row in c.all(
        "SELECT before_json, after_json FROM ledger WHERE guild_id = ? AND warband_id = ? AND entity = 'warband'",
        (guild_id, warband_id),
    ):
        before = json.loads(row["before_json"]) if row["before_json"] else {}
        after = json.loads(row["after_json"]) if row["after_json"] else {}
        for n, key in enumerate(TREASURY):
            totals[n] += int(after.get(key, 0) or 0) - int(before.get(key, 0) or 0)
    return totals[0], totals[1]


def last_undoable_batch(c: Connection, guild_id: int, warband_id: int) -> list[LedgerEntry]:
    """The rows of the newest batch not yet undone (newest row first); empty when none is left."""
    passed_over = ", ".join("?" for _ in PASSED_OVER_BY_UNDO)
    newest = c.one(
        "SELECT * FROM ledger l WHERE l.guild_id = ? AND l.warband_id = ? AND l.undoes_id IS NULL "
        f"AND l.what NOT IN ({passed_over}) "
        "AND NOT EXISTS (SELECT 1 FROM ledger u WHERE u.undoes_id = l.id) ORDER BY l.id DESC LIMIT 1",
        (guild_id, warband_id, *PASSED_OVER_BY_UNDO),
    )
    if newest is None:
        return []
    if newest["batch_id"] is None:  # written without a batch (bulk loads): a batch of one
        return [_entry(newest, False)]
    rows = c.all(
        "SELECT * FROM ledger l WHERE l.guild_id = ? AND l.warband_id = ? AND l.id >= ? AND l.batch_id = ? "
        f"AND l.undoes_id IS NULL AND l.what NOT IN ({passed_over}) "
        "AND NOT EXISTS (SELECT 1 FROM ledger u WHERE u.undoes_id = l.id) ORDER BY l.id DESC",
        (guild_id, warband_id, newest["batch_id"], newest["batch_id"], *PASSED_OVER_BY_UNDO),
    )
    return [_entry(r, False) for r in rows]


def undo_batch(batch: LedgerBatch, warband_id: int, entries: list[LedgerEntry], *, current_snapshot) -> list[int]:
    """Revert ``entries`` (one batch, newest first) inside ``batch``; each undo is a ledger row
    of ``batch`` pointing at the row it undoes. Returns the new rows' ids.

    Refuses the whole batch (MordheimError, nothing written: the caller's transaction rolls
    back) when any row cannot be undone.
    """
    blocked = [e for e in entries if e.what in NOT_UNDOABLE]
    if blocked:
        e = blocked[0]
        raise MordheimError(
            f"The last change to this warband is `{e.what}` (#{e.id}), which cannot be undone.",
            hint="There is nothing earlier to undo; delete the warband if you want it gone.",
        )
    written = []
    for entry in entries:
        target = batch.c.one("SELECT entity, entity_id FROM ledger WHERE id = ?", (entry.id,))
        revert(batch.c, batch.guild_id, warband_id, entry, at=batch.at, current_snapshot=current_snapshot)
        name = batch.c.scalar("SELECT name FROM warbands WHERE guild_id = ? AND id = ?", (batch.guild_id, warband_id))
        written.append(batch.record(
            warband_id=warband_id, warband_name=name, what=f"undo {entry.what}", entity=target["entity"],
            entity_id=target["entity_id"], before=entry.after, after=entry.before, reason=f"undo of #{entry.id}",
            undoes_id=entry.id,
        ))
    return written


def _current_matches(current: dict[str, Any], expected: dict[str, Any]) -> bool:
    return all(current.get(k) == v for k, v in expected.items())


def revert(c: Connection, guild_id: int, warband_id: int, entry: LedgerEntry, *, at: str, current_snapshot) -> None:
    """Put back ``entry.before``. ``current_snapshot(entity, id)`` returns the entity's snapshot now.

    Refuses (MordheimError) when the data no longer matches ``entry.after``, which happens
    only if something changed the database outside the service.
    """
    if entry.what in NOT_UNDOABLE:
        raise MordheimError(
            f"The last change to this warband is `{entry.what}` (#{entry.id}), which cannot be undone.",
            hint="There is nothing earlier to undo; delete the warband if you want it gone.",
        )
    row = c.one("SELECT entity, entity_id FROM ledger WHERE id = ? AND guild_id = ?", (entry.id, guild_id))
    entity, entity_id = row["entity"], row["entity_id"]
    table = TABLES[entity]
    stale = MordheimError(
        f"Change #{entry.id} cannot be undone: the {entity} no longer looks as that change left it.",
        hint="Make the correction by hand instead.",
    )
    if entry.before is None:  # it was created: remove it
        if c.one(f"SELECT 1 FROM {table} WHERE id = ? AND guild_id = ?", (entity_id, guild_id)) is None:
            raise stale
        c.execute(f"DELETE FROM {table} WHERE id = ? AND guild_id = ?", (entity_id, guild_id))
        return
    if entry.after is None:  # it was removed: put it back under its old id
        if entity == "warrior":
            cols = warrior_columns(entry.before)
        elif entity == "battle":
            cols = dict(entry.before)
        else:
            raise stale
        cols.update(id=entity_id, guild_id=guild_id, warband_id=warband_id, created_at=at)
        if entity == "warrior":
            cols["updated_at"] = at
        c.insert(table, cols)
        return
    current = current_snapshot(entity, entity_id)
    if current is None or not _current_matches(current, entry.after):
        raise stale
    if entity == "search":  # a found rare item bought (or its purchase undone)
        c.execute("UPDATE rare_item_searches SET bought = ? WHERE id = ? AND guild_id = ?",
                  (int(bool(entry.before["bought"])), entity_id, guild_id))
        return
    cols = warband_columns(entry.before) if entity == "warband" else warrior_columns(entry.before)
    cols["updated_at"] = at
    sets = ", ".join(f"{k} = ?" for k in cols)
    c.execute(f"UPDATE {table} SET {sets} WHERE id = ? AND guild_id = ?", (*cols.values(), entity_id, guild_id))
