"""Re-roll choices: all dice, only the failed ones, or one chosen die; never a die twice (004:62)."""

from __future__ import annotations

import pytest

from engine.dice import (
    RerollChoice,
    RerollNotAllowed,
    choosable_dice,
    leadership_test,
    newly_rolled,
    reroll_choice,
    reroll_choices,
    roll_set,
    scatter_roll,
)
from tests.engine.scripted_dice import Scripted


def faces(result) -> list[int]:
    return [d.face for d in result.dice]


def test_hatred_rerolls_only_the_misses_and_the_hits_stay():
    # 000:875 Hatred: re-roll misses in the first round
    first = roll_set("5d6 4+ to hit", Scripted(1, 4, 6, 3, 5))
    assert reroll_choices(first) == [RerollChoice.ALL, RerollChoice.FAILED, RerollChoice.ONE]
    second = reroll_choice(first, Scripted(6, 2), RerollChoice.FAILED)
    assert faces(second) == [6, 4, 6, 2, 5]
    assert [d.rerolled_from for d in second.dice] == [1, None, None, 3, None]
    assert second.results[0].successes == 4 and second.original is first
    # the misses were re-rolled once: the 2 may not be re-rolled again (004:62)
    assert RerollChoice.FAILED not in reroll_choices(second)
    with pytest.raises(RerollNotAllowed) as info:
        reroll_choice(second, Scripted(), RerollChoice.FAILED)
    assert "004:62" in str(info.value)
    # the dice never re-rolled still may be, by another re-roll
    third = reroll_choice(second, Scripted(1, 1, 1), RerollChoice.ALL)
    assert faces(third) == [6, 1, 1, 2, 1]
    assert not third.can_reroll and reroll_choices(third) == []


def test_one_chosen_die():
    first = roll_set("3d6", Scripted(2, 5, 1))
    dice = choosable_dice(first)
    assert [c.key for c in dice] == ["0.0", "0.1", "0.2"]
    assert dice[2].name == "3d6 · die 3: 1"
    second = reroll_choice(first, Scripted(6), RerollChoice.ONE, die="0.2")
    assert faces(second) == [2, 5, 6] and second.results[0].total == 13
    assert [c.key for c in choosable_dice(second)] == ["0.0", "0.1"]
    with pytest.raises(RerollNotAllowed):
        reroll_choice(second, Scripted(4), RerollChoice.ONE, die="0.2")  # never twice
    with pytest.raises(RerollNotAllowed):
        reroll_choice(second, Scripted(4), RerollChoice.ONE, die="7.0")


def test_choices_across_a_set():
    first = roll_set("2d6<=7 leadership, d6 4+ save", Scripted(5, 6, 2))
    dice = choosable_dice(first)
    assert [(c.key, c.failed) for c in dice] == [("0.0", True), ("0.1", True), ("1.0", True)]
    assert dice[0].name.startswith("#1 2d6 <=7 · die 1: 5")
    # a failed total re-rolls all its dice; the failed save its die
    second = reroll_choice(first, Scripted(1, 2, 5), RerollChoice.FAILED)
    ld, save = second.results
    assert ld.passed is True and save.successes == 1
    assert newly_rolled(first, second) == list(second.dice)


def test_nothing_failed_means_no_failed_choice():
    passed = roll_set("2d6<=7", Scripted(1, 2))
    assert reroll_choices(passed) == [RerollChoice.ALL, RerollChoice.ONE]
    with pytest.raises(RerollNotAllowed):
        reroll_choice(passed, Scripted(), RerollChoice.FAILED)
    plain = roll_set("d6", Scripted(3))
    assert reroll_choices(plain) == [RerollChoice.ALL]


def test_checks_take_the_same_choices():
    ld = leadership_test(7, Scripted(6, 5))
    assert reroll_choices(ld) == [RerollChoice.ALL, RerollChoice.FAILED, RerollChoice.ONE]
    again = reroll_choice(ld, Scripted(1), RerollChoice.ONE, die="0.1")
    assert faces(again) == [6, 1] and again.passed is True and again.original is ld
    scatter = scatter_roll(Scripted(2, 6), with_distance=True)
    assert [c.name for c in choosable_dice(scatter)] == ["scatter · die 1: Right side", "scatter · die 2: Misfire"]
    fixed = reroll_choice(scatter, Scripted(3), RerollChoice.ONE, die="0.1")
    assert fixed.distance == 6


def test_newly_rolled_lists_only_new_dice():
    first = roll_set("3d6", Scripted(1, 2, 3))
    second = reroll_choice(first, Scripted(6), RerollChoice.ONE, die="0.0")
    assert [d.face for d in newly_rolled(first, second)] == [6]
