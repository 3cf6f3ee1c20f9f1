"""Benchmark: exact odds of a 4-attacks-a-side round and a duel, against 100,000 simulated rounds.

Run: python bench/bench_combat.py

Odds-mode tables live on the rules objects, which are cached per fight (engine.combat.api._rules),
so each edition is timed from an empty cache ("cold": what the first /odds of a fight costs), and
the duel both right after the round (it reuses the round's tables, as the cog would) and cold.
"""

import json
import math
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from engine.combat import duel_odds, make_fighter, round_odds, simulate_rounds
from engine.combat import api

N = 100_000


def _timed(fn, *args, **kw):
    t = time.perf_counter()
    out = fn(*args, **kw)
    return out, time.perf_counter() - t


FRESH_PROCESS = """
import json, sys, time
from engine.combat import duel_odds, make_fighter, round_odds
a = make_fighter("Captain", "WS4 S4 A4", weapons="sword", armour="light armour, helmet")
b = make_fighter("Orc", "WS4 T4 A4 W2", weapons="sword", armour="heavy armour, buckler")
t = time.perf_counter(); round_odds(a, b, edition=sys.argv[1]); r = time.perf_counter() - t
t = time.perf_counter(); duel_odds(a, b, edition=sys.argv[1]); d = time.perf_counter() - t
print(json.dumps([r, d]))
"""


def fresh_process_times(edition: str, runs: int = 3) -> tuple[float, float]:
    """Median (round, duel-after-round) seconds, each run in a new process: nothing cached at all."""
    root = Path(__file__).resolve().parent.parent
    out = [json.loads(subprocess.run([sys.executable, "-c", FRESH_PROCESS, edition], capture_output=True, text=True,
                                     cwd=root, check=True).stdout) for _ in range(runs)]
    return statistics.median(r for r, _ in out), statistics.median(d for _, d in out)


def main() -> None:
    a = make_fighter("Captain", "WS4 S4 A4", weapons="sword", armour="light armour, helmet")
    b = make_fighter("Orc", "WS4 T4 A4 W2", weapons="sword", armour="heavy armour, buckler")
    for edition in ("lrb", "core", "core2"):
        fresh_round, fresh_duel = fresh_process_times(edition)
        print(f"[{edition}] in a new process (median of 3): round odds {1000 * fresh_round:.1f} ms (target 20 ms), "
              f"then the duel {1000 * fresh_duel:.1f} ms (target 200 ms)")
        api._cached_rules.cache_clear()
        exact, t_round = _timed(round_odds, a, b, edition=edition)
        duel, t_duel = _timed(duel_odds, a, b, edition=edition)
        _, t_again = _timed(round_odds, a, b, edition=edition)
        api._cached_rules.cache_clear()
        _, t_duel_cold = _timed(duel_odds, a, b, edition=edition)
        print(f"[{edition}] exact round odds (4 attacks a side, criticals, parry, saves): {1000 * t_round:.1f} ms cold (target 20 ms), {1000 * t_again:.2f} ms asked again")
        print(f"[{edition}] exact duel to the end: {1000 * t_duel:.1f} ms after the round, {1000 * t_duel_cold:.1f} ms cold (target 200 ms); "
              f"win {duel.win:.4f} lose {duel.lose:.4f} left {duel.unfinished:.2e}")
        if edition != "lrb":
            continue
        counts, t_sim = _timed(simulate_rounds, a, b, N, random.Random(1), edition=edition)
        print(f"[{edition}] {N:,} simulated rounds (Roll mode, same rule code): {t_sim:.2f} s = {1e6 * t_sim / N:.0f} µs a round, "
              f"{t_sim / t_round:.0f}x the exact round odds")
        sim = {}
        for key, c in counts.items():
            sim[key[2]] = sim.get(key[2], 0) + c
        for outcome, p in exact.fighters[1].outcomes.items():
            f = sim.get(outcome, 0) / N
            se = math.sqrt(p * (1 - p) / N)
            ratio = f / p if p else float("nan")
            print(f"    Orc {outcome:14s} exact {p:.4f}  simulated {f:.4f} ± {2 * se:.4f} (2 s.e.)  simulated/exact {ratio:.3f}")


if __name__ == "__main__":
    main()
