"""Exploration: wyrdstone found by the dice total, and the place found by doubles or more.

One die per hero who fought and was not taken out of action, plus one for a win (the table's
``dice_per_hero`` and ``dice_for_win``), plus whatever skills and equipment add. The largest set
of equal dice finds a place; between sets of the same size the higher face. Every follow-up
die (a D6 on the place's table, gold, shards, a test) is rolled by ``Dice`` and recorded.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from engine.dice.source import Dice, Roll
from engine.campaign.rules.campaign_warrior import CampaignWarrior
from engine.campaign.rules.tables import ExplorationTable, Outcome, Place
from engine.errors import MordheimError

MAX_DICE = 12


@dataclass(frozen=True)
class FoundThing:
    item: str
    name: str
    count: int


@dataclass(frozen=True)
class Finds:
    """Everything one exploration adds up to, already rolled."""

    gold: int = 0
    shards: int = 0
    items: tuple[FoundThing, ...] = ()
    notes: tuple[str, ...] = ()
    leader_experience: int = 0
    heroes_experience: int = 0  # shared among the heroes as the player likes
    missed_games: tuple[tuple[str, int], ...] = ()  # (hero, games)
    heroes_lost: tuple[str, ...] = ()

    def __add__(self, other: Finds) -> Finds:
        return Finds(self.gold + other.gold, self.shards + other.shards, self.items + other.items, self.notes + other.notes,
                     self.leader_experience + other.leader_experience, self.heroes_experience + other.heroes_experience,
                     self.missed_games + other.missed_games, self.heroes_lost + other.heroes_lost)


@dataclass(frozen=True)
class Exploration:
    dice: tuple[int, ...]
    total: int
    shards_from_total: int
    place: Place | None
    multiple: tuple[int, int] | None  # (how many, face)
    finds: Finds  # the shards from the total included
    rolls: tuple[Roll, ...] = field(default=())
    lines: tuple[str, ...] = ()  # what happened at the place, in words


def exploration_dice(searching_heroes: int, won: bool, table: ExplorationTable, extra: int = 0) -> int:
    n = searching_heroes * table.dice_per_hero + (table.dice_for_win if won else 0) + extra
    if not 0 <= n <= MAX_DICE:
        raise MordheimError(f"{n} exploration dice is more than the bot rolls at once (at most {MAX_DICE}).",
                            hint="Lower the extra dice.")
    return n


def find_multiple(faces: tuple[int, ...]) -> tuple[int, int] | None:
    """(count, face) of the largest set of equal dice, the higher face on a tie; None without a pair."""
    counts = Counter(faces)
    best = max(counts.items(), key=lambda cf: (cf[1], cf[0]), default=None)
    return (best[1], best[0]) if best and best[1] >= 2 else None


class _Resolve:
    def __init__(self, dice: Dice, place: Place, warband_id: str | None, hero: CampaignWarrior | None,
                 leader: CampaignWarrior | None) -> None:
        self.dice, self.place, self.warband_id, self.hero, self.leader = dice, place, warband_id, hero, leader
        self.lines: list[str] = []

    def outcome(self, o: Outcome, label: str) -> Finds:
        finds = Finds()
        if o.gold:
            gold, faces = self.dice.amount(o.gold, f"{label}: gold")
            if o.on_double is not None and len(faces) == 2 and faces[0] == faces[1]:
                self.lines.append(f"{label}: the gold dice are a double ({faces[0]}, {faces[1]})")
                return self.outcome(o.on_double, label)
            finds += Finds(gold=gold)
            self.lines.append(f"{label}: {gold} gc")
            if o.on_gold_die is not None and faces and faces[0] == o.face:
                finds += self.outcome(o.on_gold_die, f"{label} (the die showed {o.face})")
        if o.shards:
            shards, _ = self.dice.amount(o.shards, f"{label}: shards")
            finds += Finds(shards=shards)
            self.lines.append(f"{label}: {shards} shard{'s' if shards != 1 else ''} of wyrdstone")
        for item in o.items:
            count, _ = self.dice.amount(item.count, f"{label}: how many {item.name}")
            finds += Finds(items=(FoundThing(item.item, item.name, count),))
            self.lines.append(f"{label}: {count} × {item.name}" if count != 1 else f"{label}: {item.name}")
        if o.note:
            note = o.note
            if o.count:
                count, _ = self.dice.amount(o.count, f"{label}: how many")
                note = f"{note} ({count})"
            finds += Finds(notes=(note,))
            self.lines.append(f"{label}: {note}")
        if o.leader_experience:
            finds += Finds(leader_experience=o.leader_experience)
            self.lines.append(f"{label}: +{o.leader_experience} experience for the leader")
        if o.heroes_experience:
            xp, _ = self.dice.amount(o.heroes_experience, f"{label}: experience for the heroes")
            finds += Finds(heroes_experience=xp)
            self.lines.append(f"{label}: {xp} experience to share among the heroes")
        if o.miss_games and self.hero is not None:
            games, _ = self.dice.amount(o.miss_games, f"{label}: games missed")
            finds += Finds(missed_games=((self.hero.name, games),))
            self.lines.append(f"{label}: {self.hero.name} misses {games} game{'s' if games != 1 else ''}")
        if o.hero_lost and self.hero is not None:
            finds += Finds(heroes_lost=(self.hero.name,))
            self.lines.append(f"{label}: {self.hero.name} never comes back")
        if o.roll is not None:
            face = self.dice.d6(f"{label}: {o.roll.die}")
            sub = o.roll.result(face)
            finds += self.outcome(sub.outcome, f"{label} — {sub.name}")
        return finds

    def place_finds(self) -> Finds:
        p = self.place
        finds = self.outcome(p.outcome, p.name)
        variant = p.variant(self.warband_id)
        if variant is not None:
            finds += self.outcome(variant.outcome, f"{p.name} — {variant.name}")
        if p.roll is not None:
            face = self.dice.d6(f"{p.name}: {p.roll.die}")
            sub = p.roll.result(face)
            finds += self.outcome(sub.outcome, f"{p.name} — {sub.name}")
        if p.test is not None:
            finds += self.test()
        for each in p.each:
            face = self.dice.d6(f"{p.name}: {each.name} ({each.needs}+)")
            if face >= each.needs:
                finds += self.outcome(each.outcome, f"{p.name} — {each.name}")
            else:
                self.lines.append(f"{p.name} — {each.name}: not there ({face})")
        return finds

    def test(self) -> Finds:
        t = self.place.test
        assert t is not None, "only a place with a test is tested"
        who = self.hero if t.who == "hero" else self.leader
        if who is None:
            raise MordheimError(f"{self.place.name} needs {'a hero' if t.who == 'hero' else 'the leader'} to take the test.",
                                hint="Choose which hero goes." if t.who == "hero" else "The warband has no leader left.")
        label = f"{self.place.name} — {who.name}'s {'Toughness' if t.characteristic == 'T' else 'Leadership'} test"
        if self.warband_id in t.auto_pass:
            self.lines.append(f"{label}: passed without a roll (this warband is not tempted)")
            return self.outcome(t.passed, self.place.name)
        target = who.value(t.characteristic)
        if t.characteristic == "T":  # a characteristic test: D6 at or under, a 6 always fails (000:251)
            face = self.dice.d6(label)
            passed = face != 6 and face <= target
        else:  # a Leadership test: 2D6 at or under Ld (000:257)
            face = sum(self.dice.dice(2, label))
            passed = face <= target
        self.lines.append(f"{label}: {face} against {target}, {'passed' if passed else 'failed'}")
        return self.outcome(t.passed if passed else t.failed, self.place.name)


def explore(faces: tuple[int, ...], table: ExplorationTable, dice: Dice, *, warband_id: str | None = None,
            hero: CampaignWarrior | None = None, leader: CampaignWarrior | None = None, visit_place: bool = True) -> Exploration:
    """The exploration with these dice (already rolled or entered): shards by total, then the place.

    ``hero`` is the hero the player sends where a place asks for one (the Well, the Pit);
    ``visit_place=False`` declines an optional place (the Pit)."""
    if not faces:
        return Exploration((), 0, 0, None, None, Finds())
    total = sum(faces)
    from_total = table.shards(total)
    multiple = find_multiple(faces)
    place = table.place(*multiple) if multiple else None
    finds = Finds(shards=from_total)
    lines: list[str] = [f"Total {total}: {from_total} shard{'s' if from_total != 1 else ''} of wyrdstone"]
    if place is not None and multiple is not None:
        lines.append(f"{['', '', 'Double', 'Triple', 'Four', 'Five', 'Six'][multiple[0]]} {multiple[1]}"
                     f"{'s' if multiple[0] > 3 else ''}: {place.name} — {place.summary}")
        if place.optional and not visit_place:
            lines.append(f"{place.name}: nobody is sent in")
        else:
            resolve = _Resolve(dice, place, warband_id, hero, leader)
            finds += resolve.place_finds()
            lines.extend(resolve.lines)
    return Exploration(tuple(faces), total, from_total, place, multiple, finds, tuple(dice.rolls), tuple(lines))
