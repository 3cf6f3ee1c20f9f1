"""Property tests: any text either rolls or raises MordheimError; totals keep within bounds."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dice import Outcome, RerollNotAllowed, RollResult, parse, reroll, roll
from engine.errors import MordheimError

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TOKENS = [
    "d", "D", "2", "3", "6", "10", "66", "0", "100", "999999999", "1000", "d6", "2d6", "d3", "d66",
    "k", "kh", "kl", "dh", "dl", "r", "r<=", "r<", "+", "-", "*", "/", "(", ")", " ", "  ",
    "art", "artillery", "scatter", "4+", ">=", "<=", ">", "<", "=", "to hit", "armour save",
    "🎲", "`", "\n", "٣", "x",
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


@SETTINGS
@given(st.text(max_size=250), st.integers(0, 2**32))
def test_any_text_rolls_or_raises_mordheim_error(text, seed):
    check(text, seed)


@SETTINGS
@given(token_text, st.integers(0, 2**32))
def test_grammar_soup_rolls_or_raises_mordheim_error(text, seed):
    check(text, seed)


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
@given(st.integers(1, 30), st.integers(1, 7), st.integers(0, 2**32))
def test_successes_count_dice_meeting_target(n, target, seed):
    result = roll(f"{n}d6 {target}+", random.Random(seed))
    assert result.successes == sum(1 for d in result.dice if d.value >= target)
    assert 0 <= result.successes <= n


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
