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
