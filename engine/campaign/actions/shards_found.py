"""The shards of wyrdstone each warband found in the campaign, as the standings and an export count them.

Two parts: what its post-battle sequences found (those not undone), and what it had found
before it was imported here (kept in its import's ledger row, so a warband moved between
servers keeps its count).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.campaign.actions.postbattle import found_by_warband
from engine.campaign.ports import UnitOfWork


def shards_found(uow: UnitOfWork, *, only: Sequence[int] | None = None) -> dict[int, int]:
    """Shards found by each warband of the server (of the warbands ``only``, when given); none: absent."""
    found = found_by_warband(uow, only=only)
    for warband_id, shards in uow.ledger.imported_shards_found(only=only).items():
        found[warband_id] = found.get(warband_id, 0) + shards
    return found
