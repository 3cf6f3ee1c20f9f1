"""Rolling an expression, and re-rolling a result, with an injected ``random.Random``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import overload

from .checks import CheckResult, reroll_check
from .die import Die, DieKind, face_value, roll_face, roll_faces
from .parser import parse, parse_set
from .reroll_once import raise_no_reroll, reroll_faces
from .result import RollResult, RollSet, TermResult, build_term
from .syntax import DiceTerm, Expression, RollPlan


def roll(text: str, rng: random.Random) -> RollResult:
    """Parse ``text`` (cached) and roll it. Raises a ``DiceError`` for a bad expression."""
    return roll_expression(parse(text), rng)


def roll_set(text: str, rng: random.Random, label: str | None = None) -> RollSet:
    """Parse a whole roll (``2d6, d6``, ``3x 2d6 to hit``) and make every roll of it, in order.

    ``label`` names the whole set; each roll keeps the label typed after it."""
    return roll_plan(parse_set(text), rng, label)


def roll_plan(plan: RollPlan, rng: random.Random, label: str | None = None) -> RollSet:
    results = tuple(roll_expression(expression, rng) for expression in plan.expressions)
    return RollSet(results, plan.text, label)


def roll_expression(parsed: Expression, rng: random.Random, label: str | None = None) -> RollResult:
    """Roll an already parsed expression; ``label`` overrides the parsed one."""
    terms = tuple([_roll_term(term, rng) for term in parsed.terms])
    return RollResult(parsed, terms, parsed.label if label is None else label)


def _roll_term(term: DiceTerm, rng: random.Random) -> TermResult:
    kind, size, count = term.kind, term.size, term.count
    faces = roll_faces(kind, size, count, rng)
    if term.reroll_at_or_below is None and term.keep is None and kind is DieKind.STANDARD:
        return TermResult(term, tuple([Die(kind, size, f, f) for f in faces]), sum(faces))
    rerolled_from: list[int | None] | None = None
    threshold = term.reroll_at_or_below
    if threshold is not None:
        # 000:188: a re-rolled die's second score stands, even if worse; each die at most once
        rerolled_from = [None] * count
        for j, face in enumerate(faces):
            if face_value(kind, face) <= threshold:
                rerolled_from[j] = face
                faces[j] = roll_face(kind, size, rng)
    return build_term(term, faces, rerolled_from)


@overload
def reroll(result: RollResult, rng: random.Random, *, only: Callable[[Die], bool] | None = None) -> RollResult: ...


@overload
def reroll(result: CheckResult, rng: random.Random, *, only: Callable[[Die], bool] | None = None) -> CheckResult: ...


def reroll(result: RollResult | CheckResult, rng: random.Random, *,
           only: Callable[[Die], bool] | None = None) -> RollResult | CheckResult:
    """Re-roll a result: every die not re-rolled yet (or those ``only`` picks) is rolled again.

    000:188: the second score stands, even if it is worse. 004:62: a die is never re-rolled
    twice, so dice already re-rolled keep their score. Keep/drop, the total and successes
    are worked out again; the new result's ``original`` is ``result``. Also accepts a
    ``CheckResult`` (characteristic, Leadership, artillery and scatter rolls).
    Raises ``RerollNotAllowed`` when no die can be re-rolled.
    """
    if isinstance(result, CheckResult):
        return reroll_check(result, rng, only=only)
    if not result.can_reroll or (only is not None and not any(d.can_reroll and only(d) for d in result.dice)):
        raise_no_reroll()
    terms = []
    for t in result.terms:
        faces, froms = reroll_faces(t.dice, rng, only)
        terms.append(build_term(t.term, faces, froms))
    return RollResult(result.parsed, tuple(terms), result.label, original=result)
