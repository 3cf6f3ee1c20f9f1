"""Combat benchmark: exact odds, each case side by side with /echo through the same harness and
with today's 4-attack round, all measured in this run.

    python bench/run.py combat      (or python bench/bench_combat.py)

Cases, each from an empty cache (what the first /odds of a fight costs), median of 3:

* the 4-attack fight (a captain against an orc: criticals, parry, saves), round and duel;
* the worst legal 1 v 1: 12 attacks a side, W3 (lrb and core: A6 frenzied; core2: A10 frenzied
  +1 and a second weapon), round and duel: targets 50 ms and 500 ms (issue 10);
* 3 v 1, each A2 W1: round and fight to the end: target 1 s (issue 10);
* several a side (issue 19 §5): 2 v 2 with W3 and 9-12 attacks each, 2 v 2 with W2 and 3-4
  attacks each, 3 v 1 (three A3 W2 against an A6 W3 ogre), 2 v 2 of monsters (two Rat Ogres
  against a Troll and an Ogre, from their templates): a round (target 100 ms) and a fight
  to the end as /odds answers it (``Budget()``: exact, or exact rounds then simulated; target
  1 s), beside the fully exact answer (no budget) and how far the answer is from it;
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

from bench.common import SMOKE, echo, new_harness, per_call, smoke  # noqa: E402
from engine.combat import Budget, api, duel_odds, make_fighter, round_odds, simulate_rounds  # noqa: E402
from engine.combat.loadout import _choose  # noqa: E402
from engine.combat.profile import find_template  # noqa: E402
from engine.combat.sides import shooting_target  # noqa: E402

N = smoke(100_000, 500)
EDITIONS = ("lrb", "core", "core2")


def four_attacks():
    return (make_fighter("Captain", "WS4 S4 A4", weapons="sword", armour="light armour, helmet"),
            make_fighter("Orc", "WS4 T4 A4 W2", weapons="sword", armour="heavy armour, buckler"))


def berserker(name: str, edition: str):
    """12 attacks, W3 (lrb and core: A6 frenzied; core2: A10 frenzied +1 and a second weapon)."""
    if edition == "core2":  # 004:690 frenzy is +1 A: A10 +1, and +1 for a second weapon (004:547)
        return make_fighter(name, "WS4 S4 T4 W3 A10", weapons="sword, dagger", frenzy=True, armour="light armour, helmet")
    return make_fighter(name, "WS4 S4 T4 W3 A6", weapons="sword", frenzy=True, armour="light armour, helmet")  # 000:865 doubles


def twelve_attacks(edition: str):
    return berserker("Berserker", edition), berserker("Other berserker", edition)


def three_against_one():
    return ([make_fighter(f"Youngblood {i}", "WS3 S3 A2 W1", weapons="sword", armour="light armour") for i in (1, 2, 3)],
            make_fighter("Veteran", "WS4 S4 T4 A2 W1", weapons="sword", armour="heavy armour, shield"))


def two_against_two_big(edition: str):
    """2 v 2, W3, 9-12 attacks each: three berserkers and a veteran with A9 (core2: two weapons, 10)."""
    veteran = make_fighter("Veteran", "WS4 S4 T4 W3 A9", weapons="sword" if edition != "core2" else "sword, dagger", armour="light armour")
    return [berserker("Berserker", edition), veteran], [berserker("Other berserker", edition), berserker("Third berserker", edition)]


def two_against_two_small():
    """2 v 2, W2, 3-4 attacks each."""
    return ([make_fighter("Sergeant", "WS4 S4 T4 W2 A3", weapons="sword", armour="light armour, helmet"),
             make_fighter("Brute", "WS4 S3 T3 W2 A4", weapons="axe")],
            [make_fighter("Orc boss", "WS4 S4 T4 W2 A4", weapons="sword", armour="heavy armour, buckler"),
             make_fighter("Ruffian", "WS3 S3 T3 W2 A3", weapons="club, dagger")])


def three_against_ogre():
    """3 v 1: three A3 W2 warriors with axes against an ogre, A6 W3 with two clubs."""
    return ([make_fighter(f"Marauder {i}", "WS4 S4 T3 A3 W2", weapons="axe", armour="light armour, helmet") for i in (1, 2, 3)],
            make_fighter("Ogre", "WS3 S4 T5 W3 I3 A6", weapons="club, club"))


def _template(name: str, label: str):
    """A fighter from a template, as /odds builds one from its name (its profile and traits, no kit)."""
    template = find_template(name)
    return make_fighter(label, template.profile, traits=sorted(template.traits))


def monsters():
    """2 v 2 of monsters, as the playtest asked /odds: Rat Ogre + Rat Ogre against Troll + Ogre
    (fear, Stupidity tests for three of them each turn; W3, T4-5, S4-5)."""
    return ([_template("Rat Ogre", "Rat Ogre 1"), _template("Rat Ogre", "Rat Ogre 2")],
            [_template("Troll", "Troll"), _template("Ogre", "Ogre")])


SEVERAL = [("2 v 2, W3, 9-12 attacks each", two_against_two_big, True),
           ("2 v 2, W2, 3-4 attacks each", lambda edition: two_against_two_small(), False),
           ("3 v 1, three A3 W2 against an A6 W3 ogre", lambda edition: three_against_ogre(), False),
           ("2 v 2 monsters: 2 Rat Ogres v Troll + Ogre", lambda edition: monsters(), True)]
# The smoke pass takes every path with a budget a hundred times smaller than /odds's, for the
# fully exact fights too (the big one takes seconds): figures that mean nothing, quickly.
SMOKE_BUDGET = Budget(exact_steps=900, simulated_steps=250, min_fights=20, max_fights=200)
NO_LIMIT = smoke(Budget(exact_steps=10**12, seconds=None), SMOKE_BUDGET)


def _several_a_side(echo_s: float, editions: tuple[str, ...]) -> None:
    """Issue 19 §5: a round and a fight to the end for each shape, as /odds answers them the first
    time (cold), beside the fully exact fight to the end (once for the big shape: it takes
    seconds) and how far the answer is from it."""
    print("Several a side (issue 19 §5): targets ≤ 100 ms a round, ≤ 1 s a fight to the end")
    for edition in editions:
        print(f"[{edition}]")
        for name, build, big in SEVERAL:
            a, b = build(edition)
            print(_row(f"{name}: round", _cold(round_odds, a, b, edition=edition), echo_s, None, 0.100))
            answered_s, duel = _cold_result(duel_odds, a, b, edition=edition)
            print(_row(f"{name}: to the end", answered_s, echo_s, None, 1.0) + f"  ({duel.how_computed()})")
            if big and edition != editions[0]:
                continue  # the fully exact big fight once is enough
            exact_s, exact = _cold_result(duel_odds, a, b, edition=edition, budget=NO_LIMIT, runs=1)
            gap = max(abs(duel.win - exact.win), abs(duel.lose - exact.lose))
            if duel.exact:
                verdict = "the same answer" if gap <= exact.pruned + duel.pruned + 1e-12 else "DIFFERENT"
            else:  # a 95% interval misses about 1 time in 20
                verdict = f"off by {100 * gap:.2f}% = {gap / duel.margin:.1f}× its 95% margin"
            print(_row(f"{name}: to the end, fully exact", exact_s, echo_s, None, None)
                  + f"  (wins {100 * exact.win:.2f}% vs answered {100 * duel.win:.2f}%: {verdict})")


def _cold_result(fn, *args, runs: int = 3, **kw):
    """(median seconds, the last answer) of ``runs`` runs, each with every odds table forgotten."""
    times = []
    if SMOKE and fn is duel_odds:
        kw.setdefault("budget", SMOKE_BUDGET)
    for _ in range(smoke(runs, 1)):
        _forget_tables()
        start = time.perf_counter()
        result = fn(*args, **kw)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def _forget_tables() -> None:
    api._cached_rules.cache_clear()
    _choose.cache_clear()
    shooting_target.cache_clear()


def _cold(fn, *args, **kw) -> float:
    """Median seconds of 3 runs, each with every odds table forgotten."""
    return _cold_result(fn, *args, **kw)[0]


def _row(name: str, seconds: float, echo_s: float, base_s: float | None, target_s: float | None) -> str:
    verdict = ""
    if target_s is not None:
        verdict = f"  target ≤ {target_s * 1000:g} ms: " + ("smoke pass, not checked" if SMOKE else "ok" if seconds <= target_s else "OVER")
    base = f", {seconds / base_s:6.1f}× the 4-attack round" if base_s else ""
    return f"  {name:<46} {seconds * 1000:8.1f} ms = {seconds / echo_s:8.0f}× /echo{base}{verdict}"


async def main() -> None:
    async with new_harness() as h:
        reference = echo(h)
        await per_call(reference, smoke(20, 2))
        echo_s = statistics.median([await per_call(reference, smoke(40, 2)) for _ in range(smoke(5, 1))])
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

    _several_a_side(echo_s, ("lrb", "core2"))

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
