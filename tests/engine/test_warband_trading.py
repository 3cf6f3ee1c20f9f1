"""The trading post's engine on real SQLite files: searches against the 2D6 odds, and two connections
(two bot processes on one file) buying for one warband at once."""

from __future__ import annotations

import random
import threading

import pytest

from engine.campaign.service import Campaigns
from engine.campaign.actions.trading import search_modifiers

from tests.conftest import both_backends

pytestmark = both_backends

G, OWNER = 5, 50


@pytest.fixture
def reavers(store):
    c = Campaigns(store)
    c.create_warband(G, OWNER, "Reavers", "Reiklanders")
    c.hire_fighter(G, OWNER, False, "Reavers", "Mercenary Captain", name="Otto")
    return c


def test_searches_succeed_as_often_as_2d6_says(reavers):
    """Against Rare 8 with no modifier, 2D6 >= 8 is 15/36; 1,200 seeded searches land within 4 sigma."""
    rng = random.Random(2024)
    n, found = 1200, 0
    for _ in range(n):
        reavers.record_battle(G, OWNER, False, "Reavers", result="win")  # one search per hero per battle
        found += reavers.search(G, OWNER, False, "Reavers", "Otto", "Crimson shade", rng).found
    p = 15 / 36
    assert abs(found - n * p) < 4 * (n * p * (1 - p)) ** 0.5


def test_the_warbands_own_rules_add_to_every_heros_search(store):
    c = Campaigns(store)
    c.create_warband(G, OWNER, "Traders", "Marienburgers")
    jan = c.hire_fighter(G, OWNER, False, "Traders", "Champion", name="Jan").warrior
    catalogue = c.catalogue(G)
    assert search_modifiers(catalogue, catalogue.warbands["marienburg"], jan) == [("Traders", 1)]
    assert search_modifiers(catalogue, catalogue.warbands["reikland"], jan) == []


def test_two_connections_buying_at_once_cannot_overspend(open_database):
    """Two processes (on PostgreSQL: two hosts) sharing one database: each check-and-spend is whole
    (SQLite's BEGIN IMMEDIATE; PostgreSQL's lock on the server's turn)."""
    c = Campaigns(open_database())
    c.create_warband(G, OWNER, "Reavers", "Reiklanders", gold_crowns=160)
    c.hire_fighter(G, OWNER, False, "Reavers", "Mercenary Captain", name="Otto")  # 100 gc left
    stores = [open_database() for _ in range(2)]
    services = [Campaigns(s) for s in stores]
    start = threading.Barrier(8)
    outcomes: list[str] = []

    def buy(n: int) -> None:
        start.wait()
        try:
            services[n % 2].buy(G, OWNER, False, "Reavers", "Brace of pistols", warrior="Otto")
            outcomes.append("bought")
        except Exception as exc:  # noqa: BLE001 - the refusal is what is counted
            outcomes.append(str(exc))

    threads = [threading.Thread(target=buy, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count("bought") == 3
    assert all("20 gc missing" in o for o in outcomes if o != "bought")
    wb = services[0].get_warband(G, "Reavers")
    assert wb.gold_crowns == 10 and wb.warriors[0].equipment.count("Brace of pistols") == 3
    assert services[1].audit_treasury(G, "Reavers").balanced
