"""Property tests: any text either rolls or raises MordheimError; totals keep within bounds;
targets, roll sets, spaced modifiers and re-roll choices keep their promises."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dice import (
    Outcome,
    RerollChoice,
    RerollNotAllowed,
    RollResult,
    RollSet,
    choosable_dice,
    parse,
    parse_set,
    reroll,
    reroll_choice,
    reroll_choices,
    roll,
    roll_set,
    verdict,
)
from engine.errors import MordheimError

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TOKENS = [
    "d", "D", "2", "3", "6", "10", "66", "0", "100", "999999999", "1000", "d6", "2d6", "d3", "d66",
    "k", "kh", "kl", "dh", "dl", "r", "r<=", "r<", "+", "-", "*", "/", "(", ")", " ", "  ",
    "art", "artillery", "scatter", "4+", ">=", "<=", ">", "<", "=", "to hit", "armour save",
    "🎲", "`", "\n", "٣", "x",
    ",", ", ", "3x ", "2x", "×", " r1", " kh3", " k", " dl1", "2-", "7+", "<=7", ">=7", " kill", "==",
]

token_text = st.lists(st.sampled_from(TOKENS), max_size=25).map("".join)


def check(text: str, seed: int) -> None:
    rng = random.Random(seed)
    try:
        result = roll(text, rng)
    except MordheimError as err:
        assert str(err)
        return
    lo, hi = result.parsed.bounds
    if isinstance(result.total, int):
        assert lo <= result.total <= hi
    else:
        assert isinstance(result.total, Outcome)
    assert isinstance(result.render(), str)
    stored = json.loads(json.dumps(result.to_dict()))
    assert RollResult.from_dict(stored).to_dict() == result.to_dict()
    try:
        again = reroll(result, rng)
    except RerollNotAllowed:
        assert not result.can_reroll
    else:
        assert not again.can_reroll
        if isinstance(again.total, int):
            assert lo <= again.total <= hi


def check_set(text: str, seed: int) -> None:
    """The same promises for a whole ``/roll``: a roll set, or the library's own error."""
    rng = random.Random(seed)
    try:
        result = roll_set(text, rng)
    except MordheimError as err:
        assert str(err)
        return
    plan = parse_set(text)
    assert len(result.results) == plan.count and sum(len(r.dice) for r in result.results) == plan.dice_count
    for r in result.results:
        lo, hi = r.parsed.bounds
        if isinstance(r.total, int):
            assert lo <= r.total <= hi
        target = r.parsed.target
        assert (r.successes is None) == (target is None or not target.counts_dice)
        assert (r.passed is None) == (target is None or target.counts_dice)
        assert (verdict(r) is None) == (target is None)
    stored = json.loads(json.dumps(result.to_dict()))
    assert RollSet.from_dict(stored).to_dict() == result.to_dict()
    choices = reroll_choices(result)
    assert choices == ([] if not result.can_reroll else choices)
    for choice in choices:
        again = reroll_choice(result, rng, choice, die=choosable_dice(result)[0].key)
        assert_rerolled_once(result, again)


def assert_rerolled_once(before, after) -> None:
    """004:62: a die re-rolled before keeps its face; only dice never re-rolled may change."""
    for old, new in zip(before.dice, after.dice):
        if old.rerolled_from is not None:
            assert (new.face, new.rerolled_from) == (old.face, old.rerolled_from)
        elif new.rerolled_from is not None:
            assert new.rerolled_from == old.face


@SETTINGS
@given(st.text(max_size=250), st.integers(0, 2**32))
def test_any_text_rolls_or_raises_mordheim_error(text, seed):
    check(text, seed)
    check_set(text, seed)


@SETTINGS
@given(token_text, st.integers(0, 2**32))
def test_grammar_soup_rolls_or_raises_mordheim_error(text, seed):
    check(text, seed)
    check_set(text, seed)


@SETTINGS
@given(st.integers(1, 20), st.integers(2, 1000), st.integers(-1000, 1000), st.integers(0, 2**32))
def test_ndm_plus_k_within_bounds(n, m, k, seed):
    result = roll(f"{n}d{m}{k:+d}", random.Random(seed))
    assert n + k <= result.total <= n * m + k
    assert len(result.dice) == n


@SETTINGS
@given(st.integers(1, 20), st.integers(2, 100), st.data())
def test_keep_highest_within_bounds(n, m, data):
    keep = data.draw(st.integers(1, n))
    result = roll(f"{n}d{m}kh{keep}", random.Random(data.draw(st.integers(0, 2**32))))
    kept = [d.value for d in result.dice if d.kept]
    dropped = [d.value for d in result.dice if not d.kept]
    assert len(kept) == keep and keep <= result.total <= keep * m
    assert not dropped or min(kept) >= max(dropped)


@SETTINGS
@given(st.integers(1, 30), st.integers(1, 6), st.integers(0, 2**32))
def test_successes_count_dice_meeting_target(n, target, seed):
    result = roll(f"{n}d6 {target}+", random.Random(seed))
    assert result.successes == sum(1 for d in result.dice if d.value >= target)
    assert 0 <= result.successes <= n and result.passed is None


@SETTINGS
@given(st.integers(1, 20), st.integers(1, 6), st.integers(0, 2**32))
def test_reroll_modifier_rerolls_each_low_die_once(n, threshold, seed):
    result = roll(f"{n}d6r{threshold}", random.Random(seed))
    for die in result.dice:
        if die.rerolled_from is None:
            assert die.face > threshold
        else:
            assert die.rerolled_from <= threshold


@SETTINGS
@given(token_text)
def test_normalised_text_parses_to_itself(text):
    try:
        parsed = parse(text)
    except MordheimError:
        return
    assert parse(parsed.text).text == parsed.text
    assert parse(parsed.text).target == parsed.target


@SETTINGS
@given(token_text)
def test_normalised_set_parses_to_itself(text):
    try:
        plan = parse_set(text)
    except MordheimError:
        return
    again = parse_set(plan.text)
    assert again.text == plan.text and again.count == plan.count
    assert [e.target for e in again.expressions] == [e.target for e in plan.expressions]


# -- the grammar's new parts, built from their pieces -------------------------------------

pool_term = st.one_of(
    st.builds(
        lambda n, m, mod: f"{n}d{m}{mod}",
        st.integers(1, 6),
        st.sampled_from([3, 6, 10]),
        st.sampled_from(["", " r1", "r1", " kh1", "kh1"]),
    ),
    st.builds(lambda n: f"{n}d66", st.integers(1, 3)),
)
pool = st.lists(pool_term, min_size=1, max_size=3).map(" + ".join)
suffix = st.builds(lambda v, s: f"{v}{s}", st.integers(0, 70), st.sampled_from(["+", "-"]))
comparison = st.builds(lambda op, v: f"{op}{v}", st.sampled_from([">=", "<=", ">", "<", "=", "=="]), st.integers(0, 70))


@SETTINGS
@given(pool, st.one_of(suffix, comparison), st.integers(0, 2**32))
def test_a_comparison_tests_the_total_and_a_suffix_counts_dice_a_die_can_reach(expr, target_text, seed):
    result = roll(f"{expr} {target_text}", random.Random(seed))
    target = result.parsed.target
    if target_text[0] in "<>=":
        assert not target.counts_dice  # comparisons always test the total
    if target.counts_dice:
        assert target_text[-1] in "+-"
        assert result.successes == sum(1 for d in result.dice if d.kept and target.matches(d.value))
        assert any(target.matches(v) for t in result.parsed.terms for v in _die_values(t))
    else:
        assert result.passed == target.matches(result.total)
        if target_text[-1] in "+-":  # a suffix read as the total says why (one die aside)
            assert result.notes or result.parsed.dice_count == 1
    lo, hi = result.parsed.bounds
    possible = [v for v in range(lo, hi + 1) if target.matches(v)]
    if not target.counts_dice and not possible:
        assert any("never be met" in n for n in result.warnings)


def _die_values(term) -> range:
    if term.sides == 3:
        return range(1, 4)
    if term.sides == 66:
        return range(11, 67)
    return range(1, term.size + 1)


@SETTINGS
@given(st.lists(st.sampled_from(["2d6", "d6 4+", "3d6 r1 to hit", "2d6<=7", "d66", "4d6 kh3"]), min_size=1, max_size=5),
       st.integers(1, 3))
def test_a_set_is_its_rolls_in_order(items, times):
    text = ", ".join(f"{times}x {item}" for item in items)
    plan = parse_set(text)
    assert plan.count == times * len(items)
    assert [e.text for e in plan.expressions] == [parse(i).text for i in items for _ in range(times)]
    assert [e.label for e in plan.expressions] == [parse(i).label for i in items for _ in range(times)]


@SETTINGS
@given(st.sampled_from(["r1", "r<=2", "kh3", "k2", "kl1", "dl1", "dh2"]), st.sampled_from(["", " to hit"]))
def test_a_modifier_after_a_space_is_the_same_modifier(modifier, label):
    assert parse(f"4d6 {modifier}{label}").text == parse(f"4d6{modifier}{label}").text
    assert parse(f"4d6 {modifier}{label}").label == parse(f"4d6{modifier}{label}").label


@SETTINGS
@given(st.sampled_from(["5d6 4+", "3d6 r1, 2d6<=7", "3x d6 4+", "2d6 >=7, d66", "4d6kh3 5+"]),
       st.lists(st.sampled_from(list(RerollChoice)), max_size=6), st.integers(0, 2**32), st.data())
def test_no_sequence_of_rerolls_rerolls_a_die_twice(text, choices, seed, data):
    rng = random.Random(seed)
    result = roll_set(text, rng)
    for choice in choices:
        dice = choosable_dice(result)
        key = data.draw(st.sampled_from([c.key for c in dice])) if dice else None
        if choice not in reroll_choices(result):
            try:
                reroll_choice(result, rng, choice, die=key)
            except RerollNotAllowed:
                continue
            assert choice is RerollChoice.ONE  # ONE alone is offered only with two dice or more
            continue
        again = reroll_choice(result, rng, choice, die=key)
        assert_rerolled_once(result, again)
        assert again.original is result
        result = again
