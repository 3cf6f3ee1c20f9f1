"""Several processes (on PostgreSQL, several hosts) changing one warband at the same moment: each
read-check-write is whole, so nobody overdraws the treasury or goes past a list's limit."""

from __future__ import annotations

import threading

from engine.campaign.service import Campaigns
from tests.conftest import both_backends

pytestmark = both_backends

G, OWNER = 7, 70


def _at_once(n: int, work) -> list[str]:
    """Run ``work(i)`` in ``n`` threads released together; what each said ('ok' or its refusal)."""
    start = threading.Barrier(n)
    said: list[str] = []

    def run(i: int) -> None:
        start.wait()
        try:
            work(i)
            said.append("ok")
        except Exception as exc:  # noqa: BLE001 - the refusal is what is counted
            said.append(str(exc))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return said


def test_two_hosts_hiring_at_once_stay_within_the_list_and_the_treasury(open_database):
    first = Campaigns(open_database())
    first.create_warband(G, OWNER, "Reavers", "Reiklanders", gold_crowns=180)
    first.hire_fighter(G, OWNER, False, "Reavers", "Mercenary Captain", name="Otto")  # 120 gc left
    hosts = [Campaigns(open_database()), Campaigns(open_database())]  # two pools, as two hosts would have

    # Champions cost 35: the gold pays for three, the Reikland list allows two.
    said = _at_once(8, lambda i: hosts[i % 2].hire_fighter(G, OWNER, False, "Reavers", "Champion", name=f"C{i}"))
    assert said.count("ok") == 2, said
    assert all("at most 2 Champion" in s for s in said if s != "ok"), said
    band = hosts[1].get_warband(G, "Reavers")
    assert band.gold_crowns == 120 - 2 * 35
    assert sum(1 for w in band.warriors if w.warrior_type == "Champion") == 2
    assert hosts[0].audit_treasury(G, "Reavers").balanced


def test_two_hosts_spending_at_once_never_overdraw(open_database):
    first = Campaigns(open_database())
    first.create_warband(G, OWNER, "Reavers", "Reiklanders", gold_crowns=160)
    first.hire_fighter(G, OWNER, False, "Reavers", "Mercenary Captain", name="Otto")  # 100 gc left
    hosts = [Campaigns(open_database()), Campaigns(open_database())]

    said = _at_once(8, lambda i: hosts[i % 2].change_treasury(G, OWNER, False, "Reavers", gold=-30, reason=f"spent {i}"))
    assert said.count("ok") == 3, said
    assert hosts[0].get_warband(G, "Reavers").gold_crowns == 10
    assert hosts[1].audit_treasury(G, "Reavers").balanced
    assert len([e for e in hosts[0].ledger(G, "Reavers", limit=50) if e.reason.startswith("spent")]) == 3
