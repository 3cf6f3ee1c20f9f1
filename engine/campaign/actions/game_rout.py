"""Tests taken during a tracked game: the Rout test the tracker asks for, routing of one's own will,
and Leadership tests (Fear, All Alone, Rally...) against a marked warrior's Leadership.

Every test is 2D6 against Leadership (000:257), rolled by the bot with every die shown or taken
from the dice rolled at the table (engine/dice/source.py), and read by the same ``CheckResult``
as `/leadership`; dice typed at the table must be exactly the test's two (``typed_dice``). A Rout
test is a record of dice already rolled: the tracker's Undo does not take it back. A failed one
takes the warband out of the game (000:815); when one warband is left, the game ends with it the
winner (actions/game_end.py). So what the table typed is shown first (``rout_preview``: a failed
result is confirmed by the owner, or typed again), and a voluntary rout is asked first (the cog).
A Rally test is the one test written in the game: a passed one marks the model standing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from engine.campaign.actions.game_end import finish
from engine.campaign.actions.game_marks import change_piece, recovery_phase
from engine.campaign.actions.games import GamePress, GameView, may_mark
from engine.campaign.model import Actor, BattleResult, Entity
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules import game_rules
from engine.campaign.rules.game_rules import TESTS_BY_ID, LeadershipTest
from engine.campaign.rules.game_state import ROUT_TAKEN, PieceState, Side, SideStatus
from engine.dice.checks import CheckResult
from engine.dice.source import Dice, parse_entered
from engine.errors import MordheimError


def _rout_due(g: GamePress, actor: Actor) -> int:
    state = g.state
    if not state.rout_due:
        raise MordheimError("No Rout test is due now.",
                            hint="It is due at the start of a warband's turn when a quarter of it is out of action (000:813).")
    may_mark(state, state.side, actor, g.uow)
    return state.side


def typed_dice(entered: str | None, rng: random.Random | None, *, needed: int = 2) -> Dice:
    """The dice of a test: rolled with ``rng`` (``entered`` None), or exactly the ``needed`` dice typed
    at the table (a die short or over is a typo to be told, not made up or passed over)."""
    if entered is None:
        return Dice(rng)
    faces = parse_entered(entered)
    if len(faces) != needed:
        words = "two dice, e.g. `3 4`" if needed == 2 else f"{needed} dice"
        got = "nothing was typed" if not faces else f"{len(faces)} {'die was' if len(faces) == 1 else 'dice were'} typed"
        raise MordheimError(f"This test rolls {needed}D6 and {got}: type {words}.",
                            hint="Nothing was rolled or changed. The Roll button rolls the dice for you.")
    return Dice(None, faces)


@dataclass(frozen=True)
class RoutResult:
    """A Rout test's dice and verdict, before (or without) being stored."""

    passed: bool
    words: str  # 'Ld 7 (Snikch): Leadership 7: 2D6 (6, 6) = 12, failed'
    rolls: tuple[str, ...]


def _rout_result(g: GamePress, n: int, entered: str | None, rng: random.Random | None) -> RoutResult:
    side = g.state.sides[n]
    leader = game_rules.rout_leader(side)
    if leader is None:
        if entered is not None and entered.strip():
            raise MordheimError("Nobody is left who may take the Rout test, so no dice are needed.",
                                hint="Roll it with the tracker's button: it fails (000:817-821).")
        return RoutResult(False, "nobody left who may take it (all out of action or stunned): failed", ())
    dice = typed_dice(entered, rng)
    check = leadership_roll(leader.leadership, dice, f"Rout test of {side.warband}")
    return RoutResult(bool(check.passed), f"Ld {leader.leadership} ({leader.name}): {check.render()}",
                      tuple(str(r) for r in dice.rolls))


def take_rout_test(uow: UnitOfWork, actor: Actor, game_id: int, tracker_version: int, *, entered: str | None = None,
                   rng: random.Random | None = None) -> GameView:
    """The Rout test of the warband whose turn it is: 2D6 under the Leadership of its leader, or
    of the best who may lend his (rules/game_rules.py ``rout_leader``); rolled (``entered`` None)
    or with the two dice typed at the table."""
    g = GamePress.open(uow, game_id, tracker_version=tracker_version)
    n = _rout_due(g, actor)
    result = _rout_result(g, n, entered, rng)
    return _settle_rout(g, n, passed=result.passed, words=result.words, rolls=result.rolls, how="failed its Rout test")


def rout_preview(uow: UnitOfWork, actor: Actor, game_id: int, tracker_version: int, *, entered: str) -> RoutResult:
    """What a Rout test with dice typed at the table would give, storing nothing: a failed one is shown
    to its owner to confirm before it takes the warband out of the game (a typo is not the rules' verdict)."""
    g = GamePress.open(uow, game_id, tracker_version=tracker_version)
    return _rout_result(g, _rout_due(g, actor), entered, None)


def check_may_rout(uow: UnitOfWork, actor: Actor, game_id: int, tracker_version: int) -> GameView:
    """The game, if a Rout test is due and the member may take it (the question before a voluntary rout)."""
    g = GamePress.open(uow, game_id, tracker_version=tracker_version)
    _rout_due(g, actor)
    return g.view()


def rout_voluntarily(uow: UnitOfWork, actor: Actor, game_id: int, tracker_version: int) -> GameView:
    """The warband whose Rout test is due gives up instead of testing (000:825)."""
    g = GamePress.open(uow, game_id, tracker_version=tracker_version)
    n = _rout_due(g, actor)
    return _settle_rout(g, n, passed=False, words="routed of its own will (000:825)", rolls=(), how="routed of its own will")


def _settle_rout(g: GamePress, n: int, *, passed: bool, words: str, rolls: tuple[str, ...], how: str) -> GameView:
    state, side = g.state, g.state.sides[n]
    status = SideStatus.FIGHTING if passed else SideStatus.ROUTED
    g.record_row(n, ROUT_TAKEN, Entity.WARBAND, side.warband_id,
                 {"game": g.record.id, "turn": state.turn, "status": str(SideStatus.FIGHTING)},
                 {"game": g.record.id, "turn": state.turn, "status": str(status), "test": words},
                 reason=f"game #{g.record.id}, turn {state.turn}: Rout test")
    line = f"Turn {state.turn} · {side.warband} Rout test — {words}"
    if passed:  # its turn goes on: the recovery phase the test came before (game_marks.next_turn; 000:813, 000:277-301)
        after, _, recovered, reminder = recovery_phase(state, n, g.next_version)
        lines = [line + " — it fights on" + (f"; recovery phase: {recovered}." if recovered else "."), *reminder]
        return g.save(replace(after, rout_due=False), log=lines, rolls=rolls)
    left = replace(side, status=status, left_on_turn=state.turn, rout_note=how)
    new = replace(state, sides=tuple(left if m == n else s for m, s in enumerate(state.sides)), rout_due=False)
    lines = [line + f" — {side.warband} leaves the game and loses it (000:815)."]
    if len(new.fighting) == 1:  # one warband left: it wins, and the game is over
        g.save(new, log=lines)
        winner = new.fighting[0]
        return finish(g, {m: BattleResult.WIN if m == winner else BattleResult.LOSS for m in range(len(new.sides))},
                      rolls=rolls)
    return g.save(new, log=lines, rolls=rolls)


# ---------------------------------------------------------------------- Leadership tests
def leadership_roll(leadership: int, dice: Dice, why: str) -> CheckResult:
    """2D6 against ``leadership`` (000:257); MordheimError when more dice were typed than it needs."""
    check = game_rules.leadership_check(leadership, dice, why)
    if dice.unused:
        unused = len(dice.unused)
        raise MordheimError(f"{unused} typed {'die was' if unused == 1 else 'dice were'} not needed "
                            f"({' '.join(map(str, dice.unused))}).", hint="A Leadership test rolls two dice: type two, e.g. `3 5`.")
    return check


@dataclass(frozen=True)
class TestRoll:
    """A Leadership test rolled from the tracker for one warrior."""

    test: LeadershipTest
    warrior: str
    warband: str
    leadership: int
    whose: str  # whose Leadership: his own, or his leader's within his reach
    check: CheckResult
    rolls: tuple[str, ...]
    rallied: bool = False  # a passed Rally test: he is marked standing again (the game changed)
    logged: bool = False  # the test is in the game's Latest (the tracker is to be edited)


RALLY = "rally"  # the one test the tracker writes in the game (rules/game_rules.LEADERSHIP_TESTS)


def roll_test(uow: UnitOfWork, actor: Actor, game_id: int, side: int, key: str, test_id: str, *, leaders: bool = False,
              entered: str | None = None, rng: random.Random | None = None) -> TestRoll:
    """A Leadership test (``rules/game_rules.LEADERSHIP_TESTS``) for one warrior still in the
    fight, against his Leadership or, ``leaders``, his leader's (000:829-831, or his list's reach);
    rolled (``entered`` None) or with the two dice typed at the table. A test his special rules spare
    him is refused, saying why (``game_rules.IMMUNITIES``). Only a Rally test changes the game: it is
    taken by a fleeing warrior (000:297), written in the game's Latest, and a passed one marks him
    standing again ("the model stops fleeing and has rallied"), a mark the tracker's Undo takes back."""
    g = GamePress.open(uow, game_id)
    s = g.fighting_side(side)
    may_mark(g.state, side, actor, uow)
    piece = g.piece(side, key)
    test = TESTS_BY_ID.get(test_id)
    if test is None:
        raise MordheimError(f"`{test_id[:20]}` is not a test the tracker rolls.", hint="Choose one from the panel's menu.")
    if piece.state in (PieceState.OUT_OF_ACTION, PieceState.ABSENT):
        raise MordheimError(f"{piece.name} is {piece.state.words}: he takes no tests.")
    immune = game_rules.immune_because(piece, test.id)
    if immune is not None:
        raise MordheimError(f"{piece.name} takes no {test.name}: {immune}.", hint="Nothing was rolled.")
    if test.id == RALLY and piece.state != PieceState.FLED:
        raise MordheimError(f"{piece.name} is {piece.state.words}, not fleeing: only a fleeing warrior tests to rally (000:297).",
                            hint="Mark him Fled first if he broke and ran.")
    leadership, whose = piece.leadership, "his own"
    if leaders:
        leader = game_rules.leader_to_lend(s)
        if leader is None or leader.key == piece.key:
            raise MordheimError(f"{s.warband}'s leader cannot lend his Leadership now.",
                                hint="Only a leader who is not knocked down, stunned, fleeing or out of action can (000:831).")
        leadership, whose = leader.leadership, f"{leader.name}'s, within {s.leader_range}\" ({_reach_source(s)})"
    dice = typed_dice(entered, rng)
    check = leadership_roll(leadership, dice, f"{test.name} for {piece.name}")
    roll = TestRoll(test=test, warrior=piece.name, warband=s.warband, leadership=leadership, whose=whose, check=check,
                    rolls=tuple(str(r) for r in dice.rolls))
    if test.id != RALLY:
        return roll
    words = f"Rally test, Ld {leadership}: {check.render()}"
    if check.passed:
        after = replace(piece, state=PieceState.STANDING, changed=g.next_version)
        change_piece(g, side, piece, after, f"{words} — he rallies and stands (000:297)")
        return replace(roll, rallied=True, logged=True)
    g.save(g.state, log=[f"{g.turn_words()} · {piece.name} ({s.warband}): {words} — he flees on (000:297)"], moves_on=False)
    return replace(roll, logged=True)


def _reach_source(side: Side) -> str:
    return f"000:829; {side.leader_range_rule}" if side.leader_range_rule else "000:829"
