"""The ``postbattle_sequences`` table: one server's post-battle sequences, at most one open per warband."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.campaign.model import SequenceRecord, SequenceStatus, Step
from engine.storage.connection import Connection
from engine.storage.warriors import in_list

COLUMNS = ("id", "warband_id", "battle_id", "started_by", "step", "state_json", "batch_id", "version", "status",
           "created_at", "updated_at", "message_ref")
SELECT = "SELECT " + ", ".join(COLUMNS) + " FROM postbattle_sequences"


def sequence_from_row(row: Sequence[Any]) -> SequenceRecord:
    (sid, warband_id, battle_id, started_by, step, state_json, batch_id, version, status, created_at, updated_at, message_ref) = row
    return SequenceRecord(id=sid, warband_id=warband_id, battle_id=battle_id, started_by=started_by, step=Step(step),
                          state_json=state_json, batch_id=batch_id, version=version, status=SequenceStatus(status),
                          created_at=created_at, updated_at=updated_at, message_ref=message_ref)


class SequenceRepository:
    """One server's post-battle sequences. Every query filters on the server."""

    def __init__(self, c: Connection, guild_id: int) -> None:
        self.c = c
        self.guild_id = guild_id

    def get(self, sequence_id: int) -> SequenceRecord | None:
        row = self.c.row(f"{SELECT} WHERE guild_id = ? AND id = ?", (self.guild_id, sequence_id))
        return None if row is None else sequence_from_row(row)

    def open_of(self, warband_id: int) -> SequenceRecord | None:
        row = self.c.row(f"{SELECT} WHERE guild_id = ? AND warband_id = ? AND status = 'open'", (self.guild_id, warband_id))
        return None if row is None else sequence_from_row(row)

    def of_warband(self, warband_id: int, status: SequenceStatus, *, before_battle: int | None = None,
                   battle_id: int | None = None) -> list[SequenceRecord]:
        """The warband's sequences with this status, oldest first; only those following a battle
        older than ``before_battle``, or following ``battle_id``, when given."""
        sql = f"{SELECT} WHERE guild_id = ? AND warband_id = ? AND status = ?"
        params: list[Any] = [self.guild_id, warband_id, str(status)]
        if before_battle is not None:
            sql += " AND battle_id < ?"
            params.append(before_battle)
        if battle_id is not None:
            sql += " AND battle_id = ?"
            params.append(battle_id)
        return [sequence_from_row(r) for r in self.c.rows(sql + " ORDER BY id", params)]

    def finished_before(self, warband_id: int, sequence_id: int) -> list[SequenceRecord]:
        """The warband's finished sequences older than its sequence ``sequence_id``, oldest first.
        Found on the (guild, warband, id) index below that id, so the sequence itself is never read:
        its status is stored after its state, the longest text of the table, which SQLite would read
        through to check it (an open sequence is its warband's newest: a warband has one open at most)."""
        sql = f"{SELECT} WHERE guild_id = ? AND warband_id = ? AND id < ? AND status = 'finished' ORDER BY id"
        return [sequence_from_row(r) for r in self.c.rows(sql, (self.guild_id, warband_id, sequence_id))]

    def not_cancelled(self, *, only: Sequence[int] | None = None) -> list[SequenceRecord]:
        """Every sequence of the server (of the warbands ``only``, when given) that was not cancelled."""
        where, params = in_list("warband_id", only)
        return [sequence_from_row(r) for r in self.c.rows(f"{SELECT} WHERE guild_id = ? AND status != 'cancelled'{where}",
                                                           (self.guild_id, *params))]

    def add(self, *, warband_id: int, battle_id: int | None, started_by: int, step: Step, state_json: str, at: str) -> int:
        return self.c.insert("postbattle_sequences", {
            "guild_id": self.guild_id, "warband_id": warband_id, "battle_id": battle_id, "started_by": started_by,
            "step": str(step), "state_json": state_json, "created_at": at, "updated_at": at,
        })

    def save(self, record: SequenceRecord, *, step: Step, state_json: str, batch_id: int | None, status: SequenceStatus,
             at: str) -> SequenceRecord:
        """Store the sequence's new state, one version on; the record as stored."""
        self.c.execute("UPDATE postbattle_sequences SET state_json = ?, step = ?, version = version + 1, batch_id = ?, status = ?, "
                       "updated_at = ? WHERE guild_id = ? AND id = ?",
                       (state_json, str(step), batch_id, str(status), at, self.guild_id, record.id))
        return SequenceRecord(id=record.id, warband_id=record.warband_id, battle_id=record.battle_id, started_by=record.started_by,
                              step=step, state_json=state_json, batch_id=batch_id, version=record.version + 1, status=status,
                              created_at=record.created_at, updated_at=at, message_ref=record.message_ref)

    def bump(self, sequence_id: int, at: str) -> None:
        """One version on, the state unchanged: buttons drawn before (a message replaced) go stale."""
        self.c.execute("UPDATE postbattle_sequences SET version = version + 1, updated_at = ? WHERE guild_id = ? AND id = ?",
                       (at, self.guild_id, sequence_id))

    def shown_at(self, sequence_id: int, message_ref: str) -> None:
        """Where the sequence's message now is ('channel id:message id')."""
        self.c.execute("UPDATE postbattle_sequences SET message_ref = ? WHERE guild_id = ? AND id = ?",
                       (message_ref, self.guild_id, sequence_id))

    def cancel(self, sequence_id: int, at: str) -> None:
        self.c.execute("UPDATE postbattle_sequences SET status = 'cancelled', version = version + 1, updated_at = ? "
                       "WHERE guild_id = ? AND id = ?", (at, self.guild_id, sequence_id))
