"""A player's private panel for marking one warband's warriors on the battle tracker.

Opened by the tracker's "Mark: <warband>" button, seen only by the member who pressed it: a menu
of the warband's models (24 a page), the chosen model's state as buttons, a menu of who took him
out of action (the other warbands' heroes: a hero's kills are his experience), his wyrdstone
counters, and a menu of Leadership tests to roll for him. Every component's custom_id carries the
game, the version the panel was drawn at, the warband's place in the game and the model
(``gp:<action>:<game>:<version>:<side>:<key>[:<arg>]``, menus ``gps:``), so the panel works after
a restart, and a mark on a model someone changed since is refused (cogs/game.py answers them).
"""

from __future__ import annotations

import discord

from cogs._ui.campaign import safe
from cogs._ui.embeds import INFO, SUCCESS
from engine.campaign.actions.game_rout import TestRoll
from engine.campaign.actions.games import GameView
from engine.campaign.rules import game_rules
from engine.campaign.rules.game_state import ANOTHER_ENEMY, NO_ONE, Piece, PieceState, piece_ref

PANEL = "gp"
PANEL_MENU = "gps"
PAGE = 24  # models a page of the menu (the 25th option turns the page)
MAX_OPTIONS = 25
STATE_BUTTONS = (PieceState.STANDING, PieceState.KNOCKED_DOWN, PieceState.STUNNED, PieceState.FLED, PieceState.HIDDEN)
TYPED = "typed"  # a test's menu value ending: dice rolled at the table


def panel_id(kind: str, action: str, view: GameView, side: int, key: str = "", arg: str = "") -> str:
    return f"{kind}:{action}:{view.id}:{view.version}:{side}:{key}" + (f":{arg}" if arg else "")


def _piece_words(p: Piece) -> str:
    return f"{p.name} — {p.state.words}" + (f", {p.counters} wyrdstone" if p.counters else "")


def panel_embed(view: GameView, side: int, key: str | None, *, note: str = "") -> discord.Embed:
    s = view.state.sides[side]
    lines = []
    piece = s.piece(key) if key else None
    if piece is None:
        lines.append("Choose a warrior in the menu, then his state. Only you see this panel; the tracker shows every mark.")
    else:
        kind = {"leader": "leader", "hero": "hero", "hired_sword": "hired sword"}.get(piece.role, "henchman")
        lines.append(f"**{safe(piece.name)}** ({kind}, Ld {piece.leadership}): **{piece.state.words}**"
                     + (f", carries {piece.counters} wyrdstone" if piece.counters else ""))
        if piece.state == PieceState.OUT_OF_ACTION and piece.taken_out_by:
            lines.append(f"Taken out by {safe(game_rules.taker_words(view.state, piece.taken_out_by))}.")
        lines.append("Out of action: choose who took him out in the menu (a hero's kills are his experience).")
    if note:
        lines.append(note)
    colour = SUCCESS if note else INFO
    return discord.Embed(title=f"Marking {s.warband} — game #{view.id}, turn {view.state.turn}"[:256],
                         description="\n".join(lines), colour=colour)


def panel_components(view: GameView, side: int, key: str | None, page: int = 0) -> discord.ui.View:
    ui = discord.ui.View(timeout=None)
    s = view.state.sides[side]
    pieces = s.pieces
    pages = max(1, -(-len(pieces) // PAGE)) if len(pieces) > MAX_OPTIONS else 1
    page = min(max(page, 0), pages - 1)
    shown = pieces if pages == 1 else pieces[page * PAGE:(page + 1) * PAGE]
    options = [discord.SelectOption(label=_piece_words(p)[:100], value=p.key, default=p.key == key) for p in shown]
    if pages > 1:
        nxt = (page + 1) % pages
        options.append(discord.SelectOption(label=f"More warriors… (page {nxt + 1} of {pages})", value=f"page{nxt}"))
    ui.add_item(discord.ui.Select(placeholder="Choose a warrior", custom_id=panel_id(PANEL_MENU, "pick", view, side, "", str(page)),
                                  options=options, row=0))
    piece = s.piece(key) if key else None
    if piece is None or not view.is_open or not s.fighting:
        return ui
    for st in STATE_BUTTONS:
        ui.add_item(discord.ui.Button(label=st.words.capitalize(), custom_id=panel_id(PANEL, "set", view, side, piece.key, str(st)),
                                      style=discord.ButtonStyle.primary if st == piece.state else discord.ButtonStyle.secondary,
                                      disabled=st == piece.state, row=1))
    ui.add_item(discord.ui.Select(placeholder="Out of action — taken out by…", options=_takers(view, side),
                                  custom_id=panel_id(PANEL_MENU, "ooa", view, side, piece.key), row=2))
    ui.add_item(discord.ui.Button(label="Not in this game", custom_id=panel_id(PANEL, "set", view, side, piece.key, "absent"),
                                  disabled=piece.state == PieceState.ABSENT, row=3))
    ui.add_item(discord.ui.Button(label="+1 wyrdstone", custom_id=panel_id(PANEL, "wyrd", view, side, piece.key, "up"), row=3))
    ui.add_item(discord.ui.Button(label="−1 wyrdstone", custom_id=panel_id(PANEL, "wyrd", view, side, piece.key, "down"),
                                  disabled=piece.counters == 0, row=3))
    if piece.state not in (PieceState.OUT_OF_ACTION, PieceState.ABSENT):
        ui.add_item(discord.ui.Select(placeholder=f"Roll a test for {piece.name}…"[:150], options=_tests(view, side, piece),
                                      custom_id=panel_id(PANEL_MENU, "test", view, side, piece.key), row=4))
    return ui


def _takers(view: GameView, side: int) -> list[discord.SelectOption]:
    """Who may have taken a model of ``side`` out of action: every hero of the other warbands
    (four warbands of six heroes at most: 18), another enemy, or no enemy."""
    options = [discord.SelectOption(label=f"{p.name} ({other.warband})"[:100], value=piece_ref(n, p.key))
               for n, other in enumerate(view.state.sides) if n != side for p in other.pieces if p.is_hero]
    options = options[:MAX_OPTIONS - 2]
    options.append(discord.SelectOption(label="Another enemy (a henchman, a hired sword…)", value=ANOTHER_ENEMY))
    options.append(discord.SelectOption(label="No enemy (a fall, his own spell…)", value=NO_ONE))
    return options


def _tests(view: GameView, side: int, piece: Piece) -> list[discord.SelectOption]:
    leader = game_rules.leader_to_lend(view.state.sides[side])
    lend = leader is not None and leader.key != piece.key and leader.leadership > piece.leadership
    options = []
    for t in game_rules.LEADERSHIP_TESTS:
        for whose in (("own", "leader") if lend else ("own",)):
            ld = leader.leadership if whose == "leader" and leader is not None else piece.leadership
            words = f"{t.name}, Ld {ld}" + (" (his leader's, within 6\")" if whose == "leader" else "")
            options.append(discord.SelectOption(label=words[:100], value=f"{t.id}:{whose}", description=t.when[:100]))
            options.append(discord.SelectOption(label=f"{words} — dice rolled at the table"[:100], value=f"{t.id}:{whose}:{TYPED}"))
    return options[:MAX_OPTIONS]


def test_embed(roll: TestRoll, who: str) -> discord.Embed:
    check = roll.check
    verdict = "passed" if check.passed else "failed"
    text = (f"**{safe(roll.warrior)}** ({safe(roll.warband)}) against Ld {roll.leadership}, {safe(roll.whose)}: "
            f"{check.render()} — **{verdict}**.\n{roll.test.name}: {roll.test.when} ({roll.test.source}).")
    if roll.rolls:
        text += "\n" + "; ".join(safe(r) for r in roll.rolls)
    embed = discord.Embed(title=f"{roll.test.name} for {roll.warrior}"[:256], description=text, colour=SUCCESS if check.passed else INFO)
    embed.set_footer(text=f"Rolled from the battle tracker by {who}"[:2048])
    return embed
