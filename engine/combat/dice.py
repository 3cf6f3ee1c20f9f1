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


def d3_of(face: int) -> int:
    """The D3 a D6 face stands for: halved, rounding up (000:188)."""
    return (face + 1) // 2


def d3(dice: Dice) -> int:
    return d3_of(dice.d6())


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
    """Push a distribution of states through one rule step, each state's table of outcomes
    enumerated once and remembered in ``cache`` (the same step meets the same states again)."""
    new: dict = {}
    get = new.get
    for state, p in dist.items():
        if cache is None:
            table = enumerate_outcomes(step, state)
        else:
            table = cache.get(state)
            if table is None:
                table = cache[state] = enumerate_outcomes(step, state)
        for s2, q in table.items():
            new[s2] = get(s2, 0.0) + p * q
    return new
