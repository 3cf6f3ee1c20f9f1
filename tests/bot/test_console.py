import io

from bot.console import run_console
from bot.harness import Actor, Harness
from tests.conftest import make_bot


async def run(tmp_path, **kw):
    out: list[str] = []
    code = await run_console(Harness(make_bot(tmp_path)), Actor(), out=out.append, **kw)
    return code, "\n".join(out)


async def test_one_line(tmp_path):
    code, text = await run(tmp_path, command='/echo text:"to hit"')
    assert code == 0 and "to hit" in text and "only you can see this" in text


async def test_bare_first_required_option(tmp_path):
    code, text = await run(tmp_path, command="/echo several bare words")
    assert code == 0 and "several bare words" in text


async def test_refused_line_exits_non_zero(tmp_path):
    code, text = await run(tmp_path, command="/echo")
    assert code == 1 and "needs the option 'text'" in text
    code, text = await run(tmp_path, command="/nope 1")
    assert code == 1 and "There is no command /nope" in text


async def test_piped_lines(tmp_path):
    stdin = io.StringIO("/echo one\n\n# a comment\n/echo two\n")
    code, text = await run(tmp_path, stdin=stdin)
    assert code == 0 and "one" in text and "two" in text


async def test_json_mode(tmp_path):
    import json

    code, text = await run(tmp_path, command="/echo hi", as_json=True)
    payload = json.loads(text)
    assert payload[0]["callback_type"] == "channel_message"
    assert payload[0]["body"]["data"]["content"] == "hi"


async def test_buttons_can_be_pressed_from_the_console(tmp_path):
    stdin = io.StringIO("/roll 2d6 to hit\npress 1\npress 1\n")
    code, text = await run(tmp_path, stdin=stdin)
    assert "[1] button: Re-roll" in text
    assert "Original roll" in text  # the re-roll updated the same message
    assert "no buttons or menus" in text  # the button is gone after one re-roll
    assert code == 1  # the refused second press counts as an error line


async def test_autocomplete_from_the_console(tmp_path):
    code, text = await run(tmp_path, command="? /admin houserule rule:parry")
    assert code == 0 and "Suggestions:" in text and "parry_vs_basic_strength" in text


async def test_acting_as_admin_in_another_server(tmp_path):
    stdin = io.StringIO("/admin edition edition:core\nadmin on\n/admin edition edition:core\nguild 99\n/settings show\n")
    code, text = await run(tmp_path, stdin=stdin)
    assert "Only members with Manage Server" in text
    assert "now plays by **Community Core Rules (seed 002)**" in text
    assert text.rstrip().count("Living Rulebook 2005 (seed 000)") >= 1  # server 99 keeps the default
