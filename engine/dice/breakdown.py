"""A roll's compact breakdown, written from its parts: ``2d6 (3, 5) + 1 = 9``.

Discord Markdown is used on purpose: a dropped die is struck through (``~~2~~``), a
re-rolled die shows the struck-through first score and the one that stands (``~~1~~→4``).
Multiplication is written ``×`` so that ``*`` can never turn into italics.

It takes the parts of a result rather than a ``RollResult``, so that ``engine.dice.result``
(which shows itself with it) and ``engine.dice.render`` both build on it and neither needs
the other.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .die import Die, Outcome
from .syntax import DiceTerm, Expression, node_text


def render_dice(dice: Iterable[Die]) -> str:
    return ", ".join(d.render() for d in dice)


def render_breakdown(parsed: Expression, term_dice: Sequence[Sequence[Die]], total: int | Outcome,
                     successes: int | None, passed: bool | None) -> str:
    """``2d6 (3, 5) + 1 = 9``, ``4d6kh3 (~~1~~, 3, 4, 5) = 12``, ``10d6 (…) 4+ = 6 successes``,
    ``2d6 (3, 5) = 8, needs <=7: failed``.

    ``term_dice`` holds the dice of each dice term of ``parsed``, in order. A D3 shows the D6
    it was read from in brackets (``2[3]``, 000:188); the label is not included (the bot
    shows it as a title).
    """

    def term_text(term: DiceTerm) -> str:
        return f"{term.notation} ({render_dice(term_dice[term.index])})"

    body = node_text(parsed.root, term_text, times="×")
    if parsed.is_scatter:
        return body
    target = parsed.target
    if target is not None and target.counts_dice:
        return f"{body} {target.text} = {successes} success{'' if successes == 1 else 'es'}"
    if target is not None:
        return f"{body} = {total}, needs {target.text}: {'passed' if passed else 'failed'}"
    return f"{body} = {total}"
