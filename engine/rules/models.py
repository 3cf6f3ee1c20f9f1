"""What a rules lookup hands back: entries, lookup results and search hits."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

KINDS = ("rule", "weapon", "armour", "equipment", "spell", "psychology", "table", "background",
         # the warband data's entries (engine/rules/warbands.py)
         "warband", "fighter", "hired-sword", "dramatis-persona", "skill", "warband-rule", "warband-item")
# The warband data's kinds: what the rulebooks lack, looked up by name; they yield to the rulebooks' text.
CATALOGUE_KINDS = frozenset({"warband", "fighter", "hired-sword", "dramatis-persona", "skill", "warband-rule",
                             "warband-item"})

# Discord's embed description holds 4096 characters; leave room for a footer line.
DEFAULT_PAGE_CHARS = 3900


@dataclass(frozen=True)
class Source:
    file: str
    lines: tuple[tuple[int, int], ...]

    @property
    def is_seed(self) -> bool:
        """True for a seed rulebook (``000_….txt``); False for the bot's own data files."""
        return self.file[:3].isdigit() and self.file[3:4] == "_"

    def cite(self) -> str:
        """Short citation such as ``000:759-775``; a data file is cited by its path."""
        if not self.is_seed:
            return self.file
        seed = self.file.split("_", 1)[0]
        parts = [f"{a}" if a == b else f"{a}-{b}" for a, b in self.lines]
        return f"{seed}:{', '.join(parts)}"


@dataclass(frozen=True)
class Summary:
    text: str
    source: Source


@dataclass(frozen=True)
class Entry:
    """One section of one rulebook, with its Markdown body and links."""

    id: str
    edition: str
    title: str
    path: tuple[str, ...]
    kind: str
    body: str
    source: Source
    aliases: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    counterparts: tuple[tuple[str, bool], ...] = ()  # (entry id, text differs)
    summary: Summary | None = None
    stats: str | None = None
    # The names of what the entry belongs to, that a query may name beside it: a list item's, fighter's or
    # rule's warband lists ("clan pestilens censer", "plague censer": the Censer), a list's own book
    # ("nemesis crown dwarf rangers"). Never shown; engine/rules/ranking.py reads them.
    home: tuple[str, ...] = ()

    @property
    def section_path(self) -> str:
        return " > ".join(self.path)

    @cached_property
    def chapter(self) -> str:
        """The chapter's part of the id ("shooting" for ``lrb/shooting/cover``; "" for a bare edition id)."""
        parts = self.id.split("/")
        return parts[1] if len(parts) > 1 else ""

    @property
    def is_chapter(self) -> bool:
        """True for a chapter's opening ("Shooting"), False for a section or item inside one."""
        return len(self.path) == 1

    def pages(self, max_chars: int = DEFAULT_PAGE_CHARS) -> list[str]:
        return split_pages(self.body, max_chars)


def split_pages(body: str, max_chars: int = DEFAULT_PAGE_CHARS) -> list[str]:
    """Split Markdown into pages of at most ``max_chars`` on paragraph or table-row boundaries.

    Nothing is dropped: joining the pages with the separators they were split on gives the
    body back. A table row is never cut; a single prose paragraph longer than a page is cut
    between words (or, for a word longer than a page, between characters).
    """
    if max_chars < 40:
        raise ValueError("max_chars must be at least 40")
    if len(body) <= max_chars:
        return [body]
    pieces: list[tuple[str, str]] = []  # (text, separator that followed it)
    paras = body.split("\n\n")
    for i, para in enumerate(paras):
        sep = "\n\n" if i < len(paras) - 1 else ""
        if len(para) <= max_chars:
            pieces.append((para, sep))
        elif para.lstrip().startswith("|") or "\n" in para:
            rows = para.split("\n")
            for j, row in enumerate(rows):
                pieces.append((row, "\n" if j < len(rows) - 1 else sep))
        else:
            words = para.split(" ")
            chunk = ""
            for w in words:
                while len(w) > max_chars:  # a "word" longer than a page
                    if chunk:
                        pieces.append((chunk, " "))
                        chunk = ""
                    pieces.append((w[:max_chars], ""))
                    w = w[max_chars:]
                if chunk and len(chunk) + 1 + len(w) > max_chars:
                    pieces.append((chunk, " "))
                    chunk = w
                else:
                    chunk = f"{chunk} {w}" if chunk else w
            pieces.append((chunk, sep))
    pages: list[str] = []
    cur = ""
    for text, sep in pieces:
        if cur and len(cur) + len(text) > max_chars:
            pages.append(cur.rstrip("\n ") if cur.rstrip("\n ") else cur)
            cur = ""
        cur += text + sep
    if cur.strip() or not pages:
        pages.append(cur.rstrip("\n ") if cur.strip() else cur)
    return pages


@dataclass(frozen=True)
class LookupResult:
    """The answer to ``RulesLibrary.lookup``.

    ``entry`` is None when nothing matched well enough; ``suggestions`` then holds the
    closest entries ("did you mean"). ``note`` explains a fallback to another edition.
    ``unknown`` is True when nothing comes close at all, by name or by text: the bot's rules and
    data do not have it, and ``suggestions`` are the names nearest to it in spelling.
    ``unrecognised`` is True when no word of the query is a word at all ("qwertyuiop": none the
    rules use, nor the start or a misspelling of one, nor shaped like one): it is ``unknown`` and
    nothing is offered. ``elsewhere``: when nothing answers, the entries of other editions named
    exactly so (Swimming is core's and core2's, 002:491, not the Living Rulebook's).
    """

    entry: Entry | None
    score: float
    suggestions: list[tuple[Entry, float]] = field(default_factory=list)
    edition: str = "lrb"
    note: str | None = None
    query: str = ""
    unknown: bool = False
    unrecognised: bool = False
    elsewhere: tuple[Entry, ...] = ()  # not answered here: the other editions' entries of exactly that name

    @property
    def found(self) -> bool:
        return self.entry is not None


@dataclass(frozen=True)
class Hit:
    entry: Entry
    score: float
    snippet: str
