"""Seeded large samples of the special dice against the distributions the rules give.

The expected frequencies are written from the seed rules, not from the code. Each test
compares 60,000 rolls with a chi-square statistic against the 0.1% critical value for its
degrees of freedom; the seeds are fixed, so the tests are deterministic.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

from engine.dice import Outcome, characteristic_test, leadership_test, roll

N = 60_000

# chi-square critical values at p = 0.001, by degrees of freedom
CRITICAL_0_001 = {1: 10.83, 2: 13.82, 4: 18.47, 5: 20.52, 6: 22.46, 35: 66.62}


def chi_square(observed: Counter, expected: dict, n: int) -> float:
    assert set(observed) <= set(expected), f"impossible results: {set(observed) - set(expected)}"
    return sum((observed.get(k, 0) - n * float(p)) ** 2 / (n * float(p)) for k, p in expected.items())


def assert_matches(observed: Counter, expected: dict) -> None:
    assert sum(expected.values()) == 1
    stat = chi_square(observed, expected, N)
    assert stat < CRITICAL_0_001[len(expected) - 1], (stat, observed)


def sample(text: str, seed: int) -> Counter:
    rng = random.Random(seed)
    return Counter(roll(text, rng).total for _ in range(N))


def test_d3_distribution():
    # 000:188: "1 or 2 equals 1, 3 or 4 equals 2 and 5 or 6 equals 3"
    assert_matches(sample("d3", 3), {1: Fraction(2, 6), 2: Fraction(2, 6), 3: Fraction(2, 6)})


def test_d66_distribution():
    # tens die and units die, each D6: 36 equally likely results 11..66, no 0s, 7s, 8s or 9s
    expected = {10 * t + u: Fraction(1, 36) for t in range(1, 7) for u in range(1, 7)}
    assert_matches(sample("d66", 66), expected)


def test_artillery_distribution():
    # 002:74 / 004:76: faces 2, 4, 6, 8, 10 and Misfire, one face each
    expected = {2: Fraction(1, 6), 4: Fraction(1, 6), 6: Fraction(1, 6), 8: Fraction(1, 6), 10: Fraction(1, 6), Outcome.MISFIRE: Fraction(1, 6)}
    assert_matches(sample("art", 2), expected)


def test_scatter_distribution():
    # 002:81-87 / 004:82-88: 1 top, 2 right, 3 bottom, 4 left, 5 or 6 direct hit
    expected = {
        Outcome.TOP: Fraction(1, 6),
        Outcome.RIGHT: Fraction(1, 6),
        Outcome.BOTTOM: Fraction(1, 6),
        Outcome.LEFT: Fraction(1, 6),
        Outcome.DIRECT_HIT: Fraction(2, 6),
    }
    assert_matches(sample("scatter", 9), expected)


def test_characteristic_test_pass_rate_with_value_7():
    # 000:251: a 6 always fails, so even a characteristic of 7 passes only 5 times in 6
    rng = random.Random(251)
    passed = Counter(characteristic_test(7, rng, characteristic="I").passed for _ in range(N))
    assert_matches(passed, {True: Fraction(5, 6), False: Fraction(1, 6)})


def test_leadership_7_pass_rate():
    # 000:257: 2D6 <= 7 happens in 21 of 36 throws
    rng = random.Random(257)
    passed = Counter(leadership_test(7, rng).passed for _ in range(N))
    assert_matches(passed, {True: Fraction(21, 36), False: Fraction(15, 36)})


def test_odd_sized_die_is_uniform():
    # 7 does not divide 256: the bytes past 252 must be thrown away, not folded in
    assert_matches(sample("d7", 7), {f: Fraction(1, 7) for f in range(1, 8)})


def test_large_die_reaches_every_face():
    rng = random.Random(1000)
    seen = Counter(d.face for _ in range(600) for d in roll("100d1000", rng).dice)
    assert set(seen) == set(range(1, 1001))


def test_bytes_past_the_last_whole_multiple_are_rerolled():
    from engine.dice.die import uniform_faces

    class Bytes(random.Random):
        def __init__(self, *chunks: bytes) -> None:
            super().__init__(0)
            self.chunks = list(chunks)

        def randbytes(self, n: int) -> bytes:
            chunk = self.chunks.pop(0)
            assert len(chunk) == n
            return chunk

    # 252..255 would favour faces 1-4 of a D6, so they are dropped and drawn again
    assert uniform_faces(6, 2, Bytes(bytes([255, 5]), bytes([252]), bytes([0]))) == [6, 1]
    assert uniform_faces(1000, 1, Bytes((999).to_bytes(2, "big"))) == [1000]
