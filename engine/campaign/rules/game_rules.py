"""The rules a tracked game follows: turns, the recovery phase, the Rout test, Leadership tests, kills.

Pure functions of ``game_state.GameState``; the actions (engine/campaign/actions/games.py,
game_rout.py) store what they return. Sources are the seed rulebook 000 (Living Rulebook 2005),
file:line, and for hired swords the Hired Swords chapter of the published rulebook (LRB p. 105,
not in the seeds; transcribed at mordheimer.net/docs/campaigns/hired-swords).

Decisions where the rules leave room:
- The Rout test is taken "at the start of his turn" (000:813; 001:123), and the recovery phase is
  the turn's first phase (000:277-281): so the test comes first, while a stunned leader is still
  stunned and may not lend his Ld to it (000:819-821). The recovery phase is applied to the warband
  whose turn begins when the turn passes to it, or, when its Rout test is due, once it passes the
  test (000:295-301). A knocked-down warrior stands up there (he "may stand up", 000:633; the
  tracker assumes he does, and a mark puts him back down).
- Who lends his Ld to the Rout test follows 000:819-821 word for word: the leader, unless he is
  out of action or stunned; else the highest Ld "amongst any remaining fighters who are not
  stunned or out of action", so a knocked-down or fleeing warrior may (never a hired sword).
- A fled warrior stays fled until he passes a Rally test (000:297: "the model stops fleeing and
  has rallied"), rolled or typed from his tests, which marks him standing (an undoable mark), or
  until a player marks him. The tracker does not roll it for him at his recovery phase (a model
  cannot rally with an enemy nearest him, which only the table sees): Next turn reminds of it.
- A model's special rules (the list data's, kept with him when the game starts) spare him the
  tests they say (``IMMUNITIES``): they are not offered, and refused with the reason. A list's rule
  that changes the leader's 6" (``LEADER_RANGES``) is kept with the warband.
- The Rout test counts models: each member of a henchman group is a warrior, and hired swords
  count (the Hired Swords chapter); warriors marked "not in this game" do not.
- If nobody is left who may take the Rout test, it is failed: there is no Leadership to roll under.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from engine.campaign.rules.battle_facts import BattleFacts, WarriorFacts
from engine.campaign.rules.game_state import (
    ANOTHER_ENEMY,
    NO_ONE,
    GameState,
    Piece,
    PieceState,
    Side,
    piece_ref,
)
from engine.dice.checks import CheckKind, CheckResult
from engine.dice.die import Die, DieKind, face_value
from engine.dice.source import Dice

# The recovery phase, as data: each state a warrior may be in at the start of his turn, what it
# becomes, and where the rulebook says so.
RECOVERY: Mapping[PieceState, tuple[PieceState, str]] = {
    PieceState.STUNNED: (PieceState.KNOCKED_DOWN, "000:301, 000:641"),
    PieceState.KNOCKED_DOWN: (PieceState.STANDING, "000:301, 000:633"),
}

# A Rout test is due at the start of a warband's turn when this share of it is out of action,
# rounded up (a quarter or more: "twelve warriors ... three or more", 000:813).
ROUT_SHARE = (1, 4)

# Who may not lend his Leadership to the Rout test (000:819-821): the leader, and anyone else,
# out of action or stunned; and nobody who is not in the game. Hired swords never (Hired Swords chapter).
NO_ROUT_LEADERSHIP = frozenset({PieceState.OUT_OF_ACTION, PieceState.STUNNED, PieceState.ABSENT})

# A leader lends his Leadership to warriors within 6" (000:829), but not while he is knocked
# down, stunned or fleeing (000:831), nor out of the fight.
LEADER_CANNOT_LEND = frozenset({PieceState.KNOCKED_DOWN, PieceState.STUNNED, PieceState.FLED, PieceState.OUT_OF_ACTION,
                                PieceState.ABSENT})


@dataclass(frozen=True)
class LeadershipTest:
    """A Leadership test a warrior may be asked to take during a game: all are 2D6 against Ld (000:257)."""

    id: str
    name: str
    when: str  # when the rulebook asks for it, in short
    source: str


LEADERSHIP_TESTS: tuple[LeadershipTest, ...] = (
    LeadershipTest("leadership", "Leadership test", "any test against his Leadership", "000:257"),
    LeadershipTest("fear", "Fear test", "charged by, or charging, a warrior who causes fear", "000:849-855"),
    LeadershipTest("alone", "All Alone test", "fighting alone against two or more, no friend standing within 6\"", "000:837"),
    LeadershipTest("rally", "Rally test", "a fleeing warrior, in his recovery phase", "000:297-299"),
)
TESTS_BY_ID = {t.id: t for t in LEADERSHIP_TESTS}

# Special rules (rules_data/warbands/special_rules.json ids, as the list data gives a warrior) that
# spare a model tests, each with the tests and why. A model that causes fear ignores Fear tests
# ("creatures that cause *fear* can ignore these tests", 000:849); immune to psychology: "never
# takes tests for fear or for fighting all alone" (special_rules.json).
IMMUNITIES: Mapping[str, tuple[tuple[str, ...], str]] = {
    "fear": (("fear",), "he causes fear, and creatures that cause fear ignore Fear tests (000:849)"),
    "immune-to-fear": (("fear",), "he is immune to fear: he never takes Fear tests (special_rules.json, immune-to-fear)"),
    "immune-to-psychology": (("fear", "alone"), ("he is immune to psychology: he never tests for fear or for fighting "
                                                 "all alone (special_rules.json, immune-to-psychology)")),
}

# A list's rule that changes how far its leader lends his Leadership (000:829 says 6"): inches, and
# where the rule is written.
LEADER_RANGES: Mapping[str, tuple[int, str]] = {
    "military-discipline": (12, "Military discipline, rules_data/warbands/lists/reikland.json"),
}
LEADER_RANGE = 6  # 000:829


def rules_heeded(rule_ids: tuple[str, ...] | list[str]) -> str:
    """The special rules of a warrior that the tracker's tests heed (IMMUNITIES), as a Piece keeps them."""
    return " ".join(r for r in dict.fromkeys(rule_ids) if r in IMMUNITIES)


def immune_because(piece: Piece, test_id: str) -> str | None:
    """Why ``piece`` never takes the test ``test_id`` (a rule of his, IMMUNITIES), or None: he takes it."""
    for rule in piece.rules.split():
        tests, why = IMMUNITIES.get(rule, ((), ""))
        if test_id in tests:
            return why
    return None


def tests_for(piece: Piece) -> tuple[LeadershipTest, ...]:
    """The tests the tracker offers ``piece``: none he is immune to, and the Rally test only while he flees (000:297)."""
    return tuple(t for t in LEADERSHIP_TESTS if immune_because(piece, t.id) is None
                 and (t.id != "rally" or piece.state == PieceState.FLED))


def leader_range(rule_ids: tuple[str, ...] | list[str] | set[str]) -> tuple[int, str]:
    """How far a warband's leader lends his Leadership: 6" (000:829), unless one of its list's rules
    (or its leader's) changes it (LEADER_RANGES); with the rule's name and where it is written."""
    found = [LEADER_RANGES[r] for r in rule_ids if r in LEADER_RANGES]
    return max(found) if found else (LEADER_RANGE, "")


# ---------------------------------------------------------------------------- counting
def models(side: Side) -> int:
    """The warriors the Rout test counts: every model in the game, hired swords included."""
    return sum(1 for p in side.pieces if p.state != PieceState.ABSENT)


def out_of_action(side: Side) -> int:
    return sum(1 for p in side.pieces if p.state == PieceState.OUT_OF_ACTION)


def rout_threshold(side: Side) -> int:
    """How many out of action make the Rout test due: a quarter of the warband, rounded up (000:813)."""
    top, bottom = ROUT_SHARE
    return -(-models(side) * top // bottom)


def must_test_rout(side: Side) -> bool:
    """A quarter or more of the warband is out of action (000:813)."""
    return side.fighting and models(side) > 0 and out_of_action(side) >= rout_threshold(side)


def rout_leader(side: Side) -> Piece | None:
    """Whose Leadership the Rout test uses: the leader's, unless he is out of action or stunned;
    then the highest among the rest who are not (000:817-821), never a hired sword's (Hired Swords
    chapter); None when nobody may."""
    able = [p for p in side.pieces if p.state not in NO_ROUT_LEADERSHIP and not p.is_hired_sword]
    leader = next((p for p in able if p.role == "leader"), None)
    if leader is not None:
        return leader
    return max(able, key=lambda p: p.leadership, default=None)


def leader_to_lend(side: Side) -> Piece | None:
    """The leader, when he may lend his Leadership to a warrior within 6" (000:829-831)."""
    return next((p for p in side.pieces if p.role == "leader" and p.state not in LEADER_CANNOT_LEND), None)


# "Not in this game" is for a model who was never on the table (recovering from an old wound, left
# at home): it takes him out of the Rout count. A model the tracker shows in the fight may not be
# marked so, at any turn: had he been out of action, the enemy who took him out would silently lose
# the kill (his experience) and the warband a model of its Rout count (000:813); knocked down,
# stunned, fled or hidden, carrying wyrdstone, or having taken an enemy out, he was plainly there.
# A player who marked him by mistake marks him standing first (or undoes the mark), a change he sees.
FOUGHT_STATES = frozenset({PieceState.OUT_OF_ACTION, PieceState.KNOCKED_DOWN, PieceState.STUNNED, PieceState.FLED,
                           PieceState.HIDDEN})


def _taken_out(state: GameState, side: int, piece: Piece) -> Iterator[Piece]:
    """The enemies out of action that the tracker credits to ``piece`` of ``side``."""
    ref = piece_ref(side, piece.key)
    return (p for n, other in enumerate(state.sides) if n != side for p in other.pieces
            if p.state == PieceState.OUT_OF_ACTION and p.taken_out_by == ref)


def took_part(state: GameState, side: int, piece: Piece) -> bool:
    """Whether ``why_in_the_fight`` has a reason: the panel asks only yes or no, on every press, so
    the look for his kills stops at the first."""
    if piece.state in FOUGHT_STATES or piece.counters:
        return True
    return piece.is_hero and next(_taken_out(state, side, piece), None) is not None


def why_in_the_fight(state: GameState, side: int, piece: Piece) -> str | None:
    """Why ``piece`` of ``side`` cannot be marked "not in this game" (he took part), or None: he may."""
    if piece.state in FOUGHT_STATES:
        return f"he is {piece.state.words}"
    if piece.counters:
        return f"he carries {piece.counters} wyrdstone"
    if piece.is_hero:
        took = sum(1 for _ in _taken_out(state, side, piece))
        if took:
            return f"he took {took} {'enemy' if took == 1 else 'enemies'} out of action"
    return None


# ---------------------------------------------------------------------------- turns
def recover(side: Side, version: int) -> tuple[Side, list[tuple[Piece, Piece]]]:
    """The recovery phase of ``side`` (its turn begins): stunned become knocked down, knocked
    down stand up (RECOVERY). The side after, and each (before, after) that changed."""
    changed: list[tuple[Piece, Piece]] = []
    pieces = []
    for p in side.pieces:
        rule = RECOVERY.get(p.state)
        if rule is not None and side.fighting:
            after = replace(p, state=rule[0], changed=version)
            changed.append((p, after))
            p = after
        pieces.append(p)
    return replace(side, pieces=tuple(pieces)), changed


def next_turn(state: GameState) -> tuple[int, int]:
    """Whose turn comes next, and the game turn it is then: the next warband still fighting, in
    order; past the last, the first again in a new turn (000:271)."""
    fighting = state.fighting
    later = [n for n in fighting if n > state.side]
    if later:
        return later[0], state.turn
    return fighting[0], state.turn + 1


# ---------------------------------------------------------------------------- tests
def leadership_check(leadership: int, dice: Dice, why: str) -> CheckResult:
    """A Leadership test, 2D6 equal to or under ``leadership`` (000:257), with dice typed at the
    table or rolled (``dice``): the same ``CheckResult`` as /leadership's, every die shown."""
    faces = dice.dice(2, why)
    return CheckResult(CheckKind.LEADERSHIP, tuple(Die(DieKind.STANDARD, 6, f, face_value(DieKind.STANDARD, f)) for f in faces),
                       characteristic="Leadership", value=leadership)


# ---------------------------------------------------------------------------- the end
def kills(state: GameState, side: int) -> dict[int, int]:
    """Enemies each hero of ``side`` took out of action, by warrior id: every model of another
    warband out of action and marked as taken out by him. Only heroes count: a hero earns +1
    experience for each (the campaign tables' 'Enemy out of action'); henchmen and hired swords
    do not (Hired Swords chapter: they gain experience as henchmen)."""
    heroes = {piece_ref(side, p.key): p.warrior_id for p in state.sides[side].pieces if p.is_hero}
    out: dict[int, int] = {}
    for n, other in enumerate(state.sides):
        if n == side:
            continue
        for p in other.pieces:
            if p.state == PieceState.OUT_OF_ACTION and p.taken_out_by in heroes:
                wid = heroes[p.taken_out_by]
                out[wid] = out.get(wid, 0) + 1
    return out


def facts_of_side(state: GameState, side: int, *, source: str) -> BattleFacts:
    """What the game says of one warband's warriors, for its post-battle sequence."""
    credited = kills(state, side)
    by_warrior: dict[int, list[Piece]] = {}
    for p in state.sides[side].pieces:
        by_warrior.setdefault(p.warrior_id, []).append(p)
    return BattleFacts(source=source, warriors=tuple(
        WarriorFacts(warrior_id=wid, fought=any(p.state != PieceState.ABSENT for p in pieces),
                     out_of_action=sum(1 for p in pieces if p.state == PieceState.OUT_OF_ACTION),
                     kills=credited.get(wid, 0), taken_by=_taken_by(state, pieces),
                     # a carrier taken out of action drops his counters where he fell (Wyrdstone Hunt, scenarios.json)
                     counters=sum(p.counters for p in pieces if p.state != PieceState.OUT_OF_ACTION))
        for wid, pieces in by_warrior.items()))


def _taken_by(state: GameState, pieces: list[Piece]) -> int | None:
    """The warband (id) whose warrior took these pieces out of action, when the tracker recorded
    it and it was one warband; None otherwise (not said, no enemy, an enemy not named, several)."""
    warbands = {taker_warband(state, p.taken_out_by) for p in pieces if p.state == PieceState.OUT_OF_ACTION}
    return warbands.pop() if len(warbands) == 1 else None


def taker_warband(state: GameState, ref: str) -> int | None:
    """The warband (id) of the warrior ``ref`` names as the one who took a warrior out of action (None: not a warrior of the game)."""
    side, _, key = ref.partition(":")
    if not side.isdigit() or int(side) >= len(state.sides) or state.sides[int(side)].piece(key) is None:
        return None
    return state.sides[int(side)].warband_id


def taker_words(state: GameState, ref: str) -> str:
    """Who took a warrior out of action, in words ('' when not said)."""
    if ref == NO_ONE:
        return "no enemy"
    if ref == ANOTHER_ENEMY:
        return "an enemy"
    side, _, key = ref.partition(":")
    if not side.isdigit() or int(side) >= len(state.sides):
        return ""
    piece = state.sides[int(side)].piece(key)
    return piece.name if piece is not None else ""
