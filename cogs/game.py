"""/game: the live battle tracker, one public message per game, kept up to date as the table plays.

Decisions:
- The tracker is public, so the whole table follows it; refusals and each player's marking panel
  are private. A mark is made on the player's own panel (opened by the tracker's "Mark" button)
  and the bot then edits the tracker message, so two players marking their own warbands at once
  never press each other's buttons.
- A mark does not edit the tracker at once: the edits of a moment's marks are gathered into one
  (cogs/_ui/tracker_edits.py), as Discord lets a bot edit a message only so often.
- A player's panel, drawn again on each of its presses (a mark is the press players make most), is
  written straight as Discord's payload (cogs/_ui/drawn.py) and sent without reading back the copy
  Discord returns (cogs/_ui/pressed.py); bench/bench_game.py measures a mark.
- Every button and menu is a ``discord.ui.DynamicItem`` whose custom_id carries the game and the
  version it was drawn at (cogs/_ui/game_tracker.py, game_panel.py): presses work after a
  restart (the game is in the database), and the engine refuses a stale one, changing nothing.
- Who may press is the engine's to say (engine/campaign/actions/games.py): each warband's owner
  marks it, and Manage Server; the server's setting (`/admin tracker`) lets any player of a game
  mark any of its warriors.
- The end of the game (the End button, or the last Rout test) posts each warband's post-battle
  sequence, filled in from the game, drawn as /postbattle draws it (cogs/_ui/postbattle_render.py).
- What ends a warband's game and cannot be undone from the tracker is asked first, privately: a
  voluntary rout, a Rout test failed on dice typed at the table (confirmed, or typed again: a typo
  is not the rules' verdict; a rolled one is), and /game cancel. The question's buttons are
  tracker buttons (``gt:``), so a question drawn before the game moved on is refused as stale.
- Dice typed at the table are asked in a modal opened by a button; a modal lives until it is
  submitted, which is all it needs.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands
from discord.http import handle_message_parameters

from cogs._ui.campaign import call, require_server, safe
from cogs._ui.context import is_admin
from cogs._ui.embeds import info_embed
from cogs._ui.game_panel import (
    PAGE,
    PANEL,
    PANEL_MENU,
    TYPED,
    panel_components,
    panel_embed,
    test_embed,
    tests_panel,
)
from cogs._ui.game_tracker import (
    TRACKER,
    cancel_panel,
    end_panel,
    flee_panel,
    rout_confirm_panel,
    tracker_components,
    tracker_embeds,
)
from cogs._ui.postbattle_render import sequence_components, sequence_embed
from cogs._ui.pressed import edit_pressed
from cogs._ui.tracker_edits import TrackerEdits
from cogs._ui.views import guarded
from cogs._ui.warrior_choices import warband_choices
from cogs._ui.writes import call_write
from engine.campaign.actions.games import GameView
from engine.campaign.actions.postbattle import SequenceView, searchers
from engine.campaign.game_service import BattleTracker
from engine.campaign.rules.game_scenario import ROLL_WORDS
from engine.errors import MordheimError

Name = app_commands.Range[str, 1, 100]
GameId = app_commands.Range[int, 1, 2**53]
_TRACKER_ID = TRACKER + r":(?P<action>[a-z]+):(?P<game>\d+):(?P<version>\d+)(?::(?P<arg>[\w-]+))?"
_PANEL_ID = r":(?P<action>[a-z]+):(?P<game>\d+):(?P<version>\d+):(?P<side>\d+):(?P<key>[\d.]*)(?::(?P<arg>[\w-]+))?"


def _cog(interaction: discord.Interaction) -> GameCog:
    return interaction.client.get_cog("GameCog")  # type: ignore[return-value]


class TrackerButton(discord.ui.DynamicItem[discord.ui.Button], template=_TRACKER_ID):
    """A button of the tracker (or of the End panel): ``gt:<action>:<game>:<version>[:<arg>]``."""

    def __init__(self, item: discord.ui.Button, match: re.Match[str]) -> None:
        super().__init__(item)
        self.match = match

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(item, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda i: _cog(i).press_tracker(i, self.match))


class PanelButton(discord.ui.DynamicItem[discord.ui.Button], template=PANEL + _PANEL_ID):
    """A button of a player's marking panel: ``gp:<action>:<game>:<version>:<side>:<key>[:<arg>]``."""

    def __init__(self, item: discord.ui.Button, match: re.Match[str]) -> None:
        super().__init__(item)
        self.match = match

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(item, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda i: _cog(i).press_panel(i, self.match, []))


class PanelSelect(discord.ui.DynamicItem[discord.ui.Select], template=PANEL_MENU + _PANEL_ID):
    """A menu of a player's marking panel: ``gps:<action>:<game>:<version>:<side>:<key>[:<arg>]``."""

    def __init__(self, item: discord.ui.Select, match: re.Match[str]) -> None:
        super().__init__(item)
        self.match = match

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(item, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda i: _cog(i).press_panel(i, self.match, list(self.item.values)))


class TypedDiceModal(discord.ui.Modal):
    """Dice rolled at the table, for one test; ``submit`` takes the typed text."""

    def __init__(self, title: str, label: str, submit: Callable[[discord.Interaction, str], Awaitable[None]]) -> None:
        super().__init__(title=title[:45], timeout=900)
        self.dice = discord.ui.TextInput(label=label[:45], placeholder="two dice as rolled, e.g. 3 5", max_length=20,
                                         custom_id="dice")
        self.add_item(self.dice)
        self._submit = submit

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda i: self._submit(i, self.dice.value or ""))


class GameCog(commands.Cog, name="GameCog"):
    """The /game commands, the tracker's buttons and the players' panels."""

    game = app_commands.Group(name="game", description="The live battle tracker: a game followed turn by turn", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.tracker = BattleTracker(bot.store, bot.rng)  # type: ignore[attr-defined]
        self.edits = TrackerEdits(self._edit_tracker)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(TrackerButton, PanelButton, PanelSelect)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(TrackerButton, PanelButton, PanelSelect)
        await self.edits.hurry()

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        require_server(interaction)
        return True

    @property
    def store(self):  # type: ignore[no-untyped-def]
        return self.bot.store  # type: ignore[attr-defined]

    # ---- drawing and posting -------------------------------------------------------
    @staticmethod
    def render(view: GameView) -> tuple[list[discord.Embed], discord.ui.View]:
        return tracker_embeds(view), tracker_components(view)

    async def _post_tracker(self, interaction: discord.Interaction, view: GameView) -> None:
        """Post the tracker as a new public message, and remember it as the one a mark updates."""
        embeds, ui = self.render(view)
        sent = await interaction.response.send_message(embeds=embeds, view=ui)
        if sent.message_id is not None and interaction.channel_id is not None:
            await call_write(self.store, self.tracker.place_tracker, view.guild_id, interaction.user.id, view.id,
                             interaction.channel_id, sent.message_id)

    async def _edit(self, view: GameView, *, buttons: bool) -> None:
        """Edit the game's tracker message to show ``view``; ``buttons`` False leaves them as they are
        (after marks, which do not change them)."""
        if view.channel_id is None or view.message_id is None:
            return
        embeds = tracker_embeds(view)
        ui = tracker_components(view) if buttons else discord.utils.MISSING
        # discord.py's lower step of Message.edit: the edited message Discord sends back is not
        # read into a Message (nothing uses it)
        with handle_message_parameters(embeds=embeds, view=ui, previous_allowed_mentions=self.bot.allowed_mentions) as params:
            await self.bot.http.edit_message(view.channel_id, view.message_id, params=params)

    async def _edit_tracker(self, guild_id: int, game_id: int) -> None:
        """The edit the marks of a moment asked for (``TrackerEdits``): the game as it is now."""
        await self._edit(await call(self.tracker.get, guild_id, game_id), buttons=False)

    async def _refresh_tracker(self, interaction: discord.Interaction, view: GameView) -> None:
        """Edit the game's tracker message to show ``view`` now (after a press elsewhere: the End
        panel, an old copy of the tracker, a private question)."""
        try:
            await self._edit(view, buttons=True)
        except discord.HTTPException:
            await self._not_edited(interaction, view.id)

    async def _show_cancelled(self, interaction: discord.Interaction, view: GameView) -> None:
        """The one public result of /game cancel: the tracker message, edited to say so; only when it
        cannot be edited (deleted, never placed, a channel the bot no longer sees) is the cancelled
        tracker posted here instead, which says it as well as the edit would (no private error)."""
        try:
            if view.channel_id is not None and view.message_id is not None:
                await self._edit(view, buttons=True)
                return
        except discord.HTTPException:
            pass  # the post below is the result
        embeds, _ = self.render(view)
        await interaction.followup.send(embeds=embeds)

    @staticmethod
    async def _not_edited(interaction: discord.Interaction, game_id: int) -> None:
        await interaction.followup.send(embed=info_embed(
            "The tracker message could not be updated",
            f"The change is kept. `/game show game:{game_id}` posts the tracker again here."), ephemeral=True)

    async def _after_end(self, interaction: discord.Interaction, view: GameView) -> None:
        """The post-battle sequences the end opened, for everyone; what it could not do, for the presser."""
        for sequence in view.opened:
            await self._post_sequence(interaction, sequence, followup=True)
        if view.notes:
            await interaction.followup.send(embed=info_embed("Not done", "\n".join(safe(n) for n in view.notes)), ephemeral=True)

    @staticmethod
    async def _post_sequence(interaction: discord.Interaction, sequence: SequenceView, *, followup: bool) -> None:
        embed, ui = sequence_embed(sequence), sequence_components(sequence, len(searchers(sequence)))
        if followup:
            await interaction.followup.send(embed=embed, view=ui)
        else:
            await interaction.response.send_message(embed=embed, view=ui)

    # ---- commands ------------------------------------------------------------------
    async def _scenario_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The scenario table's entries, once one is handed to the tracker (BattleTracker(scenarios=...));
        until then a scenario is typed freely, and nothing is offered."""
        if interaction.guild_id is None:
            return []
        found = await call(self.tracker.scenario_choices, interaction.guild_id, current or "")
        offered = [app_commands.Choice(name=s.name[:100], value=(s.scenario_id or s.name)[:100]) for s in found]
        typed = (current or "").strip().casefold()
        if "roll".startswith(typed) or typed in ROLL_WORDS:
            offered.insert(0, app_commands.Choice(name="Roll on the scenario table (2D6)", value="roll"))
        return offered[:25]

    @game.command(name="start", description="Start a game of two to four of this server's warbands, with a live tracker")
    @app_commands.describe(warband1="The warband that takes the first turn", warband2="The second warband",
                           warband3="A third (multiplayer)", warband4="A fourth (multiplayer)",
                           scenario="The scenario played: one of the table's, 'roll' to roll 2D6 on it, or your own (default: Skirmish)", time="When you play, e.g. Friday 20:00")
    @app_commands.autocomplete(warband1=warband_choices, warband2=warband_choices, warband3=warband_choices,
                               warband4=warband_choices, scenario=_scenario_choices)
    async def start(self, interaction: discord.Interaction, warband1: Name, warband2: Name, warband3: Name | None = None,
                    warband4: Name | None = None, scenario: app_commands.Range[str, 1, 100] | None = None,
                    time: app_commands.Range[str, 1, 60] | None = None) -> None:
        g = require_server(interaction)
        names = [n for n in (warband1, warband2, warband3, warband4) if n]
        view = await call_write(self.store, self.tracker.start, g, interaction.user.id, is_admin(interaction), names,
                                scenario=scenario or "", when=time or "", channel_id=interaction.channel_id)
        await self._post_tracker(interaction, view)

    async def _game_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        if interaction.guild_id is None:
            return []
        found = await call(self.tracker.open_games, interaction.guild_id)
        out = []
        for v in found:
            label = f"#{v.id} " + " v ".join(s.warband for s in v.state.sides) + f" (turn {v.state.turn})"
            if current.strip().lstrip("#") in label:
                out.append(app_commands.Choice(name=label[:100], value=v.id))
        return out[:25]

    async def _chosen_game(self, interaction: discord.Interaction, game: int | None) -> GameView:
        g = require_server(interaction)
        if game is not None:
            return await call(self.tracker.get, g, game)
        running = await call(self.tracker.open_games, g)
        if len(running) == 1:
            return running[0]
        if not running:
            raise MordheimError("No game is being played in this server.", hint="Start one with `/game start`.")
        raise MordheimError(f"{len(running)} games are being played here; say which with `game`.",
                            hint="Games: " + "; ".join(f"#{v.id} " + " v ".join(safe(s.warband) for s in v.state.sides)
                                                       for v in running))

    @game.command(name="show", description="Post a game's tracker again, with fresh buttons (marks then update this one)")
    @app_commands.describe(game="Which game (default: the one being played here)")
    @app_commands.autocomplete(game=_game_choices)
    async def show(self, interaction: discord.Interaction, game: GameId | None = None) -> None:
        view = await self._chosen_game(interaction, game)
        await self._post_tracker(interaction, view)

    @game.command(name="cancel", description="Give up a game without recording any battle (players or Manage Server)")
    @app_commands.describe(game="Which game (default: the one being played here)")
    @app_commands.autocomplete(game=_game_choices)
    async def cancel(self, interaction: discord.Interaction, game: GameId | None = None) -> None:
        chosen = await self._chosen_game(interaction, game)
        view = await call(self.tracker.may_cancel, chosen.guild_id, interaction.user.id, is_admin(interaction), chosen.id)
        embed, ui = cancel_panel(view)  # asked first, privately: nothing of the game is kept
        await interaction.response.send_message(embed=embed, view=ui, ephemeral=True)

    # ---- the tracker's buttons ------------------------------------------------------
    async def press_tracker(self, interaction: discord.Interaction, match: re.Match[str]) -> None:
        g, who, admin = require_server(interaction), interaction.user.id, is_admin(interaction)
        action, game, version, arg = match["action"], int(match["game"]), int(match["version"]), match["arg"] or ""
        svc = self.tracker
        if action == "mark":
            view = await call(svc.may_mark, g, who, admin, game, _number(arg))
            await interaction.response.send_message(embed=panel_embed(view, _number(arg), None),
                                                    view=panel_components(view, _number(arg), None), ephemeral=True)
            return
        if action == "end":
            view = await call(svc.may_run, g, who, admin, game, version)
            embed, ui = end_panel(view)
            await interaction.response.send_message(embed=embed, view=ui, ephemeral=True)
            return
        if action in ("routdice", "routretry"):  # the tracker's button, or "Typo: enter again" on the question
            retry = action == "routretry"

            async def submit(i: discord.Interaction, dice: str) -> None:
                result = await call(svc.rout_preview, g, i.user.id, is_admin(i), game, version, entered=dice)
                if not result.passed:  # a typo must not end a warband's game: its owner confirms first
                    embed, ui = rout_confirm_panel(await call(svc.get, g, game), result.words, dice, retry=retry)
                    if retry:
                        await i.response.edit_message(embed=embed, view=ui)
                    else:
                        await i.response.send_message(embed=embed, view=ui, ephemeral=True)
                    return
                step = lambda: svc.rout_test(g, i.user.id, is_admin(i), game, version, entered=dice)
                if retry:
                    await self._confirmed_step(i, step, "Rout test taken", "The tracker shows its result.")
                else:
                    await self._tracker_step(i, step)
            await interaction.response.send_modal(TypedDiceModal("The Rout test", "The 2D6 rolled at the table", submit))
            return
        if action == "routok":  # a failed Rout test with typed dice, confirmed by the warband's owner
            dice = arg.replace("-", " ")
            await self._confirmed_step(interaction, lambda: svc.rout_test(g, who, admin, game, version, entered=dice),
                                       "Rout test taken", "The warband leaves the game; the tracker shows it.")
            return
        if action == "flee":  # routing of one's own will ends a warband's game: asked first, privately
            embed, ui = flee_panel(await call(svc.may_rout, g, who, admin, game, version))
            await interaction.response.send_message(embed=embed, view=ui, ephemeral=True)
            return
        if action == "fleeok":
            await self._confirmed_step(interaction, lambda: svc.rout_voluntarily(g, who, admin, game, version),
                                       "Routed voluntarily", "The warband leaves the game; the tracker shows it.")
            return
        if action == "cancelok":  # /game cancel's question, answered
            view = await call_write(self.store, svc.cancel, g, who, admin, game)
            await interaction.response.edit_message(embed=info_embed(f"Game #{game} is cancelled", "No battle was recorded."),
                                                    view=None)
            await self._show_cancelled(interaction, view)
            return
        if action == "keep":  # the question's "No": nothing happens
            await interaction.response.edit_message(embed=info_embed("Nothing was changed", "The game goes on."), view=None)
            return
        if action == "post":
            sequence = await call_write(self.store, svc.sequence_after, g, who, admin, game, _number(arg))
            await self._post_sequence(interaction, sequence, followup=False)
            return
        if action == "won":  # on the End panel (private): the game ends for everyone
            winner = None if arg == "draw" else _number(arg)
            view = await call_write(self.store, svc.end, g, who, admin, game, version, winner=winner)
            await interaction.response.edit_message(embed=info_embed(f"Game #{game} is over", "Every warband's battle is recorded; "
                                                                     "the post-battle sequences follow."), view=None)
            await self._refresh_tracker(interaction, view)
            await self._after_end(interaction, view)
            return
        step = {
            "next": lambda: svc.next_turn(g, who, admin, game, version),
            "undo": lambda: svc.undo(g, who, admin, game, version),
            "rout": lambda: svc.rout_test(g, who, admin, game, version),
        }.get(action)
        if step is None:
            raise MordheimError("This button is from an older version of the bot.", hint="`/game show` posts fresh buttons.")
        await self._tracker_step(interaction, step)

    async def _tracker_step(self, interaction: discord.Interaction, step: Callable[[], GameView]) -> None:
        """A press on the tracker: the change, then the tracker message shows it (and, after a
        game's end, the sequences follow)."""
        view = await call_write(self.store, step)
        embeds, ui = self.render(view)
        await interaction.response.edit_message(embeds=embeds, view=ui)
        if interaction.message is not None and view.message_id is not None and interaction.message.id != view.message_id:
            await self._refresh_tracker(interaction, view)  # pressed on an older copy: the newest shows it too
        await self._after_end(interaction, view)

    async def _confirmed_step(self, interaction: discord.Interaction, step: Callable[[], GameView], title: str,
                              words: str) -> None:
        """A change confirmed on a private question: the question says it is done, the tracker shows it
        (and, after a game's end, the sequences follow)."""
        view = await call_write(self.store, step)
        await interaction.response.edit_message(embed=info_embed(title, words), view=None)
        await self._refresh_tracker(interaction, view)
        await self._after_end(interaction, view)

    # ---- a player's panel -----------------------------------------------------------
    async def press_panel(self, interaction: discord.Interaction, match: re.Match[str], values: list[str]) -> None:
        g, who, admin = require_server(interaction), interaction.user.id, is_admin(interaction)
        action, game, version = match["action"], int(match["game"]), int(match["version"])
        side, key, arg = int(match["side"]), match["key"], match["arg"] or ""
        svc = self.tracker
        if action == "pick":
            value = values[0] if values else ""
            page = int(value[4:]) if value.startswith("page") and value[4:].isdigit() else None
            view = await call(svc.may_mark, g, who, admin, game, side)
            chosen = None if page is not None else value
            shown = page if page is not None else _page_of(view, side, value)
            await edit_pressed(interaction, embed=panel_embed(view, side, chosen), view=panel_components(view, side, chosen, shown))
            return
        if action in ("go", "list"):
            view = await call(svc.may_mark, g, who, admin, game, side)
            chosen = key if action == "go" else None
            await edit_pressed(interaction, embed=panel_embed(view, side, chosen),
                               view=panel_components(view, side, chosen, _page_of(view, side, key)))
            return
        if action == "tests":
            view = await call(svc.may_mark, g, who, admin, game, side)
            embed, ui = tests_panel(view, side, key)
            await interaction.response.send_message(embed=embed, view=ui, ephemeral=True)
            return
        if action == "test":
            await self._test(interaction, arg, game, side, key)
            return
        if action == "set":
            change = lambda: svc.mark(g, who, admin, game, version, side, key, arg)
        elif action == "ooa":
            taker = values[0] if values else ""
            change = lambda: svc.mark(g, who, admin, game, version, side, key, "out_of_action", taken_out_by=taker)
        elif action == "wyrd":
            change = lambda: svc.carry(g, who, admin, game, version, side, key, 1 if arg == "up" else -1)
        else:
            raise MordheimError("This panel is from an older version of the bot.", hint="Open a new one from the tracker.")
        view = await call_write(self.store, change)
        piece = view.state.sides[side].piece(key)
        note = ""
        if piece is not None:  # what the press changed
            done = (f"{'+' if arg == 'up' else '−'}1 wyrdstone: {piece.counters} carried" if action == "wyrd"
                    else piece.state.words)
            note = f"✓ {safe(piece.name)}: {done}"
        await edit_pressed(interaction, embed=panel_embed(view, side, key, note=note),
                           view=panel_components(view, side, key, _page_of(view, side, key)))
        self.edits.ask(g, game, if_it_fails=lambda: self._not_edited(interaction, game))

    async def _test(self, interaction: discord.Interaction, arg: str, game: int, side: int, key: str) -> None:
        """A Leadership test from a warrior's tests panel (``<test>-<own|leader>-<rolled|typed>``):
        rolled now, or with the dice typed at the table in a modal; the result is posted for the table."""
        g, svc = require_server(interaction), self.tracker
        test, whose, how = (arg.split("-") + ["", "", ""])[:3]

        async def roll(i: discord.Interaction, dice: str | None) -> None:
            result = await call_write(self.store, svc.roll_test, g, i.user.id, is_admin(i), game, side, key, test,
                                      leaders=whose == "leader", entered=dice)
            await i.response.send_message(embed=test_embed(result, i.user.display_name))
            if result.logged:  # a Rally test is written in the game: the tracker shows it
                self.edits.ask(g, game, if_it_fails=lambda: self._not_edited(i, game))

        if how == TYPED:  # every die typed: an empty or short form is refused, not rolled for
            await interaction.response.send_modal(TypedDiceModal("A test", "The 2D6 rolled at the table", roll))
            return
        await roll(interaction, None)


def _number(text: str) -> int:
    if not text.isdigit():
        raise MordheimError("That button is damaged.", hint="`/game show` posts fresh buttons.")
    return int(text)


def _page_of(view: GameView, side: int, key: str) -> int:
    at = view.state.sides[side].position(key)
    return 0 if at is None else at // PAGE


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GameCog(bot))
