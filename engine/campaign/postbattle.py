"""The post-battle sequence stored in the database: one per warband at a time, step by step.

``PostBattle`` is the service the cog calls (through ``asyncio.to_thread``). Each step is one
``BEGIN IMMEDIATE`` transaction through ``Campaigns.batch``: it checks the sequence is still open
and at the version the button carried (a second press, or a press from another device, carries
an old version and is refused with where the sequence is now), applies the engine's results to
the stored warriors and treasury, and stores the new state. Every change is a ledger row of the
sequence's one batch, so ``/warband undo`` takes the whole sequence back at once; what the
sequence found (shards, games to miss, captives) is read only from sequences whose batch is not
undone, so nothing else needs undoing. A warband deleted mid-sequence takes its sequence with it
(ON DELETE CASCADE); a later press says so.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from engine.campaign.advances import henchman_advance, hero_advance, learn_skill, promote, AdvanceRoll
from engine.dice.source import Dice, parse_entered
from engine.campaign.exploration import exploration_dice, explore, find_multiple
from engine.campaign.experience import battle_experience
from engine.campaign.income import sell_wyrdstone
from engine.campaign.injuries import InjuryResult, henchmen_out_of_action, serious_injury, settle_pit_fight
from engine.campaign.models import CampaignWarrior
from engine.campaign.sequence import STEP_TITLES, Fighter, Pending, SequenceState
from engine.errors import MordheimError, NotFoundError
from engine.storage.ledger import LedgerBatch
from engine.storage.store import Connection
from engine.warbands import roster_rules
from engine.warbands.campaign_rules import CampaignRules
from engine.warbands.lists import Catalogue, WarbandList
from engine.warbands.models import Profile, Warrior, warrior_from_row
from engine.warbands.server_tables import campaign_rules_in, catalogue_in
from engine.warbands.validation import MAX_EXPERIENCE, clean_name, name_key

MAX_EXTRA_DICE = 6
# Hired swords out of action roll on the heroes' serious injury chart (rulebook, Hired Swords).
HEROES_FOR_INJURIES = ("leader", "hero", "hired_sword")
ROSTER_ORDER = {"leader": 0, "hero": 1}  # the leader, the heroes, then everyone else; by id within each


@dataclass(frozen=True)
class SequenceView:
    """What the channel shows of one sequence."""

    id: int
    guild_id: int
    warband_id: int
    warband: str
    owner_id: int
    version: int
    status: str  # open | finished | cancelled
    state: SequenceState
    warriors: tuple[Warrior, ...]
    gold_crowns: int
    wyrdstone_shards: int
    warband_size: int  # models for the income chart: roster_rules.models, the warband's size (no hired swords)
    sale_prices: tuple[tuple[int, int], ...]  # (shards sold, gold) for 0..held
    rolls: tuple[str, ...] = ()  # the dice of the step just taken

    @property
    def title(self) -> str:
        return STEP_TITLES[self.state.step]

    def warrior(self, warrior_id: int) -> Warrior | None:
        return next((w for w in self.warriors if w.id == warrior_id), None)

    def summary(self) -> str:
        """The public summary: 'Reikland Raiders after battle 7: Hans — Leg wound (−1 M); ...'."""
        s = self.state
        parts = list(s.lines)
        money = []
        if s.explored:
            money.append(f"found {s.shards_found} shard{'s' if s.shards_found != 1 else ''}")
        if s.gold_found:
            money.append(f"{s.gold_found} gc of loot")
        if s.sold and s.shards_sold:
            money.append(f"sold {s.shards_sold} for {s.gold_from_sale} gc")
        if money:
            parts.append(", ".join(money))
        return f"{self.warband} after {s.battle}: " + ("; ".join(parts) if parts else "nothing to report")


def _stale(view_step: str) -> MordheimError:
    return MordheimError(
        "That button belongs to a step already taken (pressed twice, or from another device).",
        hint=f"The sequence is now at: {STEP_TITLES.get(view_step, view_step)}. Use the newest message's buttons.",
    )


class PostBattle:
    """Post-battle sequences of every server, over ``Campaigns`` (the warband keeper)."""

    def __init__(self, campaigns: Any, rng: random.Random | None = None) -> None:
        self.campaigns = campaigns
        self.rng = rng or random.Random()

    # ------------------------------------------------------------------ reading
    def _row(self, c: Connection, guild_id: int, sequence_id: int) -> dict[str, Any]:
        row = c.one("SELECT * FROM postbattle_sequences WHERE guild_id = ? AND id = ?", (guild_id, sequence_id))
        if row is None:
            raise MordheimError(
                "This post-battle sequence no longer exists: its warband was deleted.",
                hint="Nothing was changed. Start a new sequence with `/postbattle start` for a warband that exists.",
            )
        return row

    @staticmethod
    def _undone(c: Connection, guild_id: int, warband_id: int, batch_id: int | None) -> bool:
        """Some change of this sequence's batch was taken back by /warband undo (undo takes a batch whole).

        Every row of a sequence's batch is a change to its warband, and a batch's id is the id of
        its first row, so the rows are found through the (guild, warband, id) index from the
        batch id up: the search costs what the warband's rows since the battle cost, however
        long the ledger of the server (and of every other server) has grown."""
        if batch_id is None:
            return False
        return c.one("SELECT 1 FROM ledger l WHERE l.guild_id = ? AND l.warband_id = ? AND l.id >= ? AND l.batch_id = ? "
                     "AND EXISTS (SELECT 1 FROM ledger u WHERE u.undoes_id = l.id) LIMIT 1",
                     (guild_id, warband_id, batch_id, batch_id)) is not None

    def _view(self, c: Connection, guild_id: int, row: dict[str, Any], rolls: Iterable[str] = ()) -> SequenceView:
        wb = _warband_by_id(c, guild_id, row["warband_id"])
        return self._view_of(row, SequenceState.from_json(row["state_json"]), wb, self.campaigns.warriors_of(c, guild_id, wb),
                             campaign_rules_in(c, guild_id), rolls)

    @staticmethod
    def _view_of(row: dict[str, Any], state: SequenceState, wb: dict[str, Any], warriors: Iterable[Warrior], rules: CampaignRules,
                 rolls: Iterable[str] = ()) -> SequenceView:
        """The view of the sequence ``row`` (at ``state``) of the warband ``wb`` with these warriors, in any order."""
        warriors = tuple(sorted(warriors, key=lambda w: (ROSTER_ORDER.get(w.role, 2), w.id)))
        size = roster_rules.models(warriors)  # hired swords left out: see roster_rules' decisions
        held = wb["wyrdstone_shards"]
        prices = tuple((n, rules.tables.income.gold(n, size)) for n in range(0, min(held, 12) + 1))
        return SequenceView(id=row["id"], guild_id=wb["guild_id"], warband_id=wb["id"], warband=wb["name"], owner_id=wb["owner_id"],
                            version=row["version"], status=row["status"], state=state,
                            warriors=warriors, gold_crowns=wb["gold_crowns"], wyrdstone_shards=held, warband_size=size,
                            sale_prices=prices, rolls=tuple(rolls))

    def get(self, guild_id: int, sequence_id: int) -> SequenceView:
        with self.campaigns.store.read() as c:
            return self._view(c, guild_id, self._row(c, guild_id, sequence_id))

    def warband_name(self, guild_id: int, warband_id: int) -> str:
        """The name of this server's warband ``warband_id`` (buttons carry ids, the service takes names)."""
        with self.campaigns.store.read() as c:
            name = c.scalar("SELECT name FROM warbands WHERE guild_id = ? AND id = ?", (guild_id, warband_id))
        if name is None:
            raise MordheimError("That warband no longer exists in this server.", hint="See `/warband list`.")
        return name

    def open_sequence(self, guild_id: int, warband: str) -> SequenceView | None:
        """The warband's open sequence, to resume (None when there is none)."""
        with self.campaigns.store.read() as c:
            wb = self.campaigns.warband_row_in(c, guild_id, warband)
            row = c.one("SELECT * FROM postbattle_sequences WHERE guild_id = ? AND warband_id = ? AND status = 'open'",
                        (guild_id, wb["id"]))
            return None if row is None else self._view(c, guild_id, row)

    def found_by_warband(self, c: Connection, guild_id: int) -> dict[int, int]:
        """Shards found by each warband's sequences that were not undone (for the standings)."""
        found: dict[int, int] = {}
        for row in c.all("SELECT warband_id, batch_id, state_json FROM postbattle_sequences WHERE guild_id = ? AND status != 'cancelled'",
                         (guild_id,)):
            if not self._undone(c, guild_id, row["warband_id"], row["batch_id"]):
                state = SequenceState.from_json(row["state_json"])
                found[row["warband_id"]] = found.get(row["warband_id"], 0) + state.shards_found
        return found

    def _absences(self, c: Connection, guild_id: int, warband_id: int, battle_id: int) -> tuple[dict[int, int], set[int]]:
        """Games still to miss at ``battle_id`` per warrior, and who is held captive, from earlier
        sequences not undone. A warrior who must miss N games sits out the warband's next N battles."""
        missing: dict[int, int] = {}
        captive: set[int] = set()
        rows = c.all("SELECT battle_id, batch_id, state_json FROM postbattle_sequences WHERE guild_id = ? AND warband_id = ? "
                     "AND status = 'finished' AND battle_id < ? ORDER BY id", (guild_id, warband_id, battle_id))
        for row in rows:
            if self._undone(c, guild_id, warband_id, row["batch_id"]):
                continue
            state = SequenceState.from_json(row["state_json"])
            since = c.scalar("SELECT count(*) FROM battles WHERE guild_id = ? AND warband_id = ? AND id > ? AND id < ?",
                             (guild_id, warband_id, row["battle_id"], battle_id))
            for wid, games in state.missed:
                if games - since > 0:
                    missing[wid] = max(missing.get(wid, 0), games - since)
            captive |= set(state.captured)
        return missing, captive

    # ------------------------------------------------------------------ writing
    def _step(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int, *steps: str):
        """Open the write for one step: (batch, sequence row, warband row, state). Checks the version,
        the step, the member and that the sequence was not undone."""
        b = self.campaigns.batch(guild_id, actor_id)
        return _StepContext(self, b, guild_id, actor_id, is_admin, sequence_id, version, steps)

    def start(self, guild_id: int, actor_id: int, is_admin: bool, warband: str, *, battle_id: int | None = None) -> SequenceView:
        """Start the sequence after the warband's newest battle (or ``battle_id``)."""
        with self.campaigns.batch(guild_id, actor_id) as b:
            c = b.c
            wb = self.campaigns.warband_row(b, warband)
            self.campaigns.may_change(wb, actor_id, is_admin)
            open_row = c.one("SELECT * FROM postbattle_sequences WHERE guild_id = ? AND warband_id = ? AND status = 'open'",
                             (guild_id, wb["id"]))
            if open_row is not None:
                if not self._undone(c, guild_id, wb["id"], open_row["batch_id"]):
                    raise MordheimError(
                        f"{wb['name']} already has a post-battle sequence open ({STEP_TITLES[SequenceState.from_json(open_row['state_json']).step]}).",
                        hint="Resume it with `/postbattle resume`, or `/postbattle cancel` it first.",
                    )
                c.execute("UPDATE postbattle_sequences SET status = 'cancelled', updated_at = ? WHERE id = ?", (b.at, open_row["id"]))
            battles = c.all("SELECT * FROM battles WHERE guild_id = ? AND warband_id = ? ORDER BY id", (guild_id, wb["id"]))
            if not battles:
                raise MordheimError(f"{wb['name']} has no battle recorded yet.",
                                    hint="Record it with `/battle record` first; the sequence follows a battle.")
            battle = battles[-1] if battle_id is None else next((x for x in battles if x["id"] == battle_id), None)
            if battle is None:
                raise NotFoundError(f"{wb['name']} has no battle #{battle_id}.")
            for done in c.all("SELECT batch_id FROM postbattle_sequences WHERE guild_id = ? AND warband_id = ? AND battle_id = ? "
                              "AND status = 'finished'", (guild_id, wb["id"], battle["id"])):
                if not self._undone(c, guild_id, wb["id"], done["batch_id"]):
                    raise MordheimError(f"{wb['name']} already went through the post-battle sequence for that battle.",
                                        hint="Undo it with `/warband undo` to run it again.")
            number = sum(1 for x in battles if x["id"] <= battle["id"])
            missing, captive = self._absences(c, guild_id, wb["id"], battle["id"])
            fighters = tuple(
                Fighter(warrior_id=w.id, name=w.name, hero=w.role in HEROES_FOR_INJURIES, models=w.group_size,
                        fought=w.id not in missing and w.id not in captive)
                for w in self.campaigns.warriors_of(c, guild_id, wb) if w.status == "active"
            )
            if not fighters:
                raise MordheimError(f"{wb['name']} has no active warriors.", hint="Add warriors with `/warrior add` first.")
            what = f"battle {number} ({battle['result']}" + (f", {battle['scenario']})" if battle["scenario"] else ")")
            notes = tuple(f"{f.name} sits this one out ({'captured' if f.warrior_id in captive else 'still recovering'})"
                          for f in fighters if not f.fought)
            state = SequenceState(step="setup", won=battle["result"] == "win", battle=what, fighters=fighters, notes=notes)
            sid = c.insert("postbattle_sequences", {
                "guild_id": guild_id, "warband_id": wb["id"], "battle_id": battle["id"], "started_by": actor_id,
                "step": "setup", "state_json": state.to_json(), "created_at": b.at, "updated_at": b.at,
            })
            return self._view(c, guild_id, self._row(c, guild_id, sid))

    def cancel(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, *, version: int | None = None) -> SequenceView:
        """Close an open sequence (at ``version``, when a button asks). Steps already taken stay
        (``/warband undo`` takes them back)."""
        with self.campaigns.batch(guild_id, actor_id) as b:
            row = self._row(b.c, guild_id, sequence_id)
            wb = _warband_by_id(b.c, guild_id, row["warband_id"])
            self.campaigns.may_change(wb, actor_id, is_admin)
            if row["status"] != "open":
                raise MordheimError(f"This sequence is already {row['status']}.")
            if version is not None and row["version"] != version:
                raise _stale(row["step"])
            b.c.execute("UPDATE postbattle_sequences SET status = 'cancelled', version = version + 1, updated_at = ? WHERE id = ?",
                        (b.at, sequence_id))
            return self._view(b.c, guild_id, self._row(b.c, guild_id, sequence_id))

    # ---- setup -------------------------------------------------------------------
    def set_fighters(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int, *,
                     absent: Iterable[int] | None = None, out_of_action: Mapping[int, int] | None = None,
                     kills: Mapping[int, int] | None = None, scenario: Mapping[int, int] | None = None) -> SequenceView:
        """Who did not fight, who was taken out of action (models, for a group), enemies each hero
        took out of action and the scenario's experience. Only what is given changes."""
        with self._step(guild_id, actor_id, is_admin, sequence_id, version, "setup", "experience") as s:
            state = s.state
            ids = {f.warrior_id: f for f in state.fighters}
            for given in (absent or (), *(m or {} for m in (out_of_action, kills, scenario))):
                for wid in given:
                    if wid not in ids:
                        raise MordheimError("That warrior is not on this warband's roster for this battle.",
                                            hint="Choose from the menu of the newest message.")
            if state.step == "experience" and (absent is not None or out_of_action is not None):
                raise MordheimError("Injuries are already rolled: who fought and who went out of action cannot change now.")
            fighters = []
            for f in state.fighters:
                if absent is not None:
                    f = replace(f, fought=f.warrior_id not in set(absent))
                if out_of_action is not None:
                    n = int(out_of_action.get(f.warrior_id, 0))
                    if n and not f.fought:
                        raise MordheimError(f"{f.name} did not fight, so he cannot have been taken out of action.",
                                            hint="Mark him as having fought first.")
                    if not 0 <= n <= (1 if f.hero else f.models):
                        raise MordheimError(f"{f.name} had {f.models} model{'s' if f.models != 1 else ''}; {n} cannot be out of action.")
                    f = replace(f, out_of_action=n)
                if kills is not None and f.warrior_id in kills:
                    n = int(kills[f.warrior_id])
                    if n and not f.hero:
                        raise MordheimError(f"{f.name} is a henchman group: only heroes gain experience for enemies they take out of action.")
                    if n and not f.fought:
                        raise MordheimError(f"{f.name} did not fight.")
                    if not 0 <= n <= 30:
                        raise MordheimError("Enemies taken out of action must be 0 to 30.")
                    f = replace(f, kills=n)
                if scenario is not None and f.warrior_id in scenario:
                    n = int(scenario[f.warrior_id])
                    if not -20 <= n <= 20:
                        raise MordheimError("Scenario experience must be between -20 and 20.")
                    f = replace(f, scenario=n)
                fighters.append(f)
            s.save(replace(state, fighters=tuple(fighters)))
        return s.view

    def confirm_fighters(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int) -> SequenceView:
        with self._step(guild_id, actor_id, is_admin, sequence_id, version, "setup") as s:
            if not any(f.fought for f in s.state.fighters):
                raise MordheimError("Nobody of the warband fought.", hint="Mark who fought in the menu first.")
            s.save(replace(s.state, step="injuries"))
        return s.view

    # ---- 1. injuries --------------------------------------------------------------
    def roll_injuries(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int,
                      entered: Mapping[int, str] | None = None) -> SequenceView:
        """Every hero out of action rolls on the serious injury chart, every henchman out of action a D6.
        ``entered``: dice rolled at the table, per warrior id (the bot rolls whatever is missing)."""
        entered = dict(entered or {})
        with self._step(guild_id, actor_id, is_admin, sequence_id, version, "injuries") as s:
            state, rules = s.state, s.rules
            lines, dice_lines, missed, captured, pending, extra = [], [], list(state.missed), list(state.captured), [], dict(state.extra)
            gold = 0
            for f in state.fighters:
                if not f.out_of_action:
                    continue
                w = s.warrior(f.warrior_id)
                dice = Dice(self.rng, parse_entered(entered.get(f.warrior_id, "")))
                cw = s.campaign_warrior(w)
                if f.hero:
                    result = serious_injury(cw, rules, dice)
                    if result.pit_fight is not None:
                        pending.append(Pending("pit_fight", f.warrior_id, f.name, ("won", "lost"),
                                               "Sold to the pits: fight the pit fighter at the table (or with /fight), then say who won."))
                    lines.append(f"{f.name} — " + "; ".join(r.rsplit(" [", 1)[0] for r in result.results))
                    after = result.warrior
                    gold += result.gold
                else:
                    hench = henchmen_out_of_action(cw, f.out_of_action, rules, dice)
                    after = hench.warrior
                    lines.append(f"{f.name} — " + (f"{hench.lost} of {f.out_of_action} out of action lost" if hench.lost
                                                   else "all back on their feet") + (" (the group is gone)" if after.status == "dead" else ""))
                if dice.unused:
                    raise MordheimError(f"{f.name}: {len(dice.unused)} entered dice were not needed ({' '.join(map(str, dice.unused))}).",
                                        hint="Type only the dice this warrior's injuries roll.")
                dice_lines.extend(str(r) for r in dice.rolls)
                if after.missed_games:
                    missed.append((f.warrior_id, after.missed_games))
                if after.captured:
                    captured.append(f.warrior_id)
                s.write(w, after, "postbattle.injury")
            unknown = set(entered) - {f.warrior_id for f in state.fighters if f.out_of_action}
            if unknown:
                raise MordheimError("Dice were entered for a warrior who was not taken out of action.",
                                    hint="Enter dice only for the warriors the menu marks out of action.")
            if gold:
                s.treasury(gold=gold, reason="won in the pits")
            new = replace(state, lines=(*state.lines, *lines), dice=(*state.dice, *dice_lines), missed=tuple(missed),
                          captured=tuple(captured), pending=(*state.pending, *pending), extra=extra)
            s.save(replace(new, step="injuries" if pending else "experience"), rolls=dice_lines)
        return s.view

    def settle_pit_fight(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int,
                         warrior_id: int, won: bool, entered: str = "") -> SequenceView:
        with self._step(guild_id, actor_id, is_admin, sequence_id, version, "injuries") as s:
            p = s.pending("pit_fight", warrior_id)
            w = s.warrior(warrior_id)
            effect = next(e for entry in s.rules.serious_injuries for e in entry.effects if e.op == "pit_fight")
            dice = Dice(self.rng, parse_entered(entered))
            result = settle_pit_fight(InjuryResult(s.campaign_warrior(w), (), (), 0, effect), won, dice)
            s.write(w, result.warrior, "postbattle.pit_fight")
            if result.gold:
                s.treasury(gold=result.gold, reason="won in the pits")
            rolls = [str(r) for r in dice.rolls]
            state = s.state
            rest = list(state.pending)
            rest.remove(p)
            rest = tuple(rest)
            s.save(replace(state, pending=rest, step="injuries" if rest else "experience",
                           lines=(*state.lines, f"{w.name} — {result.results[-1]}"), dice=(*state.dice, *rolls)), rolls=rolls)
        return s.view

    # ---- 2. experience ------------------------------------------------------------
    def apply_experience(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int) -> SequenceView:
        """The usual awards and the scenario's, then one advance roll per threshold crossed."""
        with self._step(guild_id, actor_id, is_admin, sequence_id, version, "experience") as s:
            state, tables = s.state, s.rules.tables
            if state.extra.get("experience_done"):
                raise _stale(state.step)
            lines, rolls, pending, raised, awards = [], [], [], list(state.raised), []
            heroes_full = s.heroes_full()
            for f in state.fighters:
                w = s.warrior(f.warrior_id)
                if w is None or not f.fought or w.status != "active":
                    continue
                cw = s.campaign_warrior(w)
                earned = battle_experience(cw, tables.awards, won=state.won, enemies_out_of_action=f.kills, scenario=f.scenario)
                gain = sum(e.amount for e in earned)
                if not gain:
                    continue
                total = max(0, min(MAX_EXPERIENCE, cw.experience + gain))
                crossed = s.rules.advances_between(w.role, cw.experience, total)
                cw = replace(cw, experience=total)
                words = []
                for threshold in crossed:
                    dice = Dice(self.rng)
                    if cw.is_hero:
                        adv = hero_advance(cw, tables.hero_advances, dice)
                    else:
                        adv = henchman_advance(cw, tables.henchman_advances, dice, heroes_full=heroes_full)
                    rolls.extend(str(r) for r in dice.rolls)
                    cw = adv.warrior
                    words.append(adv.describe())
                    if adv.characteristic and not cw.is_hero:
                        raised.append((f.warrior_id, adv.characteristic))
                    if adv.waiting:
                        kind = "talent" if adv.talent else "skill" if adv.skill else "choose"
                        pending.append(Pending(kind, f.warrior_id, f.name, adv.choose_from, "; ".join(adv.notes)))
                    elif adv.notes:
                        words[-1] += f" ({'; '.join(adv.notes)})"
                s.write(w, cw, "postbattle.experience")
                line = f"{f.name} +{gain} experience"
                if words:
                    line += " → advance: " + ", ".join(words)
                lines.append(line)
                awards.append(f"{f.name}: " + ", ".join(f"{e.award} {e.amount:+d}" for e in earned))
            extra = {**state.extra, "experience_done": True, "awards": awards}
            s.save(replace(state, lines=(*state.lines, *lines), dice=(*state.dice, *rolls), raised=tuple(raised),
                           pending=(*state.pending, *pending), extra=extra, step="experience" if pending else "exploration"),
                   rolls=rolls)
        return s.view

    def choose(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int, warrior_id: int,
               kind: str, value: str, *, skill_lists: tuple[str, ...] = ()) -> SequenceView:
        """Settle a waiting advance: a characteristic (``choose``), a skill (``skill``), or the lad's
        name as a new hero (``talent``, with two ``skill_lists`` when the lists are known)."""
        with self._step(guild_id, actor_id, is_admin, sequence_id, version, "experience") as s:
            p = s.pending(kind, warrior_id)
            w = s.warrior(warrior_id)
            cw = s.campaign_warrior(w)
            state, tables = s.state, s.rules.tables
            rolls: list[str] = []
            raised = list(state.raised)
            pending = list(state.pending)
            pending.remove(p)  # the first waiting one only: a warrior may wait for two skills
            if kind == "choose":
                wanted = next((c for c in p.options if c.casefold() == str(value).strip().casefold()), None)
                if wanted is None:
                    raise MordheimError(f"{value} is not one of the choices.", hint="Choose one of: " + ", ".join(p.options) + ".")
                cw = cw.with_change(wanted, +1)
                if not cw.is_hero:
                    raised.append((warrior_id, wanted))
                line = f"{w.name} chose +1 {wanted}"
                s.write(w, cw, "postbattle.advance")
            elif kind == "skill":
                adv = learn_skill(AdvanceRoll(cw, tables.hero_advances.results[0], skill=True), value,
                                  skills_he_may_learn(w, s.catalogue, s.wlist))
                line = f"{w.name} learnt {adv.warrior.skills[-1]}"
                s.write(w, adv.warrior, "postbattle.skill")
            elif kind == "talent" and s.heroes_full():
                # Another lad promoted first filled the heroes since this talent was rolled. With the heroes full
                # the table rolls a talent again (rules_data/campaign henchman_advances), so the group rolls now
                # instead of waiting for a promotion the warband has no room for.
                dice = Dice(self.rng)
                again = _roll_again(s, warrior_id, dice, raised, pending)
                line = (f"{w.name}: {s.wb['name']} already has its {s.max_heroes()} heroes, so no lad becomes a hero; "
                        f"the group rolls again: {again.describe()}")
                rolls = [str(r) for r in dice.rolls]
            elif kind == "talent":
                name = clean_name(value, "The new hero's name", forbid="/")
                promotion = promote(cw, name, talent_skill_lists(skill_lists, s.catalogue, s.wlist))
                if promotion.group is None:
                    s.write(w, replace(promotion.hero, name=name), "postbattle.talent")
                    hero_id = w.id
                else:
                    s.write(w, promotion.group, "postbattle.talent")
                    hero_id = s.add(w, promotion.hero, "postbattle.talent").id
                line = f"The lad's got talent: {name} of {w.name} becomes a hero"
                dice = Dice(self.rng)
                hero_cw = s.campaign_warrior(s.warrior(hero_id))
                adv = hero_advance(hero_cw, tables.hero_advances, dice)
                s.write(s.warrior(hero_id), adv.warrior, "postbattle.advance")
                line += f" and rolls {adv.describe()}"
                if adv.waiting:
                    pending.append(Pending("skill" if adv.skill else "choose", hero_id, name, adv.choose_from, "; ".join(adv.notes)))
                if promotion.group is not None:
                    rest = _roll_again(s, warrior_id, dice, raised, pending)
                    line += f"; the rest of {w.name} roll {rest.describe()}"
                rolls = [str(r) for r in dice.rolls]
            else:
                raise MordheimError(f"'{kind}' is not something an advance waits for.")
            s.save(replace(state, pending=tuple(pending), raised=tuple(raised), lines=(*state.lines, line),
                           dice=(*state.dice, *rolls), step="experience" if pending else "exploration"), rolls=rolls)
        return s.view

    # ---- 3. exploration -----------------------------------------------------------
    def searchers(self, view: SequenceView) -> list[Warrior]:
        """Heroes who fought, were not taken out of action and are still with the warband."""
        out = []
        for f in view.state.fighters:
            w = view.warrior(f.warrior_id)
            if w is not None and w.role in ("leader", "hero") and f.fought and not f.out_of_action and w.status == "active":
                out.append(w)
        return out

    def explore(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int, *,
                entered: str = "", extra_dice: int = 0, hero_id: int | None = None, visit: bool = True) -> SequenceView:
        """Roll (or take) the exploration dice, then the place's follow-up dice; add what was found."""
        if not 0 <= extra_dice <= MAX_EXTRA_DICE:
            raise MordheimError(f"Extra exploration dice must be 0 to {MAX_EXTRA_DICE}.")
        with self._step(guild_id, actor_id, is_admin, sequence_id, version, "exploration") as s:
            state, table = s.state, s.rules.tables.exploration
            if state.explored:
                raise _stale(state.step)
            searching = self.searchers(s.view_now())
            faces = state.explore_dice
            if not faces:
                n = exploration_dice(len(searching), state.won, table, extra_dice)
                entered_faces = parse_entered(entered)
                if entered_faces and len(entered_faces) != n:
                    raise MordheimError(f"This exploration rolls {n} dice ({len(searching)} searching heroes"
                                        f"{', +1 for the win' if state.won else ''}{f', +{extra_dice} extra' if extra_dice else ''}); "
                                        f"{len(entered_faces)} were entered.", hint=f"Type {n} dice, each 1-6.")
                faces = Dice(self.rng, entered_faces).dice(n, "Exploration")
            multiple = find_multiple(faces)
            place = table.place(*multiple) if multiple else None
            needs_hero = place is not None and ((place.optional and visit) or (place.test is not None and place.test.who == "hero"))
            if needs_hero and hero_id is None:
                options = tuple(str(w.id) for w in searching) or tuple(str(w.id) for w in s.warriors() if w.is_hero and w.status == "active")
                p = Pending("place_hero", 0, place.name, options,
                            ("Choose the hero who goes in, or send nobody." if place.optional else "Choose the hero who takes the test."))
                s.save(replace(state, explore_dice=tuple(faces), pending=(p,)),
                       rolls=[f"Exploration: {len(faces)}D6 {' '.join(map(str, faces))} = {sum(faces)}"])
                return s.view
            hero = s.campaign_warrior(s.warrior(hero_id)) if hero_id is not None else None
            if hero_id is not None and (hero is None or not hero.is_hero):
                raise MordheimError("Choose one of the warband's heroes.")
            leader_w = next((w for w in s.warriors() if w.role == "leader" and w.status == "active"), None)
            leader = s.campaign_warrior(leader_w) if leader_w else None
            dice = Dice(self.rng)
            result = explore(tuple(faces), table, dice, warband_id=s.warband_list_id(), hero=hero, leader=leader, visit_place=visit)
            finds = result.finds
            rolls = [f"Exploration: {len(faces)}D6 {' '.join(map(str, faces))} = {sum(faces)}", *(str(r) for r in dice.rolls)]
            missed = list(state.missed)
            for name, games in finds.missed_games:
                target = next(w for w in s.warriors() if w.name == name)
                missed.append((target.id, games))
            for name in finds.heroes_lost:
                target = next(w for w in s.warriors() if w.name == name)
                s.write(target, replace(s.campaign_warrior(target), status="dead", equipment=()), "postbattle.exploration")
            if finds.leader_experience and leader_w is not None:
                s.write(leader_w, replace(s.campaign_warrior(leader_w), experience=min(MAX_EXPERIENCE, leader_w.experience + finds.leader_experience)),
                        "postbattle.exploration")
            if finds.gold or finds.shards:
                s.treasury(gold=finds.gold, shards=finds.shards, reason="exploration")
            items = tuple(f"{i.count} × {i.name}" if i.count != 1 else i.name for i in finds.items)
            notes = tuple(finds.notes) + ((f"{finds.heroes_experience} experience to share among the heroes "
                                           f"(give it with `/warrior xp`)",) if finds.heroes_experience else ())
            place_line = (f"found {result.place.name}" if result.place else "")
            lines = [f"Exploration: {' '.join(map(str, faces))} (total {result.total})" + (f" — {place_line}" if place_line else "")]
            s.save(replace(state, explore_dice=tuple(faces), explored=True, pending=(), shards_found=finds.shards,
                           gold_found=finds.gold, items_found=items, notes=(*state.notes, *notes), missed=tuple(missed),
                           lines=(*state.lines, *lines), dice=(*state.dice, *rolls), step="income",
                           extra={**state.extra, "exploration": list(result.lines)}), rolls=rolls)
        return s.view

    # ---- 4. income ----------------------------------------------------------------
    def sell(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int, shards: int) -> SequenceView:
        """Sell ``shards`` in one batch at the income chart's price (0 keeps them all)."""
        with self._step(guild_id, actor_id, is_admin, sequence_id, version, "income") as s:
            state = s.state
            wb = s.wb
            size = roster_rules.models(s.warriors())
            sale = sell_wyrdstone(int(shards), wb["wyrdstone_shards"], size, s.rules.tables.income)
            if sale.shards:
                s.treasury(gold=sale.gold, shards=-sale.shards, reason=f"sold {sale.shards} wyrdstone ({size} warriors)")
            lines, notes = [], []
            if any(w.role == "hired_sword" and w.status == "active" for w in s.warriors()):
                try:  # hired swords' upkeep after every battle (issue 8's /hire upkeep, in this batch)
                    paid = self.campaigns.hiring.upkeep_in(s.b, s.wb)
                    s.wb = _warband_by_id(s.b.c, guild_id, s.wb["id"])
                    lines.append("upkeep " + ", ".join(f"{name} {fee} gc" for name, fee in paid.paid))
                except MordheimError as unpaid:  # checked before anything is written: the sale stands
                    notes.append(f"Upkeep not paid: {unpaid.message}")
            s.save(replace(state, sold=True, shards_sold=sale.shards, gold_from_sale=sale.gold, step="trading",
                           lines=(*state.lines, *lines), notes=(*state.notes, *notes)))
        return s.view

    # ---- 5. trading, then the end ---------------------------------------------------
    def finish(self, guild_id: int, actor_id: int, is_admin: bool, sequence_id: int, version: int) -> SequenceView:
        with self._step(guild_id, actor_id, is_admin, sequence_id, version, "trading") as s:
            s.save(replace(s.state, step="done"), status="finished")
        return s.view


class _StepContext:
    """One step's transaction: the checks on entry, the writes, the new state on exit.

    The step reads the warband and its warriors once and keeps them current as it writes (every
    change goes through ``write``, ``add`` or ``treasury``, or reads ``wb`` again), so the new
    view is built from what the step holds instead of reading back what it just wrote. Warriors
    are checked one by one as they are written. The roster's limits are not: they govern what an
    owner chooses to hire, and a step only applies what the dice and the rules decided (goblins
    dying can leave more squigs than goblins; the roster check still names it, nothing refuses
    it, so a sequence can never get stuck on its own results)."""

    def __init__(self, pb: PostBattle, batch_cm, guild_id, actor_id, is_admin, sequence_id, version, steps) -> None:
        self.pb, self._cm = pb, batch_cm
        self.guild_id, self.actor_id, self.is_admin = guild_id, actor_id, is_admin
        self.sequence_id, self.version, self.steps = sequence_id, version, steps
        self.view: SequenceView | None = None
        self._warriors: dict[int, Warrior] | None = None
        self._raised: list[tuple[int, str]] | None = None

    def __enter__(self) -> _StepContext:
        self.b: LedgerBatch = self._cm.__enter__()
        try:
            c = self.b.c
            self.row = self.pb._row(c, self.guild_id, self.sequence_id)
            self.wb = _warband_by_id(c, self.guild_id, self.row["warband_id"])
            self.pb.campaigns.may_change(self.wb, self.actor_id, self.is_admin)
            self.state = SequenceState.from_json(self.row["state_json"])
            if self.row["status"] != "open":
                raise MordheimError(f"This post-battle sequence is {self.row['status']}.",
                                    hint="Start a new one with `/postbattle start` after the next battle.")
            if self.pb._undone(c, self.guild_id, self.row["warband_id"], self.row["batch_id"]):
                c.execute("UPDATE postbattle_sequences SET status = 'cancelled', version = version + 1 WHERE id = ?", (self.sequence_id,))
                self._commit_anyway = True
                raise MordheimError("This sequence's changes were taken back with `/warband undo`, so it is closed.",
                                    hint="Start it again with `/postbattle start`.")
            if self.row["version"] != self.version or self.state.step not in self.steps:
                raise _stale(self.state.step)
            self.rules: CampaignRules = campaign_rules_in(c, self.guild_id)
            self.b.id = self.row["batch_id"]  # every step's rows join the sequence's one batch
        except BaseException as exc:
            if getattr(self, "_commit_anyway", False):
                self._cm.__exit__(None, None, None)
            else:
                self._cm.__exit__(type(exc), exc, exc.__traceback__)
            raise
        return self

    def __exit__(self, exc_type, exc, tb):
        return self._cm.__exit__(exc_type, exc, tb)

    # ---- reads inside the step
    def warriors(self) -> list[Warrior]:
        if self._warriors is None:
            rows = self.b.c.all("SELECT * FROM warriors WHERE guild_id = ? AND warband_id = ? ORDER BY id", (self.guild_id, self.wb["id"]))
            self._warriors = {r["id"]: warrior_from_row(r, self.wb["name"]) for r in rows}
        return list(self._warriors.values())

    def warrior(self, warrior_id: int) -> Warrior | None:
        self.warriors()
        return self._warriors.get(warrior_id)

    def pending(self, kind: str, warrior_id: int) -> Pending:
        p = next((x for x in self.state.pending if x.kind == kind and x.warrior_id == warrior_id), None)
        if p is None:
            raise _stale(self.state.step)
        return p

    @cached_property
    def catalogue(self) -> Catalogue:
        """The server's warband lists (bundled and its own house lists), read in this step's transaction."""
        return catalogue_in(self.b.c, self.guild_id)

    @cached_property
    def wlist(self) -> WarbandList | None:
        """The server's list of this warband (a house list where the server has one); None for a custom warband."""
        return self.pb.campaigns.warband_list(self.b.c, self.guild_id, self.wb)

    def max_heroes(self) -> int:
        """The most heroes the warband's list allows (the campaign tables' number for a custom warband)."""
        return roster_rules.max_heroes(self.rules, self.wlist)

    def heroes_full(self) -> bool:
        return len(roster_rules.heroes(self.warriors())) >= self.max_heroes()

    def view_now(self) -> SequenceView:
        return self.pb._view_of(self.row, self.state, self.wb, self.warriors(), self.rules)

    def warband_list_id(self) -> str:
        """The warband's list id for the places that differ by warband (Straggler, Shrine, ...);
        a warband made before the lists goes by its type's name ("Witch Hunters" -> witch-hunters)."""
        return self.wb["list_id"] or "-".join(name_key(self.wb["warband_type"]).replace("'", "").split())

    def campaign_warrior(self, w: Warrior | None) -> CampaignWarrior | None:
        if w is None:
            return None
        increased = tuple(ch for wid, ch in self._raised_before() if wid == w.id) + tuple(ch for wid, ch in self.state.raised if wid == w.id)
        return CampaignWarrior.from_warrior(w, _maximum(w, self.rules, self.catalogue), increased=increased, skill_lists=w.skill_lists)

    def _raised_before(self) -> list[tuple[int, str]]:
        """Characteristics raised by this warband's earlier sequences not undone (read once per step)."""
        if self._raised is not None:
            return self._raised
        out: list[tuple[int, str]] = []
        for row in self.b.c.all("SELECT batch_id, state_json FROM postbattle_sequences WHERE guild_id = ? AND warband_id = ? "
                                "AND status = 'finished'", (self.guild_id, self.wb["id"])):
            if not self.pb._undone(self.b.c, self.guild_id, self.wb["id"], row["batch_id"]):
                out.extend(SequenceState.from_json(row["state_json"]).raised)
        self._raised = out
        return out

    # ---- writes inside the step
    def write(self, old: Warrior, new: CampaignWarrior, what: str) -> Warrior:
        """Store ``old`` as the campaign engine left him (``new``)."""
        return self._store(old, _snapshot(old, new), what)

    def add(self, like: Warrior, new: CampaignWarrior, what: str) -> Warrior:
        """Store ``new`` as a warrior of his own, otherwise like ``like`` (a lad with talent leaving his group)."""
        return self._store(None, _snapshot(like, new), what)

    def _store(self, old: Warrior | None, snap: dict[str, Any], what: str) -> Warrior:
        stored = self.pb.campaigns.write_warrior(self.b, self.wb, old, snap, what=what, reason=f"post-battle, {self.state.battle}",
                                                 warriors=tuple(self.warriors()), check_roster=False)
        self._warriors[stored.id] = stored
        return stored

    def treasury(self, *, gold: int = 0, shards: int = 0, reason: str) -> None:
        changes = {"gold_crowns": self.wb["gold_crowns"] + gold, "wyrdstone_shards": self.wb["wyrdstone_shards"] + shards}
        self.pb.campaigns.update_warband(self.b, self.wb, changes, what="postbattle.treasury", reason=reason, with_warriors=False)
        self.wb = {**self.wb, **changes}  # as stored (both are columns of the same name)

    def save(self, state: SequenceState, *, rolls: Iterable[str] = (), status: str = "open") -> None:
        c = self.b.c
        text = state.to_json()
        c.execute("UPDATE postbattle_sequences SET state_json = ?, step = ?, version = version + 1, batch_id = ?, status = ?, "
                  "updated_at = ? WHERE id = ?", (text, state.step, self.b.id, status, self.b.at, self.sequence_id))
        c.execute("UPDATE warbands SET updated_at = ? WHERE guild_id = ? AND id = ?", (self.b.at, self.guild_id, self.wb["id"]))
        # the rows as just written, without reading them back
        self.row = {**self.row, "state_json": text, "step": state.step, "version": self.row["version"] + 1, "batch_id": self.b.id,
                    "status": status, "updated_at": self.b.at}
        self.wb = {**self.wb, "updated_at": self.b.at}
        self.state = state
        self.view = self.pb._view_of(self.row, state, self.wb, self.warriors(), self.rules, rolls)


def _roll_again(s: _StepContext, group_id: int, dice: Dice, raised: list[tuple[int, str]], pending: list[Pending]) -> AdvanceRoll:
    """The henchman group ``group_id`` rolls once more on the henchmen's table, a talent rolled again
    (the rest of a promoted group, or a group whose warband has no room for another hero): a
    characteristic is written and added to ``raised``, a choice is added to ``pending``."""
    w = s.warrior(group_id)
    again = henchman_advance(s.campaign_warrior(w), s.rules.tables.henchman_advances, dice, heroes_full=True, talent_allowed=False)
    s.write(w, again.warrior, "postbattle.advance")
    if again.characteristic:
        raised.append((group_id, again.characteristic))
    if again.waiting:
        pending.append(Pending("choose", group_id, w.name, again.choose_from, "; ".join(again.notes)))
    return again


def _warband_by_id(c: Connection, guild_id: int, warband_id: int) -> dict[str, Any] | None:
    return c.one("SELECT * FROM warbands WHERE guild_id = ? AND id = ?", (guild_id, warband_id))


def _snapshot(like: Warrior, new: CampaignWarrior) -> dict[str, Any]:
    """``like``'s stored snapshot with what the campaign engine decides taken from ``new``."""
    return {**like.snapshot(), "name": new.name, "role": new.role, "group_size": new.group_size,
            "profile": new.profile.as_dict(), "equipment": list(new.equipment), "skills": list(new.skills),
            "injuries": list(new.injuries), "experience": new.experience, "status": new.status}


def _maximum(w: Warrior, rules: CampaignRules, catalogue: Catalogue) -> Profile:
    """The warrior's racial maximum: his race's in the server's ``catalogue`` (races*.json), else the
    tables' default (the rulebook's Human maximum) for a warrior made by hand without a race."""
    race = catalogue.races.get(w.race) if w.race else None
    return race.maximum if race is not None else rules.tables.default_maximum


def talent_skill_lists(typed: tuple[str, ...], catalogue: Catalogue, wlist: WarbandList | None) -> tuple[str, ...]:
    """The two skill lists a lad with talent takes, as ids, from what the player ``typed`` (ids or
    names, any case). He chooses them among the lists his warband's heroes may use (the henchman
    advance table, rules_data/campaign henchman_advances); a custom warband (no ``wlist``) may
    name two of the common lists, or none."""
    if wlist is None:
        allowed = dict(catalogue.skill_lists)
        if not typed:
            return ()
    else:
        allowed = {}
        for fighter in wlist.fighters:
            if fighter.role in ("leader", "hero"):
                allowed.update((sl.id, sl) for sl in fighter.skill_lists)
    by_key = {key.casefold(): sl.id for sl in allowed.values() for key in (sl.id, sl.name)}
    chosen = [by_key.get(" ".join(t.split()).casefold()) for t in typed]
    names = ", ".join(sl.name for sl in allowed.values())
    if len(typed) != 2 or None in chosen or chosen[0] == chosen[1]:
        raise MordheimError("A lad with talent takes two different skill lists his warband's heroes may use.",
                            hint=f"Type two of: {names}.")
    return tuple(chosen)


def skills_he_may_learn(w: Warrior, catalogue: Catalogue, wlist: WarbandList | None) -> list[str] | None:
    """Every skill on the warrior's skill lists: the common lists of the server's ``catalogue`` and
    the own lists of his warband's ``wlist`` (the server's house list where it has one); None when
    his lists are not known (a warrior made by hand): then any skill name is taken."""
    if not w.skill_lists:
        return None
    own = wlist.skill_lists if wlist is not None else {}
    names: list[str] = []
    for list_id in w.skill_lists:
        skill_list = catalogue.skill_lists.get(list_id) or own.get(list_id)
        if skill_list is not None:
            names.extend(skill.name for skill in skill_list.skills)
    return names or None
