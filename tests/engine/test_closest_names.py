"""engine/campaign/lists/names.py: the names a "did you mean" offers, and the order an autocomplete offers them in."""

from __future__ import annotations

from engine.campaign.lists.names import Choice, closeness, closest, ranked_choices


def test_did_you_mean_offers_names_like_the_typed_one_and_nothing_when_none_is():
    assert closest(["New Pirates", "Reavers", "Nightmare crew"], "Nope") == []  # 57 against "New": no poor match
    assert closest(["Iron Wolves", "Ratmen of Clan Eshin"], "Iron Wolfs") == ["Iron Wolves"]
    assert closest(["Hardtack biscuits", "Fighting claws", "Sword"], "cutlass") == []
    assert closest(["Otto", "Hans"], "Hnas") == ["Hans"]  # two letters swapped
    assert closest(["AC/DC/Hans", "Iron Wolves/Hans", "Iron Wolves/Otto"], "hans") == ["AC/DC/Hans", "Iron Wolves/Hans"]
    assert closest(["Fifteen Blades", "Five Blades"], "Fiftene Blades")[0] == "Fifteen Blades"
    assert closest(["Günter"], "gunter") == ["Günter"]
    assert closest(["Iron", "Iron Wolves"], "iron w")[0] == "Iron Wolves"  # a start beats a likeness
    assert closeness("halbred", "Halberd") > closeness("halbred", "Hal")


def test_an_autocomplete_ranks_a_name_start_then_other_names_then_words_then_letters_inside():
    rows = [Choice("Undead", ("Vampire",), "Mordheim rulebook (2000)", "U", "Undead"),
            Choice("Pirates", ("Pirate Crew",), "Town Cryer 9", "P", "Pirates"),
            Choice("Dwarf Rangers", ("Dwarf Expedition",), "Nemesis Crown supplement", "D", "Dwarf Rangers"),
            Choice("Skaven of Clan Pestilens", ("Plague Monks",), "Town Cryer 29", "S", "Skaven of Clan Pestilens")]
    assert [c.value for c in ranked_choices(rows, "pir", 25)] == ["Pirates", "Undead"]
    assert [c.value for c in ranked_choices(rows, "plague", 25)] == ["Skaven of Clan Pestilens"]
    assert [c.value for c in ranked_choices(rows, "nemesis crown dwarfs", 25)] == ["Dwarf Rangers"]
    assert [c.value for c in ranked_choices(rows, "", 2)] == ["Undead", "Pirates"]  # the order given
    assert ranked_choices(rows, "crew", 25)[0].value == "Pirates"
