"""The PostgreSQL test server works as the storage will use it: psycopg 3 through the URL (TCP,
password), a psycopg_pool pool, row locks that make two read-check-write transactions take turns;
the per-test database starts empty; tools/pg_cluster.py starts, stops and fails as it says."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from psycopg_pool import ConnectionPool

from tests.pg import hide_password, load_pg_cluster

WAIT = 10  # seconds any step may take before the test fails instead of hanging


def test_the_url_connects_over_loopback_tcp_with_its_password(pg_url):
    parts = urlsplit(pg_url)
    assert parts.scheme == "postgresql" and parts.username and parts.password, hide_password(pg_url)
    with psycopg.connect(pg_url, connect_timeout=WAIT) as conn:
        user, database, address, version = conn.execute(
            "SELECT current_user, current_database(), host(inet_server_addr()), current_setting('server_version_num')::int"
        ).fetchone()
    assert (user, database) == (parts.username, parts.path.lstrip("/"))
    assert address == parts.hostname  # TCP, not a Unix socket
    assert version >= 130000  # DROP DATABASE ... WITH (FORCE)
    wrong = pg_url.replace(f":{parts.password}@", ":not-the-password@")
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(wrong, connect_timeout=WAIT)


def _pool(url: str, size: int) -> ConnectionPool:
    # every connection gives up on a lock after WAIT seconds rather than hang the test run
    return ConnectionPool(url, min_size=size, max_size=size, kwargs={"options": f"-c lock_timeout={WAIT}s"},
                          open=True, timeout=WAIT)


def _wait_until(condition, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.01)


def test_two_transactions_reading_with_for_update_take_turns(pg_db_url):
    """Two withdrawals of 30 from a balance of 50, each reading the balance FOR UPDATE, checking it
    and writing: the second waits for the first's row lock, reads the balance after the first
    committed (20) and refuses. Without the lock both would read 50 and overdraw."""
    with _pool(pg_db_url, 3) as pool:
        with pool.connection() as conn:
            conn.execute("CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)")
            conn.execute("INSERT INTO account VALUES (1, 50)")
        seen: dict[str, int] = {}
        outcome: dict[str, str] = {}
        errors: list[BaseException] = []
        first_holds_lock, let_first_finish = threading.Event(), threading.Event()

        def withdraw(who: str, amount: int, hold: bool) -> None:
            try:
                with pool.connection() as conn, conn.transaction():
                    conn.execute("SELECT set_config('application_name', %s, true)", (who,))
                    (balance,) = conn.execute("SELECT balance FROM account WHERE id = 1 FOR UPDATE").fetchone()
                    seen[who] = balance
                    if hold:
                        first_holds_lock.set()
                        assert let_first_finish.wait(WAIT)
                    if balance >= amount:
                        conn.execute("UPDATE account SET balance = balance - %s WHERE id = 1", (amount,))
                        outcome[who] = "paid"
                    else:
                        outcome[who] = "refused"
            except BaseException as exc:  # noqa: BLE001 - reported by the main thread
                errors.append(exc)

        first = threading.Thread(target=withdraw, args=("first", 30, True))
        second = threading.Thread(target=withdraw, args=("second", 30, False))
        first.start()
        try:
            assert first_holds_lock.wait(WAIT)
            second.start()
            with pool.connection() as watcher:
                watcher.autocommit = True

                def second_waits_for_a_lock() -> bool:
                    row = watcher.execute(
                        "SELECT wait_event_type FROM pg_stat_activity WHERE application_name = 'second'"
                    ).fetchone()
                    return row is not None and row[0] == "Lock"

                _wait_until(second_waits_for_a_lock, "the second transaction waits for the row lock")
                assert "second" not in seen  # still blocked in its SELECT ... FOR UPDATE
                let_first_finish.set()
                first.join(WAIT)
                second.join(WAIT)
                assert not first.is_alive() and not second.is_alive()
                assert errors == []
                assert seen == {"first": 50, "second": 20}
                assert outcome == {"first": "paid", "second": "refused"}
                assert watcher.execute("SELECT balance FROM account WHERE id = 1").fetchone() == (20,)
        finally:
            let_first_finish.set()
            first.join(WAIT)
            if second.ident is not None:
                second.join(WAIT)


def test_a_plain_read_does_not_wait_for_the_row_lock(pg_db_url):
    """The control: it is FOR UPDATE that makes the second transaction wait, not the table."""
    with _pool(pg_db_url, 2) as pool:
        with pool.connection() as holder, pool.connection() as reader:
            holder.execute("CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)")
            holder.execute("INSERT INTO account VALUES (1, 50)")
            holder.commit()
            with holder.transaction():
                holder.execute("SELECT balance FROM account WHERE id = 1 FOR UPDATE")
                holder.execute("UPDATE account SET balance = 20 WHERE id = 1")
                reader.execute("SET lock_timeout = '100ms'")
                assert reader.execute("SELECT balance FROM account WHERE id = 1").fetchone() == (50,)
                with pytest.raises(psycopg.errors.LockNotAvailable):
                    reader.execute("SELECT balance FROM account WHERE id = 1 FOR UPDATE")
                reader.rollback()


@pytest.mark.parametrize("turn", [1, 2])
def test_each_test_starts_with_an_empty_database(pg_db_url, pg_url, turn):
    with psycopg.connect(pg_db_url, connect_timeout=WAIT) as conn:
        database = conn.execute("SELECT current_database()").fetchone()[0]
        assert database != urlsplit(pg_url).path.lstrip("/")
        assert conn.execute(
            "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'"
        ).fetchone() == (0,)
        assert conn.execute("SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%'"
                            " AND nspname <> 'information_schema'").fetchall() == [("public",)]
        # what the other turn leaves behind: a table, a schema, a function, a type, and an open connection
        conn.execute("CREATE TABLE warband (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text UNIQUE)")
        conn.execute("INSERT INTO warband (name) VALUES (%s)", (f"turn {turn}",))
        conn.execute("CREATE SCHEMA leftover")
        conn.execute("CREATE FUNCTION instr(a text, b text) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT strpos(a, b)'")
        conn.execute("CREATE TYPE mood AS ENUM ('calm', 'frenzied')")
        conn.commit()
    leaked = psycopg.connect(pg_db_url, connect_timeout=WAIT)  # left open, in a transaction holding a lock:
    leaked.execute("LOCK TABLE warband")  # the next test's reset must end it rather than wait for it
    _LEAKED.append(leaked)


_LEAKED: list[psycopg.Connection] = []


def test_a_new_database_is_its_own(pg_new_database, pg_db_url):
    first, second = pg_new_database(), pg_new_database()
    assert len({first, second, pg_db_url}) == 3
    with psycopg.connect(first, autocommit=True) as a, psycopg.connect(second, autocommit=True) as b:
        a.execute("CREATE TABLE only_here (x int)")
        assert b.execute("SELECT to_regclass('only_here')").fetchone() == (None,)


# -- tools/pg_cluster.py ------------------------------------------------------------------------


def _postmaster_alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status  # a zombie waiting for its parent (init) to reap it has stopped


def test_the_script_starts_a_cluster_that_stop_ends_and_deletes():
    pg_cluster = load_pg_cluster()
    cluster = pg_cluster.start(database="smoke")
    try:
        pid = int((cluster.dir / "data" / "postmaster.pid").read_text().split()[0])
        assert _postmaster_alive(pid)
        if os.geteuid() == 0:  # PostgreSQL never runs as root: the folder and server belong to the unprivileged user
            assert cluster.dir.stat().st_uid != 0
            assert Path(f"/proc/{pid}").stat().st_uid == cluster.dir.stat().st_uid
        with psycopg.connect(cluster.url, connect_timeout=WAIT) as conn:
            assert conn.execute("SELECT current_database()").fetchone() == ("smoke",)
            settings = dict(conn.execute(
                "SELECT name, setting FROM pg_settings WHERE name IN"
                " ('fsync', 'synchronous_commit', 'full_page_writes', 'listen_addresses', 'unix_socket_directories')"
            ).fetchall())
        assert settings == {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off",
                            "listen_addresses": "127.0.0.1", "unix_socket_directories": str(cluster.dir)}
    finally:
        cluster.stop()
    assert not cluster.dir.exists()
    _wait_until(lambda: not _postmaster_alive(pid), "the postmaster has exited")


def test_the_script_fails_with_the_reason_and_leaves_nothing(monkeypatch, tmp_path):
    pg_cluster = load_pg_cluster()
    monkeypatch.setenv("MORDHEIM_PG_BIN", str(tmp_path / "no-postgresql"))
    monkeypatch.setenv("MORDHEIM_PG_TMPDIR", str(tmp_path))
    with pytest.raises(pg_cluster.ClusterError, match=r"MORDHEIM_PG_BIN=.*no-postgresql: no initdb, pg_ctl, createdb"):
        pg_cluster.start()
    assert pg_cluster.main(["start"]) == 1
    assert list(tmp_path.iterdir()) == []
    # stop deletes only folders the script made
    (tmp_path / "keep").mkdir()
    with pytest.raises(pg_cluster.ClusterError, match="not a folder made by tools/pg_cluster.py"):
        pg_cluster.stop(tmp_path / "keep")
    assert (tmp_path / "keep").is_dir()
