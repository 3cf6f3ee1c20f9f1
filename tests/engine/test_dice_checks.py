"""Mordheim's tests: characteristic (000:251), Leadership (000:257), Artillery and Scatter rolls."""

from __future__ import annotations

import json
import random

import pytest

from engine.dice import (
    CheckResult,
    Outcome,
    RerollNotAllowed,
    artillery_roll,
    characteristic_test,
    from_dict,
    leadership_test,
    reroll,
    scatter_roll,
)
from engine.errors import MordheimError
from tests.engine.scripted_dice import Scripted


@pytest.mark.parametrize(("value", "face", "passed"), [(3, 1, True), (3, 3, True), (3, 4, False), (0, 1, False), (5, 5, True)])
def test_characteristic_test_equal_or_under_passes(value, face, passed):
    result = characteristic_test(value, Scripted(face), characteristic="I")
    assert result.passed is passed
    assert result.score == face
    assert result.characteristic == "Initiative"
    assert ("passed" if passed else "failed") in result.sentence


@pytest.mark.parametrize("value", [5, 6, 7, 10])
def test_a_six_always_fails_a_characteristic_test(value):
    # 000:251: if you roll a 6, you automatically fail regardless of the characteristic
    result = characteristic_test(value, Scripted(6), characteristic="Strength")
    assert result.passed is False
    assert "a 6 always fails" in result.sentence
    assert result.needed == "5 or less on a D6 (a 6 always fails)"


@pytest.mark.parametrize("value", [-1, 11, 3.5, "3", True])
def test_characteristic_out_of_range(value):
    with pytest.raises(MordheimError) as info:
        characteristic_test(value, Scripted(1))
    assert "0 to 10" in str(info.value)


def test_characteristic_names():
    assert characteristic_test(3, Scripted(1), characteristic="ws").characteristic == "Weapon Skill"
    with pytest.raises(MordheimError):
        characteristic_test(3, Scripted(1), characteristic="Charisma")
    with pytest.raises(MordheimError) as info:
        characteristic_test(7, Scripted(1), characteristic="Ld")
    assert "Leadership test" in str(info.value)


@pytest.mark.parametrize(("ld", "dice", "passed"), [(7, (3, 4), True), (7, (4, 4), False), (10, (6, 4), True), (2, (1, 1), True)])
def test_leadership_test_2d6_equal_or_under(ld, dice, passed):
    # 000:257: 2D6 equal to or less than Ld passes
    result = leadership_test(ld, Scripted(*dice))
    assert result.passed is passed and result.score == sum(dice)
    assert result.needed == f"{ld} or less on 2D6"
    assert f"Leadership {ld}" in result.sentence


@pytest.mark.parametrize("ld", [0, 1])
def test_leadership_below_two_says_nothing_can_pass(ld):
    result = leadership_test(ld, Scripted(1, 1))  # the lowest 2D6 roll is 2
    assert result.passed is False
    assert result.needed == f"{ld} or less on 2D6: nothing can pass with Leadership {ld}"


def test_leadership_has_no_automatic_failure():
    # unlike characteristic tests, double 6 against Ld 12 would pass: only the sum counts
    result = leadership_test(10, Scripted(6, 4))
    assert result.passed is True
    with pytest.raises(MordheimError):
        leadership_test(11, Scripted(6, 6))


def test_artillery_roll():
    r = artillery_roll(Scripted(3))
    assert r.total == 6 and r.distance == 6 and r.passed is None
    assert r.sentence == "The Artillery dice shows 6, so the distance is 6 inches."
    m = artillery_roll(Scripted(6))
    assert m.total is Outcome.MISFIRE and m.distance is None and m.sentence == "Misfire!"


def test_scatter_roll():
    assert scatter_roll(Scripted(2)).sentence == "The Scatter dice points to your right (3 o'clock)."
    assert scatter_roll(Scripted(3)).sentence == "The Scatter dice points towards you (6 o'clock)."  # not "the bottom"
    assert scatter_roll(Scripted(6)).total is Outcome.DIRECT_HIT
    assert scatter_roll(Scripted(5)).sentence == "Direct hit!"


def test_scatter_with_distance():
    r = scatter_roll(Scripted(2, 3), with_distance=True)
    assert r.total is Outcome.RIGHT and r.distance == 6
    assert r.sentence == 'Scatters 6" to your right (3 o\'clock).'
    assert r.render() == 'Scatter (Right side, 6) = 6" to your right (3 o\'clock)'
    assert scatter_roll(Scripted(5, 3), with_distance=True).sentence == "Direct hit!"
    misfire = scatter_roll(Scripted(1, 6), with_distance=True)
    assert misfire.total is Outcome.MISFIRE and misfire.distance is None
    # the direction is not lost on a Misfire
    assert misfire.sentence == "Misfire! The Scatter dice pointed away from you (12 o'clock)."
    assert misfire.render() == "Scatter (Top side, Misfire) = Misfire (Top side)"
    hit = scatter_roll(Scripted(5, 6), with_distance=True)
    assert hit.sentence == "Misfire! The Scatter dice showed a direct hit."


def test_checks_reroll_once():
    first = characteristic_test(3, Scripted(6), characteristic="I")
    second = reroll(first, Scripted(2))
    assert second.passed is True and second.original is first
    assert second.dice[0].rerolled_from == 6
    assert not second.can_reroll
    with pytest.raises(RerollNotAllowed):
        reroll(second, Scripted(1))
    ld = reroll(leadership_test(7, Scripted(6, 6)), Scripted(1, 2))
    assert ld.score == 3 and ld.passed


@pytest.mark.parametrize(
    "make",
    [
        lambda rng: characteristic_test(4, rng, characteristic="T"),
        lambda rng: leadership_test(8, rng),
        artillery_roll,
        scatter_roll,
        lambda rng: scatter_roll(rng, with_distance=True),
    ],
)
def test_check_round_trip(make):
    rng = random.Random(3)
    first = make(rng)
    for result in (first, reroll(first, rng)):
        stored = json.loads(json.dumps(result.to_dict()))
        back = from_dict(stored)
        assert isinstance(back, CheckResult)
        assert back.to_dict() == result.to_dict()
        assert back.sentence == result.sentence and back.render() == result.render()
