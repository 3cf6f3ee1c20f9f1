"""Every module of the bot, the cogs and the engine opens with a line saying what it is for
(ARCHITECTURE.md: the map points at them)."""

from __future__ import annotations

import ast

from tests.test_import_graph import ROOT


def test_every_module_has_a_one_line_header():
    missing = []
    for package in ("bot", "cogs", "engine"):
        for path in sorted((ROOT / package).rglob("*.py")):
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
            if not doc or not doc.strip().splitlines()[0].strip():
                missing.append(path.relative_to(ROOT).as_posix())
    assert not missing, f"modules without a header line: {missing}"
