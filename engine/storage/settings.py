"""Servers' settings: the ``server_settings`` table's edition and house rules.

The same table's ``campaign_rules`` column belongs to the campaign (engine/campaign/actions/server_tables.py);
a server's first settings row leaves it at its default.
"""

from __future__ import annotations

import json

from engine.server_settings import ServerSettings
from engine.storage.connection import Connection
from engine.storage.stamps import VersionStamps

STAMP = "server_settings"


class ServerSettingsRepository:
    """Every server's edition and house rules, through one transaction's ``Connection``."""

    def __init__(self, c: Connection) -> None:
        self.c = c

    def settings(self, guild_id: int) -> ServerSettings | None:
        """What this server chose, or None if it never chose anything."""
        row = self.c.one("SELECT edition_id, house_rules FROM server_settings WHERE guild_id = ?", (guild_id,))
        if row is None:
            return None
        return ServerSettings(guild_id=guild_id, edition_id=row["edition_id"], house_rules=json.loads(row["house_rules"]))

    def version(self) -> int:
        """The settings' version stamp: every save moves it (engine/kept.py keeps settings behind it)."""
        return VersionStamps(self.c).version(STAMP)

    def save(self, settings: ServerSettings, at: str) -> int:
        """Keep the server's edition and house rules, stamped ``at``; the settings' new version stamp."""
        self.c.execute(
            "INSERT INTO server_settings (guild_id, edition_id, house_rules, updated_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET edition_id = excluded.edition_id, "
            "house_rules = excluded.house_rules, updated_at = excluded.updated_at",
            (settings.guild_id, settings.edition_id, json.dumps(settings.house_rules), at),
        )
        return VersionStamps(self.c).bump(STAMP)
