"""A tracked game as a state: its warbands, each model's state on the table, whose turn it is.

Plain frozen data with ``to_json``/``from_json``, so a game is stored as one row and resumed
after a restart (engine/campaign/actions/games.py). Each warrior is one ``Piece``; a henchman
group is one piece per model ("Marksmen 1", "Marksmen 2"), marked one by one. The rules that
move the state on (recovery, Rout) are in ``game_rules.py``.
"""

from __future__ import annotations

import json
from dataclasses import MISSING, dataclass, field, fields, replace
from enum import StrEnum
from functools import cached_property, lru_cache
from operator import attrgetter
from typing import Any

# The ledger rows a game writes, all in the game's one batch with the battles its end records:
# its start, each Rout test (dice rolled) and, at the end, what the tracker recorded of each
# warband (who went out of action, by whom, kills, wyrdstone). They record what happened at the
# table, not changes to a warband: /warband undo passes over them (engine/campaign/actions/undo.py)
# and takes back the battle. Marks and turns are the table's state, kept in the game's row: the
# tracker's own Undo takes them back (``GameState.history``).
GAME_STARTED = "game.start"
ROUT_TAKEN = "game.rout"
GAME_RECORDED = "game.record"
GAME_RECORDS = (GAME_STARTED, ROUT_TAKEN, GAME_RECORDED)
HISTORY_KEPT = 12  # marks and turns the tracker's Undo can take back, newest first
# One encoder for every text of a state: json.dumps with options makes a new one per call, which
# costs more than writing a model's row. ASCII ("·" written \u00b7): a text of ASCII only is its own
# UTF-8, so SQLite takes it and gives it back without converting it, and joining the parts copies bytes.
_JSON = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"))


class PieceState(StrEnum):
    """What a model is doing on the table (000:617-645 injuries; 000:371 hiding; 000:837 fleeing)."""

    STANDING = "standing"
    KNOCKED_DOWN = "knocked_down"
    STUNNED = "stunned"
    OUT_OF_ACTION = "out_of_action"
    FLED = "fled"  # broke and ran (All Alone, 000:837); he rallies with a test in his recovery phase (000:297)
    HIDDEN = "hidden"
    ABSENT = "absent"  # not in this game (still recovering, left at home): not counted for Rout

    @property
    def words(self) -> str:
        return STATE_WORDS[self]


STATE_WORDS = {
    PieceState.STANDING: "standing",
    PieceState.KNOCKED_DOWN: "knocked down",
    PieceState.STUNNED: "stunned",
    PieceState.OUT_OF_ACTION: "out of action",
    PieceState.FLED: "fled",
    PieceState.HIDDEN: "hidden",
    PieceState.ABSENT: "not in this game",
}


class SideStatus(StrEnum):
    FIGHTING = "fighting"
    ROUTED = "routed"  # failed its Rout test, or routed of its own will: it has left the game (000:815, 000:825)


NO_ONE = "none"  # taken out of action by no enemy (a fall, his own spell...)
ANOTHER_ENEMY = "other"  # by an enemy the tracker does not name (a henchman, a hired sword)


def piece_ref(side: int, key: str) -> str:
    """How one model names another that took him out of action: '1:17' (side 1, warrior 17)."""
    return f"{side}:{key}"


@dataclass(frozen=True)
class Piece:
    """One model of a warband in the game."""

    key: str  # '17' for warrior 17, '17.2' for the second model of henchman group 17
    warrior_id: int
    name: str  # 'Hans', 'Marksmen 2'
    role: str  # engine.campaign.model.Role's value
    leadership: int
    state: PieceState = PieceState.STANDING
    taken_out_by: str = ""  # when out of action: a ``piece_ref``, ANOTHER_ENEMY, NO_ONE or '' (not said)
    counters: int = 0  # wyrdstone counters he carries
    changed: int = 0  # the game's version when he last changed: a panel drawn before it is out of date for him
    # his special rules (ids, space-separated) that the tracker's tests heed: those that spare him a
    # test (game_rules.IMMUNITIES), from the list data when the game started; '' for most
    rules: str = ""

    @property
    def is_hero(self) -> bool:
        """Leader or hero: the models whose kills are experience (hired swords gain it as henchmen)."""
        return self.role in ("leader", "hero")

    @property
    def is_hired_sword(self) -> bool:
        return self.role == "hired_sword"

    @cached_property
    def text(self) -> str:
        """The model as JSON: a row of PIECE_FIELDS rather than an object (forty models are a third of
        a game's text and of the time to write it), without the values at its end that are the
        fields' defaults (a model no one marked yet is his first five). Written once and kept with
        him: he is frozen, and a mark makes a new piece only for the model it changes.

        The text of a game is rewritten whole at every mark: one that fits in a database page (four
        KiB) is one page to write; a longer one goes on in overflow pages, and SQLite frees and takes
        those afresh at every change of the row, four pages or more a mark."""
        row = _row(self)
        end = len(row)
        while end > _REQUIRED and row[end - 1] == _DEFAULTS[end - 1]:
            end -= 1
        return _JSON.encode(row[:end])


@dataclass(frozen=True)
class Side:
    """One warband in the game."""

    warband_id: int
    warband: str  # its name when the game started
    owner_id: int
    pieces: tuple[Piece, ...]
    status: SideStatus = SideStatus.FIGHTING
    left_on_turn: int = 0  # the game turn it routed
    rout_note: str = ""  # 'failed its Rout test: ...' or 'routed of its own will'
    result: str = ""  # at the end: engine.campaign.model.BattleResult's value
    battle_id: int | None = None  # the battle recorded for it at the end
    leader_range: int = 6  # inches within which its leader lends his Leadership (000:829), or its list's rule's
    leader_range_rule: str = ""  # the list's rule that changes it, with where it is written ('' for 000:829's 6")

    @property
    def fighting(self) -> bool:
        return self.status == SideStatus.FIGHTING

    def piece(self, key: str) -> Piece | None:
        at = self._places.get(key)
        return None if at is None else self.pieces[at]

    def position(self, key: str) -> int | None:
        """Where the model ``key`` is among ``pieces`` (None: not in this warband)."""
        return self._places.get(key)

    def with_piece(self, new: Piece) -> Side:
        at = self._places.get(new.key)
        return self if at is None else replace(self, pieces=(*self.pieces[:at], new, *self.pieces[at + 1:]))

    @cached_property
    def heroes(self) -> tuple[Piece, ...]:
        """The leader and heroes (``Piece.is_hero``), in order."""
        return tuple(p for p in self.pieces if p.is_hero)

    @cached_property
    def _places(self) -> dict[str, int]:
        # each model's place by key, found once per side (it is frozen): a press looks its model up several times
        return {p.key: n for n, p in enumerate(self.pieces)}

    @cached_property
    def text(self) -> str:
        """The warband as JSON, its models' rows (``Piece.text``) written around. Written once and kept
        with the side, which is frozen: a mark makes a new side only for the warband it changes."""
        return "".join((_side_head(_side_values(self)), ',"pieces":[', ",".join([p.text for p in self.pieces]), "]}"))


@dataclass(frozen=True)
class Change:
    """A mark or a turn, as the tracker's Undo takes it back: what it changed, before and after.
    A mark: the model's ``key`` and the fields of his that changed; a turn: ``turn``, ``side``,
    ``rout_due`` and the ``pieces`` (key: state) its recovery phase changed."""

    kind: str  # "mark" | "turn"
    side: int  # the warband marked, or whose turn began
    before: dict[str, Any]
    after: dict[str, Any]

    @cached_property
    def text(self) -> str:
        """The change as JSON: a row of kind, side, before and after, as a model is (a game keeps a
        dozen changes, a quarter of its text). Written once and kept with it: a press writes the
        history again."""
        return _JSON.encode([self.kind, self.side, self.before, self.after])


@dataclass(frozen=True)
class GameState:
    scenario: str  # its name
    sides: tuple[Side, ...]  # in turn order: the first takes the first turn (000:271)
    scenario_id: str | None = None  # the scenario table's id, when the scenario came from it
    scenario_summary: str = ""  # its rules in short
    when: str = ""  # when the table plays, as typed
    turn: int = 1  # the game turn: every warband has moved once per turn
    side: int = 0  # whose turn it is
    rout_due: bool = False  # that warband must take a Rout test before its turn goes on (000:813)
    log: tuple[str, ...] = ()  # what happened lately, newest last
    history: tuple[Change, ...] = ()  # the marks and turns Undo may take back, newest last (HISTORY_KEPT)
    # The version of the tracker's buttons: a turn passing, a Rout test, an undo and the end move it
    # on, and a press drawn before is refused; a mark does not (it changes only the tracker's text).
    tracker_version: int = 0
    extra: dict[str, Any] = field(default_factory=dict)  # room for what a later version keeps

    @property
    def fighting(self) -> list[int]:
        """The sides still in the game, by index."""
        return [n for n, s in enumerate(self.sides) if s.fighting]

    def to_json(self) -> str:
        # Every press writes the whole state, and a mark changes one warband: the text of each warband
        # and of each change of the history is written once and kept with it (``Side.text``,
        # ``Change.text``), and the state's own fields are written around them.
        head = _JSON.encode({name: getattr(self, name) for name in STATE_FIELDS})
        return "".join((head[:-1], ',"history":[', ",".join([c.text for c in self.history]), '],"sides":[',
                        ",".join([s.text for s in self.sides]), "]}"))

    @classmethod
    def from_json(cls, text: str) -> GameState:
        raw = json.loads(text)
        sides = tuple(
            Side(**{**s, "status": SideStatus(s["status"]),
                    "pieces": tuple(_piece(p) for p in s["pieces"])})
            for s in raw["sides"])
        return cls(**{**raw, "sides": sides, "log": tuple(raw["log"]), "history": tuple(_change(c) for c in raw["history"])})


PIECE_FIELDS = tuple(f.name for f in fields(Piece))
_DEFAULTS = tuple(f.default for f in fields(Piece))  # what a row that stops short means for the rest
_REQUIRED = sum(1 for f in fields(Piece) if f.default is MISSING)  # every row has these
SIDE_FIELDS = tuple(f.name for f in fields(Side) if f.name != "pieces")
STATE_FIELDS = tuple(f.name for f in fields(GameState) if f.name not in ("sides", "history"))
_side_values = attrgetter(*SIDE_FIELDS)  # a warband's own fields, all plain values (the key of _side_head)


@lru_cache(maxsize=1024)
def _side_head(values: tuple[Any, ...]) -> str:
    """A warband's own fields as JSON, open for its models (``Side.text``): the same at every mark
    of a game, so written once for all of them."""
    return _JSON.encode(dict(zip(SIDE_FIELDS, values)))[:-1]


def _row(p: Piece) -> tuple[Any, ...]:
    """A model as a row, in the order of PIECE_FIELDS (tests/engine/test_game_rules.py checks both agree)."""
    return (p.key, p.warrior_id, p.name, p.role, p.leadership, p.state, p.taken_out_by, p.counters, p.changed, p.rules)


def _piece(row: list[Any]) -> Piece:
    """A model from his row; a row that stops short leaves the fields after it at their defaults."""
    values = dict(zip(PIECE_FIELDS, row))
    if "state" in values:
        values["state"] = PieceState(values["state"])
    return Piece(**values)


def _change(row: list[Any] | dict[str, Any]) -> Change:
    """A change from its row (or from the object a game stored before changes were rows)."""
    return Change(**row) if isinstance(row, dict) else Change(*row)
