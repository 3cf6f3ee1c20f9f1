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


def test_settings_are_kept_in_memory_and_another_processs_change_is_seen_within_a_second(tmp_path, monkeypatch):
    """House rules and edition are read by every roll and fight: from memory, behind a version
    stamp. A change here is seen at once; one written by another process within CHECK_EVERY."""
    from engine.kept import CHECK_EVERY

    now = [1000.0]
    path = tmp_path / "kept.db"
    with Store.open(path) as store, Store.open(path) as other_process:
        here = Settings(store, clock=lambda: now[0])
        there = Settings(other_process)
        assert here.get(1).edition_id == "lrb"
        reads: list[int] = []
        real = store.read
        monkeypatch.setattr(store, "read", lambda: reads.append(1) or real())
        for _ in range(20):
            here.get(1)
        assert reads == []  # from memory
        here.set_house_rules(1, 5, True, {"parry_vs_basic_strength": True})
        assert here.get(1).house_rules == {"parry_vs_basic_strength": True}  # this process's change: at once
        there.set_edition(1, 5, True, "core")
        assert here.get(1).edition_id == "lrb"  # another process's: not yet
        now[0] += CHECK_EVERY
        assert here.get(1).edition_id == "core"
        assert here.get(1).house_rules == {"parry_vs_basic_strength": True}
