"""One die: what kind it is, what it showed, and how the rules read that face.

Every special Mordheim die is rolled as real D6es, as the rulebooks tell players to do,
so a result can always show the D6 that was rolled.
"""

from __future__ import annotations

import random
from enum import Enum


class DieKind(str, Enum):
    STANDARD = "standard"  # an ordinary die with ``size`` sides; face = value
    D3 = "d3"  # a D6 halved, rounding up; face = the D6
    D66 = "d66"  # a tens D6 and a units D6; face = 10 * tens + units (11..66)
    ARTILLERY = "artillery"  # a D6 doubled, 6 = Misfire; face = the D6
    SCATTER = "scatter"  # a D6 read as an arrow or a hit; face = the D6


class Outcome(Enum):
    """A result that is not a number: a Misfire or where the Scatter dice points."""

    MISFIRE = "Misfire"
    TOP = "Top side"
    RIGHT = "Right side"
    BOTTOM = "Bottom"
    LEFT = "Left side"
    DIRECT_HIT = "Direct hit"

    def __str__(self) -> str:
        return self.value


# 002:81-87, 004:82-88: 1 top side, 2 right side, 3 bottom, 4 left side, 5-6 direct hit
SCATTER_FACES: dict[int, Outcome] = {
    1: Outcome.TOP,
    2: Outcome.RIGHT,
    3: Outcome.BOTTOM,
    4: Outcome.LEFT,
    5: Outcome.DIRECT_HIT,
    6: Outcome.DIRECT_HIT,
}

ARTILLERY_MISFIRE_FACE = 6  # 002:74, 004:76: "a Six would count as the Misfire"


def face_value(kind: DieKind, face: int) -> int:
    """The number a face counts as (0 for a Misfire or a Scatter face, which are not numbers)."""
    if kind is DieKind.STANDARD or kind is DieKind.D66:
        return face
    if kind is DieKind.D3:
        return (face + 1) // 2  # 000:188, 002:68, 004:66: D3 = D6 halved, rounding up
    if kind is DieKind.ARTILLERY:
        # 002:74, 004:76: artillery dice 2/4/6/8/10/Misfire = D6 doubled, 6 = Misfire
        return 0 if face == ARTILLERY_MISFIRE_FACE else 2 * face
    return 0


def face_is_valid(kind: DieKind, size: int, face: int) -> bool:
    if kind is DieKind.D66:
        return 1 <= face // 10 <= 6 and 1 <= face % 10 <= 6
    return 1 <= face <= size


def uniform_faces(size: int, count: int, rng: random.Random) -> list[int]:
    """``count`` faces of a ``size``-sided die, each exactly uniform.

    All the randomness for a term comes from one ``rng.randbytes`` call (one system call
    with ``random.SystemRandom``), read one byte per die up to 256 sides and two above;
    a byte past the last whole multiple of ``size`` is thrown away so no face is favoured.
    """
    width = 1 if size <= 256 else 2
    span = 1 << (8 * width)
    limit = span - span % size
    faces: list[int] = []
    while len(faces) < count:
        buf = rng.randbytes((count - len(faces)) * width)
        if width == 1:
            faces += [b % size + 1 for b in buf if b < limit]
        else:
            for j in range(0, len(buf), 2):
                n = buf[j] << 8 | buf[j + 1]
                if n < limit:
                    faces.append(n % size + 1)
    return faces


def roll_faces(kind: DieKind, size: int, count: int, rng: random.Random) -> list[int]:
    """``count`` new faces for dice of this kind, from the injected generator."""
    if kind is DieKind.D66:
        # D66: the first D6 gives the tens, the second the units (11..66)
        d6 = uniform_faces(6, 2 * count, rng)
        return [10 * d6[j] + d6[j + 1] for j in range(0, 2 * count, 2)]
    return uniform_faces(size, count, rng)


def roll_face(kind: DieKind, size: int, rng: random.Random) -> int:
    """One new face for a die of this kind."""
    return roll_faces(kind, size, 1, rng)[0]


def reading(kind: DieKind, face: int) -> str:
    """How a face is written in a breakdown: ``4``, ``2[3]`` (D3 from a D6 of 3), ``Misfire``."""
    if kind is DieKind.STANDARD or kind is DieKind.D66:
        return str(face)
    if kind is DieKind.D3:
        return f"{(face + 1) // 2}[{face}]"
    if kind is DieKind.ARTILLERY:
        return "Misfire" if face == ARTILLERY_MISFIRE_FACE else str(2 * face)
    return SCATTER_FACES[face].value


class Die:
    """One rolled die, as it lies on the table.

    ``face`` is what the physical die shows (the D6 for D3, artillery and scatter; the two
    digits for D66), ``value`` what it counts as, ``kept`` False when keep/drop dropped it,
    ``rerolled_from`` the face it showed before it was re-rolled (None if it never was).
    """

    __slots__ = ("kind", "size", "face", "value", "kept", "rerolled_from")

    def __init__(
        self,
        kind: DieKind,
        size: int,
        face: int,
        value: int,
        kept: bool = True,
        rerolled_from: int | None = None,
    ) -> None:
        self.kind = kind
        self.size = size
        self.face = face
        self.value = value
        self.kept = kept
        self.rerolled_from = rerolled_from

    @property
    def rerolled(self) -> bool:
        return self.rerolled_from is not None

    @property
    def can_reroll(self) -> bool:
        """004:62: a die that has been re-rolled may never be re-rolled again."""
        return self.rerolled_from is None

    @property
    def outcome(self) -> Outcome | None:
        """Misfire for an artillery 6, the direction for a scatter die, else None."""
        if self.kind is DieKind.SCATTER:
            return SCATTER_FACES[self.face]
        if self.kind is DieKind.ARTILLERY and self.face == ARTILLERY_MISFIRE_FACE:
            return Outcome.MISFIRE
        return None

    @property
    def tens_units(self) -> tuple[int, int] | None:
        """For a D66, the tens die and the units die."""
        if self.kind is DieKind.D66:
            return divmod(self.face, 10)
        return None

    def render(self) -> str:
        """``4``, ``~~4~~`` (dropped), ``~~1~~→4`` (re-rolled), ``~~1~~→~~2~~`` (both)."""
        now = reading(self.kind, self.face)
        if not self.kept:
            now = f"~~{now}~~"
        if self.rerolled_from is not None:
            return f"~~{reading(self.kind, self.rerolled_from)}~~→{now}"
        return now

    def to_dict(self) -> dict:
        return {
            "kind": self.kind.value,
            "size": self.size,
            "face": self.face,
            "value": self.value,
            "kept": self.kept,
            "rerolled_from": self.rerolled_from,
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Die):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        extra = "" if self.kept else ", dropped"
        if self.rerolled_from is not None:
            extra += f", rerolled_from={self.rerolled_from}"
        return f"Die({self.kind.value}, d{self.size}, face={self.face}, value={self.value}{extra})"
