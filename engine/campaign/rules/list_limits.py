"""The limits of a warband list that count models or kit across its fighter types.

Each list names them as data (``WarbandList.limits``, rules_data/warbands/lists/<id>.json
``limits``, each with its source): no more than twice as many Goblins as Orcs (Orc Mob), a Trained
Bear only with a Bear Tamer (Kislevites), never more Squires than Knights (Bretonnians), one Swivel
Gun per warband (Pirates), every Mutant with a mutation (Cult of the Possessed). Pure functions of
the list and the warriors: hiring asks whether a hire breaks one and how many more of a type fit,
trading whether a purchase does, and ``/warband check`` lists every one a roster breaks.

A limit is judged on the warband's living models, hired swords left out (they count towards
nothing, roster.py); a must-carry limit on each living warrior of its types.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from engine.campaign.lists.catalogue import FighterType, Item, LimitKind, ListLimit, WarbandList
from engine.campaign.model import Warrior

MANY = 10**6  # room left by a limit that does not count this fighter


def model_counts(warriors: Iterable[Warrior]) -> Counter[str]:
    """Models of each fighter type holding a place on the roster (a henchman group counts each model;
    a captive keeps his place: roster.on_roster), hired swords left out."""
    counts: Counter[str] = Counter()
    for w in warriors:
        if w.holds_place and not w.is_hired_sword and w.fighter_type is not None:
            counts[w.fighter_type] += w.group_size
    return counts


def _names(wlist: WarbandList, ids: Sequence[str]) -> str:
    by_id = {f.id: f.name for f in wlist.fighters}
    names = [by_id.get(i, i) for i in ids]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _count(counts: Counter[str], ids: Sequence[str]) -> int:
    return sum(counts[i] for i in ids)


def _broken(limit: ListLimit, counts: Counter[str]) -> bool:
    n = _count(counts, limit.fighters)
    if limit.kind == LimitKind.TIMES:
        return n > limit.times * _count(counts, limit.of)
    if limit.kind == LimitKind.ONLY_WITH:
        return n > 0 and _count(counts, limit.of) == 0
    if limit.kind == LimitKind.TOGETHER:
        return n > limit.at_most
    return False


def _counted(limit: ListLimit) -> bool:
    return limit.kind in (LimitKind.TIMES, LimitKind.ONLY_WITH, LimitKind.TOGETHER)


def _state(wlist: WarbandList, limit: ListLimit, counts: Counter[str], who: str) -> str:
    """'this warband would have 9 Goblin Warriors against 4 (Orc Boss, ...)': the numbers the limit compares."""
    n = _count(counts, limit.fighters)
    if limit.kind == LimitKind.TOGETHER:
        return f"{who} {n}"
    return f"{who} {n} {_names(wlist, limit.fighters)} against {_count(counts, limit.of)} {_names(wlist, limit.of)}"


def model_problems(wlist: WarbandList, counts: Counter[str], *, who: str = "this warband has") -> list[str]:
    """Every counting limit of the list the models ``counts`` break, each with its numbers and source."""
    return [f"{limit.summary} ({wlist.name}, {limit.source}): {_state(wlist, limit, counts, who)}."
            for limit in wlist.limits if _counted(limit) and _broken(limit, counts)]


def hire_problems(wlist: WarbandList, counts: Counter[str], fighter: FighterType, count: int, warband: str) -> list[str]:
    """The counting limits that hiring ``count`` more ``fighter`` would break (a limit broken already, by
    another type, does not stop this hire)."""
    after = counts.copy()
    after[fighter.id] += count
    return [f"{limit.summary} ({wlist.name}, {limit.source}): {_state(wlist, limit, after, warband + ' would have')}."
            for limit in wlist.limits if _counted(limit) and fighter.id in limit.fighters and _broken(limit, after)]


def room(wlist: WarbandList, counts: Counter[str], fighter: FighterType) -> list[tuple[int, str]]:
    """(how many more ``fighter`` each limit allows, why) for the limits that count him."""
    out = []
    for limit in wlist.limits:
        if not _counted(limit) or fighter.id not in limit.fighters:
            continue
        n = _count(counts, limit.fighters)
        if limit.kind == LimitKind.TIMES:
            out.append((limit.times * _count(counts, limit.of) - n, limit.summary))
        elif limit.kind == LimitKind.ONLY_WITH:
            out.append((MANY if _count(counts, limit.of) else 0, limit.summary))
        else:
            out.append((limit.at_most - n, limit.summary))
    return out


# ------------------------------------------------------------------ kit

def _carried(limit: ListLimit, items: Iterable[Item | None]) -> int:
    return sum(1 for i in items
               if i is not None and (i.id in limit.items or (limit.item_kind is not None and i.kind == limit.item_kind)))


def kit_problems(wlist: WarbandList, warriors: Sequence[Warrior], items_of: Callable[[Warrior], list[Item | None]]) -> list[str]:
    """The kit limits the roster breaks: a warrior without what he must carry, more of an item than the warband may hold.
    ``items_of`` gives the items a warrior carries (None for a name no list knows)."""
    problems: list[str] = []
    living = [w for w in warriors if w.is_active and not w.is_hired_sword]
    for limit in wlist.limits:
        if limit.kind == LimitKind.MUST_CARRY:
            for w in living:
                if w.fighter_type in limit.fighters and _carried(limit, items_of(w)) < limit.at_least:
                    problems.append(f"{w.name}: {limit.summary} ({wlist.name}, {limit.source})")
        elif limit.kind == LimitKind.ITEM_AT_MOST:
            held = sum(_carried(limit, items_of(w)) * w.group_size for w in living)
            if held > limit.at_most:
                problems.append(f"{limit.summary} ({wlist.name}, {limit.source}): the warband carries {held}.")
    return problems


def item_refusal(wlist: WarbandList | None, held: int, item: Item, adding: int) -> str | None:
    """Why the warband, already holding ``held`` of ``item``'s kind, may not take ``adding`` more (None: it may)."""
    if wlist is None:
        return None
    for limit in wlist.limits:
        if limit.kind == LimitKind.ITEM_AT_MOST and item.id in limit.items and held + adding > limit.at_most:
            return f"{limit.summary} ({wlist.name}, {limit.source}): the warband holds {held} already."
    return None


def held_of(wlist: WarbandList | None, item: Item, warriors: Sequence[Warrior], stash: Sequence[Item | None],
            items_of: Callable[[Warrior], list[Item | None]]) -> int:
    """How many items counted with ``item`` by an item-at-most limit the warband holds (its warriors' and its stash)."""
    if wlist is None:
        return 0
    counted = [lim for lim in wlist.limits if lim.kind == LimitKind.ITEM_AT_MOST and item.id in lim.items]
    if not counted:
        return 0
    limit = counted[0]
    living = [w for w in warriors if w.is_active and not w.is_hired_sword]
    return sum(_carried(limit, items_of(w)) * w.group_size for w in living) + _carried(limit, stash)


def must_carry_reminders(wlist: WarbandList, fighter: FighterType) -> list[str]:
    """What a new warrior of ``fighter`` must still be given ('Every Mutant has at least one mutation.')."""
    return [limit.summary for limit in wlist.limits if limit.kind == LimitKind.MUST_CARRY and fighter.id in limit.fighters]
