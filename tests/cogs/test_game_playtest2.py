"""/game through the harness, after a second new player's playtest: the Rout test comes at the start
of the turn, before the recovery phase, so a stunned leader's Ld is not used (000:813, 000:819-821);
/game cancel's one public result; "not in this game" refused for a model who fought; a scenario
written for two warbands refused for more; a refusal naming an owner once; a group's verb."""

from __future__ import annotations

from tests.cogs.test_game_cog import (
    BLUE,
    BLUES,
    RED,
    REDS,
    blues,
    button,
    marked,
    ok,
    panel,
    pick,
    reds,
    refused,
    start,
    take_out,
    tracker_text,
)
from tests.conftest import both_backends

pytestmark = both_backends

NINE = "Skaven Nine"


async def nine(h):
    """Nine models: the leader Snikch (Ld 7), a hero (Ld 4), a hired sword (Ld 8), three Verminkin (Ld 5), three Rats (Ld 4)."""
    await ok(await h.command("warband create", BLUE, name=NINE, warband_type="Skaven", gold=100))
    for name, role, ld, extra in (("Snikch", "leader", 7, {}), ("Squeak", "hero", 4, {}),
                                  ("Sellsword", "hired_sword", 8, {}), ("Verminkin", "henchmen", 5, {"group_size": 3}),
                                  ("Rats", "henchmen", 4, {"group_size": 3})):
        await ok(await h.command("warrior add", BLUE, warband=NINE, name=name, role=role, warrior_type="Skaven",
                                 profile=f"5 3 3 3 3 1 4 1 {ld}", **extra))


async def test_the_rout_test_comes_before_the_recovery_phase_so_a_stunned_leader_lends_no_leadership(harness):
    h = harness
    await reds(h)
    await nine(h)
    h.bot.get_cog("GameCog").edits.delay = 0
    tracker = (await ok(await h.command("game start", RED, warband1=REDS, warband2=NINE))).message_id
    p = (await ok(await h.click(tracker, button(h, tracker, "mark", "1"), BLUE))).message_id
    for name in ("Rats 1", "Rats 2", "Rats 3"):  # 3 of 9: a quarter, rounded up (000:813)
        await take_out(h, p, BLUE, name, "Hans")
    await pick(h, p, BLUE, "Snikch")
    await ok(await h.click(p, button(h, p, "set", "stunned"), BLUE))
    await pick(h, p, BLUE, "Verminkin 1")
    await ok(await h.click(p, button(h, p, "set", "knocked_down"), BLUE))
    await marked(h)

    await ok(await h.click(tracker, button(h, tracker, "next"), RED))
    text = tracker_text(h, tracker)
    # the test at the start of his turn, before his recovery phase: Snikch still stunned (000:819-821);
    # the best Ld of the rest not stunned or out of action: a knocked-down Verminkin's 5, never the hired sword's 8
    assert "Skaven Nine must take a Rout test" in text and "against Ld 5 (Verminkin 1: Snikch, the leader, is stunned" in text
    assert "**Stunned:** Snikch" in text and "**Knocked down:** Verminkin 1" in text
    assert "Roll the Rout test (Ld 5)" in [c.get("label") for c in h.messages[tracker].components()]
    assert "Snikch knocked down" not in text

    opened = await ok(await h.click(tracker, button(h, tracker, "routdice"), BLUE))
    res = await ok(await h.submit_modal(opened.first.data["custom_id"], {"dice": "2 3"}, BLUE, message_id=tracker))
    assert "Ld 5 (Verminkin 1)" in res.text and "it fights on" in res.text
    text = tracker_text(h, tracker)  # then the recovery phase: stunned → knocked down, knocked down → standing (000:301)
    assert "recovery phase: Snikch knocked down; Verminkin 1 standing" in text
    assert "**Knocked down:** Snikch" in text and "**Stunned:**" not in text
    # the turn cannot be undone once the Rout test is taken (dice rolled are a record)
    await refused(await h.click(tracker, button(h, tracker, "undo"), RED), "cannot be taken back")


async def test_a_failed_rout_test_ends_the_warband_before_its_recovery_phase(harness):
    h = harness
    await reds(h)
    await blues(h)
    tracker = await start(h)
    p = await panel(h, tracker, BLUE, BLUES)
    await take_out(h, p, BLUE, "Clanrats 1", "Hans")
    await take_out(h, p, BLUE, "Clanrats 2", "Hans")
    await pick(h, p, BLUE, "Skab")
    await ok(await h.click(p, button(h, p, "set", "stunned"), BLUE))
    await marked(h)
    await ok(await h.click(tracker, button(h, tracker, "next"), RED))
    asked = await ok(await h.click(tracker, button(h, tracker, "flee"), BLUE))
    await ok(await h.click(asked.message_id, button(h, asked.message_id, "fleeok"), BLUE))
    text = tracker_text(h, tracker)
    assert "Game #1 — over" in text and "**Stunned:** Skab" in text and "recovery phase:" not in text


def cancel_sent(res):
    """What answering /game cancel's question did: the private answer, public posts, tracker edits."""
    followups = [s for s in res.sent if s.kind == "followup"]
    return ([s for s in followups if not s.ephemeral], [s for s in followups if s.ephemeral],
            [s for s in res.sent if s.kind == "channel_edit"])


async def test_cancel_shows_one_public_result_and_no_false_error_after_a_restart(tmp_path, database):
    from bot.harness import Harness
    from tests.conftest import make_bot

    async with Harness(make_bot(tmp_path, database=database)) as h:
        await reds(h)
        await blues(h)
        tracker = await start(h)
        asked = await ok(await h.command("game cancel", RED, game=1))
        done = await ok(await h.click(asked.message_id, button(h, asked.message_id, "cancelok"), RED))
        public, private, edits = cancel_sent(done)
        assert "Game #1 is cancelled" in done.text
        assert public == [] and private == [] and [e.message_id for e in edits] == [tracker]  # the tracker, edited: once
        assert "Game #1 — cancelled" in tracker_text(h, tracker)
        await ok(await h.command("game start", RED, warband1=REDS, warband2=BLUES))
        second = max(h.messages)
        old = h.messages[second]
    async with Harness(make_bot(tmp_path, seed=6, database=database)) as h2:  # the bot restarted
        h2.messages[second] = old
        asked = await ok(await h2.command("game cancel", BLUE, game=2))
        done = await ok(await h2.click(asked.message_id, button(h2, asked.message_id, "cancelok"), BLUE))
        public, private, edits = cancel_sent(done)
        assert public == [] and private == [] and [e.message_id for e in edits] == [second]
        assert "Game #2 — cancelled" in tracker_text(h2, second)
    async with Harness(make_bot(tmp_path, seed=7, database=database)) as h3:  # a tracker message deleted meanwhile
        await ok(await h3.command("game start", RED, warband1=REDS, warband2=BLUES))
        third = max(h3.messages)
        del h3.messages[third]
        asked = await ok(await h3.command("game cancel", RED, game=3))
        done = await ok(await h3.click(asked.message_id, button(h3, asked.message_id, "cancelok"), RED))
        public, private, _ = cancel_sent(done)
        assert private == [] and len(public) == 1 and "Game #3 — cancelled" in str(public[0].data)  # posted here instead


async def test_not_in_this_game_is_refused_for_a_model_who_fought(harness):
    h = harness
    await reds(h)
    await blues(h)
    tracker = await start(h)
    rp = await panel(h, tracker, RED, REDS)
    await pick(h, rp, RED, "Hans")  # Red's panel on Hans, drawn before Hans takes anyone out
    p = await panel(h, tracker, BLUE, BLUES)
    await take_out(h, p, BLUE, "Clanrats 1", "Hans")
    await pick(h, p, BLUE, "Clanrats 1")
    absent = button(h, p, "set", "absent")
    assert next(c for c in h.messages[p].components() if c.get("custom_id") == absent)["disabled"]  # not offered
    # the engine refuses it too: Hans took an enemy out, so he was in the fight
    res = await refused(await h.click(rp, button(h, rp, "set", "absent"), RED),
                        "Hans took part in this game (he took 1 enemy out of action)")
    assert "Nothing was changed" in res.text
    await marked(h)
    text = tracker_text(h, tracker)  # Hans keeps his kill, the warband its six
    assert "Hans (took out 1)" in text and "out of action 1 of 6" in text
    # a model the tracker shows nothing of may be left out (he stayed at home): out of the Rout count
    await pick(h, p, BLUE, "Clanrats 4")
    await ok(await h.click(p, button(h, p, "set", "absent"), BLUE))
    await marked(h)
    assert "out of action 1 of 5" in tracker_text(h, tracker)


async def test_a_scenario_for_two_warbands_is_refused_for_three_and_the_others_note_the_multiplayer_rules(harness):
    from tests.cogs.test_game_cog import GREEN, GREENS

    h = harness
    await reds(h)
    await blues(h)
    await ok(await h.command("warband create", GREEN, name=GREENS, warband_type="Orcs", gold=100))
    await ok(await h.command("warrior add", GREEN, warband=GREENS, name="Boss", role="leader", warrior_type="Orc",
                             profile="4 4 3 3 4 1 2 1 8"))
    three = {"warband1": REDS, "warband2": BLUES, "warband3": GREENS}
    res = await refused(await h.command("game start", RED, scenario="Street Fight", **three),
                        "Street Fight is a scenario for 2 warbands, and 3 were named")
    assert "custom: Street Fight" in res.text
    # one's own version of it is the players' to set up
    res = await ok(await h.command("game start", RED, scenario="custom: Street Fight", **three))
    await ok(await h.command("game cancel", RED, game=1))
    asked = max(h.messages)
    await ok(await h.click(asked, button(h, asked, "cancelok"), RED))
    # a scenario the multiplayer rules can set up for more is played, with a note of them
    res = await ok(await h.command("game start", RED, scenario="Skirmish", **three))
    assert "Skirmish is written for 2 warbands: with 3, set up by the multiplayer rules (Town Cryer 5" in tracker_text(h, res.message_id)
    # and two warbands in Street Fight as ever
    await ok(await h.command("game cancel", RED, game=2))
    asked = max(h.messages)
    await ok(await h.click(asked, button(h, asked, "cancelok"), RED))
    res = await ok(await h.command("game start", RED, warband1=REDS, warband2=BLUES, scenario="Street Fight"))
    assert "written for" not in tracker_text(h, res.message_id)


async def test_a_refusal_names_a_player_who_owns_both_warbands_once(harness):
    from tests.cogs.test_game_cog import STRANGER

    h = harness
    await reds(h)
    await ok(await h.command("warband create", RED, name="Red Reserve", warband_type="Reiklanders", gold=100))
    await ok(await h.command("warrior add", RED, warband="Red Reserve", name="Sergeant", role="leader", warrior_type="Human",
                             profile="4 4 4 3 3 1 4 1 8"))
    tracker = (await ok(await h.command("game start", RED, warband1=REDS, warband2="Red Reserve"))).message_id
    res = await refused(await h.click(tracker, button(h, tracker, "next"), STRANGER), "Only the players of this game")
    assert res.text.count("<@1>") == 1
    res = await refused(await h.command("game cancel", STRANGER, game=1), "can cancel it")
    assert res.text.count("<@1>") == 1
