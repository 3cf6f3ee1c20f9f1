"""engine/storage is the only package that speaks SQL, and it builds on nothing above itself
(ARCHITECTURE.md "Storage: one boundary")."""

from __future__ import annotations

import re

from tests.test_import_graph import ROOT, import_graph

SQL = re.compile(r"SELECT\s[^\"']*?\bFROM\b|INSERT\s+(?:OR\s+[A-Z]+\s+)?INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b"
                 r"|CREATE\s+(?:TABLE|INDEX|UNIQUE\s+INDEX|VIRTUAL\s+TABLE)\b|PRAGMA\s")
def files_with_sql() -> set[str]:
    found = set()
    for path in sorted((ROOT / "engine").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if not rel.startswith("engine/storage/") and SQL.search(path.read_text(encoding="utf-8")):
            found.add(rel)
    return found


def test_the_sql_finder_sees_sql():
    assert SQL.search('c.one("SELECT * FROM rolls WHERE id = ?")')
    assert SQL.search("'INSERT OR IGNORE INTO roll_optouts (a) VALUES (?)'")
    assert SQL.search('"UPDATE secret_rolls SET shown = ?"') and SQL.search('"DELETE FROM rolls"')
    assert not SQL.search("Select a skill from the list, then update the roster.")


def test_no_sql_outside_storage():
    assert files_with_sql() == set(), "SQL outside engine/storage"


def test_storage_builds_on_nothing_above_itself():
    """Every module engine.storage imports, and every module those import in turn, imports
    nothing of engine.storage: they are types below it. Importing ``a.b.c`` runs ``a/__init__``
    and ``a/b/__init__`` first, so those count as imported too."""
    graph = import_graph(ROOT)

    def with_packages(name: str) -> list[str]:
        parts = name.split(".")
        return [".".join(parts[:n]) for n in range(1, len(parts) + 1)]

    seen: set[str] = set()
    todo = [m for m in graph if m.startswith("engine.storage.")]
    while todo:
        module = todo.pop()
        for name in with_packages(module):
            if name in graph and name not in seen:
                seen.add(name)
                todo.extend(graph[name])
    above = sorted(m for m in seen if not m.startswith("engine.storage")
                   and any(t.startswith("engine.storage") for t in graph[m]))
    assert not above, f"engine.storage imports (through these) modules that import engine.storage: {above}"
