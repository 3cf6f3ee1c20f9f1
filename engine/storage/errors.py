"""Storage's own refusals, which the bot turns into one clear line (at start) or a private "try again"."""

from __future__ import annotations


class StorageUnavailable(Exception):
    """The database cannot be used at all; the message is one line saying why (shown at start-up)."""


class DatabaseBusy(Exception):
    """The database could not be reached for this action (a pool timed out, a connection broke).
    Nothing was written: every action is one transaction. The member is asked to try again."""


def check_not_newer(applied: set[str], known: set[str], *, where: str) -> None:
    """StorageUnavailable when the database holds migrations this version of the bot does not know:
    it was written by a newer bot, and an older one must not write to it."""
    unknown = sorted(applied - known)
    if unknown:
        raise StorageUnavailable(
            f"The {where} was written by a newer version of the bot (it has migration {', '.join(unknown[:3])}, "
            "which this version does not know). Upgrade the bot, or point MORDHEIM_DB at another database."
        )
