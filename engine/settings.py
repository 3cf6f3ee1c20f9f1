"""Each server's settings: the edition it plays by, house-rule toggles and campaign tables.

Anyone may read them; only members with Manage Server (``is_admin``) may change them. Every
change is written with a ledger row (warband id NULL) in the same transaction, like every
warband change, so it can be shown and so cached views know it happened.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.editions import get_edition
from engine.errors import LimitExceeded, MordheimError, PermissionDenied
from engine.storage.store import Connection, Store
from engine.warbands import ledger as ledger_rows
from engine.warbands import transfer
from engine.warbands.campaign_rules import CampaignRules, build_rules, default_rules, validate_override
from engine.warbands.errors import InvalidData

MAX_HOUSE_RULES = 50
_TOGGLE_NAME = re.compile(r"^[a-z0-9_]{1,40}$")


@dataclass(frozen=True)
class ServerSettings:
    guild_id: int
    edition_id: str
    house_rules: dict[str, bool] = field(default_factory=dict)
    campaign_rules: dict[str, Any] = field(default_factory=dict)  # the override; {} = data defaults


def campaign_rules_in(c: Connection, guild_id: int) -> CampaignRules:
    """The server's campaign tables, read inside the caller's transaction."""
    raw = c.scalar("SELECT campaign_rules FROM server_settings WHERE guild_id = ?", (guild_id,))
    override = json.loads(raw) if raw else {}
    return build_rules(override) if override else default_rules()  # the data's rules, built once


def _admin_only(is_admin: bool, what: str) -> None:
    if not is_admin:
        raise PermissionDenied(f"Only members with Manage Server can {what}.")


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


class Settings:
    """Every server's settings, kept in one ``Store``."""

    def __init__(self, store: Store, *, now: Callable[[], dt.datetime] = _utc_now) -> None:
        self.store = store
        self._now = now

    def _stamp(self) -> str:
        return self._now().isoformat(timespec="seconds")

    def get(self, guild_id: int) -> ServerSettings:
        with self.store.read() as c:
            return self._settings(c, guild_id)

    def _settings(self, c: Connection, guild_id: int) -> ServerSettings:
        row = c.one("SELECT * FROM server_settings WHERE guild_id = ?", (guild_id,))
        if row is None:
            return ServerSettings(guild_id=guild_id, edition_id=get_edition(None).id)
        return ServerSettings(
            guild_id=guild_id,
            edition_id=row["edition_id"],
            house_rules=json.loads(row["house_rules"]),
            campaign_rules=json.loads(row["campaign_rules"]),
        )

    def _save_settings(self, c: Connection, old: ServerSettings, new: ServerSettings, actor_id: int, what: str) -> None:
        at = self._stamp()
        c.execute(
            "INSERT INTO server_settings (guild_id, edition_id, house_rules, campaign_rules, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET edition_id = excluded.edition_id, "
            "house_rules = excluded.house_rules, campaign_rules = excluded.campaign_rules, updated_at = excluded.updated_at",
            (new.guild_id, new.edition_id, json.dumps(new.house_rules), json.dumps(new.campaign_rules), at),
        )

        def public(s: ServerSettings) -> dict[str, Any]:
            return {"edition_id": s.edition_id, "house_rules": s.house_rules, "campaign_rules": s.campaign_rules}

        before, after = ledger_rows.diff(public(old), public(new))
        ledger_rows.record(
            c, guild_id=new.guild_id, warband_id=None, warband_name="", what=what, entity="settings",
            entity_id=None, before=before, after=after, reason="", member_id=actor_id, at=at,
        )

    def set_edition(self, guild_id: int, actor_id: int, is_admin: bool, edition_id: str) -> ServerSettings:
        """Choose the server's edition (an id or name from rules_data/editions.json)."""
        _admin_only(is_admin, "choose the server's edition")
        edition = get_edition(edition_id)
        with self.store.write() as c:
            old = self._settings(c, guild_id)
            new = ServerSettings(guild_id, edition.id, old.house_rules, old.campaign_rules)
            self._save_settings(c, old, new, actor_id, "settings.edition")
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
            raise InvalidData("The house rules", problems)
        with self.store.write() as c:
            old = self._settings(c, guild_id)
            merged = dict(toggles) if replace else {**old.house_rules, **toggles}
            if len(merged) > MAX_HOUSE_RULES:
                raise LimitExceeded(f"A server may set at most {MAX_HOUSE_RULES} house rules; this makes {len(merged)}.")
            new = ServerSettings(guild_id, old.edition_id, dict(sorted(merged.items())), old.campaign_rules)
            self._save_settings(c, old, new, actor_id, "settings.house_rules")
            return new

    def set_campaign_rules(
        self, guild_id: int, actor_id: int, is_admin: bool, override: Mapping[str, Any] | str | bytes | None
    ) -> ServerSettings:
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
        with self.store.write() as c:
            old = self._settings(c, guild_id)
            new = ServerSettings(guild_id, old.edition_id, old.house_rules, override)
            self._save_settings(c, old, new, actor_id, "settings.campaign_rules")
            return new

    def campaign_rules(self, guild_id: int) -> CampaignRules:
        with self.store.read() as c:
            return campaign_rules_in(c, guild_id)
