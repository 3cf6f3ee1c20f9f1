"""Counts read as words: "1 shard", "1 battle", "1 warrior entry" (issue 12's plural fixes)."""

from __future__ import annotations

from bot.harness import Actor

OWNER = Actor(user_id=1)


async def test_one_of_a_thing_is_not_plural(harness):
    res = await harness.command("warband create", OWNER, name="Reavers", warband_type="Reiklanders")
    assert not res.is_error, res.text
    res = await harness.command("warrior add", OWNER, warband="Reavers", name="Otto", role="leader",
                                warrior_type="Captain", profile="4 4 4 3 3 1 4 1 8")
    assert not res.is_error, res.text
    res = await harness.command("battle record", OWNER, warband="Reavers", result="win")
    assert not res.is_error, res.text

    treasury = await harness.command("warband treasury", OWNER, name="Reavers", reason="found one", wyrdstone=1)
    assert "+1 shard " in treasury.text and "**1 wyrdstone shard**" in treasury.text
    assert "1 shards" not in treasury.text
    listing = await harness.command("warband list", OWNER)
    assert "1 shard" in listing.text and "1 shards" not in listing.text
    export = await harness.command("warband export", OWNER, name="Reavers")
    assert "1 warrior entry, 1 battle;" in export.text
    delete = await harness.command("warband delete", OWNER, name="Reavers")
    assert "1 warrior entry, " in delete.text and " gc and 1 shard go with it" in delete.text

    more = await harness.command("warband treasury", OWNER, name="Reavers", reason="found two", wyrdstone=2)
    assert "+2 shards" in more.text and "**3 wyrdstone shards**" in more.text
