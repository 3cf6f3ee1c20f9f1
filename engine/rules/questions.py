"""What a question asks about: the chapter of the rules its first telling word belongs to.

"can I shoot at someone fighting in combat" asks about shooting (shoot comes first; fighting
in combat is the target's state), "what happens if my leader is out of action" about leaders
and routing. The lookup prefers that chapter's sections over sections that only share words
with the question. The words are data (rules_data/overlay/question_topics.json).
"""

from __future__ import annotations

import re

from .text import QueryRewriter, stem

# How players start a question ("can i parry a 6", "whats a dagger good for"); or it ends in "?".
_QUESTION_START = re.compile(
    r"^(what|whats|what's|how|can|could|do|does|did|is|are|when|where|which|who|why|should|will|if|may|must)\b",
    re.IGNORECASE)


def is_question(text: str) -> bool:
    """Phrased as a question ("can i parry a 6", "what does a net do?"), not as a name."""
    return bool(_QUESTION_START.match(text.strip())) or text.strip().endswith("?")


class QuestionTopics:
    """Reads the topic of a question from rewritten query words."""

    def __init__(self, topics: dict[str, list[str]], rewriter: QueryRewriter) -> None:
        cues: list[tuple[tuple[str, ...], str]] = []
        for chapter, phrases in topics.items():
            if chapter.startswith("_"):
                continue
            for phrase in phrases:
                # read as a query is read, so "fire" (rewritten as shooting) and "shoot" meet
                cue = tuple(stem(w) for w in rewriter.content_words(phrase))
                if cue:
                    cues.append((cue, chapter))
        cues.sort(key=lambda c: -len(c[0]))  # "close combat" before "combat"
        self._cues = cues
        self.chapters = frozenset(chapter for _, chapter in cues)  # every chapter a question may ask about

    def topic(self, query_words: list[str]) -> str | None:
        """The chapter named by the first word (or phrase) of ``query_words`` that names one, else None.

        ``query_words`` are the words as the query rewriter leaves them."""
        stems = [stem(w) for w in query_words]
        for at in range(len(stems)):
            for cue, chapter in self._cues:
                if tuple(stems[at:at + len(cue)]) == cue:
                    return chapter
        return None
