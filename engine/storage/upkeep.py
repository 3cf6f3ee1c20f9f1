"""The ``upkeep_paid`` table: each hired sword's upkeep paid for each battle he fought."""

from __future__ import annotations

from engine.campaign.model import UpkeepRecord
from engine.storage.connection import Connection


class UpkeepRepository:
    """One server's upkeep payments. Every query filters on the server."""

    def __init__(self, c: Connection, guild_id: int) -> None:
        self.c = c
        self.guild_id = guild_id

    def paid(self, warband_id: int, battle_id: int) -> list[UpkeepRecord]:
        """Every payment recorded for the warband's battle ``battle_id`` (undone ones included: the caller asks the ledger)."""
        rows = self.c.rows("SELECT warrior_id, battle_id, gold, batch_id FROM upkeep_paid WHERE guild_id = ? AND warband_id = ? "
                           "AND battle_id = ? ORDER BY id", (self.guild_id, warband_id, battle_id))
        return [UpkeepRecord(warrior_id=r[0], battle_id=r[1], gold=r[2], batch_id=r[3]) for r in rows]

    def add(self, *, warband_id: int, battle_id: int, warrior_id: int, gold: int, batch_id: int | None, at: str) -> None:
        self.c.insert("upkeep_paid", {"guild_id": self.guild_id, "warband_id": warband_id, "battle_id": battle_id,
                                      "warrior_id": warrior_id, "gold": gold, "batch_id": batch_id, "paid_at": at})
