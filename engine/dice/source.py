"""Where post-battle dice come from: the bot's seeded ``random.Random``, or dice a player rolled.

Players often roll at the table and want the bot to use their dice. ``Dice.entered("35 4")``
takes them in order: each die the engine asks for takes the next number, which must fit the
die (a D66 is two digits from 1 to 6, e.g. 35; a D6 is 1-6). When the entered dice run out the
bot rolls the rest with its own ``random.Random``; without one it says which die is missing.
Every die is recorded (``Dice.rolls``) so the channel can show all of them.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from engine.errors import MordheimError

MAX_ENTERED = 60  # more dice than any post-battle step needs


@dataclass(frozen=True)
class Roll:
    why: str  # e.g. "Serious injury for Hans"
    die: str  # "D6", "D66", "2D6", "D3", ...
    faces: tuple[int, ...]  # each die as rolled (a D66 is its tens and units die)
    total: int
    entered: bool  # typed in by a player rather than rolled by the bot

    def __str__(self) -> str:
        shown = "+".join(map(str, self.faces)) if len(self.faces) > 1 and self.die != "D66" else str(self.total)
        by = " (entered)" if self.entered else ""
        total = f" = {self.total}" if len(self.faces) > 1 and self.die != "D66" else ""
        return f"{self.why}: {self.die} {shown}{total}{by}"


_AMOUNT = re.compile(r"^\s*(?:(\d{0,2})D([36])(?:\s*[x×*]\s*(\d{1,3}))?(?:\s*\+\s*(\d{1,2}))?|(\d{1,4}))\s*$", re.IGNORECASE)


def check_amount(text: str) -> str | None:
    """A problem with a dice amount written in the tables ("D6", "2D6x5", "D6+1", "D3", "20"), or None."""
    if not isinstance(text, str) or not _AMOUNT.match(text):
        return f"'{str(text)[:20]}' is not a dice amount; write e.g. 1, D3, D6, 2D6, D6x10 or D6+1."
    return None


def parse_entered(text: str) -> tuple[int, ...]:
    """A player's dice as numbers: '35 4', '35,4' or '3 5 4' (each number a die as rolled)."""
    if text is None or not str(text).strip():
        return ()
    parts = [p for p in re.split(r"[\s,;/]+", str(text).strip()) if p]
    if len(parts) > MAX_ENTERED:
        raise MordheimError(f"{len(parts)} dice is more than one step needs (at most {MAX_ENTERED}).")
    bad = [p for p in parts if not p.isdigit()]
    if bad:
        raise MordheimError(
            f"'{bad[0][:12]}' is not a die roll.",
            hint="Type the dice as numbers in the order you rolled them, e.g. `35 4` for a D66 of 35 then a D6 of 4.",
        )
    return tuple(int(p) for p in parts)


class Dice:
    """The dice of one post-battle step: entered numbers first, then the bot's rolls."""

    def __init__(self, rng: random.Random | None = None, entered: tuple[int, ...] = ()) -> None:
        self._rng = rng
        self._entered = list(entered)
        self.rolls: list[Roll] = []

    @classmethod
    def entered(cls, text: str, rng: random.Random | None = None) -> Dice:
        return cls(rng, parse_entered(text))

    @property
    def unused(self) -> tuple[int, ...]:
        """Entered dice no roll asked for (the caller says so, rather than ignoring them)."""
        return tuple(self._entered)

    def _next(self, why: str, die: str, low: int, high: int) -> tuple[int, bool]:
        if self._entered:
            value = self._entered.pop(0)
            if not low <= value <= high:
                raise MordheimError(f"{why}: {value} cannot be rolled on a {die} ({low}-{high}).",
                                    hint=f"Type the {die} as rolled, {low} to {high}.")
            return value, True
        if self._rng is None:
            raise MordheimError(f"{why} needs one more {die}.", hint="Type every die of this step, in the order rolled.")
        return self._rng.randint(low, high), False

    def d6(self, why: str) -> int:
        value, entered = self._next(why, "D6", 1, 6)
        self.rolls.append(Roll(why, "D6", (value,), value, entered))
        return value

    def d66(self, why: str) -> int:
        """Tens die and units die, 11-66. An entered D66 must be two digits 1-6 (a lone 1-6 is a D6)."""
        if self._entered:
            value = self._entered.pop(0)
            tens, units = divmod(value, 10)
            if not (1 <= tens <= 6 and 1 <= units <= 6):
                kind = "a D6, not a D66" if 1 <= value <= 6 else "not a D66"
                raise MordheimError(
                    f"{why}: {value} is {kind}.",
                    hint="A D66 is two D6 read as tens and units: type both digits, e.g. 35 (3 then 5); each digit 1-6.",
                )
            self.rolls.append(Roll(why, "D66", (tens, units), value, True))
            return value
        tens, _ = self._next(why, "D66", 1, 6)
        units, _ = self._next(why, "D66", 1, 6)
        value = 10 * tens + units
        self.rolls.append(Roll(why, "D66", (tens, units), value, False))
        return value

    def dice(self, n: int, why: str) -> tuple[int, ...]:
        """``n`` D6 at once (2D6, the exploration dice): each entered or rolled, recorded as one roll."""
        faces: list[int] = []
        entered = bool(self._entered)
        for _ in range(n):
            value, _was_entered = self._next(why, "D6", 1, 6)
            faces.append(value)
        self.rolls.append(Roll(why, f"{n}D6" if n != 1 else "D6", tuple(faces), sum(faces), entered))
        return tuple(faces)

    def amount(self, text: str | int, why: str) -> tuple[int, tuple[int, ...]]:
        """A dice amount from the tables ("D6", "2D6x5", "D6+1", "D3", "20"): its value and the dice rolled."""
        match = _AMOUNT.match(str(text))
        if match is None:
            raise ValueError(f"bad dice amount {text!r}")  # the tables are validated on load
        count, sides, times, plus, fixed = match.groups()
        if fixed is not None:
            return int(fixed), ()
        n = int(count or 1)
        if sides == "3":  # D3 = a D6 halved, rounding up (000:188)
            faces = self.dice(n, why + " (D3)")
            total = sum((f + 1) // 2 for f in faces)
        else:
            faces = self.dice(n, why)
            total = sum(faces)
        return total * int(times or 1) + int(plus or 0), faces
