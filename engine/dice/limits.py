"""Every limit of the dice engine, in one place.

Each limit protects the bot from a message that would take too long to parse, roll or
show. Going past one raises ``DiceLimitExceeded`` (a ``engine.errors.LimitExceeded``)
whose message names the limit and its value.
"""

from __future__ import annotations

#: Characters in one roll, label included.
MAX_EXPRESSION_LENGTH = 200
#: Dice rolled by one ``/roll``, all terms and all rolls of a set together (a D66 counts as one roll).
MAX_DICE = 100
#: Rolls in one roll set, repeats counted (``3x 2d6, d6`` is four rolls).
MAX_ROLLS = 20
#: Sides of an ordinary die (``d1000`` is the largest).
MAX_DIE_SIZE = 1000
#: Parentheses and unary minus signs nested inside each other.
MAX_NESTING_DEPTH = 10
#: The largest total any expression may be able to reach, either sign.
MAX_RESULT = 10**9

#: How each limit is named in messages: constant name -> (value, what it counts).
LIMITS: dict[str, tuple[int, str]] = {
    "MAX_EXPRESSION_LENGTH": (MAX_EXPRESSION_LENGTH, "characters"),
    "MAX_DICE": (MAX_DICE, "dice per roll"),
    "MAX_ROLLS": (MAX_ROLLS, "rolls per set"),
    "MAX_DIE_SIZE": (MAX_DIE_SIZE, "sides per die"),
    "MAX_NESTING_DEPTH": (MAX_NESTING_DEPTH, "levels of nesting"),
    "MAX_RESULT": (MAX_RESULT, "for the size of a total"),
}
