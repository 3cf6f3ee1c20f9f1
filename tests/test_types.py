"""mypy passes over the parts of engine/ that are typed through (pyproject.toml [tool.mypy]).

engine/rules/library.py is left out while its matching is rewritten: it is followed for the
types it gives, its own errors not reported (``--follow-imports=silent``), like the rest of
engine/ not listed here (issue 15 brings in the campaign and combat).
"""

from __future__ import annotations

import pytest

from tests.test_import_graph import ROOT

mypy_api = pytest.importorskip("mypy.api", reason="mypy is not installed (pip install mypy)")

CHECKED = (
    "engine/dice", "engine/rolls", "engine/storage", "engine/combat/dice.py",
    "engine/rules/__init__.py", "engine/rules/campaign.py", "engine/rules/models.py", "engine/rules/text.py",
    "engine/preferences.py", "engine/settings.py", "engine/server_settings.py", "engine/editions.py",
    "engine/errors.py", "engine/rng.py",
)


def test_mypy_passes():
    out, err, status = mypy_api.run([
        "--config-file", str(ROOT / "pyproject.toml"), "--follow-imports=silent", "--cache-dir", str(ROOT / ".mypy_cache"),
        *(str(ROOT / p) for p in CHECKED),
    ])
    assert status == 0, out + err
