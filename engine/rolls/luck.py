"""A member's rolls against what fair dice give: averages, shares, chances, and text charts.

Fair dice are the yardstick: a D6 averages 3.5 with a variance of 35/12, each face comes up
1 time in 6. How unusual a record is, is said as the chance that fair dice do at least as
well (or as badly): a normal approximation for averages and counts (sums of many independent
dice), and Pearson's chi-square with 5 degrees of freedom for the spread of D6 faces. The
charts are text, so they read the same on a phone, in the console and in a code block.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

D6_MEAN = 3.5
D6_VARIANCE = 35 / 12
FACES = (1, 2, 3, 4, 5, 6)
MIN_DICE_FOR_VERDICT = 30  # fewer dice than this say nothing about luck


Z_95 = 1.959963984540054  # a normal variable is within this many standard deviations of its mean 95% of the time


def average_band(dice: int) -> tuple[float, float]:
    """Where fair dice's D6 average lands 95% of the time over ``dice`` D6: 3.5 plus or minus
    1.96 standard errors (normal approximation), kept within 1 to 6."""
    if dice <= 0:
        return 1.0, 6.0
    half = Z_95 * math.sqrt(D6_VARIANCE / dice)
    return max(1.0, D6_MEAN - half), min(6.0, D6_MEAN + half)


def face_band(dice: int) -> tuple[float, float, float]:
    """How often one face comes up in ``dice`` fair D6: the expected count, and the range it lands
    in 95% of the time (binomial with p = 1/6, normal approximation, not below 0)."""
    expected = dice / 6
    half = Z_95 * math.sqrt(dice * 5 / 36)
    return expected, max(0.0, expected - half), expected + half


def upper_tail(z: float) -> float:
    """P(Z >= z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def chi_square_5_tail(x: float) -> float:
    """P(X >= x) for chi-square with 5 degrees of freedom (closed form for odd degrees)."""
    if x <= 0:
        return 1.0
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3)


@dataclass(frozen=True)
class MemberLuck:
    """One member's record in one server, read as luck (``engine.storage.rolls`` reads it)."""

    guild_id: int
    member_id: int
    member_name: str
    rolls: int
    faces: tuple[int, int, int, int, int, int]  # how often each D6 face came up
    other_dice: int = 0
    other_sum: int = 0
    other_expected: float = 0.0
    other_variance: float = 0.0
    tests: int = 0
    tests_passed: int = 0
    tests_expected: float = 0.0
    tests_variance: float = 0.0
    injuries: int = 0
    injuries_knocked_down: int = 0
    injuries_stunned: int = 0
    injuries_out_of_action: int = 0
    injuries_expected_out: float = 0.0
    injuries_variance_out: float = 0.0
    first_at: str = ""
    last_at: str = ""

    # -- D6 ------------------------------------------------------------------------
    # worked out once, with the record (it never changes): charts, the board and verdicts read
    # them often, for every member shown. Not compared: they follow from ``faces``.
    d6: int = field(init=False, compare=False)
    d6_average: float | None = field(init=False, compare=False)
    d6_z: float | None = field(init=False, compare=False)  # standard errors above fair dice's 3.5

    def __post_init__(self) -> None:
        d6 = sum(self.faces)
        average = sum(f * n for f, n in zip(FACES, self.faces)) / d6 if d6 else None
        z = None if average is None else (average - D6_MEAN) / math.sqrt(D6_VARIANCE / d6)
        object.__setattr__(self, "d6", d6)  # frozen: set once, here
        object.__setattr__(self, "d6_average", average)
        object.__setattr__(self, "d6_z", z)

    def share(self, face: int) -> float | None:
        return self.faces[face - 1] / self.d6 if self.d6 else None

    @property
    def chance_of_an_average_this_far(self) -> float | None:
        """The chance fair dice average at least this far from 3.5, on this side."""
        z = self.d6_z
        return None if z is None else upper_tail(abs(z))

    @property
    def faces_fair_chance(self) -> float | None:
        """Chi-square test of the six faces: the chance fair dice spread at least this unevenly."""
        n = self.d6
        if n < MIN_DICE_FOR_VERDICT:
            return None
        expected = n / 6
        x = sum((c - expected) ** 2 / expected for c in self.faces)
        return chi_square_5_tail(x)

    @property
    def verdict(self) -> str:
        """A sentence on the D6: lucky, unlucky or as fair dice would be, and how unusual."""
        n = self.d6
        avg, chance = self.d6_average, self.chance_of_an_average_this_far
        if n < MIN_DICE_FOR_VERDICT or avg is None or chance is None:  # both are numbers from the first D6
            return f"{n} D6 so far: too few to say anything about luck ({MIN_DICE_FOR_VERDICT} needed)."
        side = "above" if avg > D6_MEAN else "below"
        if chance >= 0.1:
            return f"D6 average {avg:.2f}: just what fair dice do ({n} D6)."
        word = "lucky" if avg > D6_MEAN else "unlucky"
        return (
            f"D6 average {avg:.2f}, {side} the 3.50 fair dice give: {word}. Fair dice average this far {side} "
            f"{_percent(chance)} of the time over {n} D6."
        )

    @property
    def sixes_and_ones_line(self) -> str | None:
        """How often the D6 came up 6 and 1, against the 1 in 6 of fair dice."""
        n = self.d6
        if not n:
            return None
        parts = []
        for face, word in ((6, "Sixes"), (1, "Ones")):
            count = self.faces[face - 1]
            parts.append(f"{word}: {count} of {n} ({count / n:.1%})"
                         f"{_how_unusual(count, n / 6, n * 5 / 36)}")
        return "; ".join(parts) + ". Fair dice give 16.7% of each."

    # -- tests, injuries, other dice ---------------------------------------------------------

    @property
    def tests_line(self) -> str | None:
        if not self.tests:
            return None
        return (
            f"Tests passed: {self.tests_passed} of {self.tests}; fair dice pass {self.tests_expected:.1f} of these"
            f"{_how_unusual(self.tests_passed, self.tests_expected, self.tests_variance)}."
        )

    @property
    def injuries_line(self) -> str | None:
        if not self.injuries:
            return None
        return (
            f"Injury rolls: {self.injuries} — {self.injuries_knocked_down} knocked down, {self.injuries_stunned} stunned, "
            f"{self.injuries_out_of_action} out of action; fair dice put {self.injuries_expected_out:.1f} out of action"
            f"{_how_unusual(self.injuries_out_of_action, self.injuries_expected_out, self.injuries_variance_out)}."
        )

    @property
    def other_dice_line(self) -> str | None:
        if not self.other_dice:
            return None
        return (
            f"Other dice: {self.other_dice}, totalling {self.other_sum} against the {self.other_expected:.1f} fair dice "
            f"average{_how_unusual(self.other_sum, self.other_expected, self.other_variance)}."
        )


def _how_unusual(seen: float, expected: float, variance: float) -> str:
    if variance <= 0:
        return ""
    z = (seen - expected) / math.sqrt(variance)
    chance = upper_tail(abs(z))
    if chance >= 0.1:
        return ""
    return f" (fair dice do {'this well' if seen > expected else 'this badly'} {_percent(chance)} of the time)"


def _percent(p: float) -> str:
    if p < 0.001:
        return "less than 0.1%"
    if p < 0.01:
        return f"{p:.1%}"
    return f"{p:.0%}"


# -- charts ------------------------------------------------------------------------------

BLOCKS = " ▏▎▍▌▋▊▉█"


def bar(value: float, full: float, width: int) -> str:
    """A bar ``width`` characters long at ``full``, in eighths of a character."""
    eighths = max(0, min(width * 8, round(value / full * width * 8))) if full > 0 else 0
    return ("█" * (eighths // 8) + (BLOCKS[eighths % 8] if eighths % 8 else "")).ljust(width)


def face_chart(member: MemberLuck, width: int = 20) -> str:
    """How often each D6 face came up, with where fair dice would be (┊ at 1 in 6)."""
    n = member.d6
    if not n:
        return "No D6 rolled yet."
    full = max(0.3, max(member.faces) / n)
    mark = round(1 / 6 / full * width)
    lines = []
    for face, count in zip(FACES, member.faces):
        drawn = list(bar(count / n, full, width))
        if 0 <= mark < width and drawn[mark] == " ":
            drawn[mark] = "┊"
        lines.append(f"{face} {''.join(drawn)} {count / n:6.1%} ({count})")
    lines.append(f"  ┊ = 1 in 6 ({100 / 6:.1f}%), what fair dice give")
    return "\n".join(lines)


def luck_board_chart(members: list[MemberLuck], width: int = 10, spread: float = 0.5) -> str:
    """Each member's D6 average around 3.5: to the right luckier, to the left unluckier."""
    rows = [m for m in members if m.d6]
    if not rows:
        return "No D6 rolled yet."
    name_width = min(14, max(len(m.member_name or str(m.member_id)) for m in rows))
    lines = []
    for m in rows:
        average = m.d6_average
        if average is None:  # not in rows: each rolled a D6
            continue
        name = (m.member_name or str(m.member_id))[:name_width].ljust(name_width)
        diff = average - D6_MEAN
        right = bar(max(0.0, diff), spread, width)
        left = bar(max(0.0, -diff), spread, width)[::-1]
        lines.append(f"{name} {left}│{right} {average:.2f} ({m.d6} D6)")
    lines.append(f"{'':{name_width}} {'unluckier':>{width}}│{'luckier':<{width}} 3.50 is fair")
    return "\n".join(lines)
