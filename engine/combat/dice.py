"""The odds engine: the exact odds of rule code written against ``Dice``.

Every combat rule asks a ``Dice`` for D6s and says what it did. Two implementations:

* ``RollDice`` is the one source of dice, ``engine.dice.source.Dice``: faces from an injected
  ``random.Random`` (or entered by a player), with the log (Roll mode);
* ``enumerate_outcomes`` replays the *same* rule code over every sequence of die faces
  (an odometer over the faces actually asked for) and returns the exact probability of
  every result (Odds mode). ``propagate`` lifts a rule step over a distribution of states.

Probabilities are floats: every leaf has probability 6**-k, summed; the error is ~1e-15.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, Protocol, TypeVar

from engine.dice.source import Dice as RollDice
from engine.dice.source import d3_of

SIXTH_POWERS = [6.0**-k for k in range(64)]
_Outcome = TypeVar("_Outcome", bound=Hashable)
_State = TypeVar("_State", bound=Hashable)

__all__ = ["Dice", "RollDice", "SIXTH_POWERS", "d3", "d3_of", "enumerate_outcomes", "propagate", "replays"]

_REPLAYS = threading.local()  # per thread: /odds run in worker threads, each counting its own work


def replays() -> int:
    """How many times this thread has run rule code over a sequence of die faces in
    ``enumerate_outcomes``: the work of building odds tables, which a time budget counts (a replay
    costs a few µs, much as a state pushed through a step does)."""
    return getattr(_REPLAYS, "count", 0)


class Dice(Protocol):
    """What rule code asks of its dice: ``RollDice`` (Roll mode) and the odds engine's replay."""

    logging: bool

    def d6(self) -> int: ...

    def say(self, text: str) -> None: ...


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
    return d3_of(dice.d6())


def enumerate_outcomes(fn: Callable[..., _Outcome], *args: Any) -> dict[_Outcome, float]:
    """Exact distribution of ``fn(dice, *args)`` over all die faces (fn must be deterministic)."""
    dice = _ScriptDice()
    seq = dice.seq
    out: dict[_Outcome, float] = {}
    runs = 0
    while True:
        dice.pos = 0
        result = fn(dice, *args)
        runs += 1
        used = dice.pos
        del seq[used:]
        out[result] = out.get(result, 0.0) + SIXTH_POWERS[used]
        while seq and seq[-1] == 6:
            seq.pop()
        if not seq:
            _REPLAYS.count = replays() + runs
            return out
        seq[-1] += 1


def propagate(step: Callable[[Dice, _State], _State], dist: dict[_State, float],
              cache: dict[_State, dict[_State, float]] | None = None) -> dict[_State, float]:
    """Push a distribution of states through one rule step, each state's table of outcomes
    enumerated once and remembered in ``cache`` (the same step meets the same states again)."""
    new: dict[_State, float] = {}
    get = new.get
    for state, p in dist.items():
        table: dict[_State, float] | None
        if cache is None:
            table = enumerate_outcomes(step, state)
        else:
            table = cache.get(state)
            if table is None:
                table = cache[state] = enumerate_outcomes(step, state)
        for s2, q in table.items():
            new[s2] = get(s2, 0.0) + p * q
    return new
