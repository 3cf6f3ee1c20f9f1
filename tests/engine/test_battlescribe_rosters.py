"""BattleScribe rosters mapped to our lists (engine/campaign/rules/battlescribe.py), the catalogue's
ids checked against our lists, and the upload read safely (rules/roster_file.py). No database."""

from __future__ import annotations

import pytest

from engine.campaign.lists.battlescribe import bundled_ids
from engine.campaign.lists.catalogue import bundled_catalogue
from engine.campaign.rules.battlescribe import read_roster
from engine.campaign.rules.roster_file import MAX_ROSTER_XML, RosterFileError, is_roster_file, parse_roster, roster_xml

from tests.engine.roster_files import (
    CAPTAIN,
    MARKSMAN_MODEL,
    MARKSMEN,
    MARKSMEN_CROSSBOW,
    Sel,
    reavers,
    roster_xml as make_roster,
    rosz,
)

AT = "2024-06-01T12:00:00+00:00"
WITCH_HUNTERS = "65788600-7fa0-eb7c-b1a3-36d0c3c506c6"


def read(data: bytes):
    return read_roster(parse_roster(data), bundled_ids(), bundled_catalogue(), AT)


def test_every_id_maps_to_something_our_lists_have():
    ids = bundled_ids()
    assert ids.problems(bundled_catalogue()) == []
    assert ids.game_system_name == "Mordheim" and len(ids.catalogues) >= 15
    assert sum(map(len, ids.fighters.values())) >= 90 and len(ids.items) >= 100


def test_a_roster_becomes_a_warband_file_of_ours():
    reading = read(rosz(reavers()))
    data = reading.warband_file
    assert (data["format"], data["exported_at"], data["battles"]) == ("mordheim-bot/warband", AT, [])
    assert data["warband"] == {"name": "Reikland Reavers", "type": "Reikland Mercenaries", "list": "reikland", "notes": "",
                               "gold_crowns": 85, "wyrdstone_shards": 2, "stash": ["Lucky charm"]}
    by_name = {w["name"]: w for w in data["warriors"]}
    assert list(by_name) == ["Otto the Bold", "Hans", "Keen Eyes", "Young Karl", "Big Grim"]
    otto = by_name["Otto the Bold"]
    assert otto["profile"] == {"M": 4, "WS": 5, "BS": 4, "S": 3, "T": 3, "W": 1, "I": 4, "A": 1, "Ld": 8}  # +1 WS is in it
    assert otto["skill_lists"] == ["combat", "shooting", "academic", "strength", "speed"]
    assert otto["special_rules"] == ["leader", "military-discipline"] and otto["race"] == "human"
    assert by_name["Keen Eyes"]["equipment"] == ["Crossbow", "Dagger"]  # three crossbows for three marksmen: one each
    assert by_name["Hans"]["equipment"] == ["Dagger", "Dagger"]  # a hero's two daggers stay two
    assert reading.unmapped == ("Otto the Bold (Mercenary Captain): Conch Shell Horn",)


def test_fighter_ids_are_read_per_catalogue():
    # the Witch Hunters catalogue was copied from the Reiklanders one: its captain has the same entry id
    xml = make_roster("Hunters", [Sel("Witch Hunter Captain", CAPTAIN, "model", profile=(4, 4, 4, 3, 3, 1, 4, 1, 8))],
                      catalogue=WITCH_HUNTERS, catalogue_name="Witch Hunters (1a)")
    captain = read(xml).warband_file["warriors"][0]
    assert (captain["type"], captain["fighter_type"]) == ("Witch Hunter Captain", "witch-hunter-captain")


def test_entries_not_in_the_ids_are_found_by_name_or_listed():
    xml = make_roster("Named", [
        Sel("Champion", "aaaa-0000-0000-0001", "model", custom_name="Lutz", profile=(4, 4, 3, 3, 3, 1, 3, 1, 7),
            children=[Sel("Halberd", "aaaa-0000-0000-0002"), Sel("Mighty Blow", "aaaa-0000-0000-0003"),
                      Sel("Fire of Gork", "aaaa-0000-0000-0004", number=2)]),
        Sel("Mercenary Drummer", "aaaa-0000-0000-0005", "model"),
        Sel("Marksmen", MARKSMEN, "unit", children=[Sel("Marksmen", MARKSMAN_MODEL, "model", number=2),
                                                    Sel("Crossbow", MARKSMEN_CROSSBOW, number=2)]),
        Sel("Marksmen", MARKSMEN, "unit", children=[Sel("Marksmen", MARKSMAN_MODEL, "model", number=1)]),
    ])
    reading = read(xml)
    lutz = reading.warband_file["warriors"][0]
    assert (lutz["fighter_type"], lutz["equipment"], lutz["skills"]) == ("champion", ["Halberd"], ["Mighty Blow"])
    assert reading.unmapped == ("Lutz (Champion): Fire of Gork ×2",
                                "Mercenary Drummer (not a fighter of the Reikland Mercenaries list)")
    groups = [w for w in reading.warband_file["warriors"] if w["role"] == "henchmen"]
    assert [(w["name"], w["group_size"]) for w in groups] == [("Marksmen", 2), ("Marksmen 2", 1)]
    # no profile in the roster: the list's, said so; no gold in it: 0 gc, said so
    assert groups[0]["profile"]["BS"] == 4 and any("the list's profile was used" in n for n in reading.notes)
    assert any("no gold" in n for n in reading.notes) and reading.warband_file["warband"]["gold_crowns"] == 0


@pytest.mark.parametrize("name, head, expected", [
    ("Reavers.ROSZ", b"", True), ("r.ros", b"", True), ("r.json", b"PK\x03\x04", True), ("r.json", b"{", False),
])
def test_what_counts_as_a_roster_file(name, head, expected):
    assert is_roster_file(name, head) is expected


def test_the_xml_inside_is_never_read_past_the_limit():
    assert roster_xml(rosz(reavers())) == reavers()
    with pytest.raises(RosterFileError, match="5 MB"):
        roster_xml(rosz(b" " * (MAX_ROSTER_XML + 1)))
