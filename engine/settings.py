"""Each server's settings: the edition it plays by and its house-rule toggles.

Anyone may read them; only members with Manage Server (``is_admin``) may change them. Every
change is written with a ledger row (warband id NULL) in the same transaction, like every
warband change, so it can be shown and so cached views know it happened.

They are read by every roll and fight, and change rarely, so they are kept in memory behind a
version stamp (engine/kept.py): a change here is seen at once, another process's within a second.
Which campaign tables and warband lists a server uses belongs with the campaign
(engine/campaign/actions/server_tables.py); this module imports nothing of it.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Callable, Mapping

from engine.editions import get_edition
from engine.errors import LimitExceeded, MordheimError, PermissionDenied
from engine.kept import KeptByStamp
from engine.server_settings import ServerSettings
from engine.storage.ledger import LedgerRepository, ledger_batch
from engine.storage.settings import ServerSettingsRepository
from engine.storage.connection import Connection
from engine.storage.store import Store

MAX_HOUSE_RULES = 50
_TOGGLE_NAME = re.compile(r"^[a-z0-9_]{1,40}$")


def _admin_only(is_admin: bool, what: str) -> None:
    if not is_admin:
        raise PermissionDenied(f"Only members with Manage Server can {what}.")


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


class Settings:
    """Every server's settings, kept in one ``Store``."""

    def __init__(self, store: Store, *, now: Callable[[], dt.datetime] = _utc_now,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self._now = now
        self._kept: KeptByStamp[int, ServerSettings] = KeptByStamp(self._version, clock=clock)

    def _stamp(self) -> str:
        return self._now().isoformat(timespec="seconds")

    def _version(self) -> int:
        with self.store.read() as c:
            return ServerSettingsRepository(c).version()

    def get(self, guild_id: int) -> ServerSettings:
        """The server's settings, from memory (read once, and again after any change)."""
        def read() -> tuple[int, ServerSettings]:
            with self.store.read() as c:
                return ServerSettingsRepository(c).version(), self._settings(c, guild_id)

        return self._kept.get(guild_id, read)

    def _settings(self, c: Connection, guild_id: int) -> ServerSettings:
        """What the server chose, or the default edition and no house rules."""
        chosen = ServerSettingsRepository(c).settings(guild_id)
        return chosen if chosen is not None else ServerSettings(guild_id=guild_id, edition_id=get_edition(None).id)

    def _save_settings(self, b: LedgerRepository, old: ServerSettings, new: ServerSettings, what: str) -> int:
        version = ServerSettingsRepository(b.c).save(new, b.at)
        old_public = {"edition_id": old.edition_id, "house_rules": old.house_rules}
        new_public = {"edition_id": new.edition_id, "house_rules": new.house_rules}
        keys = [k for k in new_public if old_public[k] != new_public[k]]
        b.record(warband_id=None, warband_name="", what=what, entity="settings", entity_id=None,
                 before={k: old_public[k] for k in keys}, after={k: new_public[k] for k in keys})
        return version

    def set_edition(self, guild_id: int, actor_id: int, is_admin: bool, edition_id: str) -> ServerSettings:
        """Choose the server's edition (an id or name from rules_data/editions.json)."""
        _admin_only(is_admin, "choose the server's edition")
        edition = get_edition(edition_id)
        with ledger_batch(self.store, guild_id=guild_id, member_id=actor_id, at=self._stamp()) as b:
            old = self._settings(b.c, guild_id)
            new = ServerSettings(guild_id=guild_id, edition_id=edition.id, house_rules=old.house_rules)
            version = self._save_settings(b, old, new, "settings.edition")
        self._kept.wrote(version, guild_id, new)
        return new

    def set_house_rules(
        self, guild_id: int, actor_id: int, is_admin: bool, toggles: Mapping[str, bool], *, replace: bool = False
    ) -> ServerSettings:
        """Turn house rules on or off; merged into the current ones unless ``replace``."""
        _admin_only(is_admin, "change house rules")
        if not isinstance(toggles, Mapping):
            raise MordheimError("House rules must map a rule name to on/off.")
        problems = [
            f"`{str(k)[:40]}` is not a house-rule name (lower-case letters, digits, _; up to 40)."
            for k in toggles if not isinstance(k, str) or not _TOGGLE_NAME.match(k)
        ] + [f"`{str(k)[:40]}` must be on or off (true/false)." for k, v in toggles.items() if not isinstance(v, bool)]
        if problems:
            raise MordheimError("The house rules were not saved:\n" + "\n".join(f"- {p}" for p in problems))
        with ledger_batch(self.store, guild_id=guild_id, member_id=actor_id, at=self._stamp()) as b:
            old = self._settings(b.c, guild_id)
            merged = dict(toggles) if replace else {**old.house_rules, **toggles}
            if len(merged) > MAX_HOUSE_RULES:
                raise LimitExceeded(f"A server may set at most {MAX_HOUSE_RULES} house rules; this makes {len(merged)}.")
            new = ServerSettings(guild_id=guild_id, edition_id=old.edition_id, house_rules=dict(sorted(merged.items())))
            version = self._save_settings(b, old, new, "settings.house_rules")
        self._kept.wrote(version, guild_id, new)
        return new
