"""BattleScribe roster files for the import tests, written as BattleScribe writes them with the
entry ids of the public BSData "mordheim" catalogue (Mordheim.gst, Reiklanders.cat, data.cat,
Characters.cat). Made up here, entry by entry: no member's roster is copied.

A selection made through a link carries the path of ids ``link::target``; a roster's profile
holds the warrior's figures as the roster builder shows them.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field
from xml.sax.saxutils import quoteattr

GAME_SYSTEM = "9481a749-7900-614b-1695-bdc2899069c1"
WARBAND_FORCE = "7451d7da-3cc0-0299-775b-2f48162a731d"
SWORDS_FORCE = "1f34-e353-569e-f6b9"
REIKLANDERS = "ac1721e2-653d-e279-11e3-ca8ba77b0637"
CHARACTERS = "9bf78c55-7dba-4a44-90ce-10ed57d8b3a1"

# Reiklanders.cat
CAPTAIN = "83acbe09-ec66-c45c-0f5b-1a9e0017016e"
CHAMPION = "83ab8692-01da-65c5-af52-a55d4800f012"
MARKSMEN, MARKSMAN_MODEL = "074d9cc5-ab18-5302-91eb-29f4f9d61bcc", "a67a-04a4-3927-923f"
SWORDSMEN, SWORDSMAN_MODEL = "16763088-15c1-4f72-fdfe-153003be4a24", "9e0d-2280-808d-a44e"
CAPTAIN_KIT = "ff2d-5fb0-bfe5-fe02"  # Starting Equipment (Mercenaries) of the captain
CHAMPION_KIT, CHAMPION_DAGGER = "8c87-64e9-7d82-9719", "490f-ef02-4cfb-d434::64e0-0bb6-542b-4beb"
CHAMPION_XP = "a7d4eb84-400b-29e8-339c-fceebcba1553::f0fc009a-7990-32ef-b84b-b631058620e2"
CAPTAIN_XP = "9e2cb516-6834-4a3e-ec39-9855b3d6ed2d::f0fc009a-7990-32ef-b84b-b631058620e2"
CAPTAIN_COMBAT_MASTER = "2042-6347-75d2-39a1::696f-d860-66f0-bae9"
CAPTAIN_OLD_WOUND = "be99-a65e-a3b6-a053::9f26-11e3-f83b-8172"
CAPTAIN_PLUS_WS = "b9fb-7d10-8a2a-d123::05840d87-e7fc-9f6e-b4be-d98f6ef21d1d::b648a959-c4f1-e4dd-7f0b-7e0e9fcec205"
LEADER = "6cb9-3cb5-0e62-ee09::c392-8a40-3bfc-bdfa"
SWORD = "ac74-31b1-8244-fcd3::34fd-d6a3-50ee-ee06"
DAGGER = "ff41-ba6f-cb04-a6ad::64e0-0bb6-542b-4beb"
FREE_DAGGER = "322b-ebfe-b21b-b1f0::0d0b-ed37-d8b0-4cbf"
LIGHT_ARMOUR = "6c28-c829-29fe-42bd::3d2a-426a-c350-2a03"
MARKSMEN_KIT = "2dd5-d7ad-c8f5-2057"
MARKSMEN_CROSSBOW = "50d0-326a-daf7-82c1::38cc-bc0b-7f19-8039"
MARKSMEN_DAGGER = "bd39-b473-19e6-ec8d::0d0b-ed37-d8b0-4cbf"
MARKSMEN_XP = "6be6-c1a9-3f8f-120e::d769-0d85-e810-df60"
MARKSMEN_PROMOTED = "5ae9-c075-b313-de06::534a-6ec6-5d82-da7f"
# data.cat, taken into every roster
STASH = "c7dd-89a8-1885-0dca"
GOLD = "5b81-7063-e6eb-26f5::deca-5737-6234-23a1"
WYRDSTONE = "f95c-20be-5155-4da7::60f8-e6e7-c2ea-0dad"
LUCKY_CHARM = "c6ad-c870-3b34-fe79::dc31-0d77-4ab1-91b9::60ae-a4c2-1143-3c1d::bfc4-571c-be36-e56f"
GRADE, GRADE_1A = "dcca-5cc8-9459-d4f4", "ed29-abf9-056d-41b4"
# Characters.cat
OGRE_BODYGUARD = "8fd5-ddfa-f4a1-717a"
OGRE_AXE = "d80b-5909-ebf3-d074::0860-fcb5-9459-23f7"
OGRE_XP = "56de-59ff-8284-7663::d769-0d85-e810-df60"

CHARACTERISTICS = ("M", "WS", "BS", "S", "T", "W", "I", "A", "LD")
PROFILE_TYPE = "e1beaa44-e54d-dd6b-d1f2-446b333c9bb9"


@dataclass
class Sel:
    """One selection of a roster."""

    name: str
    entry: str
    kind: str = "upgrade"  # model, unit or upgrade
    number: int = 1
    custom_name: str | None = None
    profile: tuple[int, ...] | None = None  # M WS BS S T W I A Ld
    children: list[Sel] = field(default_factory=list)
    gc: int = 0

    def xml(self, n: list[int]) -> str:
        n[0] += 1
        attrs = (f'id="sel-{n[0]:04d}" name={quoteattr(self.name)} entryId="{self.entry}" number="{self.number}" '
                 f'type="{self.kind}"' + (f" customName={quoteattr(self.custom_name)}" if self.custom_name else ""))
        parts = [f"<selection {attrs}>"]
        if self.profile is not None:
            chars = "".join(f'<characteristic name="{c}" typeId="c-{c}">{v}</characteristic>'
                            for c, v in zip(CHARACTERISTICS, self.profile))
            parts.append(f'<profiles><profile id="p-{n[0]}" name={quoteattr(self.name)} hidden="false" typeId="{PROFILE_TYPE}" '
                         f'typeName="Model"><characteristics>{chars}</characteristics></profile></profiles>')
        if self.children:
            parts.append("<selections>" + "".join(c.xml(n) for c in self.children) + "</selections>")
        parts.append(f'<costs><cost name=" gc" typeId="points" value="{self.gc}.0"/></costs></selection>')
        return "".join(parts)


def roster_xml(name: str, warband: list[Sel], swords: list[Sel] = (), *, game_system: str = GAME_SYSTEM,
               game_system_name: str = "Mordheim", catalogue: str = REIKLANDERS,
               catalogue_name: str = "Reiklanders (1a)") -> bytes:
    n = [0]
    forces = [f'<force id="f-1" name="Warband" entryId="{WARBAND_FORCE}" catalogueId="{catalogue}" catalogueRevision="10" '
              f'catalogueName={quoteattr(catalogue_name)}><selections>{"".join(s.xml(n) for s in warband)}</selections></force>']
    if swords:
        forces.append(f'<force id="f-2" name="Hired Swords and Dramatis Personae" entryId="{SWORDS_FORCE}" '
                      f'catalogueId="{CHARACTERS}" catalogueRevision="9" catalogueName="Characters">'
                      f'<selections>{"".join(s.xml(n) for s in swords)}</selections></force>')
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<roster id="r-1" name={quoteattr(name)} battleScribeVersion="2.03" gameSystemId="{game_system}" '
            f'gameSystemName={quoteattr(game_system_name)} gameSystemRevision="16" '
            'xmlns="http://www.battlescribe.net/schema/rosterSchema">'
            '<costs><cost name=" gc" typeId="points" value="500.0"/></costs>'
            '<costLimits><costLimit name=" gc" typeId="points" value="500.0"/></costLimits>'
            f'<forces>{"".join(forces)}</forces></roster>').encode("utf-8")


def rosz(xml: bytes, member: str = "Reikland Reavers.ros") -> bytes:
    """The .rosz BattleScribe saves: a zip holding the .ros."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, xml)
    return out.getvalue()


def reavers(*, gold: int = 85, shards: int = 2, with_sword: bool = True, extra: list[Sel] = ()) -> bytes:
    """A typical Reikland roster: a captain with kit, skill, injury and an advance, a champion, a
    henchman group of three, a promoted marksman, the stash with gold, shards and a lucky charm,
    an Ogre Bodyguard, one entry our lists do not have, and the grade."""
    captain = Sel("Mercenary Captain", CAPTAIN, "model", custom_name="Otto the Bold", profile=(4, 5, 4, 3, 3, 1, 4, 1, 8), gc=60,
                  children=[Sel("Experience", CAPTAIN_XP, number=23),
                            Sel("Leader", LEADER),
                            Sel("Starting Equipment (Mercenaries)", CAPTAIN_KIT, children=[
                                Sel("Sword", SWORD), Sel("Free Dagger", FREE_DAGGER), Sel("Light Armour", LIGHT_ARMOUR)]),
                            Sel("Combat Master", CAPTAIN_COMBAT_MASTER),
                            Sel("Old Battle Wound", CAPTAIN_OLD_WOUND),
                            Sel("+1 WS", CAPTAIN_PLUS_WS),
                            Sel("Conch Shell Horn", "0bee-4a29-a689-9abc")])
    champion = Sel("Champion", CHAMPION, "model", custom_name="Hans", profile=(4, 4, 3, 3, 3, 1, 3, 1, 7), gc=35,
                   children=[Sel("Experience", CHAMPION_XP, number=8), Sel("Starting Equipment (Mercenaries)", CHAMPION_KIT, children=[
                       Sel("Dagger", CHAMPION_DAGGER, number=2)])])
    marksmen = Sel("Marksmen", MARKSMEN, "unit", custom_name="Keen Eyes", children=[
        Sel("Marksmen", MARKSMAN_MODEL, "model", number=3, profile=(4, 3, 4, 3, 3, 1, 3, 1, 7)),
        Sel("Starting Equipment (Marksmen)", MARKSMEN_KIT, children=[
            Sel("Crossbow", MARKSMEN_CROSSBOW, number=3), Sel("Free Dagger", MARKSMEN_DAGGER, number=3)]),
        Sel("Experience", MARKSMEN_XP, number=2)])
    promoted = Sel("Marksmen", MARKSMEN, "unit", custom_name="Young Karl", children=[
        Sel("Marksmen", MARKSMAN_MODEL, "model", number=1, profile=(4, 3, 4, 3, 3, 1, 3, 1, 7)),
        Sel("Promoted", MARKSMEN_PROMOTED), Sel("Experience", MARKSMEN_XP, number=7)])
    stash = Sel("Stash", STASH, children=[Sel("Gold", GOLD, number=gold), Sel("Wyrdstone", WYRDSTONE, number=shards),
                                          Sel("Lucky Charm", LUCKY_CHARM)])
    grade = Sel("Grade", GRADE, children=[Sel("1a", GRADE_1A)])
    warband = [captain, champion, marksmen, promoted, stash, grade, *extra]
    ogre = Sel("Ogre Bodyguard (1a)", OGRE_BODYGUARD, "model", custom_name="Big Grim", profile=(6, 3, 2, 4, 4, 3, 3, 2, 7),
               children=[Sel("Experience", OGRE_XP, number=5), Sel("Axe", OGRE_AXE)])
    return roster_xml("Reikland Reavers", warband, [ogre] if with_sword else [])
