"""The live battle tracker's stored game, as its row holds it (``engine/storage/games.py`` builds it).

Beside ``model.py`` and, like it, importing nothing of the campaign, so storage builds it without
importing anything above itself. What a game holds (its warbands, their warriors' states, whose
turn it is) is the JSON of ``engine/campaign/rules/game_state.py``'s ``GameState``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class GameStatus(StrEnum):
    OPEN = "open"  # being played: its tracker takes presses
    ENDED = "ended"  # over: its battles are recorded
    CANCELLED = "cancelled"  # given up without recording anything


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRecord:
    """A stored game of one server."""

    id: int
    started_by: int
    channel_id: int | None  # where its tracker message is
    message_id: int | None  # the tracker message (None until it is sent)
    state_json: str
    batch_id: int | None  # the ledger batch of the game's record (None until its first row)
    version: int  # grows with every change: a press drawn at an older one is refused or checked
    status: GameStatus
    created_at: str
    updated_at: str
