"""Small commands about the bot itself: /help and the trivial /echo the benchmarks compare against.

/echo is for the offline console and the benchmarks: it stays in the tree but is never sent to
Discord (bot/command_scope.py), so members are not offered it.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.embeds import info_embed
from engine.combat.profile import template_names

OVERVIEW = (
    "**/roll** `2d6+1 to hit` — any dice expression (`/help topic:dice`).\n"
    "**/test**, **/leadership**, **/injury**, **/artillery**, **/scatter** — Mordheim rolls in the game's words.\n"
    "**/luck** — everyone's dice in this server against what fair dice give, with charts.\n"
    "**/rule** and **/rules** search — look up any rule, weapon, item or spell, and any warband list, list fighter, "
    "hired sword, character or skill (`/help topic:rules`).\n"
    "**/shoot**, **/fight**, **/odds** — resolve a shot or a fight, or see its exact odds (`/help topic:combat`).\n"
    "**/fall**, **/jump** — falling and jumping down, rolled with the exact odds beside them.\n"
    "**/warband**, **/warrior**, **/battle**, **/hire**, **/trade** — this server's campaign warbands, built from the "
    "warband lists (`/help topic:warbands`).\n"
    "**/game** — a live tracker of the game at the table: who is down, stunned or out, the Rout test, then the "
    "post-battle sequences filled in.\n"
    "**/postbattle** — the post-battle sequence, step by step; **/campaign** — standings and the battle log.\n"
    "**/settings** — this server's edition and house rules; **/admin** changes them (`/help topic:settings`).\n"
    "**/preferences** — answers as plain text instead of embeds, for screen readers or by taste."
)

TOPICS = {
    "dice": (
        "Dice",
        "`2d6`, `d6`, `3D6+2` — dice and arithmetic (`+ - *`, parentheses)\n"
        "`D3` — a D6 halved, rounding up; the D6 is shown (000:188)\n"
        "`D66` — tens die and units die, 11–66\n"
        "`4d6kh3`, `2d6kl1`, `4d6dl1` — keep highest / keep lowest / drop lowest\n"
        "`3d6r1`, `3d6r<=2` — re-roll once each die at or below the value; the second score stands\n"
        "`5d6 4+` — count the dice scoring 4 or more; `2d6<=7`, `2d6>=7` — test the total (Leadership, casting)\n"
        "`2d6, d6` — several rolls at once; `3x 2d6` — the same roll three times\n"
        "`art`, `scatter` — the Artillery dice (2–10 or Misfire) and the Scatter dice (002:72–87)\n"
        "`2d6 to hit` — text after the expression is a label\n\n"
        "Limits: 200 characters, 100 dice, 20 rolls, 1000 sides, 10 levels of parentheses.\n"
        "**Re-roll**, **Re-roll failed**, **Re-roll one…** (for the roller only): a die is re-rolled once at most "
        "(004:62) and the original stays shown. `secret:true` shows you the roll and the table only that you rolled, "
        "with a **Reveal** button. `/luck optout` stops the record of your rolls.",
    ),
    "rules": (
        "Rules lookup",
        "`/rule parry`, `/rule 2h`, `/rule can I shoot into combat` — names, abbreviations or questions; "
        "autocomplete suggests entries as you type.\n"
        "`/rule query:flail edition:core` — read another edition; **Other editions** compares them.\n"
        "`/rules search text:knocked down` — full-text search with snippets; pick one to read it.\n"
        "Every answer cites the rulebook file and lines it comes from.",
    ),
    "combat": (
        "Combat",
        "Fighters are a profile (`4 3 3 3 3 1 3 1 7` in the order M WS BS S T W I A Ld, or `WS4 S4 T3`), "
        f"a template ({', '.join(template_names())}) or a stored `Warband/Warrior`; the fighter boxes "
        "suggest them as you type.\n"
        "`/fight attacker:\"WS4 S4\" defender:human attacker_weapons:\"sword, dagger\"` — one close-combat round, every die explained.\n"
        "`/shoot attacker:human defender:human attacker_weapons:bow range:12` — one shot.\n"
        "`/odds ... mode:duel` — exact odds of a shot, a round or a duel to the end.\n"
        "`/fall height:4` and `/jump height:5 who:Reavers/Otto` — D3 hits at S = height, no saves (000:431); "
        "an Initiative test per full 2\" jumped (000:415).\n"
        "Results follow the server's edition and house rules, named in the footer.",
    ),
    "warbands": (
        "Warbands",
        "`/warband create` — pick a warband list as you type `warband_type` (Reiklanders, Skaven...): it sets the starting "
        "gold and limits. Any other type is a custom warband, kept by hand with `/warrior add`.\n"
        "`/hire fighter` — heroes one at a time, henchmen in groups of 1-5; `/hire sword` (with `kit:` where his employer "
        "chooses his weapons), `/hire character` (Dramatis Personae) and `/hire upkeep` — hired swords and characters.\n"
        "`/trade buy`, `/trade sell` (half price) — kit from each warrior's list, the first dagger free; "
        "`/trade search` — a hero's 2D6 roll for a rare item after a battle; `/trade stash`, `give`, `store` — the stash.\n"
        "`/warband show` — the roster sheet with costs, value, rating and what can still be hired; `/warband check` — "
        "every rule the roster breaks; `/warband log` and `/warband undo` — every action and how to take it back "
        "(a hire with its gold, say).\n"
        "`/game start` with the warbands at the table: one message follows the game (mark your warriors from your own "
        "panel; **Next turn** runs the recovery phase and asks for the Rout test when it is due); its end records the "
        "battles and opens the post-battle sequences filled in. Or, after a game played without it, "
        "`/battle record` after each game (name the `opponent` to record it for both warbands), then "
        "`/postbattle start`: injuries, experience and advances, exploration, selling wyrdstone and hired swords' upkeep, "
        "with every die shown and one `/warband undo` taking it all back; `/postbattle captives` — ransom, exchange or "
        "sell a captured hero. `/campaign standings` and `/campaign log` show the campaign. "
        "`/warrior xp` and `/warrior injure` change one warrior by hand.\n"
        "Anyone in the server can view; only the owner or Manage Server can change. "
        "`/warband export` and `/warband import` move a warband as a JSON file.",
    ),
    "settings": (
        "Settings",
        "`/settings show` — the edition and house rules this server uses.\n"
        "`/admin edition`, `/admin houserule`, `/admin reset`, `/admin campaign`, `/admin warbands` (the server's own "
        "warband lists) — change them (only members with Manage Server see `/admin`).\n"
        "`/admin plaintext` — answer everyone here in plain text instead of embeds; each member can still choose "
        "for themselves with `/preferences plaintext`.\n"
        "`/admin tracker anyone_marks:true` — any player of a game marks any of its warriors on the battle tracker.\n"
        "House rules are where the rulebooks are ambiguous; each one's default follows the rulebook's wording.",
    ),
}


class Meta(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What the bot can do and how to use it")
    @app_commands.describe(topic="More about one part of the bot")
    @app_commands.choices(topic=[app_commands.Choice(name=t, value=t) for t in TOPICS])
    async def help(self, interaction: discord.Interaction, topic: app_commands.Choice[str] | None = None) -> None:
        if topic is None:
            embed = info_embed("Mordheim bot", OVERVIEW)
        else:
            title, text = TOPICS[topic.value]
            embed = info_embed(f"Help: {title}", text)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="echo", description="Repeat some text back to you (console and benchmarks only)")
    @app_commands.describe(text="What to repeat")
    async def echo(self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 2000]) -> None:
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Meta(bot))
