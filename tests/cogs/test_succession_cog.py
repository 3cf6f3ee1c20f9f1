"""The death of the leader through the harness (engine/campaign/rules/succession.py): /warrior injure
says who takes command, /hire fighter refuses a new Mercenary Captain with the reason, /warband
check no longer asks for one, and /warband undo takes both back."""

from __future__ import annotations

from bot.harness import Actor

from tests.conftest import both_backends

pytestmark = both_backends

GUILD = 812
OWNER = Actor(user_id=1, guild_id=GUILD)


async def run(h, path: str, **options):
    res = await h.command(path, OWNER, **options)
    assert not res.is_error, (path, options, res.text)
    return res


async def test_the_captain_dies_the_champion_leads_and_no_captain_may_be_hired(harness):
    await run(harness, "warband create", name="W", warband_type="Reiklanders")
    await run(harness, "hire fighter", warband="W", type="Mercenary Captain", name="Otto")
    await run(harness, "hire fighter", warband="W", type="Champion", name="Hans")
    await run(harness, "hire fighter", warband="W", type="Warrior", name="Guards", count=2)
    res = await run(harness, "warrior injure", warband="W", warrior="Otto", injury="Dead")
    assert "Command of the warband" in res.text and "Hans (Champion) takes command" in res.text, res.text
    res = await harness.command("hire fighter", OWNER, warband="W", type="Mercenary Captain")
    assert res.is_error and "may not hire a new leader" in res.text, res.text
    res = await run(harness, "warband check", name="W")
    assert "Mercenary Captain" not in res.text, res.text
    await run(harness, "warband undo", name="W")  # the death and the new command, together
    res = await harness.command("hire fighter", OWNER, warband="W", type="Mercenary Captain")
    assert res.is_error and "already has a leader (Otto)" in res.text, res.text
