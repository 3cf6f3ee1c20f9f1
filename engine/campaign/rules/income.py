"""Income: selling wyrdstone by the income chart (shards sold at once × warband size)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.campaign.rules.tables import IncomeTable
from engine.errors import MordheimError


@dataclass(frozen=True)
class Sale:
    shards: int
    warband_size: int
    gold: int


def sell_wyrdstone(shards: int, held: int, warband_size: int, table: IncomeTable) -> Sale:
    """Sell ``shards`` of the ``held`` ones in one batch; the chart's price already pays the upkeep."""
    if shards < 0:
        raise MordheimError("Shards sold cannot be negative.")
    if shards > held:
        raise MordheimError(f"The warband has {held} shard{'s' if held != 1 else ''}; it cannot sell {shards}.",
                            hint=f"Sell 0 to {held}.")
    return Sale(shards, warband_size, table.gold(shards, warband_size))
