"""/settings through the harness: anyone may look, only Manage Server may change."""

import json

from bot.harness import ADMIN_PERMISSIONS, Actor

ADMIN = Actor(permissions=ADMIN_PERMISSIONS)


async def test_show_defaults(harness):
    res = await harness.command("settings show")
    assert res.ephemeral and not res.is_error
    text = res.text
    assert "Living Rulebook 2005" in text and "blackpowder_save_additive" in text


async def test_member_cannot_change_edition(harness):
    res = await harness.command("admin edition", Actor(), edition="core")
    assert res.is_error and res.ephemeral and "Manage Server" in res.text
    assert (await harness.command("settings show")).text.count("Living Rulebook 2005") >= 1


async def test_admin_changes_edition_per_server(harness):
    res = await harness.command("admin edition", ADMIN, edition="core2")
    assert not res.is_error and "Community Core Rules rewrite" in res.text
    assert "rewrite (cited as 004)" in (await harness.command("settings show")).text
    other = await harness.command("settings show", Actor(guild_id=555))
    assert "Living Rulebook 2005 (cited as 000)" in other.text  # another server is untouched


async def test_house_rule_toggle_and_reset(harness):
    res = await harness.command("admin houserule", ADMIN, rule="blackpowder_save_additive", on=True)
    assert not res.is_error and "now **on**" in res.text
    s = harness.bot.settings.get(ADMIN.guild_id)
    assert s.house_rules == {"blackpowder_save_additive": True}
    assert "*(house rule)*" in (await harness.command("settings show")).text
    await harness.command("admin reset", ADMIN)
    assert harness.bot.settings.get(ADMIN.guild_id).house_rules == {}


async def test_unknown_house_rule_offers_closest(harness):
    res = await harness.command("admin houserule", ADMIN, rule="blackpowder_additive", on=True)
    assert res.is_error and "blackpowder_save_additive" in res.text
    assert harness.bot.settings.get(ADMIN.guild_id).house_rules == {}


async def test_house_rule_autocomplete(harness):
    res = await harness.autocomplete("admin houserule", "rule", ADMIN, rule="parry")
    names = [c["value"] for c in res.choices]
    assert names and all("parry" in n for n in names)


async def test_settings_in_dm_explain_servers(harness):
    res = await harness.command("settings show", Actor(guild_id=None))
    assert res.is_error and "server" in res.text


async def test_campaign_file_validated_before_saving(harness):
    bad = json.dumps({"hero_thresholds": "lots"}).encode()
    res = await harness.command("admin campaign", ADMIN, file=("camp.json", bad))
    assert res.is_error and "nothing was saved" in res.text
    assert harness.bot.campaigns.campaign_override(ADMIN.guild_id) == {}
    res = await harness.command("admin campaign", ADMIN, file=("camp.json", b"not json"))
    assert res.is_error


async def test_admin_group_is_hidden_from_members_and_settings_show_is_not(harness):
    from bot.sync import command_definitions

    defs = {d["name"]: d for d in command_definitions(harness.tree)}
    manage_guild = 1 << 5  # Permissions.manage_guild
    assert defs["admin"]["default_member_permissions"] == manage_guild
    assert defs["settings"]["default_member_permissions"] is None
    assert {o["name"] for o in defs["admin"]["options"]} == {"edition", "houserule", "reset", "campaign", "plaintext", "warbands", "secretrolls",
                                                               "tracker"}
    assert {o["name"] for o in defs["settings"]["options"]} == {"show"}


async def test_settings_show_says_how_the_server_answers(harness):
    assert "Embeds; each member can choose plain text" in (await harness.command("settings show")).text
    await harness.command("admin plaintext", ADMIN, on=True)
    res = await harness.command("settings show")
    assert "Plain text for every member who has not chosen otherwise" in res.text
    other = await harness.command("settings show", Actor(guild_id=555))
    assert "Embeds; each member can choose plain text" in other.text  # another server keeps its own choice


async def test_house_rules_are_shown_by_name_with_their_code(harness):
    """Playtest: `/settings show` listed house rules by their code names only."""
    text = (await harness.command("settings show")).text
    assert "**A natural 6 always hits** · `natural_6_always_hits`" in text
    res = await harness.command("admin houserule", ADMIN, rule="natural_6_always_hits", on=True)
    assert "**A natural 6 always hits** (`natural_6_always_hits`) is now **on**" in res.text
    offered = await harness.autocomplete("admin houserule", "rule", ADMIN, rule="natural 6")
    assert [(c["name"], c["value"]) for c in offered.choices] == [("A natural 6 always hits (natural_6_always_hits)",
                                                                   "natural_6_always_hits")]


async def test_an_edition_is_named_without_the_word_seed(harness):
    res = await harness.command("admin edition", ADMIN, edition="core")
    assert "now plays by **Community Core Rules (cited as 002)**" in res.text and "seed" not in res.text.lower()
    assert "seed" not in (await harness.command("settings show")).text.lower()


async def test_going_back_to_the_default_tables_asks_first_and_hands_the_server_its_own(harness):
    # a playtest: /admin campaign without a file threw the server's own tables away at once
    own = {"max_heroes": 7}
    res = await harness.command("admin campaign", ADMIN, file=("camp.json", json.dumps(own).encode()))
    assert not res.is_error, res.text
    kept = harness.bot.campaigns.campaign_override(ADMIN.guild_id)
    assert kept
    ask = await harness.command("admin campaign", ADMIN)
    assert ask.ephemeral and "Go back to the default campaign tables?" in ask.text and "`max_heroes`" in ask.text
    assert json.loads(harness.messages[ask.message_id].files[0]["content"]) == kept  # his own, to upload again
    assert harness.bot.campaigns.campaign_override(ADMIN.guild_id) == kept  # nothing changed yet
    no = await harness.click(ask.message_id, "confirm:no", ADMIN)
    assert not no.is_error and harness.bot.campaigns.campaign_override(ADMIN.guild_id) == kept
    ask = await harness.command("admin campaign", ADMIN)
    yes = await harness.click(ask.message_id, "confirm:yes", ADMIN)
    assert not yes.is_error and "default campaign tables again" in yes.text
    assert harness.bot.campaigns.campaign_override(ADMIN.guild_id) == {}
    again = await harness.command("admin campaign", ADMIN)
    assert again.ephemeral and "already uses the default campaign tables" in again.text


async def test_a_member_without_manage_server_cannot_reset_the_tables(harness):
    res = await harness.command("admin campaign", Actor())
    assert res.is_error and res.ephemeral and "Manage Server" in res.text


async def test_a_whole_copy_of_the_bundled_tables_with_one_change_is_that_change(harness):
    # a playtest copied rules_data/campaign/lrb.json, as the hint says, and was refused for its id and sources
    from pathlib import Path

    bundled = json.loads((Path(__file__).resolve().parents[2] / "rules_data" / "campaign" / "lrb.json").read_text(encoding="utf-8"))
    res = await harness.command("admin campaign", ADMIN, file=("lrb.json", json.dumps(bundled).encode()))
    assert not res.is_error and "every table as bundled" in res.text, res.text
    assert harness.bot.campaigns.campaign_override(ADMIN.guild_id) == {}
    res = await harness.command("admin campaign", ADMIN, file=("lrb.json", json.dumps({**bundled, "max_heroes": 7}).encode()))
    assert not res.is_error and "`max_heroes` replace" in res.text, res.text
    assert harness.bot.campaigns.campaign_override(ADMIN.guild_id) == {"max_heroes": 7}
    res = await harness.command("admin campaign", ADMIN, file=("bad.json", json.dumps({"max_heroes": "six"}).encode()))
    assert res.is_error and "The campaign file has 1 problem; nothing was saved" in res.text
