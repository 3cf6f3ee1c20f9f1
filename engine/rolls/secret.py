"""Secret rolls: kept until revealed, so a Reveal button works after a restart; and the channel
where a server wants them copied for its Manage Server members.

What is kept (``shown``) is whatever the bot showed the roller, as JSON: Reveal shows exactly
that, whoever presses it and whenever. Every read names the server, so a secret roll of one
server can never be revealed from another.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.errors import NotFoundError, PermissionDenied
from engine.storage.ledger import ledger_batch
from engine.storage.store import Store

MAX_SHOWN_BYTES = 64_000  # a Discord message with embeds is far smaller; this is a backstop


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


@dataclass(frozen=True)
class SecretRoll:
    id: int
    guild_id: int
    channel_id: int
    member_id: int
    shown: dict[str, Any]
    rolled_at: str
    revealed_at: str | None

    @property
    def revealed(self) -> bool:
        return self.revealed_at is not None


class SecretRolls:
    def __init__(self, store: Store, *, now: Callable[[], dt.datetime] = _utc_now) -> None:
        self.store = store
        self._now = now

    def _stamp(self) -> str:
        return self._now().isoformat(timespec="seconds")

    def keep(self, guild_id: int, channel_id: int, member_id: int, shown: dict[str, Any]) -> int:
        """Store a secret roll; returns its id (what the Reveal button carries)."""
        text = _shown_text(shown)
        with self.store.write() as c:
            return c.insert("secret_rolls", {
                "guild_id": guild_id, "channel_id": channel_id, "member_id": member_id,
                "shown": text, "rolled_at": self._stamp(), "revealed_at": None,
            })

    def update(self, guild_id: int, roll_id: int, shown: dict[str, Any]) -> None:
        """What a secret roll shows after the roller re-rolled it (still secret until revealed)."""
        text = _shown_text(shown)
        with self.store.write() as c:
            c.execute("UPDATE secret_rolls SET shown = ? WHERE guild_id = ? AND id = ?", (text, guild_id, roll_id))

    def get(self, guild_id: int, roll_id: int) -> SecretRoll:
        """The secret roll ``roll_id`` of this server; NotFoundError if this server has none such."""
        with self.store.read() as c:
            row = c.one("SELECT * FROM secret_rolls WHERE guild_id = ? AND id = ?", (guild_id, roll_id))
        if row is None:
            raise NotFoundError("This secret roll is not kept any more.", hint="Roll again if you need it.")
        return _secret(row)

    def reveal(self, guild_id: int, roll_id: int, member_id: int) -> SecretRoll:
        """The roller reveals their roll to the table: marked revealed (the first time) and returned."""
        secret = self.get(guild_id, roll_id)
        if secret.member_id != member_id:
            raise PermissionDenied(f"Only <@{secret.member_id}> made this secret roll, so only they can reveal it.")
        if secret.revealed:
            return secret
        with self.store.write() as c:
            c.execute("UPDATE secret_rolls SET revealed_at = ? WHERE guild_id = ? AND id = ? AND revealed_at IS NULL",
                      (self._stamp(), guild_id, roll_id))
        return self.get(guild_id, roll_id)

    # -- where secret rolls are copied ------------------------------------------------------

    def channel(self, guild_id: int) -> int | None:
        """The channel this server copies secret rolls to, if it named one."""
        with self.store.read() as c:
            return c.scalar("SELECT secret_channel_id FROM roll_settings WHERE guild_id = ?", (guild_id,))

    def set_channel(self, guild_id: int, actor_id: int, is_admin: bool, channel_id: int | None) -> int | None:
        """Name the channel for secret rolls (None: no channel; Reveal still works). Manage Server only;
        the change is written to the ledger like every other server setting."""
        if not is_admin:
            raise PermissionDenied("Only members with Manage Server can choose where secret rolls go.")
        with ledger_batch(self.store, guild_id=guild_id, member_id=actor_id, at=self._stamp()) as b:
            before = b.c.scalar("SELECT secret_channel_id FROM roll_settings WHERE guild_id = ?", (guild_id,))
            b.c.execute(
                "INSERT INTO roll_settings (guild_id, secret_channel_id, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET secret_channel_id = excluded.secret_channel_id, "
                "updated_at = excluded.updated_at",
                (guild_id, channel_id, b.at),
            )
            if before != channel_id:
                b.record(warband_id=None, warband_name="", what="settings.secret_channel", entity="settings",
                         entity_id=None, before={"secret_channel_id": before}, after={"secret_channel_id": channel_id})
        return channel_id


def _shown_text(shown: dict[str, Any]) -> str:
    """What a secret roll shows, as the JSON kept; ValueError past ``MAX_SHOWN_BYTES``."""
    text = json.dumps(shown, ensure_ascii=False, separators=(",", ":"))
    if len(text.encode()) > MAX_SHOWN_BYTES:
        raise ValueError("a secret roll's message is too large to keep")
    return text


def _secret(row: dict[str, Any]) -> SecretRoll:
    return SecretRoll(row["id"], row["guild_id"], row["channel_id"], row["member_id"], json.loads(row["shown"]),
                      row["rolled_at"], row["revealed_at"])
