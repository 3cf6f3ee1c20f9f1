"""/game through the harness, after a new player's playtest: what ends a warband's game is asked
first (a voluntary rout, a failed Rout test on typed dice, /game cancel); tests a model's special
rules spare him are not offered; a list's leader range; a passed Rally test stands the model up;
typed dice must be the dice a test needs; a misspelt scenario; a warband with its post-battle
sequence open; the panel and /game show say what they mean."""

from __future__ import annotations

import pytest

from bot.harness import Actor
from engine.errors import MordheimError
from tests.cogs.test_game_cog import (
    ADMIN,
    BLUE,
    BLUES,
    RED,
    REDS,
    STRANGER,
    G,
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

DEAD = "Sylvanian Dead"
GREY = Actor(user_id=5, guild_id=G)


def labels(h, mid):
    return [c.get("label") for c in h.messages[mid].components()]


async def rout_due(h, tracker):
    """Blues lose two of six (the Rout test at 2), and the turn passes to them."""
    p = await panel(h, tracker, BLUE, BLUES)
    await take_out(h, p, BLUE, "Clanrats 1", "Hans")
    await take_out(h, p, BLUE, "Clanrats 2", "Hans")
    await ok(await h.click(tracker, button(h, tracker, "next"), RED))
    assert "Skaven Scurriers must take a Rout test" in tracker_text(h, tracker)


async def test_a_voluntary_rout_and_a_failed_typed_rout_test_are_asked_before_they_end_the_game(harness):
    h = harness
    await reds(h)
    await blues(h)
    tracker = await start(h)
    await rout_due(h, tracker)
    # Rout voluntarily: a private question; "No" changes nothing
    asked = await ok(await h.click(tracker, button(h, tracker, "flee"), BLUE))
    assert asked.ephemeral and "Rout Skaven Scurriers voluntarily?" in asked.text and "ends the game" in asked.text
    await refused(await h.click(tracker, button(h, tracker, "flee"), RED), "Only the owner of Skaven Scurriers")
    kept = await ok(await h.click(asked.message_id, button(h, asked.message_id, "keep"), BLUE))
    assert "Nothing was changed" in kept.text
    assert "game #1 — over" not in tracker_text(h, tracker).lower() and "must take a Rout test" in tracker_text(h, tracker)
    # a failed Rout test on typed dice (a typo of '3 3'?): shown to the owner, who may enter it again
    opened = await ok(await h.click(tracker, button(h, tracker, "routdice"), BLUE))
    asked = await ok(await h.submit_modal(opened.first.data["custom_id"], {"dice": "6 6"}, BLUE, message_id=tracker))
    assert asked.ephemeral and "Rout test failed" in asked.text and "2D6 (6, 6) = 12, failed" in asked.text
    assert {"End for Skaven Scurriers", "Typo: enter again"} <= set(labels(h, asked.message_id))
    assert "must take a Rout test" in tracker_text(h, tracker)  # nothing stored yet
    log = await ok(await h.command("warband log", BLUE, name=BLUES))
    assert "game.rout" not in log.text
    again = await ok(await h.click(asked.message_id, button(h, asked.message_id, "routretry"), BLUE))
    res = await ok(await h.submit_modal(again.first.data["custom_id"], {"dice": "3 3"}, BLUE, message_id=asked.message_id))
    assert "Rout test taken" in res.text
    text = tracker_text(h, tracker)
    assert "2D6 (3, 3) = 6, passed" in text and "it fights on" in text and "must take a Rout test" not in text


async def test_a_confirmed_failed_typed_rout_test_ends_the_game(harness):
    h = harness
    await reds(h)
    await blues(h)
    tracker = await start(h)
    await rout_due(h, tracker)
    opened = await ok(await h.click(tracker, button(h, tracker, "routdice"), BLUE))
    asked = await ok(await h.submit_modal(opened.first.data["custom_id"], {"dice": "6 5"}, BLUE, message_id=tracker))
    await refused(await h.click(asked.message_id, button(h, asked.message_id, "routok"), RED), "Only the owner of Skaven")
    res = await ok(await h.click(asked.message_id, button(h, asked.message_id, "routok"), BLUE))
    text = tracker_text(h, tracker)
    assert "Game #1 — over" in text and "Reikland Raiders — won" in text
    assert len([s for s in res.sent if s.kind == "followup" and not s.ephemeral]) == 2  # the two sequences


async def undead(h):
    await ok(await h.command("warband create", GREY, name=DEAD, warband_type="Undead", gold=500))
    await ok(await h.command("hire fighter", GREY, warband=DEAD, type="Vampire", name="Count"))
    await ok(await h.command("hire fighter", GREY, warband=DEAD, type="Zombie", name="Shamblers", count=2))
    await ok(await h.command("hire fighter", GREY, warband=DEAD, type="Dreg", name="Igor"))


async def test_models_immune_to_fear_or_psychology_are_not_offered_those_tests(harness):
    h = harness
    await reds(h)
    await undead(h)
    h.bot.get_cog("GameCog").edits.delay = 0
    tracker = (await ok(await h.command("game start", GREY, warband1=DEAD, warband2=REDS))).message_id
    p = await panel_of(h, tracker, GREY, 0)
    await pick(h, p, GREY, "Shamblers 1")
    tests = await ok(await h.click(p, button(h, p, "tests"), GREY))
    shown = labels(h, tests.message_id)
    assert not any(label.startswith(("Fear", "All Alone")) for label in shown), shown
    assert any(label.startswith("Leadership") for label in shown)
    assert "immune to psychology" in tests.text and "000:849" in tests.text
    # a Fear test asked for anyway (a panel drawn by an older bot) is refused with the reason
    key = button(h, tests.message_id, "test", "leadership-own-rolled").split(":")[5]
    with pytest.raises(MordheimError, match="Shamblers 1 takes no Fear test: he causes fear"):
        h.bot.get_cog("GameCog").tracker.roll_test(G, GREY.user_id, False, 1, 0, key, "fear")
    count = await ok(await h.command("warband show", GREY, name=DEAD))
    assert "Count" in count.text
    # the Dreg (no such rule) takes them all; a Rally test waits until he flees
    await pick(h, p, GREY, "Igor")
    tests = await ok(await h.click(p, button(h, p, "tests"), GREY))
    shown = labels(h, tests.message_id)
    assert any(label.startswith("Fear") for label in shown) and any(label.startswith("All Alone") for label in shown)
    assert not any(label.startswith("Rally") for label in shown) and "mark him Fled first" in tests.text


async def panel_of(h, tracker, actor, side):
    res = await ok(await h.click(tracker, button(h, tracker, "mark", str(side)), actor))
    return res.message_id


async def test_without_a_lists_rule_the_leader_lends_his_leadership_within_six_inches(harness):
    h = harness
    await reds(h)
    await blues(h)
    tracker = await start(h)
    pb = await panel(h, tracker, BLUE, BLUES)
    await pick(h, pb, BLUE, "Clanrats 1")
    tests = await ok(await h.click(pb, button(h, pb, "tests"), BLUE))
    assert 'Within 6" of Snikch' in tests.text  # a Skaven leader: the rulebook's 6" (000:829)
    res = await ok(await h.click(tests.message_id, button(h, tests.message_id, "test", "leadership-leader-rolled"), BLUE))
    assert 'Snikch\'s, within 6" (000:829)' in res.text


async def test_reiklanders_captain_lends_his_leadership_within_twelve_inches(harness):
    h = harness
    await ok(await h.command("warband create", RED, name=REDS, warband_type="Reiklanders", gold=500))
    await ok(await h.command("hire fighter", RED, warband=REDS, type="Mercenary Captain", name="Otto"))
    await ok(await h.command("hire fighter", RED, warband=REDS, type="Youngblood", name="Kurt"))
    await blues(h)
    tracker = await start(h)
    p = await panel(h, tracker, RED, REDS)
    await pick(h, p, RED, "Kurt")
    tests = await ok(await h.click(p, button(h, p, "tests"), RED))
    assert 'Within 12" of Otto he may use his Ld 8 (000:829; Military discipline' in tests.text, tests.text
    res = await ok(await h.click(tests.message_id, button(h, tests.message_id, "test", "fear-leader-rolled"), RED))
    assert "Otto's, within 12\"" in res.text


async def test_a_passed_rally_test_stands_the_model_up_and_next_turn_reminds_the_fleeing(harness):
    h = harness
    await reds(h)
    await blues(h)
    tracker = await start(h)
    p = await panel(h, tracker, BLUE, BLUES)
    await pick(h, p, BLUE, "Clanrats 2")
    await ok(await h.click(p, button(h, p, "set", "fled"), BLUE))
    await pick(h, p, BLUE, "Clanrats 3")
    await ok(await h.click(p, button(h, p, "set", "fled"), BLUE))
    await marked(h)
    # the turn passes to the Blues: their recovery phase reminds them of the Rally tests (000:297)
    await ok(await h.click(tracker, button(h, tracker, "next"), RED))
    assert "Clanrats 2, Clanrats 3 are fleeing — Rally test" in tracker_text(h, tracker)
    await pick(h, p, BLUE, "Clanrats 2")
    tests = await ok(await h.click(p, button(h, p, "tests"), BLUE))
    opened = await ok(await h.click(tests.message_id, button(h, tests.message_id, "test", "rally-own-typed"), BLUE))
    res = await ok(await h.submit_modal(opened.first.data["custom_id"], {"dice": "1 1"}, BLUE, message_id=tests.message_id))
    assert "passed" in res.text and "marked standing" in res.text
    await marked(h)
    text = tracker_text(h, tracker)
    assert "Clanrats 2 (Skaven Scurriers): Rally test, Ld 5: Leadership 5: 2D6 (1, 1) = 2, passed" in text
    assert "**Fled:** Clanrats 3" in text and "Clanrats 2" not in text.split("**Fled:**")[1].split("\n")[0]
    # a failed one is in Latest too, and he stays fled
    await pick(h, p, BLUE, "Clanrats 3")
    tests = await ok(await h.click(p, button(h, p, "tests"), BLUE))
    opened = await ok(await h.click(tests.message_id, button(h, tests.message_id, "test", "rally-own-typed"), BLUE))
    await ok(await h.submit_modal(opened.first.data["custom_id"], {"dice": "6 6"}, BLUE, message_id=tests.message_id))
    await marked(h)
    assert "he flees on" in tracker_text(h, tracker) and "**Fled:** Clanrats 3" in tracker_text(h, tracker)
    # Undo takes the rally back: Clanrats 2 flees again
    await ok(await h.click(tracker, button(h, tracker, "undo"), BLUE))
    assert "**Fled:** Clanrats 2, Clanrats 3" in tracker_text(h, tracker)


async def test_typed_dice_must_be_the_two_a_test_needs(harness):
    h = harness
    await reds(h)
    await blues(h)
    tracker = await start(h)
    p = await panel(h, tracker, BLUE, BLUES)
    await pick(h, p, BLUE, "Skab")
    tests = await ok(await h.click(p, button(h, p, "tests"), BLUE))
    typed = button(h, tests.message_id, "test", "leadership-own-typed")
    for dice, words in (("3", "1 die was typed: type two dice"), ("", "nothing was typed: type two dice"),
                        ("3 4 5", "3 dice were typed: type two dice")):
        opened = await ok(await h.click(tests.message_id, typed, BLUE))
        await refused(await h.submit_modal(opened.first.data["custom_id"], {"dice": dice}, BLUE,
                                           message_id=tests.message_id), words)
    # the Rout test's form likewise
    await take_out(h, p, BLUE, "Clanrats 1", "Hans")
    await take_out(h, p, BLUE, "Clanrats 2", "Hans")
    await ok(await h.click(tracker, button(h, tracker, "next"), RED))
    opened = await ok(await h.click(tracker, button(h, tracker, "routdice"), BLUE))
    await refused(await h.submit_modal(opened.first.data["custom_id"], {"dice": "4"}, BLUE, message_id=tracker),
                  "type two dice")
    assert "must take a Rout test" in tracker_text(h, tracker)


async def test_a_misspelt_scenario_is_refused_and_custom_forces_it(harness):
    h = harness
    await reds(h)
    await blues(h)
    await refused(await h.command("game start", RED, warband1=REDS, warband2=BLUES, scenario="Wyrdston Hunt"),
                  "close to the rulebook's scenario `Wyrdstone Hunt`")
    res = await ok(await h.command("game start", RED, warband1=REDS, warband2=BLUES, scenario="custom: Wyrdston Hunt"))
    assert "**Scenario:** Wyrdston Hunt" in tracker_text(h, res.message_id)


async def test_a_warband_with_its_post_battle_sequence_open_cannot_start_a_game(harness):
    h = harness
    await reds(h)
    await blues(h)
    tracker = await start(h)
    res = await ok(await h.click(tracker, button(h, tracker, "end"), RED))
    await ok(await h.click(res.message_id, button(h, res.message_id, "won", "0"), RED))
    no = await refused(await h.command("game start", RED, warband1=REDS, warband2=BLUES),
                       "Reikland Raiders has a post-battle sequence still open")
    assert "/postbattle resume" in no.text and "/postbattle cancel" in no.text
    await ok(await h.command("postbattle cancel", RED, warband=REDS))
    await refused(await h.command("game start", RED, warband1=REDS, warband2=BLUES), "Skaven Scurriers has a post-battle")
    await ok(await h.command("postbattle cancel", BLUE, warband=BLUES))
    await ok(await h.command("game start", RED, warband1=REDS, warband2=BLUES))


async def test_cancel_is_asked_first_and_the_panel_and_show_say_what_they_mean(harness):
    h = harness
    await reds(h)
    await blues(h)
    tracker = await start(h)
    p = await panel(h, tracker, BLUE, BLUES)
    await pick(h, p, BLUE, "Skab")
    res = await ok(await h.click(p, button(h, p, "wyrd", "up"), BLUE))
    assert "✓ Skab: +1 wyrdstone: 1 carried" in res.text
    # two games: /game show names each game's warbands
    await undead(h)
    await ok(await h.command("warband create", ADMIN, name="Others", warband_type="Skaven", gold=100))
    await ok(await h.command("warrior add", ADMIN, warband="Others", name="Boss", role="leader", warrior_type="Skaven",
                             profile="5 3 3 3 3 1 4 1 7"))
    await ok(await h.command("game start", GREY, warband1=DEAD, warband2="Others"))
    shown = await refused(await h.command("game show", STRANGER), "2 games are being played here")
    assert f"#1 {REDS} v {BLUES}" in shown.text and f"#2 {DEAD} v Others" in shown.text
    # /game cancel: only its players (or Manage Server), and asked first
    no = await refused(await h.command("game cancel", STRANGER, game=1), "can cancel it")
    assert "<@1>" in no.text and "<@2>" in no.text
    asked = await ok(await h.command("game cancel", RED, game=1))
    assert asked.ephemeral and "Cancel game #1?" in asked.text
    await ok(await h.click(asked.message_id, button(h, asked.message_id, "keep"), RED))
    assert "Game #1 — turn 1" in tracker_text(h, tracker)
    asked = await ok(await h.command("game cancel", RED, game=1))
    done = await ok(await h.click(asked.message_id, button(h, asked.message_id, "cancelok"), RED))
    assert "Game #1 is cancelled" in done.text
    assert "Game #1 — cancelled" in tracker_text(h, tracker)
