"""Re-rolling dice once: the rule every re-roll follows, for a roll and for a test alike.

000:188: a re-rolled die's second score stands, even if it is worse. 004:62: a die is never
re-rolled twice. ``engine.dice.roller`` (rolls) and ``engine.dice.checks`` (tests) both use it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import NoReturn

from .die import Die, roll_face
from .errors import RerollNotAllowed


def reroll_faces(dice: Iterable[Die], rng: random.Random,
                 only: Callable[[Die], bool] | None = None) -> tuple[list[int], list[int | None]]:
    """New faces for ``dice``: eligible dice rolled again, the rest as they were; and, for each
    die, the face it was re-rolled from (None if never)."""
    faces: list[int] = []
    froms: list[int | None] = []
    for d in dice:
        if d.rerolled_from is None and (only is None or only(d)):
            faces.append(roll_face(d.kind, d.size, rng))  # 000:188: the second score stands
            froms.append(d.face)
        else:
            faces.append(d.face)
            froms.append(d.rerolled_from)  # 004:62: never re-rolled twice
    return faces, froms


def raise_no_reroll() -> NoReturn:
    raise RerollNotAllowed(
        "Every die of this roll has already been re-rolled once, and a die may never be re-rolled twice (004:62).",
        hint="Make a new roll instead.",
    )
