"""A characteristic profile: the one ``Profile`` that combat, the warband lists and the campaign share.

M WS BS S T W I A Ld, each a whole number from 0 to 10 (000:221 "usually between 1 and 10";
a 0 is allowed, 000:234). The defaults are an average human's (000:243's example profile),
which combat uses when a fighter is typed without one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.errors import LimitExceeded

CHARACTERISTICS = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")
MIN_CHARACTERISTIC, MAX_CHARACTERISTIC = 0, 10


@dataclass(frozen=True, slots=True)
class Profile:
    M: int = 4
    WS: int = 3
    BS: int = 3
    S: int = 3
    T: int = 3
    W: int = 1
    I: int = 3  # noqa: E741 - the game's own abbreviation for Initiative
    A: int = 1
    Ld: int = 7

    def __post_init__(self) -> None:
        for c in CHARACTERISTICS:
            v = getattr(self, c)
            if not isinstance(v, int) or not MIN_CHARACTERISTIC <= v <= MAX_CHARACTERISTIC:
                raise LimitExceeded(
                    f"{c} {v} is out of range: characteristics go from {MIN_CHARACTERISTIC} to {MAX_CHARACTERISTIC}.",
                    hint=f"Give {c} a whole number from {MIN_CHARACTERISTIC} to {MAX_CHARACTERISTIC}.",
                )

    def __str__(self) -> str:
        return " ".join(f"{c}{getattr(self, c)}" for c in CHARACTERISTICS)

    def as_dict(self) -> dict[str, int]:
        return {c: getattr(self, c) for c in CHARACTERISTICS}

    def with_(self, **changes: int) -> Profile:
        return replace(self, **changes)
