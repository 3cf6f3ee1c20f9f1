"""The roll language: what parses to what, and the error for every bad input."""

from __future__ import annotations

import pytest

from engine.dice import DiceLimitExceeded, DiceSyntaxError, DieKind, parse
from engine.dice.limits import LIMITS, MAX_DICE, MAX_DIE_SIZE, MAX_EXPRESSION_LENGTH, MAX_NESTING_DEPTH
from engine.errors import LimitExceeded, MordheimError


@pytest.mark.parametrize(
    ("text", "normalised", "label"),
    [
        ("2d6", "2d6", None),
        ("D6", "d6", None),
        ("d6+1", "d6 + 1", None),
        ("D66", "d66", None),
        ("2D3 + 1", "2d3 + 1", None),
        ("4d6KH3", "4d6kh3", None),
        ("4d6k3", "4d6kh3", None),
        ("2d6kl", "2d6kl1", None),
        ("4d6dl1", "4d6dl1", None),
        ("4d6dh", "4d6dh1", None),
        ("3d6r1", "3d6r1", None),
        ("3d6r<=2", "3d6r2", None),
        ("3d6r<3", "3d6r2", None),
        ("4d6r1kh3", "4d6r1kh3", None),
        ("4d6kh3r1", "4d6r1kh3", None),
        ("5d6 4+", "5d6 4+", None),
        ("5d6 2-", "5d6 2-", None),
        ("2d6>=7", "2d6 >=7", None),
        ("2d6 > 6", "2d6 >=7", None),
        ("2d6 <8", "2d6 <=7", None),
        ("2d6 ==7", "2d6 =7", None),
        ("3d6 r1", "3d6r1", None),
        ("4d6 kh3", "4d6kh3", None),
        ("4d6 r1 kh3 best three", "4d6r1kh3", "best three"),
        ("2d6 to hit", "2d6", "to hit"),
        ("2d6 4+ armour save", "2d6 4+", "armour save"),
        ("2d6+1 Strength test  ", "2d6 + 1", "Strength test"),
        ("d6 damage", "d6", "damage"),
        ("art", "artillery", None),
        ("Artillery + 2", "artillery + 2", None),
        ("scatter", "scatter", None),
        ("SCATTER stone thrower", "scatter", "stone thrower"),
        ("2*(3+d6)", "2 * (3 + d6)", None),
        ("(1-2)-3", "1 - 2 - 3", None),
        ("1-(2-3)", "1 - (2 - 3)", None),
        ("--1", "--1", None),
        ("-(d6*2)", "-(d6 * 2)", None),
        ("  ( 2d6 )  ", "2d6", None),
        ("1d6 🎲", "1d6", "🎲"),
    ],
)
def test_parses_and_normalises(text, normalised, label):
    parsed = parse(text)
    assert parsed.text == normalised
    assert parsed.label == label
    # the normalised text parses back to the same expression
    again = parse(parsed.text)
    assert again.text == normalised
    assert again.target == parsed.target and again.bounds == parsed.bounds


def test_special_dice_kinds():
    assert parse("d3").terms[0].kind is DieKind.D3
    assert parse("d66").terms[0].kind is DieKind.D66
    assert parse("2d66").terms[0].count == 2
    assert parse("art").terms[0].kind is DieKind.ARTILLERY
    assert parse("scatter").terms[0].kind is DieKind.SCATTER
    assert parse("d4").terms[0].kind is DieKind.STANDARD


def test_bounds():
    assert parse("2d6+1").bounds == (3, 13)
    assert parse("4d6kh3").bounds == (3, 18)
    assert parse("d66").bounds == (11, 66)
    assert parse("2d3").bounds == (2, 6)
    assert parse("art").bounds == (2, 10)
    assert parse("d6 - 2d6").bounds == (-11, 4)
    assert parse("-d6 * 3").bounds == (-18, -3)


def syntax_error(text: str) -> DiceSyntaxError:
    with pytest.raises(DiceSyntaxError) as info:
        parse(text)
    err = info.value
    assert isinstance(err, MordheimError)
    # the caret line points at the position
    shown, caret = err.pointer.split("\n")
    assert caret == " " * err.position + "^"
    assert len(shown) == len(text)
    assert err.pointer in str(err)
    return err


@pytest.mark.parametrize(
    ("text", "position", "words"),
    [
        ("", 0, "empty"),
        ("   ", 3, "empty"),
        ("1d0", 2, "at least 2 sides"),
        ("1d1", 2, "at least 2 sides"),
        ("d", 1, "number of sides"),
        ("0d6", 0, "no dice"),
        ("2d6x", 3, "Unexpected `x`"),
        ("2d6 +", 5, "ends where"),
        ("2d6 + 4+ armour", 9, "Unknown word `armour`"),
        ("(1d6", 4, "Expected `)`"),
        ("1d6)", 3, "Unexpected `)`"),
        ("2d6 )", 4, "Unexpected `)`"),
        ("1d6/2", 3, "Division"),
        ("foo", 0, "Unknown word `foo`"),
        ("🎲", 0, "found `🎲`"),
        ("2d6 4", 4, "needs an operator"),
        ("2 d6", 2, "operator"),
        ("1d6 1d6", 4, "operator"),
        ("2d6to hit", 3, "Unexpected `t`"),
        ("5d6 4+x", 6, "after the target"),
        ("5d6 >=", 6, "needs a number"),
        ("2d6r0", 4, "nothing would be re-rolled"),
        ("2d6r", 4, "`r` needs"),
        ("2d6r1r1", 5, "Only one re-roll"),
        ("4d6kh3kl1", 6, "Only one keep"),
        ("1d6kh2", 5, "keeps 2 dice"),
        ("3d6dl3", 5, "drops 3 dice"),
        ("2d6d6", 3, "`dh` or `dl`"),
        ("scatter + 1", 0, "Scatter dice"),
        ("2 * scatter", 4, "Scatter dice"),
        ("art 4+", 0, "Artillery"),
        ("2art", 1, "Unexpected `a`"),
        ("(2)d6", 3, "Unexpected `d`"),
        ("3(2)", 1, "Unexpected `(`"),
        ("٣d6", 0, "found `٣`"),  # other scripts' digits are not numbers
    ],
)
def test_syntax_errors_point_at_the_character(text, position, words):
    err = syntax_error(text)
    assert err.position == position, str(err)
    assert words in err.reason
    assert err.hint  # says how to fix it


def test_backticks_cannot_break_the_code_block():
    err = syntax_error("2d6x`")
    assert "`" not in err.pointer


@pytest.mark.parametrize(
    ("text", "limit", "value"),
    [
        ("x" * 5000, "MAX_EXPRESSION_LENGTH", MAX_EXPRESSION_LENGTH),
        ("1d6+" * 1000, "MAX_EXPRESSION_LENGTH", MAX_EXPRESSION_LENGTH),
        ("(" * 500 + "1d6" + ")" * 500, "MAX_EXPRESSION_LENGTH", MAX_EXPRESSION_LENGTH),
        ("99999999d6", "MAX_DICE", MAX_DICE),
        ("101d6", "MAX_DICE", MAX_DICE),
        ("60d6 + 41d6", "MAX_DICE", MAX_DICE),
        ("d1001", "MAX_DIE_SIZE", MAX_DIE_SIZE),
        ("d99999999999999", "MAX_DIE_SIZE", MAX_DIE_SIZE),
        ("(" * 11 + "1" + ")" * 11, "MAX_NESTING_DEPTH", MAX_NESTING_DEPTH),
        ("-" * 11 + "1", "MAX_NESTING_DEPTH", MAX_NESTING_DEPTH),
        ("9999999999999", "MAX_RESULT", 10**9),
        ("100000 * 100000", "MAX_RESULT", 10**9),
        ("100d1000 * 100000", "MAX_RESULT", 10**9),
    ],
)
def test_limits(text, limit, value):
    with pytest.raises(DiceLimitExceeded) as info:
        parse(text)
    err = info.value
    assert isinstance(err, LimitExceeded)
    assert err.limit == limit and err.limit_value == value
    assert limit not in str(err)  # the constant's name is the code's word, not the player's
    assert f"the limit is {value:,} {LIMITS[limit][1]}" in str(err)


def test_nesting_at_the_limit_is_fine():
    assert parse("(" * MAX_NESTING_DEPTH + "1d6" + ")" * MAX_NESTING_DEPTH).text == "1d6"
    assert parse("1d6 + " * 20 + "1").dice_count == 20


def test_deep_nesting_inside_the_length_limit_is_a_limit_not_a_recursion_error():
    text = "(" * 99 + "1" + ")" * 99
    assert len(text) <= MAX_EXPRESSION_LENGTH
    with pytest.raises(DiceLimitExceeded) as info:
        parse(text)
    assert info.value.position == MAX_NESTING_DEPTH  # the 11th "("


def test_parse_is_cached():
    assert parse("3d6 + 2") is parse("3d6 + 2")


def test_full_width_dice_read_as_ascii_and_errors_point_at_the_typed_character():
    assert parse("２ｄ６＋１").text == parse("2d6+1").text
    assert parse("Ｄ６６　to find").text == parse("D66 to find").text
    with pytest.raises(DiceSyntaxError) as info:
        parse("２ｄ６＋")
    assert info.value.position == parse_error_position("2d6+")


def parse_error_position(text: str) -> int:
    with pytest.raises(DiceSyntaxError) as info:
        parse(text)
    return info.value.position


@pytest.mark.parametrize(
    ("text", "normalised", "label"),
    [
        ("3D6 drop lowest", "3d6dl1", None),
        ("3d6 drop the lowest", "3d6dl1", None),
        ("3d6 drop highest", "3d6dh1", None),
        ("4d6 keep highest 2", "4d6kh2", None),
        ("4d6 drop lowest 2", "4d6dl2", None),
        ("4d6 drop the 2 lowest dice", "4d6dl2", None),
        ("2d6 keep the lowest", "2d6kl1", None),
        ("4d6 keep highest 3 strength", "4d6kh3", "strength"),
        ("3d6 drop lowest + 1", "3d6dl1 + 1", None),
        ("2d6 drop lowest 4+", "2d6dl1 4+", None),  # the 4 is the target's, not a count
    ],
)
def test_keep_and_drop_said_in_words(text, normalised, label):
    parsed = parse(text)
    assert parsed.text == normalised and parsed.label == label
    phrase = text.split(" ", 1)[1].removesuffix(" strength").removesuffix(" + 1").removesuffix(" 4+")
    assert parsed.notes[0] == f"`{phrase}` is read as `{normalised.split(' ')[0]}`."


def test_keep_or_drop_in_words_after_arithmetic_is_refused_with_the_grammar_form():
    err = syntax_error("3d6 + 1 drop lowest")
    assert err.position == 8 and "must come right after the dice" in err.reason
    assert "`3d6dl1 + 1`" in err.hint


@pytest.mark.parametrize(("text", "advice"), [
    ("2d6 ld 8", "roll `2d6<=8` or use `/leadership leadership:8`"),
    ("2d6 Leadership 7", "roll `2d6<=7`"),
    ("d6 ws 3", "roll `d6<=3`"),
])
def test_a_label_that_reads_like_a_test_warns_that_nothing_was_tested(text, advice):
    parsed = parse(text)
    assert parsed.target is None
    assert len(parsed.warnings) == 1 and "only a label: nothing was tested" in parsed.warnings[0] and advice in parsed.warnings[0]


@pytest.mark.parametrize("text", ["2d6 ld test", "d6 a 3", "2d6 to hit 4", "2d6<=8 ld 8"])
def test_other_labels_warn_of_nothing(text):
    assert parse(text).warnings == ()


def test_labels_that_only_start_like_keep_words_stay_labels():
    assert parse("2d6 dropping in").label == "dropping in"
    assert parse("2d6 keep calm").label == "keep calm"


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("Ld 8", "`/leadership leadership:8`, or roll `2d6<=8`"),
        ("leadership", "`/leadership leadership:7`"),
        ("WS 4", "`/test characteristic:Weapon Skill value:4`, or roll `d6<=4`"),
        ("T 3", "`/test characteristic:Toughness value:3`"),
        ("foo", "Dice are written like"),
    ],
)
def test_a_tests_name_points_at_its_command(text, hint):
    err = syntax_error(text)
    assert err.reason.startswith("Unknown word") and hint in err.hint
