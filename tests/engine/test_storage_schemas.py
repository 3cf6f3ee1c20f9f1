"""The two dialects' migrations leave the same schema: tables, columns (name, order, NOT NULL,
default), primary keys and indexes (name, columns, unique, partial). A migration added to one
without the other fails here."""

from __future__ import annotations

import re

import psycopg

from engine.storage import Store
from engine.storage.postgres import PostgresStore

BOOKKEEPING = {"_sqlite_migrations", "sqlite_sequence", "schema_migrations"}


def _default(text: str | None) -> str | None:
    """A column default as both write it: 0, 1, 'lrb', '[]' (PostgreSQL adds ::text)."""
    if text is None:
        return None
    return re.sub(r"::[a-z ]+$", "", text.strip("()"))


def sqlite_schema(store: Store) -> dict[str, object]:
    tables: dict[str, object] = {}
    with store.read() as c:
        names = [n for n in c.column("SELECT name FROM sqlite_master WHERE type = 'table'") if n not in BOOKKEEPING]
        for table in names:
            columns = [(name, bool(notnull) or bool(pk), _default(default)) for _cid, name, _type, notnull, default, pk
                       in c.rows(f"PRAGMA table_info({table})")]
            pk = tuple(r[1] for r in sorted(c.rows(f"PRAGMA table_info({table})"), key=lambda r: r[5]) if r[5])
            indexes = {}
            for _seq, name, unique, origin, partial in c.rows(f"PRAGMA index_list({table})"):
                if origin != "c":  # a primary key's or a UNIQUE constraint's own index: compared as the key
                    continue
                cols = tuple(r[2] for r in c.rows(f"PRAGMA index_info({name})"))
                indexes[name] = (bool(unique), cols, bool(partial))
            tables[table] = {"columns": columns, "primary_key": pk, "indexes": indexes}
    return tables


def postgres_schema(url: str) -> dict[str, object]:
    tables: dict[str, object] = {}
    with psycopg.connect(url) as conn:
        names = [r[0] for r in conn.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
                                            "AND table_type = 'BASE TABLE'").fetchall() if r[0] not in BOOKKEEPING]
        for table in names:
            columns = []
            for name, nullable, default, identity in conn.execute(
                    "SELECT column_name, is_nullable, column_default, is_identity FROM information_schema.columns "
                    "WHERE table_schema = current_schema() AND table_name = %s ORDER BY ordinal_position", (table,)).fetchall():
                columns.append((name, nullable == "NO", None if identity == "YES" else _default(default)))
            pk = tuple(r[0] for r in conn.execute(
                "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) "
                "WHERE i.indrelid = %s::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)", (table,)).fetchall())
            indexes = {}
            for name, unique, partial, keys in conn.execute(
                    "SELECT c.relname, i.indisunique, i.indpred IS NOT NULL, i.indkey::int2[] FROM pg_index i "
                    "JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = %s::regclass AND NOT i.indisprimary "
                    "AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)", (table,)).fetchall():
                cols = tuple(conn.execute("SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum = %s",
                                          (table, n)).fetchone()[0] for n in keys)
                indexes[name] = (bool(unique), cols, bool(partial))
            tables[table] = {"columns": columns, "primary_key": pk, "indexes": indexes}
    return tables


def test_both_dialects_build_the_same_schema(tmp_path, pg_db_url):
    with Store.open(tmp_path / "schema.db") as store:
        lite = sqlite_schema(store)
    PostgresStore.open(pg_db_url).close()
    pg = postgres_schema(pg_db_url)
    assert sorted(lite) == sorted(pg) and len(lite) >= 17
    assert sum(len(t["indexes"]) for t in lite.values()) >= 15  # the indexes are compared, not only found
    for table in lite:
        assert lite[table] == pg[table], table


def test_the_comparison_sees_a_difference(tmp_path, pg_db_url):
    """A column only one dialect has fails the comparison (so the test above can fail)."""
    with Store.open(tmp_path / "schema.db") as store:
        with store.write() as c:
            c.execute("ALTER TABLE warbands ADD COLUMN motto TEXT")
        lite = sqlite_schema(store)
    PostgresStore.open(pg_db_url).close()
    assert lite["warbands"] != postgres_schema(pg_db_url)["warbands"]
