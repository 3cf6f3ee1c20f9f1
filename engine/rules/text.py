"""Turning what a player types into something the index can match.

Abbreviations and stop words come from rules_data/overlay/synonyms.json so they can be
reviewed with the rest of the curated data.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_WORD = re.compile(r"[a-z0-9]+(?:['+][a-z0-9]+)*")
# Words whose trailing "s" is not a plural.
_KEEP_S = {"bs", "ws", "ss", "is", "was", "has", "its", "this", "us", "yes", "gas", "lotus",
           "cross", "less", "chaos", "bonus", "minus", "plus", "status", "us", "aramar", "arha",
           "ithilmar", "gromril", "bugmans", "his", "as", "does", "miss", "lens", "apparatus"}


def fold(text: str) -> str:
    """Lower-case, strip accents, unify quotes and dashes."""
    if text.isascii():
        return text.lower()  # nothing to strip or unify: most text, and far quicker
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.lower().replace("’", "'").replace("‘", "'").replace("–", "-").replace("—", "-")
    return text


def words(text: str) -> list[str]:
    return _WORD.findall(fold(text).replace("-", " ").replace("/", " "))


@lru_cache(maxsize=1 << 16)  # the same few thousand words, over every name and query
def singular(word: str) -> str:
    if len(word) <= 3 or word in _KEEP_S or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us")):
        return word[:-1]
    return word


_SUFFIXES = ("ing", "ed", "es", "e", "s")


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A rough stem, so a name and a question meet whatever the ending: move, moving, moved -> mov;
    charge, charging -> charg; run, running -> run. Only for comparing words, never shown."""
    if len(word) <= 3 or not word.isalpha():
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiousl":
        word = word[:-1]  # runn -> run, but keep "skill", "pass"
    return word


@lru_cache(maxsize=1 << 16)  # every name is keyed for each edition's scope, and again by the warband entries
def key(text: str) -> str:
    """Canonical form for matching names: folded words, singular, joined by spaces."""
    return " ".join(singular(w) for w in words(text))


# A count typed as a numeral or as a word is the same to a player: "2 handed" is "two handed".
_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6"}
_NUMERALS = {v: k for k, v in _NUMBER_WORDS.items()}


# A numeral counting the plural word after it ("2 weapons", "3 models"), not a value ("strength 3").
_COUNTED = re.compile(r"(?<![\w.])([1-6])\s+(?=[a-z]+s\b)")


def _count_in_words(m: re.Match[str]) -> str:
    return _NUMERALS[m.group(1)] + " "


def _numeral_variants(phrase: str) -> list[str]:
    """``phrase`` with each count swapped between numeral and word ("two handed" -> "2 handed");
    empty for a phrase of one word or with no count."""
    ws = phrase.split()
    if len(ws) < 2 or not any(w in _NUMBER_WORDS or w in _NUMERALS for w in ws):
        return []
    return [" ".join(_NUMBER_WORDS.get(w) or _NUMERALS.get(w) or w for w in ws)]


class QueryRewriter:
    def __init__(self, synonyms: dict[str, str], stopwords: list[str]) -> None:
        self.stop = {key(w) for w in stopwords} | set(stopwords)
        given = {key(k): key(v) for k, v in synonyms.items() if not k.startswith("_")}
        # a phrase with a count also reads with the count written the other way, unless given apart
        variants = {alt: v for k, v in given.items() for alt in _numeral_variants(k) if alt not in given}
        # Longest phrases first so "two handed" wins over "two".
        self.phrases = sorted({**given, **variants}.items(), key=lambda kv: (-len(kv[0].split()), kv[0]))
        self.single = {k: v for k, v in self.phrases if " " not in k}
        self.multi = [(k, v) for k, v in self.phrases if " " in k]
        # the words this rewriter knows: never "mended" into other words
        self.known = frozenset(self.stop) | frozenset(w for k, _ in self.phrases for w in k.split())

    def rewrite(self, text: str) -> str:
        """Abbreviations expanded, stop words dropped, plurals folded (keeps order); a count of
        things typed as a numeral is read as the rules write it ("2 weapons": two weapons)."""
        k = " " + key(_COUNTED.sub(_count_in_words, fold(text))) + " "
        for phrase, repl in self.multi:
            if f" {phrase} " in k:
                k = k.replace(f" {phrase} ", f" {repl} ")
        out: list[str] = []
        for w in k.split():
            w = self.single.get(w, w)
            for part in w.split():
                if part and part not in self.stop:
                    out.append(part)
        return " ".join(out)

    def content_words(self, text: str) -> list[str]:
        return self.rewrite(text).split()
