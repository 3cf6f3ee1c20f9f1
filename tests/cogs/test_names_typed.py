"""Names typed through the harness (playtest, issue lookup17): the warband_type autocomplete puts a list whose
name starts with what was typed first and finds a list by its book; a name nothing has offers only names
like it, or none and where to look; a pirate's cutlass is his sword."""

from __future__ import annotations

from bot.harness import Actor

from tests.conftest import both_backends

pytestmark = both_backends

G = 1719
OWNER = Actor(user_id=1, guild_id=G)


async def ok(res):
    assert not res.is_error, res.text
    return res


async def offered(h, typed):
    res = await h.autocomplete("warband create", "warband_type", OWNER, name="x", warband_type=typed)
    return [c["value"] for c in res.choices]


async def test_warband_type_offers_what_starts_with_the_typed_letters_first(harness):
    pir = await offered(harness, "pir")
    assert pir[0] == "Pirates" and "Undead" in pir  # Undead by its other name Vampire, after
    assert pir.index("Undead") > pir.index("Pirates")
    # a word of the name, then of another name, before letters inside a word
    assert (await offered(harness, "pest"))[0] == "Skaven of Clan Pestilens"
    assert (await offered(harness, "eshin"))[0] == "Skaven of Clan Eshin"
    assert (await offered(harness, "dwarf"))[:2] == ["Dwarf Rangers", "Dwarf Treasure Hunters"]
    # a list by the book it is published in
    nemesis = await offered(harness, "nemesis")
    assert {"Dwarf Rangers", "Black Orcs", "Forest Goblins", "Gunnery School of Nuln", "Hochland Bandits",
            "Horned Hunters", "Imperial Outriders"} == set(nemesis)
    assert await offered(harness, "nemesis crown dwarfs") == ["Dwarf Rangers"]
    assert await offered(harness, "dwarf expedition") == ["Dwarf Rangers"]
    assert await offered(harness, "zzz") == []
    assert len(await offered(harness, "")) == 25


async def test_a_warband_name_nothing_is_like_offers_the_warband_list_not_a_poor_match(harness):
    await ok(await harness.command("warband create", OWNER, name="New Pirates", warband_type="Pirates"))
    nope = await harness.command("warband show", OWNER, name="Nope")
    assert nope.is_error and "This server has no warband called 'Nope'" in nope.text
    assert "New Pirates" not in nope.text and "/warband list" in nope.text
    typo = await harness.command("warband show", OWNER, name="New Pirats")
    assert typo.is_error and "Did you mean: `New Pirates`" in typo.text


async def test_a_pirate_buys_a_cutlass_as_his_sword_and_an_unknown_item_is_offered_only_like_names(harness):
    await ok(await harness.command("warband create", OWNER, name="Sea Dogs", warband_type="Pirates"))
    await ok(await harness.command("hire fighter", OWNER, warband="Sea Dogs", type="Captain", name="Jack"))
    res = await ok(await harness.command("trade buy", OWNER, warband="Sea Dogs", warrior="Jack", item="cutlass"))
    assert "Sword" in res.text
    assert "Sword" in harness.bot.campaigns.get_warrior(G, "Sea Dogs", "Jack").equipment
    typo = await harness.command("trade buy", OWNER, warband="Sea Dogs", warrior="Jack", item="cutlas")
    assert typo.is_error and "Did you mean: `Sword`" in typo.text
    assert "Hardtack" not in typo.text and "Fighting claws" not in typo.text
    # the item box: a name's start first, then another name's ("cut": the Sword, a cutlass), then letters inside
    box = await harness.autocomplete("trade buy", "item", OWNER, warband="Sea Dogs", warrior="Jack", item="cut")
    assert box.choices[0]["value"] == "Sword"
    box = await harness.autocomplete("trade buy", "item", OWNER, warband="Sea Dogs", warrior="Jack", item="hook")
    assert [c["value"] for c in box.choices][:2] == ["Hook hand", "Boat hook"]  # not in the order of the alphabet
    nothing = await harness.command("trade buy", OWNER, warband="Sea Dogs", warrior="Jack", item="xyzzy")
    assert nothing.is_error and "There is no item called 'xyzzy'" in nothing.text and "Did you mean" not in nothing.text
