"""The warband names offered while a member types one (autocomplete), kept between keystrokes.

Autocomplete asks at every keystroke, and a server's warband names rarely change between two.
So the names of a server's warbands (all of them, or one owner's: those an ordinary member may
change) are read once and kept in memory, per database, server and owner, under the server's
newest ledger id. Every change to a warband (made, imported, renamed, handed to another member,
deleted, or anything else) writes a ledger row in the same transaction, and the ledger outlives
a deleted warband, so that id moves with every change that could alter the names: the version
the roster sheets are kept under too (actions/sheets.py). Asked again under the same id, the
answer is filtered from memory after one indexed read, cheap enough for the event loop.

Whether a member may change every warband (Manage Server) is not kept: it comes with each
question, as ``owner_id`` None (every warband) or the member's id (their own).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from engine.campaign.model import name_key
from engine.campaign.ports import UnitOfWork

AUTOCOMPLETE_MOST = 25  # Discord shows at most 25 choices
NAMES_KEPT = 1024  # name lists kept: one per server, and one per member who asked for the ones they may change


@dataclass(frozen=True)
class _Names:
    """A server's (or one owner's) warband names with their name keys, in the database's name-key order."""

    keys: tuple[str, ...]
    names: tuple[str, ...]

    def matching(self, key: str, limit: int) -> list[str]:
        """Up to ``limit`` names whose key starts with ``key``, then those containing it further on."""
        found = [name for k, name in zip(self.keys, self.names) if k.startswith(key)][:limit]
        if key and len(found) < limit:
            found += [name for k, name in zip(self.keys, self.names) if k.find(key) > 0][: limit - len(found)]
        return found


_kept: dict[tuple[str, int, int | None], tuple[int | None, _Names]] = {}
_kept_lock = threading.Lock()


def _typed(prefix: str, limit: int) -> tuple[str, int]:
    return name_key(prefix or "")[:64], max(0, limit)


def remembered_names(uow: UnitOfWork, prefix: str, *, owner_id: int | None = None,
                     limit: int = AUTOCOMPLETE_MOST) -> list[str] | None:
    """``names_for_autocomplete``'s answer from memory, or None when nothing is kept for the
    server's newest ledger id (one indexed read: the event loop may ask before it sends the
    reading of the names to a thread)."""
    kept = _kept.get((uow.database, uow.guild_id, owner_id))
    if kept is None or kept[0] != uow.ledger.newest():
        return None
    return kept[1].matching(*_typed(prefix, limit))


def names_for_autocomplete(uow: UnitOfWork, prefix: str, *, owner_id: int | None = None,
                           limit: int = AUTOCOMPLETE_MOST) -> list[str]:
    """Up to ``limit`` warband names of the server starting with ``prefix``, then
    containing it; only ``owner_id``'s when given. The command must still re-check the name it receives."""
    where = (uow.database, uow.guild_id, owner_id)
    version = uow.ledger.newest()  # before the names: were the two reads not one snapshot, the names are the newer
    kept = _kept.get(where)
    if kept is None or kept[0] != version:
        pairs = uow.warbands.name_keys(owner_id)
        kept = (version, _Names(tuple(k for k, _ in pairs), tuple(n for _, n in pairs)))
        with _kept_lock:
            _kept.pop(where, None)  # kept again as the newest
            _kept[where] = kept
            while len(_kept) > NAMES_KEPT:
                _kept.pop(next(iter(_kept)))  # the one kept longest ago
    return kept[1].matching(*_typed(prefix, limit))
