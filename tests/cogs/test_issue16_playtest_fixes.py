"""Playtest defects of issue 16 checked through the harness: an upkeep paid by `/hire upkeep` is
paid for the post-battle sequence's upkeep step too (and the reverse), a captured hero keeps his
list slot, and a fighter whose rules forbid weapons and armour is sold none."""

from __future__ import annotations

from tests.cogs.test_postbattle_cog import FOE, G, OWNER, RIVAL, WB, component, ok, warband
from tests.conftest import both_backends

pytestmark = both_backends


async def _at_upkeep(h):
    """Reikland Raiders with Pip the Halfling Scout, a battle lost, the sequence at its upkeep step."""
    await warband(h)
    await warband(h, FOE, RIVAL)
    await ok(await h.command("hire sword", OWNER, warband=WB, sword="Halfling Scout", name="Pip"))
    await ok(await h.command("battle record", OWNER, warband=WB, result="loss", opponent=FOE))
    pb = h.bot.get_cog("PostBattleCog").service
    v = pb.start(G, OWNER.user_id, False, WB)
    v = pb.confirm_fighters(G, OWNER.user_id, False, v.id, v.version)
    v = pb.roll_injuries(G, OWNER.user_id, False, v.id, v.version, entered={})
    v = pb.apply_experience(G, OWNER.user_id, False, v.id, v.version)
    while v.state.pending:
        p = v.state.pending[0]
        value = p.options[0] if p.kind == "choose" else "Young Karl" if p.kind == "talent" else "Dodge"
        v = pb.choose(G, OWNER.user_id, False, v.id, v.version, p.warrior_id, p.kind, value, skill_lists=("combat", "speed"))
    v = pb.explore(G, OWNER.user_id, False, v.id, v.version, entered="3 4 1")
    v = pb.sell(G, OWNER.user_id, False, v.id, v.version, 0)
    assert v.state.step == "upkeep"
    return pb, v


def _gold(h):
    return h.bot.campaigns.get_warband(G, WB).gold_crowns


async def test_upkeep_paid_by_hire_upkeep_is_paid_for_the_sequences_step(harness):
    h = harness
    pb, v = await _at_upkeep(h)
    shown = await ok(await h.command("postbattle resume", OWNER, warband=WB))
    letgo = component(h, shown.message_id, "letgo")  # the message shown before /hire upkeep: Pip due
    pip = letgo["options"][0]["value"]
    gold = _gold(h)
    paid = await ok(await h.command("hire upkeep", OWNER, warband=WB))
    assert "Pip" in paid.text and _gold(h) == gold - 5
    # the old message's let-go menu: refused, Pip stays and the 5 gc are not paid twice
    res = await h.select(shown.message_id, letgo["custom_id"], [pip], OWNER)
    assert res.is_error and "paid already" in res.text, res.text
    assert h.bot.campaigns.get_warrior(G, WB, "Pip").status == "active"
    # shown again: paid, nothing due, no let-go, one button on
    msg = await ok(await h.command("postbattle resume", OWNER, warband=WB))
    assert "Upkeep due" not in msg.text and "**Pip**: 5 gc" not in msg.text
    assert "paid already (`/hire upkeep`): **Pip**" in msg.text, msg.text
    customs = [c.get("custom_id", "") for c in h.messages[msg.message_id].components()]
    assert not any(":letgo:" in c for c in customs)
    res = await ok(await h.click(msg.message_id, component(h, msg.message_id, "upkeep")["custom_id"], OWNER))
    assert "6. Trading and hiring" in res.text and _gold(h) == gold - 5
    assert "leaves the warband" not in res.text
    assert h.bot.campaigns.get_warrior(G, WB, "Pip").status == "active"


async def test_upkeep_paid_in_the_step_refuses_hire_upkeep_and_undo_restores_either(harness):
    h = harness
    pb, v = await _at_upkeep(h)
    gold = _gold(h)
    # /hire upkeep, then undone: the step asks Pip's upkeep again
    await ok(await h.command("hire upkeep", OWNER, warband=WB))
    await ok(await h.command("warband undo", OWNER, name=WB))
    assert _gold(h) == gold
    msg = await ok(await h.command("postbattle resume", OWNER, warband=WB))
    assert "**Pip**: 5 gc" in msg.text and component(h, msg.message_id, "letgo")
    # paid in the step: /hire upkeep refused
    res = await ok(await h.click(msg.message_id, component(h, msg.message_id, "upkeep")["custom_id"], OWNER))
    assert "6. Trading and hiring" in res.text and _gold(h) == gold - 5
    refused = await h.command("hire upkeep", OWNER, warband=WB)
    assert refused.is_error and "already paid the upkeep of Pip for battle 1" in refused.text
    assert _gold(h) == gold - 5
    # the sequence finished, then undone: its payment with it, /hire upkeep pays it once
    await ok(await h.click(res.message_id, component(h, res.message_id, "finish")["custom_id"], OWNER))
    await ok(await h.command("warband undo", OWNER, name=WB))
    assert _gold(h) == gold
    await ok(await h.command("hire upkeep", OWNER, warband=WB))
    assert _gold(h) == gold - 5
    assert (await h.command("hire upkeep", OWNER, warband=WB)).is_error
