"""How the lookup ranks entries for a query: by the names the query holds, by the text that
answers it, and, for a question, by what it asks about.

``library.RulesLibrary`` reads the query (mended, rewritten) and finds the text relevance; this
module scores names and blends the two. Every weight is named here, with the query that shows
why it is there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process, utils

from .models import CATALOGUE_KINDS, Entry
from .text import key, stem

# A name whose words all appear in the question scores NAMED_BASE, plus up to NAMED_COVERAGE
# for the share of the question's words it accounts for.
NAMED_BASE = 35.0
NAMED_COVERAGE = 60.0
EXACT_NAME_SCORE = 100.0  # the name itself, once misspelt words are mended ("sowrd")
REWRITTEN_NAME_SCORE = 98.0  # the name once stop words drop: "who stries first" is Who strikes first, not Strike first
NAME_START_SCORE = 92.0  # typing the start of a name, less the half of each letter left untyped (at most NAME_START_RANGE)
NAME_START_RANGE = 12.0
INSIDE_NAME_SCORE = 85.0  # the query inside a name
FUZZY_TWO_WORDS_CAP = 80.0
SHORT_NAME_PENALTY = 15.0  # a fuzzy match to a name of under four letters
SAME_NAME_YIELD = 10.0
# An entry of the warband data (a list, hired sword, skill, list rule or item) found by less than its
# whole name as it stands (its start, a part, its words scattered, a guess) yields to the rulebooks'
# names: "poison" is Poisons and drugs, not the Poisoner rule.
CATALOGUE_NAME_YIELD = 12.0
# A skill or list rule named by one plain word ("Dodge", "Leap", "Stubborn") found among a question's
# words is seldom what the question asks about; a list, a hired sword or a character named is.
CATALOGUE_ONE_WORD_YIELD = 20.0
PLAIN_WORD_KINDS = frozenset({"skill", "warband-rule"})
# A list's, hired sword's or character's name is a proper name even of one word ("Freelancer", "Bard"):
# found whole in the query it names the entry as fully as a longer name would ("what is the upkeep of
# a freelancer" asks about the Freelancer, not the upkeep rule).
PROPER_NAME_KINDS = frozenset({"warband", "hired-sword", "dramatis-persona"})
# A query naming an entry beside what it belongs to (Entry.home: an item's list, a list's book) names the
# entry as fully as its whole name alone: "clan pestilens censer" and "plague censer" (Plague Monks is the
# Pestilens list's other name) are the Censer, not the list nor the Plague Cart. Naming only part of the
# name beside them ("nemesis crown dwarfs": the Dwarf Rangers) loses this share of the coverage for the
# share of the name's words left out. Such a query is a name, not a question, however many its words
# (unless typed as a question): its text weighs as a short query's.
HOME_PART_NAME_SHARE = 0.25
# Its text counts this share unless the query names it whole, and half of it when the query does not name
# it at all: its text names the rules' words everywhere ("shoot", "charge", "out of action"), so a question
# about the rules is answered by the rules; "who can hire aenur" names the entry that answers it.
CATALOGUE_TEXT_SHARE = 0.6
CATALOGUE_UNNAMED_TEXT_SHARE = 0.5
# Words of a characteristic, as the query rewriter leaves them ("bs" -> "ballistic skill").
CHARACTERISTIC_WORDS = frozenset({"movement", "skill", "strength", "toughness", "wounds", "wound", "initiative",
                                  "attacks", "attack", "leadership", "m", "s", "t", "w", "i", "a"})

# How much the text counts against the names: a name or two are looked up by name, a question by its text.
SHORT_TEXT_WEIGHT = 0.25
QUESTION_TEXT_WEIGHT = 0.7
QUESTION_WORDS = 3  # a query of this many content words is read as a question, however it is typed
NAMED_AND_TOLD_NAME, NAMED_AND_TOLD_TEXT, NAMED_AND_TOLD_BONUS = 85.0, 50.0, 5.0  # a name its text bears out

# A question's topic (engine/rules/questions.py): sections of the chapter it asks about gain
# TOPIC_BONUS; sections of other chapters keep OFF_TOPIC_SHARE of their score.
TOPIC_BONUS = 12.0
OFF_TOPIC_SHARE = 0.8
# An item the question does not name keeps this share of its text relevance when the question asks
# about another chapter or names another item ("leader out of action" is not about the silk cloak).
UNNAMED_ITEM_TEXT_SHARE = 0.6
PHRASE_NAME_BONUS = 8.0  # a name of two words or more, typed ("shooting into combat": Closest target)
ITEM_SUBJECT_BONUS = 20.0  # the item a question asks about ("do flails strike first": Flail)
CHAPTER_SHARE = 0.85  # a chapter's opening answers a question less often than a section of it
SPECIAL_RULE_YIELD = 20.0  # a weapon's special rule, not named as it stands, yields to the weapon or section
SPECIAL_RULES = "special-rules"
ITEM_KINDS = frozenset({"weapon", "armour", "equipment", "spell", "background", "warband-item"})
OWNED_KINDS = frozenset({"weapon", "armour", "equipment", "warband-item"})  # what a warrior carries
INSTRUMENT_WORDS = frozenset({"with", "using", "wield"})  # as stemmed: "hit with a bow", "wielding two swords"
QUESTION_WORDS_DROPPED = frozenset({"what", "whats", "how", "when", "where", "which", "who", "why", "is", "are", "do",
                                    "does", "can", "i", "about", "explain", "tell", "show"})
DETERMINERS = frozenset({"a", "an", "the", "my", "his", "her", "their", "your", "two", "both", "each", "one"})


@dataclass(frozen=True)
class Query:
    """A query as the ranking sees it."""

    raw: str  # as the rules spell it (misspellings mended), stop words kept
    rewritten: str  # abbreviations expanded, stop words dropped
    asked: bool  # typed as a question ("do flails strike first")
    topic: str | None  # the chapter a question asks about
    dropped: frozenset[str] = frozenset()  # the stop words typed, that the rewriter dropped ("to" of "to hit")

    @property
    def words(self) -> list[str]:
        return (self.rewritten or self.raw).split()

    @property
    def question(self) -> bool:
        """Ranked as a question: a question of few content words ("can i choose to rout") still is."""
        return len(self.words) >= QUESTION_WORDS


@dataclass
class NameMatches:
    """The entries a query names, and how."""

    score: dict[str, float] = field(default_factory=dict)
    by_phrase: set[str] = field(default_factory=set)  # by a name of two words or more, as typed
    first_at: dict[str, int] = field(default_factory=dict)  # where in the query the name starts
    as_subject: set[str] = field(default_factory=set)  # other than as what something is done with
    weak: set[str] = field(default_factory=set)  # warband-data entries named by less than their whole name
    by_home: set[str] = field(default_factory=set)  # named by their names and what they belong to, every word

    def named(self, eid: str) -> bool:
        return self.score.get(eid, 0.0) >= NAMED_BASE


def match_names(query: Query, name_keys: list[str], name_words: list[frozenset[str]], name_ids: list[str],
                entries: dict[str, Entry], homes: Mapping[str, frozenset[str]] | None = None) -> NameMatches:
    """Score every name (title or alias) of the scope against the query; the best name of an entry counts.

    A name typed from its start, a name whose words are all in the question (scored by how much of
    the question it covers, so "to hit chart" beats "chart"; the words of what the entry belongs to,
    ``homes``: entry id -> stemmed words of its Entry.home, count as covered), or the question inside
    a name; failing all of those, a fuzzy match of a one- or two-word query."""
    homes = homes or {}
    q, raw = query.rewritten or query.raw, query.raw
    qwords = q.split()
    # "bs 4", "toughness 4 with strength 3": a characteristic followed by a number is a value in
    # the question, not what it is about, so it names no entry (the text still counts it).
    valued = {k for k, w in enumerate(qwords[:-1])
              if qwords[k + 1].isdigit() and qwords[k + 1] != "0" and w in CHARACTERISTIC_WORDS}  # WS 0 is a rule
    qset = {stem(w) for k, w in enumerate(qwords) if k not in valued}
    qstems = [stem(w) for w in qwords]
    typed = [stem(w) for w in raw.split()]
    typed_set = set(typed)
    # the words the rewriter dropped besides articles: "to hit chart" is not inside Critical hit chart
    dropped_inside = bool(query.dropped - DETERMINERS - QUESTION_WORDS_DROPPED)
    found = NameMatches()
    named_by: dict[str, set[str]] = {}  # the names found in the question, and whose names they are
    weak = found.weak  # warband-data entries named by less than a whole name: they do not stop the guessing below
    for k, kw, eid in zip(name_keys, name_words, name_ids):
        if not k:
            continue
        s, by_words, homed, by_home = 0.0, False, False, False
        home = homes.get(eid, frozenset())
        if k == raw:
            s = EXACT_NAME_SCORE
        elif k == q:
            s = REWRITTEN_NAME_SCORE
        elif k.startswith(q) or k.startswith(raw):
            s = NAME_START_SCORE - min(NAME_START_RANGE, (len(k) - len(q)) / 2)
        elif kw and kw <= qset and max(len(w) for w in kw) >= 3:
            rest = qset - kw
            homed = bool(rest) and rest <= home and f" {k} " in f" {raw} "
            s = NAMED_BASE + NAMED_COVERAGE * (1.0 if homed else len(kw) / len(qset))
            if len(kw) == 1 and entries[eid].kind in PLAIN_WORD_KINDS:
                s -= CATALOGUE_ONE_WORD_YIELD
            named_by.setdefault(k, set()).add(eid)
            if len(kw) >= 2 and kw <= typed_set:  # not a name the rewriter made of one word ("profile")
                found.by_phrase.add(eid)
            at = min(n for n, w in enumerate(qstems) if w in kw)
            found.first_at[eid] = min(at, found.first_at.get(eid, at))
            if not any(_after_instrument_word(typed, n) for n, w in enumerate(typed) if w in kw):
                found.as_subject.add(eid)
            by_words = f" {k} " in f" {raw} "  # the whole name, as it stands, in the question
        elif kw and qset & home and qset - home and qset - home <= kw and max(map(len, qset - home)) >= 3:
            # part of its name and nothing but what it belongs to: "nemesis crown dwarfs" (the Dwarf
            # Rangers, the Nemesis Crown's dwarfs), "plague monks banner" (the Clan Pestilens banner)
            s = NAMED_BASE + NAMED_COVERAGE * (1 - HOME_PART_NAME_SHARE * len(kw - qset) / len(kw))
            by_home = True
        elif f" {q} " in f" {k} " and (f" {raw} " in f" {k} " or not dropped_inside):
            s = INSIDE_NAME_SCORE
        whole = by_home or by_words and (len(kw) > 1 or entries[eid].kind in PROPER_NAME_KINDS or homed)
        partial = bool(s) and s < REWRITTEN_NAME_SCORE and entries[eid].kind in CATALOGUE_KINDS and not whole
        if partial and not by_words:
            s -= CATALOGUE_NAME_YIELD
        if homed or by_home:
            found.by_home.add(eid)
        if s > found.score.get(eid, 0.0):
            found.score[eid] = s
            if partial:  # its best name so far is only part of what was typed
                weak.add(eid)
            else:
                weak.discard(eid)
    # As in lookup_exact: an entry gathered from the weapons' special rules yields to a rules
    # section of the very same name ("do chargers strike first": Who strikes first).
    for ids in named_by.values():
        if any(entries[i].chapter != SPECIAL_RULES for i in ids):
            for i in ids:
                if entries[i].chapter == SPECIAL_RULES:
                    found.score[i] -= SAME_NAME_YIELD
    if not any(found.named(i) for i in found.score if i not in weak):  # no name in the question: guess at misspelt ones
        for choice, score, idx in _fuzzy(q, len(qset), name_keys):
            eid = name_ids[idx]
            score -= 0.0 if len(choice) >= 4 or choice == q else SHORT_NAME_PENALTY
            score -= CATALOGUE_NAME_YIELD if entries[eid].kind in CATALOGUE_KINDS else 0.0
            if score > found.score.get(eid, 0.0):
                found.score[eid] = score
    return found


def _fuzzy(q: str, words: int, name_keys: list[str]) -> list[tuple[str, float, int]]:
    if words == 1:  # one word: WRatio also scores a name that merely contains it
        return process.extract(q, name_keys, scorer=fuzz.WRatio, processor=utils.default_process,
                               limit=30, score_cutoff=50)
    if words == 2:  # two words ("elven bow"): both must look like the name
        return [(c, min(s, FUZZY_TWO_WORDS_CAP), i) for c, s, i in process.extract(
            q, name_keys, scorer=fuzz.token_sort_ratio, processor=utils.default_process, limit=30, score_cutoff=70)]
    return []


def blend(query: Query, names: NameMatches, text_rel: dict[str, float], entries: dict[str, Entry]) -> dict[str, float]:
    """One score per entry from its name score and its text relevance, weighed for a question by
    what it asks about."""
    question = query.question and (query.asked or not names.by_home)
    w_text = QUESTION_TEXT_WEIGHT if question else SHORT_TEXT_WEIGHT
    # a question that names an item ("does a shield help against arrows") is about that item
    item_named = question and any(names.named(i) and _is_item(entries[i]) for i in names.score)
    # the first thing a warrior carries that a question names, other than as what something is
    # done with, is what it asks about ("is a lance any good without a horse": Lance)
    subjects = {i for i in names.as_subject if entries[i].kind in OWNED_KINDS and not entries[i].is_chapter}
    first_subject = min((names.first_at[i] for i in subjects), default=None)
    combined: dict[str, float] = {}
    for eid in set(names.score) | set(text_rel):
        entry = entries[eid]
        by_name, text = names.score.get(eid, 0.0), text_rel.get(eid, 0.0)
        off_topic = query.topic is not None and entry.chapter != query.topic
        if (off_topic or item_named) and _is_item(entry) and not names.named(eid):
            text *= UNNAMED_ITEM_TEXT_SHARE
        if entry.kind in CATALOGUE_KINDS and (eid in names.weak or not names.named(eid)):
            text *= CATALOGUE_TEXT_SHARE * (1.0 if names.named(eid) else CATALOGUE_UNNAMED_TEXT_SHARE)
        score = (1 - w_text) * by_name + w_text * text
        if by_name >= NAMED_AND_TOLD_NAME and text >= NAMED_AND_TOLD_TEXT:
            score += NAMED_AND_TOLD_BONUS
        if question:
            score = _as_answer(score, entry, eid, query, names, off_topic)
        if query.asked and eid in subjects and names.first_at[eid] == first_subject:
            score += ITEM_SUBJECT_BONUS
        combined[eid] = score
    return combined


def _as_answer(score: float, entry: Entry, eid: str, query: Query, names: NameMatches, off_topic: bool) -> float:
    """``score`` weighed by how well the entry answers what the question asks about."""
    if query.topic is not None and not off_topic:
        score += TOPIC_BONUS
    elif off_topic and not _is_item(entry):
        score *= OFF_TOPIC_SHARE
    if eid in names.by_phrase:
        score += PHRASE_NAME_BONUS
    if entry.is_chapter:
        score *= CHAPTER_SHARE
    if entry.chapter == SPECIAL_RULES and f" {key(entry.title)} " not in f" {query.raw} ":
        # a weapon's special rule answers a question that names it as it stands ("what does
        # move or fire mean"); otherwise the weapon or the rules section says it in full
        score -= SPECIAL_RULE_YIELD
    return score


def _after_instrument_word(words: list[str], at: int) -> bool:
    """True when ``words[at]`` is what something is done with: "hit with a bow", "using two swords"."""
    before = at - 1
    while before >= 0 and words[before] in DETERMINERS:
        before -= 1
    return before >= 0 and words[before] in INSTRUMENT_WORDS


def _is_item(e: Entry) -> bool:
    """A weapon, armour, item, spell or weapon's special rule: a thing a warrior has, not a rule of play."""
    return not e.is_chapter and (e.kind in ITEM_KINDS or e.chapter == SPECIAL_RULES)
