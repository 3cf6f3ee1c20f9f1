"""No module imports itself round a circle (ARCHITECTURE.md: "nothing imports in a circle").

Every import counts: at module level, inside a function, and under ``TYPE_CHECKING``, since
each one ties the two modules together (one that only runs later is a circle all the same).
A package's ``__init__`` is a module of its own: ``import a.b.c`` and ``from a.b import c``
(``c`` a submodule) point at ``a.b.c`` only; ``from a.b import name`` (``name`` not a module)
points at ``a.b``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "cogs", "bot")

Graph = dict[str, set[str]]


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(root: Path, packages: Iterable[str] = PACKAGES) -> Graph:
    """Each module under ``packages`` (below ``root``) and the modules of the tree it imports."""
    files = {module_name(p, root): p for package in packages for p in sorted((root / package).rglob("*.py"))}
    graph: Graph = {}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(name, is_package, node.module, node.level)
                for alias in node.names:
                    submodule = f"{base}.{alias.name}"
                    targets.add(submodule if submodule in files else base)
        graph[name] = {t for t in targets if t in files}
    return graph


def _absolute(importer: str, is_package: bool, module: str | None, level: int) -> str:
    """The module a ``from`` import names, its dots resolved against the importing module."""
    if level == 0:
        return module or ""
    package = importer.split(".") if is_package else importer.split(".")[:-1]
    base = package[: len(package) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def cycles(graph: Graph) -> list[list[str]]:
    """The import circles: each strongly connected component of more than one module, or a
    module importing itself (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in graph.get(node, ()):
                        found.append(sorted(component))
    return sorted(found)


def within(graph: Graph, prefixes: Iterable[str]) -> Graph:
    """The graph of the modules under ``prefixes`` only, considered on their own."""
    prefixes = tuple(prefixes)

    def inside(name: str) -> bool:
        return any(name == p or name.startswith(p + ".") for p in prefixes)

    return {m: {t for t in targets if inside(t)} for m, targets in graph.items() if inside(m)}


def describe(found: list[list[str]], graph: Graph) -> str:
    lines = []
    for component in found:
        members = set(component)
        edges = [f"{m} -> {t}" for m in component for t in sorted(graph[m]) if t in members]
        lines.append(f"- {', '.join(component)}:\n    " + "\n    ".join(edges))
    return f"{len(found)} import circle(s):\n" + "\n".join(lines)


# -- the finder itself, on a small tree with every kind of import -------------------------


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_finder_sees_imports_in_functions_under_type_checking_and_relative(tmp_path):
    write(tmp_path, {
        "pkg/__init__.py": "from .a import thing\n",
        "pkg/a.py": "def f():\n    from . import b\n",  # b is a submodule: an edge to pkg.b
        "pkg/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import f\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/c.py": "from .. import thing\nimport pkg.sub.d\n",  # a name of pkg: an edge to pkg
        "pkg/sub/d.py": "from ..sub import c\n",
        "pkg/e.py": "import os\nimport pkg.e\n",  # itself
        "pkg/f.py": "from pkg import sub\n",  # a package is a module of its own
    })
    graph = import_graph(tmp_path, ["pkg"])
    assert graph["pkg"] == {"pkg.a"}
    assert graph["pkg.a"] == {"pkg.b"}
    assert graph["pkg.sub.c"] == {"pkg", "pkg.sub.d"}
    assert graph["pkg.f"] == {"pkg.sub"}
    assert cycles(graph) == [["pkg.a", "pkg.b"], ["pkg.e"], ["pkg.sub.c", "pkg.sub.d"]]
    assert cycles(within(graph, ["pkg.sub"])) == [["pkg.sub.c", "pkg.sub.d"]]
    assert "pkg.a -> pkg.b" in describe(cycles(graph), graph)


def test_the_finder_takes_a_long_circle_as_one():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


# -- the tree -------------------------------------------------------------------------------


def test_nothing_in_the_tree_imports_in_a_circle():
    graph = import_graph(ROOT)
    found = cycles(graph)
    assert not found, describe(found, graph)
