"""The public face of the combat engine for the `/shoot`, `/fight` and `/odds` commands.

Fighters come from ``make_fighter``; a side of a fight is one Fighter or a sequence of them
(up to 3 v 1 and 2 v 2). Every result says which edition and toggles it used.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache

from engine.combat.dice import RollDice, enumerate_outcomes
from engine.combat.duel import Budget, DuelChain, DuelOdds, fight_to_the_end
from engine.combat.fighter import Fighter
from engine.combat.items import Weapon, find_item, list_name
from engine.combat.items import equipment as equipment_table
from engine.combat.loadout import choose_loadout
from engine.combat.citations import cite
from engine.combat.melee import _SILENT, ATTACKERS, DEFENDERS, Fight, RoundRules
from engine.combat.render import render_table
from engine.combat.round_odds import odds_of
from engine.combat.ruleset import Ruleset, get_ruleset
from engine.combat.shooting import ShotRules, Situation
from engine.combat.special_rules import TRAITS
from engine.combat.state import KNOCKED_DOWN, OUT_OF_ACTION, STANDING, STATUS_WORDS, ModelState, RoundState
from engine.combat.throwing import Throw, is_thrown, plan_throw, throw_rule
from engine.errors import LimitExceeded, MordheimError

MAX_ROUNDS = 100
OUTCOMES = ("unharmed", "wounded", "knocked down", "stunned", "out of action", "fled", "netted")

Side = Fighter | Sequence[Fighter]


def outcome(before: ModelState, after: ModelState, lost: int) -> str:
    """A model's round in the game's words."""
    if after.status >= OUT_OF_ACTION:
        return STATUS_WORDS[after.status]
    if after.status > before.status or (after.status == KNOCKED_DOWN and before.status == STANDING):
        return STATUS_WORDS[after.status]
    return "wounded" if lost else "unharmed"


@dataclass
class FighterOdds:
    """One model's odds: his outcomes, and the wounds he loses (``wounds_lost`` counts every wound
    caused, each beyond his last an injury roll more, 000:615; the figures shown count at most
    the ``wounds`` he had: losing them all is losing them all, and "out of action" says the rest)."""

    name: str
    outcomes: dict[str, float]
    wounds_lost: dict[int, float]
    wounds: int = 0  # Wounds he had at the start (0: not known, nothing capped)

    def _lost(self, k: int) -> int:
        return min(k, self.wounds) if self.wounds else k

    @property
    def expected_wounds(self) -> float:
        return sum(self._lost(k) * p for k, p in self.wounds_lost.items())

    def at_least(self, n: int) -> float:
        return sum(p for k, p in self.wounds_lost.items() if self._lost(k) >= n)

    @property
    def most_lost(self) -> int:
        """The most wounds he can be shown to lose: his Wounds, or fewer when no more can be caused."""
        return max((self._lost(k) for k, p in self.wounds_lost.items() if p > 0), default=0)

    def render(self) -> str:
        labels = {"unharmed": "Unharmed", "wounded": "Wounded", "knocked down": "Down", "stunned": "Stunned",
                  "out of action": "OOA", "fled": "Fled", "netted": "Netted"}
        return render_table([(labels[k], self.outcomes.get(k, 0.0)) for k in OUTCOMES])


@dataclass
class OddsResult:
    edition: str
    title: str
    fighters: list[FighterOdds]
    notes: list[str] = field(default_factory=list)  # rules a fighter has that the engine does not apply here
    kit: dict[str, list[str]] = field(default_factory=dict)  # per fighter: what he fights with, and why

    def render(self) -> str:
        parts = [f"{self.title} — {self.edition}"]
        for f in self.fighters:
            parts.append(f"{f.name}: expected wounds lost {f.expected_wounds:.2f}")
            parts.append(f.render())
        return "\n".join(parts)


@dataclass
class RollResult:
    edition: str
    lines: list[str]
    dice: list[int]
    outcomes: dict[str, str]  # fighter name -> outcome in words
    wounds_lost: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # rules a fighter has that the engine does not apply here
    kit: dict[str, list[str]] = field(default_factory=dict)  # per fighter: what he fights with, and why


@contextmanager
def _gc_paused():
    """Odds mode allocates many short-lived tuples and no cycles; a full collection over the
    cached tables in the middle of one costs more than the odds themselves (~20 ms seen)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _side(side: Side) -> tuple[Fighter, ...]:
    return (side,) if isinstance(side, Fighter) else tuple(side)


def _charger(charged: bool | str | int | None) -> int | None:
    if charged in (None, False, "none", "nobody"):
        return None
    if charged in (True, "attacker", 0):
        return ATTACKERS
    if charged in ("defender", 1):
        return DEFENDERS
    raise MordheimError(f"'{charged}' is not who charged.", hint="Use attacker, defender or none.")


def not_modelled(r: Ruleset, fighters: tuple[Fighter, ...]) -> list[str]:
    """Each trait a fighter has that this edition's fights do not apply, and why (said in the answer)."""
    notes = []
    for f in fighters:
        for t in sorted(f.traits):
            rule = TRAITS[t]
            if r.edition not in rule.modelled:
                notes.append(f"{f.name}'s {rule.names[0]}: not modelled ({rule.not_modelled_why})")
    return notes


def charge_warnings(fight: Fight, charger: int | None) -> list[str]:
    """A side said to have charged whose model is down: a charger is on his feet (he moved into
    contact this turn). The fight takes the state given, and the answer says so."""
    if charger is None:
        return []
    out = []
    for i in fight.side(charger):
        f = fight.fighters[i]
        if f.state != "standing":
            out.append(f"{f.name} charged but is given as {f.state}: a warrior who charges is on his feet. "
                       f"The fight takes him as {f.state}; if the charge was in an earlier turn, set charged to nobody")
    return out


def fighter_notes(fighters: Sequence[Fighter], weapon=None) -> dict[str, list[str]]:
    """Per fighter: what was left out or taken otherwise when he was built, and why, and the rules
    of what he carries that the fight does not apply (a shooter or a target: no close-combat kit
    to choose; ``weapon``, the shooter's, is the first fighter's)."""
    out = {}
    for n, f in enumerate(fighters):
        used = [weapon] if (n == 0 and isinstance(weapon, Weapon)) else []
        notes = list(f.notes) + unmodelled_rules(f, used)
        if notes:
            out[f.name] = list(dict.fromkeys(notes))
    return out


def kit_notes(fighters: tuple[Fighter, ...]) -> dict[str, list[str]]:
    """Per fighter: what he fights with in close combat and why (loadout choice), what was left
    out when he was built, and the rules of his kit the fight does not apply."""
    out = {}
    for f in fighters:
        loadout = choose_loadout(f)
        in_use = [w for w in (loadout.main, loadout.second, *loadout.pistols, loadout.crossbow_pistol, *loadout.extras) if w is not None]
        notes = list(f.notes) + list(loadout.notes) + unmodelled_rules(f, in_use)
        if notes:
            out[f.name] = list(dict.fromkeys(notes))
    return out


def unmodelled_rules(f: Fighter, weapons_used: list[Weapon]) -> list[str]:
    """Each rule of the weapons he uses, and of what he wears and carries, that the fight does
    not apply (a censer's Fog of Death, a pike's reach), said so in the answer."""
    items: list = list(dict.fromkeys(weapons_used))
    items += [a for a in (f.body_armour, f.cloak) if a is not None]
    items += [equipment_table()[e] for e in sorted(f.equipment)]
    return [f"{list_name(item)}: not modelled here: {rule}" for item in items for rule in item.not_modelled]


# --- close combat ---------------------------------------------------------------------------
def fled_means(edition: str | None = None) -> str:
    """What "fled" is in a close-combat answer, with the rules cited."""
    ed = get_ruleset(edition).edition
    return (f"Fled: fighting two or more enemies with no standing friend near, he failed his All Alone test "
            f"({cite('all-alone', ed)}) and broke from combat, each enemy hitting him once as he ran "
            f"({cite('break-from-combat', ed)}); he is gone from this fight")


def who_attacks_whom(attacker: Side, defender: Side, *, edition=None, toggles=None, charged=True, first_round=True) -> str | None:
    """Whom each model attacks as the round starts, when a model has two or more enemies to
    choose from (None otherwise), and how to change it: every attack of a model goes at one
    enemy (``melee.RoundRules.choose_target``: the standing enemy listed in his own place on the
    other side, else the first standing one listed), though 000:673 lets a player divide them."""
    r, rules = round_rules(attacker, defender, edition=edition, toggles=toggles, charged=charged, first_round=first_round)
    fight = rules.fight
    if all(len(fight.enemies(i)) < 2 for i in range(len(fight.fighters))):
        return None
    start = RoundState.start(fight.start_models())
    aims: dict[int, list[int]] = {}
    for x in range(len(fight.fighters)):
        y = rules.choose_target(_SILENT, start, x)
        if y is not None:
            aims.setdefault(y, []).append(x)
    names = fight.names
    pairs = "; ".join(f"{' & '.join(names[x] for x in xs)} → {names[y]}" for y, xs in aims.items())
    return (f"Who attacks whom: {pairs}. A model puts all his attacks on one enemy, the standing one listed in his own "
            f"place on the other side, else the first listed, and turns on the next when it falls ({cite('divide-attacks', r.edition)} "
            f"lets a player divide them; the bot does not). To aim one at another enemy, reorder the fighters joined by +")


def _rules(r: Ruleset, fight: Fight, first_round: bool, charger: int | None, turn: int, setup: bool) -> RoundRules:
    if not any(f.has("stupidity") for f in fight.fighters):
        turn = ATTACKERS  # only Stupidity tests ask whose turn it is: one rules object serves both turns
    return _cached_rules(r, fight, first_round, charger, turn, setup)


@lru_cache(maxsize=16)  # a few MB of tables each for a 4-attack fight
def _cached_rules(r: Ruleset, fight: Fight, first_round: bool, charger: int | None, turn: int, setup: bool) -> RoundRules:
    # Rules objects carry the Odds-mode tables (per step, per volley, per round start), so the
    # same fight asked again (another /odds, the duel after the round) reuses them.
    return RoundRules(r, fight, first_round=first_round, charger=charger, turn=turn, setup=setup)


def round_rules(attacker: Side, defender: Side, *, edition=None, toggles=None, charged=True, first_round=True) -> tuple[Ruleset, RoundRules]:
    r = get_ruleset(edition, toggles)
    fight = Fight.of(_side(attacker), _side(defender))
    charger = _charger(charged)
    turn = charger if charger is not None else ATTACKERS
    return r, _rules(r, fight, bool(first_round), charger, turn, True)


def resolve_round(attacker: Side, defender: Side, rng: random.Random, *, edition=None, toggles=None, charged=True,
                  first_round=True) -> RollResult:
    """Roll one close-combat round, every model in strike order, with a step-by-step log."""
    r, rules = round_rules(attacker, defender, edition=edition, toggles=toggles, charged=charged, first_round=first_round)
    before = RoundState.start(rules.fight.start_models())
    dice = RollDice(rng)
    dice.say(f"Edition: {r.label}")
    after = rules.roll(dice, before)
    names = rules.fight.names
    return RollResult(edition=r.label, lines=dice.lines, dice=dice.rolled,
                      outcomes={names[i]: outcome(before.models[i], after.models[i], after.wounds_lost[i]) for i in range(len(names))},
                      wounds_lost={names[i]: after.wounds_lost[i] for i in range(len(names))},
                      notes=charge_warnings(rules.fight, rules.charger) + not_modelled(r, rules.fight.fighters),
                      kit=kit_notes(rules.fight.fighters))


def _summarise(names: tuple[str, ...], before: RoundState, ends: Sequence[dict[tuple[ModelState, int], float]]) -> list[FighterOdds]:
    """Each model's outcomes and wounds lost, model i read from ``ends[i]``: (his model, wounds
    lost) at the end of the round, with its probability."""
    out = []
    for i, name in enumerate(names):
        outcomes = dict.fromkeys(OUTCOMES, 0.0)
        wounds: dict[int, float] = {}
        for (model, lost), p in ends[i].items():
            outcomes[outcome(before.models[i], model, lost)] += p
            wounds[lost] = wounds.get(lost, 0.0) + p
        out.append(FighterOdds(name=name, outcomes=outcomes, wounds_lost=dict(sorted(wounds.items())), wounds=before.models[i].wounds))
    return out


def _side_names(fight: Fight) -> tuple[str, str]:
    attackers = " & ".join(fight.names[i] for i in fight.side(ATTACKERS))
    defenders = " & ".join(fight.names[i] for i in fight.side(DEFENDERS))
    return attackers, defenders


def _title(fight: Fight) -> str:
    return " vs ".join(_side_names(fight))


def round_odds(attacker: Side, defender: Side, *, edition=None, toggles=None, charged=True, first_round=True) -> OddsResult:
    """Exact odds of one close-combat round for every model (same rule code as resolve_round)."""
    r, rules = round_rules(attacker, defender, edition=edition, toggles=toggles, charged=charged, first_round=first_round)
    before = RoundState.start(rules.fight.start_models())
    with _gc_paused():
        ends = odds_of(rules).each_models_ends(before)
    return OddsResult(edition=r.label, title=f"{_title(rules.fight)}, one round", fighters=_summarise(rules.fight.names, before, ends),
                      notes=charge_warnings(rules.fight, rules.charger) + not_modelled(r, rules.fight.fighters),
                      kit=kit_notes(rules.fight.fighters))


def simulate_rounds(attacker: Side, defender: Side, n: int, rng: random.Random, **kw) -> dict:
    """Roll ``n`` rounds without logs; counts of (outcome, wounds lost) for every model, in
    fight order, flattened: (outcome 0, lost 0, outcome 1, lost 1, ...)."""
    r, rules = round_rules(attacker, defender, **kw)
    before = RoundState.start(rules.fight.start_models())
    dice = RollDice(rng, logging=False)
    ends: dict = {}
    roll = rules.roll
    for _ in range(n):
        s = roll(dice, before)
        end = (s.models, s.wounds_lost)  # tallied as they are; put into words once per distinct end below
        ends[end] = ends.get(end, 0) + 1
    counts: dict = {}
    for (models, lost), c in ends.items():
        key = tuple(x for i in range(len(models)) for x in (outcome(before.models[i], models[i], lost[i]), lost[i]))
        counts[key] = counts.get(key, 0) + c
    return counts


# --- a fight to the end ---------------------------------------------------------------------------
DUEL_SEED = 19  # drawn fights use their own seeded generator: the same question gets the same answer


def duel_odds(attacker: Side, defender: Side, *, edition=None, toggles=None, charged=True, max_rounds: int = 30,
              budget: Budget | None = None, rng: random.Random | None = None) -> DuelOdds:
    """Odds of a fight to the end: rounds alternate the players' turns, with recovery, until one
    side is all out of action (or fled), or ``max_rounds`` is reached (reported as unfinished).
    Exact (to within ``DuelOdds.pruned``) when the fight fits ``budget``; otherwise exact for
    the first rounds and simulated after them with ``rng`` (``DuelOdds.simulated``, ``margin``):
    see engine.combat.duel."""
    if not 1 <= max_rounds <= MAX_ROUNDS:
        raise LimitExceeded(f"A duel may last 1 to {MAX_ROUNDS} rounds; {max_rounds} was asked.", hint="Pick a smaller round limit.")
    r = get_ruleset(edition, toggles)
    fight = Fight.of(_side(attacker), _side(defender))
    charger = _charger(charged)
    owner_first = charger if charger is not None else ATTACKERS
    first = odds_of(_rules(r, fight, True, charger, owner_first, True))
    later = {k: odds_of(_rules(r, fight, False, None, k, False)) for k in (ATTACKERS, DEFENDERS)}
    chain = DuelChain(fight, first, later, owner_first, max_rounds, budget or Budget())
    with _gc_paused():
        figures = fight_to_the_end(chain, rng or random.Random(DUEL_SEED))
    return DuelOdds(edition=r.label, names=_side_names(fight), notes=charge_warnings(fight, charger) + not_modelled(r, fight.fighters),
                    **figures)


# --- shooting ---------------------------------------------------------------------------------
def _shot_item(weapon: str | Weapon):
    """The missile weapon fired, or a thrown net or blessed water (engine.combat.throwing)."""
    if isinstance(weapon, Weapon):
        return weapon
    item = find_item(weapon, ("weapon", "equipment"))
    if isinstance(item, Weapon) or is_thrown(item):
        return item
    raise MordheimError(f"{item.name} is not thrown or shot.", hint="Fire a missile weapon, or throw a net or blessed water.")


def _shot_weapon(weapon: str | Weapon) -> Weapon | None:
    item = _shot_item(weapon)
    return item if isinstance(item, Weapon) else None


def _shot_rules(shooter: Fighter, target: Fighter, weapon, edition, toggles, situation) -> tuple[Ruleset, ShotRules | Throw]:
    r = get_ruleset(edition, toggles)
    item = _shot_item(weapon)
    if is_thrown(item):
        return r, plan_throw(r, shooter, target, item, **situation)
    return r, ShotRules(r, shooter, target, item, Situation(**situation))


def resolve_shot(shooter: Fighter, target: Fighter, weapon: str | Weapon, rng: random.Random, *, edition=None, toggles=None,
                 **situation) -> RollResult:
    """Roll a shot (or two, for slings/repeaters), or a thrown net or blessed water, with a step-by-step log."""
    r, rules = _shot_rules(shooter, target, weapon, edition, toggles, situation)
    dice = RollDice(rng)
    dice.say(f"Edition: {r.label}")
    notes = not_modelled(r, (shooter, target))
    if isinstance(rules, Throw):
        thrown = throw_rule(dice, rules)
        return RollResult(edition=r.label, lines=dice.lines, dice=dice.rolled, outcomes={target.name: thrown.outcome},
                          wounds_lost={target.name: thrown.wounds_lost}, notes=notes,
                          kit=fighter_notes((shooter, target), _shot_weapon(weapon)))
    before = rules.start()
    after = rules.roll(dice)
    m0 = ModelState(wounds=before.wounds, status=before.status)
    return RollResult(edition=r.label, lines=dice.lines, dice=dice.rolled,
                      outcomes={target.name: outcome(m0, ModelState(wounds=after.wounds, status=after.status), after.wounds_lost)},
                      wounds_lost={target.name: after.wounds_lost}, notes=notes, kit=fighter_notes((shooter, target), _shot_weapon(weapon)))


def shot_odds(shooter: Fighter, target: Fighter, weapon: str | Weapon, *, edition=None, toggles=None, **situation) -> OddsResult:
    """Exact odds of a shot (or a throw) for the target: unharmed, wounded, knocked down, stunned,
    out of action (or netted)."""
    r, rules = _shot_rules(shooter, target, weapon, edition, toggles, situation)
    outcomes = dict.fromkeys(OUTCOMES, 0.0)
    wounds: dict[int, float] = {}
    reasons: Sequence[str]  # a throw's are a tuple, a shot's a list
    if isinstance(rules, Throw):
        for thrown, p in enumerate_outcomes(throw_rule, rules).items():
            outcomes[thrown.outcome] += p
            wounds[thrown.wounds_lost] = wounds.get(thrown.wounds_lost, 0.0) + p
        needed, reasons = rules.needed, rules.reasons
    else:
        before = rules.start()
        m0 = ModelState(wounds=before.wounds, status=before.status)
        with _gc_paused():
            for end, p in rules.odds():
                outcomes[outcome(m0, ModelState(wounds=end.wounds, status=end.status), end.wounds_lost)] += p
                wounds[end.wounds_lost] = wounds.get(end.wounds_lost, 0.0) + p
        needed, reasons = rules.needed, rules.reasons
    if needed <= 0 and "blunderbuss" in " ".join(reasons):
        what = "hit automatically"
    elif needed <= 1:  # the BS chart runs below 1 for BS7+ (000:518-519): any roll hits, but a 1 where the edition says so
        what = "hits on any roll" if r.hit_succeeds(1, needed) else "hits on 2+ (a 1 always misses)"
    else:
        what = f"needs {needed}+"
    title = f"{shooter.name} shoots {target.name}: {what}, {'; '.join(reasons)}"  # the reasons cite in brackets of their own
    return OddsResult(edition=r.label, title=title, notes=not_modelled(r, (shooter, target)),
                      kit=fighter_notes((shooter, target), _shot_weapon(weapon)),
                      fighters=[FighterOdds(name=target.name, outcomes=outcomes, wounds_lost=dict(sorted(wounds.items())),
                                            wounds=target.wounds_left)])


__all__ = ["Budget", "DuelOdds", "FighterOdds", "OddsResult", "RollResult", "charge_warnings", "duel_odds", "fighter_notes", "fled_means",
           "outcome", "resolve_round", "resolve_shot", "round_odds", "round_rules", "shot_odds", "simulate_rounds", "who_attacks_whom"]
