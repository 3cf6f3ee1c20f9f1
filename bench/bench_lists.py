"""Warband lists benchmark: loading and checking every list at bot start, in new processes, and
the `warband_type` autocomplete over every list.

    python bench/bench_lists.py        (or: python bench/run.py lists)

Targets (issues 8 and 17): loading every list at start ≤ 100 ms; `/warband create`'s
`warband_type` autocomplete over every list ≤ 1.5× /echo. Each load run is a new Python process,
so nothing is cached: it reads every file under rules_data/warbands/ (the lists, hired swords and
Dramatis Personae), checks every cross-reference and builds the catalogue (``bundled_catalogue()``).
The median of several runs is printed next to /echo through the harness in this same run, for a
ratio on a noisy machine. The autocomplete is measured through the harness like /echo, typed
with no prefix (every list, the first 25 shown) and with a few letters, alternating.

For information it also times what the bot does not do at start: validating the bundled files
with jsonschema (the tests do), which is why the loader leaves it out.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import echo, line, new_harness, per_call, ratio, smoke  # noqa: E402
from bot.harness import Actor  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RUNS = smoke(7, 1)
LOAD_TARGET_MS = 100
AUTOCOMPLETE_TARGET = 1.5
PREFIXES = ("", "s", "or", "mer", "tile", "dwar", "")

FRESH_PROCESS = """
import json, time
t = time.perf_counter()
from engine.campaign.lists import catalogue as lists
imported = time.perf_counter() - t
t = time.perf_counter()
catalogue = lists.bundled_catalogue()
loaded = time.perf_counter() - t
t = time.perf_counter()
files = lists.read_bundled_files()
problems = sum(len(lists.schema_problems(data, kind)) for kind, data in files.values())
schema = time.perf_counter() - t
print(json.dumps({"import": imported, "load": loaded, "schema": schema, "warbands": len(catalogue.warbands),
                  "items": len(catalogue.items), "files": len(files), "problems": problems}))
"""


def fresh_runs(runs: int = RUNS) -> list[dict]:
    return [json.loads(subprocess.run([sys.executable, "-c", FRESH_PROCESS], capture_output=True, text=True, cwd=ROOT, check=True).stdout)
            for _ in range(runs)]


async def main() -> None:
    print(f"Warband lists at start (each run a new process, median of {RUNS})")
    runs = fresh_runs()
    load = statistics.median(r["load"] for r in runs)
    imported = statistics.median(r["import"] for r in runs)
    schema = statistics.median(r["schema"] for r in runs)
    first = runs[0]
    print(f"  {first['files']} files, {first['warbands']} warband lists, {first['items']} items")
    print(line("read, check and build every list (bundled_catalogue)", load * 1000, LOAD_TARGET_MS, unit=" ms"))
    print(line("importing engine.campaign.lists.catalogue (for information)", imported * 1000, unit=" ms"))
    print(line("jsonschema, import + every file (tests only; information)", schema * 1000, unit=" ms"))
    async with new_harness() as h:
        reference = echo(h)
        await per_call(reference, 20)
        echo_s = statistics.median([await per_call(reference, smoke(40, 2)) for _ in range(smoke(7, 1))])
        print(line("loading every list ÷ one /echo through the harness", load / echo_s))
        print(f"  {'':58} (load {load * 1e3:.1f} ms, /echo {echo_s * 1e6:.0f} µs)")
        actor = Actor(guild_id=4242)
        typed = iter(PREFIXES * 10_000)

        async def warband_types():
            res = await h.autocomplete("warband create", "warband_type", actor, name="x", warband_type=next(typed))
            assert res.choices, res.text
            return res

        r, t_s, ref_s = await ratio(warband_types, echo(h, actor), batches=11, per_batch=25)
        print(line("warband_type autocomplete over every list ÷ /echo", r, AUTOCOMPLETE_TARGET))
        print(f"  {'':58} {t_s * 1e6:8.0f} µs vs /echo {ref_s * 1e6:.0f} µs")


if __name__ == "__main__":
    asyncio.run(main())
