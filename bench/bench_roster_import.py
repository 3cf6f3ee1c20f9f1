"""/warband import of a typical BattleScribe .rosz (its preview: read, unzipped, parsed, mapped and
checked, nothing stored), as a ratio to the trivial /echo measured in the same run.

The roster is tests/engine/roster_files.py's: a captain with kit, a skill, an injury and an
advance, a champion, a group of three marksmen, a promoted marksman, the stash and a hired sword.
Issue 18 sets no target; the line is there to see what reading a roster costs.

Run: ``python bench/run.py roster``
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import echo, line, new_harness, ratio  # noqa: E402
from bot.harness import Actor  # noqa: E402
from engine.campaign.lists.battlescribe import bundled_ids  # noqa: E402
from engine.campaign.lists.catalogue import bundled_catalogue  # noqa: E402
from engine.campaign.rules.battlescribe import read_roster  # noqa: E402
from engine.campaign.rules.roster_file import parse_roster  # noqa: E402
from tests.engine.roster_files import reavers, rosz  # noqa: E402


async def main() -> dict[str, float]:
    started = time.perf_counter()
    data = rosz(reavers())
    actor = Actor(user_id=1, guild_id=77)
    async with new_harness(Path(tempfile.mkdtemp(prefix="mordheim-bench-")) / "bench.db") as h:
        async def preview_call():
            res = await h.command("warband import", actor, file=("reavers.rosz", data))
            assert not res.is_error, res.text
            return res

        def read_and_map():
            return read_roster(parse_roster(data), bundled_ids(), bundled_catalogue(), "2024-01-01T00:00:00")

        reference = echo(h, actor)
        print(f"ratios to /echo through the same harness (median of batches), a .rosz of {len(data):,} bytes:")
        figures = {}
        for label, fn, sync in (("/warband import of a .rosz (the preview)", preview_call, False),
                                ("  reading and mapping it alone (no Discord, no database)", read_and_map, True)):
            r, t_s, ref_s = await ratio(fn, reference, batches=9, per_batch=20, sync_target=sync)
            figures[label] = r
            print(line(label, r))
            print(f"  {'':58} {t_s * 1e3:8.2f} ms vs /echo {ref_s * 1e3:.2f} ms")
    print(f"total {time.perf_counter() - started:.1f} s")
    return figures


if __name__ == "__main__":
    asyncio.run(main())
