"""The dice abstraction every combat rule is written against.

The rule code asks a ``Dice`` for D6s and says what it did. Two implementations:

* ``RollDice`` draws from an injected ``random.Random`` and keeps the log (Roll mode);
* ``enumerate_outcomes`` replays the *same* rule code over every sequence of die faces
  (an odometer over the faces actually asked for) and returns the exact probability of
  every result (Odds mode). ``propagate`` lifts a rule step over a distribution of states.

Probabilities are floats: every leaf has probability 6**-k, summed; the error is ~1e-15.
"""

from __future__ import annotations

import random
from operator import itemgetter
from collections.abc import Callable, Hashable
from typing import Any, Protocol

SIXTH_POWERS = [6.0**-k for k in range(64)]


class Dice(Protocol):
    logging: bool

    def d6(self) -> int: ...

    def say(self, text: str) -> None: ...


class RollDice:
    """Roll mode: real dice from ``rng``; ``lines`` is the step-by-step log when ``logging``."""

    __slots__ = ("rng", "lines", "logging", "rolled", "_random")

    def __init__(self, rng: random.Random, *, logging: bool = True) -> None:
        self.rng = rng
        self._random = rng.random
        self.lines: list[str] = []
        self.logging = logging
        self.rolled: list[int] = []

    def d6(self) -> int:
        face = int(self._random() * 6) + 1
        if self.logging:
            self.rolled.append(face)
        return face

    def say(self, text: str) -> None:
        if self.logging:
            self.lines.append(text)


class _ScriptDice:
    """Odds mode: replays a prefix of faces, extending it with 1s; records how many were used."""

    __slots__ = ("seq", "pos")
    logging = False

    def __init__(self) -> None:
        self.seq: list[int] = []
        self.pos = 0

    def d6(self) -> int:
        p = self.pos
        self.pos = p + 1
        seq = self.seq
        if p < len(seq):
            return seq[p]
        seq.append(1)
        return 1

    def say(self, text: str) -> None:  # Odds mode never builds log text
        pass


def d3(dice: Dice) -> int:
    # 000:188 D3 = D6 halved, rounding up
    return (dice.d6() + 1) // 2


class _NoDice(Exception):
    pass


class _RefuseDice:
    """Dice for a run that must roll none: asking for one aborts the run."""

    __slots__ = ()
    logging = False

    def d6(self) -> int:
        raise _NoDice

    def say(self, text: str) -> None:
        pass


_REFUSE = _RefuseDice()


def no_dice_result(fn: Callable[..., Hashable], *args: Any) -> Hashable | None:
    """``fn(dice, *args)`` if it rolls no die (then it is certain), else None."""
    try:
        return fn(_REFUSE, *args)
    except _NoDice:
        return None


def enumerate_outcomes(fn: Callable[..., Hashable], *args: Any) -> dict[Hashable, float]:
    """Exact distribution of ``fn(dice, *args)`` over all die faces (fn must be deterministic)."""
    dice = _ScriptDice()
    seq = dice.seq
    out: dict[Hashable, float] = {}
    while True:
        dice.pos = 0
        result = fn(dice, *args)
        used = dice.pos
        del seq[used:]
        out[result] = out.get(result, 0.0) + SIXTH_POWERS[used]
        while seq and seq[-1] == 6:
            seq.pop()
        if not seq:
            return out
        seq[-1] += 1


def propagate(step: Callable[[Dice, Hashable], Hashable], dist: dict, cache: dict | None = None) -> dict:
    """Push a distribution of states through one rule step (memoised per state in ``cache``)."""
    new: dict = {}
    get = new.get
    through = getattr(step, "passthrough", None)
    if through and cache is not None:
        # The step neither reads nor writes these fields: enumerate it once per projection
        # of the state (shared by every state that differs only there), then copy them back.
        # States are NamedTuples; the projection and the copy are done by field position.
        plan = _plans.get((type(next(iter(dist))) if dist else None, through))
        if plan is None and dist:
            plan = _passthrough_plan(type(next(iter(dist))), through)
        if plan is None:
            return new
        cls, blank, rest, kept, merge = plan
        make = tuple.__new__
        for state, p in dist.items():
            ck = rest(state)
            table = cache.get(ck)
            if table is None:
                table = [(rest(s2), q) for s2, q in enumerate_outcomes(step, state._replace(**blank)).items()]
                if len(table) == 1 and table[0][0] == ck:
                    table = table[0][1]  # the step leaves such states as they are: just its weight
                cache[ck] = table
            if table.__class__ is float:
                new[state] = get(state, 0.0) + p * table
                continue
            keep = kept(state)
            for c2, q in table:
                s2 = make(cls, merge(c2 + keep))
                new[s2] = get(s2, 0.0) + p * q
        return new
    for state, p in dist.items():
        if cache is not None:
            table = cache.get(state)
            if table is None:
                table = cache[state] = enumerate_outcomes(step, state)
        else:
            table = enumerate_outcomes(step, state)
        for s2, q in table.items():
            new[s2] = get(s2, 0.0) + p * q
    return new


_plans: dict = {}


def _passthrough_plan(cls: type, through: tuple) -> tuple:
    """(class, blank fields, getter of the other fields, getter of the kept ones, merger back
    into field order) for a NamedTuple class and a step's passthrough fields."""
    fields = cls._fields
    kept_idx = [fields.index(f) for f in through]
    rest_idx = [i for i in range(len(fields)) if i not in kept_idx]
    order = rest_idx + kept_idx  # position in (rest + kept) of each field
    merge = itemgetter(*[order.index(i) for i in range(len(fields))])
    plan = (cls, dict.fromkeys(through), _getter(rest_idx), _getter(kept_idx), merge)
    _plans[(cls, through)] = plan
    return plan


def _getter(idx: list[int]) -> Callable[[tuple], tuple]:
    if len(idx) == 1:
        i = idx[0]
        return lambda t: (t[i],)
    return itemgetter(*idx)
