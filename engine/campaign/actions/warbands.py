"""What members do to a warband as a whole: create, rename, edit, hand over, delete, the treasury,
battles on one side, export and import.

Each function is one action in one unit of work (``uow``) for one ``Actor``; only the owner or
a member with Manage Server may change a warband. Names, types and amounts are checked here and
every refusal says how to fix the input.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from collections.abc import Mapping
from typing import Any

from engine.campaign.actions.changes import change_warband
from engine.campaign.actions.common import changeable_warband, warband_named
from engine.campaign.actions.ledger_view import named_entries
from engine.campaign.actions.server_tables import grade_refusal, tables_of
from engine.campaign.actions.shards_found import shards_found
from engine.campaign.lists.catalogue import Catalogue, WarbandList
from engine.campaign.model import Actor, Battle, BattleResult, Entity, LedgerEntry, TreasuryAudit, Warband, WarbandSummary
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules import transfer
from engine.campaign.rules.scenarios import CUSTOM_PREFIX, battle_scenario, exact_scenario
from engine.campaign.rules.validation import MAX_GOLD, MAX_WYRDSTONE, SAME_NAME_HINT, clean_name, clean_notes, whole_number
from engine.errors import InvalidData, LimitExceeded, MordheimError

MAX_WARBANDS_PER_GUILD = 1000


def amount(value: Any, what: str, limit: int) -> int:
    """A whole number of gold crowns or shards from 0 to ``limit``."""
    n = whole_number(value, what)
    if n < 0:
        raise MordheimError(f"{what} cannot be negative ({n}).", hint="Give 0 or more.")
    if n > limit:
        raise LimitExceeded(f"{what} of {n} is more than the limit of {limit:,}.")
    return n


def _check_free_name(uow: UnitOfWork, name: str, *, except_id: int | None = None) -> None:
    existing = uow.warbands.named(name)
    if existing is not None and existing.id != except_id:
        raise MordheimError(f"This server already has a warband called '{existing.name}'.",
                            hint=SAME_NAME_HINT)


def _room_for_one_more(uow: UnitOfWork) -> None:
    count = uow.warbands.count()
    if count >= MAX_WARBANDS_PER_GUILD:
        raise LimitExceeded(f"This server already has {count} warbands, the most one server may keep.",
                            hint="Delete old warbands first.")


def create_warband(uow: UnitOfWork, actor: Actor, name: str, warband_type: str, *, notes: str = "",
                   gold_crowns: int | None = None, wyrdstone_shards: int = 0) -> Warband:
    """A new warband owned by the actor. Starting gold is recorded in the ledger.

    A ``warband_type`` naming one of the server's warband lists (id, name or alias, e.g.
    'Reiklanders') builds it from that list: its type is the list's name and, unless
    ``gold_crowns`` is given, it starts with the list's starting gold. Any other type is a
    custom warband (no list; 0 gc unless given). A list of a grade the server turned off is
    refused, saying how to turn it back on.
    """
    name = clean_name(name, "The warband name")
    warband_type = clean_name(warband_type, "The warband type")
    notes = clean_notes(notes)
    gold = None if gold_crowns is None else amount(gold_crowns, "Gold crowns", MAX_GOLD)
    shards = amount(wyrdstone_shards, "Wyrdstone shards", MAX_WYRDSTONE)
    tables = tables_of(uow)
    wlist, warband_type = list_or_custom(tables.catalogue, warband_type)
    if wlist is not None:
        if not tables.plays(wlist.grade):
            raise grade_refusal(f"The {wlist.name} list", str(wlist.grade))
        warband_type = wlist.name
        if gold is None:
            gold = wlist.starting_gold + sum(r.effects.get("starting_gold", 0) for r in wlist.special_rules)
    _check_free_name(uow, name)
    _room_for_one_more(uow)
    warband = uow.warbands.add(actor.member_id, {"name": name, "type": warband_type, "list": wlist.id if wlist else None,
                                                 "notes": notes, "gold_crowns": gold or 0, "wyrdstone_shards": shards}, uow.at)
    uow.ledger.record(warband_id=warband.id, warband_name=name, what="warband.create", entity=Entity.WARBAND,
                      entity_id=warband.id, before=None, after=warband.snapshot(), reason="created")
    return warband


def list_or_custom(catalogue: Catalogue, warband_type: str) -> tuple[WarbandList | None, str]:
    """The list a warband type names, or None and the type for a custom warband. A near miss of a
    list's name ('Skavn') is refused rather than made a custom warband without the list's limits;
    ``custom:`` in front keeps a custom type that looks like a list's name."""
    if warband_type.casefold().startswith(CUSTOM_PREFIX):
        custom = clean_name(warband_type[len(CUSTOM_PREFIX):], "The custom warband type")
        return None, custom
    wlist = catalogue.find_warband(warband_type)
    if wlist is not None:
        return wlist, warband_type
    near = catalogue.near_warband(warband_type)
    if near is not None:
        raise MordheimError(f"'{warband_type[:60]}' is close to the {near.name} list, but not the same.",
                            hint=f"Pick `{near.name}` from the list to build from it, or write `custom: {warband_type[:60]}` "
                                 "for a custom warband kept by hand.")
    return None, warband_type


def rename_warband(uow: UnitOfWork, actor: Actor, name: str, new_name: str) -> Warband:
    new_name = clean_name(new_name, "The new warband name")
    warband = changeable_warband(uow, actor, name)
    _check_free_name(uow, new_name, except_id=warband.id)
    return with_warriors(uow, change_warband(uow, warband, {"name": new_name}, what="warband.rename",
                                             reason=f"renamed from {warband.name}"))


def edit_warband(uow: UnitOfWork, actor: Actor, name: str, *, warband_type: str | None = None, notes: str | None = None,
                 owner_id: int | None = None) -> Warband:
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
    warband = changeable_warband(uow, actor, name)
    if "type" in changes:  # a type naming a list builds the warband from it from now on
        tables = tables_of(uow)
        wlist, changes["type"] = list_or_custom(tables.catalogue, changes["type"])
        if wlist is not None and wlist.id != warband.list_id and not tables.plays(wlist.grade):
            raise grade_refusal(f"The {wlist.name} list", str(wlist.grade))
        changes["type"] = wlist.name if wlist else changes["type"]
        changes["list"] = wlist.id if wlist else None
    return with_warriors(uow, change_warband(uow, warband, changes, what="warband.edit", reason=""))


def delete_warband(uow: UnitOfWork, actor: Actor, name: str) -> dict[str, Any]:
    """Delete the warband, its warriors and battles. Returns its export (kept in the ledger too)."""
    warband = with_warriors(uow, changeable_warband(uow, actor, name))
    export = transfer.export(warband, uow.battles.of_warband(warband.id, warband.name), uow.at)
    uow.warbands.delete(warband.id)
    uow.ledger.record(warband_id=warband.id, warband_name=warband.name, what="warband.delete", entity=Entity.WARBAND,
                      entity_id=warband.id, before={**warband.snapshot(), "export": export}, after=None, reason="deleted")
    return export


def change_treasury(uow: UnitOfWork, actor: Actor, name: str, *, gold: int = 0, wyrdstone: int = 0, reason: str) -> Warband:
    """Add (or, negative, spend) gold crowns and wyrdstone shards. The treasury never goes below 0."""
    gold = whole_number(gold, "The gold change")
    wyrdstone = whole_number(wyrdstone, "The wyrdstone change")
    reason = clean_notes(reason, "The reason")
    if not reason:
        raise MordheimError("Say why the treasury changes (e.g. 'sold 2 shards').", hint="The reason goes in the ledger.")
    if gold == 0 and wyrdstone == 0:
        raise MordheimError("Nothing to change: both amounts are 0.")
    warband = changeable_warband(uow, actor, name)
    new_gold, new_shards = warband.gold_crowns + gold, warband.wyrdstone_shards + wyrdstone
    if new_gold < 0:
        raise MordheimError(f"{warband.name} has {warband.gold_crowns} gold crowns; taking {-gold} would leave {new_gold}.",
                            hint="The treasury cannot go below 0 gc.")
    if new_shards < 0:
        raise MordheimError(f"{warband.name} has {warband.wyrdstone_shards} wyrdstone shards; taking {-wyrdstone} would leave "
                            f"{new_shards}.", hint="The treasury cannot go below 0 shards.")
    if new_gold > MAX_GOLD or new_shards > MAX_WYRDSTONE:
        raise LimitExceeded(f"A treasury holds at most {MAX_GOLD:,} gc and {MAX_WYRDSTONE:,} shards.")
    return with_warriors(uow, change_warband(uow, warband, {"gold_crowns": new_gold, "wyrdstone_shards": new_shards},
                                             what="treasury", reason=reason))


def audit_treasury(uow: UnitOfWork, name: str) -> TreasuryAudit:
    """The stored treasury next to the sum of the ledger's changes: they must agree."""
    warband = warband_named(uow, name)
    gold, shards = uow.ledger.treasury_totals(warband.id)
    return TreasuryAudit(warband.gold_crowns, warband.wyrdstone_shards, gold, shards)


# ---------------------------------------------------------------------- reading
def with_warriors(uow: UnitOfWork, warband: Warband) -> Warband:
    """``warband`` with its warriors, dead and retired too: leader, heroes, then everyone else."""
    return replace(warband, warriors=uow.warriors.of_warband(warband.id, warband.name))


def get_warband(uow: UnitOfWork, name: str) -> Warband:
    """The warband with its warriors. NotFoundError lists the closest names."""
    return with_warriors(uow, warband_named(uow, name))


def list_warbands(uow: UnitOfWork, *, owner_id: int | None = None) -> list[WarbandSummary]:
    """The server's warbands (or one member's), each marked with its list's grade when the server no longer plays it."""
    summaries = uow.warbands.summaries(owner_id)
    tables = tables_of(uow) if any(s.list_id for s in summaries) else None
    if tables is None or not tables.grades_off:
        return summaries
    out = []
    for s in summaries:
        wlist = tables.catalogue.warbands.get(s.list_id) if s.list_id else None
        out.append(replace(s, grade_off=wlist.grade) if wlist is not None and not tables.plays(wlist.grade) else s)
    return out


def list_battles(uow: UnitOfWork, name: str, *, limit: int = 20) -> list[Battle]:
    """Newest first."""
    warband = warband_named(uow, name)
    return uow.battles.of_warband(warband.id, warband.name, max(1, min(limit, 500)))


def ledger_entries(uow: UnitOfWork, name: str, *, limit: int = 20) -> list[LedgerEntry]:
    """The warband's changes, newest first, each naming the warrior it changed."""
    warband = warband_named(uow, name)
    return named_entries(uow, warband, uow.ledger.entries(warband.id, max(1, min(limit, 500))))


# ---------------------------------------------------------------------- battles (one side)
def battle_date(fought_on: str | dt.date | None, at: str) -> str:
    """The date a battle was fought: the one given, else the day of ``at`` (the action's stamp). A day
    after ``at``'s is allowed (the member's day may run ahead of the bot's clock), none later."""
    day = fought_on.isoformat() if isinstance(fought_on, dt.date) else (fought_on or at[:10])
    today = dt.date.fromisoformat(at[:10])
    try:
        fought = dt.date.fromisoformat(day)
    except ValueError:  # not a date: the battle's own check says so (transfer.clean_battle)
        return day
    if fought > today + dt.timedelta(days=1):
        raise MordheimError(f"{day} has not come yet: a battle is recorded once it is fought (today is {today.isoformat()}).",
                            hint="Leave `date` out for today, or give the day it was played.")
    return day


def cleaned_battle(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A battle as typed, checked (``transfer.clean_battle``), its scenario read against the
    rulebook's: a rulebook scenario under its own name and ``scenario_id``, a custom one with none
    (``scenarios.battle_scenario`` refuses a near miss of a rulebook name)."""
    battle = transfer.clean_battle(raw)
    scenario = battle_scenario(battle["scenario"])
    return {**battle, "scenario": scenario.name, "scenario_id": scenario.scenario_id}


def add_battle(uow: UnitOfWork, warband: Warband, battle: Mapping[str, Any], *, opponent_warband_id: int | None = None,
               pair_id: int | None = None) -> Battle:
    """Store one side's battle (a checked ``Battle.snapshot()``, with ``scenario_id``, ``rating`` and
    ``opponent_rating`` when known) with its ledger row; the battle as stored."""
    battle_id = uow.battles.add(warband.id, battle, recorded_by=uow.member_id, at=uow.at,
                                opponent_warband_id=opponent_warband_id, pair_id=pair_id)
    uow.ledger.record(warband_id=warband.id, warband_name=warband.name, what="battle", entity=Entity.BATTLE, entity_id=battle_id,
                      before=None, after=dict(battle), reason=battle["result"])
    uow.warbands.touch(warband.id)
    return Battle(id=battle_id, warband=warband.name, warband_id=warband.id, fought_on=battle["fought_on"],
                  scenario=battle["scenario"], opponents=battle["opponents"], result=BattleResult(battle["result"]),
                  notes=battle["notes"], recorded_by=uow.member_id, opponent_warband_id=opponent_warband_id, pair_id=pair_id,
                  scenario_id=battle.get("scenario_id"), rating=battle.get("rating"), opponent_rating=battle.get("opponent_rating"))


def check_fielded(uow: UnitOfWork, *bands: Warband, opponent: Warband | None = None) -> None:
    """MordheimError unless each of ``bands`` and ``opponent`` (the warband a battle is recorded
    against) has an active warrior: a warband no one can field fought no battle (a fresh warband's
    first battle, recorded before its hires, would put a result on its opponent too)."""
    named = [*bands, *([opponent] if opponent is not None else [])]
    active = uow.warriors.active_by_warband({b.id: b.name for b in named}, only=[b.id for b in named])
    for band in named:
        if active.get(band.id):
            continue
        if band is opponent:
            raise MordheimError(f"{band.name}, the opponent, has no active warriors, so it cannot have fought this battle; "
                                "nothing was recorded.",
                                hint="Its owner must hire or add its warriors first (`/hire fighter`, `/warrior add`); then "
                                     "record the battle again.")
        raise MordheimError(f"{band.name} has no active warriors, so it cannot have fought a battle; nothing was recorded.",
                            hint="Hire its warriors with `/hire fighter` (or add them with `/warrior add`) first, then "
                                 "record the battle.")


def record_battle(uow: UnitOfWork, actor: Actor, name: str, *, result: str, scenario: str = "", opponents: str = "",
                  fought_on: str | dt.date | None = None, notes: str = "") -> Battle:
    """Record a battle of one warband (the other side typed as text, or not a warband of this server)."""
    battle = cleaned_battle({"result": result, "scenario": scenario, "opponents": opponents,
                             "fought_on": battle_date(fought_on, uow.at), "notes": notes})
    band = changeable_warband(uow, actor, name)
    check_fielded(uow, band)
    return add_battle(uow, band, battle)


# ---------------------------------------------------------------------- export / import
def export_warband(uow: UnitOfWork, name: str) -> dict[str, Any]:
    """The warband as JSON-ready data: {"format": "mordheim-bot/warband", "version": 3, ...}."""
    warband = get_warband(uow, name)
    return transfer.export(warband, uow.battles.of_warband(warband.id, warband.name), uow.at,
                           shards_found=shards_found(uow, only=[warband.id]).get(warband.id, 0))


def import_problems(uow: UnitOfWork, data: bytes | str | Mapping[str, Any], *,
                    name: str | None = None) -> tuple[dict[str, Any] | None, list[str]]:
    """(the file's data checked and normalised, []) or (None, every problem) for this server.
    ``name`` imports it under another name, checked as a new warband's is (MordheimError if bad)."""
    tables = tables_of(uow)
    new_name = None if name is None else clean_name(name, "The warband name")
    parsed, problems = transfer.problems(data, tables.rules, lambda taken: uow.warbands.id_called(taken) is not None,
                                         tables.catalogue, name=new_name)
    wlist = tables.catalogue.warbands.get(parsed["warband"]["list"] or "") if parsed is not None else None
    if wlist is not None and not tables.plays(wlist.grade):  # an import makes a new warband: refused like a new one
        refusal = grade_refusal(f"The {wlist.name} list", str(wlist.grade))
        problems = [*problems, f"{refusal.message} {refusal.hint}"]
    return parsed, problems


def validate_import(uow: UnitOfWork, data: bytes | str | Mapping[str, Any], *, name: str | None = None) -> list[str]:
    """Every problem with an export file for this server (empty list: it can be imported)."""
    return import_problems(uow, data, name=name)[1]


def import_warband(uow: UnitOfWork, actor: Actor, data: bytes | str | Mapping[str, Any], *, name: str | None = None,
                   source: str = "") -> Warband:
    """Create a warband owned by the actor from an export (under ``name`` when given). Stores
    nothing unless every check passes. ``source`` says where the file came from, in the ledger."""
    parsed, problems = import_problems(uow, data, name=name)
    if problems or parsed is None:
        raise InvalidData("The warband file", problems)
    _room_for_one_more(uow)
    w = parsed["warband"]
    warband = uow.warbands.add(actor.member_id, {
        "name": w["name"].strip(), "type": w["type"].strip(), "list": w["list"], "notes": clean_notes(w.get("notes", "")),
        "gold_crowns": w["gold_crowns"], "wyrdstone_shards": w["wyrdstone_shards"], "stash": w["stash"]}, uow.at)
    for warrior in parsed["warriors"]:
        uow.warriors.add(warband.id, warrior, uow.at)
    for battle in parsed["battles"]:  # a rulebook scenario's name finds its id again (files carry names only)
        found = exact_scenario(battle["scenario"])
        uow.battles.add(warband.id, {**battle, "scenario_id": found.id if found else None}, recorded_by=actor.member_id, at=uow.at)
    warband = with_warriors(uow, warband)
    uow.ledger.record(warband_id=warband.id, warband_name=warband.name, what="warband.import", entity=Entity.WARBAND,
                      entity_id=warband.id, before=None,
                      after={**warband.snapshot(), "warriors": len(parsed["warriors"]), "battles": len(parsed["battles"]),
                             "shards_found": w["shards_found"]},
                      reason=f"imported from {source}" if source else "imported")
    return warband
