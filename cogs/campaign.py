"""/campaign: the server's standings and the log of every battle (anyone may read them).

Both are public answers: a campaign's table is meant to be seen. They read only this server's
rows, paged when long instead of cut.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.campaign import call, campaigns, require_server, safe
from cogs._ui.postbattle_render import standings_pages
from cogs._ui.views import send_pages

PAGES_KEPT = 256
RESULT_WORDS = {"win": "beat", "loss": "lost to", "draw": "drew with"}


class CampaignCog(commands.Cog, name="CampaignCog"):
    campaign_group = app_commands.Group(name="campaign", description="This server's campaign: standings and battle log", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._pages: dict[int, tuple[object, list[discord.Embed]]] = {}  # server -> (its standings, their pages)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        require_server(interaction)
        return True

    @campaign_group.command(name="standings", description="Every warband's rating, battles, wins, draws, losses and shards found")
    async def standings(self, interaction: discord.Interaction) -> None:
        g = require_server(interaction)
        # Unchanged standings are a short read, done here; building them takes a worker thread.
        c = campaigns(interaction)
        s = c.remembered_standings(g) or await call(c.standings, g)
        cached = self._pages.get(g)
        if cached is not None and cached[0] is s:  # the same standings object: nothing changed since
            await send_pages(interaction, cached[1])
            return
        lines = [
            f"**{n}. {safe(r.warband)}** ({safe(r.warband_type)}) — rating **{r.rating}** · {r.battles} battle{'s' if r.battles != 1 else ''}: "
            f"{r.wins}W {r.draws}D {r.losses}L · {r.shards_found} shard{'s' if r.shards_found != 1 else ''} found"
            + (f" · best hero {safe(r.best_hero)}" if r.best_hero else "")
            for n, r in enumerate(s.rows, start=1)
        ]
        heroes = [f"{safe(h.hero)} of {safe(h.warband)} — {h.experience} xp" for h in s.heroes]
        pages = standings_pages("Campaign standings", lines, heroes)
        self._pages[g] = (s, pages)
        while len(self._pages) > PAGES_KEPT:
            self._pages.pop(next(iter(self._pages)))
        await send_pages(interaction, pages)

    @campaign_group.command(name="log", description="Every battle of this server's campaign, newest first")
    @app_commands.describe(limit="How many battles (default 50)")
    async def log(self, interaction: discord.Interaction, limit: app_commands.Range[int, 1, 500] = 50) -> None:
        g = require_server(interaction)
        entries = await call(campaigns(interaction).campaign_log, g, limit=limit)
        lines = []
        for e in entries:
            against = f" {RESULT_WORDS[e.result]} {safe(e.opponent)}" if e.opponent else f": {e.result}"
            line = f"`{e.fought_on}` **{safe(e.warband)}**{against}" + (f" · {safe(e.scenario)}" if e.scenario else "")
            if e.notes:
                line += f" — {safe(e.notes)}"
            lines.append(line)
        await send_pages(interaction, standings_pages("Campaign log", lines, []))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CampaignCog(bot))
