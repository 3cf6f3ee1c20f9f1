"""The harness drives views, menus, modals, follow-ups, edits and files like Discord would."""

import io

import discord
import pytest
from discord import app_commands

from bot.harness import Actor, HarnessInputError
from cogs._ui.views import Paginator


class Counter(discord.ui.View):
    def __init__(self):
        super().__init__(timeout=60)
        self.count = 0

    @discord.ui.button(label="Add", custom_id="t:add")
    async def add(self, interaction: discord.Interaction, button: discord.ui.Button):
        self.count += 1
        await interaction.response.edit_message(content=f"count {self.count}", view=self)

    @discord.ui.select(custom_id="t:pick", options=[discord.SelectOption(label="A", value="a"), discord.SelectOption(label="B", value="b")])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select):
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)


class Ask(discord.ui.Modal, title="Why?"):
    reason = discord.ui.TextInput(label="Reason", custom_id="reason")

    async def on_submit(self, interaction: discord.Interaction):
        await interaction.response.send_message(f"because {self.reason.value}")


def install(tree):
    @app_commands.command(name="counter", description="a counter")
    async def counter(interaction: discord.Interaction):
        await interaction.response.send_message("count 0", view=Counter())

    @app_commands.command(name="ask", description="opens a form")
    async def ask(interaction: discord.Interaction):
        await interaction.response.send_modal(Ask())

    @app_commands.command(name="slow", description="defers then follows up with a file")
    async def slow(interaction: discord.Interaction):
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("done", file=discord.File(io.BytesIO(b"abc"), filename="x.txt"))
        await interaction.edit_original_response(content="edited")

    @app_commands.command(name="pages", description="three pages")
    async def pages(interaction: discord.Interaction):
        embeds = [discord.Embed(title=f"page {i}") for i in range(1, 4)]
        view = Paginator(interaction.user.id, embeds)
        await interaction.response.send_message(embed=view.embed, view=view)

    for c in (counter, ask, slow, pages):
        tree.add_command(c)


async def test_button_edits_its_message(harness):
    install(harness.tree)
    first = await harness.command("counter")
    mid = first.message_id
    assert [c["custom_id"] for c in harness.messages[mid].components()] == ["t:add", "t:pick"]
    second = await harness.click(mid, "t:add")
    assert second.first.callback_type == 7 and second.first.data["content"] == "count 1"
    third = await harness.click(mid, "t:add")
    assert harness.messages[mid].data["content"] == "count 2" and third.first.message_id == mid


async def test_select_menu(harness):
    install(harness.tree)
    mid = (await harness.command("counter")).message_id
    res = await harness.select(mid, "t:pick", ["b"])
    assert res.first.data["content"] == "picked b" and res.ephemeral
    with pytest.raises(HarnessInputError):
        await harness.select(mid, "t:pick", ["zzz"])


async def test_modal_round_trip(harness):
    install(harness.tree)
    res = await harness.command("ask")
    assert res.first.callback_type == 9 and res.first.data["custom_id"]
    done = await harness.submit_modal(res.first.data["custom_id"], {"reason": "wyrdstone"})
    assert done.first.data["content"] == "because wyrdstone"


async def test_defer_followup_file_and_edit(harness):
    install(harness.tree)
    res = await harness.command("slow")
    assert [s.kind for s in res.sent] == ["callback", "followup", "edit_original"]
    assert res.sent[0].callback_type == 5
    assert res.sent[1].files[0]["filename"] == "x.txt"
    assert res.sent[1].body["attachments"][0]["filename"] == "x.txt"
    assert harness.messages[res.sent[0].message_id].data["content"] == "edited"


async def test_paginator_only_for_its_owner(harness):
    install(harness.tree)
    res = await harness.command("pages")
    mid = res.message_id
    assert res.embeds[0]["title"] == "page 1"
    nxt = await harness.click(mid, "page:next")
    assert nxt.first.data["embeds"][0]["title"] == "page 2"
    other = await harness.click(mid, "page:next", Actor(user_id=99))
    assert other.is_error and other.ephemeral and "Only" in other.text
    assert harness.messages[mid].data["embeds"][0]["title"] == "page 2"  # unchanged by the stranger


async def test_direct_message_payload(harness):
    res = await harness.command("echo", Actor(guild_id=None), text="dm")
    assert res.first.data["content"] == "dm"
