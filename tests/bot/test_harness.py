from bot.harness import HarnessInputError
import pytest


async def test_echo_goes_through_the_tree(harness):
    result = await harness.command("echo", text="hello @everyone")
    assert result.first.kind == "callback"
    assert result.first.callback_type == 4
    assert result.first.data["content"] == "hello @everyone"
    assert result.ephemeral
    # allowed mentions are off: nothing the user typed can ping anyone
    assert result.first.data["allowed_mentions"] == {"parse": []}


async def test_unknown_option_is_refused_like_discord(harness):
    with pytest.raises(HarnessInputError):
        await harness.command("echo", nope="x")
    with pytest.raises(HarnessInputError):
        await harness.command("echo")
