"""Exact odds against 100,000 seeded simulated fights of the same rule code (Roll mode).

Each outcome's (and each number of wounds lost's) simulated frequency must be within 5 standard
errors of the exact value, sqrt(p(1-p)/N); no simulated result may have exact probability 0.
"""

import math
import random

import pytest

from engine.combat import duel_odds, injury_distribution, make_fighter, round_odds, simulate_rounds
from engine.combat.dice import RollDice
from engine.combat.injury import InjuryOptions, injury_rule

N = 100_000

SCENARIOS = [
    ("lrb", dict(profile="WS4 A2", weapons="sword", armour="light armour, helmet"), dict(profile="WS3 T4", weapons="axe", armour="shield"), {}),
    ("lrb", dict(profile="WS4 S4 A3", weapons="hammer"), dict(profile="WS4 W2", weapons="sword", armour="heavy armour, buckler"), {}),
    ("core", dict(profile="WS4 A2", weapons="sword, sword"), dict(profile="WS4 A2", weapons="sword, dagger", armour="light armour"), {}),
    ("core2", dict(profile="WS3 A2", weapons="axe, axe"), dict(profile="WS4", weapons="spear", armour="shield"), {}),
    ("core", dict(profile="WS4 A2 S4", weapons="double-handed hammer"), dict(profile="WS3 W2", weapons="sword", armour="helmet"), {}),
    ("lrb", dict(profile="WS3 A1", weapons="sword, pistol", equipment="black lotus"), dict(profile="WS3", weapons="dagger", equipment="lucky charm"), {}),
    ("core2", dict(profile="WS4 A2", weapons="halberd"), dict(profile="WS3", weapons="club", equipment="mandrake root"), {}),
    ("lrb", dict(profile="wardog"), dict(profile="WS0 T4"), dict(charged=False)),
    ("core", dict(profile="WS3 A1", weapons="fist", frenzy=True), dict(profile="WS3", weapons="flail"), {}),
    ("lrb", dict(profile="WS3 A2", weapons="sword", hates=True, causes_fear=True), dict(profile="WS4", weapons="morning star", armour="shield"), {}),
    ("core2", dict(profile="WS4 A4", weapons="sword", armour="gromril armour"), dict(profile="WS4 A4 W2", weapons="sword", armour="heavy armour, buckler, helmet"), {}),
    ("lrb", dict(profile="WS3 BS4", weapons="sword, crossbow pistol", equipment="dark venom"), dict(profile="WS3", weapons="sword", state="knocked down"), dict(first_round=True)),
]


# several a side (2 v 1, 3 v 1, 2 v 2): each round rolls more dice, so fewer rounds are simulated
SEVERAL = [
    ("lrb", [dict(profile="WS3 A2", weapons="sword"), dict(profile="WS3", weapons="axe, dagger")],
     [dict(profile="WS4 A2 W2", weapons="sword", armour="light armour, helmet")], {}),
    ("core", [dict(profile="WS3", weapons="hammer"), dict(profile="wardog", traits="animal"), dict(profile="WS3", weapons="spear")],
     [dict(profile="WS4 S4 A2 Ld6", weapons="axe", armour="shield")], {}),
    ("core2", [dict(profile="WS3 A2", weapons="sword"), dict(profile="WS3", weapons="flail")],
     [dict(profile="WS3 A2", weapons="sword, dagger"), dict(profile="WS3 T4", weapons="hammer", armour="helmet")], dict(charged=False)),
]
N_SEVERAL = 60_000


def _side(specs, letter):
    return [make_fighter(f"{letter}{i}", **spec) for i, spec in enumerate(specs, start=1)]


@pytest.mark.parametrize("edition,a,b,kw", SCENARIOS + SEVERAL)
def test_round_odds_match_simulation(edition, a, b, kw):
    several = isinstance(a, list)
    fa, fb = (_side(a, "A"), _side(b, "B")) if several else (make_fighter("A", **a), make_fighter("B", **b))
    n = N_SEVERAL if several else N
    exact = round_odds(fa, fb, edition=edition, **kw)
    counts = simulate_rounds(fa, fb, n, random.Random(12345), edition=edition, **kw)
    for i, fo in enumerate(exact.fighters):
        sim = {}
        for key, c in counts.items():
            sim[key[2 * i]] = sim.get(key[2 * i], 0) + c
        for outcome, p in fo.outcomes.items():
            freq = sim.get(outcome, 0) / n
            se = math.sqrt(max(p * (1 - p), 1e-9) / n)
            assert abs(freq - p) <= 5 * se + 1e-9, (edition, fo.name, outcome, freq, p)
        lost = {}
        for key, c in counts.items():
            lost[key[2 * i + 1]] = lost.get(key[2 * i + 1], 0) + c
        assert set(lost) <= set(fo.wounds_lost), (edition, fo.name, lost, fo.wounds_lost)  # nothing impossible happened
        for wounds, p in fo.wounds_lost.items():
            freq = lost.get(wounds, 0) / n
            se = math.sqrt(max(p * (1 - p), 1e-9) / n)
            assert abs(freq - p) <= 5 * se + 1e-9, (edition, fo.name, "wounds lost", wounds, freq, p)


def test_injury_distribution_matches_rolls():
    opts = InjuryOptions(concussion=True, helmet=True, bonus=1)
    exact = injury_distribution(concussion=True, helmet=True, bonus=1)
    rng = random.Random(7)
    dice = RollDice(rng, logging=False)
    counts = {}
    for _ in range(N):
        r = injury_rule(dice, opts)
        counts[r] = counts.get(r, 0) + 1
    for inj, p in exact.items():
        assert abs(counts.get(inj, 0) / N - p) <= 5 * math.sqrt(p * (1 - p) / N)


def test_duel_probabilities_add_up():
    d = duel_odds(make_fighter("A", "WS4"), make_fighter("B"))
    assert abs(d.win + d.lose + d.both + d.unfinished - 1) < 1e-9
    assert d.win > d.lose
