"""A game on the live battle tracker, stored in the database: start it, look at it, mark warriors,
pass the turn, undo a mark, give it up.

Each verb is one action in one unit of work. The game is one row whose ``version`` grows with
every change. A press of the tracker (next turn, undo, the Rout test, the end) carries the
tracker's version it was drawn at (``GameState.tracker_version``, which every one of them moves on)
and is refused when the game moved on since: of two members pressing at once, one wins and the
other is told. A mark carries the game's version its panel was drawn at and is refused only when
that warrior changed since (``Piece.changed``), so two players marking their own warbands at the
same time do not get in each other's way; it leaves the tracker's buttons as they are.

Everything the game records is a ledger row of its one batch (rules/game_state.py's
``GAME_RECORDS``): the start, each Rout test, and at the end what the tracker recorded of each
warband and its battle. A mark or a turn changes only the game's row (one statement: a press
costs little), and the tracker's Undo takes back the newest ones (``GameState.history``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.campaign.actions.common import warband_named
from engine.campaign.actions.postbattle import SequenceView
from engine.campaign.game_model import GameRecord, GameStatus
from engine.campaign.model import Actor, Entity, Role, Warrior
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules import game_rules
from engine.campaign.rules.game_scenario import GameScenario
from engine.campaign.rules.game_state import (
    ANOTHER_ENEMY, GAME_STARTED, HISTORY_KEPT, NO_ONE, Change, GameState, Piece, PieceState, Side, piece_ref,
)
from engine.errors import LimitExceeded, MordheimError, NotFoundError, PermissionDenied

MIN_SIDES, MAX_SIDES = 2, 4  # a multiplayer game of up to four: one tracker message holds them (cogs/_ui/game_tracker.py)
MAX_MODELS = 40  # per warband: more than any list allows with its hired swords
MAX_OPEN_GAMES = 25  # per server at once
MAX_COUNTERS = 9  # wyrdstone counters one model carries
LOG_KEPT = 8  # lines of what happened lately
WHEN_MAX = 60
ROSTER_ORDER = {Role.LEADER: 0, Role.HERO: 1, Role.HIRED_SWORD: 2, Role.HENCHMEN: 3}


@dataclass(frozen=True)
class GameView:
    """What the channel shows of one game."""

    id: int
    guild_id: int
    channel_id: int | None
    message_id: int | None
    version: int
    status: GameStatus
    state: GameState
    started_by: int
    rolls: tuple[str, ...] = ()  # the dice of the press just made
    opened: tuple[SequenceView, ...] = ()  # post-battle sequences the end opened
    notes: tuple[str, ...] = ()  # what the press could not do, for the member who pressed

    @property
    def is_open(self) -> bool:
        return self.status == GameStatus.OPEN

    @property
    def tracker_version(self) -> int:
        return self.state.tracker_version


# ---------------------------------------------------------------------- reading
STATES_KEPT = 256
_states: dict[str, GameState] = {}


def state_of(text: str) -> GameState:
    """A stored state, parsed once: every press reads the state the press before wrote (kept as it
    was written). States are frozen and the text is the key, so a state kept is the one stored."""
    state = _states.get(text)
    if state is None:
        state = _keep_state(text, GameState.from_json(text))
    return state


def _keep_state(text: str, state: GameState) -> GameState:
    if len(_states) >= STATES_KEPT:
        del _states[next(iter(_states))]
    _states[text] = state
    return state


def game_record(uow: UnitOfWork, game_id: int) -> GameRecord:
    record = uow.games.get(game_id)
    if record is None:
        raise NotFoundError(f"This server has no game #{game_id}.", hint="`/game show` lists the games being played here.")
    return record


def view_of(uow: UnitOfWork, record: GameRecord, **more: Any) -> GameView:
    return GameView(id=record.id, guild_id=uow.guild_id, channel_id=record.channel_id, message_id=record.message_id,
                    version=record.version, status=record.status, state=state_of(record.state_json),
                    started_by=record.started_by, **more)


def get_game(uow: UnitOfWork, game_id: int) -> GameView:
    return view_of(uow, game_record(uow, game_id))


def open_games(uow: UnitOfWork) -> list[GameView]:
    """The server's games being played, oldest first."""
    return [view_of(uow, r) for r in uow.games.open_ones()]


def anyone_marks(uow: UnitOfWork) -> bool:
    return uow.games.anyone_marks()


# ---------------------------------------------------------------------- who may press
def may_run(state: GameState, actor: Actor) -> None:
    """Players of the game (each warband's owner) and Manage Server run it: turns, undo, the end."""
    if actor.is_admin or any(s.owner_id == actor.member_id for s in state.sides):
        return
    raise PermissionDenied("Only the players of this game (the owners of its warbands) or a member with Manage Server "
                           "can run it.", hint="Everyone can follow it here.")


def may_mark(state: GameState, side: int, actor: Actor, uow: UnitOfWork) -> None:
    """Each warband's owner marks its warriors, and Manage Server; with the server's setting
    (``/admin tracker``, read only when it matters), any player of the game marks any warrior of it."""
    s = state.sides[side]
    if actor.is_admin or s.owner_id == actor.member_id:
        return
    if any(x.owner_id == actor.member_id for x in state.sides) and uow.games.anyone_marks():
        return
    raise PermissionDenied(f"Only the owner of {s.warband} (<@{s.owner_id}>) or a member with Manage Server can mark its "
                           "warriors.", hint="A member with Manage Server can let every player of a game mark any warrior: "
                                            "`/admin tracker anyone_marks:true`.")


def check_may_mark(uow: UnitOfWork, actor: Actor, game_id: int, side: int) -> GameView:
    """The game, if it is open, ``side`` still fights in it and the member may mark its warriors (a panel opens)."""
    g = GamePress.open(uow, game_id)
    g.fighting_side(side)
    may_mark(g.state, side, actor, uow)
    return g.view()


def check_may_run(uow: UnitOfWork, actor: Actor, game_id: int, tracker_version: int) -> GameView:
    """The game, if it is open, its tracker at ``tracker_version`` and the member one of its players
    or Manage Server (the End panel opens)."""
    g = GamePress.open(uow, game_id, tracker_version=tracker_version)
    may_run(g.state, actor)
    return g.view()


# ---------------------------------------------------------------------- the unit of one press
def _stale(state: GameState) -> MordheimError:
    side = state.sides[state.side].warband
    return MordheimError("That button belongs to an older state of the game (pressed twice, or someone pressed first).",
                         hint=f"The game is now at turn {state.turn}, with {side} to play. Use the tracker's newest buttons.")


class GamePress:
    """One press on a game, in its unit of work: the checks on entry, the ledger rows, the state saved."""

    def __init__(self, uow: UnitOfWork, record: GameRecord) -> None:
        self.uow = uow
        self.record = record
        self.state = state_of(record.state_json)
        uow.ledger.join_batch(record.batch_id)  # every row of the game joins its one batch

    @classmethod
    def open(cls, uow: UnitOfWork, game_id: int, *, tracker_version: int | None = None) -> GamePress:
        """The game ``game_id``, if it is still being played (and its tracker at ``tracker_version``, when given)."""
        record = game_record(uow, game_id)
        if record.status != GameStatus.OPEN:
            raise MordheimError(f"Game #{game_id} is {'over' if record.status == GameStatus.ENDED else 'cancelled'}.",
                                hint="Nothing was changed. Start another with `/game start`.")
        g = cls(uow, record)
        if tracker_version is not None and tracker_version != g.state.tracker_version:
            raise _stale(g.state)
        return g

    @property
    def next_version(self) -> int:
        return self.record.version + 1

    def side(self, n: int) -> Side:
        if not 0 <= n < len(self.state.sides):
            raise MordheimError("That warband is not in this game.", hint="Use the tracker's newest buttons.")
        return self.state.sides[n]

    def fighting_side(self, n: int) -> Side:
        s = self.side(n)
        if not s.fighting:
            raise MordheimError(f"{s.warband} has left this game ({s.rout_note or 'routed'}): its warriors can no longer be "
                                "marked.", hint="Nothing was changed.")
        return s

    def piece(self, side: int, key: str) -> Piece:
        p = self.side(side).piece(key)
        if p is None:
            raise MordheimError("That warrior is not in this game.", hint="Choose him from the panel's menu.")
        return p

    def record_row(self, side: int, what: str, entity: Entity, entity_id: int, before: Any, after: Any, reason: str) -> None:
        """A ledger row of the game's record (``GAME_RECORDS``), in its batch, on ``side``'s warband."""
        s = self.state.sides[side]
        self.uow.ledger.record(warband_id=s.warband_id, warband_name=s.warband, what=what, entity=entity, entity_id=entity_id,
                               before=before, after=after, reason=reason)

    def save(self, state: GameState, *, log: Iterable[str] = (), status: GameStatus = GameStatus.OPEN, moves_on: bool = True,
             change: Change | None = None, **more: Any) -> GameView:
        """Store the game's new state (``moves_on``: the tracker's buttons change too, see
        ``tracker_version``; ``change``: a mark or a turn the tracker's Undo may take back)."""
        history = state.history if change is None else (*state.history, change)[-HISTORY_KEPT:]
        state = replace(state, log=(*state.log, *log)[-LOG_KEPT:], history=history,
                        tracker_version=state.tracker_version + 1 if moves_on else state.tracker_version)
        text = state.to_json()
        self.record = self.uow.games.save(self.record, state_json=text, status=status,
                                          batch_id=self.uow.ledger.batch_id, at=self.uow.at)
        self.state = _keep_state(text, state)
        return self.view(**more)

    def view(self, **more: Any) -> GameView:
        return view_of(self.uow, self.record, **more)

    def turn_words(self) -> str:
        return f"Turn {self.state.turn}"


# ---------------------------------------------------------------------- starting
def pieces_of(warriors: Iterable[Warrior]) -> tuple[Piece, ...]:
    """The models of a warband's active warriors: the leader, heroes, hired swords, then each
    member of each henchman group, by id within each."""
    out: list[Piece] = []
    for w in sorted((w for w in warriors if w.is_active), key=lambda w: (ROSTER_ORDER.get(w.role, 4), w.id)):
        if w.role == Role.HENCHMEN and w.group_size > 1:
            out.extend(Piece(key=f"{w.id}.{n}", warrior_id=w.id, name=f"{w.name} {n}", role=str(w.role), leadership=w.profile.Ld)
                       for n in range(1, w.group_size + 1))
        else:
            out.append(Piece(key=str(w.id), warrior_id=w.id, name=w.name, role=str(w.role), leadership=w.profile.Ld))
    return tuple(out)


def start_game(uow: UnitOfWork, actor: Actor, warbands: Sequence[str], *, scenario: GameScenario, when: str = "",
               channel_id: int | None = None) -> GameView:
    """A new game of these warbands (in turn order) under ``scenario``; the member starting it
    plays one of them, or has Manage Server."""
    names = [n for n in warbands if n and n.strip()]
    if not MIN_SIDES <= len(names) <= MAX_SIDES:
        raise MordheimError(f"A game needs {MIN_SIDES} to {MAX_SIDES} of this server's warbands; {len(names)} were given.",
                            hint="Name them in `warband1`, `warband2` (and `warband3`, `warband4`), in the order they play.")
    bands = [warband_named(uow, n) for n in names]
    if len({b.id for b in bands}) != len(bands):
        raise MordheimError("A warband cannot fight itself: each warband may be named once.")
    if not actor.is_admin and not any(b.owner_id == actor.member_id for b in bands):
        raise PermissionDenied("You can start a game only for a warband of yours (or with Manage Server).",
                               hint="Name one of your warbands among them; `/warband list owner:` shows yours.")
    when = " ".join(str(when or "").split())
    if len(when) > WHEN_MAX:
        raise MordheimError(f"`time` is {len(when)} characters; give at most {WHEN_MAX}, e.g. `Friday 20:00`.")
    running = uow.games.open_ones()
    if len(running) >= MAX_OPEN_GAMES:
        raise LimitExceeded(f"This server has {len(running)} games being played; finish or cancel one first (at most "
                            f"{MAX_OPEN_GAMES} at once).", hint="`/game show` lists them; `/game cancel` gives one up.")
    playing = {s.warband_id: r.id for r in running for s in state_of(r.state_json).sides if s.fighting}
    sides = []
    for band in bands:
        if band.id in playing:
            raise MordheimError(f"{band.name} is already fighting in game #{playing[band.id]}.",
                                hint="End or cancel that game first (its tracker's buttons, or `/game cancel`).")
        pieces = pieces_of(uow.warriors.of_warband(band.id, band.name))
        if not pieces:
            raise MordheimError(f"{band.name} has no active warriors to fight with.", hint="Hire some with `/hire fighter`.")
        if len(pieces) > MAX_MODELS:
            raise LimitExceeded(f"{band.name} has {len(pieces)} models; the tracker follows at most {MAX_MODELS} a warband.")
        sides.append(Side(warband_id=band.id, warband=band.name, owner_id=band.owner_id, pieces=pieces))
    state = GameState(scenario=scenario.name, scenario_id=scenario.scenario_id, scenario_summary=scenario.summary, when=when,
                      sides=tuple(sides), log=(f"Turn 1 · {sides[0].warband} goes first.",))
    game_id = uow.games.add(started_by=actor.member_id, channel_id=channel_id, state_json=state.to_json(), at=uow.at)
    g = GamePress(uow, game_record(uow, game_id))
    for n, side in enumerate(sides):
        others = [s.warband for s in sides if s is not side]
        g.record_row(n, GAME_STARTED, Entity.WARBAND, side.warband_id, None,
                     {"game": game_id, "name": f"game #{game_id}", "scenario": scenario.name, "against": others},
                     reason=f"game #{game_id} against {', '.join(others)} ({scenario.name})")
    return g.save(state)


def place_tracker(uow: UnitOfWork, actor: Actor, game_id: int, channel_id: int, message_id: int) -> None:
    """Where the game's tracker message is now (the bot posted it): the one a mark updates."""
    game_record(uow, game_id)
    uow.games.place(game_id, channel_id, message_id)


# ---------------------------------------------------------------------- marking
def _fields(p: Piece) -> dict[str, Any]:
    return {"state": str(p.state), "taken_out_by": p.taken_out_by, "counters": p.counters}


def _change_piece(g: GamePress, side: int, before: Piece, after: Piece, words: str) -> GameView:
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
    after = replace(piece, state=new_state, taken_out_by=by, changed=g.next_version)
    words = new_state.words
    if by:
        taker = game_rules.taker_words(g.state, by)
        words += f", by {taker}" if by not in (NO_ONE, ANOTHER_ENEMY) else f" ({taker})"
    return _change_piece(g, side, piece, after, words)


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
    return _change_piece(g, side, piece, after, words)


# ---------------------------------------------------------------------- turns
def next_turn(uow: UnitOfWork, actor: Actor, game_id: int, tracker_version: int) -> GameView:
    """The turn passes to the next warband still fighting: its recovery phase, then its Rout test
    when a quarter of it is out of action (rules/game_rules.py)."""
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
    side, recovered = game_rules.recover(state.sides[new_side], g.next_version)
    due = game_rules.must_test_rout(side)
    change = Change(kind="turn", side=new_side,
                    before={"turn": state.turn, "side": state.side, "rout_due": state.rout_due,
                            "pieces": {b.key: str(b.state) for b, _ in recovered}},
                    after={"turn": new_turn, "side": new_side, "rout_due": due, "pieces": {a.key: str(a.state) for _, a in recovered}})
    lines = [f"Turn {new_turn} · {side.warband} to play"]
    if recovered:
        lines[0] += ": " + "; ".join(f"{a.name} {a.state.words}" for _, a in recovered)
    if due:
        lines.append(f"{side.warband}: {game_rules.out_of_action(side)} of {game_rules.models(side)} out of action — "
                     "Rout test due.")
    sides = tuple(side if n == new_side else x for n, x in enumerate(state.sides))
    return g.save(replace(state, sides=sides, side=new_side, turn=new_turn, rout_due=due), log=lines, change=change)


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


# ---------------------------------------------------------------------- giving up
def cancel_game(uow: UnitOfWork, actor: Actor, game_id: int) -> GameView:
    """Give up a game without recording a battle (it was started by mistake)."""
    g = GamePress.open(uow, game_id)
    may_run(g.state, actor)
    return g.save(g.state, log=["The game was cancelled; no battle was recorded."], status=GameStatus.CANCELLED)


def set_anyone_marks(uow: UnitOfWork, actor: Actor, on: bool) -> bool:
    """The server's choice: any player of a game marks any of its warriors (on), or each warband's
    owner only (off, the default); Manage Server only, with a settings row in the ledger."""
    if not actor.is_admin:
        raise PermissionDenied("Only members with Manage Server can choose who marks warriors on the battle tracker.")
    before = uow.games.anyone_marks()
    uow.games.choose_anyone_marks(on, uow.at)
    if before != on:
        uow.ledger.record(warband_id=None, warband_name="", what="settings.tracker_marks", entity=Entity.SETTINGS,
                          entity_id=None, before={"any_player_marks": before}, after={"any_player_marks": on})
    return on
