"""The ``captives`` table: warriors held by another warband (serious injury 61) and their fate."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.campaign.model import CaptiveRecord
from engine.storage.connection import Connection

COLUMNS = ("id", "warband_id", "warrior_id", "captor_id", "battle_id", "batch_id", "ransom", "outcome", "created_at")
SELECT = "SELECT " + ", ".join(COLUMNS) + " FROM captives"


def captive_from_row(row: Sequence[Any]) -> CaptiveRecord:
    (cid, warband_id, warrior_id, captor_id, battle_id, batch_id, ransom, outcome, created_at) = row
    return CaptiveRecord(id=cid, warband_id=warband_id, warrior_id=warrior_id, captor_id=captor_id, battle_id=battle_id,
                         batch_id=batch_id, ransom=ransom, outcome=outcome, created_at=created_at)


class CaptiveRepository:
    """One server's captives. Every query filters on the server."""

    def __init__(self, c: Connection, guild_id: int) -> None:
        self.c = c
        self.guild_id = guild_id

    def get(self, captive_id: int) -> CaptiveRecord | None:
        row = self.c.row(f"{SELECT} WHERE guild_id = ? AND id = ?", (self.guild_id, captive_id))
        return None if row is None else captive_from_row(row)

    def of_warband(self, warband_id: int) -> list[CaptiveRecord]:
        """The warband's own warriors ever captured, oldest first."""
        return [captive_from_row(r) for r in self.c.rows(f"{SELECT} WHERE guild_id = ? AND warband_id = ? ORDER BY id",
                                                         (self.guild_id, warband_id))]

    def held_by(self, captor_id: int) -> list[CaptiveRecord]:
        """Every warrior the warband ``captor_id`` ever captured, oldest first."""
        return [captive_from_row(r) for r in self.c.rows(f"{SELECT} WHERE guild_id = ? AND captor_id = ? ORDER BY id",
                                                         (self.guild_id, captor_id))]

    def add(self, *, warband_id: int, warrior_id: int, captor_id: int | None, battle_id: int | None, batch_id: int | None,
            at: str) -> int:
        return self.c.insert("captives", {
            "guild_id": self.guild_id, "warband_id": warband_id, "warrior_id": warrior_id, "captor_id": captor_id,
            "battle_id": battle_id, "batch_id": batch_id, "created_at": at, "updated_at": at,
        })

    def set_ransom(self, captive_id: int, ransom: int | None, at: str) -> None:
        self.c.execute("UPDATE captives SET ransom = ?, updated_at = ? WHERE guild_id = ? AND id = ?",
                       (ransom, at, self.guild_id, captive_id))

    def set_captor(self, captive_id: int, captor_id: int, at: str) -> None:
        self.c.execute("UPDATE captives SET captor_id = ?, updated_at = ? WHERE guild_id = ? AND id = ?",
                       (captor_id, at, self.guild_id, captive_id))

    def settle(self, captive_id: int, outcome: str, at: str) -> None:
        self.c.execute("UPDATE captives SET outcome = ?, updated_at = ? WHERE guild_id = ? AND id = ?",
                       (outcome, at, self.guild_id, captive_id))
