"""Issue 17 through the harness: the grades a server plays, Dramatis Personae hired, a hired sword's
kit chosen at hire, and a hero's new skill chosen from a menu of his lists (a Skaven hero takes a
Skaven skill)."""

from __future__ import annotations

import json
import random

from bot.harness import ADMIN_PERMISSIONS, Actor

from tests.conftest import both_backends

pytestmark = both_backends

G = 1718
OWNER = Actor(user_id=1, guild_id=G)
ADMIN = Actor(user_id=3, guild_id=G, permissions=ADMIN_PERMISSIONS)


async def ok(res):
    assert not res.is_error, res.text
    return res


async def refused(res, *words):
    assert res.is_error and res.ephemeral, res.text
    for w in words:
        assert w in res.text, (w, res.text)
    return res


def values(res):
    return [c["value"] for c in res.choices]


# ---------------------------------------------------------------- grades


async def test_a_grade_turned_off_keeps_its_warbands_and_refuses_new_ones(harness):
    h = harness
    await ok(await h.command("warband create", OWNER, name="Sea Dogs", warband_type="Pirates"))  # grade 1b
    await ok(await h.command("warband create", OWNER, name="Reavers", warband_type="Reiklanders", gold=900))  # grade 1a
    offered = await h.autocomplete("warband create", "warband_type", OWNER, name="x", warband_type="pira")
    assert [c["name"] for c in offered.choices] == ["Pirates — grade 1b, 500 gc, up to 15"]
    await refused(await h.command("admin warbands", OWNER, grade="1b", play=False), "Manage Server")
    res = await ok(await h.command("admin warbands", ADMIN, grade="1b", play=False))
    assert "Grade **1b** is now **not played**" in res.text and "Played: 1a" in res.text
    # seen at once: no new warband of a 1b list, by create, edit or import
    no = await refused(await h.command("warband create", OWNER, name="More Dogs", warband_type="Pirates"),
                       "The Pirates list is grade 1b", "does not play grade 1b", "/admin warbands grade:1b play:True")
    assert "Sea Dogs" not in no.text
    await refused(await h.command("warband edit", OWNER, name="Reavers", warband_type="Pirates"), "grade 1b")
    export = h.bot.campaigns.export_warband(G, "Sea Dogs")
    export["warband"]["name"] = "Copied Dogs"
    assert any("grade 1b" in p for p in h.bot.campaigns.validate_import(G, json.dumps(export)))
    # the warband of that grade plays on, marked
    show = await ok(await h.command("warband show", OWNER, name="Sea Dogs"))
    assert "grade 1b, no longer played here: it plays on, no new ones are made" in show.text
    listed = await ok(await h.command("warband list", OWNER))
    assert "Sea Dogs** — Pirates (*grade 1b, no longer played here" in listed.text
    assert "Reavers** — Reikland Mercenaries ·" in listed.text
    await ok(await h.command("hire fighter", OWNER, warband="Sea Dogs", type="Captain"))
    # autocomplete offers only what is played, with its grade
    offered = await h.autocomplete("warband create", "warband_type", OWNER, name="x", warband_type="")
    assert all("grade 1a" in c["name"] for c in offered.choices) and "Pirates" not in values(offered)
    swords = await h.autocomplete("hire sword", "sword", OWNER, warband="Reavers", sword="")
    assert "Freelancer" in values(swords) and "Bard" not in values(swords)
    await refused(await h.command("hire sword", OWNER, warband="Reavers", sword="Bard"),
                  "A Bard (hired sword) is grade 1b", "/admin warbands grade:1b play:True")
    await refused(await h.command("hire character", OWNER, warband="Reavers", character="Heinrich Schmidt"), "grade 1b")
    settings = await ok(await h.command("settings show", OWNER))
    assert "**Grades:** 1a played, 1b **not played**" in settings.text
    await refused(await h.command("admin warbands", ADMIN, grade="1a", play=False), "at least one grade")
    await refused(await h.command("admin warbands", ADMIN, grade="1a"), "`grade` and `play` together")
    await ok(await h.command("admin warbands", ADMIN, grade="1b", play=True))
    await ok(await h.command("warband create", OWNER, name="More Dogs", warband_type="Pirates"))
    assert "no longer played" not in (await h.command("warband show", OWNER, name="Sea Dogs")).text


async def test_warband_type_and_hired_swords_offered_across_prefixes(harness):
    h = harness
    lists = set()
    for prefix in [""] + [chr(c) for c in range(ord("a"), ord("z") + 1)]:
        res = await h.autocomplete("warband create", "warband_type", OWNER, name="x", warband_type=prefix)
        lists |= set(values(res))
    assert len(lists) >= 37
    everyone = set()  # every hired sword offered to a warband that may hire him
    for list_id, wlist in h.bot.campaigns.catalogue(G).warbands.items():
        name = f"W {list_id}"[:60]
        await ok(await h.command("warband create", OWNER, name=name, warband_type=wlist.name, gold=5000))
        for prefix in [""] + [chr(c) for c in range(ord("a"), ord("z") + 1)]:
            offered = values(await h.autocomplete("hire sword", "sword", OWNER, warband=name, sword=prefix))
            everyone |= set(offered)
            if not prefix and len(offered) < 25:  # all of them at once: no need to type
                break
    assert len(everyone) >= 40, sorted(everyone)


# ---------------------------------------------------------------- Dramatis Personae and kit


async def test_a_dramatis_persona_is_hired_like_a_hired_sword(harness):
    h = harness
    await ok(await h.command("warband create", OWNER, name="Reavers", warband_type="Reiklanders"))
    await ok(await h.command("hire fighter", OWNER, warband="Reavers", type="Mercenary Captain", name="Otto"))  # 440 gc
    offered = await h.autocomplete("hire character", "character", OWNER, warband="Reavers", character="")
    assert "Johann the Knife" in values(offered) and "Veskit, High Executioner of Clan Eshin" not in values(offered)
    assert any("grade 1a" in c["name"] and "+ more" in c["name"] for c in offered.choices if c["value"] == "Johann the Knife")
    res = await ok(await h.command("hire character", OWNER, warband="Reavers", character="johann", name="Johann"))
    assert res.embeds[0]["title"] == "Hired: Johann (Dramatis Persona, Johann the Knife)"  # not 'Hired sword'
    assert "**70 gc** from the treasury" in res.text and "Besides the gold" in res.text and "Crimson Shade" in res.text
    johann = h.bot.campaigns.get_warrior(G, "Reavers", "Johann")
    assert johann.role == "hired_sword" and "gains-no-experience" in johann.special_rules and johann.experience == 0
    await refused(await h.command("hire character", OWNER, warband="Reavers", character="Johann the Knife"),
                  "already has Johann the Knife (Johann): a warband hires one of each Dramatis Persona")
    show = await ok(await h.command("warband show", OWNER, name="Reavers"))
    assert "Hired: Johann" in show.text and "Dramatis Persona, grade 1a" in show.text and "upkeep 30 gc" in show.text
    assert "Johann (Dramatis Persona): 60 + 0 xp = **60**" in show.text  # his own rating, called what he is
    assert "Johann (Dramatis Persona, Johann the Knife)" in show.text and "(Hired sword, Johann" not in show.text
    check = await ok(await h.command("warband check", OWNER, name="Reavers"))
    assert "nothing broken" in check.text
    await ok(await h.command("battle record", OWNER, warband="Reavers", result="win"))  # upkeep is due after a battle
    paid = await ok(await h.command("hire upkeep", OWNER, warband="Reavers"))
    assert "Johann: 30 gc" in paid.text and "Crimson Shade" not in paid.text  # it stands in for his hire fee, not his upkeep
    # a character who does not fight for this warband, and one with a payment that is not gold
    await ok(await h.command("warband create", OWNER, name="Rats", warband_type="Skaven", gold=500))
    await refused(await h.command("hire character", OWNER, warband="Rats", character="Aenur"),
                  "Rats cannot hire Aenur, the Sword of Twilight", "Aenur, the Sword of Twilight does not fight for Skaven")
    await ok(await h.command("hire character", OWNER, warband="Rats", character="Veskit"))
    offered = await h.autocomplete("hire character", "character", OWNER, warband="Reavers", character="Nicod")
    label = next(c["name"] for c in offered.choices if c["value"].startswith("Nicodemus"))
    assert "upkeep 1 wyrdstone shard" in label and "upkeep 0 gc" not in label  # his upkeep is not gold
    # he is paid in wyrdstone: a shard when he joins, taken from the treasury with his (nil) gold
    await refused(await h.command("hire character", OWNER, warband="Reavers", character="Nicodemus"),
                  "takes 1 wyrdstone shard; Reavers has 0 wyrdstone shards in its treasury")
    await ok(await h.command("warband treasury", OWNER, name="Reavers", reason="found", wyrdstone=2))
    res = await ok(await h.command("hire character", OWNER, warband="Reavers", character="Nicodemus"))
    assert "**0 gc and 1 wyrdstone shard** from the treasury" in res.text and "1 wyrdstone shard** left" in res.text
    assert "record the rest by hand" not in res.text
    show = await ok(await h.command("warband show", OWNER, name="Reavers"))
    assert "upkeep 1 wyrdstone shard, not gold" in show.text and "upkeep 0 gc" not in show.text


async def test_swabbies_are_free_from_their_list_not_made_by_hand(harness):
    """The Pirates' Swabbies cost 0 gc on their list (pressed into service, Town Cryer 9): the roster
    says they were free, not that they were not hired from a list."""
    h = harness
    await ok(await h.command("warband create", OWNER, name="Corsairs", warband_type="Pirates"))
    await ok(await h.command("hire fighter", OWNER, warband="Corsairs", type="Pirate Captain", name="Jack"))
    await ok(await h.command("hire fighter", OWNER, warband="Corsairs", type="Crew", name="Deckhands", count=2))
    await ok(await h.command("hire fighter", OWNER, warband="Corsairs", type="Swabbie", name="Swabs", count=2))
    show = await ok(await h.command("warband show", OWNER, name="Corsairs"))
    assert "not hired from a list" not in show.text
    assert "**Cost:** 0 gc — free to hire" in show.text


async def test_a_hired_sword_whose_employer_chooses_his_kit(harness):
    h = harness
    await ok(await h.command("warband create", OWNER, name="Reavers", warband_type="Reiklanders"))
    kit = await h.autocomplete("hire sword", "kit", OWNER, warband="Reavers", sword="Dwarf Troll Slayer", kit="")
    assert values(kit) == ["Two axes", "Double-handed axe"] and "(his default)" in kit.choices[0]["name"]
    res = await ok(await h.command("hire sword", OWNER, warband="Reavers", sword="Dwarf Troll Slayer", name="Gotrek"))
    assert h.bot.campaigns.get_warrior(G, "Reavers", "Gotrek").equipment == ("Axe", "Axe")  # the default kept
    await ok(await h.command("warband undo", OWNER, name="Reavers"))
    res = await ok(await h.command("hire sword", OWNER, warband="Reavers", sword="Dwarf Troll Slayer", name="Gotrek",
                                   kit="Double-handed axe"))
    assert "Kit chosen: Double-handed axe" in res.text
    assert h.bot.campaigns.get_warrior(G, "Reavers", "Gotrek").equipment == ("Double-handed weapon",)
    await refused(await h.command("hire sword", OWNER, warband="Reavers", sword="Ogre Bodyguard", kit="lances"),
                  "'lances' is not a kit choice of an Ogre Bodyguard")
    await refused(await h.command("hire sword", OWNER, warband="Reavers", sword="Freelancer", kit="Two axes"),
                  "comes with his own kit")
    merchant = await ok(await h.command("hire sword", OWNER, warband="Reavers", sword="Arabian Merchant"))
    assert "With him: Bodyguard" in merchant.text
    assert "Haggle" in h.bot.campaigns.get_warrior(G, "Reavers", "Arabian Merchant").skills


# ---------------------------------------------------------------- the skill menu


class AllOnes(random.Random):
    """Every die a 1: a hero's advance is 2 on 2D6, a new skill."""

    def random(self) -> float:
        return 0.0


def component(h, mid, action):
    found = [c for c in h.messages[mid].components() if c.get("custom_id", "").split(":")[1:2] == [action]]
    assert found, f"no {action}: {[c.get('custom_id') for c in h.messages[mid].components()]}"
    return found


async def test_a_skaven_hero_takes_a_skaven_skill_from_the_menu(harness):
    h = harness
    await ok(await h.command("warband create", OWNER, name="Scurriers", warband_type="Skaven"))
    await ok(await h.command("hire fighter", OWNER, warband="Scurriers", type="Assassin Adept", name="Snikch"))
    await ok(await h.command("warrior edit", OWNER, warband="Scurriers", warrior="Snikch", experience=23))  # next advance at 24
    await ok(await h.command("battle record", OWNER, warband="Scurriers", result="loss", opponents="Reavers"))
    h.bot.get_cog("PostBattleCog").service.rng = AllOnes()
    started = await ok(await h.command("postbattle start", OWNER, warband="Scurriers"))
    mid = started.message_id
    await ok(await h.click(mid, component(h, mid, "confirm")[0]["custom_id"], OWNER))
    while not any(c.get("custom_id", "").split(":")[1:2] == ["xp"] for c in h.messages[mid].components()):
        await ok(await h.click(mid, component(h, mid, "injuries")[0]["custom_id"], OWNER))
    res = await ok(await h.click(mid, component(h, mid, "xp")[0]["custom_id"], OWNER))
    assert "Snikch +1 experience → advance" in res.text
    menus = component(h, mid, "learn")
    assert len(menus) == 2  # 37 skills of six lists: more than one menu holds
    offered = {o["value"]: o.get("description", "") for m in menus for o in m["options"]}
    # Academic skills without Sorcery and Warrior Wizard: the Adept casts no spells (skills.json takers)
    assert len(offered) == 6 + 8 + (7 - 2) + 6 + 7 + 5 and all(len(m["options"]) <= 25 for m in menus)
    assert "Battle Tongue" in offered and "Sorcery" not in offered and "Warrior Wizard" not in offered
    assert offered["Wall Runner"].startswith("Skaven skills: ")
    assert component(h, mid, "skill")  # typing stays possible
    menu = next(m for m in menus if any(o["value"] == "Wall Runner" for o in m["options"]))
    res = await ok(await h.select(mid, menu["custom_id"], ["Wall Runner"], OWNER))
    assert "Snikch learnt Wall Runner" in res.text
    assert "Wall Runner" in h.bot.campaigns.get_warrior(G, "Scurriers", "Snikch").skills
