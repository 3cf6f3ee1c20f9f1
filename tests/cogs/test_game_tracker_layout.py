"""The tracker message stays within Discord's limits for every game the engine allows: two warbands
of twenty listed in full, four of forty with the longest names shortened or counted, and the
panels' menus within 25 options."""

from __future__ import annotations

import itertools

import discord

from cogs._ui.game_panel import panel_components
from cogs._ui.game_tracker import tracker_components, tracker_embeds
from engine.campaign.actions.games import MAX_MODELS, MAX_SIDES, GameView
from engine.campaign.game_model import GameStatus
from engine.campaign.rules.game_state import Change, GameState, Piece, PieceState, Side

STATES = itertools.cycle(list(PieceState))


def _side(n: int, models: int, name_length: int) -> Side:
    pieces = []
    for m in range(models):
        role = "leader" if m == 0 else "hero" if m < 6 else "henchmen"
        state = next(STATES)
        pieces.append(Piece(key=f"{n * 100 + m}", warrior_id=n * 100 + m, name=(f"{m:02d} " + "W" * name_length)[:name_length],
                            role=role, leadership=7, state=state, counters=m % 3,
                            taken_out_by=f"{(n + 1) % 2}:{(n + 1) % 2 * 100 + 1}" if state == PieceState.OUT_OF_ACTION else ""))
    return Side(warband_id=n, warband=("B" * 64)[:64], owner_id=n + 1, pieces=tuple(pieces))


def _view(sides: int, models: int, name_length: int) -> GameView:
    state = GameState(scenario="S" * 64, scenario_summary="x" * 300, when="w" * 60, rout_due=True,
                      sides=tuple(_side(n, models, name_length) for n in range(sides)), log=tuple("L" * 200 for _ in range(8)),
                      history=(Change(kind="mark", side=0, before={"key": "1", "state": "standing"},
                                      after={"key": "1", "state": "stunned"}),))
    return GameView(id=1, guild_id=1, channel_id=1, message_id=1, version=3, status=GameStatus.OPEN, state=state, started_by=1,
                    rolls=("Rout test of B: 2D6 6+6 = 12",))


def _fits(embeds: list[discord.Embed]) -> None:
    total = sum(len(e.title or "") + len(e.description or "") + len(e.footer.text or "") for e in embeds)
    assert len(embeds) <= 10 and total <= 6000
    assert all(len(e.description or "") <= 4096 and len(e.title or "") <= 256 for e in embeds)


def _components_fit(ui: discord.ui.View) -> None:
    rows = ui.to_components()
    assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows)
    for row in rows:
        for c in row["components"]:
            assert len(c["custom_id"]) <= 100 and len(c.get("label", "")) <= 80
            assert len(c.get("options", [])) <= 25


def test_two_warbands_of_twenty_are_listed_in_full():
    view = _view(2, 20, 30)
    embeds = tracker_embeds(view)
    _fits(embeds)
    text = "\n".join(e.description or "" for e in embeds)
    assert all(p.name in text for s in view.state.sides for p in s.pieces)
    _components_fit(tracker_components(view))


def test_four_warbands_of_the_most_models_with_the_longest_names_still_fit():
    view = _view(MAX_SIDES, MAX_MODELS, 64)
    embeds = tracker_embeds(view)
    _fits(embeds)
    assert len(embeds) == 1 + MAX_SIDES
    _components_fit(tracker_components(view))
    for side in range(MAX_SIDES):
        for key in (None, view.state.sides[side].pieces[-1].key):
            for page in (0, 1):
                _components_fit(panel_components(view, side, key, page))
