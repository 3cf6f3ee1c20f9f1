"""The post-battle sequence stored in the database: one per warband at a time, step by step.

Each step is one action in one unit of work: it checks the sequence is still open
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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from engine.campaign.actions import succession
from engine.campaign.actions.captives import captor_of_battle
from engine.campaign.actions.changes import change_warband, store_warrior
from engine.campaign.actions.common import KeepChanges, may_change, warband_by_id, warband_named
from engine.campaign.actions.trading import STASH_MAX
from engine.campaign.actions import upkeep
from engine.campaign.actions.server_tables import tables_of
from engine.dice.source import Dice, parse_entered
from engine.campaign.lists.catalogue import Catalogue, WarbandList
from engine.campaign.model import (
    Actor, Battle, Entity, Profile, Role, SequenceRecord, SequenceStatus, Status, Step, Warband, Warrior, name_key,
)
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules import roster as roster_rules
from engine.campaign.rules.advances import AdvanceRoll, henchman_advance, hero_advance, learn_skill, promote
from engine.campaign.rules.battle_facts import BattleFacts, prefilled
from engine.campaign.rules.campaign_rules import CampaignRules
from engine.campaign.rules.campaign_warrior import CampaignWarrior
from engine.campaign.rules.battle_awards import battle_extra_experience, outcome_of, scenario_asks
from engine.campaign.rules.experience import Earned, battle_experience
from engine.campaign.rules.exploration import exploration_dice, find_multiple
from engine.campaign.rules.exploration import explore as explore_place
from engine.campaign.rules.income import sell_wyrdstone
from engine.campaign.rules.injuries import InjuryResult, henchmen_out_of_action, serious_injury
from engine.campaign.rules.injuries import settle_pit_fight as pit_fight_result
from engine.campaign.rules import pit_fight as pit_rules
from engine.campaign.rules import skill_rules
from engine.campaign.rules.scenario_finds import scenario_shards
from engine.campaign.rules.sequence import STEP_TITLES, Fighter, Pending, SequenceState
from engine.campaign.rules.succession import leaves_for_good
from engine.campaign.rules.transfer import check_warrior_fields
from engine.campaign.rules.validation import MAX_EXPERIENCE, clean_name
from engine.errors import MordheimError, NotFoundError
from engine.copying import copied

MAX_EXTRA_DICE = 6
BOUGHT_SHOWN = 60  # the most purchases, sales and hires during trading the summary lists
SEQUENCE_CLOSED = "postbattle.cancel"  # the ledger row of a sequence closed before its end (undo passes over it)
# Heroes roll on the serious injury chart and gain experience for enemies they take out of action;
# hired swords do neither: out of action they roll a D6 as henchmen do (rules/campaign_warrior.py).
HEROES = ("leader", "hero")
HEROES_TABLE = ("leader", "hero", "hired_sword")  # who advances on the heroes' table (CampaignWarrior.advances_as_hero)
MAX_COUNTERS = 20  # wyrdstone counters one warrior may carry off a table: far above any scenario's
SECTION_TITLES = {"setup": "The battle", "injuries": "Injuries", "experience": "Experience", "exploration": "Exploration",
                  "income": "Selling wyrdstone", "upkeep": "Hired swords' upkeep", "trading": "Trading and hiring"}
ROSTER_ORDER = {"leader": 0, "hero": 1}  # the leader, the heroes, then everyone else; by id within each


@dataclass(frozen=True)
class SkillGroup:
    """The skills of one skill list a warrior may still learn, for an advance's menu."""

    list_name: str  # 'Combat skills', 'Skaven skills'
    skills: tuple[tuple[str, str], ...]  # (skill name, what it does, and who may not take it)


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
    message_ref: str = ""  # where its message is, 'channel id:message id' ('' not known)
    skill_menu: tuple[SkillGroup, ...] = ()  # when the first waiting advance is a new skill: what he may learn, by list
    upkeep_paid: tuple[int, ...] = ()  # at the upkeep step: the swords it asks whose upkeep is paid by now (`/hire upkeep`)

    @property
    def title(self) -> str:
        return STEP_TITLES[self.state.step]

    def warrior(self, warrior_id: int) -> Warrior | None:
        return self._warriors_by_id.get(warrior_id)

    @cached_property
    def _warriors_by_id(self) -> dict[int, Warrior]:
        # the message and its menus look warriors up by id once per fighter, on every press
        return {w.id: w for w in self.warriors}

    def sections(self) -> list[tuple[str, list[str]]]:
        """The summary, a section per step (empty ones left out), then what was found, bought and
        hired during the sequence, and last the treasury. Every die is ``state.dice``."""
        s = self.state
        by_step: dict[str, list[str]] = {}
        for n, line in enumerate(s.lines):
            step = s.line_steps[n] if n < len(s.line_steps) else ""
            by_step.setdefault(step, []).append(line)
        out = [(SECTION_TITLES.get(step, "What happened"), lines) for step, lines in by_step.items()]
        order = list(SECTION_TITLES.values())
        out.sort(key=lambda section: order.index(section[0]) if section[0] in order else len(order))
        money = []
        if s.explored:
            found = f"found {s.shards_found} shard{'s' if s.shards_found != 1 else ''} of wyrdstone"
            by_scenario = s.extra.get("scenario_shards") or {}
            if by_scenario.get("shards"):
                found += (f" ({s.shards_found - by_scenario['shards']} exploring, {by_scenario['shards']} from "
                          f"{by_scenario['scenario']}'s counters)")
            money.append(found)
        if s.gold_found:
            money.append(f"{s.gold_found} gc of loot")
        if s.sold and s.shards_sold:
            money.append(f"sold {s.shards_sold} shard{'s' if s.shards_sold != 1 else ''} for {s.gold_from_sale} gc")
        if money:
            out.append(("Wyrdstone and loot", money))
        if s.items_found or s.found_notes:
            out.append(("Found while exploring", [*s.items_found, *s.found_notes]))
        if s.notes:
            out.append(("Notes", list(s.notes)))
        if s.extra.get("bought"):
            out.append(("Bought, sold and hired during the sequence", list(s.extra["bought"])))
        out.append(("Treasury", [f"{self.gold_crowns} gc and {self.wyrdstone_shards} "
                                 f"shard{'s' if self.wyrdstone_shards != 1 else ''} of wyrdstone"]))
        return out

    def summary(self) -> str:
        """The public summary as text: a heading, then a section per step, ending with the treasury."""
        parts = [f"{self.warband} after {self.state.battle}"]
        for title, lines in self.sections():
            parts.append(f"{title}:\n" + "\n".join(f"- {line}" for line in lines))
        return "\n\n".join(parts)


def _stale(view_step: str) -> MordheimError:
    return MordheimError(
        "That button belongs to a step already taken (pressed twice, or from another device).",
        hint=f"The sequence is now at: {STEP_TITLES.get(view_step, view_step)}. Use the newest message's buttons.",
    )


# ---------------------------------------------------------------------- reading
STATES_KEPT = 1024
_states: dict[str, SequenceState] = {}


def state_of(text: str) -> SequenceState:
    """A stored state, parsed once: each step reads the state the step before wrote (kept as it
    was written), and the standings and absences read finished sequences again and again. States
    are frozen, and the text is the key, so a state kept is always the one stored."""
    state = _states.get(text)
    if state is None:
        state = _keep_state(text, SequenceState.from_json(text))
    return state


def _keep_state(text: str, state: SequenceState) -> SequenceState:
    """Remember ``state`` as the parse of ``text`` (the longest kept is forgotten past STATES_KEPT)."""
    if len(_states) >= STATES_KEPT:
        del _states[next(iter(_states))]
    _states[text] = state
    return state


def _record(uow: UnitOfWork, sequence_id: int) -> SequenceRecord:
    record = uow.sequences.get(sequence_id)
    if record is None:
        raise MordheimError(
            "This post-battle sequence no longer exists: its warband was deleted.",
            hint="Nothing was changed. Start a new sequence with `/postbattle start` for a warband that exists.",
        )
    return record


def _view(uow: UnitOfWork, record: SequenceRecord, rolls: Iterable[str] = ()) -> SequenceView:
    band = warband_by_id(uow, record.warband_id)
    state = state_of(record.state_json)
    warriors = uow.warriors.of_warband(band.id, band.name)
    tables = tables_of(uow)
    return view_of(record, state, band, warriors, tables.rules, rolls,
                   skill_menu=_skill_menu_of(state, warriors, tables.catalogue, tables.warband_list(band)),
                   upkeep_paid=_upkeep_paid_of(uow, record, state, band, warriors))


def _upkeep_paid_of(uow: UnitOfWork, record: SequenceRecord, state: SequenceState, band: Warband,
                    warriors: Iterable[Warrior]) -> tuple[int, ...]:
    """At the upkeep step, the swords it asks whose upkeep for the battle is paid by now: `/hire
    upkeep` may pay it while the step waits (then the step shows them paid, and lets none of them go)."""
    asked = {int(wid) for wid, _fee in state.extra.get("upkeep", [])}
    if state.step != "upkeep" or record.battle_id is None or not asked:
        return ()
    return tuple(w.id for w in upkeep.due_after(uow, band, record.battle_id, warriors, fought=asked).paid)


def _skill_menu_of(state: SequenceState, warriors: Iterable[Warrior], catalogue: Catalogue,
                   wlist: WarbandList | None) -> tuple[SkillGroup, ...]:
    """The skill menu of the first waiting advance, when it is a new skill (else none)."""
    if state.step != "experience" or not state.pending or state.pending[0].kind != "skill":
        return ()
    band = list(warriors)
    w = next((w for w in band if w.id == state.pending[0].warrior_id), None)
    return skill_menu(w, catalogue, wlist, band) if w is not None else ()


def view_of(record: SequenceRecord, state: SequenceState, band: Warband, warriors: Iterable[Warrior], rules: CampaignRules,
            rolls: Iterable[str] = (), *, skill_menu: tuple[SkillGroup, ...] = (), upkeep_paid: tuple[int, ...] = ()) -> SequenceView:
    """The view of the sequence ``record`` (at ``state``) of ``band`` with these warriors, in any order."""
    ordered = tuple(sorted(warriors, key=lambda w: (ROSTER_ORDER.get(w.role, 2), w.id)))
    size = roster_rules.models(ordered)  # hired swords left out: see roster_rules' decisions
    held = band.wyrdstone_shards
    prices = tuple((n, rules.tables.income.gold(n, size)) for n in range(0, min(held, 12) + 1))
    return SequenceView(id=record.id, guild_id=band.guild_id, warband_id=band.id, warband=band.name, owner_id=band.owner_id,
                        version=record.version, status=record.status, state=state, warriors=ordered,
                        gold_crowns=band.gold_crowns, wyrdstone_shards=held, warband_size=size, sale_prices=prices,
                        rolls=tuple(rolls), message_ref=record.message_ref, skill_menu=skill_menu, upkeep_paid=upkeep_paid)


def get(uow: UnitOfWork, sequence_id: int) -> SequenceView:
    return _view(uow, _record(uow, sequence_id))


def warband_name(uow: UnitOfWork, warband_id: int) -> str:
    """The name of this server's warband ``warband_id`` (buttons carry ids, the service takes names)."""
    return warband_by_id(uow, warband_id).name


def open_sequence(uow: UnitOfWork, warband: str) -> SequenceView | None:
    """The warband's open sequence, to resume (None when there is none)."""
    record = uow.sequences.open_of(warband_named(uow, warband).id)
    return None if record is None else _view(uow, record)


def resume(uow: UnitOfWork, actor: Actor, warband: str) -> SequenceView | None:
    """The warband's open sequence, one version on so the buttons of the message it was shown in
    go stale (the channel shows it again with fresh ones); None when there is none."""
    band = warband_named(uow, warband)
    record = uow.sequences.open_of(band.id)
    if record is None:
        return None
    may_change(band, actor)
    _closed_if_undone(uow, band, record, called=f"{band.name}'s post-battle sequence")  # as a press of its buttons finds it
    uow.sequences.bump(record.id, uow.at)
    return _view(uow, _record(uow, record.id))


def _closed_if_undone(uow: UnitOfWork, band: Warband, record: SequenceRecord, *, called: str) -> Battle | None:
    """The open sequence's battle; when undo took that battle or the sequence's own changes back
    meanwhile, the sequence is closed and ``KeepChanges`` says so (``called``: how to name it)."""
    battle = uow.battles.get(record.battle_id) if record.battle_id is not None else None
    if record.battle_id is not None and battle is None:  # undone before undo closed it
        close(uow, record, reason="its battle was undone")
        raise KeepChanges(MordheimError(f"{called}'s battle was taken back with `/warband undo`, so it is closed now.",
                                        hint="Record the battle again with `/battle record`, then `/postbattle start`."))
    if uow.ledger.batch_undone(band.id, record.batch_id):
        close(uow, record, reason="undone")
        raise KeepChanges(MordheimError(f"{called}'s changes were taken back with `/warband undo`, so it is closed now.",
                                        hint="Start it again with `/postbattle start`."))
    return battle


def shown_at(uow: UnitOfWork, actor: Actor, sequence_id: int, message_ref: str) -> None:
    """Where the sequence's message now is ('channel id:message id'), for the next resume to find."""
    record = _record(uow, sequence_id)
    may_change(warband_by_id(uow, record.warband_id), actor)
    uow.sequences.shown_at(record.id, message_ref[:64])


def found_by_warband(uow: UnitOfWork, *, only: Sequence[int] | None = None) -> dict[int, int]:
    """Shards found by each warband's sequences that were not undone (of the warbands ``only``, when given)."""
    found: dict[int, int] = {}
    for record in uow.sequences.not_cancelled(only=only):
        if not uow.ledger.batch_undone(record.warband_id, record.batch_id):
            state = state_of(record.state_json)
            found[record.warband_id] = found.get(record.warband_id, 0) + state.shards_found
    return found


def _absences(uow: UnitOfWork, warband_id: int, battle_id: int) -> tuple[dict[int, int], set[int]]:
    """Games still to miss at ``battle_id`` per warrior, and who is held captive, from earlier
    sequences not undone. A warrior who must miss N games sits out the warband's next N battles."""
    missing: dict[int, int] = {}
    captive: set[int] = set()
    for record in uow.sequences.of_warband(warband_id, SequenceStatus.FINISHED, before_battle=battle_id):
        if uow.ledger.batch_undone(warband_id, record.batch_id) or record.battle_id is None:
            continue
        state = state_of(record.state_json)
        since = uow.battles.count_between(warband_id, record.battle_id, battle_id)
        for wid, games in state.missed:
            if games - since > 0:
                missing[wid] = max(missing.get(wid, 0), games - since)
        if not state.extra.get("captives_kept"):  # a sequence before the 'captured' status (issue 16)
            captive |= set(state.captured)
    return missing, captive


def _captor(s: _Step, f: Fighter) -> tuple[Warband | None, tuple[Warband, ...]]:
    """Who holds the hero ``f`` taken captive in this battle (``captives.captor_of_battle``)."""
    return captor_of_battle(s.uow, s.record.battle_id, s.band.id, taken_by=f.taken_by)


# ---------------------------------------------------------------------- writing
def start(uow: UnitOfWork, actor: Actor, warband: str, *, battle_id: int | None = None,
          prefill: BattleFacts | None = None) -> SequenceView:
    """Start the sequence after the warband's newest battle (or ``battle_id``); ``prefill``: what
    the battle tracker knows of it (who fought, who went out of action, each hero's kills)."""
    band = warband_named(uow, warband)
    may_change(band, actor)
    open_record = uow.sequences.open_of(band.id)
    if open_record is not None:
        if not uow.ledger.batch_undone(band.id, open_record.batch_id):
            step = state_of(open_record.state_json).step
            raise MordheimError(f"{band.name} already has a post-battle sequence open ({STEP_TITLES[step]}).",
                                hint="Resume it with `/postbattle resume`, or `/postbattle cancel` it first.")
        close(uow, open_record, reason="undone, started again")
    battles = uow.battles.in_order(band.id, band.name)
    if not battles:
        raise MordheimError(f"{band.name} has no battle recorded yet.",
                            hint="Record it with `/battle record` first; the sequence follows a battle.")
    battle = battles[-1] if battle_id is None else next((x for x in battles if x.id == battle_id), None)
    if battle is None:
        raise NotFoundError(f"{band.name} has no battle #{battle_id}.")
    for done in uow.sequences.of_warband(band.id, SequenceStatus.FINISHED, battle_id=battle.id):
        if not uow.ledger.batch_undone(band.id, done.batch_id):
            raise MordheimError(f"{band.name} already went through the post-battle sequence for that battle.",
                                hint="Undo it with `/warband undo` to run it again.")
    # A cancelled sequence keeps the steps it took (its injuries, experience, finds): running the
    # battle's sequence again on top of them would roll and pay them twice. Undoing them first is
    # the way to run it again, as for a finished one.
    for dropped in uow.sequences.of_warband(band.id, SequenceStatus.CANCELLED, battle_id=battle.id):
        if (uow.ledger.batch_changed(band.id, dropped.batch_id, passed_over=(SEQUENCE_CLOSED,))
                and not uow.ledger.batch_undone(band.id, dropped.batch_id)):
            raise MordheimError(f"{band.name} took steps of a post-battle sequence for that battle before it was cancelled "
                                f"({STEP_TITLES[state_of(dropped.state_json).step]}): what they applied still stands, so the "
                                "sequence cannot be run for that battle again.",
                                hint="Undo those steps with `/warband undo` (they go back together) to run it again.")
    number = sum(1 for x in battles if x.id <= battle.id)
    missing, captive = _absences(uow, band.id, battle.id)
    fighters = tuple(
        Fighter(warrior_id=w.id, name=w.name, hero=w.role in HEROES, models=w.group_size,
                fought=w.id not in missing and w.id not in captive, hired_sword=w.is_hired_sword)
        for w in uow.warriors.of_warband(band.id, band.name) if w.is_active
    )
    if not fighters:
        raise MordheimError(f"{band.name} has no active warriors.", hint="Add warriors with `/warrior add` first.")
    what = f"battle {number} ({battle.result}" + (f", {battle.scenario})" if battle.scenario else ")")
    notes = tuple(f"{f.name} sits this one out ({'captured' if f.warrior_id in captive else 'still recovering'})"
                  for f in fighters if not f.fought)
    if prefill is not None:
        fighters = prefilled(fighters, prefill)
    asks = scenario_asks(battle)  # what its rulebook scenario awards beyond the usual and needs told
    extra: dict[str, Any] = {"asks_counters": asks.counters, "feat": asks.feat, "feat_done": asks.feat_done}
    carried = _extra_dice_carried(uow, band)
    if carried:
        extra[EXTRA_DIE] = carried
        notes = (*notes, f"The straggler questioned after an earlier battle: this exploration rolls {carried} extra "
                         f"{'die' if carried == 1 else 'dice'}, and you drop as many")
    state = SequenceState(step=Step.SETUP, won=battle.result == "win", battle=what, fighters=fighters, notes=notes,
                          extra=extra)
    sequence_id = uow.sequences.add(warband_id=band.id, battle_id=battle.id, started_by=actor.member_id, step=Step.SETUP,
                                    state_json=state.to_json(), at=uow.at)
    uow.warbands.touch(band.id)
    return _view(uow, _record(uow, sequence_id))


def cancel(uow: UnitOfWork, actor: Actor, sequence_id: int, *, version: int | None = None) -> SequenceView:
    """Close an open sequence (at ``version``, when a button asks). Steps already taken stay
    (``/warband undo`` takes them back)."""
    record = _record(uow, sequence_id)
    may_change(warband_by_id(uow, record.warband_id), actor)
    if record.status != SequenceStatus.OPEN:
        raise MordheimError(f"This sequence is already {record.status}.")
    if version is not None and record.version != version:
        raise _stale(record.step)
    close(uow, record, reason="cancelled")
    return _view(uow, _record(uow, sequence_id))


def close(uow: UnitOfWork, record: SequenceRecord, *, reason: str) -> None:
    """Cancel an open sequence, with a ledger row saying so (undo passes over it: the steps taken
    are undone on their own): what it found stops counting in the standings."""
    uow.sequences.cancel(record.id, uow.at)
    band = warband_by_id(uow, record.warband_id)
    uow.ledger.record(warband_id=band.id, warband_name=band.name, what=SEQUENCE_CLOSED, entity=Entity.WARBAND, entity_id=band.id,
                      before={"sequence": record.id, "status": str(record.status)}, after={"sequence": record.id, "status": "cancelled"},
                      reason=reason)
    uow.warbands.touch(band.id)


# ---- setup -------------------------------------------------------------------
def set_fighters(uow: UnitOfWork, actor: Actor, sequence_id: int, version: int, *,
                 absent: Iterable[int] | None = None, out_of_action: Mapping[int, int] | None = None,
                 kills: Mapping[int, int] | None = None, scenario: Mapping[int, int] | None = None,
                 counters: Mapping[int, int] | None = None, feat: Iterable[int] | None = None) -> SequenceView:
    """Who did not fight, who was taken out of action (models, for a group), enemies each hero
    took out of action, experience typed for the scenario, and for a rulebook scenario the
    wyrdstone counters each carried at the end and who did its feat (``feat``: every one who
    did; the others did not). Only what is given changes."""
    s = _Step.open(uow, actor, sequence_id, version, "setup", "experience")
    state = s.state
    ids = {f.warrior_id: f for f in state.fighters}
    if counters and not state.extra.get("asks_counters"):
        raise MordheimError("This battle's scenario awards nothing for wyrdstone counters.",
                            hint="Give any experience it awards as scenario experience instead.")
    feat = None if feat is None else set(feat)
    if feat and not state.extra.get("feat"):
        raise MordheimError("This battle's scenario has no feat that earns experience.",
                            hint="Give any experience it awards as scenario experience instead.")
    for given in (absent or (), feat or (), *(m or {} for m in (out_of_action, kills, scenario, counters))):
        for wid in given:
            if wid not in ids:
                raise MordheimError("That warrior is not on this warband's roster for this battle.",
                                    hint="Choose from the menu of the newest message.")
    if state.step == "experience" and (absent is not None or out_of_action is not None):
        raise MordheimError("Injuries are already rolled: who fought and who went out of action cannot change now.")
    fighters = []
    for f in state.fighters:
        if absent is not None:
            f = copied(f, fought=f.warrior_id not in set(absent))
        if out_of_action is not None:
            n = int(out_of_action.get(f.warrior_id, 0))
            if n and not f.fought:
                raise MordheimError(f"{f.name} did not fight, so he cannot have been taken out of action.",
                                    hint="Mark him as having fought first.")
            if not 0 <= n <= (1 if f.hero else f.models):
                raise MordheimError(f"{f.name} had {f.models} model{'s' if f.models != 1 else ''}; {n} cannot be out of action.")
            f = copied(f, out_of_action=n)
        if kills is not None and f.warrior_id in kills:
            n = int(kills[f.warrior_id])
            if n and not f.hero:
                what = "a hired sword (he gains experience as henchmen do)" if f.hired_sword else "a henchman group"
                raise MordheimError(f"{f.name} is {what}: only heroes gain experience for enemies they take out of action.")
            if n and not f.fought:
                raise MordheimError(f"{f.name} did not fight.")
            if not 0 <= n <= 30:
                raise MordheimError("Enemies taken out of action must be 0 to 30.")
            f = copied(f, kills=n)
        if scenario is not None and f.warrior_id in scenario:
            n = int(scenario[f.warrior_id])
            if not -20 <= n <= 20:
                raise MordheimError("Scenario experience must be between -20 and 20.")
            f = copied(f, scenario=n)
        if counters is not None and f.warrior_id in counters:
            n = int(counters[f.warrior_id])
            if n and not f.fought:
                raise MordheimError(f"{f.name} did not fight, so he carried no wyrdstone counter.")
            if not 0 <= n <= MAX_COUNTERS:
                raise MordheimError(f"Wyrdstone counters carried must be 0 to {MAX_COUNTERS}.")
            f = copied(f, counters=n)
        if feat is not None:
            if f.warrior_id in feat and not f.fought:
                raise MordheimError(f"{f.name} did not fight.")
            f = copied(f, feat=f.warrior_id in feat)
        fighters.append(f)
    s.save(copied(state, fighters=tuple(fighters)))
    return s.view

def confirm_fighters(uow: UnitOfWork, actor: Actor, sequence_id: int, version: int) -> SequenceView:
    s = _Step.open(uow, actor, sequence_id, version, "setup")
    if not any(f.fought for f in s.state.fighters):
        raise MordheimError("Nobody of the warband fought.", hint="Mark who fought in the menu first.")
    s.save(copied(s.state, step="injuries"))
    return s.view

# ---- 1. injuries --------------------------------------------------------------
def roll_injuries(uow: UnitOfWork, actor: Actor, sequence_id: int, version: int,
                  entered: Mapping[int, str] | None = None, *, rng: random.Random | None = None) -> SequenceView:
    """Every hero out of action rolls on the serious injury chart, every henchman out of action a D6.
    ``entered``: dice rolled at the table, per warrior id (the bot rolls whatever is missing)."""
    entered = dict(entered or {})
    s = _Step.open(uow, actor, sequence_id, version, "injuries")
    s.rng = rng
    state, rules = s.state, s.rules
    lines: list[str] = []
    dice_lines: list[str] = []
    pending: list[Pending] = []
    missed, captured, extra = list(state.missed), list(state.captured), dict(state.extra)
    notes: list[str] = []
    gold = 0
    for f in state.fighters:
        if not f.out_of_action:
            continue
        w = s.warrior(f.warrior_id)
        dice = Dice(rng, parse_entered(entered.get(f.warrior_id, "")))
        cw = s.campaign_warrior(w)
        if f.hero:
            result = serious_injury(cw, rules, dice)
            if result.pit_fight is not None:
                pending.append(Pending("pit_fight", f.warrior_id, f.name, ("won", "lost"),
                                       "Sold to the pits: the bot fights it (the combat engine), or fight it at the table "
                                       "and say who won."))
            lines.append(f"{f.name} — " + "; ".join(r.rsplit(" [", 1)[0] for r in result.results))
            after = result.warrior
            gold += result.gold
        else:
            hench = henchmen_out_of_action(cw, f.out_of_action, rules, dice)
            after = hench.warrior
            if f.hired_sword:
                lines.append(f"{f.name} — " + ("lost" if hench.lost else "survives"))
            else:
                lines.append(f"{f.name} — " + (f"{hench.lost} of {f.out_of_action} out of action lost" if hench.lost
                                               else "all back on their feet") + (" (the group is gone)" if after.status == "dead" else ""))
        if dice.unused:
            raise MordheimError(f"{f.name}: {len(dice.unused)} entered dice were not needed ({' '.join(map(str, dice.unused))}).",
                                hint="Type only the dice this warrior's injuries roll.")
        dice_lines.extend(str(r) for r in dice.rolls)
        if after.missed_games:
            missed.append((f.warrior_id, after.missed_games))
        s.write(w, after, "postbattle.injury")
        if after.captured:
            captured.append(f.warrior_id)
            captor, maybe = _captor(s, f)
            uow.captives.add(warband_id=s.band.id, warrior_id=w.id, captor_id=captor.id if captor else None,
                             battle_id=s.record.battle_id, batch_id=uow.ledger.batch_id, at=uow.at)
            notes.append(f"{f.name} is held by {captor.name}: its owner may ransom him, exchange him or sell him to the slavers "
                         "(`/postbattle captives`)" if captor else
                         f"{f.name} is held by {' or '.join(b.name for b in maybe)}: say which with `/postbattle captives`"
                         if maybe else
                         f"{f.name} is held by the enemy: record his fate with `/postbattle captives` once it is known")
    unknown = set(entered) - {f.warrior_id for f in state.fighters if f.out_of_action}
    if unknown:
        raise MordheimError("Dice were entered for a warrior who was not taken out of action.",
                            hint="Enter dice only for the warriors the menu marks out of action.")
    if gold:
        s.treasury(gold=gold, reason="won in the pits")
    extra["captives_kept"] = True  # captives are warriors with the status 'captured' (not this list: see _absences)
    new = copied(state, lines=(*state.lines, *lines), dice=(*state.dice, *dice_lines), missed=tuple(missed),
                  captured=tuple(captured), pending=(*state.pending, *pending), extra=extra, notes=(*state.notes, *notes))
    s.save(copied(new, step="injuries" if pending else "experience"), rolls=dice_lines)
    return s.view

def settle_pit_fight(uow: UnitOfWork, actor: Actor, sequence_id: int, version: int,
                     warrior_id: int, won: bool, entered: str = "", *, rng: random.Random | None = None) -> SequenceView:
    """Sold to the pits, fought at the table: the player says who won (the bot rolls a loser's D66)."""
    s = _Step.open(uow, actor, sequence_id, version, "injuries")
    p = s.pending("pit_fight", warrior_id)
    w = s.warrior(warrior_id)
    return _after_pit_fight(s, p, w, won, Dice(rng, parse_entered(entered)), [], [])


def fight_pit(uow: UnitOfWork, actor: Actor, sequence_id: int, version: int, warrior_id: int, *, entered: str = "",
              edition: str | None = None, toggles: Mapping[str, bool] | None = None,
              rng: random.Random | None = None) -> SequenceView:
    """Sold to the pits: the bot fights the pit fight with the combat engine (the hero in his kit
    against the pit fighter, rules/pit_fight.py; ``edition`` and ``toggles`` are the server's)
    and applies the result. ``entered``: the dice for who charges and a loser's D66, typed."""
    s = _Step.open(uow, actor, sequence_id, version, "injuries")
    p = s.pending("pit_fight", warrior_id)
    w = s.warrior(warrior_id)
    dice = Dice(rng, parse_entered(entered))
    hero = pit_rules.Combatant(w.name, w.profile, w.equipment, w.skills, w.special_rules)
    result = pit_rules.fight(hero, pit_rules.pit_fighter(s.catalogue.hired_swords.values()), dice, rng,
                             edition=edition, toggles=dict(toggles or {}))
    if result.won is None:
        raise MordheimError(f"After {result.rounds} rounds both still stand: the bot stops there.",
                            hint="Fight it at the table (or with /fight) and say who won.")
    after = Dice(rng, dice.unused)
    lines = [f"{w.name} fought the pit fighter ({result.rounds} round{'s' if result.rounds != 1 else ''}): "
             + ("won" if result.won else "lost")]
    if result.left_out:
        lines.append("left out of the pit fight: " + ", ".join(result.left_out))
    extra = {**s.state.extra, "pit_fights": {**s.state.extra.get("pit_fights", {}), w.name: list(result.lines)}}
    s.state = copied(s.state, extra=extra)
    return _after_pit_fight(s, p, w, result.won, after, list(result.dice), lines)


def _after_pit_fight(s: _Step, p: Pending, w: Warrior, won: bool, dice: Dice, rolls: list[str], lines: list[str]) -> SequenceView:
    """The pit fight's result applied: a winner's gold and experience, a loser's D66 (``dice``)."""
    effect = next(e for entry in s.rules.serious_injuries for e in entry.effects if e.op == "pit_fight")
    result = pit_fight_result(InjuryResult(s.campaign_warrior(w), (), (), 0, effect), won, dice)
    if dice.unused:
        raise MordheimError(f"{len(dice.unused)} entered dice were not needed.", hint="Type only the dice the pit fight rolls.")
    s.write(w, result.warrior, "postbattle.pit_fight")
    if result.gold:
        s.treasury(gold=result.gold, reason="won in the pits")
    rolls = [*rolls, *(str(r) for r in dice.rolls)]
    state = s.state
    left = list(state.pending)
    left.remove(p)
    rest = tuple(left)
    s.save(copied(state, pending=rest, step="injuries" if rest else "experience",
                   lines=(*state.lines, *lines, f"{w.name} — {result.results[-1]}"), dice=(*state.dice, *rolls)), rolls=rolls)
    return s.view

# ---- 2. experience ------------------------------------------------------------
def apply_experience(uow: UnitOfWork, actor: Actor, sequence_id: int, version: int, *,
                     entered: Mapping[int, str] | None = None, rng: random.Random | None = None) -> SequenceView:
    """The usual awards and the scenario's, then one advance roll per threshold crossed.
    ``entered``: the advance dice rolled at the table, per warrior id, in the order his advances
    ask for them (the bot rolls whatever is missing; a die nobody asked for is refused)."""
    entered = dict(entered or {})
    s = _Step.open(uow, actor, sequence_id, version, "experience")
    state, tables = s.state, s.rules.tables
    if state.extra.get("experience_done"):
        raise _stale(state.step)
    lines: list[str] = []
    rolls: list[str] = []
    pending: list[Pending] = []
    awards: list[str] = []
    raised = list(state.raised)
    heroes_full = s.heroes_full()
    # the battle's rulebook scenario awards and the underdog experience (stored with the battle)
    battle = s.battle
    for f in state.fighters:
        w = s.maybe_warrior(f.warrior_id)
        if w is None or not f.fought or w.status not in ("active", "captured"):  # a captive lives: he survived
            continue
        cw = s.campaign_warrior(w)
        earned = battle_experience(cw, tables.awards, won=state.won, enemies_out_of_action=f.kills, scenario=f.scenario)
        if battle is not None:
            outcome = outcome_of(role=w.role, survived=True, won=state.won, kills=f.kills, counters=f.counters_held, feat=f.feat,
                                 gains_experience=cw.gains_experience)
            earned += tuple(Earned(a.name, a.amount) for a in battle_extra_experience(battle, outcome))
        gain = sum(e.amount for e in earned)
        if not cw.gains_experience:
            lines.append(f"{f.name} {'gain' if w.group_size > 1 else 'gains'} no experience ({('animals' if w.group_size > 1 else 'an animal') if 'animal' in cw.special_rules else ('their' if w.group_size > 1 else 'his') + ' rules say so'})")
            continue
        if not gain:
            continue
        typed = parse_entered(entered.pop(f.warrior_id, ""))
        cw, words = _gain(s, w, cw, gain, rng, heroes_full=heroes_full, rolls=rolls, raised=raised, pending=pending,
                          entered=typed)
        s.write(w, cw, "postbattle.experience")
        line = f"{f.name} +{gain} experience"
        if words:
            line += " → advance: " + ", ".join(words)
        lines.append(line)
        awards.append(f"{f.name}: " + ", ".join(f"{e.award} {e.amount:+d}" for e in earned))
    if any(parse_entered(text) for text in entered.values()):  # typed for a warrior who advanced on none
        names = ", ".join(f.name for f in state.fighters if f.warrior_id in entered and parse_entered(entered[f.warrior_id]))
        raise MordheimError(f"Dice were typed for {names}, who reaches no advance in this battle.",
                            hint="Type advance dice only for the warriors whose experience crosses an advance.")
    extra = {**state.extra, "experience_done": True, "awards": awards}
    s.save(copied(state, lines=(*state.lines, *lines), dice=(*state.dice, *rolls), raised=tuple(raised),
                   pending=(*state.pending, *pending), extra=extra, step="experience" if pending else "exploration"),
           rolls=rolls)
    return s.view

def _gain(s: _Step, w: Warrior, cw: CampaignWarrior, gain: int, rng: random.Random | None, *, heroes_full: bool,
          rolls: list[str], raised: list[tuple[int, str]], pending: list[Pending],
          entered: tuple[int, ...] = ()) -> tuple[CampaignWarrior, list[str]]:
    """``cw`` (the warrior ``w``) with ``gain`` experience and one advance rolled for each threshold
    it crosses: the dice (``entered`` ones first, in order, then the bot's) are added to ``rolls``,
    a henchman group's characteristic to ``raised``, a choice left to the player to ``pending``.
    Returns him and the advances in words; dice typed and not needed are refused."""
    tables = s.rules.tables
    total = max(0, min(MAX_EXPERIENCE, cw.experience + gain))
    crossed = s.rules.advances_between(w.role, cw.experience, total)
    cw = copied(cw, experience=total)
    words: list[str] = []
    left = entered  # the typed dice no advance has taken yet
    for _threshold in crossed:
        dice = Dice(rng, left)
        if cw.advances_as_hero:  # heroes, and hired swords at the henchmen's thresholds
            adv = hero_advance(cw, tables.hero_advances, dice)
        else:
            adv = henchman_advance(cw, tables.henchman_advances, dice, heroes_full=heroes_full)
        rolls.extend(str(r) for r in dice.rolls)
        left = dice.unused
        cw = adv.warrior
        words.append(adv.describe())
        if adv.characteristic and not cw.advances_as_hero:
            raised.append((w.id, adv.characteristic))
        if adv.waiting:
            kind = "talent" if adv.talent else "skill" if adv.skill else "choose"
            pending.append(Pending(kind, w.id, w.name, adv.choose_from, "; ".join(adv.notes)))
        elif adv.notes:
            words[-1] += f" ({'; '.join(adv.notes)})"
    if left and not crossed:
        raise MordheimError(f"Dice were typed for {w.name}, who reaches no advance in this battle.",
                            hint="Type advance dice only for the warriors whose experience crosses an advance.")
    if left:
        advances = f"{len(crossed)} advance{'s' if len(crossed) != 1 else ''}"
        raise MordheimError(f"{w.name}: {len(left)} typed dice were not needed ({' '.join(map(str, left))}).",
                            hint=f"Type only the dice his {advances} roll: 2D6 each, then a D6 where the hero's table asks.")
    return cw, words


NEXT_STEP = {"experience": "exploration", "exploration": "income"}  # where a step's last choice leads


def choose(uow: UnitOfWork, actor: Actor, sequence_id: int, version: int, warrior_id: int,
           kind: str, value: str, *, skill_lists: tuple[str, ...] = (), rng: random.Random | None = None) -> SequenceView:
    """Settle a waiting advance: a characteristic (``choose``), a skill (``skill``), or the lad's
    name as a new hero (``talent``, with two ``skill_lists`` when the lists are known). An advance
    reached with experience found exploring waits in the exploration step the same way."""
    s = _Step.open(uow, actor, sequence_id, version, "experience", "exploration")
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
        if not cw.advances_as_hero:
            raised.append((warrior_id, wanted))
        line = f"{w.name} chose +1 {wanted}"
        s.write(w, cw, "postbattle.advance")
    elif kind == "skill":
        barred = skill_rules.typed_refusal(w, s.catalogue, s.wlist, value, s.warriors())
        if barred is not None:
            raise MordheimError(barred, hint="Choose another skill from the menus.")
        adv = learn_skill(AdvanceRoll(cw, tables.hero_advances.results[0], skill=True), value,
                          skills_he_may_learn(w, s.catalogue, s.wlist, s.warriors()))
        line = f"{w.name} learnt {adv.warrior.skills[-1]}"
        s.write(w, adv.warrior, "postbattle.skill")
    elif kind == "talent" and s.heroes_full():
        # Another lad promoted first filled the heroes since this talent was rolled. With the heroes full
        # the table rolls a talent again (rules_data/campaign henchman_advances), so the group rolls now
        # instead of waiting for a promotion the warband has no room for.
        dice = Dice(rng)
        again = _roll_again(s, warrior_id, dice, raised, pending)
        line = (f"{w.name}: {s.band.name} already has its {s.max_heroes()} heroes, so no lad becomes a hero; "
                f"the group rolls again: {again.describe()}")
        rolls = [str(r) for r in dice.rolls]
    elif kind == "talent":
        name = clean_name(value, "The new hero's name", forbid="/")
        promotion = promote(cw, name, talent_skill_lists(skill_lists, s.catalogue, s.wlist))
        if promotion.group is None:
            s.write(w, copied(promotion.hero, name=name), "postbattle.talent")
            hero_id = w.id
        else:
            s.write(w, promotion.group, "postbattle.talent")
            hero_id = s.add(w, promotion.hero, "postbattle.talent").id
        line = f"The lad's got talent: {name} of {w.name} becomes a hero"
        dice = Dice(rng)
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
    s.save(copied(state, pending=tuple(pending), raised=tuple(raised), lines=(*state.lines, line),
                   dice=(*state.dice, *rolls), step=state.step if pending else _after_choices(state)), rolls=rolls)
    return s.view


def _after_choices(state: SequenceState) -> str:
    """The step a sequence goes on to once nothing waits: the experience step's next, or the
    exploration's once it has explored."""
    if state.step == "exploration" and not state.explored:
        return "exploration"
    return NEXT_STEP[state.step]

# ---- 3. exploration -----------------------------------------------------------
def searchers(view: SequenceView) -> list[Warrior]:
    """Heroes who fought, were not taken out of action and are still with the warband."""
    return _searchers(view.state, view.warrior)


def _searchers(state: SequenceState, warrior: Callable[[int], Warrior | None]) -> list[Warrior]:
    """``searchers`` of the sequence at ``state``, its warriors found by id with ``warrior``."""
    out = []
    for f in state.fighters:
        w = warrior(f.warrior_id)
        if w is not None and w.role in ("leader", "hero") and f.fought and not f.out_of_action and w.status == "active":
            out.append(w)
    return out

# Where one exploration die may be re-rolled, the second result standing (a die is never
# re-rolled twice: 004:62). Each source gives one re-roll.
CATACOMBS = "entrance-to-the-catacombs"  # found once: "from now on" one die (rules_data/campaign/lrb.json, exploration)
# A straggler questioned (rules_data/campaign/lrb.json exploration, place "straggler", the variant of every
# warband but the Skaven, the Possessed and the Undead: "next exploration: roll one extra die and drop any
# one"): (place id, variant name) -> extra dice the warband's next exploration rolls, the player dropping as many.
NEXT_EXPLORATION_DICE = {("straggler", "Questioned"): 1}
EXTRA_DIE_FOUND = "next_exploration_dice"  # state.extra: this exploration found extra dice for the next one
EXTRA_DIE = "extra_exploration_dice"  # state.extra: dice this sequence's exploration rolls extra and drops (set at start)
EXTRA_DIE_USED = "extra_exploration_dice_used"  # state.extra: its exploration rolled them (the next one does not)
REROLL_SKILLS = ("wyrdstone hunter",)  # Academic skill, of a hero who searched (rules_data/warbands/skills.json)
REROLL_RULES = ("myths-and-legends",)  # a hired sword's rule, when not taken out of action (hired_swords.json)
REROLL_ITEMS = ("master map", "warpstone amulet")  # carried by a warrior not taken out of action: a Mordheim map that
# rolled 6 (seed 000:1530, written "Master map" on his kit) and the Clan Pestilens amulet (Town Cryer 29)


FOLLOW_UP = "follow_up_dice"  # state.extra: follow-up dice typed with the exploration dice, not used yet


def explore(uow: UnitOfWork, actor: Actor, sequence_id: int, version: int, *,
            entered: str = "", extra_dice: int = 0, hero_id: int | None = None, visit: bool = True,
            rng: random.Random | None = None) -> SequenceView:
    """Roll (or take) the exploration dice; where the warband may re-roll dice, wait for which;
    then the place's follow-up dice, and add what was found. ``entered``: the exploration dice
    rolled at the table, then any follow-up dice the place found asks, in the order it asks them
    (the bot rolls whatever is not typed; dice typed and not needed are refused)."""
    if not 0 <= extra_dice <= MAX_EXTRA_DICE:
        raise MordheimError(f"Extra exploration dice must be 0 to {MAX_EXTRA_DICE}.")
    s = _Step.open(uow, actor, sequence_id, version, "exploration")
    state, table = s.state, s.rules.tables.exploration
    if state.explored:
        raise _stale(state.step)
    if any(p.kind == "reroll" for p in state.pending):
        raise MordheimError("Choose the dice to re-roll first, or keep them.", hint="Use the menu of the newest message.")
    searching = _searchers(state, s.maybe_warrior)
    faces = state.explore_dice
    rolls: list[str] = []
    follow_up = parse_entered(entered)
    if not faces:
        base = exploration_dice(len(searching), state.won, table, extra_dice)
        to_drop = int(state.extra.get(EXTRA_DIE, 0)) if base else 0  # nobody searching: kept for the next exploration
        n = exploration_dice(len(searching), state.won, table, extra_dice + to_drop)
        entered_faces, follow_up = follow_up[:n], follow_up[n:]
        if entered_faces and len(entered_faces) != n:
            raise MordheimError(f"This exploration rolls {n} dice ({len(searching)} searching heroes"
                                f"{', +1 for the win' if state.won else ''}{f', +{extra_dice} extra' if extra_dice else ''}"
                                f"{f', +{to_drop} for the straggler questioned' if to_drop else ''}); "
                                f"{len(entered_faces)} were entered.",
                                hint=f"Type the {n} exploration dice, each 1-6, then any follow-up dice the place found asks.")
        faces = Dice(rng, entered_faces).dice(n, "Exploration")
        if faces:
            rolls.append(f"Exploration: {len(faces)}D6 {' '.join(map(str, faces))} = {sum(faces)}"
                         + (" (entered)" if entered_faces else ""))
        if follow_up:  # kept for the place's follow-up rolls, past a choice of re-rolls or of a hero
            state = s.state = copied(state, extra={**state.extra, FOLLOW_UP: list(follow_up)})
        if to_drop and faces:
            state = s.state = copied(state, extra={**state.extra, EXTRA_DIE_USED: True})
        dropping = _dice_to_drop(len(faces), to_drop, table.dice_kept)
        if dropping.count:
            p = Pending("drop", 0, "Exploration", tuple(str(k) for k in range(len(faces))), f"{dropping.count}|{dropping.why}")
            s.save(copied(state, explore_dice=tuple(faces), pending=(p,), dice=(*state.dice, *rolls)), rolls=rolls)
            return s.view
        rerolls, why = _rerolls(s, searching)
        if rerolls and faces:
            p = Pending("reroll", 0, "Exploration", tuple(str(k) for k in range(len(faces))),
                        f"{min(rerolls, len(faces))}|" + "; ".join(why))
            s.save(copied(state, explore_dice=tuple(faces), pending=(p,), dice=(*state.dice, *rolls)), rolls=rolls)
            return s.view
    elif follow_up:  # the exploration dice are rolled: dice typed now are the place's
        s.state = copied(state, extra={**state.extra, FOLLOW_UP: [*state.extra.get(FOLLOW_UP, ()), *follow_up]})
    return _explored(s, tuple(faces), rolls, hero_id=hero_id, visit=visit, rng=rng, searching=searching,
                     typed_now=bool(follow_up))


@dataclass(frozen=True)
class _Dropping:
    count: int  # exploration dice the player drops before anything else
    why: str  # why, in words (the straggler's extra dice, the six kept)


def _dice_to_drop(rolled: int, straggler_extra: int, kept_at_most: int | None) -> _Dropping:
    """How many of the ``rolled`` exploration dice the player drops: the straggler's extra dice
    ("roll one extra die and drop any one"), then down to the most the table keeps. The rulebook's
    procedure keeps at most six of all the dice rolled, the player's pick (rules_data/campaign/lrb.json
    exploration.dice_kept_note, Income chapter)."""
    kept = rolled - straggler_extra
    over = max(0, kept - kept_at_most) if kept_at_most is not None else 0
    reasons = []
    if straggler_extra:
        reasons.append("the straggler questioned after an earlier battle")
    if over:
        reasons.append(f"a warband keeps at most {kept_at_most} exploration dice")
    return _Dropping(count=straggler_extra + over, why="; ".join(reasons))


def drop_exploration_dice(uow: UnitOfWork, actor: Actor, sequence_id: int, version: int, dice: Iterable[int], *,
                          rng: random.Random | None = None) -> SequenceView:
    """Drop the exploration dice at these positions (as many as the pending choice says: the
    straggler's extra dice, "drop any one", and those over the six kept; the player chooses which);
    then the warband's re-rolls, then go on as ``explore`` does."""
    s = _Step.open(uow, actor, sequence_id, version, "exploration")
    p = s.pending("drop", 0)
    count_text, _, dropped_for = p.note.partition("|")
    count = int(count_text)
    chosen = sorted(set(int(k) for k in dice))
    faces = list(s.state.explore_dice)
    if len(chosen) != count or any(not 0 <= k < len(faces) for k in chosen):
        raise MordheimError(f"Choose {count} exploration {'die' if count == 1 else 'dice'} to drop.",
                            hint="Use the menu of the newest message.")
    dropped = [faces[k] for k in chosen]
    faces = [f for k, f in enumerate(faces) if k not in chosen]
    rolls = [f"Exploration: dropped {' '.join(map(str, dropped))} ({dropped_for}); kept {' '.join(map(str, faces))}"]
    state = s.state = copied(s.state, pending=tuple(x for x in s.state.pending if x is not p), explore_dice=tuple(faces),
                              dice=(*s.state.dice, *rolls))
    searching = _searchers(state, s.maybe_warrior)
    rerolls, why = _rerolls(s, searching)
    if rerolls and faces:
        again = Pending("reroll", 0, "Exploration", tuple(str(k) for k in range(len(faces))),
                        f"{min(rerolls, len(faces))}|" + "; ".join(why))
        s.save(copied(state, pending=(again,)), rolls=rolls)
        return s.view
    return _explored(s, tuple(faces), [], hero_id=None, visit=True, rng=rng, shown=rolls, searching=searching)


def _extra_dice_carried(uow: UnitOfWork, band: Warband) -> int:
    """Extra exploration dice an earlier exploration found for this warband's next one (a straggler
    questioned) and no later exploration rolled yet; only sequences finished and not undone count."""
    carried = 0
    for record in uow.sequences.of_warband(band.id, SequenceStatus.FINISHED):
        if uow.ledger.batch_undone(band.id, record.batch_id):
            continue
        extra = state_of(record.state_json).extra
        if extra.get(EXTRA_DIE_USED):
            carried = 0
        carried = int(extra.get(EXTRA_DIE_FOUND, carried))
    return carried


def reroll_exploration(uow: UnitOfWork, actor: Actor, sequence_id: int, version: int, dice: Iterable[int], *,
                       entered: str = "", rng: random.Random | None = None) -> SequenceView:
    """Re-roll the exploration dice at these positions (none: keep them all), each once, the second
    result standing; then go on as ``explore`` does."""
    s = _Step.open(uow, actor, sequence_id, version, "exploration")
    p = s.pending("reroll", 0)
    allowed = int(p.note.split("|", 1)[0])
    chosen = sorted(set(int(k) for k in dice))
    faces = list(s.state.explore_dice)
    if any(not 0 <= k < len(faces) for k in chosen):
        raise MordheimError("Choose dice of this exploration.", hint="Use the menu of the newest message.")
    if len(chosen) > allowed:
        raise MordheimError(f"The warband may re-roll {allowed} exploration {'die' if allowed == 1 else 'dice'}, not {len(chosen)}.",
                            hint=f"Choose at most {allowed}.")
    roller = Dice(rng, parse_entered(entered))
    for k in chosen:
        faces[k] = roller.d6(f"Exploration, die {k + 1} ({faces[k]}) re-rolled")
    if roller.unused:
        raise MordheimError(f"{len(roller.unused)} entered dice were not needed.", hint=f"Type one die for each die re-rolled ({len(chosen)}).")
    rolls = [str(r) for r in roller.rolls]
    if chosen:
        rolls.append(f"Exploration after re-rolls: {' '.join(map(str, faces))} = {sum(faces)}")
    state = s.state
    s.state = copied(state, pending=tuple(x for x in state.pending if x is not p), explore_dice=tuple(faces),
                      dice=(*state.dice, *rolls))
    return _explored(s, tuple(faces), [], hero_id=None, visit=True, rng=rng, shown=rolls)


def _rerolls(s: _Step, searching: list[Warrior]) -> tuple[int, list[str]]:
    """How many exploration dice the warband may re-roll now, and why (each source one die)."""
    why: list[str] = []
    standing = {f.warrior_id for f in s.state.fighters if f.fought and not f.out_of_action}
    searching_ids = {w.id for w in searching}
    for w in s.warriors():
        if w.id not in standing or not w.is_active:
            continue
        if w.skills and w.id in searching_ids:
            why += [f"{w.name}'s {sk}" for sk in w.skills if name_key(sk) in REROLL_SKILLS]
        if w.equipment:
            why += [f"{w.name}'s {it}" for it in w.equipment if any(k in name_key(it) for k in REROLL_ITEMS)]
        if w.special_rules:
            why += [f"{w.name}'s {r.replace('-', ' ')}" for r in w.special_rules if r in REROLL_RULES]
    if any(_found(state, CATACOMBS) for state in s.earlier()):
        why.append("the entrance to the catacombs the warband found")
    return len(why), why


def _found(state: SequenceState, place_id: str) -> bool:
    """The sequence's exploration found the place ``place_id`` (by id; sequences before issue 16 by its name)."""
    if state.extra.get("place") == place_id:
        return True
    words = place_id.replace("-", " ")
    return any(words in name_key(line) for line in state.extra.get("exploration", ())[:2])


def _explored(s: _Step, faces: tuple[int, ...], rolls: list[str], *, hero_id: int | None, visit: bool,
              rng: random.Random | None, shown: list[str] | None = None, searching: list[Warrior] | None = None,
              typed_now: bool = False) -> SequenceView:
    """The exploration with these dice, ``rolls`` the dice of this press not in the state yet
    (``shown`` the ones already in it that the message shows too; ``searching`` the searchers,
    when the caller has them). The place's follow-up rolls take the follow-up dice typed with the
    exploration dice first (``state.extra[FOLLOW_UP]``). Typed ones the place does not ask are
    refused when typed in this press (``typed_now``); typed before a choice of re-rolls or of a
    hero, which cannot be typed again, they are left out and said."""
    state, table = s.state, s.rules.tables.exploration
    searching = _searchers(state, s.maybe_warrior) if searching is None else searching
    multiple = find_multiple(faces)
    place = table.place(*multiple) if multiple else None
    needs_hero = place is not None and ((place.optional and visit) or (place.test is not None and place.test.who == "hero"))
    if place is not None and needs_hero and hero_id is None:
        options = tuple(str(w.id) for w in searching) or tuple(str(w.id) for w in s.warriors() if w.is_hero and w.status == "active")
        p = Pending("place_hero", 0, place.name, options,
                    ("Choose the hero who goes in, or send nobody." if place.optional else "Choose the hero who takes the test."))
        s.save(copied(state, explore_dice=faces, pending=(p,), dice=(*state.dice, *rolls)), rolls=[*(shown or ()), *rolls])
        return s.view
    hero_w = s.maybe_warrior(hero_id) if hero_id is not None else None
    hero = s.campaign_warrior(hero_w) if hero_w is not None else None
    if hero_id is not None and (hero is None or not hero.is_hero):
        raise MordheimError("Choose one of the warband's heroes.")
    leader_w = next((w for w in s.warriors() if w.role == "leader" and w.status == "active"), None)
    leader = s.campaign_warrior(leader_w) if leader_w else None
    dice = Dice(rng, state.extra.get(FOLLOW_UP, ()))
    result = explore_place(faces, table, dice, warband_id=s.warband_list_id(), hero=hero, leader=leader, visit_place=visit)
    finds = result.finds
    rolls = [*rolls, *(str(r) for r in dice.rolls)]
    if dice.unused:
        unused = " ".join(map(str, dice.unused))
        asked = len(state.extra.get(FOLLOW_UP, ())) - len(dice.unused)
        if typed_now:
            where = (f"{result.place.name} asked {asked} follow-up {'die' if asked == 1 else 'dice'}" if result.place
                     else "they found no place that asks more")
            raise MordheimError(f"{len(dice.unused)} entered {'die was' if len(dice.unused) == 1 else 'dice were'} not needed "
                                f"({unused}): this exploration rolls {len(faces)} {'die' if len(faces) == 1 else 'dice'}, and {where}.",
                                hint="Type the exploration dice, then only the follow-up dice the place found asks, in order "
                                     "(the bot rolls any you leave out).")
        rolls.append(f"Follow-up dice typed but not needed, left out: {unused}")
    missed = list(state.missed)
    for name, games in finds.missed_games:
        target = next(w for w in s.warriors() if w.name == name)
        missed.append((target.id, games))
    for name in finds.heroes_lost:
        target = next(w for w in s.warriors() if w.name == name)
        s.write(target, copied(s.campaign_warrior(target), status="dead", equipment=()), "postbattle.exploration")
    lines: list[str] = []
    pending: list[Pending] = []
    raised = list(state.raised)
    if finds.leader_experience and leader_w is not None and leader_w.is_active:
        leader_w = s.warrior(leader_w.id)
        cw, words = _gain(s, leader_w, s.campaign_warrior(leader_w), finds.leader_experience, rng, heroes_full=True,
                          rolls=rolls, raised=raised, pending=pending)
        s.write(leader_w, cw, "postbattle.exploration")
        lines.append(f"{leader_w.name} +{finds.leader_experience} experience ({result.place.name if result.place else 'exploring'})"
                     + (" → advance: " + ", ".join(words) if words else ""))
    if finds.heroes_experience:
        heroes = [w for w in s.warriors() if w.is_hero and w.is_active]
        if heroes:
            pending.append(Pending("share_xp", 0, result.place.name if result.place else "Exploration",
                                   tuple(str(w.id) for w in heroes), str(finds.heroes_experience)))
    if finds.gold or finds.shards:
        s.treasury(gold=finds.gold, shards=finds.shards, reason="exploration")
    battle = s.battle
    counters = scenario_shards(battle.scenario_id if battle is not None else None, state.fighters)
    if counters is not None and counters.shards:
        s.treasury(shards=counters.shards, reason=f"{counters.scenario}: {counters.shards} wyrdstone counters held at the end")
    items = tuple(f"{i.count} × {i.name}" if i.count != 1 else i.name for i in finds.items)
    stored = _to_stash(s, finds.items)
    if stored:
        lines.append("into the stash: " + ", ".join(stored))
    place_line = (f"found {result.place.name}" if result.place else "")
    lines.insert(0, f"Exploration: {' '.join(map(str, faces))} (total {result.total})" + (f" — {place_line}" if place_line else "")
                 if faces else "Exploration: nobody searched the ruins (no exploration dice): nothing found")
    extra = {**state.extra, "exploration": list(result.lines), "place": result.place.id if result.place else None}
    extra.pop(FOLLOW_UP, None)
    if result.place is not None:
        variant = result.place.variant(s.warband_list_id())
        found_dice = NEXT_EXPLORATION_DICE.get((result.place.id, variant.name if variant is not None else ""), 0)
        if found_dice:
            extra[EXTRA_DIE_FOUND] = found_dice
            lines.append(f"The straggler questioned: the warband's next exploration rolls {found_dice} extra "
                         f"{'die' if found_dice == 1 else 'dice'}, and you drop as many")
    if counters is not None:  # the scenario's own shards, a line of their own, counted as found like exploring's
        lines.insert(1, counters.line())
        extra["scenario_shards"] = {"scenario": counters.scenario, "shards": counters.shards}
    s.save(copied(state, explore_dice=faces, explored=True, pending=tuple(pending),
                   shards_found=finds.shards + (counters.shards if counters is not None else 0),
                   gold_found=finds.gold, items_found=items, found_notes=(*state.found_notes, *finds.notes), missed=tuple(missed),
                   raised=tuple(raised), lines=(*state.lines, *lines), dice=(*state.dice, *rolls),
                   step="exploration" if pending else "income", extra=extra),
           rolls=[*(shown or ()), *rolls])
    return s.view


def _to_stash(s: _Step, found: Iterable[Any]) -> list[str]:
    """Items found exploring go into the warband's stash (a ledger row in the sequence's batch),
    each under the name the trading post knows; what would overfill the stash is left out and said."""
    names: list[str] = []
    for thing in found:
        item = s.catalogue.items.get(thing.item)
        names.extend([item.name if item is not None else thing.name] * thing.count)
    if not names:
        return []
    room = max(0, STASH_MAX - len(s.band.stash))
    kept, left = names[:room], names[room:]
    if kept:
        s.band = change_warband(s.uow, s.band, {"stash": [*s.band.stash, *kept]}, what="postbattle.found",
                                reason=f"found exploring, post-battle, {s.state.battle}")
    shown = [f"{kept.count(n)} × {n}" if kept.count(n) != 1 else n for n in dict.fromkeys(kept)]
    if left:
        shown.append(f"{len(left)} more left behind: the stash holds {STASH_MAX} items at most")
    return shown


def share_experience(uow: UnitOfWork, actor: Actor, sequence_id: int, version: int, shares: Mapping[int, int], *,
                     rng: random.Random | None = None) -> SequenceView:
    """Experience a place gives the heroes to share (the Graveyard's sealed graves, the Possessed's
    sacrifice): the owner shares it as he likes among the warband's heroes, every point given;
    each advance it reaches is rolled as in the experience step."""
    s = _Step.open(uow, actor, sequence_id, version, "exploration")
    p = s.pending("share_xp", 0)
    total = int(p.note)
    given = {int(k): int(v) for k, v in shares.items() if int(v)}
    if any(str(wid) not in p.options for wid in given) or any(n < 0 for n in given.values()):
        raise MordheimError("Share it among the warband's heroes.", hint="Write it as `Hans 2, Otto 1`.")
    if sum(given.values()) != total:
        raise MordheimError(f"{p.name} gives {total} experience to share; {sum(given.values())} were given.",
                            hint=f"Give all {total} among the heroes, e.g. one hero {total}.")
    state = s.state
    rolls: list[str] = []
    raised = list(state.raised)
    pending = [x for x in state.pending if x is not p]
    lines: list[str] = []
    for wid, n in given.items():
        w = s.warrior(wid)
        cw, words = _gain(s, w, s.campaign_warrior(w), n, rng, heroes_full=True, rolls=rolls, raised=raised, pending=pending)
        s.write(w, cw, "postbattle.exploration")
        lines.append(f"{w.name} +{n} experience ({p.name})" + (" → advance: " + ", ".join(words) if words else ""))
    s.save(copied(state, pending=tuple(pending), raised=tuple(raised), lines=(*state.lines, *lines), dice=(*state.dice, *rolls),
                   step="exploration" if pending else "income"), rolls=rolls)
    return s.view

# ---- 4. income ----------------------------------------------------------------
def sell(uow: UnitOfWork, actor: Actor, sequence_id: int, version: int, shards: int) -> SequenceView:
    """Sell ``shards`` in one batch at the income chart's price (0 keeps them all)."""
    s = _Step.open(uow, actor, sequence_id, version, "income")
    state = s.state
    size = roster_rules.models(s.warriors())
    sale = sell_wyrdstone(int(shards), s.band.wyrdstone_shards, size, s.rules.tables.income)
    if sale.shards:
        s.treasury(gold=sale.gold, shards=-sale.shards, reason=f"sold {sale.shards} wyrdstone ({size} warriors)")
    lines: list[str] = []
    due: list[list[int]] = []
    due_shards: dict[str, int] = {}
    if s.record.battle_id is not None and any(w.is_hired_sword and w.is_active for w in s.warriors()):
        fought = {f.warrior_id for f in state.fighters if f.fought}
        dues = upkeep.due_after(uow, s.band, s.record.battle_id, s.warriors(), fought=fought)
        due = [[w.id, fee] for w, fee in dues.due]
        due_shards = {str(wid): n for wid, n in upkeep.shards_due(uow, dues.due).items()}  # besides the gold (Nicodemus)
        if dues.paid:
            lines.append("upkeep already paid (`/hire upkeep`): " + ", ".join(w.name for w in dues.paid))
    # the lines said here are the upkeep's (the summary's sections): marked so, not as this step's
    steps = (*state.line_steps, *("",) * max(0, len(state.lines) - len(state.line_steps)), *("upkeep",) * len(lines))
    s.save(copied(state, sold=True, shards_sold=sale.shards, gold_from_sale=sale.gold, step="upkeep" if due else "trading",
                   lines=(*state.lines, *lines), line_steps=steps,
                   extra={**state.extra, "upkeep": due, **({"upkeep_shards": due_shards} if due_shards else {}),
                          **({} if due else _trading(s))}))
    return s.view

# ---- 5. the hired swords' upkeep ------------------------------------------------
def pay_upkeep(uow: UnitOfWork, actor: Actor, sequence_id: int, version: int, *, let_go: Iterable[int] = ()) -> SequenceView:
    """Pay the upkeep of every hired sword who fought this battle, except those ``let_go``: each
    of them leaves the warband (retired), his experience lost (actions/upkeep.py)."""
    s = _Step.open(uow, actor, sequence_id, version, "upkeep")
    state = s.state
    asked = {int(wid) for wid, _fee in state.extra.get("upkeep", [])}
    leaving = set(let_go)
    if leaving - asked:
        raise MordheimError("Only a hired sword whose upkeep is due can be let go here.", hint="Choose from the menu.")
    assert s.record.battle_id is not None, "a sequence reaches its upkeep step only after a battle"
    dues = upkeep.due_after(uow, s.band, s.record.battle_id, s.warriors(), fought=asked)
    if paid_already := [w.name for w in dues.paid if w.id in leaving]:
        raise MordheimError(f"The upkeep of {', '.join(paid_already)} for this battle is paid already (`/hire upkeep`): "
                            f"{'he stays' if len(paid_already) == 1 else 'they stay'} with the warband.",
                            hint="Nothing was changed. `/warband undo` takes that payment back if he should go unpaid; "
                                 "`/postbattle resume` shows the step as it stands.")
    paying = [(w, fee) for w, fee in dues.due if w.id not in leaving]
    lines: list[str] = []
    notes: list[str] = []
    if paying:
        shards = upkeep.shards_due(uow, paying)
        s.band = upkeep.pay(uow, s.band, s.record.battle_id, paying, shards=shards, reason=f"upkeep, post-battle, {state.battle}")
        lines.append("upkeep " + ", ".join(f"{w.name} {upkeep.in_words(fee, shards.get(w.id, 0))}" for w, fee in paying))
        notes += [f"{name} — his upkeep besides the gold paid, to record by hand: {note}"
                  for name, note in upkeep.asked_by_hand(uow, (w for w, _fee in paying))]
    if dues.paid:
        lines.append("upkeep already paid (`/hire upkeep`): " + ", ".join(w.name for w in dues.paid))
    for wid in sorted(leaving):
        w = s.warrior(wid)
        if w.is_active:
            s.write(w, copied(s.campaign_warrior(w), status="retired"), "postbattle.upkeep")
            lines.append(f"{w.name} is not paid and leaves the warband (his experience is lost)")
    s.save(copied(state, step="trading", lines=(*state.lines, *lines), notes=(*state.notes, *notes),
                   extra={**state.extra, **_trading(s)}))
    return s.view

# ---- 6. trading, then the end ---------------------------------------------------
def finish(uow: UnitOfWork, actor: Actor, sequence_id: int, version: int) -> SequenceView:
    """The end: what the warband bought, sold and hired while the sequence stood at trading goes
    into its summary (the treasury's ledger rows since, not undone)."""
    s = _Step.open(uow, actor, sequence_id, version, "trading")
    since = s.state.extra.get("trading_from")
    bought: list[str] = []
    if since is not None:
        for e in uow.ledger.entries_after(s.band.id, since, "treasury", BOUGHT_SHOWN):
            if not e.undone and e.batch_id != s.record.batch_id:
                change = (e.after or {}).get("gold_crowns", 0) - (e.before or {}).get("gold_crowns", 0)
                bought.append(f"{e.reason} ({change:+d} gc)")
    s.save(copied(s.state, step="done", extra={**s.state.extra, "bought": bought}), status=SequenceStatus.FINISHED)
    return s.view


def _trading(s: _Step) -> dict[str, Any]:
    """The state's extra on entering trading: the ledger's newest row of the warband then, so the
    summary finds what was bought and hired after it."""
    return {"trading_from": s.uow.ledger.newest_of_warband(s.band.id) or 0}


class _Step:
    """One step's unit of work: the checks on entry, the warriors it changes, the new state at the end.

    The step reads the warband and its warriors once and keeps them as it changes them; the
    warriors' changes are checked field by field as they are made and written together when the
    step saves (one statement for the warriors whose same fields changed), each with its ledger
    row in the sequence's one batch. The roster's limits are not checked: they govern what an
    owner chooses to hire, and a step only applies what the dice and the rules decided (goblins
    dying can leave more squigs than goblins; the roster check still names it, nothing refuses
    it, so a sequence can never get stuck on its own results)."""

    def __init__(self, uow: UnitOfWork, record: SequenceRecord, band: Warband, state: SequenceState,
                 battle: Battle | None = None) -> None:
        self.uow = uow
        self.record = record
        self.band = band
        self.state = state
        self.battle = battle  # the battle the sequence follows (read once, on opening)
        self.rules: CampaignRules = tables_of(uow).rules
        self._view: SequenceView | None = None
        self._warriors: dict[int, Warrior] | None = None
        self._changed: dict[int, dict[str, Any]] = {}  # warrior id -> snapshot keys changed, not yet written
        self._earlier: list[SequenceState] | None = None
        self._raised: list[tuple[int, str]] | None = None
        self.rng: random.Random | None = None  # rolls the D6 of a tie for command (else the players roll it)
        self._succession_lines: list[str] = []  # who took command after a leader left, for the summary
        # leaders who left for good in this step: succeeded when it saves, once every warrior's fate
        # in it is known (a hero captured or killed later in the same step cannot take command)
        self._departed: list[Warrior] = []

    @classmethod
    def open(cls, uow: UnitOfWork, actor: Actor, sequence_id: int, version: int, *steps: str) -> _Step:
        """Check the sequence is open, at ``version``, at one of ``steps``, and not undone, and that
        the member may change its warband."""
        record = _record(uow, sequence_id)
        band = warband_by_id(uow, record.warband_id)
        may_change(band, actor)
        state = state_of(record.state_json)
        if record.status != SequenceStatus.OPEN:
            raise MordheimError(f"This post-battle sequence is {record.status}.",
                                hint="Start a new one with `/postbattle start` after the next battle.")
        battle = _closed_if_undone(uow, band, record, called="This sequence")
        if record.version != version or state.step not in steps:
            raise _stale(state.step)
        uow.ledger.join_batch(record.batch_id)  # every step's rows join the sequence's one batch
        return cls(uow, record, band, state, battle)

    # ---- reads inside the step
    def _roster(self) -> dict[int, Warrior]:
        """The warband's warriors by id, in id order: read once per step, kept as the step changes them."""
        if self._warriors is None:
            self._warriors = {w.id: w for w in sorted(self.uow.warriors.of_warband(self.band.id, self.band.name), key=lambda w: w.id)}
        return self._warriors

    def warriors(self) -> list[Warrior]:
        return list(self._roster().values())

    def maybe_warrior(self, warrior_id: int) -> Warrior | None:
        return self._roster().get(warrior_id)

    def warrior(self, warrior_id: int) -> Warrior:
        """The warband's warrior ``warrior_id`` (a refusal if he left the roster since the sequence began)."""
        w = self.maybe_warrior(warrior_id)
        if w is None:
            raise MordheimError("That warrior is no longer on this warband's roster.",
                                hint="He was removed since the sequence began; cancel it with `/postbattle cancel` if it cannot go on.")
        return w

    def pending(self, kind: str, warrior_id: int) -> Pending:
        p = next((x for x in self.state.pending if x.kind == kind and x.warrior_id == warrior_id), None)
        if p is None:
            raise _stale(self.state.step)
        return p

    @cached_property
    def catalogue(self) -> Catalogue:
        """The server's warband lists (bundled and its own house lists)."""
        return tables_of(self.uow).catalogue

    @cached_property
    def wlist(self) -> WarbandList | None:
        """The server's list of this warband (a house list where the server has one); None for a custom warband."""
        return tables_of(self.uow).warband_list(self.band)

    def max_heroes(self) -> int:
        """The most heroes the warband's list allows (the campaign tables' number for a custom warband)."""
        return roster_rules.max_heroes(self.rules, self.wlist)

    def heroes_full(self) -> bool:
        return roster_rules.hero_places(self.warriors()) >= self.max_heroes()

    def warband_list_id(self) -> str:
        """The warband's list id for the places that differ by warband (Straggler, Shrine, ...);
        a warband made before the lists goes by its type's name ("Witch Hunters" -> witch-hunters)."""
        return self.band.list_id or "-".join(name_key(self.band.warband_type).replace("'", "").split())

    def campaign_warrior(self, w: Warrior) -> CampaignWarrior:
        return CampaignWarrior.from_warrior(w, _maximum(w, self.rules, self.catalogue), increased=self._increased(w),
                                            skill_lists=w.skill_lists)

    def _increased(self, w: Warrior) -> tuple[str, ...]:
        """The characteristics ``w``'s henchman group raised in this warband's sequences, for the +1
        limit of the henchmen's advance table (its ``max_gain``: rules/advances.py). A warrior who
        advances on the heroes' table has no such limit (``_raised`` records nothing for him), so
        the earlier sequences are not read for him."""
        if w.role in HEROES_TABLE:
            return ()
        return (tuple(ch for wid, ch in self._raised_before() if wid == w.id)
                + tuple(ch for wid, ch in self.state.raised if wid == w.id))

    def earlier(self) -> list[SequenceState]:
        """The states of this warband's finished sequences not undone (read once per step)."""
        if self._earlier is None:
            self._earlier = [state_of(record.state_json)
                             for record in self.uow.sequences.finished_before(self.band.id, self.record.id)
                             if not self.uow.ledger.batch_undone(self.band.id, record.batch_id)]
        return self._earlier

    def _raised_before(self) -> list[tuple[int, str]]:
        """Characteristics raised by this warband's earlier sequences not undone (gathered once per step)."""
        if self._raised is None:
            self._raised = [raised for state in self.earlier() for raised in state.raised]
        return self._raised

    # ---- changes inside the step
    def write(self, old: Warrior, new: CampaignWarrior, what: str) -> Warrior:
        """``old`` as the campaign engine left him (``new``); written when the step saves. Only the
        fields the engine changed are compared, checked, recorded and written."""
        changed = [name for name in DECIDED if getattr(old, name) != getattr(new, name)]
        if not changed:
            return old
        after = {name: _as_json(getattr(new, name)) for name in changed}  # the snapshot's keys are these fields' names
        checked, problems = check_warrior_fields(after, self.rules, role=old.role, group_size=old.group_size)
        if problems:
            raise MordheimError(problems[0])
        if "name" in after and any(name_key(w.name) == name_key(after["name"]) for w in self.warriors() if w.id != old.id):
            raise MordheimError(f"{self.band.name} already has a warrior called '{after['name']}'.", hint="Choose another name.")
        stored = copied(old, **{name: _as_model(name, getattr(new, name)) for name in changed})
        self._changed.setdefault(old.id, {}).update(checked)
        self.uow.ledger.record(warband_id=self.band.id, warband_name=self.band.name, what=what, entity=Entity.WARRIOR,
                               entity_id=old.id, before={name: _as_json(getattr(old, name)) for name in changed}, after=checked,
                               reason=f"post-battle, {self.state.battle}")
        self._remember(stored)
        if leaves_for_good(old, str(stored.status)):
            self._departed.append(old)
        return stored

    def _succeed(self, departed: Warrior) -> None:
        """The leader ``departed`` is dead or gone: the rule's heir takes command, in the sequence's batch."""
        now = [w for w in self.warriors() if w.id != departed.id]

        def write(heir: Warrior, changes: dict[str, Any]) -> Warrior:
            stored = store_warrior(self.uow, self.band, heir, changes, what=succession.SUCCESSION, warriors=now,
                                   check_roster=False, reason=f"takes command after {departed.name}")
            self._remember(stored)
            return stored

        found = succession.take_command(self.uow, self.band, departed, now, self.wlist, d6=succession.d6_of(self.rng), write=write)
        self._succession_lines.append(found.text + (f" (dice: {'; '.join(found.rolls)})" if found.rolls else ""))

    def add(self, like: Warrior, new: CampaignWarrior, what: str) -> Warrior:
        """Store ``new`` as a warrior of his own, otherwise like ``like`` (a lad with talent leaving his group)."""
        stored = store_warrior(self.uow, self.band, None, _snapshot(like, new), what=what, reason=f"post-battle, {self.state.battle}",
                               warriors=self.warriors(), check_roster=False)
        self._remember(stored)
        return stored

    def _remember(self, w: Warrior) -> None:
        self._roster()[w.id] = w

    def treasury(self, *, gold: int = 0, shards: int = 0, reason: str) -> None:
        changes = {"gold_crowns": self.band.gold_crowns + gold, "wyrdstone_shards": self.band.wyrdstone_shards + shards}
        self.band = change_warband(self.uow, self.band, changes, what="postbattle.treasury", reason=reason)

    def save(self, state: SequenceState, *, rolls: Iterable[str] = (), status: SequenceStatus = SequenceStatus.OPEN) -> None:
        """Write the warriors' changes and the sequence's new state, one version on. The lines the
        step added are marked as its own (the summary's sections), and so is who took command."""
        for departed in self._departed:
            self._succeed(departed)
        self._departed = []
        if self._succession_lines:
            state = copied(state, lines=(*state.lines, *self._succession_lines))
            self._succession_lines = []
        added = len(state.lines) - len(state.line_steps)
        if added > 0:
            known = state.line_steps + ("",) * max(0, len(self.state.lines) - len(state.line_steps))
            state = copied(state, line_steps=(*known, *[self.state.step] * (len(state.lines) - len(known))))
        if self._changed:
            self.uow.warriors.update_many(list(self._changed.items()), self.uow.at)
            self._changed = {}
        text = state.to_json()
        _keep_state(text, state)  # the next step reads it back: it need not parse it
        self.record = self.uow.sequences.save(self.record, step=Step(state.step), state_json=text,
                                              batch_id=self.uow.ledger.batch_of_rows, status=status, at=self.uow.at)
        self.uow.warbands.touch(self.band.id)
        self.state = state
        warriors = self.warriors()
        self._view = view_of(self.record, state, self.band, warriors, self.rules, rolls,
                             skill_menu=_skill_menu_of(state, warriors, self.catalogue, self.wlist))

    @property
    def view(self) -> SequenceView:
        """What the channel shows once the step saved."""
        assert self._view is not None, "a step is shown after it saved"
        return self._view


def _roll_again(s: _Step, group_id: int, dice: Dice, raised: list[tuple[int, str]], pending: list[Pending]) -> AdvanceRoll:
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


# What the campaign engine decides of a warrior: fields of both ``Warrior`` and ``CampaignWarrior``,
# named as the warrior's snapshot names them.
DECIDED = ("name", "role", "group_size", "profile", "equipment", "skills", "injuries", "experience", "status")


def _as_json(value: Any) -> Any:
    """A field's value as a warrior snapshot (the ledger, the export) holds it."""
    if isinstance(value, Profile):
        return value.as_dict()
    if isinstance(value, tuple):
        return list(value)
    return str(value) if isinstance(value, (Role, Status)) else value


def _as_model(name: str, value: Any) -> Any:
    """A field's value as ``Warrior`` holds it (roles and statuses as their enums)."""
    return Role(value) if name == "role" else Status(value) if name == "status" else value


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
    picked = tuple(c for c in chosen if c is not None)
    if len(typed) != 2 or len(picked) != 2 or picked[0] == picked[1]:
        raise MordheimError("A lad with talent takes two different skill lists his warband's heroes may use.",
                            hint=f"Type two of: {names}.")
    return picked


def skill_menu(w: Warrior, catalogue: Catalogue, wlist: WarbandList | None,
               warband: Sequence[Warrior] = ()) -> tuple[SkillGroup, ...]:
    """The skills ``w`` may still learn, list by list (his lists in his order: the common lists of the
    server's ``catalogue`` and his warband's own), for an advance's menu: those he has, and those a
    skill's own limits bar him from (skill_rules.py), are left out. Empty when his lists are not
    known (a warrior made by hand types his skill)."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for skill_list, s in skill_rules.may_learn(w, catalogue, wlist, warband):
        groups.setdefault(skill_list.name, []).append((s.name, s.summary + (f" ({s.restriction})" if s.restriction else "")))
    return tuple(SkillGroup(name, tuple(skills)) for name, skills in groups.items())


def skills_he_may_learn(w: Warrior, catalogue: Catalogue, wlist: WarbandList | None,
                        warband: Sequence[Warrior] = ()) -> list[str] | None:
    """Every skill of the warrior's skill lists he may take (the common lists of the server's
    ``catalogue`` and the own lists of his warband's ``wlist``, the server's house list where it has
    one), as the menu offers them; None when his lists are not known (a warrior made by hand): then
    any skill name is taken."""
    if not w.skill_lists or not skill_rules.lists_of(w, catalogue, wlist):
        return None
    return [s.name for _list, s in skill_rules.may_learn(w, catalogue, wlist, warband)]
