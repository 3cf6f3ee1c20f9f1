"""Secret rolls: kept until revealed, so a Reveal button works after a restart; and the channel
where a server wants them copied for its Manage Server members.

What is kept (``shown``) is whatever the bot showed the roller, as JSON: Reveal shows exactly
that, whoever presses it and whenever. Every read names the server, so a secret roll of one
server can never be revealed from another.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from engine.errors import NotFoundError, PermissionDenied
from engine.storage.ledger import ledger_batch
from engine.storage.secret_rolls import SecretRollRepository
from engine.storage.store import Store

from .model import SecretRoll


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


class SecretRolls:
    def __init__(self, store: Store, *, now: Callable[[], dt.datetime] = _utc_now) -> None:
        self.store = store
        self._now = now

    def _stamp(self) -> str:
        return self._now().isoformat(timespec="seconds")

    def keep(self, guild_id: int, channel_id: int, member_id: int, shown: dict[str, Any]) -> int:
        """Store a secret roll; returns its id (what the Reveal button carries)."""
        with self.store.write() as c:
            return SecretRollRepository(c).keep(guild_id, channel_id, member_id, shown, self._stamp())

    def update(self, guild_id: int, roll_id: int, shown: dict[str, Any]) -> None:
        """What a secret roll shows after the roller re-rolled it (still secret until revealed)."""
        with self.store.write() as c:
            SecretRollRepository(c).show_instead(guild_id, roll_id, shown)

    def get(self, guild_id: int, roll_id: int) -> SecretRoll:
        """The secret roll ``roll_id`` of this server; NotFoundError if this server has none such."""
        with self.store.read() as c:
            secret = SecretRollRepository(c).find(guild_id, roll_id)
        if secret is None:
            raise NotFoundError("This secret roll is not kept any more.", hint="Roll again if you need it.")
        return secret

    def reveal(self, guild_id: int, roll_id: int, member_id: int) -> SecretRoll:
        """The roller reveals their roll to the table: marked revealed (the first time) and returned."""
        secret = self.get(guild_id, roll_id)
        if secret.member_id != member_id:
            raise PermissionDenied(f"Only <@{secret.member_id}> made this secret roll, so only they can reveal it.")
        if secret.revealed:
            return secret
        with self.store.write() as c:
            SecretRollRepository(c).reveal(guild_id, roll_id, self._stamp())
        return self.get(guild_id, roll_id)

    # -- where secret rolls are copied ------------------------------------------------------

    def channel(self, guild_id: int) -> int | None:
        """The channel this server copies secret rolls to, if it named one."""
        with self.store.read() as c:
            return SecretRollRepository(c).secret_channel(guild_id)

    def set_channel(self, guild_id: int, actor_id: int, is_admin: bool, channel_id: int | None) -> int | None:
        """Name the channel for secret rolls (None: no channel; Reveal still works). Manage Server only;
        the change is written to the ledger like every other server setting."""
        if not is_admin:
            raise PermissionDenied("Only members with Manage Server can choose where secret rolls go.")
        with ledger_batch(self.store, guild_id=guild_id, member_id=actor_id, at=self._stamp()) as b:
            secrets = SecretRollRepository(b.c)
            before = secrets.secret_channel(guild_id)
            secrets.choose_secret_channel(guild_id, channel_id, b.at)
            if before != channel_id:
                b.record(warband_id=None, warband_name="", what="settings.secret_channel", entity="settings",
                         entity_id=None, before={"secret_channel_id": before}, after={"secret_channel_id": channel_id})
        return channel_id
