"""The dice engine's user-facing errors.

All of them are ``engine.errors.MordheimError``: their text is safe to show and says
how to fix the input. An error about a place in the expression carries ``position``
(0-based character index) and ``pointer``: the expression and a caret line under the
offending character, ready to put in a code block.
"""

from __future__ import annotations

from engine.errors import LimitExceeded, MordheimError

from .limits import LIMITS


def _shown(text: str) -> str:
    """The text as echoed back: one character per input character, so the caret lines up.

    Whitespace of any kind becomes a space and backticks become quotes, so the echo
    can never break out of the code block the bot puts it in.
    """
    return "".join(" " if c.isspace() else ("'" if c == "`" else c) for c in text)


def pointer_lines(text: str, position: int) -> str:
    """``text`` and a line with ``^`` under character ``position``."""
    return f"{_shown(text)}\n{' ' * max(0, position)}^"


class DiceError(MordheimError):
    """A dice expression that cannot be rolled. Base of the dice engine's errors."""


class DiceSyntaxError(DiceError):
    """The expression does not follow the grammar (see ``engine/dice/GRAMMAR.md``).

    ``reason`` says what is wrong; ``position`` where; ``pointer`` shows it.
    """

    def __init__(self, reason: str, text: str, position: int, *, hint: str | None = None) -> None:
        self.reason = reason
        self.text = text
        self.position = position
        self.pointer = pointer_lines(text, position)
        super().__init__(f"{reason} (at character {position + 1})\n{self.pointer}", hint=hint)


class DiceLimitExceeded(DiceError, LimitExceeded):
    """An expression went past one of the limits in ``engine.dice.limits``.

    ``limit`` is the constant's name, ``limit_value`` its value; ``position`` and
    ``pointer`` are set when the problem is at one place in the text.
    """

    def __init__(
        self,
        limit: str,
        found: str,
        *,
        text: str | None = None,
        position: int | None = None,
        hint: str | None = None,
    ) -> None:
        value, unit = LIMITS[limit]
        self.limit = limit
        self.limit_value = value
        self.text = text
        self.position = position
        self.pointer = pointer_lines(text, position) if text is not None and position is not None else None
        shown_value = f"{value:,}"  # players read 1,000,000,000, not 10**9; the constant's name stays in .limit
        message = f"{found}; the limit is {shown_value} {unit}."
        if self.pointer:
            message += "\n" + self.pointer
        super().__init__(message, hint=hint)


class RerollNotAllowed(DiceError):
    """Every die of the result has already been re-rolled once (004:62)."""
