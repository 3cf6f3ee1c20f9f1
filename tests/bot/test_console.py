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


async def test_asking_for_fixed_choices_shows_them_without_a_traceback(tmp_path, caplog):
    # Discord's client offers an option's fixed choices itself and never sends an autocomplete
    # for them: the console shows them, where it used to log CommandSignatureMismatch
    code, text = await run(tmp_path, command="? /battle record warband:x result:")
    assert code == 0 and text == "`result`: its choices: win, loss, draw"
    assert "Traceback" not in caplog.text and "CommandSignatureMismatch" not in caplog.text


async def test_the_harness_refuses_an_autocomplete_discord_would_never_send(tmp_path):
    import pytest

    from bot.harness import HarnessInputError

    async with Harness(make_bot(tmp_path)) as h:
        with pytest.raises(HarnessInputError, match="win, loss, draw"):
            await h.autocomplete("battle record", "result", Actor())


async def test_acting_as_admin_in_another_server(tmp_path):
    stdin = io.StringIO("/admin edition edition:core\nadmin on\n/admin edition edition:core\nguild 99\n/settings show\n")
    code, text = await run(tmp_path, stdin=stdin)
    assert "Only members with Manage Server" in text
    assert "now plays by **Community Core Rules (cited as 002)**" in text
    assert text.rstrip().count("Living Rulebook 2005 (cited as 000)") >= 1  # server 99 keeps the default


async def test_an_unknown_option_name_is_an_error_not_a_value(tmp_path):
    code, text = await run(tmp_path, command="/warband create name:X type:Y")
    assert code == 1 and "has no option 'type'" in text and "warband_type" in text
    code, text = await run(tmp_path, command='/echo "type:Y is fine when quoted"')
    assert code == 0 and "type:Y is fine when quoted" in text
    code, text = await run(tmp_path, command="/echo text:a text:b")
    assert code == 1 and "given twice" in text


async def test_press_reaches_the_newest_message_with_buttons_past_a_refusal(tmp_path):
    stdin = io.StringIO("/roll 2d6\n/roll 1d0\npress 1\n")
    code, text = await run(tmp_path, stdin=stdin)
    refusal, pressed = text.split("> press 1")
    assert "at least 2 sides" in refusal
    assert "Original roll" in pressed  # the Re-roll of the first message, not "no buttons"


async def test_file_options_from_disk_and_files_saved_to_disk(tmp_path):
    saved_dir = tmp_path / "out"
    stdin = io.StringIO("/warband create name:Reavers warband_type:Reiklanders\n/warband export name:Reavers\n")
    out: list[str] = []
    await run_console(Harness(make_bot(tmp_path)), Actor(), stdin=stdin, out=out.append, files_dir=saved_dir)
    text = "\n".join(out)
    exported = saved_dir / "reavers.json"
    assert exported.is_file() and f"saved to {exported.resolve()}" in text
    # the file goes back in with file:@path, in another server
    other = Actor(guild_id=555)
    code = await run_console(Harness(make_bot(tmp_path)), other, command=f"/warband import file:@{exported}",
                             out=out.append, files_dir=saved_dir)
    assert code == 0 and "Reavers" in out[-1]
    # a second export does not overwrite the first
    await run_console(Harness(make_bot(tmp_path)), Actor(), command="/warband export name:Reavers", out=out.append,
                      files_dir=saved_dir)
    assert (saved_dir / "reavers-1.json").is_file()
    code = await run_console(Harness(make_bot(tmp_path)), other, command="/warband import file:@/no/such.json",
                             out=out.append, files_dir=saved_dir)
    assert code == 1 and "There is no file at /no/such.json" in out[-1]
    code = await run_console(Harness(make_bot(tmp_path)), other, command="/warband import file:roster.json",
                             out=out.append, files_dir=saved_dir)
    assert code == 1 and "file:@path" in out[-1]


async def test_tab_completion_uses_the_bots_own_autocomplete(tmp_path):
    from bot.console_complete import complete

    async with Harness(make_bot(tmp_path)) as h:
        actor = Actor()
        await h.command("warband create", actor, name="Reikland Reavers", warband_type="Reiklanders")
        await h.command("warrior add", actor, warband="Reikland Reavers", name="Otto", role="leader",
                        warrior_type="Captain", profile="4 4 4 3 3 1 4 1 8")
        assert await complete(h, actor, "pr") == ["press"]
        assert await complete(h, actor, "/ro") == ["/roll"] and await complete(h, actor, "/ru") == ["/rule", "/rules"]
        assert await complete(h, actor, "/warband sh") == ["sheet", "show"]
        assert await complete(h, actor, "/warband show ") == ["name:"]
        assert await complete(h, actor, "/warband show name:Rei") == ['name:"Reikland Reavers"']
        # a warrior list follows the warband already typed, as in Discord
        assert await complete(h, actor, '/warrior show warband:"Reikland Reavers" warrior:') == ["warrior:Otto"]
        assert await complete(h, actor, "/roll expression:2d6 private:t") == ["private:true"]
        assert await complete(h, actor, "/help topic:co") == ["topic:combat"]
        assert "expression:" not in await complete(h, actor, "/roll expression:2d6 ")
        assert await complete(h, actor, "? /admin houserule rule:parry") == ["rule:parry_vs_basic_strength"]
        assert await complete(h, Actor(guild_id=9), "/warband show name:Rei") == []  # another server's names: none


def test_history_is_kept_between_sessions(tmp_path):
    import asyncio as _asyncio

    from bot.console_input import ConsoleInput, readline

    if readline is None:  # pragma: no cover - no readline on this platform
        return
    history = tmp_path / "history"
    loop = _asyncio.new_event_loop()
    try:
        with ConsoleInput(loop, lambda line: None, history=history):
            readline.clear_history()
            readline.add_history("/roll 2d6")
        readline.clear_history()
        with ConsoleInput(loop, lambda line: None, history=history):
            assert readline.get_history_item(readline.get_current_history_length()) == "/roll 2d6"
    finally:
        loop.close()


async def test_a_menu_value_may_be_quoted_as_slash_options_are(tmp_path):
    stdin = io.StringIO('/rule parry\nselect 2 "lrb/weapons/buckler"\n')
    code, text = await run(tmp_path, stdin=stdin)
    assert code == 0, text
    assert "Buckler" in text.split('> select 2 "lrb/weapons/buckler"')[1]


async def test_a_menu_option_may_be_chosen_by_its_label(tmp_path):
    stdin = io.StringIO('/rule parry\nselect 2 Buckler (Weapons & armour)\n')
    code, text = await run(tmp_path, stdin=stdin)
    assert code == 0, text
    assert "Buckler" in text.split("> select 2 Buckler")[1]


async def test_members_switched_to_are_told_apart_by_name(tmp_path):
    stdin = io.StringIO("user 5\n/echo text:hi\n")
    out: list[str] = []
    h = Harness(make_bot(tmp_path))
    actor = Actor()
    await run_console(h, actor, out=out.append, stdin=stdin)
    assert actor.user_id == 5 and actor.name == "user 5"


async def test_a_form_field_the_form_has_not_is_refused_with_its_fields(tmp_path):
    """A misnamed field must not pass as a field left empty (the bot would then roll for it)."""
    from bot.console import Console

    console = Console(Harness(make_bot(tmp_path)), Actor())
    console.open_modal, console.modal_fields = "pb:injdice:1:1", {"w3": "Greta"}  # as _show keeps an opened form
    outcome = await console.run_line('modal dice:"61"')
    assert outcome.error and "The form has no field 'dice'. Its fields: w3 (Greta)." in outcome.text
    assert console.open_modal == "pb:injdice:1:1"  # still open: type it again with the right field


async def test_a_menu_option_may_be_chosen_by_the_start_of_its_label(tmp_path):
    stdin = io.StringIO('/rule parry\nselect 2 Buckler\n')
    code, text = await run(tmp_path, stdin=stdin)
    assert code == 0, text
    assert "Buckler" in text.split("> select 2 Buckler")[1]


async def test_an_apostrophe_inside_a_word_is_part_of_it(tmp_path):
    """Playtest: /rule bugman's ale, sorcerer's curse and fires of u'zhul got "a quote is not closed";
    Discord reads them as typed. A quote that begins a word still quotes."""
    for command, title in (("/rule bugman's ale", "Bugman's Ale"), ("/rule sorcerer's curse", "Sorcerer's Curse"),
                           ("/rule fires of u'zhul", "Fires of U'Zhul")):
        code, text = await run(tmp_path, command=command)
        assert code == 0 and "quote is not closed" not in text and title.lower() in text.lower(), (command, text)
    code, text = await run(tmp_path, command="/echo text:'to hit'")
    assert code == 0 and "to hit" in text and "'to hit'" not in text
    code, text = await run(tmp_path, command="/echo the warriors' rout")
    assert code == 0 and "the warriors' rout" in text
    code, text = await run(tmp_path, command="/echo 'not closed")
    assert code == 1 and "quote is not closed" in text


async def test_words_after_a_text_option_are_that_options_as_in_discord(tmp_path):
    """Playtest: `/hire fighter warband:Reiks type:Mercenary Captain name:Hans` read "Captain" as the
    count ("must be a whole number"); Discord gives the text typed after `type:` to that option."""
    from bot.console_line import parse_line

    async with Harness(make_bot(tmp_path)) as h:
        line = parse_line("/hire fighter warband:Grey Reavers type:Mercenary Captain name:Hans the Bold", h.tree)
        assert line.options == {"warband": "Grey Reavers", "type": "Mercenary Captain", "name": "Hans the Bold"}
        line = parse_line("/rule edition:core can I shoot into combat", h.tree)  # a choice takes one word
        assert line.options == {"edition": "core", "query": "can I shoot into combat"}
        line = parse_line("/roll 2d6 label:to hit", h.tree)
        assert line.options == {"expression": "2d6", "label": "to hit"}
