"""Paged answers and confirm questions keep working after a restart: a new bot on the same file."""

from __future__ import annotations

import asyncio
import datetime as dt

import discord
from discord import app_commands

from bot.harness import ADMIN_PERMISSIONS, Actor, Harness
from bot.tree import UNKNOWN_COMPONENT
from cogs._ui.views import PAGES_GONE, QUESTION_FROM_BEFORE_RESTART, QUESTION_GONE, Confirm, Paginator
from engine.storage import Store
from engine.storage.kept_answers import KeptAnswers, encode_body
from tests.conftest import make_bot

GUILD_A, GUILD_B = 111, 222
OWNER = Actor(user_id=1, guild_id=GUILD_A)
OTHER = Actor(user_id=2, guild_id=GUILD_A)
OWNER_IN_B = Actor(user_id=1, guild_id=GUILD_B)


def add_test_commands(tree: app_commands.CommandTree) -> None:
    @app_commands.command(name="pages", description="three pages")
    async def pages(interaction: discord.Interaction):
        embeds = [discord.Embed(title=f"page {i}", description="x" * i, colour=discord.Colour.gold()) for i in range(1, 4)]
        view = Paginator(interaction.user.id, embeds)
        await interaction.response.send_message(embed=view.embed, view=view)

    @app_commands.command(name="ask", description="a question whose answer is a closure")
    async def ask(interaction: discord.Interaction):
        async def yes(i: discord.Interaction):
            await i.response.edit_message(content="done", view=None)

        await interaction.response.send_message("Sure?", view=Confirm(interaction.user.id, yes))

    @app_commands.command(name="counter", description="an ordinary view, kept in memory only")
    async def counter(interaction: discord.Interaction):
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="Add", custom_id="t:add"))
        await interaction.response.send_message("count 0", view=view)

    for c in (pages, ask, counter):
        tree.add_command(c)


async def restarted(tmp_path, before: Harness, *message_ids: int) -> Harness:
    """A new bot on the same database, shown the messages the old one sent (Discord keeps them)."""
    await before.close()
    after = Harness(make_bot(tmp_path))
    after._ids = before._ids  # Discord's ids never repeat: go on counting where the old one stopped
    await after.start()
    for mid in message_ids:
        after.messages[mid] = before.messages[mid]
    return after


async def test_pages_turn_after_a_restart_for_their_owner_only(tmp_path):
    before = await Harness(make_bot(tmp_path)).start()
    add_test_commands(before.tree)
    sent = await before.command("pages", OWNER)
    mid = sent.message_id
    assert [c["custom_id"] for c in before.messages[mid].components()] == ["page:prev", "page:count", "page:next"]
    assert (await before.click(mid, "page:next", OWNER)).embeds[0]["title"] == "page 2"

    after = await restarted(tmp_path, before, mid)
    try:
        turned = await after.click(mid, "page:next", OWNER)
        assert turned.first.callback_type == 7 and turned.embeds[0]["title"] == "page 3"  # it remembered page 2
        assert turned.embeds[0]["color"] == discord.Colour.gold().value
        counter = after.messages[mid].components()[1]
        assert counter["label"] == "3/3" and counter["disabled"]
        assert after.messages[mid].components()[2]["disabled"]  # ▶ on the last page
        back = await after.click(mid, "page:prev", OWNER)
        assert back.embeds[0]["title"] == "page 2"
        stranger = await after.click(mid, "page:prev", OTHER)
        assert stranger.is_error and stranger.ephemeral and "Only <@1> can turn these pages" in stranger.text
        elsewhere = await after.click(mid, "page:prev", OWNER_IN_B)
        assert elsewhere.is_error and "another server" in elsewhere.text
        assert after.messages[mid].data["embeds"][0]["title"] == "page 2"  # neither changed it
    finally:
        await after.close()


async def test_a_real_roster_sheet_pages_after_a_restart(tmp_path):
    before = await Harness(make_bot(tmp_path)).start()
    campaigns = before.bot.campaigns
    campaigns.create_warband(GUILD_A, 1, "Thirty Strong", "Skaven")
    profile = dict(M=5, WS=3, BS=3, S=3, T=3, W=1, I=4, A=1, Ld=5)
    for n in range(30):
        role = "leader" if n == 0 else "hero" if n < 6 else "henchmen"
        campaigns.add_warrior(GUILD_A, 1, False, "Thirty Strong", f"Warrior {n}", role=role,
                              warrior_type="Verminkin", profile=profile, equipment=["Sword", "Dagger"])
        if n >= 19:  # the list allows 20 models
            campaigns.edit_warrior(GUILD_A, 1, False, "Thirty Strong", f"Warrior {n}", status="dead")
    sent = await before.command("warband show", OTHER, name="Thirty Strong")
    mid = sent.message_id
    pages = int(before.messages[mid].components()[1]["label"].split("/")[1])
    after = await restarted(tmp_path, before, mid)
    try:
        seen = [sent.text]
        for _ in range(pages - 1):
            seen.append((await after.click(mid, "page:next", OTHER)).text)
        everything = "\n".join(seen)
        assert all(f"Warrior {n} (" in everything for n in range(30))
    finally:
        await after.close()


async def test_delete_confirmed_after_a_restart_once_and_by_the_asker_only(tmp_path):
    before = await Harness(make_bot(tmp_path)).start()
    await before.command("warband create", OWNER, name="Reavers", warband_type="Reiklanders")
    ask = await before.command("warband delete", OWNER, name="Reavers")
    mid = ask.message_id
    after = await restarted(tmp_path, before, mid)
    try:
        admin = Actor(user_id=3, guild_id=GUILD_A, permissions=ADMIN_PERMISSIONS)
        assert "Only <@1> can answer this" in (await after.click(mid, "confirm:yes", admin)).text
        assert "another server" in (await after.click(mid, "confirm:yes", OWNER_IN_B)).text
        both = await asyncio.gather(after.click(mid, "confirm:yes", OWNER), after.click(mid, "confirm:yes", OWNER))
        assert sorted(r.is_error for r in both) == [False, True]
        done = next(r for r in both if not r.is_error)
        assert done.embeds[0]["title"] == "Deleted Reavers" and done.sent[0].files[0]["filename"] == "reavers.json"
        assert "already answered" in next(r for r in both if r.is_error).text
        assert after.bot.campaigns.list_warbands(GUILD_A) == []
    finally:
        await after.close()


async def test_cancel_after_a_restart(tmp_path):
    before = await Harness(make_bot(tmp_path)).start()
    await before.command("warband create", OWNER, name="Reavers", warband_type="Reiklanders")
    mid = (await before.command("warband delete", OWNER, name="Reavers")).message_id
    after = await restarted(tmp_path, before, mid)
    try:
        no = await after.click(mid, "confirm:no", OWNER)
        assert "Cancelled; nothing changed." in no.text and after.messages[mid].components() == []
        assert after.bot.campaigns.get_warband(GUILD_A, "Reavers")
    finally:
        await after.close()


async def test_a_question_that_cannot_be_rebuilt_says_so_after_a_restart(tmp_path):
    before = await Harness(make_bot(tmp_path)).start()
    add_test_commands(before.tree)
    first = (await before.command("ask", OWNER)).message_id
    second = (await before.command("ask", OWNER)).message_id
    assert (await before.click(first, "confirm:yes", OWNER)).first.data["content"] == "done"  # fine until then
    after = await restarted(tmp_path, before, second)
    try:
        late = await after.click(second, "confirm:yes", OWNER)
        assert late.is_error and late.ephemeral and QUESTION_FROM_BEFORE_RESTART in late.text
    finally:
        await after.close()


async def test_an_ordinary_view_from_before_a_restart_gets_an_explanation(tmp_path):
    before = await Harness(make_bot(tmp_path)).start()
    add_test_commands(before.tree)
    mid = (await before.command("counter", OWNER)).message_id
    after = await restarted(tmp_path, before, mid)
    try:
        pressed = await after.click(mid, "t:add", OWNER)
        assert pressed.ephemeral and UNKNOWN_COMPONENT in pressed.text
    finally:
        await after.close()


async def test_pages_and_questions_expire(tmp_path):
    clock = [dt.datetime(2024, 6, 1, 12, 0, tzinfo=dt.timezone.utc)]
    with Store.open(tmp_path / "k.db") as store:
        kept = KeptAnswers(store, now=lambda: clock[0])
        day = dt.timedelta(days=1)
        kept.keep(1, kind="pages", guild_id=7, owner_id=2, body=encode_body({"pages": [{"title": "a"}]}), lifetime=day)
        kept.keep(1, kind="pages", guild_id=8, owner_id=9, body=encode_body({}), lifetime=day)  # the first wins
        kept.keep(2, kind="confirm", guild_id=None, owner_id=2, body=encode_body({}), lifetime=dt.timedelta(minutes=2))
        assert kept.get(1).owner_id == 2 and kept.get(1).body == {"pages": [{"title": "a"}]}
        assert kept.claim_answer(2) and not kept.claim_answer(2)
        clock[0] += dt.timedelta(minutes=3)
        assert kept.get(2) is None and kept.get(1) is not None
        clock[0] += dt.timedelta(days=1)
        assert kept.get(1) is None
        assert kept.sweep() == 2
        with store.read() as c:
            assert c.scalar("SELECT count(*) FROM kept_answers") == 0


async def kept(harness) -> None:
    """Wait for the kept state's writes (they run after the answer, in a worker thread)."""
    if harness.bot.background_writes:
        await asyncio.wait(set(harness.bot.background_writes))


async def test_a_press_on_expired_state_says_what_to_do(harness):
    add_test_commands(harness.tree)
    pages = (await harness.command("pages", OWNER)).message_id
    ask = (await harness.command("warband delete", OWNER, name="nothing yet")).message_id  # refused: no buttons
    await kept(harness)
    with harness.bot.store.write() as c:
        c.execute("UPDATE kept_answers SET expires_at = '2000-01-01T00:00:00+00:00'")
    gone = await harness.click(pages, "page:next", OWNER)
    assert gone.is_error and gone.ephemeral and PAGES_GONE in gone.text
    assert ask is not None
    await harness.command("warband create", OWNER, name="Reavers", warband_type="Reiklanders")
    question = (await harness.command("warband delete", OWNER, name="Reavers")).message_id
    await kept(harness)
    with harness.bot.store.write() as c:
        c.execute("UPDATE kept_answers SET expires_at = '2000-01-01T00:00:00+00:00'")
    late = await harness.click(question, "confirm:yes", OWNER)
    assert late.is_error and QUESTION_GONE in late.text
    assert harness.bot.campaigns.get_warband(GUILD_A, "Reavers")


async def test_pages_sent_while_the_database_is_busy_are_kept_in_the_background(harness):
    """The event loop never waits for the file: with another write under way the pages are
    written by a worker thread, and a press that comes first waits for that write."""
    import threading

    add_test_commands(harness.tree)
    holding, release = threading.Event(), threading.Event()

    def long_write() -> None:
        with harness.bot.store.write():
            holding.set()
            release.wait(10)

    writer = threading.Thread(target=long_write)
    writer.start()
    assert holding.wait(10)
    try:
        mid = (await harness.command("pages", OWNER)).message_id  # answered at once, not blocked
        assert harness.bot.background_writes  # the pages wait for the other write
        press = asyncio.create_task(harness.click(mid, "page:next", OWNER))
        await asyncio.sleep(0.05)
        assert not press.done()  # the press waits for the pages to be written
    finally:
        release.set()
        writer.join()
    assert (await press).embeds[0]["title"] == "page 2"
