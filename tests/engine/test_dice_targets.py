"""Targets: a suffix target counts a pool's dice, a comparison tests the total, and the roller is told which."""

from __future__ import annotations

import pytest

from engine.dice import DiceSyntaxError, TargetScope, parse, roll, verdict
from tests.engine.scripted_dice import Scripted


@pytest.mark.parametrize(
    ("text", "scope"),
    [
        ("5d6 4+", TargetScope.DICE),  # a pool: count the dice
        ("d6 4+", TargetScope.DICE),
        ("3d6 + 2d6 5+", TargetScope.DICE),
        ("4d6kh3 4+", TargetScope.DICE),
        ("5d6 2-", TargetScope.DICE),
        ("2d66 33+", TargetScope.DICE),
        ("2d6<=7", TargetScope.TOTAL),  # a comparison: the total (a Leadership test, 000:257)
        ("2d6 >=7", TargetScope.TOTAL),  # casting: 2D6 equal to or greater than the Difficulty (000:1575)
        ("5d6>=4", TargetScope.TOTAL),
        ("2d6 =7", TargetScope.TOTAL),
        ("2d6 7+", TargetScope.TOTAL),  # no D6 can show 7: the total
        ("d6+1 4+", TargetScope.TOTAL),  # arithmetic: the total
        ("2 * d6 4+", TargetScope.TOTAL),
        ("d6 - 1 2-", TargetScope.TOTAL),
    ],
)
def test_which_scope(text, scope):
    target = parse(text).target
    assert target.scope is scope
    assert parse(parse(text).text).target == target  # the normalised text reads the same way


def test_leadership_7_is_tested_on_the_total():
    failed = roll("2d6<=7", Scripted(3, 5))
    assert failed.total == 8 and failed.passed is False and failed.successes is None
    assert failed.render() == "2d6 (3, 5) = 8, needs <=7: failed"
    assert verdict(failed) == "The total, 8, is not 7 or less: failed."
    passed = roll("2d6 <= 7", Scripted(3, 4))
    assert passed.passed is True and verdict(passed) == "The total, 7, is 7 or less: passed."
    assert roll("2d6 < 8", Scripted(4, 4)).passed is False


def test_a_target_no_die_can_reach_is_read_as_the_total_and_says_so():
    casting = roll("2d6 7+", Scripted(2, 6))
    assert casting.passed is True and casting.successes is None
    assert casting.notes == ("No D6 can score 7 or more, so the target is read as the total.",)
    assert verdict(casting) == "The total, 8, is 7 or more: passed."


def test_pool_counts_and_says_what_it_counted():
    r = roll("5d6 4+", Scripted(1, 4, 6, 3, 5))
    assert r.successes == 3 and r.passed is None
    assert verdict(r) == "3 of 5 dice scored 4 or more."
    assert verdict(roll("3d6 6+", Scripted(1, 2, 3))) == "None of 3 dice scored 6 or more."
    assert verdict(roll("2d6 2+", Scripted(4, 5))) == "All 2 dice scored 2 or more."
    assert verdict(roll("d6 4+", Scripted(5))) == "The die scored 4 or more: a success."
    assert verdict(roll("d6 4+", Scripted(2))) == "The die did not score 4 or more: no success."
    assert verdict(roll("4d6kh2 4+", Scripted(6, 5, 1, 2))) == "All of the 2 kept dice scored 4 or more."
    low = roll("5d6 2-", Scripted(1, 2, 3, 6, 2))
    assert low.successes == 3 and verdict(low) == "3 of 5 dice scored 2 or less."
    assert verdict(roll("2d6", Scripted(1, 2))) is None


@pytest.mark.parametrize(
    ("text", "note"),
    [
        ("d6 7+", "This target can never be met: `d6` totals at most 6."),
        ("2d6 >=13", "This target can never be met: `2d6` totals at most 12."),
        ("2d6 <=1", "This target can never be met: `2d6` totals at least 2."),
        ("2d6 =13", "This target can never be met: `2d6` totals at most 12."),
        ("2d6 <=12", "This target is always met: `2d6` totals at most 12."),
        ("5d6 >=4", "This target is always met: `5d6` totals at least 5. To count the dice scoring 4 or more, write `5d6 4+`."),
        ("5d6 1+", "Every die always scores 1 or more, so every die counts."),
    ],
)
def test_targets_that_cannot_fail_or_cannot_pass_are_pointed_out(text, note):
    assert note in parse(text).warnings
    assert note in roll(text, Scripted(*[3] * 5)).warnings


def test_an_ordinary_target_has_no_note():
    for text in ("5d6 4+", "2d6<=7", "d6 4+", "2d6 >=7"):
        assert parse(text).notes == () and parse(text).warnings == ()


def test_failed_dice():
    pool = roll("4d6 4+", Scripted(1, 4, 6, 3))
    assert [d.face for d in pool.failed_dice()] == [1, 3]
    total = roll("2d6<=7", Scripted(3, 5))
    assert [d.face for d in total.failed_dice()] == [3, 5]
    assert roll("2d6<=7", Scripted(3, 4)).failed_dice() == []
    assert roll("2d6", Scripted(1, 1)).failed_dice() == []
    kept = roll("3d6kh2 4+", Scripted(1, 5, 2))
    assert [d.face for d in kept.failed_dice()] == [2]  # the dropped 1 did not fail: it does not count


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("art 4+", "Artillery"),
        ("scatter 4+", "Scatter"),
        ("art <=4", "Artillery"),
        ("2d6 >=", "needs a number"),
        ("2d6 4+x", "after the target"),
        ("2d6 4-1", "after the target"),
    ],
)
def test_bad_targets(text, words):
    with pytest.raises(DiceSyntaxError) as info:
        parse(text)
    assert words in info.value.reason and info.value.hint


@pytest.mark.parametrize(("text", "normalised", "passed"), [
    ("2<0", "2 <=-1", False),  # hypothesis found `<0` written as `<=-1`, which did not parse back
    ("d6 - 10 <= -4", "d6 - 10 <=-4", True),
    ("d6 - 10 > -5", "d6 - 10 >=-4", False),
])
def test_a_comparison_may_be_below_zero_and_reads_back(text, normalised, passed):
    parsed = parse(text)
    assert parsed.text == normalised and parse(parsed.text) == parsed
    assert roll(text, Scripted(1)).passed is passed  # d6 - 10 = -9
