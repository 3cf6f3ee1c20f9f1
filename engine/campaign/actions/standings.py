"""The campaign of one server: battles recorded on both sides, the standings and the battle log.

A battle against another warband of the same server is one row per side (the opposite result on
the other side), both carrying the first row's id as ``pair_id``; each side's row is a ledger
batch of its own warband, so each owner can undo his side. Standings read every warband of the
server at once (one query per table), never another server's rows.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections import defaultdict
from dataclasses import dataclass

from engine.campaign.actions.postbattle import PostBattle
from engine.errors import MordheimError
from engine.storage.ledger import LedgerBatch
from engine.campaign.rules import transfer
from engine.campaign.model import Battle, battle_from_row, warrior_from_row
from engine.campaign.rules.rating import warband_rating
from engine.campaign.actions.server_tables import campaign_rules_in, catalogue_in

OPPOSITE = {"win": "loss", "loss": "win", "draw": "draw"}
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


class Campaign:
    """Battles, standings and the log of each server, over ``Campaigns`` and ``PostBattle``."""

    def __init__(self, campaigns, postbattle: PostBattle) -> None:
        self.campaigns = campaigns
        self.postbattle = postbattle
        self._standings: dict[int, tuple[tuple, Standings]] = {}  # see standings()
        self._lock = threading.Lock()

    def record_battle(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, *, result: str,
                      opponent: str | None = None, scenario: str = "", opponents: str = "",
                      fought_on: str | dt.date | None = None, notes: str = "") -> tuple[Battle, Battle | None]:
        """Record a battle; naming ``opponent`` (a warband of this server) records it on both sides.
        The member must be allowed to change ``warband``; the opponent's side is recorded as a fact
        of the same battle (its owner can undo it on his warband)."""
        if not opponent:
            return self.campaigns.record_battle(guild_id, actor_id, is_admin, warband, result=result, scenario=scenario,
                                                opponents=opponents, fought_on=fought_on, notes=notes), None
        with self.campaigns.batch(guild_id, actor_id) as b:
            c = b.c
            ours = self.campaigns.warband_row(b, warband)
            self.campaigns.may_change(ours, actor_id, is_admin)
            theirs = self.campaigns.warband_row(b, opponent)
            if theirs["id"] == ours["id"]:
                raise MordheimError(f"{ours['name']} cannot fight itself.", hint="Name the other warband, or leave `opponent` empty.")
            date = fought_on.isoformat() if isinstance(fought_on, dt.date) else (fought_on or b.at[:10])
            mine = transfer.clean_battle({"result": result, "scenario": scenario, "opponents": theirs["name"],
                                          "fought_on": date, "notes": notes})
            other = {**mine, "result": OPPOSITE[mine["result"]], "opponents": ours["name"]}
            first = self._insert(b, ours, mine, theirs["id"], None)
            c.execute("UPDATE battles SET pair_id = ? WHERE id = ?", (first, first))
            their_batch = LedgerBatch(c=c, guild_id=guild_id, member_id=actor_id, at=b.at)
            second = self._insert(their_batch, theirs, other, ours["id"], first)
            return (battle_from_row(c.one("SELECT * FROM battles WHERE id = ?", (first,)), ours["name"]),
                    battle_from_row(c.one("SELECT * FROM battles WHERE id = ?", (second,)), theirs["name"]))

    @staticmethod
    def _insert(b: LedgerBatch, wb: dict, battle: dict, opponent_id: int, pair_id: int | None) -> int:
        bid = b.c.insert("battles", {"guild_id": b.guild_id, "warband_id": wb["id"], **battle, "recorded_by": b.member_id,
                                     "created_at": b.at, "opponent_warband_id": opponent_id, "pair_id": pair_id})
        b.record(warband_id=wb["id"], warband_name=wb["name"], what="battle", entity="battle", entity_id=bid,
                 before=None, after=battle, reason=battle["result"])
        return bid

    def standings(self, guild_id: int) -> Standings:
        """Every warband of the server. Every change to a warband, its warriors, battles or the
        server's tables writes a ledger row, and every post-battle step bumps its sequence's
        version; so (newest ledger id, sequences and their versions) is an exact version of the
        standings, and standings built for the same version are returned again."""
        with self.campaigns.store.read() as c:
            version = self._version(c, guild_id)
            cached = self._standings.get(guild_id)
            if cached is not None and cached[0] == version:
                return cached[1]
            built = self._build(c, guild_id)
        with self._lock:
            self._standings[guild_id] = (version, built)
            while len(self._standings) > STANDINGS_KEPT:
                self._standings.pop(next(iter(self._standings)))
        return built

    def remembered_standings(self, guild_id: int) -> Standings | None:
        """The standings ``standings`` built before, if they are still current (see there); else None.
        Two indexed reads, which never wait for a write: the event loop may ask before it sends the
        work of building them to a thread."""
        cached = self._standings.get(guild_id)
        if cached is None:
            return None
        with self.campaigns.store.read() as c:
            return cached[1] if cached[0] == self._version(c, guild_id) else None

    @staticmethod
    def _version(c, guild_id: int) -> tuple:
        return (c.scalar("SELECT max(id) FROM ledger WHERE guild_id = ?", (guild_id,)),
                *c.one("SELECT count(*) AS n, total(version) AS v FROM postbattle_sequences WHERE guild_id = ?",
                       (guild_id,)).values())

    def _build(self, c, guild_id: int) -> Standings:
        rules, catalogue = campaign_rules_in(c, guild_id), catalogue_in(c, guild_id)
        warbands = c.all("SELECT id, name, owner_id, warband_type FROM warbands WHERE guild_id = ?", (guild_id,))
        names = {w["id"]: w["name"] for w in warbands}
        roster = defaultdict(list)
        for row in c.all("SELECT * FROM warriors WHERE guild_id = ? AND status = 'active'", (guild_id,)):
            roster[row["warband_id"]].append(warrior_from_row(row, names.get(row["warband_id"], "")))
        record: dict[int, dict[str, int]] = defaultdict(lambda: {"win": 0, "draw": 0, "loss": 0})
        for row in c.all("SELECT warband_id, result, count(*) AS n FROM battles WHERE guild_id = ? GROUP BY warband_id, result",
                         (guild_id,)):
            record[row["warband_id"]][row["result"]] = row["n"]
        found = self.postbattle.found_by_warband(c, guild_id)
        rows = []
        heroes = []
        for w in warbands:
            warriors = roster.get(w["id"], [])
            best = max((x for x in warriors if x.is_hero), key=lambda x: x.experience, default=None)
            heroes.extend(HeroStanding(w["name"], x.name, x.experience) for x in warriors if x.is_hero)
            r = record[w["id"]]
            rows.append(Standing(
                warband=w["name"], owner_id=w["owner_id"], warband_type=w["warband_type"],
                rating=warband_rating(warriors, rules, catalogue).total, battles=sum(r.values()), wins=r["win"], draws=r["draw"],
                losses=r["loss"], shards_found=found.get(w["id"], 0),
                best_hero=f"{best.name} ({best.experience} xp)" if best else "",
            ))
        rows.sort(key=lambda s: (-s.wins, -s.rating, s.warband.casefold()))
        heroes.sort(key=lambda h: (-h.experience, h.warband.casefold(), h.hero.casefold()))
        return Standings(tuple(rows), tuple(heroes[:TOP_HEROES]))

    def log(self, guild_id: int, *, limit: int = 50) -> list[LogEntry]:
        """Every battle of the server, newest first; a battle recorded on both sides once."""
        limit = max(1, min(limit, LOG_LIMIT))
        with self.campaigns.store.read() as c:
            rows = c.all(
                "SELECT b.*, w.name AS warband_name, o.name AS opponent_name FROM battles b "
                "JOIN warbands w ON w.id = b.warband_id AND w.guild_id = b.guild_id "
                "LEFT JOIN warbands o ON o.id = b.opponent_warband_id AND o.guild_id = b.guild_id "
                "WHERE b.guild_id = ? AND (b.pair_id IS NULL OR b.pair_id = b.id "
                "  OR NOT EXISTS (SELECT 1 FROM battles f WHERE f.id = b.pair_id AND f.guild_id = b.guild_id)) "
                "ORDER BY b.fought_on DESC, b.id DESC LIMIT ?", (guild_id, limit))
        return [LogEntry(id=r["id"], fought_on=r["fought_on"], warband=r["warband_name"], result=r["result"],
                         opponent=r["opponent_name"] or r["opponents"], scenario=r["scenario"], notes=r["notes"],
                         both_sides=r["opponent_name"] is not None) for r in rows]
