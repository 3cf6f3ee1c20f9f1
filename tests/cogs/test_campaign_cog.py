"""/campaign standings and /postbattle against /warband show through the harness: a warband with a
hired sword is rated alike (his own rating figure) and sized alike (he does not count)."""

from __future__ import annotations

import random
import re

from bot.harness import Actor
from engine.campaign.service import PostBattle

from tests.conftest import both_backends

pytestmark = both_backends

G = 131
OWNER = Actor(user_id=1, guild_id=G)
RIVAL = Actor(user_id=2, guild_id=G)


async def ok(res):
    assert not res.is_error, res.text
    return res


def sheet_rating(text: str) -> int:
    return int(re.search(r"\*\*Rating:\*\* (\d+)", text).group(1))


def standings_rating(text: str, warband: str) -> int:
    return int(re.search(rf"\*\*\d+\. {re.escape(warband)}\*\* \([^)]*\) — rating \*\*(\d+)\*\*", text).group(1))


async def test_standings_and_the_roster_sheet_rate_a_hired_sword_alike(harness):
    h = harness
    await ok(await h.command("warband create", OWNER, name="Reavers", warband_type="Reiklanders"))
    await ok(await h.command("hire fighter", OWNER, warband="Reavers", type="Mercenary Captain", name="Otto"))  # 20 xp
    await ok(await h.command("hire sword", OWNER, warband="Reavers", sword="Ogre Bodyguard", name="Grub",
                             kit="Double-handed weapon"))
    await ok(await h.command("warrior xp", OWNER, warband="Reavers", warrior="Grub", amount=3))
    await ok(await h.command("warband create", RIVAL, name="Rats", warband_type="Skaven"))
    sheet = await ok(await h.command("warband show", OWNER, name="Reavers"))
    # The Ogre Bodyguard's entry rates him 25 (rules_data/warbands/hired_swords.json), not a warrior's 5.
    assert "Grub (hired sword): 25 + 3 xp = **28**" in sheet.text
    assert sheet_rating(sheet.text) == (5 + 20) + (25 + 3)
    standings = await ok(await h.command("campaign standings", RIVAL))
    assert standings_rating(standings.text, "Reavers") == sheet_rating(sheet.text)
    assert standings.text.index("Reavers") < standings.text.index("Rats")  # no wins either: the higher rating first


async def test_the_income_step_counts_the_warband_as_the_roster_sheet_does(harness):
    h = harness
    await ok(await h.command("warband create", OWNER, name="Reavers", warband_type="Reiklanders"))
    for fighter, name in (("Mercenary Captain", "Otto"), ("Champion", "Hans"), ("Warrior", "Lad")):
        await ok(await h.command("hire fighter", OWNER, warband="Reavers", type=fighter, name=name))
    await ok(await h.command("hire sword", OWNER, warband="Reavers", sword="Halfling Scout", name="Pip"))
    await ok(await h.command("battle record", OWNER, warband="Reavers", result="loss"))
    sheet = await ok(await h.command("warband show", OWNER, name="Reavers"))
    assert "**Warriors:** 3 of at most 15 for Reikland Mercenaries ·" in sheet.text  # said once, not "15 (15 for …)"
    # To the income step through the engine (the buttons are tested in test_postbattle_cog.py).
    pb = PostBattle(h.bot.campaigns.store, random.Random(1))
    v = pb.start(G, OWNER.user_id, False, "Reavers")
    absent = [w.id for w in v.warriors if w.name in ("Lad", "Pip")]  # no experience: no advance to settle
    v = pb.set_fighters(G, OWNER.user_id, False, v.id, v.version, absent=absent)
    v = pb.confirm_fighters(G, OWNER.user_id, False, v.id, v.version)
    v = pb.roll_injuries(G, OWNER.user_id, False, v.id, v.version)
    v = pb.apply_experience(G, OWNER.user_id, False, v.id, v.version)
    pb.explore(G, OWNER.user_id, False, v.id, v.version, entered="3 4")  # Otto and Hans: 7, two shards
    res = await ok(await h.command("postbattle resume", OWNER, warband="Reavers"))
    assert "on the warband's **3** warriors (hired swords do not count)." in res.text
    sell = next(c for c in h.messages[res.message_id].components() if ":sell:" in c.get("custom_id", ""))
    assert [o["label"] for o in sell["options"]] == ["Keep them all", "Sell 1 for 45 gc", "Sell 2 for 60 gc"]  # the 1-3 column


async def test_standings_of_a_big_campaign_are_paged_from_the_table_as_it_is_now(harness, tmp_path, database):
    """45 warbands: three pages; only the member who asked turns them; a page drawn after a change
    shows the change, and the buttons work after a restart (they carry the page, not the table)."""
    h = harness
    c = h.bot.campaigns
    for n in range(45):
        c.create_warband(G, OWNER.user_id, f"Band {n:02d}", "Reiklanders", gold_crowns=0)
    first = await ok(await h.command("campaign standings", RIVAL))
    assert "Page 1 of 3 · 45 warbands" in first.text and "**1. Band 00**" in first.text and "**21. " not in first.text
    buttons = [b["custom_id"] for b in h.messages[first.message_id].components()]
    nxt = next(b for b in buttons if ":n:" in b)
    assert (await h.click(first.message_id, nxt, OWNER)).is_error  # not the member who asked
    c.add_warrior(G, OWNER.user_id, False, "Band 30", "Boss", role="leader", warrior_type="Leader",
                  profile=dict(M=4, WS=3, BS=3, S=3, T=3, W=1, I=3, A=1, Ld=7))
    c.record_battle(G, OWNER.user_id, False, "Band 30", result="win")  # Band 30 goes to the top
    second = await ok(await h.click(first.message_id, nxt, RIVAL))
    assert "Page 2 of 3" in second.text and "**21. " in second.text and "**40. " in second.text
    assert "Band 30" not in second.text  # it moved to page 1 with its win
    from bot.harness import Harness
    from tests.conftest import make_bot
    async with Harness(make_bot(tmp_path, database=database)) as restarted:
        restarted.messages.update(h.messages)  # the message as Discord keeps it (now at page 2)
        last = next(b["custom_id"] for b in restarted.messages[first.message_id].components() if ":n:" in b["custom_id"])
        again = await ok(await restarted.click(first.message_id, last, RIVAL))
        assert "Page 3 of 3" in again.text and "**45. " in again.text


async def test_standings_after_a_battle_show_it_and_only_in_its_server(harness):
    h = harness
    elsewhere = Actor(user_id=1, guild_id=G + 1)
    for name, actor in (("Reavers", OWNER), ("Rats", RIVAL), ("Far Reavers", elsewhere)):
        await ok(await h.command("warband create", actor, name=name, warband_type="Reiklanders"))
    await ok(await h.command("warrior add", RIVAL, warband="Rats", name="Boss", role="leader", warrior_type="Leader",
                             profile="4 3 3 3 3 1 3 1 7", experience=20))
    before = await ok(await h.command("campaign standings", OWNER))
    assert before.text.index("**1. Rats**") < before.text.index("**2. Reavers**")  # no wins yet: the higher rating first
    await ok(await h.command("warrior add", OWNER, warband="Reavers", name="Lad", role="henchmen", warrior_type="Youngblood",
                             profile="4 3 3 3 3 1 3 1 7"))  # a battle needs someone to fight it
    await ok(await h.command("battle record", OWNER, warband="Reavers", result="win"))
    after = await ok(await h.command("campaign standings", RIVAL))
    assert "**1. Reavers** (Reikland Mercenaries) — rating **5** · 1 battle: 1W 0D 0L" in after.text
    assert "**2. Rats**" in after.text and "0 battles: 0W 0D 0L" in after.text
    await ok(await h.command("battle record", RIVAL, warband="Rats", result="draw"))
    drawn = await ok(await h.command("campaign standings", OWNER))
    assert "**2. Rats** (Reikland Mercenaries) — rating **25** · 1 battle: 0W 1D 0L" in drawn.text
    far = await ok(await h.command("campaign standings", elsewhere))
    assert "**1. Far Reavers**" in far.text and "0 battles" in far.text and "Rats" not in far.text
