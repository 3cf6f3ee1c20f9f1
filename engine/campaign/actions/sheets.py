"""The roster sheet (``/warband show``) and the roster check (``/warband check``).

A sheet is built from the warband, its warriors, its record and the server's lists and tables.
Every change to a warband, and to the server's settings, writes a ledger row in the same
transaction, so the newest ledger ids (the warband's, the server settings') and the warband's
``updated_at`` are an exact version of its sheet: a sheet built for the same version is handed
out again instead of being rebuilt, in this process and per database.
"""

from __future__ import annotations

import threading
from typing import Any

from engine.campaign.actions.common import warband_named
from engine.campaign.actions.server_tables import tables_of
from engine.campaign.actions.warbands import with_warriors
from engine.campaign.lists.catalogue import Catalogue, DramatisPersona
from engine.campaign.model import Advance, HireChoice, HirelingNote, TreasuryView, Warband, WarbandSheet, Warrior
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules import roster as roster_rules
from engine.campaign.rules.rating import warband_rating

SHEETS_KEPT = 256  # roster sheets remembered for repeat views

_kept: dict[tuple[str, int, int], tuple[Any, WarbandSheet]] = {}
_kept_lock = threading.Lock()


def _version(uow: UnitOfWork, warband: Warband) -> tuple[Any, ...]:
    return uow.ledger.newest_of_warband(warband.id), uow.ledger.newest_setting(), warband.updated_at


def _key(uow: UnitOfWork, warband: Warband) -> tuple[str, int, int]:
    return uow.database, uow.guild_id, warband.id


def remembered_sheet(uow: UnitOfWork, name: str) -> WarbandSheet | None:
    """The sheet ``show_warband`` built before, if it is still current; else None. Three indexed
    reads, so the event loop may ask before it sends the work of building a sheet to a thread. An
    unknown name is None too: ``show_warband`` then gives the error with the closest names."""
    if not isinstance(name, str) or not name.strip():
        return None
    warband = uow.warbands.named(name)
    if warband is None:
        return None
    kept = _kept.get(_key(uow, warband))
    return kept[1] if kept is not None and kept[0] == _version(uow, warband) else None


def show_warband(uow: UnitOfWork, name: str) -> WarbandSheet:
    """Everything a roster display needs: warriors, rating with its breakdown, next advances, size."""
    warband = warband_named(uow, name)
    key, version = _key(uow, warband), _version(uow, warband)
    kept = _kept.get(key)
    if kept is not None and kept[0] == version:
        return kept[1]
    sheet = _build(uow, with_warriors(uow, warband))
    with _kept_lock:
        _kept[key] = (version, sheet)
        while len(_kept) > SHEETS_KEPT:
            _kept.pop(next(iter(_kept)))
    return sheet


TREASURY_FIELDS = ("gold_crowns", "wyrdstone_shards")
TREASURY_LOOKBACK = 200  # ledger rows read to find the newest treasury changes


def treasury(uow: UnitOfWork, name: str, *, recent: int = 10) -> TreasuryView:
    """The warband's gold, shards and stash, with its ``recent`` newest changes to gold or shards."""
    sheet = show_warband(uow, name)
    rows = uow.ledger.entries(sheet.warband.id, TREASURY_LOOKBACK)
    moved = [e for e in rows if any(field in TREASURY_FIELDS for field, _, _ in e.changes())]
    return TreasuryView(sheet=sheet, changes=tuple(moved[:recent]))


def _build(uow: UnitOfWork, wb: Warband) -> WarbandSheet:
    tables = tables_of(uow)
    rules, catalogue = tables.rules, tables.catalogue
    warriors = wb.warriors
    wlist = tables.warband_list(wb)
    limit = roster_rules.size_limit(rules, wlist, wb.warband_type, warriors)
    costs = {w.id: roster_rules.warrior_cost(catalogue, wlist, w) for w in warriors}
    stash_prices = [roster_rules.item_value(catalogue, wlist, None, item) for item in wb.stash]
    return WarbandSheet(
        warband=wb,
        rating=warband_rating(warriors, rules, catalogue),
        advances=tuple(Advance(w.name, w.role, w.experience, rules.next_advance(w.role, w.experience),
                               rules.thresholds(w.role))
                       for w in warriors if w.is_active),
        models=roster_rules.places(warriors),  # against its maximum: a captive keeps his place
        max_models=limit.maximum,
        max_models_reasons=limit.reasons,
        record=uow.battles.record_of(wb.id),
        list_name=wlist.name if wlist else None,
        list_source=wlist.source if wlist else "",
        list_missing=wb.list_id is not None and wlist is None,
        costs=costs,
        value=sum(costs[w.id].total for w in warriors if w.is_active),
        stash_value=sum(p for p in stash_prices if p is not None),
        heroes=roster_rules.hero_places(warriors),
        max_heroes=roster_rules.max_heroes(rules, wlist),
        can_hire=tuple(HireChoice(o.fighter.name, o.fighter.role, o.fighter.cost, o.room, o.why_not)
                       for o in (roster_rules.hire_options(rules, wlist, warriors) if wlist else ())),
        list_grade=wlist.grade if wlist else None,
        grade_off=tables.grade_off(wb) is not None,
        hirelings=tuple(note for w in warriors if w.is_active and (note := hireling_note(catalogue, w)) is not None),
    )


def hireling_note(catalogue: Catalogue, w: Warrior) -> HirelingNote | None:
    """What the sheet says of a living hired sword or Dramatis Persona beyond his card: his upkeep, what
    he asks that is not gold, who comes with him, his own gear and spells, what the bot does not apply."""
    hs = roster_rules.sword_of(catalogue, w)
    if hs is None:
        return None
    lines = [f"Not gold: {hs.hire_note}"] if hs.hire_note else []
    lines += [f"With him: {c.name}" + (f" — {c.summary}" if c.summary else "") for c in hs.companions]
    if isinstance(hs, DramatisPersona):
        lines += [f"{g.name}: {g.summary}" for g in hs.gear]
    lines += [f"Not applied by the bot: {n}" for n in hs.notes]
    grade = f", grade {hs.grade}" if hs.grade else ""
    return HirelingNote(warrior=w.name, what=f"{hs.kind}{grade}, {hs.source}", upkeep=hs.upkeep, lines=tuple(lines),
                        upkeep_in=hs.upkeep_in)


def check_warband(uow: UnitOfWork, name: str) -> tuple[Warband, roster_rules.RosterCheck]:
    """Everything the roster breaks: list counts, kit off the lists, characteristics over racial
    maxima, the campaign tables' limits; with notes on hand edits and warriors made by hand."""
    wb = with_warriors(uow, warband_named(uow, name))
    tables = tables_of(uow)
    check = roster_rules.check_roster(tables.catalogue, tables.rules, tables.warband_list(wb), wb.list_id, wb.warband_type,
                                      list(wb.warriors))
    return wb, check

