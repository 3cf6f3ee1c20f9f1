"""/warband: create, show, sheet, check, list, rename, edit, delete, treasury, log, undo, export and import warbands.

``/warband import`` reads our own export files, and BattleScribe or NewRecruit rosters (``.rosz``,
``.ros``): a roster is shown as it would be imported, with what cannot be, and stored only when the
member who imported it confirms.

Everything here belongs to the server the command is used in: the server id comes from the
interaction, never from what was typed. The service (engine.campaign.service.Campaigns) checks names,
limits and who may change what; this cog parses options, calls it and renders the answer.

One exception: ``/warband sheet`` also answers in the bot's direct messages, where there is no
server. There it offers and draws only the member's own warbands, from whichever servers they
are in (``Campaigns.own_warbands``, ``own_warband_sheet``); every other subcommand refuses
direct messages, as before, saying the sheet is the one that works there.
"""

from __future__ import annotations

import io
import json
import re

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.campaign import ServerOnly, call, campaigns, require_server, safe
from cogs._ui.context import is_admin, reads_plain_text
from cogs._ui.roster import check_pages, done_embed, ledger_line, ledger_pages, problem_pages, sheet_pages, treasury_embed, warband_list_pages
from cogs._ui.roster_import import preview_embed
from cogs._ui.sheet_files import PDF, PNG, draw_sheet, sheet_file
from cogs._ui.views import Confirm, check_same_server, send_pages
from cogs._ui.warrior_choices import (
    changeable_warband_choices,
    labelled_choices,
    own_warband_pick,
    server_name,
    sheet_warband_choices,
    warband_choices,
)
from engine.campaign.actions.roster_import import SOURCE as ROSTER_SOURCE
from engine.campaign.lists.catalogue import lookup_key
from engine.campaign.model import Warband, WarbandSheet
from engine.campaign.rules.roster_file import check_upload_size, is_roster_file
from engine.errors import InvalidData, LimitExceeded, MordheimError, NotFoundError, PermissionDenied
from engine.campaign.rules.transfer import MAX_IMPORT_BYTES
from engine.campaign.rules.validation import MAX_GOLD, MAX_WYRDSTONE

NAME_OPTION_MAX = 100  # generous: Discord's client stops worse; the service explains 65-100 itself
REASON_MAX = 200

WarbandName = app_commands.Range[str, 1, NAME_OPTION_MAX]


def export_file(data: dict, name: str) -> discord.File:
    """The service's versioned export as a JSON attachment named after the warband."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower()[:60] or "warband"
    blob = json.dumps(data, indent=2, ensure_ascii=False).encode("utf-8")
    return discord.File(io.BytesIO(blob), filename=f"{slug}.json")


def ensure_may_change(warband: Warband, interaction: discord.Interaction) -> None:
    """Refuse early (before a confirm button) what the service would refuse on confirm."""
    if not (is_admin(interaction) or warband.owner_id == interaction.user.id):
        raise PermissionDenied(
            f"Only the owner of {warband.name} (<@{warband.owner_id}>) or a member with Manage Server can change it.",
            hint="Anyone may view it with `/warband show`.",
        )


def _signed(n: int, unit: str) -> str:
    return f"{n:+d} {unit}"


class DeleteConfirm(Confirm):
    """Delete a warband on confirmation: only the member who asked, only in the server where they asked."""

    def __init__(self, owner_id: int, guild_id: int, warband: str) -> None:
        super().__init__(owner_id, self._delete, label="Delete for good")
        self.guild_id = guild_id
        self.warband = warband

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        check_same_server(interaction, self.guild_id)
        return await super().interaction_check(interaction)

    async def _delete(self, interaction: discord.Interaction) -> None:
        export = await call(campaigns(interaction).delete_warband, self.guild_id, interaction.user.id,
                            is_admin(interaction), self.warband)
        embed = done_embed(f"Deleted {safe(self.warband)}",
                           "Its warriors and battles are gone. The attached file is its export: "
                           "`/warband import` brings it back.")
        await interaction.response.edit_message(embed=embed, view=None, attachments=[export_file(export, self.warband)])


class RosterImportConfirm(Confirm):
    """Import a previewed roster on confirmation: only the member who asked, only in that server.

    It keeps the warband file the roster mapped to (plain JSON), so it is answered after a restart too."""

    def __init__(self, owner_id: int, guild_id: int, warband_file: dict, name: str | None) -> None:
        super().__init__(owner_id, self._import, label="Import")
        self.guild_id = guild_id
        self.warband_file = warband_file
        self.name = name

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        check_same_server(interaction, self.guild_id)
        return await super().interaction_check(interaction)

    async def _import(self, interaction: discord.Interaction) -> None:
        try:  # checked again in its own transaction: the name may have been taken since the preview
            wb = await call(campaigns(interaction).import_warband, self.guild_id, interaction.user.id, self.warband_file,
                            name=self.name, source=ROSTER_SOURCE)
        except InvalidData as exc:
            pages = problem_pages("The roster was not imported", exc.problems)
            await interaction.response.edit_message(embed=pages[0], view=None, attachments=[])
            return
        await interaction.response.edit_message(embed=imported_embed(wb, "from a BattleScribe roster"), view=None,
                                                attachments=[])


def imported_embed(wb: Warband, where: str = "") -> discord.Embed:
    return done_embed(f"Imported {safe(wb.name)}" + (f" {where}" if where else ""),
                      f"{safe(wb.warband_type)}, {len(wb.warriors)} warrior entr{'y' if len(wb.warriors) == 1 else 'ies'}, "
                      f"{wb.gold_crowns} gc and {wb.wyrdstone_shards} shard{'' if wb.wyrdstone_shards == 1 else 's'}, "
                      f"owned by <@{wb.owner_id}>. See it with `/warband show`.")


class Warbands(commands.Cog):
    """The /warband command group."""

    # offered in servers and in the bot's DMs (bot/command_scope.py): only ``sheet`` answers in a DM
    warband = app_commands.Group(name="warband", description="This server's campaign warbands")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        # pages drawn for the sheet object the service last returned per warband: the service
        # hands back the very same sheet until the warband changes (see show_warband)
        self._drawn: dict[tuple[int, int], tuple[object, list[discord.Embed]]] = {}

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if interaction.guild_id is None and not (interaction.command is not None and interaction.command.name == "sheet"):
            raise ServerOnly(" In a direct message, `/warband sheet` draws the sheet of a warband of yours.")
        return True

    async def _warband_types(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The server's warband lists (bundled and its own, of the grades it plays) whose name or alias
        holds what is typed, each with its grade. One indexed read and memory: asked on the event loop."""
        if interaction.guild_id is None:
            return []
        return labelled_choices(campaigns(interaction).warband_type_choices(interaction.guild_id, current or ""))

    @warband.command(name="create", description="Start a new warband from a warband list (or a custom type); you own it")
    @app_commands.describe(name="The warband's name (up to 64 characters)",
                           warband_type="A warband list (offered as you type), or any other type for a custom warband",
                           gold="Gold crowns to start with (default: the list's starting gold; 0 for a custom type)",
                           notes="Anything worth keeping with it")
    @app_commands.autocomplete(warband_type=_warband_types)
    async def create(self, interaction: discord.Interaction, name: WarbandName,
                     warband_type: app_commands.Range[str, 1, NAME_OPTION_MAX],
                     gold: app_commands.Range[int, 0, MAX_GOLD] | None = None,
                     notes: app_commands.Range[str, 0, 1000] = "") -> None:
        g = require_server(interaction)
        wb = await call(campaigns(interaction).create_warband, g, interaction.user.id, name, warband_type,
                        gold_crowns=gold, notes=notes)
        if wb.list_id:
            how = ("Hire from its list with `/hire fighter`, equip with `/trade buy`; hired swords with `/hire sword`, "
                   "Dramatis Personae with `/hire character`; see the roster with `/warband show`.")
            kind = safe(wb.warband_type)
        else:
            how = ("A custom warband: no list is checked. Recruit with `/warrior add`; see the roster with `/warband show`. "
                   "(`/warband create` offers the server's lists as you type `warband_type`.)")
            kind = f"{safe(wb.warband_type)} (custom)"
        embed = done_embed(f"{safe(wb.name)} is ready",
                           f"{kind}, owned by <@{wb.owner_id}>, {wb.gold_crowns} gc in the treasury.\n{how}")
        await interaction.response.send_message(embed=embed)

    @warband.command(name="show", description="The roster sheet: profiles, kit, experience, treasury, rating")
    @app_commands.describe(name="Which warband")
    @app_commands.autocomplete(name=warband_choices)
    async def show(self, interaction: discord.Interaction, name: WarbandName) -> None:
        g = require_server(interaction)
        service = campaigns(interaction)
        # a sheet still current is checked on the loop (indexed reads); only a rebuild needs a thread
        sheet = service.remembered_sheet(g, name) or await call(service.show_warband, g, name)
        key = (g, sheet.warband.id)
        drawn = self._drawn.get(key)
        if drawn is None or drawn[0] is not sheet:
            drawn = (sheet, sheet_pages(sheet))
            self._drawn[key] = drawn
            if len(self._drawn) > 256:
                self._drawn.pop(next(iter(self._drawn)))
        await send_pages(interaction, drawn[1])

    @warband.command(name="sheet", description="The roster sheet as a picture or a PDF to print and share (in DMs: yours)")
    @app_commands.rename(kind="format")
    @app_commands.describe(name="Which warband (in a direct message: one of yours, from any server)",
                           kind="png: one picture (the default); pdf: A4 pages to print")
    @app_commands.choices(kind=[app_commands.Choice(name="png: a picture to share", value=PNG),
                                app_commands.Choice(name="pdf: A4 pages to print", value=PDF)])
    @app_commands.autocomplete(name=sheet_warband_choices)
    async def sheet(self, interaction: discord.Interaction, name: WarbandName, kind: str = PNG) -> None:
        sheet, where = await self._sheet_to_draw(interaction, name)  # a bad name is refused before anything is shown
        plain = reads_plain_text(interaction)
        self.bot.heavy_work.check_room()  # a full queue: "busy", privately, before the public "thinking..."
        await interaction.response.defer(thinking=True)
        data = await self.bot.heavy_work.run(draw_sheet, sheet, kind, where)
        what = "a picture" if kind == PNG else "A4 pages to print"
        content = f"Roster sheet of **{safe(sheet.warband.name)}**" + (f" ({safe(where)})" if where else "") + f": {what}."
        file = sheet_file(sheet, kind, data)
        if not plain:
            await interaction.followup.send(content, file=file)
            return
        # a member who reads plain text gets the roster as text too, one page a message (each a valid
        # message even as embeds; bot/plain_text.py writes them as text)
        pages = sheet_pages(sheet)
        await interaction.followup.send(content, file=file, embed=pages[0])
        for page in pages[1:]:
            await interaction.followup.send(embed=page)

    async def _sheet_to_draw(self, interaction: discord.Interaction, name: str) -> tuple[WarbandSheet, str | None]:
        """The sheet asked for, and the server to print on it (in a direct message, where it is from)."""
        service = campaigns(interaction)
        if interaction.guild_id is not None:
            g = interaction.guild_id
            return service.remembered_sheet(g, name) or await call(service.show_warband, g, name), None
        guild_id, warband = own_warband_pick(name)
        try:
            owned, sheet = await call(service.own_warband_sheet, interaction.user.id, warband, guild_id=guild_id)
        except NotFoundError:
            if guild_id is None:
                raise
            # typed by hand, a name that only looks like a picked one ("1917/Winter")
            owned, sheet = await call(service.own_warband_sheet, interaction.user.id, name)
        return sheet, server_name(interaction, owned.guild_id)

    @warband.command(name="check", description="Everything the roster breaks: counts, kit off the lists, maxima")
    @app_commands.describe(name="Which warband")
    @app_commands.autocomplete(name=warband_choices)
    async def check(self, interaction: discord.Interaction, name: WarbandName) -> None:
        g = require_server(interaction)
        wb, result = await call(campaigns(interaction).check_warband, g, name)
        await send_pages(interaction, check_pages(wb.name, wb.warband_type, result.problems, result.notes))

    @warband.command(name="list", description="Every warband of this server, or one member's")
    @app_commands.describe(owner="Only this member's warbands")
    async def list_(self, interaction: discord.Interaction, owner: discord.User | None = None) -> None:
        g = require_server(interaction)
        found = await call(campaigns(interaction).list_warbands, g, owner_id=owner.id if owner else None)
        await send_pages(interaction, warband_list_pages(found, whose=f" owned by {safe(owner.display_name)}" if owner else ""))

    @warband.command(name="rename", description="Give a warband a new name")
    @app_commands.describe(name="Which warband", new_name="Its new name (up to 64 characters)")
    @app_commands.autocomplete(name=changeable_warband_choices)
    async def rename(self, interaction: discord.Interaction, name: WarbandName, new_name: WarbandName) -> None:
        g = require_server(interaction)
        wb = await call(campaigns(interaction).rename_warband, g, interaction.user.id, is_admin(interaction), name, new_name)
        await interaction.response.send_message(embed=done_embed("Renamed", f"**{safe(name.strip())}** is now **{safe(wb.name)}**."))

    @warband.command(name="edit", description="Change a warband's type or notes, or hand it to another member")
    @app_commands.describe(
        name="Which warband",
        warband_type="Its warband type, e.g. Reiklanders",
        notes="Notes shown on the roster sheet (replaces the old notes)",
        owner="Hand the warband to this member (they can then change it; you no longer can)",
    )
    @app_commands.autocomplete(name=changeable_warband_choices)
    async def edit(
        self,
        interaction: discord.Interaction,
        name: WarbandName,
        warband_type: app_commands.Range[str, 1, NAME_OPTION_MAX] | None = None,
        notes: app_commands.Range[str, 0, 1000] | None = None,
        owner: discord.User | None = None,
    ) -> None:
        g = require_server(interaction)
        if warband_type is None and notes is None and owner is None:
            raise MordheimError("Say what to change: `warband_type`, `notes` or `owner`.")
        wb = await call(
            campaigns(interaction).edit_warband, g, interaction.user.id, is_admin(interaction), name,
            warband_type=warband_type, notes=notes, owner_id=owner.id if owner else None,
        )
        changed = []
        if warband_type is not None:
            changed.append(f"type **{safe(wb.warband_type)}**")
        if notes is not None:
            changed.append("notes updated")
        if owner is not None:
            changed.append(f"now owned by <@{wb.owner_id}>")
        await interaction.response.send_message(embed=done_embed("Warband changed", f"**{safe(wb.name)}**: " + ", ".join(changed) + "."))

    @warband.command(name="delete", description="Delete a warband, its warriors and battles (asks first)")
    @app_commands.describe(name="Which warband")
    @app_commands.autocomplete(name=changeable_warband_choices)
    async def delete(self, interaction: discord.Interaction, name: WarbandName) -> None:
        g = require_server(interaction)
        wb = await call(campaigns(interaction).get_warband, g, name)
        ensure_may_change(wb, interaction)
        view = DeleteConfirm(interaction.user.id, g, wb.name)
        embed = discord.Embed(
            title=f"Delete {safe(wb.name)}?",
            description=f"{len(wb.warriors)} warrior entr{'y' if len(wb.warriors) == 1 else 'ies'}, "
                        f"{wb.gold_crowns} gc and {wb.wyrdstone_shards} shard{'' if wb.wyrdstone_shards == 1 else 's'} go with it. "
                        "You will get its export file to import it again.",
            colour=discord.Colour.orange(),
        )
        sent = await interaction.response.send_message(embed=embed, view=view)
        view.message = sent.resource if isinstance(sent.resource, discord.InteractionMessage) else None

    @warband.command(name="treasury", description="The treasury and stash; or add or spend gold and shards, with a reason")
    @app_commands.describe(name="Which warband", reason="Why (kept in the ledger), e.g. 'sold 2 shards'; leave out to only look",
                           gold="Gold crowns to add (negative to spend)", wyrdstone="Wyrdstone shards to add (negative to sell or spend)")
    @app_commands.autocomplete(name=warband_choices)
    async def treasury(self, interaction: discord.Interaction, name: WarbandName,
                       reason: app_commands.Range[str, 1, REASON_MAX] | None = None,
                       gold: app_commands.Range[int, -MAX_GOLD, MAX_GOLD] = 0,
                       wyrdstone: app_commands.Range[int, -MAX_WYRDSTONE, MAX_WYRDSTONE] = 0) -> None:
        g = require_server(interaction)
        if reason is None and not gold and not wyrdstone:  # only looking: anyone in the server may
            view = await call(campaigns(interaction).treasury, g, name)
            await interaction.response.send_message(embed=treasury_embed(view))
            return
        reason = reason or ""
        wb = await call(campaigns(interaction).change_treasury, g, interaction.user.id, is_admin(interaction), name,
                        gold=gold, wyrdstone=wyrdstone, reason=reason)
        change = ", ".join(x for x in (_signed(gold, "gc") if gold else "", _signed(wyrdstone, "shard" if abs(wyrdstone) == 1 else "shards") if wyrdstone else "") if x)
        embed = done_embed(f"Treasury of {safe(wb.name)}",
                           f"{change} — {safe(reason.strip())}\nNow **{wb.gold_crowns} gc** and "
                           f"**{wb.wyrdstone_shards} wyrdstone shard{'' if wb.wyrdstone_shards == 1 else 's'}**.")
        await interaction.response.send_message(embed=embed)

    @warband.command(name="log", description="The ledger: every change, who made it and why")
    @app_commands.describe(name="Which warband", limit="How many changes, newest first (default 20)")
    @app_commands.autocomplete(name=warband_choices)
    async def log(self, interaction: discord.Interaction, name: WarbandName,
                  limit: app_commands.Range[int, 1, 200] = 20) -> None:
        g = require_server(interaction)
        svc = campaigns(interaction)
        wb = await call(svc.get_warband, g, name)
        entries = await call(svc.ledger, g, wb.name, limit=limit)
        await send_pages(interaction, ledger_pages(wb.name, entries))

    @warband.command(name="undo", description="Undo the newest action not yet undone (a hire with its cost, say)")
    @app_commands.describe(name="Which warband")
    @app_commands.autocomplete(name=changeable_warband_choices)
    async def undo(self, interaction: discord.Interaction, name: WarbandName) -> None:
        g = require_server(interaction)
        undone = await call(campaigns(interaction).undo_last_batch, g, interaction.user.id, is_admin(interaction), name)
        warbands = list(dict.fromkeys(entry.warband for entry in undone))  # the named one first; an action on several: each
        if len(warbands) == 1:
            lines = "\n".join(ledger_line(entry) for entry in undone)
        else:
            lines = "\n".join(f"{safe(entry.warband)} · {ledger_line(entry)}" for entry in undone)
        await interaction.response.send_message(embed=done_embed(f"Undone in {' and '.join(safe(w) for w in warbands)}", lines))

    @warband.command(name="export", description="Download a warband as a JSON file (to keep, share or import)")
    @app_commands.describe(name="Which warband")
    @app_commands.autocomplete(name=warband_choices)
    async def export(self, interaction: discord.Interaction, name: WarbandName) -> None:
        g = require_server(interaction)
        data = await call(campaigns(interaction).export_warband, g, name)
        wname = data["warband"]["name"]
        embed = done_embed(f"Export of {safe(wname)}",
                           f"{len(data['warriors'])} warrior entr{'y' if len(data['warriors']) == 1 else 'ies'}, "
                           f"{len(data['battles'])} battle{'' if len(data['battles']) == 1 else 's'}; "
                           f"format `{data['format']}` version {data['version']}. Bring it back with `/warband import`.")
        await interaction.response.send_message(embed=embed, file=export_file(data, wname), ephemeral=True)

    @warband.command(name="import", description="Create a warband from a /warband export file or a BattleScribe roster")
    @app_commands.describe(file="A .json file of /warband export (at most 10 MB), or a BattleScribe/NewRecruit .rosz or .ros "
                                "(at most 1 MB)",
                           name="Import it under this name instead of the file's (up to 64 characters)")
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment, name: WarbandName | None = None) -> None:
        g = require_server(interaction)
        if is_roster_file(file.filename):
            check_upload_size(file.size)  # refused before it is read
            await self._import_roster(interaction, g, await file.read(), name)
            return
        if file.size > MAX_IMPORT_BYTES:
            raise LimitExceeded(
                f"The file is {file.size / (1024 * 1024):.1f} MB; the limit is {MAX_IMPORT_BYTES // (1024 * 1024)} MB. It was not read.",
                hint="Import a file written by `/warband export`, or a BattleScribe roster (.rosz).",
            )
        data = await file.read()
        if is_roster_file("", data[:4]):  # a .rosz renamed: read as a roster
            await self._import_roster(interaction, g, data, name)
            return
        svc = campaigns(interaction)
        problems = await call(svc.validate_import, g, data, name=name)
        if not problems:
            try:
                wb = await call(svc.import_warband, g, interaction.user.id, data, name=name)
            except InvalidData as exc:  # something changed between the check and the write
                problems = exc.problems
        if problems:
            await send_pages(interaction, problem_pages("The file was not imported", problems), ephemeral=True)
            return
        await interaction.response.send_message(embed=imported_embed(wb))

    async def _import_roster(self, interaction: discord.Interaction, guild_id: int, data: bytes, name: str | None) -> None:
        """A roster's preview with Import and Cancel; its problems, privately, when it cannot be imported."""
        preview = await call(campaigns(interaction).read_roster_file, guild_id, data, name=name)
        if preview.problems:
            await send_pages(interaction, problem_pages("The roster was not imported", list(preview.problems)), ephemeral=True)
            return
        view = RosterImportConfirm(interaction.user.id, guild_id, preview.warband_file, name)
        embed, whole = preview_embed(preview)
        if whole is None:
            sent = await interaction.response.send_message(embed=embed, view=view)
        else:
            sent = await interaction.response.send_message(embed=embed, view=view, file=whole)
        view.message = sent.resource if isinstance(sent.resource, discord.InteractionMessage) else None


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Warbands(bot))
