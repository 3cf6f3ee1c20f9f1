"""Falling and jumping down (000:411-431): the seed's worked example, exact odds, and a simulation."""

import random
import re
from fractions import Fraction

import pytest

from engine.combat import make_fighter
from engine.combat.falling import LANDED, fall_odds, roll_fall
from engine.errors import LimitExceeded

HUMAN = make_fighter("Human", "human")  # T3 W1 I3 (000:243)


def test_a_4_inch_fall_is_d3_strength_4_hits_with_no_save():
    # 000:431 "if the model fell 4", it would take D3 hits at Strength 4"; no armour saves
    armoured = make_fighter("Knight", "human", armour="heavy armour, shield")
    for seed in range(40):
        r = roll_fall(armoured, 4, random.Random(seed))
        assert "at Strength 4 against Toughness 3" in r.lines[0] and "no armour save" in r.lines[0]
        assert not any("save" in line.lower() and "rolled" in line for line in r.lines[1:])  # no save is rolled
        m = re.search(r"D3 hits, rolled (\d) → (\d) hits?", r.lines[0])
        assert m is not None, r.lines[0]
        d6, hits = int(m[1]), int(m[2])
        assert hits == (d6 + 1) // 2 and 1 <= hits <= 3  # the D3's die is shown, halved rounding up
    # S4 vs T3 wounds on 3+ (000:521-533): unharmed = sum over D3 hits of (1/3)^hits / 3
    unharmed = sum(Fraction(1, 3) ** n for n in (1, 2, 3)) / 3
    assert fall_odds(HUMAN, 4)["unharmed"] == pytest.approx(float(unharmed), abs=1e-12)
    assert fall_odds(armoured, 4) == fall_odds(HUMAN, 4)  # armour changes nothing


def test_a_5_inch_jump_is_two_initiative_tests():
    # 000:411 the Skaven example: jumping down 5" "must pass two Initiative tests"
    r = roll_fall(HUMAN, 5, random.Random(1), jump=True)
    tests = [line for line in r.lines if line.startswith("Initiative test")]
    assert tests and all(" of 2:" in line for line in tests)
    assert fall_odds(HUMAN, 5, jump=True)[LANDED] == pytest.approx(0.25)  # I3: 1/2 each
    assert fall_odds(HUMAN, 1, jump=True) == {LANDED: 1.0}


def test_odds_sum_to_one_and_match_simulation():
    who = make_fighter("Ogre", "T4 W3 I2", armour="helmet")
    exact = fall_odds(who, 6, jump=True)
    assert sum(exact.values()) == pytest.approx(1.0, abs=1e-9)
    rng = random.Random(7)
    n = 40_000
    counts: dict[str, int] = {}
    for _ in range(n):
        status = roll_fall(who, 6, rng, jump=True).outcome.status
        counts[status] = counts.get(status, 0) + 1
    assert set(counts) <= set(exact)
    for status, p in exact.items():
        se = (p * (1 - p) / n) ** 0.5
        assert abs(counts.get(status, 0) / n - p) <= 5 * se + 1e-9, status


@pytest.mark.parametrize("height,jump", [(0, False), (11, False), (7, True), (0, True)])
def test_heights_out_of_range(height, jump):
    with pytest.raises(LimitExceeded):
        fall_odds(HUMAN, height, jump=jump)
