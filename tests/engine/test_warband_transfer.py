"""Export and import of warband files: round trips, and bad files listing every problem."""

from __future__ import annotations

import json

import pytest

from engine.campaign.service import Campaigns
from engine.errors import InvalidData
from engine.campaign.rules.transfer import MAX_IMPORT_BYTES

from tests.conftest import both_backends

pytestmark = both_backends

GUILD, OTHER_GUILD = 5, 6
HUMAN = dict(M=4, WS=3, BS=3, S=3, T=3, W=1, I=3, A=1, Ld=7)


@pytest.fixture
def campaigns(open_database):
    store = open_database()
    c = Campaigns(store)
    c.create_warband(GUILD, 1, "Sisters of the Rock", "Sisters of Sigmar", notes="Line one\nline two",
                     gold_crowns=123, wyrdstone_shards=4)
    c.add_warrior(GUILD, 1, False, "Sisters of the Rock", "Matriarch Ülrike", role="leader", warrior_type="Matriarch",
                  profile={**HUMAN, "Ld": 8}, equipment=["Sigmarite warhammer", "Holy relic"], skills=["Sign of Sigmar"],
                  experience=20)
    c.add_warrior(GUILD, 1, False, "Sisters of the Rock", "Novices", role="henchmen", warrior_type="Novice",
                  profile=HUMAN, group_size=4, equipment=["Hammer"], experience=3)
    c.add_warrior(GUILD, 1, False, "Sisters of the Rock", "Big Friend", role="hero", warrior_type="Ogre",
                  profile={**HUMAN, "W": 3, "T": 4}, large=True)
    c.injure(GUILD, 1, False, "Sisters of the Rock", "Matriarch Ülrike", "Old battle wound")
    c.edit_warrior(GUILD, 1, False, "Sisters of the Rock", "Big Friend", status="retired")
    c.record_battle(GUILD, 1, False, "Sisters of the Rock", result="draw", scenario="Wyrdstone Hunt",
                    opponents="Skaven", fought_on="2024-03-01", notes="close one")
    yield c
    store.close()


def _without_time(data):
    return {k: v for k, v in data.items() if k != "exported_at"}


def test_export_shape(campaigns):
    data = campaigns.export_warband(GUILD, "Sisters of the Rock")
    assert data["format"] == "mordheim-bot/warband" and data["version"] == 3
    assert "guild_id" not in json.dumps(data) and "owner_id" not in json.dumps(data)
    json.dumps(data)  # plain JSON


def test_a_version_1_file_still_imports(campaigns):
    data = campaigns.export_warband(GUILD, "Sisters of the Rock")
    data["version"] = 1
    for key in ("list", "stash"):
        del data["warband"][key]
    for w in data["warriors"]:
        for key in ("fighter_type", "race", "skill_lists", "special_rules", "hand_edits"):
            del w[key]
    wb = campaigns.import_warband(OTHER_GUILD, 99, data)
    assert [w.name for w in wb.warriors] == ["Matriarch Ülrike", "Big Friend", "Novices"]
    assert all(w.fighter_type is None and w.special_rules == () for w in wb.warriors)


def test_round_trip_loses_nothing(campaigns):
    original = campaigns.export_warband(GUILD, "Sisters of the Rock")
    text = json.dumps(original, ensure_ascii=False).encode("utf-8")
    assert campaigns.validate_import(OTHER_GUILD, text) == []
    imported = campaigns.import_warband(OTHER_GUILD, 99, text)
    assert imported.owner_id == 99 and imported.guild_id == OTHER_GUILD
    again = campaigns.export_warband(OTHER_GUILD, "Sisters of the Rock")
    assert _without_time(again) == _without_time(original)
    assert campaigns.audit_treasury(OTHER_GUILD, "Sisters of the Rock").balanced
    # the same file in its own guild clashes by name
    problems = campaigns.validate_import(GUILD, text)
    assert len(problems) == 1 and "already has a warband called 'Sisters of the Rock'" in problems[0]


def test_bad_file_lists_every_problem_and_stores_nothing(campaigns):
    data = campaigns.export_warband(GUILD, "Sisters of the Rock")
    data["format"] = "someone-else/gang"
    data["version"] = 7
    data["warband"]["name"] = "@everyone raiders"
    data["warband"]["gold_crowns"] = -10
    data["warriors"][0]["profile"]["A"] = 99
    data["warriors"][0]["profile"]["WS"] = 11
    by_name = {w["name"]: w for w in data["warriors"]}
    by_name["Novices"]["group_size"] = 9
    by_name["Big Friend"]["name"] = "x" * 65
    data["battles"][0]["result"] = "tie"
    data["colour"] = "red"
    problems = campaigns.validate_import(OTHER_GUILD, data)
    expected = ["`format`", "`version` 7", "@everyone", "gold crowns", "A is 99", "WS is 11", "1 to 5", "limit is 64",
                "tie", "`colour`"]
    for words in expected:
        assert any(words in p for p in problems), (words, problems)
    assert len(problems) == len(expected)
    with pytest.raises(InvalidData) as err:
        campaigns.import_warband(OTHER_GUILD, 2, data)
    assert err.value.problems == problems
    assert "10 problems; nothing was saved" in str(err.value)
    assert campaigns.list_warbands(OTHER_GUILD) == []


@pytest.mark.parametrize(
    "payload, words",
    [
        (b"{not json", "is not JSON"),
        ("[1, 2]", "one JSON object"),
        (b"\xff\xfe\x00", "not UTF-8"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b" " * (MAX_IMPORT_BYTES + 1), "larger than 10 MB"),
        ({"format": "mordheim-bot/warband", "version": 1}, "`warband` is missing"),
    ],
)
def test_unreadable_files(campaigns, payload, words):
    problems = campaigns.validate_import(OTHER_GUILD, payload)
    assert any(words in p for p in problems), problems
    with pytest.raises(InvalidData):
        campaigns.import_warband(OTHER_GUILD, 2, payload)
    assert campaigns.list_warbands(OTHER_GUILD) == []


def test_roster_limits_apply_to_imports(campaigns):
    data = campaigns.export_warband(GUILD, "Sisters of the Rock")
    data["warband"]["name"] = "Too Many"
    data["warriors"].append({**data["warriors"][0], "name": "Second Matriarch"})
    novices = next(w for w in data["warriors"] if w["name"] == "Novices")
    data["warriors"] += [{**novices, "name": f"Novices {n}", "group_size": 5} for n in range(3)]
    problems = campaigns.validate_import(GUILD, data)
    assert any("one leader" in p for p in problems)
    assert any("maximum is 15" in p for p in problems)
