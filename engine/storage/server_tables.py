"""A server's campaign tables and warband lists as stored: its override of the bundled campaign
tables (``server_settings.campaign_rules``), the grades of lists it does not play
(``server_settings.grades_off``) and its own warband lists (``house_lists``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine.storage.connection import Connection


@dataclass(frozen=True)
class StoredHouseList:
    list_id: str
    name: str
    data: str  # the list's JSON, as the server sent it


class ServerTablesRepository:
    """One server's campaign-table override and house lists."""

    def __init__(self, c: Connection, guild_id: int) -> None:
        self.c = c
        self.guild_id = guild_id

    def house_lists(self) -> tuple[StoredHouseList, ...]:
        return tuple(StoredHouseList(*r) for r in self.c.rows(
            "SELECT list_id, name, data FROM house_lists WHERE guild_id = ? ORDER BY list_id", (self.guild_id,)))

    def campaign_override(self) -> dict[str, Any]:
        """The server's override of rules_data/campaign ({} = none)."""
        raw = self.c.scalar("SELECT campaign_rules FROM server_settings WHERE guild_id = ?", (self.guild_id,))
        return json.loads(raw) if raw else {}

    def set_campaign_override(self, override: dict[str, Any], at: str) -> None:
        self.c.execute(
            "INSERT INTO server_settings (guild_id, campaign_rules, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET campaign_rules = excluded.campaign_rules, updated_at = excluded.updated_at",
            (self.guild_id, json.dumps(override), at),
        )

    def grades_off(self) -> tuple[str, ...]:
        """The grades of warband lists and hired swords the server does not play (() = it plays every grade)."""
        raw = self.c.scalar("SELECT grades_off FROM server_settings WHERE guild_id = ?", (self.guild_id,))
        return tuple(json.loads(raw)) if raw else ()

    def set_grades_off(self, grades: tuple[str, ...], at: str) -> None:
        self.c.execute(
            "INSERT INTO server_settings (guild_id, grades_off, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET grades_off = excluded.grades_off, updated_at = excluded.updated_at",
            (self.guild_id, json.dumps(sorted(grades)), at),
        )

    def put_house_list(self, *, list_id: str, name: str, data: str, added_by: int, at: str) -> None:
        """Add the server's list ``list_id``, or replace it."""
        self.c.execute(
            "INSERT INTO house_lists (guild_id, list_id, name, data, added_by, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, list_id) DO UPDATE SET name = excluded.name, data = excluded.data, "
            "added_by = excluded.added_by, updated_at = excluded.updated_at",
            (self.guild_id, list_id, name, data, added_by, at),
        )

    def remove_house_list(self, list_id: str) -> None:
        self.c.execute("DELETE FROM house_lists WHERE guild_id = ? AND list_id = ?", (self.guild_id, list_id))
