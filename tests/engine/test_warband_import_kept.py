"""An import keeps what the campaign found (the shards of the standings), and can take another name."""

from __future__ import annotations

import random

import pytest

from engine.campaign.service import Campaigns, PostBattle
from engine.errors import InvalidData, MordheimError

from tests.conftest import both_backends
from tests.engine.test_campaign_postbattle import G, OWNER, raiders, settle, through_injuries

pytestmark = both_backends

OTHER_GUILD = G + 1


@pytest.fixture()
def campaigns(open_database):
    store = open_database()
    yield Campaigns(store)
    store.close()


def found_shards(c: Campaigns, guild_id: int, name: str) -> int:
    return next(r.shards_found for r in c.standings(guild_id).rows if r.warband == name)


def a_sequence_that_finds_shards(c: Campaigns) -> None:
    pb = PostBattle(c.store, random.Random(7))
    ids = raiders(c)
    v = settle(pb, pb.apply_experience(G, OWNER, False, *_at_experience(pb, ids)))
    v = pb.explore(G, OWNER, False, v.id, v.version, entered="5 1 3")  # 9: two shards
    pb.finish(G, OWNER, False, v.id, pb.sell(G, OWNER, False, v.id, v.version, 0).version)


def _at_experience(pb: PostBattle, ids: dict[str, int]) -> tuple[int, int]:
    v = through_injuries(pb, ids, {ids["Hans"]: "22", ids["Marksmen"]: "4 4"})
    return v.id, v.version


def test_an_import_keeps_the_shards_found(campaigns):
    a_sequence_that_finds_shards(campaigns)
    assert found_shards(campaigns, G, "Reikland Raiders") == 2
    data = campaigns.export_warband(G, "Reikland Raiders")
    assert data["warband"]["shards_found"] == 2
    campaigns.import_warband(OTHER_GUILD, OWNER, data)
    assert found_shards(campaigns, OTHER_GUILD, "Reikland Raiders") == 2
    # and again: exported from there, imported elsewhere, still 2 (not counted twice, not lost)
    again = campaigns.export_warband(OTHER_GUILD, "Reikland Raiders")
    assert again["warband"]["shards_found"] == 2
    campaigns.import_warband(OTHER_GUILD + 1, OWNER, again)
    assert found_shards(campaigns, OTHER_GUILD + 1, "Reikland Raiders") == 2


def test_shards_found_in_a_file_are_checked(campaigns):
    raiders(campaigns)
    data = campaigns.export_warband(G, "Reikland Raiders")
    data["warband"]["shards_found"] = -3
    problems = campaigns.validate_import(OTHER_GUILD, data)
    assert any("shards found must be 0 to" in p for p in problems)


def test_an_import_under_another_name(campaigns):
    raiders(campaigns)
    data = campaigns.export_warband(G, "Reikland Raiders")
    with pytest.raises(InvalidData, match="already has a warband called 'Reikland Raiders'.*`/warband import name:`"):
        campaigns.import_warband(G, OWNER, data)
    copy = campaigns.import_warband(G, OWNER, data, name="  Raiders of the Second Crossing ")
    assert copy.name == "Raiders of the Second Crossing" and len(copy.warriors) == 4
    assert {w.name for w in campaigns.list_warbands(G)} == {"Reikland Raiders", "Raiders of the Second Crossing"}
    # checked as a new warband's name is: unique on the server (whatever the case), length, mentions
    assert any("already has a warband called" in p for p in campaigns.validate_import(G, data, name="reikland RAIDERS"))
    with pytest.raises(MordheimError, match="64"):
        campaigns.validate_import(G, data, name="x" * 65)
    with pytest.raises(MordheimError):
        campaigns.validate_import(G, data, name="<@123> band")
    assert len(campaigns.list_warbands(G)) == 2


def test_a_version_2_file_still_imports_with_no_shards_found(campaigns):
    raiders(campaigns)
    data = campaigns.export_warband(G, "Reikland Raiders")
    data["version"] = 2
    del data["warband"]["shards_found"]
    campaigns.import_warband(OTHER_GUILD, OWNER, data)
    assert found_shards(campaigns, OTHER_GUILD, "Reikland Raiders") == 0
