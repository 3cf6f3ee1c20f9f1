"""A new player's playtest of the post-battle sequence: a sell step with no shards asks nothing."""

from __future__ import annotations

from tests.cogs.test_postbattle_cog import OWNER, WB, G, component, ok, warband


async def test_no_shards_to_sell_is_said_and_the_step_passes_on_its_button(harness):
    h = harness
    await warband(h)
    await ok(await h.command("battle record", OWNER, warband=WB, result="loss"))
    pb = h.bot.get_cog("PostBattleCog").service
    v = pb.start(G, OWNER.user_id, False, WB)
    heroes = [w.id for w in h.bot.campaigns.get_warband(G, WB).warriors if w.role in ("leader", "hero")]
    v = pb.set_fighters(G, OWNER.user_id, False, v.id, v.version, absent=heroes)  # nobody searches the ruins
    v = pb.confirm_fighters(G, OWNER.user_id, False, v.id, v.version)
    v = pb.roll_injuries(G, OWNER.user_id, False, v.id, v.version, entered={})
    v = pb.apply_experience(G, OWNER.user_id, False, v.id, v.version)
    v = pb.explore(G, OWNER.user_id, False, v.id, v.version)
    assert v.state.step == "income" and v.wyrdstone_shards == 0
    shown = await ok(await h.command("postbattle resume", OWNER, warband=WB))
    mid = shown.message_id
    assert "the warband holds no shards, so there is nothing to sell" in shown.text
    assert "Keep them all" not in str(h.messages[mid].components())
    go_on = component(h, mid, "sell")
    assert go_on["type"] == 2 and go_on["label"] == "Continue (nothing to sell)"
    res = await ok(await h.click(mid, go_on["custom_id"], OWNER))
    assert "Trading and hiring" in res.text
