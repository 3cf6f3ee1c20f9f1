"""Reply styles: ``member_preferences`` (a member's own choice, wherever they are) and
``server_preferences`` (a server's choice for members who have not chosen). Every change bumps
the ``reply_style`` version stamp in the same transaction (``engine.storage.stamps``), so the
processes that keep reply styles in memory know to read them again.
"""

from __future__ import annotations

from engine.storage.stamps import VersionStamps
from engine.storage.connection import Connection

REPLY_STYLE = "reply_style"  # the version stamp of both tables


def _choice(value: int | None) -> bool | None:
    return None if value is None else bool(value)


class PreferenceRepository:
    """Members' and servers' reply styles, through one transaction's ``Connection``.

    A choice is True (plain text), False (embeds) or None (not chosen)."""

    def __init__(self, c: Connection) -> None:
        self.c = c

    def version(self) -> int:
        """The reply-style stamp: it changes with every change of any member's or server's choice."""
        return VersionStamps(self.c).version(REPLY_STYLE)

    def choices(self, user_id: int, guild_id: int | None) -> tuple[bool | None, bool | None]:
        """The member's own choice and the server's (None in direct messages), in one read."""
        row = self.c.one(
            "SELECT (SELECT plain_text FROM member_preferences WHERE user_id = ?) AS member, "
            "(SELECT plain_text FROM server_preferences WHERE guild_id = ?) AS server",
            (user_id, guild_id),
        )
        return (None, None) if row is None else (_choice(row["member"]), _choice(row["server"]))

    def server_choice(self, guild_id: int) -> bool | None:
        return _choice(self.c.scalar("SELECT plain_text FROM server_preferences WHERE guild_id = ?", (guild_id,)))

    def choose_for_member(self, user_id: int, plain_text: bool | None, at: str) -> int:
        """A member's own choice (None: back to following the server). Returns the new stamp."""
        if plain_text is None:
            self.c.execute("DELETE FROM member_preferences WHERE user_id = ?", (user_id,))
        else:
            self.c.execute(
                "INSERT INTO member_preferences (user_id, plain_text, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET plain_text = excluded.plain_text, updated_at = excluded.updated_at",
                (user_id, int(plain_text), at),
            )
        return VersionStamps(self.c).bump(REPLY_STYLE)

    def choose_for_server(self, guild_id: int, plain_text: bool, at: str) -> int:
        """The server's choice for members who have not chosen. Returns the new stamp."""
        self.c.execute(
            "INSERT INTO server_preferences (guild_id, plain_text, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET plain_text = excluded.plain_text, updated_at = excluded.updated_at",
            (guild_id, int(plain_text), at),
        )
        return VersionStamps(self.c).bump(REPLY_STYLE)
