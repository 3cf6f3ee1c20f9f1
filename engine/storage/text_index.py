"""An in-memory full-text index (SQLite FTS5) for the rules library: the only SQL the lookup needs.

The library hands in its entries' fields once; the index answers BM25-ranked matches. Nothing
is written to disk. The weights name the fields: id and edition are not searched, then title,
aliases and body (the title counts most).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

# BM25 weights of the columns: id, edition (not searched), title, aliases, body.
_RANK = "-bm25(fts, 0, 0, 8.0, 4.0, 1.0)"
BODY_COLUMN = 4  # the column snippets come from


@dataclass(frozen=True)
class IndexedText:
    """One entry's searchable fields."""

    id: str
    edition: str
    title: str
    aliases: str
    body: str


class TextIndex:
    """BM25 full-text search over entries (any word: ``ranked``; every word: ``holding_all``)."""

    def __init__(self, entries: Iterable[IndexedText]) -> None:
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute("CREATE VIRTUAL TABLE fts USING fts5(id UNINDEXED, edition UNINDEXED, title, aliases, body,"
                         " tokenize='porter unicode61 remove_diacritics 2')")
        self._db.executemany("INSERT INTO fts VALUES (?, ?, ?, ?, ?)",
                             [(e.id, e.edition, e.title, e.aliases, e.body) for e in entries])

    @staticmethod
    def _any(terms: Iterable[str]) -> str:
        return " OR ".join(f'"{t}"' for t in terms)

    def ranked(self, terms: Iterable[str], limit: int) -> list[tuple[str, float]]:
        """(entry id, relevance) of the entries holding any of ``terms``, most relevant first."""
        return self._db.execute(f"SELECT id, {_RANK} AS rel FROM fts WHERE fts MATCH ? ORDER BY rel DESC LIMIT ?",
                                (self._any(terms), limit)).fetchall()

    def ranked_with_snippets(self, terms: Iterable[str], limit: int) -> list[tuple[str, float, str]]:
        """As ``ranked``, with a snippet of each body around the words found (marked ``**``)."""
        return self._db.execute(f"SELECT id, {_RANK} AS rel, snippet(fts, {BODY_COLUMN}, '**', '**', '…', 16) FROM fts "
                                "WHERE fts MATCH ? ORDER BY rel DESC LIMIT ?", (self._any(terms), limit)).fetchall()

    def holding_all(self, terms: Iterable[str]) -> list[str]:
        """The ids of the entries holding every one of ``terms``."""
        every = " AND ".join(f'"{t}"' for t in terms)
        return [i for (i,) in self._db.execute("SELECT id FROM fts WHERE fts MATCH ?", (every,))]
