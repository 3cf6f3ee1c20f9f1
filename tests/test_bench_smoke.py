"""The benchmarks keep running (issue 19 §6): `python bench/run.py` as the smoke pass
(``MORDHEIM_BENCH_SMOKE=1``: every section once over the smallest data, no target checked), in a
process of its own as a person would run it. A benchmark broke once and nobody saw; now a
section that fails fails the tests. About 20 s on the shared test machine."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"


def sections() -> list[str]:
    """bench/run.py's SECTIONS, read without importing it (it imports the bot)."""
    tree = ast.parse((BENCH / "run.py").read_text(encoding="utf-8"))
    found = next(n.value for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "SECTIONS")
    return list(ast.literal_eval(found))


def test_every_benchmark_is_a_section_of_the_run():
    """A benchmark added under bench/ is run by bench/run.py, so by the smoke pass too."""
    benchmarks = {f"bench.{p.stem}" for p in BENCH.glob("*.py") if p.stem not in ("__init__", "common", "run", "sqlite_share")}
    assert set(sections()) == benchmarks


def test_the_smoke_pass_runs_every_benchmark(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "MORDHEIM_DB")}
    # a PostgreSQL cluster the PostgreSQL bench starts (no test cluster's URL set) goes where its
    # unprivileged OS user can reach it: not below pytest's tmp_path, whose parents are private
    env.setdefault("MORDHEIM_PG_TMPDIR", tempfile.gettempdir())
    env.update(MORDHEIM_BENCH_SMOKE="1", TMPDIR=str(tmp_path), PYTHONUNBUFFERED="1")  # what a benchmark leaves, left here
    done = subprocess.run([sys.executable, str(BENCH / "run.py")], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    said = done.stdout + done.stderr
    assert done.returncode == 0, said[-6000:]
    assert "Traceback" not in said, said[-6000:]
    for name in sections():
        assert f"({name} took " in done.stdout, f"{name} did not run:\n{said[-3000:]}"
    assert "smoke pass: not checked" in done.stdout and "OVER TARGET" not in done.stdout


def test_a_failing_section_fails_the_run(tmp_path):
    """The test above can fail: a section that raises makes bench/run.py exit 1, naming it, and the
    other sections still run."""
    broken = tmp_path / "bench_broken.py"
    broken.write_text("def main():\n    raise RuntimeError('this benchmark no longer runs')\n", encoding="utf-8")
    script = (f"import sys, asyncio; sys.path.insert(0, {str(ROOT)!r}); sys.path.insert(0, {str(tmp_path)!r})\n"
              "import bench.run as run\n"
              "run.SECTIONS = ['bench_broken', 'bench.bench_lists']\n"
              "failed = asyncio.run(run.main([]))\n"
              "print('FAILED:', failed)\n"
              "sys.exit(1 if failed else 0)\n")
    env = {**os.environ, "MORDHEIM_BENCH_SMOKE": "1", "TMPDIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "RuntimeError: this benchmark no longer runs" in done.stderr
    assert "FAILED: ['bench_broken']" in done.stdout and "(bench.bench_lists took " in done.stdout
