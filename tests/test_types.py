"""mypy passes over the whole engine (pyproject.toml [tool.mypy]); CI runs it with the tests."""

from __future__ import annotations


from tests.test_import_graph import ROOT

from mypy import api as mypy_api  # in the test extra: CI runs it, never skips it

CHECKED = ("engine",)


def test_mypy_passes():
    out, err, status = mypy_api.run([
        "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(ROOT / ".mypy_cache"),
        *(str(ROOT / p) for p in CHECKED),
    ])
    assert status == 0, out + err
