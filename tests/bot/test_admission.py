"""The line interactions wait in (bot/admission.py), on a clock the test moves."""

from __future__ import annotations

import pytest

from bot.admission import DISCORD_EPOCH_MS, Ages, Arrival, Line


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Recording(Line):
    """A line that remembers what it started, so a test can say which one finished."""

    def end_oldest(self, *, timed: bool = False) -> None:
        self.finished(self.running.pop(0), timed=timed)


def make_line(limit: int = 2):
    clock = Clock()
    started: list[str] = []
    dropped: list[str] = []

    def start(arrival: Arrival) -> None:
        started.append(arrival.item)
        line.running.append(arrival)

    line = Recording(start, lambda a: dropped.append(a.item), limit=limit, clock=clock)
    line.running = []
    return line, clock, started, dropped


def arrive(line: Line, clock: Clock, name: str, *, age: float = 0.0, autocomplete: bool = False) -> None:
    line.arrive(Arrival(born=clock.now - age, autocomplete=autocomplete, item=name))


def test_at_most_limit_at_once_then_first_come_first_served():
    line, clock, started, dropped = make_line(limit=2)
    for name in "abcd":
        arrive(line, clock, name)
    assert started == ["a", "b"] and line.answering == 2 and line.waiting == 2
    clock.now += 0.1
    line.end_oldest()
    assert started == ["a", "b", "c"]
    line.end_oldest()
    line.end_oldest()
    assert started == ["a", "b", "c", "d"] and line.answering == 1 and dropped == []


def test_commands_go_before_autocomplete():
    line, clock, started, _ = make_line(limit=1)
    arrive(line, clock, "busy")
    arrive(line, clock, "typing", autocomplete=True)
    arrive(line, clock, "roll")
    line.end_oldest()
    assert started == ["busy", "roll"]
    line.end_oldest()
    assert started == ["busy", "roll", "typing"]


def test_an_interaction_too_old_when_its_turn_comes_is_dropped_before_any_work():
    line, clock, started, dropped = make_line(limit=1)
    arrive(line, clock, "busy")
    arrive(line, clock, "old")
    arrive(line, clock, "fresh", age=-2.0)  # made two seconds after the others
    clock.now += 2.6
    line.end_oldest()
    assert dropped == ["old"] and started == ["busy", "fresh"] and line.dropped == 1
    arrive(line, clock, "replayed", age=3.0)  # already too old when it arrives (a RESUME's replay)
    line.end_oldest()
    assert dropped == ["old", "replayed"] and line.answering == 0


def test_once_the_line_backs_up_the_newest_go_first():
    line, clock, started, dropped = make_line(limit=1)
    arrive(line, clock, "busy")
    for n in range(3):
        arrive(line, clock, f"early{n}")
        clock.now += 0.3  # the oldest has now waited 0.9 s: more than backlog_after
    arrive(line, clock, "newest")
    line.end_oldest()
    assert started == ["busy", "newest"]
    line.end_oldest()
    assert started[-1] == "early2" and dropped == []


def test_autocomplete_is_always_newest_first():
    line, clock, started, _ = make_line(limit=1)
    arrive(line, clock, "busy")
    arrive(line, clock, "f", autocomplete=True)
    arrive(line, clock, "fl", autocomplete=True)
    arrive(line, clock, "fla", autocomplete=True)
    line.end_oldest()
    assert started == ["busy", "fla"]


def test_when_answers_take_long_the_bar_comes_down_so_the_answer_still_fits():
    line, clock, started, dropped = make_line(limit=1)
    assert line.too_old == 2.5
    arrive(line, clock, "slow")
    arrive(line, clock, "waited 2.2 s", age=1.0)
    clock.now += 1.2
    line.end_oldest(timed=True)  # "slow" took 1.2 s to answer: a start at 2.2 s would answer at 3.4 s
    assert line.slow == pytest.approx(1.2) and line.too_old == pytest.approx(3.0 - 0.1 - 1.2)
    assert dropped == ["waited 2.2 s"] and started == ["slow"]
    clock.now += 4  # four half-lives later, answers are quick again
    arrive(line, clock, "quick")
    line.end_oldest(timed=True)
    assert line.slow == pytest.approx(1.2 / 16) and line.too_old == 2.5


def test_after_an_answer_of_three_seconds_the_bar_comes_back_up_by_itself():
    """Found by tests/bot/test_fuzz_options.py on a busy machine: one answer of three seconds took the
    bar to 0, every interaction after it was dropped, and since none finished the bar never moved
    again: the bot answered nothing more."""
    line, clock, started, dropped = make_line(limit=1)
    arrive(line, clock, "three seconds")
    clock.now += 3.5
    line.end_oldest(timed=True)
    assert line.too_old == 0.0
    arrive(line, clock, "at once", age=0.05)  # still dropped: it could not be answered in time
    clock.now += 1.0  # a half-life later
    arrive(line, clock, "a second later", age=0.05)
    clock.now += 10
    arrive(line, clock, "later still", age=1.0)
    assert dropped == ["at once"] and started == ["three seconds", "a second later"]
    line.end_oldest(timed=False)
    assert started[-1] == "later still" and line.too_old == 2.5


def test_a_deferred_answer_does_not_count_as_slow():
    line, clock, _, _ = make_line(limit=1)
    arrive(line, clock, "odds of a duel")
    clock.now += 2
    line.end_oldest(timed=False)
    assert line.slow == 0 and line.too_old == 2.5


def test_a_limit_below_one_is_refused():
    with pytest.raises(ValueError):
        Line(print, print, limit=0)


def snowflake_at(seconds: float) -> int:
    return (int(seconds * 1000) - DISCORD_EPOCH_MS) << 22


def test_ages_come_from_the_snowflake():
    clock, wall = Clock(), [1_700_000_000.0]
    ages = Ages(wall=lambda: wall[0], clock=clock)
    assert ages.born(snowflake_at(wall[0] - 0.05)) == pytest.approx(clock.now)  # the quickest delivery sets the offset
    assert ages.born(snowflake_at(wall[0] - 2.05)) == pytest.approx(clock.now - 2.0)


@pytest.mark.parametrize("host_ahead", [5.0, -5.0])
def test_a_host_clock_off_discords_is_corrected_for(host_ahead):
    clock, wall = Clock(), [1_700_000_000.0]
    ages = Ages(wall=lambda: wall[0] + host_ahead, clock=clock)
    assert ages.born(snowflake_at(wall[0] - 0.02)) == pytest.approx(clock.now)
    assert ages.offset == pytest.approx(host_ahead + 0.02)
    clock.now += 1
    wall[0] += 1
    assert ages.born(snowflake_at(wall[0] - 3.02)) == pytest.approx(clock.now - 3.0)  # still found too old
