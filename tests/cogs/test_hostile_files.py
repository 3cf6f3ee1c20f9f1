"""Files a member uploads (a warband to import, a house list, campaign tables) holding numbers the
bot cannot use: each is refused with the file's problem list, privately, with nothing stored and
nothing logged as a bug (issue 19 §3)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from bot.harness import ADMIN_PERMISSIONS, Actor

REPO = Path(__file__).resolve().parents[2]
GUILD = 931
ADMIN = Actor(user_id=3, guild_id=GUILD, permissions=ADMIN_PERMISSIONS)
LONG_NUMBER = "9" * 5000  # past Python's 4,300-digit limit on reading an integer


def no_bug_logged(caplog) -> None:
    bugs = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bugs, [r.getMessage() for r in bugs]


def warband_file(gold: str) -> bytes:
    text = json.dumps({"format": "mordheim-bot/warband", "version": 2,
                       "warband": {"name": "Numbers", "type": "Reiklanders", "gold_crowns": "@"}, "warriors": []})
    return text.replace('"@"', gold).encode()


@pytest.mark.parametrize("number, said", [
    (LONG_NUMBER, "a whole number 5,000 digits long; numbers here have at most 30 digits"),
    ("-" + LONG_NUMBER, "a whole number 5,000 digits long"),
    ("9" * 31, "a whole number 31 digits long"),
    ("NaN", "holds `NaN`, which is not a number JSON allows"),
    ("-Infinity", "holds `-Infinity`"),
    ("1e999", "Gold crowns must be a whole number, not `inf`"),
    ("9" * 30, "gold crowns must be 0 to 1,000,000, not " + "9" * 30),
])
async def test_an_import_with_a_number_it_cannot_use_lists_the_problem(harness, caplog, number, said):
    with caplog.at_level(logging.INFO):
        res = await harness.command("warband import", ADMIN, file=("numbers.json", warband_file(number)))
    assert res.is_error and res.ephemeral and "The file was not imported" in res.text
    assert said in res.text and "went wrong" not in res.text
    assert harness.bot.campaigns.list_warbands(GUILD) == []
    no_bug_logged(caplog)


async def test_a_house_list_with_a_long_number_is_refused(harness, caplog):
    data = json.loads((REPO / "rules_data" / "warbands" / "lists" / "reikland.json").read_text(encoding="utf-8"))
    data.update(id="numbers", name="Numbers", starting_gold="@")
    body = json.dumps(data).replace('"@"', LONG_NUMBER).encode()
    with caplog.at_level(logging.INFO):
        res = await harness.command("admin warbands", ADMIN, file=("list.json", body))
    assert res.is_error and res.ephemeral and "The warband list was not saved" in res.text
    assert "5,000 digits long" in res.text
    assert harness.bot.campaigns.lists(GUILD).house == ()
    no_bug_logged(caplog)


def advances_with(option: dict) -> bytes:
    tables = json.loads((REPO / "rules_data" / "campaign" / "lrb.json").read_text(encoding="utf-8"))
    roll = next(r for r in tables["hero_advances"]["results"] if r["kind"] == "roll")
    roll["options"][0].update(option)
    return json.dumps({"hero_advances": tables["hero_advances"]}).encode()


@pytest.mark.parametrize("body", [
    b'{"max_warriors": ' + LONG_NUMBER.encode() + b"}",
    advances_with({"from": 1.0}),          # was read as a D6 face, then broke range()
    # a D6 face of -10**18 once made the check list every number up to it: gigabytes, then the host's
    # memory killer. Now refused before any range is built.
    advances_with({"from": -10**18}),
])
async def test_campaign_tables_with_numbers_out_of_reason_are_refused(harness, caplog, body):
    with caplog.at_level(logging.INFO):
        res = await harness.command("admin campaign", ADMIN, file=("campaign.json", body))
    assert res.is_error and res.ephemeral and "nothing was saved" in res.text and "went wrong" not in res.text
    assert harness.bot.campaigns.campaign_override(GUILD) == {}
    no_bug_logged(caplog)
