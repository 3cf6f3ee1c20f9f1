"""Matching a name a member types to the names the bot knows: the choices an autocomplete offers as he
types, best first, and the few names a "did you mean" offers when nothing has the name he typed.

As avrae's ``search`` and sir-lancebot do it: a name that starts with what was typed, then one of its
words that does, then the words anywhere; a guess at a misspelling only past a cut-off, so that a weak
match offers nothing rather than something unlike what was typed ("Nope" is not "New Pirates").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz

_WORD = re.compile(r"[a-z0-9]+")

# How like a name a typed word or phrase must be to be offered as "did you mean", 0-100: the
# better of the whole name and its words alike (two letters swapped in a name of four is 75, "Hnas"
# for Hans; "Nope" against "New" is 57, "cutlas" against "claws" 73, "cutlass" against "biscuits" 40).
CLOSE_ENOUGH = 75.0
STARTS_NAME, STARTS_WORD = 100.0, 90.0  # "iron" for Iron Wolves; "hans" for AC/DC/Hans


def name_words(text: str) -> list[str]:
    """The words of a name as they are compared: case, hyphens, slashes and apostrophes do not
    matter, nor accents ("Cat o' nine tails": cat, o, nine, tails; "AC/DC/Hans": ac, dc, hans; "Günter": gunter)."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    return _WORD.findall("".join(c for c in folded if not unicodedata.combining(c)).replace("'", "").replace("’", ""))


def _starts_words(typed: list[str], words: list[str]) -> bool:
    """True when the typed words are, in order, the start of the name's words from one of them
    (the last typed word may be cut short: "dwarf ran" for Dwarf Rangers)."""
    n = len(typed)
    for at in range(len(words) - n + 1):
        window = words[at:at + n]
        if window[:-1] == typed[:-1] and window[-1].startswith(typed[-1]):
            return True
    return False


def closeness(typed: str, name: str) -> float:
    """How like ``name`` the ``typed`` text is, 0-100: 100 when the name starts with it, 90 when one of
    its words does, else the better of the whole name and its words of the same number spelt alike."""
    t, n = name_words(typed), name_words(name)
    if not t or not n:
        return 0.0
    if n[:len(t) - 1] == t[:-1] and len(n) >= len(t) and n[len(t) - 1].startswith(t[-1]):
        return STARTS_NAME
    if _starts_words(t, n):
        return STARTS_WORD
    joined_t, joined_n = " ".join(t), " ".join(n)
    best = max(fuzz.ratio(joined_t, joined_n), fuzz.token_sort_ratio(joined_t, joined_n))
    for at in range(len(n) - len(t) + 1):  # a slip in some words of a longer name: "Fiftene" for Fifteen Blades
        best = max(best, fuzz.ratio(joined_t, " ".join(n[at:at + len(t)])))
    return float(best)


def closest(names: Iterable[str], typed: str, limit: int = 5, cutoff: float = CLOSE_ENOUGH) -> list[str]:
    """The ``limit`` names closest to ``typed`` that are close enough, closest first (ties in the order
    given); none when nothing is."""
    scored = [(closeness(typed, name), n, name) for n, name in enumerate(dict.fromkeys(names))]
    scored = [s for s in scored if s[0] >= cutoff]
    scored.sort(key=lambda s: (-s[0], s[1]))
    return [name for _, _, name in scored[:limit]]


@dataclass(frozen=True)
class Choice:
    """One thing an autocomplete may offer: its name, its other names, and words it may also be found
    by (a list's book: "nemesis" offers the Nemesis Crown's lists), with what to show and send."""

    name: str
    others: tuple[str, ...]
    also: str
    label: str
    value: str
    # Worked out once, for a keystroke ranks them all, so that each test below is one search of a
    # string: its name's words joined by single spaces, its other names each after "\n " (a typed
    # phrase, which holds no "\n", is found within one name), and every word it is found by, each
    # after a space.
    _name: str = field(init=False, repr=False, compare=False)
    _others: str = field(init=False, repr=False, compare=False)
    _every: str = field(init=False, repr=False, compare=False)
    _pool: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        name, *others = (" ".join(name_words(n)) for n in (self.name, *self.others))
        words = {w for n in (name, *others) for w in n.split()} | set(name_words(self.also))
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_others", "".join("\n " + n for n in others))
        object.__setattr__(self, "_every", "\n " + name + self._others)
        object.__setattr__(self, "_pool", "".join(" " + w for w in sorted(words)))

    def rank(self, typed: str | list[str]) -> int | None:
        """How well ``typed`` (text, or its ``name_words``) finds it, lower first: 0 its name starts with it,
        1 another name does, 2 a word of its name or another name does, 3 its names or the words it is also
        found by hold the start of every typed word, 4 a name holds it anywhere ("pir": Vampire); None when
        it does not find it. The last typed word may be cut short ("dwarf ran" for Dwarf Rangers)."""
        t = name_words(typed) if isinstance(typed, str) else typed
        if not t:
            return 0
        joined = " ".join(t)
        if self._name.startswith(joined):
            return 0
        if "\n " + joined in self._others:
            return 1
        if " " + joined in self._every:
            return 2
        if all(" " + _singular(x) in self._pool for x in t):
            return 3
        if joined in self._every:
            return 4
        return None


def _singular(word: str) -> str:
    """"dwarfs" finds Dwarf, "orcs" Orc."""
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def ranked_choices(choices: Sequence[Choice], typed: str, limit: int) -> list[Choice]:
    """The choices ``typed`` finds, best first (in the order given within a rank), at most ``limit``."""
    words = name_words(typed)
    found = [(r, n, c) for n, c in enumerate(choices) if (r := c.rank(words)) is not None]
    found.sort(key=lambda f: (f[0], f[1]))
    return [c for _, _, c in found[:limit]]
