"""/warband import of BattleScribe and NewRecruit rosters through the harness: preview, confirm,
cancel, another member's press, and every bad file refused privately with nothing stored; and
``name:``, for rosters and our own files alike."""

from __future__ import annotations

import io
import json
import zipfile

from bot.harness import Actor

from tests.conftest import both_backends
from tests.engine.roster_files import REIKLANDERS, Sel, reavers, roster_xml, rosz

pytestmark = both_backends

GUILD_A, GUILD_B = 111, 222
OWNER = Actor(user_id=1, guild_id=GUILD_A)
OTHER = Actor(user_id=2, guild_id=GUILD_A)
OWNER_IN_B = Actor(user_id=1, guild_id=GUILD_B)
WB = "Reikland Reavers"


def svc(h):
    return h.bot.campaigns


async def preview(h, data: bytes, filename: str = "reavers.rosz", actor: Actor = OWNER, **options):
    res = await h.command("warband import", actor, file=(filename, data), **options)
    assert not res.is_error, res.text
    return res


async def test_preview_then_confirm_stores_the_warband(harness):
    ask = await preview(harness, rosz(reavers()))
    assert not ask.ephemeral and ask.embeds[0]["title"] == f"Import {WB}?"
    text = ask.text
    assert "Reikland Mercenaries" in text and "5 warrior entries" in text and "Nothing is stored until you confirm" in text
    assert "**Otto the Bold** — Mercenary Captain (leader), 23 xp · Sword, Dagger, Light armour · Combat Master · Old battle wound" in text
    assert "**Keen Eyes** — 3 × Marksman, 2 xp · Crossbow, Dagger" in text
    assert "**Big Grim** — Ogre Bodyguard (hired sword), 5 xp · Axe" in text
    assert "85 gc, 2 shards; stash: Lucky charm" in text
    assert "1 entry of the roster cannot be imported" in text and "Otto the Bold (Mercenary Captain): Conch Shell Horn" in text
    assert svc(harness).list_warbands(GUILD_A) == []  # nothing yet
    mid = ask.message_id
    assert [c["custom_id"] for c in harness.messages[mid].components()] == ["confirm:yes", "confirm:no"]
    by_other = await harness.click(mid, "confirm:yes", OTHER)
    assert by_other.is_error and by_other.ephemeral and "Only <@1> can answer this" in by_other.text
    from_b = await harness.click(mid, "confirm:yes", OWNER_IN_B)
    assert from_b.is_error and from_b.ephemeral and "another server" in from_b.text
    assert svc(harness).list_warbands(GUILD_A) == []
    yes = await harness.click(mid, "confirm:yes", OWNER)
    assert not yes.is_error and yes.embeds[0]["title"] == f"Imported {WB} from a BattleScribe roster"
    assert harness.messages[mid].components() == []
    wb = svc(harness).get_warband(GUILD_A, WB)
    assert (wb.owner_id, wb.list_id, wb.gold_crowns, wb.wyrdstone_shards, wb.stash) == (1, "reikland", 85, 2, ("Lucky charm",))
    got = {w.name: w for w in wb.warriors}
    otto = got["Otto the Bold"]
    assert (otto.role, otto.fighter_type, otto.experience, otto.profile.WS) == ("leader", "mercenary-captain", 23, 5)
    assert otto.equipment == ("Sword", "Dagger", "Light armour") and otto.skills == ("Combat Master",)
    assert otto.injuries == ("Old battle wound",)
    assert (got["Keen Eyes"].role, got["Keen Eyes"].group_size, got["Keen Eyes"].equipment) == ("henchmen", 3, ("Crossbow", "Dagger"))
    assert (got["Young Karl"].role, got["Young Karl"].warrior_type) == ("hero", "Marksman")
    assert got["Hans"].equipment == ("Dagger", "Dagger")
    assert (got["Big Grim"].role, got["Big Grim"].fighter_type) == ("hired_sword", "ogre-bodyguard")
    log = await harness.command("warband log", OWNER, name=WB)
    assert "imported from a BattleScribe roster" in log.text
    assert svc(harness).list_warbands(GUILD_B) == []  # one server's import is not seen in another


async def test_cancel_stores_nothing(harness):
    ask = await preview(harness, rosz(reavers()))
    no = await harness.click(ask.message_id, "confirm:no", OWNER)
    assert "Cancelled; nothing changed." in no.text
    assert svc(harness).list_warbands(GUILD_A) == []


async def test_a_ros_file_and_another_name(harness):
    ask = await preview(harness, reavers(), "reavers.ros", name="Second Reavers")
    assert ask.embeds[0]["title"] == "Import Second Reavers?"
    await harness.click(ask.message_id, "confirm:yes", OWNER)
    assert [s.name for s in svc(harness).list_warbands(GUILD_A)] == ["Second Reavers"]
    # the roster's own name is free, the new name is taken: refused privately, saying how to fix it
    taken = await harness.command("warband import", OWNER, file=("reavers.rosz", rosz(reavers())), name="second REAVERS")
    assert taken.is_error and taken.ephemeral and "already has a warband called" in taken.text
    assert "`/warband import name:`" in taken.text
    bad_name = await harness.command("warband import", OWNER, file=("reavers.rosz", rosz(reavers())), name="x" * 70)
    assert bad_name.is_error and bad_name.ephemeral and "the limit is 64" in bad_name.text
    assert len(svc(harness).list_warbands(GUILD_A)) == 1


async def test_our_own_file_under_another_name(harness):
    await harness.command("warband create", OWNER, name=WB, warband_type="Reiklanders")
    blob = json.dumps(svc(harness).export_warband(GUILD_A, WB)).encode()
    same = await harness.command("warband import", OWNER, file=("w.json", blob))
    assert same.is_error and same.ephemeral and "`/warband import name:`" in same.text
    res = await harness.command("warband import", OWNER, file=("w.json", blob), name="Reavers Again")
    assert not res.is_error and "Imported Reavers Again" in res.text
    assert sorted(s.name for s in svc(harness).list_warbands(GUILD_A)) == ["Reavers Again", WB]


async def test_a_name_taken_between_preview_and_confirm(harness):
    ask = await preview(harness, rosz(reavers()))
    await harness.command("warband create", OWNER, name=WB, warband_type="Reiklanders")
    yes = await harness.click(ask.message_id, "confirm:yes", OWNER)
    assert "The roster was not imported" in yes.text and "already has a warband called" in yes.text
    assert len(svc(harness).list_warbands(GUILD_A)) == 1


async def test_a_long_roster_comes_whole_as_a_file_beside_the_preview(harness):
    many = [Sel(f"Odd trinket number {n}", f"0000-0000-0000-{n:04d}") for n in range(120)]
    ask = await preview(harness, rosz(reavers(extra=many)))
    assert ask.sent[0].files and ask.sent[0].files[0]["filename"] == "roster-preview.txt"
    whole = harness.messages[ask.message_id].files[0]["content"].decode()
    assert all(f"Odd trinket number {n} (not a fighter of the Reikland Mercenaries list)" in whole for n in range(120))


# ---------------------------------------------------------------- bad files


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def _lying_zip(actual: bytes, declared: int) -> bytes:
    """A zip whose headers say its member unpacks to ``declared`` bytes."""
    blob = bytearray(_zip({"r.ros": actual}))
    local = blob.find(b"PK\x03\x04")
    central = blob.find(b"PK\x01\x02")
    blob[local + 22:local + 26] = declared.to_bytes(4, "little")
    blob[central + 24:central + 28] = declared.to_bytes(4, "little")
    return bytes(blob)


BILLION_LAUGHS = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
                  + b"".join(f'<!ENTITY lol{n} "{("&lol" + (str(n - 1) if n > 1 else "") + ";") * 10}">'.encode()
                             for n in range(1, 10))
                  + b']><roster xmlns="http://www.battlescribe.net/schema/rosterSchema">&lol9;</roster>')
EXTERNAL_ENTITY = (b'<?xml version="1.0"?><!DOCTYPE roster [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
                   b'<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="&xxe;"/>')
BAD_FILES = [
    ("another game", "army.rosz", rosz(roster_xml("Strike Force", [], game_system="28ec-711c-d87f-3aeb",
                                                  game_system_name="Warhammer 40,000 9th Edition")),
     "made for Warhammer 40,000 9th Edition, not Mordheim"),
    ("a warband we have no list for", "w.rosz",
     rosz(roster_xml("Odd", [], catalogue="dead-beef-0000-0000", catalogue_name="Lizardmen of Old")),
     "('Lizardmen of Old') is none of this server's warband lists"),
    ("a broken zip", "w.rosz", b"PK\x03\x04" + b"\x00" * 200, "is a broken zip"),
    ("two rosters in one zip", "w.rosz", _zip({"a.ros": reavers(), "b.ros": reavers()}), "holds 2 files"),
    ("no roster in the zip", "w.rosz", _zip({"notes.txt": b"hello"}), "holds `notes.txt`, not a .ros roster"),
    ("a billion laughs", "w.ros", BILLION_LAUGHS, "declares a document type or entities"),
    ("an external entity", "w.ros", EXTERNAL_ENTITY, "declares a document type or entities"),
    ("not XML", "w.ros", b"Otto, Hans and the marksmen", "not well-formed XML"),
    ("XML but no roster", "w.ros", b'<catalogue xmlns="x"/>', "not a BattleScribe roster"),
    ("over 1 MB", "w.rosz", b"PK\x03\x04" + b"\x00" * (1024 * 1024), "the limit is 1 MB. It was not read"),
    ("over 5 MB unzipped", "w.rosz", _zip({"r.ros": b" " * (5 * 1024 * 1024 + 1)}), "the limit is 5 MB. It was not unpacked"),
    ("a zip that says it is small", "w.rosz", _lying_zip(b" " * (6 * 1024 * 1024), 100), "is a broken zip"),
]


async def test_bad_files_are_refused_privately_and_nothing_is_stored(harness):
    for what, filename, data, says in BAD_FILES:
        res = await harness.command("warband import", OWNER, file=(filename, data))
        assert res.is_error and res.ephemeral, what
        assert says in res.text, (what, res.text)
        assert res.first.data.get("allowed_mentions") == {"parse": []}, what
    assert svc(harness).list_warbands(GUILD_A) == []


async def test_a_roster_in_a_folder_of_its_zip_and_one_renamed(harness):
    inside = await preview(harness, _zip({"rosters/Reikland Reavers.ros": reavers()}))
    assert inside.embeds[0]["title"] == f"Import {WB}?"
    renamed = await preview(harness, rosz(reavers()), "reavers.json")
    assert renamed.embeds[0]["title"] == f"Import {WB}?"
    assert REIKLANDERS  # the roster is of the Reiklanders catalogue
    assert svc(harness).list_warbands(GUILD_A) == []
