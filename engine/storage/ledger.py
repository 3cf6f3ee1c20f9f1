"""Writing the ledger: one member's action is one batch of ledger rows in one write transaction.

Every change to a server's data (a warband, a warrior, a battle, the server's settings) is
written together with a ledger row saying what changed, before and after, who and why. One
thing a member does can change several rows — hiring a fighter adds a warrior *and* takes
the cost from the treasury; a post-battle sequence changes many warriors — so ledger rows
are grouped in batches: every row a batch writes carries the batch's id, and undo takes a
whole batch back.

Use it as::

    with ledger_batch(store, guild_id=g, member_id=m, at=stamp) as batch:
        ...change rows through batch.c...
        batch.record(warband_id=..., warband_name=..., what="warrior.hire", entity="warrior",
                     entity_id=..., before=None, after=snapshot, reason="hired")

The block is one ``BEGIN IMMEDIATE`` transaction (``Store.write``): what it reads cannot
change under it, and everything it writes, ledger rows included, commits together or not at
all. ``engine.warbands.Campaigns.batch`` opens one with the service's clock.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from engine.storage.store import Connection, Store


@dataclass
class LedgerBatch:
    """The ledger rows of one action, inside the write transaction ``c``.

    ``id`` is the batch id: the id of the batch's first ledger row (None until one is written).
    Ids grow, so a newer batch always has a larger id.
    """

    c: Connection
    guild_id: int
    member_id: int
    at: str  # the time every row of the batch is stamped with
    id: int | None = None

    def record(
        self,
        *,
        warband_id: int | None,
        warband_name: str,
        what: str,
        entity: str,
        entity_id: int | None,
        before: Any,
        after: Any,
        reason: str = "",
        undoes_id: int | None = None,
    ) -> int:
        """Write one ledger row of this batch; returns its id.

        ``before``/``after`` are JSON-ready: the whole entity for a creation (before None) or a
        deletion (after None), only the changed fields for an update. ``warband_id`` is None for
        a server setting.
        """
        row_id = self.c.insert(
            "ledger",
            {
                "guild_id": self.guild_id,
                "warband_id": warband_id,
                "warband_name": warband_name,
                "what": what,
                "entity": entity,
                "entity_id": entity_id,
                "before_json": None if before is None else json.dumps(before, ensure_ascii=False),
                "after_json": None if after is None else json.dumps(after, ensure_ascii=False),
                "reason": reason,
                "member_id": self.member_id,
                "created_at": self.at,
                "undoes_id": undoes_id,
                "batch_id": self.id,
            },
        )
        if self.id is None:  # the first row names the batch
            self.id = row_id
            self.c.execute("UPDATE ledger SET batch_id = ? WHERE id = ?", (row_id, row_id))
        return row_id


@contextmanager
def ledger_batch(store: Store, *, guild_id: int, member_id: int, at: str) -> Iterator[LedgerBatch]:
    """One write transaction whose ledger rows form one batch (see the module docstring)."""
    with store.write() as c:
        yield LedgerBatch(c=c, guild_id=guild_id, member_id=member_id, at=at)
