"""How answers are shown: as embeds (the default) or as plain text.

Plain text is for screen readers and for players who prefer it. A server may choose it for
everyone (members with Manage Server); a member may choose for themselves, and a member's
own choice wins wherever they use the bot, in every server and in direct messages (it is
about how they read, not about a campaign). A server's change is kept in the ledger like
every other server setting.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import PermissionDenied
from engine.storage.ledger import ledger_batch
from engine.storage.store import Store


@dataclass(frozen=True)
class ReplyStyle:
    """Whether answers come as plain text, and where that choice comes from."""

    plain_text: bool
    member_choice: bool | None  # None: the member has not chosen, the server's choice applies
    server_choice: bool | None  # None: the server has not chosen (or a direct message)


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


class Preferences:
    def __init__(self, store: Store, *, now: Callable[[], dt.datetime] = _utc_now) -> None:
        self.store = store
        self._now = now

    def _stamp(self) -> str:
        return self._now().isoformat(timespec="seconds")

    def reply_style(self, guild_id: int | None, user_id: int) -> ReplyStyle:
        """The style for one member in one server (``guild_id`` None in direct messages).
        One indexed read of two small tables: cheap enough to ask on every interaction."""
        with self.store.read() as c:
            row = c.one(
                "SELECT (SELECT plain_text FROM member_preferences WHERE user_id = ?) AS member, "
                "(SELECT plain_text FROM server_preferences WHERE guild_id = ?) AS server",
                (user_id, guild_id),
            )
        member = None if row["member"] is None else bool(row["member"])
        server = None if row["server"] is None else bool(row["server"])
        return ReplyStyle(plain_text=member if member is not None else bool(server), member_choice=member, server_choice=server)

    def set_member_plain_text(self, user_id: int, plain_text: bool | None) -> None:
        """A member's own choice; None goes back to following the server."""
        with self.store.write() as c:
            if plain_text is None:
                c.execute("DELETE FROM member_preferences WHERE user_id = ?", (user_id,))
            else:
                c.execute(
                    "INSERT INTO member_preferences (user_id, plain_text, updated_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (user_id) DO UPDATE SET plain_text = excluded.plain_text, updated_at = excluded.updated_at",
                    (user_id, int(plain_text), self._stamp()),
                )

    def set_server_plain_text(self, guild_id: int, actor_id: int, is_admin: bool, plain_text: bool) -> None:
        """The server's choice for every member who has not chosen for themselves."""
        if not is_admin:
            raise PermissionDenied("Only members with Manage Server can change how this server's answers are shown.")
        at = self._stamp()
        with ledger_batch(self.store, guild_id=guild_id, member_id=actor_id, at=at) as b:
            before = b.c.scalar("SELECT plain_text FROM server_preferences WHERE guild_id = ?", (guild_id,))
            b.c.execute(
                "INSERT INTO server_preferences (guild_id, plain_text, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET plain_text = excluded.plain_text, updated_at = excluded.updated_at",
                (guild_id, int(plain_text), at),
            )
            b.record(warband_id=None, warband_name="", what="settings.plain_text", entity="settings",
                     entity_id=None, before={"plain_text": bool(before)}, after={"plain_text": plain_text})
