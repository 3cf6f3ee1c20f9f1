"""Combat benchmark: exact odds, each case side by side with /echo through the same harness and
with today's 4-attack round, all measured in this run.

    python bench/run.py combat      (or python bench/bench_combat.py)

Cases, each from an empty cache (what the first /odds of a fight costs), median of 3:

* the 4-attack fight (a captain against an orc: criticals, parry, saves), round and duel;
* the worst legal 1 v 1: 12 attacks a side, W3 (lrb and core: A6 frenzied; core2: A10 frenzied
  +1 and a second weapon), round and duel: targets 50 ms and 500 ms (issue 10);
* 3 v 1, each A2 W1: round and fight to the end: target 1 s (issue 10);
* and Roll mode: µs per simulated round, and simulated/exact per outcome.

Each figure is printed in ms and as ratios: ÷ /echo (one trivial command through the tree, a
fraction of a millisecond) and ÷ the 4-attack round of the same edition, so a slower or busier
machine moves the ms but not the ratios.
"""

from __future__ import annotations

import asyncio
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import echo, new_harness, per_call  # noqa: E402
from engine.combat import api, duel_odds, make_fighter, round_odds, simulate_rounds  # noqa: E402
from engine.combat.loadout import _choose  # noqa: E402
from engine.combat.sides import shooting_target  # noqa: E402

N = 100_000
EDITIONS = ("lrb", "core", "core2")


def four_attacks():
    return (make_fighter("Captain", "WS4 S4 A4", weapons="sword", armour="light armour, helmet"),
            make_fighter("Orc", "WS4 T4 A4 W2", weapons="sword", armour="heavy armour, buckler"))


def twelve_attacks(edition: str):
    if edition == "core2":  # 004:690 frenzy is +1 A: A10 +1, and +1 for a second weapon (004:547)
        profile, kit = "WS4 S4 T4 W3 A10", dict(weapons="sword, dagger", frenzy=True, armour="light armour, helmet")
    else:  # 000:865 frenzy doubles: A6 -> 12
        profile, kit = "WS4 S4 T4 W3 A6", dict(weapons="sword", frenzy=True, armour="light armour, helmet")
    return make_fighter("Berserker", profile, **kit), make_fighter("Other berserker", profile, **kit)


def three_against_one():
    return ([make_fighter(f"Youngblood {i}", "WS3 S3 A2 W1", weapons="sword", armour="light armour") for i in (1, 2, 3)],
            make_fighter("Veteran", "WS4 S4 T4 A2 W1", weapons="sword", armour="heavy armour, shield"))


def _cold(fn, *args, **kw) -> float:
    """Median seconds of 3 runs, each with every odds table forgotten."""
    times = []
    for _ in range(3):
        api._cached_rules.cache_clear()
        _choose.cache_clear()
        shooting_target.cache_clear()
        start = time.perf_counter()
        fn(*args, **kw)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _row(name: str, seconds: float, echo_s: float, base_s: float | None, target_s: float | None) -> str:
    verdict = ""
    if target_s is not None:
        verdict = f"  target ≤ {target_s * 1000:g} ms: " + ("ok" if seconds <= target_s else "OVER")
    base = f", {seconds / base_s:6.1f}× the 4-attack round" if base_s else ""
    return f"  {name:<46} {seconds * 1000:8.1f} ms = {seconds / echo_s:8.0f}× /echo{base}{verdict}"


async def main() -> None:
    async with new_harness() as h:
        reference = echo(h)
        await per_call(reference, 20)
        echo_s = statistics.median([await per_call(reference, 40) for _ in range(5)])
    print(f"Combat odds (cold: every table forgotten; /echo through the harness = {echo_s * 1e6:.0f} µs in this run)")
    for edition in EDITIONS:
        a, b = four_attacks()
        base = _cold(round_odds, a, b, edition=edition)
        print(f"[{edition}]")
        print(_row("4 attacks a side: round", base, echo_s, None, 0.020))
        print(_row("4 attacks a side: duel", _cold(duel_odds, a, b, edition=edition), echo_s, base, 0.200))
        a, b = twelve_attacks(edition)
        print(_row("12 attacks a side, W3: round", _cold(round_odds, a, b, edition=edition), echo_s, base, 0.050))
        print(_row("12 attacks a side, W3: duel", _cold(duel_odds, a, b, edition=edition), echo_s, base, 0.500))
        three, one = three_against_one()
        print(_row("3 v 1, A2 W1: round", _cold(round_odds, three, one, edition=edition), echo_s, base, 1.0))
        print(_row("3 v 1, A2 W1: fight to the end", _cold(duel_odds, three, one, edition=edition), echo_s, base, 1.0))

    a, b = four_attacks()
    exact = round_odds(a, b, edition="lrb")
    start = time.perf_counter()
    counts = simulate_rounds(a, b, N, random.Random(1), edition="lrb")
    t_sim = time.perf_counter() - start
    base = _cold(round_odds, a, b, edition="lrb")
    print(f"[lrb] {N:,} simulated rounds (Roll mode, same rule code): {t_sim:.2f} s = {1e6 * t_sim / N:.0f} µs a round "
          f"= {t_sim / N / echo_s:.2f}× /echo; all of them {t_sim / base:.0f}× the exact round odds")
    sim: dict[str, int] = {}
    for key, c in counts.items():
        sim[key[2]] = sim.get(key[2], 0) + c
    for outcome, p in exact.fighters[1].outcomes.items():
        if p == 0:
            continue
        f = sim.get(outcome, 0) / N
        se = math.sqrt(p * (1 - p) / N)
        print(f"    Orc {outcome:14s} exact {p:.4f}  simulated {f:.4f} ± {2 * se:.4f} (2 s.e.)  simulated/exact {f / p:.3f}")


if __name__ == "__main__":
    asyncio.run(main())
