"""Rolling and re-rolling: keep/drop, re-roll once, successes, labels, render, storage."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

from engine.dice import (
    DieKind,
    Outcome,
    RerollNotAllowed,
    RollResult,
    from_dict,
    reroll,
    roll,
)
from engine.errors import MordheimError
from tests.engine.scripted_dice import Scripted


def faces(result: RollResult) -> list[int]:
    return [d.face for d in result.dice]


def test_plain_roll_and_render():
    r = roll("2d6 + 1", Scripted(3, 5))
    assert r.total == 9
    assert r.render() == "2d6 (3, 5) + 1 = 9"
    assert r.expression == "2d6 + 1"
    assert [t.notation for t in r.terms] == ["2d6"]
    assert [d.kind for d in r.dice] == [DieKind.STANDARD, DieKind.STANDARD]
    assert r.successes is None and r.label is None


def test_multiplication_renders_without_markdown_star():
    r = roll("2 * (d6 + 1)", Scripted(4))
    assert r.total == 10
    assert r.render() == "2 × (d6 (4) + 1) = 10"


def test_keep_highest():
    r = roll("4d6kh3", Scripted(1, 5, 3, 4))
    assert r.total == 12
    assert [d.kept for d in r.dice] == [False, True, True, True]
    assert r.render() == "4d6kh3 (~~1~~, 5, 3, 4) = 12"


def test_keep_lowest_drop_highest_drop_lowest():
    assert roll("2d6kl1", Scripted(6, 2)).total == 2
    assert roll("3d6dh1", Scripted(6, 2, 3)).total == 5
    assert roll("4d6dl1", Scripted(1, 2, 3, 4)).total == 9
    assert roll("2d6kl", Scripted(5, 4)).render() == "2d6kl1 (~~5~~, 4) = 4"


def test_reroll_modifier_rerolls_once_and_second_score_stands():
    # 000:188: the second score stands even if worse; 004:62: never twice
    r = roll("3d6r1", Scripted(1, 4, 1, 1, 6))
    assert faces(r) == [1, 4, 6]
    assert [d.rerolled_from for d in r.dice] == [1, None, 1]
    assert r.total == 11
    assert r.render() == "3d6r1 (~~1~~→1, 4, ~~1~~→6) = 11"


def test_reroll_at_or_below():
    r = roll("3d6r<=2", Scripted(2, 3, 1, 5, 2))
    assert faces(r) == [5, 3, 2]
    assert r.total == 10
    assert roll("3d6r<3", Scripted(2, 3, 1, 5, 2)).total == 10


def test_reroll_before_keep():
    r = roll("3d6r1kh2", Scripted(1, 2, 3, 6))
    assert faces(r) == [6, 2, 3]
    assert [d.kept for d in r.dice] == [True, False, True]
    assert r.render() == "3d6r1kh2 (~~1~~→6, ~~2~~, 3) = 9"


def test_successes():
    r = roll("5d6 4+", Scripted(1, 4, 6, 3, 5))
    assert r.successes == 3
    assert r.total == 19
    assert r.render() == "5d6 (1, 4, 6, 3, 5) 4+ = 3 successes"
    assert roll("2d6 6+", Scripted(6, 1)).render() == "2d6 (6, 1) 6+ = 1 success"
    assert roll("3d6 2-", Scripted(1, 2, 3)).successes == 2
    assert roll("3d6 + 2d6 5+", Scripted(5, 1, 6, 6, 2)).successes == 3


def test_successes_count_only_kept_dice():
    assert roll("4d6kh2 4+", Scripted(6, 5, 4, 4)).successes == 2


def test_labels():
    assert roll("2d6 to hit", Scripted(1, 2)).label == "to hit"
    r = roll("2d6 4+ armour save", Scripted(4, 3))
    assert (r.label, r.successes) == ("armour save", 1)
    assert roll("D6 Initiative test", Scripted(1)).label == "Initiative test"


def test_d3_is_a_d6_halved_rounding_up_and_shows_the_d6():
    # 000:188: 1 or 2 equals 1, 3 or 4 equals 2 and 5 or 6 equals 3
    r = roll("6d3", Scripted(1, 2, 3, 4, 5, 6))
    assert [d.value for d in r.dice] == [1, 1, 2, 2, 3, 3]
    assert [d.face for d in r.dice] == [1, 2, 3, 4, 5, 6]
    assert r.total == 12
    assert roll("d3", Scripted(5)).render() == "d3 (3[5]) = 3"


def test_d3_reroll_compares_the_d3_value():
    r = roll("d3r1", Scripted(2, 6))
    assert r.dice[0].rerolled_from == 2 and r.total == 3


def test_d66_tens_and_units():
    r = roll("d66", Scripted(3, 5))
    assert r.total == 35
    assert r.dice[0].tens_units == (3, 5)
    assert r.dice[0].kind is DieKind.D66
    assert r.render() == "d66 (35) = 35"


def test_artillery_dice():
    # 002:74: a D6 doubled, a six is the Misfire
    for face, value in [(1, 2), (2, 4), (3, 6), (4, 8), (5, 10)]:
        r = roll("art", Scripted(face))
        assert r.total == value and not r.is_misfire
    r = roll("artillery + 2", Scripted(4))
    assert r.total == 10 and r.render() == "artillery (8) + 2 = 10"
    misfire = roll("art + 2", Scripted(6))
    assert misfire.total is Outcome.MISFIRE and misfire.is_misfire
    assert misfire.render() == "artillery (Misfire) + 2 = Misfire"


def test_scatter_dice():
    expected = {1: Outcome.TOP, 2: Outcome.RIGHT, 3: Outcome.BOTTOM, 4: Outcome.LEFT, 5: Outcome.DIRECT_HIT, 6: Outcome.DIRECT_HIT}
    for face, outcome in expected.items():
        r = roll("scatter", Scripted(face))
        assert r.total is outcome and r.outcome is outcome
    assert roll("scatter", Scripted(2)).render() == "scatter (Right side)"


def test_reroll_whole_result():
    first = roll("2d6 + 1", Scripted(1, 5))
    second = reroll(first, Scripted(4, 2))
    assert second.original is first
    assert second.total == 7
    assert [d.rerolled_from for d in second.dice] == [1, 5]
    assert second.render() == "2d6 (~~1~~→4, ~~5~~→2) + 1 = 7"
    assert first.can_reroll and not second.can_reroll
    with pytest.raises(RerollNotAllowed) as info:
        reroll(second, Scripted())
    assert isinstance(info.value, MordheimError)
    assert "004:62" in str(info.value)


def test_reroll_never_rerolls_a_die_twice():
    first = roll("3d6r1", Scripted(1, 4, 5, 2))  # the 1 is re-rolled into a 2
    second = reroll(first, Scripted(6, 6))  # only the 4 and the 5 can be re-rolled
    assert faces(second) == [2, 6, 6]
    assert [d.rerolled_from for d in second.dice] == [1, 4, 5]
    assert not second.can_reroll


def test_reroll_recomputes_keep_and_successes():
    first = roll("3d6kh1 4+", Scripted(6, 1, 2))
    assert first.successes == 1 and first.total == 6
    second = reroll(first, Scripted(1, 5, 3))
    assert [d.kept for d in second.dice] == [False, True, False]
    assert second.total == 5 and second.successes == 1
    third_dice = reroll(roll("2d6 4+", Scripted(6, 6)), Scripted(1, 2))
    assert third_dice.successes == 0


def test_reroll_only_some_dice():
    first = roll("3d6", Scripted(1, 4, 1))
    second = reroll(first, Scripted(5, 6), only=lambda d: d.value == 1)
    assert faces(second) == [5, 4, 6]
    assert second.can_reroll  # the 4 can still be re-rolled
    third = reroll(second, Scripted(2))
    assert faces(third) == [5, 2, 6] and not third.can_reroll
    with pytest.raises(RerollNotAllowed):
        reroll(first, Scripted(), only=lambda d: d.value == 6)


def test_reroll_artillery_misfire_and_scatter():
    misfire = roll("art", Scripted(6))
    again = reroll(misfire, Scripted(2))
    assert again.total == 4 and again.render() == "artillery (~~Misfire~~→4) = 4"
    hit = reroll(roll("scatter", Scripted(5)), Scripted(4))
    assert hit.total is Outcome.LEFT


@pytest.mark.parametrize(
    "text",
    ["2d6 + 1 to hit", "4d6kh3", "3d6r1dl1", "10d6 4+", "d66", "2d3 - 1", "art * 2", "scatter", "-(2d6 * 3)", "5d6 2- fear",
     "2d6 <=7 leadership"],
)
def test_to_dict_round_trip(text):
    rng = random.Random(7)
    first = roll(text, rng)
    second = reroll(first, rng) if first.can_reroll else first
    for result in (first, second):
        stored = json.loads(json.dumps(result.to_dict()))
        back = RollResult.from_dict(stored)
        assert back.to_dict() == result.to_dict()
        assert back.render() == result.render()
        assert back.total == result.total and back.successes == result.successes and back.label == result.label
        assert back.can_reroll == result.can_reroll
        assert from_dict(stored).to_dict() == result.to_dict()
    assert RollResult.from_dict(second.to_dict()).original.render() == first.render()


def test_round_trip_of_an_expression_that_normalises_longer():
    text = "art+" * 39 + "1"
    result = roll(text, random.Random(5))
    assert len(result.expression) > 200
    assert RollResult.from_dict(result.to_dict()).to_dict() == result.to_dict()


def test_from_dict_rejects_tampered_data():
    data = roll("2d6", random.Random(1)).to_dict()
    data["terms"][0]["dice"][0]["face"] = 7
    with pytest.raises(ValueError):
        RollResult.from_dict(data)
    data = roll("2d6", random.Random(1)).to_dict()
    data["terms"][0]["dice"].pop()
    with pytest.raises(ValueError):
        RollResult.from_dict(data)


def test_same_seed_same_roll():
    assert roll("10d6 4+", random.Random(42)).to_dict() == roll("10d6 4+", random.Random(42)).to_dict()


ENGINE_DICE = Path(__file__).resolve().parents[2] / "engine" / "dice"


def test_engine_dice_imports_no_discord_and_uses_no_module_level_random():
    for path in ENGINE_DICE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
                if node.module == "random":
                    pytest.fail(f"{path.name} imports from random")
            else:
                names = []
            for name in names:
                assert name.split(".")[0] not in {"discord", "bot", "cogs"}, f"{path.name} imports {name}"
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
                assert node.attr == "Random", f"{path.name} uses random.{node.attr}"


def test_package_docstring_example_runs():
    import doctest

    import engine.dice

    assert doctest.testmod(engine.dice).failed == 0
