"""The bot on PostgreSQL as a server admin runs it: separate console processes sharing one database,
one clear line (exit 2) when the database cannot be used, and ``migrate-db`` both ways."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from engine.campaign.service import Campaigns
from engine.storage import Store, open_store

REPO = Path(__file__).resolve().parents[2]
UPGRADED = REPO / "tests" / "data" / "main-3f9f783.db"


def bot(*args: str, database: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MORDHEIM_DB": database, "DISCORD_TOKEN": "", "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120)


def console(line: str, *, database: str, cwd: Path) -> str:
    done = bot("console", "--guild", "5150", "--user", "42", "-c", line, database=database, cwd=cwd)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_campaign_persists_across_console_processes_on_postgresql(pg_db_url, tmp_path):
    out = console('/warband create name:"Pg Raiders" warband_type:Reikland', database=pg_db_url, cwd=tmp_path)
    assert "Pg Raiders" in out and "500" in out
    out = console('/hire fighter warband:"Pg Raiders" type:"Mercenary Captain"', database=pg_db_url, cwd=tmp_path)
    assert "440 gc" in out  # 60 gc for the captain
    out = console('/trade buy warband:"Pg Raiders" warrior:"Mercenary Captain" item:Sword', database=pg_db_url, cwd=tmp_path)
    assert "430 gc" in out
    out = console('/warband undo name:"Pg Raiders"', database=pg_db_url, cwd=tmp_path)
    out = console('/warband show name:"Pg Raiders"', database=pg_db_url, cwd=tmp_path)
    assert "Mercenary Captain" in out and "440 gc" in out
    with open_store(pg_db_url) as store:  # the treasury is exact, and the ledger agrees with it
        c = Campaigns(store)
        band = c.get_warband(5150, "Pg Raiders")
        assert band.gold_crowns == 440 and band.warriors[0].equipment.count("Sword") == 0
        assert c.audit_treasury(5150, "Pg Raiders").balanced


def test_an_unusable_database_is_one_line_and_exit_2(pg_url, tmp_path):
    wrong_password = re.sub(r"//([^:]+):[^@]+@", r"//\1:not-the-password@", pg_url)
    refused = re.sub(r":\d+/", ":1/", pg_url)
    for url, said in ((wrong_password, "wrong password"), (refused, "connection refused"),
                      ("postgresql://user@:5432/", "not a usable PostgreSQL URL"), ("postgresql://h:port/db", "not a usable")):
        done = bot("console", "-c", "/echo text:hi", database=url, cwd=tmp_path)
        assert done.returncode == 2, (url, done.stdout, done.stderr)
        assert said in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "not-the-password" not in done.stderr


def test_migrate_db_copies_sqlite_into_postgresql_and_back(pg_db_url, tmp_path):
    source = tmp_path / "source.db"
    source.write_bytes(UPGRADED.read_bytes())
    Store.open(source).close()  # upgraded to this version first
    there = bot("migrate-db", str(source), pg_db_url, database=str(tmp_path / "unused.db"), cwd=tmp_path)
    assert there.returncode == 0, there.stderr
    assert "warband sheets read the same" in there.stdout or "warband sheet read the same" in there.stdout
    back = tmp_path / "back.db"
    again = bot("migrate-db", pg_db_url, str(back), database=str(tmp_path / "unused.db"), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    with Store.open(source) as a, Store.open(back) as b:
        for table in ("warbands", "warriors", "battles", "ledger", "postbattle_sequences", "rare_item_searches", "house_lists",
                      "server_settings", "member_preferences"):
            with a.read() as x, b.read() as y:
                assert x.rows(f"SELECT * FROM {table} ORDER BY 1") == y.rows(f"SELECT * FROM {table} ORDER BY 1"), table
        with b.read() as y:  # ids once handed out are never handed out again
            assert y.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'ledger'") >= y.scalar("SELECT max(id) FROM ledger")
    refused = bot("migrate-db", str(source), pg_db_url, database=str(tmp_path / "unused.db"), cwd=tmp_path)
    assert refused.returncode == 2 and "already holds data" in refused.stderr
