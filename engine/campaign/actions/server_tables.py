"""Which campaign tables and warband lists each server uses.

Campaign tables: the bundled ones (rules_data/campaign/), or the server's override. Warband
lists: the bundled catalogue (rules_data/warbands/) plus the server's own lists (house
warbands), each added or replacing the bundled list of the same id. One server's lists are
never visible from another: a server's catalogue is built from its own rows only.

Anyone may read them; only members with Manage Server (``is_admin``) may change them. Every
change is written with a ledger row (warband id NULL) in the same transaction, so it shows in
the server's history and cached roster sheets know to rebuild (see ``Campaigns.show_warband``).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rapidfuzz import fuzz, process

from engine.errors import LimitExceeded, NotFoundError, PermissionDenied
from engine.storage.ledger import ledger_batch
from engine.storage.store import Connection, Store
from engine.campaign.rules import transfer
from engine.campaign.rules.campaign_rules import CampaignRules, build_rules, default_rules, validate_override
from engine.errors import InvalidData
from engine.campaign.lists.catalogue import Catalogue, WarbandList, bundled_catalogue, lookup_key, validate_house_list

MAX_HOUSE_LISTS = 50  # per server
MAX_HOUSE_LIST_BYTES = 256 * 1024


@dataclass(frozen=True, kw_only=True)
class HouseList:
    id: str
    name: str
    replaces: str | None  # the bundled list of the same id it stands in for
    broken: tuple[str, ...]  # problems that keep it out of the catalogue now (after an update of the bundled data)


@dataclass(frozen=True, kw_only=True)
class ServerLists:
    """What ``/settings show`` says about the lists and tables a server uses."""

    bundled: tuple[str, ...]  # names of the bundled lists in use (not replaced)
    house: tuple[HouseList, ...]
    campaign_override: tuple[str, ...]  # the campaign-table keys the server replaced


def _house_rows(c: Connection, guild_id: int) -> tuple[tuple[str, str], ...]:
    return tuple((r["list_id"], r["data"]) for r in c.all(
        "SELECT list_id, data FROM house_lists WHERE guild_id = ? ORDER BY list_id", (guild_id,)))


@lru_cache(maxsize=128)
def _catalogue_of(rows: tuple[tuple[str, str], ...]) -> tuple[Catalogue, dict[str, tuple[str, ...]]]:
    """The bundled catalogue with these house lists, and the problems of any that no longer fit.

    Keyed by the stored JSON itself, so two servers share a catalogue only when their lists are
    the same text, and a changed list is a new key. A list stored when it was valid can stop
    fitting after an update of the bundled data; it is then left out, with its problems kept.
    """
    catalogue = bundled_catalogue()
    broken: dict[str, tuple[str, ...]] = {}
    for list_id, text in rows:
        try:
            catalogue = catalogue.with_house_lists([json.loads(text)])
        except (InvalidData, ValueError) as exc:
            broken[list_id] = tuple(getattr(exc, "problems", None) or [str(exc)])
    return catalogue, broken


def catalogue_in(c: Connection, guild_id: int) -> Catalogue:
    """The server's warband lists (bundled plus its own), read inside the caller's transaction (once per transaction)."""
    key = ("catalogue", guild_id)
    if key not in c.memo:
        rows = _house_rows(c, guild_id)
        c.memo[key] = _catalogue_of(rows)[0] if rows else bundled_catalogue()
    return c.memo[key]


def campaign_override_in(c: Connection, guild_id: int) -> dict[str, Any]:
    """The server's override of rules_data/campaign, read inside the caller's transaction ({} = none)."""
    raw = c.scalar("SELECT campaign_rules FROM server_settings WHERE guild_id = ?", (guild_id,))
    return json.loads(raw) if raw else {}


def campaign_rules_in(c: Connection, guild_id: int) -> CampaignRules:
    """The server's campaign tables, read inside the caller's transaction (once per transaction)."""
    key = ("campaign_rules", guild_id)
    if key not in c.memo:
        override = campaign_override_in(c, guild_id)
        c.memo[key] = build_rules(override) if override else default_rules()  # the data's rules, built once
    return c.memo[key]


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

    # ------------------------------------------------------------------ warband lists
    def catalogue(self, guild_id: int) -> Catalogue:
        with self.store.read() as c:
            return catalogue_in(c, guild_id)

    def lists(self, guild_id: int) -> ServerLists:
        """The lists this server uses (bundled and its own) and what it replaced of the campaign tables."""
        with self.store.read() as c:
            rows = _house_rows(c, guild_id)
            names = {r["list_id"]: r["name"] for r in c.all("SELECT list_id, name FROM house_lists WHERE guild_id = ?", (guild_id,))}
            override = campaign_override_in(c, guild_id)
        bundled = bundled_catalogue()
        broken = _catalogue_of(rows)[1] if rows else {}
        house = tuple(HouseList(id=list_id, name=names[list_id], replaces=bundled.warbands[list_id].name if list_id in bundled.warbands else None,
                                broken=broken.get(list_id, ())) for list_id, _ in rows)
        replaced = {h.id for h in house if not h.broken}
        return ServerLists(bundled=tuple(sorted(w.name for w in bundled.warbands.values() if w.id not in replaced)),
                           house=house, campaign_override=tuple(sorted(override)))

    def set_house_list(self, guild_id: int, actor_id: int, is_admin: bool, data: Mapping[str, Any] | str | bytes) -> WarbandList:
        """Add the server's own warband list, or replace the one with the same id (bundled or its own).

        Checked like the bundled lists (``validate_house_list``: schema and cross-references,
        every problem listed); InvalidData and nothing stored when anything is wrong.
        """
        _admin_only(is_admin, "change this server's warband lists")
        if isinstance(data, (str, bytes)):
            if len(data) > MAX_HOUSE_LIST_BYTES:
                raise LimitExceeded(f"A warband list file may be at most {MAX_HOUSE_LIST_BYTES // 1024} KB; this one is "
                                    f"{len(data) // 1024} KB.")
            data, problems = transfer.parse_json(data, "The warband list")
            if problems:
                raise InvalidData("The warband list", problems)
        with ledger_batch(self.store, guild_id=guild_id, member_id=actor_id, at=self._stamp()) as b:
            rows = _house_rows(b.c, guild_id)
            list_id = data.get("id") if isinstance(data, Mapping) else None
            others = tuple(r for r in rows if r[0] != list_id)
            base = _catalogue_of(others)[0] if others else bundled_catalogue()
            problems = validate_house_list(data, base)
            if problems:
                raise InvalidData("The warband list", problems)
            if len(others) >= MAX_HOUSE_LISTS:
                raise LimitExceeded(f"A server may keep at most {MAX_HOUSE_LISTS} warband lists of its own.",
                                    hint="Remove one with `/admin warbands remove:`.")
            built = base.with_house_lists([data]).warbands[data["id"]]
            text = json.dumps(data, ensure_ascii=False)
            old = next((t for i, t in rows if i == list_id), None)
            b.c.execute(
                "INSERT INTO house_lists (guild_id, list_id, name, data, added_by, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id, list_id) DO UPDATE SET name = excluded.name, data = excluded.data, "
                "added_by = excluded.added_by, updated_at = excluded.updated_at",
                (guild_id, built.id, built.name, text, actor_id, b.at),
            )
            b.record(warband_id=None, warband_name="", what="settings.house_list", entity="settings", entity_id=None,
                     before={"house_list": built.id, "replaced": old is not None} if old is not None else None,
                     after={"house_list": built.id, "name": built.name}, reason="replaced" if old is not None else "added")
            return built

    def remove_house_list(self, guild_id: int, actor_id: int, is_admin: bool, query: str) -> str:
        """Remove one of the server's own lists (by id or name); returns its name. Warbands built from
        it stay as they are and are treated as custom until a list with that id is back."""
        _admin_only(is_admin, "change this server's warband lists")
        with ledger_batch(self.store, guild_id=guild_id, member_id=actor_id, at=self._stamp()) as b:
            rows = b.c.all("SELECT list_id, name FROM house_lists WHERE guild_id = ?", (guild_id,))
            key = lookup_key(query or "")
            found = next((r for r in rows if key in (lookup_key(r["list_id"]), lookup_key(r["name"]))), None)
            if found is None:
                names = [r["name"] for r in rows]
                hits = process.extract(query or "", names, scorer=fuzz.WRatio, limit=5, score_cutoff=55)
                raise NotFoundError(f"This server has no warband list of its own called '{(query or '')[:60]}'.",
                                    suggestions=[h[0] for h in hits],
                                    hint=None if names else "It has none; the bundled lists cannot be removed.")
            b.c.execute("DELETE FROM house_lists WHERE guild_id = ? AND list_id = ?", (guild_id, found["list_id"]))
            b.record(warband_id=None, warband_name="", what="settings.house_list", entity="settings", entity_id=None,
                     before={"house_list": found["list_id"], "name": found["name"]}, after=None, reason="removed")
            return found["name"]
