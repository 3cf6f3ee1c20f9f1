"""/campaign: the server's standings and the log of every battle (anyone may read them).

Both are public answers: a campaign's table is meant to be seen. They read only this server's
rows, paged when long instead of cut. The standings draw only the page shown; their page buttons
draw the page asked for from the standings as they are then (so a campaign of a thousand
warbands costs one page, and a button works after a restart).
"""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.campaign import call, campaigns, require_server, safe
from cogs._ui.postbattle_render import standings_pages
from cogs._ui.views import guarded, send_pages
from engine.campaign.actions.standings import Standing, Standings
from engine.errors import PermissionDenied

RESULT_WORDS = {"win": "beat", "loss": "lost to", "draw": "drew with"}
STANDINGS_PER_PAGE = 20  # warbands on one page of the standings


def standings_line(place: int, r: Standing) -> str:
    return (f"**{place}. {safe(r.warband)}** ({safe(r.warband_type)}) — rating **{r.rating}** · "
            f"{r.battles} battle{'s' if r.battles != 1 else ''}: {r.wins}W {r.draws}D {r.losses}L · "
            f"{r.shards_found} shard{'s' if r.shards_found != 1 else ''} found"
            + (f" · best hero {safe(r.best_hero)}" if r.best_hero else ""))


def standings_page(s: Standings, page: int, asker_id: int) -> tuple[discord.Embed, discord.ui.View | None]:
    """One page of the standings as they are now (the page is clamped to those there are), and its
    buttons: only this page's lines are drawn, whatever the size of the campaign."""
    pages = max(1, -(-len(s.rows) // STANDINGS_PER_PAGE))
    page = min(max(page, 0), pages - 1)
    first = page * STANDINGS_PER_PAGE
    lines = [standings_line(first + n + 1, r) for n, r in enumerate(s.rows[first:first + STANDINGS_PER_PAGE])]
    heroes = [f"{safe(h.hero)} of {safe(h.warband)} — {h.experience} xp" for h in s.heroes] if page == 0 else []
    embed = standings_pages("Campaign standings", lines, heroes)[0]
    if pages == 1:
        return embed, None
    embed.set_footer(text=f"Page {page + 1} of {pages} · {len(s.rows)} warbands")
    view = discord.ui.View(timeout=None)
    for label, target, ok in (("◀ Previous", page - 1, page > 0), ("Next ▶", page + 1, page < pages - 1)):
        view.add_item(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=not ok,
                                        custom_id=f"{STANDINGS_PAGE_ID}:{'p' if target < page else 'n'}:{max(target, 0)}:{asker_id}"))
    return embed, view


STANDINGS_PAGE_ID = "cst"


class StandingsPageButton(discord.ui.DynamicItem[discord.ui.Button],
                          template=STANDINGS_PAGE_ID + r":(?P<way>[pn]):(?P<page>\d{1,4}):(?P<asker>\d{1,20})"):
    """A page button of the standings: ``cst:<p|n>:<page>:<who asked>``. It draws that page from the
    standings as they are when pressed, so it works after a restart and never shows an old table."""

    def __init__(self, item: discord.ui.Button, match: re.Match[str]) -> None:
        super().__init__(item)
        self.page, self.asker_id = int(match["page"]), int(match["asker"])

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(item, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self.turn)

    async def turn(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.asker_id:
            raise PermissionDenied("Only the member who asked for these standings can turn their pages.",
                                   hint="Ask for your own with `/campaign standings`.")
        g = require_server(interaction)
        embed, view = standings_page(await current_standings(interaction, g), self.page, self.asker_id)
        await interaction.response.edit_message(embed=embed, view=view)


QUICK_CHANGES = 3  # warbands changed since the standings were built that are re-rated here, on the event loop


async def current_standings(interaction: discord.Interaction, guild_id: int) -> Standings:
    """The server's standings: as remembered, or brought up to date here when a few warbands changed
    (a few short reads each), else built in a worker thread."""
    c = campaigns(interaction)
    return c.remembered_standings(guild_id, changes_at_most=QUICK_CHANGES) or await call(c.standings, guild_id)


class CampaignCog(commands.Cog, name="CampaignCog"):
    campaign_group = app_commands.Group(name="campaign", description="This server's campaign: standings and battle log", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(StandingsPageButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(StandingsPageButton)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        require_server(interaction)
        return True

    @campaign_group.command(name="standings", description="Every warband's rating, battles, wins, draws, losses and shards found")
    async def standings(self, interaction: discord.Interaction) -> None:
        g = require_server(interaction)
        embed, view = standings_page(await current_standings(interaction, g), 0, interaction.user.id)
        if view is None:
            await interaction.response.send_message(embed=embed)
        else:
            await interaction.response.send_message(embed=embed, view=view)

    @campaign_group.command(name="log", description="Every battle of this server's campaign, newest first")
    @app_commands.describe(limit="How many battles (default 50)")
    async def log(self, interaction: discord.Interaction, limit: app_commands.Range[int, 1, 500] = 50) -> None:
        g = require_server(interaction)
        entries = await call(campaigns(interaction).campaign_log, g, limit=limit)
        lines = []
        for e in entries:
            against = f" {RESULT_WORDS[e.result]} {safe(e.opponent)}" if e.opponent else f": {e.result}"
            scenario = (f" · {safe(e.scenario)}" + (" (custom)" if e.custom_scenario else "")) if e.scenario else ""
            line = f"`{e.fought_on}` **{safe(e.warband)}**{against}{scenario}"
            if e.notes:
                line += f" — {safe(e.notes)}"
            lines.append(line)
        await send_pages(interaction, standings_pages("Campaign log", lines, []))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CampaignCog(bot))
