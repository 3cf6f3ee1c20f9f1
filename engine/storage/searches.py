"""The ``rare_item_searches`` table: heroes' searches for rare items, kept so a found item can be
bought later (after a restart too) and each hero searches once per battle."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.campaign.model import Offer, SearchRecord
from engine.storage.connection import Connection

COLUMNS = ("id", "warband_id", "warrior_id", "searcher", "item_id", "item_name", "rarity", "roll", "modifier", "total",
           "found", "price", "price_roll", "battles", "bought", "created_at")


def search_from_row(row: Sequence[Any]) -> SearchRecord:
    (sid, warband_id, warrior_id, searcher, item_id, item_name, rarity, roll, modifier, total, found, price, price_roll,
     battles, bought, created_at) = row
    return SearchRecord(id=sid, warband_id=warband_id, warrior_id=warrior_id, searcher=searcher, item_id=item_id,
                        item_name=item_name, rarity=rarity, roll=roll, modifier=modifier, total=total, found=bool(found),
                        price=price, price_roll=price_roll, battles=battles, bought=bool(bought), created_at=created_at)


class SearchRepository:
    """One server's rare-item searches. Every query filters on the server."""

    def __init__(self, c: Connection, guild_id: int) -> None:
        self.c = c
        self.guild_id = guild_id

    def open_offers(self, warband_id: int, battles: int, item_id: str | None = None) -> list[Offer]:
        """Found items not yet bought from searches made after the warband's ``battles``-th battle; cheapest first."""
        sql = ("SELECT id, item_name, item_id, price, searcher, price_roll FROM rare_item_searches WHERE guild_id = ? "
               "AND warband_id = ? AND found = 1 AND bought = 0 AND battles = ?")
        params: list[Any] = [self.guild_id, warband_id, battles]
        if item_id is not None:
            sql += " AND item_id = ?"
            params.append(item_id)
        return [Offer(id=r[0], item=r[1], item_id=r[2], price=r[3], searcher=r[4], price_roll=r[5])
                for r in self.c.rows(sql + " ORDER BY price, id", params)]

    def searched(self, warband_id: int, battles: int) -> dict[int, str]:
        """Warrior id -> the item he searched for after the warband's ``battles``-th battle."""
        return dict(self.c.rows("SELECT warrior_id, item_name FROM rare_item_searches WHERE guild_id = ? AND warband_id = ? "
                                "AND battles = ? AND warrior_id IS NOT NULL", (self.guild_id, warband_id, battles)))

    def bought(self, search_id: int) -> bool | None:
        """Whether the search's find was bought; None when there is no such search."""
        value = self.c.scalar("SELECT bought FROM rare_item_searches WHERE guild_id = ? AND id = ?", (self.guild_id, search_id))
        return None if value is None else bool(value)

    def set_bought(self, search_id: int, bought: bool) -> None:
        self.c.execute("UPDATE rare_item_searches SET bought = ? WHERE guild_id = ? AND id = ?", (int(bought), self.guild_id, search_id))

    def add(self, *, warband_id: int, warrior_id: int, searcher: str, item_id: str, item_name: str, rarity: int, roll: str,
            modifier: int, total: int, found: bool, price: int | None, price_roll: str, battles: int, at: str) -> int:
        return self.c.insert("rare_item_searches", {
            "guild_id": self.guild_id, "warband_id": warband_id, "warrior_id": warrior_id, "searcher": searcher,
            "item_id": item_id, "item_name": item_name, "rarity": rarity, "roll": roll, "modifier": modifier, "total": total,
            "found": int(found), "price": price, "price_roll": price_roll, "battles": battles, "created_at": at,
        })
