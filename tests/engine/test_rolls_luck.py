"""Luck against fair dice: exact figures, the tail chances behind the verdicts, the charts."""

from __future__ import annotations

import math
import random

import pytest

from engine.rolls.luck import MemberLuck, chi_square_5_tail, face_chart, luck_board_chart, upper_tail


def member(faces, **kw) -> MemberLuck:
    return MemberLuck(guild_id=1, member_id=kw.pop("member_id", 7), member_name=kw.pop("name", "Anna"),
                      rolls=sum(faces), faces=tuple(faces), **kw)


def test_tail_chances_match_known_values():
    assert upper_tail(0) == pytest.approx(0.5)
    assert upper_tail(1.959964) == pytest.approx(0.025, abs=1e-6)
    # chi-square, 5 degrees of freedom: the 5% and 1% critical values
    assert chi_square_5_tail(11.0705) == pytest.approx(0.05, abs=1e-4)
    assert chi_square_5_tail(15.0863) == pytest.approx(0.01, abs=1e-4)
    assert chi_square_5_tail(0) == 1.0


def test_chi_square_tail_against_simulation():
    rng = random.Random(5)
    x = 6.0
    hits = 0
    trials = 20_000
    for _ in range(trials):
        faces = [0] * 6
        for _ in range(60):
            faces[rng.randrange(6)] += 1
        hits += sum((c - 10) ** 2 / 10 for c in faces) >= x
    # the exact tail is 0.3062; 20,000 samples put the share within about ±0.0033 (one sd)
    assert abs(hits / trials - chi_square_5_tail(x)) < 0.015


def test_average_and_how_far_from_fair():
    even = member([10, 10, 10, 10, 10, 10])
    assert even.d6 == 60 and even.d6_average == 3.5 and even.d6_z == 0
    assert even.faces_fair_chance == pytest.approx(1.0)
    assert "just what fair dice do" in even.verdict
    lucky = member([5, 5, 5, 5, 5, 35])
    assert lucky.d6_average == pytest.approx((5 * 15 + 35 * 6) / 60)
    z = (lucky.d6_average - 3.5) / math.sqrt(35 / 12 / 60)
    assert lucky.d6_z == pytest.approx(z)
    assert lucky.chance_of_an_average_this_far == pytest.approx(upper_tail(z))
    assert "lucky" in lucky.verdict and "less than 0.1%" in lucky.verdict
    assert lucky.share(6) == pytest.approx(35 / 60)
    unlucky = member([20, 10, 10, 10, 5, 5])
    assert "unlucky" in unlucky.verdict
    assert "too few" in member([1, 0, 0, 0, 0, 0]).verdict


def test_sixes_and_ones():
    assert member([10] * 6).sixes_and_ones_line == (
        "Sixes: 10 of 60 (16.7%); Ones: 10 of 60 (16.7%). Fair dice give 16.7% of each.")
    lucky = member([2, 10, 10, 10, 10, 28]).sixes_and_ones_line
    assert lucky.startswith("Sixes: 28 of 70 (40.0%) (fair dice do this well less than 0.1% of the time)")
    assert member([0] * 6).sixes_and_ones_line is None


def test_tests_and_injuries_lines():
    m = member([10] * 6, tests=40, tests_passed=34, tests_expected=23.3, tests_variance=9.7,
               injuries=3, injuries_knocked_down=1, injuries_stunned=1, injuries_out_of_action=1,
               injuries_expected_out=1.0, injuries_variance_out=0.67)
    assert m.tests_line.startswith("Tests passed: 34 of 40; fair dice pass 23.3 of these (fair dice do this well")
    assert m.injuries_line == (
        "Injury rolls: 3 — 1 knocked down, 1 stunned, 1 out of action; fair dice put 1.0 out of action."
    )
    assert member([1] * 6).tests_line is None


def test_face_chart():
    chart = face_chart(member([10, 10, 10, 10, 10, 30]))
    lines = chart.split("\n")
    assert lines[5].startswith("6 ") and "37.5% (30)" in lines[5]
    assert lines[0].startswith("1 ") and "12.5% (10)" in lines[0]
    assert "┊" in lines[0] and lines[-1].strip().startswith("┊ = 1 in 6")
    assert face_chart(member([0] * 6)) == "No D6 rolled yet."


def test_board_chart_bars_grow_with_luck():
    chart = luck_board_chart([member([5, 5, 5, 5, 5, 35], name="Lucky"), member([35, 5, 5, 5, 5, 5], name="Grim"),
                              member([10] * 6, name="Fair")])
    lucky, grim, fair = chart.split("\n")[:3]
    assert lucky.startswith("Lucky") and lucky.split("│")[1].strip().startswith("█")
    assert grim.split("│")[0].strip().endswith("█")
    assert fair.split("│")[0].strip() == "Fair" and "3.50" in fair


def test_bands_hold_95_percent_of_fair_dice():
    from engine.rolls.luck import average_band, face_band

    low, high = average_band(100)
    assert (low, high) == pytest.approx((3.5 - 1.96 * math.sqrt(35 / 12 / 100), 3.5 + 1.96 * math.sqrt(35 / 12 / 100)), abs=1e-3)
    assert average_band(1) == (1.0, 6.0) and average_band(0) == (1.0, 6.0)  # kept within the faces
    expected, flow, fhigh = face_band(600)
    assert expected == 100 and (flow, fhigh) == pytest.approx((100 - 1.96 * math.sqrt(600 * 5 / 36), 100 + 1.96 * math.sqrt(600 * 5 / 36)), abs=1e-3)
    assert face_band(3)[1] == 0.0
    rng = random.Random(11)
    inside = 0
    for _ in range(4000):
        dice = [rng.randint(1, 6) for _ in range(120)]
        low, high = average_band(120)
        inside += low <= sum(dice) / 120 <= high
    assert 0.93 < inside / 4000 < 0.97
