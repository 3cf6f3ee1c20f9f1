"""Marks and turns on a tracked game: a model's state and who took him out, the wyrdstone he
carries, the turn passing with its recovery phase, and the tracker's Undo.

A mark or a turn changes only the game's row (one statement: a press costs little) and goes into
the game's history, from which Undo takes back the newest (``GameState.history``). A mark carries
the game's version its panel was drawn at and is refused only when that warrior changed since
(``Piece.changed``); it leaves the tracker's buttons as they are. A turn and an undo carry the
tracker's version (games.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.campaign.actions.games import GamePress, GameView, may_mark, may_run
from engine.campaign.model import Actor
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules import game_rules
from engine.campaign.rules.game_state import (
    ANOTHER_ENEMY,
    HISTORY_KEPT,
    NO_ONE,
    Change,
    GameState,
    Piece,
    PieceState,
    piece_ref,
)
from engine.errors import MordheimError

MAX_COUNTERS = 9  # wyrdstone counters one model carries


# ---------------------------------------------------------------------- marking
def _fields(p: Piece) -> dict[str, Any]:
    return {"state": str(p.state), "taken_out_by": p.taken_out_by, "counters": p.counters}


def change_piece(g: GamePress, side: int, before: Piece, after: Piece, words: str) -> GameView:
    """Store one model's change, undoable from the tracker; the tracker's buttons stay as they are."""
    s = g.state.sides[side]
    old, new = _fields(before), _fields(after)
    keys = [k for k in new if old[k] != new[k]]
    change = Change(kind="mark", side=side, before={"key": before.key, **{k: old[k] for k in keys}},
                    after={"key": before.key, **{k: new[k] for k in keys}})
    state = replace(g.state, sides=tuple(x.with_piece(after) if n == side else x for n, x in enumerate(g.state.sides)))
    return g.save(state, log=[f"{g.turn_words()} · {before.name} ({s.warband}): {words}"], moves_on=False, change=change)


def _current_piece(g: GamePress, side: int, key: str, version: int) -> Piece:
    """The model a panel drawn at ``version`` marks, if nobody changed him since."""
    piece = g.piece(side, key)
    if piece.changed > version or version > g.record.version:
        raise MordheimError(f"{piece.name} changed since this panel was drawn: he is now {piece.state.words}.",
                            hint="Nothing was changed. The panel shows him as he is now; press again if you still mean it.")
    return piece


def mark(uow: UnitOfWork, actor: Actor, game_id: int, version: int, side: int, key: str, state: str, *,
         taken_out_by: str = "") -> GameView:
    """Mark one model standing, knocked down, stunned, out of action (and by whom), fled, hidden,
    or not in this game."""
    g = GamePress.open(uow, game_id)
    g.fighting_side(side)
    may_mark(g.state, side, actor, uow)
    piece = _current_piece(g, side, key, version)
    try:
        new_state = PieceState(state)
    except ValueError:
        raise MordheimError(f"`{state[:30]}` is not a state a warrior can be in.",
                            hint="Use the panel's buttons: standing, knocked down, stunned, out of action, fled, hidden.") from None
    by = ""
    if new_state == PieceState.OUT_OF_ACTION:
        by = _taker(g.state, side, taken_out_by)
    elif taken_out_by:
        raise MordheimError("Only a warrior taken out of action was taken out by someone.")
    if piece.state == new_state and piece.taken_out_by == by:
        raise MordheimError(f"{piece.name} is already {new_state.words}.", hint="Nothing was changed.")
    if new_state == PieceState.ABSENT:  # only a model never on the table (game_rules.why_in_the_fight)
        fought = game_rules.why_in_the_fight(g.state, side, piece)
        if fought is not None:
            undo = (" Standing, he no longer counts as out of action, nor as the kill of whoever took him out."
                    if piece.state == PieceState.OUT_OF_ACTION else "")
            raise MordheimError(f"{piece.name} took part in this game ({fought}): he cannot be marked not in this game, "
                                "which would leave him out of the Rout count (000:813).",
                                hint="Nothing was changed. If a mark was a mistake, mark him standing first (or Undo it), "
                                     f"then not in this game.{undo}")
    after = replace(piece, state=new_state, taken_out_by=by, changed=g.next_version)
    words = new_state.words
    if by:
        taker = game_rules.taker_words(g.state, by)
        words += f", by {taker}" if by not in (NO_ONE, ANOTHER_ENEMY) else f" ({taker})"
    return change_piece(g, side, piece, after, words)


def _taker(state: GameState, side: int, ref: str) -> str:
    """Who took a model of ``side`` out of action: a hero of another warband in the game, another
    enemy, or no enemy ('' when not said)."""
    if ref in ("", NO_ONE, ANOTHER_ENEMY):
        return ref
    other, _, key = ref.partition(":")
    if not other.isdigit() or int(other) == side or int(other) >= len(state.sides):
        raise MordheimError("A warrior is taken out of action by an enemy, not by one of his own.",
                            hint="Choose from the panel's menu.")
    piece = state.sides[int(other)].piece(key)
    if piece is None or not piece.is_hero:
        raise MordheimError("Only a hero of another warband in this game can be named as who took him out.",
                            hint="Choose 'another enemy' for a henchman or a hired sword.")
    return piece_ref(int(other), key)


def carry(uow: UnitOfWork, actor: Actor, game_id: int, version: int, side: int, key: str, change: int) -> GameView:
    """One wyrdstone counter more (``change`` +1) or fewer (-1) carried by one model."""
    g = GamePress.open(uow, game_id)
    g.fighting_side(side)
    may_mark(g.state, side, actor, uow)
    piece = _current_piece(g, side, key, version)
    if change not in (-1, 1):
        raise MordheimError("A counter is picked up or dropped one at a time.")
    counters = piece.counters + change
    if not 0 <= counters <= MAX_COUNTERS:
        raise MordheimError(f"{piece.name} carries {piece.counters} wyrdstone counter{'s' if piece.counters != 1 else ''}; "
                            f"that would make {counters}.", hint=f"A model carries 0 to {MAX_COUNTERS}.")
    after = replace(piece, counters=counters, changed=g.next_version)
    words = f"{'picks up' if change > 0 else 'drops'} a wyrdstone counter (carries {counters})"
    return change_piece(g, side, piece, after, words)


# ---------------------------------------------------------------------- turns
def recovery_phase(state: GameState, n: int, version: int) -> tuple[GameState, list[tuple[Piece, Piece]], str, list[str]]:
    """The recovery phase of warband ``n`` (rules/game_rules.py ``recover``): the state after it, each
    (before, after) it changed, what changed in words ('' when nothing did), and the reminder of its
    fleeing models' Rally tests, which the player rolls from the model's tests (000:297)."""
    side, recovered = game_rules.recover(state.sides[n], version)
    words = "; ".join(f"{a.name} {a.state.words}" for _, a in recovered)
    fleeing = [p.name for p in side.pieces if p.state == PieceState.FLED]
    reminder = []
    if fleeing:
        reminder.append(f"Recovery phase: {', '.join(fleeing)} {'is' if len(fleeing) == 1 else 'are'} fleeing — "
                        "Rally test (Roll a test… on the panel; 000:297).")
    sides = tuple(side if m == n else x for m, x in enumerate(state.sides))
    return replace(state, sides=sides), recovered, words, reminder


def next_turn(uow: UnitOfWork, actor: Actor, game_id: int, tracker_version: int) -> GameView:
    """The turn passes to the next warband still fighting. Its turn starts with its Rout test when a
    quarter of it is out of action (000:813), then its recovery phase (000:277-301): the test is
    taken while its stunned are still stunned, so a stunned leader's Ld is not used (000:819-821).
    With no test due the recovery phase runs at once; with one due, once the test is passed
    (game_rout.py) — a failed test or a voluntary rout ends the warband's game before it."""
    g = GamePress.open(uow, game_id, tracker_version=tracker_version)
    may_run(g.state, actor)
    state = g.state
    if state.rout_due:
        waiting = state.sides[state.side]
        raise MordheimError(f"{waiting.warband} must take its Rout test first (000:813).",
                            hint="Roll it with the tracker's Rout test buttons, or rout voluntarily.")
    if len(state.fighting) < 2:
        raise MordheimError("Only one warband is left in this game.", hint="End the game with the tracker's End button.")
    new_side, new_turn = game_rules.next_turn(state)
    side = state.sides[new_side]
    due = game_rules.must_test_rout(side)
    lines = [f"Turn {new_turn} · {side.warband} to play"]
    recovered: list[tuple[Piece, Piece]] = []
    if due:
        lines.append(f"{side.warband}: {game_rules.out_of_action(side)} of {game_rules.models(side)} out of action — "
                     "Rout test due, before its recovery phase (000:813).")
        new = state
    else:
        new, recovered, words, reminder = recovery_phase(state, new_side, g.next_version)
        if words:
            lines[0] += f": {words}"
        lines += reminder
    change = Change(kind="turn", side=new_side,
                    before={"turn": state.turn, "side": state.side, "rout_due": state.rout_due,
                            "pieces": {b.key: str(b.state) for b, _ in recovered}},
                    after={"turn": new_turn, "side": new_side, "rout_due": due, "pieces": {a.key: str(a.state) for _, a in recovered}})
    return g.save(replace(new, side=new_side, turn=new_turn, rout_due=due), log=lines, change=change)


# ---------------------------------------------------------------------- undo
def undo(uow: UnitOfWork, actor: Actor, game_id: int, tracker_version: int) -> GameView:
    """Take back the game's newest mark or turn not yet taken back (up to HISTORY_KEPT of them)."""
    g = GamePress.open(uow, game_id, tracker_version=tracker_version)
    state = g.state
    if not state.history:
        raise MordheimError("There is nothing left to undo in this game.",
                            hint=f"Marks and turns are taken back newest first, the last {HISTORY_KEPT} of them.")
    change = state.history[-1]
    before, after, side = change.before, change.after, change.side
    if change.kind == "mark":
        may_mark(state, side, actor, uow)
        piece = g.piece(side, str(after["key"]))
        now = _fields(piece)
        if any(now[k] != v for k, v in after.items() if k in now):
            raise MordheimError(f"{piece.name} changed since that mark; it cannot be taken back.", hint="Mark him again instead.")
        restored = replace(piece, state=PieceState(before.get("state", piece.state)),
                           taken_out_by=before.get("taken_out_by", piece.taken_out_by),
                           counters=int(before.get("counters", piece.counters)), changed=g.next_version)
        sides = tuple(x.with_piece(restored) if n == side else x for n, x in enumerate(state.sides))
        new = replace(state, sides=sides)
        words = f"{piece.name} is {restored.state.words} again" + (f", carrying {restored.counters} wyrdstone"
                                                                    if "counters" in before else "")
    else:
        may_run(state, actor)
        s = state.sides[side]
        now_states = {p.key: str(p.state) for p in s.pieces}
        if (state.turn, state.side, state.rout_due) != (after["turn"], side, after["rout_due"]) or any(
                now_states.get(k) != v for k, v in after["pieces"].items()):
            raise MordheimError("That turn cannot be taken back: the game moved on since (a Rout test).",
                                hint="Correct the warriors with new marks instead.")
        pieces = tuple(replace(p, state=PieceState(before["pieces"][p.key]), changed=g.next_version)
                       if p.key in before["pieces"] else p for p in s.pieces)
        sides = tuple(replace(s, pieces=pieces) if n == side else x for n, x in enumerate(state.sides))
        new = replace(state, sides=sides, turn=int(before["turn"]), side=int(before["side"]), rout_due=bool(before["rout_due"]))
        words = f"back to turn {new.turn}, {new.sides[new.side].warband} to play"
    return g.save(replace(new, history=state.history[:-1]), log=[f"{g.turn_words()} · Undone: {words}"])
