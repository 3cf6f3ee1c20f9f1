"""The rules library: every entry of every edition, with name lookup, full-text search
and autocomplete.

Lookup order (as avrae's ``search`` and sir-lancebot do it): exact title, then alias,
then prefix / substring, then fuzzy (rapidfuzz WRatio) over titles and aliases, blended
with BM25 full-text relevance from an in-memory SQLite FTS5 index so that whole questions
("what happens when I fall 4 inches") find the section that answers them. A weak best
match gives a "did you mean" list instead of a guess; a query nothing comes close to is
marked ``unknown`` (the rules and data lack it), with the names spelt most like it.

What the player typed is first read as the rules spell it (engine/rules/matching.py: "soul
fire" is Soulfire, "hochlnad long rfile" the Hochland long rifle); a question is weighed by
the chapter it asks about (engine/rules/questions.py); names and text are scored and blended
in engine/rules/ranking.py.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from rapidfuzz import fuzz, process, utils

from engine.editions import all_editions, get_edition
from engine.errors import LimitExceeded, MordheimError, NotFoundError
from engine.storage.text_index import IndexedText, TextIndex

from .campaign import campaign_entries, rule_entries
from .warband_items import KIT_FILE, fight_sentences
from .warbands import catalogue_of, warband_entries
from .scenario_entries import scenario_entries
from .matching import Speller
from .questions import QuestionTopics, is_question
from .ranking import SPECIAL_RULES, Query, blend, match_names
from .models import CATALOGUE_KINDS, Entry, Hit, LookupResult, Source, Summary
from .text import QueryRewriter, fold, key, stem, words

RULES_DATA = Path(__file__).resolve().parent.parent.parent / "rules_data"

MAX_QUERY_CHARS = 300
CONFIDENT = 62.0  # below this the best match is offered as a suggestion, not an answer
SUGGESTED = 35.0  # and below this it is not offered at all
NEAREST_NAMES, NEAREST_CUTOFF = 5, 40  # when nothing is offered: the names spelt most like the query
ALL_WORDS_BONUS = 20.0
MIN_RANKED_NAME = 2  # a name shorter than this is found only when typed as it stands (lookup_exact)
MIN_SPACELESS_PREFIX = 4  # letters typed before names are completed whatever their spaces
FTS_CANDIDATES = 30  # entries the text search hands the ranking
CATALOGUE_CANDIDATES = 10  # and of the warband data's entries, ranked apart (see _fts)
CATALOGUE_SEARCH_SHARE = 0.6  # what a warband-data entry's text counts in /rules search, against the rules' text
FALLBACK_CHAPTERS = {"weapons": "weapons", "special-rules": "weapons", "equipment": "equipment", "magic": "magic",
                     "campaign": "campaign"}
FALLBACK_NAME = "the Living Rulebook 2005"


@dataclass
class _Scope:
    """What one edition can see: its own entries plus borrowed chapters."""

    ids: list[str]
    id_set: set[str]
    exact_titles: dict[str, list[str]]
    exact_aliases: dict[str, list[str]]
    name_keys: list[str]
    name_words: list[frozenset[str]]  # each name's content words, rewritten as queries are
    name_ids: list[str]
    sorted_names: list[tuple[str, str, str]]  # (lower display name, display name, id)
    sorted_lower: list[str]
    word_index: list[tuple[str, str, str]]
    # (display name without spaces or punctuation, display name, id), sorted: "soul f" and
    # "darkbl" complete Soulfire and Dark Blood
    spaceless: list[tuple[str, str, str]]
    shown: dict[str, str]  # entry id -> the name autocomplete shows


class RulesLibrary:
    def __init__(self, entries: list[Entry], synonyms: dict, version: str, topics: dict | None = None) -> None:
        self.version = version
        self._entries = {e.id: e for e in entries}
        self.rewriter = QueryRewriter(synonyms.get("synonyms", {}), synonyms.get("stopwords", []))
        self.topics = QuestionTopics((topics or {}).get("topics", {}), self.rewriter)
        self._editions = {e.id: e for e in all_editions()}
        # The rulebooks' entries and the warband data's are indexed apart, so the data's many texts
        # leave the rules' word weights (BM25) as they were; see _fts.
        rulebook = [e for e in entries if e.kind not in CATALOGUE_KINDS]
        self._index = self._build_fts(rulebook)
        self._catalogue_index = self._build_fts([e for e in entries if e.kind in CATALOGUE_KINDS])
        # reads a query's words as the rules spell them (engine/rules/matching.py): every name, the rules' words
        self.speller = Speller([n for e in entries for n in (e.title, *e.aliases)],
                               [_plain(e.body) for e in rulebook], self.rewriter.known)
        self._name_stems: dict[str, frozenset[str]] = {}
        # the words of what each entry belongs to (Entry.home), as a query's words are read; the same
        # few list names recur across hundreds of entries, so each is read once
        home_words = {n: frozenset(stem(w) for w in self.rewriter.content_words(n))
                      for n in dict.fromkeys(n for e in entries for n in e.home)}
        self._homes = {e.id: frozenset().union(*(home_words[n] for n in e.home)) for e in entries if e.home}
        self._scopes = {ed: self._build_scope(ed) for ed in self._editions}

    # ------------------------------------------------------------ loading

    @classmethod
    def load(cls, data_dir: Path | None = None) -> "RulesLibrary":
        data_dir = Path(data_dir) if data_dir else RULES_DATA
        files = sorted((data_dir / "entries").glob("*.json"))
        digest = hashlib.sha256()
        entries: list[Entry] = []
        for f in files:
            raw = f.read_bytes()
            digest.update(f.name.encode() + b"\0" + raw)
            for e in json.loads(raw)["entries"]:
                entries.append(_entry_from_json(e))
        spells = data_dir / "spells.json"
        if spells.exists():
            digest.update(b"spells.json\0" + spells.read_bytes())
        campaign = data_dir / "campaign" / "lrb.json"
        if campaign.exists():  # the campaign tables, as entries (engine/rules/campaign.py)
            raw = campaign.read_bytes()
            digest.update(b"campaign/lrb.json\0" + raw)
            entries += campaign_entries(json.loads(raw))
        campaign_rules = data_dir / "campaign" / "rules.json"
        if campaign_rules.exists():  # the campaign chapters' rules that are no table (engine/rules/campaign.py)
            raw = campaign_rules.read_bytes()
            digest.update(b"campaign/rules.json\0" + raw)
            entries += rule_entries(json.loads(raw))
        warbands = data_dir / "warbands"
        if warbands.is_dir():  # the warband lists, hired swords, characters, skills and items (engine/rules/warbands.py)
            for path in sorted(warbands.rglob("*.json")):
                digest.update(path.relative_to(data_dir).as_posix().encode() + b"\0" + path.read_bytes())
            kit = data_dir / KIT_FILE  # how a fight plays the lists' own items (engine/rules/warband_items.py)
            if kit.exists():
                digest.update(KIT_FILE.as_posix().encode() + b"\0" + kit.read_bytes())
            taken = {key(n) for e in entries if e.edition == "lrb" for n in _own_names(e)}  # the edition they join
            entries += warband_entries(catalogue_of(warbands), taken, fight_sentences(data_dir))
        scenarios = data_dir / "campaign" / "scenarios.json"
        if scenarios.exists():  # the scenarios and the underdog table, as entries (engine/rules/scenario_entries.py)
            raw = scenarios.read_bytes()
            digest.update(b"campaign/scenarios.json\0" + raw)
            entries += scenario_entries(json.loads(raw))
        synonyms = json.loads((data_dir / "overlay" / "synonyms.json").read_text(encoding="utf-8"))
        topics = json.loads((data_dir / "overlay" / "question_topics.json").read_text(encoding="utf-8"))
        return cls(entries, synonyms, digest.hexdigest()[:16], topics)

    @staticmethod
    def _build_fts(entries: list[Entry]) -> TextIndex:
        return TextIndex(IndexedText(id=e.id, edition=e.edition, title=e.title + " " + " ".join(e.path[:-1]),
                                     aliases=" ; ".join(e.aliases), body=_plain(e.body)) for e in entries)

    def _build_scope(self, edition: str) -> _Scope:
        ed = self._editions[edition]
        own = [e for e in self._entries.values() if e.edition == edition]
        borrowed = []
        if ed.fallback:
            borrowed = [e for e in self._entries.values()
                        if e.edition == ed.fallback and e.chapter in FALLBACK_CHAPTERS]
        scope_entries = sorted(own, key=lambda e: e.id) + sorted(borrowed, key=lambda e: e.id)
        exact_titles: dict[str, list[str]] = {}
        exact_aliases: dict[str, list[str]] = {}
        name_keys, name_words, name_ids = [], [], []
        stems = self._name_stems
        for e in scope_entries:
            exact_titles.setdefault(key(e.title), []).append(e.id)
            for n, name in enumerate((e.title, *e.aliases)):
                if n:
                    exact_aliases.setdefault(key(name), []).append(e.id)
                if len(key(name)) < MIN_RANKED_NAME:
                    continue  # a characteristic's letter ("T") names it typed alone, not inside other words
                name_keys.append(key(name))
                if name not in stems:  # the same names recur in every edition's scope
                    stems[name] = frozenset(stem(w) for w in self.rewriter.content_words(name))
                name_words.append(stems[name])
                name_ids.append(e.id)
        title_count: dict[str, int] = {}
        for e in scope_entries:
            title_count[e.title.lower()] = title_count.get(e.title.lower(), 0) + 1
        names = []
        for e in scope_entries:
            shown = self.display_name(e) if title_count[e.title.lower()] > 1 else e.title
            names.append((fold(shown), shown, e.id))
        names.sort()
        word_index = []
        for low, shown, eid in names:
            for w in words(low)[1:]:
                word_index.append((w, shown, eid))
        word_index.sort()
        spaceless = sorted((_spaceless(low), shown, eid) for low, shown, eid in names)
        return _Scope([e.id for e in scope_entries], {e.id for e in scope_entries}, exact_titles,
                      exact_aliases, name_keys, name_words, name_ids, names, [n[0] for n in names], word_index,
                      spaceless, {eid: shown for _, shown, eid in names})

    # ------------------------------------------------------------ small accessors

    def __len__(self) -> int:
        return len(self._entries)

    def entries(self, edition: str | None = None) -> list[Entry]:
        if edition is None:
            return list(self._entries.values())
        ed = get_edition(edition).id
        return [self._entries[i] for i in self._scopes[ed].ids]

    def get(self, entry_id: str) -> Entry:
        """The entry with this id; NotFoundError (with close ids) if there is none."""
        entry = self._entries.get(str(entry_id).strip())
        if entry is None:
            close = process.extract(str(entry_id)[:100], list(self._entries), scorer=fuzz.WRatio, limit=3)
            raise NotFoundError(f"There is no rules entry '{str(entry_id)[:60]}'.",
                                suggestions=[c[0] for c in close])
        return entry

    def display_name(self, entry: Entry) -> str:
        """Title, with its chapter when the title alone is ambiguous (e.g. 'Armour (Shooting)')."""
        if len(entry.path) > 1:
            return f"{entry.title} ({entry.path[0]})"
        return entry.title

    def counterparts(self, entry: Entry) -> list[tuple[Entry, bool]]:
        """The same topic in the other editions, and whether its text differs from this one."""
        return [(self._entries[i], differs) for i, differs in entry.counterparts if i in self._entries]

    def related(self, entry: Entry) -> list[Entry]:
        return [self._entries[i] for i in entry.related if i in self._entries]

    def fallback_note(self, entry: Entry, edition: str) -> str | None:
        if entry.edition == edition:
            return None
        chapter = FALLBACK_CHAPTERS.get(entry.chapter, entry.chapter)
        return f"{edition} has no {chapter} chapter; from {FALLBACK_NAME}"

    # ------------------------------------------------------------ lookup

    def lookup(self, query: str, edition: str | None = None) -> LookupResult:
        """Find the one entry a player means by ``query`` in ``edition`` (default lrb).

        Raises MordheimError for an empty query, LimitExceeded for an over-long one and
        NotFoundError for an unknown edition. A query with no letters or digits gives an
        empty result.
        """
        exact = self.lookup_exact(query, edition)
        if exact is not None:
            return exact
        ed = get_edition(edition).id
        result = self._lookup(query, ed)
        if result.entry is None and not result.unrecognised:
            elsewhere = self._elsewhere(query, ed)
            if elsewhere:
                return replace(result, elsewhere=elsewhere, unknown=False)
        return result

    def _elsewhere(self, query: str, ed: str) -> tuple[Entry, ...]:
        """The entries other editions name exactly ``query`` (by title or alias), one per edition."""
        found = []
        for other in self._editions:
            if other != ed:
                exact = self.lookup_exact(query, other)
                if exact is not None and exact.entry is not None and exact.entry.edition == other:
                    found.append(exact.entry)
        return tuple(found)

    def _lookup(self, query: str, ed: str) -> LookupResult:
        text = _check_query(query)
        scope = self._scopes[ed]
        mended = self.mend(text)
        raw = key(mended)
        rewritten = self.rewriter.rewrite(mended)
        ranked = self._rank(raw, rewritten, scope, ed, is_question(text))
        best_id, best_score = ranked[0] if ranked else (None, 0.0)
        if best_id is None or best_score < CONFIDENT:
            if all(self.speller.is_gibberish(w) for w in words(mended)):
                # no word at all ("qwertyuiop"): whatever scored, it is chance, not a near miss
                return LookupResult(None, round(best_score, 1), [], ed, None, text, unknown=True, unrecognised=True)
            sugg = [(self._entries[i], round(s, 1)) for i, s in ranked[:5] if s >= SUGGESTED]
            if all(self.speller.is_word(w) for w in (rewritten or raw).split()):
                # words the rules use, that no name holds: the passages holding every one of them come
                # first ("line of sight": 000:506, 000:1795; "cumbersome": the shield, 000:1297), before
                # names merely spelt like them
                holding = set(self._holding_all(rewritten or raw, scope))
                passages = [(self._entries[i], round(s, 1)) for i, s in ranked if i in holding]
                sugg = list({e.id: (e, s) for e, s in passages[:5] + sugg}.values())[:5]
            if not sugg:  # nothing comes close: the rules and data lack it; offer the names spelt most like it
                return LookupResult(None, round(best_score, 1), self._nearest_names(rewritten or raw, scope), ed, None,
                                    text, unknown=True)
            return LookupResult(None, round(best_score, 1), sugg, ed, None, text)
        suggestions = [(self._entries[i], round(s, 1)) for i, s in ranked[1:6]]
        return self._result(best_id, best_score, ed, text, suggestions)

    def _nearest_names(self, q: str, scope: _Scope) -> list[tuple[Entry, float]]:
        """The entries whose names are spelt most like ``q``, for a query nothing answers: a name that
        shares a word with it first ("hand of glory": Hand-to-hand, Hook hand), then by spelling alone."""
        typed = set(q.split())
        close = process.extract(q, scope.name_keys, scorer=fuzz.token_set_ratio, processor=utils.default_process,
                                limit=NEAREST_NAMES * 6, score_cutoff=NEAREST_CUTOFF)
        close.sort(key=lambda c: (not typed & set(c[0].split()), -c[1]))  # stable: the scorer's order within each
        found: dict[str, float] = {}
        for _, score, n in close:
            found.setdefault(scope.name_ids[n], round(score, 1))
        return [(self._entries[i], s) for i, s in list(found.items())[:NEAREST_NAMES]]

    def mend(self, text: str) -> str:
        """``text`` as the rules spell it: misspelt words mended ("hiden" -> "hidden"), words typed
        apart joined ("soul fire" -> "soulfire") and typed together split ("darkblood" -> "dark
        blood"); abbreviations players use are left alone."""
        return self.speller.mend(text)

    def corrections(self, text: str) -> list[tuple[str, str]]:
        """What ``mend`` changed, as (typed, read as) pairs, to tell the player."""
        return self.speller.corrections(text)

    def lookup_exact(self, query: str, edition: str | None = None) -> LookupResult | None:
        """``lookup``'s answer when ``query`` is a title or alias (or has no letters or digits);
        ``None`` when finding it needs the ranked search. Takes microseconds."""
        ed = get_edition(edition).id
        text = _check_query(query)
        scope = self._scopes[ed]
        if not words(text):
            return LookupResult(None, 0.0, [], ed, None, text)
        for k in dict.fromkeys([key(text), self.rewriter.rewrite(text)]):
            by_title, by_alias = scope.exact_titles.get(k, []), scope.exact_aliases.get(k, [])
            if by_title or by_alias:
                # A title beats an alias, except that an entry gathered from the weapons' special
                # rules yields to a rules section named the same ("strike first": Who strikes
                # first explains it, 000:665; the Strike first entry lists the weapons with it).
                best = min([*by_title, *by_alias], key=lambda i: (self._priority(i, ed)[:2], i not in by_title,
                                                                  self._priority(i, ed)))
                return self._result(best, 100.0 if best in by_title else 99.0, ed, text, [])
        return None

    def _result(self, eid: str, score: float, ed: str, text: str, sugg) -> LookupResult:
        entry = self._entries[eid]
        return LookupResult(entry, round(score, 1), sugg, ed, self.fallback_note(entry, ed), text)

    def _priority(self, eid: str, ed: str) -> tuple:
        e = self._entries[eid]
        return (e.edition != ed, e.chapter == SPECIAL_RULES, e.kind == "background", len(e.path), e.id)

    def _rank(self, raw: str, rewritten: str, scope: _Scope, ed: str, asked: bool) -> list[tuple[str, float]]:
        """Entries by how well they answer the query, best first (engine/rules/ranking.py): ``raw``
        is the query as the rules spell it, ``rewritten`` with abbreviations expanded and stop words
        dropped; ``asked`` when the player phrased it as a question ("do flails strike first")."""
        dropped = frozenset(w for w in raw.split() if w in self.rewriter.stop)
        query = Query(raw, rewritten, asked, None, dropped)
        if query.question:
            query = Query(raw, rewritten, asked, self.topics.topic(query.words), dropped)
        names = match_names(query, scope.name_keys, scope.name_words, scope.name_ids, self._entries, self._homes)
        text_rel = self._fts(rewritten or raw, scope, ed, limit=FTS_CANDIDATES)
        combined = blend(query, names, text_rel, self._entries)
        # ranked on the uncapped score (a cap would tie the best candidates); shown capped at 100
        ranked = sorted(combined.items(), key=lambda kv: (-kv[1], self._priority(kv[0], ed)))
        return [(eid, min(100.0, score)) for eid, score in ranked]

    def _fts(self, q: str, scope: _Scope, ed: str, limit: int) -> dict[str, float]:
        """BM25 relevance of the entries to the query's words, the best as 100.

        An entry holding every word of a question of two words or more gets ALL_WORDS_BONUS on
        top: "can a wizard wear armour" is answered where wizard, wearing and armour meet, not
        wherever "armour" is a title.

        The warband data's entries (CATALOGUE_KINDS) are ranked apart, in an index of their own (so
        the rules' word weights stay as they were), each side's best as 100; the ranking then weighs
        the data's text by whether the query names the entry (ranking.CATALOGUE_TEXT_SHARE)."""
        terms = list(dict.fromkeys(t for t in re.findall(r"[a-z0-9]+", q) if len(t) > 1 or t.isdigit()))
        if not terms:
            return {}
        rel: dict[str, float] = {}
        for index, most in ((self._index, limit), (self._catalogue_index, CATALOGUE_CANDIDATES)):
            rows = [(i, r) for i, r in index.ranked(terms, 200) if i in scope.id_set][:most]
            if rows:
                top = rows[0][1] or 1.0
                rel.update((i, 100.0 * r / top) for i, r in rows)
            if rows and len(terms) >= 2:
                for i in index.holding_all(terms):
                    if i in scope.id_set:
                        rel[i] = rel.get(i, 0.0) + ALL_WORDS_BONUS
        return rel

    def _holding_all(self, q: str, scope: _Scope) -> list[str]:
        """The rulebooks' entries of ``scope`` whose text holds every word of ``q`` (of three letters or more)."""
        terms = list(dict.fromkeys(t for t in re.findall(r"[a-z0-9]+", q) if len(t) > 2))
        if not terms:
            return []
        return [i for i in self._index.holding_all(terms) if i in scope.id_set]

    # ------------------------------------------------------------ search

    def search(self, text: str, edition: str | None = None, limit: int = 10) -> list[Hit]:
        """Full-text search over entry bodies, best first, with a highlighted snippet.

        Scores are relevance relative to the best hit (100).
        """
        ed = get_edition(edition).id
        text = _check_query(text)
        limit = max(1, min(int(limit), 50))
        mended = self.mend(text)
        q = self.rewriter.rewrite(mended) or key(mended)
        terms = [t for t in re.findall(r"[a-z0-9]+", q)]
        if not terms:
            return []
        scope = self._scopes[ed]
        hits: list[Hit] = []
        for index, share in ((self._index, 1.0), (self._catalogue_index, CATALOGUE_SEARCH_SHARE)):
            rows = [r for r in index.ranked_with_snippets(dict.fromkeys(terms), 400) if r[0] in scope.id_set][:limit]
            if rows:
                top = rows[0][1] or 1.0
                hits += [Hit(self._entries[i], round(share * 100.0 * rel / top, 1), snip) for i, rel, snip in rows]
        return sorted(hits, key=lambda h: -h.score)[:limit]

    # ------------------------------------------------------------ autocomplete

    def suggest(self, prefix: str, edition: str | None = None, limit: int = 25) -> list[tuple[str, str]]:
        """Up to ``limit`` (display name, entry id) pairs for an autocomplete box.

        Never raises for odd input: an unknown edition falls back to the default one.
        """
        try:
            ed = get_edition(edition).id
        except MordheimError:
            ed = get_edition(None).id
        typed = fold(str(prefix or ""))[:100].strip()
        limit = max(0, min(int(limit), 25))
        # what /rule would answer for exactly this text comes first ("ws": Characteristics), then what
        # else an alias of it names ("sprint": the Sprint skill, then Running)
        first = dict.fromkeys(self._exact_ids(typed, ed)) if typed and words(typed) else {}
        out = {eid: self._scopes[ed].shown[eid] for eid in first}
        for shown, eid in self._suggest(typed, ed, limit):
            out.setdefault(eid, shown)
        return [(shown, eid) for eid, shown in list(out.items())[:limit]]

    @lru_cache(maxsize=4096)
    def _exact_ids(self, text: str, ed: str) -> tuple[str, ...]:
        """The entries ``text`` names exactly, as a title or an alias, the one lookup_exact answers first."""
        found = self.lookup_exact(text, ed)
        if found is None or found.entry is None:
            return ()
        scope = self._scopes[ed]
        others = [i for k in dict.fromkeys([key(text), self.rewriter.rewrite(text)])
                  for i in (*scope.exact_titles.get(k, []), *scope.exact_aliases.get(k, []))]
        return (found.entry.id, *others)

    @lru_cache(maxsize=4096)
    def _suggest(self, p: str, ed: str, limit: int, rewritten: bool = False) -> tuple[tuple[str, str], ...]:
        scope = self._scopes[ed]
        if limit == 0:
            return ()
        if not p:
            return tuple((shown, eid) for _, shown, eid in scope.sorted_names[:limit])
        out: dict[str, str] = {}
        i = bisect.bisect_left(scope.sorted_lower, p)
        names = scope.sorted_names
        while i < len(names) and names[i][0].startswith(p) and len(out) < limit:
            out.setdefault(names[i][2], names[i][1])
            i += 1
        if len(out) < limit:
            first = p.split()[0] if p.split() else p
            j = bisect.bisect_left(scope.word_index, (first,))
            while j < len(scope.word_index) and scope.word_index[j][0].startswith(first) and len(out) < limit:
                if p in fold(scope.word_index[j][1]):
                    out.setdefault(scope.word_index[j][2], scope.word_index[j][1])
                j += 1
        typed_together = _spaceless(p)
        if len(out) < limit and len(typed_together) >= MIN_SPACELESS_PREFIX:
            # words typed apart or together: "soul f" is the start of Soulfire, "darkbl" of Dark Blood
            k = bisect.bisect_left(scope.spaceless, (typed_together,))
            while k < len(scope.spaceless) and scope.spaceless[k][0].startswith(typed_together) and len(out) < limit:
                out.setdefault(scope.spaceless[k][2], scope.spaceless[k][1])
                k += 1
        if len(out) < limit and len(p) >= 3 and not rewritten:  # what an abbreviation stands for is no misspelling
            for choice, _, idx in process.extract(p, scope.sorted_lower, scorer=fuzz.WRatio,
                                                  limit=limit, score_cutoff=75):
                out.setdefault(names[idx][2], names[idx][1])
                if len(out) >= limit:
                    break
        if not out and not rewritten:
            # abbreviations players type ("2h", "ooa", "kd"): complete what they stand for
            rewritten_text = fold(self.rewriter.rewrite(p)).strip()
            if rewritten_text and rewritten_text != p:
                return self._suggest(rewritten_text, ed, limit, True)
        return tuple((shown, eid) for eid, shown in out.items())


# ---------------------------------------------------------------- helpers

def _check_query(query: object) -> str:
    if query is None or not str(query).strip():
        raise MordheimError("The query is empty.", hint="Type a rule, weapon, spell or question, e.g. `parry`.")
    text = str(query).strip()
    if len(text) > MAX_QUERY_CHARS:
        raise LimitExceeded(
            f"The query is {len(text)} characters long; the limit is {MAX_QUERY_CHARS}.",
            hint="Ask about one rule at a time.")
    return text


def _own_names(entry: Entry) -> list[str]:
    """The names an entry answers to in its own words: its title, and each alias its title or text
    uses ("mace" of Hammer, staff, mace or club; "large target" of the hit modifiers). An alias its
    text never uses is only a synonym ("sprint" for Running): a warband-data entry of that very name
    (the Sprint skill) is kept, and as a title it wins the exact lookup over the synonym."""
    text = f" {key(entry.title + ' ' + _plain(entry.body))} "
    return [entry.title, *(a for a in entry.aliases if f" {key(a)} " in text)]


def _spaceless(text: str) -> str:
    return "".join(words(text))


def _plain(body: str) -> str:
    """The body's words without its Markdown: emphasis marks go (a space in their place would part
    "**knocked down**," from its comma in a search snippet), table bars and headings' hashes part words."""
    return re.sub(r"[|#]+", " ", re.sub(r"[*_]+", "", body))


def _entry_from_json(e: dict) -> Entry:
    src = e["source"]
    summary = None
    if e.get("summary"):
        s = e["summary"]
        summary = Summary(s["text"], Source(s["source"]["file"], tuple(tuple(x) for x in s["source"]["lines"])))
    return Entry(
        id=e["id"], edition=e["edition"], title=e["title"], path=tuple(e["path"]), kind=e["kind"],
        body=e["body"], source=Source(src["file"], tuple(tuple(x) for x in src["lines"])),
        aliases=tuple(e.get("aliases", ())), related=tuple(e.get("related", ())),
        counterparts=tuple((c["id"], bool(c["differs"])) for c in e.get("counterparts", ())),
        summary=summary, stats=e.get("stats"),
    )


_LIBRARY: RulesLibrary | None = None


def load_library() -> RulesLibrary:
    """The bundled library, built once per process."""
    global _LIBRARY
    if _LIBRARY is None:
        _LIBRARY = RulesLibrary.load()
    return _LIBRARY
