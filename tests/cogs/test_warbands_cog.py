"""/warband, /warrior and /battle through the harness: recorded payloads, permissions, isolation, bad input."""

from __future__ import annotations

import asyncio
import json

import discord
import pytest
from discord import app_commands

from bot.harness import ADMIN_PERMISSIONS, Actor, HarnessInputError
from cogs._ui.warrior_choices import warrior_path_choices

from tests.conftest import both_backends

pytestmark = both_backends

GUILD_A, GUILD_B = 111, 222
OWNER = Actor(user_id=1, guild_id=GUILD_A)
OTHER = Actor(user_id=2, guild_id=GUILD_A)
ADMIN = Actor(user_id=3, guild_id=GUILD_A, permissions=ADMIN_PERMISSIONS)
OWNER_IN_B = Actor(user_id=1, guild_id=GUILD_B)
STRANGER_IN_B = Actor(user_id=9, guild_id=GUILD_B)
DM = Actor(user_id=1, guild_id=None)
WB = "Reikland Reavers"
PROFILE = "4 3 3 3 3 1 3 1 7"


async def make_warband(h, actor=OWNER, name=WB, **extra):
    res = await h.command("warband create", actor, name=name, warband_type="Reiklanders", **extra)
    assert not res.is_error, res.text
    return res


async def recruit(h, name, actor=OWNER, warband=WB, role="henchmen", **extra):
    opts = dict(warband=warband, name=name, role=role, warrior_type="Marksman", profile=PROFILE)
    opts.update(extra)
    res = await h.command("warrior add", actor, **opts)
    assert not res.is_error, res.text
    return res


def svc(h):
    return h.bot.campaigns


# ---------------------------------------------------------------- create, show, list


async def test_create_answers_publicly_and_show_reads_like_a_roster_sheet(harness):
    res = await make_warband(harness, gold=120)
    assert not res.ephemeral and res.embeds[0]["title"] == f"{WB} is ready"
    assert "120 gc" in res.text and "<@1>" in res.text
    await recruit(harness, "Otto", role="leader", warrior_type="Captain", profile="4 4 4 3 3 1 4 1 8",
                  equipment="Sword, Dagger", skills="Combat Master", experience=20)
    await recruit(harness, "Marksmen", group_size=3, equipment="Crossbow")
    await harness.command("warrior injure", OWNER, warband=WB, warrior="Otto", injury="Leg wound")
    await harness.command("warband treasury", OWNER, name=WB, reason="sold shards", gold=30, wyrdstone=2)

    show = await harness.command("warband show", OTHER, name="reikland REAVERS")  # anyone may view
    assert not show.ephemeral and not show.is_error
    embed = show.embeds[0]
    assert embed["title"] == WB
    text = show.text
    # monospace table; the Leg wound took 1 M (engine/campaign applies every injury's effect)
    assert " M WS BS  S  T  W  I  A Ld" in text and " 3  4  4  3  3  1  4  1  8" in text
    assert "```" in embed["fields"][0]["value"]
    assert "Otto (Leader, Captain)" in text and "Marksmen (Henchmen ×3, Marksman)" in text
    assert "**Equipment:** Sword, Dagger" in text and "**Skills:** Combat Master" in text
    assert "**Injuries:** Leg wound (−1 M)" in text
    assert "**Experience:** 20 (next advance at" in text
    assert "**Treasury:** 150 gc · 2 wyrdstone shards" in text
    # rating: 5 + 20 for Otto, 3 x 5 for the marksmen; shown with how it was worked out
    assert "**Rating:** 40" in text and "3 x (5 + 0 xp) = **15**" in text and "5 + 20 xp = **25**" in text
    assert "Total **40**" in text


async def test_show_of_thirty_warriors_is_paged_not_cut(harness):
    big = await asyncio.to_thread(_thirty, svc(harness))
    res = await harness.command("warband show", OTHER, name=big)
    mid = res.message_id
    buttons = [c["custom_id"] for c in harness.messages[mid].components()]
    assert buttons == ["page:prev", "page:count", "page:next"]
    pages = int(harness.messages[mid].components()[1]["label"].split("/")[1])
    assert pages >= 3
    seen = [res.text]
    sizes = [len(json.dumps(res.embeds[0]))]
    for _ in range(pages - 1):
        nxt = await harness.click(mid, "page:next", OTHER)
        assert nxt.first.callback_type == 7
        seen.append(nxt.text)
        sizes.append(len(json.dumps(nxt.embeds[0])))
    everything = "\n".join(seen)
    for n in range(30):
        assert f"Warrior {n} (" in everything, n
    assert "Rating, worked out" in everything and "Total **" in everything
    assert max(sizes) < 6000
    assert (await harness.click(mid, "page:prev", OWNER)).is_error  # pages turn for the one who asked


def _thirty(campaigns):
    """A 30-warrior warband in GUILD_A (a Skaven type allowing 20 models, the rest dead), through the service."""
    campaigns.create_warband(GUILD_A, 2, "Thirty Strong", "Skaven")
    for n in range(30):
        role = "leader" if n == 0 else "hero" if n < 6 else "henchmen"
        campaigns.add_warrior(GUILD_A, 2, False, "Thirty Strong", f"Warrior {n}", role=role, warrior_type="Verminkin",
                              profile=dict(M=5, WS=3, BS=3, S=3, T=3, W=1, I=4, A=1, Ld=5),
                              equipment=["Sword", "Dagger", "Light armour"], skills=["Strongman"] if n < 6 else [],
                              experience=n)
        if n >= 19:
            campaigns.edit_warrior(GUILD_A, 2, False, "Thirty Strong", f"Warrior {n}", status="dead")
    return "Thirty Strong"


async def test_list_shows_this_server_only(harness):
    await make_warband(harness)
    await make_warband(harness, OWNER_IN_B, name="Middenheim Wolves")
    res = await harness.command("warband list", OTHER)
    assert WB in res.text and "Middenheim" not in res.text and not res.ephemeral
    mine = await harness.command("warband list", OTHER, owner="2")
    assert "None yet" in mine.text


# ---------------------------------------------------------------- bad input


async def test_bad_names_are_refused_clearly_and_nothing_is_stored(harness):
    await make_warband(harness)
    cases = {
        "   ": "empty or only spaces",
        "x" * 80: "limit is 64",
        "@everyone's lads": "@everyone",
        "REIKLAND   reavers": "already has a warband called 'Reikland Reavers'",
    }
    for name, expected in cases.items():
        res = await harness.command("warband create", OWNER, name=name, warband_type="Reiklanders")
        assert res.is_error and res.ephemeral, name
        assert expected in res.text, (name, res.text)
    # Discord's client refuses 500 characters before the bot sees them (max_length 100)
    with pytest.raises(HarnessInputError, match="at most 100 characters"):
        await harness.command("warband create", OWNER, name="x" * 500, warband_type="Reiklanders")
    assert [s.name for s in svc(harness).list_warbands(GUILD_A)] == [WB]
    assert svc(harness).ledger(GUILD_A, WB)[0].what == "warband.create"


async def test_profile_out_of_range_and_unreadable(harness):
    await make_warband(harness)
    bad = await harness.command("warrior add", OWNER, warband=WB, name="Hulk", role="hero", warrior_type="Champion",
                                profile="4 3 3 3 3 1 3 99 7")
    assert bad.is_error and bad.ephemeral and "A is 99; characteristics run from 0 to 10" in bad.text
    short = await harness.command("warrior add", OWNER, warband=WB, name="Hulk", role="hero", warrior_type="Champion",
                                  profile="4 3 3")
    assert short.is_error and "3 numbers; it needs 9" in short.text
    edit = await harness.command("warrior add", OWNER, warband=WB, name="Hulk", role="hero", warrior_type="Champion",
                                 profile="M4 WS3 BS3 S3 T3 W1 I3 A1 Ld7")
    assert not edit.is_error
    worse = await harness.command("warrior edit", OWNER, warband=WB, warrior="Hulk", profile="WS=11")
    assert worse.is_error and "WS is 11" in worse.text
    assert svc(harness).get_warrior(GUILD_A, WB, "Hulk").profile.WS == 3


# ---------------------------------------------------------------- permissions


async def test_only_owner_or_manage_server_may_change(harness):
    await make_warband(harness, gold=100)
    await recruit(harness, "Otto", role="leader", warrior_type="Captain")
    refused = [
        await harness.command("warband treasury", OTHER, name=WB, reason="theft", gold=-50),
        await harness.command("warband rename", OTHER, name=WB, new_name="Mine Now"),
        await harness.command("warband delete", OTHER, name=WB),
        await harness.command("warband undo", OTHER, name=WB),
        await harness.command("warrior xp", OTHER, warband=WB, warrior="Otto", amount=5),
        await harness.command("warrior equip", OTHER, warband=WB, warrior="Otto", item="Halberd"),
        await harness.command("battle record", OTHER, warband=WB, result="loss"),
    ]
    for res in refused:
        assert res.is_error and res.ephemeral and "Only the owner of Reikland Reavers" in res.text, res.text
    assert svc(harness).get_warband(GUILD_A, WB).gold_crowns == 100
    assert len(svc(harness).ledger(GUILD_A, WB)) == 2
    ok = await harness.command("warband treasury", ADMIN, name=WB, reason="fine for brawling", gold=-50)
    assert not ok.is_error and "Now **50 gc**" in ok.text


async def test_changing_autocomplete_offers_only_what_the_member_may_change(harness):
    await make_warband(harness)
    await make_warband(harness, OTHER, name="Reik Rats")
    mine = await harness.autocomplete("warband rename", "name", OWNER, name="rei")
    assert [c["value"] for c in mine.choices] == [WB]
    view = await harness.autocomplete("warband show", "name", OWNER, name="rei")
    assert [c["value"] for c in view.choices] == ["Reik Rats", WB]
    admin = await harness.autocomplete("warband rename", "name", ADMIN, name="")
    assert len(admin.choices) == 2


async def test_changeable_names_kept_between_keystrokes_follow_every_change(harness):
    async def offered(actor, command="warband rename", typed=""):
        return [c["value"] for c in (await harness.autocomplete(command, "name", actor, name=typed)).choices]

    await make_warband(harness)
    await make_warband(harness, OTHER, name="Reik Rats")
    await make_warband(harness, OWNER_IN_B, name="Far Away")
    assert await offered(OWNER) == [WB] and await offered(OTHER) == ["Reik Rats"]
    assert await offered(ADMIN) == ["Reik Rats", WB]  # Manage Server may change every warband here
    assert await offered(OWNER_IN_B) == ["Far Away"] and await offered(STRANGER_IN_B) == []  # only that server's

    service = svc(harness)
    service.names_for_autocomplete = None  # this instance only: a second keystroke is answered from memory, on the loop
    try:
        assert await offered(OWNER, typed="rei") == [WB] and await offered(OWNER, "warband show", "rats") == ["Reik Rats"]
    finally:
        del service.names_for_autocomplete

    await make_warband(harness, name="Second Band")
    assert await offered(OWNER) == [WB, "Second Band"]
    assert not (await harness.command("warband rename", OWNER, name="Second Band", new_name="Altdorf Blades")).is_error
    assert await offered(OWNER) == ["Altdorf Blades", WB]
    assert await offered(OWNER, "warband show", "blades") == ["Altdorf Blades"]
    handed = await harness.command("warband edit", OWNER, name="Altdorf Blades", owner=str(OTHER.user_id))
    assert not handed.is_error, handed.text
    assert await offered(OWNER) == [WB] and await offered(OTHER) == ["Altdorf Blades", "Reik Rats"]
    ask = await harness.command("warband delete", OTHER, name="Reik Rats")
    await harness.click(ask.message_id, "confirm:yes", OTHER)
    assert await offered(OTHER) == ["Altdorf Blades"] and await offered(ADMIN) == ["Altdorf Blades", WB]
    assert await offered(OWNER_IN_B) == ["Far Away"]  # the other server's kept names are untouched


async def test_autocomplete_stops_at_25(harness):
    for n in range(30):
        await asyncio.to_thread(svc(harness).create_warband, GUILD_A, 1, f"Band {n:02d}", "Skaven")
    res = await harness.autocomplete("warband show", "name", OWNER, name="band")
    assert len(res.choices) == 25 and res.choices[0]["value"] == "Band 00"


# ---------------------------------------------------------------- direct messages and other servers


def _minimal_options(cmd):
    opts = {}
    for p in cmd.parameters:
        if not p.required:
            continue
        if p.choices:
            opts[p.display_name] = p.choices[0].value
        elif p.type is discord.AppCommandOptionType.integer:
            opts[p.display_name] = 1
        elif p.type is discord.AppCommandOptionType.attachment:
            opts[p.display_name] = ("w.json", b"{}")
        else:
            opts[p.display_name] = "Reikland Reavers"
    return opts


async def test_every_campaign_command_explains_it_works_in_a_server(harness):
    await make_warband(harness)
    paths = []
    for group in ("warband", "warrior", "battle", "hire", "trade"):
        root = harness.tree.get_command(group)
        # Discord hides them in DMs too, but /warband (for /warband sheet: bot/command_scope.py)
        assert root.guild_only == (group != "warband")
        for sub in root.commands:
            if f"{group} {sub.name}" != "warband sheet":  # one's own warbands' sheets (test_sheets_cog.py)
                paths.append((f"{group} {sub.name}", sub))
    assert len(paths) == 12 + 8 + 3 + 4 + 7
    for path, cmd in paths:
        res = await harness.command(path, DM, **_minimal_options(cmd))
        assert res.is_error and res.ephemeral, path
        assert "works in a server, not in direct messages" in res.text, path
        if path.startswith("warband "):
            assert "`/warband sheet` draws the sheet of a warband of yours" in res.text, path
    dm_choices = await harness.autocomplete("warband show", "name", DM, name="")
    assert dm_choices.choices == []


async def test_nothing_of_one_server_reaches_another(harness):
    await make_warband(harness, gold=100)
    await recruit(harness, "Otto", role="leader", warrior_type="Captain")
    for actor in (OWNER_IN_B, STRANGER_IN_B):
        show = await harness.command("warband show", actor, name=WB)
        assert show.is_error and "This server has no warband called 'Reikland Reavers'" in show.text
        exp = await harness.command("warband export", actor, name=WB)
        assert exp.is_error and not exp.sent[0].files
        wr = await harness.command("warrior show", actor, warband=WB, warrior="Otto")
        assert wr.is_error
        t = await harness.command("warband treasury", actor, name=WB, reason="raid", gold=-100)
        assert t.is_error
        assert (await harness.autocomplete("warband show", "name", actor, name="")).choices == []
        assert (await harness.autocomplete("warband treasury", "name", actor, name="rei")).choices == []
        assert (await harness.autocomplete("warrior show", "warrior", actor, warband=WB, warrior="")).choices == []
    assert svc(harness).get_warband(GUILD_A, WB).gold_crowns == 100


async def test_warrior_path_choices_are_reusable_and_guild_scoped(harness):
    @app_commands.command(name="pick", description="pick a stored warrior")
    @app_commands.autocomplete(who=warrior_path_choices)
    async def pick(interaction: discord.Interaction, who: str):
        w = await asyncio.to_thread(interaction.client.campaigns.find_warrior, interaction.guild_id, who)
        await interaction.response.send_message(f"{w.warband}/{w.name} WS{w.profile.WS}")

    harness.tree.add_command(pick)
    await make_warband(harness)
    await recruit(harness, "Otto", role="leader", warrior_type="Captain")
    await recruit(harness, "Ottokar")
    await make_warband(harness, OWNER_IN_B, name="Elsewhere")
    await recruit(harness, "Otto", actor=OWNER_IN_B, warband="Elsewhere", role="leader", warrior_type="Captain")
    res = await harness.autocomplete("pick", "who", OWNER, who="ott")
    assert [c["value"] for c in res.choices] == [f"{WB}/Otto", f"{WB}/Ottokar"]
    res = await harness.autocomplete("pick", "who", OWNER, who="reik/kar")
    assert [c["value"] for c in res.choices] == [f"{WB}/Ottokar"]
    res = await harness.autocomplete("pick", "who", OWNER_IN_B, who="ott")
    assert [c["value"] for c in res.choices] == ["Elsewhere/Otto"]
    used = await harness.command("pick", OWNER, who=f"{WB}/Otto")
    assert used.text == f"{WB}/Otto WS3"


# ---------------------------------------------------------------- delete with a confirm button


async def test_delete_asks_then_only_the_asker_in_that_server_may_confirm(harness):
    await make_warband(harness, gold=40)
    ask = await harness.command("warband delete", OWNER, name=WB)
    mid = ask.message_id
    assert ask.embeds[0]["title"] == f"Delete {WB}?"
    assert [c["custom_id"] for c in harness.messages[mid].components()] == ["confirm:yes", "confirm:no"]
    by_other = await harness.click(mid, "confirm:yes", OTHER)
    assert by_other.is_error and by_other.ephemeral and "Only <@1> can answer this" in by_other.text
    by_admin = await harness.click(mid, "confirm:yes", ADMIN)
    assert by_admin.is_error  # the button is the asker's, even for an admin
    from_b = await harness.click(mid, "confirm:yes", OWNER_IN_B)
    assert from_b.is_error and "another server" in from_b.text
    assert svc(harness).get_warband(GUILD_A, WB)  # still there
    yes = await harness.click(mid, "confirm:yes", OWNER)
    assert not yes.is_error and yes.first.callback_type == 7
    assert yes.embeds[0]["title"] == f"Deleted {WB}"
    assert yes.sent[0].files[0]["filename"] == "reikland-reavers.json"
    assert harness.messages[mid].components() == []
    assert svc(harness).list_warbands(GUILD_A) == []


async def test_delete_confirmed_twice(harness):
    await make_warband(harness)
    first = await harness.command("warband delete", OWNER, name=WB)
    second = await harness.command("warband delete", OWNER, name=WB)
    # the same button pressed twice at once: one deletion, one "already answered"
    both = await asyncio.gather(harness.click(first.message_id, "confirm:yes", OWNER),
                                harness.click(first.message_id, "confirm:yes", OWNER))
    assert sorted(r.is_error for r in both) == [False, True]
    assert "already answered" in next(r for r in both if r.is_error).text
    # the other confirmation, pressed after the warband is gone
    late = await harness.click(second.message_id, "confirm:yes", OWNER)
    assert late.is_error and late.ephemeral and "no warband called 'Reikland Reavers'" in late.text
    assert svc(harness).list_warbands(GUILD_A) == []


async def test_delete_cancel_changes_nothing(harness):
    await make_warband(harness)
    ask = await harness.command("warband delete", OWNER, name=WB)
    no = await harness.click(ask.message_id, "confirm:no", OWNER)
    assert "Cancelled; nothing changed." in no.text
    assert svc(harness).get_warband(GUILD_A, WB)


# ---------------------------------------------------------------- treasury, ledger, undo


def _delta(n: int) -> int:
    return (n % 7) - 3 or 4


async def test_fifty_concurrent_treasury_changes_lose_nothing(harness):
    await make_warband(harness, gold=1000)
    results = await asyncio.gather(*[
        harness.command("warband treasury", OWNER, name=WB, reason=f"change {n}", gold=_delta(n), wyrdstone=n % 2)
        for n in range(50)
    ])
    assert not [r.text for r in results if r.is_error]
    wb = svc(harness).get_warband(GUILD_A, WB)
    assert wb.gold_crowns == 1000 + sum(_delta(n) for n in range(50))
    assert wb.wyrdstone_shards == 25
    assert svc(harness).audit_treasury(GUILD_A, WB).balanced
    assert len(svc(harness).ledger(GUILD_A, WB, limit=100)) == 51


async def test_treasury_refusals_and_log_and_undo(harness):
    await make_warband(harness, gold=10)
    broke = await harness.command("warband treasury", OWNER, name=WB, reason="buy a horse", gold=-40)
    assert broke.is_error and "taking 40 would leave -30" in broke.text
    zero = await harness.command("warband treasury", OWNER, name=WB, reason="nothing")
    assert zero.is_error and "both amounts are 0" in zero.text
    spent = await harness.command("warband treasury", OWNER, name=WB, reason="bought *rope*", gold=-5)
    assert "-5 gc — bought \\*rope\\*" in spent.text
    log = await harness.command("warband log", OTHER, name=WB)
    assert not log.ephemeral and "**treasury** gold crowns: 10 → 5 — bought \\*rope\\*" in log.text
    undo = await harness.command("warband undo", OWNER, name=WB)
    assert not undo.is_error and "undo treasury" in undo.text and "gold crowns: 5 → 10" in undo.text
    assert svc(harness).get_warband(GUILD_A, WB).gold_crowns == 10
    again = await harness.command("warband log", OWNER, name=WB)
    assert "~~" in again.text and "(undone)" in again.text


async def test_the_treasury_shown_plainly_to_anyone_in_the_server(harness):
    await make_warband(harness, gold=10)
    await harness.command("warband treasury", OWNER, name=WB, reason="sold a shard", gold=15, wyrdstone=1)
    await harness.command("warband rename", OWNER, name=WB, new_name=WB + " II")  # not a treasury change: not listed
    shown = await harness.command("warband treasury", OTHER, name=WB + " II")  # only looking: not the owner's alone
    assert not shown.is_error and not shown.ephemeral
    assert "**25 gc** · **1 wyrdstone shard**" in shown.text and "**Stash:** —" in shown.text
    assert "gold crowns: 10 → 25; wyrdstone shards: 0 → 1 — sold a shard" in shown.text and "rename" not in shown.text
    changing = await harness.command("warband treasury", OTHER, name=WB + " II", reason="mine now", gold=-5)
    assert changing.is_error and changing.ephemeral  # changing it stays the owner's
    no_reason = await harness.command("warband treasury", OWNER, name=WB + " II", gold=5)
    assert no_reason.is_error and "Say why the treasury changes" in no_reason.text
    assert svc(harness).get_warband(GUILD_A, WB + " II").gold_crowns == 25


async def test_the_log_and_undo_name_the_warrior_each_change_touched(harness):
    await make_warband(harness)
    await recruit(harness, "Otto", role="leader", warrior_type="Captain")
    await recruit(harness, "Hans", role="hero", warrior_type="Champion")
    await harness.command("warrior xp", OWNER, warband=WB, warrior="Otto", amount=2, reason="won")
    await harness.command("warrior xp", OWNER, warband=WB, warrior="Hans", amount=1, reason="kill")
    log = await harness.command("warband log", OWNER, name=WB)
    assert "**experience** · Hans: experience: 0 → 1" in log.text and "**experience** · Otto: experience: 0 → 2" in log.text
    undo = await harness.command("warband undo", OWNER, name=WB)
    assert "**undo experience** · Hans: experience: 1 → 0" in undo.text
    await harness.command("warrior remove", OWNER, warband=WB, warrior="Hans")  # gone: named by the row that removed him
    log = await harness.command("warband log", OWNER, name=WB)
    assert "**undo experience** · Hans:" in log.text and log.text.count("· Hans:") >= 3


async def test_rename_and_markdown_in_names_is_escaped(harness):
    await make_warband(harness)
    res = await harness.command("warband rename", OWNER, name=WB, new_name="**Grim** _Lads_")
    assert not res.is_error
    assert "\\*\\*Grim\\*\\* \\_Lads\\_" in res.text
    show = await harness.command("warband show", OWNER, name="**grim** _lads_")
    assert show.embeds[0]["title"] == "\\*\\*Grim\\*\\* \\_Lads\\_"


# ---------------------------------------------------------------- warriors and battles


async def test_warrior_commands(harness):
    await make_warband(harness)
    add = await recruit(harness, "Otto", role="leader", warrior_type="Captain", equipment="Sword, Dagger")
    assert add.embeds[0]["title"] == "Recruited: Otto (Leader, Captain)" and not add.ephemeral
    dup = await harness.command("warrior add", OWNER, warband=WB, name="otto", role="hero", warrior_type="Champion", profile=PROFILE)
    assert dup.is_error and "already has a warrior called" in dup.text
    ac = await harness.autocomplete("warrior xp", "warrior", OWNER, warband=WB, warrior="o")
    assert [c["value"] for c in ac.choices] == ["Otto"]
    items = await harness.autocomplete("warrior unequip", "item", OWNER, warband=WB, warrior="Otto", item="da")
    assert [c["value"] for c in items.choices] == ["Dagger"]
    xp = await harness.command("warrior xp", OWNER, warband=WB, warrior="Otto", amount=3, reason="won")
    assert "+3 experience → **3**" in xp.text and "advance" in xp.text
    eq = await harness.command("warrior equip", OWNER, warband=WB, warrior="Otto", item="Pistol")
    assert "Sword, Dagger, Pistol" in eq.text
    un = await harness.command("warrior unequip", OWNER, warband=WB, warrior="Otto", item="dagger")
    assert "**Equipment:** Sword, Pistol" in un.text
    missing = await harness.command("warrior unequip", OWNER, warband=WB, warrior="Otto", item="Halberd")
    assert missing.is_error and "does not carry 'Halberd'" in missing.text
    inj = await harness.command("warrior injure", OWNER, warband=WB, warrior="Otto", injury="Leg wound")
    assert "**Injuries:** Leg wound (−1 M)" in inj.text
    edit = await harness.command("warrior edit", OWNER, warband=WB, warrior="Otto", profile="WS=5 BS=4", status="retired")
    assert "WS" in edit.text and " 3  5  4" in edit.text and "RETIRED" in edit.text
    nothing = await harness.command("warrior edit", OWNER, warband=WB, warrior="Otto")
    assert nothing.is_error and "Nothing to change" in nothing.text
    show = await harness.command("warrior show", OTHER, warband=WB, warrior="otto")
    assert show.embeds[0]["footer"]["text"] == f"{WB}/Otto"
    gone = await harness.command("warrior remove", OWNER, warband=WB, warrior="Otto", reason="left for Marienburg")
    assert "Otto left Reikland Reavers" in gone.text
    assert svc(harness).get_warband(GUILD_A, WB).warriors == ()
    back = await harness.command("warband undo", OWNER, name=WB)
    assert not back.is_error and svc(harness).get_warrior(GUILD_A, WB, "Otto")


async def test_battles(harness):
    await make_warband(harness)
    await recruit(harness, "Marksmen")
    rec = await harness.command("battle record", OWNER, warband=WB, result="win", scenario="Wyrdstone Hunt",
                                opponents="Carrion Crows", date="2024-05-31")
    assert "**WIN** on 2024-05-31 · Wyrdstone Hunt · vs Carrion Crows" in rec.text
    bad = await harness.command("battle record", OWNER, warband=WB, result="loss", date="yesterday")
    assert bad.is_error and "not a date like 2024-05-31" in bad.text
    lst = await harness.command("battle list", OTHER, warband=WB)
    assert "`2024-05-31` **WIN** · Wyrdstone Hunt · vs Carrion Crows" in lst.text
    show = await harness.command("warband show", OTHER, name=WB)
    assert "1 won, 0 lost, 0 drawn" in show.text


# ---------------------------------------------------------------- export and import


async def test_export_import_round_trip_loses_nothing(harness):
    await make_warband(harness, gold=75, notes="Sworn to the Count")
    await recruit(harness, "Otto", role="leader", warrior_type="Captain", equipment="Sword", skills="Mighty Blow", experience=21)
    await recruit(harness, "Marksmen", group_size=2, equipment="Crossbow, Dagger", large=False)
    await harness.command("warrior injure", OWNER, warband=WB, warrior="Otto", injury="Old battle wound")
    await harness.command("battle record", OWNER, warband=WB, result="draw", scenario="Skirmish", date="2024-01-02")
    exp = await harness.command("warband export", OTHER, name=WB)
    assert exp.ephemeral and exp.sent[0].files[0]["filename"] == "reikland-reavers.json"
    blob = harness.messages[exp.message_id].files[0]["content"]
    data = json.loads(blob)
    assert data["format"] == "mordheim-bot/warband" and data["version"] == 3
    # import it into another server: everything comes back, owned by the importer
    imp = await harness.command("warband import", STRANGER_IN_B, file=("reavers.json", blob))
    assert not imp.is_error and not imp.ephemeral and f"Imported {WB}" in imp.text and "<@9>" in imp.text
    again = svc(harness).export_warband(GUILD_B, WB)
    for key in ("warband", "warriors", "battles"):
        assert again[key] == data[key]
    assert svc(harness).get_warband(GUILD_B, WB).owner_id == 9
    # the same file again in the same server: the name is taken, nothing stored
    dup = await harness.command("warband import", STRANGER_IN_B, file=("reavers.json", blob))
    assert dup.is_error and dup.ephemeral and "already has a warband called" in dup.text
    assert len(svc(harness).list_warbands(GUILD_B)) == 1


async def test_import_lists_every_problem_and_stores_nothing(harness):
    await make_warband(harness)
    data = svc(harness).export_warband(GUILD_A, WB)
    data["warband"]["name"] = "Fresh Band"
    data["version"] = 7
    data["warriors"] = [
        {"name": "Brute", "role": "hero", "type": "Ogre", "profile": dict(M=6, WS=3, BS=2, S=4, T=4, W=3, I=3, A=99, Ld=7)},
        {"name": "Nobody", "role": "wizard", "type": "x", "profile": dict(M=4, WS=3, BS=3, S=3, T=3, W=1, I=3, A=1, Ld=7)},
    ]
    res = await harness.command("warband import", OWNER, file=("bad.json", json.dumps(data).encode()))
    assert res.is_error and res.ephemeral
    assert "3 problems; nothing was saved" in res.text
    assert "`version` 7 is not supported" in res.text and "newer bot" in res.text
    assert "warriors[0] (Brute): A is 99" in res.text
    assert "warriors[1] (Nobody): Role `wizard` is not one of" in res.text
    assert [s.name for s in svc(harness).list_warbands(GUILD_A)] == [WB]


async def test_import_many_problems_are_paged_not_cut(harness):
    data = {"format": "mordheim-bot/warband", "version": 1, "warband": {"name": "Many", "type": "Skaven"},
            "warriors": [{"name": f"Rat {n}", "role": "henchmen", "type": "Rat",
                          "profile": dict(M=5, WS=2, BS=2, S=3, T=3, W=1, I=4, A=1, Ld=99)} for n in range(150)]}
    res = await harness.command("warband import", OWNER, file=("rats.json", json.dumps(data).encode()))
    assert res.is_error and res.ephemeral and "150 problems" in res.text
    mid = res.message_id
    seen = res.text
    pages = int(harness.messages[mid].components()[1]["label"].split("/")[1])
    assert pages >= 2
    for _ in range(pages - 1):
        seen += (await harness.click(mid, "page:next", OWNER)).text
    for n in range(150):
        assert f"warriors[{n}] (Rat {n}): Ld is 99" in seen, n
    assert svc(harness).list_warbands(GUILD_A) == []


async def test_import_not_json_and_too_big(harness):
    res = await harness.command("warband import", OWNER, file=("w.json", b"roster: Otto, Marksmen"))
    assert res.is_error and res.ephemeral and "The file is not JSON" in res.text
    big = await harness.command("warband import", OWNER, file=("w.json", b" " * (10 * 1024 * 1024 + 1)))
    assert big.is_error and big.ephemeral and "the limit is 10 MB. It was not read." in big.text
    exactly = await harness.command("warband import", OWNER, file=("w.json", b" " * (10 * 1024 * 1024)))
    assert exactly.is_error and "not JSON" in exactly.text
    assert svc(harness).list_warbands(GUILD_A) == []


async def test_edit_hands_a_warband_to_another_member(harness):
    owner, heir = Actor(user_id=501), Actor(user_id=502)
    await harness.command("warband create", owner, name="Heirloom", warband_type="Reiklanders")
    refused = await harness.command("warband edit", heir, name="Heirloom", notes="mine now")
    assert refused.is_error and refused.ephemeral
    res = await harness.command("warband edit", owner, name="Heirloom", warband_type="Middenheimers", owner="502")
    assert not res.is_error and "now owned by <@502>" in res.text and "Middenheim Mercenaries" in res.text
    assert res.first.data["allowed_mentions"] == {"parse": []}  # named, never pinged
    assert not (await harness.command("warband edit", heir, name="Heirloom", notes="mine now")).is_error
    assert (await harness.command("warband edit", owner, name="Heirloom", notes="back?")).is_error
    nothing = await harness.command("warband edit", heir, name="Heirloom")
    assert nothing.is_error and "Say what to change" in nothing.text


async def test_a_misspelt_list_is_asked_about_not_made_a_custom_warband(harness):
    near = await harness.command("warband create", OWNER, name="Zed", warband_type="Skavn")
    assert near.is_error and near.ephemeral and "close to the Skaven of Clan Eshin list" in near.text
    assert "custom: Skavn" in near.text and svc(harness).list_warbands(GUILD_A) == []
    kept = await harness.command("warband create", OWNER, name="Zed", warband_type="custom: Skavn")
    assert not kept.is_error and "Skavn (custom)" in kept.text
    changed = await harness.command("warband edit", OWNER, name="Zed", warband_type="Reiklandr")
    assert changed.is_error and "close to the Reikland Mercenaries list" in changed.text


def test_ledger_actions_are_said_in_words():
    """Playtest: `/warband log` and `/warband undo` showed codes such as `warrior.hire`, `trade.buy`."""
    from cogs._ui.roster import action_words

    assert action_words("warrior.hire") == "hire" and action_words("trade.buy") == "purchase"
    assert action_words("undo trade.buy") == "undo purchase"
    assert action_words("settings.plain_text") == "setting plain text"  # one not named: spelt out, no code


async def test_a_rolled_injury_shows_its_dice_and_the_advance_its_experience_reaches(harness):
    """Playtest: `/warrior injure injury:roll` answered without the D66, and said nothing of the
    advance Survives against the odds' +1 experience reached."""
    import random

    await make_warband(harness)
    await recruit(harness, "Otto", role="hero", warrior_type="Champion", experience=1)
    harness.bot.rng = random.Random(2)  # its first D66 is 66: Survives against the odds
    res = await harness.command("warrior injure", OWNER, warband=WB, warrior="Otto", injury="roll")
    assert not res.is_error
    text = res.embeds[0]["description"]
    assert text.startswith("🎲 Serious injury: D66 66\n**Survives against the odds**\n+1 experience → **2**.")
    assert "**1 advance** reached (at 2)" in text
    named = await harness.command("warrior injure", OWNER, warband=WB, warrior="Otto", injury="Horrible scars")
    assert "🎲" not in named.embeds[0]["description"] and "**Horrible scars**" in named.embeds[0]["description"]


async def test_multiple_injuries_say_what_each_roll_did(harness):
    """Playtest: `/warrior injure` of Multiple injuries showed its dice but not what each roll did."""
    import random
    import re

    await make_warband(harness)
    await recruit(harness, "Otto", role="hero", warrior_type="Champion", experience=1)
    harness.bot.rng = random.Random(3)
    res = await harness.command("warrior injure", OWNER, warband=WB, warrior="Otto", injury="16")
    assert not res.is_error, res.text
    text = res.embeds[0]["description"]
    more = re.search(r"\*\*Multiple injuries\*\*\n- Multiple injuries: (\d) more rolls?\n", text)
    assert more, text
    rolls = len(re.findall(r"^🎲 Multiple injuries for Otto, roll ", text, re.M))
    bullets = len(re.findall(r"^- ", text, re.M)) - 1  # each roll said in words, the count line aside
    assert rolls >= int(more.group(1)) and bullets == rolls  # a re-rolled Dead is a roll of its own, said so
