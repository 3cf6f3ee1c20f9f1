"""/rule and /rules search through the harness: the payloads a player's Discord would receive."""

from __future__ import annotations

import asyncio

import pytest

import engine.rules.library as library_module
from bot.harness import ADMIN_PERMISSIONS, APPLICATION_COMMAND, Actor, Harness, HarnessInputError
from cogs import rules as rules_cog
from cogs._ui import rules_render
from engine.rules import load_library
from tests.conftest import make_bot

ADMIN = Actor(permissions=ADMIN_PERMISSIONS)
STALE = "older version of the rules data"


def components(h, result):
    return h.messages[result.message_id].components()


def custom_ids(h, result):
    return [c["custom_id"] for c in components(h, result)]


def component(h, result, prefix):
    found = [c for c in components(h, result) if c["custom_id"].startswith(prefix)]
    assert found, f"no component starting {prefix!r} in {custom_ids(h, result)}"
    return found[0]


def assert_embed_limits(result):
    for e in result.embeds:
        assert len(e.get("description") or "") <= 4096
        total = len(e.get("title") or "") + len(e.get("description") or "") + len(e.get("author", {}).get("name") or "")
        total += len(e.get("footer", {}).get("text") or "")
        total += sum(len(f["name"]) + len(f["value"]) for f in e.get("fields") or [])
        assert total <= 6000
        assert all(len(f["value"]) <= 1024 for f in e.get("fields") or [])


# ---------------------------------------------------------------- lookup


async def test_lookup_answer_is_public_with_title_path_citation_and_edition(harness):
    res = await harness.command("rule", query="parry")
    assert not res.ephemeral and not res.is_error
    embed = res.embeds[0]
    assert embed["title"] == "Parry"
    assert embed["author"]["name"] == "Close combat > Parry"
    assert "Roll a D6" in embed["description"]
    source = {f["name"]: f["value"] for f in embed["fields"]}["Source"]
    assert "000:759-775" in source and "000_e71f97bd3b98baf5.txt" in source
    assert embed["footer"]["text"] == "Living Rulebook 2005 (cited as 000)"
    assert_embed_limits(res)


async def test_a_list_named_beside_its_item_or_its_book_opens_the_item_or_the_list(harness):
    """Playtest: "plague censer" opened the Carnival's Plague Cart, "clan pestilens censer" the whole list,
    "nemesis crown dwarfs" Bugman's ale."""
    for query, title in (("plague censer", "Censer"), ("clan pestilens censer", "Censer"),
                         ("nemesis crown dwarfs", "Dwarf Rangers"), ("clan pestilens", "Skaven of Clan Pestilens")):
        res = await harness.command("rule", query=query)
        assert not res.is_error and res.embeds[0]["title"] == title, (query, res.embeds[0]["title"])


async def test_autocomplete_value_is_the_entry_id_and_opens_that_entry(harness):
    choices = (await harness.autocomplete("rule", "query", query="fla")).choices
    assert {"name": "Flail", "value": "lrb/weapons/flail"} in choices
    res = await harness.command("rule", query="lrb/weapons/flail")
    assert res.embeds[0]["title"] == "Flail" and not res.ephemeral


async def test_fallback_edition_note_in_footer(harness):
    res = await harness.command("rule", query="flail", edition="core")
    footer = res.embeds[0]["footer"]["text"]
    assert footer.startswith("Living Rulebook 2005 (cited as 000)")
    assert "core has no weapons chapter; from the Living Rulebook 2005" in footer


async def test_edition_option_overrides_server_edition(harness):
    await asyncio.to_thread(harness.bot.settings.set_edition, ADMIN.guild_id, ADMIN.user_id, True, "core")
    by_server = await harness.command("rule", query="parry")
    assert "Community Core Rules (cited as 002)" in by_server.embeds[0]["footer"]["text"]
    assert by_server.embeds[0]["description"] != (await harness.command("rule", query="parry", edition="lrb")).embeds[0]["description"]
    asked = await harness.command("rule", query="parry", edition="lrb")
    assert asked.embeds[0]["footer"]["text"] == "Living Rulebook 2005 (cited as 000)"
    other_server = await harness.command("rule", Actor(guild_id=555), query="parry")
    assert other_server.embeds[0]["footer"]["text"] == "Living Rulebook 2005 (cited as 000)"
    direct = await harness.command("rule", Actor(guild_id=None), query="parry")
    assert direct.embeds[0]["footer"]["text"] == "Living Rulebook 2005 (cited as 000)"


# ---------------------------------------------------------------- pages


async def test_long_entry_is_paged_and_nothing_is_lost(harness, monkeypatch):
    monkeypatch.setattr(rules_render, "PAGE_CHARS", 1500)
    entry = load_library().get("lrb/characteristics")
    res = await harness.command("rule", query="characteristics")
    mid = res.message_id
    assert res.embeds[0]["title"] == entry.title
    footer = res.embeds[0]["footer"]["text"]
    assert "page 1/" in footer
    count = int(footer.rsplit("/", 1)[1])
    assert count >= 3
    prev, nxt = components(harness, res)[:2]
    assert prev["disabled"] and not nxt["disabled"] and nxt["custom_id"].startswith("rule:page:")
    seen = [res.embeds[0]["description"]]
    for n in range(2, count + 1):
        nxt = [c for c in harness.messages[mid].components() if c.get("label") == "Next ▶"][0]
        turned = await harness.click(mid, nxt["custom_id"], Actor(user_id=42))  # anyone may turn pages
        assert turned.first.callback_type == 7 and not turned.is_error
        assert f"page {n}/{count}" in turned.embeds[0]["footer"]["text"]
        seen.append(turned.embeds[0]["description"])
        assert_embed_limits(turned)
    assert harness.messages[mid].data["embeds"][0]["description"] == seen[-1]  # edited in place
    last = harness.messages[mid].components()
    assert [c for c in last if c.get("label") == "Next ▶"][0]["disabled"]
    # every word of the body is on some page (tables may be re-laid out, so compare words)
    shown = " ".join(seen).replace("|", " ").replace("`", " ").replace("-", " ").replace("*", " ").split()
    assert set(entry.body.replace("|", " ").replace("-", " ").replace("*", " ").split()) <= set(shown)
    back = await harness.click(mid, [c for c in last if c.get("label") == "◀ Previous"][0]["custom_id"])
    assert f"page {count - 1}/{count}" in back.embeds[0]["footer"]["text"]


async def test_tables_are_kept_as_aligned_blocks(harness):
    res = await harness.command("rule", query="scatter dice", edition="core")
    text = res.embeds[0]["description"]
    assert "```" in text and "Direct hit" in text and "Top side" in text


async def test_custom_ids_fit_for_every_entry(harness):
    cog = harness.bot.get_cog("Rules")
    for entry in load_library().entries():
        for edition in ("lrb", "core2"):
            embed, view = cog.answer(entry, edition, 0)
            assert all(len(item.custom_id) <= 100 for item in view.children)
            assert len(embed) <= 6000


def test_long_ids_fall_back_to_a_hash():
    long_id = "lrb/" + "x" * 120
    ref = rules_cog.entry_ref(long_id, 60)
    assert ref.startswith("#") and len(ref) == 13
    assert rules_cog.entry_ref("lrb/weapons/flail") == "lrb/weapons/flail"


# ---------------------------------------------------------------- related and other editions


async def test_related_select_opens_entry_privately(harness):
    res = await harness.command("rule", query="flail")
    select = component(harness, res, "rule:open:")
    values = [o["value"] for o in select["options"]]
    assert values == ["lrb/special-rules/heavy", "lrb/special-rules/two-handed"]
    opened = await harness.select(res.message_id, select["custom_id"], ["lrb/special-rules/heavy"], Actor(user_id=77))
    assert opened.ephemeral and not opened.is_error
    assert opened.embeds[0]["title"] == "Heavy"
    assert harness.messages[res.message_id].data["embeds"][0]["title"] == "Flail"  # public answer untouched


async def test_other_editions_button_shows_differing_counterparts(harness):
    res = await harness.command("rule", query="parry")
    button = component(harness, res, "rule:other:")
    assert button["label"] == "Other editions"
    other = await harness.click(res.message_id, button["custom_id"], Actor(user_id=77))
    assert other.ephemeral and not other.is_error
    fields = other.embeds[0]["fields"]
    names = [f["name"] for f in fields]
    assert names[0].startswith("Living Rulebook 2005") and "this answer" in names[0]
    assert any(n.startswith("Community Core Rules (cited as 002)") and "differs" in n for n in names)
    assert any("more characters" in f["value"] for f in fields) or all(len(f["value"]) < 1024 for f in fields)
    assert_embed_limits(other)
    menu = component(harness, other, "rule:open:")
    assert "core/close-combat/parry" in [o["value"] for o in menu["options"]]
    full = await harness.select(other.message_id, menu["custom_id"], ["core/close-combat/parry"])
    assert full.ephemeral and full.embeds[0]["footer"]["text"].startswith("Community Core Rules (cited as 002)")


async def test_no_other_editions_button_without_differing_counterparts(harness):
    res = await harness.command("rule", query="flail")
    assert not any(c["custom_id"].startswith("rule:other:") for c in components(harness, res))


# ---------------------------------------------------------------- did you mean, search


async def test_a_misspelt_name_is_mended(harness):
    res = await harness.command("rule", query="knockd")  # "knocked": the rules' word closest to it
    assert not res.ephemeral and res.embeds[0]["title"] == "Knocked down"


@pytest.mark.parametrize("query, title", [
    ("soul fire", "Soulfire"),  # typed apart: answered, not "did you mean"
    ("gnaw doom", "Gnawdoom"),
    ("hochlnad long rfile", "Hochland long rifle"),
    ("can I shoot at someone fighting in combat", "Closest target"),
    ("what happens if my leader is out of action", "Rout test"),
])
async def test_real_typing_is_answered_publicly(harness, query, title):
    res = await harness.command("rule", query=query)
    assert not res.ephemeral and not res.is_error, res.text
    assert res.embeds[0]["title"] == title


async def test_autocomplete_completes_a_name_typed_in_two_words(harness):
    choices = (await harness.autocomplete("rule", "query", query="soul f")).choices
    assert {"name": "Soulfire", "value": "lrb/magic/soulfire"} in choices


async def test_weak_match_offers_did_you_mean_with_menu(harness):
    lib = load_library()
    weak = lib.lookup("griffon")  # no rule is about griffons: the closest entries are offered instead
    assert weak.entry is None and weak.suggestions
    res = await harness.command("rule", query="griffon")
    assert res.ephemeral and not res.is_error
    assert "Did you mean" in res.text and weak.suggestions[0][0].title in res.text
    menu = component(harness, res, "rule:pick:")
    value = menu["options"][0]["value"]
    picked = await harness.select(res.message_id, menu["custom_id"], [value])
    assert not picked.ephemeral and picked.embeds[0]["title"] == lib.get(value).title


async def test_a_name_the_bot_lacks_is_said_plainly_with_the_nearest_names(harness):
    """The Hand of Glory is in neither the seeds nor the warband data: the answer says so (not a bare
    "No rule found") and offers the names spelt most like it in a menu."""
    lib = load_library()
    res = await harness.command("rule", query="hand of glory")
    assert res.ephemeral and not res.is_error
    assert res.embeds[0]["title"] == "Not in the bot's rules"
    assert "The bot's rules and data don't have “hand of glory”" in res.text and "nearest names" in res.text
    menu = component(harness, res, "rule:pick:")
    assert [o["value"] for o in menu["options"]] == [e.id for e, _ in lib.lookup("hand of glory").suggestions]
    res = await harness.command("rule", query="qqqzzzxx")  # no word the rules use: said so, nothing offered
    assert res.ephemeral and "Nothing matches “qqqzzzxx”" in res.text and "`/rules search`" in res.text
    assert res.first.data.get("components") in (None, [])


async def test_gibberish_gets_nothing_matches_not_a_suggestion(harness):
    """Playtest: `/rule qwertyuiop` offered "Armour save modifiers" as if it were a near miss."""
    res = await harness.command("rule", query="qwertyuiop")
    assert res.ephemeral and not res.is_error
    assert res.embeds[0]["title"] == "Nothing matches"
    assert "none of its words is one the rules use" in res.text and "`parry`" in res.text
    assert "Armour save modifiers" not in res.text and not res.first.data.get("components")


async def test_numerals_read_as_the_words_they_stand_for(harness):
    """Playtest: `/rule 2 handed sword` found nothing, where `2h sword` and `two handed sword` worked."""
    for query in ("2 handed sword", "2-handed sword", "two handed sword", "double-handed weapon"):
        res = await harness.command("rule", query=query)
        assert not res.ephemeral and res.embeds[0]["title"] == "Double-handed weapon", query


async def test_search_ranks_sections_with_snippets_and_opens_one(harness):
    res = await harness.command("rules search", text="shoot into combat")
    assert res.ephemeral and not res.is_error
    embed = res.embeds[0]
    assert embed["title"] == "Search: shoot into combat"
    assert "**1. " in embed["description"] and "> " in embed["description"] and "**shoot**" in embed["description"]
    menu = component(harness, res, "rule:pick:")
    assert 1 <= len(menu["options"]) <= 10
    first = menu["options"][0]["value"]
    opened = await harness.select(res.message_id, menu["custom_id"], [first])
    assert not opened.ephemeral and opened.embeds[0]["title"] == load_library().get(first).title


async def test_search_without_hits_is_clear(harness):
    res = await harness.command("rules search", text="qqqzzzxx")
    assert res.ephemeral and "Nothing found" in res.text


# ---------------------------------------------------------------- autocomplete


async def test_autocomplete_empty_gives_defaults(harness):
    choices = (await harness.autocomplete("rule", "query", query="")).choices
    assert 1 <= len(choices) <= 25
    assert all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in choices)


async def test_autocomplete_at_most_25_and_follows_edition(harness):
    many = (await harness.autocomplete("rule", "query", query="a")).choices
    assert len(many) <= 25
    core = (await harness.autocomplete("rule", "query", query="par", edition="core")).choices
    assert any(c["value"].startswith("core/") for c in core)


async def test_autocomplete_odd_input_never_fails(harness):
    for text in ("!!!", "🗡️🛡️", "x" * 5000, "   "):
        choices = (await harness.autocomplete("rule", "query", query=text)).choices
        assert len(choices) <= 25


# ---------------------------------------------------------------- bad input


async def test_empty_query_refused_by_discord_and_blank_query_explained(harness):
    with pytest.raises(HarnessInputError):
        await harness.command("rule", query="")
    res = await harness.command("rule", query="    ")
    assert res.ephemeral and res.is_error and "empty" in res.text


async def test_overlong_query_refused_by_discord(harness):
    with pytest.raises(HarnessInputError, match="at most 200"):
        await harness.command("rule", query="x" * 5000)


async def test_engine_limit_is_reported(harness, monkeypatch):
    monkeypatch.setattr(library_module, "MAX_QUERY_CHARS", 50)
    res = await harness.command("rule", query="parry " * 25)
    assert res.ephemeral and res.is_error and "limit is 50" in res.text
    res = await harness.command("rules search", text="parry " * 25)
    assert res.ephemeral and res.is_error and "limit is 50" in res.text


@pytest.mark.parametrize("query", ["?!.,;:", "🗡️🛡️💀", "—…"])
async def test_punctuation_or_emoji_query(harness, query):
    res = await harness.command("rule", query=query)
    assert res.ephemeral and "No rule found" in res.text
    res = await harness.command("rules search", text=query)
    assert res.ephemeral and "Nothing found" in res.text


async def test_unknown_edition_is_refused(harness):
    # Discord refuses a value outside the choices; a payload that gets past it (a client showing an
    # older command) is refused by the tree, naming the choices (bot/option_types.py).
    with pytest.raises(HarnessInputError):
        await harness.command("rule", query="parry", edition="core3")
    data = harness.command_data(["rule"], {"query": "parry"})
    data["options"].append({"name": "edition", "type": 3, "value": "core3"})
    res = await harness.dispatch(harness._base_payload(APPLICATION_COMMAND, data, Actor()), Actor())
    assert res.ephemeral and res.is_error and "The option `edition` takes one of: lrb, " in res.text
    assert 'but Discord sent text ("core3")' in res.text


# ---------------------------------------------------------------- old messages


async def test_page_button_after_data_changed_is_explained(harness, monkeypatch):
    monkeypatch.setattr(rules_render, "PAGE_CHARS", 1500)
    res = await harness.command("rule", query="characteristics")
    nxt = [c for c in components(harness, res) if c.get("label") == "Next ▶"][0]["custom_id"]
    monkeypatch.setattr(load_library(), "version", "0123456789abcdef")
    pressed = await harness.click(res.message_id, nxt)
    assert pressed.ephemeral and STALE in pressed.text and "/rule" in pressed.text
    assert "page 1/" in harness.messages[res.message_id].data["embeds"][0]["footer"]["text"]


async def test_every_component_checks_the_version(harness, monkeypatch):
    answer = await harness.command("rule", query="parry")
    weak = await harness.command("rule", query="griffon")
    found = await harness.command("rules search", text="parry")
    monkeypatch.setattr(load_library(), "version", "fedcba9876543210")
    other = await harness.click(answer.message_id, component(harness, answer, "rule:other:")["custom_id"])
    assert other.ephemeral and STALE in other.text
    menu = component(harness, answer, "rule:open:")
    related = await harness.select(answer.message_id, menu["custom_id"], [menu["options"][0]["value"]])
    assert related.ephemeral and STALE in related.text
    for res in (weak, found):
        menu = component(harness, res, "rule:pick:")
        picked = await harness.select(res.message_id, menu["custom_id"], [menu["options"][0]["value"]])
        assert picked.ephemeral and STALE in picked.text


async def test_unknown_or_malformed_rule_component_is_explained(harness):
    res = await harness.command("rule", query="parry")
    msg = harness.messages[res.message_id]
    msg.data["components"] = [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "old", "custom_id": "rule:zoom:1:lrb/close-combat/parry"},
        {"type": 2, "style": 2, "label": "bad", "custom_id": "rule:page:garbage"},
    ]}]
    for cid in ("rule:zoom:1:lrb/close-combat/parry", "rule:page:garbage"):
        pressed = await harness.click(res.message_id, cid)
        assert pressed.ephemeral and STALE in pressed.text
        assert len(pressed.sent) == 1  # answered once, not by two handlers


async def test_buttons_work_after_a_restart(tmp_path, monkeypatch):
    monkeypatch.setattr(rules_render, "PAGE_CHARS", 1500)
    async with Harness(make_bot(tmp_path)) as first:
        res = await first.command("rule", query="characteristics")
        message = first.messages[res.message_id]
    nxt = [c for c in message.components() if c.get("label") == "Next ▶"][0]["custom_id"]
    async with Harness(make_bot(tmp_path)) as second:  # a new process: no views in memory
        second.messages[message.id] = message
        turned = await second.click(message.id, nxt)
        assert turned.first.callback_type == 7 and "page 2/" in turned.embeds[0]["footer"]["text"]


# ---------------------------------------------------------------- issue 12: what players read


async def test_a_spell_list_shows_its_d6_table(harness):
    res = await harness.command("rule", query="lesser magic")
    desc = res.embeds[0]["description"]
    assert res.embeds[0]["title"] == "Lesser Magic"
    block = desc.split("```")[1]
    lines = block.strip().split("\n")
    assert lines[0].split() == ["D6", "|", "Spell", "|", "Difficulty"]
    assert lines[2].startswith("1  | Fires of U'Zhul") and lines[7].startswith("6  | Sword of Rezhebel")
    assert not desc.rstrip().endswith("D6 Result")


async def test_a_wide_table_is_read_row_by_row_without_an_empty_header_or_a_long_rule(harness):
    res = await harness.command("rule", query="bladed weapons", edition="core")
    desc = res.embeds[0]["description"]
    assert "• **1-2 Flesh Wound** — This attack hits an unprotected area" in desc
    assert "|   |" not in desc and "-" * 60 not in desc and "```" not in desc


async def test_the_quick_reference_is_shown_with_its_rule(harness):
    res = await harness.command("rule", query="parry")
    fields = {f["name"]: f["value"] for f in res.embeds[0]["fields"]}
    summary = load_library().get("lrb/close-combat/parry").summary
    assert fields[f"Quick reference ({summary.source.cite()})"] == summary.text
    assert list(fields)[-1] == "Source"


async def test_campaign_tables_are_answered_and_say_where_from(harness):
    res = await harness.command("rule", query="serious injuries")
    embed = res.embeds[0]
    assert embed["title"] == "Serious injuries" and "Not from the rulebook text" in embed["description"]
    assert "• **11-15 Dead** — " in embed["description"]  # a chart of sentences, row by row
    source = {f["name"]: f["value"] for f in embed["fields"]}["Source"]
    assert "rules_data/campaign/lrb.json" in source and "the bot's own data, not the rulebook text" in source


async def test_search_mends_a_misspelt_word_and_says_so(harness):
    res = await harness.command("rules search", text="hiden")
    desc = res.embeds[0]["description"]
    assert desc.startswith("*Searched “hiden” as “hidden”.*")
    assert "**1. Hiding (Movement)**" in desc


def test_a_table_split_across_pages_repeats_its_header():
    from engine.rules import Entry, Source

    rows = "\n".join(f"| {n} | row {n} |" for n in range(1, 41))
    entry = Entry(id="lrb/test/long-table", edition="lrb", title="Long table", path=("Test", "Long table"), kind="table",
                  body="Intro.\n\n| Roll | Result |\n|---|---|\n" + rows, source=Source("000_x.txt", ((1, 2),)))
    pages = rules_render.entry_pages(entry, page_chars=200)
    assert len(pages) > 2
    for page in pages:
        block = page.split("```")[1].strip().split("\n")
        assert block[0].split() == ["Roll", "|", "Result"] and set(block[1]) <= set("-+")
    laid = "".join(pages)
    assert all(f"row {n}" in laid for n in range(1, 41))  # nothing lost


async def test_answers_keep_citations_but_not_the_word_seed(harness):
    """Playtest: `/rule wyrdstone` spoke of "seed rulebooks", "the seeds" and "000's contents"."""
    res = await harness.command("rule", query="wyrdstone")
    text = res.text
    assert "seed" not in text.lower() and "000's" not in text
    assert "000:55-96" in text and "000:1867" in text  # the citations stay
