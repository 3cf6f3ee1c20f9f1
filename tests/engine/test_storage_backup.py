"""`mordheim-bot backup`: a consistent copy of the live database while another process writes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.storage import BackupError, Store, backup_database
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
            assert backup_database(live, copy) == copy.stat().st_size > 0
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
