"""The campaign of one server: battles recorded on both sides, the standings and the battle log.

A battle against another warband of the same server is one row per side (the opposite result on
the other side), both carrying the first row's id as ``pair_id``; each side's ledger row belongs
to its own warband, so each owner can undo his side. Standings read every warband of the server
at once (one query per table), never another server's rows.

The standings of a server are kept in memory and kept up to date incrementally (``standings``
says how): after a change only the warbands it touched are rated again.
"""

from __future__ import annotations

import datetime as dt
import threading
from dataclasses import dataclass, replace
from typing import Any

from engine.campaign.actions.common import changeable_warband, warband_named
from engine.campaign.actions.postbattle import found_by_warband
from engine.campaign.actions.server_tables import tables_of
from engine.campaign.actions.warbands import add_battle, battle_date
from engine.campaign.model import Actor, Battle, BattleResult, Warband, Warrior
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules import transfer
from engine.campaign.rules.rating import warband_rating
from engine.errors import MordheimError

TOP_HEROES = 5
LOG_LIMIT = 500
STANDINGS_KEPT = 256  # servers whose standings are remembered


@dataclass(frozen=True)
class Standing:
    warband: str
    owner_id: int
    warband_type: str
    rating: int
    battles: int
    wins: int
    draws: int
    losses: int
    shards_found: int
    best_hero: str  # "Hans (24 xp)" or ""


@dataclass(frozen=True)
class HeroStanding:
    warband: str
    hero: str
    experience: int


@dataclass(frozen=True)
class Standings:
    rows: tuple[Standing, ...]  # most wins first, then rating
    heroes: tuple[HeroStanding, ...]  # the most experienced heroes of the server


@dataclass(frozen=True)
class LogEntry:
    id: int
    fought_on: str
    warband: str
    result: str
    opponent: str  # the other warband of the server, or what was typed
    scenario: str
    notes: str
    both_sides: bool  # recorded on both warbands


def record_battle_between(uow: UnitOfWork, actor: Actor, warband: str, opponent: str, *, result: str, scenario: str = "",
                          fought_on: str | dt.date | None = None, notes: str = "") -> tuple[Battle, Battle]:
    """Record a battle against ``opponent``, a warband of this server, on both sides. The member
    must be allowed to change ``warband``; the opponent's side is recorded as a fact of the same
    battle (its owner can undo it on his warband)."""
    ours = changeable_warband(uow, actor, warband)
    theirs = warband_named(uow, opponent)
    if theirs.id == ours.id:
        raise MordheimError(f"{ours.name} cannot fight itself.", hint="Name the other warband, or leave `opponent` empty.")
    mine = transfer.clean_battle({"result": result, "scenario": scenario, "opponents": theirs.name,
                                  "fought_on": battle_date(fought_on, uow.at), "notes": notes})
    other = {**mine, "result": str(BattleResult(mine["result"]).opposite), "opponents": ours.name}
    first = add_battle(uow, ours, mine, opponent_warband_id=theirs.id)
    uow.battles.set_pair(first.id, first.id)
    second = add_battle(uow, theirs, other, opponent_warband_id=ours.id, pair_id=first.id)
    return replace(first, pair_id=first.id), second


def log(uow: UnitOfWork, *, limit: int = 50) -> list[LogEntry]:
    """Every battle of the server, newest first; a battle recorded on both sides once."""
    return [LogEntry(id=e.battle.id, fought_on=e.battle.fought_on, warband=e.battle.warband, result=e.battle.result,
                     opponent=e.opponent_name or e.battle.opponents, scenario=e.battle.scenario, notes=e.battle.notes,
                     both_sides=e.opponent_name is not None)
            for e in uow.battles.log(max(1, min(limit, LOG_LIMIT)))]


# ---------------------------------------------------------------------- standings
@dataclass(frozen=True)
class _Kept:
    """A server's standings as built: the newest ledger row they saw, and each warband's line."""

    newest: int | None
    standings: Standings
    lines: dict[int, tuple[Standing, tuple[HeroStanding, ...]]]  # warband id -> its line and its heroes


_kept: dict[tuple[str, int], _Kept] = {}
_kept_lock = threading.Lock()


def remembered_standings(uow: UnitOfWork) -> Standings | None:
    """The standings built before, if they are still current; else None. One indexed read, which
    never waits for a write: the event loop may ask before it sends the work to a thread."""
    kept = _kept.get((uow.database, uow.guild_id))
    return kept.standings if kept is not None and kept.newest == uow.ledger.newest() else None


def standings(uow: UnitOfWork) -> Standings:
    """Every warband of the server, most wins first, and its most experienced heroes.

    Everything a line shows (warriors, battles, shards found, the warband itself) changes only
    with a ledger row of its warband, and the tables with a row of the server's settings. So the
    server's newest ledger id says whether the standings moved, and the rows since the last build
    say which warbands to rate again: a change rebuilds one line, not a thousand."""
    key = (uow.database, uow.guild_id)
    newest = uow.ledger.newest()
    kept = _kept.get(key)
    if kept is not None and kept.newest == newest:
        return kept.standings
    changed = uow.ledger.warbands_changed_since(kept.newest) if kept is not None and kept.newest is not None else None
    if changed is None or None in changed:  # the first build, or the server's tables changed: every line
        lines = _lines(uow, uow.warbands.every())
    else:
        lines = dict(kept.lines) if kept is not None else {}
        ids = {i for i in changed if i is not None}
        for warband_id in ids:
            lines.pop(warband_id, None)
        lines.update(_lines(uow, [w for w in (uow.warbands.get(i) for i in ids) if w is not None]))
    rows = sorted((line[0] for line in lines.values()), key=lambda s: (-s.wins, -s.rating, s.warband.casefold()))
    heroes = sorted((h for line in lines.values() for h in line[1]), key=lambda h: (-h.experience, h.warband.casefold(), h.hero.casefold()))
    built = _Kept(newest=newest, standings=Standings(tuple(rows), tuple(heroes[:TOP_HEROES])), lines=lines)
    with _kept_lock:
        _kept[key] = built
        while len(_kept) > STANDINGS_KEPT:
            _kept.pop(next(iter(_kept)))
    return built.standings


def _lines(uow: UnitOfWork, warbands: list[Warband]) -> dict[int, tuple[Standing, tuple[HeroStanding, ...]]]:
    """The standings lines of these warbands (one query per table for all of them)."""
    if not warbands:
        return {}
    tables = tables_of(uow)
    ids = [w.id for w in warbands]
    roster = uow.warriors.active_by_warband({w.id: w.name for w in warbands}, only=ids)
    records = uow.battles.records(only=ids)
    found = found_by_warband(uow, only=ids)
    return {w.id: _line(w, roster.get(w.id, []), records.get(w.id), found.get(w.id, 0), tables.rules, tables.catalogue)
            for w in warbands}


def _line(w: Warband, warriors: list[Warrior], record: dict[str, int] | None, found: int, rules: Any,
          catalogue: Any) -> tuple[Standing, tuple[HeroStanding, ...]]:
    r = record or {"win": 0, "draw": 0, "loss": 0}
    best = max((x for x in warriors if x.is_hero), key=lambda x: x.experience, default=None)
    heroes = tuple(HeroStanding(w.name, x.name, x.experience) for x in warriors if x.is_hero)
    standing = Standing(warband=w.name, owner_id=w.owner_id, warband_type=w.warband_type,
                        rating=warband_rating(warriors, rules, catalogue).total, battles=sum(r.values()), wins=r["win"],
                        draws=r["draw"], losses=r["loss"], shards_found=found,
                        best_hero=f"{best.name} ({best.experience} xp)" if best else "")
    return standing, heroes
