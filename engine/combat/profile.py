"""Characteristic profiles: parsed from text or taken from the seeds' named templates."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from engine.errors import LimitExceeded, MordheimError, NotFoundError

CHARACTERISTICS = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")
MAX_CHARACTERISTIC = 10  # 000:221 "usually between 1 and 10"; 0 allowed (000:234)


@dataclass(frozen=True)
class Profile:
    M: int = 4
    WS: int = 3
    BS: int = 3
    S: int = 3
    T: int = 3
    W: int = 1
    I: int = 3  # noqa: E741 - the game's own abbreviation
    A: int = 1
    Ld: int = 7

    def __post_init__(self) -> None:
        for c in CHARACTERISTICS:
            v = getattr(self, c)
            if not isinstance(v, int) or not 0 <= v <= MAX_CHARACTERISTIC:
                raise LimitExceeded(
                    f"{c} {v} is out of range: characteristics go from 0 to {MAX_CHARACTERISTIC}.",
                    hint=f"Give {c} a whole number from 0 to {MAX_CHARACTERISTIC}.",
                )

    def __str__(self) -> str:
        return " ".join(f"{c}{getattr(self, c)}" for c in CHARACTERISTICS)

    def with_(self, **changes: int) -> "Profile":
        return replace(self, **changes)


# 000:243 Dieter Stahl, a typical Human; 000:1489-1502 Horse, Warhorse, Wardog
TEMPLATES: dict[str, Profile] = {
    "human": Profile(4, 3, 3, 3, 3, 1, 3, 1, 7),
    "horse": Profile(8, 0, 0, 3, 3, 1, 3, 0, 5),
    "warhorse": Profile(8, 3, 0, 3, 3, 1, 3, 1, 5),
    "wardog": Profile(6, 4, 0, 4, 3, 1, 4, 1, 5),
}

_NAMED = re.compile(r"^(M|WS|BS|S|T|W|I|A|LD)[=:]?(-?\d+)$", re.I)
_HOW = 'Write nine numbers in the order M WS BS S T W I A Ld (e.g. "4 3 3 3 3 1 3 1 7"), named values (e.g. "WS4 S4 T3") or a template: ' + ", ".join(TEMPLATES)


def parse_profile(text: str | Profile | None) -> Profile:
    """A profile from ``"4 3 3 3 3 1 3 1 7"``, ``"WS4 S4 T3"`` (rest Human, 000:243) or a template name."""
    if isinstance(text, Profile):
        return text
    if text is None or not str(text).strip():
        return TEMPLATES["human"]
    raw = str(text).strip()
    if len(raw) > 200:
        raise LimitExceeded("That profile is too long (200 characters at most).", hint=_HOW)
    key = raw.lower()
    if key in TEMPLATES:
        return TEMPLATES[key]
    tokens = raw.replace(",", " ").replace("/", " ").split()
    if all(re.fullmatch(r"-?\d+", t) for t in tokens):
        if len(tokens) != 9:
            raise MordheimError(f"A profile needs 9 values (M WS BS S T W I A Ld); you gave {len(tokens)}.", hint=_HOW)
        return Profile(*(int(t) for t in tokens))
    values: dict[str, int] = {}
    for t in tokens:
        m = _NAMED.match(t)
        if not m:
            if t.isalpha():
                from rapidfuzz import process

                close = [c[0] for c in process.extract(t.lower(), list(TEMPLATES), limit=3, score_cutoff=50)]
                raise NotFoundError(f"'{t[:30]}' is not a characteristic or a profile template.", suggestions=close, hint=None if close else _HOW)
            raise MordheimError(f"I could not read '{t[:30]}' in the profile.", hint=_HOW)
        name = m.group(1).upper()
        name = "Ld" if name == "LD" else name
        if name in values:
            raise MordheimError(f"{name} is given twice in the profile.", hint=_HOW)
        values[name] = int(m.group(2))
    return replace(TEMPLATES["human"], **values)
