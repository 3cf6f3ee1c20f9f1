"""How a game looks on the live battle tracker: one public message, a header and one embed per warband,
and the buttons of the table (mark, next turn, undo, the Rout test, the end).

Within Discord's limits for any game the engine allows (four warbands of up to 40 models): at
most 5 embeds, each description under 4,096 characters and all of them under 6,000. The models
are listed by state ("Knocked down: Hans, Marksmen 2"); when the whole would not fit, names are
shortened, then each state only counted (``tracker_embeds``).

Every button is a ``DynamicItem`` whose custom_id carries the game and the tracker's version it
was drawn at (``gt:<action>:<game>:<version>[:<arg>]``), answered by cogs/game.py, after a restart
too. A mark does not change the buttons (engine/campaign/actions/games.py), so a mark edits only
the embeds.
"""

from __future__ import annotations

from functools import lru_cache

import discord

from cogs._ui.campaign import safe
from cogs._ui.embeds import EMBED_DESCRIPTION_LIMIT, FAILURE, INFO, NEUTRAL, SUCCESS
from engine.campaign.actions.games import GameView
from engine.campaign.game_model import GameStatus
from engine.campaign.rules import game_rules
from engine.campaign.rules.game_state import GameState, Piece, PieceState, Side
from engine.dice.source import parse_entered
from engine.words import possessive

TRACKER = "gt"
TOTAL_LIMIT = 6000  # every embed of one message together
SHOWN_ORDER = (PieceState.STANDING, PieceState.HIDDEN, PieceState.KNOCKED_DOWN, PieceState.STUNNED, PieceState.FLED,
               PieceState.OUT_OF_ACTION, PieceState.ABSENT)
LATEST_SHOWN = 5
SHORT_NAME = 14  # characters of a name when the full list would not fit


def tracker_id(action: str, view: GameView, arg: str = "") -> str:
    return f"{TRACKER}:{action}:{view.id}:{view.tracker_version}" + (f":{arg}" if arg else "")


# Names are escaped for every redraw of the tracker, and they are the same names again and again.
safe_name = lru_cache(maxsize=4096)(safe)


def done_drawing(ui: discord.ui.View) -> discord.ui.View:
    """``ui`` as a layout only: each of its buttons is answered through its DynamicItem (cogs/game.py),
    so discord.py need not register this copy of them for the message it is sent with."""
    ui.stop()
    return ui




# ---------------------------------------------------------------------- the embeds
def _rout_line(state: GameState) -> str:
    side = state.sides[state.side]
    leader = game_rules.rout_leader(side)
    count = (f"{game_rules.out_of_action(side)} of {game_rules.models(side)} out of action; due at "
             f"{game_rules.rout_threshold(side)}")
    chief = next((p for p in side.pieces if p.role == "leader"), None)
    why = f"{safe(chief.name)}, the leader, is {chief.state.words}" if chief is not None else "the warband has no leader"
    if leader is None:
        who = f"nobody is left who may take it ({why}; 000:819-821), so it fails"
    elif leader.role == "leader":
        who = f"against Ld {leader.leadership} ({safe(leader.name)}, the leader)"
    else:
        who = f"against Ld {leader.leadership} ({safe(leader.name)}: {why}, 000:819-821)"
    return (f"⚠️ **{safe(side.warband)} must take a Rout test** ({count}), {who}: 2D6 equal to or under it (000:813-817). "
            "It comes at the start of the turn, before the recovery phase. Or rout voluntarily (000:825).")


def header_embed(view: GameView) -> discord.Embed:
    state = view.state
    if view.status == GameStatus.OPEN:
        title = f"Game #{view.id} — turn {state.turn}, {possessive(state.sides[state.side].warband)} turn"
        colour = FAILURE if state.rout_due else INFO
    elif view.status == GameStatus.ENDED:
        title, colour = f"Game #{view.id} — over", SUCCESS
    else:
        title, colour = f"Game #{view.id} — cancelled", NEUTRAL
    lines = [f"**Scenario:** {safe(state.scenario)}" + (f" — {safe(state.scenario_summary)}" if state.scenario_summary else "")]
    if state.when:
        lines.append(f"**When:** {safe(state.when)}")
    if view.status == GameStatus.OPEN and state.rout_due:
        lines.append(_rout_line(state))
    if view.rolls:
        lines.append("**Dice:** " + "; ".join(view.rolls))
    latest = state.log[-LATEST_SHOWN:]
    if latest:
        lines += ["", "**Latest**"] + [safe(x) for x in latest]
    embed = discord.Embed(title=title[:256], description="\n".join(lines)[:EMBED_DESCRIPTION_LIMIT], colour=colour)
    if view.status == GameStatus.OPEN:
        embed.set_footer(text="Each player marks his own warband with its button · Next turn passes the turn: its Rout "
                              f"test when due (000:813), then its recovery phase (000:301) · game #{view.id}")
    return embed


def _label(state: GameState, side: int, p: Piece, kills: dict[int, int], short: bool) -> str:
    name = p.name if not short or len(p.name) <= SHORT_NAME else p.name[:SHORT_NAME - 1] + "…"
    bits = []
    if p.counters:
        bits.append(f"{p.counters} wyrdstone")
    took = kills.get(p.warrior_id, 0) if p.is_hero else 0
    if took and not short:
        bits.append(f"took out {took}")
    if p.state == PieceState.OUT_OF_ACTION and p.taken_out_by and not short:
        by = game_rules.taker_words(state, p.taken_out_by)
        if by:
            bits.append(f"by {by}")
    return safe_name(name) + (f" ({', '.join(safe_name(b) for b in bits)})" if bits else "")


# Side texts drawn lately: a mark changes one warband, and the other's text (with the kills of its
# heroes) is drawn the same again. Keyed by the side's identity (states are frozen; the entry holds
# the side, so its id cannot be reused meanwhile), what it shows of the others, and the detail.
_DRAWN: dict[tuple[int, tuple[tuple[int, int], ...], tuple[str, ...], int], tuple[Side, str]] = {}
DRAWN_KEPT = 256


def side_text(state: GameState, n: int, *, detail: int = 2) -> str:
    """One warband's part of the tracker. ``detail`` 2: every model by name with what he carries,
    who took him out and whom he took out; 1: names shortened; 0: each state counted."""
    side = state.sides[n]
    kills = game_rules.kills(state, n)
    takers = tuple(game_rules.taker_words(state, p.taken_out_by) for p in side.pieces if p.taken_out_by)
    key = (id(side), tuple(sorted(kills.items())), takers, detail)
    drawn = _DRAWN.get(key)
    if drawn is not None and drawn[0] is side:
        return drawn[1]
    text = _side_text(state, n, side, kills, detail)
    if len(_DRAWN) >= DRAWN_KEPT:
        del _DRAWN[next(iter(_DRAWN))]
    _DRAWN[key] = (side, text)
    return text


def _side_text(state: GameState, n: int, side: Side, kills: dict[int, int], detail: int) -> str:
    carried = sum(p.counters for p in side.pieces)
    head = (f"<@{side.owner_id}> · **out of action {game_rules.out_of_action(side)} of {game_rules.models(side)}** "
            f"(Rout test at {game_rules.rout_threshold(side)})")
    if carried:
        head += f" · wyrdstone carried: {carried}"
    lines = [head]
    for st in SHOWN_ORDER:
        pieces = [p for p in side.pieces if p.state == st]
        if not pieces:
            continue
        if detail == 0:
            lines.append(f"**{st.words.capitalize()}:** {len(pieces)}")
        else:
            lines.append(f"**{st.words.capitalize()}:** " + ", ".join(_label(state, n, p, kills, detail == 1) for p in pieces))
    return "\n".join(lines)


def _side_title(view: GameView, side: Side) -> str:
    title = side.warband
    if side.result:
        title += {"win": " — won", "loss": " — lost", "draw": " — drew"}.get(side.result, "")
    if not side.fighting:
        title += f" ({side.rout_note} on turn {side.left_on_turn})"
    return title[:256]


def tracker_embeds(view: GameView) -> list[discord.Embed]:
    """The header and one embed per warband, as detailed as fits in one message."""
    header = header_embed(view)
    budget = TOTAL_LIMIT - len(header.title or "") - len(header.description or "") - len(header.footer.text or "")
    titles = [_side_title(view, s) for s in view.state.sides]
    texts: list[str] = []
    for detail in (2, 1, 0):
        texts = [side_text(view.state, n, detail=detail) for n in range(len(view.state.sides))]
        if all(len(t) <= EMBED_DESCRIPTION_LIMIT for t in texts) and sum(map(len, texts)) + sum(map(len, titles)) <= budget:
            break
    share = max(200, budget // max(1, len(texts)) - 256)
    embeds = [header]
    for side, title, text in zip(view.state.sides, titles, texts):
        colour = NEUTRAL if side.fighting else FAILURE
        embeds.append(discord.Embed(title=title, description=text if len(text) <= share else text[:share - 1] + "…", colour=colour))
    return embeds


# ---------------------------------------------------------------------- the buttons
def _button(label: str, action: str, view: GameView, arg: str = "", *, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
            row: int, disabled: bool = False) -> discord.ui.Button:
    return discord.ui.Button(label=label[:80], custom_id=tracker_id(action, view, arg), style=style, row=row, disabled=disabled)


def tracker_components(view: GameView) -> discord.ui.View:
    ui = discord.ui.View(timeout=None)
    state = view.state
    if view.status == GameStatus.ENDED:
        for n, side in enumerate(state.sides):
            if side.battle_id is not None:
                ui.add_item(_button(f"Post-battle: {side.warband}", "post", view, str(n), style=discord.ButtonStyle.primary, row=0))
        return done_drawing(ui)
    if view.status != GameStatus.OPEN:
        return done_drawing(ui)
    for n, side in enumerate(state.sides):
        if side.fighting:
            ui.add_item(_button(f"Mark: {side.warband}", "mark", view, str(n), row=0))
    ui.add_item(_button("Next turn", "next", view, style=discord.ButtonStyle.primary, row=1))
    ui.add_item(_button("Undo the last mark", "undo", view, row=1))
    ui.add_item(_button("End the game", "end", view, style=discord.ButtonStyle.danger, row=1))
    if state.rout_due:
        leader = game_rules.rout_leader(state.sides[state.side])
        ld = f" (Ld {leader.leadership})" if leader is not None else ""
        ui.add_item(_button(f"Roll the Rout test{ld}", "rout", view, style=discord.ButtonStyle.primary, row=2))
        ui.add_item(_button("Rout test: dice rolled at the table", "routdice", view, row=2))
        ui.add_item(_button("Rout voluntarily", "flee", view, style=discord.ButtonStyle.danger, row=2))
    return done_drawing(ui)


def end_panel(view: GameView) -> tuple[discord.Embed, discord.ui.View]:
    """The private question after End: who won (the warbands still fighting), or a draw."""
    state = view.state
    left = [state.sides[n].warband for n in state.fighting]
    routed = [f"{s.warband} ({s.rout_note})" for s in state.sides if not s.fighting]
    text = ("Who won? Every warband's battle is recorded with its result, and its post-battle sequence opens with who "
            "went out of action and each hero's kills filled in." + (f"\nLost already: {', '.join(routed)}." if routed else ""))
    embed = discord.Embed(title=f"End game #{view.id}"[:256], description=safe(text), colour=INFO)
    embed.set_footer(text="Still fighting: " + ", ".join(left))
    ui = discord.ui.View(timeout=None)
    for n in state.fighting:
        ui.add_item(_button(f"{state.sides[n].warband} won", "won", view, str(n), style=discord.ButtonStyle.success, row=0))
    if len(state.fighting) > 1:
        ui.add_item(_button("A draw", "won", view, "draw", row=0))
    return embed, done_drawing(ui)


def flee_panel(view: GameView) -> tuple[discord.Embed, discord.ui.View]:
    """The private question before a voluntary rout: it takes the warband out of the game for good
    (and, of two, ends the game), so it is confirmed or dropped."""
    side = view.state.sides[view.state.side]
    text = (f"**{safe(side.warband)}** leaves the game and loses it (000:825). This cannot be undone from the tracker"
            + (": it ends the game, records every warband's battle and opens the post-battle sequences."
               if len(view.state.fighting) == 2 else ".")
            + "\nOr take the Rout test instead, with the tracker's buttons.")
    embed = discord.Embed(title=f"Rout {side.warband} voluntarily?"[:256], description=text, colour=FAILURE)
    ui = discord.ui.View(timeout=None)
    ui.add_item(_button(f"Rout {side.warband} voluntarily", "fleeok", view, style=discord.ButtonStyle.danger, row=0))
    ui.add_item(_button("No, take the Rout test", "keep", view, row=0))
    return embed, done_drawing(ui)


def rout_confirm_panel(view: GameView, words: str, dice: str, *, retry: bool = False) -> tuple[discord.Embed, discord.ui.View]:
    """A Rout test failed on dice typed at the table, shown to its warband's owner before it takes
    the warband out of the game: confirmed, or typed again (a typo is not the rules' verdict)."""
    side = view.state.sides[view.state.side]
    faces = "-".join(str(f) for f in parse_entered(dice))
    text = (f"**{safe(side.warband)}** Rout test — {safe(words)}.\nIf these are the dice rolled at the table, the "
            "warband leaves the game and loses it (000:815); this cannot be undone from the tracker"
            + (" (it ends the game)." if len(view.state.fighting) == 2 else ".")
            + "\nIf they were mistyped, enter them again.")
    embed = discord.Embed(title=f"Rout test failed{' (typed again)' if retry else ''}"[:256], description=text, colour=FAILURE)
    ui = discord.ui.View(timeout=None)
    ui.add_item(_button(f"End for {side.warband}", "routok", view, faces, style=discord.ButtonStyle.danger, row=0))
    ui.add_item(_button("Typo: enter again", "routretry", view, row=0))
    return embed, done_drawing(ui)


def cancel_panel(view: GameView) -> tuple[discord.Embed, discord.ui.View]:
    """The private question before /game cancel: the game is given up, no battle recorded."""
    names = " v ".join(s.warband for s in view.state.sides)
    embed = discord.Embed(title=f"Cancel game #{view.id}?"[:256], colour=FAILURE,
                          description=safe(f"{names}, turn {view.state.turn}: the game is given up and no battle is "
                                           "recorded. This cannot be undone."))
    ui = discord.ui.View(timeout=None)
    ui.add_item(_button(f"Cancel game #{view.id}", "cancelok", view, style=discord.ButtonStyle.danger, row=0))
    ui.add_item(_button("No, keep playing", "keep", view, row=0))
    return embed, done_drawing(ui)
