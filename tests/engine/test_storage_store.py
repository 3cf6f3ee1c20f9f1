"""The SQLite store on real files: migrations, WAL, threads, and a process killed mid-write."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine.storage import Store, WriteWouldWait, db_path_from_env
from engine.storage.schema import MIGRATIONS
from engine.storage.store import CHECKPOINT_EVERY
from engine.campaign.service import Campaigns

REPO = Path(__file__).resolve().parents[2]


def test_open_creates_parent_folders_wal_and_foreign_keys(tmp_path):
    path = tmp_path / "deep" / "er" / "mordheim.db"
    with Store.open(path) as store:
        assert path.exists()
        assert store.db.journal_mode == "wal"
        with store.read() as c:
            assert c.scalar("PRAGMA foreign_keys") == 1


def test_migrations_applied_once_and_recorded(tmp_path):
    path = tmp_path / "m.db"
    with Store.open(path) as store:
        first = store.db.execute("SELECT migration_set, name, applied_at FROM _sqlite_migrations").fetchall()
        assert [(s, n) for s, n, _ in first] == [("mordheim", m.name) for m in MIGRATIONS._migrations]
        Campaigns(store).create_warband(1, 2, "Kept", "Reikland")
    with Store.open(path) as store:  # re-open: a no-op for the schema, data intact
        again = store.db.execute("SELECT migration_set, name, applied_at FROM _sqlite_migrations").fetchall()
        assert again == first
        assert MIGRATIONS.pending(store.db) == []
        assert Campaigns(store).get_warband(1, "kept").name == "Kept"


def test_db_path_from_env():
    assert db_path_from_env({}) == Path("data") / "mordheim.db"
    assert db_path_from_env({"MORDHEIM_DB": "/x/y.db"}) == Path("/x/y.db")


def test_fifty_concurrent_treasury_changes_all_land(tmp_path):
    with Store.open(tmp_path / "c.db") as store:
        campaigns = Campaigns(store)
        campaigns.create_warband(7, 1, "Busy", "Skaven", gold_crowns=100)
        start = threading.Barrier(50)
        errors: list[BaseException] = []

        def change(n: int) -> None:
            start.wait()
            try:
                campaigns.change_treasury(7, 1, False, "Busy", gold=n % 7 + 1, wyrdstone=1, reason=f"change {n}")
            except BaseException as exc:  # noqa: BLE001 - collected and asserted below
                errors.append(exc)

        threads = [threading.Thread(target=change, args=(n,)) for n in range(50)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        wb = campaigns.get_warband(7, "Busy")
        assert wb.gold_crowns == 100 + sum(n % 7 + 1 for n in range(50))
        assert wb.wyrdstone_shards == 50
        audit = campaigns.audit_treasury(7, "Busy")
        assert audit.balanced
        assert len([e for e in campaigns.ledger(7, "Busy", limit=100) if e.what == "treasury"]) == 50


CHILD = r"""
import random, sys
from engine.storage import Store
from engine.campaign.service import Campaigns
store = Store.open(sys.argv[1])
c = Campaigns(store)
rng = random.Random(5)
n = 0
while True:
    name = f"Band {rng.randrange(5)}"
    gold = rng.randint(-30, 40)
    try:
        if rng.random() < 0.2:
            c.add_xp(1, 1, True, name, "Leader", 1)
        else:
            c.change_treasury(1, 1, True, name, gold=gold, wyrdstone=rng.randint(0, 2), reason="churn")
    except Exception as exc:  # negative treasury refused: fine, nothing written
        pass
    n += 1
    if n == 50:
        print("going", flush=True)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_killed_process_leaves_no_partial_change(tmp_path):
    path = tmp_path / "k.db"
    with Store.open(path) as store:
        c = Campaigns(store)
        profile = dict(M=4, WS=4, BS=4, S=3, T=3, W=1, I=4, A=1, Ld=8)
        for n in range(5):
            c.create_warband(1, 1, f"Band {n}", "Reikland", gold_crowns=200)
            c.add_warrior(1, 1, False, f"Band {n}", "Leader", role="leader", warrior_type="Captain", profile=profile)
    for pause in (0.05, 0.3):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(path)], cwd=REPO, stdout=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        assert child.stdout.readline().strip() == "going"
        time.sleep(pause)
        child.send_signal(signal.SIGKILL)
        child.wait()
        assert child.returncode == -signal.SIGKILL
    with Store.open(path) as store:
        with store.read() as conn:
            assert conn.scalar("PRAGMA integrity_check") == "ok"
        c = Campaigns(store)
        changes = 0
        for n in range(5):
            audit = c.audit_treasury(1, f"Band {n}")
            assert audit.balanced, audit
            leader = c.get_warrior(1, f"Band {n}", "Leader")
            with store.read() as conn:
                xp_rows = conn.scalar("SELECT count(*) FROM ledger WHERE warband_name = ? AND what = 'experience'", (f"Band {n}",))
                changes += conn.scalar("SELECT count(*) FROM ledger WHERE warband_name = ?", (f"Band {n}",))
            assert leader.experience == xp_rows
        assert changes > 60  # the child did write many changes before it died


def test_a_write_that_may_wait_checkpoints_and_keeps_the_wal_short(tmp_path):
    """A checkpoint inside a commit would hold up the event loop when the commit is one of its
    own; instead a write that may wait copies the WAL back every CHECKPOINT_EVERY commits (one
    without waiting is handed to a thread then), so the WAL keeps starting again from its
    beginning instead of growing with every write."""
    commits = 6 * CHECKPOINT_EVERY

    def wal_after_writes(path, write) -> int:
        write("CREATE TABLE notes (n INTEGER PRIMARY KEY, text TEXT)")
        for _ in range(commits):
            write("INSERT INTO notes (text) VALUES ('" + "x" * 1000 + "')")  # a page of WAL or more each
        return path.with_name(path.name + "-wal").stat().st_size

    never = sqlite3.connect(tmp_path / "never.db", isolation_level=None)  # the same writes, never checkpointed
    never.execute("PRAGMA journal_mode = WAL")
    never.execute("PRAGMA wal_autocheckpoint = 0")
    unchecked = wal_after_writes(tmp_path / "never.db", never.execute)
    never.close()
    path = tmp_path / "w.db"
    with Store.open(path) as store:
        with store.write() as c:
            assert c.scalar("PRAGMA wal_autocheckpoint") == 0

        def write(sql: str) -> None:
            with store.write() as c:
                c.execute(sql)

        wal = wal_after_writes(path, write)
        assert wal < unchecked / 3, (wal, unchecked)
        with store.read() as c:
            assert c.scalar("SELECT count(*) FROM notes") == commits
    with Store.open(path) as store:  # a store counts its commits from its opening

        def write(sql: str) -> None:
            with store.write() as c:
                c.execute(sql)

        for _ in range(CHECKPOINT_EVERY):
            write("INSERT INTO notes (text) VALUES ('due')")
        with pytest.raises(WriteWouldWait), store.without_waiting():  # a checkpoint is due: not on the event loop
            write("INSERT INTO notes (text) VALUES ('not now')")
        write("INSERT INTO notes (text) VALUES ('in a thread')")  # a write that may wait checkpoints first
        with store.without_waiting():
            write("INSERT INTO notes (text) VALUES ('now')")
        with store.read() as c:
            assert c.column("SELECT text FROM notes WHERE length(text) < 20 AND text != 'due'") == ["in a thread", "now"]
