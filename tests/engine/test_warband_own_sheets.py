"""A member's own warbands across servers (for direct messages): only theirs, every server, checked again."""

from __future__ import annotations

import pytest

from engine.campaign.model import OwnedWarband
from engine.campaign.service import Campaigns
from engine.errors import MordheimError, NotFoundError

from tests.conftest import both_backends

pytestmark = both_backends

A, B, C = 111, 222, 333
ANNA, BORIS = 1, 2


@pytest.fixture
def campaigns(open_database):
    store = open_database()
    c = Campaigns(store)
    c.create_warband(A, ANNA, "Iron Wolves", "Reikland")
    c.create_warband(B, ANNA, "Grey Wolves", "Middenheimers")
    c.create_warband(C, ANNA, "Iron Wolves", "Skaven")
    c.create_warband(A, BORIS, "Wolf Pack", "Skaven")
    c.create_warband(B, BORIS, "Boris Band", "Skaven")
    yield c
    store.close()


def test_a_member_sees_their_own_warbands_of_every_server_and_no_one_elses(campaigns):
    mine = campaigns.own_warbands(ANNA)
    assert [(w.guild_id, w.name) for w in mine] == [(B, "Grey Wolves"), (A, "Iron Wolves"), (C, "Iron Wolves")]  # by name, then server
    assert mine[0].warband_type == "Middenheim Mercenaries"
    # names starting with what is typed first, then names containing it
    assert [(w.guild_id, w.name) for w in campaigns.own_warbands(ANNA, "wolves")] == [(B, "Grey Wolves"), (A, "Iron Wolves"),
                                                                                       (C, "Iron Wolves")]
    assert [w.name for w in campaigns.own_warbands(ANNA, "i")] == ["Iron Wolves", "Iron Wolves"]
    assert [w.name for w in campaigns.own_warbands(ANNA, "IRON")] == ["Iron Wolves", "Iron Wolves"]
    assert [w.name for w in campaigns.own_warbands(BORIS, "w")] == ["Wolf Pack"]
    assert campaigns.own_warbands(99) == []
    assert len(campaigns.own_warbands(ANNA, limit=2)) == 2


def test_the_sheet_of_ones_own_warband_from_any_server(campaigns):
    owned, sheet = campaigns.own_warband_sheet(ANNA, "grey wolves")
    assert owned == OwnedWarband(B, "Grey Wolves", "Middenheim Mercenaries")
    assert sheet.warband.name == "Grey Wolves" and sheet.warband.guild_id == B and sheet.warband.owner_id == ANNA
    owned, sheet = campaigns.own_warband_sheet(ANNA, "Iron Wolves", guild_id=C)
    assert sheet.warband.guild_id == C and sheet.warband.warband_type == "Skaven" or "Clan" in sheet.warband.warband_type
    assert campaigns.show_warband(C, "Iron Wolves") is sheet  # the same sheet /warband show keeps


def test_another_members_warband_is_never_reached_nor_named(campaigns):
    for name, guild in (("Wolf Pack", None), ("Wolf Pack", A), ("Boris Band", B), ("Grey Wolves", A)):
        with pytest.raises(NotFoundError) as refused:
            campaigns.own_warband_sheet(ANNA, name, guild_id=guild)
        assert "You own no warband called" in str(refused.value)
        assert "Wolf Pack" not in refused.value.suggestions and "Boris Band" not in refused.value.suggestions
    with pytest.raises(NotFoundError) as none:
        campaigns.own_warband_sheet(99, "Wolf Pack")
    assert none.value.suggestions == [] and "you own none yet" in str(none.value)


def test_one_name_in_two_servers_must_be_picked(campaigns):
    with pytest.raises(MordheimError, match="in 2 servers"):
        campaigns.own_warband_sheet(ANNA, "Iron Wolves")
    with pytest.raises(MordheimError, match="Name the warband"):
        campaigns.own_warband_sheet(ANNA, "  ")
