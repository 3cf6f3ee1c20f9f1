"""The one exception family whose messages are safe to show a Discord user.

Every error the engine raises because of what a user typed is a ``MordheimError``.
Its ``str()`` says what was wrong and, where it can, how to fix it. Anything that is
not a ``MordheimError`` is a bug: the bot logs it and apologises.
"""

from __future__ import annotations


class MordheimError(Exception):
    """A problem with the user's input. ``message`` is safe to show to users."""

    #: Optional lines pointing at a place in what the user typed (the text and a ``^`` under
    #: the offending character), included in the message; a front end shows them monospaced.
    pointer: str | None = None

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        if self.hint:
            return f"{self.message}\n{self.hint}"
        return self.message


class NotFoundError(MordheimError):
    """Something named by the user does not exist; ``suggestions`` are the closest names."""

    def __init__(self, message: str, *, suggestions: list[str] | None = None, hint: str | None = None) -> None:
        self.suggestions = list(suggestions or [])
        if self.suggestions and hint is None:
            hint = "Did you mean: " + ", ".join(f"`{s}`" for s in self.suggestions[:5]) + "?"
        super().__init__(message, hint=hint)


class PermissionDenied(MordheimError):
    """The member may not do this (for example change another player's warband)."""


class LimitExceeded(MordheimError):
    """An input went past one of the engine's documented limits; the message names the limit."""


SHOWN_PROBLEMS = 15


class InvalidData(MordheimError):
    """Imported or configured data has problems; ``problems`` lists every one of them."""

    def __init__(self, what: str, problems: list[str]) -> None:
        self.problems = list(problems)
        shown = "\n".join(f"- {p}" for p in self.problems[:SHOWN_PROBLEMS])
        more = len(self.problems) - SHOWN_PROBLEMS
        if more > 0:
            shown += f"\n- ... and {more} more"
        count = len(self.problems)
        super().__init__(
            f"{what} has {count} problem{'s' if count != 1 else ''}; nothing was saved.\n{shown}",
            hint="Fix them and try again.",
        )


class DuplicateKey(Exception):
    """A write would give two rows one unique key (two warriors of a warband with one name, say).

    Raised by storage in place of its database's own error, so the engine can tell the member what
    to do without knowing which database it runs on. Not a ``MordheimError``: its text is the
    database's, and whoever catches it says what it means."""
