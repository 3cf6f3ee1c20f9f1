"""The big database the lead's harness benchmark uses, and autocomplete speed at that scale."""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

from engine.storage import Store
from engine.campaign.service import Campaigns

_spec = importlib.util.spec_from_file_location("bench_storage", Path(__file__).resolve().parents[2] / "bench" / "bench_storage.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def test_build_big_db_and_autocomplete_under_a_millisecond(tmp_path):
    t = time.perf_counter()
    path = bench.build_big_db(tmp_path / "big.db")
    assert time.perf_counter() - t < 20
    with Store.open(path) as store:
        c = Campaigns(store)
        with store.read() as conn:
            assert conn.scalar("SELECT count(*) FROM warbands") == 10_000
            assert conn.scalar("SELECT count(DISTINCT guild_id) FROM warbands") == 1000
        big = c.get_warband(bench.BIG_GUILD, bench.BIG_WARBAND)
        assert len(big.warriors) == 30
        assert c.audit_treasury(bench.BIG_GUILD + 7, bench.warband_name(7)).balanced
        assert len(c.list_warbands(bench.BIG_GUILD + 3)) == 10
        samples = []
        for n in range(200):
            start = time.perf_counter()
            names = c.names_for_autocomplete(bench.BIG_GUILD + n % 1000, "gri", only_changeable_by=(1, n % 2 == 0))
            samples.append(time.perf_counter() - start)
            assert all("gri" in name.lower() for name in names)
        samples.sort()
        assert samples[len(samples) // 2] < 0.001, samples[len(samples) // 2]
