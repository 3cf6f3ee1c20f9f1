"""A database made before names were compared as they look (migration 0016 on SQLite, 0006 on
PostgreSQL): every stored name_key recomputed, the later of two names that now compare equal
renamed " (2)", " (3)"..., and nothing else written."""

from __future__ import annotations

import json

import psycopg
from sqlite_utils import Database

from engine.campaign.model import name_key
from engine.campaign.service import Campaigns
from engine.storage import Store
from engine.storage.name_keys import settle
from engine.storage.postgres import PostgresStore
from engine.storage.schema import MIGRATIONS, NAMES_COMPARED_AS_THEY_LOOK as SQLITE_STEP
from engine.storage.schema_postgres import MIGRATIONS as PG_MIGRATIONS, NAMES_COMPARED_AS_THEY_LOOK

G, H, OWNER = 7, 8, 70
AT = "2025-01-01T00:00:00+00:00"
LONG = "W" * 64

# (id, server, name), in the order they were made; the keys are stored the old way
WARBANDS = [
    (1, G, "Alpha"),
    (2, G, "Al\u200bpha"),        # a zero-width space: the same name to the eye
    (3, G, "Beta"),
    (4, G, "Alpha (2)"),          # already there: the first rename must pass it by
    (5, G, "Ａｌｐｈａ"),           # full-width
    (6, H, "Ａｌｐｈａ"),           # another server: nothing to settle, only its key
    (7, G, LONG),
    (8, G, "Ｗ" * 64),             # full-width: renamed within the 64-character limit
    (9, G, "Stra\u00dfe"),
    (10, G, " ".join([LONG[:40], "Ｘ"])),
    (11, G, " ".join([LONG[:40], "x"])),
]
# (id, warband, name)
WARRIORS = [(1, 1, "Hans"), (2, 1, "ＨＡＮＳ"), (3, 3, "Hans"), (4, 1, "Ha\u200dns"), (5, 1, "Otto")]


def old_key(name: str) -> str:
    return " ".join(name.split()).casefold()


EXPECTED_WARBANDS = {
    1: "Alpha", 2: "Al\u200bpha (3)", 3: "Beta", 4: "Alpha (2)", 5: "Ａｌｐｈａ (4)", 6: "Ａｌｐｈａ",
    7: LONG, 8: "Ｗ" * 60 + " (2)", 9: "Stra\u00dfe", 10: " ".join([LONG[:40], "Ｘ"]), 11: " ".join([LONG[:40], "x"]) + " (2)",
}
EXPECTED_WARRIORS = {1: "Hans", 2: "ＨＡＮＳ (2)", 3: "Hans", 4: "Ha\u200dns (3)", 5: "Otto"}


def fill(conn, mark: str) -> None:
    """The rows above, and a ledger row, as the bot before 0016 stored them."""
    def run(sql: str, params: tuple) -> None:
        conn.execute(sql.replace("?", mark), params)

    for wid, guild, name in WARBANDS:
        run("INSERT INTO warbands (id, guild_id, owner_id, name, name_key, warband_type, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, 'Reiklanders', ?, ?)", (wid, guild, OWNER, name, old_key(name), AT, AT))
    for wid, band, name in WARRIORS:
        run("INSERT INTO warriors (id, guild_id, warband_id, name, name_key, role, warrior_type, m, ws, bs, s, t, w, i, a, ld, "
            "created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'hero', 'Champion', 4, 3, 3, 3, 3, 1, 3, 1, 7, ?, ?)",
            (wid, G, band, name, old_key(name), AT, AT))
    run("INSERT INTO ledger (guild_id, warband_id, warband_name, what, entity, entity_id, after_json, member_id, created_at) "
        "VALUES (?, 1, 'Alpha', 'warband.create', 'warband', 1, ?, ?, ?)", (G, json.dumps({"name": "Alpha"}), OWNER, AT))


def dump(rows_of) -> dict[str, list[tuple]]:
    return {t: [tuple(r) for r in rows_of(f"SELECT * FROM {t} ORDER BY id")] for t in ("warbands", "warriors", "ledger")}


def check_migrated(before: dict[str, list[tuple]], after: dict[str, list[tuple]]) -> None:
    """Names and keys as expected, and every other column of every row as it was."""
    assert after["ledger"] == before["ledger"]
    for table, expected in (("warbands", EXPECTED_WARBANDS), ("warriors", EXPECTED_WARRIORS)):
        name_at = 3  # id, guild_id, owner_id | warband_id, name, name_key, ...
        assert {r[0]: r[name_at] for r in after[table]} == expected, table
        assert all(r[name_at + 1] == name_key(r[name_at]) for r in after[table]), table
        keep = [r[:name_at] + r[name_at + 2:] for r in before[table]]
        assert [r[:name_at] + r[name_at + 2:] for r in after[table]] == keep, table


def check_lookups(store) -> None:
    c = Campaigns(store)
    assert c.get_warband(G, "ALPHA").id == 1 and c.get_warband(G, "alpha (3)").id == 2
    assert c.get_warband(G, "Ａｌｐｈａ (4)").id == 5
    assert c.get_warband(H, "alpha").id == 6  # its old key, "ａｌｐｈａ", was found by no typed name but itself
    assert c.get_warband(G, "STRASSE").id == 9


def test_sqlite_file_made_before_names_were_compared_as_they_look(tmp_path):
    path = tmp_path / "before.db"
    db = Database(path)
    MIGRATIONS.apply(db, stop_before=SQLITE_STEP)  # every step before it
    fill(db.conn, "?")
    db.conn.commit()
    before = dump(lambda sql: db.conn.execute(sql).fetchall())
    db.conn.close()
    with Store.open(path) as store:
        assert SQLITE_STEP in store.applied_migrations()  # and every later step after it
        with store.read() as c:
            after = dump(c.rows)
        check_migrated(before, after)
        check_lookups(store)
    with Store.open(path) as store, store.read() as c:  # once only
        assert dump(c.rows) == after


def test_postgresql_database_made_before_names_were_compared_as_they_look(pg_db_url):
    with psycopg.connect(pg_db_url) as conn:
        conn.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
        for migration in PG_MIGRATIONS[:PG_MIGRATIONS.index(NAMES_COMPARED_AS_THEY_LOOK)]:
            for statement in migration.statements:
                conn.execute(statement)
            conn.execute("INSERT INTO schema_migrations (name, applied_at) VALUES (%s, now()::text)", (migration.name,))
        fill(conn, "%s")
        conn.commit()
        before = dump(lambda sql: conn.execute(sql).fetchall())
    with PostgresStore.open(pg_db_url) as store:
        assert NAMES_COMPARED_AS_THEY_LOOK.name in store.applied_migrations()  # and every later step after it
        with store.read() as c:
            check_migrated(before, dump(c.rows))
        check_lookups(store)


def test_settling_renames_the_later_and_passes_names_taken():
    rows = [(3, 1, "ALPHA", "alpha"), (1, 1, "Alpha", "alpha"), (2, 1, "Alpha (2)", "alpha (2)"), (4, 2, "ALPHA", "alpha")]
    assert settle(rows) == [(3, "ALPHA (3)", "alpha (3)")]
    assert settle([(1, 1, "Beta", "beta")]) == []  # nothing to write


def test_a_rename_stays_within_the_name_limit():
    (renamed,) = settle([(1, 1, LONG, old_key(LONG)), (2, 1, "Ｗ" * 64, "Ｗ" * 64)])
    assert renamed.name == "Ｗ" * 60 + " (2)" and len(renamed.name) == 64
