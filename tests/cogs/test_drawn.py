"""Components written straight as Discord's payload (cogs/_ui/drawn.py) are the dicts discord.ui writes:
each kind alone, and the marking panel whole, against the panel as discord.ui drew it before."""

from __future__ import annotations

from dataclasses import replace

import discord
import pytest

from cogs._ui.drawn import Drawn, action_row, button, menu, option
from cogs._ui.game_panel import (
    MAX_OPTIONS,
    PAGE,
    PANEL,
    PANEL_MENU,
    STATE_BUTTONS,
    panel_components,
    panel_id,
)
from engine.campaign.game_model import GameStatus
from engine.campaign.rules import game_rules
from engine.campaign.rules.game_state import (
    ANOTHER_ENEMY,
    NO_ONE,
    PieceState,
    piece_ref,
)
from tests.cogs.test_game_tracker_layout import _view


def test_a_button_an_option_and_a_menu_are_what_discord_ui_writes():
    for style in (discord.ButtonStyle.primary, discord.ButtonStyle.secondary, discord.ButtonStyle.danger):
        for disabled in (False, True):
            made = discord.ui.Button(label="Knocked down", custom_id="gp:set:1:2:0:7:knocked_down", style=style, disabled=disabled)
            assert button("Knocked down", "gp:set:1:2:0:7:knocked_down", style=style, disabled=disabled) == made.to_component_dict()
    assert option("Hans — standing", "7") == discord.SelectOption(label="Hans — standing", value="7").to_dict()
    options = [discord.SelectOption(label=f"Rat {n}", value=str(n)) for n in range(3)]
    made = discord.ui.Select(placeholder="Choose a warrior", custom_id="gps:pick:1:2:0::0", options=options)
    assert menu("gps:pick:1:2:0::0", "Choose a warrior", [option(f"Rat {n}", str(n)) for n in range(3)]) == made.to_component_dict()


def test_labels_are_cut_to_discords_lengths_and_a_row_or_menu_out_of_bounds_is_refused():
    assert len(button("W" * 120, "x")["label"]) == 80
    assert len(option("W" * 120, "v" * 120)["label"]) == 100 and len(option("W", "v" * 120)["value"]) == 100
    with pytest.raises(ValueError):
        action_row(*(button(str(n), str(n)) for n in range(6)))
    with pytest.raises(ValueError):
        menu("m", "p", [option(str(n), str(n)) for n in range(26)])
    with pytest.raises(ValueError):
        Drawn([action_row(button("a", "a"))] * 6)


def test_a_drawn_view_is_kept_by_nobody():
    ui = Drawn([action_row(button("a", "a"))])
    assert ui.to_components() == [{"type": 1, "components": [button("a", "a")]}]
    assert not ui.is_dispatchable() and not ui.children  # discord.py stores no copy of it for the message


# ---------------------------------------------------------------------- the panel, as discord.ui drew it
def _as_discord_ui_drew_it(view, side: int, key: str | None, page: int) -> list[dict]:
    ui = discord.ui.View(timeout=None)
    s = view.state.sides[side]
    piece = s.piece(key) if key else None
    if piece is None:
        pieces = s.pieces
        pages = -(-len(pieces) // PAGE) if len(pieces) > MAX_OPTIONS else 1
        page = min(max(page, 0), pages - 1)
        shown = pieces if pages == 1 else pieces[page * PAGE:(page + 1) * PAGE]
        options = [discord.SelectOption(label=(f"{p.name} — {p.state.words}" + (f", {p.counters} wyrdstone" if p.counters else ""))[:100],
                                        value=p.key) for p in shown]
        if pages > 1:
            nxt = (page + 1) % pages
            options.append(discord.SelectOption(label=f"More warriors… (page {nxt + 1} of {pages})", value=f"page{nxt}"))
        ui.add_item(discord.ui.Select(placeholder="Choose a warrior", custom_id=panel_id(PANEL_MENU, "pick", view, side, "", str(page)),
                                      options=options, row=0))
        return ui.to_components()
    at = s.pieces.index(piece)
    before, after = s.pieces[at - 1], s.pieces[(at + 1) % len(s.pieces)]
    ui.add_item(discord.ui.Button(label=f"◀ {before.name}"[:80], custom_id=panel_id(PANEL, "go", view, side, before.key), row=0))
    ui.add_item(discord.ui.Button(label="The list", custom_id=panel_id(PANEL, "list", view, side, piece.key), row=0))
    ui.add_item(discord.ui.Button(label=f"{after.name} ▶"[:80], custom_id=panel_id(PANEL, "go", view, side, after.key), row=0))
    if not view.is_open or not s.fighting:
        return ui.to_components()
    for st in STATE_BUTTONS:
        ui.add_item(discord.ui.Button(label=st.words.capitalize(), custom_id=panel_id(PANEL, "set", view, side, piece.key, str(st)),
                                      style=discord.ButtonStyle.primary if st == piece.state else discord.ButtonStyle.secondary,
                                      disabled=st == piece.state, row=1))
    takers = [discord.SelectOption(label=f"{p.name} ({other.warband})"[:100], value=piece_ref(n, p.key))
              for n, other in enumerate(view.state.sides) if n != side for p in other.pieces if p.is_hero][:MAX_OPTIONS - 2]
    takers.append(discord.SelectOption(label="Another enemy (a henchman, a hired sword…)", value=ANOTHER_ENEMY))
    takers.append(discord.SelectOption(label="No enemy (a fall, his own spell…)", value=NO_ONE))
    ui.add_item(discord.ui.Select(placeholder="Out of action — taken out by…", options=takers,
                                  custom_id=panel_id(PANEL_MENU, "ooa", view, side, piece.key), row=2))
    ui.add_item(discord.ui.Button(label="Not in this game", custom_id=panel_id(PANEL, "set", view, side, piece.key, "absent"),
                                  disabled=piece.state == PieceState.ABSENT or game_rules.why_in_the_fight(view.state, side, piece)
                                  is not None, row=3))
    ui.add_item(discord.ui.Button(label="+1 wyrdstone", custom_id=panel_id(PANEL, "wyrd", view, side, piece.key, "up"), row=3))
    ui.add_item(discord.ui.Button(label="−1 wyrdstone", custom_id=panel_id(PANEL, "wyrd", view, side, piece.key, "down"),
                                  disabled=piece.counters == 0, row=3))
    ui.add_item(discord.ui.Button(label="Roll a test…", custom_id=panel_id(PANEL, "tests", view, side, piece.key),
                                  disabled=piece.state in (PieceState.OUT_OF_ACTION, PieceState.ABSENT), row=3))
    return ui.to_components()


@pytest.mark.parametrize("sides,models,name_length", [(2, 20, 12), (4, 40, 64)])
def test_the_marking_panel_is_the_payload_discord_ui_drew(sides, models, name_length):
    playing = _view(sides, models, name_length)  # every state, wyrdstone carried, names cut, menus paged
    for view in (playing, replace(playing, status=GameStatus.ENDED)):
        for side in range(sides):
            for key in (None, *(p.key for p in view.state.sides[side].pieces)):
                for page in (0, 1):
                    assert panel_components(view, side, key, page).to_components() == _as_discord_ui_drew_it(view, side, key, page)
