"""The live battle tracker's verbs for the cogs: each opens one unit of work and calls one action.

``BattleTracker`` is built like ``Campaigns`` and ``PostBattle`` (engine/campaign/service.py) over
the same store: a changing verb runs its action (engine/campaign/actions/games.py,
game_marks.py, game_rout.py, game_end.py) in one writing unit of work for the member and
commits; a reading verb opens a reading unit. Every verb takes the server's id first and
touches only that server's games.

``rng`` rolls the dice players do not type in. ``scenarios`` is where a game's scenario is looked
up: the campaign's scenario table, once it is handed in (rules/game_scenario.py); without one, a
scenario is the text a player typed.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Sequence

from engine.campaign.actions import game_end, game_marks, game_rout, games
from engine.campaign.actions.games import GameView
from engine.campaign.actions.postbattle import SequenceView
from engine.campaign.actions.server_tables import tables_of
from engine.campaign.model import Actor
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules.game_scenario import (
    GameScenario,
    RulebookScenarios,
    ScenarioSource,
    scenario_for_game,
)
from engine.dice.source import Dice
from engine.campaign.service import (  # the campaign's one way of opening units of work
    Store,
    _utc_now,
    _Verbs,
)


def _actor(guild_id: int, actor_id: int, is_admin: bool = False) -> Actor:
    return Actor(guild_id=guild_id, member_id=actor_id, is_admin=is_admin)


class BattleTracker(_Verbs):
    """Every server's tracked games: one verb per press."""

    def __init__(self, store: Store, rng: random.Random | None = None, *, scenarios: ScenarioSource | None = None,
                 now: Callable[[], dt.datetime] = _utc_now) -> None:
        super().__init__(store, now=now)
        self.rng = rng or random.Random()
        self.scenarios = scenarios if scenarios is not None else RulebookScenarios()

    # ---- reading
    def get(self, guild_id: int, game_id: int) -> GameView:
        return self.read(guild_id, games.get_game, game_id)

    def open_games(self, guild_id: int) -> list[GameView]:
        return self.read(guild_id, games.open_games)

    def anyone_marks(self, guild_id: int) -> bool:
        return self.read(guild_id, games.anyone_marks)

    def scenario_choices(self, guild_id: int, prefix: str) -> list[GameScenario]:
        """Scenarios to offer while a player types (none until a scenario table is handed in)."""
        if self.scenarios is None:
            return []
        source = self.scenarios
        return self.read(guild_id, lambda uow: source.choices(tables_of(uow).rules, prefix))

    def may_mark(self, guild_id: int, actor_id: int, is_admin: bool, game_id: int, side: int) -> GameView:
        """The game, if the member may mark ``side``'s warriors in it now (else the refusal)."""
        return self.read(guild_id, lambda uow: games.check_may_mark(uow, _actor(guild_id, actor_id, is_admin), game_id, side))

    def may_run(self, guild_id: int, actor_id: int, is_admin: bool, game_id: int, tracker_version: int) -> GameView:
        """The game, if the member may run it (turns, undo, the end) and its tracker is at ``tracker_version``."""
        actor = _actor(guild_id, actor_id, is_admin)
        return self.read(guild_id, lambda uow: games.check_may_run(uow, actor, game_id, tracker_version))

    # ---- a game
    def start(self, guild_id: int, actor_id: int, is_admin: bool, warbands: Sequence[str], *, scenario: str = "",
              when: str = "", channel_id: int | None = None) -> GameView:
        source = self.scenarios

        def start_game(uow: UnitOfWork, actor: Actor) -> GameView:
            chosen = scenario_for_game(scenario, tables_of(uow).rules, source, Dice(self.rng))
            return games.start_game(uow, actor, warbands, scenario=chosen, when=when, channel_id=channel_id)

        return self.act(_actor(guild_id, actor_id, is_admin), start_game)

    def place_tracker(self, guild_id: int, actor_id: int, game_id: int, channel_id: int, message_id: int) -> None:
        return self.act(_actor(guild_id, actor_id), games.place_tracker, game_id, channel_id, message_id)

    def mark(self, guild_id: int, actor_id: int, is_admin: bool, game_id: int, version: int, side: int, key: str,
             state: str, *, taken_out_by: str = "") -> GameView:
        return self.act(_actor(guild_id, actor_id, is_admin), game_marks.mark, game_id, version, side, key, state,
                        taken_out_by=taken_out_by)

    def carry(self, guild_id: int, actor_id: int, is_admin: bool, game_id: int, version: int, side: int, key: str,
              change: int) -> GameView:
        return self.act(_actor(guild_id, actor_id, is_admin), game_marks.carry, game_id, version, side, key, change)

    def next_turn(self, guild_id: int, actor_id: int, is_admin: bool, game_id: int, tracker_version: int) -> GameView:
        return self.act(_actor(guild_id, actor_id, is_admin), game_marks.next_turn, game_id, tracker_version)

    def undo(self, guild_id: int, actor_id: int, is_admin: bool, game_id: int, tracker_version: int) -> GameView:
        return self.act(_actor(guild_id, actor_id, is_admin), game_marks.undo, game_id, tracker_version)

    def rout_test(self, guild_id: int, actor_id: int, is_admin: bool, game_id: int, tracker_version: int, *,
                  entered: str | None = None) -> GameView:
        """The Rout test: rolled (``entered`` None), or the two dice typed at the table."""
        return self.act(_actor(guild_id, actor_id, is_admin), game_rout.take_rout_test, game_id, tracker_version,
                        entered=entered, rng=self.rng)

    def rout_preview(self, guild_id: int, actor_id: int, is_admin: bool, game_id: int, tracker_version: int, *,
                     entered: str) -> game_rout.RoutResult:
        """What the Rout test with these typed dice gives, storing nothing (a reading unit)."""
        actor = _actor(guild_id, actor_id, is_admin)
        return self.read(guild_id, lambda uow: game_rout.rout_preview(uow, actor, game_id, tracker_version, entered=entered))

    def may_rout(self, guild_id: int, actor_id: int, is_admin: bool, game_id: int, tracker_version: int) -> GameView:
        """The game, if a Rout test is due and the member may take it (else the refusal)."""
        actor = _actor(guild_id, actor_id, is_admin)
        return self.read(guild_id, lambda uow: game_rout.check_may_rout(uow, actor, game_id, tracker_version))

    def rout_voluntarily(self, guild_id: int, actor_id: int, is_admin: bool, game_id: int, tracker_version: int) -> GameView:
        return self.act(_actor(guild_id, actor_id, is_admin), game_rout.rout_voluntarily, game_id, tracker_version)

    def roll_test(self, guild_id: int, actor_id: int, is_admin: bool, game_id: int, side: int, key: str, test: str, *,
                  leaders: bool = False, entered: str | None = None) -> game_rout.TestRoll:
        """A Leadership test for one warrior: rolled (``entered`` None) or typed. A Rally test is written
        in the game, so it takes a writing unit; the others change nothing and only read."""
        actor = _actor(guild_id, actor_id, is_admin)
        if test == game_rout.RALLY:
            return self.act(actor, game_rout.roll_test, game_id, side, key, test, leaders=leaders, entered=entered, rng=self.rng)
        return self.read(guild_id, lambda uow: game_rout.roll_test(uow, actor, game_id, side, key, test, leaders=leaders,
                                                                    entered=entered, rng=self.rng))

    def end(self, guild_id: int, actor_id: int, is_admin: bool, game_id: int, tracker_version: int, *,
            winner: int | None) -> GameView:
        return self.act(_actor(guild_id, actor_id, is_admin), game_end.end_game, game_id, tracker_version, winner=winner)

    def sequence_after(self, guild_id: int, actor_id: int, is_admin: bool, game_id: int, side: int) -> SequenceView:
        return self.act(_actor(guild_id, actor_id, is_admin), game_end.sequence_after_game, game_id, side)

    def may_cancel(self, guild_id: int, actor_id: int, is_admin: bool, game_id: int) -> GameView:
        """The game, if it is open and the member may give it up (the question before /game cancel)."""
        actor = _actor(guild_id, actor_id, is_admin)
        return self.read(guild_id, lambda uow: games.check_may_cancel(uow, actor, game_id))

    def cancel(self, guild_id: int, actor_id: int, is_admin: bool, game_id: int) -> GameView:
        return self.act(_actor(guild_id, actor_id, is_admin), games.cancel_game, game_id)

    # ---- the server's setting
    def set_anyone_marks(self, guild_id: int, actor_id: int, is_admin: bool, on: bool) -> bool:
        return self.act(_actor(guild_id, actor_id, is_admin), games.set_anyone_marks, on)
