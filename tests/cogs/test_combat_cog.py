"""/fight, /shoot and /odds through the harness: logs, odds charts, stored warriors, errors."""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from bot.harness import ADMIN_PERMISSIONS, Actor
from cogs._ui.combat_render import log_pages
from engine.combat import make_fighter, resolve_round, resolve_shot

GUILD = 100000000000000001
USER = 300000000000000001
DM = Actor(guild_id=None)
ADMIN = Actor(permissions=ADMIN_PERMISSIONS)

PERCENT = re.compile(r"(\d+\.\d)%")


def public(res) -> bool:
    """The bot answered with at least one message everybody sees."""
    return not res.ephemeral and not res.is_error


def assert_private_error(harness, res, *words: str) -> None:
    assert res.is_error and res.ephemeral, res.text
    assert all(s.ephemeral for s in res.sent if s.kind in ("callback", "followup")), "something public was posted"
    made = {s.message_id for s in res.sent if s.message_id is not None}
    assert not any(not harness.messages[i].ephemeral for i in made if i in harness.messages), "a public message was left behind"
    for word in words:
        assert word.lower() in res.text.lower(), (word, res.text)


def code_blocks(text: str) -> list[str]:
    return re.findall(r"```\n(.*?)\n```", text, re.S)


def percent_sum(block: str) -> float:
    return sum(float(p) for p in PERCENT.findall(block))


async def add_reavers(harness, *, equipment=("Sword", "Bow", "Light armour"), name="Captain"):
    campaigns = harness.bot.campaigns
    await asyncio.to_thread(campaigns.create_warband, GUILD, USER, "Reavers", "Reiklanders")
    await asyncio.to_thread(
        campaigns.add_warrior, GUILD, USER, False, "Reavers", name, role="leader", warrior_type="Mercenary Captain",
        profile=dict(M=4, WS=4, BS=4, S=3, T=3, W=1, I=4, A=1, Ld=8), equipment=list(equipment),
    )


# ----- /fight ---------------------------------------------------------------------------------


async def test_fight_log_shows_every_step_and_the_edition(harness):
    res = await harness.command("fight", attacker="WS4 S4", defender="human", attacker_weapons="sword",
                                defender_armour="light armour, shield")
    assert public(res)
    [embed] = res.embeds
    # the bot's rng is seeded 1234: the same round rolled by the engine directly
    a = make_fighter("Attacker", "WS4 S4", weapons="sword")
    d = make_fighter("Human", "human", armour="light armour, shield")
    expected = resolve_round(a, d, random.Random(1234), edition="lrb")
    for line in expected.lines[1:]:
        assert line in embed["description"]
    text = embed["description"]
    assert "to hit: rolled" in text and "needed 3+ (WS4 vs WS3)" in text
    assert "To wound with Sword" in text
    assert "armour save" in text and "needed 6+" in text
    assert "Injury: rolled" in text
    assert embed["title"] == "⚔️ Attacker fights Human"
    assert "M4 WS4 BS3 S4 T3 W1 I3 A1 Ld7" in text  # named values, the rest Human
    assert [f["name"] for f in embed["fields"]] == ["Outcome"]
    assert "Human" in embed["fields"][0]["value"]
    assert embed["footer"]["text"].startswith("Edition: lrb")
    assert "House rules: none" in embed["footer"]["text"]


async def test_long_fight_log_is_paged_not_cut(harness):
    profile = "4 6 3 4 3 3 6 5 7"
    kit = dict(attacker_weapons="sword, sword", defender_weapons="sword, sword", attacker_traits="frenzy",
               defender_traits="frenzy", attacker_armour="heavy armour, helmet", defender_armour="heavy armour, helmet")
    res = await harness.command("fight", attacker=profile, defender=profile, **kit)
    assert public(res)
    first = res.embeds[0]
    assert "page 1/2" in first["footer"]["text"]
    buttons = {c["custom_id"]: c for c in harness.messages[res.message_id].components()}
    assert set(buttons) == {"page:prev", "page:count", "page:next"}
    turned = await harness.click(res.message_id, "page:next")
    second = turned.embeds[0]
    assert "page 2/2" in second["footer"]["text"]
    a = make_fighter("Attacker", profile, weapons="sword, sword", frenzy=True, armour="heavy armour, helmet")
    d = make_fighter("Defender", profile, weapons="sword, sword", frenzy=True, armour="heavy armour, helmet")
    expected = resolve_round(a, d, random.Random(1234), edition="lrb")
    both = first["description"] + "\n" + second["description"]
    for line in expected.lines[1:]:
        assert line in both
    # someone else may not turn the pages
    other = await harness.click(res.message_id, "page:prev", Actor(user_id=42))
    assert other.is_error


def test_log_pages_split_at_lines_and_lose_nothing():
    lines = [f"line {i} " + "x" * 90 for i in range(200)]
    pages = log_pages("t", "header", lines, "outcome", "Edition: lrb", colour=None)
    assert len(pages) > 1
    joined = "\n".join(p.description for p in pages)
    for line in lines:
        assert line in joined
    assert all(len(p.description) <= 4096 for p in pages)
    assert all(p.footer.text.startswith("Edition: lrb") for p in pages)


async def test_templates_and_nine_value_profiles(harness):
    res = await harness.command("fight", attacker="Wardog", defender="4 3 3 3 4 2 3 1 7")
    assert public(res)
    text = res.embeds[0]["description"]
    assert "**Wardog** (M6 WS4 BS0 S4 T3 W1 I4 A1 Ld5)" in text
    assert "**Defender** (M4 WS3 BS3 S3 T4 W2 I3 A1 Ld7)" in text


async def test_same_template_twice_gets_told_apart(harness):
    res = await harness.command("fight", attacker="human", defender="Human")
    assert "Human (attacker) fights Human (defender)" in res.embeds[0]["title"]


async def test_defender_state_and_who_charged(harness):
    res = await harness.command("fight", attacker="human", defender="human", defender_state="knocked down",
                                charged="nobody", first_round=False)
    assert public(res)
    assert "nobody charged, a later round" in res.embeds[0]["description"]


# ----- /shoot ---------------------------------------------------------------------------------


async def test_shot_log_with_modifiers(harness):
    res = await harness.command("shoot", attacker="BS4", defender="human", attacker_weapons="dagger, bow",
                                long_range=True, cover=True)
    assert public(res)
    [embed] = res.embeds
    text = embed["description"]
    assert embed["title"] == "🏹 Shooter shoots Human"
    assert "with a bow, at 24\", target in cover" in text
    assert "-1 cover (000:543)" in text and "-1 long range (000:544)" in text
    shooter = make_fighter("Shooter", "BS4", weapons="dagger, bow")
    target = make_fighter("Human", "human")
    expected = resolve_shot(shooter, target, "bow", random.Random(1234), edition="lrb", range_inches=24.0, cover=True)
    for line in expected.lines[1:]:
        assert line in text
    assert embed["footer"]["text"].startswith("Edition: lrb")


async def test_shot_needs_a_missile_weapon(harness):
    res = await harness.command("shoot", attacker="human", defender="human", attacker_weapons="sword")
    assert_private_error(harness, res, "no missile weapon")


async def test_shot_out_of_range_and_move_or_fire_are_explained(harness):
    res = await harness.command("shoot", attacker="human", defender="human", attacker_weapons="pistol", range=12)
    assert_private_error(harness, res, "out of range")
    res = await harness.command("shoot", attacker="human", defender="human", attacker_weapons="crossbow", moved=True)
    assert_private_error(harness, res, "cannot be moved and fired")


# ----- /odds ----------------------------------------------------------------------------------


async def test_round_odds_table_chart_and_expected_wounds(harness):
    res = await harness.command("odds", attacker="WS4 S4 A2", defender="human", mode="round", attacker_weapons="sword")
    assert public(res)
    assert res.sent[0].callback_type == 5  # deferred first: the odds are worked out off the event loop
    [embed] = res.embeds
    assert embed["title"] == "Odds: Attacker vs Human, one round"
    assert len(embed["fields"]) == 2
    for field in embed["fields"]:
        outcome_chart, at_least = code_blocks(field["value"])[:2]
        assert "OOA" in outcome_chart and "█" in outcome_chart
        assert percent_sum(outcome_chart) == pytest.approx(100, abs=0.5)
        assert "Expected wounds lost: **" in field["value"]
        assert "≥1 wound" in at_least
        assert "Wounded" not in outcome_chart  # W1 fighters cannot be wounded and still standing
    assert "Edition: lrb" in embed["footer"]["text"]
    two_wounds = await harness.command("odds", attacker="WS4 S4 A2", defender="W2", mode="round", attacker_weapons="sword")
    assert "Wounded" in code_blocks(two_wounds.embeds[0]["fields"][1]["value"])[0]
    # every chart line is short enough for a phone
    assert all(len(line) <= 40 for block in code_blocks(res.text) for line in block.splitlines())


async def test_shot_odds(harness):
    res = await harness.command("odds", attacker="human", defender="human", mode="shot", attacker_weapons="crossbow",
                                range=20)
    assert public(res)
    [embed] = res.embeds
    assert "needs 5+" in embed["description"] and "-1 long range" in embed["description"]
    [field] = embed["fields"]
    chart = code_blocks(field["value"])[0]
    assert percent_sum(chart) == pytest.approx(100, abs=0.5)
    assert "Expected wounds lost" in field["value"]


async def test_a_shot_needing_less_than_1_hits_on_any_roll(harness):
    # BS10's row of the chart reads -3 (000:518-519): the title says what that means at the table
    res = await harness.command("odds", attacker="BS10", defender="human", mode="shot", attacker_weapons="bow", range=10)
    assert "hits on any roll" in res.embeds[0]["description"] and "needs -3+" not in res.embeds[0]["description"].split("\n")[0]


async def test_duel_odds_win_lose_and_rounds(harness):
    res = await harness.command("odds", attacker="WS4 S4 A2", defender="human", mode="duel", attacker_weapons="sword")
    assert public(res)
    [embed] = res.embeds
    who, how_long = embed["fields"]
    assert who["name"] == "Who wins"
    chart = code_blocks(who["value"])[0]
    assert "Attacker wins" in chart and "Human wins" in chart and "Unfinished" in chart
    assert percent_sum(chart) == pytest.approx(100, abs=0.5)
    assert "Exact odds" in who["value"]  # a small fight: exact
    rounds = code_blocks(how_long["value"])[0]
    assert "Round 1" in rounds
    assert percent_sum(rounds) == pytest.approx(100, abs=1.0)
    assert "Average length" in how_long["value"]
    assert "Edition: lrb" in embed["footer"]["text"]


async def test_odds_errors_stay_private_and_post_nothing(harness):
    res = await harness.command("odds", attacker="human", defender="human", mode="round", attacker_weapons="bow")
    assert_private_error(harness, res, "missile weapon")
    assert res.sent[0].callback_type == 4  # refused before deferring: no public "thinking..." message


# ----- stored warriors ------------------------------------------------------------------------


async def test_stored_warrior_fights_with_its_close_combat_weapons(harness):
    await add_reavers(harness)
    res = await harness.command("fight", attacker="Reavers/Captain", defender="human")
    assert public(res)
    text = res.embeds[0]["description"]
    assert "**Captain** (M4 WS4 BS4 S3 T3 W1 I4 A1 Ld8): Sword, Bow, Light armour" in text
    assert "↳ not used in close combat: bow" in text
    assert "Captain attack 1 (Sword)" in text


async def test_stored_warrior_by_bare_name_shoots_its_bow(harness):
    await add_reavers(harness)
    res = await harness.command("shoot", attacker="Captain", defender="human")
    assert public(res)
    assert "with a bow" in res.embeds[0]["description"]
    assert "BS4 needs 3+" in res.embeds[0]["description"]


async def test_options_replace_a_stored_warriors_kit(harness):
    await add_reavers(harness)
    res = await harness.command("fight", attacker="Reavers/Captain", defender="human", attacker_weapons="axe")
    assert "Captain attack 1 (Axe)" in res.embeds[0]["description"]


async def test_unknown_warrior_and_stored_warriors_in_dms(harness):
    await add_reavers(harness)
    res = await harness.command("fight", attacker="Reavers/Nobody", defender="human")
    assert_private_error(harness, res)
    res = await harness.command("fight", attacker="Nobodyatall", defender="human")
    assert_private_error(harness, res, "not a profile, a template")
    res = await harness.command("fight", DM, attacker="Reavers/Captain", defender="human")
    assert_private_error(harness, res, "direct message")
    res = await harness.command("fight", DM, attacker="wardog", defender="human")  # templates work anywhere
    assert public(res)


# ----- edition and house rules ------------------------------------------------------------------


async def test_server_edition_and_house_rule_in_the_footer(harness):
    settings = harness.bot.settings
    await asyncio.to_thread(settings.set_edition, GUILD, USER, True, "core")
    await asyncio.to_thread(settings.set_house_rules, GUILD, USER, True, {"blackpowder_save_additive": True})
    res = await harness.command("fight", attacker="human", defender="human")
    footer = res.embeds[0]["footer"]["text"]
    assert footer.startswith("Edition: core")
    assert "House rules: Blackpowder save modifier adds to Strength's (on)" in footer and "_" not in footer
    res = await harness.command("odds", attacker="human", defender="human", mode="shot", attacker_weapons="pistol")
    footer = res.embeds[0]["footer"]["text"]
    assert footer.startswith("Edition: core") and "Blackpowder save modifier adds to Strength's (on)" in footer


async def test_edition_override_and_a_server_on_a_lookup_only_edition(harness):
    res = await harness.command("fight", attacker="human", defender="human", edition="core2")
    assert res.embeds[0]["footer"]["text"].startswith("Edition: core2")
    assert "chosen for this command" in res.embeds[0]["footer"]["text"]
    await asyncio.to_thread(harness.bot.settings.set_edition, GUILD, USER, True, "wd")
    res = await harness.command("fight", attacker="human", defender="human")
    footer = res.embeds[0]["footer"]["text"]
    assert footer.startswith("Edition: lrb") and "plays wd" in footer


# ----- autocomplete ---------------------------------------------------------------------------


async def test_weapon_autocomplete_by_prefix(harness):
    res = await harness.autocomplete("fight", "attacker_weapons", attacker_weapons="sw")
    names = [c["value"] for c in res.choices]
    assert names and names[0] == "Sword"
    res = await harness.autocomplete("fight", "attacker_weapons", attacker_weapons="")
    assert 0 < len(res.choices) <= 25
    assert all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in res.choices)


async def test_list_autocomplete_keeps_earlier_items(harness):
    res = await harness.autocomplete("fight", "attacker_weapons", attacker_weapons="sword, da")
    assert [c["value"] for c in res.choices][0] == "sword, Dagger"
    res = await harness.autocomplete("fight", "defender_armour", defender_armour="light armour, sh")
    assert "light armour, Shield" in [c["value"] for c in res.choices]
    res = await harness.autocomplete("fight", "attacker_traits", attacker_traits="frenzy, ha")
    assert [c["value"] for c in res.choices][0] == "frenzy, hates"
    assert all(c["value"].startswith("frenzy, ") for c in res.choices)


async def test_fighter_autocomplete_offers_templates_and_warriors(harness):
    await add_reavers(harness)
    res = await harness.autocomplete("fight", "attacker", attacker="")
    values = [c["value"] for c in res.choices]
    assert {"Human", "Horse", "Warhorse", "Wardog"} <= set(values)
    assert "Reavers/Captain" in values
    res = await harness.autocomplete("fight", "defender", defender="4 3 3 3 3 1 3 1 7")
    assert res.choices[0]["name"] == "M4 WS3 BS3 S3 T3 W1 I3 A1 Ld7"
    res = await harness.autocomplete("fight", "defender", DM, defender="")
    assert "Reavers/Captain" not in [c["value"] for c in res.choices]


# ----- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, words",
    [
        (dict(attacker="WS11", defender="human"), ["WS 11 is out of range", "0 to 10"]),
        (dict(attacker="4 3 3 3 3 1 3 1", defender="human"), ["needs 9 values", "you gave 8"]),
        (dict(attacker="4 3 3 3 3 1 3 50 7", defender="human"), ["A 50 is out of range"]),
        (dict(attacker="A10", defender="human", attacker_weapons="sword", attacker_traits="frenzy"), ["20 attacks", "limit is 12"]),
        (dict(attacker="human", defender="4 3 3 3 3 0 3 1 7"), ["0 Wounds"]),
        (dict(attacker="human", defender="human", attacker_weapons="swrod"), ["no weapon called 'swrod'", "`sword`"]),
        (dict(attacker="human", defender="human", attacker_weapons="bow"), ["missile weapon", "/shoot"]),
        (dict(attacker="human", defender="human", attacker_weapons="lance"), ["needs a warhorse"]),
        (dict(attacker="human", defender="human", attacker_traits="invisibility"), ["not a trait"]),
        (dict(attacker="human", defender="human", defender_armour="sword"), ["no armour called"]),
    ],
)
async def test_bad_input_gets_a_clear_private_message(harness, options, words):
    res = await harness.command("fight", **options)
    assert_private_error(harness, res, *words)


async def test_bad_input_in_odds_and_shoot_too(harness):
    res = await harness.command("odds", attacker="human", defender="4 3 3 3 3 0 3 1 7", mode="duel")
    assert_private_error(harness, res, "0 Wounds")
    res = await harness.command("shoot", attacker="human", defender="4 3 3 3 3 0 3 1 7", attacker_weapons="bow")
    assert_private_error(harness, res, "0 Wounds")
    res = await harness.command("odds", attacker="4 3 3 3 3 1 3 1 7 7", defender="human", mode="round")
    assert_private_error(harness, res, "needs 9 values")


async def test_lance_with_a_warhorse_is_fine(harness):
    res = await harness.command("fight", attacker="human", defender="human", attacker_weapons="lance",
                                attacker_equipment="warhorse")
    assert public(res)
    assert "Lance" in res.embeds[0]["description"]


async def test_a_warrior_whose_name_has_a_number(harness):
    await add_reavers(harness, name="Gunner 2", equipment=("Handgun",))
    res = await harness.command("shoot", attacker="Gunner 2", defender="human")
    assert public(res)
    assert "with a handgun" in res.embeds[0]["description"]
    res = await harness.command("fight", attacker="4 3 3", defender="human")  # still read as a profile
    assert_private_error(harness, res, "needs 9 values")


async def test_an_error_while_working_out_odds_removes_the_thinking_message(harness, monkeypatch):
    import sys

    from engine.errors import LimitExceeded

    loaded = sys.modules["cogs.combat"]  # the module the bot loaded as an extension

    def too_long(*args, **kwargs):
        raise LimitExceeded("That would take too long to work out.")

    monkeypatch.setattr(loaded, "round_odds", too_long)
    res = await harness.command("odds", attacker="human", defender="human", mode="round")
    assert [s.kind for s in res.sent] == ["callback", "delete_original", "followup"]
    assert res.sent[0].callback_type == 5 and res.sent[-1].ephemeral
    assert "too long" in res.text
    assert not any(not m.ephemeral for m in harness.messages.values())


# ----- several fighters, named fighters, kits, templates, stored warriors' rules -----------------


async def test_two_against_one_rolls_every_model_and_gives_every_outcome(harness):
    res = await harness.command("fight", attacker="Otto: 4 4 3 3 3 1 4 1 8 + Hans: human", defender="Troll",
                                attacker_weapons="sword")
    assert public(res)
    text = "\n".join(e["description"] for e in res.embeds)
    assert "**Otto** (M4 WS4 BS3 S3 T3 W1 I4 A1 Ld8): Sword" in text
    assert "**Hans** (M4 WS3 BS3 S3 T3 W1 I3 A1 Ld7): Sword" in text
    assert "**Troll** (M6 WS3 BS1 S5 T4 W3 I1 A3 Ld4): causes fear, large target, no weapons, regeneration, stupidity" in text
    assert res.embeds[0]["title"] == "⚔️ Otto & Hans fight Troll"
    outcome = res.embeds[0]["fields"][0]["value"]
    assert all(f"**{n}**" in outcome for n in ("Otto", "Hans", "Troll"))
    assert "Strike order:" in text
    # the same round rolled by the engine directly, with the bot's seed
    otto = make_fighter("Otto", "4 4 3 3 3 1 4 1 8", weapons="sword")
    hans = make_fighter("Hans", "human", weapons="sword")
    troll = make_fighter("Troll", "troll", traits="no weapons, causes fear, large target, regeneration, stupidity")
    expected = resolve_round((otto, hans), troll, random.Random(1234), edition="lrb")
    for line in expected.lines[1:]:
        assert line in text


async def test_odds_for_two_against_one_chart_every_model_and_a_duel(harness):
    res = await harness.command("odds", attacker="human + human", defender="WS4 A2 W2", mode="round", attacker_weapons="sword")
    assert public(res)
    names = [f["name"].split(" — ")[0] for f in res.embeds[0]["fields"]]
    assert names == ["Human 1", "Human 2", "Defender"]
    for field in res.embeds[0]["fields"]:
        assert percent_sum(code_blocks(field["value"])[0]) == pytest.approx(100, abs=0.6)
    res = await harness.command("odds", attacker="human + human", defender="WS4 A2 W2", mode="duel", attacker_weapons="sword")
    chart = code_blocks(res.embeds[0]["fields"][0]["value"])[0]
    assert "Human 1 & Human 2 win" in chart and "Human 2 wins" not in chart and "Defender wins" in chart


async def test_a_fight_too_big_for_exact_odds_says_it_is_simulated(harness):
    # 2 v 2, W3, 12 attacks each (issue 19 §5): past the budget, simulated, and the answer says how closely
    res = await harness.command("odds", attacker="WS4 S4 T4 W3 A6 + WS4 S4 T4 W3 A6", defender="WS4 S4 T4 W3 A6 + WS4 S4 T4 W3 A6",
                                mode="duel", attacker_weapons="sword", defender_weapons="sword",
                                attacker_traits="frenzy", defender_traits="frenzy")
    assert public(res)
    who = res.embeds[0]["fields"][0]
    assert "Simulated, ±" in who["value"] and "(95%)" in who["value"] and "fights played on at random" in who["value"]
    assert percent_sum(code_blocks(who["value"])[0]) == pytest.approx(100, abs=0.5)


async def test_too_many_fighters_and_a_shot_by_two_are_refused(harness):
    res = await harness.command("fight", attacker="human + human + human", defender="human + human")
    assert_private_error(harness, res, "3 v 2", "up to 3 v 1 or 2 v 2")
    res = await harness.command("fight", attacker="human + human + human + human", defender="human")
    assert_private_error(harness, res, "4 fighters on one side")
    res = await harness.command("shoot", attacker="human + human", defender="human", attacker_weapons="bow")
    assert_private_error(harness, res, "one shooter at one target")


async def test_a_fighter_may_carry_his_own_kit_and_traits_in_brackets(harness):
    res = await harness.command("fight", attacker="Otto: WS4 [sword, shield, hates] + wardog", defender="human",
                                attacker_weapons="axe")
    text = res.embeds[0]["description"]
    assert "**Otto** (M4 WS4 BS3 S3 T3 W1 I3 A1 Ld7): Sword, shield, hates" in text  # his own weapons stay
    assert "**Wardog** (M6 WS4 BS0 S4 T3 W1 I4 A1 Ld5): Axe, animal" in text
    assert "an animal uses no weapons: axe left out" in text


async def test_real_kits_are_chosen_from_and_explained(harness):
    res = await harness.command("fight", attacker="human", defender="human", attacker_weapons="spear, dagger",
                                defender_weapons="2h sword, dagger")
    text = res.embeds[0]["description"]
    assert "fights with the spear alone: dagger left out (000:1019)" in text
    assert "fights with the double-handed sword in both hands (000:1046)" in text
    assert "no second weapon beside it: dagger left out" in text
    res = await harness.command("fight", attacker="human", defender="human", attacker_weapons="sword, brace of pistols")
    text = res.embeds[0]["description"]
    assert "fires a pistol in the first turn for +1 Attack (a brace gives no more beside a close-combat weapon) (000:1177)" in text
    assert "attack 2 (Pistol)" in text and "attack 3" not in text


async def test_stored_warriors_bring_their_skills_and_the_dead_do_not_fight(harness):
    campaigns = harness.bot.campaigns
    await asyncio.to_thread(campaigns.create_warband, GUILD, USER, "Reavers", "Reiklanders")
    await asyncio.to_thread(
        campaigns.add_warrior, GUILD, USER, False, "Reavers", "Otto", role="leader", warrior_type="Mercenary Captain",
        profile=dict(M=4, WS=4, BS=4, S=3, T=3, W=1, I=4, A=1, Ld=8), equipment=["Sword"], skills=["Mighty Blow", "Pit Fighter"],
    )
    res = await harness.command("fight", attacker="Reavers/Otto", defender="human")
    text = res.embeds[0]["description"]
    assert "**Otto** (M4 WS4 BS4 S3 T3 W1 I4 A1 Ld8): Sword, mighty blow" in text
    assert "skills not modelled: Pit Fighter" in text
    assert "To wound with Sword" not in text or "(S4 vs T3)" in text  # Mighty Blow: +1 Strength
    await asyncio.to_thread(campaigns.edit_warrior, GUILD, USER, False, "Reavers", "Otto", status="dead")
    res = await harness.command("fight", attacker="Reavers/Otto", defender="human")
    assert_private_error(harness, res, "Reavers/Otto is dead and cannot fight")


async def test_warband_names_complete_to_their_warriors_everywhere_a_warrior_is_asked_for(harness):
    await add_reavers(harness)
    res = await harness.autocomplete("fight", "attacker", attacker="Rea")
    assert "Reavers/Captain" in [c["value"] for c in res.choices]
    res = await harness.autocomplete("fight", "defender", defender="human + Rea")
    assert "human + Reavers/Captain" in [c["value"] for c in res.choices]
    res = await harness.autocomplete("test", "warrior", characteristic="Initiative", warrior="Rea")
    assert [c["value"] for c in res.choices] == ["Reavers/Captain"]
    res = await harness.autocomplete("leadership", "warrior", warrior="reav")
    assert [c["value"] for c in res.choices] == ["Reavers/Captain"]
    res = await harness.autocomplete("fight", "attacker", Actor(guild_id=100000000000000002), attacker="Rea")
    assert "Reavers/Captain" not in [c["value"] for c in res.choices]  # another server's warband


async def test_item_autocomplete_offers_names_that_keep_the_list_whole_and_takes_rule_aliases(harness):
    res = await harness.autocomplete("fight", "attacker_weapons", attacker_weapons="sword, ham")
    values = [c["value"] for c in res.choices]
    assert "sword, Hammer" in values
    assert all(v.count(",") == 1 for v in values)  # no "Hammer, staff, mace or club" breaking the list
    res = await harness.autocomplete("fight", "attacker_weapons", attacker_weapons="2h")
    assert {"Double-handed sword", "Double-handed hammer"} <= {c["value"] for c in res.choices}
    res = await harness.command("fight", attacker="human", defender="human", attacker_weapons="Hammer, dagger")
    assert "attack 1 (Hammer)" in res.embeds[0]["description"]


async def test_a_net_and_blessed_water_are_thrown_with_shoot_and_odds(harness):
    res = await harness.command("shoot", attacker="human", defender="zombie", attacker_weapons="blessed water", range=5)
    assert public(res)
    text = res.embeds[0]["description"]
    assert "Throws the blessed water: rolled" in text and "no range or moving penalty for a blessed water (000:1405)" in text
    res = await harness.command("odds", attacker="human", defender="human", mode="shot", attacker_weapons="net")
    chart = code_blocks(res.embeds[0]["fields"][0]["value"])[0]
    assert "Netted" in chart and percent_sum(chart) == pytest.approx(100, abs=0.5)


async def test_a_stored_rule_with_a_target_is_taken_against_everyone(harness):
    campaigns = harness.bot.campaigns
    await asyncio.to_thread(campaigns.create_warband, GUILD, USER, "Hunters", "Witch Hunters")
    await asyncio.to_thread(
        campaigns.add_warrior, GUILD, USER, False, "Hunters", "Gerhard", role="leader", warrior_type="Witch Hunter Captain",
        profile=dict(M=4, WS=4, BS=4, S=3, T=3, W=1, I=4, A=1, Ld=8), equipment=["Sword"], skills=["Hates Skaven", "Fearsome"],
    )
    res = await harness.command("fight", attacker="Hunters/Gerhard", defender="giant rat")
    text = res.embeds[0]["description"]
    assert "Sword, causes fear, hates" in text
    assert "Hates Skaven: taken as hates, against every enemy in this fight" in text
    assert "Fearsome: taken as" not in text


async def test_a_warrior_hired_from_a_list_brings_his_types_rules(harness):
    campaigns = harness.bot.campaigns
    await asyncio.to_thread(campaigns.create_warband, GUILD, USER, "Rats", "Skaven", gold_crowns=1000)
    await asyncio.to_thread(campaigns.hire_fighter, GUILD, USER, False, "Rats", "Rat Ogre", name="Gnasher")
    res = await harness.command("fight", attacker="Rats/Gnasher", defender="human")
    text = res.embeds[0]["description"]
    assert "**Gnasher** (M6 WS3 BS3 S5 T5 W3 I4 A3 Ld4): animal, causes fear, large target, stupidity" in text
    assert "rat ogre stupidity: taken as stupidity in every case here" in text
    assert "Gnasher charged, so he passed his Stupidity test" in text  # 000:887-891: a stupid model that fails does not charge
    assert "Gnasher tests for Stupidity" not in text
    # issue 16: charging a WS4 warrior with sword and shield, he takes him out of action 39.0% of the time
    res = await harness.command("odds", attacker="Rats/Gnasher", defender="WS4", mode="round", defender_weapons="sword",
                                defender_armour="shield")
    chart = code_blocks(res.embeds[0]["fields"][1]["value"])[0]
    assert re.search(r"OOA .*39\.0%", chart), chart


async def test_ghouls_and_zombies_are_not_animals_but_fight_without_the_fist_rules(harness):
    """Issue 16: the Undead list's Zombies and Ghouls use no weapons (its rule "no weapons or
    armour"): not animals, yet all their Attacks count, as 000:903 says of "creatures such as Zombies"."""
    campaigns = harness.bot.campaigns
    await asyncio.to_thread(campaigns.create_warband, GUILD, USER, "Dead", "Undead", gold_crowns=1000)
    await asyncio.to_thread(campaigns.hire_fighter, GUILD, USER, False, "Dead", "Ghoul", name="Gnawer")
    await asyncio.to_thread(campaigns.hire_fighter, GUILD, USER, False, "Dead", "Zombie", name="Shambler")
    for who in ("Dead/Gnawer", "Dead/Shambler", "ghoul", "zombie"):
        res = await harness.command("fight", attacker=who, defender="human")
        text = "\n".join(e["description"] for e in res.embeds)
        header = text.split("\n\n")[0]
        assert "animal" not in header, header
        assert "no weapons" in header, header
        assert "fights with teeth and claws: all his Attacks at his own Strength, no fist rules (000:903)" in text
    res = await harness.command("fight", attacker="Dead/Gnawer", defender="human")
    assert "attack 2 (Teeth and claws)" in res.embeds[0]["description"]  # a Ghoul's A2, not a fist's one attack
    # a Zombie is Undead (a Sigmarite warhammer wounds it more easily); a Ghoul, a living cannibal, is not
    res = await harness.command("fight", attacker="Sister: WS4", defender="Dead/Shambler", attacker_weapons="sigmarite warhammer")
    text = res.embeds[0]["description"]
    assert "undead" in text.split("\n\n")[0] and "+1 sigmarite warhammer against Undead and Possessed" in text
    res = await harness.command("fight", attacker="Sister: WS4", defender="Dead/Gnawer", attacker_weapons="sigmarite warhammer")
    assert "undead" not in res.embeds[0]["description"].split("\n\n")[0]


async def test_contradictory_input_gets_a_warning_in_the_answer(harness):
    """Issue 16: a charger given knocked down, S0 or T0, a shield typed among the weapons, an item
    given twice: each is said in the answer (names, not ids), and the fight goes on."""
    res = await harness.command("fight", attacker="Otto: WS4 [sword, knocked down]", defender="S0 T0",
                                defender_weapons="sword, shield", defender_equipment="mandrake root, mandrake root")
    assert public(res)
    text = "\n".join(e["description"] for e in res.embeds)
    assert "Otto charged but is given as knocked down: a warrior who charges is on his feet" in text
    assert "S0 means no Strength at all (000:234)" in text and "T0 means no Toughness at all (000:234)" in text
    assert "shield is armour, not a weapon: taken as armour (give it in the armour option)" in text
    assert "mandrake root is given twice: a second one does nothing" in text
    assert "mandrake-root" not in text and "Mandrake Root" in text
    res = await harness.command("odds", attacker="human", defender="human", mode="round", charged="defender",
                                defender_state="stunned", attacker_weapons="sword, shield")
    text = res.embeds[0]["description"]
    assert "Human (defender) charged but is given as stunned" in text
    assert "shield is armour, not a weapon" in text
    res = await harness.command("shoot", attacker="S0", defender="human", attacker_weapons="bow", defender_armour="helmet, helmet")
    text = res.embeds[0]["description"]
    assert "S0 means no Strength at all" in text and "helmet is given twice" in text


async def test_the_lists_own_weapons_fight_from_a_stored_warrior(harness):
    """Issue 16: fighting claws, weeping blades, a steel whip, a Sigmarite warhammer, a ball and
    chain, warplock pistols: each fights; an item with no part in a fight says so, not 'left out'."""
    campaigns = harness.bot.campaigns
    await asyncio.to_thread(campaigns.create_warband, GUILD, USER, "Rats", "Skaven", gold_crowns=1000)
    await asyncio.to_thread(
        campaigns.add_warrior, GUILD, USER, False, "Rats", "Snikch", role="leader", warrior_type="Assassin Adept",
        profile=dict(M=6, WS=4, BS=4, S=4, T=3, W=1, I=5, A=1, Ld=7),
        equipment=["Fighting claws", "Brace of warplock pistols", "Tome of magic", "Compass"],
    )
    res = await harness.command("fight", attacker="Rats/Snikch", defender="human")
    assert public(res)
    text = "\n".join(e["description"] for e in res.embeds)
    assert "not in the rules library" not in text
    assert "fights with his fighting claws, one in each hand: +1 Attack" in text
    assert "no other weapon beside his fighting claws in this battle: warplock pistol, warplock pistol left out" in text
    assert "no part in a fight (see /rule for what they do): Tome of magic, Compass" in text
    assert "attack 2 (Fighting claws)" in text
    res = await harness.command("shoot", attacker="Rats/Snikch", defender="human", attacker_weapons="warplock pistol", range=4)
    assert public(res) and "Warplock pistol" in res.embeds[0]["description"]
    for weapons in ("weeping blades", "steel whip, sigmarite warhammer", "ball and chain"):
        res = await harness.command("fight", attacker="WS3", defender="zombie", attacker_weapons=weapons)
        assert public(res), (weapons, res.text)


async def test_a_charge_with_fighting_claws_charts_what_two_swords_do(harness):
    """Issue 16: through /odds, the defender's chart after a charge with fighting claws is the
    chart after a charge with two swords, to the last figure."""
    charts = []
    for weapons in ("fighting claws", "sword, sword"):
        res = await harness.command("odds", attacker="Eshin: WS4 A2", defender="Guard: WS3", mode="round",
                                    attacker_weapons=weapons, defender_weapons="sword", defender_armour="shield")
        assert public(res)
        charts.append(res.embeds[0]["fields"][1]["value"])
    assert charts[0] == charts[1]


async def test_a_pit_fighters_style_fights_with_what_it_holds(harness):
    campaigns = harness.bot.campaigns
    await asyncio.to_thread(campaigns.create_warband, GUILD, USER, "Pits", "Pit Fighters", gold_crowns=1000)
    await asyncio.to_thread(
        campaigns.add_warrior, GUILD, USER, False, "Pits", "Krug", role="leader", warrior_type="Pit Boss",
        profile=dict(M=4, WS=4, BS=3, S=4, T=3, W=1, I=4, A=1, Ld=8), equipment=["Undead style"],
    )
    res = await harness.command("fight", attacker="Pits/Krug", defender="human")
    text = "\n".join(e["description"] for e in res.embeds)
    assert "Undead style: helmet, dagger, spiked gauntlet, sword" in text
    assert "attack 2 (Spiked gauntlet)" in text


def test_every_combat_option_reads_whole_in_discord():
    # discord.py cuts a description over 100 characters with an ellipsis: none of ours is cut
    from cogs._ui.combat_params import OPTIONS

    for option in OPTIONS.values():
        for text in (option.description, option.shooting):
            assert text is None or len(text) <= 100, (option.name, text)


# ----- the new-player playtest of /odds (issue 19) -----------------------------------------------


async def test_no_weapon_given_says_he_fights_unarmed_and_wounds_are_shown_up_to_his_wounds(harness):
    res = await harness.command("odds", attacker="WS3 S3", defender="T3", mode="round")
    text = res.embeds[0]["description"]
    assert ("**Attacker** (M4 WS3 BS3 S3 T3 W1 I3 A1 Ld7)\n  ↳ no weapon given: fights unarmed (fist: Strength -1, "
            "+1 to the enemy's armour save; 000:903-909); give him a weapon to fight armed") in text
    defender = res.embeds[0]["fields"][1]["value"]
    at_least = code_blocks(defender)[1]
    assert re.search(r"≥1 wound .*14\.8%", at_least) and "≥2" not in at_least  # W1: one wound is all he has
    assert "Expected wounds lost: **0.15**" in defender  # = P(≥1 wound): a second wound is no more lost
    # more Attacks than one: why they come to one
    res = await harness.command("odds", attacker="Ogre", defender="human", mode="round")
    assert "fights unarmed (fist: Strength -1, +1 to the enemy's armour save, one attack whatever his Attacks; 000:903-909); " \
           "give him a weapon to use them all" in res.embeds[0]["description"]
    ogre = code_blocks(res.embeds[0]["fields"][0]["value"])
    assert all("≥4" not in block for block in ogre)  # W3


async def test_a_lone_model_says_whom_he_attacks_and_a_fled_row_says_what_fleeing_is(harness):
    res = await harness.command("odds", attacker="WS3 + human + human", defender="human", mode="round", attacker_weapons="sword")
    text = res.embeds[0]["description"]
    assert "🎯 Who attacks whom: Attacker 1 & Human 1 & Human 2 → Human 3; Human 3 → Attacker 1. " in text
    assert "To aim one at another enemy, reorder the fighters joined by +." in text
    assert "000:673" in text
    lone = res.embeds[0]["fields"][3]
    assert lone["name"] == "Human 3 — this round" and re.search(r"Fled .*6\.3%", code_blocks(lone["value"])[0])
    assert ("*Fled: fighting two or more enemies with no standing friend near, he failed his All Alone test (000:837) and "
            "broke from combat, each enemy hitting him once as he ran (000:801); he is gone from this fight.*") in lone["value"]
    assert all("Fled:" not in f["value"] for f in res.embeds[0]["fields"][:3])  # only where a Fled row shows
    # listed first, the one he attacks
    res = await harness.command("odds", attacker="human + WS3 + human", defender="human", mode="round", attacker_weapons="sword")
    assert "Human 3 → Human 1" in res.embeds[0]["description"]
    # one against one: nothing to choose, nothing said
    res = await harness.command("odds", attacker="human", defender="human", mode="round")
    assert "Who attacks whom" not in res.embeds[0]["description"]
    res = await harness.command("fight", attacker="WS3 + human", defender="Skaven: WS3", attacker_weapons="sword")
    assert "🎯 Who attacks whom: Attacker 1 & Human → Skaven; Skaven → Attacker 1." in res.embeds[0]["description"]


def test_a_rolled_outcome_that_fled_says_what_fleeing_is():
    from cogs._ui.combat_render import outcome_text
    from engine.combat.api import RollResult, fled_means

    fled = RollResult("lrb", [], [], {"A": "unharmed", "B": "fled"}, {"B": 1})
    assert outcome_text(fled, fled_means("core2")).endswith(
        "**B**: fled (1 wound lost)\n*Fled: fighting two or more enemies with no standing friend near, he failed his All "
        "Alone test (004:666-668) and broke from combat, each enemy hitting him once as he ran (004:656); he is gone from this fight.*")
    stayed = RollResult("lrb", [], [], {"A": "unharmed", "B": "stunned"}, {})
    assert "Fled" not in outcome_text(stayed, fled_means("lrb"))


async def test_a_rule_already_in_the_profile_is_said_so_not_called_not_modelled(harness):
    campaigns = harness.bot.campaigns
    await asyncio.to_thread(campaigns.create_warband, GUILD, USER, "Reavers", "Reikland", gold_crowns=1000)
    await asyncio.to_thread(campaigns.hire_fighter, GUILD, USER, False, "Reavers", "Marksman", name="Shooters")
    for command, kw in (("shoot", {}), ("odds", {"mode": "shot"})):
        res = await harness.command(command, attacker="Reavers/Shooters", defender="human", attacker_weapons="bow", **kw)
        text = res.embeds[0]["description"]
        assert "**Shooters** (M4 WS3 BS4 S3" in text
        assert "expert bowmen: already in his profile, as shown" in text
        assert "not modelled in a fight: expert bowmen" not in text


async def test_combat_answers_have_no_doubled_brackets_or_words(harness):
    doubled = re.compile(r"\)\)|\b(\w+)\b\W+\*{0,2}\1\b", re.I)
    for command, kw in (("odds", dict(attacker="WS3 S3", defender="T3", mode="round")),
                        ("odds", dict(attacker="human", defender="human", mode="duel")),
                        ("odds", dict(attacker="human", defender="human", mode="shot", attacker_weapons="bow")),
                        ("fight", dict(attacker="human", defender="human")),
                        ("shoot", dict(attacker="human", defender="human", attacker_weapons="bow"))):
        res = await harness.command(command, **kw)
        embed = res.embeds[0]
        assert embed["footer"]["text"].startswith("Edition: lrb, Living Rulebook 2005 (cited as 000) · ")
        for text in (embed["description"], embed["footer"]["text"], *(f["value"] for f in embed.get("fields", []))):
            prose = re.sub(r"```.*?```", "", text, flags=re.S)  # charts repeat their labels by design
            prose = re.sub(r"\d", "", prose)  # "rolled 3+3", dice
            assert not doubled.search(prose), (command, doubled.search(prose).group(0), prose)


async def test_a_two_against_two_of_monsters_is_answered_within_a_useful_margin(harness):
    # the playtest: 25-33 fights simulated, ±14.9-17.0%
    res = await harness.command("odds", attacker="Rat Ogre + Rat Ogre", defender="Troll + Ogre", mode="duel")
    who_wins = res.embeds[0]["fields"][0]["value"]
    margin = float(re.search(r"Simulated, ±(\d+\.\d)% \(95%\)", who_wins).group(1))
    fights = int(re.search(r"then ([\d,]+) fights", who_wins).group(1).replace(",", ""))
    assert margin <= 3.0 and fights >= 1_000 and "Rough" not in who_wins


async def test_a_stunned_defender_goes_out_of_action_without_a_wound_and_the_chart_says_so(harness):
    # 000:783: a stunned model attacked in close combat is taken out of action
    res = await harness.command("odds", attacker="human", defender="human", mode="round", attacker_weapons="sword",
                                defender_state="stunned")
    defender = next(f for f in res.embeds[0]["fields"] if "defender" in f["name"])
    assert "No wound is lost: he goes out of action without losing one." in defender["value"]
    assert "No chance of losing a wound" not in defender["value"]


async def test_a_stored_henchman_group_takes_a_plural_verb(harness):
    """A group's name is plural: 'Guards fight Vermin', not 'Guards fights' (a playtest)."""
    await add_reavers(harness)
    await asyncio.to_thread(
        harness.bot.campaigns.add_warrior, GUILD, USER, False, "Reavers", "Guards", role="henchmen",
        warrior_type="Warrior", profile=dict(M=4, WS=3, BS=3, S=3, T=3, W=1, I=3, A=1, Ld=7), equipment=["Sword"],
        group_size=3,
    )
    res = await harness.command("fight", attacker="Reavers/Guards", defender="human")
    assert res.embeds[0]["title"] == "⚔️ Guards fight Human"
    res = await harness.command("fight", attacker="Reavers/Captain", defender="Reavers/Guards")
    assert res.embeds[0]["title"] == "⚔️ Captain fights Guards"
