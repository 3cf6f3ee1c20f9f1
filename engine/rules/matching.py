"""Reading what a player typed as the words the rules use: misspelt words mended, words typed
apart joined ("soul fire" -> soulfire, "gnaw doom" -> gnawdoom) and words typed together split
("darkblood" -> dark blood).

The speller knows only the rules' own text: every word of every entry, which words make up the
names (titles and aliases), and which pairs of words stand side by side in them. Nothing here is
about one query: a join needs the joined word to be a name's word, a split needs the two halves
to stand side by side somewhere in the rules, and a mended word is the closest word the rules
use, preferring one that names something together with the other words typed.
"""

from __future__ import annotations

import bisect
import math
from collections import Counter
from functools import lru_cache
from typing import Iterable

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from .text import words

MIN_MENDED_LENGTH = 4  # shorter words are abbreviations ("bs", "kd") or too short to guess at
MIN_WORD_LENGTH = 3  # the vocabulary a word is mended into
# How alike a misspelt word and a rules' word must be, 0-1: the better of the optimal string
# alignment similarity (a swapped pair of letters is one slip: "rfile" -> rifle) and rapidfuzz's
# ratio (generous to a dropped letter: "blck" -> black). Candidates are ranked by the mean of the two.
MEND_CUTOFF = 0.8
CANDIDATE_CUTOFF = 75  # rapidfuzz ratio, to gather the words worth comparing closely
CANDIDATES = 8
# A candidate that names something together with another word typed ("hochlnad long rfile":
# rifle, of Hochland long rifle, rather than profile) is that much likelier.
CONTEXT_BONUS = 0.05
# Between two words as alike, the one that is part of a name ("phasses": phases, not passes),
# then the one the rules use more often ("laeders": leaders, not ladders).
NAME_WORD_PREFERENCE = 0.01
COMMON_WORD_PREFERENCE = 0.005
MIN_SPLIT_PART = 2  # "wingsof" -> wings of: a name's bigram may hold a short word
MIN_BODY_SPLIT_PART = 3  # a pair only found in the text must be of two real words
MIN_FUZZY_JOIN_LENGTH = 7  # "gnaw dom" -> gnawdoom: a misspelt join must be long enough to be sure of
# A word the rules lack is still a word ("griffon", "blorp": its nearest names are worth offering) when
# at least this share of its three-letter runs occur in the rules' words; keyboard mashing
# ("qwertyuiop" 0.38, "asdfgh" 0) falls below it.
WORDLIKE_SHARE = 0.5


class Speller:
    """Mends, joins and splits the words of a query into the words of the rules."""

    def __init__(self, name_texts: Iterable[str], body_texts: Iterable[str], known: frozenset[str]) -> None:
        """``name_texts``: every title and alias; ``body_texts``: every entry's plain text;
        ``known``: words the query rewriter understands (abbreviations, stop words), never mended."""
        names = [words(t) for t in name_texts]
        bodies = [words(t) for t in body_texts]
        self._known = known
        self._name_words = frozenset(w for ws in names for w in ws)
        self._name_pairs = frozenset(p for ws in names for p in zip(ws, ws[1:]))
        self._body_pairs = frozenset(p for ws in bodies for p in zip(ws, ws[1:]))
        uses = Counter(w for ws in (*names, *bodies) for w in ws if len(w) >= MIN_WORD_LENGTH and not w.isdigit())
        self._vocab = sorted(uses)
        self._vocab_set = frozenset(uses)
        self._trigrams = frozenset(w[i:i + 3] for w in self._vocab for i in range(len(w) - 2))
        most = max(uses.values(), default=1)
        self._commonness = {w: math.log1p(n) / math.log1p(most) for w, n in uses.items()}  # 0-1
        # the words each name word shares a name with, to read a misspelt word in its context
        partners: dict[str, set[str]] = {}
        for ws in names:
            for w in ws:
                partners.setdefault(w, set()).update(x for x in ws if x != w)
        self._partners = {w: frozenset(p) for w, p in partners.items()}

    def is_word(self, w: str) -> bool:
        """True for a word of the rules or one the query rewriter knows."""
        return w in self._vocab_set or w in self._known

    def is_gibberish(self, w: str) -> bool:
        """True for letters that are no word: not a number, not a word of the rules or the rewriter,
        not the start of one ("shie"), and not shaped like one (WORDLIKE_SHARE). A misspelt word is
        mended before it is asked about."""
        if w.isdigit() or self.is_word(w):
            return False
        at = bisect.bisect_left(self._vocab, w)
        if at < len(self._vocab) and self._vocab[at].startswith(w):
            return False
        runs = [w[i:i + 3] for i in range(len(w) - 2)]
        return not runs or sum(r in self._trigrams for r in runs) < WORDLIKE_SHARE * len(runs)

    def readings(self, text: str) -> list[tuple[str, str]]:
        """Each piece of ``text`` as typed and as the rules spell it, in order: two words typed
        apart may read as one ("soul fire", "soulfire"), one word as two ("darkblood",
        "dark blood"), a misspelt word as the closest the rules use ("rfile", "rifle")."""
        pieces = [(typed, self._halves(joined)) for typed, joined in self._join(words(text))]
        # a word is mended in the context of the other words, each as it reads on its own
        alone = [self._mend(w, frozenset()) for _, read in pieces for w in read]
        out, n = [], 0
        for typed, read in pieces:
            mended = []
            for w in read:
                mended.append(self._mend(w, frozenset(alone[:n] + alone[n + 1:])))
                n += 1
            out.append((typed, " ".join(mended)))
        return out

    def mend(self, text: str) -> str:
        """``text`` as the rules spell it (see ``readings``), words separated by spaces."""
        return " ".join(read for _, read in self.readings(text))

    def corrections(self, text: str) -> list[tuple[str, str]]:
        """The pieces ``readings`` changed, as (typed, read as) pairs, to tell the player."""
        return list(dict.fromkeys((typed, read) for typed, read in self.readings(text) if typed != read))

    # ------------------------------------------------------------ joining and splitting

    def _join(self, typed: list[str]) -> list[tuple[str, str]]:
        """(typed, read) pairs: two adjacent words read as one name's word ("soul fire")."""
        out: list[tuple[str, str]] = []
        n = 0
        while n < len(typed):
            if n + 1 < len(typed):
                joined = self._joined(typed[n], typed[n + 1])
                if joined:
                    out.append((f"{typed[n]} {typed[n + 1]}", joined))
                    n += 2
                    continue
            out.append((typed[n], typed[n]))
            n += 1
        return out

    def _joined(self, a: str, b: str) -> str | None:
        if a.isdigit() or b.isdigit() or (a, b) in self._name_pairs:
            return None  # "long bow" is a name as typed
        together = a + b
        if together in self._name_words:
            return together
        if len(together) >= MIN_FUZZY_JOIN_LENGTH and not (self.is_word(a) and self.is_word(b)):
            # a slip in a joined word, not a word swallowing its neighbour ("charcateristic tests")
            mended = self._mend(together, frozenset())
            if mended in self._name_words and OSA.normalized_similarity(together, mended) >= MEND_CUTOFF:
                return mended
        return None

    @lru_cache(maxsize=8192)
    def _halves(self, w: str) -> tuple[str, ...]:
        """A word typed without its space ("darkblood") as the two words the rules have side by side."""
        if self.is_word(w) or w.isdigit() or len(w) < 2 * MIN_SPLIT_PART:
            return (w,)
        best: tuple[str, str] | None = None
        for cut in range(MIN_SPLIT_PART, len(w) - MIN_SPLIT_PART + 1):
            pair = (w[:cut], w[cut:])
            in_names = pair in self._name_pairs
            in_text = pair in self._body_pairs and min(map(len, pair)) >= MIN_BODY_SPLIT_PART
            if (in_names or in_text) and (best is None or min(map(len, pair)) > min(map(len, best))):
                best = pair
        return best or (w,)

    # ------------------------------------------------------------ mending

    @lru_cache(maxsize=8192)
    def _candidates(self, w: str) -> tuple[tuple[str, float], ...]:
        """The rules' words ``w`` may be a slip for, with how alike they are, most alike first;
        empty for a word the rules use, a short word or a number."""
        if len(w) < MIN_MENDED_LENGTH or w.isdigit() or self.is_word(w):
            return ()
        found = []
        for choice, ratio, _ in process.extract(w, self._vocab, scorer=fuzz.ratio, limit=CANDIDATES,
                                                score_cutoff=CANDIDATE_CUTOFF):
            aligned = OSA.normalized_similarity(w, choice)
            if max(aligned, ratio / 100) >= MEND_CUTOFF:
                named = NAME_WORD_PREFERENCE if choice in self._name_words else 0.0
                common = COMMON_WORD_PREFERENCE * self._commonness[choice]
                found.append((choice, (aligned + ratio / 100) / 2 + named + common))
        found.sort(key=lambda c: -c[1])
        return tuple(found)

    def _mend(self, w: str, context: frozenset[str]) -> str:
        candidates = self._candidates(w)
        if not candidates:
            return w
        if not context:
            return candidates[0][0]
        return max(candidates,
                   key=lambda c: c[1] + (CONTEXT_BONUS if self._partners.get(c[0], frozenset()) & context else 0.0))[0]
