"""How answers are shown: as embeds (the default) or as plain text.

Plain text is for screen readers and for players who prefer it. A server may choose it for
everyone (members with Manage Server); a member may choose for themselves, and a member's
own choice wins wherever they use the bot, in every server and in direct messages (it is
about how they read, not about a campaign). A server's change is kept in the ledger like
every other server setting.

The style is asked on every interaction, and changes perhaps once in a member's life, so it
is kept in memory (``Preferences.reply_style``):

* a change made through this ``Preferences`` is remembered as it is written: seen at once;
* a change made by another process sharing the file (shard processes on one host) bumps the
  ``reply_style`` version stamp (``engine.storage.stamps``); the stamp is compared at most once
  every ``CHECK_EVERY`` seconds, on the next interaction, and a different one forgets all that
  was remembered. So another process's change is seen within ``CHECK_EVERY`` seconds, for one
  primary-key read a second per process at most (none while the bot is idle). One second is
  shorter than it takes a member to change their style in one server and run a command in
  another.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import PermissionDenied
from engine.storage.ledger import ledger_batch
from engine.storage.preferences import PreferenceRepository
from engine.storage.store import Store

#: Seconds between two looks at the reply-style stamp: how long another process's change may go unseen.
CHECK_EVERY = 1.0
#: Members (and, apart, servers) whose choice is remembered at most; past it the longest remembered is forgotten.
MAX_REMEMBERED = 100_000


@dataclass(frozen=True)
class ReplyStyle:
    """Whether answers come as plain text, and where that choice comes from."""

    plain_text: bool
    member_choice: bool | None  # None: the member has not chosen, the server's choice applies
    server_choice: bool | None  # None: the server has not chosen (or a direct message)


# Three choices a side make nine styles: made once, handed out on every interaction.
_STYLES = {
    (member, server): ReplyStyle(member if member is not None else bool(server), member, server)
    for member in (None, True, False) for server in (None, True, False)
}


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


class Preferences:
    """Members' and servers' reply styles in one ``Store``, kept in memory (see the module docstring).

    Thread-safe: the event loop asks, worker threads may write."""

    def __init__(self, store: Store, *, now: Callable[[], dt.datetime] = _utc_now,
                 clock: Callable[[], float] = time.monotonic, check_every: float = CHECK_EVERY) -> None:
        self.store = store
        self._now = now
        self._clock = clock
        self._check_every = check_every
        self._lock = threading.Lock()  # guards what is remembered, and the stamp it was read under
        self._members: dict[int, bool | None] = {}
        self._servers: dict[int, bool | None] = {}
        self._version = -1  # the stamp what is remembered was read under (-1: nothing read yet)
        self._checked_at = -float("inf")

    def _stamp(self) -> str:
        return self._now().isoformat(timespec="seconds")

    def reply_style(self, guild_id: int | None, user_id: int) -> ReplyStyle:
        """The style for one member in one server (``guild_id`` None in direct messages).

        From memory; the database is read for a member or server not remembered yet, and to
        compare the stamp once every ``CHECK_EVERY`` seconds."""
        if self._clock() - self._checked_at >= self._check_every:
            self._check_stamp()
        try:  # None is remembered too: "not chosen"
            member = self._members[user_id]
            server = None if guild_id is None else self._servers[guild_id]
        except KeyError:
            member, server = self._read(guild_id, user_id)
        return _STYLES[member, server]

    def _read(self, guild_id: int | None, user_id: int) -> tuple[bool | None, bool | None]:
        with self.store.read() as c:
            prefs = PreferenceRepository(c)
            version = prefs.version()
            member, server = prefs.choices(user_id, guild_id)
        with self._lock:
            if self._adopt(version):
                self._remember(self._members, user_id, member)
                if guild_id is not None:
                    self._remember(self._servers, guild_id, server)
        return member, server

    def _check_stamp(self) -> None:
        with self.store.read() as c:
            version = PreferenceRepository(c).version()
        with self._lock:
            self._checked_at = self._clock()
            if version != self._version:  # another process changed a style (or the file was restored)
                self._forget_all(version)

    def _adopt(self, version: int) -> bool:
        """Whether what was read under ``version`` may be remembered (holding the lock): yes under the
        stamp remembered now, or a newer one (then what was remembered under the older is forgotten);
        no under an older one (a change of this process was written while it was being read)."""
        if version < self._version:
            return False
        if version > self._version:
            self._forget_all(version)
        return True

    def _forget_all(self, version: int) -> None:
        self._members, self._servers, self._version = {}, {}, version

    @staticmethod
    def _remember(remembered: dict[int, bool | None], key: int, choice: bool | None) -> None:
        if key not in remembered and len(remembered) >= MAX_REMEMBERED:
            del remembered[next(iter(remembered))]  # the longest remembered
        remembered[key] = choice

    def _written(self, version: int, key: int, choice: bool | None, *, server: bool) -> None:
        """Remember a choice this process wrote, the stamp becoming ``version``. If the stamp moved
        by more than this write, another process wrote meanwhile: everything else is forgotten."""
        with self._lock:
            if version != self._version + 1:
                self._forget_all(version)
            self._version = version
            self._remember(self._servers if server else self._members, key, choice)

    def set_member_plain_text(self, user_id: int, plain_text: bool | None) -> None:
        """A member's own choice; None goes back to following the server."""
        with self.store.write() as c:
            version = PreferenceRepository(c).choose_for_member(user_id, plain_text, self._stamp())
        self._written(version, user_id, plain_text, server=False)

    def set_server_plain_text(self, guild_id: int, actor_id: int, is_admin: bool, plain_text: bool) -> None:
        """The server's choice for every member who has not chosen for themselves."""
        if not is_admin:
            raise PermissionDenied("Only members with Manage Server can change how this server's answers are shown.")
        at = self._stamp()
        with ledger_batch(self.store, guild_id=guild_id, member_id=actor_id, at=at) as b:
            prefs = PreferenceRepository(b.c)
            before = prefs.server_choice(guild_id)
            version = prefs.choose_for_server(guild_id, plain_text, at)
            b.record(warband_id=None, warband_name="", what="settings.plain_text", entity="settings",
                     entity_id=None, before={"plain_text": bool(before)}, after={"plain_text": plain_text})
        self._written(version, guild_id, plain_text, server=True)
