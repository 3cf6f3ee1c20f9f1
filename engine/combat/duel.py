"""A fight to the end: rounds alternate the players' turns, each side's fallen recovering at the
start of its own turn (000:633-641), until one side is all out of action or fled, or the round
limit is reached.

Exact odds walk the fight as a Markov chain over the models between rounds: each distinct tuple
of models meets its round's odds once (a ``Row``), and the chain carries the probabilities from
round to round. A tuple of models reached with less than ``Budget.prune_below`` is dropped; the
probability dropped is reported (``DuelOdds.pruned``), and every figure is exact to within it.

Some fights are too big for that within the budget (a 2 v 2 with a dozen attacks a side meets
thousands of tuples of models, each round of them thousands of states). The chain then stops
after the last round it finished within ``Budget.exact_steps``, and the fights still going are
simulated from there: each starts from a tuple of models drawn from the chain's exact
distribution, and plays on with rounds drawn from exact tables (a ``Row`` the chain already has,
else ``RoundOdds.draw``). The simulated part has a 95% interval (Wilson score), scaled by the
probability it covers; the answer says how many fights were simulated and how wide it is.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, TypedDict

from engine.combat.dice import replays
from engine.combat.melee import ATTACKERS, Fight, gone, recover
from engine.combat.render import render_table
from engine.combat.round_odds import RoundOdds, pick, table
from engine.combat.state import FLED, OUT_OF_ACTION, ModelState, RoundState

Models = tuple[ModelState, ...]
WIN, LOSE, BOTH, UNFINISHED = "win", "lose", "both", "unfinished"
Z95 = 1.959964  # the normal quantile of a two-sided 95% interval
GONE = gone(OUT_OF_ACTION)
PRUNED_BELOW = 1e-12
ROUGH_MARGIN = 0.03  # a simulated answer whose 95% interval is wider than ±3% says plainly that it is rough


@dataclass(frozen=True)
class Budget:
    """How much work one answer may take, counted in work done rather than in seconds, so that a
    question gets the same answer on a busy machine: states pushed through a segment of a round
    (``RoundOdds.steps``) and rule code run over dice to build the tables they read
    (``dice.replays``). Only work done counts: rows a fight already worked out (the rules objects
    are remembered) are free, so the same fight asked again may go further exactly.

    A unit costs 3-7 µs on the shared test machine under load (``bench/bench_combat.py``: several
    a side), so the defaults come to about 0.2-0.3 s of work for the chain and the simulation
    together, and at most 0.3-0.75 s (the simulation at ``stretch`` times its steps to reach
    ``min_fights``): within 1 s, and the wall-time net below stops a machine at half speed. The
    exact chain may overrun its part by one row (a round from one tuple of models), the
    simulation by one fight.

    ``min_fights`` is what keeps the answer useful: 1,500 fights give a 95% interval of at most
    ±2.5% (a figure near 50%), narrower the nearer 0 or 100% and the less probability the
    simulation stands for. Fights whose rounds are dear (monsters testing Stupidity each turn,
    fights that last many rounds) may reach fewer within ``stretch``; the answer then says its
    figures are rough (``ROUGH_MARGIN``).

    ``seconds`` is a safety net for a machine so busy that the work takes several times as long:
    past it (wall time, ``time.monotonic``, from the start of the chain), the exact chain stops at
    its next row and the simulation at its next fight, whatever the steps, and the answer says it
    was cut short (only then may the same question get a different answer)."""

    exact_steps: int = 30_000  # the exact chain stops in the round that crosses this (after the first)
    simulated_steps: int = 25_000  # then drawn rounds and segments, for the fights still going
    min_fights: int = 1_500  # simulated at least, if that takes no more than ``stretch`` times ``simulated_steps``
    stretch: int = 3
    max_fights: int = 100_000
    margin_goal: float = 0.002  # the simulation stops early once its 95% interval is this narrow
    prune_below: float = PRUNED_BELOW  # a tuple of models reached with less is dropped (and the total reported)
    seconds: float | None = 0.8  # wall time after which the answer is given from the work done (None: no limit)


@dataclass
class DuelOdds:
    edition: str
    names: tuple[str, str]  # the two sides
    win: float  # the attacking side takes every defender out of action (or sees them flee)
    lose: float
    both: float
    unfinished: float  # probability left when the round limit was reached
    rounds: dict[int, float]  # round in which the fight ended
    notes: list[str] = field(default_factory=list)
    pruned: float = 0.0  # probability dropped as negligible: every figure is exact to within it
    exact_rounds: int = 0  # rounds worked out exactly; the rest (if any) simulated
    simulated: int = 0  # fights simulated after the exact rounds (0: the answer is exact)
    margin: float = 0.0  # half-width of the 95% interval of the simulated figures (the widest)
    cut_short: bool = False  # stopped at Budget.seconds, before its steps were spent (a busy machine)

    @property
    def exact(self) -> bool:
        return self.simulated == 0

    def how_computed(self) -> str:
        """A line saying whether the odds are exact, and if not how they were simulated."""
        if self.exact:
            return f"Exact odds, to within {self.pruned:.0e} (fights less likely than {PRUNED_BELOW:g} left out)." if self.pruned \
                else "Exact odds."
        rounds = "the first round" if self.exact_rounds == 1 else f"the first {self.exact_rounds} rounds"
        busy = " Cut short at its time limit: the machine is busy." if self.cut_short else ""
        line = f"Simulated, ±{100 * self.margin:.1f}% (95%): {rounds} exact, then {self.simulated:,} fight{'s' if self.simulated != 1 else ''} played on at random.{busy}"
        if self.rough:
            line = (f"⚠️ Rough: each figure may be off by up to {100 * self.margin:.0f}% either way (too few fights fit "
                    f"the time allowed); read them as a rough guide. " + line)
        return line

    @property
    def rough(self) -> bool:
        """A simulated answer whose 95% interval is wider than ``ROUGH_MARGIN``."""
        return not self.exact and self.margin > ROUGH_MARGIN

    def render(self) -> str:
        a, b = self.names
        rows = [(f"{a} {wins(a)}", self.win), (f"{b} {wins(b)}", self.lose)]
        if self.unfinished > 0.0005:
            rows.append(("Unfinished", self.unfinished))
        expected = sum(k * p for k, p in self.rounds.items()) / max(1e-12, 1 - self.unfinished)
        return (f"Duel to the end — {self.edition}\n" + render_table(rows) + f"\nAverage length {expected:.1f} rounds\n"
                + self.how_computed())


class ExactFigures(TypedDict):
    """What the exact chain found (``DuelChain.exact``): the probability of each end so far, of
    the fight ending in each round, and the probability pruned."""

    win: float
    lose: float
    both: float
    rounds: dict[int, float]
    pruned: float


@dataclass
class Row:
    """A round of the chain from one tuple of models: where it ends, with probabilities."""

    going: list[tuple[Models, float]]  # the fight goes on with these models
    ended: dict[str, float]  # WIN, LOSE, BOTH: the round ends the fight
    draw_table: tuple[list, list[float]] | None = None  # built when first drawn from


class DuelChain:
    """One fight to the end: its rounds' odds objects, the rows met so far, and the two ways to
    answer (exact as far as the budget goes, then simulated)."""

    def __init__(self, fight: Fight, first: RoundOdds, later: dict[int, RoundOdds], owner_first: int, max_rounds: int,
                 budget: Budget) -> None:
        self.fight = fight
        self.first = first
        self.later = later
        self.owner_first = owner_first
        self.max_rounds = max_rounds
        self.budget = budget
        self.rows: dict[tuple[RoundOdds, Models], Row] = {}
        self._attackers = fight.side(ATTACKERS)
        self._defenders = fight.side(1 - ATTACKERS)
        self._odds = {id(o): o for o in (first, *later.values())}
        self.deadline = None if budget.seconds is None else time.monotonic() + budget.seconds
        self.cut_short = False

    def steps(self) -> int:
        """The work done so far, what a ``Budget`` counts: states pushed through a segment of a
        round (``RoundOdds.steps``), and rule code run over dice to build the tables they read
        (``dice.replays``, in this thread). Counting only the states let a fight that met many new
        states, each of them a new table, run for seconds on a budget meant for a fraction of one."""
        return sum(o.steps for o in self._odds.values()) + replays()

    def past_deadline(self) -> bool:
        """Whether the budget's wall time is spent (then ``cut_short`` is set)."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.cut_short = True
        return self.cut_short

    def _round(self, rnd: int, models: Models) -> tuple[RoundOdds, Models]:
        """The odds object of round ``rnd`` and the models after the recovery of the side whose turn it is."""
        if rnd == 1:
            return self.first, models
        active = self.owner_first if rnd % 2 else 1 - self.owner_first
        sides = self.fight.sides
        return self.later[active], tuple(recover(m) if sides[i] == active else m for i, m in enumerate(models))  # 000:633-641

    def _ends(self, models: Models) -> str | None:
        a_out = all(models[i].status >= OUT_OF_ACTION for i in self._attackers)
        d_out = all(models[i].status >= OUT_OF_ACTION for i in self._defenders)
        if a_out and d_out:
            return BOTH
        return WIN if d_out else LOSE if a_out else None

    def row(self, odds: RoundOdds, models: Models) -> Row:
        key = (odds, models)
        row = self.rows.get(key)
        if row is None:
            going: dict[Models, float] = {}
            ended = {WIN: 0.0, LOSE: 0.0, BOTH: 0.0}
            for s, q in odds.odds_from(RoundState.start(models), wounds_of=(), gone_alike=True).items():
                end = self._ends(s.models)
                if end is None:
                    after = _gone_alike(s.models)
                    going[after] = going.get(after, 0.0) + q
                else:
                    ended[end] += q
            row = self.rows[key] = Row(list(going.items()), ended)
        return row

    # --- exact, as far as the budget goes ------------------------------------------------------
    def exact(self) -> tuple[ExactFigures, dict[Models, float], int]:
        """The chain round by round from the start. Returns (figures so far: win, lose, both,
        rounds, pruned; the distribution of models still fighting; the next round to play).
        Stops when every fight has ended, at the round limit, or, after the first round, when
        a round crosses the budget (that round is then left to the simulation, with every row
        it already met kept)."""
        totals = {WIN: 0.0, LOSE: 0.0, BOTH: 0.0}
        rounds: dict[int, float] = {}
        pruned_total = 0.0
        dist: dict[Models, float] = {self.fight.start_models(): 1.0}
        limit = self.steps() + self.budget.exact_steps
        rnd = 1
        while rnd <= self.max_rounds and dist:
            # the likeliest models first: if the budget runs out, the rows met are the ones that matter
            ordered = sorted(dist.items(), key=lambda item: -item[1])
            new: dict[Models, float] = {}
            ended = {WIN: 0.0, LOSE: 0.0, BOTH: 0.0}
            pruned = 0.0
            over = False
            for models, p in ordered:
                if p < self.budget.prune_below:
                    pruned += p
                    continue
                if rnd > 1 and (self.steps() > limit or self.past_deadline()):
                    over = True
                    break
                row = self.row(*self._round(rnd, models))
                for k, q in row.ended.items():
                    ended[k] += p * q
                for end, q in row.going:
                    new[end] = new.get(end, 0.0) + p * q
            if over:
                break
            for k in (WIN, LOSE, BOTH):
                totals[k] += ended[k]
            rounds[rnd] = ended[WIN] + ended[LOSE] + ended[BOTH]
            pruned_total += pruned
            dist = new
            rnd += 1
        figures = ExactFigures(win=totals[WIN], lose=totals[LOSE], both=totals[BOTH], rounds=rounds, pruned=pruned_total)
        return figures, dist, rnd

    # --- the rest, simulated ---------------------------------------------------------------------
    def simulate(self, dist: dict[Models, float], rnd: int, rng: random.Random) -> tuple[dict[str, int], dict[int, int], int]:
        """Fights drawn from ``dist`` at the start of round ``rnd`` and played on to the end (or
        the round limit): (how many ended each way, how many ended in each round, fights).
        Stops at the budget's steps (past them only to reach ``min_fights``, and never past
        ``stretch`` times them), or sooner once the 95% interval is within ``margin_goal``."""
        start_table = table(dist)
        left = sum(dist.values())
        counts = {WIN: 0, LOSE: 0, BOTH: 0, UNFINISHED: 0}
        rounds: dict[int, int] = {}
        budget = self.budget
        limit = self.steps() + budget.simulated_steps
        hard_limit = limit + (budget.stretch - 1) * budget.simulated_steps  # reaching min_fights may take this, never more
        n = 0
        while n < budget.max_fights:
            work = self.steps()
            if n and (work >= hard_limit or (work >= limit and n >= budget.min_fights) or self.past_deadline()):
                break
            if n >= budget.min_fights and n % 500 == 0 and margin_of(counts, n, left) <= budget.margin_goal:
                break
            models = pick(rng, start_table)
            result = UNFINISHED
            for r in range(rnd, self.max_rounds + 1):
                odds, models = self._round(r, models)
                models, end = self._draw_round(rng, odds, models)
                if end is not None:
                    result = end
                    rounds[r] = rounds.get(r, 0) + 1
                    break
            counts[result] += 1
            n += 1
        return counts, rounds, n

    def _draw_round(self, rng: random.Random, odds: RoundOdds, models: Models) -> tuple[Models, str | None]:
        """One round drawn at random: from the chain's row when it has one, else segment by segment."""
        row = self.rows.get((odds, models))
        if row is None:
            end_models = _gone_alike(odds.draw(rng, RoundState.start(models)).models)
            return end_models, self._ends(end_models)
        if row.draw_table is None:
            row.draw_table = table({**{(m, None): q for m, q in row.going}, **{(None, k): q for k, q in row.ended.items() if q > 0}})
        odds.steps += 1
        return pick(rng, row.draw_table)


def fight_to_the_end(chain: DuelChain, rng: random.Random) -> dict[str, Any]:
    """The figures of a DuelOdds (win, lose, both, unfinished, rounds, pruned, exact_rounds,
    simulated, margin): exact as far as the budget goes, the rest simulated."""
    figures, dist, rnd = chain.exact()
    left = sum(dist.values())
    out: dict[str, Any] = dict(win=figures["win"], lose=figures["lose"], both=figures["both"], rounds=figures["rounds"],
                               pruned=figures["pruned"], exact_rounds=rnd - 1, simulated=0, margin=0.0, unfinished=left)
    if not dist or rnd > chain.max_rounds:
        return out
    counts, rounds, n = chain.simulate(dist, rnd, rng)
    for key, name in ((WIN, "win"), (LOSE, "lose"), (BOTH, "both"), (UNFINISHED, "unfinished")):
        out[name] = (out[name] if key != UNFINISHED else 0.0) + left * counts[key] / n
    for r, c in rounds.items():
        out["rounds"][r] = left * c / n
    out.update(simulated=n, margin=margin_of(counts, n, left), cut_short=chain.cut_short)
    return out


def margin_of(counts: dict[str, int], n: int, left: float) -> float:
    """The widest half of a 95% interval (Wilson score) among the simulated figures, each
    scaled by ``left``, the probability the simulation stands for."""
    margin = 0.0
    for count in counts.values():
        share = count / n
        low, high = wilson_interval(count, n)
        margin = max(margin, left * (high - share), left * (share - low))
    return margin


def _gone_alike(models: Models) -> Models:
    """A model that fled is gone from the fight as one out of action is: one state for both, so
    that fights which differ only there meet the same rows."""
    if any(m.status == FLED for m in models):
        return tuple(GONE if m.status == FLED else m for m in models)
    return models


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: sound near 0 and 1, where the normal one is not."""
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def wins(names: str) -> str:
    """The verb for a side of a fight named 'Ann' or 'Ann & Bob' (several fighters): 'wins', 'win'."""
    return "win" if " & " in names else "wins"
