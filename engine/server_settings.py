"""A server's settings as the engine sees them: the edition it plays by and its house rules.

The type ``engine.settings`` (the verbs) and ``engine.storage.settings`` (the table) share;
it imports nothing of storage, so storage builds it without importing anything above itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ServerSettings:
    guild_id: int
    edition_id: str
    house_rules: dict[str, bool] = field(default_factory=dict)
