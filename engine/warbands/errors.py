"""Errors of the warband keeper that carry more than one problem."""

from __future__ import annotations

from engine.errors import MordheimError

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
