"""Text to ``RollPlan`` and ``Expression``: a hand-written recursive-descent parser.

The grammar is in ``GRAMMAR.md`` beside this file (and in the package docstring).
Parsing is scannerless: the parser reads characters directly, which lets a free-text
label follow the expression without being tokenised. Every error carries the position
of the character at fault (in the whole text, for a roll set). Parsed texts are cached.
"""

from __future__ import annotations

import re
import string
from functools import lru_cache
from typing import NoReturn

from .die import DieKind
from .errors import DiceLimitExceeded, DiceSyntaxError
from .limits import MAX_DICE, MAX_DIE_SIZE, MAX_EXPRESSION_LENGTH, MAX_NESTING_DEPTH, MAX_RESULT, MAX_ROLLS
from .syntax import (
    BinOp,
    DiceTerm,
    Expression,
    Neg,
    Node,
    Num,
    PlannedRoll,
    RollPlan,
    SuccessTarget,
    TargetScope,
    node_text,
)

# Only ASCII letters change case, so positions in the lowered text match the original.
_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
# Full-width forms (a phone keyboard set to Japanese or Chinese types `２ｄ６`) read as their ASCII
# letters, one character for one, so an error's position still points at the character typed.
_FULL_WIDTH = {0xFF01 + n: 0x21 + n for n in range(0x5E)} | {0x3000: 0x20}
_DIGITS = frozenset("0123456789")
_LETTERS = frozenset(string.ascii_lowercase)
_OPERATOR_CHARS = frozenset("+-*/()<>=")
_SET_SEPARATOR = ","
_REPEAT_SIGNS = ("x", "×")
# A keep/drop or re-roll typed after a space (`3d6 r1`, `4d6 kh3`): the whole word must be one,
# so a label that merely starts with the letters (`2d6 kill`, `d6 roll`) stays a label.
_SPACED_MODIFIER = re.compile(r"(?:k[hl]?|d[hl])\d*|r(?:<=|<)?\d+")
_WORD_END = frozenset(" \t\n\r\f\v+-*/()<>=,")
# A keep/drop said in words after the dice (`3d6 drop lowest`, `4d6 keep the highest 3`, `drop the 2
# lowest dice`): read as the grammar's own `dl1`, `kh3`. A count must stand alone, so `2d6 drop
# lowest 4+` keeps its target.
_WORDED_KEEP = re.compile(
    r"(drop|keep)(?:\s+the)?(?:\s+(\d+))?\s+(lowest|highest)(?:\s+(\d+)(?![\d+\-]))?(?:\s+(?:dice|die))?"
)
_WORDED_MODES = {("drop", "lowest"): "dl", ("drop", "highest"): "dh", ("keep", "highest"): "kh", ("keep", "lowest"): "kl"}

_ARTILLERY_WORDS = ("art", "artillery")
_SCATTER_WORDS = ("scatter",)
_DICE_HINT = "Dice are written like `2d6`, `d3`, `d66`, `art` (Artillery dice) or `scatter` (Scatter dice)."
_LABEL_HINT = "Join terms with `+`, `-` or `*`, and put a space before a label: `2d6 + 1 to hit`."
# Words a player types for a test, pointed at the command that rolls it (000:251, 000:257).
_LEADERSHIP_WORDS = frozenset({"ld", "leadership"})
_CHARACTERISTIC_WORDS = {
    "m": "Movement", "movement": "Movement", "ws": "Weapon Skill", "bs": "Ballistic Skill", "s": "Strength",
    "strength": "Strength", "t": "Toughness", "toughness": "Toughness", "w": "Wounds", "wounds": "Wounds",
    "i": "Initiative", "initiative": "Initiative", "a": "Attacks", "attacks": "Attacks",
}

_TEST_LABEL = re.compile(r"(?P<word>[a-z]+)\s*(?P<value>\d{1,2})")


def _test_in_label(label: str) -> tuple[str, ...]:
    """A warning when a label reads like a test (`2d6 ld 8`): it is only a label, and nothing is tested.
    Single letters stay labels (`d6 a 3` could mean anything)."""
    m = _TEST_LABEL.fullmatch(label.strip().lower())
    if m is None or len(m["word"]) < 2:
        return ()
    word, value = m["word"], m["value"]
    if word in _LEADERSHIP_WORDS:
        return (f"`{label.strip()}` is only a label: nothing was tested. For a Leadership test roll `2d6<={value}` "
                f"or use `/leadership leadership:{value}` (000:257).",)
    if word in _CHARACTERISTIC_WORDS:
        name = _CHARACTERISTIC_WORDS[word]
        return (f"`{label.strip()}` is only a label: nothing was tested. For a {name} test roll `d6<={value}` "
                f"or use `/test characteristic:{name} value:{value}` (000:251).",)
    return ()


# What one die of each kind can count as, for the bounds of an expression.
_VALUE_RANGE = {DieKind.D3: (1, 3), DieKind.D66: (11, 66), DieKind.ARTILLERY: (2, 10), DieKind.SCATTER: (0, 0)}


def parse(text: str) -> Expression:
    """Parse one roll such as ``"4d6kh3 + 1 strength"``; raise a ``DiceError`` if it is not one.

    A roll set (``2d6, d6``) or a repeat (``3x 2d6``) is refused here: use ``parse_set``.
    """
    plan = parse_set(text)
    if len(plan.items) > 1 or plan.items[0].times > 1:
        at = text.find(_SET_SEPARATOR) if len(plan.items) > 1 else 0
        raise DiceSyntaxError(
            "This is a set of rolls, not one roll", text, max(at, 0), hint="Roll it as a set (`/roll` does)."
        )
    return plan.items[0].expression


def parse_set(text: str) -> RollPlan:
    """Parse a whole roll: expressions separated by commas, each maybe repeated (``3x 2d6``)."""
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise DiceLimitExceeded(
            "MAX_EXPRESSION_LENGTH",
            f"This roll is {len(text)} characters long",
            hint="Shorten the expression or its label.",
        )
    return _parse_cached(text if text.isascii() else text.translate(_FULL_WIDTH))


def parse_normalised(text: str) -> Expression:
    """Parse an ``Expression.text`` read back from storage.

    Normalising can make a text up to three times longer (``k`` -> ``kh1``, ``1+1`` ->
    ``1 + 1``, ``art`` -> ``artillery``), so this allows that much; every other rule holds.
    """
    if len(text) > 3 * MAX_EXPRESSION_LENGTH:
        raise ValueError("stored dice expression is too long")
    plan = _parse_cached(text)
    if len(plan.items) != 1 or plan.items[0].times != 1:
        raise ValueError("stored dice expression is not one roll")
    return plan.items[0].expression


@lru_cache(maxsize=4096)
def _parse_cached(text: str) -> RollPlan:
    return _Parser(text).parse_set()


def _show_number(n: int) -> str:
    digits = str(abs(n))
    return digits if len(digits) <= 15 else f"a number of {len(digits)} digits"


class _Parser:
    def __init__(self, text: str) -> None:
        self.src = text
        self.s = text.translate(_LOWER)
        self.n = len(text)
        self.i = 0
        self.depth = 0
        self.terms: list[DiceTerm] = []  # of the roll being parsed
        self.dice = 0  # dice of the roll being parsed
        self.times = 1  # how often the roll being parsed is repeated
        self.set_dice = 0  # dice of the set's earlier rolls, repeats counted
        self.set_rolls = 0  # rolls of the set so far, repeats counted
        self.word_notes: list[str] = []  # of the roll being parsed: a keep or drop said in words

    # -- helpers -----------------------------------------------------------------

    def fail(self, reason: str, pos: int, hint: str | None = None) -> NoReturn:
        raise DiceSyntaxError(reason, self.src, pos, hint=hint)

    def limit(self, limit: str, found: str, pos: int, hint: str | None = None) -> NoReturn:
        raise DiceLimitExceeded(limit, found, text=self.src, position=pos, hint=hint)

    def peek(self, ahead: int = 0) -> str:
        j = self.i + ahead
        return self.s[j] if j < self.n else ""

    def describe(self, pos: int) -> str:
        if pos >= self.n:
            return "the end"
        c = self.src[pos]
        return "a backtick" if c == "`" else f"`{c}`"

    def skip_ws(self) -> None:
        s, n, i = self.s, self.n, self.i
        while i < n and s[i].isspace():
            i += 1
        self.i = i

    def digits(self) -> tuple[int, int]:
        """Read ASCII digits from here; return (start, end). Other scripts' digits are not numbers."""
        start = i = self.i
        s, n = self.s, self.n
        while i < n and s[i] in _DIGITS:
            i += 1
        self.i = i
        return start, i

    def enter(self, pos: int) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING_DEPTH:
            self.limit(
                "MAX_NESTING_DEPTH",
                f"This roll nests parentheses or minus signs more than {MAX_NESTING_DEPTH} deep",
                pos,
                hint="Remove the parentheses that are not needed.",
            )

    def after_operand(self, start: int) -> None:
        c = self.peek()
        if c and (c in _DIGITS or c in _LETTERS or c == "("):
            self.fail(f"Unexpected {self.describe(self.i)} after `{self.src[start:self.i]}`", self.i, hint=_LABEL_HINT)

    def word_hint(self, word: str, end: int) -> str:
        """The hint for an unknown word: a test's name points at its command, else how dice are written."""
        m = re.compile(r"\s*(\d{1,2})\b").match(self.s, end)
        value = m.group(1) if m else None
        if word in _LEADERSHIP_WORDS:
            ld = value or "7"
            return f"For a Leadership test use `/leadership leadership:{ld}`, or roll `2d6<={ld}` (000:257)."
        if word in _CHARACTERISTIC_WORDS:
            v = value or "3"
            name = _CHARACTERISTIC_WORDS[word]
            return f"For a {name} test use `/test characteristic:{name} value:{v}`, or roll `d6<={v}` (000:251)."
        if word in ("drop", "keep"):
            return "A keep or drop goes after the dice it acts on: `3d6 drop lowest` or `3d6dl1`."
        return _DICE_HINT

    # -- grammar -------------------------------------------------------------------

    def parse_set(self) -> RollPlan:
        items: list[PlannedRoll] = []
        while True:
            item_start = self.i
            times = self.repeat()
            expression = self.parse_roll()
            self.set_dice += times * expression.dice_count
            self.set_rolls += times
            if self.set_rolls > MAX_ROLLS:
                self.limit(
                    "MAX_ROLLS",
                    f"This asks for {self.set_rolls} rolls",
                    item_start + (len(self.src[item_start:]) - len(self.src[item_start:].lstrip())),
                    hint="Roll fewer at once: `6x 2d6` makes six rolls.",
                )
            items.append(PlannedRoll(expression, times))
            if self.i >= self.n:
                break
            # parse_roll stops only at the end or at a comma
            comma = self.i
            self.i += 1
            self.skip_ws()
            if self.i >= self.n:
                self.fail("Nothing follows this comma", comma, hint="Put another roll after it, `2d6, d6`, or remove it.")
        text = ", ".join(item.text for item in items)
        return RollPlan(tuple(items), text, self.set_rolls, self.set_dice)

    def repeat(self) -> int:
        """``3x`` (or ``3 x``, ``3×``) before a roll: how many times to roll it; 1 without."""
        self.skip_ws()
        start = self.i
        dstart, dend = self.digits()
        if dstart == dend:
            return 1
        self.skip_ws()
        if self.peek() not in _REPEAT_SIGNS or not self.peek():
            self.i = start
            return 1
        sign = self.i
        self.i += 1
        if dend - dstart > 6 or int(self.s[dstart:dend]) > MAX_ROLLS:
            self.limit("MAX_ROLLS", f"`{self.src[dstart:min(dend, dstart + 12)]}x` asks for too many rolls", dstart,
                       hint="Roll fewer at once: `6x 2d6` makes six rolls.")
        times = int(self.s[dstart:dend])
        if times == 0:
            self.fail("`0x` rolls nothing", dstart, hint="Repeat a roll at least once: `2x 2d6`.")
        self.skip_ws()
        if self.i >= self.n or self.peek() == _SET_SEPARATOR:
            self.fail(f"`{self.src[start:sign + 1]}` needs a roll after it", self.i, hint="For example `3x 2d6`.")
        self.times = times
        return times

    def parse_roll(self) -> Expression:
        """One roll of the set, from here to the next top-level comma or the end."""
        self.terms = []
        self.dice = 0
        self.depth = 0
        self.word_notes = []
        self.skip_ws()
        if self.i >= self.n or self.peek() == _SET_SEPARATOR:
            what = "The roll is empty" if self.set_rolls == 0 and self.i >= self.n else "A roll of the set is empty"
            self.fail(what, self.i, hint="Type dice such as `2d6`, `d66`, `4d6kh3` or `5d6 4+`; separate rolls with commas.")
        start = self.i
        root, lo, hi = self.expression()
        end = self.i
        self.skip_ws()
        target = self.success_target() if self.i < self.n else None
        if target is not None:
            end = self.i
        label = self.label(end)
        self.check_special_dice(root)
        notes: tuple[str, ...] = ()
        warnings: tuple[str, ...] = ()
        if target is not None:
            target, notes, warnings = self.read_target(root, target, lo, hi)
        elif label is not None:
            warnings = _test_in_label(label)
        notes = tuple(self.word_notes) + notes
        if max(abs(lo), abs(hi)) > MAX_RESULT:
            self.limit(
                "MAX_RESULT",
                f"This roll could reach {'-' if abs(lo) > abs(hi) else ''}{_show_number(max(abs(lo), abs(hi)))}",
                start,
                hint="Use smaller numbers or fewer dice.",
            )
        text = node_text(root)
        if target is not None:
            text += " " + target.text
        expression = Expression(root, tuple(self.terms), target, label, text, (lo, hi), self.dice, notes, warnings)
        self.times = 1
        return expression

    def expression(self) -> tuple[Node, int, int]:
        node, lo, hi = self.product()
        while True:
            save = self.i
            self.skip_ws()
            c = self.peek()
            if c != "+" and c != "-":
                self.i = save
                return node, lo, hi
            pos = self.i
            self.i += 1
            right, rlo, rhi = self.product()
            node = BinOp(c, node, right, pos)
            if c == "+":
                lo, hi = lo + rlo, hi + rhi
            else:
                lo, hi = lo - rhi, hi - rlo

    def product(self) -> tuple[Node, int, int]:
        node, lo, hi = self.unary()
        while True:
            save = self.i
            self.skip_ws()
            c = self.peek()
            if c == "/":
                self.fail("Division is not supported", self.i, hint="Use `+`, `-` and `*`; a D3 is written `d3`.")
            if c != "*":
                self.i = save
                return node, lo, hi
            pos = self.i
            self.i += 1
            right, rlo, rhi = self.unary()
            node = BinOp("*", node, right, pos)
            corners = (lo * rlo, lo * rhi, hi * rlo, hi * rhi)
            lo, hi = min(corners), max(corners)

    def unary(self) -> tuple[Node, int, int]:
        self.skip_ws()
        if self.peek() == "-":
            pos = self.i
            self.enter(pos)
            self.i += 1
            node, lo, hi = self.unary()
            self.depth -= 1
            return Neg(node, pos), -hi, -lo
        return self.atom()

    def atom(self) -> tuple[Node, int, int]:
        self.skip_ws()
        start = self.i
        c = self.peek()
        if c == "(":
            self.enter(start)
            self.i += 1
            node, lo, hi = self.expression()
            self.skip_ws()
            if self.peek() != ")":
                self.fail(
                    f"Expected `)` to close the `(` at character {start + 1}, found {self.describe(self.i)}",
                    self.i,
                    hint="Every `(` needs a matching `)`.",
                )
            self.i += 1
            self.depth -= 1
            self.after_operand(start)
            return node, lo, hi
        if c in _DIGITS and c:
            dstart, dend = self.digits()
            if self.peek() == "d":
                return self.dice_term(start, dstart, dend)
            value = self.literal(dstart, dend)
            self.after_operand(start)
            return Num(value, start), value, value
        if c == "d":
            return self.dice_term(start, None, None)
        if c in _LETTERS and c:
            i = self.i
            while i < self.n and self.s[i] in _LETTERS:
                i += 1
            word = self.s[start:i]
            if word in _ARTILLERY_WORDS or word in _SCATTER_WORDS:
                self.i = i
                kind = DieKind.ARTILLERY if word in _ARTILLERY_WORDS else DieKind.SCATTER
                term = DiceTerm(len(self.terms), kind, 1, 6, 6, False, None, None, start)
                self.add_term(term, start)
                self.after_operand(start)
                lo, hi = _VALUE_RANGE[kind]
                return term, lo, hi
            self.fail(f"Unknown word `{self.src[start:i]}`", start, hint=self.word_hint(word, i))
        if not c:
            self.fail("The roll ends where a number or dice should be", start, hint="Finish the expression, e.g. `1d6 + 1`.")
        self.fail(f"Expected a number, dice such as `2d6`, or `(`, found {self.describe(start)}", start, hint=_DICE_HINT)

    def literal(self, start: int, end: int) -> int:
        if end - start > 10 or int(self.s[start:end]) > MAX_RESULT:
            self.limit(
                "MAX_RESULT",
                f"The number {self.src[start:min(end, start + 12)]}{'…' if end - start > 12 else ''} is too big",
                start,
            )
        return int(self.s[start:end])

    def dice_term(self, start: int, cstart: int | None, cend: int | None) -> tuple[DiceTerm, int, int]:
        count = 1
        if cstart is not None and cend is not None:
            if cend - cstart > 6 or int(self.s[cstart:cend]) > MAX_DICE:
                self.limit(
                    "MAX_DICE",
                    f"`{self.src[cstart:min(cend, cstart + 12)]}d…` asks for too many dice",
                    cstart,
                    hint="Roll fewer dice at once.",
                )
            count = int(self.s[cstart:cend])
            if count == 0:
                self.fail("`0d…` rolls no dice", cstart, hint="Roll at least one die: `1d6`, or just `d6`.")
        self.i += 1  # the "d"
        sstart, send = self.digits()
        if sstart == send:
            self.fail(
                f"`d` needs the number of sides after it, found {self.describe(sstart)}",
                sstart,
                hint="Write dice like `d6`, `2d6`, `d3` or `d66`.",
            )
        if send - sstart > 5 or int(self.s[sstart:send]) > MAX_DIE_SIZE:
            self.limit("MAX_DIE_SIZE", f"A `d{self.src[sstart:min(send, sstart + 12)]}` is too big a die", sstart)
        sides = int(self.s[sstart:send])
        if sides < 2:
            self.fail(f"A die needs at least 2 sides, not {sides}", sstart, hint="Use `d6`, `d3`, `d66` or any size from 2 to 1000.")
        if sides == 3:
            kind, size, vlo, vhi = DieKind.D3, 6, 1, 3  # 000:188: a D3 is a D6 halved
        elif sides == 66:
            kind, size, vlo, vhi = DieKind.D66, 6, 11, 66  # a D66 is two D6: tens and units
        else:
            kind, size, vlo, vhi = DieKind.STANDARD, sides, 1, sides
        keep: tuple[str, int] | None = None
        reroll: int | None = None
        said: str | None = None  # a keep or drop typed in words, as typed
        while True:
            mpos = self.i
            c, c2 = self.peek(), self.peek(1)
            if c == "k" or (c == "d" and c2 in ("h", "l") and c2):
                if keep is not None:
                    self.fail("Only one keep or drop is allowed per dice term", mpos, hint="For example `4d6kh3` or `4d6dl1`.")
                if c == "k":
                    mode = "k" + (c2 if c2 in ("h", "l") and c2 else "h")
                    self.i += 2 if mode != "kh" or c2 == "h" else 1
                else:
                    mode = c + c2
                    self.i += 2
                nstart, nend = self.digits()
                if nend - nstart > 6:
                    self.limit("MAX_DICE", f"`{mode}` names more dice than a roll may have", nstart)
                n = int(self.s[nstart:nend]) if nend > nstart else 1
                keep = self.checked_keep(mode, n, count, nstart if nend > nstart else mpos)
            elif c == "r":
                if reroll is not None:
                    self.fail("Only one re-roll is allowed per dice term", mpos, hint="A die may never be re-rolled twice (004:62).")
                self.i += 1
                shift = 0
                if self.peek() == "<" and self.peek(1) == "=":
                    self.i += 2
                elif self.peek() == "<":
                    self.i += 1
                    shift = -1
                nstart, nend = self.digits()
                if nstart == nend:
                    self.fail(
                        f"`r` needs the value to re-roll at or below, found {self.describe(nstart)}",
                        nstart,
                        hint="For example `3d6r1` re-rolls 1s once; `3d6r2` or `3d6r<=2` re-rolls 1s and 2s.",
                    )
                if nend - nstart > 6:
                    self.limit("MAX_RESULT", "The re-roll value is too big", nstart)
                threshold = int(self.s[nstart:nend]) + shift
                if threshold < vlo:
                    self.fail(
                        f"No {'D3' if kind is DieKind.D3 else 'die'} can show {threshold} or less, so nothing would be re-rolled",
                        nstart,
                        hint=f"Re-roll values from {vlo} up: `r{vlo}`.",
                    )
                reroll = threshold
            elif c == "d":
                self.fail(
                    "After a die, `d` must be `dh` or `dl` (drop highest or lowest)",
                    mpos,
                    hint="For example `4d6dl1`; to add another die write `2d6 + d6`.",
                )
            elif (worded := self.worded_keep()) is not None:
                if keep is not None:
                    self.fail("Only one keep or drop is allowed per dice term", mpos, hint="For example `4d6kh3` or `4d6dl1`.")
                mode, n, said, at = worded
                keep = self.checked_keep(mode, n, count, at)
            elif not self.spaced_modifier():
                break
        self.after_operand(start)
        term = DiceTerm(len(self.terms), kind, count, sides, size, cstart is not None, keep, reroll, start)
        self.add_term(term, start)
        if said is not None:
            self.word_notes.append(f"`{said}` is read as `{node_text(term)}`.")
        kept = term.kept_count
        return term, kept * vlo, kept * vhi

    def checked_keep(self, mode: str, n: int, count: int, pos: int) -> tuple[str, int]:
        """A keep (``kh``, ``kl``) or drop (``dh``, ``dl``) of ``n`` of the term's ``count`` dice, if it can be."""
        if mode in ("kh", "kl") and not 1 <= n <= count:
            self.fail(
                f"`{mode}{n}` keeps {n} dice, but the term rolls {count}",
                pos,
                hint=f"Keep between 1 and {count} dice." if count > 1 else "Roll more dice to keep some: `2d6kh1`.",
            )
        if mode in ("dh", "dl") and not 1 <= n < count:
            self.fail(
                f"`{mode}{n}` drops {n} dice, but the term rolls {count}",
                pos,
                hint=f"Drop between 1 and {count - 1} dice." if count > 1 else "Roll more than one die to drop some.",
            )
        return mode, n

    def worded_keep(self) -> tuple[str, int, str, int] | None:
        """A keep or drop said in words after a space (``3d6 drop lowest``, ``4d6 keep highest 3``).

        Returns its mode, its count, the words as typed and where they start, and steps over them;
        None (nothing read) when the next word is not one."""
        j = self.i
        if j >= self.n or not self.s[j].isspace():
            return None
        while j < self.n and self.s[j].isspace():
            j += 1
        m = _WORDED_KEEP.match(self.s, j)
        if m is None or (m.end() < self.n and self.s[m.end()] not in _WORD_END):
            return None
        verb, before, which, after = m.groups()
        if before and after:
            return None  # `drop 2 lowest 3`: which count? left as a label, refused there
        self.i = m.end()
        n = int(before or after or 1) if len(before or after or "1") <= 6 else MAX_DICE + 1
        return _WORDED_MODES[verb, which], n, self.src[j:m.end()], j

    def spaced_modifier(self) -> bool:
        """Step over the spaces before a modifier typed after a space (``3d6 r1``, ``4d6 kh3``).

        Only a whole word that is a modifier counts, so labels such as ``kill`` stay labels."""
        j = self.i
        if j >= self.n or not self.s[j].isspace():
            return False
        while j < self.n and self.s[j].isspace():
            j += 1
        m = _SPACED_MODIFIER.match(self.s, j)
        if m is None or (m.end() < self.n and self.s[m.end()] not in _WORD_END):
            return False
        self.i = j
        return True

    def add_term(self, term: DiceTerm, pos: int) -> None:
        self.dice += term.count
        total = self.set_dice + self.times * self.dice
        if total > MAX_DICE:
            found = f"This roll has {self.dice} dice" if total == self.dice else f"These rolls have {total} dice together"
            self.limit("MAX_DICE", found, pos, hint="Roll fewer dice at once.")
        self.terms.append(term)

    def success_target(self) -> SuccessTarget | None:
        """``4+`` / ``2-`` (suffix: count dice when they can) or ``>=7`` ``<=7`` ``>7`` ``<7`` ``=7``
        (comparison: test the total). The scope is decided later, in ``read_target``."""
        start = self.i
        c = self.peek()
        if c in _DIGITS and c:
            vstart, vend = self.digits()
            sign = self.peek()
            after = self.peek(1)
            if sign not in ("+", "-") or not sign or (after and not after.isspace() and after != _SET_SEPARATOR):
                if sign in ("+", "-") and sign and after:
                    self.fail(
                        f"Unexpected {self.describe(self.i + 1)} after the target `{self.src[start:self.i + 1]}`",
                        self.i + 1,
                        hint="Put a space before a label: `5d6 4+ to hit`. To add a number write `5d6 + 4`.",
                    )
                self.i = start
                return None
            self.i += 1
            op, shift, written, negative = (">=" if sign == "+" else "<="), 0, sign, False
        elif c in ("<", ">", "="):
            two = self.s[self.i : self.i + 2]
            if two in (">=", "<=", "=="):
                op, shift = (two if two != "==" else "="), 0
                self.i += 2
            else:
                op, shift = {">": (">=", 1), "<": ("<=", -1), "=": ("=", 0)}[c]
                self.i += 1
            written = "cmp"
            self.skip_ws()
            negative = self.peek() == "-"  # a total may be below 0 (`d6 - 3 <= -1`), and `<0` is written `<=-1`
            if negative:
                self.i += 1
            vstart, vend = self.digits()
            if vstart == vend:
                self.fail(
                    f"A target needs a number, found {self.describe(vstart)}",
                    vstart,
                    hint="For example `2d6 <=7` tests the total; `5d6 4+` counts dice showing 4 or more.",
                )
        else:
            return None
        if vend - vstart > 10:
            self.limit("MAX_RESULT", "The target is too big", vstart)
        nxt = self.peek()
        if nxt and not nxt.isspace() and nxt != _SET_SEPARATOR:
            self.fail(
                f"Unexpected {self.describe(self.i)} after the target `{self.src[start:self.i]}`",
                self.i,
                hint="Put a space before a label: `5d6 4+ to hit`. To add a number write `5d6 + 4`.",
            )
        value = int(self.s[vstart:vend])
        return SuccessTarget(op, (-value if negative else value) + shift, written)

    def label(self, before: int) -> str | None:
        """The free text after the expression, up to a comma; ``before`` is where the expression ended.

        Leaves ``self.i`` at the comma that ends this roll, or at the end of the text."""
        self.i = before
        self.skip_ws()
        if self.i >= self.n or self.s[self.i] == _SET_SEPARATOR:
            return None
        pos = self.i
        c = self.s[pos]
        if pos == before or c in _OPERATOR_CHARS:
            hint = _LABEL_HINT
            if c == ")":
                hint = "This `)` has no `(` to close."
            elif c in "<>=":
                hint = "A target goes right after the dice, once: `5d6 4+` or `2d6 <=7`."
            self.fail(f"Unexpected {self.describe(pos)}", pos, hint=hint)
        j = pos
        while j < self.n and self.s[j] in _DIGITS:
            j += 1
        looks_like_dice = j < self.n and self.s[j] == "d" and j + 1 < self.n and self.s[j + 1] in _DIGITS
        if c in _DIGITS and not looks_like_dice:
            self.fail(
                "A number here needs an operator before it",
                pos,
                hint="Write `2d6 + 4` to add, or `2d6 4+` to count dice showing 4 or more. A label cannot start with a digit.",
            )
        if looks_like_dice:
            self.fail(
                "Dice here need an operator before them",
                pos,
                hint="Write `2d6 + d6` to add them, or `2d6, d6` to roll them separately. A label cannot start with dice.",
            )
        worded = _WORDED_KEEP.match(self.s, pos)
        if worded is not None and (worded.end() >= self.n or self.s[worded.end()] in _WORD_END):
            # after arithmetic it is unclear which dice it means; said as a label it would be lost
            self.fail(
                f"`{self.src[pos:worded.end()]}` must come right after the dice it keeps or drops",
                pos,
                hint="For example `3d6 drop lowest + 1`, or in short `3d6dl1 + 1`; `4d6 keep highest 3` is `4d6kh3`.",
            )
        comma = self.src.find(_SET_SEPARATOR, pos)
        end = self.n if comma < 0 else comma
        self.i = end
        return self.src[pos:end].strip()

    # -- checks on the whole expression ---------------------------------------------

    def check_special_dice(self, root: Node) -> None:
        for term in self.terms:
            if term.kind is DieKind.SCATTER and root is not term:
                self.fail(
                    "The Scatter dice gives a direction, so it cannot take arithmetic or other dice",
                    term.pos,
                    hint="Roll `scatter` on its own; for a distance as well use the Scatter roll with the Artillery dice.",
                )

    def read_target(
        self, root: Node, target: SuccessTarget, lo: int, hi: int
    ) -> tuple[SuccessTarget, tuple[str, ...], tuple[str, ...]]:
        """Decide whether ``target`` counts dice or tests the total, and what to tell the roller.

        A comparison (``>=7``, ``<=7``, ``=7``) always tests the total: that is how Mordheim's
        2D6 tests are written (Leadership 000:257, casting 000:1575). A suffix target (``4+``,
        ``2-``) counts the dice of a pool (dice only added together) when a single die can reach
        it; otherwise it tests the total and the reason is given (``2d6 7+`` is a casting roll).
        Either way, a target the roll can never meet, or always meets, gets a warning.
        Returns the target with its scope, the notes and the warnings.
        """
        for term in self.terms:
            if term.kind is DieKind.ARTILLERY or term.kind is DieKind.SCATTER:
                name = "Artillery" if term.kind is DieKind.ARTILLERY else "Scatter"
                self.fail(
                    f"A target cannot be used with the {name} dice",
                    term.pos,
                    hint="Use targets with ordinary dice: `5d6 4+` counts dice, `2d6 <=7` tests the total.",
                )
        shown = node_text(root)
        notes: list[str] = []
        warnings: list[str] = []
        scope = TargetScope.TOTAL
        if target.written != "cmp":
            pool = self.pool_terms(root)
            if pool is not None:
                reachable = [t for t in pool if _term_reaches(t, target)]
                if reachable:
                    scope = TargetScope.DICE
                else:
                    die = _die_name(pool[0]) if len({_die_name(t) for t in pool}) == 1 else "die of this roll"
                    reason = f"no {die} can score {target.words}, so the target is read as the total"
            else:
                reason = "the roll is more than dice added together, so the target is read as the total"
            if scope is TargetScope.TOTAL:
                explained: str | None = None  # one die: its score is the total, nothing to explain
                if not (self.dice == 1 and pool is not None):
                    notes.append(reason[:1].upper() + reason[1:] + ".")
                    explained = reason
                target = SuccessTarget(target.op, target.value, target.written, scope, explained)
        if scope is TargetScope.DICE:
            pool = self.pool_terms(root) or []  # a pool: dice are counted only in one
            if all(_term_always_reaches(t, target) for t in pool):
                warnings.append(f"Every die always scores {target.words}, so every die counts.")
            return target, tuple(notes), tuple(warnings)
        target = SuccessTarget(target.op, target.value, target.written, TargetScope.TOTAL, target.reason)
        v = target.value
        never = (target.op == ">=" and hi < v) or (target.op == "<=" and lo > v) or (target.op == "=" and not lo <= v <= hi)
        always = (target.op == ">=" and lo >= v) or (target.op == "<=" and hi <= v) or (target.op == "=" and lo == hi == v)
        if never:
            reach = f"at most {hi}" if target.op == ">=" or v > hi else f"at least {lo}"
            warnings.append(f"This target can never be met: `{shown}` totals {reach}.")
        elif always:
            reach = f"at least {lo}" if target.op == ">=" else f"at most {hi}"
            note = f"This target is always met: `{shown}` totals {reach}."
            pool = self.pool_terms(root)
            counting_differs = pool is not None and any(
                _term_reaches(t, target) and not _term_always_reaches(t, target) for t in pool
            )
            if target.written == "cmp" and counting_differs:
                suffix = f"{v}+" if target.op == ">=" else f"{v}-" if target.op == "<=" else None
                if suffix:
                    note += f" To count the dice scoring {target.words}, write `{shown} {suffix}`."
            warnings.append(note)
        return target, tuple(notes), tuple(warnings)

    def pool_terms(self, root: Node) -> list[DiceTerm] | None:
        """The dice terms, if the expression is only dice added together (a pool); else None."""
        stack = [root]
        terms = []
        while stack:
            node = stack.pop()
            if isinstance(node, BinOp) and node.op == "+":
                stack += (node.right, node.left)
            elif isinstance(node, DiceTerm):
                terms.append(node)
            else:
                return None
        return terms


def _value_range(term: DiceTerm) -> tuple[int, int]:
    if term.kind is DieKind.STANDARD:
        return 1, term.size
    return _VALUE_RANGE[term.kind]


def _term_reaches(term: DiceTerm, target: SuccessTarget) -> bool:
    """Whether one die of the term can meet the target."""
    lo, hi = _value_range(term)
    if target.op == ">=":
        return hi >= target.value
    if target.op == "<=":
        return lo <= target.value
    return lo <= target.value <= hi


def _term_always_reaches(term: DiceTerm, target: SuccessTarget) -> bool:
    lo, hi = _value_range(term)
    if target.op == ">=":
        return lo >= target.value
    if target.op == "<=":
        return hi <= target.value
    return lo == hi == target.value


def _die_name(term: DiceTerm) -> str:
    return f"D{term.sides}"
