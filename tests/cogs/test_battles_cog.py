"""/battle record through the harness: what its autocomplete offers."""

from __future__ import annotations

from bot.harness import Actor

from tests.conftest import both_backends

pytestmark = both_backends

G = 141
OWNER = Actor(user_id=1, guild_id=G)
RIVAL = Actor(user_id=2, guild_id=G)
ELSEWHERE = Actor(user_id=3, guild_id=G + 1)


async def test_the_opponent_offered_is_never_the_warband_itself_nor_another_servers(harness):
    h = harness
    for actor, name in ((OWNER, "Reavers"), (OWNER, "Red Reavers"), (RIVAL, "Rats"), (ELSEWHERE, "Reavers Abroad")):
        res = await h.command("warband create", actor, name=name, warband_type="custom")
        assert not res.is_error, res.text
    offered = await h.autocomplete("battle record", "opponent", OWNER, warband="reavers ")  # case and spaces do not matter
    assert sorted(c["value"] for c in offered.choices) == ["Rats", "Red Reavers"]
    nothing_typed = await h.autocomplete("battle record", "opponent", OWNER)
    assert sorted(c["value"] for c in nothing_typed.choices) == ["Rats", "Reavers", "Red Reavers"]


async def test_a_battle_dated_after_tomorrow_is_refused_privately(harness):
    # a playtest recorded a battle fought on 9999-12-31
    h = harness
    await h.command("warband create", OWNER, name="Reavers", warband_type="custom")
    await h.command("warrior add", OWNER, warband="Reavers", name="Otto", role="leader", warrior_type="Captain",
                    profile="4 4 4 3 3 1 4 1 8")
    res = await h.command("battle record", OWNER, warband="Reavers", result="win", date="9999-12-31")
    assert res.is_error and res.ephemeral and "9999-12-31 has not come yet" in res.text
    assert h.bot.campaigns.list_battles(G, "Reavers") == []
    res = await h.command("battle record", OWNER, warband="Reavers", result="win", date="2024-05-31")
    assert not res.is_error, res.text
