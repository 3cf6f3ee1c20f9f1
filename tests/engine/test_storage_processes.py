"""Several processes writing to one WAL database, as sharded bots on one host do: nothing lost,
and every wait for another process's write short and bounded by the busy timeout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.storage import Store, WriteWouldWait
from engine.storage.store import BUSY_TIMEOUT_MS
from engine.campaign.service import Campaigns
from tests.engine.held_writes import file_held_by_another_process, write_held_by_a_thread

REPO = Path(__file__).resolve().parents[2]
PROCESSES, WRITES = 4, 40
GUILD = 5

WRITER = r"""
import json, os, sys, time
from engine.storage import Store
from engine.campaign.service import Campaigns

path, me, writes, go = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
store = Store.open(path)
campaigns = Campaigns(store)
while not os.path.exists(go):  # start together, so the writes really collide
    time.sleep(0.005)
longest, errors = 0.0, []
for n in range(writes):
    started = time.perf_counter()
    try:
        campaigns.change_treasury(5, me, True, "Shared", gold=1, reason=f"writer {me} #{n}")
        campaigns.change_treasury(5, me, True, f"Own {me}", gold=2, wyrdstone=1, reason=f"#{n}")
    except Exception as exc:
        errors.append(repr(exc))
    longest = max(longest, time.perf_counter() - started)
store.close()
print(json.dumps({"longest": longest, "errors": errors}))
"""


def test_writers_in_several_processes_lose_nothing_and_wait_briefly(tmp_path):
    path = tmp_path / "shared.db"
    with Store.open(path) as store:
        campaigns = Campaigns(store)
        campaigns.create_warband(GUILD, 0, "Shared", "Reiklanders", gold_crowns=10)
        for me in range(PROCESSES):
            campaigns.create_warband(GUILD, me, f"Own {me}", "Reiklanders", gold_crowns=0)
        with store.read() as c:
            assert c.scalar("PRAGMA busy_timeout") == BUSY_TIMEOUT_MS
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    children = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(me), str(WRITES), str(go)],
                         cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for me in range(PROCESSES)
    ]
    go.touch()
    reports = []
    for child in children:
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
        reports.append(json.loads(out))
    assert [r["errors"] for r in reports] == [[]] * PROCESSES  # no "database is locked", nothing refused
    longest = max(r["longest"] for r in reports)
    print(f"longest write, including waits: {longest * 1000:.1f} ms")
    assert longest < BUSY_TIMEOUT_MS / 1000 / 4, longest  # waits happen, and stay far from the timeout
    with Store.open(path) as store:
        campaigns = Campaigns(store)
        shared = campaigns.get_warband(GUILD, "Shared")
        assert shared.gold_crowns == 10 + PROCESSES * WRITES
        assert campaigns.audit_treasury(GUILD, "Shared").balanced
        for me in range(PROCESSES):
            own = campaigns.get_warband(GUILD, f"Own {me}")
            assert (own.gold_crowns, own.wyrdstone_shards) == (2 * WRITES, WRITES)
        with store.read() as c:
            assert c.scalar("SELECT count(*) FROM ledger WHERE what = 'treasury'") == 2 * PROCESSES * WRITES
            assert c.scalar("PRAGMA integrity_check") == "ok"


def test_reads_never_wait_for_a_write_in_progress(tmp_path):
    """A write holds the file (here: a thread of this process, then another process); reads
    go on at once and see the last commit, so the event loop's reads cannot stall."""
    import threading
    import time

    path = tmp_path / "r.db"
    with Store.open(path) as store:
        campaigns = Campaigns(store)
        campaigns.create_warband(GUILD, 1, "Steady", "Reiklanders", gold_crowns=5)
        holding, release = threading.Event(), threading.Event()

        def long_write() -> None:
            with store.write() as c:
                c.execute("UPDATE warbands SET gold_crowns = 99 WHERE name = 'Steady'")
                holding.set()
                release.wait(10)

        writer = threading.Thread(target=long_write)
        writer.start()
        assert holding.wait(10)
        started = time.perf_counter()
        assert campaigns.get_warband(GUILD, "Steady").gold_crowns == 5  # the last commit, not the open write
        assert time.perf_counter() - started < 1.0
        release.set()
        writer.join()
        assert campaigns.get_warband(GUILD, "Steady").gold_crowns == 99

        other = subprocess.Popen(
            [sys.executable, "-c", "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
             "c.execute('BEGIN IMMEDIATE'); c.execute('UPDATE warbands SET gold_crowns = 1'); print('holding', flush=True); "
             "time.sleep(30)", str(path)], stdout=subprocess.PIPE, text=True)
        try:
            assert other.stdout.readline().strip() == "holding"
            started = time.perf_counter()
            assert campaigns.get_warband(GUILD, "Steady").gold_crowns == 99
            assert time.perf_counter() - started < 1.0
        finally:
            other.kill()
            other.wait()


def test_try_write_never_waits(tmp_path):
    """What the event loop uses: a write done at once, or not at all while another is under way."""
    path = tmp_path / "t.db"
    with Store.open(path) as store:
        Campaigns(store).create_warband(GUILD, 1, "Quick", "Reiklanders")

        def add_note(c):
            c.execute("UPDATE warbands SET notes = notes || 'x'")

        assert store.try_write(add_note) is True
        with write_held_by_a_thread(store):
            assert store.try_write(add_note) is False  # another thread of this process is writing
        with file_held_by_another_process(path):
            assert store.try_write(add_note) is False  # another process holds the file
        assert store.try_write(add_note) is True
        with store.read() as c:
            assert c.scalar("SELECT notes FROM warbands") == "xx"
            assert c.scalar("PRAGMA busy_timeout") == BUSY_TIMEOUT_MS
        with store.write() as c:  # and the write connection still waits as it should
            assert c.scalar("PRAGMA busy_timeout") == BUSY_TIMEOUT_MS


def test_a_write_without_waiting_begins_at_once_or_not_at_all(tmp_path):
    """``Store.without_waiting``: what the event loop runs itself. The write begins only if no other
    thread of this process is writing and no other process holds the file; otherwise
    ``WriteWouldWait`` comes before anything is done, and the same work can go to a thread."""
    path = tmp_path / "t.db"
    with Store.open(path) as store:
        Campaigns(store).create_warband(GUILD, 1, "Quick", "Reiklanders")
        ran: list[str] = []

        def add_note(tag: str) -> None:
            with store.write() as c:
                ran.append(tag)
                c.execute("UPDATE warbands SET notes = notes || ?", (tag,))

        with store.without_waiting():
            add_note("a")
        with write_held_by_a_thread(store), pytest.raises(WriteWouldWait), store.without_waiting():
            add_note("b")  # another thread of this process is writing
        with file_held_by_another_process(path):
            started = time.perf_counter()
            with pytest.raises(WriteWouldWait), store.without_waiting():
                add_note("c")  # another process holds the file
            assert time.perf_counter() - started < 1.0
        with pytest.raises(RuntimeError, match="one write transaction"), store.without_waiting():
            add_note("d")
            add_note("e")  # a second write: running the block again in a thread would repeat the first
        assert ran == ["a", "d"]
        with store.read() as c:
            assert c.scalar("SELECT notes FROM warbands") == "ad"  # b and c never began; e never began
        add_note("f")  # outside the block, writes wait as before
        with store.write() as c:
            assert c.scalar("PRAGMA busy_timeout") == BUSY_TIMEOUT_MS
            assert c.scalar("SELECT notes FROM warbands") == "adf"
