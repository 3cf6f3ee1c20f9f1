"""/hire fighter on PostgreSQL beside the same command on SQLite, on this machine, in one run (issue 15).

There is no target for PostgreSQL: the figure is reported so that a server admin weighing the step
past one host knows what a write costs there. Each backend gets its own bot and its own shoppers
(list-built warbands with gold and a captain, so no hire meets a limit), and each hire is measured
as a ratio to /echo through the same harness, the two backends alternating in the same run.

The PostgreSQL server is ``MORDHEIM_TEST_PG_URL`` when set (``.ci/run`` sets it), else a
throwaway cluster started here with tools/pg_cluster.py and stopped at the end. A fresh database
is made for the run and dropped after. That cluster is tuned for tests (``fsync`` and
``synchronous_commit`` off), so its commits cost less than a production server's would: the line
says so.

    python bench/bench_postgres.py
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_warbands import build_shoppers  # noqa: E402
from bench.common import ROOT, echo, line, ratio, ratio_calls  # noqa: E402
from bot.client import MordheimBot  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.harness import Actor, Harness  # noqa: E402

PG_URL_VAR = "MORDHEIM_TEST_PG_URL"
BATCHES, PER_BATCH = 9, 20
CALLS = ratio_calls(BATCHES, PER_BATCH)


def _pg_cluster():
    """tools/pg_cluster.py as a module (tools/ is not a package), as tests/pg.py loads it: put in
    ``sys.modules`` before it runs, which its dataclasses need (without a test cluster's URL in
    the environment, the bench starts a cluster of its own with it)."""
    if "pg_cluster" in sys.modules:
        return sys.modules["pg_cluster"]
    spec = importlib.util.spec_from_file_location("pg_cluster", ROOT / "tools" / "pg_cluster.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["pg_cluster"] = module
    spec.loader.exec_module(module)
    return module


def _with_database(url: str, database: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/" + database))


async def _hire_ratio(h: Harness, actor: Actor) -> tuple[float, float, float]:
    shoppers = iter(build_shoppers(h, actor, CALLS))

    async def hire():
        res = await h.command("hire fighter", actor, warband=next(shoppers), type="Warrior", count=5)
        assert not res.is_error, res.text
        return res

    return await ratio(hire, echo(h, actor), batches=BATCHES, per_batch=PER_BATCH)


async def main() -> dict[str, float]:
    import psycopg
    from psycopg import sql

    started = time.perf_counter()
    url, cluster = os.environ.get(PG_URL_VAR), None
    if not url:
        cluster = _pg_cluster().start()
        url = cluster.url
    name = f"bench_{os.getpid()}"
    with psycopg.connect(url, autocommit=True, connect_timeout=10) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {} TEMPLATE template0").format(sql.Identifier(name)))
    try:
        actor = Actor(user_id=7, guild_id=77)
        folder = Path(tempfile.mkdtemp(prefix="mordheim-bench-pg-"))
        sqlite_bot = MordheimBot(Config(db_path=folder / "bench.db"), rng=random.Random(1))
        pg_bot = MordheimBot(Config(db_path=folder / "pg-side.db", database_url=_with_database(url, name)), rng=random.Random(1))
        figures: dict[str, float] = {}
        print("/hire fighter (5 henchmen: warrior, gold, ledger) ÷ /echo through the same harness, both backends, one run:")
        async with Harness(sqlite_bot) as on_sqlite, Harness(pg_bot) as on_pg:
            for label, h in (("SQLite (the embedded default)", on_sqlite), ("PostgreSQL (psycopg pool, test cluster)", on_pg)):
                r, t_s, ref_s = await _hire_ratio(h, actor)
                figures[label] = r
                print(line(f"/hire fighter on {label}", r))
                print(f"  {'':58} {t_s * 1e3:8.2f} ms vs /echo {ref_s * 1e3:.2f} ms")
        print(line("PostgreSQL ÷ SQLite, this run (no target)", figures["PostgreSQL (psycopg pool, test cluster)"]
                   / figures["SQLite (the embedded default)"]))
        print("  (the test cluster runs with fsync and synchronous_commit off: a production server's commit costs more)")
    finally:
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        if cluster is not None:
            cluster.stop()
    print(f"total {time.perf_counter() - started:.1f} s")
    return figures


if __name__ == "__main__":
    asyncio.run(main())
