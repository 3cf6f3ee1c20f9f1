"""Roll sets (`2d6, d6`), repeats (`3x 2d6`) and modifiers typed after a space (`3d6 r1`)."""

from __future__ import annotations

import json
import random

import pytest

from engine.dice import DiceLimitExceeded, DiceSyntaxError, RollSet, from_dict, parse, parse_set, roll_set
from engine.dice.limits import MAX_DICE, MAX_ROLLS
from tests.engine.scripted_dice import Scripted


def test_a_set_rolls_each_expression_in_order():
    s = roll_set("2d6, d6", Scripted(3, 4, 6))
    assert [r.expression for r in s.results] == ["2d6", "d6"]
    assert [r.total for r in s.results] == [7, 6]
    assert s.text == "2d6, d6"
    assert s.render() == "#1 2d6 (3, 4) = 7\n#2 d6 (6) = 6"


def test_each_roll_of_a_set_keeps_its_own_target_and_label():
    s = roll_set("3d6 4+ to hit, 2d6<=7 leadership, d66", Scripted(1, 5, 6, 3, 4, 2, 5))
    hit, ld, d66 = s.results
    assert (hit.label, hit.successes) == ("to hit", 2)
    assert (ld.label, ld.passed) == ("leadership", True)
    assert d66.label is None and d66.total == 25


@pytest.mark.parametrize("text", ["3x 2d6", "3x2d6", "3 x 2d6", "3X 2d6", "3× 2d6", "  3x 2d6  "])
def test_repeat(text):
    s = roll_set(text, Scripted(1, 2, 3, 4, 5, 6))
    assert [r.total for r in s.results] == [3, 7, 11]
    assert s.text == "3x 2d6"
    assert parse_set(text).count == 3


def test_repeat_inside_a_set_with_a_label():
    s = roll_set("2x d6 4+ armour save, 2d6", Scripted(4, 1, 2, 2))
    assert [r.label for r in s.results] == ["armour save", "armour save", None]
    assert [r.successes for r in s.results] == [1, 0, None]
    assert s.text == "2x d6 4+, 2d6"


def test_set_label_names_the_whole_set():
    s = roll_set("d6, d6", Scripted(1, 2), label="stupidity")
    assert s.label == "stupidity"


@pytest.mark.parametrize(
    ("text", "position", "words"),
    [
        ("2d6,", 3, "Nothing follows this comma"),
        ("2d6, ", 3, "Nothing follows this comma"),
        (", 2d6", 0, "empty"),
        ("2d6,,d6", 4, "empty"),
        ("3x", 2, "needs a roll"),
        ("3x, d6", 2, "needs a roll"),
        ("0x d6", 0, "`0x` rolls nothing"),
        ("2d6, 2d6 +", 10, "ends where"),
        ("2d6, d6 d6", 8, "operator"),
    ],
)
def test_set_errors_point_into_the_whole_text(text, position, words):
    with pytest.raises(DiceSyntaxError) as info:
        parse_set(text)
    assert info.value.position == position, str(info.value)
    assert words in info.value.reason and info.value.hint


def test_limits_apply_to_the_whole_set():
    with pytest.raises(DiceLimitExceeded) as info:
        parse_set(f"{MAX_ROLLS + 1}x d6")
    assert info.value.limit == "MAX_ROLLS"
    with pytest.raises(DiceLimitExceeded) as info:
        parse_set(", ".join(["d6"] * (MAX_ROLLS + 1)))
    assert info.value.limit == "MAX_ROLLS"
    with pytest.raises(DiceLimitExceeded) as info:
        parse_set("11x 10d6")
    assert info.value.limit == "MAX_DICE" and "110 dice" in str(info.value)
    with pytest.raises(DiceLimitExceeded):
        parse_set("60d6, 41d6")
    assert parse_set("10x 10d6").dice_count == MAX_DICE
    assert parse_set(", ".join(["d6"] * MAX_ROLLS)).count == MAX_ROLLS


def test_one_roll_through_parse_refuses_a_set():
    with pytest.raises(DiceSyntaxError) as info:
        parse("2d6, d6")
    assert info.value.position == 3
    with pytest.raises(DiceSyntaxError):
        parse("2x d6")


def test_set_round_trip():
    first = roll_set("3x 2d6 4+, d6<=3 fear", random.Random(3), label="volley")
    stored = json.loads(json.dumps(first.to_dict()))
    back = RollSet.from_dict(stored)
    assert back.to_dict() == first.to_dict() and back.render() == first.render()
    assert from_dict(stored).to_dict() == first.to_dict()
    with pytest.raises(ValueError):
        RollSet.from_dict({**stored, "rolls": []})


@pytest.mark.parametrize(
    ("text", "normalised", "label"),
    [
        ("3d6 r1", "3d6r1", None),
        ("3d6   r<=2", "3d6r2", None),
        ("4d6 kh3", "4d6kh3", None),
        ("4d6 k3", "4d6kh3", None),
        ("4d6 dl1 + 2", "4d6dl1 + 2", None),
        ("10d6 4+", "10d6 4+", None),
        ("4d6 r1 kh3 4+ best", "4d6r1kh3 4+", "best"),
        ("2d6 kill", "2d6", "kill"),  # a label that starts with a modifier's letters stays a label
        ("2d6 roll for it", "2d6", "roll for it"),
        ("2d6 dhampir", "2d6", "dhampir"),
        ("2d6 r", "2d6", "r"),
    ],
)
def test_modifiers_after_a_space(text, normalised, label):
    parsed = parse(text)
    assert (parsed.text, parsed.label) == (normalised, label)


def test_a_spaced_modifier_follows_the_same_rules():
    with pytest.raises(DiceSyntaxError) as info:
        parse("2d6 r1 r1")
    assert "Only one re-roll" in info.value.reason
    with pytest.raises(DiceSyntaxError):
        parse("d6 kh2")
