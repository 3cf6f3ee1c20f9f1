"""The campaign's verbs for the cogs: each opens one unit of work and calls one action.

``Campaigns`` (warbands, warriors, hiring, trading, battles, undo, the server's lists and
tables, the standings) and ``PostBattle`` (the post-battle sequence) hold no rules and no SQL:
a changing verb opens a writing unit of work for the member (engine/storage/unit_of_work.py),
calls its action (engine/campaign/actions/) and commits; a reading verb opens a reading unit.
Neither owns the other; both are built over the same store. Every verb takes the server's id
first and reads or writes only that server's rows; verbs that change data also take the acting
member and whether they have Manage Server.

Verbs are synchronous and short. The bot runs a changing verb on the event loop when its write
can begin at once, else in a worker thread (cogs/_ui/writes.py); a verb does nothing that
counts before its transaction begins, so running it again in the thread repeats nothing.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ParamSpec, Protocol, TypeVar

from engine.campaign.actions import (
    buying,
    captives,
    hiring,
    own_warbands,
    postbattle,
    roster_import,
    server_tables,
    sheets,
    standings,
    succession,
    trading,
    undo,
    upkeep,
    warband_names,
    warbands,
    warriors,
)
from engine.campaign.actions.common import KeepChanges
from engine.campaign.actions.standings import LogEntry, Standings
from engine.campaign.lists.catalogue import Catalogue, WarbandList
from engine.campaign.model import (
    Actor,
    Battle,
    LedgerEntry,
    Offer,
    OwnedWarband,
    TreasuryAudit,
    TreasuryView,
    Warband,
    WarbandSheet,
    WarbandSummary,
    Warrior,
    InjuryReport,
    XpResult,
)
from engine.campaign.rules import roster as roster_rules
from engine.campaign.rules.campaign_rules import CampaignRules
from engine.storage.unit_of_work import reading, reading_for_member, unit_of_work

P = ParamSpec("P")
T = TypeVar("T")


class Store(Protocol):
    """What the verbs need of a store (SQLite's or PostgreSQL's)."""

    database: str

    def write(self, *, lock: int | None = None) -> Any: ...

    def read(self) -> Any: ...


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


class _Verbs:
    """Opening units of work for one store: ``act`` for a member's change, ``read`` for a look."""

    def __init__(self, store: Store, *, now: Callable[[], dt.datetime] = _utc_now) -> None:
        self.store = store
        self._now = now

    def _stamp(self) -> str:
        return self._now().isoformat(timespec="seconds")

    def act(self, actor: Actor, action: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run ``action(uow, actor, ...)`` in one writing unit of work: all of it commits, or none."""
        error: Exception
        with unit_of_work(self.store, guild_id=actor.guild_id, member_id=actor.member_id, at=self._stamp()) as uow:
            try:
                return action(uow, actor, *args, **kwargs)
            except KeepChanges as keep:  # commit what it changed, then refuse
                error = keep.error
        raise error

    def act_noting(self, actor: Actor, notices: list[str] | None, action: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``act``, and what the action's side effects said for the answer (who took command after a
        leader died: engine/campaign/actions/succession.py) put in ``notices`` (None: not wanted)."""

        def noting(uow: Any, actor: Actor, *a: Any, **k: Any) -> T:
            result = action(uow, actor, *a, **k)
            if notices is not None:
                notices[:] = succession.notices(uow)
            return result

        return self.act(actor, noting, *args, **kwargs)

    def read(self, guild_id: int, query: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run ``query(uow, ...)`` in one reading unit of work (a consistent snapshot)."""
        with reading(self.store, guild_id=guild_id) as uow:
            uow.at = self._stamp()
            return query(uow, *args, **kwargs)

    def read_as_member(self, member_id: int, query: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run ``query(member_uow, ...)`` in one reading unit of one member across servers (their
        own warbands only: engine/storage/unit_of_work.py ``reading_for_member``)."""
        with reading_for_member(self.store, member_id=member_id) as muow:
            muow.at = self._stamp()
            return query(muow, *args, **kwargs)


def _actor(guild_id: int, actor_id: int, is_admin: bool = False) -> Actor:
    return Actor(guild_id=guild_id, member_id=actor_id, is_admin=is_admin)


def _owner(only_changeable_by: tuple[int, bool] | None) -> int | None:
    """Whose warbands a member may change: None (every one) for Manage Server or when not asked, else their own."""
    return only_changeable_by[0] if only_changeable_by is not None and not only_changeable_by[1] else None


class Campaigns(_Verbs):
    """Every server's campaign warbands: one verb per thing a member does or looks at."""

    # ---- warbands
    def create_warband(self, guild_id: int, actor_id: int, name: str, warband_type: str, *, notes: str = "",
                       gold_crowns: int | None = None, wyrdstone_shards: int = 0) -> Warband:
        return self.act(_actor(guild_id, actor_id), warbands.create_warband, name, warband_type, notes=notes,
                         gold_crowns=gold_crowns, wyrdstone_shards=wyrdstone_shards)

    def rename_warband(self, guild_id: int, actor_id: int, is_admin: bool, name: str, new_name: str) -> Warband:
        return self.act(_actor(guild_id, actor_id, is_admin), warbands.rename_warband, name, new_name)

    def edit_warband(self, guild_id: int, actor_id: int, is_admin: bool, name: str, *, warband_type: str | None = None,
                     notes: str | None = None, owner_id: int | None = None) -> Warband:
        return self.act(_actor(guild_id, actor_id, is_admin), warbands.edit_warband, name, warband_type=warband_type,
                         notes=notes, owner_id=owner_id)

    def delete_warband(self, guild_id: int, actor_id: int, is_admin: bool, name: str) -> dict[str, Any]:
        return self.act(_actor(guild_id, actor_id, is_admin), warbands.delete_warband, name)

    def change_treasury(self, guild_id: int, actor_id: int, is_admin: bool, name: str, *, gold: int = 0, wyrdstone: int = 0,
                        reason: str) -> Warband:
        return self.act(_actor(guild_id, actor_id, is_admin), warbands.change_treasury, name, gold=gold, wyrdstone=wyrdstone,
                         reason=reason)

    def audit_treasury(self, guild_id: int, name: str) -> TreasuryAudit:
        return self.read(guild_id, warbands.audit_treasury, name)

    def get_warband(self, guild_id: int, name: str) -> Warband:
        return self.read(guild_id, warbands.get_warband, name)

    def show_warband(self, guild_id: int, name: str) -> WarbandSheet:
        return self.read(guild_id, sheets.show_warband, name)

    def treasury(self, guild_id: int, name: str) -> TreasuryView:
        return self.read(guild_id, sheets.treasury, name)

    def remembered_sheet(self, guild_id: int, name: str) -> WarbandSheet | None:
        return self.read(guild_id, sheets.remembered_sheet, name)

    def own_warbands(self, member_id: int, prefix: str = "", *, limit: int = 25) -> list[OwnedWarband]:
        """The member's own warbands in every server, names starting with (then containing) ``prefix``.
        The one verb that crosses servers: for a direct message, which has none."""
        return self.read_as_member(member_id, own_warbands.own_warband_choices, prefix, limit=limit)

    def own_warband_sheet(self, member_id: int, name: str, *, guild_id: int | None = None) -> tuple[OwnedWarband, WarbandSheet]:
        """The sheet of the member's own warband ``name`` (in ``guild_id`` when given), from any server."""
        return self.read_as_member(member_id, own_warbands.own_warband_sheet, name, guild_id=guild_id)

    def check_warband(self, guild_id: int, name: str) -> tuple[Warband, roster_rules.RosterCheck]:
        return self.read(guild_id, sheets.check_warband, name)

    def list_warbands(self, guild_id: int, *, owner_id: int | None = None) -> list[WarbandSummary]:
        return self.read(guild_id, warbands.list_warbands, owner_id=owner_id)

    def names_for_autocomplete(self, guild_id: int, prefix: str, *, only_changeable_by: tuple[int, bool] | None = None,
                               limit: int = 25) -> list[str]:
        """Up to ``limit`` warband names starting with ``prefix`` (then containing it).
        ``only_changeable_by=(actor_id, is_admin)`` keeps only warbands that member may change."""
        return self.read(guild_id, warband_names.names_for_autocomplete, prefix, owner_id=_owner(only_changeable_by),
                         limit=limit)

    def remembered_names(self, guild_id: int, prefix: str, *, only_changeable_by: tuple[int, bool] | None = None,
                         limit: int = 25) -> list[str] | None:
        """``names_for_autocomplete``'s answer if the names are kept and still current (one indexed
        read, fit for the event loop), else None."""
        return self.read(guild_id, warband_names.remembered_names, prefix, owner_id=_owner(only_changeable_by), limit=limit)

    # ---- warriors
    def add_warrior(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, name: str, *, role: str,
                    warrior_type: str, profile: Mapping[str, int], group_size: int = 1, equipment: Iterable[str] = (),
                    skills: Iterable[str] = (), experience: int = 0, large: bool = False) -> Warrior:
        return self.act(_actor(guild_id, actor_id, is_admin), warriors.add_warrior, warband, name, role=role,
                         warrior_type=warrior_type, profile=profile, group_size=group_size, equipment=equipment, skills=skills,
                         experience=experience, large=large)

    def edit_warrior(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, warrior: str, *,
                     notices: list[str] | None = None, **changes: Any) -> Warrior:
        """Change any field (``warriors.edit_warrior``'s keywords); ``profile`` may name only what changes.
        ``notices``: filled with who took command if the leader left (``act_noting``)."""
        return self.act_noting(_actor(guild_id, actor_id, is_admin), notices, warriors.edit_warrior, warband, warrior, **changes)

    def remove_warrior(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, warrior: str, *, reason: str = "",
                       rng: random.Random | None = None, notices: list[str] | None = None) -> None:
        return self.act_noting(_actor(guild_id, actor_id, is_admin), notices, warriors.remove_warrior, warband, warrior,
                               reason=reason, rng=rng)

    def equip(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, warrior: str, item: str) -> Warrior:
        return self.act(_actor(guild_id, actor_id, is_admin), warriors.equip, warband, warrior, item)

    def unequip(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, warrior: str, item: str) -> Warrior:
        return self.act(_actor(guild_id, actor_id, is_admin), warriors.unequip, warband, warrior, item)

    def add_xp(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, warrior: str, amount: int, *,
               reason: str = "") -> XpResult:
        return self.act(_actor(guild_id, actor_id, is_admin), warriors.add_xp, warband, warrior, amount, reason=reason)

    def injure(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, warrior: str, injury: str | int, *,
               reason: str = "", rng: random.Random | None = None, notices: list[str] | None = None) -> Warrior:
        return self.act_noting(_actor(guild_id, actor_id, is_admin), notices, warriors.injure, warband, warrior, injury,
                               reason=reason, rng=rng)

    def injure_reported(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, warrior: str, injury: str | int,
                        *, reason: str = "", rng: random.Random | None = None,
                        notices: list[str] | None = None) -> InjuryReport:
        """``injure``, with every die rolled and any advance reached (``/warrior injure``'s answer)."""
        return self.act_noting(_actor(guild_id, actor_id, is_admin), notices, warriors.injure_reported, warband, warrior,
                               injury, reason=reason, rng=rng)

    def get_warrior(self, guild_id: int, warband: str, warrior: str) -> Warrior:
        return self.read(guild_id, warriors.get_warrior, warband, warrior)

    def find_warrior(self, guild_id: int, query: str) -> Warrior:
        return self.read(guild_id, warriors.find_warrior, query)

    def warrior_names_for_autocomplete(self, guild_id: int, warband: str, prefix: str) -> list[str]:
        return self.read(guild_id, warriors.warrior_names_for_autocomplete, warband, prefix)

    def warrior_paths_for_autocomplete(self, guild_id: int, query: str, *, limit: int = 25) -> list[str]:
        return self.read(guild_id, warriors.warrior_paths_for_autocomplete, query, limit=limit)

    # ---- hiring
    def hire_fighter(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, fighter: str, *,
                     name: str | None = None, count: int = 1, dagger: bool | None = None,
                     rng: random.Random | None = None) -> hiring.Hired:
        return self.act(_actor(guild_id, actor_id, is_admin), hiring.hire_fighter, warband, fighter, name=name, count=count,
                        dagger=dagger, rng=rng)

    def hire_sword(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, sword: str, *,
                   name: str | None = None, kit: str | None = None) -> hiring.Hired:
        return self.act(_actor(guild_id, actor_id, is_admin), hiring.hire_sword, warband, sword, name=name, kit=kit)

    def hire_character(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, character: str, *,
                       name: str | None = None) -> hiring.Hired:
        return self.act(_actor(guild_id, actor_id, is_admin), hiring.hire_character, warband, character, name=name)

    def pay_upkeep(self, guild_id: int, actor_id: int, is_admin: bool, warband: str) -> upkeep.UpkeepPaid:
        return self.act(_actor(guild_id, actor_id, is_admin), upkeep.pay_upkeep, warband)

    def fighter_choices(self, guild_id: int, warband: str, prefix: str) -> list[tuple[str, str]]:
        return self.read(guild_id, hiring.fighter_choices, warband, prefix)

    def sword_choices(self, guild_id: int, warband: str, prefix: str) -> list[tuple[str, str]]:
        return self.read(guild_id, hiring.sword_choices, warband, prefix)

    def character_choices(self, guild_id: int, warband: str, prefix: str) -> list[tuple[str, str]]:
        return self.read(guild_id, hiring.character_choices, warband, prefix)

    def kit_choices(self, guild_id: int, sword: str, prefix: str) -> list[tuple[str, str]]:
        return self.read(guild_id, hiring.kit_choices, sword, prefix)

    # ---- trading
    def buy(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, item: str, *, warrior: str | None = None,
            count: int = 1, rng: random.Random | None = None, entered: str | None = None) -> buying.Purchase:
        """Buy one or several items ('sword, dagger, shield'); a price's dice from ``entered``, then ``rng``."""
        return self.act(_actor(guild_id, actor_id, is_admin), buying.buy, warband, item, warrior=warrior, count=count, rng=rng,
                        entered=entered)

    def sell(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, item: str, *, warrior: str | None = None,
             count: int = 1) -> trading.Sale:
        return self.act(_actor(guild_id, actor_id, is_admin), trading.sell, warband, item, warrior=warrior, count=count)

    def move(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, item: str, warrior: str, *, to_stash: bool,
             count: int = 1) -> trading.Moved:
        return self.act(_actor(guild_id, actor_id, is_admin), trading.move, warband, item, warrior, to_stash=to_stash,
                         count=count)

    def search(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, hero: str, item: str,
               rng: random.Random) -> trading.Search:
        return self.act(_actor(guild_id, actor_id, is_admin), trading.search, warband, hero, item, rng)

    def offers(self, guild_id: int, warband: str) -> list[Offer]:
        return self.read(guild_id, trading.offers, warband)

    def buy_choices(self, guild_id: int, warband: str, warrior: str | None, prefix: str) -> list[tuple[str, str]]:
        return self.read(guild_id, buying.buy_choices, warband, warrior, prefix)

    def held_choices(self, guild_id: int, warband: str, warrior: str | None, prefix: str) -> list[tuple[str, str]]:
        return self.read(guild_id, trading.held_choices, warband, warrior, prefix)

    def searcher_choices(self, guild_id: int, warband: str, prefix: str) -> list[tuple[str, str]]:
        return self.read(guild_id, trading.searcher_choices, warband, prefix)

    def rare_choices(self, guild_id: int, warband: str, prefix: str) -> list[tuple[str, str]]:
        return self.read(guild_id, trading.rare_choices, warband, prefix)

    # ---- battles, the log, undo
    def record_battle(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, *, result: str, scenario: str = "",
                      opponents: str = "", fought_on: str | dt.date | None = None, notes: str = "") -> Battle:
        return self.act(_actor(guild_id, actor_id, is_admin), warbands.record_battle, warband, result=result, scenario=scenario,
                         opponents=opponents, fought_on=fought_on, notes=notes)

    def record_battle_between(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, opponent: str, *, result: str,
                              scenario: str = "", fought_on: str | dt.date | None = None,
                              notes: str = "") -> tuple[Battle, Battle]:
        return self.act(_actor(guild_id, actor_id, is_admin), standings.record_battle_between, warband, opponent,
                         result=result, scenario=scenario, fought_on=fought_on, notes=notes)

    def list_battles(self, guild_id: int, warband: str, *, limit: int = 20) -> list[Battle]:
        return self.read(guild_id, warbands.list_battles, warband, limit=limit)

    def ledger(self, guild_id: int, warband: str, *, limit: int = 20) -> list[LedgerEntry]:
        """The warband's changes, newest first."""
        return self.read(guild_id, warbands.ledger_entries, warband, limit=limit)

    def undo_last(self, guild_id: int, actor_id: int, is_admin: bool, warband: str) -> LedgerEntry:
        return self.act(_actor(guild_id, actor_id, is_admin), undo.undo_last, warband)

    def undo_last_batch(self, guild_id: int, actor_id: int, is_admin: bool, warband: str) -> list[LedgerEntry]:
        return self.act(_actor(guild_id, actor_id, is_admin), undo.undo_last_batch, warband)

    def standings(self, guild_id: int) -> Standings:
        return self.read(guild_id, standings.standings)

    def remembered_standings(self, guild_id: int, *, changes_at_most: int = 0) -> Standings | None:
        return self.read(guild_id, standings.remembered_standings, changes_at_most=changes_at_most)

    def campaign_log(self, guild_id: int, *, limit: int = 50) -> list[LogEntry]:
        return self.read(guild_id, standings.log, limit=limit)

    # ---- export / import
    def export_warband(self, guild_id: int, name: str) -> dict[str, Any]:
        return self.read(guild_id, warbands.export_warband, name)

    def validate_import(self, guild_id: int, data: bytes | str | Mapping[str, Any], *, name: str | None = None) -> list[str]:
        return self.read(guild_id, warbands.validate_import, data, name=name)

    def import_warband(self, guild_id: int, actor_id: int, data: bytes | str | Mapping[str, Any], *, name: str | None = None,
                       source: str = "") -> Warband:
        """A warband from a file (``name``: under another name); ``source`` names where the file came from."""
        return self.act(_actor(guild_id, actor_id), warbands.import_warband, data, name=name, source=source)

    def read_roster_file(self, guild_id: int, data: bytes, *, name: str | None = None) -> roster_import.RosterPreview:
        """What a BattleScribe or NewRecruit roster would import as (stored nowhere; ``import_warband``
        of its ``warband_file`` stores it)."""
        return self.read(guild_id, roster_import.read_roster_file, data, name=name)

    # ---- the server's lists and tables
    def campaign_rules(self, guild_id: int) -> CampaignRules:
        return self.read(guild_id, lambda uow: server_tables.tables_of(uow).rules)

    def campaign_override(self, guild_id: int) -> dict[str, Any]:
        return self.read(guild_id, lambda uow: dict(server_tables.tables_of(uow).override))

    def catalogue(self, guild_id: int) -> Catalogue:
        return self.read(guild_id, lambda uow: server_tables.tables_of(uow).catalogue)

    def warband_type_choices(self, guild_id: int, prefix: str) -> list[tuple[str, str]]:
        """The lists a new warband may be built from (``/warband create``'s autocomplete): one indexed read and memory."""
        return self.read(guild_id, server_tables.warband_type_choices, prefix)

    def lists(self, guild_id: int) -> server_tables.ServerLists:
        return self.read(guild_id, server_tables.server_lists)

    def house_list_named(self, guild_id: int, query: str) -> tuple[WarbandList, Catalogue] | None:
        """The server's own list called ``query`` (its id, name or an alias), with its catalogue; None if none."""
        return self.read(guild_id, server_tables.house_list_named, query)

    def set_campaign_rules(self, guild_id: int, actor_id: int, is_admin: bool,
                           override: Mapping[str, Any] | str | bytes | None) -> CampaignRules:
        """Replace campaign tables for this server (JSON object, see rules_data/campaign); None clears."""
        return self.act(_actor(guild_id, actor_id, is_admin), server_tables.set_campaign_rules, override)

    def set_house_list(self, guild_id: int, actor_id: int, is_admin: bool, data: Mapping[str, Any] | str | bytes) -> WarbandList:
        return self.act(_actor(guild_id, actor_id, is_admin), server_tables.set_house_list, data)

    def remove_house_list(self, guild_id: int, actor_id: int, is_admin: bool, query: str) -> str:
        return self.act(_actor(guild_id, actor_id, is_admin), server_tables.remove_house_list, query)

    def set_grade(self, guild_id: int, actor_id: int, is_admin: bool, grade: str, play: bool) -> tuple[tuple[str, bool], ...]:
        """Play (or stop playing) the lists, hired swords and characters of ``grade``; every grade and whether it is played."""
        return self.act(_actor(guild_id, actor_id, is_admin), server_tables.set_grade, grade, play)

    def grades_off(self, guild_id: int) -> frozenset[str]:
        return self.read(guild_id, lambda uow: server_tables.tables_of(uow).grades_off)


class PostBattle(_Verbs):
    """Post-battle sequences of every server (engine/campaign/actions/postbattle.py), one step per verb.

    ``rng`` rolls what a player does not type in."""

    def __init__(self, store: Store, rng: random.Random | None = None, *, now: Callable[[], dt.datetime] = _utc_now) -> None:
        super().__init__(store, now=now)
        self.rng = rng or random.Random()

    def get(self, guild_id: int, sequence_id: int) -> postbattle.SequenceView:
        return self.read(guild_id, postbattle.get, sequence_id)

    def warband_name(self, guild_id: int, warband_id: int) -> str:
        return self.read(guild_id, postbattle.warband_name, warband_id)

    def open_sequence(self, guild_id: int, warband: str) -> postbattle.SequenceView | None:
        return self.read(guild_id, postbattle.open_sequence, warband)

    def resume(self, guild_id: int, actor_id: int, is_admin: bool, warband: str) -> postbattle.SequenceView | None:
        """The open sequence to show again, one version on (the old message's buttons go stale)."""
        return self.act(_actor(guild_id, actor_id, is_admin), postbattle.resume, warband)

    def shown_at(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, message_ref: str) -> None:
        return self.act(_actor(guild_id, actor_id, is_admin), postbattle.shown_at, sequence_id, message_ref)

    def searchers(self, view: postbattle.SequenceView) -> list[Warrior]:
        return postbattle.searchers(view)

    def start(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, *,
              battle_id: int | None = None) -> postbattle.SequenceView:
        return self.act(_actor(guild_id, actor_id, is_admin), postbattle.start, warband, battle_id=battle_id)

    def cancel(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, *,
               version: int | None = None) -> postbattle.SequenceView:
        return self.act(_actor(guild_id, actor_id, is_admin), postbattle.cancel, sequence_id, version=version)

    def set_fighters(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int,
                     **marks: Any) -> postbattle.SequenceView:
        """Who did not fight, who went out of action, kills and scenario experience (``postbattle.set_fighters``)."""
        return self.act(_actor(guild_id, actor_id, is_admin), postbattle.set_fighters, sequence_id, version, **marks)

    def confirm_fighters(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int,
                         version: int) -> postbattle.SequenceView:
        return self.act(_actor(guild_id, actor_id, is_admin), postbattle.confirm_fighters, sequence_id, version)

    def roll_injuries(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int,
                      entered: Mapping[int, str] | None = None) -> postbattle.SequenceView:
        return self.act(_actor(guild_id, actor_id, is_admin), postbattle.roll_injuries, sequence_id, version, entered,
                         rng=self.rng)

    def settle_pit_fight(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int, warrior_id: int,
                         won: bool, entered: str = "") -> postbattle.SequenceView:
        return self.act(_actor(guild_id, actor_id, is_admin), postbattle.settle_pit_fight, sequence_id, version, warrior_id,
                         won, entered, rng=self.rng)

    def fight_pit(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int, warrior_id: int, *,
                  edition: str | None = None, toggles: Mapping[str, bool] | None = None, entered: str = "") -> postbattle.SequenceView:
        """Sold to the pits: the bot fights it with the combat engine, by the server's ``edition`` and ``toggles``."""
        return self.act(_actor(guild_id, actor_id, is_admin), postbattle.fight_pit, sequence_id, version, warrior_id,
                         entered=entered, edition=edition, toggles=toggles, rng=self.rng)

    def apply_experience(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int,
                         version: int, *, entered: Mapping[int, str] | None = None) -> postbattle.SequenceView:
        """``entered``: advance dice rolled at the table, per warrior id (postbattle.apply_experience)."""
        return self.act(_actor(guild_id, actor_id, is_admin), postbattle.apply_experience, sequence_id, version,
                        entered=entered, rng=self.rng)

    def choose(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int, warrior_id: int,
               kind: str, value: str, *, skill_lists: tuple[str, ...] = ()) -> postbattle.SequenceView:
        return self.act(_actor(guild_id, actor_id, is_admin), postbattle.choose, sequence_id, version, warrior_id, kind,
                         value, skill_lists=skill_lists, rng=self.rng)

    def explore(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int, *, entered: str = "",
                extra_dice: int = 0, hero_id: int | None = None, visit: bool = True) -> postbattle.SequenceView:
        return self.act(_actor(guild_id, actor_id, is_admin), postbattle.explore, sequence_id, version, entered=entered,
                         extra_dice=extra_dice, hero_id=hero_id, visit=visit, rng=self.rng)

    def reroll_exploration(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int,
                           dice: Iterable[int], *, entered: str = "") -> postbattle.SequenceView:
        """Re-roll the exploration dice at these positions (none: keep them), as the warband's re-rolls allow."""
        return self.act(_actor(guild_id, actor_id, is_admin), postbattle.reroll_exploration, sequence_id, version, tuple(dice),
                         entered=entered, rng=self.rng)

    def drop_exploration_dice(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int,
                              dice: Iterable[int]) -> postbattle.SequenceView:
        """Drop the exploration dice at these positions (the straggler's extra die: the player drops any one)."""
        return self.act(_actor(guild_id, actor_id, is_admin), postbattle.drop_exploration_dice, sequence_id, version,
                        tuple(dice), rng=self.rng)

    def share_experience(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int,
                         shares: Mapping[int, int]) -> postbattle.SequenceView:
        """Experience a place gives the heroes, shared as the owner says (warrior id -> points)."""
        return self.act(_actor(guild_id, actor_id, is_admin), postbattle.share_experience, sequence_id, version, shares,
                         rng=self.rng)

    def sell(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int,
             shards: int) -> postbattle.SequenceView:
        return self.act(_actor(guild_id, actor_id, is_admin), postbattle.sell, sequence_id, version, shards)

    def pay_upkeep(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int, *,
                   let_go: Iterable[int] = ()) -> postbattle.SequenceView:
        """The upkeep step: pay every hired sword who fought, except those ``let_go`` (they leave)."""
        return self.act(_actor(guild_id, actor_id, is_admin), postbattle.pay_upkeep, sequence_id, version, let_go=tuple(let_go))

    def finish(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int) -> postbattle.SequenceView:
        return self.act(_actor(guild_id, actor_id, is_admin), postbattle.finish, sequence_id, version)


class Captives(_Verbs):
    """Captives of every server (engine/campaign/actions/captives.py): who holds whom, and their fate.

    ``rng`` rolls the slavers' price when it is not typed."""

    def __init__(self, store: Store, rng: random.Random | None = None, *, now: Callable[[], dt.datetime] = _utc_now) -> None:
        super().__init__(store, now=now)
        self.rng = rng or random.Random()

    def view(self, guild_id: int, warband: str | int) -> captives.CaptivesView:
        return self.read(guild_id, captives.view, warband)

    def offer_ransom(self, guild_id: int, actor_id: int, is_admin: bool, captive_id: int, price: int) -> captives.CaptivesView:
        return self.act(_actor(guild_id, actor_id, is_admin), captives.offer_ransom, captive_id, price)

    def pay_ransom(self, guild_id: int, actor_id: int, is_admin: bool, captive_id: int) -> captives.CaptivesView:
        return self.act(_actor(guild_id, actor_id, is_admin), captives.pay_ransom, captive_id)

    def exchange(self, guild_id: int, actor_id: int, is_admin: bool, captive_id: int, for_captive_id: int) -> captives.CaptivesView:
        return self.act(_actor(guild_id, actor_id, is_admin), captives.exchange, captive_id, for_captive_id)

    def sell(self, guild_id: int, actor_id: int, is_admin: bool, captive_id: int, *, entered: str = "",
             notices: list[str] | None = None) -> captives.CaptivesView:
        """Sell a captive to the slavers; ``notices``: who took command of his warband if he led it."""
        return self.act_noting(_actor(guild_id, actor_id, is_admin), notices, captives.sell, captive_id, entered=entered,
                               rng=self.rng)

    def raise_zombie(self, guild_id: int, actor_id: int, is_admin: bool, captive_id: int, *,
                     notices: list[str] | None = None) -> captives.CaptivesView:
        """An Undead captor kills a captive for a new Zombie; ``notices``: who took command of his warband if he led it."""
        return self.act_noting(_actor(guild_id, actor_id, is_admin), notices, captives.raise_zombie, captive_id)

    def sacrifice(self, guild_id: int, actor_id: int, is_admin: bool, captive_id: int, *,
                  notices: list[str] | None = None) -> captives.CaptivesView:
        """A Possessed captor sacrifices a captive; ``notices``: who took command of his warband if he led it."""
        return self.act_noting(_actor(guild_id, actor_id, is_admin), notices, captives.sacrifice, captive_id)

    def choose_captor(self, guild_id: int, actor_id: int, is_admin: bool, captive_id: int, captor_id: int) -> captives.CaptivesView:
        return self.act(_actor(guild_id, actor_id, is_admin), captives.choose_captor, captive_id, captor_id)

    def settle_outside(self, guild_id: int, actor_id: int, is_admin: bool, captive_id: int, outcome: str, *,
                       price: int = 0) -> captives.CaptivesView:
        return self.act(_actor(guild_id, actor_id, is_admin), captives.settle_outside, captive_id, outcome, price=price)


def sheets_agree(first: Store, second: Store, warbands: list[tuple[int, str]]) -> None:
    """These warbands' roster sheets (server id, name) read the same from two databases that should
    hold the same (a copy made by ``mordheim-bot migrate-db``); MordheimError naming the first that differs."""
    from engine.errors import MordheimError

    before, after = Campaigns(first), Campaigns(second)
    for guild_id, name in warbands:
        if before.show_warband(guild_id, name) != after.show_warband(guild_id, name):
            raise MordheimError(f"The copy of {name} (server {guild_id}) does not read as the original does.")
