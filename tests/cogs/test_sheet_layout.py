"""The roster sheet's layout, without Discord: experience tracks, text kept inside the page, PDF pages, alt text."""

from __future__ import annotations

import pytest

from cogs._ui.fonts import text_width
from cogs._ui.sheet_layout import (
    ALT_TEXT_LIMIT,
    PAGE_HEIGHT,
    MARGIN,
    WIDTH,
    Box,
    Text,
    alt_text,
    experience_track,
    sheet_layout,
)
from cogs._ui.sheet_pdf import pages
from engine.campaign.rules.campaign_rules import default_rules
from engine.campaign.service import Campaigns

G, OWNER = 5, 6
HUMAN = dict(M=4, WS=3, BS=3, S=3, T=3, W=1, I=3, A=1, Ld=7)


@pytest.fixture
def campaigns(store):
    return Campaigns(store)


def _thirty(c: Campaigns) -> str:
    c.create_warband(G, OWNER, "Thirty", "Skaven")
    for n in range(30):
        role = "leader" if n == 0 else "hero" if n < 6 else "henchmen"
        c.add_warrior(G, OWNER, False, "Thirty", f"Rat with a long name number {n}", role=role, warrior_type="Verminkin",
                      profile=HUMAN, experience=3 * n,
                      equipment=["Sword", "Dagger", "Light armour", "Shield", "Sling", "Rope & hook", "Lantern",
                                 "Warpstone charm", "Blessed water", "Superior blackpowder"])
        if n >= 19:
            c.edit_warrior(G, OWNER, False, "Thirty", f"Rat with a long name number {n}", status="dead")
    return "Thirty"


def test_experience_tracks_follow_the_campaign_tables():
    rules = default_rules()
    hero = experience_track(20, rules.thresholds("hero"))
    assert (hero.boxes, hero.ticked, hero.more) == (90, 20, 0)  # up to the last advance (LRB: 90)
    assert {2, 4, 6, 8, 11, 14, 17, 20, 24, 90} <= hero.thresholds
    henchman = experience_track(5, rules.thresholds("henchmen"))
    assert (henchman.boxes, henchman.ticked, henchman.thresholds) == (14, 5, frozenset({2, 5, 9, 14}))
    veteran = experience_track(120, rules.thresholds("hero"))
    assert (veteran.boxes, veteran.ticked) == (120, 120)
    legend = experience_track(400, rules.thresholds("hero"))
    assert (legend.boxes, legend.ticked, legend.more) == (150, 150, 250)
    assert experience_track(0, ()).boxes == 0


def test_every_text_stays_inside_the_page_and_the_tracks_are_drawn(campaigns):
    sheet = campaigns.show_warband(G, _thirty(campaigns))
    layout = sheet_layout(sheet, where="The Pit")
    texts = [i for b in layout.blocks for i in b.items if isinstance(i, Text)]
    for t in texts:
        if t.align == "left":
            assert t.x + text_width(t.text, t.size, t.bold) <= WIDTH + 0.5, t.text
    assert any(t.text.endswith(" · The Pit") for t in texts)
    heavy = [i for b in layout.blocks for i in b.items if isinstance(i, Box) and i.stroke_width > 1]
    assert heavy  # the advance boxes
    # the dead are listed, not drawn
    assert any(t.text == "DEAD AND RETIRED" for t in texts)
    assert not any(t.text == "Rat with a long name number 25" for t in texts)


def test_pdf_pages_never_overflow_nor_end_on_a_heading(campaigns):
    layout = sheet_layout(campaigns.show_warband(G, _thirty(campaigns)))
    split = pages(layout)
    assert len(split) >= 3
    assert sum(len(p) for p in split) == len(layout.blocks)
    for page in split:
        assert sum(b.height for b in page) <= PAGE_HEIGHT - 2 * MARGIN
        assert not page[-1].keep_with_next


def test_alt_text_fits_discords_limit(campaigns):
    text = alt_text(campaigns.show_warband(G, _thirty(campaigns)))
    assert len(text) <= ALT_TEXT_LIMIT
    assert text.startswith("Roster sheet of Thirty") and "Rat with a long name number 0" in text


def test_the_longest_names_are_fitted_not_spilled(campaigns):
    long = "W" * 64
    campaigns.create_warband(G, OWNER, long, "Custom " + "T" * 56)
    campaigns.add_warrior(G, OWNER, False, long, "M" * 64, role="henchmen", warrior_type="Q" * 64, profile=HUMAN, group_size=5,
                          equipment=["X" * 64] * 10)
    layout = sheet_layout(campaigns.show_warband(G, long), where="S" * 100)
    texts = [i for b in layout.blocks for i in b.items if isinstance(i, Text)]
    for t in texts:
        left = {"left": t.x, "right": t.x - text_width(t.text, t.size, t.bold)}.get(t.align, t.x - text_width(t.text, t.size, t.bold) / 2)
        assert 0 <= left and left + text_width(t.text, t.size, t.bold) <= WIDTH + 0.5, t.text
    heading = [t for t in texts if t.text.startswith("MMM")]
    kind = [t for t in texts if "QQQ" in t.text]
    assert heading and kind and kind[0].x + text_width(kind[0].text, kind[0].size) < WIDTH - text_width("5 models", 8.5)
