"""Dice for Mordheim players: a small roll language, Mordheim's tests, and re-rolls.

Discord-free: nothing here imports discord, ``bot`` or ``cogs``, and every roll takes an
injected ``random.Random`` (see ``engine.rng``). Errors meant for users are
``engine.errors.MordheimError`` subclasses (``DiceSyntaxError``, ``DiceLimitExceeded``,
``RerollNotAllowed``). The grammar is also in ``engine/dice/GRAMMAR.md``.

The roll language
=================

A roll is an *expression*, optionally a *success target*, optionally a *label*::

    roll       := expression [target] [label]
    expression := product (("+" | "-") product)*
    product    := unary ("*" unary)*
    unary      := "-" unary | atom
    atom       := INTEGER | dice | "art" | "artillery" | "scatter" | "(" expression ")"
    dice       := [COUNT] "d" SIDES modifier*
    modifier   := ("kh" | "kl" | "k" | "dh" | "dl") [N]     keep/drop highest/lowest N (N = 1)
                | "r" ["<=" | "<"] N                       re-roll once each die at or below N
    target     := N "+" | (">=" | ">" | "<=" | "<" | "=" | "==") N
    label      := whitespace, then any text not starting with an operator, digit or dice

Letters may be upper or lower case; spaces are allowed between terms and operators but
not inside a dice term (``4d6kh3``, not ``4d6 kh3``).

Dice
----
- ``NdM``: N dice of M sides (2..1000); N may be left out (``d6`` = ``1d6``).
- ``d3``: a D6 halved, rounding up; the D6 is shown, e.g. ``2[3]`` (000:188).
- ``d66``: a tens D6 and a units D6, 11..66 (``2d66`` rolls two of them).
- ``art`` / ``artillery``: the Artillery dice, a D6 doubled (2, 4, 6, 8, 10) with 6 a
  Misfire (002:74). It may take arithmetic (``art + 2``); any Misfire makes the total
  ``Outcome.MISFIRE``.
- ``scatter``: the Scatter dice, 1 top side, 2 right side, 3 bottom, 4 left side, 5-6 direct
  hit (002:81-87). It gives a direction, so it must be rolled on its own.

Modifiers
---------
- ``kh``/``k``, ``kl``, ``dh``, ``dl`` with an optional count: ``4d6kh3``, ``2d6kl``, ``4d6dl1``.
- ``rN`` (= ``r<=N``) and ``r<N``: each die at or below the value is re-rolled once and
  the second score stands, even if worse (000:188); it is never re-rolled again (004:62).
  Re-rolls happen before keep/drop.

Success counting
----------------
``5d6 4+`` (or ``5d6>=4``, ``5d6 >3``) counts the kept dice showing 4 or more; ``<=N``,
``<N`` and ``=N`` count low or exact dice. The expression must be dice added together
(``3d6 + 2d6 4+``): a modifier does not apply to each die, so change the target instead.

Labels
------
Text after the expression (and target) and a space is the label: ``2d6 to hit`` ->
``"to hit"``; ``2d6 4+ armour save`` -> target 4+, label ``"armour save"``. A label may not
start with an operator, a digit or dice (``2d6 4`` and ``2 d6`` are errors, not labels).

Limits (``engine.dice.limits``)
-------------------------------
200 characters, 100 dice per roll, 1000 sides, 10 levels of parentheses/minus signs, and
totals within ±10**9 (checked on the expression, before rolling).

Using it
--------
>>> import random
>>> from engine.dice import roll, reroll
>>> r = roll("2d6 + 1 to hit", random.Random(3))
>>> r.render(), r.total, r.label
('2d6 (2, 1) + 1 = 4', 4, 'to hit')
>>> reroll(r, random.Random(4)).can_reroll
False
"""

from __future__ import annotations

from .checks import (
    CheckKind,
    CheckResult,
    artillery_roll,
    characteristic_test,
    leadership_test,
    scatter_roll,
)
from .die import Die, DieKind, Outcome
from .errors import DiceError, DiceLimitExceeded, DiceSyntaxError, RerollNotAllowed
from .parser import parse
from .result import RollResult, TermResult
from .roller import reroll, roll, roll_expression
from .syntax import Expression, SuccessTarget


def from_dict(data: dict) -> RollResult | CheckResult:
    """Rebuild any stored dice result (a roll or a check) from its ``to_dict()`` form."""
    if data.get("type") == "check":
        return CheckResult.from_dict(data)
    return RollResult.from_dict(data)


__all__ = [
    "CheckKind",
    "CheckResult",
    "Die",
    "DieKind",
    "DiceError",
    "DiceLimitExceeded",
    "DiceSyntaxError",
    "Expression",
    "Outcome",
    "RerollNotAllowed",
    "RollResult",
    "SuccessTarget",
    "TermResult",
    "artillery_roll",
    "characteristic_test",
    "from_dict",
    "leadership_test",
    "parse",
    "reroll",
    "roll",
    "roll_expression",
    "scatter_roll",
]
