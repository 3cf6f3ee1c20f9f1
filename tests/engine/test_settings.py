"""Server settings on a real SQLite file: Manage Server to change, one server never sees another's."""

import pytest

from engine.errors import NotFoundError, PermissionDenied
from engine.settings import Settings
from engine.storage import Store
from engine.campaign.service import Campaigns

GUILD, OTHER_GUILD, ADMIN, STRANGER = 1, 2, 10, 20


@pytest.fixture
def settings(tmp_path):
    with Store.open(tmp_path / "s.db") as store:
        yield Settings(store)


def test_settings_need_manage_server(settings):
    with pytest.raises(PermissionDenied):
        settings.set_edition(GUILD, STRANGER, False, "core")
    assert settings.get(GUILD).edition_id == "lrb"
    assert settings.set_edition(GUILD, ADMIN, True, "core").edition_id == "core"
    assert settings.set_house_rules(GUILD, ADMIN, True, {"critical_cap_per_target": True}).house_rules == {"critical_cap_per_target": True}
    with pytest.raises(NotFoundError):
        settings.set_edition(GUILD, ADMIN, True, "nonsense")
    assert settings.get(OTHER_GUILD).edition_id == "lrb"


def test_house_rules_merge_and_replace(settings):
    settings.set_house_rules(GUILD, ADMIN, True, {"a_rule": True})
    settings.set_house_rules(GUILD, ADMIN, True, {"b_rule": False})
    assert settings.get(GUILD).house_rules == {"a_rule": True, "b_rule": False}
    settings.set_house_rules(GUILD, ADMIN, True, {}, replace=True)
    assert settings.get(GUILD).house_rules == {}


def test_every_change_is_in_the_ledger_and_survives_reopening(tmp_path):
    path = tmp_path / "s.db"
    with Store.open(path) as store:
        Settings(store).set_edition(GUILD, ADMIN, True, "core2")
    with Store.open(path) as store:
        assert Settings(store).get(GUILD).edition_id == "core2"
        with store.read() as c:
            whats = c.column("SELECT what FROM ledger WHERE guild_id = ? AND warband_id IS NULL", (GUILD,))
        assert whats == ["settings.edition"]
        assert Campaigns(store).list_warbands(GUILD) == []
