"""/battle record against a warband, /postbattle through the harness, /campaign: seeded sequences,
undo of the whole batch, stale and foreign presses, a restart mid-sequence, a deleted warband."""

from __future__ import annotations

import json

from bot.harness import ADMIN_PERMISSIONS, Actor, Harness, embed_text
from tests.conftest import make_bot

from tests.conftest import both_backends

pytestmark = both_backends

G = 111
OWNER = Actor(user_id=1, guild_id=G)
RIVAL = Actor(user_id=2, guild_id=G)
ADMIN = Actor(user_id=3, guild_id=G, permissions=ADMIN_PERMISSIONS)
ELSEWHERE = Actor(user_id=1, guild_id=222)
WB, FOE = "Reikland Raiders", "Skaven Scurriers"


async def ok(res):
    assert not res.is_error, res.text
    return res


async def warband(h, name=WB, actor=OWNER):
    await ok(await h.command("warband create", actor, name=name, warband_type="Reiklanders", gold=100))
    for wname, role, extra in (("Captain", "leader", {"experience": 20}), ("Hans", "hero", {"experience": 8}),
                               ("Otto", "hero", {"experience": 1}), ("Marksmen", "henchmen", {"group_size": 3, "experience": 1})):
        await ok(await h.command("warrior add", actor, warband=name, name=wname, role=role, warrior_type="Human",
                                 profile="4 4 4 3 3 1 4 1 8", **extra))


def ids_of(msg, prefix):
    return [c["custom_id"] for c in msg.components() if c.get("custom_id", "").startswith(prefix)]


def component(h, mid, action):
    found = [c for c in h.messages[mid].components() if c.get("custom_id", "").split(":")[1:2] == [action]]
    assert found, f"no {action} on the message: {[c.get('custom_id') for c in h.messages[mid].components()]}"
    return found[0]


async def start_after_battle(h):
    rec = await ok(await h.command("battle record", OWNER, warband=WB, result="win", opponent=FOE, scenario="Skirmish"))
    assert "Recorded for Skaven Scurriers too: **LOSS**" in rec.text and not rec.ephemeral
    starts = ids_of(h.messages[rec.message_id], "pb:start:")
    assert len(starts) == 2
    seq = await ok(await h.click(rec.message_id, starts[0], OWNER))
    assert not seq.ephemeral and "Who fought" in seq.text
    return seq.message_id


async def test_a_seeded_sequence_in_the_channel_then_undo_takes_it_all_back(harness):
    h = harness
    await warband(h)
    await warband(h, FOE, RIVAL)
    mid = await start_after_battle(h)
    before = (await h.command("warband show", OWNER, name=WB)).text  # the battle recorded, the sequence not yet run
    assert "**Treasury:** 100 gc" in before
    ooa = component(h, mid, "ooa")
    hans = next(o["value"] for o in ooa["options"] if o["label"] == "Hans")
    two = next(o["value"] for o in ooa["options"] if o["label"] == "Marksmen — 2 of 3")
    res = await ok(await h.select(mid, ooa["custom_id"], [hans, two], OWNER))
    assert "**Hans** (hero): out of action" in res.text and "2 of 3 out of action" in res.text
    opened = await ok(await h.click(mid, component(h, mid, "kills")["custom_id"], OWNER))
    res = await ok(await h.submit_modal(opened.first.data["custom_id"], {"kills": "Otto 3", "scenario": ""}, OWNER, message_id=mid))
    assert "3 enemies out of action" in res.text
    await ok(await h.click(mid, component(h, mid, "confirm")["custom_id"], OWNER))
    opened = await ok(await h.click(mid, component(h, mid, "injdice")["custom_id"], OWNER))
    fields = {c["components"][0]["custom_id"] for c in opened.first.data["components"]}
    hans_id = next(f for f in fields if f"w{hans.split(':')[0]}" == f)
    marks_id = next(f for f in fields if f != hans_id)
    res = await ok(await h.submit_modal(opened.first.data["custom_id"], {hans_id: "22", marks_id: "1 5"}, OWNER, message_id=mid))
    assert "Serious injury for Hans: D66 22 (entered)" in res.text and "Hans — Leg wound (−1 M)" in res.text
    assert "Marksmen — 1 of 2 out of action lost" in res.text
    res = await ok(await h.click(mid, component(h, mid, "xp")["custom_id"], OWNER))
    assert "Otto +4 experience → advance:" in res.text and "Advance for Otto: 2D6" in res.text
    skills = iter(["Dodge", "Sprint", "Step Aside"])
    while True:
        comps = [c.get("custom_id", "") for c in h.messages[mid].components()]
        if any(":skill:" in c for c in comps):
            said = json.dumps(h.messages[mid].data)
            assert "a new skill from his skill lists" not in said and "skill lists (menus below, or type it)" in said
            opened = await ok(await h.click(mid, next(c for c in comps if ":skill:" in c), OWNER))
            await ok(await h.submit_modal(opened.first.data["custom_id"], {"skill": next(skills)}, OWNER, message_id=mid))
        elif any(":choose:" in c for c in comps):
            sel = component(h, mid, "choose")
            await ok(await h.select(mid, sel["custom_id"], [sel["options"][0]["value"]], OWNER))
        elif any(":talent:" in c for c in comps):
            opened = await ok(await h.click(mid, next(c for c in comps if ":talent:" in c), OWNER))
            await ok(await h.submit_modal(opened.first.data["custom_id"], {"name": "Young Karl", "lists": ""}, OWNER, message_id=mid))
        else:
            break
    for extra in ("\u00b2", "9" * 5000):  # '²' passes str.isdigit() and then failed int(): an apology, once
        opened = await ok(await h.click(mid, component(h, mid, "expdice")["custom_id"], OWNER))
        refused = await h.submit_modal(opened.first.data["custom_id"], {"dice": "5 1 3", "extra": extra}, OWNER, message_id=mid)
        assert refused.is_error and refused.ephemeral and "Extra dice must be a number from 0 to 6" in refused.text
    opened = await ok(await h.click(mid, component(h, mid, "expdice")["custom_id"], OWNER))
    res = await ok(await h.submit_modal(opened.first.data["custom_id"], {"dice": "5 1 3", "extra": ""}, OWNER, message_id=mid))
    assert "Exploration: 3D6 5 1 3 = 9" in res.text and "Total 9: 2 shards of wyrdstone" in res.text
    sell = component(h, mid, "sell")
    assert [o["label"] for o in sell["options"]] == ["Keep them all", "Sell 1 for 40 gc", "Sell 2 for 55 gc"]
    res = await ok(await h.select(mid, sell["custom_id"], ["2"], OWNER))
    assert "Trading and hiring" in res.text
    res = await ok(await h.click(mid, component(h, mid, "finish")["custom_id"], OWNER))
    assert not res.ephemeral and h.messages[mid].components() == []
    summary = h.messages[mid].data["embeds"][0]
    assert summary["title"] == "Reikland Raiders after battle 1 (win, Skirmish)"
    fields = [f["name"] for f in summary["fields"]]  # sections, not one run-on paragraph, the treasury last
    assert fields == ["Injuries", "Experience", "Exploration", "Wyrdstone and loot", "Every die rolled", "Treasury"]
    by_name = {f["name"]: f["value"] for f in summary["fields"]}
    assert "• Hans — Leg wound (−1 M)" in by_name["Injuries"]
    assert "• found 2 shards of wyrdstone\n• sold 2 shards for 55 gc" in by_name["Wyrdstone and loot"]
    assert by_name["Treasury"] == "155 gc and 0 shards of wyrdstone"
    dice = by_name["Every die rolled"]  # typed at the table ones too, from the first to the last
    assert dice.startswith("Serious injury for Hans: D66 22 (entered)\nMarksmen, model 1 out of action: D6 1 (entered)")
    assert "Exploration: 3D6 5 1 3 = 9 (entered)" in dice
    standings = await ok(await h.command("campaign standings", RIVAL))
    assert "1. Reikland Raiders" in standings.text and "1W 0D 0L · 2 shards found" in standings.text
    assert "0W 0D 1L" in standings.text and "Most experienced heroes" in standings.text
    log = await ok(await h.command("campaign log", RIVAL))
    assert "**Reikland Raiders** beat Skaven Scurriers · Skirmish" in log.text and log.text.count("Skaven Scurriers") == 1
    undo = await ok(await h.command("warband undo", OWNER, name=WB))
    assert not undo.is_error
    after = (await h.command("warband show", OWNER, name=WB)).text
    assert after == before  # every warrior, the treasury and the rating as they were
    hans = h.bot.campaigns.get_warrior(G, WB, "Hans")
    assert hans.profile.M == 4 and hans.injuries == () and hans.experience == 8


async def test_only_the_owner_or_manage_server_presses_and_a_second_press_is_refused(harness):
    h = harness
    await warband(h)
    await warband(h, FOE, RIVAL)
    mid = await start_after_battle(h)
    confirm = component(h, mid, "confirm")["custom_id"]
    res = await h.click(mid, confirm, RIVAL)
    assert res.is_error and res.ephemeral and "Only the owner of Reikland Raiders" in res.text
    await ok(await h.click(mid, confirm, ADMIN))  # Manage Server may
    # the same button again (a second press, or another device showing the old message)
    h.messages[mid].data["components"] = [{"type": 1, "components": [{"type": 2, "custom_id": confirm, "label": "x", "style": 1}]}]
    res = await h.click(mid, confirm, OWNER)
    assert res.is_error and "already taken" in res.text


async def at_injuries(h, *out_of_action: str) -> tuple[int, list[str]]:
    """Both warbands made, the battle's sequence started, the menu's ``out_of_action`` (its labels)
    chosen and confirmed: the message, at its injuries, and the values chosen."""
    await warband(h)
    await warband(h, FOE, RIVAL)
    mid = await start_after_battle(h)
    ooa = component(h, mid, "ooa")
    values = [next(o["value"] for o in ooa["options"] if o["label"] == label) for label in out_of_action]
    await ok(await h.select(mid, ooa["custom_id"], values, OWNER))
    await ok(await h.click(mid, component(h, mid, "confirm")["custom_id"], OWNER))
    return mid, values


async def test_wrong_dice_get_a_clear_private_message(harness):
    h = harness
    mid, _ = await at_injuries(h, "Hans")
    opened = await ok(await h.click(mid, component(h, mid, "injdice")["custom_id"], OWNER))
    field = opened.first.data["components"][0]["components"][0]["custom_id"]
    res = await h.submit_modal(opened.first.data["custom_id"], {field: "4"}, OWNER, message_id=mid)
    assert res.is_error and res.ephemeral and "a D6, not a D66" in res.text and "type both digits" in res.text
    opened = await ok(await h.click(mid, component(h, mid, "injdice")["custom_id"], OWNER))
    res = await h.submit_modal(opened.first.data["custom_id"], {field: "\u00b2\u00b2"}, OWNER, message_id=mid)
    assert res.is_error and res.ephemeral and "is not a die roll" in res.text  # a digit to isdigit(), not to int()
    hans_now = (await h.command("warrior show", OWNER, warband=WB, warrior="Hans")).text
    assert "**Injuries:** —" in hans_now
    assert "1. Injuries" in embed_text(h.messages[mid].data["embeds"][0])  # the message still waits for the dice


async def test_resume_after_a_restart_and_the_old_buttons_still_work(tmp_path, database):
    async with Harness(make_bot(tmp_path, seed=5, database=database)) as h:
        await warband(h)
        await warband(h, FOE, RIVAL)
        mid = await start_after_battle(h)
        old = h.messages[mid]
        confirm = component(h, mid, "confirm")["custom_id"]
    async with Harness(make_bot(tmp_path, seed=6, database=database)) as h2:  # a new bot on the same database
        h2.messages[mid] = old
        res = await ok(await h2.click(mid, confirm, OWNER))
        assert "1. Injuries" in res.text
        resumed = await ok(await h2.command("postbattle resume", OWNER, warband=WB))
        assert "1. Injuries" in resumed.text and not resumed.ephemeral
        res = await ok(await h2.click(resumed.message_id, component(h2, resumed.message_id, "injuries")["custom_id"], OWNER))
        assert "2. Experience" in res.text


async def test_a_warband_deleted_mid_sequence(harness):
    h = harness
    await warband(h)
    await warband(h, FOE, RIVAL)
    mid = await start_after_battle(h)
    confirm = component(h, mid, "confirm")["custom_id"]
    h.bot.campaigns.delete_warband(G, OWNER.user_id, False, WB)  # as /warband delete's confirm button does
    res = await h.click(mid, confirm, OWNER)
    assert res.is_error and "its warband was deleted" in res.text


async def test_one_sequence_per_warband_and_none_in_another_server(harness):
    h = harness
    await warband(h)
    await warband(h, FOE, RIVAL)
    await start_after_battle(h)
    again = await h.command("postbattle start", OWNER, warband=WB)
    assert again.is_error and "already has a post-battle sequence open" in again.text
    other = await h.command("postbattle resume", ELSEWHERE, warband=WB)
    assert other.is_error and "no warband called" in other.text
    empty = await ok(await h.command("campaign standings", ELSEWHERE))
    assert WB not in empty.text


async def test_deaths_that_leave_a_list_ratio_broken_are_not_refused(harness):
    # Cave Squigs may not outnumber Goblin Warriors (a hiring limit). Goblins dying in battle is
    # the rulebook's result, not a change the owner chose: the sequence goes on.
    h = harness
    name = "Da Boyz"
    await ok(await h.command("warband create", OWNER, name=name, warband_type="Orc Mob"))
    for fighter, wname, count in (("Orc Boss", "Gitzog", 1), ("Goblin Warriors", "Gobbos", 2), ("Cave Squigs", "Squigs", 2)):
        await ok(await h.command("hire fighter", OWNER, warband=name, type=fighter, name=wname, count=count))
    rec = await ok(await h.command("battle record", OWNER, warband=name, result="loss"))
    seq = await ok(await h.click(rec.message_id, ids_of(h.messages[rec.message_id], "pb:start:")[0], OWNER))
    mid = seq.message_id
    ooa = component(h, mid, "ooa")
    gobbos = [o["value"] for o in ooa["options"] if o["label"].startswith("Gobbos")]
    assert len(gobbos) == 2
    await ok(await h.select(mid, ooa["custom_id"], gobbos, OWNER))
    await ok(await h.click(mid, component(h, mid, "confirm")["custom_id"], OWNER))
    opened = await ok(await h.click(mid, component(h, mid, "injdice")["custom_id"], OWNER))
    (field,) = {c["components"][0]["custom_id"] for c in opened.first.data["components"]}
    res = await ok(await h.submit_modal(opened.first.data["custom_id"], {field: "1 2"}, OWNER, message_id=mid))
    assert "2. Experience" in res.text
    check = await ok(await h.command("warband check", OWNER, name=name))
    assert "Cave Squigs" in check.text  # the roster check still names the broken ratio; nothing refused it


async def test_resume_takes_the_buttons_off_the_message_it_replaces(harness):
    h = harness
    await warband(h)
    await warband(h, FOE, RIVAL)
    mid = await start_after_battle(h)
    confirm = component(h, mid, "confirm")["custom_id"]
    assert (await h.command("postbattle resume", RIVAL, warband=WB)).is_error  # only the owner or Manage Server
    assert h.messages[mid].components()
    resumed = await ok(await h.command("postbattle resume", OWNER, warband=WB))
    assert resumed.message_id != mid and h.messages[mid].components() == []  # the old message keeps no buttons
    assert "Who fought" in embed_text(h.messages[mid].data["embeds"][0])  # only its buttons go
    # a copy of the old button (another device still showing it) is stale now
    h.messages[mid].data["components"] = [{"type": 1, "components": [{"type": 2, "custom_id": confirm, "label": "x", "style": 1}]}]
    res = await h.click(mid, confirm, OWNER)
    assert res.is_error and "already taken" in res.text
    again = await ok(await h.command("postbattle resume", OWNER, warband=WB))  # and again: the second message loses them too
    assert h.messages[resumed.message_id].components() == []
    res = await ok(await h.click(again.message_id, component(h, again.message_id, "confirm")["custom_id"], OWNER))
    assert "1. Injuries" in res.text


async def test_every_form_fits_discords_45_characters_without_cutting_ours(harness):
    h = harness
    long_name = "Hans the Unbelievably Long-Named Champion of Reikland"
    await ok(await h.command("warband create", OWNER, name=WB, warband_type="Reiklanders", gold=100))
    await ok(await h.command("warrior add", OWNER, warband=WB, name="Captain", role="leader", warrior_type="Human",
                             profile="4 4 4 3 3 1 4 1 8"))
    await ok(await h.command("warrior add", OWNER, warband=WB, name=long_name, role="hero", warrior_type="Human",
                             profile="4 4 4 3 3 1 4 1 8"))
    rec = await ok(await h.command("battle record", OWNER, warband=WB, result="win"))
    mid = (await ok(await h.click(rec.message_id, ids_of(h.messages[rec.message_id], "pb:start:")[0], OWNER))).message_id
    ooa = component(h, mid, "ooa")
    await ok(await h.select(mid, ooa["custom_id"], [o["value"] for o in ooa["options"] if o["label"] == long_name], OWNER))
    await ok(await h.click(mid, component(h, mid, "confirm")["custom_id"], OWNER))
    opened = await ok(await h.click(mid, component(h, mid, "injdice")["custom_id"], OWNER))
    labels = [c["components"][0]["label"] for c in opened.first.data["components"]]
    assert labels == [long_name[:44] + "…"]  # a warrior's name ends in an ellipsis; the dice go in the placeholder
    assert "D66" in opened.first.data["components"][0]["components"][0]["placeholder"]
    cog = h.bot.get_cog("PostBattleCog")
    view = cog.service.open_sequence(G, WB)
    forms = [cog._modal(action, view, "1") for action in ("kills", "skill", "talent", "expdice")]
    every = [(d["title"], [row["components"][0]["label"] for row in d["components"]]) for d in (m.to_dict() for m in forms)]
    assert all(len(title) <= 45 and all(len(x) <= 45 for x in items) for title, items in every)
    assert ("Exploration dice", ["Dice rolled at the table", "Extra dice from skills or equipment"]) in every
    assert ("A new skill", ["Skill (from the warrior's skill lists)"]) in every  # Sisters learn skills too


async def test_the_upkeep_step_and_a_captive_through_the_channel(harness):
    h = harness
    await warband(h)
    await warband(h, FOE, RIVAL)
    await ok(await h.command("hire sword", OWNER, warband=WB, sword="Halfling Scout", name="Pip"))
    await ok(await h.command("battle record", OWNER, warband=WB, result="loss", opponent=FOE))
    pb = h.bot.get_cog("PostBattleCog").service
    ids = {w.name: w.id for w in h.bot.campaigns.get_warband(G, WB).warriors}
    v = pb.start(G, OWNER.user_id, False, WB)
    v = pb.set_fighters(G, OWNER.user_id, False, v.id, v.version, out_of_action={ids["Hans"]: 1})
    v = pb.confirm_fighters(G, OWNER.user_id, False, v.id, v.version)
    v = pb.roll_injuries(G, OWNER.user_id, False, v.id, v.version, entered={ids["Hans"]: "61"})  # captured
    v = pb.apply_experience(G, OWNER.user_id, False, v.id, v.version)
    while v.state.pending:
        p = v.state.pending[0]
        value = p.options[0] if p.kind == "choose" else "Young Karl" if p.kind == "talent" else "Dodge"
        v = pb.choose(G, OWNER.user_id, False, v.id, v.version, p.warrior_id, p.kind, value, skill_lists=("combat", "speed"))
    v = pb.explore(G, OWNER.user_id, False, v.id, v.version, entered="4 2")
    v = pb.sell(G, OWNER.user_id, False, v.id, v.version, 0)
    assert v.state.step == "upkeep"
    msg = await ok(await h.command("postbattle resume", OWNER, warband=WB))
    assert "5. Hired swords' upkeep" in msg.text and "**Pip**: 5 gc" in msg.text
    assert "**Pip** (hired sword): fought" in msg.text  # listed as what he is, not as a hero
    letgo = component(h, msg.message_id, "letgo")
    assert [o["label"] for o in letgo["options"]] == ["Pip (5 gc)"]
    gold = h.bot.campaigns.get_warband(G, WB).gold_crowns
    res = await ok(await h.click(msg.message_id, component(h, msg.message_id, "upkeep")["custom_id"], OWNER))
    assert "6. Trading and hiring" in res.text and h.bot.campaigns.get_warband(G, WB).gold_crowns == gold - 5
    assert "hire upkeep" not in res.text  # the sequence paid it

    held = await ok(await h.command("postbattle captives", RIVAL, warband=FOE))
    assert "**Hans** of Reikland Raiders" in held.text
    ask = next(c["custom_id"] for c in h.messages[held.message_id].components() if c.get("custom_id", "").startswith("pbc:ransom:"))
    assert (await h.click(held.message_id, ask, OWNER)).is_error  # not the captor's owner: no form
    opened = await ok(await h.click(held.message_id, ask, RIVAL))
    res = await ok(await h.submit_modal(opened.first.data["custom_id"], {"price": "30"}, RIVAL, message_id=held.message_id))
    assert "Skaven Scurriers asks 30 gc for Hans" in res.text
    mine = await ok(await h.command("postbattle captives", OWNER, warband=WB))
    assert "**Hans**, held by Skaven Scurriers: Skaven Scurriers asks 30 gc." in mine.text
    pay = next(c for c in h.messages[mine.message_id].components() if c.get("custom_id", "").startswith("pbc:pay:"))
    assert pay["label"] == "Pay Hans's ransom (30 gc)"
    res = await ok(await h.click(mine.message_id, pay["custom_id"], OWNER))
    assert "Reikland Raiders paid 30 gc to Skaven Scurriers: Hans is back with all his kit." in res.text
    assert h.bot.campaigns.get_warrior(G, WB, "Hans").status == "active"


def test_a_long_summary_shows_every_die_and_ends_with_the_treasury():
    """No die is cut: fields of at most 1,024 characters, messages of at most 6,000, the dice that
    do not fit the summary's message in embeds sent after it; its last field is the treasury."""
    from cogs._ui.postbattle_render import summary_embeds
    from engine.campaign.actions.postbattle import SequenceView
    from engine.campaign.model import SequenceStatus
    from engine.campaign.rules.sequence import Fighter, SequenceState

    dice = tuple(f"Advance for Marksmen group {n:03d}: 2D6 {n % 6 + 1}+{(n // 6) % 6 + 1} = {n % 6 + (n // 6) % 6 + 2}"
                 for n in range(400))
    state = SequenceState(step="done", won=True, battle="battle 9 (win)", fighters=(Fighter(1, "Hans", True, 1),),
                          lines=("Hans — Leg wound (−1 M)", "Hans +2 experience"), line_steps=("injuries", "experience"), dice=dice,
                          explored=True, shards_found=2)
    view = SequenceView(id=1, guild_id=G, warband_id=1, warband=WB, owner_id=1, version=9, status=SequenceStatus.FINISHED,
                        state=state, warriors=(), gold_crowns=123, wyrdstone_shards=2, warband_size=5, sale_prices=())
    embeds = summary_embeds(view)
    assert len(embeds) > 1
    assert all(len(e) <= 6000 and all(len(f.value) <= 1024 for f in e.fields) and len(e.fields) <= 25 for e in embeds)
    shown = "\n".join(f.value for e in embeds for f in e.fields if f.name.startswith("Every die"))
    assert shown.split("\n") == list(dice)
    first = embeds[0]
    assert [f.name for f in first.fields][:3] == ["Injuries", "Experience", "Wyrdstone and loot"]
    assert first.fields[-1].name == "Treasury" and first.fields[-1].value == "123 gc and 2 shards of wyrdstone"


async def test_wyrdstone_hunts_counters_are_asked_in_the_form_and_awarded(harness):
    h = harness
    await warband(h)
    await warband(h, FOE, RIVAL)
    rec = await ok(await h.command("battle record", OWNER, warband=WB, result="win", opponent=FOE, scenario="Wyrdstone Hunt"))
    seq = await ok(await h.click(rec.message_id, ids_of(h.messages[rec.message_id], "pb:start:")[0], OWNER))
    mid = seq.message_id
    opened = await ok(await h.click(mid, component(h, mid, "kills")["custom_id"], OWNER))
    labels = [row["components"][0]["label"] for row in opened.first.data["components"]]
    assert "Wyrdstone counters each carried at the end" in labels  # Wyrdstone Hunt's award: asked for
    res = await h.submit_modal(opened.first.data["custom_id"], {"kills": "", "scenario": "", "counters": "Hans two"}, OWNER,
                               message_id=mid)
    assert res.is_error and res.ephemeral and "Hans 2, Otto 1" in res.text  # refused, saying how to write it
    opened = await ok(await h.click(mid, component(h, mid, "kills")["custom_id"], OWNER))  # the form again
    await ok(await h.submit_modal(opened.first.data["custom_id"], {"kills": "", "scenario": "", "counters": "Hans 2"}, OWNER,
                                  message_id=mid))
    await ok(await h.click(mid, component(h, mid, "confirm")["custom_id"], OWNER))
    await ok(await h.click(mid, component(h, mid, "injuries")["custom_id"], OWNER))
    await ok(await h.click(mid, component(h, mid, "xp")["custom_id"], OWNER))
    hans = next(w for w in h.bot.campaigns.get_warband(G, WB).warriors if w.name == "Hans")
    assert hans.experience == 8 + 1 + 2  # survives, and a counter each


async def _otto_took_three_out(h):
    """A won battle in which Otto (1 xp) took three enemies out of action and nobody fell: the
    sequence confirmed, at its injury step. Otto reaches two advances (2 and 4 xp)."""
    await warband(h)
    await warband(h, FOE, RIVAL)
    mid = await start_after_battle(h)
    opened = await ok(await h.click(mid, component(h, mid, "kills")["custom_id"], OWNER))
    await ok(await h.submit_modal(opened.first.data["custom_id"], {"kills": "Otto 3", "scenario": ""}, OWNER, message_id=mid))
    await ok(await h.click(mid, component(h, mid, "confirm")["custom_id"], OWNER))
    return mid


async def _type_advance_dice(h, mid, typed):
    """The experience step's form of advance dice rolled at the table, submitted with ``typed``."""
    opened = await ok(await h.click(mid, component(h, mid, "xpdice")["custom_id"], OWNER))
    return await h.submit_modal(opened.first.data["custom_id"], {"dice": typed}, OWNER, message_id=mid)


async def test_advance_dice_typed_at_the_table(harness):
    """The experience step takes the advance dice rolled at the table, like the injury and
    exploration steps: each warrior's in order, the bot rolling whatever is missing; dice for a
    warrior who reaches no advance, dice left over and unknown names are refused, nothing kept."""
    h = harness
    mid = await _otto_took_three_out(h)
    assert component(h, mid, "injuries")["label"] == "Nobody to roll for: on to experience"
    assert "Nobody was taken out of action: no injury to roll." in embed_text(h.messages[mid].data["embeds"][0])
    assert not [c for c in h.messages[mid].components() if ":injdice:" in c.get("custom_id", "")]
    await ok(await h.click(mid, component(h, mid, "injuries")["custom_id"], OWNER))  # nobody out of action
    assert "type the dice you rolled at the table" in embed_text(h.messages[mid].data["embeds"][0])  # the experience step's
    for typed, why in (("Hans: 6 6", "Dice were typed for Hans, who reaches no advance in this battle"),
                       ("Otto: 3 3 1 4 5 6 2", "Otto: 1 typed dice were not needed (2)"),
                       ("Gustav: 3 3", "'Gustav: 3 3' is not a warrior of Reikland Raiders in this battle"),
                       ("Otto: 3 3 1 4 5 six", "is not a die roll")):
        refused = await _type_advance_dice(h, mid, typed)
        assert refused.is_error and refused.ephemeral and why in refused.text, refused.text
    assert h.bot.campaigns.get_warrior(G, WB, "Otto").experience == 1  # nothing kept from a refusal
    res = await ok(await _type_advance_dice(h, mid, "otto 3 3 1, Otto: 4 5 6"))
    assert "Otto +4 experience → advance:" in res.text
    otto = h.bot.campaigns.get_warrior(G, WB, "Otto")
    assert (otto.experience, otto.profile.S, otto.profile.T) == (5, 4, 4)  # 6 then 1: +1 S; 9 then 6: +1 T (LRB hero advances)
    assert "Advance for Otto: 2D6 3+3 = 6 (entered)" in res.text and "(entered)" in res.text.split("Advance for Otto: 2D6 4+5")[1]


async def test_closing_early_names_the_advances_left_waiting(harness):
    """Otto reaches two advances; the first typed 2D6 of 2 is a new skill, left to choose. Closing
    the sequence then keeps his experience, and the closed message says the skill still waits."""
    h = harness
    mid = await _otto_took_three_out(h)
    await ok(await h.click(mid, component(h, mid, "injuries")["custom_id"], OWNER))
    await ok(await _type_advance_dice(h, mid, "Otto: 1 1 3 3 1"))
    closed = await ok(await h.command("postbattle cancel", OWNER, warband=WB))
    assert "Left waiting (record by hand with `/warrior edit`)" in closed.text
    assert "Otto: a new skill to choose" in closed.text
    assert h.bot.campaigns.get_warrior(G, WB, "Otto").experience == 5


async def test_undoing_the_battle_closes_the_sequence_that_follows_it(harness):
    """A sequence started after a battle writes nothing yet; undoing the battle closes it, so its old
    buttons cannot roll injuries for a battle that is no longer recorded."""
    h = harness
    await warband(h)
    await warband(h, FOE, RIVAL)
    mid = await start_after_battle(h)
    undo = await ok(await h.command("warband undo", OWNER, name=WB))
    assert "undo battle" in undo.text and "its battle was undone" in undo.text
    resumed = await h.command("postbattle resume", OWNER, warband=WB)
    assert resumed.is_error and "no post-battle sequence open" in resumed.text
    confirm = next(c["custom_id"] for c in h.messages[mid].components() if c.get("custom_id", "").split(":")[1:2] == ["confirm"])
    pressed = await h.click(mid, confirm, OWNER)
    assert pressed.ephemeral and "cancelled" in pressed.text  # the old message's button is refused
    c = h.bot.campaigns
    assert all(c.get_warrior(G, WB, n).status == "active" for n in ("Captain", "Hans", "Otto", "Marksmen"))  # nothing rolled


async def test_a_refused_form_opens_again_with_what_was_typed(harness):
    # a playtest: `w5:11 w1:61 w3:99` was refused for the 99, and all three dice had to be typed again
    h = harness
    mid, (hans, _two) = await at_injuries(h, "Hans", "Marksmen — 2 of 3")

    def typed_in(opened) -> dict[str, str]:
        boxes = [row["components"][0] for row in opened.first.data["components"]]
        return {box["custom_id"]: box.get("value") or "" for box in boxes}

    opened = await ok(await h.click(mid, component(h, mid, "injdice")["custom_id"], OWNER))
    fields = list(typed_in(opened))
    hans_box = f"w{hans.split(':')[0]}"
    marks_box = next(f for f in fields if f != hans_box)
    assert typed_in(opened) == {hans_box: "", marks_box: ""}
    res = await h.submit_modal(opened.first.data["custom_id"], {hans_box: "22", marks_box: "1 9"}, OWNER, message_id=mid)
    assert res.is_error and res.ephemeral
    again = await ok(await h.click(mid, component(h, mid, "injdice")["custom_id"], OWNER))
    assert typed_in(again) == {hans_box: "22", marks_box: "1 9"}  # to mend, not type again
    assert set(typed_in(await ok(await h.click(mid, component(h, mid, "injdice")["custom_id"], ADMIN))).values()) == {""}
    res = await ok(await h.submit_modal(again.first.data["custom_id"], {hans_box: "22", marks_box: "1 5"}, OWNER, message_id=mid))
    assert "Serious injury for Hans: D66 22 (entered)" in res.text
