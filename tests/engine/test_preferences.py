"""Reply styles kept in memory: seen at once in this process, within CHECK_EVERY from another."""

from __future__ import annotations

import pytest

from engine import preferences
from engine.errors import PermissionDenied
from engine.preferences import CHECK_EVERY, Preferences
from engine.storage import Store

GUILD, OTHER_GUILD, ADMIN, MEMBER, OTHER = 1, 2, 10, 20, 30


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def path(tmp_path):
    return tmp_path / "prefs.db"


@pytest.fixture
def store(path):
    with Store.open(path) as s:
        yield s


@pytest.fixture
def clock():
    return Clock()


def counting_reads(store: Store, monkeypatch) -> list[int]:
    reads = []
    real = store.read

    def read():
        reads.append(1)
        return real()

    monkeypatch.setattr(store, "read", read)
    return reads


def test_the_style_is_read_once_then_kept_in_memory(store, clock, monkeypatch):
    prefs = Preferences(store, clock=clock)
    reads = counting_reads(store, monkeypatch)
    for _ in range(50):
        assert prefs.reply_style(GUILD, MEMBER).plain_text is False
    assert len(reads) == 2  # the stamp, then the member and the server
    clock.now += CHECK_EVERY / 2
    for _ in range(50):
        prefs.reply_style(GUILD, MEMBER)
    assert len(reads) == 2
    clock.now += CHECK_EVERY
    prefs.reply_style(GUILD, MEMBER)
    assert len(reads) == 3  # the stamp compared once more: unchanged, nothing read again


def test_a_change_is_seen_at_once_in_this_process(store, clock):
    prefs = Preferences(store, clock=clock)
    assert prefs.reply_style(GUILD, MEMBER).plain_text is False
    assert prefs.reply_style(GUILD, OTHER).plain_text is False
    prefs.set_server_plain_text(GUILD, ADMIN, True, True)
    assert prefs.reply_style(GUILD, OTHER) == preferences.ReplyStyle(True, None, True)
    prefs.set_member_plain_text(MEMBER, False)
    assert prefs.reply_style(GUILD, MEMBER) == preferences.ReplyStyle(False, False, True)
    prefs.set_member_plain_text(MEMBER, None)
    assert prefs.reply_style(GUILD, MEMBER).plain_text is True  # follows the server again
    assert prefs.reply_style(OTHER_GUILD, MEMBER).plain_text is False
    assert prefs.reply_style(None, MEMBER) == preferences.ReplyStyle(False, None, None)
    # and what was written is what a fresh reader of the file sees
    assert Preferences(store, clock=clock).reply_style(GUILD, OTHER) == preferences.ReplyStyle(True, None, True)


@pytest.mark.parametrize("change", ["member", "forget", "server"])
def test_another_processs_change_is_seen_within_check_every(path, store, clock, change):
    ours = Preferences(store, clock=clock)
    with Store.open(path) as other_store:  # another shard process's own connection to the file
        theirs = Preferences(other_store, clock=clock)
        if change == "forget":
            theirs.set_member_plain_text(MEMBER, True)
            clock.now += CHECK_EVERY
        before = ours.reply_style(GUILD, MEMBER)
        if change == "member":
            theirs.set_member_plain_text(MEMBER, True)
        elif change == "forget":
            theirs.set_member_plain_text(MEMBER, None)
        else:
            theirs.set_server_plain_text(GUILD, ADMIN, True, True)
        after = theirs.reply_style(GUILD, MEMBER)
    assert before.plain_text != after.plain_text
    clock.now += CHECK_EVERY * 0.9
    assert ours.reply_style(GUILD, MEMBER) == before  # remembered: not looked at yet
    clock.now += CHECK_EVERY * 0.1
    assert ours.reply_style(GUILD, MEMBER) == after


def test_a_change_here_after_one_elsewhere_forgets_what_the_other_changed(path, store, clock):
    ours = Preferences(store, clock=clock)
    assert ours.reply_style(GUILD, OTHER).plain_text is False
    with Store.open(path) as other_store:
        Preferences(other_store, clock=clock).set_member_plain_text(OTHER, True)
    ours.set_member_plain_text(MEMBER, True)  # the stamp moved by two: someone else wrote too
    assert ours.reply_style(GUILD, MEMBER).plain_text is True
    assert ours.reply_style(GUILD, OTHER).plain_text is True  # before CHECK_EVERY has passed


def test_memory_is_bounded(store, clock, monkeypatch):
    monkeypatch.setattr(preferences, "MAX_REMEMBERED", 5)
    prefs = Preferences(store, clock=clock)
    prefs.set_member_plain_text(3, True)
    for member in range(100, 120):
        assert prefs.reply_style(GUILD, member).plain_text is False
    assert len(prefs._members) <= 5
    assert prefs.reply_style(GUILD, 3).plain_text is True  # forgotten, read again


def test_only_manage_server_chooses_for_the_server(store):
    prefs = Preferences(store)
    with pytest.raises(PermissionDenied):
        prefs.set_server_plain_text(GUILD, MEMBER, False, True)
    assert prefs.reply_style(GUILD, MEMBER).server_choice is None
