"""What a roll produced: every die per term, the total, successes, pass or fail, and label.

A ``RollResult`` is built from a parsed ``Expression`` and the faces rolled for each of
its dice terms; the total, keep/drop, successes and the verdict are worked out here from
those faces, so a result rebuilt from stored faces (``from_dict``) is the same result.
A ``RollSet`` is the results of one ``/roll``: one or more rolls (``2d6, d6``, ``3x 2d6``).
"""

from __future__ import annotations

from typing import Any, cast

from .breakdown import render_breakdown
from .die import Die, DieKind, Outcome, face_is_valid, face_value
from .parser import parse_normalised
from .syntax import BinOp, DiceTerm, Expression, Neg, Node, Num, SuccessTarget

# 2: a comparison target (`2d6<=7`) tests the total; in version 1 it counted dice.
FORMAT_VERSION = 2


class TermResult:
    """The dice rolled for one dice term (``4d6kh3``), in the order they were rolled."""

    __slots__ = ("term", "dice", "total")

    def __init__(self, term: DiceTerm, dice: tuple[Die, ...], total: int) -> None:
        self.term = term
        self.dice = dice
        self.total = total  # sum of the kept dice's values

    @property
    def notation(self) -> str:
        return self.term.notation

    def __repr__(self) -> str:
        return f"TermResult({self.notation!r}, {list(self.dice)!r}, total={self.total})"


def build_term(term: DiceTerm, faces: list[int], rerolled_from: list[int | None] | None = None) -> TermResult:
    """The term's dice from their final faces (and the faces they were re-rolled from)."""
    kind, size = term.kind, term.size
    if kind is DieKind.STANDARD or kind is DieKind.D66:
        values = faces
    else:
        values = [face_value(kind, f) for f in faces]
    if rerolled_from is None:
        rerolled_from = [None] * len(faces)
    if term.keep is None:
        dice = tuple(Die(kind, size, f, v, True, r) for f, v, r in zip(faces, values, rerolled_from))
        return TermResult(term, dice, sum(values))
    mode, n = term.keep
    order = sorted(range(len(values)), key=values.__getitem__)
    if mode == "kh":
        kept = set(order[len(order) - n :])
    elif mode == "kl":
        kept = set(order[:n])
    elif mode == "dh":
        kept = set(order[: len(order) - n])
    else:  # "dl"
        kept = set(order[n:])
    dice = tuple(Die(kind, size, faces[j], values[j], j in kept, rerolled_from[j]) for j in range(len(faces)))
    return TermResult(term, dice, sum(values[j] for j in kept))


def _evaluate(node: Node, totals: list[int]) -> int:
    if type(node) is DiceTerm:
        return totals[node.index]
    if type(node) is Num:
        return node.value
    if type(node) is Neg:
        return -_evaluate(node.operand, totals)
    op = cast(BinOp, node)  # all that is left (type() is, not isinstance, for speed: mypy narrows no further)
    left = _evaluate(op.left, totals)
    right = _evaluate(op.right, totals)
    if op.op == "+":
        return left + right
    if op.op == "-":
        return left - right
    return left * right


class RollResult:
    """One roll of a dice expression.

    ``total`` is an int, or an ``Outcome``: ``Outcome.MISFIRE`` when an Artillery dice shows
    Misfire, the direction (or ``Outcome.DIRECT_HIT``) for the Scatter dice. ``successes``
    is the number of kept dice meeting a target that counts dice (``5d6 4+``), else None;
    ``passed`` is whether the total met a target that tests the total (``2d6<=7``), else
    None. ``terms`` holds every die of each dice term. ``original`` is the result this
    one re-rolled, if it is a re-roll.
    """

    __slots__ = ("parsed", "terms", "label", "original", "total", "successes", "passed")

    def __init__(
        self,
        parsed: Expression,
        terms: tuple[TermResult, ...],
        label: str | None = None,
        original: RollResult | None = None,
    ) -> None:
        self.parsed = parsed
        self.terms = terms
        self.label = label
        self.original = original
        root = parsed.root
        self.total: int | Outcome
        if type(root) is DiceTerm and root.kind is DieKind.STANDARD:
            self.total = terms[0].total
        elif parsed.is_scatter:
            self.total = cast(Outcome, terms[0].dice[0].outcome)  # a Scatter die always reads as one
        elif parsed.has_artillery and any(d.outcome is Outcome.MISFIRE for t in terms for d in t.dice):
            self.total = Outcome.MISFIRE  # 002:74: a Six counts as the Misfire, whatever is added
        else:
            self.total = _evaluate(root, [t.total for t in terms])
        target = parsed.target
        self.successes: int | None = None
        self.passed: bool | None = None
        if target is not None and target.counts_dice:
            self.successes = sum(1 for t in terms for d in t.dice if d.kept and target.matches(d.value))
        elif target is not None and isinstance(self.total, int):  # the parser allows no target on Artillery or Scatter dice
            self.passed = target.matches(self.total)

    # -- reading --------------------------------------------------------------------

    @property
    def expression(self) -> str:
        """The normalised expression (no label): ``"4d6kh3 + 1"``, ``"10d6 4+"``."""
        return self.parsed.text

    @property
    def target(self) -> SuccessTarget | None:
        return self.parsed.target

    @property
    def dice(self) -> list[Die]:
        """Every die of every term, left to right."""
        return [d for t in self.terms for d in t.dice]

    @property
    def outcome(self) -> Outcome | None:
        """Misfire or the scatter direction when the total is not a number."""
        return self.total if isinstance(self.total, Outcome) else None

    @property
    def is_misfire(self) -> bool:
        return self.total is Outcome.MISFIRE

    @property
    def can_reroll(self) -> bool:
        """True while some die has not been re-rolled yet (004:62: never twice)."""
        return any(d.rerolled_from is None for t in self.terms for d in t.dice)

    @property
    def notes(self) -> tuple[str, ...]:
        """How the target was read (``2d6 7+`` as the total), from the parser."""
        return self.parsed.notes

    @property
    def warnings(self) -> tuple[str, ...]:
        """That the target can never be met, or is always met, from the parser."""
        return self.parsed.warnings

    def failed_dice(self) -> list[Die]:
        """The dice that failed: kept dice short of a target that counts dice, or every die of a
        roll whose total failed its target. None without a target."""
        target = self.parsed.target
        if target is None:
            return []
        if target.counts_dice:
            return [d for t in self.terms for d in t.dice if d.kept and not target.matches(d.value)]
        return self.dice if self.passed is False else []

    def render(self) -> str:
        """A compact breakdown: ``2d6 (3, 5) + 1 = 9``; see ``engine.dice.breakdown``."""
        return render_breakdown(self.parsed, [t.dice for t in self.terms], self.total, self.successes, self.passed)

    def __repr__(self) -> str:
        return f"RollResult({self.render()!r}, label={self.label!r})"

    # -- storage --------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable form; ``RollResult.from_dict`` gives the same result back."""
        return {
            "type": "roll",
            "version": FORMAT_VERSION,
            "expression": self.parsed.text,
            "label": self.label,
            "total": self.total.value if isinstance(self.total, Outcome) else self.total,
            "successes": self.successes,
            "passed": self.passed,
            "terms": [
                {"notation": t.notation, "dice": [d.to_dict() for d in t.dice]} for t in self.terms
            ],
            "original": self.original.to_dict() if self.original is not None else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RollResult:
        """Rebuild a result stored by ``to_dict``. Raises ``ValueError`` if the data is not one."""
        if data.get("type") != "roll" or data.get("version") != FORMAT_VERSION:
            raise ValueError("not a stored dice roll of this version")
        parsed = parse_normalised(data["expression"])
        stored_terms = data["terms"]
        if len(stored_terms) != len(parsed.terms):
            raise ValueError("stored dice do not match the expression's dice terms")
        terms = []
        for term, stored in zip(parsed.terms, stored_terms):
            dice = stored["dice"]
            if len(dice) != term.count:
                raise ValueError(f"term {term.notation} should have {term.count} dice, has {len(dice)}")
            faces = [d["face"] for d in dice]
            rerolled = [d.get("rerolled_from") for d in dice]
            for f in faces + [r for r in rerolled if r is not None]:
                if type(f) is not int or not face_is_valid(term.kind, term.size, f):
                    raise ValueError(f"{f!r} is not a face of a die of {term.notation}")
            terms.append(build_term(term, faces, rerolled))
        original = data.get("original")
        return cls(
            parsed,
            tuple(terms),
            data.get("label"),
            cls.from_dict(original) if original is not None else None,
        )



class RollSet:
    """The rolls of one ``/roll``, in order: ``2d6, d6`` is two, ``3x 2d6`` three.

    ``results`` are ``RollResult`` objects; ``text`` is the normalised set (``3x 2d6, d6``);
    ``label`` the label of the whole set, if any (each roll keeps its own too). ``original``
    is the set this one re-rolled.
    """

    __slots__ = ("results", "text", "label", "original")

    def __init__(self, results: tuple[RollResult, ...], text: str, label: str | None = None,
                 original: RollSet | None = None) -> None:
        self.results = results
        self.text = text
        self.label = label
        self.original = original

    @property
    def single(self) -> RollResult | None:
        """The one roll, when the set is a single roll."""
        return self.results[0] if len(self.results) == 1 else None

    @property
    def dice(self) -> list[Die]:
        return [d for r in self.results for d in r.dice]

    @property
    def can_reroll(self) -> bool:
        return any(r.can_reroll for r in self.results)

    def render(self) -> str:
        """One line per roll, numbered when there are several."""
        if len(self.results) == 1:
            return self.results[0].render()
        return "\n".join(f"#{n} {r.render()}" for n, r in enumerate(self.results, start=1))

    def __repr__(self) -> str:
        return f"RollSet({self.text!r}, {len(self.results)} rolls)"

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "roll_set",
            "version": FORMAT_VERSION,
            "text": self.text,
            "label": self.label,
            "rolls": [r.to_dict() for r in self.results],
            "original": self.original.to_dict() if self.original is not None else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RollSet:
        """Rebuild a set stored by ``to_dict``. Raises ``ValueError`` if the data is not one."""
        if data.get("type") != "roll_set" or data.get("version") != FORMAT_VERSION:
            raise ValueError("not a stored roll set of this version")
        rolls = data.get("rolls")
        if not isinstance(rolls, list) or not rolls:
            raise ValueError("a stored roll set needs its rolls")
        original = data.get("original")
        return cls(
            tuple(RollResult.from_dict(r) for r in rolls),
            str(data.get("text") or ""),
            data.get("label"),
            cls.from_dict(original) if original is not None else None,
        )
