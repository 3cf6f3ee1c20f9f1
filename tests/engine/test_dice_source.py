"""engine.dice.source: the one source of dice of combat and the campaign."""

from __future__ import annotations

import random

import pytest

from engine.combat.dice import RollDice, d3
from engine.dice.source import Dice, Roll, check_amount, d3_of, parse_entered
from engine.errors import MordheimError


def d6_faces(seed: int, n: int) -> list[int]:
    rng = random.Random(seed)
    return [int(rng.random() * 6) + 1 for _ in range(n)]


def test_combat_rolls_with_the_one_source():
    assert RollDice is Dice
    dice = RollDice(random.Random(7))
    assert [dice.d6() for _ in range(20)] == d6_faces(7, 20)


def test_a_named_d6_is_drawn_as_an_unnamed_one():
    named, unnamed = Dice(random.Random(3)), Dice(random.Random(3))
    assert [named.d6(f"roll {n}") for n in range(10)] == [unnamed.d6() for _ in range(10)]
    assert [r.why for r in named.rolls] == [f"roll {n}" for n in range(10)] and unnamed.rolls == []


def test_the_log_is_kept_only_while_logging():
    dice = Dice(random.Random(1))
    faces = [dice.d6() for _ in range(3)] + [dice.d6("Advance")]
    dice.say("hit!")
    assert dice.rolled == faces and dice.lines == ["hit!"]
    quiet = Dice(random.Random(1), logging=False)
    quiet.d6(), quiet.say("hit!")
    assert quiet.rolled == [] and quiet.lines == []


def test_every_face_comes_up_about_as_often():
    dice = Dice(random.Random(11), logging=False)
    counts = [0] * 6
    for _ in range(60_000):
        counts[dice.d6() - 1] += 1
    assert all(9_500 < c < 10_500 for c in counts), counts


def test_entered_dice_come_first_then_the_bot_rolls():
    dice = Dice.entered("35 4, 2", random.Random(5))
    assert dice.d66("Serious injury for Hans") == 35
    assert dice.d6("Leg wound") == 4
    assert dice.unused == (2,)
    assert dice.d6() == 2  # an unnamed die takes an entered one too
    bot = dice.d6("Arm wound")
    assert bot == d6_faces(5, 1)[0]
    assert [(r.die, r.faces, r.total, r.entered) for r in dice.rolls] == [
        ("D66", (3, 5), 35, True), ("D6", (4,), 4, True), ("D6", (bot,), bot, False)]
    assert dice.rolled == [3, 5, 4, 2, bot]


def test_unnamed_dice_go_back_to_the_rng_once_entered_ones_run_out():
    dice = Dice(random.Random(9), [6])
    assert dice.d6() == 6
    assert [dice.d6() for _ in range(5)] == d6_faces(9, 5)
    named_first = Dice(random.Random(9), [2])
    assert named_first.d6("first") == 2
    assert [named_first.d6() for _ in range(5)] == d6_faces(9, 5)


def test_without_an_rng_the_missing_die_is_named():
    dice = Dice.entered("4")
    assert dice.d6("Leg wound") == 4
    with pytest.raises(MordheimError, match="Arm wound needs one more D6"):
        dice.d6("Arm wound")
    with pytest.raises(MordheimError, match="needs one more D66"):
        dice.d66("Serious injury")
    with pytest.raises(MordheimError, match="A roll needs one more D6"):
        Dice().d6()


@pytest.mark.parametrize("entered, message", [
    ("7", "Leg wound: 7 cannot be rolled on a D6"),
    ("0", "Leg wound: 0 cannot be rolled on a D6"),
])
def test_an_entered_die_must_fit_the_die(entered, message):
    with pytest.raises(MordheimError, match=message):
        Dice.entered(entered).d6("Leg wound")


def test_an_unnamed_entered_die_must_fit_too():
    with pytest.raises(MordheimError, match="7 cannot be rolled on a D6"):
        Dice(entered=[7]).d6()


@pytest.mark.parametrize("entered, kind", [("3", "a D6, not a D66"), ("71", "not a D66"), ("307", "not a D66")])
def test_an_entered_d66_is_two_digits_from_1_to_6(entered, kind):
    with pytest.raises(MordheimError, match=f"Serious injury: {entered} is {kind}"):
        Dice.entered(entered).d66("Serious injury")


def test_a_rolled_d66_is_a_tens_and_a_units_die():
    dice = Dice(random.Random(4))
    value = dice.d66("Serious injury")
    tens, units = d6_faces(4, 2)
    assert value == 10 * tens + units and dice.rolls == [Roll("Serious injury", "D66", (tens, units), value, False)]


@pytest.mark.parametrize("amount, entered, value, faces", [
    ("D6", "4", 4, (4,)),
    ("2D6x5", "3 4", 35, (3, 4)),
    ("D6+1", "6", 7, (6,)),
    ("D3", "5", 3, (5,)),
    ("2D3", "1 2", 2, (1, 2)),
    ("20", "", 20, ()),
    (20, "", 20, ()),
])
def test_amounts_from_the_tables(amount, entered, value, faces):
    dice = Dice.entered(entered)
    assert dice.amount(amount, "Gold") == (value, faces)
    assert dice.unused == ()


def test_a_d3_is_a_d6_halved_rounding_up():
    assert [d3_of(f) for f in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    assert d3(Dice(entered=[5])) == 3
    dice = Dice.entered("6")
    dice.amount("D3", "Games missed")
    assert str(dice.rolls[0]) == "Games missed (D3): D6 6 (entered)"


def test_rolls_read_as_the_channel_shows_them():
    assert str(Roll("Advance for Lads", "2D6", (6, 5), 11, False)) == "Advance for Lads: 2D6 6+5 = 11"
    assert str(Roll("Serious injury for Hans", "D66", (3, 5), 35, True)) == "Serious injury for Hans: D66 35 (entered)"


def test_a_players_dice_are_read_in_order():
    assert parse_entered("35 4") == parse_entered("35,4") == parse_entered(" 35; 4 ") == (35, 4)
    assert parse_entered("") == parse_entered(None) == ()
    with pytest.raises(MordheimError, match="'x' is not a die roll"):
        parse_entered("3 x")
    with pytest.raises(MordheimError, match="more than one step needs"):
        parse_entered(" ".join(["3"] * 61))
    for not_a_die in ("\u00b2", "\u0663", "9" * 5000):  # a digit to isdigit() (the first two) but no die; past int()'s limit
        with pytest.raises(MordheimError, match="is not a die roll"):
            parse_entered(f"3 {not_a_die}")


def test_dice_amounts_are_checked():
    assert check_amount("2D6x5") is None and check_amount("D3") is None and check_amount("20") is None
    assert "is not a dice amount" in check_amount("D7")
