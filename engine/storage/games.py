"""The ``games`` table (one server's tracked games) and ``game_settings`` (who may mark warriors).

A game's state is the engine's JSON (engine/campaign/rules/game_state.py); ``version`` grows with
every change, so a press drawn at an older version is recognised (engine/campaign/actions/games.py).
Every query filters on the server.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.campaign.game_model import GameRecord, GameStatus
from engine.errors import MordheimError
from engine.storage.connection import Connection

COLUMNS = ("id", "started_by", "channel_id", "message_id", "state_json", "batch_id", "version", "status", "created_at",
           "updated_at")
SELECT = "SELECT " + ", ".join(COLUMNS) + " FROM games"
# A game saved: the status is written only when it changes. It is in the index of a server's games
# (games_guild_status), and SQLite rewrites the index entry of every column the SET names, even to
# the same value: one page more for every mark to write, and to copy back at the next checkpoint.
_SAVE = "UPDATE games SET state_json = ?, {}batch_id = ?, version = version + 1, updated_at = ? " \
        "WHERE guild_id = ? AND id = ? AND version = ?"
KEEP_STATUS = _SAVE.format("")
NEW_STATUS = _SAVE.format("status = ?, ")


def game_from_row(row: Sequence[Any]) -> GameRecord:
    (gid, started_by, channel_id, message_id, state_json, batch_id, version, status, created_at, updated_at) = row
    return GameRecord(id=gid, started_by=started_by, channel_id=channel_id, message_id=message_id, state_json=state_json,
                      batch_id=batch_id, version=version, status=GameStatus(status), created_at=created_at,
                      updated_at=updated_at)


class GameRepository:
    """One server's games, and its choice of who may mark warriors in them."""

    def __init__(self, c: Connection, guild_id: int) -> None:
        self.c = c
        self.guild_id = guild_id

    def get(self, game_id: int) -> GameRecord | None:
        row = self.c.row(f"{SELECT} WHERE guild_id = ? AND id = ?", (self.guild_id, game_id))
        return None if row is None else game_from_row(row)

    def open_ones(self) -> list[GameRecord]:
        """The server's games being played, oldest first."""
        return [game_from_row(r) for r in self.c.rows(f"{SELECT} WHERE guild_id = ? AND status = 'open' ORDER BY id",
                                                       (self.guild_id,))]

    def add(self, *, started_by: int, channel_id: int | None, state_json: str, at: str) -> int:
        return self.c.insert("games", {"guild_id": self.guild_id, "started_by": started_by, "channel_id": channel_id,
                                       "state_json": state_json, "created_at": at, "updated_at": at})

    def save(self, record: GameRecord, *, state_json: str, status: GameStatus, batch_id: int | None, at: str) -> GameRecord:
        """Store the game's new state, one version on, if nobody stored another since ``record``
        was read (the unit of work holds the server's write lock, so nobody can); the record as stored."""
        if status == record.status:  # a mark or a turn: the status, in the server's index of games, is left alone
            changed = self.c.execute(KEEP_STATUS, (state_json, batch_id, at, self.guild_id, record.id, record.version))
        else:
            changed = self.c.execute(NEW_STATUS, (state_json, str(status), batch_id, at, self.guild_id, record.id, record.version))
        if changed != 1:
            raise MordheimError("Someone changed this game at the same moment.", hint="Nothing was changed; press again.")
        return GameRecord(id=record.id, started_by=record.started_by, channel_id=record.channel_id,
                          message_id=record.message_id, state_json=state_json, batch_id=batch_id, version=record.version + 1,
                          status=status, created_at=record.created_at, updated_at=at)

    def place(self, game_id: int, channel_id: int, message_id: int) -> None:
        """Where the game's tracker message now is (the version does not move: nothing of the game changed)."""
        self.c.execute("UPDATE games SET channel_id = ?, message_id = ? WHERE guild_id = ? AND id = ?",
                       (channel_id, message_id, self.guild_id, game_id))

    # ---- the server's setting
    def anyone_marks(self) -> bool:
        """Whether any player of a game may mark any of its warriors (else each warband's owner and Manage Server)."""
        return bool(self.c.scalar("SELECT any_player_marks FROM game_settings WHERE guild_id = ?", (self.guild_id,)))

    def choose_anyone_marks(self, on: bool, at: str) -> None:
        self.c.execute("INSERT INTO game_settings (guild_id, any_player_marks, updated_at) VALUES (?, ?, ?) "
                       "ON CONFLICT (guild_id) DO UPDATE SET any_player_marks = excluded.any_player_marks, "
                       "updated_at = excluded.updated_at", (self.guild_id, int(on), at))
