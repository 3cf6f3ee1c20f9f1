"""/postbattle: the post-battle sequence in the channel, one message updated step by step.

Decisions:
- The sequence's message is public, so the whole group follows the dice; errors answer privately.
- Every button and menu is a ``discord.ui.DynamicItem`` whose custom_id carries the sequence id
  and the version of the step it was drawn for. Presses work after a restart (the state is in
  the database); a second press, or one from another device, carries an old version and the
  service refuses it, changing nothing.
- Only the warband's owner or a member with Manage Server may press (the service checks every
  press; a modal is not even opened for anyone else).
- Dice typed in and names are asked in modals opened by a button; a modal lives only until
  it is submitted, which is all it needs.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.campaign import call, require_server, safe
from cogs._ui.captives_render import CAPTIVE, captives_components, captives_embed
from cogs._ui.combat_options import combat_rules
from cogs._ui.context import is_admin, server_settings_now
from cogs._ui.drawn import Drawn
from cogs._ui.postbattle_render import BUTTON, SELECT, sequence_components, sequence_embed, summary_embeds
from cogs._ui.pressed import edit_pressed
from cogs._ui.views import guarded
from cogs._ui.warrior_choices import changeable_warband_choices
from cogs._ui.writes import call_write
from engine.campaign.actions.captives import CaptivesView
from engine.campaign.actions.postbattle import SequenceView
from engine.campaign.service import Captives, PostBattle
from engine.errors import MordheimError, PermissionDenied

Name = app_commands.Range[str, 1, 100]
TRADING_COMMANDS = ("trade buy", "trade sell", "trade search", "trade stash", "hire fighter", "hire sword")
_ID = r"(?P<action>[a-z]+):(?P<seq>\d+):(?P<version>\d+)(?::(?P<arg>[\w-]+))?"


def _cog(interaction: discord.Interaction) -> PostBattleCog:
    return interaction.client.get_cog("PostBattleCog")


class StepButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON + ":" + _ID):
    """A step's button: ``pb:<action>:<sequence>:<version>[:<arg>]``."""

    def __init__(self, item: discord.ui.Button, match: re.Match[str]) -> None:
        super().__init__(item)
        self.match = match

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(item, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda i: _cog(i).press_item(i, self.match, []))


class StepSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT + ":" + _ID):
    """A step's menu: ``pbs:<action>:<sequence>:<version>[:<arg>]``."""

    def __init__(self, item: discord.ui.Select, match: re.Match[str]) -> None:
        super().__init__(item)
        self.match = match

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(item, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda i: _cog(i).press_item(i, self.match, list(self.item.values)))


class CaptiveButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=CAPTIVE + r":(?P<action>[a-z]+):(?P<band>\d+):(?P<cap>\d+)(?::(?P<arg>\d+))?"):
    """A captive's button under /postbattle captives: ``pbc:<action>:<warband>:<captive>[:<arg>]``."""

    def __init__(self, item: discord.ui.Button, match: re.Match[str]) -> None:
        super().__init__(item)
        self.match = match

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(item, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda i: _cog(i).press_captive(i, self.match))


LABEL_MAX = 45  # Discord's longest modal title and text input label


def label(text: str) -> str:
    """A label made to fit: a warrior's long name ends in an ellipsis (our own labels fit as written)."""
    return text if len(text) <= LABEL_MAX else text[: LABEL_MAX - 1] + "…"


# What a member typed into a form that was refused (a die that is no D66, a name misspelt), by
# (member, form): the same form opened again shows it, to mend rather than type it all again
# (Discord closes a form when it is sent). Forgotten once the form goes through; the oldest go first.
FORMS_REMEMBERED = 512
_refused_text: dict[tuple[int, str], dict[str, str]] = {}


class DiceModal(discord.ui.Modal):
    """Typed text for one step (dice rolled at the table, names); ``submit`` does the step. Its
    title and labels must fit Discord's 45 characters: one that does not is a bug, never cut."""

    def __init__(self, title: str, fields: list[tuple[str, str, str, bool]], submit) -> None:
        for text in (title, *(f[1] for f in fields)):
            if len(text) > LABEL_MAX:
                raise ValueError(f"a modal title or label over {LABEL_MAX} characters: {text!r}")
        super().__init__(title=title, timeout=900)
        self._remembered_as: tuple[int, str] | None = None
        self.inputs: dict[str, discord.ui.TextInput] = {}
        for key, text, placeholder, required in fields[:5]:
            box = discord.ui.TextInput(label=text, placeholder=placeholder[:100], required=required, max_length=200, custom_id=key)
            self.inputs[key] = box
            self.add_item(box)
        self._submit = submit

    def for_member(self, member_id: int, form: str) -> DiceModal:
        """This form for ``member_id``, showing what he typed into it last if that was refused."""
        self._remembered_as = (member_id, form)
        for key, text in _refused_text.get(self._remembered_as, {}).items():
            if key in self.inputs and text:
                self.inputs[key].default = text
        return self

    async def on_submit(self, interaction: discord.Interaction) -> None:
        typed = {k: v.value or "" for k, v in self.inputs.items()}
        went_through = False

        async def submit(i: discord.Interaction) -> None:
            nonlocal went_through
            await self._submit(i, typed)
            went_through = True

        await guarded(interaction, submit)
        if self._remembered_as is None:
            return
        if went_through:
            _refused_text.pop(self._remembered_as, None)
        else:
            _refused_text.pop(self._remembered_as, None)  # the newest goes last
            _refused_text[self._remembered_as] = typed
            while len(_refused_text) > FORMS_REMEMBERED:
                _refused_text.pop(next(iter(_refused_text)))


def _parts(text: str | None) -> list[str]:
    """A form's list as typed, its entries parted by commas, semicolons or lines: 'Hans 2, Otto 1'."""
    return [p.strip() for p in re.split(r"[,;\n]+", text or "") if p.strip()]


def _names_and_numbers(text: str, view: SequenceView, what: str, among=None) -> dict[int, int]:
    """'Hans 2, Otto 1' → {Hans's id: 2, Otto's id: 1}; each name must be a warrior of the sequence
    (or of ``among``: warriors, for the heroes of the roster now)."""
    out: dict[int, int] = {}
    people = [(f.warrior_id, f.name) for f in view.state.fighters] if among is None else [(w.id, w.name) for w in among]
    for part in _parts(text):
        m = re.fullmatch(r"(.+?)\s*[:=]?\s*(-?\d{1,2})", part)
        if m is None:
            raise MordheimError(f"'{part[:40]}' is not a name and a number.", hint=f"Write {what} as `Hans 2, Otto 1`.")
        out[_one_of(people, m.group(1).strip(), view)] = int(m.group(2))
    return out


def _one_of(people: list[tuple[int, str]], name: str, view: SequenceView) -> int:
    """The id of the warrior of ``people`` (id, name) called ``name`` (case aside), or the refusal naming them."""
    found = next((wid for wid, known in people if known.casefold() == name.casefold()), None)
    if found is None:
        raise MordheimError(f"{name[:40]} is not one of {view.warband}'s warriors in this battle.",
                            hint="Names: " + ", ".join(known for _wid, known in people)[:300])
    return found


def _names_and_dice(text: str, view: SequenceView) -> dict[int, str]:
    """'Hans: 6 3, Warrior 2 4 4' → {Hans's id: '6 3', Warrior 2's id: '4 4'}: each part starts with
    the name of a warrior of the sequence (the longest that fits, so 'Warrior 2' beats 'Warrior'),
    then his dice as rolled; the engine checks the dice."""
    out: dict[int, str] = {}
    people = sorted(((f.warrior_id, f.name) for f in view.state.fighters), key=lambda p: -len(p[1]))
    for part in _parts(text):
        found = next(((wid, name) for wid, name in people if part.casefold().startswith(name.casefold())
                      and re.match(r"[\s:=]|$", part[len(name):])), None)
        if found is None:
            raise MordheimError(f"'{part[:40]}' is not a warrior of {view.warband} in this battle and his dice.",
                                hint="Write e.g. `Hans: 6 3, Marksmen: 4 4`. Names: "
                                     + ", ".join(name for _wid, name in people)[:300])
        wid, name = found
        dice = part[len(name):].strip().lstrip(":=").strip()
        if not dice:
            raise MordheimError(f"No dice for {name}.", hint="Write his dice after his name: `Hans: 6 3`.")
        out[wid] = f"{out[wid]} {dice}" if wid in out else dice
    return out


def _names_only(text: str, view: SequenceView) -> set[int]:
    """'Hans, Marksmen' → their ids; each name must be a warrior of the sequence."""
    people = [(f.warrior_id, f.name) for f in view.state.fighters]
    out: set[int] = set()
    for name in _parts(text):
        out.add(_one_of(people, name, view))
    return out


class PostBattleCog(commands.Cog, name="PostBattleCog"):
    """The /postbattle commands and the sequence message's buttons."""

    postbattle = app_commands.Group(name="postbattle", description="The post-battle sequence of a warband", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.service = PostBattle(bot.store, bot.rng)
        self.captives = Captives(bot.store, bot.rng)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(StepButton, StepSelect, CaptiveButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(StepButton, StepSelect, CaptiveButton)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        require_server(interaction)
        return True

    # ---- rendering -----------------------------------------------------------------
    def _trading_commands(self) -> list[str]:
        found = []
        for path in TRADING_COMMANDS:
            parts = path.split()
            cmd = self.bot.tree.get_command(parts[0])
            for part in parts[1:]:
                cmd = cmd.get_command(part) if isinstance(cmd, app_commands.Group) else None
            if cmd is not None:
                found.append(path)
        return found

    def render(self, view: SequenceView) -> tuple[discord.Embed, Drawn]:
        """The sequence's message (a finished summary's first embed: ``render_all`` gives the rest)."""
        embeds, ui = self.render_all(view)
        return embeds[0], ui

    def render_all(self, view: SequenceView) -> tuple[list[discord.Embed], Drawn]:
        """The message's embed and components, then the embeds of a finished summary's dice that
        do not fit it (sent as messages after it)."""
        if view.status == "finished":
            return summary_embeds(view), sequence_components(view, 0)
        # only the trading step names them (the others need no walk of the command tree on every press)
        embed = sequence_embed(view, trading_commands=self._trading_commands() if view.state.step == "trading" else ())
        searching = len(self.service.searchers(view)) if view.state.step == "exploration" else 0  # only exploring counts them
        return [embed], sequence_components(view, searching)

    @staticmethod
    async def _rest(interaction: discord.Interaction, embeds: list[discord.Embed]) -> None:
        for more in embeds[1:]:
            await interaction.followup.send(embed=more)

    async def _post(self, interaction: discord.Interaction, view: SequenceView) -> None:
        embeds, ui = self.render_all(view)
        sent = await interaction.response.send_message(embed=embeds[0], view=ui)
        await self._rest(interaction, embeds)
        if view.status == "open" and sent.message_id is not None and interaction.channel_id is not None:
            ref = f"{interaction.channel_id}:{sent.message_id}"
            await call_write(self.bot.campaigns.store, self.service.shown_at, interaction.guild_id, interaction.user.id,
                             is_admin(interaction), view.id, ref)

    # ---- commands ------------------------------------------------------------------
    @postbattle.command(name="start", description="Start the post-battle sequence after a warband's newest battle")
    @app_commands.describe(warband="Which warband (record the battle first with /battle record)")
    @app_commands.autocomplete(warband=changeable_warband_choices)
    async def start(self, interaction: discord.Interaction, warband: Name) -> None:
        g = require_server(interaction)
        view = await call(self.service.start, g, interaction.user.id, is_admin(interaction), warband)
        await self._post(interaction, view)

    @postbattle.command(name="resume", description="Show a warband's open post-battle sequence again, where it stopped")
    @app_commands.describe(warband="Which warband")
    @app_commands.autocomplete(warband=changeable_warband_choices)
    async def resume(self, interaction: discord.Interaction, warband: Name) -> None:
        """The open sequence posted again with fresh buttons; the message it replaces loses its
        buttons (and they go stale: the sequence moved one version on)."""
        g = require_server(interaction)
        view = await call_write(self.bot.campaigns.store, self.service.resume, g, interaction.user.id, is_admin(interaction), warband)
        if view is None:
            raise MordheimError(f"{safe(warband)} has no post-battle sequence open.", hint="Start one with `/postbattle start`.")
        old_ref = view.message_ref
        await self._post(interaction, view)
        await self._strip_buttons(old_ref)

    async def _strip_buttons(self, ref: str) -> None:
        """Take the buttons off the sequence's earlier message ('channel id:message id'); a message
        gone or out of reach is left as it is (its buttons are stale anyway)."""
        channel_id, _, message_id = ref.partition(":")
        if not (channel_id.isdigit() and message_id.isdigit()):
            return
        try:
            await self.bot.get_partial_messageable(int(channel_id)).get_partial_message(int(message_id)).edit(view=None)
        except discord.HTTPException:
            pass

    @postbattle.command(name="cancel", description="Close a warband's open post-battle sequence (steps taken stay; /warband undo takes them back)")
    @app_commands.describe(warband="Which warband")
    @app_commands.autocomplete(warband=changeable_warband_choices)
    async def cancel(self, interaction: discord.Interaction, warband: Name) -> None:
        g = require_server(interaction)
        view = await call(self.service.open_sequence, g, warband)
        if view is None:
            raise MordheimError(f"{safe(warband)} has no post-battle sequence open.")
        shown = view.message_ref
        view = await call(self.service.cancel, g, interaction.user.id, is_admin(interaction), view.id)
        await self._post(interaction, view)
        await self._strip_buttons(shown)

    @postbattle.command(name="captives", description="Captives a warband holds and its warriors held by others: ransom, exchange, sell, kill")
    @app_commands.describe(warband="Which warband")
    @app_commands.autocomplete(warband=changeable_warband_choices)
    async def captives_command(self, interaction: discord.Interaction, warband: Name) -> None:
        g = require_server(interaction)
        view = await call(self.captives.view, g, warband)
        await interaction.response.send_message(embed=captives_embed(view), view=captives_components(view))

    async def press_captive(self, interaction: discord.Interaction, match: re.Match[str]) -> None:
        """A button of /postbattle captives: the fate of one captive, then the list again."""
        g, who, admin = require_server(interaction), interaction.user.id, is_admin(interaction)
        action, band, captive = match["action"], int(match["band"]), int(match["cap"])
        svc = self.captives
        if action in ("ransom", "outr"):
            current = await call(svc.view, g, band)
            if not (admin or who == current.owner_id):
                raise PermissionDenied(f"Only the owner of {current.warband} or a member with Manage Server can decide this.")
            await interaction.response.send_modal(self._ransom_modal(action, band, captive))
            return
        act = {
            "pay": lambda: svc.pay_ransom(g, who, admin, captive),
            "sell": lambda: svc.sell(g, who, admin, captive),
            "exch": lambda: svc.exchange(g, who, admin, captive, int(match["arg"] or 0)),
            "held": lambda: svc.choose_captor(g, who, admin, captive, int(match["arg"] or 0)),
            "oute": lambda: svc.settle_outside(g, who, admin, captive, "exchanged"),
            "outs": lambda: svc.settle_outside(g, who, admin, captive, "sold"),
            "outk": lambda: svc.settle_outside(g, who, admin, captive, "killed"),
            "zombie": lambda: svc.raise_zombie(g, who, admin, captive),
            "sacr": lambda: svc.sacrifice(g, who, admin, captive),
        }.get(action)
        if act is None:
            raise MordheimError("This button is from an older version of the bot.", hint="Use `/postbattle captives` again.")
        await self._captives_done(interaction, band, act)

    async def _captives_done(self, interaction: discord.Interaction, band: int, act: Callable[[], CaptivesView]) -> None:
        done = await call_write(self.bot.campaigns.store, act)
        view = done if done.warband_id == band else await call(self.captives.view, interaction.guild_id, band)
        if view is not done:
            view = dataclasses.replace(view, lines=done.lines, dice=done.dice)
        await interaction.response.edit_message(embed=captives_embed(view), view=captives_components(view))

    def _ransom_modal(self, action: str, band: int, captive: int) -> DiceModal:
        svc = self.captives

        async def submit(i, values):
            price = values["price"].strip()
            if not price.isdigit():
                raise MordheimError("A ransom is a number of gold crowns.", hint="e.g. 40")
            g, who, admin = i.guild_id, i.user.id, is_admin(i)
            if action == "ransom":
                await self._captives_done(i, band, lambda: svc.offer_ransom(g, who, admin, captive, int(price)))
            else:
                await self._captives_done(i, band, lambda: svc.settle_outside(g, who, admin, captive, "ransomed", price=int(price)))
        title = "The ransom you ask" if action == "ransom" else "The ransom paid"
        return DiceModal(title, [("price", "Gold crowns", "e.g. 40", True)], submit)

    # ---- presses -------------------------------------------------------------------
    async def press_item(self, interaction: discord.Interaction, match: re.Match[str], values: list[str]) -> None:
        """A step's button or menu (``StepButton``, ``StepSelect``), from its custom id's parts."""
        require_server(interaction)
        await self.press(interaction, match["action"], int(match["seq"]), int(match["version"]), match["arg"] or "", values)

    async def _may_press(self, interaction: discord.Interaction, view: SequenceView) -> None:
        if not (is_admin(interaction) or interaction.user.id == view.owner_id):
            raise PermissionDenied(f"Only the owner of {view.warband} or a member with Manage Server can run its post-battle sequence.",
                                   hint="Everyone can follow it here.")

    async def press(self, interaction: discord.Interaction, action: str, seq: int, version: int, arg: str, values: list[str]) -> None:
        g, who, admin = interaction.guild_id, interaction.user.id, is_admin(interaction)
        svc = self.service
        if action == "start":  # from /battle record: seq is the warband id, arg the battle id
            name = await call(svc.warband_name, g, seq)
            view = await call(svc.start, g, who, admin, name, battle_id=int(arg) if arg.isdigit() else None)
            await self._post(interaction, view)
            return
        if action in ("injdice", "xpdice", "kills", "skill", "talent", "expdice", "share"):
            current = await call(svc.get, g, seq)
            await self._may_press(interaction, current)
            if current.version != version:
                raise MordheimError("That button belongs to a step already taken (pressed twice, or from another device).",
                                    hint="Use the newest message's buttons.")
            form = f"{current.id}:{current.version}:{action}:{arg}"  # a new version of the sequence is another form
            await interaction.response.send_modal(self._modal(action, current, arg).for_member(interaction.user.id, form))
            return
        if action == "pitfight":  # the server's edition and house rules, as /fight uses them
            rules = combat_rules(server_settings_now(interaction), None)
            await self._take_step(interaction, lambda: svc.fight_pit(g, who, admin, seq, version, int(arg), edition=rules.edition,
                                                                     toggles=rules.toggles))
            return
        step = {
            "confirm": lambda: svc.confirm_fighters(g, who, admin, seq, version),
            "cancel": lambda: svc.cancel(g, who, admin, seq, version=version),
            "injuries": lambda: svc.roll_injuries(g, who, admin, seq, version),
            "pit": lambda: svc.settle_pit_fight(g, who, admin, seq, version, int(arg.split("-")[0]), arg.endswith("-won")),
            "xp": lambda: svc.apply_experience(g, who, admin, seq, version),
            "explore": lambda: svc.explore(g, who, admin, seq, version),
            "nobody": lambda: svc.explore(g, who, admin, seq, version, visit=False),
            "finish": lambda: svc.finish(g, who, admin, seq, version),
            "ooa": lambda: svc.set_fighters(g, who, admin, seq, version, out_of_action=self._ooa(values)),
            "absent": lambda: svc.set_fighters(g, who, admin, seq, version, absent=[int(v) for v in values]),
            "choose": lambda: svc.choose(g, who, admin, seq, version, int(arg), "choose", values[0] if values else ""),
            "learn": lambda: svc.choose(g, who, admin, seq, version, int(arg.split("-")[0]), "skill", values[0] if values else ""),
            "place": lambda: svc.explore(g, who, admin, seq, version, hero_id=int(values[0]) if values else None),
            "sell": lambda: svc.sell(g, who, admin, seq, version, int(values[0]) if values else 0),
            "upkeep": lambda: svc.pay_upkeep(g, who, admin, seq, version),
            "reroll": lambda: svc.reroll_exploration(g, who, admin, seq, version, [int(v) for v in values]),
            "keepdice": lambda: svc.reroll_exploration(g, who, admin, seq, version, []),
            "drop": lambda: svc.drop_exploration_dice(g, who, admin, seq, version, [int(v) for v in values]),
            "letgo": lambda: svc.pay_upkeep(g, who, admin, seq, version, let_go=[int(v) for v in values]),
        }.get(action)
        if step is None:
            raise MordheimError("This button is from an older version of the bot.", hint="Use `/postbattle resume` for fresh buttons.")
        await self._take_step(interaction, step)

    async def _take_step(self, interaction: discord.Interaction, step: Callable[[], SequenceView]) -> None:
        """The step (checks, writes, new state) and its new message, at once or in one trip to a
        worker thread; the sequence's message shows it."""
        embeds, ui = await call_write(self.bot.campaigns.store, lambda: self.render_all(step()))
        if interaction.type == discord.InteractionType.component:  # a press: Discord's copy of the message is not read back
            await edit_pressed(interaction, embed=embeds[0], view=ui)
        else:  # a modal's dice or names, submitted
            await interaction.response.edit_message(embed=embeds[0], view=ui)
        await self._rest(interaction, embeds)

    @staticmethod
    def _ooa(values: list[str]) -> dict[int, int]:
        out: dict[int, int] = {}
        for v in values:
            wid, _, n = v.partition(":")
            if not (wid.isdigit() and n.isdigit()):
                raise MordheimError("Choose from the menu.")
            out[int(wid)] = max(out.get(int(wid), 0), int(n))  # 'Marksmen — 2 of 3' counts, not 1 + 2
        return out

    def _modal(self, action: str, view: SequenceView, arg: str) -> DiceModal:
        g, svc, done = view.guild_id, self.service, self._take_step
        if action == "injdice":
            out = [f for f in view.state.fighters if f.out_of_action][:5]
            fields = [(f"w{f.warrior_id}", label(f.name),
                       "a D66, then any D6 it asks: e.g. 35 or 23 4" if f.hero
                       else f"{f.out_of_action} D6: e.g. " + " ".join(["4"] * f.out_of_action), False) for f in out]

            async def submit(i, values):
                entered = {int(k[1:]): v for k, v in values.items() if v.strip()}
                await done(i, lambda: svc.roll_injuries(g, i.user.id, is_admin(i), view.id, view.version, entered=entered))
            return DiceModal("Dice rolled at the table", fields, submit)
        if action == "xpdice":
            async def submit(i, values):
                entered = _names_and_dice(values["dice"], view)
                await done(i, lambda: svc.apply_experience(g, i.user.id, is_admin(i), view.id, view.version, entered=entered))
            return DiceModal("Advance dice rolled at the table", [
                ("dice", "Each advancing warrior's dice, in order", "Hans: 6 3, Marksmen: 4 4 (2D6 an advance, then any D6 "
                 "the hero's table asks; the bot rolls the rest)", True)], submit)
        if action == "kills":
            asks_counters, feat = view.state.extra.get("asks_counters"), view.state.extra.get("feat")

            async def submit(i, values):
                kills = _names_and_numbers(values["kills"], view, "enemies out of action")
                scenario = _names_and_numbers(values["scenario"], view, "scenario experience")
                counters = _names_and_numbers(values["counters"], view, "wyrdstone counters") if asks_counters else None
                feat_by = _names_only(values["feat"], view) if feat else None
                await done(i, lambda: svc.set_fighters(g, i.user.id, is_admin(i), view.id, view.version, kills=kills,
                                                       scenario=scenario, counters=counters, feat=feat_by))
            fields = [("kills", "Enemies each hero took out of action", "Hans 2, Otto 1", False),
                      ("scenario", "Other scenario experience", "Hans 1, Marksmen 1 (the bot adds the rulebook's)", False)]
            if asks_counters:
                fields.append(("counters", "Wyrdstone counters each carried at the end", "Hans 2, Marksmen 1", False))
            if feat:
                fields.append(("feat", f"{feat}: who did it"[:LABEL_MAX], "Hans, Marksmen", False))
            return DiceModal("Enemies and scenario experience", fields, submit)
        if action == "share":
            p = next(x for x in view.state.pending if x.kind == "share_xp")
            heroes = ", ".join(view.warrior(int(o)).name for o in p.options if view.warrior(int(o)) is not None)

            async def submit(i, values):
                shares = _names_and_numbers(values["shares"], view, "experience", among=view.warriors)
                await done(i, lambda: svc.share_experience(g, i.user.id, is_admin(i), view.id, view.version, shares))
            return DiceModal(label(f"{p.note} experience to share"), [("shares", "Who gets how much", heroes[:100], True)], submit)
        if action == "skill":
            async def submit(i, values):
                await done(i, lambda: svc.choose(g, i.user.id, is_admin(i), view.id, view.version, int(arg), "skill", values["skill"]))
            return DiceModal("A new skill", [("skill", "Skill (from the warrior's skill lists)", "e.g. Strike to Injure", True)], submit)
        if action == "talent":
            async def submit(i, values):
                lists = tuple(x.strip() for x in values["lists"].split(",") if x.strip())
                await done(i, lambda: svc.choose(g, i.user.id, is_admin(i), view.id, view.version, int(arg), "talent",
                                                 values["name"], skill_lists=lists))
            return DiceModal("The lad's got talent!", [("name", "The new hero's name", "e.g. Young Karl", True),
                                                       ("lists", "Two skill lists (if the warband has lists)", "combat, speed", False)], submit)

        async def submit(i, values):
            extra = values["extra"].strip() or "0"
            if not (extra.isascii() and extra.isdigit() and len(extra) <= 2):
                raise MordheimError("Extra dice must be a number from 0 to 6.")
            await done(i, lambda: svc.explore(g, i.user.id, is_admin(i), view.id, view.version, entered=values["dice"], extra_dice=int(extra)))
        return DiceModal("Exploration dice", [("dice", "Dice rolled at the table",
                                               "Exploration dice, then the place's follow-up dice: 5 5 3 4 (empty: the bot rolls)", False),
                                              ("extra", "Extra dice from skills or equipment", "0", False)], submit)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PostBattleCog(bot))
