"""Campaigns: the warband keeper's service API, the only thing the cog calls.

Every method takes the ``guild_id`` first and reads or writes only that server's rows.
Methods that change data also take the acting member (``actor_id``) and ``is_admin``
(the member has Manage Server); only a warband's owner or an admin may change it.
Each member action is one ledger batch (``Campaigns.batch``): one ``BEGIN IMMEDIATE``
transaction in which the checks are made and every change and its ledger rows written, so
two members acting on one warband at once cannot both spend the same gold, and undo takes
the whole action back. Methods are synchronous and short; the bot calls them through
``asyncio.to_thread``.
"""

from __future__ import annotations

import datetime as dt
import random
import sqlite3
import threading
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from typing import Any

from rapidfuzz import fuzz, process

from engine.errors import LimitExceeded, MordheimError, NotFoundError, PermissionDenied
from engine.storage.ledger import LedgerBatch, ledger_batch
from engine.storage.store import Connection, Store
from engine.warbands import ledger as ledger_rows
from engine.warbands import roster_rules, transfer
from engine.warbands.campaign_rules import CampaignRules
from engine.warbands.errors import InvalidData
from engine.warbands.models import (
    Advance,
    Battle,
    HireChoice,
    LedgerEntry,
    TreasuryAudit,
    Warband,
    WarbandSheet,
    WarbandSummary,
    Warrior,
    XpResult,
    battle_from_row,
    warband_columns,
    warband_from_row,
    warrior_columns,
    warrior_from_row,
)
from engine.warbands.hiring import Hiring
from engine.warbands.lists import Catalogue, WarbandList
from engine.warbands.rating import warband_rating
from engine.warbands.server_tables import ServerTables, campaign_rules_in, catalogue_in
from engine.warbands.trading import Trading
from engine.warbands.validation import (
    MAX_EXPERIENCE,
    MAX_GOLD,
    MAX_WYRDSTONE,
    RESULTS,
    ROLES,
    STATUSES,
    choice,
    clean_list,
    clean_name,
    clean_notes,
    clean_profile,
    name_key,
    whole_number,
)

AUTOCOMPLETE_LIMIT = 25  # Discord shows at most 25 choices
MAX_WARBANDS_PER_GUILD = 1000
MAX_WARRIOR_ROWS = 200  # per warband, dead and retired included
_PREFIX_END = "\U0010ffff"


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


SHEETS_KEPT = 256  # roster sheets remembered for repeat views
# What a warband list decides about a warrior: changing one of these by hand (``/warrior edit``,
# ``/warrior equip``) on a warrior hired from a list marks it as a hand edit. Name, status,
# injuries and experience are the campaign's own bookkeeping.
LIST_DECIDED = ("role", "type", "group_size", "profile", "equipment", "skills", "large")


def with_hand_edits(old: Warrior, changes: dict[str, Any]) -> dict[str, Any]:
    """``changes`` plus, for a warrior hired from a list, the list-decided fields it changes by hand."""
    if not old.from_list:
        return changes
    before = old.snapshot()
    edited = [k for k in LIST_DECIDED if k in changes and changes[k] != before[k] and k not in old.hand_edits]
    return {**changes, "hand_edits": [*old.hand_edits, *edited]} if edited else changes


class Campaigns:
    """The campaign warbands of every server, kept in one ``Store``."""

    def __init__(self, store: Store, *, now: Callable[[], dt.datetime] = _utc_now) -> None:
        self.store = store
        self._now = now
        self.tables = ServerTables(store, now=now)  # the server's campaign tables and warband lists
        self.hiring = Hiring(self)  # hiring from the lists, hired swords, upkeep
        self.trading = Trading(self)  # buying, selling, the stash, rare-item searches
        self._sheets: dict[tuple[int, int], tuple[tuple, WarbandSheet]] = {}  # see show_warband
        self._sheets_lock = threading.Lock()

    def _stamp(self) -> str:
        return self._now().isoformat(timespec="seconds")

    def batch(self, guild_id: int, actor_id: int) -> AbstractContextManager[LedgerBatch]:
        """One member action on this server: a write transaction whose ledger rows form one batch.

        Every method here that changes data runs in one; ``/warband undo`` takes a batch back
        whole. Other engine code that makes several changes as one action (the post-battle
        sequence) opens its own and changes data through the methods that take a batch::

            with campaigns.batch(guild_id, actor_id) as b:
                row = campaigns.warband_row(b, "Reavers")     # this server's, or NotFoundError
                campaigns.may_change(row, actor_id, is_admin)  # owner or Manage Server
                campaigns.update_warband(b, row, {"gold_crowns": row["gold_crowns"] + 40},
                                         what="income", reason="exploration")
                campaigns.write_warrior(b, row, old, {**old.snapshot(), "experience": 5},
                                        what="experience", reason="survived")

        Anything raised inside rolls the whole action back; nothing is half-written.
        """
        return ledger_batch(self.store, guild_id=guild_id, member_id=actor_id, at=self._stamp())

    def warband_row(self, b: LedgerBatch, name: str) -> dict[str, Any]:
        """Inside batch ``b``: the stored row of this server's warband ``name`` (NotFoundError with the closest names)."""
        return self._warband_row(b.c, b.guild_id, name)

    def warband_row_in(self, c: Connection, guild_id: int, name: str) -> dict[str, Any]:
        """The stored row of this server's warband ``name``, in any transaction (NotFoundError with the closest names)."""
        return self._warband_row(c, guild_id, name)

    def warband_row_or_none(self, c: Connection, guild_id: int, name: str | None) -> dict[str, Any] | None:
        """The stored row of this server's warband ``name``, or None: for autocomplete, which offers
        nothing for a name that is not (yet) a warband instead of refusing it."""
        return c.one("SELECT * FROM warbands WHERE guild_id = ? AND name_key = ?", (guild_id, name_key(name or "")))

    def warriors_of(self, c: Connection, guild_id: int, row: dict[str, Any]) -> tuple[Warrior, ...]:
        """Every warrior of the warband ``row``, dead and retired too: leader, heroes, then henchmen."""
        return self._warriors(c, guild_id, row)

    def warrior_in(self, b: LedgerBatch, row: dict[str, Any], name: str) -> Warrior:
        """Inside batch ``b``: the warrior ``name`` of the warband ``row`` (NotFoundError with the closest names)."""
        return warrior_from_row(self._warrior_row(b.c, b.guild_id, row, name), row["name"])

    def may_change(self, row: dict[str, Any], actor_id: int, is_admin: bool) -> None:
        """PermissionDenied unless the member owns the warband or has Manage Server."""
        self._may_change(row, actor_id, is_admin)

    # ------------------------------------------------------------------ lookups
    def _suggest(self, names: Iterable[str], query: str) -> list[str]:
        found = process.extract(query, list(names), scorer=fuzz.WRatio, limit=5, score_cutoff=55)
        return [name for name, _score, _i in found]

    def _warband_row(self, c: Connection, guild_id: int, name: str) -> dict[str, Any]:
        if not isinstance(name, str) or not name.strip():
            raise MordheimError("Name the warband.", hint="Use `/warband list` to see this server's warbands.")
        row = self.warband_row_or_none(c, guild_id, name)
        if row is None:
            names = c.column("SELECT name FROM warbands WHERE guild_id = ?", (guild_id,))
            raise NotFoundError(
                f"This server has no warband called '{name.strip()[:64]}'.",
                suggestions=self._suggest(names, name),
                hint=None if names else "Create one with `/warband create`.",
            )
        return row

    def _warrior_row(self, c: Connection, guild_id: int, warband: dict[str, Any], name: str) -> dict[str, Any]:
        if not isinstance(name, str) or not name.strip():
            raise MordheimError("Name the warrior.")
        row = c.one(
            "SELECT * FROM warriors WHERE guild_id = ? AND warband_id = ? AND name_key = ?",
            (guild_id, warband["id"], name_key(name)),
        )
        if row is None:
            names = c.column("SELECT name FROM warriors WHERE guild_id = ? AND warband_id = ?", (guild_id, warband["id"]))
            raise NotFoundError(
                f"{warband['name']} has no warrior called '{name.strip()[:64]}'.",
                suggestions=self._suggest(names, name),
            )
        return row

    def _warriors(self, c: Connection, guild_id: int, warband: dict[str, Any]) -> tuple[Warrior, ...]:
        rows = c.all(
            "SELECT * FROM warriors WHERE guild_id = ? AND warband_id = ? "
            "ORDER BY CASE role WHEN 'leader' THEN 0 WHEN 'hero' THEN 1 ELSE 2 END, id",
            (guild_id, warband["id"]),
        )
        return tuple(warrior_from_row(r, warband["name"]) for r in rows)

    def _rules(self, c: Connection, guild_id: int) -> CampaignRules:
        return campaign_rules_in(c, guild_id)

    def _catalogue(self, c: Connection, guild_id: int) -> Catalogue:
        return catalogue_in(c, guild_id)

    def warband_list(self, c: Connection, guild_id: int, row: dict[str, Any]) -> WarbandList | None:
        """The list the warband ``row`` is built from, on this server; None for a custom type (or a
        list the server no longer has: the warband is then treated as custom)."""
        return self._catalogue(c, guild_id).warbands.get(row["list_id"]) if row["list_id"] else None

    @staticmethod
    def _may_change(warband: dict[str, Any], actor_id: int, is_admin: bool) -> None:
        if is_admin or warband["owner_id"] == actor_id:
            return
        raise PermissionDenied(
            f"Only the owner of {warband['name']} (<@{warband['owner_id']}>) or a member with "
            "Manage Server can change it.",
            hint="Anyone may view it with `/warband show`.",
        )

    def _snapshot_of(self, c: Connection, guild_id: int) -> Callable[[str, int], dict[str, Any] | None]:
        def snapshot(entity: str, entity_id: int) -> dict[str, Any] | None:
            if entity == "warband":
                row = c.one("SELECT * FROM warbands WHERE guild_id = ? AND id = ?", (guild_id, entity_id))
                return None if row is None else warband_from_row(row).snapshot()
            if entity == "search":
                bought = c.scalar("SELECT bought FROM rare_item_searches WHERE guild_id = ? AND id = ?", (guild_id, entity_id))
                return None if bought is None else {"bought": bool(bought)}
            row = c.one("SELECT * FROM warriors WHERE guild_id = ? AND id = ?", (guild_id, entity_id))
            return None if row is None else warrior_from_row(row, "").snapshot()

        return snapshot

    # ------------------------------------------------------------------ warbands
    def create_warband(
        self,
        guild_id: int,
        actor_id: int,
        name: str,
        warband_type: str,
        *,
        notes: str = "",
        gold_crowns: int | None = None,
        wyrdstone_shards: int = 0,
    ) -> Warband:
        """A new warband owned by ``actor_id``. Starting gold is recorded in the ledger.

        A ``warband_type`` naming one of the server's warband lists (id, name or alias, e.g.
        'Reiklanders') builds it from that list: its type is the list's name and, unless
        ``gold_crowns`` is given, it starts with the list's starting gold. Any other type is a
        custom warband (no list; 0 gc unless given).
        """
        name = clean_name(name, "The warband name")
        warband_type = clean_name(warband_type, "The warband type")
        notes = clean_notes(notes)
        gold = None if gold_crowns is None else self._amount(gold_crowns, "Gold crowns", MAX_GOLD)
        shards = self._amount(wyrdstone_shards, "Wyrdstone shards", MAX_WYRDSTONE)
        with self.batch(guild_id, actor_id) as b:
            c = b.c
            wlist = self._catalogue(c, guild_id).find_warband(warband_type)
            if wlist is not None:
                warband_type = wlist.name
                if gold is None:
                    gold = wlist.starting_gold + sum(r.effects.get("starting_gold", 0) for r in wlist.special_rules)
            gold = gold or 0
            self._check_free_name(c, guild_id, name)
            count = c.scalar("SELECT count(*) FROM warbands WHERE guild_id = ?", (guild_id,))
            if count >= MAX_WARBANDS_PER_GUILD:
                raise LimitExceeded(f"This server already has {count} warbands, the most one server may keep.",
                                    hint="Delete old warbands first.")
            cols = warband_columns({"name": name, "type": warband_type, "list": wlist.id if wlist else None,
                                    "owner_id": actor_id, "notes": notes, "gold_crowns": gold, "wyrdstone_shards": shards})
            wid = c.insert("warbands", {"guild_id": guild_id, **cols, "created_at": b.at, "updated_at": b.at})
            row = c.one("SELECT * FROM warbands WHERE id = ?", (wid,))
            wb = warband_from_row(row)
            b.record(warband_id=wid, warband_name=name, what="warband.create", entity="warband", entity_id=wid,
                     before=None, after=wb.snapshot(), reason="created")
            return wb

    @staticmethod
    def _amount(value: Any, what: str, limit: int) -> int:
        n = whole_number(value, what)
        if n < 0:
            raise MordheimError(f"{what} cannot be negative ({n}).", hint="Give 0 or more.")
        if n > limit:
            raise LimitExceeded(f"{what} of {n} is more than the limit of {limit:,}.")
        return n

    def _check_free_name(self, c: Connection, guild_id: int, name: str, *, except_id: int | None = None) -> None:
        row = c.one("SELECT id, name FROM warbands WHERE guild_id = ? AND name_key = ?", (guild_id, name_key(name)))
        if row is not None and row["id"] != except_id:
            raise MordheimError(
                f"This server already has a warband called '{row['name']}'.",
                hint="Names are compared without regard to case; choose another name.",
            )

    def get_warband(self, guild_id: int, name: str) -> Warband:
        """The warband with its warriors. NotFoundError lists the closest names."""
        with self.store.read() as c:
            row = self._warband_row(c, guild_id, name)
            return warband_from_row(row, self._warriors(c, guild_id, row))

    def show_warband(self, guild_id: int, name: str) -> WarbandSheet:
        """Everything a roster display needs: warriors, rating with its breakdown, next advances, size.

        Every change to a warband, and to the server's settings, writes a ledger row in the
        same transaction, so the newest ledger ids are an exact version of the sheet: a sheet
        built for the same version is returned again instead of being rebuilt.
        """
        with self.store.read() as c:
            row = self._warband_row(c, guild_id, name)
            key, version = self._sheet_version(c, guild_id, row)
            cached = self._sheets.get(key)
            if cached is not None and cached[0] == version:
                return cached[1]
            warriors = self._warriors(c, guild_id, row)
            rules = self._rules(c, guild_id)
            catalogue = self._catalogue(c, guild_id)
            record = {r: 0 for r in RESULTS}
            for res, n in c.execute(
                "SELECT result, count(*) FROM battles WHERE guild_id = ? AND warband_id = ? GROUP BY result",
                (guild_id, row["id"]),
            ).fetchall():
                record[res] = n
        wb = warband_from_row(row, warriors)
        wlist = catalogue.warbands.get(wb.list_id) if wb.list_id else None
        limit = roster_rules.size_limit(rules, wlist, wb.warband_type, warriors)
        costs = {w.id: roster_rules.warrior_cost(catalogue, wlist, w) for w in warriors}
        stash_prices = [roster_rules.item_value(catalogue, wlist, None, item) for item in wb.stash]
        sheet = WarbandSheet(
            warband=wb,
            rating=warband_rating(warriors, rules, catalogue),
            advances=tuple(
                Advance(w.name, w.role, w.experience, rules.next_advance(w.role, w.experience))
                for w in warriors if w.status == "active"
            ),
            models=roster_rules.models(warriors),
            max_models=limit.maximum,
            max_models_reasons=limit.reasons,
            record=record,
            list_name=wlist.name if wlist else None,
            list_source=wlist.source if wlist else "",
            list_missing=wb.list_id is not None and wlist is None,
            costs=costs,
            value=sum(costs[w.id].total for w in warriors if w.status == "active"),
            stash_value=sum(p for p in stash_prices if p is not None),
            heroes=len(roster_rules.heroes(warriors)),
            max_heroes=roster_rules.max_heroes(rules, wlist),
            can_hire=tuple(
                HireChoice(o.fighter.name, o.fighter.role, o.fighter.cost, o.room, o.why_not)
                for o in (roster_rules.hire_options(rules, wlist, warriors) if wlist else ())
            ),
        )
        with self._sheets_lock:
            self._sheets[key] = (version, sheet)
            while len(self._sheets) > SHEETS_KEPT:
                self._sheets.pop(next(iter(self._sheets)))
        return sheet

    def remembered_sheet(self, guild_id: int, name: str) -> WarbandSheet | None:
        """The sheet ``show_warband`` built before, if it is still current (see there); else None.
        Three indexed reads that never wait for a write, so the event loop may ask before it sends
        the work of building a sheet to a thread. An unknown name is None too: ``show_warband``
        then gives the error with the closest names, off the loop."""
        if not isinstance(name, str) or not name.strip():
            return None
        with self.store.read() as c:
            row = self.warband_row_or_none(c, guild_id, name)
            if row is None:
                return None
            key, version = self._sheet_version(c, guild_id, row)
        cached = self._sheets.get(key)
        return cached[1] if cached is not None and cached[0] == version else None

    @staticmethod
    def _sheet_version(c: Connection, guild_id: int, row: dict[str, Any]) -> tuple[tuple[int, int], tuple]:
        """A warband's key in the sheet cache, and the version its sheet is built for."""
        version = (
            c.scalar("SELECT max(id) FROM ledger WHERE guild_id = ? AND warband_id = ?", (guild_id, row["id"])),
            c.scalar("SELECT max(id) FROM ledger WHERE guild_id = ? AND warband_id IS NULL", (guild_id,)),
            row["updated_at"],
        )
        return (guild_id, row["id"]), version

    def check_warband(self, guild_id: int, name: str) -> tuple[Warband, roster_rules.RosterCheck]:
        """Everything the roster breaks: list counts, kit off the lists, characteristics over racial
        maxima, the campaign tables' limits; with notes on hand edits and warriors made by hand."""
        with self.store.read() as c:
            row = self._warband_row(c, guild_id, name)
            warriors = self._warriors(c, guild_id, row)
            catalogue = self._catalogue(c, guild_id)
            check = roster_rules.check_roster(catalogue, self._rules(c, guild_id), self.warband_list(c, guild_id, row),
                                              row["list_id"], row["warband_type"], warriors)
        return warband_from_row(row, warriors), check

    def list_warbands(self, guild_id: int, *, owner_id: int | None = None) -> list[WarbandSummary]:
        sql = "SELECT name, owner_id, warband_type, gold_crowns, wyrdstone_shards FROM warbands WHERE guild_id = ?"
        params: list[Any] = [guild_id]
        if owner_id is not None:
            sql += " AND owner_id = ?"
            params.append(owner_id)
        with self.store.read() as c:
            return [WarbandSummary(**r) for r in c.all(sql + " ORDER BY name_key", params)]

    def names_for_autocomplete(
        self,
        guild_id: int,
        prefix: str,
        *,
        only_changeable_by: tuple[int, bool] | None = None,
        limit: int = AUTOCOMPLETE_LIMIT,
    ) -> list[str]:
        """Up to 25 warband names starting with ``prefix`` (then containing it), by index.

        ``only_changeable_by=(actor_id, is_admin)`` keeps only warbands that member may change.
        The command must still re-check the name it receives.
        """
        key = name_key(prefix or "")[:64]
        limit = max(0, min(limit, AUTOCOMPLETE_LIMIT))
        where, params = "guild_id = ?", [guild_id]
        if only_changeable_by is not None and not only_changeable_by[1]:
            where += " AND owner_id = ?"
            params.append(only_changeable_by[0])
        with self.store.read() as c:
            names = c.column(
                f"SELECT name FROM warbands WHERE {where} AND name_key >= ? AND name_key < ? ORDER BY name_key LIMIT ?",
                (*params, key, key + _PREFIX_END, limit),
            )
            if key and len(names) < limit:
                names += c.column(
                    f"SELECT name FROM warbands WHERE {where} AND instr(name_key, ?) > 1 ORDER BY name_key LIMIT ?",
                    (*params, key, limit - len(names)),
                )
        return names

    def update_warband(
        self, b: LedgerBatch, row: dict[str, Any], changes: dict[str, Any], *, what: str, reason: str, with_warriors: bool = True,
    ) -> Warband:
        """Inside batch ``b``: change the warband ``row`` (snapshot keys, e.g. ``gold_crowns``) and
        write the ledger row of what changed. Returns the warband as it is now, with its warriors
        unless ``with_warriors`` is False."""
        c, guild_id = b.c, b.guild_id
        old = warband_from_row(row).snapshot()
        before, after = ledger_rows.diff(old, {**old, **changes})
        if after:
            cols = warband_columns(after)
            sets = ", ".join(f"{k} = ?" for k in cols)
            c.execute(f"UPDATE warbands SET {sets}, updated_at = ? WHERE guild_id = ? AND id = ?",
                      (*cols.values(), b.at, guild_id, row["id"]))
            b.record(warband_id=row["id"], warband_name=changes.get("name", row["name"]), what=what, entity="warband",
                     entity_id=row["id"], before=before, after=after, reason=reason)
        new = {**row, **warband_columns(after), "updated_at": b.at} if after else row  # as stored, without reading it back
        return warband_from_row(new, self._warriors(c, guild_id, new) if with_warriors else ())

    def rename_warband(self, guild_id: int, actor_id: int, is_admin: bool, name: str, new_name: str) -> Warband:
        new_name = clean_name(new_name, "The new warband name")
        with self.batch(guild_id, actor_id) as b:
            row = self._warband_row(b.c, guild_id, name)
            self._may_change(row, actor_id, is_admin)
            self._check_free_name(b.c, guild_id, new_name, except_id=row["id"])
            return self.update_warband(b, row, {"name": new_name}, what="warband.rename", reason=f"renamed from {row['name']}")

    def edit_warband(
        self,
        guild_id: int,
        actor_id: int,
        is_admin: bool,
        name: str,
        *,
        warband_type: str | None = None,
        notes: str | None = None,
        owner_id: int | None = None,
    ) -> Warband:
        """Change type, notes or owner (handing a warband to another member)."""
        changes: dict[str, Any] = {}
        if warband_type is not None:
            changes["type"] = clean_name(warband_type, "The warband type")
        if notes is not None:
            changes["notes"] = clean_notes(notes)
        if owner_id is not None:
            changes["owner_id"] = whole_number(owner_id, "The owner")
            if not 0 < changes["owner_id"] < 2**63:
                raise MordheimError("The new owner must be a member of this server.")
        with self.batch(guild_id, actor_id) as b:
            row = self._warband_row(b.c, guild_id, name)
            self._may_change(row, actor_id, is_admin)
            if "type" in changes:  # a type naming a list builds the warband from it from now on
                wlist = self._catalogue(b.c, guild_id).find_warband(changes["type"])
                changes["type"] = wlist.name if wlist else changes["type"]
                changes["list"] = wlist.id if wlist else None
            return self.update_warband(b, row, changes, what="warband.edit", reason="")

    def delete_warband(self, guild_id: int, actor_id: int, is_admin: bool, name: str) -> dict[str, Any]:
        """Delete the warband, its warriors and battles. Returns its export (kept in the ledger too)."""
        with self.batch(guild_id, actor_id) as b:
            c = b.c
            row = self._warband_row(c, guild_id, name)
            self._may_change(row, actor_id, is_admin)
            export = transfer.export(warband_from_row(row, self._warriors(c, guild_id, row)), self._battles(c, guild_id, row, None), b.at)
            c.execute("DELETE FROM warbands WHERE guild_id = ? AND id = ?", (guild_id, row["id"]))
            b.record(warband_id=row["id"], warband_name=row["name"], what="warband.delete", entity="warband",
                     entity_id=row["id"], before={**warband_from_row(row).snapshot(), "export": export}, after=None,
                     reason="deleted")
            return export

    def change_treasury(
        self,
        guild_id: int,
        actor_id: int,
        is_admin: bool,
        name: str,
        *,
        gold: int = 0,
        wyrdstone: int = 0,
        reason: str,
    ) -> Warband:
        """Add (or, negative, spend) gold crowns and wyrdstone shards. The stash never goes below 0."""
        gold = whole_number(gold, "The gold change")
        wyrdstone = whole_number(wyrdstone, "The wyrdstone change")
        reason = clean_notes(reason, "The reason")
        if not reason:
            raise MordheimError("Say why the treasury changes (e.g. 'sold 2 shards').", hint="The reason goes in the ledger.")
        if gold == 0 and wyrdstone == 0:
            raise MordheimError("Nothing to change: both amounts are 0.")
        with self.batch(guild_id, actor_id) as b:
            row = self._warband_row(b.c, guild_id, name)
            self._may_change(row, actor_id, is_admin)
            new_gold, new_shards = row["gold_crowns"] + gold, row["wyrdstone_shards"] + wyrdstone
            if new_gold < 0:
                raise MordheimError(
                    f"{row['name']} has {row['gold_crowns']} gold crowns; taking {-gold} would leave {new_gold}.",
                    hint="The treasury cannot go below 0 gc.",
                )
            if new_shards < 0:
                raise MordheimError(
                    f"{row['name']} has {row['wyrdstone_shards']} wyrdstone shards; taking {-wyrdstone} would leave {new_shards}.",
                    hint="The treasury cannot go below 0 shards.",
                )
            if new_gold > MAX_GOLD or new_shards > MAX_WYRDSTONE:
                raise LimitExceeded(f"A treasury holds at most {MAX_GOLD:,} gc and {MAX_WYRDSTONE:,} shards.")
            return self.update_warband(b, row, {"gold_crowns": new_gold, "wyrdstone_shards": new_shards},
                                       what="treasury", reason=reason)

    def audit_treasury(self, guild_id: int, name: str) -> TreasuryAudit:
        """The stored treasury next to the sum of the ledger's changes: they must agree."""
        with self.store.read() as c:
            row = self._warband_row(c, guild_id, name)
            gold, shards = ledger_rows.treasury_totals(c, guild_id, row["id"])
        return TreasuryAudit(row["gold_crowns"], row["wyrdstone_shards"], gold, shards)

    # ------------------------------------------------------------------ warriors
    @staticmethod
    def _check_roster(rules: CampaignRules, wlist: WarbandList | None, warband_type: str,
                      before: list[Warrior], after: list[Warrior]) -> None:
        """Refuse a change that makes the roster break a limit it did not break before (a roster
        already over a limit, after hand edits say, can still be changed in other ways)."""
        new = transfer.roster_problems(rules, warband_type, after, wlist)
        if new:  # rare: only then is the roster before the change worth checking
            old = set(transfer.roster_problems(rules, warband_type, before, wlist))
            new = [p for p in new if p not in old]
        if new:
            raise MordheimError(new[0], hint="Change the roster or ask an admin to change the campaign rules.")

    def write_warrior(
        self, b: LedgerBatch, wb: dict[str, Any], old: Warrior | None, new: dict[str, Any], *, what: str, reason: str,
        warriors: tuple[Warrior, ...] | None = None, check_roster: bool = True,
    ) -> Warrior:
        """Inside batch ``b``: store the warrior snapshot ``new`` in warband ``wb`` (insert when
        ``old`` is None) after the roster checks, with its ledger row. Returns the stored warrior.
        ``warriors``: the warband's warriors as the caller read them in this batch (read again if None,
        when they are needed: for a new name, or to check the roster).
        ``check_roster=False`` skips the whole-roster limits: for a caller whose own checks are
        stricter (a hire), or who applies what the rules decided rather than what the owner chose
        (a post-battle step); the warrior himself and his name are checked here either way."""
        c, guild_id = b.c, b.guild_id
        rules = self._rules(c, guild_id)
        _clean, problems = transfer.clean_warrior(new, rules)
        if problems:
            raise MordheimError(problems[0])
        key = name_key(new["name"])
        named = old is None or name_key(old.name) != key  # a name the warband's other warriors may have
        if named or check_roster:
            everyone = list(self._warriors(c, guild_id, wb) if warriors is None else warriors)
            others = [w for w in everyone if old is None or w.id != old.id]
        if named and any(name_key(w.name) == key for w in others):
            raise MordheimError(f"{wb['name']} already has a warrior called '{new['name']}'.", hint="Choose another name.")
        columns = warrior_columns(new)
        if check_roster:
            candidate = [*others, warrior_from_row({"id": 0, **columns}, wb["name"])]
            self._check_roster(rules, self.warband_list(c, guild_id, wb), wb["warband_type"], everyone, candidate)
        at = b.at
        if old is None:
            if len(others) >= MAX_WARRIOR_ROWS:
                raise LimitExceeded(f"A warband may keep at most {MAX_WARRIOR_ROWS} warriors, dead and retired included.",
                                    hint="Remove warriors who are long gone.")
            wid = c.insert("warriors", {"guild_id": guild_id, "warband_id": wb["id"], **columns, "created_at": at, "updated_at": at})
            before, after = None, new
        else:
            wid = old.id
            before, after = ledger_rows.diff(old.snapshot(), new)
            if not after:
                return old
            cols = warrior_columns(after)
            sets = ", ".join(f"{k} = ?" for k in cols)
            c.execute(f"UPDATE warriors SET {sets}, updated_at = ? WHERE guild_id = ? AND id = ?", (*cols.values(), at, guild_id, wid))
        b.record(warband_id=wb["id"], warband_name=wb["name"], what=what, entity="warrior", entity_id=wid,
                 before=before, after=after, reason=reason)
        c.execute("UPDATE warbands SET updated_at = ? WHERE guild_id = ? AND id = ?", (at, guild_id, wb["id"]))
        return warrior_from_row({"id": wid, **columns}, wb["name"])  # as stored, without reading it back

    def add_warrior(
        self,
        guild_id: int,
        actor_id: int,
        is_admin: bool,
        warband: str,
        name: str,
        *,
        role: str,
        warrior_type: str,
        profile: Mapping[str, int],
        group_size: int = 1,
        equipment: Iterable[str] = (),
        skills: Iterable[str] = (),
        experience: int = 0,
        large: bool = False,
    ) -> Warrior:
        """Recruit a leader, hero or henchman group. ``profile`` maps M WS BS S T W I A Ld to 0-10."""
        new = {
            "name": clean_name(name, "The warrior name", forbid="/"),
            "role": choice(role, ROLES, "Role"),
            "type": clean_name(warrior_type, "The warrior type"),
            "group_size": whole_number(group_size, "Group size"),
            "profile": clean_profile(profile),
            "equipment": clean_list(equipment, "Equipment"),
            "skills": clean_list(skills, "Skills"),
            "injuries": [],
            "experience": whole_number(experience, "Experience"),
            "status": "active",
            "large": bool(large),
        }
        with self.batch(guild_id, actor_id) as b:
            wb = self._warband_row(b.c, guild_id, warband)
            self._may_change(wb, actor_id, is_admin)
            return self.write_warrior(b, wb, None, new, what="warrior.add", reason="recruited")

    def _change_warrior(
        self, guild_id: int, actor_id: int, is_admin: bool, warband: str, warrior: str,
        change: Callable[[Warrior, CampaignRules], dict[str, Any]], *, what: str, reason: str = "",
    ) -> Warrior:
        with self.batch(guild_id, actor_id) as b:
            wb = self._warband_row(b.c, guild_id, warband)
            self._may_change(wb, actor_id, is_admin)
            old = warrior_from_row(self._warrior_row(b.c, guild_id, wb, warrior), wb["name"])
            new = {**old.snapshot(), **change(old, self._rules(b.c, guild_id))}
            return self.write_warrior(b, wb, old, new, what=what, reason=reason)

    def edit_warrior(
        self,
        guild_id: int,
        actor_id: int,
        is_admin: bool,
        warband: str,
        warrior: str,
        *,
        name: str | None = None,
        role: str | None = None,
        warrior_type: str | None = None,
        profile: Mapping[str, int] | None = None,
        group_size: int | None = None,
        skills: Iterable[str] | None = None,
        injuries: Iterable[str] | None = None,
        experience: int | None = None,
        status: str | None = None,
        large: bool | None = None,
        reason: str = "",
    ) -> Warrior:
        """Change any field; ``profile`` may name only the characteristics that change."""
        changes: dict[str, Any] = {}
        if name is not None:
            changes["name"] = clean_name(name, "The warrior name", forbid="/")
        if role is not None:
            changes["role"] = choice(role, ROLES, "Role")
        if warrior_type is not None:
            changes["type"] = clean_name(warrior_type, "The warrior type")
        partial = clean_profile(profile, partial=True) if profile is not None else {}
        if group_size is not None:
            changes["group_size"] = whole_number(group_size, "Group size")
        if skills is not None:
            changes["skills"] = clean_list(skills, "Skills")
        if injuries is not None:
            changes["injuries"] = clean_list(injuries, "Injuries")
        if experience is not None:
            changes["experience"] = whole_number(experience, "Experience")
        if status is not None:
            changes["status"] = choice(status, STATUSES, "Status")
        if large is not None:
            changes["large"] = bool(large)
        reason = clean_notes(reason, "The reason")

        def change(old: Warrior, _rules: CampaignRules) -> dict[str, Any]:
            return with_hand_edits(old, {**changes, "profile": {**old.profile.as_dict(), **partial}})

        return self._change_warrior(guild_id, actor_id, is_admin, warband, warrior, change, what="warrior.edit", reason=reason)

    def remove_warrior(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, warrior: str, *, reason: str = "") -> None:
        """Take a warrior off the roster for good (use status 'dead' or 'retired' to keep the record)."""
        reason = clean_notes(reason, "The reason")
        with self.batch(guild_id, actor_id) as b:
            c = b.c
            wb = self._warband_row(c, guild_id, warband)
            self._may_change(wb, actor_id, is_admin)
            old = warrior_from_row(self._warrior_row(c, guild_id, wb, warrior), wb["name"])
            c.execute("DELETE FROM warriors WHERE guild_id = ? AND id = ?", (guild_id, old.id))
            b.record(warband_id=wb["id"], warband_name=wb["name"], what="warrior.remove", entity="warrior",
                     entity_id=old.id, before=old.snapshot(), after=None, reason=reason)

    def equip(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, warrior: str, item: str) -> Warrior:
        item = clean_name(item, "The item")
        return self._change_warrior(guild_id, actor_id, is_admin, warband, warrior,
                                    lambda w, _r: with_hand_edits(w, {"equipment": [*w.equipment, item]}),
                                    what="warrior.equip", reason=item)

    def unequip(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, warrior: str, item: str) -> Warrior:
        item = clean_name(item, "The item")

        def change(w: Warrior, _r: CampaignRules) -> dict[str, Any]:
            keys = [name_key(e) for e in w.equipment]
            if name_key(item) not in keys:
                raise NotFoundError(f"{w.name} does not carry '{item}'.", suggestions=self._suggest(w.equipment, item),
                                    hint=None if w.equipment else f"{w.name} carries nothing.")
            kit = list(w.equipment)
            del kit[keys.index(name_key(item))]
            return with_hand_edits(w, {"equipment": kit})

        return self._change_warrior(guild_id, actor_id, is_admin, warband, warrior, change, what="warrior.unequip", reason=item)

    def add_xp(
        self, guild_id: int, actor_id: int, is_admin: bool, warband: str, warrior: str, amount: int, *, reason: str = ""
    ) -> XpResult:
        """Add experience (negative corrects a mistake); returns the advances the warrior reached."""
        amount = whole_number(amount, "Experience")
        if amount == 0:
            raise MordheimError("Give the experience gained, e.g. 1 or 2.")
        seen: dict[str, Any] = {}

        def change(w: Warrior, rules: CampaignRules) -> dict[str, Any]:
            if w.status != "active":
                raise MordheimError(f"{w.name} is {w.status} and cannot gain experience.")
            total = w.experience + amount
            if total < 0:
                raise MordheimError(f"{w.name} has {w.experience} experience; removing {-amount} would go below 0.")
            if total > MAX_EXPERIENCE:
                raise LimitExceeded(f"Experience is capped at {MAX_EXPERIENCE}.")
            seen["rules"], seen["before"] = rules, w.experience
            return {"experience": total}

        w = self._change_warrior(guild_id, actor_id, is_admin, warband, warrior, change, what="experience",
                                 reason=clean_notes(reason, "The reason"))
        rules: CampaignRules = seen["rules"]
        return XpResult(w, tuple(rules.advances_between(w.role, seen["before"], w.experience)),
                        rules.next_advance(w.role, w.experience))

    def injure(
        self, guild_id: int, actor_id: int, is_admin: bool, warband: str, warrior: str, injury: str | int, *, reason: str = "",
        rng: random.Random | None = None,
    ) -> Warrior:
        """Apply a serious injury by name or D66 roll (e.g. 'Leg wound', 22, or 'roll' for the bot to
        roll the D66 with ``rng``); every effect of the chart is applied (engine.campaign.injuries):
        a Leg wound takes 1 M, Robbed takes every item, an Arm wound rolls its D6 with ``rng``.

        A henchman group can only lose a model ('dead'): henchmen out of action die on 1-2
        (seed 000:1499) and have no serious injury chart; the last one lost marks the group dead.
        """
        # engine.campaign imports engine.warbands' models, so it is imported here, not at the top.
        from engine.dice.source import Dice
        from engine.campaign.injuries import apply_injury
        from engine.campaign.models import CampaignWarrior

        reason = clean_notes(reason, "The reason")
        seen: dict[str, int] = {}
        if name_key(str(injury)) == "roll":
            injury = seen["d66"] = Dice(rng).d66("Serious injury")
        elif str(injury).strip().isdigit():
            seen["d66"] = int(str(injury).strip())

        def change(w: Warrior, rules: CampaignRules) -> dict[str, Any]:
            if w.status != "active":
                raise MordheimError(f"{w.name} is already {w.status}.")
            entry = self._injury(rules, injury)
            if w.role == "henchmen":
                if not entry.dead:
                    raise MordheimError(
                        "Henchmen have no serious injuries: one out of action either dies (1-2) or is fine (3-6).",
                        hint="Use 'Dead' to remove one model from the group.",
                    )
                if w.group_size > 1:
                    return {"group_size": w.group_size - 1}
                return {"status": "dead"}
            if entry.dead:
                return {"status": "dead", "injuries": [*w.injuries, entry.name]}
            if name_key(entry.name) == "full recovery":
                return {}
            hurt = apply_injury(CampaignWarrior.from_warrior(w, rules.tables.default_maximum), entry, rules, Dice(rng), d66=seen.get("d66"))
            h = hurt.warrior
            return {"status": h.status, "profile": h.profile.as_dict(), "equipment": list(h.equipment),
                    "injuries": list(h.injuries), "experience": h.experience}

        return self._change_warrior(guild_id, actor_id, is_admin, warband, warrior, change, what="injury",
                                    reason=reason or str(injury)[:64])

    def _injury(self, rules: CampaignRules, injury: str | int):
        text = str(injury).strip()
        if text.isdigit():
            return rules.serious_injury(int(text))
        for entry in rules.serious_injuries:
            if name_key(entry.name) == name_key(text):
                return entry
        if name_key(text) in ("killed", "dies", "died"):
            return next(e for e in rules.serious_injuries if e.dead)
        raise NotFoundError(
            f"'{text[:40]}' is not on the serious injury chart.",
            suggestions=self._suggest([e.name for e in rules.serious_injuries], text),
            hint=None,
        )

    def get_warrior(self, guild_id: int, warband: str, warrior: str) -> Warrior:
        """One stored warrior; ``.profile.as_dict()`` gives M WS BS S T W I A Ld for combat."""
        with self.store.read() as c:
            wb = self._warband_row(c, guild_id, warband)
            return warrior_from_row(self._warrior_row(c, guild_id, wb, warrior), wb["name"])

    def find_warrior(self, guild_id: int, query: str) -> Warrior:
        """'Warband/Warrior', or just a warrior name if only one warband in the server has it."""
        if not isinstance(query, str) or not query.strip():
            raise MordheimError("Name the warrior, as `Warband/Warrior` or just `Warrior`.")
        if "/" in query:
            warband, _, warrior = query.rpartition("/")
            return self.get_warrior(guild_id, warband, warrior)
        with self.store.read() as c:
            rows = c.all(
                "SELECT w.*, b.name AS warband_name FROM warriors w JOIN warbands b ON b.id = w.warband_id AND b.guild_id = w.guild_id "
                "WHERE w.guild_id = ? AND w.name_key = ? ORDER BY b.name_key LIMIT 26",
                (guild_id, name_key(query)),
            )
            if len(rows) == 1:
                return warrior_from_row(rows[0], rows[0]["warband_name"])
            if rows:
                raise NotFoundError(
                    f"Several warbands have a warrior called '{query.strip()[:64]}'.",
                    suggestions=[f"{r['warband_name']}/{r['name']}" for r in rows],
                    hint="Say which: " + ", ".join(f"`{r['warband_name']}/{r['name']}`" for r in rows[:5]),
                )
            names = c.column(
                "SELECT b.name || '/' || w.name FROM warriors w JOIN warbands b ON b.id = w.warband_id "
                "WHERE w.guild_id = ? LIMIT 5000", (guild_id,)
            )
        raise NotFoundError(f"No warband in this server has a warrior called '{query.strip()[:64]}'.",
                            suggestions=self._suggest(names, query))

    def warrior_names_for_autocomplete(self, guild_id: int, warband: str, prefix: str) -> list[str]:
        key = name_key(prefix or "")[:64]
        with self.store.read() as c:
            wb = c.one("SELECT id FROM warbands WHERE guild_id = ? AND name_key = ?", (guild_id, name_key(warband or "")))
            if wb is None:
                return []
            return c.column(
                "SELECT name FROM warriors WHERE guild_id = ? AND warband_id = ? AND instr(name_key, ?) > 0 "
                "ORDER BY instr(name_key, ?) != 1, name_key LIMIT ?",
                (guild_id, wb["id"], key, key, AUTOCOMPLETE_LIMIT),
            )

    def warrior_paths_for_autocomplete(self, guild_id: int, query: str, *, limit: int = AUTOCOMPLETE_LIMIT) -> list[str]:
        """Up to 25 ``Warband/Warrior`` paths in this server matching ``query`` (what ``find_warrior`` takes).

        A query with ``/`` matches the warband part and the warrior part; otherwise the warrior's
        name or the warband's ("Reik" offers every warrior of the Reiklanders), warriors whose name
        starts with it first, then warbands whose name does. Other servers' warriors never match.
        """
        limit = max(0, min(limit, AUTOCOMPLETE_LIMIT))
        band, slash, man = (query or "").rpartition("/")
        band_key, man_key = name_key(band)[:64], name_key(man)[:64]
        with self.store.read() as c:
            if slash:
                return c.column(
                    "SELECT b.name || '/' || w.name FROM warriors w JOIN warbands b ON b.id = w.warband_id AND b.guild_id = w.guild_id "
                    "WHERE w.guild_id = ? AND instr(w.name_key, ?) > 0 AND instr(b.name_key, ?) > 0 "
                    "ORDER BY instr(w.name_key, ?) != 1, b.name_key, w.name_key LIMIT ?",
                    (guild_id, man_key, band_key, man_key, limit),
                )
            return c.column(
                "SELECT b.name || '/' || w.name FROM warriors w JOIN warbands b ON b.id = w.warband_id AND b.guild_id = w.guild_id "
                "WHERE w.guild_id = ? AND (instr(w.name_key, ?) > 0 OR instr(b.name_key, ?) > 0) "
                "ORDER BY instr(w.name_key, ?) != 1, instr(b.name_key, ?) != 1, b.name_key, w.name_key LIMIT ?",
                (guild_id, man_key, man_key, man_key, man_key, limit),
            )

    # ------------------------------------------------------------------ battles
    def record_battle(
        self,
        guild_id: int,
        actor_id: int,
        is_admin: bool,
        warband: str,
        *,
        result: str,
        scenario: str = "",
        opponents: str = "",
        fought_on: str | dt.date | None = None,
        notes: str = "",
    ) -> Battle:
        battle = transfer.clean_battle(
            {"result": result, "scenario": scenario, "opponents": opponents,
             "fought_on": fought_on.isoformat() if isinstance(fought_on, dt.date) else (fought_on or self._now().date().isoformat()),
             "notes": notes}
        )
        with self.batch(guild_id, actor_id) as b:
            c = b.c
            wb = self._warband_row(c, guild_id, warband)
            self._may_change(wb, actor_id, is_admin)
            bid = c.insert("battles", {"guild_id": guild_id, "warband_id": wb["id"], **battle, "recorded_by": actor_id, "created_at": b.at})
            b.record(warband_id=wb["id"], warband_name=wb["name"], what="battle", entity="battle", entity_id=bid,
                     before=None, after=battle, reason=battle["result"])
            return battle_from_row(c.one("SELECT * FROM battles WHERE id = ?", (bid,)), wb["name"])

    def _battles(self, c: Connection, guild_id: int, wb: dict[str, Any], limit: int | None) -> list[Battle]:
        rows = c.all(
            "SELECT * FROM battles WHERE guild_id = ? AND warband_id = ? ORDER BY fought_on DESC, id DESC LIMIT ?",
            (guild_id, wb["id"], -1 if limit is None else limit),
        )
        return [battle_from_row(r, wb["name"]) for r in rows]

    def list_battles(self, guild_id: int, warband: str, *, limit: int = 20) -> list[Battle]:
        """Newest first."""
        with self.store.read() as c:
            return self._battles(c, guild_id, self._warband_row(c, guild_id, warband), max(1, min(limit, 500)))

    # ------------------------------------------------------------------ ledger
    def ledger(self, guild_id: int, warband: str, *, limit: int = 20) -> list[LedgerEntry]:
        """The warband's changes, newest first."""
        with self.store.read() as c:
            wb = self._warband_row(c, guild_id, warband)
            return ledger_rows.entries(c, guild_id, wb["id"], max(1, min(limit, 500)))

    def undo_last(self, guild_id: int, actor_id: int, is_admin: bool, warband: str) -> LedgerEntry:
        """Take back the newest action not yet undone — every ledger row of its batch, gold
        included — and return the first undo row written (the others are in the ledger beside it,
        in the same new batch; ``undo_last_batch`` returns them all)."""
        return self.undo_last_batch(guild_id, actor_id, is_admin, warband)[0]

    def undo_last_batch(self, guild_id: int, actor_id: int, is_admin: bool, warband: str) -> list[LedgerEntry]:
        """Take back the newest action not yet undone as a whole; returns the undo rows written,
        in the order written (the action's newest change first)."""
        with self.batch(guild_id, actor_id) as b:
            c = b.c
            wb = self._warband_row(c, guild_id, warband)
            self._may_change(wb, actor_id, is_admin)
            entries = ledger_rows.last_undoable_batch(c, guild_id, wb["id"])
            if not entries:
                raise MordheimError(f"{wb['name']} has no change left to undo.")
            try:
                written = ledger_rows.undo_batch(b, wb["id"], entries, current_snapshot=self._snapshot_of(c, guild_id))
            except sqlite3.IntegrityError:
                first = entries[-1]
                raise MordheimError(
                    f"Change #{first.id} ({first.what}) cannot be undone: a name it would restore is taken now.",
                    hint="Rename the other warband or warrior first.",
                ) from None
            c.execute("UPDATE warbands SET updated_at = ? WHERE guild_id = ? AND id = ?", (b.at, guild_id, wb["id"]))
            newest = ledger_rows.entries(c, guild_id, wb["id"], len(written))
            return sorted((e for e in newest if e.id in written), key=lambda e: e.id)

    # ------------------------------------------------------------------ export / import
    def export_warband(self, guild_id: int, name: str) -> dict[str, Any]:
        """The warband as JSON-ready data: {"format": "mordheim-bot/warband", "version": 1, ...}."""
        with self.store.read() as c:
            row = self._warband_row(c, guild_id, name)
            return transfer.export(warband_from_row(row, self._warriors(c, guild_id, row)),
                                   self._battles(c, guild_id, row, None), self._stamp())

    def validate_import(self, guild_id: int, data: bytes | str | Mapping[str, Any]) -> list[str]:
        """Every problem with an export file for this server (empty list: it can be imported)."""
        with self.store.read() as c:
            return transfer.problems(data, self._rules(c, guild_id), self._name_taken(c, guild_id), self._catalogue(c, guild_id))[1]

    @staticmethod
    def _name_taken(c: Connection, guild_id: int) -> Callable[[str], bool]:
        return lambda name: c.one("SELECT 1 FROM warbands WHERE guild_id = ? AND name_key = ?", (guild_id, name_key(name))) is not None

    def import_warband(self, guild_id: int, actor_id: int, data: bytes | str | Mapping[str, Any]) -> Warband:
        """Create a warband owned by ``actor_id`` from an export. Stores nothing unless every check passes."""
        with self.batch(guild_id, actor_id) as b:
            c = b.c
            parsed, problems = transfer.problems(data, self._rules(c, guild_id), self._name_taken(c, guild_id),
                                                 self._catalogue(c, guild_id))
            if problems:
                raise InvalidData("The warband file", problems)
            if c.scalar("SELECT count(*) FROM warbands WHERE guild_id = ?", (guild_id,)) >= MAX_WARBANDS_PER_GUILD:
                raise LimitExceeded(f"This server already keeps {MAX_WARBANDS_PER_GUILD} warbands.", hint="Delete old warbands first.")
            at = b.at
            w = parsed["warband"]
            cols = warband_columns({"name": w["name"].strip(), "type": w["type"].strip(), "list": w["list"],
                                    "owner_id": actor_id, "notes": clean_notes(w.get("notes", "")),
                                    "gold_crowns": w["gold_crowns"], "wyrdstone_shards": w["wyrdstone_shards"],
                                    "stash": w["stash"]})
            wid = c.insert("warbands", {"guild_id": guild_id, **cols, "created_at": at, "updated_at": at})
            for warrior in parsed["warriors"]:
                c.insert("warriors", {"guild_id": guild_id, "warband_id": wid, **warrior_columns(warrior),
                                      "created_at": at, "updated_at": at})
            for battle in parsed["battles"]:
                c.insert("battles", {"guild_id": guild_id, "warband_id": wid, **battle, "recorded_by": actor_id, "created_at": at})
            row = c.one("SELECT * FROM warbands WHERE id = ?", (wid,))
            wb = warband_from_row(row, self._warriors(c, guild_id, row))
            b.record(warband_id=wid, warband_name=wb.name, what="warband.import", entity="warband", entity_id=wid,
                     before=None, after={**wb.snapshot(), "warriors": len(parsed["warriors"]), "battles": len(parsed["battles"])},
                     reason="imported")
            return wb
