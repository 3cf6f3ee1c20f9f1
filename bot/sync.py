"""Syncing slash-command definitions with Discord without hitting its rate limits.

Discord rate-limits command registration, so the bot syncs on start only when the
definitions changed since the last sync, compared by a hash stored beside the database.
With ``DISCORD_GUILD_ID`` set, commands go to that one server (instant) instead of globally.
What is hashed is exactly what is sent: every command but the console-only ``/echo``
(``bot/command_scope.py``), with its contexts and install types.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

from discord import app_commands

from bot.command_scope import synced_commands

log = logging.getLogger("mordheim.sync")


def command_definitions(tree: app_commands.CommandTree) -> list[dict]:
    """The JSON Discord receives: every global command it is told about, sorted by name."""
    return sorted((cmd.to_dict(tree) for cmd in synced_commands(tree)), key=lambda d: d["name"])


def definitions_hash(tree: app_commands.CommandTree) -> str:
    return _hash(command_definitions(tree))


def _hash(definitions: list[dict]) -> str:
    blob = json.dumps(definitions, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


class SyncRecord:
    """The last synced hash per scope (``global`` or a guild id), kept in a small JSON file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, str]:
        try:
            return json.loads(self.path.read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            return {}

    def get(self, scope: str) -> str | None:
        return self._read().get(scope)

    def set(self, scope: str, value: str) -> None:
        data = self._read()
        data[scope] = value
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        tmp.replace(self.path)


async def sync_commands(
    tree: app_commands.CommandTree, record: SyncRecord, *, guild_id: int | None, force: bool
) -> bool:
    """Sync if forced or if the definitions changed; returns whether a sync happened."""
    scope = str(guild_id) if guild_id else "global"
    definitions = command_definitions(tree)
    current = _hash(definitions)
    if not force and record.get(scope) == current:
        log.info("Commands unchanged since the last sync (%s); not syncing.", scope)
        return False
    # Discord's bulk overwrite, as CommandTree.sync does it, but with our definitions: the
    # tree's own sync would also send /echo.
    http, application_id = tree.client.http, tree.client.application_id
    if guild_id:
        synced = await http.bulk_upsert_guild_commands(application_id, guild_id, payload=definitions)
    else:
        synced = await http.bulk_upsert_global_commands(application_id, payload=definitions)
    record.set(scope, current)
    log.info("Synced %d commands (%s).", len(synced), scope)
    return True
