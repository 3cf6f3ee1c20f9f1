"""How results are written for people: one compact line per roll (``engine.dice.breakdown``),
and what a target counted or tested, in words (``verdict``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .breakdown import render_breakdown
from .syntax import DiceTerm

if TYPE_CHECKING:
    from .result import RollResult


def render_roll(result: RollResult) -> str:
    """``2d6 (3, 5) + 1 = 9``: the compact breakdown of ``engine.dice.breakdown``."""
    return render_breakdown(result.parsed, [t.dice for t in result.terms], result.total, result.successes, result.passed)


def verdict(result: RollResult) -> str | None:
    """What was counted or tested, in words; None for a roll without a target.

    ``3 of 5 dice scored 4 or more.``, ``The total, 8, is not 7 or less: failed.``
    """
    target = result.parsed.target
    if target is None:
        return None
    if target.counts_dice:
        kept = [d for d in result.dice if d.kept]
        n, of = result.successes, len(kept)
        dropped = len(kept) != len(result.dice)
        if of == 1:
            return f"The die scored {target.words}: a success." if n else f"The die did not score {target.words}: no success."
        dice = f"the {of} kept dice" if dropped else f"{of} dice"
        if n == 0:
            return f"None of {dice} scored {target.words}."
        if n == of:
            return f"All {dice} scored {target.words}." if not dropped else f"All of {dice} scored {target.words}."
        return f"{n} of {dice} scored {target.words}."
    one_die = isinstance(result.parsed.root, DiceTerm) and result.parsed.dice_count == 1
    what = "score" if one_die else "total"
    outcome = "passed" if result.passed else "failed"
    return f"The {what}, {result.total}, is {'' if result.passed else 'not '}{target.words}: {outcome}."
