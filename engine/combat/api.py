"""The public face of the combat engine for the `/shoot`, `/fight` and `/odds` commands.

Fighters come from ``make_fighter``. Every result says which edition and toggles it used.
"""

from __future__ import annotations

import gc
import random
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache

from engine.combat.dice import RollDice
from engine.combat.fighter import Fighter
from engine.combat.items import Weapon, find_item
from engine.combat.melee import FS, OUT_OF_ACTION, STATUS_WORDS, STANDING, KNOCKED_DOWN, STUNNED, RoundRules, initial_fs, start_state
from engine.combat.render import render_table
from engine.combat.ruleset import Ruleset, get_ruleset
from engine.combat.shooting import ShotRules, Situation
from engine.errors import LimitExceeded, MordheimError

MAX_ROUNDS = 100
OUTCOMES = ("unharmed", "wounded", "knocked down", "stunned", "out of action")


def _outcome(fs_before: FS, fs_after: FS, lost: int) -> str:
    if fs_after.status == OUT_OF_ACTION:
        return "out of action"
    if fs_after.status > fs_before.status or (fs_after.status == KNOCKED_DOWN and fs_before.status == STANDING):
        return STATUS_WORDS[fs_after.status]
    return "wounded" if lost else "unharmed"


@dataclass
class FighterOdds:
    name: str
    outcomes: dict[str, float]
    wounds_lost: dict[int, float]

    @property
    def expected_wounds(self) -> float:
        return sum(k * p for k, p in self.wounds_lost.items())

    def at_least(self, n: int) -> float:
        return sum(p for k, p in self.wounds_lost.items() if k >= n)

    def render(self) -> str:
        labels = {"unharmed": "Unharmed", "wounded": "Wounded", "knocked down": "Down", "stunned": "Stunned", "out of action": "OOA"}
        return render_table([(labels[k], self.outcomes.get(k, 0.0)) for k in OUTCOMES])


@dataclass
class OddsResult:
    edition: str
    title: str
    fighters: list[FighterOdds]

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


def _ruleset(edition, toggles) -> Ruleset:
    return get_ruleset(edition, toggles)


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


def _charger(charged: bool | str | None) -> int | None:
    if charged in (None, False, "none"):
        return None
    if charged in (True, "attacker", 0):
        return 0
    if charged in ("defender", 1):
        return 1
    raise MordheimError(f"'{charged}' is not who charged.", hint="Use attacker, defender or none.")


# --- close combat ---------------------------------------------------------------------------
@lru_cache(maxsize=8)  # a few MB of tables each for a 4-attack fight
def _rules(r: Ruleset, attacker: Fighter, defender: Fighter, first_round: bool, charger: int | None, crimson_setup: bool) -> RoundRules:
    # Rules objects carry the Odds-mode tables (per step, per volley, per round start), so the
    # same fight asked again (another /odds, the duel after the round) reuses them.
    return RoundRules(r, attacker, defender, first_round=first_round, charger=charger, crimson_setup=crimson_setup)


def round_rules(attacker: Fighter, defender: Fighter, *, edition=None, toggles=None, charged=True, first_round=True) -> tuple[Ruleset, RoundRules]:
    r = _ruleset(edition, toggles)
    return r, _rules(r, attacker, defender, bool(first_round), _charger(charged), True)


def resolve_round(attacker: Fighter, defender: Fighter, rng: random.Random, *, edition=None, toggles=None, charged=True, first_round=True) -> RollResult:
    """Roll one close-combat round, both fighters in strike order, with a step-by-step log."""
    r, rules = round_rules(attacker, defender, edition=edition, toggles=toggles, charged=charged, first_round=first_round)
    before = start_state(initial_fs(r, attacker), initial_fs(r, defender))
    dice = RollDice(rng)
    dice.say(f"Edition: {r.label}")
    after = rules.roll(dice, before)
    names = (attacker.name, defender.name)
    return RollResult(r.label, dice.lines, dice.rolled,
                      {names[i]: _outcome(before.f[i], after.f[i], after.lost[i]) for i in (0, 1)},
                      {names[i]: after.lost[i] for i in (0, 1)})


def _summarise(names, before, dist) -> list[FighterOdds]:
    out = []
    for i in (0, 1):
        outcomes = dict.fromkeys(OUTCOMES, 0.0)
        wounds: dict[int, float] = {}
        for s, p in dist.items():
            outcomes[_outcome(before.f[i], s.f[i], s.lost[i])] += p
            wounds[s.lost[i]] = wounds.get(s.lost[i], 0.0) + p
        out.append(FighterOdds(names[i], outcomes, dict(sorted(wounds.items()))))
    return out


def round_odds(attacker: Fighter, defender: Fighter, *, edition=None, toggles=None, charged=True, first_round=True) -> OddsResult:
    """Exact odds of one close-combat round for both fighters (same rule code as resolve_round)."""
    r, rules = round_rules(attacker, defender, edition=edition, toggles=toggles, charged=charged, first_round=first_round)
    before = start_state(initial_fs(r, attacker), initial_fs(r, defender))
    with _gc_paused():
        dist = rules.odds_from(before)
    return OddsResult(r.label, f"{attacker.name} vs {defender.name}, one round", _summarise((attacker.name, defender.name), before, dist))


def simulate_rounds(attacker: Fighter, defender: Fighter, n: int, rng: random.Random, **kw) -> dict:
    """Roll ``n`` rounds without logs; counts of (defender outcome) for checking the odds."""
    r, rules = round_rules(attacker, defender, **kw)
    before = start_state(initial_fs(r, attacker), initial_fs(r, defender))
    dice = RollDice(rng, logging=False)
    ends: dict = {}
    roll = rules.roll
    for _ in range(n):
        s = roll(dice, before)
        end = (s.f, s.lost)  # tallied as they are; put into words once per distinct end below
        ends[end] = ends.get(end, 0) + 1
    counts: dict = {}
    for (f, lost), c in ends.items():
        key = (_outcome(before.f[0], f[0], lost[0]), lost[0], _outcome(before.f[1], f[1], lost[1]), lost[1])
        counts[key] = counts.get(key, 0) + c
    return counts


# --- a duel to the end ------------------------------------------------------------------------
@dataclass
class DuelOdds:
    edition: str
    names: tuple[str, str]
    win: float  # attacker takes the defender out of action
    lose: float
    both: float
    unfinished: float  # probability left when the round limit was reached
    rounds: dict[int, float]  # round in which the duel ended

    def render(self) -> str:
        a, b = self.names
        rows = [(f"{a} wins", self.win), (f"{b} wins", self.lose)]
        if self.unfinished > 0.0005:
            rows.append(("Unfinished", self.unfinished))
        expected = sum(k * p for k, p in self.rounds.items()) / max(1e-12, 1 - self.unfinished)
        return f"Duel to the end — {self.edition}\n" + render_table(rows) + f"\nAverage length {expected:.1f} rounds"


def _recover(fs: FS) -> FS:
    # 000:637-641 recovery at the start of the owner's turn: stunned -> knocked down,
    # knocked down -> stands up and strikes last that turn (000:664)
    if fs.status == STUNNED:
        return fs._replace(status=KNOCKED_DOWN)
    if fs.status == KNOCKED_DOWN:
        return fs._replace(status=STANDING, stood_up=True)
    return fs


def duel_odds(attacker: Fighter, defender: Fighter, *, edition=None, toggles=None, charged=True, max_rounds: int = 30) -> DuelOdds:
    """Exact odds of a fight to the end: rounds alternate players' turns, with recovery, until
    one is out of action or ``max_rounds`` is reached (the rest is reported as unfinished)."""
    if not 1 <= max_rounds <= MAX_ROUNDS:
        raise LimitExceeded(f"A duel may last 1 to {MAX_ROUNDS} rounds; {max_rounds} was asked.", hint="Pick a smaller round limit.")
    r = _ruleset(edition, toggles)
    charger = _charger(charged)
    first = _rules(r, attacker, defender, True, charger, True)
    later = _rules(r, attacker, defender, False, None, False)
    owner_first = charger if charger is not None else 0
    dist = {(initial_fs(r, attacker), initial_fs(r, defender)): 1.0}
    with _gc_paused():
        win, lose, both, rounds, dist = _duel_chain(first, later, owner_first, dist, max_rounds)
    return DuelOdds(r.label, (attacker.name, defender.name), win, lose, both, sum(dist.values()), rounds)


def _duel_chain(first: RoundRules, later: RoundRules, owner_first: int, dist: dict, max_rounds: int):
    cache: dict = {}
    win = lose = both = 0.0
    rounds: dict[int, float] = {}
    for rnd in range(1, max_rounds + 1):
        active = owner_first if rnd % 2 else 1 - owner_first
        rules = first if rnd == 1 else later
        new: dict = {}
        ended = 0.0
        for (f0, f1), p in dist.items():
            if rnd > 1:
                f0, f1 = (_recover(f0), f1) if active == 0 else (f0, _recover(f1))
            key = (rnd == 1, f0, f1)
            res = cache.get(key)
            if res is None:
                out: dict = {}
                for s, q in rules.odds_from(start_state(f0, f1)).items():
                    k = (s.f[0], s.f[1])
                    out[k] = out.get(k, 0.0) + q
                res = cache[key] = out
            for (g0, g1), q in res.items():
                pq = p * q
                o0, o1 = g0.status == OUT_OF_ACTION, g1.status == OUT_OF_ACTION
                if o0 or o1:
                    ended += pq
                    if o0 and o1:
                        both += pq
                    elif o1:
                        win += pq
                    else:
                        lose += pq
                else:
                    new[(g0, g1)] = new.get((g0, g1), 0.0) + pq
        rounds[rnd] = ended
        dist = new
        if not dist:
            break
    return win, lose, both, rounds, dist


# --- shooting ---------------------------------------------------------------------------------
def _weapon(weapon: str | Weapon) -> Weapon:
    return weapon if isinstance(weapon, Weapon) else find_item(weapon, ("weapon",))


def resolve_shot(shooter: Fighter, target: Fighter, weapon: str | Weapon, rng: random.Random, *, edition=None, toggles=None, **situation) -> RollResult:
    """Roll a shot (or two, for slings/repeaters) with a step-by-step log."""
    r = _ruleset(edition, toggles)
    rules = ShotRules(r, shooter, target, _weapon(weapon), Situation(**situation))
    before = start_state(FS(shooter.wounds_left, STANDING, False, False, False, False, 0), initial_fs(r, target))
    dice = RollDice(rng)
    dice.say(f"Edition: {r.label}")
    after = rules.roll(dice, before)
    return RollResult(r.label, dice.lines, dice.rolled, {target.name: _outcome(before.f[1], after.f[1], after.lost[1])}, {target.name: after.lost[1]})


def shot_odds(shooter: Fighter, target: Fighter, weapon: str | Weapon, *, edition=None, toggles=None, **situation) -> OddsResult:
    """Exact odds of a shot for the target: unharmed, wounded, knocked down, stunned, out of action."""
    r = _ruleset(edition, toggles)
    rules = ShotRules(r, shooter, target, _weapon(weapon), Situation(**situation))
    before = start_state(FS(shooter.wounds_left, STANDING, False, False, False, False, 0), initial_fs(r, target))
    with _gc_paused():
        dist = rules.odds({before: 1.0})
    summary = _summarise((shooter.name, target.name), before, dist)[1]
    return OddsResult(r.label, f"{shooter.name} shoots {target.name} (needs {rules.needed}+: {'; '.join(rules.reasons)})", [summary])
