"""How results are written for people: one compact line per roll.

Discord Markdown is used on purpose: a dropped die is struck through (``~~2~~``), a
re-rolled die shows the struck-through first score and the one that stands (``~~1~~→4``).
Multiplication is written ``×`` so that ``*`` can never turn into italics.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .syntax import DiceTerm, node_text

if TYPE_CHECKING:
    from .result import RollResult


def render_dice(dice) -> str:
    return ", ".join(d.render() for d in dice)


def render_roll(result: RollResult) -> str:
    """``2d6 (3, 5) + 1 = 9``, ``4d6kh3 (~~1~~, 3, 4, 5) = 12``, ``10d6 (…) 4+ = 6 successes``.

    A D3 shows the D6 it was read from in brackets (``2[3]``, 000:188); the label is not
    included (the bot shows it as a title).
    """
    parsed = result.parsed
    terms = result.terms

    def term_text(term: DiceTerm) -> str:
        return f"{term.notation} ({render_dice(terms[term.index].dice)})"

    body = node_text(parsed.root, term_text, times="×")
    if parsed.is_scatter:
        return body
    if parsed.target is not None:
        n = result.successes
        return f"{body} {parsed.target.text} = {n} success{'' if n == 1 else 'es'}"
    return f"{body} = {result.total}"
