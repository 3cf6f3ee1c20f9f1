"""The playtest: Undead and Possessed captors were not offered their own fates for a captive
(serious injury 61). Through the channel: `/postbattle captives` shows "Kill him: a new Zombie"
to an Undead captor and "Sacrifice him" to a Possessed one, and neither to any other; a captive
held outside the server may be recorded killed."""

from __future__ import annotations

from bot.harness import ADMIN_PERMISSIONS, MESSAGE_COMPONENT, Actor
from cogs._ui.captives_render import PER_ROW, captives_components
from engine.campaign.actions.captives import RAISE_ZOMBIE, Captive, CaptivesView
from tests.cogs.test_cross_warband_undo import ok, refused
from tests.conftest import both_backends

pytestmark = both_backends

G = 313
GREY_OWNER = Actor(user_id=7, guild_id=G)
CAPTOR = Actor(user_id=42, guild_id=G)
ADMIN = Actor(user_id=3, guild_id=G, permissions=ADMIN_PERMISSIONS)
GREY, CAPTORS = "The Grey Company", "The Captors"
PROFILE = "4 4 4 3 3 1 4 1 8"


async def _otto_held_by(h, warband_type: str, *hires: tuple[str, str, int]):
    """The Grey Company lost to The Captors (of ``warband_type``, with ``hires``: fighter, name,
    count), and its hero Otto (with his Buckler) was captured by hand (61)."""
    await ok(await h.command("warband create", GREY_OWNER, name=GREY, warband_type="Reiklanders", gold=100))
    for name, role in (("Hans", "leader"), ("Otto", "hero")):
        await ok(await h.command("warrior add", GREY_OWNER, warband=GREY, name=name, role=role, warrior_type="Human",
                                 profile=PROFILE, equipment="Buckler" if name == "Otto" else ""))
    c = h.bot.campaigns
    c.create_warband(G, CAPTOR.user_id, CAPTORS, warband_type, gold_crowns=1000)
    for fighter, name, count in hires:
        c.hire_fighter(G, CAPTOR.user_id, False, CAPTORS, fighter, name=name, count=count)
    await ok(await h.command("battle record", GREY_OWNER, warband=GREY, result="loss", opponent=CAPTORS))
    await ok(await h.command("warrior injure", GREY_OWNER, warband=GREY, warrior="Otto", injury="61"))
    return await ok(await h.command("postbattle captives", CAPTOR, warband=CAPTORS))


def _actions(h, message_id) -> list[str]:
    return [c["custom_id"].split(":")[1] for c in h.messages[message_id].components() if c.get("custom_id", "").startswith("pbc:")]


def _button(h, message_id, action):
    return next(c for c in h.messages[message_id].components() if c.get("custom_id", "").startswith(f"pbc:{action}:"))


async def test_an_undead_captor_is_offered_the_zombie_and_only_it_may_press(harness):
    h = harness
    held = await _otto_held_by(h, "Undead", ("Vampire", "Count", 1), ("Zombie", "Shamblers", 2))
    assert _actions(h, held.message_id) == ["ransom", "sell", "zombie"]
    kill = _button(h, held.message_id, "zombie")
    assert kill["label"] == "Kill Otto: a new Zombie"
    await refused(await h.click(held.message_id, kill["custom_id"], GREY_OWNER), "Only the owner of The Captors")
    assert h.bot.campaigns.get_warrior(G, GREY, "Otto").status == "captured"
    res = await ok(await h.click(held.message_id, kill["custom_id"], CAPTOR))
    assert ("The Captors killed Otto of The Grey Company and raised him as a Zombie (he joins Shamblers, now 3); "
            "his kit goes to the stash (Buckler).") in res.text
    assert "holds no captive" in res.text
    assert h.bot.campaigns.get_warrior(G, GREY, "Otto").status == "dead"
    assert h.bot.campaigns.get_warband(G, CAPTORS).stash == ("Buckler",)
    undone = await ok(await h.command("warband undo", ADMIN, name=GREY))
    assert "Undone in The Grey Company and The Captors" in undone.text
    assert h.bot.campaigns.get_warrior(G, CAPTORS, "Shamblers").group_size == 2
    assert h.bot.campaigns.get_warrior(G, GREY, "Otto").status == "captured"


async def test_an_undead_captor_at_its_maximum_is_told_why_privately(harness):
    h = harness
    held = await _otto_held_by(h, "Undead", ("Vampire", "Count", 1), ("Zombie", "Pack A", 5), ("Zombie", "Pack B", 5),
                               ("Zombie", "Pack C", 4))
    await refused(await h.click(held.message_id, _button(h, held.message_id, "zombie")["custom_id"], CAPTOR),
                  "The Captors has no room for another Zombie, so Otto cannot be made one", "over its maximum",
                  "may still sell him to the slavers")
    assert h.bot.campaigns.get_warrior(G, GREY, "Otto").status == "captured"


async def test_a_possessed_captor_sacrifices_him_and_its_leader_gains_the_experience(harness):
    h = harness
    held = await _otto_held_by(h, "Cult of the Possessed", ("Magister", "Magus", 1))
    assert _actions(h, held.message_id) == ["ransom", "sell", "sacr"]
    assert _button(h, held.message_id, "sacr")["label"] == "Sacrifice Otto"
    res = await ok(await h.click(held.message_id, _button(h, held.message_id, "sacr")["custom_id"], CAPTOR))
    assert "The Captors sacrificed Otto of The Grey Company; his kit goes to the stash (Buckler)." in res.text
    assert "Magus, its leader, gains +1 experience: 21. Next advance at 24." in res.text
    assert h.bot.campaigns.get_warrior(G, CAPTORS, "Magus").experience == 21


async def test_any_other_captor_sees_neither_and_a_made_up_press_changes_nothing(harness):
    h = harness
    held = await _otto_held_by(h, "Reiklanders", ("Mercenary Captain", "Boss", 1))
    assert _actions(h, held.message_id) == ["ransom", "sell"]
    # a press of a button the message never had (a made-up custom id, sent as tests/bot/test_interactions.py
    # sends one) changes nothing; the engine refuses it as well (tests/engine/test_campaign_captives_killed.py)
    forged = {"custom_id": _button(h, held.message_id, "sell")["custom_id"].replace("pbc:sell:", "pbc:sacr:"), "component_type": 2}
    await refused(await h.dispatch(h._base_payload(MESSAGE_COMPONENT, forged, CAPTOR, h.messages[held.message_id]), CAPTOR))
    assert h.bot.campaigns.get_warrior(G, GREY, "Otto").status == "captured"


async def test_a_captive_held_outside_the_server_is_recorded_killed_by_his_owner(harness):
    h = harness
    await ok(await h.command("warband create", GREY_OWNER, name=GREY, warband_type="Reiklanders", gold=100))
    await ok(await h.command("warrior add", GREY_OWNER, warband=GREY, name="Otto", role="hero", warrior_type="Human",
                             profile=PROFILE, equipment="Buckler"))
    await ok(await h.command("battle record", GREY_OWNER, warband=GREY, result="loss", opponents="Pete's Undead"))
    await ok(await h.command("warrior injure", GREY_OWNER, warband=GREY, warrior="Otto", injury="61"))
    mine = await ok(await h.command("postbattle captives", GREY_OWNER, warband=GREY))
    killed = _button(h, mine.message_id, "outk")
    assert killed["label"] == "Otto killed (dead)"
    res = await ok(await h.click(mine.message_id, killed["custom_id"], GREY_OWNER))
    assert "Otto was killed by his captors: he is dead, and his kit with them." in res.text
    assert h.bot.campaigns.get_warrior(G, GREY, "Otto").status == "dead"


def test_a_captors_row_keeps_to_discords_five_buttons():
    """Ransom, sale and the Zombie leave room for two exchanges on the captive's row."""
    def captive(cid: int, band: int, captor: int) -> Captive:
        return Captive(id=cid, name=f"C{cid}", warband="X", warband_id=band, captor="Y", captor_id=captor, ransom=None, kit=())
    view = CaptivesView(warband="Y", warband_id=2, owner_id=1, gold=0, held=(captive(1, 5, 2),),
                        taken=tuple(captive(n, 2, 5) for n in range(10, 14)), fates=(RAISE_ZOMBIE,))
    rows = [item.row for item in captives_components(view).children]
    assert rows.count(0) == PER_ROW
