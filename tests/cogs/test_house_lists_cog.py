"""/admin warbands through the harness: a server's own warband lists, checked before they are stored,
used only by that server, named by /settings show, and removable."""

from __future__ import annotations

import json
from pathlib import Path

from bot.harness import ADMIN_PERMISSIONS, Actor

from tests.conftest import both_backends

pytestmark = both_backends

REPO = Path(__file__).resolve().parents[2]
GUILD_A, GUILD_B = 901, 902
ADMIN_A = Actor(user_id=3, guild_id=GUILD_A, permissions=ADMIN_PERMISSIONS)
MEMBER_A = Actor(user_id=1, guild_id=GUILD_A)
MEMBER_B = Actor(user_id=1, guild_id=GUILD_B)


def reikland() -> dict:
    return json.loads((REPO / "rules_data" / "warbands" / "lists" / "reikland.json").read_text(encoding="utf-8"))


def veterans() -> dict:
    data = reikland()
    data.update(id="reikland-veterans", name="Reikland Veterans", aliases=["Veterans"], starting_gold=600, max_warriors=12,
                summary="Old soldiers of the Reik: more gold, fewer hands.", source="House rules of our club")
    return data


def upload(data) -> tuple[str, bytes]:
    return ("list.json", json.dumps(data).encode() if not isinstance(data, bytes) else data)


def svc(h):
    return h.bot.campaigns


async def test_an_admin_adds_a_list_that_only_this_server_sees(harness):
    res = await harness.command("admin warbands", ADMIN_A, file=upload(veterans()))
    assert not res.is_error, res.text
    assert "**Reikland Veterans** (reikland-veterans): 600 gc to start, up to 12 warriors" in res.text
    offered = await harness.autocomplete("warband create", "warband_type", MEMBER_A, name="x", warband_type="veter")
    assert [c["value"] for c in offered.choices] == ["Reikland Veterans"]
    assert (await harness.autocomplete("warband create", "warband_type", MEMBER_B, name="x", warband_type="veter")).choices == []
    made = await harness.command("warband create", MEMBER_A, name="Old Guard", warband_type="Veterans")
    assert "Reikland Veterans, owned by" in made.text and "600 gc" in made.text
    elsewhere = await harness.command("warband create", MEMBER_B, name="Old Guard", warband_type="Veterans")
    assert "Veterans (custom)" in elsewhere.text  # another server does not know the list
    hired = await harness.command("hire fighter", MEMBER_A, warband="Old Guard", type="Mercenary Captain")
    assert not hired.is_error
    settings = await harness.command("settings show", MEMBER_A)
    assert "**Own:** Reikland Veterans (`reikland-veterans`, added)" in settings.text
    bundled = len(svc(harness).catalogue(GUILD_B).warbands)
    assert "Reikland Mercenaries" in settings.text and f"**Bundled ({bundled}):**" in settings.text
    other = await harness.command("settings show", MEMBER_B)
    assert "Veterans" not in other.text


async def test_a_list_with_errors_is_refused_with_every_problem_and_nothing_stored(harness):
    bad = veterans()
    bad["starting_gold"] = -5
    bad["fighters"][0]["equipment_list"] = "nowhere"
    bad["fighters"][1]["race"] = "martian"
    bad["equipment_lists"][0]["items"].append({"item": "laser-sword", "price": 10})
    res = await harness.command("admin warbands", ADMIN_A, file=upload(bad))
    assert res.is_error and res.ephemeral and "The warband list was not saved" in res.text
    for words in ("starting_gold", "nowhere", "martian", "laser-sword"):
        assert words in res.text, words
    assert svc(harness).lists(GUILD_A).house == ()
    not_json = await harness.command("admin warbands", ADMIN_A, file=upload(b"{ fighters: lots"))
    assert not_json.is_error and "not JSON" in not_json.text
    assert svc(harness).lists(GUILD_A).house == ()


async def test_a_list_whose_names_no_member_could_type_is_refused(harness):
    # a playtest: a list named "Bandits of @everyone <@123>" was stored and offered as you type, then refused when chosen
    bad = veterans()
    bad["name"] = "Bandits of @everyone <@123>"
    bad["fighters"][0]["name"] = "Boss <@&77>"
    res = await harness.command("admin warbands", ADMIN_A, file=upload(bad))
    assert res.is_error and res.ephemeral and "The warband list was not saved" in res.text, res.text
    assert "name:" in res.text and "fighters[0].name:" in res.text and "mention" in res.text
    assert svc(harness).lists(GUILD_A).house == ()


async def test_a_list_naming_an_unknown_skill_list_rule_or_weapon_is_refused_with_each_one(harness):
    bad = veterans()
    bad["fighters"][0]["skill_lists"].append("necromantic-arts")
    bad["fighters"][1]["special_rules"].append("flying")
    bad["fighters"][0]["starting_equipment"] = ["laser-sword"]
    bad["equipment_lists"][0]["items"].append({"item": "plasma-pistol", "price": 30})
    res = await harness.command("admin warbands", ADMIN_A, file=upload(bad))
    assert res.is_error and "4 problems" in res.text, res.text
    for words in ("skill list 'necromantic-arts' is not defined", "special rule 'flying' is not defined",
                  "starting equipment 'laser-sword' is not an item", "item 'plasma-pistol' is not defined"):
        assert words in res.text, words
    assert svc(harness).lists(GUILD_A).house == ()


async def test_only_manage_server_changes_the_lists(harness):
    res = await harness.command("admin warbands", MEMBER_A, file=upload(veterans()))
    assert res.is_error and "Manage Server" in res.text
    assert svc(harness).lists(GUILD_A).house == ()
    neither = await harness.command("admin warbands", ADMIN_A)
    assert neither.is_error and "Give either `file`" in neither.text


async def test_a_server_may_replace_a_bundled_list(harness):
    richer = reikland()
    richer["starting_gold"] = 700
    res = await harness.command("admin warbands", ADMIN_A, file=upload(richer))
    assert not res.is_error, res.text
    a = await harness.command("warband create", MEMBER_A, name="Rich", warband_type="Reiklanders")
    b = await harness.command("warband create", MEMBER_B, name="Rich", warband_type="Reiklanders")
    assert "700 gc" in a.text and "500 gc" in b.text
    settings = await harness.command("settings show", MEMBER_A)
    bundled = len(svc(harness).catalogue(GUILD_B).warbands)
    assert "replaces the bundled Reikland Mercenaries" in settings.text and f"**Bundled ({bundled - 1}):**" in settings.text


async def test_removing_a_list_leaves_its_warbands_as_custom_until_it_is_back(harness):
    await harness.command("admin warbands", ADMIN_A, file=upload(veterans()))
    await harness.command("warband create", MEMBER_A, name="Old Guard", warband_type="Reikland Veterans")
    before = await harness.command("warband show", MEMBER_A, name="Old Guard")
    assert "of at most 12" in before.text
    gone = await harness.command("admin warbands", ADMIN_A, remove="reikland-veterans")
    assert not gone.is_error and "**Reikland Veterans** is no longer one of this server's lists" in gone.text
    after = await harness.command("warband show", MEMBER_A, name="Old Guard")  # the cached sheet is not reused
    assert "*custom for now*" in after.text and "of at most 15" in after.text
    refused = await harness.command("hire fighter", MEMBER_A, warband="Old Guard", type="Champion")
    assert refused.is_error and "its list `reikland-veterans` is not on this server any more" in refused.text
    missing = await harness.command("admin warbands", ADMIN_A, remove="reikland-veterans")
    assert missing.is_error and "no warband list of its own called" in missing.text
    await harness.command("admin warbands", ADMIN_A, file=upload(veterans()))
    back = await harness.command("hire fighter", MEMBER_A, warband="Old Guard", type="Champion")
    assert not back.is_error
    log = await harness.command("warband log", MEMBER_A, name="Old Guard")
    assert "settings.house_list" not in log.text and "setting house list" not in log.text  # server changes are the server's, not the warband's


async def test_remove_autocomplete_offers_this_servers_own_lists(harness):
    await harness.command("admin warbands", ADMIN_A, file=upload(veterans()))
    res = await harness.autocomplete("admin warbands", "remove", ADMIN_A, remove="vet")
    assert [c["value"] for c in res.choices] == ["reikland-veterans"]
    other = await harness.autocomplete("admin warbands", "remove", Actor(user_id=3, guild_id=GUILD_B, permissions=ADMIN_PERMISSIONS),
                                       remove="")
    assert other.choices == []


async def test_a_warband_of_a_house_list_imports_only_where_the_list_is(harness):
    await harness.command("admin warbands", ADMIN_A, file=upload(veterans()))
    await harness.command("warband create", MEMBER_A, name="Old Guard", warband_type="Reikland Veterans")
    exp = await harness.command("warband export", MEMBER_A, name="Old Guard")
    blob = harness.messages[exp.message_id].files[0]["content"]
    res = await harness.command("warband import", MEMBER_B, file=("old-guard.json", blob))
    assert res.is_error and "this server has no warband list `reikland-veterans`" in res.text
    assert svc(harness).list_warbands(GUILD_B) == []
    data = json.loads(blob)
    del data["warband"]["list"]  # as the message says: without it, a custom warband
    ok = await harness.command("warband import", MEMBER_B, file=("old-guard.json", json.dumps(data).encode()))
    assert not ok.is_error and svc(harness).get_warband(GUILD_B, "Old Guard").list_id is None


async def test_rule_answers_with_the_servers_own_list_and_only_there(harness):
    # a playtest: /rule named a house list and got a bundled one (Hochland Bandits for "Bandits of the Reik")
    await harness.command("admin warbands", ADMIN_A, file=upload(veterans()))
    for query in ("Reikland Veterans", "veterans", "reikland-veterans"):
        res = await harness.command("rule", MEMBER_A, query=query)
        assert not res.is_error and not res.ephemeral, res.text
        assert res.embeds[0]["title"] == "Reikland Veterans" and "This server's own warband list" in res.text, query
        assert "600 gc to start, at most 12 warriors" in res.text
    elsewhere = await harness.command("rule", MEMBER_B, query="Reikland Veterans")
    assert "This server's own warband list" not in elsewhere.text and "600 gc to start" not in elsewhere.text
    bundled = await harness.command("rule", MEMBER_A, query="Reikland")  # the bundled list keeps its own name
    assert "This server's own warband list" not in bundled.text
