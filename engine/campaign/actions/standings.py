"""The campaign of one server: battles recorded on both sides, the standings and the battle log.

A battle against another warband of the same server is one row per side (the opposite result on
the other side), both carrying the first row's id as ``pair_id``; each side's ledger row belongs
to its own warband, so each owner can undo his side (actions/undo_scope.py says why a battle is
not taken back whole, as a captive's sale is). A battle needs warriors on both sides: a
warband with no active warrior is refused, as the one recording or as the opponent. Standings
read every warband of the server at once (one query per table), never another server's rows.

The standings of a server are kept in memory and kept up to date incrementally (``standings``
says how): after a change only the warbands it touched are rated again.
"""

from __future__ import annotations

import bisect
import datetime as dt
import threading
from dataclasses import dataclass, replace
from typing import Any

from engine.campaign.actions.common import changeable_warband, warband_named
from engine.campaign.actions.server_tables import tables_of
from engine.campaign.actions.shards_found import shards_found
from engine.campaign.actions.warbands import add_battle, battle_date, check_fielded, cleaned_battle
from engine.campaign.model import Actor, Battle, BattleResult, Entity, Warband, Warrior
from engine.campaign.ports import UnitOfWork
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
    custom_scenario: bool = False  # the scenario named is not one of the rulebook's


def record_battle_between(uow: UnitOfWork, actor: Actor, warband: str, opponent: str, *, result: str, scenario: str = "",
                          fought_on: str | dt.date | None = None, notes: str = "") -> tuple[Battle, Battle]:
    """Record a battle against ``opponent``, a warband of this server, on both sides. The member
    must be allowed to change ``warband``; the opponent's side is recorded as a fact of the same
    battle (its owner can undo it on his warband)."""
    ours = changeable_warband(uow, actor, warband)
    theirs = warband_named(uow, opponent)
    if theirs.id == ours.id:
        raise MordheimError(f"{ours.name} cannot fight itself.", hint="Name the other warband, or leave `opponent` empty.")
    mine = cleaned_battle({"result": result, "scenario": scenario, "opponents": theirs.name,
                           "fought_on": battle_date(fought_on, uow.at), "notes": notes})
    check_fielded(uow, ours, opponent=theirs)
    # both ratings as they stand when the battle is recorded, before its post-battle sequences (the underdog experience)
    rating, their_rating = battle_ratings(uow, ours, theirs)
    mine.update(rating=rating, opponent_rating=their_rating)
    other = {**mine, "result": str(BattleResult(mine["result"]).opposite), "opponents": ours.name,
             "rating": their_rating, "opponent_rating": rating}
    first = add_battle(uow, ours, mine, opponent_warband_id=theirs.id)
    uow.battles.set_pair(first.id, first.id)
    second = add_battle(uow, theirs, other, opponent_warband_id=ours.id, pair_id=first.id)
    return replace(first, pair_id=first.id), second


def battle_ratings(uow: UnitOfWork, ours: Warband, theirs: Warband) -> tuple[int, int]:
    """The two warbands' ratings now (the one rating every view shows: rules/rating.py)."""
    tables = tables_of(uow)
    roster = uow.warriors.active_by_warband({ours.id: ours.name, theirs.id: theirs.name}, only=[ours.id, theirs.id])
    return (warband_rating(roster.get(ours.id, []), tables.rules, tables.catalogue).total,
            warband_rating(roster.get(theirs.id, []), tables.rules, tables.catalogue).total)


def log(uow: UnitOfWork, *, limit: int = 50) -> list[LogEntry]:
    """Every battle of the server, newest first; a battle recorded on both sides once."""
    return [LogEntry(id=e.battle.id, fought_on=e.battle.fought_on, warband=e.battle.warband, result=e.battle.result,
                     opponent=e.opponent_name or e.battle.opponents, scenario=e.battle.scenario, notes=e.battle.notes,
                     both_sides=e.opponent_name is not None, custom_scenario=e.battle.custom_scenario)
            for e in uow.battles.log(max(1, min(limit, LOG_LIMIT)))]


# ---------------------------------------------------------------------- standings
Line = tuple[Standing, tuple[HeroStanding, ...]]  # a warband's line of the table, and its heroes


def _row_key(s: Standing) -> tuple[int, int, str]:
    return -s.wins, -s.rating, s.warband.casefold()  # most wins first, then rating, then by name


def _hero_key(h: HeroStanding) -> tuple[int, str, str]:
    return -h.experience, h.warband.casefold(), h.hero.casefold()


@dataclass
class _Table:
    """A server's standings as built, kept in order so that a change moves only its own lines."""

    newest: int | None  # the server's newest ledger row when built
    lines: dict[int, Line]  # warband id -> its line
    places: list[tuple[tuple[int, int, str], int]]  # (sort key, warband id) of each line, in the table's order
    rows: list[Standing]  # the lines, in the same order
    heroes: list[tuple[tuple[int, str, str], int, int, HeroStanding]]  # (sort key, warband id, index, hero), in order
    standings: Standings

    @classmethod
    def of(cls, newest: int | None, lines: dict[int, Line]) -> _Table:
        places = sorted((_row_key(line[0]), wid) for wid, line in lines.items())
        rows = [lines[wid][0] for _, wid in places]
        heroes = sorted((_hero_key(h), wid, n, h) for wid, line in lines.items() for n, h in enumerate(line[1]))
        return cls(newest, lines, places, rows, heroes, _standings_of(rows, heroes))

    def apply(self, newest: int | None, lines: dict[int, Line], gone: set[int]) -> None:
        """Replace (or add) these warbands' lines and take the ``gone`` ones out, each moved into its
        place in the order (found by its old key), or left in it when its key is the same: a change
        costs its own lines, not the table's. The caller holds ``_kept_lock``."""
        for wid in gone | set(lines):
            old, new = self.lines.pop(wid, None), lines.get(wid)
            if new is not None:
                self.lines[wid] = new
            same_place = old is not None and new is not None and _row_key(new[0]) == _row_key(old[0])
            same_heroes = old is not None and new is not None and new[1] == old[1]
            if old is not None:
                at = bisect.bisect_left(self.places, (_row_key(old[0]), wid))
                if same_place and new is not None:  # a draw, say: the line changes where it stands
                    self.rows[at] = new[0]
                else:
                    del self.places[at]
                    del self.rows[at]
                if not same_heroes:
                    for n, h in enumerate(old[1]):
                        _remove(self.heroes, (_hero_key(h), wid, n, h))
            if new is None:
                continue
            if not same_place:
                place = (_row_key(new[0]), wid)
                at = bisect.bisect_left(self.places, place)
                self.places.insert(at, place)
                self.rows.insert(at, new[0])
            if not same_heroes:
                for n, h in enumerate(new[1]):
                    bisect.insort(self.heroes, (_hero_key(h), wid, n, h))
        self.newest = newest
        self.standings = _standings_of(self.rows, self.heroes)


def _standings_of(rows: list[Standing], heroes: list[tuple[tuple[int, str, str], int, int, HeroStanding]]) -> Standings:
    return Standings(tuple(rows), tuple(h[3] for h in heroes[:TOP_HEROES]))


def _remove(ordered: list[Any], entry: Any) -> None:
    """Take ``entry`` out of the sorted list ``ordered``."""
    at = bisect.bisect_left(ordered, entry)
    if at < len(ordered) and ordered[at] == entry:
        del ordered[at]


_kept: dict[tuple[str, int], _Table] = {}
_kept_lock = threading.Lock()


def remembered_standings(uow: UnitOfWork, *, changes_at_most: int = 0) -> Standings | None:
    """The standings built before if they are still current, or brought up to date when at most
    ``changes_at_most`` warbands changed since (a few indexed reads each); else None. Reads never
    wait for a write, so the event loop may ask before it sends a bigger rebuild to a thread."""
    kept = _kept.get((uow.database, uow.guild_id))
    if kept is None:
        return None
    newest = uow.ledger.newest()
    if kept.newest == newest:
        return kept.standings
    if not changes_at_most or kept.newest is None:
        return None
    changed = uow.ledger.changed_since(kept.newest)
    if None in changed or len(changed) > changes_at_most:
        return None
    return _brought_up_to_date(uow, kept, newest, changed)


def standings(uow: UnitOfWork) -> Standings:
    """Every warband of the server, most wins first, and its most experienced heroes.

    Everything a line shows (warriors, battles, shards found, the warband itself) changes only
    with a ledger row of its warband, and the tables with a row of the server's settings. So the
    server's newest ledger id says whether the standings moved, and the rows since the last build
    say which warbands to rate again: a change rebuilds its warband's line and moves it into place
    (kept in order), not the whole table. A warband whose rows since are all battles (recorded or
    undone) has only its record read again: a battle changes no warrior, shard or name."""
    newest = uow.ledger.newest()
    kept = _kept.get((uow.database, uow.guild_id))
    if kept is not None and kept.newest == newest:
        return kept.standings
    changed = uow.ledger.changed_since(kept.newest) if kept is not None and kept.newest is not None else None
    if kept is None or changed is None or None in changed:  # the first build, or the server's tables changed
        return _keep(uow, _Table.of(newest, _lines(uow, uow.warbands.every())))
    return _brought_up_to_date(uow, kept, newest, changed)


def _brought_up_to_date(uow: UnitOfWork, kept: _Table, newest: int | None, changed: dict[int | None, set[str]]) -> Standings:
    ids = {i for i in changed if i is not None}
    only_battles = {i for i in ids if changed[i] == {Entity.BATTLE} and i in kept.lines}
    present = [w for w in (uow.warbands.get(i) for i in sorted(ids - only_battles)) if w is not None]
    lines = _lines(uow, present)
    lines.update(_with_records(uow, {i: kept.lines[i] for i in only_battles}))
    with _kept_lock:
        if kept.newest is not None and newest is not None and kept.newest >= newest:  # another thread got there first
            return kept.standings
        if _kept.get((uow.database, uow.guild_id)) is kept:  # (the rows changed since it saw include ours)
            kept.apply(newest, lines, ids - only_battles - {w.id for w in present})
            return kept.standings
    return _keep(uow, _Table.of(newest, _lines(uow, uow.warbands.every())))  # dropped from memory meanwhile: build it whole


def _keep(uow: UnitOfWork, table: _Table) -> Standings:
    with _kept_lock:
        _kept[(uow.database, uow.guild_id)] = table
        while len(_kept) > STANDINGS_KEPT:
            _kept.pop(next(iter(_kept)))
    return table.standings


def _with_records(uow: UnitOfWork, lines: dict[int, Line]) -> dict[int, Line]:
    """These lines with their battles, wins, draws and losses read again (the rest as it was)."""
    if not lines:
        return {}
    records = uow.battles.records(only=list(lines))
    out: dict[int, Line] = {}
    for wid, (standing, heroes) in lines.items():
        battles, wins, draws, losses = _record(records.get(wid))
        out[wid] = replace(standing, battles=battles, wins=wins, draws=draws, losses=losses), heroes
    return out


def _record(record: dict[str, int] | None) -> tuple[int, int, int, int]:
    """Battles, wins, draws and losses."""
    r = record or {"win": 0, "draw": 0, "loss": 0}
    return sum(r.values()), r["win"], r["draw"], r["loss"]


def _lines(uow: UnitOfWork, warbands: list[Warband]) -> dict[int, Line]:
    """The standings lines of these warbands (one query per table for all of them)."""
    if not warbands:
        return {}
    tables = tables_of(uow)
    ids = [w.id for w in warbands]
    roster = uow.warriors.active_by_warband({w.id: w.name for w in warbands}, only=ids)
    records = uow.battles.records(only=ids)
    found = shards_found(uow, only=ids)
    return {w.id: _line(w, roster.get(w.id, []), records.get(w.id), found.get(w.id, 0), tables.rules, tables.catalogue)
            for w in warbands}


def _line(w: Warband, warriors: list[Warrior], record: dict[str, int] | None, found: int, rules: Any,
          catalogue: Any) -> Line:
    best = max((x for x in warriors if x.is_hero), key=lambda x: x.experience, default=None)
    heroes = tuple(HeroStanding(w.name, x.name, x.experience) for x in warriors if x.is_hero)
    battles, wins, draws, losses = _record(record)
    standing = Standing(warband=w.name, owner_id=w.owner_id, warband_type=w.warband_type,
                        rating=warband_rating(warriors, rules, catalogue).total, battles=battles, wins=wins, draws=draws,
                        losses=losses, shards_found=found, best_hero=f"{best.name} ({best.experience} xp)" if best else "")
    return standing, heroes
