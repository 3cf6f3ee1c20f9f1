"""A game on the live battle tracker, stored in the database: start it, look at it, who may press
what, one press's unit of work, give it up. Marks and turns are game_marks.py's; the Rout test
game_rout.py's; the end game_end.py's.

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

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.campaign.actions.common import warband_named
from engine.campaign.actions.postbattle import SequenceView
from engine.campaign.actions.server_tables import tables_of
from engine.campaign.game_model import GameRecord, GameStatus
from engine.campaign.model import Actor, Entity, Role, Warrior
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules.game_rules import leader_range, rules_heeded
from engine.campaign.rules.game_scenario import GameScenario
from engine.campaign.rules.game_state import (
    GAME_STARTED,
    HISTORY_KEPT,
    Change,
    GameState,
    Piece,
    Side,
)
from engine.errors import LimitExceeded, MordheimError, NotFoundError, PermissionDenied

MIN_SIDES, MAX_SIDES = 2, 4  # a multiplayer game of up to four: one tracker message holds them (cogs/_ui/game_tracker.py)
MAX_MODELS = 40  # per warband: more than any list allows with its hired swords
MAX_OPEN_GAMES = 25  # per server at once
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
GAMES_KEPT = 1024  # games whose newest state is kept parsed, in this process


@dataclass(frozen=True)
class _Kept:
    text: str  # the state as stored
    state: GameState  # and as parsed (or as written: the same)


# The newest state of each game, by database, server and game: every press reads the state the
# press before wrote, so it is parsed once (or not at all: kept as it was written). The stored
# text is compared on every read, so a change made by another process or path is parsed afresh.
# Only the newest is kept, so an older state is soon garbage rather than kept for a while.
_kept: dict[tuple[str, int, int], _Kept] = {}
_keeping = threading.Lock()


def state_of(uow: UnitOfWork, record: GameRecord) -> GameState:
    """The state ``record`` stores, parsed once."""
    kept = _kept.get((uow.database, uow.guild_id, record.id))
    if kept is not None and kept.text == record.state_json:
        return kept.state
    return _keep_state(uow, record, GameState.from_json(record.state_json))


def _keep_state(uow: UnitOfWork, record: GameRecord, state: GameState) -> GameState:
    """Keep ``state`` as the parse of ``record``'s text, in place of the game's state before."""
    key = (uow.database, uow.guild_id, record.id)
    with _keeping:  # reading units run in worker threads: one forgets the oldest while another keeps
        if key not in _kept and len(_kept) >= GAMES_KEPT:
            del _kept[next(iter(_kept))]
        _kept[key] = _Kept(record.state_json, state)
    return state


def game_record(uow: UnitOfWork, game_id: int) -> GameRecord:
    record = uow.games.get(game_id)
    if record is None:
        raise NotFoundError(f"This server has no game #{game_id}.", hint="`/game show` lists the games being played here.")
    return record


def view_of(uow: UnitOfWork, record: GameRecord, **more: Any) -> GameView:
    return GameView(id=record.id, guild_id=uow.guild_id, channel_id=record.channel_id, message_id=record.message_id,
                    version=record.version, status=record.status, state=state_of(uow, record),
                    started_by=record.started_by, **more)


def get_game(uow: UnitOfWork, game_id: int) -> GameView:
    return view_of(uow, game_record(uow, game_id))


def open_games(uow: UnitOfWork) -> list[GameView]:
    """The server's games being played, oldest first."""
    return [view_of(uow, r) for r in uow.games.open_ones()]


def anyone_marks(uow: UnitOfWork) -> bool:
    return uow.games.anyone_marks()


# ---------------------------------------------------------------------- who may press
def may_run(state: GameState, actor: Actor, *, doing: str = "run it") -> None:
    """Players of the game (each warband's owner) and Manage Server run it: turns, undo, the end."""
    if actor.is_admin or any(s.owner_id == actor.member_id for s in state.sides):
        return
    players = ", ".join(f"<@{owner}>" for owner in dict.fromkeys(s.owner_id for s in state.sides))  # each player once
    raise PermissionDenied(f"Only the players of this game (the owners of its warbands: {players}) or a member with "
                           f"Manage Server can {doing}.", hint="Ask one of them; the tracker shows the game to everyone.")


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
        self.state = state_of(uow, record)
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
        self.record = self.uow.games.save(self.record, state_json=state.to_json(), status=status,
                                          batch_id=self.uow.ledger.batch_id, at=self.uow.at)
        self.state = _keep_state(self.uow, self.record, state)
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
            out.extend(Piece(key=f"{w.id}.{n}", warrior_id=w.id, name=f"{w.name} {n}", role=str(w.role), leadership=w.profile.Ld,
                             rules=rules_heeded(w.special_rules))
                       for n in range(1, w.group_size + 1))
        else:
            out.append(Piece(key=str(w.id), warrior_id=w.id, name=w.name, role=str(w.role), leadership=w.profile.Ld,
                             rules=rules_heeded(w.special_rules)))
    return tuple(out)


def start_game(uow: UnitOfWork, actor: Actor, warbands: Sequence[str], *, scenario: GameScenario, when: str = "",
               channel_id: int | None = None) -> GameView:
    """A new game of these warbands (in turn order) under ``scenario``; the member starting it
    plays one of them, or has Manage Server."""
    names = [n for n in warbands if n and n.strip()]
    if not MIN_SIDES <= len(names) <= MAX_SIDES:
        raise MordheimError(f"A game needs {MIN_SIDES} to {MAX_SIDES} of this server's warbands; {len(names)} were given.",
                            hint="Name them in `warband1`, `warband2` (and `warband3`, `warband4`), in the order they play.")
    fit = scenario.fit_for(len(names))  # a scenario for two refuses a third; others note the multiplayer rules
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
    playing = {s.warband_id: r.id for r in running for s in state_of(uow, r).sides if s.fighting}
    sides = []
    for band in bands:
        if band.id in playing:
            raise MordheimError(f"{band.name} is already fighting in game #{playing[band.id]}.",
                                hint="End or cancel that game first (its tracker's buttons, or `/game cancel`).")
        waiting = uow.sequences.open_of(band.id)
        if waiting is not None and not uow.ledger.batch_undone(band.id, waiting.batch_id):  # as game_end.open_sequence
            raise MordheimError(f"{band.name} has a post-battle sequence still open: finish it before its next game.",
                                hint=f"`/postbattle resume warband:{band.name}` goes on with it; "
                                     f"`/postbattle cancel warband:{band.name}` gives it up.")
        warriors = uow.warriors.of_warband(band.id, band.name)
        pieces = pieces_of(warriors)
        if not pieces:
            raise MordheimError(f"{band.name} has no active warriors to fight with.", hint="Hire some with `/hire fighter`.")
        if len(pieces) > MAX_MODELS:
            raise LimitExceeded(f"{band.name} has {len(pieces)} models; the tracker follows at most {MAX_MODELS} a warband.")
        listed = tables_of(uow).warband_list(band)
        leader_rules = [r for w in warriors if w.is_active and w.role == Role.LEADER for r in w.special_rules]
        reach, rule = leader_range({*(r.id for r in (listed.special_rules if listed else ())), *leader_rules})
        sides.append(Side(warband_id=band.id, warband=band.name, owner_id=band.owner_id, pieces=pieces,
                          leader_range=reach, leader_range_rule=rule))
    state = GameState(scenario=scenario.name, scenario_id=scenario.scenario_id, scenario_summary=scenario.summary, when=when,
                      sides=tuple(sides), log=(*((scenario.rolled,) if scenario.rolled else ()), *((fit,) if fit else ()),
                                               f"Turn 1 · {sides[0].warband} goes first."))
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


# ---------------------------------------------------------------------- giving up
def check_may_cancel(uow: UnitOfWork, actor: Actor, game_id: int) -> GameView:
    """The game, if it is open and the member may give it up (the question /game cancel asks first)."""
    g = GamePress.open(uow, game_id)
    may_run(g.state, actor, doing="cancel it")
    return g.view()


def cancel_game(uow: UnitOfWork, actor: Actor, game_id: int) -> GameView:
    """Give up a game without recording a battle (it was started by mistake)."""
    g = GamePress.open(uow, game_id)
    may_run(g.state, actor, doing="cancel it")
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
