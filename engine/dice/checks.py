"""Mordheim's dice tests: characteristic tests, Leadership tests, Artillery and Scatter rolls.

Each returns a ``CheckResult`` with the dice, what was needed, whether it passed and a
sentence in the game's words. It re-rolls like any roll (``engine.dice.reroll``) and
round-trips through ``to_dict``/``from_dict``. The injury roll belongs to the combat
engine, not here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from enum import Enum
from typing import Any

from engine.errors import MordheimError

from .breakdown import render_dice
from .die import Die, DieKind, Outcome, face_is_valid, face_value, roll_face
from .reroll_once import raise_no_reroll, reroll_faces

FORMAT_VERSION = 1

#: Profile abbreviations and their names (000:243 shows the profile M WS BS S T W I A Ld).
CHARACTERISTICS = {
    "m": "Movement",
    "ws": "Weapon Skill",
    "bs": "Ballistic Skill",
    "s": "Strength",
    "t": "Toughness",
    "w": "Wounds",
    "i": "Initiative",
    "a": "Attacks",
    "ld": "Leadership",
}
_BY_NAME = {name.lower(): name for name in CHARACTERISTICS.values()}

MIN_CHARACTERISTIC = 0
MAX_CHARACTERISTIC = 10

# The die's faces name the sides of the table as the roller sees it (002:81-87: top side, right side,
# bottom, left side): said at the table as where the arrow points from the roller, with the clock face.
_DIRECTION_WORDS = {
    Outcome.TOP: "away from you (12 o'clock)",
    Outcome.RIGHT: "to your right (3 o'clock)",
    Outcome.BOTTOM: "towards you (6 o'clock)",
    Outcome.LEFT: "to your left (9 o'clock)",
}


def _direction_words(outcome: int | Outcome | None) -> str:
    """Where the Scatter dice points, in words ("to your right (3 o'clock)")."""
    if not isinstance(outcome, Outcome) or outcome not in _DIRECTION_WORDS:
        raise ValueError(f"{outcome!r} is not a direction of the Scatter dice")
    return _DIRECTION_WORDS[outcome]


class CheckKind(str, Enum):
    CHARACTERISTIC = "characteristic"
    LEADERSHIP = "leadership"
    ARTILLERY = "artillery"
    SCATTER = "scatter"


class CheckResult:
    """One Mordheim test or special-dice roll.

    ``dice`` are the dice rolled (kept, with re-rolls shown like any roll); ``score`` the
    number rolled (None for artillery and scatter); ``passed`` True/False for tests and
    None for artillery and scatter; ``needed`` says what was needed; ``sentence`` says
    what happened; ``total`` is the score, the distance in inches, or an ``Outcome``.
    """

    __slots__ = ("kind", "characteristic", "value", "dice", "original")

    def __init__(
        self,
        kind: CheckKind,
        dice: tuple[Die, ...],
        *,
        characteristic: str | None = None,
        value: int | None = None,
        original: CheckResult | None = None,
    ) -> None:
        self.kind = kind
        self.dice = dice
        self.characteristic = characteristic
        self.value = value
        self.original = original

    # -- what happened --------------------------------------------------------------

    @property
    def _is_test(self) -> bool:
        return self.kind in (CheckKind.CHARACTERISTIC, CheckKind.LEADERSHIP)

    @property
    def _tested(self) -> int:
        """The characteristic (or Leadership) a test was against: every test has one."""
        if self.value is None:
            raise ValueError(f"a {self.kind.value} check has no value to test against")
        return self.value

    @property
    def score(self) -> int | None:
        return sum(d.value for d in self.dice) if self._is_test else None

    @property
    def passed(self) -> bool | None:
        if self.kind is CheckKind.CHARACTERISTIC:
            # 000:251: equal to or lower than the characteristic; a 6 always fails
            return self.dice[0].face != 6 and self.dice[0].face <= self._tested
        if self.kind is CheckKind.LEADERSHIP:
            # 000:257: 2D6 equal to or less than Ld; no automatic failure
            return sum(d.value for d in self.dice) <= self._tested
        return None

    @property
    def _artillery(self) -> Die | None:
        return next((d for d in self.dice if d.kind is DieKind.ARTILLERY), None)

    @property
    def _scatter(self) -> Die | None:
        return next((d for d in self.dice if d.kind is DieKind.SCATTER), None)

    @property
    def total(self) -> int | Outcome:
        """The score of a test; inches for artillery; an ``Outcome`` for Misfire or a scatter."""
        if self._is_test:
            return sum(d.value for d in self.dice)
        art, scatter = self._artillery, self._scatter
        if art is not None and art.outcome is Outcome.MISFIRE:
            return Outcome.MISFIRE
        if scatter is not None and scatter.outcome is not None:
            return scatter.outcome
        if art is None:
            raise ValueError(f"a {self.kind.value} check without its dice")
        return art.value

    @property
    def distance(self) -> int | None:
        """Inches from the Artillery dice, None on a Misfire, a direct hit or without one."""
        total = self.total
        if isinstance(total, int) and self.kind is CheckKind.ARTILLERY:
            return total
        art = self._artillery
        if self.kind is CheckKind.SCATTER and art is not None and isinstance(total, Outcome):
            if total not in (Outcome.MISFIRE, Outcome.DIRECT_HIT):
                return art.value
        return None

    @property
    def needed(self) -> str:
        if self.kind is CheckKind.CHARACTERISTIC:
            if self.value == 0:
                return f"nothing can pass with {self.characteristic} 0"
            return f"{min(self._tested, 5)} or less on a D6 (a 6 always fails)"
        if self.kind is CheckKind.LEADERSHIP:
            if self.value is not None and self.value < 2:  # two dice score at least 2
                return f"{self.value} or less on 2D6: nothing can pass with Leadership {self.value}"
            return f"{self.value} or less on 2D6"
        if self.kind is CheckKind.ARTILLERY:
            return "a distance from the Artillery dice"
        return "a direction from the Scatter dice" + (" and a distance" if self._artillery else "")

    @property
    def sentence(self) -> str:
        if self.kind is CheckKind.CHARACTERISTIC:
            face = self.dice[0].face
            if face == 6:
                return f"Rolled a 6: the {self.characteristic} test is failed, as a 6 always fails."
            verdict = "passed" if self.passed else "failed"
            return f"Rolled {face} against {self.characteristic} {self.value}: the {self.characteristic} test is {verdict}."
        if self.kind is CheckKind.LEADERSHIP:
            a, b = (d.face for d in self.dice)
            verdict = "passed" if self.passed else "failed"
            return f"Rolled {a} + {b} = {self.score} against Leadership {self.value}: the Leadership test is {verdict}."
        total = self.total
        scatter = self._scatter
        if total is Outcome.MISFIRE and scatter is not None:
            # the Scatter dice was rolled too: say where it pointed, a Misfire or not
            pointed = "showed a direct hit" if scatter.outcome is Outcome.DIRECT_HIT else f"pointed {_direction_words(scatter.outcome)}"
            return f"Misfire! The Scatter dice {pointed}."
        if total is Outcome.MISFIRE:
            return "Misfire!"
        if self.kind is CheckKind.ARTILLERY:
            return f"The Artillery dice shows {total}, so the distance is {total} inches."
        if total is Outcome.DIRECT_HIT:
            return "Direct hit!"
        if self._artillery is not None:
            return f'Scatters {self._artillery.value}" {_direction_words(total)}.'
        return f"The Scatter dice points {_direction_words(total)}."

    @property
    def can_reroll(self) -> bool:
        """True while some die has not been re-rolled yet (004:62: never twice)."""
        return any(d.rerolled_from is None for d in self.dice)

    def render(self) -> str:
        """``Initiative 3: D6 (4) = failed``; ``Leadership 7: 2D6 (3, 2) = 5, passed``."""
        dice = render_dice(self.dice)
        if self.kind is CheckKind.CHARACTERISTIC:
            return f"{self.characteristic} {self.value}: D6 ({dice}) = {'passed' if self.passed else 'failed'}"
        if self.kind is CheckKind.LEADERSHIP:
            return f"Leadership {self.value}: 2D6 ({dice}) = {self.score}, {'passed' if self.passed else 'failed'}"
        total = self.total
        shown = f'{total}"' if isinstance(total, int) else str(total)
        if self.distance is not None and self.kind is CheckKind.SCATTER:
            shown = f'{self.distance}" {_direction_words(total)}'
        elif total is Outcome.MISFIRE and self._scatter is not None:
            shown = f"Misfire ({self._scatter.outcome})"
        name = "Artillery dice" if self.kind is CheckKind.ARTILLERY else "Scatter"
        return f"{name} ({dice}) = {shown}"

    def __repr__(self) -> str:
        return f"CheckResult({self.kind.value}, {self.render()!r})"

    # -- storage --------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        total = self.total
        return {
            "type": "check",
            "version": FORMAT_VERSION,
            "kind": self.kind.value,
            "characteristic": self.characteristic,
            "value": self.value,
            "total": total.value if isinstance(total, Outcome) else total,
            "passed": self.passed,
            "dice": [d.to_dict() for d in self.dice],
            "original": self.original.to_dict() if self.original is not None else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CheckResult:
        """Rebuild a result stored by ``to_dict``. Raises ``ValueError`` if the data is not one."""
        if data.get("type") != "check" or data.get("version") != FORMAT_VERSION:
            raise ValueError("not a stored check of this version")
        kind = CheckKind(data["kind"])
        layout = [(DieKind(d["kind"]), d["size"]) for d in data["dice"]]
        if layout != _layout(kind, len(layout)):
            raise ValueError(f"stored dice do not fit a {kind.value} roll")
        dice = []
        for (die_kind, size), d in zip(layout, data["dice"]):
            for f in (d["face"], d.get("rerolled_from")):
                if f is not None and (type(f) is not int or not face_is_valid(die_kind, size, f)):
                    raise ValueError(f"{f!r} is not a face of a {die_kind.value} die")
            dice.append(Die(die_kind, size, d["face"], face_value(die_kind, d["face"]), True, d.get("rerolled_from")))
        original = data.get("original")
        return cls(
            kind,
            tuple(dice),
            characteristic=data.get("characteristic"),
            value=data.get("value"),
            original=cls.from_dict(original) if original is not None else None,
        )


def _layout(kind: CheckKind, n: int) -> list[tuple[DieKind, int]]:
    if kind is CheckKind.CHARACTERISTIC:
        return [(DieKind.STANDARD, 6)]
    if kind is CheckKind.LEADERSHIP:
        return [(DieKind.STANDARD, 6)] * 2
    if kind is CheckKind.ARTILLERY:
        return [(DieKind.ARTILLERY, 6)]
    return [(DieKind.SCATTER, 6)] + ([(DieKind.ARTILLERY, 6)] if n == 2 else [])


def _roll(kind: DieKind, size: int, rng: random.Random) -> Die:
    face = roll_face(kind, size, rng)
    return Die(kind, size, face, face_value(kind, face))


def _check_value(value: int, what: str) -> None:
    if type(value) is not int or not MIN_CHARACTERISTIC <= value <= MAX_CHARACTERISTIC:
        raise MordheimError(
            f"{what} must be a whole number from {MIN_CHARACTERISTIC} to {MAX_CHARACTERISTIC}, not {value!r}.",
            hint="Use the value on the warrior's profile, e.g. 3 for a Human's Initiative.",
        )


def characteristic_name(name: str) -> str:
    """The full name of a characteristic: ``"I"`` or ``"initiative"`` -> ``"Initiative"``."""
    key = name.strip().lower()
    if key in CHARACTERISTICS:
        return CHARACTERISTICS[key]
    if key in _BY_NAME:
        return _BY_NAME[key]
    raise MordheimError(
        f"`{name}` is not a characteristic.",
        hint="Use one of M, WS, BS, S, T, W, I, A (or their full names).",
    )


def characteristic_test(value: int, rng: random.Random, *, characteristic: str = "Initiative") -> CheckResult:
    """Roll a D6: equal to or under ``value`` passes, a 6 always fails (000:251; 004:158)."""
    name = characteristic_name(characteristic)
    if name == "Leadership":
        raise MordheimError(
            "A Leadership test is rolled on 2D6, not as a characteristic test.",
            hint="Use the Leadership test instead.",
        )
    _check_value(value, name)
    return CheckResult(CheckKind.CHARACTERISTIC, (_roll(DieKind.STANDARD, 6, rng),), characteristic=name, value=value)


def leadership_test(leadership: int, rng: random.Random) -> CheckResult:
    """Roll 2D6: equal to or less than ``leadership`` passes, with no automatic failure (000:257)."""
    _check_value(leadership, "Leadership")
    dice = (_roll(DieKind.STANDARD, 6, rng), _roll(DieKind.STANDARD, 6, rng))
    return CheckResult(CheckKind.LEADERSHIP, dice, characteristic="Leadership", value=leadership)


def artillery_roll(rng: random.Random) -> CheckResult:
    """The Artillery dice: 2, 4, 6, 8 or 10 inches, or Misfire (002:74; 004:76)."""
    return CheckResult(CheckKind.ARTILLERY, (_roll(DieKind.ARTILLERY, 6, rng),))


def scatter_roll(rng: random.Random, *, with_distance: bool = False) -> CheckResult:
    """The Scatter dice: an arrow or a direct hit (002:81-87; 004:82-88).

    With ``with_distance`` the Artillery dice is rolled too: "Scatters 6\" to your right (3 o'clock)",
    "Direct hit!" or "Misfire!". The seeds do not say which wins when a hit and a Misfire
    come up together; as in Warhammer, the Misfire does.
    """
    dice = [_roll(DieKind.SCATTER, 6, rng)]
    if with_distance:
        dice.append(_roll(DieKind.ARTILLERY, 6, rng))
    return CheckResult(CheckKind.SCATTER, tuple(dice))


def reroll_check(result: CheckResult, rng: random.Random, *, only: Callable[[Die], bool] | None = None) -> CheckResult:
    """The check again with its dice re-rolled once (000:188; 004:62); see ``engine.dice.reroll``."""
    if not result.can_reroll or (only is not None and not any(d.can_reroll and only(d) for d in result.dice)):
        raise_no_reroll()
    faces, froms = reroll_faces(result.dice, rng, only)
    dice = tuple(
        Die(d.kind, d.size, f, face_value(d.kind, f), True, r) for d, f, r in zip(result.dice, faces, froms)
    )
    return CheckResult(
        result.kind, dice, characteristic=result.characteristic, value=result.value, original=result
    )
