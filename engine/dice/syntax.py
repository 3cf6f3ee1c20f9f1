"""The parsed form of a dice expression: immutable nodes, shared by every roll of it.

The parser (``parser.py``) builds these; ``roller.py`` rolls them; ``render.py`` shows
them. A parsed ``Expression`` is cached and reused, so nothing here may change after it
is built.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .die import DieKind


@dataclass(frozen=True, slots=True)
class Num:
    value: int
    pos: int


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """``count`` dice of one kind, with their modifiers.

    ``index`` is the term's place among the expression's dice terms (left to right);
    ``sides`` is what was written after ``d`` (3 for D3, 66 for D66); ``size`` the sides of
    the die actually rolled (6 for D3, artillery and scatter). ``keep`` is
    (``"kh"|"kl"|"dh"|"dl"``, n) or None; ``reroll_at_or_below`` re-rolls once each die whose
    value is that or less.
    """

    index: int
    kind: DieKind
    count: int
    sides: int
    size: int
    count_written: bool
    keep: tuple[str, int] | None
    reroll_at_or_below: int | None
    pos: int

    @property
    def kept_count(self) -> int:
        if self.keep is None:
            return self.count
        mode, n = self.keep
        return n if mode in ("kh", "kl") else self.count - n

    @property
    def notation(self) -> str:
        if self.kind is DieKind.ARTILLERY:
            return "artillery"
        if self.kind is DieKind.SCATTER:
            return "scatter"
        text = f"{self.count if self.count_written else ''}d{self.sides}"
        if self.reroll_at_or_below is not None:
            text += f"r{self.reroll_at_or_below}"
        if self.keep is not None:
            text += f"{self.keep[0]}{self.keep[1]}"
        return text


@dataclass(frozen=True, slots=True)
class Neg:
    operand: Node
    pos: int


@dataclass(frozen=True, slots=True)
class BinOp:
    op: str  # "+", "-" or "*"
    left: Node
    right: Node
    pos: int  # of the operator


Node = Num | DiceTerm | Neg | BinOp

PRECEDENCE = {"+": 1, "-": 1, "*": 2}


class TargetScope(str, Enum):
    """What a target is compared with: each die of a pool, or the roll's total."""

    DICE = "dice"  # `5d6 4+`: count the dice that reach it
    TOTAL = "total"  # `2d6<=7`, `2d6 7+`: the total passes or fails


@dataclass(frozen=True, slots=True)
class SuccessTarget:
    """A target after a roll: ``>=``, ``<=`` or ``=`` to ``value``, against dice or the total.

    ``written`` is how it was typed, normalised: ``"+"`` for ``4+``, ``"-"`` for ``2-`` (the
    suffix forms, which count dice when they can) or ``"cmp"`` for ``>=7``, ``<=7``, ``=7``
    (comparisons, which always test the total). ``scope`` is the reading the parser chose
    (see GRAMMAR.md, "Targets"); ``reason`` says why a suffix target was read as the total.
    """

    op: str
    value: int
    written: str = "+"
    scope: TargetScope = TargetScope.DICE
    reason: str | None = None

    def matches(self, value: int) -> bool:
        if self.op == ">=":
            return value >= self.value
        if self.op == "<=":
            return value <= self.value
        return value == self.value

    @property
    def counts_dice(self) -> bool:
        return self.scope is TargetScope.DICE

    @property
    def text(self) -> str:
        """The target as the normalised expression writes it: ``4+``, ``2-``, ``<=7``, ``>=7``, ``=7``."""
        if self.written == "+":
            return f"{self.value}+"
        if self.written == "-":
            return f"{self.value}-"
        return f"{self.op}{self.value}"

    @property
    def words(self) -> str:
        """``4 or more``, ``7 or less``, ``exactly 7``."""
        if self.op == ">=":
            return f"{self.value} or more"
        if self.op == "<=":
            return f"{self.value} or less"
        return f"exactly {self.value}"


@dataclass(frozen=True, slots=True)
class Expression:
    """A parsed roll: the arithmetic, its dice terms, an optional target and label.

    ``text`` is the normalised expression (no label), which parses back to the same
    expression. ``bounds`` are the lowest and highest totals it can give (a Misfire aside).
    ``notes`` say how a target was read (``2d6 7+`` as the total); ``warnings`` that it can
    never be met or is always met. Both are sentences for the roller, shown with the result.
    """

    root: Node
    terms: tuple[DiceTerm, ...]
    target: SuccessTarget | None
    label: str | None
    text: str
    bounds: tuple[int, int]
    dice_count: int
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def is_scatter(self) -> bool:
        return isinstance(self.root, DiceTerm) and self.root.kind is DieKind.SCATTER

    @property
    def has_artillery(self) -> bool:
        return any(t.kind is DieKind.ARTILLERY for t in self.terms)


@dataclass(frozen=True, slots=True)
class PlannedRoll:
    """One item of a roll set: an expression, rolled ``times`` times (``3x 2d6``)."""

    expression: Expression
    times: int = 1

    @property
    def text(self) -> str:
        return self.expression.text if self.times == 1 else f"{self.times}x {self.expression.text}"


@dataclass(frozen=True, slots=True)
class RollPlan:
    """What a whole ``/roll`` asks for: one or more expressions, separated by commas.

    ``text`` is the normalised set (labels left out); ``count`` the number of rolls it makes
    (repeats counted), ``dice_count`` the dice they roll together.
    """

    items: tuple[PlannedRoll, ...]
    text: str
    count: int
    dice_count: int

    @property
    def expressions(self) -> list[Expression]:
        """Every roll this plan makes, in order, repeats written out."""
        return [item.expression for item in self.items for _ in range(item.times)]


def node_text(node: Node, term_text=None, times: str = "*") -> str:
    """The node written back out, with parentheses only where precedence needs them.

    ``term_text(term)`` replaces how a dice term is written (the breakdown uses it to add
    the faces); ``times`` is the multiplication sign.
    """
    if isinstance(node, DiceTerm):
        return term_text(node) if term_text else node.notation
    if isinstance(node, Num):
        return str(node.value)
    if isinstance(node, Neg):
        inner = node_text(node.operand, term_text, times)
        if isinstance(node.operand, BinOp):
            inner = f"({inner})"
        return f"-{inner}"
    prec = PRECEDENCE[node.op]
    left = node_text(node.left, term_text, times)
    if isinstance(node.left, BinOp) and PRECEDENCE[node.left.op] < prec:
        left = f"({left})"
    right = node_text(node.right, term_text, times)
    if isinstance(node.right, BinOp) and PRECEDENCE[node.right.op] <= prec:
        right = f"({right})"
    op = times if node.op == "*" else node.op
    return f"{left} {op} {right}"
