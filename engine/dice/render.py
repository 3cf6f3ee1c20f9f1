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
    """``2d6 (3, 5) + 1 = 9``, ``4d6kh3 (~~1~~, 3, 4, 5) = 12``, ``10d6 (…) 4+ = 6 successes``,
    ``2d6 (3, 5) = 8, needs <=7: failed``.

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
    target = parsed.target
    if target is not None and target.counts_dice:
        n = result.successes
        return f"{body} {target.text} = {n} success{'' if n == 1 else 'es'}"
    if target is not None:
        return f"{body} = {result.total}, needs {target.text}: {'passed' if result.passed else 'failed'}"
    return f"{body} = {result.total}"


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
