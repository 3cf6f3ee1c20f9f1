"""Which campaign tables each server uses: the bundled ones, or its own override.

Anyone may read them; only members with Manage Server (``is_admin``) may change them. Every
change is written with a ledger row (warband id NULL) in the same transaction, so it shows in
the server's history and cached roster sheets know to rebuild (see ``Campaigns.show_warband``).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Mapping
from typing import Any

from engine.errors import PermissionDenied
from engine.storage.ledger import ledger_batch
from engine.storage.store import Connection, Store
from engine.warbands import transfer
from engine.warbands.campaign_rules import CampaignRules, build_rules, default_rules, validate_override
from engine.warbands.errors import InvalidData


def campaign_override_in(c: Connection, guild_id: int) -> dict[str, Any]:
    """The server's override of rules_data/campaign, read inside the caller's transaction ({} = none)."""
    raw = c.scalar("SELECT campaign_rules FROM server_settings WHERE guild_id = ?", (guild_id,))
    return json.loads(raw) if raw else {}


def campaign_rules_in(c: Connection, guild_id: int) -> CampaignRules:
    """The server's campaign tables, read inside the caller's transaction."""
    override = campaign_override_in(c, guild_id)
    return build_rules(override) if override else default_rules()  # the data's rules, built once


def _admin_only(is_admin: bool, what: str) -> None:
    if not is_admin:
        raise PermissionDenied(f"Only members with Manage Server can {what}.")


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


class ServerTables:
    """Every server's campaign tables, kept in one ``Store`` (``Campaigns.tables``)."""

    def __init__(self, store: Store, *, now: Callable[[], dt.datetime] = _utc_now) -> None:
        self.store = store
        self._now = now

    def _stamp(self) -> str:
        return self._now().isoformat(timespec="seconds")

    # ------------------------------------------------------------------ campaign tables
    def campaign_rules(self, guild_id: int) -> CampaignRules:
        with self.store.read() as c:
            return campaign_rules_in(c, guild_id)

    def campaign_override(self, guild_id: int) -> dict[str, Any]:
        """What the server replaced of the bundled campaign tables ({} when nothing)."""
        with self.store.read() as c:
            return campaign_override_in(c, guild_id)

    def set_campaign_rules(
        self, guild_id: int, actor_id: int, is_admin: bool, override: Mapping[str, Any] | str | bytes | None
    ) -> CampaignRules:
        """Replace campaign tables for this server (JSON object, see rules_data/campaign); None clears."""
        _admin_only(is_admin, "change the campaign rules")
        if isinstance(override, (str, bytes)):
            data, problems = transfer.parse_json(override, "The campaign rules")
            if problems:
                raise InvalidData("The campaign rules", problems)
            override = data
        override = dict(override or {})
        problems = validate_override(override)
        if problems:
            raise InvalidData("The campaign rules", problems)
        with ledger_batch(self.store, guild_id=guild_id, member_id=actor_id, at=self._stamp()) as b:
            old = campaign_override_in(b.c, guild_id)
            b.c.execute(
                "INSERT INTO server_settings (guild_id, campaign_rules, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET campaign_rules = excluded.campaign_rules, updated_at = excluded.updated_at",
                (guild_id, json.dumps(override), b.at),
            )
            b.record(warband_id=None, warband_name="", what="settings.campaign_rules", entity="settings", entity_id=None,
                     before={"campaign_rules": old} if old != override else {},
                     after={"campaign_rules": override} if old != override else {})
            return build_rules(override) if override else default_rules()
