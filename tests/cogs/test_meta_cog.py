"""/help lists every command group and explains each topic, privately."""

from cogs.meta import TOPICS


async def test_overview_names_every_command_group(harness):
    res = await harness.command("help")
    assert res.ephemeral and not res.is_error
    for c in harness.tree.get_commands():
        if c.name not in ("help", "echo"):
            assert f"**/{c.name}**" in res.text, c.name


async def test_every_topic_the_overview_mentions_exists(harness):
    overview = (await harness.command("help")).text
    for topic in TOPICS:
        res = await harness.command("help", topic=topic)
        assert res.ephemeral and res.embeds[0]["title"].startswith("Help:")
    import re

    for mentioned in re.findall(r"topic:(\w+)", overview):
        assert mentioned in TOPICS


async def test_the_combat_topic_names_every_fighter_template(harness):
    from engine.combat.profile import template_names

    text = (await harness.command("help", topic="combat")).text
    assert len(template_names()) > 4 and all(name in text for name in template_names())
