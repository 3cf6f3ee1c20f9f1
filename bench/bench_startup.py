"""Start-up: a new ``python -m bot`` process (no DISCORD_TOKEN: the offline console) from its start
until it answers its first line, beside a bare ``python -c pass`` measured in the same run.

    python bench/run.py startup      (or python bench/bench_startup.py)

Issue 19 asks for ready in ≤ 0.8 s. Each start is timed until the console's answer to
``/echo`` arrives on its standard output (the first input it reads; the echo itself costs a
fraction of a millisecond). The runs alternate, so a busy machine slows them alike, and the
figure is the median of each:

* ``python -c pass``: the floor of any Python start on this machine;
* the bot with ``PYTHONDONTWRITEBYTECODE=1`` (as on these machines) and its bytecode cache
  (``bot/__main__.py: keep_bytecode``) already filled by an earlier start;
* the same with ``MORDHEIM_BYTECODE_CACHE=off``: every module compiled at every start (how it
  was before the cache);
* and once, the first start with an empty cache (a fresh clone), which fills it.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import SMOKE, smoke  # noqa: E402

RUNS = smoke(7, 1)
TARGET_S = 0.8


def _env(folder: Path, cache: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "PYTHONPYCACHEPREFIX")}
    env.update(PYTHONDONTWRITEBYTECODE="1", PYTHONUNBUFFERED="1", MORDHEIM_DB=str(folder / "bench.db"),
               MORDHEIM_BYTECODE_CACHE=cache, PYTHONPATH=str(ROOT))
    return env


def bare_start() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


def bot_start(folder: Path, cache: str) -> float:
    """Seconds from starting ``python -m bot`` until its answer to the first line is read."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "bot"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=folder, env=_env(folder, cache), text=True)
    try:
        proc.stdin.write("/echo text:ready-for-input\n")
        proc.stdin.flush()
        for line in proc.stdout:
            if "ready-for-input" in line and not line.startswith(">"):
                break
        else:
            raise RuntimeError("the console never answered /echo")
        elapsed = time.perf_counter() - start
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    return elapsed


def main() -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="mordheim-bench-start-") as tmp:
        folder = Path(tmp)
        cache = str(folder / "bytecode")
        first = bot_start(folder, cache)  # a fresh clone: fills the cache
        bare, cached, uncached = [], [], []
        for _ in range(RUNS):
            bare.append(bare_start())
            cached.append(bot_start(folder, cache))
            uncached.append(bot_start(folder, "off"))
    figures = {"python -c pass": statistics.median(bare), "bot, bytecode cached": statistics.median(cached),
               "bot, compiled every start": statistics.median(uncached), "bot, first start (empty cache)": first}
    floor = figures["python -c pass"]
    print(f"Start-up of `python -m bot` (offline console) until it answers its first line, median of {RUNS}:")
    for name, seconds in figures.items():
        verdict = ""
        if name == "bot, bytecode cached":
            verdict = f"  target ≤ {TARGET_S * 1000:g} ms: " + ("smoke pass, not checked" if SMOKE else "ok" if seconds <= TARGET_S else "OVER")
        print(f"  {name:<34} {seconds * 1000:7.0f} ms = {seconds / floor:5.1f}× python -c pass{verdict}")
    return figures


if __name__ == "__main__":
    main()
