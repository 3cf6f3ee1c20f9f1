"""/warband sheet through the harness: a PNG that opens, a PDF that reads back, alt text, plain text, DMs, isolation."""

from __future__ import annotations

import asyncio
import io
import re

from PIL import Image
from pypdf import PdfReader

from bot.harness import Actor
from tests.conftest import both_backends

pytestmark = both_backends

GUILD_A, GUILD_B = 111, 222
OWNER = Actor(user_id=1, guild_id=GUILD_A)
OTHER = Actor(user_id=2, guild_id=GUILD_A)
OWNER_IN_B = Actor(user_id=1, guild_id=GUILD_B)
DM = Actor(user_id=1, guild_id=None)
OTHER_DM = Actor(user_id=2, guild_id=None)
WB = "Fifteen Blades"
CHARACTERISTICS = "M WS BS S T W I A Ld"

#: name, role, type, profile (M WS BS S T W I A Ld), group size, experience
WARRIORS = [
    ("Otto Kessler", "leader", "Captain", (4, 4, 4, 3, 3, 1, 4, 1, 8), 1, 20),
    ("Hans Brandt", "hero", "Champion", (4, 4, 3, 3, 3, 1, 3, 1, 7), 1, 8),
    ("Dieter Vogt", "hero", "Champion", (4, 3, 4, 3, 3, 1, 3, 1, 7), 1, 8),
    ("Kurt", "hero", "Youngblood", (4, 2, 2, 3, 3, 1, 3, 1, 6), 1, 0),
    ("Lukas", "hero", "Youngblood", (4, 2, 3, 3, 3, 1, 3, 1, 6), 1, 3),
    ("Felix", "hero", "Youngblood", (5, 2, 2, 3, 3, 1, 4, 1, 6), 1, 1),
    ("Marksmen", "henchmen", "Marksman", (4, 3, 3, 3, 3, 1, 3, 1, 7), 2, 2),
    ("Swordsmen", "henchmen", "Swordsman", (4, 3, 3, 3, 3, 1, 3, 1, 7), 1, 5),
    ("Warriors", "henchmen", "Warrior", (4, 3, 3, 3, 3, 1, 3, 1, 7), 1, 0),
    ("Pikes", "henchmen", "Warrior", (4, 3, 3, 3, 4, 1, 3, 1, 7), 1, 4),
    ("Brutes", "henchmen", "Warrior", (4, 3, 3, 4, 3, 1, 3, 1, 7), 1, 1),
    ("Scouts", "henchmen", "Warrior", (5, 3, 3, 3, 3, 1, 4, 1, 7), 1, 9),
    ("Gunners", "henchmen", "Warrior", (4, 3, 4, 3, 3, 1, 3, 1, 7), 1, 14),
    ("Guards", "henchmen", "Warrior", (4, 4, 3, 3, 3, 1, 3, 1, 7), 1, 0),
    ("Aenur", "hired_sword", "Elf Ranger", (5, 4, 5, 3, 3, 1, 6, 1, 8), 1, 12),
]


def _build(campaigns, guild=GUILD_A, owner=1, name=WB) -> str:
    campaigns.create_warband(guild, owner, name, "Reiklanders", gold_crowns=480, wyrdstone_shards=3)
    for wname, role, wtype, profile, size, xp in WARRIORS:
        campaigns.add_warrior(guild, owner, False, name, wname, role=role, warrior_type=wtype,
                              profile=dict(zip(CHARACTERISTICS.split(), profile)), group_size=size,
                              equipment=["Sword", "Dagger"] if role != "henchmen" else ["Crossbow"],
                              skills=["Strongman"] if role == "leader" else [], experience=xp)
    return name


async def fifteen(h, **kw) -> str:
    return await asyncio.to_thread(_build, h.bot.campaigns, **kw)


def attachment(h, res):
    """(the bytes, the description) of the one file the bot sent."""
    sent = next(s for s in res.sent if s.files)
    content = h.messages[sent.message_id].files[0]["content"]
    described = sent.data["attachments"][0]
    return content, described.get("description") or "", described["filename"]


def words(text: str) -> str:
    return " ".join(text.split())


async def test_png_sheet_is_a_real_image_with_alt_text_sent_after_thinking(harness):
    await fifteen(harness)
    res = await harness.command("warband sheet", OTHER, name="fifteen blades")  # anyone in the server may view
    assert not res.is_error and not res.ephemeral
    assert res.sent[0].callback_type == 5  # "thinking…" first: the drawing is done off the event loop
    data, description, filename = attachment(harness, res)
    assert filename == "fifteen-blades-roster.png"
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.mode == "P" and image.width == 1190 and image.height > 2000
    image.verify()  # a whole, well-formed file
    image = Image.open(io.BytesIO(data)).convert("RGB")
    assert len(image.getcolors(maxcolors=256) or ()) > 10  # something is drawn on it
    assert description.startswith(f"Roster sheet of {WB}, Reikland Mercenaries")
    assert "rating" in description and "480 gold crowns, 3 wyrdstone shards" in description
    for name, *_ in WARRIORS:
        assert name in description
    assert "Roster sheet of **Fifteen Blades**: a picture." in res.text


async def test_pdf_sheet_reads_back_every_warrior_with_his_profile(harness):
    await fifteen(harness)
    res = await harness.command("warband sheet", OWNER, name=WB, format="pdf")
    assert not res.is_error
    data, description, filename = attachment(harness, res)
    assert filename == "fifteen-blades-roster.pdf" and description.startswith("Roster sheet of")
    reader = PdfReader(io.BytesIO(data))
    assert reader.metadata.title == f"{WB}: roster sheet"
    text = words(" ".join(page.extract_text() for page in reader.pages))
    assert WB in text and "Gold crowns".upper() in text and "480" in text
    for name, _role, wtype, profile, _size, xp in WARRIORS:
        row = " ".join(map(str, profile))
        # the name, then its type, then the grid's heading and the numbers in order
        assert re.search(re.escape(name) + r".{0,40}" + re.escape(wtype) + ".{0,20}" + re.escape(f"{CHARACTERISTICS} {row}"), text), name
        assert f"Experience {xp}" in text
    assert "Marksmen ×2" in text and "Strongman" in text and "Crossbow" in text
    assert len(reader.pages) >= 2  # fifteen warriors do not fit on one A4 page; none is cut in two


async def test_a_member_who_reads_plain_text_gets_the_roster_as_text(harness):
    await fifteen(harness)
    await harness.command("preferences plaintext", OWNER, mode="on")
    res = await harness.command("warband sheet", OWNER, name=WB)
    assert not res.is_error
    assert not res.embeds  # every embed became text
    text = res.content
    assert "Roster sheet of **Fifteen Blades**" in text
    for name, *_ in WARRIORS:
        assert name in text
    assert " M WS BS  S  T  W  I  A Ld" in text and " 4  4  4  3  3  1  4  1  8" in text
    data, description, _ = attachment(harness, res)  # and the picture, with its words, as well
    assert Image.open(io.BytesIO(data)).format == "PNG" and description


async def test_in_a_dm_a_member_picks_among_their_own_warbands_of_every_server(harness):
    svc = harness.bot.campaigns
    await fifteen(harness)
    await asyncio.to_thread(svc.create_warband, GUILD_B, 1, "Middenheim Wolves", "Middenheimers")
    await asyncio.to_thread(svc.create_warband, GUILD_A, 2, "Others Band", "Skaven")
    await asyncio.to_thread(svc.create_warband, GUILD_B, 9, "Fifteen Strangers", "Skaven")
    choices = (await harness.autocomplete("warband sheet", "name", DM, name="")).choices
    assert [c["name"] for c in choices] == [f"server {GUILD_A} · {WB}", f"server {GUILD_B} · Middenheim Wolves"]
    assert [c["value"] for c in choices] == [f"{GUILD_A}/{WB}", f"{GUILD_B}/Middenheim Wolves"]
    typed = (await harness.autocomplete("warband sheet", "name", DM, name="fif")).choices
    assert [c["value"] for c in typed] == [f"{GUILD_A}/{WB}"]  # not the stranger's "Fifteen Strangers"

    picked = await harness.command("warband sheet", DM, name=f"{GUILD_A}/{WB}", format="pdf")
    assert not picked.is_error
    assert f"Roster sheet of **{WB}** (server {GUILD_A})" in picked.text
    data, _, _ = attachment(harness, picked)
    assert f"server {GUILD_A}" in words(PdfReader(io.BytesIO(data)).pages[0].extract_text())
    by_name = await harness.command("warband sheet", DM, name="middenheim wolves")  # typed: their only one so called
    assert not by_name.is_error and "Middenheim Wolves" in by_name.text
    # the rest of /warband refuses a DM, saying the sheet works there
    refused = await harness.command("warband show", DM, name=WB)
    assert refused.is_error and "`/warband sheet` draws the sheet of a warband of yours" in refused.text


async def test_in_a_dm_nobody_reaches_another_members_warband(harness):
    svc = harness.bot.campaigns
    await fifteen(harness)
    await asyncio.to_thread(svc.create_warband, GUILD_A, 2, "Others Band", "Skaven")
    for name in ("Others Band", f"{GUILD_A}/Others Band", f"{GUILD_B}/{WB}"):
        res = await harness.command("warband sheet", DM, name=name)
        assert res.is_error and res.ephemeral, name
        assert "You own no warband called" in res.text and "Others Band`" not in res.text, name
        assert not any(s.files for s in res.sent)
    # the other member, in their DM, sees only their own; the first member's warband is not there for them
    assert [c["value"] for c in (await harness.autocomplete("warband sheet", "name", OTHER_DM, name="")).choices] == [
        f"{GUILD_A}/Others Band"]
    res = await harness.command("warband sheet", OTHER_DM, name=f"{GUILD_A}/{WB}")
    assert res.is_error and "You own no warband called" in res.text and "Did you mean: `Others Band`" not in res.text
    nobody = await harness.command("warband sheet", Actor(user_id=77, guild_id=None), name=WB)
    assert nobody.is_error and "you own none yet" in nobody.text


async def test_the_same_name_in_two_servers_asks_which(harness):
    svc = harness.bot.campaigns
    await asyncio.to_thread(svc.create_warband, GUILD_A, 1, "Twins", "Skaven")
    await asyncio.to_thread(svc.create_warband, GUILD_B, 1, "Twins", "Skaven")
    res = await harness.command("warband sheet", DM, name="Twins")
    assert res.is_error and "in 2 servers" in res.text and "each says its server" in res.text
    assert not (await harness.command("warband sheet", DM, name=f"{GUILD_B}/Twins")).is_error


async def test_in_a_server_only_its_own_warbands_and_a_bad_name_gets_the_closest_privately(harness):
    await fifteen(harness)
    elsewhere = await harness.command("warband sheet", OWNER_IN_B, name=WB)  # his, but of another server
    assert elsewhere.is_error and elsewhere.ephemeral and "This server has no warband called" in elsewhere.text
    forged = await harness.command("warband sheet", OWNER_IN_B, name=f"{GUILD_A}/{WB}")  # the DM form means nothing here
    assert forged.is_error and forged.ephemeral
    typo = await harness.command("warband sheet", OTHER, name="Fiftene Blades")
    assert typo.is_error and typo.ephemeral and f"Did you mean: `{WB}`" in typo.text
    assert typo.sent[0].callback_type == 4 and not any(s.files for s in typo.sent)  # refused before "thinking…"
