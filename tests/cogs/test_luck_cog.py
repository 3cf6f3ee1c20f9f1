"""/luck through the harness: the table's luck, one member's faces, the list of rolls, opting out."""

from __future__ import annotations

import asyncio

from bot.harness import ADMIN_PERMISSIONS, Actor
from engine.rolls import check_facts, roll_set_facts
from engine.rolls.record import record_for
from engine.dice import leadership_test, roll_set
from tests.engine.scripted_dice import Scripted

ANNA = Actor(user_id=501, name="Anna")
BORIS = Actor(user_id=502, name="Boris")
ADMIN = Actor(user_id=503, name="Gm", permissions=ADMIN_PERMISSIONS)


async def roll(harness, actor, expression, faces, **options):
    harness.bot.rng = Scripted(*faces)
    return await harness.command("roll", actor, expression=expression, **options)


async def test_board_and_member_after_real_rolls(harness):
    await roll(harness, ANNA, "30d6", [6] * 20 + [5] * 10)
    await roll(harness, BORIS, "30d6", [1] * 20 + [2] * 10)
    harness.bot.rng = Scripted(3, 3)
    await harness.command("leadership", ANNA, leadership=7)
    res = await harness.command("luck show", ANNA)
    assert not res.ephemeral
    embed = res.embeds[0]
    assert embed["title"] == "🍀 Luck at this table"
    assert "Luckiest: **Anna** (5.50 over 32 D6). Unluckiest: **Boris** (1.33 over 30 D6)." in embed["description"]
    assert "2 rolls" not in embed["footer"]["text"] and "3 rolls, 62 D6, 2 members" in embed["footer"]["text"]
    mine = await harness.command("luck show", ANNA, member=str(ANNA.user_id))
    e = mine.embeds[0]
    assert e["title"] == "🍀 Luck of Anna" and "lucky" in e["description"]
    faces = next(f for f in e["fields"] if f["name"] == "D6 faces")["value"]
    assert "6 " in faces and "62.5% (20)" in faces
    sixes = next(f for f in e["fields"] if f["name"] == "Sixes and ones")["value"]
    assert sixes.startswith("Sixes: 20 of 32 (62.5%)")
    tests = next(f for f in e["fields"] if f["name"] == "Tests")["value"]
    assert tests.startswith("Tests passed: 1 of 1; fair dice pass 0.6 of these")


async def test_nobody_yet_and_unknown_member(harness):
    res = await harness.command("luck show")
    assert "No roll is recorded in this server yet" in res.text
    res = await harness.command("luck show", member="999")
    assert res.is_error and "No roll of <@999>" in res.text


async def test_luck_stays_in_its_server(harness):
    await roll(harness, ANNA, "d6", [6])
    elsewhere = Actor(user_id=ANNA.user_id, guild_id=424242)
    res = await harness.command("luck show", elsewhere)
    assert "No roll is recorded in this server yet" in res.text
    res = await harness.command("luck rolls", elsewhere)
    assert res.is_error
    res = await harness.command("luck show", Actor(guild_id=None))
    assert res.is_error and "belongs to a server" in res.text


async def test_rolls_list_shows_no_one_more_than_the_roll_did(harness):
    await roll(harness, ANNA, "2d6<=7 nerve", [3, 5], secret=True)
    await roll(harness, ANNA, "d66 loot", [2, 5], private=True)
    await roll(harness, BORIS, "d6", [4])
    seen_by_boris = await harness.command("luck rolls", BORIS)
    assert seen_by_boris.ephemeral
    lines = seen_by_boris.embeds[0]["description"].split("\n")
    assert "<@502> — d6 → 4" in lines[0] and "<@501> — a private roll" in lines[1] and "<@501> — a secret roll" in lines[2]
    seen_by_anna = await harness.command("luck rolls", ANNA, member=str(ANNA.user_id))
    assert "2d6 <=7 → 8, failed" in seen_by_anna.text and "d66 → 25" in seen_by_anna.text
    seen_by_admin = (await harness.command("luck rolls", ADMIN)).text
    assert "2d6 <=7 → 8, failed" in seen_by_admin and "a private roll" in seen_by_admin


async def test_opt_out_keep_or_forget_and_opt_in(harness):
    await roll(harness, ANNA, "d6", [6])
    res = await harness.command("luck optout", ANNA)
    assert res.ephemeral and "no longer recorded" in res.text
    await roll(harness, ANNA, "d6", [1])
    assert "1 roll recorded" in (await harness.command("luck show", ANNA, member=str(ANNA.user_id))).text  # not the 1
    ask = await harness.command("luck optout", ANNA, forget=True)
    confirm = next(c["custom_id"] for c in harness.messages[ask.message_id].components() if c["label"] == "Delete my rolls")
    done = await harness.click(ask.message_id, confirm, ANNA)
    assert "the 1 roll recorded is deleted" in done.text
    assert (await harness.command("luck show", ANNA, member=str(ANNA.user_id))).is_error
    assert "recorded again" in (await harness.command("luck optin", ANNA)).text
    assert "already recorded" in (await harness.command("luck optin", ANNA)).text
    await roll(harness, ANNA, "d6", [2])
    assert "1 roll recorded" in (await harness.command("luck show", ANNA, member=str(ANNA.user_id))).text


async def test_twenty_thousand_stored_rolls_are_all_counted(harness):
    record = record_for(harness.bot.store)
    guild = Actor().guild_id
    facts = [roll_set_facts(roll_set("2d6", Scripted(a, b))) for a in range(1, 7) for b in range(1, 7)]
    test = check_facts(leadership_test(7, Scripted(3, 4)))
    for n in range(20_000):
        record.add(guild, 600 + n % 7, f"m{n % 7}", facts[n % 36] if n % 5 else test)
    await asyncio.to_thread(record.flush)
    res = await harness.command("luck show")
    assert "20,000 rolls" in res.embeds[0]["footer"]["text"] and "7 members" in res.embeds[0]["footer"]["text"]


# ---------------------------------------------------------------- the charts


def _chart(harness, res):
    """(the image, its description) of the one file the answer carries."""
    from PIL import Image
    import io

    sent = next(s for s in res.sent if s.files)
    image = Image.open(io.BytesIO(harness.messages[sent.message_id].files[0]["content"]))
    return image, sent.data["attachments"][0].get("description") or ""


async def test_the_table_and_a_member_come_with_a_chart_and_its_words(harness):
    await roll(harness, ANNA, "30d6", [6] * 20 + [5] * 10)
    await roll(harness, BORIS, "30d6", [3, 4] * 15)
    res = await harness.command("luck show", ANNA)
    assert not res.ephemeral and res.sent[0].callback_type == 5  # drawn after "thinking…"
    image, words = _chart(harness, res)
    assert image.format == "PNG" and image.size[0] == 1000 and image.size[1] > 150
    image.verify()
    assert words.startswith("D6 average of each member against fair dice's 3.5")
    assert "Above their band, lucky: Anna 5.67 (30 D6)" in words and "Within it: Boris 3.50 (30 D6)" in words
    # the text answer is still there, numbers and all
    assert "Luckiest: **Anna** (5.67 over 30 D6)" in res.embeds[0]["description"]

    mine = await harness.command("luck show", BORIS, member=str(ANNA.user_id), private=True)
    assert mine.ephemeral
    image, words = _chart(harness, mine)
    assert image.format == "PNG" and image.size == (1000, 590)
    assert words.startswith("How often each face of Anna's 30 D6 came up: 1: 0, 2: 0, 3: 0, 4: 0, 5: 10, 6: 20.")
    assert "Fair dice give each face 5.0 times" in words
    faces = next(f for f in mine.embeds[0]["fields"] if f["name"] == "D6 faces")["value"]
    assert "66.7% (20)" in faces


async def test_plain_text_members_get_the_text_only(harness):
    await roll(harness, ANNA, "30d6", [6] * 30)
    await harness.command("preferences plaintext", BORIS, mode="on")
    res = await harness.command("luck show", BORIS)
    assert not any(s.files for s in res.sent) and not res.embeds
    assert "🍀 Luck at this table" in res.content and "6.00 (30 D6)" in res.content
    one = await harness.command("luck show", BORIS, member=str(ANNA.user_id))
    assert not any(s.files for s in one.sent) and "100.0% (30)" in one.content


async def test_no_d6_no_chart(harness):
    await roll(harness, ANNA, "2d10", [3, 4])
    res = await harness.command("luck show", ANNA, member=str(ANNA.user_id))
    assert not any(s.files for s in res.sent) and "No D6 rolled yet" in res.text
    board = await harness.command("luck show", ANNA)
    assert not any(s.files for s in board.sent)


def _png(harness, res) -> bytes:
    sent = next(s for s in res.sent if s.files)
    return harness.messages[sent.message_id].files[0]["content"]


async def test_a_chart_asked_again_with_no_roll_between_is_sent_at_once(harness):
    await roll(harness, ANNA, "30d6", [6] * 20 + [5] * 10)
    await roll(harness, BORIS, "30d6", [3, 4] * 15)
    first = await harness.command("luck show", ANNA)
    again = await harness.command("luck show", BORIS)
    assert first.sent[0].callback_type == 5  # drawn after "thinking…"
    assert again.sent[0].callback_type == 4 and _png(harness, again) == _png(harness, first)  # the same picture, at once
    assert _chart(harness, again)[1] == _chart(harness, first)[1]  # and its words
    assert "Luckiest: **Anna**" in again.embeds[0]["description"]

    await roll(harness, BORIS, "10d6", [6] * 10)  # a new roll: Boris's dot moves
    after = await harness.command("luck show", ANNA)
    assert after.sent[0].callback_type == 5 and _png(harness, after) != _png(harness, first)
    assert "Boris 4.12 (40 D6)" in _chart(harness, after)[1]

    mine = await harness.command("luck show", ANNA, member=str(BORIS.user_id))
    assert mine.sent[0].callback_type == 5
    assert (await harness.command("luck show", ANNA, member=str(BORIS.user_id))).sent[0].callback_type == 4
    await roll(harness, BORIS, "d6", [1])
    redrawn = await harness.command("luck show", ANNA, member=str(BORIS.user_id))
    assert redrawn.sent[0].callback_type == 5 and _png(harness, redrawn) != _png(harness, mine)
    assert "1: 1, 2: 0, 3: 15, 4: 15, 5: 0, 6: 10" in _chart(harness, redrawn)[1]


async def test_a_kept_chart_is_never_sent_to_another_server(harness):
    here, there = Actor(user_id=ANNA.user_id, name="Anna"), Actor(user_id=ANNA.user_id, name="Anna", guild_id=424242)
    for actor in (here, there):  # the same member, the same dice, in two servers
        await roll(harness, actor, "30d6", [6] * 30)
    assert (await harness.command("luck show", here)).sent[0].callback_type == 5
    assert (await harness.command("luck show", there)).sent[0].callback_type == 5  # its own, drawn for it
    assert (await harness.command("luck show", there, member=str(ANNA.user_id))).sent[0].callback_type == 5
    assert (await harness.command("luck show", here, member=str(ANNA.user_id))).sent[0].callback_type == 5


async def test_a_forgotten_record_is_not_drawn_from_memory(harness):
    await roll(harness, ANNA, "30d6", [6] * 30)
    await roll(harness, BORIS, "30d6", [1] * 30)
    assert (await harness.command("luck show", BORIS)).sent[0].callback_type == 5
    ask = await harness.command("luck optout", ANNA, forget=True)
    confirm = next(c["custom_id"] for c in harness.messages[ask.message_id].components() if c["label"] == "Delete my rolls")
    await harness.click(ask.message_id, confirm, ANNA)
    res = await harness.command("luck show", BORIS)
    assert res.sent[0].callback_type == 5 and "Anna" not in _chart(harness, res)[1] and "Anna" not in res.text
