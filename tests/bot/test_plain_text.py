"""Plain-text answers: chosen per member or per server, applied to every message of every answer."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.harness import ADMIN_PERMISSIONS, Actor
from bot.text_render import CONTENT_LIMIT, FENCE, embed_as_text, split_text
from cogs._ui.views import Paginator

GUILD = 111
MEMBER = Actor(user_id=1, guild_id=GUILD)
OTHER = Actor(user_id=2, guild_id=GUILD)
ADMIN = Actor(user_id=3, guild_id=GUILD, permissions=ADMIN_PERMISSIONS)
MEMBER_IN_DM = Actor(user_id=1, guild_id=None)


def texts_only(result) -> bool:
    """Every message of the answer has content and no embeds."""
    messages = [s for s in result.sent if s.kind in ("callback", "followup", "edit_original") and s.callback_type in (None, 4, 7)]
    return bool(messages) and all(s.data.get("content") and not s.data.get("embeds") for s in messages)


def add_commands(tree: app_commands.CommandTree) -> None:
    @app_commands.command(name="long", description="one long embed")
    async def long(interaction: discord.Interaction):
        text = "\n".join(f"Line {n} of the answer, with some words to make it long enough." for n in range(120))
        await interaction.response.send_message(embed=discord.Embed(title="Long", description=text[:4000]), ephemeral=True)

    @app_commands.command(name="later", description="defers, then writes an embed and follows up with another")
    async def later(interaction: discord.Interaction):
        await interaction.response.defer()
        await interaction.edit_original_response(embed=discord.Embed(title="Written later", description="first"))
        await interaction.followup.send(embed=discord.Embed(title="And a follow-up", description="<@2> second"))

    @app_commands.command(name="bigpages", description="two long pages")
    async def bigpages(interaction: discord.Interaction):
        pages = [discord.Embed(title=f"Page {p}", description="\n".join(f"p{p} line {n} " + "w" * 40 for n in range(80)))
                 for p in (1, 2)]
        view = Paginator(interaction.user.id, pages)
        await interaction.response.send_message(embed=view.embed, view=view)

    for c in (long, later, bigpages):
        tree.add_command(c)


async def test_a_member_who_chooses_plain_text_gets_text_everywhere(harness):
    before = await harness.command("roll", MEMBER, expression="2d6")
    assert before.embeds and not before.content
    saved = await harness.command("preferences plaintext", MEMBER, mode="on")
    assert saved.ephemeral and "plain text" in saved.content and "your own choice" in saved.content
    after = await harness.command("roll", MEMBER, expression="2d6")
    assert texts_only(after) and "Total" in after.content
    assert "Re-roll" in str(after.first.data["components"])  # the buttons stay
    assert (await harness.command("roll", OTHER, expression="2d6")).embeds  # nobody else changed
    assert texts_only(await harness.command("help", MEMBER_IN_DM))  # a member's choice follows them to DMs
    errors = await harness.command("roll", MEMBER, expression="2d0")
    assert texts_only(errors) and errors.ephemeral and "2 sides" in errors.content


async def test_a_server_choice_applies_to_members_who_have_not_chosen(harness):
    refused = await harness.command("admin plaintext", OTHER, on=True)
    assert refused.is_error and "Manage Server" in refused.text
    done = await harness.command("admin plaintext", ADMIN, on=True)
    assert "plain text" in done.content and not done.ephemeral
    assert texts_only(await harness.command("help", OTHER))
    assert (await harness.command("help", Actor(user_id=2, guild_id=999))).embeds  # another server keeps embeds
    await harness.command("preferences plaintext", MEMBER, mode="off")
    assert (await harness.command("help", MEMBER)).embeds  # the member's own choice wins
    shown = await harness.command("preferences show", MEMBER)
    assert "embeds" in shown.content and "your own choice" in shown.content
    await harness.command("preferences plaintext", MEMBER, mode="server")
    assert "this server's choice" in (await harness.command("preferences show", MEMBER)).content
    with harness.bot.store.read() as c:
        assert c.scalar("SELECT count(*) FROM ledger WHERE guild_id = ? AND what = 'settings.plain_text'", (GUILD,)) == 1


async def test_long_text_is_split_into_follow_ups_seen_by_the_same_people(harness):
    add_commands(harness.tree)
    await harness.command("preferences plaintext", MEMBER, mode="on")
    res = await harness.command("long", MEMBER)
    parts = [s for s in res.sent if s.data.get("content")]
    assert [s.kind for s in parts][0] == "callback" and all(s.kind == "followup" for s in parts[1:]) and len(parts) >= 3
    assert all(len(s.data["content"]) <= CONTENT_LIMIT and s.ephemeral for s in parts)  # the answer was private
    joined = "\n".join(s.data["content"] for s in parts)
    assert all(f"Line {n} of" in joined for n in range(60))
    assert all(s.data.get("allowed_mentions") == {"parse": []} for s in parts)


async def test_deferred_answers_edits_and_follow_ups_are_text_and_never_ping(harness):
    add_commands(harness.tree)
    await harness.command("preferences plaintext", MEMBER, mode="on")
    res = await harness.command("later", MEMBER)
    assert [s.kind for s in res.sent] == ["callback", "edit_original", "followup"]
    assert "**Written later**" in res.sent[1].data["content"] and not res.sent[1].data["embeds"]
    follow = res.sent[2].data
    assert "<@2> second" in follow["content"] and follow["allowed_mentions"]["parse"] == []


async def test_page_turns_in_plain_text_send_the_rest_to_the_presser(harness):
    add_commands(harness.tree)
    await harness.command("preferences plaintext", MEMBER, mode="on")
    first = await harness.command("bigpages", MEMBER)
    mid = first.message_id
    assert not first.sent[0].ephemeral and all(not s.ephemeral for s in first.sent)  # a public answer stays public
    assert [c["custom_id"] for c in harness.messages[mid].components()] == ["page:prev", "page:count", "page:next"]
    turned = await harness.click(mid, "page:next", MEMBER)
    assert turned.first.callback_type == 7 and turned.first.data["content"].startswith("**Page 2**")
    rest = [s for s in turned.sent if s.kind == "followup"]
    assert rest and all(s.ephemeral for s in rest)
    joined = "\n".join(s.data["content"] for s in turned.sent)
    assert all(f"p2 line {n} " in joined for n in range(80))


def test_embed_as_text_keeps_everything_in_reading_order():
    embed = discord.Embed(title="Otto", description="A captain.", colour=discord.Colour.gold())
    embed.set_author(name="Reikland Reavers")
    embed.add_field(name="Profile", value="```\nM WS\n4  4\n```")
    embed.add_field(name="\u200b", value="no name")
    embed.set_footer(text="Edition: LRB")
    text = embed_as_text(embed.to_dict())
    assert text.splitlines() == ["*Reikland Reavers*", "**Otto**", "A captain.", "", "**Profile**", "```", "M WS", "4  4",
                                 "```", "", "no name", "-# Edition: LRB"]


def test_split_text_cuts_at_lines_and_keeps_code_blocks_closed():
    table = FENCE + "\n" + "\n".join(f"{n:>4} {'x' * 60}" for n in range(100)) + "\n" + FENCE
    text = "Intro line\n" + table + "\nAfter the table"
    parts = split_text(text)
    assert len(parts) > 2 and all(len(p) <= CONTENT_LIMIT for p in parts)
    assert all(p.count(FENCE) % 2 == 0 for p in parts)  # every part opens and closes its blocks
    assert "\n".join(p.replace(FENCE + "\n", "").replace("\n" + FENCE, "") for p in parts).count("x" * 60) == 100
    one_long_line = "word " * 1000
    assert all(len(p) <= CONTENT_LIMIT for p in split_text(one_long_line))
    assert split_text("short") == ["short"]
