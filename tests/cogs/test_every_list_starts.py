"""Every bundled warband list builds a legal starting warband through the real engine: the leader and
the minimum of each fighter type hired with `/hire fighter` as a player types them, within the list's
limits and its starting gold, given the kit the list requires (issue 16), and `/warband check` finds
nothing broken (issue 17)."""

from __future__ import annotations

import pytest

from bot.harness import Actor
from engine.campaign.lists.catalogue import LimitKind, bundled_catalogue

GUILD = 1717
OWNER = Actor(user_id=1, guild_id=GUILD)
CATALOGUE = bundled_catalogue()


@pytest.mark.parametrize("list_id", sorted(CATALOGUE.warbands))
async def test_a_legal_starting_warband_of_every_list(harness, list_id):
    wlist = CATALOGUE.warbands[list_id]
    made = await harness.command("warband create", OWNER, name="Start", warband_type=wlist.name)
    assert not made.is_error and "(custom)" not in made.text, made.text
    start = harness.bot.campaigns.get_warband(GUILD, "Start").gold_crowns
    assert start >= wlist.starting_gold  # the list's own starting gold (500 gc for most; more where a rule adds)
    spent = 0
    for fighter in sorted(wlist.fighters, key=lambda f: f.role != "leader"):  # the leader first
        left = max(fighter.minimum, 1 if fighter.role == "leader" else 0)
        while left:
            count = 1 if fighter.is_hero else min(left, 5)
            res = await harness.command("hire fighter", OWNER, warband="Start", type=fighter.name, count=count)
            assert not res.is_error, (fighter.name, res.text)
            spent += fighter.cost * count
            left -= count
    wb = harness.bot.campaigns.get_warband(GUILD, "Start")
    assert wb.gold_crowns == start - spent >= 0
    assert any(w.role == "leader" for w in wb.warriors)
    for limit in wlist.limits:  # kit the list requires (the Outlaws' bows): the first item it names, for each warrior
        if limit.kind == LimitKind.MUST_CARRY and limit.items:
            for w in (w for w in wb.warriors if w.fighter_type in limit.fighters):
                bought = await harness.command("trade buy", OWNER, warband="Start", warrior=w.name, item=limit.items[0])
                assert not bought.is_error, bought.text
    check = await harness.command("warband check", OWNER, name="Start")
    assert not check.is_error and "nothing broken" in check.text, check.text
