"""/game through the harness: a game started with two warbands, warriors marked from the players'
panels, the recovery phase and the Rout test at the start of a turn, the end opening post-battle
sequences filled in from the game; undo, stale and foreign presses, the server's setting, a
restart, a multiplayer game, and the tracker within Discord's limits."""

from __future__ import annotations

import pytest

from bot.harness import ADMIN_PERMISSIONS, Actor, Harness
from tests.conftest import both_backends, make_bot

pytestmark = both_backends

G = 111
RED = Actor(user_id=1, guild_id=G)
BLUE = Actor(user_id=2, guild_id=G)
GREEN = Actor(user_id=4, guild_id=G)
ADMIN = Actor(user_id=3, guild_id=G, permissions=ADMIN_PERMISSIONS)
STRANGER = Actor(user_id=9, guild_id=G)
ELSEWHERE = Actor(user_id=1, guild_id=222)
REDS, BLUES, GREENS = "Reikland Raiders", "Skaven Scurriers", "Orc Boyz"


async def ok(res):
    assert not res.is_error, res.text
    return res


async def refused(res, words):
    assert res.is_error and res.ephemeral, res.text
    assert words in res.text, res.text
    return res


async def reds(h):
    await ok(await h.command("warband create", RED, name=REDS, warband_type="Reiklanders", gold=100))
    for name, role, extra in (("Captain", "leader", {}), ("Hans", "hero", {}), ("Otto", "hero", {}),
                              ("Marksmen", "henchmen", {"group_size": 3})):
        await ok(await h.command("warrior add", RED, warband=REDS, name=name, role=role, warrior_type="Human",
                                 profile="4 4 4 3 3 1 4 1 8", **extra))


async def blues(h):
    """Six models: a leader (Ld 7), a hero (Ld 6) and four clanrats (Ld 5)."""
    await ok(await h.command("warband create", BLUE, name=BLUES, warband_type="Skaven", gold=100))
    for name, role, ld, extra in (("Snikch", "leader", 7, {}), ("Skab", "hero", 6, {}), ("Clanrats", "henchmen", 5, {"group_size": 4})):
        await ok(await h.command("warrior add", BLUE, warband=BLUES, name=name, role=role, warrior_type="Skaven",
                                 profile=f"5 3 3 3 3 1 4 1 {ld}", **extra))


def button(h, mid, action, arg=None):
    """The custom id of the message's component for ``action`` (and its ``arg``)."""
    for c in h.messages[mid].components():
        parts = c.get("custom_id", "").split(":")
        if parts[1:2] == [action] and (arg is None or parts[-1] == arg):
            return c["custom_id"]
    raise AssertionError(f"no {action}/{arg} on the message: {[c.get('custom_id') for c in h.messages[mid].components()]}")


def menu(h, mid, action):
    return next(c for c in h.messages[mid].components() if c.get("custom_id", "").split(":")[1:2] == [action])


def option(comp, label_start):
    return next(o["value"] for o in comp["options"] if o["label"].startswith(label_start))


async def start(h, *more):
    h.bot.get_cog("GameCog").edits.delay = 0  # the tracker's edit after marks comes at once (it gathers a second's marks)
    res = await ok(await h.command("game start", RED, warband1=REDS, warband2=BLUES, scenario="Wyrdstone Hunt",
                                   time="Friday 20:00", **dict(more)))
    assert not res.ephemeral
    return res.message_id


async def panel(h, tracker, actor, side_name):
    res = await ok(await h.click(tracker, button(h, tracker, "mark", str([REDS, BLUES, GREENS].index(side_name))), actor))
    assert res.ephemeral and f"Marking {side_name}" in res.text
    return res.message_id


async def pick(h, pmid, actor, warrior):
    if not any(c.get("custom_id", "").startswith("gps:pick:") for c in h.messages[pmid].components()):
        await ok(await h.click(pmid, button(h, pmid, "list"), actor))  # back to the list from a warrior's marks
    pick_menu = menu(h, pmid, "pick")
    return await ok(await h.select(pmid, pick_menu["custom_id"], [option(pick_menu, warrior)], actor))


async def take_out(h, pmid, actor, warrior, by):
    await pick(h, pmid, actor, warrior)
    ooa = menu(h, pmid, "ooa")
    res = await ok(await h.select(pmid, ooa["custom_id"], [option(ooa, by)], actor))
    await marked(h)
    return res


def tracker_text(h, mid):
    from bot.harness import embed_text
    return "\n".join(embed_text(e) for e in h.messages[mid].data.get("embeds") or [])


async def marked(h):
    """Until the tracker's edit asked for by the marks so far is made."""
    await h.bot.get_cog("GameCog").edits.settled()


async def test_a_third_out_of_action_then_next_turn_prompts_the_rout_test_and_the_end_fills_in_the_sequences(harness):
    h = harness
    await reds(h)
    await blues(h)
    tracker = await start(h)
    text = tracker_text(h, tracker)
    assert "Game #1 — turn 1, Reikland Raiders' turn" in text and "Wyrdstone Hunt" in text and "Friday 20:00" in text
    assert "out of action 0 of 6** (Rout test at 2)" in text  # a quarter of 6, rounded up (000:813)

    p = await panel(h, tracker, BLUE, BLUES)
    res = await take_out(h, p, BLUE, "Clanrats 1", "Hans")
    assert "Clanrats 1: out of action" in res.text  # his panel says so at once
    edit = next(s for s in res.sent if s.kind == "channel_edit")  # then the tracker message, edited for everyone
    assert edit.message_id == tracker and "Clanrats 1 (by Hans)" in tracker_text(h, tracker)
    await take_out(h, p, BLUE, "Clanrats 2", "Hans")
    await pick(h, p, BLUE, "Skab")
    await ok(await h.click(p, button(h, p, "set", "stunned"), BLUE))
    await marked(h)
    text = tracker_text(h, tracker)
    assert "out of action 2 of 6** (Rout test at 2)" in text and "**Stunned:** Skab" in text
    assert "Hans (took out 2)" in text

    res = await ok(await h.click(tracker, button(h, tracker, "next"), RED))
    text = tracker_text(h, tracker)
    assert "Skaven Scurriers must take a Rout test" in text and "against Ld 7 (Snikch, the leader)" in text
    assert "**Stunned:** Skab" in text  # the Rout test comes first, then the recovery phase (000:813, 000:301)
    assert "Roll the Rout test (Ld 7)" in [c.get("label") for c in h.messages[tracker].components()]
    await refused(await h.click(tracker, button(h, tracker, "next"), BLUE), "must take its Rout test first")

    opened = await ok(await h.click(tracker, button(h, tracker, "routdice"), BLUE))
    res = await ok(await h.submit_modal(opened.first.data["custom_id"], {"dice": "3 4"}, BLUE, message_id=tracker))
    assert "Rout test of Skaven Scurriers: 2D6 3+4 = 7 (entered)" in res.text and "it fights on" in res.text
    assert "recovery phase: Skab knocked down" in tracker_text(h, tracker)  # his turn goes on (000:301)
    assert "**Knocked down:** Skab" in tracker_text(h, tracker)

    res = await ok(await h.click(tracker, button(h, tracker, "end"), RED))
    assert res.ephemeral and "who won" in res.text.lower()
    end = res.message_id
    won, end_panel = button(h, end, "won", "0"), dict(h.messages[end].data)
    res = await ok(await h.click(end, won, RED))
    assert "Game #1 — over" in tracker_text(h, tracker)
    sequences = [s for s in res.sent if s.kind == "followup" and not s.ephemeral]
    assert len(sequences) == 2
    from bot.harness import embed_text
    shown = {s.data["embeds"][0]["title"].split(" after ")[0]: embed_text(s.data["embeds"][0]) for s in sequences}
    assert "**Hans** (hero): 2 enemies out of action" in shown[REDS]
    assert "**Clanrats** (4 henchmen): 2 of 4 out of action" in shown[BLUES]
    assert "battle 1 (win, Wyrdstone Hunt)" in sequences[0].data["embeds"][0]["title"] or \
           "battle 1 (win, Wyrdstone Hunt)" in sequences[1].data["embeds"][0]["title"]
    log = await ok(await h.command("campaign log", STRANGER))
    assert "**Reikland Raiders** beat Skaven Scurriers · Wyrdstone Hunt" in log.text and log.text.count(BLUES) == 1
    # ending twice (the End panel pressed again, from another device) is refused, privately
    h.messages[end].data = end_panel
    await refused(await h.click(end, won, RED), "Game #1 is over")
    # the sequence opened by the end is the warband's open sequence, filled in; the tracker's button shows it again
    resumed = await ok(await h.command("postbattle resume", BLUE, warband=BLUES))
    assert "2 of 4 out of action" in resumed.text
    again = await ok(await h.click(tracker, button(h, tracker, "post", "1"), BLUE))
    assert not again.ephemeral and "2 of 4 out of action" in again.text
    await refused(await h.click(tracker, button(h, tracker, "post", "1"), RED), "Only the owner of Skaven Scurriers")


async def test_refusals_stale_presses_and_the_setting_that_lets_any_player_mark(harness):
    h = harness
    await reds(h)
    await blues(h)
    tracker = await start(h)
    # a press on another member's warband is refused privately
    await refused(await h.click(tracker, button(h, tracker, "mark", "0"), BLUE), "Only the owner of Reikland Raiders")
    await refused(await h.click(tracker, button(h, tracker, "next"), STRANGER), "Only the players of this game")
    await refused(await h.click(tracker, button(h, tracker, "end"), STRANGER), "Only the players of this game")
    # two members pressing at once: one wins, the other is told
    next_id = button(h, tracker, "next")
    old = dict(h.messages[tracker].data)
    await ok(await h.click(tracker, next_id, RED))
    h.messages[tracker].data = old  # the second press came from the message as it was
    await refused(await h.click(tracker, next_id, BLUE), "older state of the game")
    # a panel drawn before someone else marked the same warrior
    p1 = await panel(h, tracker, BLUE, BLUES)
    p2 = await panel(h, tracker, ADMIN, BLUES)
    await pick(h, p1, BLUE, "Skab")
    await pick(h, p2, ADMIN, "Skab")
    await ok(await h.click(p1, button(h, p1, "set", "knocked_down"), BLUE))
    await refused(await h.click(p2, button(h, p2, "set", "stunned"), ADMIN), "Skab changed since this panel was drawn")
    # another warrior on the same old panel is fine: marks of different warriors do not collide
    await pick(h, p2, ADMIN, "Snikch")
    await ok(await h.click(p2, button(h, p2, "set", "hidden"), ADMIN))
    # the server's setting: any player of the game marks any warrior
    await refused(await h.command("admin tracker", RED, anyone_marks=True), "Manage Server")
    await ok(await h.command("admin tracker", ADMIN, anyone_marks=True))
    shown = await ok(await h.command("settings show", STRANGER))
    assert "Any player of a game marks any of its warriors" in shown.text
    p3 = await panel(h, tracker, RED, BLUES)
    await pick(h, p3, RED, "Clanrats 3")
    await ok(await h.click(p3, button(h, p3, "set", "fled"), RED))
    await refused(await h.click(tracker, button(h, tracker, "mark", "1"), STRANGER), "Only the owner of Skaven Scurriers")
    # one server's games are not another's
    await refused(await h.command("game show", ELSEWHERE, game=1), "no game #1")
    assert (await h.autocomplete("game show", "game", ELSEWHERE)).choices == []
    assert [c["value"] for c in (await h.autocomplete("game show", "game", STRANGER)).choices] == [1]


async def test_undo_takes_back_marks_and_turns_and_warband_undo_takes_back_the_battle(harness):
    h = harness
    await reds(h)
    await blues(h)
    tracker = await start(h)
    p = await panel(h, tracker, BLUE, BLUES)
    await take_out(h, p, BLUE, "Snikch", "Captain")
    await ok(await h.click(p, button(h, p, "wyrd", "up"), BLUE))
    await marked(h)
    assert "Snikch (1 wyrdstone, by Captain)" in tracker_text(h, tracker)
    await ok(await h.click(tracker, button(h, tracker, "undo"), BLUE))
    assert "Snikch (by Captain)" in tracker_text(h, tracker)
    await ok(await h.click(tracker, button(h, tracker, "undo"), BLUE))
    assert "**Standing:** Snikch" in tracker_text(h, tracker)
    await ok(await h.click(tracker, button(h, tracker, "next"), RED))
    assert "turn 1, Skaven Scurriers' turn" in tracker_text(h, tracker)
    await ok(await h.click(tracker, button(h, tracker, "undo"), RED))
    assert "turn 1, Reikland Raiders' turn" in tracker_text(h, tracker)
    await refused(await h.click(tracker, button(h, tracker, "undo"), RED), "nothing left to undo")
    log = await ok(await h.command("warband log", BLUE, name=BLUES))
    assert "**game started**" in log.text and "game.start" not in log.text  # the action in words
    assert "game.mark" not in log.text and "game mark" not in log.text  # marks are the table's, kept in the game
    # the end records the battle in the game's batch: /warband undo takes it back, passing over the marks
    res = await ok(await h.click(tracker, button(h, tracker, "end"), BLUE))
    await ok(await h.click(res.message_id, button(h, res.message_id, "won", "draw"), BLUE))
    assert "drew" in tracker_text(h, tracker)
    log = await ok(await h.command("warband log", BLUE, name=BLUES))
    assert "**game recorded**" in log.text and "game.record" not in log.text and "battle" in log.text
    await ok(await h.command("postbattle cancel", BLUE, warband=BLUES))
    before = await ok(await h.command("battle list", BLUE, warband=BLUES))
    assert "DRAW" in before.text.upper()
    undone = await ok(await h.command("warband undo", BLUE, name=BLUES))
    assert "battle" in undone.text
    after = await h.command("battle list", BLUE, warband=BLUES)
    assert "draw" not in after.text.lower()


async def test_a_failed_rout_test_ends_a_two_player_game_and_a_multiplayer_game_goes_on(harness):
    h = harness
    await reds(h)
    await blues(h)
    await ok(await h.command("warband create", GREEN, name=GREENS, warband_type="Orcs", gold=100))
    await ok(await h.command("warrior add", GREEN, warband=GREENS, name="Boss", role="leader", warrior_type="Orc",
                             profile="4 4 3 3 4 1 2 1 8"))
    await ok(await h.command("warrior add", GREEN, warband=GREENS, name="Boyz", role="henchmen", warrior_type="Orc",
                             profile="4 3 3 3 4 1 2 1 7", group_size=3))
    tracker = await start(h, ("warband3", GREENS))
    assert [c.get("label") for c in h.messages[tracker].components()][:3] == [f"Mark: {REDS}", f"Mark: {BLUES}", f"Mark: {GREENS}"]
    p = await panel(h, tracker, BLUE, BLUES)
    await take_out(h, p, BLUE, "Snikch", "Boss")  # the leader out: the best remaining, never a hired sword
    await take_out(h, p, BLUE, "Skab", "Another enemy")
    await ok(await h.click(tracker, button(h, tracker, "next"), RED))
    assert "against Ld 5 (Clanrats 1: Snikch, the leader, is out of action, 000:819-821" in tracker_text(h, tracker)
    asked = await ok(await h.click(tracker, button(h, tracker, "flee"), BLUE))  # voluntary rout (000:825): asked first
    assert asked.ephemeral and "Rout Skaven Scurriers voluntarily?" in asked.text
    await ok(await h.click(asked.message_id, button(h, asked.message_id, "fleeok"), BLUE))
    text = tracker_text(h, tracker)
    assert "routed of its own will" in text and "game #1 — over" not in text.lower()
    assert f"Mark: {BLUES}" not in [c.get("label") for c in h.messages[tracker].components()]
    await refused(await h.click(p, button(h, p, "set", "standing"), BLUE), "has left this game")
    # Greens' turn, then Reds': Greens fail their test (typed dice) and the game ends, Reds the winners
    await ok(await h.click(tracker, button(h, tracker, "next"), GREEN))
    pg = await panel(h, tracker, GREEN, GREENS)
    await take_out(h, pg, GREEN, "Boss", "Hans")
    await ok(await h.click(tracker, button(h, tracker, "next"), RED))
    await ok(await h.click(tracker, button(h, tracker, "next"), RED))
    assert "Orc Boyz must take a Rout test" in tracker_text(h, tracker)
    opened = await ok(await h.click(tracker, button(h, tracker, "routdice"), GREEN))
    await refused(await h.submit_modal(opened.first.data["custom_id"], {"dice": "6 six"}, GREEN, message_id=tracker),
                  "is not a die roll")
    opened = await ok(await h.click(tracker, button(h, tracker, "routdice"), GREEN))  # a modal is answered once
    asked = await ok(await h.submit_modal(opened.first.data["custom_id"], {"dice": "6 5"}, GREEN, message_id=tracker))
    assert asked.ephemeral and "Rout test failed" in asked.text  # typed: confirmed before it ends the game
    res = await ok(await h.click(asked.message_id, button(h, asked.message_id, "routok"), GREEN))
    text = tracker_text(h, tracker)
    assert "Game #1 — over" in text and "Reikland Raiders — won" in text and "Orc Boyz — lost" in text
    assert len([s for s in res.sent if s.kind == "followup" and not s.ephemeral]) == 3
    log = await ok(await h.command("campaign log", STRANGER))
    assert log.text.count("Wyrdstone Hunt") == 1  # one battle of three warbands, shown once


async def test_leadership_tests_from_the_panel_and_a_restart_keeps_the_game(tmp_path, database):
    async with Harness(make_bot(tmp_path, seed=5, database=database)) as h:
        await reds(h)
        await blues(h)
        tracker = await start(h)
        p = await panel(h, tracker, BLUE, BLUES)
        await pick(h, p, BLUE, "Clanrats 1")
        tests = await ok(await h.click(p, button(h, p, "tests"), BLUE))
        assert tests.ephemeral and "Tests for Clanrats 1 (Ld 5)" in tests.text
        t = tests.message_id
        res = await ok(await h.click(t, button(h, t, "test", "fear-leader-rolled"), BLUE))  # his leader's Ld 7 (000:829)
        assert not res.ephemeral and "Fear test for Clanrats 1" in res.text and "against Ld 7" in res.text
        opened = await ok(await h.click(t, button(h, t, "test", "alone-own-typed"), BLUE))
        res = await ok(await h.submit_modal(opened.first.data["custom_id"], {"dice": "2 2"}, BLUE, message_id=t))
        assert not res.ephemeral and "2D6 (2, 2) = 4 — **passed**" in res.text and "000:837" in res.text
        assert res.text.count("passed") == 1  # said once
        old_tracker, old_panel = h.messages[tracker], h.messages[p]
    async with Harness(make_bot(tmp_path, seed=6, database=database)) as h2:  # a new bot on the same database
        h2.messages[tracker], h2.messages[p] = old_tracker, old_panel
        await ok(await h2.click(p, button(h2, p, "set", "knocked_down"), BLUE))
        res = await ok(await h2.click(tracker, button(h2, tracker, "next"), RED))
        assert "Clanrats 1 standing" in res.text  # recovered at his turn's start


async def test_the_tracker_fits_discord_for_two_warbands_of_twenty(harness):
    h = harness
    for owner, name, kind in ((RED, "The Very Long Named Skaven Scurrying Company", "Skaven"),
                              (BLUE, "The Orc Mob of the Broken Tooth Mountains", "Orc Mob")):
        await ok(await h.command("warband create", owner, name=name, warband_type=kind, gold=100))
        await ok(await h.command("warrior add", owner, warband=name, name="Captain Maximilian von Stahl", role="leader",
                                 warrior_type="Human", profile="4 4 4 3 3 1 4 1 8"))
        for n in range(4):
            await ok(await h.command("warrior add", owner, warband=name, name=f"Champion Number {n} the Brave", role="hero",
                                     warrior_type="Human", profile="4 4 4 3 3 1 4 1 7"))
        for n in range(3):
            await ok(await h.command("warrior add", owner, warband=name, name=f"Henchmen Group Number {n}", role="henchmen",
                                     warrior_type="Human", profile="4 3 3 3 3 1 3 1 7", group_size=5))
    res = await ok(await h.command("game start", RED, warband1="The Very Long Named Skaven Scurrying Company",
                                   warband2="The Orc Mob of the Broken Tooth Mountains", scenario="Street Fight"))
    tracker = res.message_id
    data = h.messages[tracker].data
    embeds = data["embeds"]
    total = sum(len(e.get("title", "")) + len(e.get("description", "")) + len((e.get("footer") or {}).get("text", ""))
                for e in embeds)
    assert len(embeds) <= 10 and total <= 6000 and all(len(e.get("description", "")) <= 4096 for e in embeds)
    assert "out of action 0 of 20** (Rout test at 5)" in tracker_text(h, tracker)
    assert "Henchmen Group Number 2 5" in tracker_text(h, tracker)  # every model listed, each by name
    rows = data["components"]
    assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows)
    mark = await ok(await h.click(tracker, button(h, tracker, "mark", "1"), BLUE))
    pick_menu = menu(h, mark.message_id, "pick")
    assert len(pick_menu["options"]) == 20 and len(h.messages[mark.message_id].data["components"]) <= 5


async def test_a_scenario_rolled_on_the_table_at_start(harness):
    """`scenario: roll` rolls 2D6 on the rulebook's scenario table (offered first in the
    autocomplete); the tracker shows the dice and plays what they gave. A 2 or a 12 lets the
    lower-rated player choose, which the bot leaves to him."""
    import re

    from engine.campaign.rules import scenarios as rulebook
    from engine.campaign.rules.game_scenario import RulebookScenarios
    from engine.dice.source import Dice
    from engine.errors import MordheimError

    h = harness
    await reds(h)
    await blues(h)
    offered = await h.autocomplete("game start", "scenario", RED, warband1=REDS, warband2=BLUES, scenario="")
    assert offered.choices[0] == {"name": "Roll on the scenario table (2D6)", "value": "roll"}
    for _ in range(40):  # until the dice give a scenario (2 and 12 give the choice to a player)
        res = await h.command("game start", RED, warband1=REDS, warband2=BLUES, scenario="roll")
        if not res.is_error:
            break
        assert "The scenario table rolled Scenario table: 2D6" in res.text and "lower rating" in res.text
    rolled = re.search(r"Scenario table: 2D6 (\d)\+(\d) = (\d+) → ([^\n]+)", res.text)
    assert rolled, res.text
    name = rulebook.scenario_book().row(int(rolled[3])).scenario.name
    assert rolled[4].strip().startswith(name) and int(rolled[1]) + int(rolled[2]) == int(rolled[3])
    assert name in res.text.split("\n")[0] or name in res.text
    tables = None
    with pytest.raises(MordheimError, match="lower rating"):
        RulebookScenarios().roll(tables, Dice(None, (6, 6)))
    assert RulebookScenarios().roll(tables, Dice(None, (3, 4))).rolled.endswith(rulebook.scenario_book().row(7).scenario.name)


async def test_a_captive_of_a_three_warband_game_is_held_by_the_warband_that_took_him_out_or_one_his_owner_names(harness):
    """Issue 16 (playtest): "Twitch (by Uzg)" recorded, D66 61 entered, and the captive was "held by
    a warband outside this server". His captor is the warband of the warrior who took him out of
    action; with several opponents and no record, his owner says which."""
    h = harness
    await reds(h)
    await blues(h)
    await ok(await h.command("warband create", GREEN, name=GREENS, warband_type="Orcs", gold=100))
    await ok(await h.command("warrior add", GREEN, warband=GREENS, name="Uzg", role="leader", warrior_type="Orc",
                             profile="4 4 3 3 4 1 2 1 8"))
    tracker = await start(h, ("warband3", GREENS))
    p = await panel(h, tracker, BLUE, BLUES)
    await take_out(h, p, BLUE, "Skab", "Uzg")
    await take_out(h, p, BLUE, "Snikch", "Another enemy")  # by someone the tracker does not name: no captor known
    assert "Skab (by Uzg)" in tracker_text(h, tracker)
    res = await ok(await h.click(tracker, button(h, tracker, "end"), RED))
    await ok(await h.click(res.message_id, button(h, res.message_id, "won", "0"), RED))
    seq = (await ok(await h.command("postbattle resume", BLUE, warband=BLUES))).message_id
    await ok(await h.click(seq, button(h, seq, "confirm"), BLUE))
    opened = await ok(await h.click(seq, button(h, seq, "injdice"), BLUE))
    fields = {row["components"][0]["label"]: row["components"][0]["custom_id"] for row in opened.first.data["components"]}
    res = await ok(await h.submit_modal(opened.first.data["custom_id"], {fields["Skab"]: "61", fields["Snikch"]: "61"}, BLUE,
                                        message_id=seq))
    assert "Serious injury for Skab: D66 61 (entered)" in res.text and "Serious injury for Snikch: D66 61 (entered)" in res.text

    mine = await ok(await h.command("postbattle captives", BLUE, warband=BLUES))
    assert "**Skab**, held by Orc Boyz: no ransom asked yet." in mine.text
    assert f"**Snikch**, held by {REDS} or {GREENS}" in mine.text and "outside this server" not in mine.text.split("Snikch")[0]
    held = await ok(await h.command("postbattle captives", GREEN, warband=GREENS))
    assert "holds no captive" not in held.text and f"**Skab** of {BLUES}" in held.text
    reds_id = h.bot.campaigns.get_warband(G, REDS).id
    choose = next(c["custom_id"] for c in h.messages[mine.message_id].components()
                  if c.get("custom_id", "").startswith("pbc:held:") and c["custom_id"].endswith(f":{reds_id}"))
    await refused(await h.click(mine.message_id, choose, RED), "Only the owner")  # the captive's owner says who holds him
    res = await ok(await h.click(mine.message_id, choose, BLUE))
    assert f"Snikch is held by {REDS}" in res.text and f"**Snikch**, held by {REDS}: no ransom asked yet." in res.text
    theirs = await ok(await h.command("postbattle captives", RED, warband=REDS))
    assert f"**Snikch** of {BLUES}" in theirs.text and any(c.get("custom_id", "").startswith("pbc:ransom:")
                                                           for c in h.messages[theirs.message_id].components())


async def test_a_mark_is_answered_by_one_update_of_the_panel_and_as_text_for_a_member_who_reads_plain_text(harness):
    h = harness
    await reds(h)
    await blues(h)
    tracker = await start(h)
    pmid = await panel(h, tracker, BLUE, BLUES)
    await pick(h, pmid, BLUE, "Skab")
    res = await ok(await h.click(pmid, button(h, pmid, "set", "stunned"), BLUE))
    (answer,) = res.sent  # the panel drawn again in the answer itself; the tracker's edit comes after
    assert answer.kind == "callback" and answer.callback_type == 7 and answer.message_id == pmid
    assert "✓ Skab: stunned" in res.text and "allowed_mentions" in answer.data
    stunned = next(c for c in h.messages[pmid].components() if c["custom_id"].endswith(":stunned"))
    assert stunned["disabled"] and stunned["style"] == 1
    await ok(await h.command("preferences plaintext", BLUE, mode="on"))
    res = await ok(await h.click(pmid, button(h, pmid, "set", "knocked_down"), BLUE))
    assert res.sent[0].callback_type == 7 and not res.embeds and "✓ Skab: knocked down" in res.content
    assert any(c["custom_id"].endswith(":knocked_down") and c["disabled"] for c in h.messages[pmid].components())
    await marked(h)
    assert "Skab" in tracker_text(h, tracker)
