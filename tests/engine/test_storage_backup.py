"""`mordheim-bot backup`: a consistent copy of the live database while another process writes."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.storage import BackupError, Store, backup_database
from engine.storage.store import backup_path
from engine.campaign.service import Campaigns

REPO = Path(__file__).resolve().parents[2]

CHURN = r"""
import sys
from engine.storage import Store
from engine.campaign.service import Campaigns
c = Campaigns(Store.open(sys.argv[1]))
n = 0
while True:
    c.change_treasury(1, 1, True, "Busy", gold=1, wyrdstone=n % 2, reason="churn")
    n += 1
    if n == 20:
        print("going", flush=True)
"""


def test_backups_taken_during_writes_are_consistent_and_restore(tmp_path):
    live = tmp_path / "live.db"
    with Store.open(live) as store:
        Campaigns(store).create_warband(1, 1, "Busy", "Reiklanders")
    writer = subprocess.Popen([sys.executable, "-c", CHURN, str(live)], cwd=REPO, stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        assert writer.stdout.readline().strip() == "going"
        copies = []
        for n in range(3):
            copy = tmp_path / "backups" / f"copy-{n}.db"
            assert backup_database(live, copy) == (copy, copy.stat().st_size) and copy.stat().st_size > 0
            copies.append(copy)
    finally:
        writer.kill()
        writer.wait()
    gold_seen = []
    for copy in copies:
        assert not Path(str(copy) + "-wal").exists() and not Path(str(copy) + ".partial").exists()  # one file
        # restore: the copy put where the live file would be, opened as the bot opens it
        restored = tmp_path / "restore" / copy.name
        restored.parent.mkdir(exist_ok=True)
        shutil.copy(copy, restored)
        with Store.open(restored) as store:
            campaigns = Campaigns(store)
            audit = campaigns.audit_treasury(1, "Busy")
            assert audit.balanced, audit  # the treasury and its ledger rows come from one instant
            gold_seen.append(campaigns.get_warband(1, "Busy").gold_crowns)
            with store.read() as c:
                assert c.scalar("PRAGMA integrity_check") == "ok"
    assert gold_seen[0] >= 20 and gold_seen == sorted(gold_seen)


def test_backup_refuses_what_it_cannot_do_cleanly(tmp_path):
    with pytest.raises(BackupError, match="no database"):
        backup_database(tmp_path / "missing.db", tmp_path / "b.db")
    live = tmp_path / "live.db"
    Store.open(live).close()
    with pytest.raises(BackupError, match="another file"):
        backup_database(live, live)


def test_backup_command(tmp_path):
    live = tmp_path / "data" / "m.db"
    with Store.open(live) as store:
        Campaigns(store).create_warband(1, 1, "Kept", "Reiklanders")
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["MORDHEIM_DB"] = str(live)

    def run(*args):
        return subprocess.run([sys.executable, "-m", "bot", "backup", *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60)

    ok = run(str(tmp_path / "b" / "kept.db"))
    assert ok.returncode == 0 and "Backed up" in ok.stdout and "integrity checked" in ok.stdout
    with Store.open(tmp_path / "b" / "kept.db") as store:
        assert Campaigns(store).get_warband(1, "Kept").name == "Kept"
    refused = run(str(live))
    assert refused.returncode == 1 and "another file" in refused.stderr
    # a folder that exists: a dated copy inside it (this was an IsADirectoryError traceback, and a
    # "b.partial" left behind)
    into_folder = run(str(tmp_path / "b"))
    assert into_folder.returncode == 0 and "Traceback" not in into_folder.stderr, into_folder.stderr
    (dated,) = (tmp_path / "b").glob("m-*.db")
    assert f"to {dated} (" in into_folder.stdout
    with Store.open(dated) as store:
        assert Campaigns(store).get_warband(1, "Kept").name == "Kept"
    # a place it cannot write: the reason, exit 1, no traceback, nothing left
    (tmp_path / "a-file").write_text("")
    unwritable = run(str(tmp_path / "a-file" / "copy.db"))
    assert unwritable.returncode == 1 and unwritable.stderr.startswith("Backup failed: Cannot make the folder")
    assert "Traceback" not in unwritable.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "b", "data"]
    assert not list(tmp_path.rglob("*.partial"))


def test_backup_command_refuses_a_postgresql_database(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["MORDHEIM_DB"] = "postgresql://bot:secret@127.0.0.1:1/mordheim"
    done = subprocess.run([sys.executable, "-m", "bot", "backup", str(tmp_path / "copy.db")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "pg_dump" in done.stderr and "secret" not in done.stderr + done.stdout
    assert list(tmp_path.iterdir()) == []


def test_a_folder_gets_a_dated_copy_and_a_second_one_the_same_minute_its_own(tmp_path):
    live = tmp_path / "mordheim.db"
    Store.open(live).close()
    folder = tmp_path / "backups"
    folder.mkdir()
    at = dt.datetime(2026, 11, 27, 5, 30, 12, tzinfo=dt.timezone.utc)
    assert backup_path(live, folder, now=at) == folder / "mordheim-2026-11-27T0530.db"
    first, _ = backup_database(live, folder)
    assert first.parent == folder and first.name.startswith("mordheim-") and first.suffix == ".db"
    second, _ = backup_database(live, folder)
    assert second != first and second.parent == folder and first.exists()  # never over the first
    # a folder not made yet, said with a trailing slash
    assert backup_path(live, str(tmp_path / "new") + "/", now=at) == tmp_path / "new" / "mordheim-2026-11-27T0530.db"
    assert backup_path(live, tmp_path / "named.db", now=at) == tmp_path / "named.db"


def test_a_backup_that_fails_half_way_leaves_nothing_behind(tmp_path, monkeypatch):
    live = tmp_path / "live.db"
    Store.open(live).close()

    def full_disk(*_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(BackupError, match="Cannot write .*copy.db: No space left on device"):
        backup_database(live, tmp_path / "out" / "copy.db")
    assert list((tmp_path / "out").iterdir()) == []
