"""Tests taken during a tracked game: the Rout test the tracker asks for, routing of one's own will,
and Leadership tests (Fear, All Alone, Rally...) against a marked warrior's Leadership.

Every test is 2D6 against Leadership (000:257), rolled by the bot with every die shown or taken
from the dice rolled at the table (engine/dice/source.py), and read by the same ``CheckResult``
as `/leadership`. A Rout test is a record of dice already rolled: the tracker's Undo does not take
it back. A failed one takes the warband out of the game (000:815); when one warband is left,
the game ends with it the winner (actions/game_end.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from engine.campaign.actions.game_end import finish
from engine.campaign.actions.games import GamePress, GameView, may_mark
from engine.campaign.model import Actor, BattleResult, Entity
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules import game_rules
from engine.campaign.rules.game_rules import TESTS_BY_ID, LeadershipTest
from engine.campaign.rules.game_state import ROUT_TAKEN, PieceState, SideStatus
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


def take_rout_test(uow: UnitOfWork, actor: Actor, game_id: int, tracker_version: int, *, entered: str = "",
                   rng: random.Random | None = None) -> GameView:
    """The Rout test of the warband whose turn it is: 2D6 under the Leadership of its leader, or
    of the best who may lend his (rules/game_rules.py ``rout_leader``)."""
    g = GamePress.open(uow, game_id, tracker_version=tracker_version)
    n = _rout_due(g, actor)
    side = g.state.sides[n]
    leader = game_rules.rout_leader(side)
    dice = Dice(rng, parse_entered(entered))
    rolls: tuple[str, ...] = ()
    if leader is None:
        if dice.unused:
            raise MordheimError("Nobody is left who may take the Rout test, so no dice are needed.")
        passed, words = False, "nobody left who may take it (all out of action or stunned): failed"
    else:
        check = leadership_roll(leader.leadership, dice, f"Rout test of {side.warband}")
        passed = bool(check.passed)
        words = f"Ld {leader.leadership} ({leader.name}): {check.render()}"
        rolls = tuple(str(r) for r in dice.rolls)
    return _settle_rout(g, n, passed=passed, words=words, rolls=rolls, how="failed its Rout test")


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
    if passed:
        return g.save(replace(state, rout_due=False), log=[line + " — it fights on."], rolls=rolls)
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
        raise MordheimError(f"{len(dice.unused)} typed dice were not needed ({' '.join(map(str, dice.unused))}).",
                            hint="A Leadership test rolls two dice: type two, e.g. `3 5`.")
    return check


@dataclass(frozen=True)
class TestRoll:
    """A Leadership test rolled from the tracker for one warrior."""

    test: LeadershipTest
    warrior: str
    warband: str
    leadership: int
    whose: str  # whose Leadership: his own, or his leader's within 6"
    check: CheckResult
    rolls: tuple[str, ...]


def roll_test(uow: UnitOfWork, actor: Actor, game_id: int, side: int, key: str, test_id: str, *, leaders: bool = False,
              entered: str = "", rng: random.Random | None = None) -> TestRoll:
    """A Leadership test (``rules/game_rules.LEADERSHIP_TESTS``) for one warrior still in the
    fight, against his Leadership or, ``leaders``, his leader's (000:829-831). Changes nothing."""
    g = GamePress.open(uow, game_id)
    s = g.fighting_side(side)
    may_mark(g.state, side, actor, uow)
    piece = g.piece(side, key)
    test = TESTS_BY_ID.get(test_id)
    if test is None:
        raise MordheimError(f"`{test_id[:20]}` is not a test the tracker rolls.", hint="Choose one from the panel's menu.")
    if piece.state in (PieceState.OUT_OF_ACTION, PieceState.ABSENT):
        raise MordheimError(f"{piece.name} is {piece.state.words}: he takes no tests.")
    leadership, whose = piece.leadership, "his own"
    if leaders:
        leader = game_rules.leader_to_lend(s)
        if leader is None or leader.key == piece.key:
            raise MordheimError(f"{s.warband}'s leader cannot lend his Leadership now.",
                                hint="Only a leader who is not knocked down, stunned, fleeing or out of action can (000:831).")
        leadership, whose = leader.leadership, f"{leader.name}'s, within 6\" (000:829)"
    dice = Dice(rng, parse_entered(entered))
    check = leadership_roll(leadership, dice, f"{test.name} for {piece.name}")
    return TestRoll(test=test, warrior=piece.name, warband=s.warband, leadership=leadership, whose=whose, check=check,
                    rolls=tuple(str(r) for r in dice.rolls))
