"""Warband storage at scale: build a big database quickly, then time the calls the cog makes.

``build_big_db(path)`` bulk-inserts 1,000 servers holding 10,000 warbands (one of them with
30 warriors) through the real schema, with a ledger row per warband so the treasury audit
holds. Run as a script to time get_warband, show_warband and autocomplete at that scale:

    python bench/bench_storage.py [--keep PATH]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import smoke  # noqa: E402
from engine.storage import Store  # noqa: E402
from engine.campaign.service import Campaigns  # noqa: E402
from engine.campaign.rules.validation import name_key  # noqa: E402

BIG_GUILD = 100_000_000_000_000_000  # snowflake-sized ids
BIG_WARBAND = "The Big Band"
BIG_OWNER = 4242
# the smoke pass (bench/common.py): a few servers and warbands, the big one as big as ever
SERVERS, WARBANDS = smoke(1000, 10), smoke(10_000, 100)
_ADJECTIVES = ["Iron", "Black", "Grim", "Red", "Silent", "Howling", "Golden", "Rotten", "Pale", "Wild"]
_NOUNS = ["Wolves", "Rats", "Blades", "Lanterns", "Hammers", "Crows", "Saints", "Skulls", "Hounds", "Knives"]
PROFILE = dict(m=4, ws=3, bs=3, s=3, t=3, w=1, i=3, a=1, ld=7)


def warband_name(n: int) -> str:
    return f"{_ADJECTIVES[n % 10]} {_NOUNS[(n // 10) % 10]} {n}"


def build_big_db(path, servers: int = SERVERS, warbands: int = WARBANDS, warriors_in_one: int = 30) -> Path:
    """Create (replacing) a database at ``path``: ``warbands`` spread over ``servers`` guilds.

    Warband 0 is ``BIG_WARBAND`` in guild ``BIG_GUILD``, owned by ``BIG_OWNER``, with
    ``warriors_in_one`` warriors (1 leader, 5 heroes, the rest henchman groups). Returns the path.
    """
    path = Path(path)
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    at = "2025-01-01T00:00:00+00:00"
    with Store.open(path) as store, store.write() as c:
        rows, ledger = [], []
        for n in range(warbands):
            guild = BIG_GUILD + n % servers
            name = BIG_WARBAND if n == 0 else warband_name(n)
            owner = BIG_OWNER if n == 0 else 1000 + n % 37
            gold = (n * 7) % 500
            rows.append((n + 1, guild, owner, name, name_key(name), "Reikland", "", gold, 0, at, at))
            after = {"name": name, "type": "Reikland", "owner_id": owner, "notes": "", "gold_crowns": gold, "wyrdstone_shards": 0}
            ledger.append((guild, n + 1, name, "warband.create", "warband", n + 1, json.dumps(after), owner, at))
        c.executemany(
            "INSERT INTO warbands (id, guild_id, owner_id, name, name_key, warband_type, notes, gold_crowns, "
            "wyrdstone_shards, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)
        warriors = []
        for k in range(warriors_in_one):
            role = "leader" if k == 0 else "hero" if k < 6 else "henchmen"
            warriors.append((BIG_GUILD, 1, f"Warrior {k}", f"warrior {k}", role, "Mercenary", 1,
                             *PROFILE.values(), json.dumps(["Sword", "Dagger"]), "[]", "[]", k, at, at))
        c.executemany(
            "INSERT INTO warriors (guild_id, warband_id, name, name_key, role, warrior_type, group_size, "
            "m, ws, bs, s, t, w, i, a, ld, equipment, skills, injuries, experience, created_at, updated_at) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", warriors)
        c.executemany(
            "INSERT INTO ledger (guild_id, warband_id, warband_name, what, entity, entity_id, after_json, member_id, created_at) "
            "VALUES (?,?,?,?,?,?,?,?,?)", ledger)
        c.execute("UPDATE ledger SET batch_id = id")  # each creation is a member action of its own
    with Store.open(path) as store:
        store.db.execute("ANALYZE")
    return path


def _time(fn, repeat: int = 2000) -> tuple[float, float]:
    """(median, 99th percentile) in microseconds."""
    samples = []
    for _ in range(smoke(repeat, 3)):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1e6)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.99)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="build the database here and keep it")
    args = parser.parse_args([] if argv is None else argv)  # bench/run.py calls main() with its own argv about
    folder = None if args.keep else tempfile.TemporaryDirectory()
    path = args.keep or Path(folder.name) / "big.db"
    t = time.perf_counter()
    build_big_db(path)
    print(f"build_big_db: {SERVERS:,} servers, {WARBANDS:,} warbands, 30 warriors in one: {time.perf_counter() - t:.2f} s")
    with Store.open(path) as store:
        c = Campaigns(store)
        assert len(c.get_warband(BIG_GUILD, BIG_WARBAND).warriors) == 30
        cases = {
            "get_warband (30 warriors)": lambda: c.get_warband(BIG_GUILD, BIG_WARBAND),
            "show_warband (rating, advances)": lambda: c.show_warband(BIG_GUILD, BIG_WARBAND),
            "get_warband (small)": lambda: c.get_warband(BIG_GUILD + 5, warband_name(5)),
            "get_warrior": lambda: c.get_warrior(BIG_GUILD, BIG_WARBAND, "Warrior 17"),
            "names_for_autocomplete ''": lambda: c.names_for_autocomplete(BIG_GUILD, ""),
            "names_for_autocomplete 'gri'": lambda: c.names_for_autocomplete(BIG_GUILD + 2, "gri"),
            "names_for_autocomplete 'wol' (substring)": lambda: c.names_for_autocomplete(BIG_GUILD + 3, "wol"),
            "names_for_autocomplete owner-only": lambda: c.names_for_autocomplete(BIG_GUILD, "", only_changeable_by=(BIG_OWNER, False)),
            "find_warrior 'Warrior 3'": lambda: c.find_warrior(BIG_GUILD, "Warrior 3"),
        }
        print(f"{'call':45} {'median µs':>10} {'p99 µs':>10}")
        for label, fn in cases.items():
            median, p99 = _time(fn)
            print(f"{label:45} {median:10.0f} {p99:10.0f}")
        plan = store.db.execute(  # the names autocomplete keeps, read when the server's ledger moved
            "EXPLAIN QUERY PLAN SELECT name_key, name FROM warbands WHERE guild_id = ? AND owner_id = ? ORDER BY name_key",
            (BIG_GUILD, BIG_OWNER)).fetchall()
        print("autocomplete plan (its names read again after a change):", "; ".join(row[-1] for row in plan))
    if folder:
        folder.cleanup()


if __name__ == "__main__":
    main(sys.argv[1:])
