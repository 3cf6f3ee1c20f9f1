"""The one source of dice the rules engines draw from: combat and the campaign alike.

A ``Dice`` gives D6es (and what is made of them: D3, D66, 2D6, table amounts such as
``2D6x5``) from one of two places, in this order:

* dice a player rolled at the table and typed in (``Dice.entered("35 4")``): each die the
  engine asks for takes the next number, which must fit the die (a D66 is two digits from 1
  to 6, e.g. 35; a D6 is 1-6);
* the bot's own injected ``random.Random``, once the entered dice have run out. Without
  one, it says which die is missing.

Two ways of asking, one draw (a D6 is always ``int(rng.random() * 6) + 1``):

* ``d6()`` with no name is combat's path, asked millions of times by a simulation: only the
  face is kept (in ``rolled``, while ``logging``), and ``say`` keeps the step-by-step text;
* a named roll (``d6(why)``, ``d66(why)``, ``dice(n, why)``, ``amount(text, why)``) is the
  campaign's: each is recorded as a ``Roll`` in ``rolls`` so the channel can show every die,
  and whether a player entered it.

The exact odds of rule code written against these dice come from replaying the same code over
every die face (``engine.combat.dice.enumerate_outcomes``), not from here.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.errors import MordheimError

MAX_ENTERED = 60  # more dice than any post-battle step needs


@dataclass(frozen=True)
class Roll:
    """One named roll, as the channel shows it."""

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


def d3_of(face: int) -> int:
    """The D3 a D6 face stands for: halved, rounding up (000:188)."""
    return (face + 1) // 2


_AMOUNT = re.compile(r"^\s*(?:(\d{0,2})D([36])(?:\s*[x×*]\s*(\d{1,3}))?(?:\s*\+\s*(\d{1,2}))?|(\d{1,4}))\s*$", re.IGNORECASE)


def check_amount(text: str) -> str | None:
    """A problem with a dice amount written in the tables ("D6", "2D6x5", "D6+1", "D3", "20"), or None."""
    if not isinstance(text, str) or not _AMOUNT.match(text):
        return f"'{str(text)[:20]}' is not a dice amount; write e.g. 1, D3, D6, 2D6, D6x10 or D6+1."
    return None


def parse_entered(text: str | None) -> tuple[int, ...]:
    """A player's dice as numbers: '35 4', '35,4' or '3 5 4' (each number a die as rolled)."""
    if text is None or not str(text).strip():
        return ()
    parts = [p for p in re.split(r"[\s,;/]+", str(text).strip()) if p]
    if len(parts) > MAX_ENTERED:
        raise MordheimError(f"{len(parts)} dice is more than one step needs (at most {MAX_ENTERED}).")
    # ASCII digits only ('²' is a digit to Python, but int() refuses it), and no longer than a die
    # shows (a 6,000-digit one is past what Python turns into an integer)
    bad = [p for p in parts if not (p.isascii() and p.isdigit() and len(p) <= 3)]
    if bad:
        raise MordheimError(
            f"'{bad[0][:12]}' is not a die roll.",
            hint="Type the dice as numbers in the order you rolled them, e.g. `35 4` for a D66 of 35 then a D6 of 4.",
        )
    return tuple(int(p) for p in parts)


class Dice:
    """Dice entered by a player first, then the bot's ``rng``; see the module docstring.

    ``rolls`` holds every named roll; ``rolled`` every face given (named or not) and ``lines``
    what rule code said, both only while ``logging``.
    """

    __slots__ = ("rng", "rolls", "lines", "rolled", "logging", "_entered", "_random")

    def __init__(self, rng: random.Random | None = None, entered: Iterable[int] = (), *, logging: bool = True) -> None:
        self.rng = rng
        self.rolls: list[Roll] = []
        self.lines: list[str] = []
        self.rolled: list[int] = []
        self.logging = logging
        self._entered = list(entered)
        # What the unnamed D6 reads as int(x * 6) + 1, so that its path holds no test of where
        # the die comes from (a simulation asks it millions of times): see _next_random.
        self._random: Callable[[], float] = self._next_random()

    @classmethod
    def entered(cls, text: str | None, rng: random.Random | None = None) -> Dice:
        """The dice a player typed (``"35 4"``), then ``rng`` for any more."""
        return cls(rng, parse_entered(text))

    @property
    def unused(self) -> tuple[int, ...]:
        """Entered dice no roll asked for (the caller says so, rather than ignoring them)."""
        return tuple(self._entered)

    # -- combat's path: unnamed D6es and the step-by-step text ------------------------------

    def d6(self, why: str | None = None) -> int:
        """One D6. Named (``why``), it is recorded in ``rolls``; unnamed, only its face is kept."""
        if why is not None:
            return self._named_dice(1, why)[0]
        face = int(self._random() * 6) + 1
        if self.logging:
            self.rolled.append(face)
        return face

    def say(self, text: str) -> None:
        """One line of the step-by-step account, kept only while ``logging``."""
        if self.logging:
            self.lines.append(text)

    def _next_random(self) -> Callable[[], float]:
        """The unnamed D6's source: ``rng.random`` once no entered die is left (or a function that
        says a die is missing, without an ``rng``); while some are, the next entered face given as
        the middle of its sixth of [0, 1), which the D6 reads back as that face."""
        if self._entered:
            return self._entered_as_random
        if self.rng is not None:
            return self.rng.random
        return self._missing_die

    def _entered_as_random(self) -> float:
        face = self._take_entered("A roll", "D6")
        return (face - 0.5) / 6

    def _missing_die(self) -> float:
        raise MordheimError("A roll needs one more D6.", hint="Type every die of this step, in the order rolled.")

    # -- the campaign's path: named rolls, each recorded ------------------------------------

    def _take_entered(self, why: str, die: str) -> int:
        """The next entered die as a D6 face (one digit of a D66 included)."""
        value = self._entered.pop(0)
        if not self._entered:
            self._random = self._next_random()
        if not 1 <= value <= 6:
            raise MordheimError(f"{why}: {value} cannot be rolled on a {die} (1-6).", hint=f"Type the {die} as rolled, 1 to 6.")
        return value

    def _next(self, why: str, die: str) -> tuple[int, bool]:
        """One D6 face for a named roll, and whether it was entered."""
        if self._entered:
            face, entered = self._take_entered(why, die), True
        elif self.rng is None:
            raise MordheimError(f"{why} needs one more {die}.", hint="Type every die of this step, in the order rolled.")
        else:
            face, entered = int(self.rng.random() * 6) + 1, False
        if self.logging:
            self.rolled.append(face)
        return face, entered

    def _named_dice(self, n: int, why: str) -> tuple[int, ...]:
        faces: list[int] = []
        entered = bool(self._entered)
        for _ in range(n):
            faces.append(self._next(why, "D6")[0])
        self.rolls.append(Roll(why, f"{n}D6" if n != 1 else "D6", tuple(faces), sum(faces), entered))
        return tuple(faces)

    def d66(self, why: str) -> int:
        """Tens die and units die, 11-66. An entered D66 must be two digits 1-6 (a lone 1-6 is a D6)."""
        if self._entered:
            value = self._entered.pop(0)
            if not self._entered:
                self._random = self._next_random()
            tens, units = divmod(value, 10)
            if not (1 <= tens <= 6 and 1 <= units <= 6):
                kind = "a D6, not a D66" if 1 <= value <= 6 else "not a D66"
                raise MordheimError(
                    f"{why}: {value} is {kind}.",
                    hint="A D66 is two D6 read as tens and units: type both digits, e.g. 35 (3 then 5); each digit 1-6.",
                )
            if self.logging:
                self.rolled.extend((tens, units))
            self.rolls.append(Roll(why, "D66", (tens, units), value, True))
            return value
        tens, _ = self._next(why, "D66")
        units, _ = self._next(why, "D66")
        value = 10 * tens + units
        self.rolls.append(Roll(why, "D66", (tens, units), value, False))
        return value

    def dice(self, n: int, why: str) -> tuple[int, ...]:
        """``n`` D6 at once (2D6, the exploration dice): each entered or rolled, recorded as one roll."""
        return self._named_dice(n, why)

    def amount(self, text: str | int, why: str) -> tuple[int, tuple[int, ...]]:
        """A dice amount from the tables ("D6", "2D6x5", "D6+1", "D3", "20"): its value and the dice rolled."""
        match = _AMOUNT.match(str(text))
        if match is None:
            raise ValueError(f"bad dice amount {text!r}")  # the tables are validated on load
        count, sides, times, plus, fixed = match.groups()
        if fixed is not None:
            return int(fixed), ()
        n = int(count or 1)
        if sides == "3":
            faces = self.dice(n, why + " (D3)")
            total = sum(d3_of(f) for f in faces)
        else:
            faces = self.dice(n, why)
            total = sum(faces)
        return total * int(times or 1) + int(plus or 0), faces
