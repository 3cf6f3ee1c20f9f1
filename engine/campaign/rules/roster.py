"""What a warband list allows a roster: sizes, numbers of each type, what each warrior may carry,
what it is worth, and everything a roster breaks.

Pure functions of a warband list (``engine.campaign.lists.catalogue.WarbandList``, or None for a custom
type), the server's campaign tables and the warriors; hiring, trading, the roster sheet and
``/warband check`` all ask the same questions here. Figures come from the lists
(rules_data/warbands/, their sources named there) and the campaign tables (rules_data/campaign/).

Decisions where the rules leave room (LRB = Living Rulebook 2005; not in the seeds, which hold
no campaign chapters, seeds/INVENTORY.md section 1):
- Hired swords count towards neither the warband's maximum size nor its heroes, nor the size
  that sets the price of wyrdstone on the income chart, and carry only the kit they come with.
  Source: the opening of the Hired Swords chapter, which leaves them out of all three: LRB
  p. 105 (in the contents at seed 000:88; its text is not in the seeds), as transcribed at
  mordheimer.net/docs/campaigns/hired-swords, and the same chapter of the 1999 rulebook, as
  transcribed at redelf.narod.ru/mordheim/rules/mor_27_hs.html. The two agree (the income
  chart's columns count "warriors in the warband", which hired swords are not), so ``models`` is
  the one count of the warband's size: its maximum and the post-battle income chart use it.
- A hero held captive (serious injury 61) is away from the warband: he does not fight, and the
  rating and the income chart's size leave him out. But he keeps his place on the roster until
  he is ransomed, exchanged or sold: the limits (the warband's maximum size, its heroes, his
  type's list maximum, its leader) count him, so hiring while he is away cannot leave the roster
  over a limit when he returns (``on_roster``; issue 16: "the hero still counts for size").
- A list's ``max_heroes`` and ``max_warriors`` govern warbands of that list; the campaign
  tables' ``max_heroes`` and ``max_warband_size`` govern custom types.
- The Halfling cookbook adds +1 to the maximum when a living hero carries it, except for
  Undead and the Carnival of Chaos (seed 000:1475).
- Heroes may carry miscellaneous trading-post items that their equipment list lacks; weapons
  and armour must be on the list; henchmen carry only their list's items (LRB Trading).
- A list that sells a hammer, mace, club or staff sells all four at its price: they are one
  weapon (seed 000:921, "Hammer, staff, mace or club"); the warrior keeps the name he bought by.
- The items of a priced package on a warrior's list (a Pit Fighters' fighting style) are his to
  carry, also bought one by one at the Trading Post price (BSData's Pit Fighters note).
- A weapon of a special metal ('Gromril axe') may be carried by whoever may carry the weapon it is
  made as (000:1054: "a normal weapon of its kind"); it is worth its list row's multiple of the
  weapon's list price where his list sells it (the Dwarfs' 3), else the trading post's (gromril 4,
  000:1054; ithilmar 3, 000:1060) of the weapon's trading-post price, plus any fixed part.
- The limits a list counts across fighter types (list_limits.py) stop a hire that would break
  them and are reported by the roster check; they do not stop a roster's other changes (a Bear
  Tamer's death stands, and the check then says the Bear may not stay).
- A warrior from a list starts with his type's experience and skills (the Brutes' Strongman); the
  check reports one below his type's starting experience, and never judges a starting skill.
- Every other skill is judged as skill_rules.py does for the advance menus: a skill of a list he
  does not learn from (any warband's), a name on no list, a skill its own limits bar him from (the
  leader only, spellcasters only...). Hand edits are allowed and marked; this check then flags them.
  A hired sword's skills are judged only by those limits: his own rules let him learn skills of no list.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.campaign.rules import list_limits, skill_rules, succession
from engine.campaign.rules.campaign_rules import CampaignRules
from engine.campaign.lists.catalogue import Catalogue, FighterType, HiredSword, Item, SkillList, SpecialRule, WarbandList, lookup_key
from engine.campaign.model import Warrior, WarriorCost
from engine.campaign.rules.kit_names import KitPiece, find_piece
from engine.campaign.rules.validation import CHARACTERISTICS, name_key

DAGGER = "dagger"  # every warrior's first dagger is free (each list prices it with that note)

# Stored item names repeat across every warrior and every sheet: compare each one's key once.
key_of = lru_cache(maxsize=8192)(lookup_key)


# ------------------------------------------------------------------ finding things by name

_item_indexes: dict[int, tuple[Catalogue, dict[str, Item]]] = {}
_index_lock = threading.Lock()


_SAME_IN_PLURAL = ("s", "men", "skaven", "folk", "undead", "possessed", "kin", "fish")


def counted_name(name: str, n: int) -> str:
    """A fighter type's name after a count: "1 Champion", "2 Champions", "3 Swordsmen", "2 Dire Wolves".
    A name the same in the plural ("Black Skaven") or already plural is kept as the list writes it."""
    low = name.lower()
    if n == 1 or not name or low.endswith(_SAME_IN_PLURAL) or not name[-1].isalpha():
        return name
    if low.endswith("man"):
        return name[:-3] + name[-3:-2] + "en"
    if low.endswith("wolf"):
        return name[:-1] + "ves"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return name[:-1] + "ies"
    if low.endswith(("ch", "sh", "x")):
        return name + "es"
    return name + "s"


def find_item(catalogue: Catalogue, name: str) -> Item | None:
    """The item a stored name means (id, name or alias, as ``Catalogue.item``), or None.

    Roster sheets read every item of every warrior, so this is a dictionary look-up, without
    the closest-name search ``Catalogue.item`` does for a name it cannot find.
    """
    entry = _item_indexes.get(id(catalogue))
    if entry is None or entry[0] is not catalogue:
        index: dict[str, Item] = {}
        for item in catalogue.items.values():
            for key in (item.id, item.name, *item.aliases):
                index.setdefault(lookup_key(key), item)
        with _index_lock:
            if len(_item_indexes) > 64:
                _item_indexes.clear()
            _item_indexes[id(catalogue)] = entry = (catalogue, index)
    return entry[1].get(key_of(name))


def find_carried(catalogue: Catalogue, name: str) -> KitPiece | None:
    """What a carried name is: an item (``find_item``, the quick way), or a made-up name such as 'Gromril axe'."""
    item = find_item(catalogue, name)
    return KitPiece(item=item) if item is not None else find_piece(catalogue, name)


def fighter_of(wlist: WarbandList | None, warrior: Warrior) -> FighterType | None:
    """The list entry a warrior was hired from (None: made by hand, a hired sword, or no list)."""
    if wlist is None or warrior.fighter_type is None or warrior.is_hired_sword:
        return None
    return wlist.fighter_by_id(warrior.fighter_type)


def sword_of(catalogue: Catalogue, warrior: Warrior) -> HiredSword | None:
    """The hired sword or Dramatis Persona a hired warrior was hired as (None: not one, or made by hand)."""
    if not warrior.is_hired_sword or warrior.fighter_type is None:
        return None
    return catalogue.hireling(warrior.fighter_type)


# ------------------------------------------------------------------ counting

def active(warriors: Iterable[Warrior]) -> list[Warrior]:
    return [w for w in warriors if w.status == "active"]


def on_roster(warriors: Iterable[Warrior]) -> list[Warrior]:
    """Who holds a place on the roster for its limits: the active and the captives (see the decisions above)."""
    return [w for w in warriors if w.holds_place]


def places(warriors: Iterable[Warrior]) -> int:
    """The warband's size against its maximum: ``models``, with any captive's place kept."""
    return sum(w.group_size for w in on_roster(warriors) if not w.is_hired_sword)


def hero_places(warriors: Iterable[Warrior]) -> int:
    """The heroes against the list's maximum, a captive's place kept."""
    return sum(1 for w in on_roster(warriors) if w.is_hero)


def models(warriors: Iterable[Warrior]) -> int:
    """The warband's size: every living model, each henchman of a group, no hired swords (see the
    decisions above). Its maximum and the income chart's column both count this."""
    return sum(w.group_size for w in active(warriors) if not w.is_hired_sword)


def heroes(warriors: Iterable[Warrior]) -> list[Warrior]:
    return [w for w in active(warriors) if w.is_hero]


def models_of(warriors: Iterable[Warrior], fighter_id: str) -> int:
    """Models of one fighter type against the list's limits, a captive's place kept."""
    return sum(w.group_size for w in on_roster(warriors) if w.fighter_type == fighter_id and not w.is_hired_sword)


def max_heroes(rules: CampaignRules, wlist: WarbandList | None) -> int:
    return wlist.max_heroes if wlist is not None else rules.max_heroes


@dataclass(frozen=True, kw_only=True)
class SizeLimit:
    maximum: int
    reasons: tuple[str, ...]  # how it is reached, e.g. ('15 for Reikland Mercenaries', '+1 Halfling cookbook (000:1475)')

    def __str__(self) -> str:
        return maximum_in_words(self.maximum, self.reasons)


def maximum_in_words(maximum: int, reasons: Sequence[str]) -> str:
    """"15 for Reikland Mercenaries" when the list's own figure is the whole story, else the sum:
    "16 (15 for Reikland Mercenaries, +1 Halfling cookbook (000:1475))"."""
    if len(reasons) == 1 and reasons[0].startswith(f"{maximum}"):
        return reasons[0]
    return f"{maximum} ({', '.join(reasons)})" if reasons else f"{maximum}"


def size_limit(rules: CampaignRules, wlist: WarbandList | None, warband_type: str, warriors: Iterable[Warrior]) -> SizeLimit:
    """The most models the warband may have, and how that number is reached."""
    if wlist is not None:
        maximum = wlist.max_warriors
        reasons = [f"{maximum} for {wlist.name}"]
        for rule in wlist.special_rules:
            bonus = rule.effects.get("max_warriors", 0)
            if bonus:
                maximum += bonus
                reasons.append(f"{bonus:+d} {rule.name}")
        excluded = {wlist.id.replace("-", " "), key_of(wlist.name), *map(key_of, wlist.aliases)}
    else:
        maximum = rules.max_warband_size
        reasons = [f"{maximum}, the default for a custom warband"]
        excluded = {name_key(warband_type)}
    book = key_of(rules.cookbook_item)
    has_book = any(book == key_of(e) for w in heroes(warriors) for e in w.equipment)
    if has_book and not excluded & set(rules.cookbook_excluded_types):
        # seed 000:1475: a Halfling cookbook raises the maximum by +1 (not Undead or Carnival of Chaos)
        maximum += rules.cookbook_bonus
        reasons.append(f"+{rules.cookbook_bonus} {rules.cookbook_item} (000:1475)")
    return SizeLimit(maximum=maximum, reasons=tuple(reasons))


# ------------------------------------------------------------------ limits a roster keeps

def limit_problems(
    rules: CampaignRules, wlist: WarbandList | None, warband_type: str, warriors: Sequence[Warrior]
) -> list[str]:
    """The warband-wide limits a roster breaks: leaders, heroes, size, numbers of each type, group sizes."""
    problems: list[str] = []
    living = on_roster(warriors)  # a captive keeps his place
    leaders = [w.name for w in living if w.role == "leader"]
    if len(leaders) > 1:
        problems.append(f"A warband has one leader; this one would have {len(leaders)} ({', '.join(leaders)}).")
    hero_count, hero_max = hero_places(living), max_heroes(rules, wlist)
    if hero_count > hero_max:
        problems.append(f"A warband has at most {hero_max} heroes, leader included; this one would have {hero_count}.")
    limit = size_limit(rules, wlist, warband_type, living)
    count = places(living)
    if count > limit.maximum:
        problems.append(f"The warband would have {count} warriors; its maximum is {limit}.")
    for w in living:
        if w.role == "henchmen" and w.group_size > rules.max_henchman_group_size:
            problems.append(f"{w.name}: a henchman group has 1 to {rules.max_henchman_group_size} warriors, not {w.group_size}.")
    if wlist is not None:
        for fighter in wlist.fighters:
            n = models_of(living, fighter.id)
            if fighter.maximum is not None and n > fighter.maximum:
                problems.append(f"The {wlist.name} list allows at most {fighter.maximum} {counted_name(fighter.name, fighter.maximum)}; "
                                f"this warband would have {n}.")
            if fighter.no_more_than and n:
                other = next((f for f in wlist.fighters if f.id == fighter.no_more_than), None)
                cap = models_of(living, fighter.no_more_than)
                if other is not None and n > cap:
                    problems.append(f"The {wlist.name} list allows no more {fighter.name} than {other.name}; "
                                    f"this warband would have {n} against {cap}.")
    return problems


def hire_problems(
    rules: CampaignRules, wlist: WarbandList, warband_name: str, warriors: Sequence[Warrior], fighter: FighterType,
    count: int, *, joining: Warrior | None = None,
) -> list[str]:
    """Why ``count`` models of ``fighter`` cannot be hired (every reason, each citing its limit); [] when they can."""
    problems: list[str] = []
    living = on_roster(warriors)  # a captive keeps his place
    if fighter.role == "henchman":
        size = count + (joining.group_size if joining else 0)
        if size > rules.max_henchman_group_size:
            what = f"{joining.name} has {joining.group_size}; {count} more would make {size}" if joining else f"not {count}"
            problems.append(f"A henchman group has 1 to {rules.max_henchman_group_size} warriors ({what}).")
    elif count != 1:
        problems.append(f"Heroes are hired one at a time: {fighter.name} is a {fighter.role}.")
    if fighter.role == "leader":
        refusal = succession.hire_refusal(wlist, warriors, fighter.id)
        leader = next((w.name for w in living if w.role == "leader"), None)
        if refusal:
            problems.append(refusal)
        elif leader and succession.steps_down(wlist, living, fighter.id) is None:
            problems.append(f"{warband_name} already has a leader ({leader}); a warband has one.")
    if fighter.is_hero:
        hero_count, hero_max = hero_places(living), max_heroes(rules, wlist)
        if hero_count + 1 > hero_max:
            problems.append(f"{warband_name} already has {hero_count} heroes, the most a {wlist.name} warband may have "
                            f"({hero_max}, leader included).")
    n = models_of(living, fighter.id)
    if fighter.maximum is not None and n + count > fighter.maximum:
        problems.append(f"The {wlist.name} list allows at most {fighter.maximum} {counted_name(fighter.name, fighter.maximum)}; "
                        f"{warband_name} has {n}"
                        + (f", so {fighter.maximum - n} more at most." if n < fighter.maximum else "."))
    if fighter.no_more_than:
        other = next((f for f in wlist.fighters if f.id == fighter.no_more_than), None)
        cap = models_of(living, fighter.no_more_than)
        if other is not None and n + count > cap:
            problems.append(f"The {wlist.name} list allows no more {fighter.name} than {other.name}: "
                            f"{warband_name} has {cap} {other.name} and {n} {fighter.name}.")
    limit = size_limit(rules, wlist, wlist.name, living)
    now = places(living)
    if now + count > limit.maximum:
        problems.append(f"{warband_name} has {now} warriors; {count} more would make {now + count}, over its maximum "
                        f"of {limit}.")
    if wlist.limits:
        problems += list_limits.hire_problems(wlist, list_limits.model_counts(living), fighter, count, warband_name)
    return problems


@dataclass(frozen=True, kw_only=True)
class HireOption:
    fighter: FighterType
    room: int  # how many more may be hired now (0: none)
    why_not: str  # the limit in the way when room is 0


def hire_options(rules: CampaignRules, wlist: WarbandList, warriors: Sequence[Warrior]) -> list[HireOption]:
    """Every fighter type of the list with how many more the warband may hire (limits only, not gold)."""
    living = on_roster(warriors)  # a captive keeps his place
    size_room = size_limit(rules, wlist, wlist.name, living).maximum - places(living)
    hero_room = max_heroes(rules, wlist) - hero_places(living)
    has_leader = any(w.role == "leader" for w in living)
    leader_barred = succession.hire_refusal(wlist, warriors, wlist.leader.id) is not None
    leader_returns = succession.steps_down(wlist, living, wlist.leader.id) is not None  # a new Vampire takes command back
    counts = list_limits.model_counts(living) if wlist.limits else None
    options = []
    for fighter in wlist.fighters:
        n = models_of(living, fighter.id)
        limits = [(size_room, "the warband is full")]
        if fighter.maximum is not None:
            limits.append((fighter.maximum - n, f"the list allows {fighter.maximum}"))
        if fighter.is_hero:  # hired one at a time, but the room is every slot still open (hire_problems counts one)
            limits.append((hero_room, f"{max_heroes(rules, wlist)} heroes already"))
        if fighter.role == "leader" and leader_barred:
            limits.append((0, "its leader is gone: no new one may be hired (LRB p. 78)"))
        elif fighter.role == "leader" and has_leader and not leader_returns:
            limits.append((0, "it has a leader"))
        if fighter.no_more_than:
            limits.append((models_of(living, fighter.no_more_than) - n, "no more than " + fighter.no_more_than.replace("-", " ")))
        if counts is not None:
            limits += list_limits.room(wlist, counts, fighter)
        room, why = min(limits, key=lambda lim: lim[0])
        options.append(HireOption(fighter=fighter, room=max(0, room), why_not=why if room <= 0 else ""))
    return options


# ------------------------------------------------------------------ what a warrior may carry

def carry_refusal(wlist: WarbandList | None, warrior: Warrior, item: Item, catalogue: Catalogue, *,
                  weapon: Item | None = None) -> str | None:
    """Why ``warrior`` may not carry ``item`` (one sentence citing the rule), or None when it may.
    ``weapon``: what a made_as item is made as ('Gromril axe': the gromril weapon and the axe)."""
    if warrior.is_hired_sword:
        return f"{warrior.name} is a hired sword: hired swords keep the kit they come with; nothing can be bought for them."
    fighter = fighter_of(wlist, warrior)
    listing = fighter.equipment_list if fighter is not None else None
    listed = listing.listed_as(item) if listing is not None else None
    in_package = listed is None and listing is not None and listing.package_with(item) is not None
    if wlist is not None and not item.may_be_bought_by(wlist.id) and not in_package:
        who = ", ".join(catalogue.warbands[w].name if w in catalogue.warbands else w for w in item.restricted_to)
        return f"{item.name} is not for {wlist.name}" + (f" (only {who})." if item.restricted_to else ".")
    if fighter is None:
        return None  # made by hand or a custom warband: there is no list to check against
    if fighter.animal:
        return f"{warrior.name} is an animal ({fighter.name}): animals carry nothing."
    forbidden = forbidden_by(fighter, item)
    if forbidden is not None:
        rule, what = forbidden
        kinds = tuple(sorted(rule.forbids))
        words = KIND_WORDS.get(kinds) or " and ".join(ITEM_KINDS[k] for k in kinds)
        return f"{warrior.name} is {a_or_an(fighter.name)}: its rule {rule.name} ({rule.id}) forbids {words}, and {what}."
    if listing is None:
        return f"{fighter.name} has no equipment list in {wlist.name if wlist else 'its list'}: it fights with what it was hired with."
    if item.made_as is not None and weapon is not None:
        refusal = carry_refusal(wlist, warrior, weapon, catalogue)  # a gromril axe is an axe (000:1054)
        return None if refusal is None else f"{refusal} (A {item.made_as.name_of(weapon)} is a {weapon.name.lower()}.)"
    if listed is not None or in_package:
        return None
    if item.kind == "miscellaneous" and warrior.is_hero:
        return None  # heroes may use the trading post's miscellaneous items (LRB Trading)
    misc = " Henchmen carry only their list's items." if item.kind == "miscellaneous" else ""
    return f"{item.name} is not on the {listing.name}, which a {fighter.name} buys from.{misc}"


# What a rule's ``forbids`` reads as, and what each kind of item is called in a refusal.
KIND_WORDS: dict[tuple[str, ...], str] = {
    ("armour", "blackpowder", "close-combat", "missile"): "weapons and armour",
    ("armour",): "armour",
    ("blackpowder", "missile"): "missile weapons",
    ("armour", "blackpowder", "missile"): "armour and missile weapons",
}
ITEM_KINDS = {"close-combat": "a close-combat weapon", "missile": "a missile weapon", "blackpowder": "a blackpowder weapon",
              "armour": "armour"}


def forbidden_by(fighter: FighterType, item: Item) -> tuple[SpecialRule, str] | None:
    """The fighter's rule that forbids ``item`` (the Possessed's 'No weapons or armour': every weapon
    and armour, and the miscellaneous items that count as one, such as a net, 000:1425), with what
    the item is in words; None when no rule of his forbids it. A package is forbidden when any
    item it gives is. Mutations are no weapons: the Possessed buy them."""
    forbids = {kind for rule in fighter.special_rules for kind in rule.forbids}
    if not forbids:
        return None
    for piece in (item, *item.contents, *(i for choice in item.choices for option in choice.options for i in option.items)):
        kind = piece.kind if piece.kind in ITEM_KINDS else piece.counts_as
        if kind in forbids:
            rule = next(r for r in fighter.special_rules if kind in r.forbids)
            what = ITEM_KINDS[kind]
            if piece is item:
                return rule, f"the {item.name} {'is' if item.kind == kind else 'counts as'} {what}"
            return rule, f"the {item.name} gives the {piece.name}, {what}"
    return None


def what_he_may_carry(wlist: WarbandList | None, warrior: Warrior) -> str | None:
    """The items ``warrior``'s equipment list sells, in a sentence for a refused purchase; None when he
    buys from no list (a hired sword, an animal, one made by hand)."""
    fighter = fighter_of(wlist, warrior)
    if fighter is None or fighter.animal or fighter.equipment_list is None:
        return None
    listing = fighter.equipment_list
    names = ", ".join(dict.fromkeys(row.item.name for row in listing.items))
    misc = "; as a hero, also the trading post's miscellaneous items" if warrior.is_hero else ""
    return f"{a_or_an(fighter.name, capital=True)} buys from the {listing.name}: {names}{misc}."[:1000]


def a_or_an(name: str, *, capital: bool = False) -> str:
    article = "an" if name[:1].upper() in "AEIOU" else "a"
    return f"{article.capitalize() if capital else article} {name}"


def list_price(wlist: WarbandList | None, warrior: Warrior, item: Item) -> int | None:
    """What the warrior's equipment list charges for ``item`` (or for the same weapon under another name, 000:921);
    None when it is not on the list."""
    fighter = fighter_of(wlist, warrior)
    if fighter is None or fighter.equipment_list is None:
        return None
    listed = fighter.equipment_list.listed_as(item)
    return None if listed is None else listed.price


# ------------------------------------------------------------------ what it is worth

def made_as_value(wlist: WarbandList | None, warrior: Warrior | None, material: Item, weapon: Item) -> int:
    """A made_as weapon's worth ('Gromril axe'): his list row's price and multiple of the weapon's list
    price where his list sells the material, else the item's own of the weapon's trading-post price."""
    assert material.made_as is not None
    fighter = fighter_of(wlist, warrior) if warrior is not None else None
    listing = fighter.equipment_list if fighter is not None else None
    row = listing.listed_as(material) if listing is not None else None
    if row is not None:
        weapon_row = listing.listed_as(weapon) if listing is not None else None
        base = weapon_row.price if weapon_row is not None else weapon.price
        return row.price + (row.multiple or material.made_as.multiple) * base
    return material.price + material.made_as.multiple * weapon.price


def item_value(catalogue: Catalogue, wlist: WarbandList | None, warrior: Warrior | None, name: str) -> int | None:
    """One carried item's price: the warrior's list price, else the trading post's fixed price; None if unknown."""
    item = find_item(catalogue, name)
    if item is None:
        piece = find_piece(catalogue, name)
        if piece is None or piece.weapon is None:
            return None
        return made_as_value(wlist, warrior, piece.item, piece.weapon)
    if warrior is not None:
        price = list_price(wlist, warrior, item)
        if price is not None:
            return price
    return item.price


def warrior_cost(catalogue: Catalogue, wlist: WarbandList | None, warrior: Warrior) -> WarriorCost:
    """What the warrior cost: hire plus kit, the first dagger free and starting equipment included."""
    sword = sword_of(catalogue, warrior)
    if sword is not None:
        return WarriorCost(hire=sword.hire_fee, kit=0, unpriced=())
    fighter = fighter_of(wlist, warrior)
    hire = fighter.cost * warrior.group_size if fighter else 0
    included = [i.name for i in fighter.starting_equipment] if fighter else []
    kit, unpriced, dagger_seen = 0, [], False
    for name in warrior.equipment:
        if included and any(lookup_key(name) == lookup_key(i) for i in included):
            included.remove(next(i for i in included if lookup_key(i) == lookup_key(name)))
            continue
        value = item_value(catalogue, wlist, warrior, name)
        item = find_item(catalogue, name)
        if value is None:
            unpriced.append(name)
            continue
        if item is not None and item.id == DAGGER and not dagger_seen:
            dagger_seen = True
            continue
        kit += value * warrior.group_size
    return WarriorCost(hire=hire, kit=kit, unpriced=tuple(unpriced), listed=fighter is not None)


# ------------------------------------------------------------------ a roster against its list

@dataclass(frozen=True, kw_only=True)
class RosterCheck:
    problems: tuple[str, ...]  # everything that breaks the list or the campaign tables
    notes: tuple[str, ...]  # worth knowing, not broken: hand edits, warriors made by hand


def check_roster(
    catalogue: Catalogue, rules: CampaignRules, wlist: WarbandList | None, list_id: str | None, warband_type: str,
    warriors: Sequence[Warrior],
) -> RosterCheck:
    """Every rule the roster breaks: counts, kit off the lists, characteristics over racial maxima."""
    problems = limit_problems(rules, wlist, warband_type, warriors)
    notes: list[str] = []
    living = active(warriors)
    if wlist is None:
        if list_id is not None:
            notes.append(f"Its list `{list_id}` is not available on this server any more: checked as a custom warband.")
        else:
            notes.append("A custom warband: there is no list to check its warriors' types and kit against.")
    else:
        leader_lost = succession.lost_leader_type(wlist, warriors)
        for listed in wlist.fighters:
            if listed.role == "leader" and leader_lost:
                continue  # his successor leads (engine/campaign/rules/succession.py); no new one may be hired
            if listed.minimum and models_of(warriors, listed.id) < listed.minimum:
                problems.append(f"The {wlist.name} list needs at least {listed.minimum} {listed.name}; this warband has "
                                f"{models_of(warriors, listed.id)}.")
    swords_seen: dict[str, str] = {}
    for w in living:
        fighter = fighter_of(wlist, w)
        sword = sword_of(catalogue, w)
        if w.hand_edits:
            notes.append(f"{w.name}: changed by hand since hired ({', '.join(e.replace('_', ' ') for e in w.hand_edits)}).")
        if sword is not None:
            if sword.id in swords_seen:
                problems.append(f"{w.name} and {swords_seen[sword.id]} are both {sword.name}: a warband hires one of each {sword.kind}.")
            swords_seen[sword.id] = w.name
            if wlist is not None and not sword.may_be_hired_by(wlist.id):
                problems.append(f"{w.name}: {wlist.name} may not hire a {sword.name}.")
        elif w.is_hired_sword:
            notes.append(f"{w.name}: a hired sword added by hand; the bot does not know its fee or upkeep.")
        elif wlist is not None and fighter is None:
            notes.append(f"{w.name} ({w.warrior_type}) was added by hand, not hired from the {wlist.name} list: "
                         "its type and kit are not checked.")
        if fighter is not None:
            for name in w.equipment:
                piece = find_carried(catalogue, name)
                if piece is None:
                    problems.append(f"{w.name} carries '{name}', which is not on any list or in the trading post.")
                    continue
                refusal = carry_refusal(wlist, w, piece.item, catalogue, weapon=piece.weapon)
                if refusal and not any(i.id == piece.item.id for i in fighter.starting_equipment):
                    problems.append(refusal if refusal.startswith(w.name) else f"{w.name}: {refusal}")
            if wlist is not None:  # a fighter comes from a list
                found = skill_rules.check_skills(catalogue, wlist, w, type_name=fighter.name, warband=living,
                                                 lists=_lists_of(catalogue, wlist, w, fighter), starting=fighter.skills)
                problems += found.problems
                notes += found.notes
                if w.experience < fighter.experience:
                    problems.append(f"{w.name} has {w.experience} experience; a {fighter.name} of the {wlist.name} list "
                                    f"starts with {fighter.experience}.")
        elif sword is not None:
            found = skill_rules.check_skills(catalogue, wlist, w, type_name=sword.name, warband=living, lists_judged=False,
                                             lists=skill_rules.lists_of(w, catalogue, wlist), starting=sword.skills)
            problems += found.problems
            if w.experience < sword.experience:
                problems.append(f"{w.name} has {w.experience} experience; {sword.name} is hired with {sword.experience}.")
        race = catalogue.races.get(w.race) if w.race else None
        if race is not None and not (sword is not None and sword.is_character):  # a character may stand above his race (Aenur's WS 8)
            over = [f"{c} {getattr(w.profile, c)} (max {getattr(race.maximum, c)})" for c in CHARACTERISTICS
                    if getattr(w.profile, c) > getattr(race.maximum, c)]
            if over:
                problems.append(f"{w.name}: above the {race.name} maximum: {', '.join(over)}.")
    if wlist is not None and wlist.limits:
        problems += list_limits.model_problems(wlist, list_limits.model_counts(warriors))
        problems += list_limits.kit_problems(wlist, living, lambda w: [_item_of(catalogue, name) for name in w.equipment])
    return RosterCheck(problems=tuple(problems), notes=tuple(notes))


def _item_of(catalogue: Catalogue, name: str) -> Item | None:
    piece = find_carried(catalogue, name)
    return None if piece is None else piece.item


def _lists_of(catalogue: Catalogue, wlist: WarbandList, w: Warrior, fighter: FighterType) -> list[SkillList]:
    """The lists he learns from: those stored on him (his type's, or the two a lad with talent chose), else his type's."""
    return skill_rules.lists_of(w, catalogue, wlist) if w.skill_lists else list(fighter.skill_lists)


def item_or_closest(catalogue: Catalogue, query: str) -> Item:
    """The item named (NotFoundError with the closest names)."""
    found = find_item(catalogue, query)
    if found is not None:
        return found
    return catalogue.item(query)  # raises NotFoundError naming the closest

