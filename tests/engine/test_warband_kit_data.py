"""The kit fields of the warband data (issue 16): variants, made-as weapons, packages, list dice and
multiples, list limits and starting skills load as objects, and a misspelt id in any of them fails
loudly at load; kit names typed by players resolve to them."""

from __future__ import annotations

import copy

import pytest

from engine.campaign.lists.catalogue import (
    LimitKind,
    bundled_catalogue,
    cross_reference_problems,
    read_bundled_files,
    validate_house_list,
)
from engine.campaign.rules.kit_names import find_piece, piece_or_refusal, split_names
from engine.errors import MordheimError, NotFoundError

CATALOGUE = bundled_catalogue()


def _files_with(path: str, change) -> dict:
    files = read_bundled_files()
    kind, data = files[path]
    data = copy.deepcopy(data)
    change(data)
    files[path] = (kind, data)
    return files


def _item(data: dict, item_id: str) -> dict:
    return next(i for i in data["items"] if i["id"] == item_id)


def test_the_kit_fields_load():
    assert CATALOGUE.items["club"].family == "hammer" and CATALOGUE.items["hammer"].family == "hammer"
    gromril = CATALOGUE.items["gromril-weapon"]
    assert gromril.made_as is not None and gromril.made_as.multiple == 4 and gromril.price_text() == "4 × the weapon's price"
    assert CATALOGUE.items["ithilmar-weapon"].made_as.multiple == 3
    blade = CATALOGUE.items["dark-elf-blade"]
    assert blade.price_text() == "the weapon's price + 20 gc" and blade.made_as.weapons == ("sword", "dagger")
    assert [i.id for i in CATALOGUE.items["orc-style"].contents] == ["helmet", "dagger", "axe", "shield"]
    assert CATALOGUE.items["tentacle"].later_multiple == 2
    dark_elf = CATALOGUE.warbands["dark-elves"].fighter("Beastmaster").equipment_list
    assert dark_elf.listed("beastlash").price_dice == "d6"
    dwarf = CATALOGUE.warbands["dwarf-treasure-hunters"].fighter("Dwarf Noble").equipment_list
    assert dwarf.listed("gromril-weapon").multiple == 3
    reikland = CATALOGUE.warbands["reikland"].fighter("Warrior").equipment_list
    assert reikland.listed("club") is None and reikland.listed_as(CATALOGUE.items["club"]).price == 3
    assert CATALOGUE.warbands["carnival-of-chaos"].fighter("Brutes").skills == ("Strongman",)
    orcs = CATALOGUE.warbands["orc-mob"].limits
    assert [(lim.kind, lim.fighters, lim.times) for lim in orcs] == [(LimitKind.TIMES, ("goblin-warriors",), 2)]


@pytest.mark.parametrize(("path", "change", "problem"), [
    ("items.json", lambda d: _item(d, "club").update(variant_of="hamer"), "variant_of 'hamer' is not an item"),
    ("items.json", lambda d: _item(d, "club").update(variant_of="mace"), "must name the weapon itself"),
    ("lists/dark-elves.json", lambda d: _item(d, "dark-elf-blade")["made_as"].update(weapons=["swrod"]),
     "made_as names 'swrod', which is not an item"),
    ("lists/dark-elves.json", lambda d: _item(d, "dark-elf-blade")["made_as"].update(weapons=["bow"]),
     "'bow', which is not a plain close-combat weapon"),
    ("lists/pit-fighters.json", lambda d: _item(d, "orc-style").update(contents=["helmet", "axxe"]),
     "the package names 'axxe', which is not an item"),
    ("lists/pit-fighters.json", lambda d: _item(d, "orc-style").update(contents=["undead-style"]),
     "another package"),
    ("lists/orc-mob.json", lambda d: d["limits"][0].update(of=["orc-boss", "orc-boys"]),
     "of names 'orc-boys', which is not a fighter of this list"),
    ("lists/pirates.json", lambda d: d["limits"][0].update(items=["swivel-gunn"]), "items names 'swivel-gunn', which is not an item"),
    ("lists/cult-of-the-possessed.json", lambda d: d["limits"][0].update(item_kind="mutaton"), "'mutaton' is not an item kind"),
    ("lists/kislevites.json", lambda d: d["limits"][0].update(kind="only-whit"), "'only-whit' is not a limit kind"),
    ("lists/carnival-of-chaos.json", lambda d: next(f for f in d["fighters"] if f["id"] == "brutes").update(skills=["Strongmen"]),
     "skill 'Strongmen' is on no skill list"),
    ("lists/dark-elves.json",
     lambda d: next(r for e in d["equipment_lists"] for r in e["items"] if r["item"] == "beastlash").update(price_dice="2d7"),
     "price_dice: '2d7' is not a dice amount"),
    ("lists/reikland.json", lambda d: d["equipment_lists"][0]["items"][1].update(multiple=3), "a list multiple means nothing for it"),
])
def test_a_misspelt_kit_id_fails_at_load(path, change, problem):
    problems = cross_reference_problems(_files_with(path, change))
    assert any(problem in p and p.startswith(path) for p in problems), problems


def test_a_house_list_gets_the_kit_checks_too():
    data = copy.deepcopy(read_bundled_files()["lists/kislevites.json"][1])
    data["limits"][0]["of"] = ["bear-tammer"]
    next(f for f in data["fighters"] if f["id"] == "esaul")["skills"] = ["Strongman"]  # a common skill: fine
    problems = validate_house_list(data, CATALOGUE)
    assert problems == ["limits[0] (only-with): of names 'bear-tammer', which is not a fighter of this list; use one of: "
                        "bear-tamer, cossacks, druzhina-captain, esaul, streltsi, trained-bear, warriors, youths"]


def test_names_typed_at_once_and_made_up_names():
    assert split_names(" sword, dagger;shield , Skink style (Javelins, Net) ") == ["sword", "dagger", "shield",
                                                                                  "Skink style (Javelins, Net)"]
    assert split_names(" , ") == []
    with pytest.raises(MordheimError, match="at most 10"):
        split_names(",".join(["dagger"] * 11))
    assert find_piece(CATALOGUE, "gromril DOUBLE-HANDED weapon").name == "Gromril double-handed weapon"
    assert find_piece(CATALOGUE, "Witch Elf style (spear & net)").name == "Witch Elf style (Spear and net)"
    assert find_piece(CATALOGUE, "Skink style") is None  # it needs its options
    assert find_piece(CATALOGUE, "Dark Elf axe") is None  # a Dark Elf blade is a sword or a dagger
    with pytest.raises(NotFoundError):
        piece_or_refusal(CATALOGUE, "sowrd")
