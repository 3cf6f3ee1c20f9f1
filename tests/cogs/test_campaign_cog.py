"""/campaign standings against /warband show through the harness: both rate a warband by the same
rules, hired swords' own rating figures included."""

from __future__ import annotations

import re

from bot.harness import Actor

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
    await ok(await h.command("hire sword", OWNER, warband="Reavers", sword="Ogre Bodyguard", name="Grub"))
    await ok(await h.command("warrior xp", OWNER, warband="Reavers", warrior="Grub", amount=3))
    await ok(await h.command("warband create", RIVAL, name="Rats", warband_type="Skaven"))
    sheet = await ok(await h.command("warband show", OWNER, name="Reavers"))
    # The Ogre Bodyguard's entry rates him 25 (rules_data/warbands/hired_swords.json), not a warrior's 5.
    assert "Grub (hired sword): 25 + 3 xp = **28**" in sheet.text
    assert sheet_rating(sheet.text) == (5 + 20) + (25 + 3)
    standings = await ok(await h.command("campaign standings", RIVAL))
    assert standings_rating(standings.text, "Reavers") == sheet_rating(sheet.text)
    assert standings.text.index("Reavers") < standings.text.index("Rats")  # no wins either: the higher rating first
