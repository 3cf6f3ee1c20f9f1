"""Benchmark: exact odds of a 4-attacks-a-side round and a duel, against 100,000 simulated rounds.

Run: python bench/bench_combat.py
"""

import math
import random
import time

from engine.combat import duel_odds, make_fighter, round_odds, simulate_rounds
from engine.combat.api import round_rules  # noqa: F401

N = 100_000


def main() -> None:
    a = make_fighter("Captain", "WS4 S4 A4", weapons="sword", armour="light armour, helmet")
    b = make_fighter("Orc", "WS4 T4 A4 W2", weapons="sword", armour="heavy armour, buckler")
    for edition in ("lrb", "core", "core2"):
        t = time.perf_counter()
        exact = round_odds(a, b, edition=edition)
        t_round = time.perf_counter() - t
        t = time.perf_counter()
        duel = duel_odds(a, b, edition=edition)
        t_duel = time.perf_counter() - t
        print(f"[{edition}] exact round odds (4 attacks a side, criticals, parry, saves): {1000 * t_round:.1f} ms (target 20 ms)")
        print(f"[{edition}] exact duel to the end: {1000 * t_duel:.1f} ms (target 200 ms); win {duel.win:.4f} lose {duel.lose:.4f} left {duel.unfinished:.2e}")
        if edition != "lrb":
            continue
        t = time.perf_counter()
        counts = simulate_rounds(a, b, N, random.Random(1), edition=edition)
        t_sim = time.perf_counter() - t
        print(f"[{edition}] {N:,} simulated rounds: {t_sim:.2f} s = {t_sim / t_round:.0f}x the exact round odds")
        sim = {}
        for key, c in counts.items():
            sim[key[2]] = sim.get(key[2], 0) + c
        for outcome, p in exact.fighters[1].outcomes.items():
            f = sim.get(outcome, 0) / N
            se = math.sqrt(p * (1 - p) / N)
            print(f"    Orc {outcome:14s} exact {p:.4f}  simulated {f:.4f} ± {2 * se:.4f} (2 s.e.)")


if __name__ == "__main__":
    main()
