"""Re-roll choices that follow the rule: every die, only the failed dice, or one chosen die.

000:188: a re-rolled die's second score stands, even if it is worse. 004:62: a die that has
been re-rolled may never be re-rolled again. So each choice only ever picks dice that have not
been re-rolled yet, and the dice it leaves alone can still be chosen by a later re-roll (a
Hatred re-roll of the misses, 000:875, does not use up the hits).

Works on a ``RollSet`` (what ``/roll`` makes), a single ``RollResult`` and a ``CheckResult``
(Mordheim's tests and special dice).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from typing import TypeVar

from .checks import CheckResult
from .die import Die
from .errors import RerollNotAllowed
from .result import RollResult, RollSet
from .roller import reroll


class RerollChoice(str, Enum):
    ALL = "all"  # every die not re-rolled yet
    FAILED = "failed"  # the dice that failed a target (a pool's misses, or a failed total's dice)
    ONE = "one"  # one die the roller picks


@dataclass(frozen=True)
class DieChoice:
    """One die that may still be re-rolled: which roll of the set, which die of that roll."""

    roll: int
    index: int
    die: Die
    failed: bool
    what: str  # the roll it belongs to, as a menu names it: "#2 2d6" (the number only in a set)

    @property
    def key(self) -> str:
        """A short, stable name for the die: ``"<roll>.<index>"``."""
        return f"{self.roll}.{self.index}"

    @property
    def name(self) -> str:
        """How a menu names the die: ``"#2 2d6 · die 1: 3"``."""
        return f"{self.what} · die {self.index + 1}: {self.die.render().replace('~~', '')}"


Rerollable = RollSet | RollResult | CheckResult
_Roll = TypeVar("_Roll", RollResult, CheckResult)
_Rerolled = TypeVar("_Rerolled", RollSet, RollResult, CheckResult)


def _rolls(result: Rerollable) -> list[RollResult | CheckResult]:
    return list(result.results) if isinstance(result, RollSet) else [result]


def _failed(r: RollResult | CheckResult) -> list[Die]:
    if isinstance(r, CheckResult):
        return list(r.dice) if r.passed is False else []
    return r.failed_dice()


def choosable_dice(result: Rerollable) -> list[DieChoice]:
    """Every die that may still be re-rolled, in order (failed ones marked)."""
    out: list[DieChoice] = []
    rolls = _rolls(result)
    for n, r in enumerate(rolls):
        failed = {id(d) for d in _failed(r)}
        what = r.expression if isinstance(r, RollResult) else r.kind.value
        if len(rolls) > 1:
            what = f"#{n + 1} {what}"
        for j, d in enumerate(r.dice):
            if d.can_reroll:
                out.append(DieChoice(n, j, d, id(d) in failed, what))
    return out


def reroll_choices(result: Rerollable) -> list[RerollChoice]:
    """The choices that would re-roll something now: ALL while any die may be re-rolled,
    FAILED while a failed die may be, ONE while there are at least two dice to choose from."""
    left = failed_left = 0
    for r in _rolls(result):
        for d in r.dice:
            left += d.rerolled_from is None
        failed_left += sum(1 for d in _failed(r) if d.rerolled_from is None)
    if not left:
        return []
    choices = [RerollChoice.ALL]
    if failed_left:
        choices.append(RerollChoice.FAILED)
    if left > 1:
        choices.append(RerollChoice.ONE)
    return choices


def reroll_choice(result: _Rerolled, rng: random.Random, choice: RerollChoice, *, die: str | None = None) -> _Rerolled:
    """Re-roll as chosen; ``die`` is a ``DieChoice.key`` for ``RerollChoice.ONE``.

    Returns a result of the same type whose ``original`` is ``result``. Raises
    ``RerollNotAllowed`` (a user error) when the choice picks no die that may be re-rolled.
    """
    choice = RerollChoice(choice)
    dice = choosable_dice(result)
    if choice is RerollChoice.ALL:
        picked = dice
    elif choice is RerollChoice.FAILED:
        picked = [c for c in dice if c.failed]
        if not picked:
            raise RerollNotAllowed(
                "No failed die is left to re-roll: the misses were re-rolled already, or nothing failed.",
                hint="A die may never be re-rolled twice (004:62).",
            )
    else:
        picked = [c for c in dice if c.key == die]
        if not picked:
            raise RerollNotAllowed(
                "That die cannot be re-rolled: it was re-rolled already, and a die may never be re-rolled twice (004:62).",
                hint="Choose another die, or make a new roll.",
            )
    if not picked:
        raise RerollNotAllowed(
            "Every die of this roll has already been re-rolled once, and a die may never be re-rolled twice (004:62).",
            hint="Make a new roll instead.",
        )
    chosen = {id(c.die) for c in picked}

    def again(r: _Roll) -> _Roll:
        return reroll(r, rng, only=lambda d: id(d) in chosen) if any(id(d) in chosen for d in r.dice) else r

    if isinstance(result, RollSet):
        return RollSet(tuple(again(r) for r in result.results), result.text, result.label, original=result)
    return again(result)


def newly_rolled(before: Rerollable, after: Rerollable) -> list[Die]:
    """The dice ``after`` rolled that ``before`` had not: what a re-roll added to the table."""
    out = []
    for old, new in zip(_rolls(before), _rolls(after)):
        for d_old, d_new in zip(old.dice, new.dice):
            if d_old.rerolled_from is None and d_new.rerolled_from is not None:
                out.append(d_new)
    return out
