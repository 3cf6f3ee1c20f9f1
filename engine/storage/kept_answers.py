"""What the buttons of a sent answer need, kept in the database so they outlive the process.

A paged answer keeps its pages and the page shown; a confirm question keeps what it needs to
be asked again (see ``cogs/_ui/views.py``). Rows are found by the id of the message the
buttons are on, which Discord sends with every press, and they expire: a page turn or an
answer after that gets "run the command again". Bodies are JSON, compressed (pages of text
shrink about fourfold), because a busy bot keeps many of them for a day.
"""

from __future__ import annotations

import datetime as dt
import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.storage.connection import Connection
from engine.storage.store import Store

PAGES, CONFIRM = "pages", "confirm"


@dataclass(frozen=True)
class KeptAnswer:
    message_id: int
    kind: str
    guild_id: int | None  # None in direct messages
    owner_id: int
    body: dict[str, Any]
    page: int
    answered: bool


def encode_body(body: dict[str, Any]) -> bytes:
    """What ``keep`` stores: the body as compact JSON, compressed."""
    return zlib.compress(json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


@dataclass(frozen=True)
class TurnedPage:
    index: int  # from 0
    count: int
    page: dict[str, Any]


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def _stamp(at: dt.datetime) -> str:
    return at.astimezone(dt.timezone.utc).isoformat(timespec="seconds")


class KeptAnswers:
    """The ``kept_answers`` table of one ``Store``."""

    def __init__(self, store: Store, *, now: Callable[[], dt.datetime] = _utc_now) -> None:
        self.store = store
        self._now = now

    def keep(self, message_id: int, *, kind: str, guild_id: int | None, owner_id: int,
             body: bytes, lifetime: dt.timedelta, wait: bool = True) -> bool:
        """Remember an answer's buttons for ``lifetime`` (a message id is kept once: the first
        wins); ``body`` is ``encode_body(...)``. With ``wait=False`` nothing waits: when another
        write is under way the row is not written and False comes back (see ``Store.try_write``)."""
        row = (message_id, guild_id, owner_id, kind, body, _stamp(self._now() + lifetime))

        def insert(c: Connection) -> None:
            c.execute(
                "INSERT INTO kept_answers (message_id, guild_id, owner_id, kind, body, expires_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (message_id) DO NOTHING",
                row,
            )

        if not wait:
            return self.store.try_write(insert)
        with self.store.write() as c:
            insert(c)
        return True

    def get(self, message_id: int) -> KeptAnswer | None:
        """The kept answer on this message, or None when there is none or it has expired."""
        with self.store.read() as c:
            return self._get(c, message_id)

    def _get(self, c: Connection, message_id: int) -> KeptAnswer | None:
        row = c.one("SELECT * FROM kept_answers WHERE message_id = ? AND expires_at > ?", (message_id, _stamp(self._now())))
        if row is None:
            return None
        return KeptAnswer(
            message_id=row["message_id"], kind=row["kind"], guild_id=row["guild_id"], owner_id=row["owner_id"],
            body=json.loads(zlib.decompress(row["body"])), page=row["page"], answered=bool(row["answered"]),
        )

    def turn_page(self, message_id: int, step: int, check: Callable[[KeptAnswer | None], None]) -> TurnedPage:
        """Move a paged answer ``step`` pages on (kept within its pages) and return that page.
        ``check`` sees the kept answer first (None when there is none) and raises to refuse the
        turn; nothing is written then. One transaction: a page turn is one trip to the database."""
        with self.store.write() as c:
            answer = self._get(c, message_id)
            check(answer)
            if answer is None:  # ``check`` refuses a missing answer; this one did not
                raise LookupError(f"no kept answer for message {message_id}")
            pages = answer.body["pages"]
            index = max(0, min(len(pages) - 1, answer.page + step))
            if index != answer.page:
                c.execute("UPDATE kept_answers SET page = ? WHERE message_id = ?", (index, message_id))
            return TurnedPage(index=index, count=len(pages), page=pages[index])

    def claim_answer(self, message_id: int) -> bool:
        """Mark a question answered; False when it already was (or is gone). At most one press
        wins, even with several processes on one database."""
        with self.store.write() as c:
            changed = c.execute(
                "UPDATE kept_answers SET answered = 1 WHERE message_id = ? AND answered = 0 AND expires_at > ?",
                (message_id, _stamp(self._now())),
            )
            return changed == 1

    def sweep(self) -> int:
        """Delete expired rows; returns how many."""
        with self.store.write() as c:
            return c.execute("DELETE FROM kept_answers WHERE expires_at <= ?", (_stamp(self._now()),))
