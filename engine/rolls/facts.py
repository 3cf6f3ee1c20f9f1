"""What a dice result was, in the roll record's terms: ``RollFacts``.

Every die that was rolled counts, as the table saw it: a die dropped by keep/drop was still
rolled, and so was the first score of a die the ``r`` modifier re-rolled. The special dice
are D6s rolled and read (000:188 D3; D66 as tens and units, from the rulebook's campaign tables,
not in the seeds; 002:74 Artillery; 002:81-87 Scatter), so their D6 faces are D6s for the
record. A re-roll adds only the dice it rolled.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from engine.dice import CheckKind, CheckResult, Die, DieKind, RollSet, newly_rolled

D6 = 6


class TrialFacts(NamedTuple):
    """A characteristic or Leadership test: whether it passed and the chance it had."""

    passed: bool
    chance: float


class InjuryFacts(NamedTuple):
    """An injury roll: 1 knocked down, 2 stunned, 3 out of action, and the chance of out of action."""

    outcome: int
    chance_out: float


class RollFacts(NamedTuple):
    """One roll for the record: what it was, what it came to, and every die rolled as (sides, face).

    A named tuple: made for every roll, so it should be cheap to make."""

    kind: str
    what: str
    result: str
    dice: tuple[tuple[int, int], ...]
    rerolled: bool = False
    test: TrialFacts | None = None
    injury: InjuryFacts | None = None


def die_faces(die: Die, *, with_first_score: bool = True) -> list[tuple[int, int]]:
    """The physical dice behind one ``Die``: a D66 is two D6s, a D3 or special die one D6.

    ``with_first_score`` adds the face a die showed before the ``r`` modifier re-rolled it."""
    if die.kind is DieKind.STANDARD and (die.rerolled_from is None or not with_first_score):
        return [(die.size, die.face)]  # the common case, kept short
    faces = [die.rerolled_from, die.face] if with_first_score and die.rerolled_from is not None else [die.face]
    out = []
    for face in faces:
        if die.kind is DieKind.D66:
            out += [(D6, face // 10), (D6, face % 10)]
        elif die.kind is DieKind.STANDARD:
            out.append((die.size, face))
        else:
            out.append((D6, face))
    return out


def _roll_result_text(r) -> str:
    if r.successes is not None:
        return f"{r.successes} success{'es' if r.successes != 1 else ''}"
    if r.passed is not None:
        return f"{r.total}, {'passed' if r.passed else 'failed'}"
    return str(r.total)


def roll_set_facts(rolls: RollSet) -> RollFacts:
    """A ``/roll``: the set's text, each roll's outcome, every die rolled."""
    dice = [f for d in rolls.dice for f in die_faces(d)]
    result = "; ".join(_roll_result_text(r) for r in rolls.results)
    return RollFacts("roll", rolls.text, result, tuple(dice))


def _check_what(check: CheckResult) -> str:
    if check.kind is CheckKind.CHARACTERISTIC:
        return f"{check.characteristic} {check.value} test"
    if check.kind is CheckKind.LEADERSHIP:
        return f"Leadership {check.value} test"
    return "Artillery dice" if check.kind is CheckKind.ARTILLERY else "Scatter dice"


def _check_text(check: CheckResult) -> str:
    if check.passed is not None:
        return f"{check.score}, {'passed' if check.passed else 'failed'}"
    return check.render().split(" = ", 1)[-1]


def pass_chance(check: CheckResult) -> float | None:
    """The chance a fresh test of this kind passes: 000:251 (D6 at or under, a 6 fails), 000:257 (2D6)."""
    value = check.value
    if value is None:  # artillery and scatter rolls test nothing
        return None
    if check.kind is CheckKind.CHARACTERISTIC:
        return float(Fraction(min(value, 5), 6))
    if check.kind is CheckKind.LEADERSHIP:
        ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= value)
        return float(Fraction(ways, 36))
    return None


def check_facts(check: CheckResult) -> RollFacts:
    """A Mordheim test or special-dice roll; tests carry their chance of passing."""
    chance = pass_chance(check)
    test = TrialFacts(bool(check.passed), chance) if chance is not None else None
    dice = tuple(f for d in check.dice for f in die_faces(d))
    return RollFacts(check.kind.value, _check_what(check), _check_text(check), dice, test=test)


def reroll_facts(before, after) -> RollFacts:
    """A re-roll of a ``/roll`` or a check: only the dice it rolled; no test is counted twice."""
    dice = tuple(f for d in newly_rolled(before, after) for f in die_faces(d, with_first_score=False))
    if isinstance(after, RollSet):
        return RollFacts("roll", after.text, "; ".join(_roll_result_text(r) for r in after.results), dice, rerolled=True)
    return RollFacts(after.kind.value, _check_what(after), _check_text(after), dice, rerolled=True)


def injury_facts(outcome: int, words: str, dice: list[int], chance_out: float, what: str = "Injury roll") -> RollFacts:
    """An injury roll (000:615-627): its D6s (the helmet's too), the result and its odds."""
    return RollFacts("injury", what, words, tuple((D6, f) for f in dice), injury=InjuryFacts(outcome, chance_out))
