"""A player's private panel for marking one warband's warriors on the battle tracker.

Opened by the tracker's "Mark: <warband>" button, seen only by the member who pressed it: a menu
of the warband's models (24 a page); then the chosen model's state as buttons, a menu of who took
him out of action (the other warbands' heroes: a hero's kills are his experience), his wyrdstone
counters, the previous and next model, and a button that opens his Leadership tests. Each mark
draws the panel again, so the model's part is kept small (the list is a press away) and written
straight as Discord's payload (cogs/_ui/drawn.py). Every component's custom_id carries the game, the version the panel was drawn at, the warband's place in the game and the model
(``gp:<action>:<game>:<version>:<side>:<key>[:<arg>]``, menus ``gps:``), so the panel works after
a restart, and a mark on a model someone changed since is refused (cogs/game.py answers them).
"""

from __future__ import annotations

import discord

from cogs._ui.campaign import safe
from cogs._ui.drawn import Component, Drawn, action_row, button, menu, option
from cogs._ui.embeds import INFO, SUCCESS
from cogs._ui.game_tracker import done_drawing
from engine.campaign.actions.game_rout import TestRoll
from engine.campaign.actions.games import GameView
from engine.campaign.rules import game_rules
from engine.campaign.rules.game_state import (
    ANOTHER_ENEMY,
    NO_ONE,
    Piece,
    PieceState,
    piece_ref,
)

PANEL = "gp"
PANEL_MENU = "gps"
PAGE = 24  # models a page of the menu (the 25th option turns the page)
MAX_OPTIONS = 25
STATE_BUTTONS = (PieceState.STANDING, PieceState.KNOCKED_DOWN, PieceState.STUNNED, PieceState.FLED, PieceState.HIDDEN)
STATE_LABELS = {st: st.words.capitalize() for st in PieceState}
TYPED = "typed"  # a test button's last word: dice rolled at the table
ROLLED = "rolled"  # the bot rolls


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
        lines.append("Out of action: choose who took him out in the menu (a hero's kills are his experience). "
                     "◀ ▶ go through the warband; **The list** chooses another.")
    if note:
        lines.append(note)
    colour = SUCCESS if note else INFO
    return discord.Embed(title=f"Marking {s.warband} — game #{view.id}, turn {view.state.turn}"[:256],
                         description="\n".join(lines), colour=colour)


def panel_components(view: GameView, side: int, key: str | None, page: int = 0) -> discord.ui.View:
    """The list of the warband's models (``key`` None), or one model's marks: a small message, as
    every mark draws it again, written straight as Discord's payload (cogs/_ui/drawn.py: each of
    its components is answered through its DynamicItem, cogs/game.py)."""
    s = view.state.sides[side]
    piece = s.piece(key) if key else None
    return Drawn(_list(view, side, page) if piece is None else _warrior(view, side, piece))


def _list(view: GameView, side: int, page: int) -> list[Component]:
    pieces = view.state.sides[side].pieces
    pages = -(-len(pieces) // PAGE) if len(pieces) > MAX_OPTIONS else 1
    page = min(max(page, 0), pages - 1)
    shown = pieces if pages == 1 else pieces[page * PAGE:(page + 1) * PAGE]
    options = [option(_piece_words(p), p.key) for p in shown]
    if pages > 1:
        nxt = (page + 1) % pages
        options.append(option(f"More warriors… (page {nxt + 1} of {pages})", f"page{nxt}"))
    return [action_row(menu(panel_id(PANEL_MENU, "pick", view, side, "", str(page)), "Choose a warrior", options))]


def _warrior(view: GameView, side: int, piece: Piece) -> list[Component]:
    s = view.state.sides[side]
    at = s.position(piece.key) or 0  # he is one of them
    before, after = s.pieces[at - 1], s.pieces[(at + 1) % len(s.pieces)]
    rows = [action_row(button(f"◀ {before.name}", panel_id(PANEL, "go", view, side, before.key)),
                       button("The list", panel_id(PANEL, "list", view, side, piece.key)),
                       button(f"{after.name} ▶", panel_id(PANEL, "go", view, side, after.key)))]
    if not view.is_open or not s.fighting:
        return rows
    marks = panel_id(PANEL, "set", view, side, piece.key)
    rows.append(action_row(*(button(STATE_LABELS[st], f"{marks}:{st}", disabled=st == piece.state,
                                    style=discord.ButtonStyle.primary if st == piece.state else discord.ButtonStyle.secondary)
                             for st in STATE_BUTTONS)))
    rows.append(action_row(menu(panel_id(PANEL_MENU, "ooa", view, side, piece.key), "Out of action — taken out by…",
                                _takers(view, side))))
    absent_ok = piece.state != PieceState.ABSENT and not game_rules.took_part(view.state, side, piece)
    rows.append(action_row(button("Not in this game", f"{marks}:absent", disabled=not absent_ok),
                           button("+1 wyrdstone", panel_id(PANEL, "wyrd", view, side, piece.key, "up")),
                           button("−1 wyrdstone", panel_id(PANEL, "wyrd", view, side, piece.key, "down"),
                                  disabled=piece.counters == 0),
                           button("Roll a test…", panel_id(PANEL, "tests", view, side, piece.key),
                                  disabled=piece.state in (PieceState.OUT_OF_ACTION, PieceState.ABSENT))))
    return rows


def _takers(view: GameView, side: int) -> list[Component]:
    """Who may have taken a model of ``side`` out of action: every hero of the other warbands
    (four warbands of six heroes at most: 18), another enemy, or no enemy."""
    options = [option(f"{p.name} ({other.warband})", piece_ref(n, p.key))
               for n, other in enumerate(view.state.sides) if n != side for p in other.heroes]
    options = options[:MAX_OPTIONS - 2]
    options.append(option("Another enemy (a henchman, a hired sword…)", ANOTHER_ENEMY))
    options.append(option("No enemy (a fall, his own spell…)", NO_ONE))
    return options


def tests_panel(view: GameView, side: int, key: str) -> tuple[discord.Embed, discord.ui.View]:
    """One warrior's Leadership tests (rules/game_rules.py ``LEADERSHIP_TESTS``): a row rolled by
    the bot and a row with the dice rolled at the table, against his Leadership and, when his
    leader may lend his and it is better, against the leader's (000:829-831)."""
    s = view.state.sides[side]
    piece = s.piece(key)
    if piece is None:
        raise ValueError(f"no model {key} in side {side}")
    leader = game_rules.leader_to_lend(s)
    lend = leader is not None and leader.key != piece.key and leader.leadership > piece.leadership
    offered = game_rules.tests_for(piece)
    lines = ["2D6 equal to or under his Leadership passes (000:257). The result is posted for the table."]
    lines += [f"**{t.name}** ({t.source}): {t.when}." for t in offered]
    spared = [(t, game_rules.immune_because(piece, t.id)) for t in game_rules.LEADERSHIP_TESTS]
    lines += [f"No {t.name}: {why}." for t, why in spared if why]
    if piece.state != PieceState.FLED:
        lines.append("A Rally test is for a fleeing warrior, in his recovery phase (000:297): mark him Fled first.")
    if lend and leader is not None:
        rule = f"; {s.leader_range_rule}" if s.leader_range_rule else ""
        lines.append(f"Within {s.leader_range}\" of {safe(leader.name)} he may use his Ld {leader.leadership} (000:829{rule}).")
    embed = discord.Embed(title=f"Tests for {piece.name} (Ld {piece.leadership})"[:256], description="\n".join(lines), colour=INFO)
    ui = discord.ui.View(timeout=None)
    rows = [("own", ROLLED), ("own", TYPED)] + ([("leader", ROLLED), ("leader", TYPED)] if lend else [])
    for row, (whose, how) in enumerate(rows):
        for t in offered:
            label = t.name.replace(" test", "") + (f", Ld {leader.leadership}" if whose == "leader" and leader else "")
            label += " (table dice)" if how == TYPED else ""
            ui.add_item(discord.ui.Button(label=label[:80], custom_id=panel_id(PANEL, "test", view, side, key, f"{t.id}-{whose}-{how}"),
                                          style=discord.ButtonStyle.primary if how == ROLLED else discord.ButtonStyle.secondary,
                                          row=row))
    return embed, done_drawing(ui)


def test_embed(roll: TestRoll, who: str) -> discord.Embed:
    check = roll.check
    verdict = "passed" if check.passed else "failed"
    text = (f"**{safe(roll.warrior)}** ({safe(roll.warband)}) against Ld {roll.leadership}, {safe(roll.whose)}: "
            f"2D6 ({', '.join(str(d.face) for d in check.dice)}) = {check.score} — **{verdict}**.\n"
            f"{roll.test.name}: {roll.test.when} ({roll.test.source}).")
    if roll.rallied:
        text += "\nHe stops fleeing and is marked standing on the tracker (000:297)."
    elif roll.logged:
        text += "\nHe flees on; the tracker's Latest shows the test."
    if roll.rolls:
        text += "\n" + "; ".join(safe(r) for r in roll.rolls)
    embed = discord.Embed(title=f"{roll.test.name} for {roll.warrior}"[:256], description=text, colour=SUCCESS if check.passed else INFO)
    embed.set_footer(text=f"Rolled from the battle tracker by {who}"[:2048])
    return embed
