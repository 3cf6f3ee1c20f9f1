"""Secret rolls' tables: ``secret_rolls`` (each roll kept until revealed) and ``roll_settings``
(the channel a server copies secret rolls to). Every query names the server, so a secret roll
of one server can never be read from another.
"""

from __future__ import annotations

import json
from typing import Any

from engine.rolls.model import SecretRoll, shown_text
from engine.storage.connection import Connection


def _secret(row: dict[str, Any]) -> SecretRoll:
    return SecretRoll(row["id"], row["guild_id"], row["channel_id"], row["member_id"], json.loads(row["shown"]),
                      row["rolled_at"], row["revealed_at"])


class SecretRollRepository:
    """Secret rolls of every server, through one transaction's ``Connection``."""

    def __init__(self, c: Connection) -> None:
        self.c = c

    def keep(self, guild_id: int, channel_id: int, member_id: int, shown: dict[str, Any], rolled_at: str) -> int:
        """Keep a secret roll and what it showed its roller; returns its id. ValueError if what it
        showed is too large to keep (``engine.rolls.model.MAX_SHOWN_BYTES``)."""
        return self.c.insert("secret_rolls", {
            "guild_id": guild_id, "channel_id": channel_id, "member_id": member_id,
            "shown": shown_text(shown), "rolled_at": rolled_at, "revealed_at": None,
        })

    def show_instead(self, guild_id: int, roll_id: int, shown: dict[str, Any]) -> None:
        """What a secret roll shows from now on (its roller re-rolled it)."""
        self.c.execute("UPDATE secret_rolls SET shown = ? WHERE guild_id = ? AND id = ?",
                       (shown_text(shown), guild_id, roll_id))

    def find(self, guild_id: int, roll_id: int) -> SecretRoll | None:
        row = self.c.one("SELECT * FROM secret_rolls WHERE guild_id = ? AND id = ?", (guild_id, roll_id))
        return None if row is None else _secret(row)

    def reveal(self, guild_id: int, roll_id: int, revealed_at: str) -> None:
        """Mark a secret roll revealed, the first time only."""
        self.c.execute("UPDATE secret_rolls SET revealed_at = ? WHERE guild_id = ? AND id = ? AND revealed_at IS NULL",
                       (revealed_at, guild_id, roll_id))

    def secret_channel(self, guild_id: int) -> int | None:
        """The channel this server copies secret rolls to, if it named one."""
        return self.c.scalar("SELECT secret_channel_id FROM roll_settings WHERE guild_id = ?", (guild_id,))

    def choose_secret_channel(self, guild_id: int, channel_id: int | None, at: str) -> None:
        self.c.execute(
            "INSERT INTO roll_settings (guild_id, secret_channel_id, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET secret_channel_id = excluded.secret_channel_id, "
            "updated_at = excluded.updated_at",
            (guild_id, channel_id, at),
        )
