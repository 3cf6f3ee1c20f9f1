"""Dice for Mordheim players: a small roll language, Mordheim's tests, and re-rolls.

Discord-free: nothing here imports discord, ``bot`` or ``cogs``, and every roll takes an
injected ``random.Random`` (see ``engine.rng``). Errors meant for users are
``engine.errors.MordheimError`` subclasses (``DiceSyntaxError``, ``DiceLimitExceeded``,
``RerollNotAllowed``). The grammar is also in ``engine/dice/GRAMMAR.md``.

The roll language
=================

A ``/roll`` is one or more *rolls* separated by commas, each maybe repeated; a roll is an
*expression*, optionally a *target*, optionally a *label*::

    roll_set   := repeated ("," repeated)*                 2d6, d6
    repeated   := [N ("x" | "×")] roll                     3x 2d6
    roll       := expression [target] [label]
    expression := product (("+" | "-") product)*
    product    := unary ("*" unary)*
    unary      := "-" unary | atom
    atom       := INTEGER | dice | "art" | "artillery" | "scatter" | "(" expression ")"
    dice       := [COUNT] "d" SIDES (modifier | spaces modifier_word | spaces keep_words)*
    modifier   := ("kh" | "kl" | "k" | "dh" | "dl") [N]     keep/drop highest/lowest N (N = 1)
    keep_words := ("drop" | "keep") ["the"] [N] ("lowest" | "highest") [N] ["dice" | "die"]
                | "r" ["<=" | "<"] N                       re-roll once each die at or below N
    target     := N ("+" | "-")                            count a pool's dice (see Targets)
                | (">=" | ">" | "<=" | "<" | "=" | "==") ["-"] N  test the total
    label      := whitespace, then any text up to a comma, not starting with an operator, digit or dice

Letters may be upper or lower case; spaces are allowed between terms and operators, and a
modifier may be typed after a space when the whole word is one (``3d6 r1``, ``4d6 kh3``).

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
- The same in words right after the dice: ``3d6 drop lowest`` is ``3d6dl1``, ``4d6 keep highest 3``
  ``4d6kh3``, ``4d6 drop the 2 lowest`` ``4d6dl2``; the result notes how it was read. Said after
  arithmetic (``3d6 + 1 drop lowest``) it is refused with the way to write it, not taken as a label.
- ``rN`` (= ``r<=N``) and ``r<N``: each die at or below the value is re-rolled once and
  the second score stands, even if worse (000:188); it is never re-rolled again (004:62).
  Re-rolls happen before keep/drop.

Targets
-------
A comparison (``2d6<=7``, ``2d6>=7``, ``2d6 =7``) tests the total: ``passed`` is True or
False (Leadership 000:257, casting 000:1575). A suffix (``5d6 4+``, ``5d6 2-``) counts the
kept dice of a pool (dice only added together) that score it: ``successes``. A suffix no
single die can reach (``2d6 7+``), or after arithmetic (``d6+1 4+``), tests the total, and
``notes`` say so; ``warnings`` say when a target can never be met or is always met.
``verdict(result)`` puts what was counted or tested in words.

Roll sets and re-roll choices
-----------------------------
``roll_set("3x d6 4+, 2d6<=7", rng)`` gives a ``RollSet`` of four ``RollResult``. A result
is re-rolled as a whole (``reroll``) or by choice (``reroll_choice``): every die, only the
failed dice, or one die; a die is never re-rolled twice (004:62).

Labels
------
Text after the expression (and target) and a space is the label: ``2d6 to hit`` ->
``"to hit"``; ``2d6 4+ armour save`` -> target 4+, label ``"armour save"``. A label may not
start with an operator, a digit or dice (``2d6 4`` and ``2 d6`` are errors, not labels).

Limits (``engine.dice.limits``)
-------------------------------
200 characters, 100 dice and 20 rolls per ``/roll``, 1000 sides, 10 levels of
parentheses/minus signs, and totals within ±1,000,000,000 (checked on the expression, before rolling).

The rules engines' dice
-----------------------
``engine.dice.source.Dice`` is the one source of D6es combat and the campaign draw from:
dice a player entered first, then an injected ``random.Random``; named rolls recorded,
unnamed ones on a fast path for simulations. It is not re-exported here.

Using it
--------
>>> import random
>>> from engine.dice import roll, reroll
>>> r = roll("2d6 + 1 to hit", random.Random(3))
>>> r.render(), r.total, r.label
('2d6 (2, 1) + 1 = 4', 4, 'to hit')
>>> reroll(r, random.Random(4)).can_reroll
False
>>> from engine.dice import roll_set, verdict
>>> [verdict(x) for x in roll_set("2d6<=7, 5d6 4+", random.Random(3)).results]
['The total, 3, is 7 or less: passed.', '1 of 5 dice scored 4 or more.']
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
from .parser import parse, parse_set
from .render import verdict
from .rerolls import DieChoice, RerollChoice, choosable_dice, newly_rolled, reroll_choice, reroll_choices
from .result import RollResult, RollSet, TermResult
from .roller import reroll, roll, roll_expression, roll_plan, roll_set
from .syntax import Expression, PlannedRoll, RollPlan, SuccessTarget, TargetScope


def from_dict(data: dict) -> RollResult | RollSet | CheckResult:
    """Rebuild any stored dice result (a roll, a roll set or a check) from its ``to_dict()`` form."""
    if data.get("type") == "check":
        return CheckResult.from_dict(data)
    if data.get("type") == "roll_set":
        return RollSet.from_dict(data)
    return RollResult.from_dict(data)


__all__ = [
    "CheckKind",
    "CheckResult",
    "Die",
    "DieChoice",
    "DieKind",
    "DiceError",
    "DiceLimitExceeded",
    "DiceSyntaxError",
    "Expression",
    "Outcome",
    "PlannedRoll",
    "RerollChoice",
    "RerollNotAllowed",
    "RollPlan",
    "RollResult",
    "RollSet",
    "SuccessTarget",
    "TargetScope",
    "TermResult",
    "artillery_roll",
    "characteristic_test",
    "choosable_dice",
    "from_dict",
    "leadership_test",
    "newly_rolled",
    "parse",
    "parse_set",
    "reroll",
    "reroll_choice",
    "reroll_choices",
    "roll",
    "roll_expression",
    "roll_plan",
    "roll_set",
    "scatter_roll",
    "verdict",
]
