"""Version stamps: one number per kind of rarely changed data that processes keep in memory.

Every write of such data bumps its stamp in the same transaction (the repository that writes
it does so); a process that remembers the data also remembers the stamp it read it under, and
compares it now and then: a different number means another process changed something, and
what is remembered is read again. Stamps only grow.
"""

from __future__ import annotations

from engine.storage.connection import Connection


class VersionStamps:
    def __init__(self, c: Connection) -> None:
        self.c = c

    def version(self, name: str) -> int:
        """The stamp of ``name`` (0 if it was never bumped)."""
        return self.c.scalar("SELECT version FROM version_stamps WHERE name = ?", (name,)) or 0

    def bump(self, name: str) -> int:
        """Add one to the stamp of ``name`` (inside a write); returns the new version."""
        self.c.execute(
            "INSERT INTO version_stamps (name, version) VALUES (?, 1) "
            "ON CONFLICT (name) DO UPDATE SET version = version_stamps.version + 1",
            (name,),
        )
        return self.version(name)
