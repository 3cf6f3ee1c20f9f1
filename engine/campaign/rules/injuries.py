"""Serious injuries (heroes) and the out-of-action roll (henchmen), every effect applied.

The chart and each row's effects are data (rules_data/campaign/lrb.json ``serious_injuries``);
this module applies them to a ``CampaignWarrior`` against a ``Dice``. Henchmen out of action
die on 1-2 (seed 000:1499; the rulebook's campaign chapter says the same for every henchman),
and so do hired swords ("as you would roll for a Henchman": see campaign_warrior.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.copying import copied
from engine.dice.source import Dice, Roll
from engine.campaign.rules.campaign_warrior import CampaignWarrior
from engine.campaign.rules.tables import Effect
from engine.errors import MordheimError
from engine.campaign.rules.campaign_rules import CampaignRules, SeriousInjury

MAX_REROLLS = 50  # a server chart could make every roll a re-roll; stop rather than spin
LABEL_MAX = 64  # engine.campaign.rules.validation.NAME_MAX: each entry of a warrior's injuries list
PIT_FIGHT_WAITS = "must fight in the pits"  # a hero sold to the pits carries it on his injuries until the fight is settled
HELD_CAPTIVE = "held by the enemy warband"  # ... and a captured one until his captors let him go (actions/captives.py)


@dataclass(frozen=True)
class InjuryResult:
    warrior: CampaignWarrior  # with every effect applied
    results: tuple[str, ...]  # what happened, in the game's words: "Leg wound (−1 M)"
    rolls: tuple[Roll, ...]
    gold: int = 0  # won in the pits
    pit_fight: Effect | None = None  # Sold to the pits: waiting for who won (``settle_pit_fight``)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}"


class _Apply:
    """Applies one injury's effects, collecting what happened."""

    def __init__(self, rules: CampaignRules, dice: Dice, warrior: CampaignWarrior) -> None:
        self.rules = rules
        self.dice = dice
        self.warrior = warrior
        self.results: list[str] = []
        self.gold = 0
        self.pit_fight: Effect | None = None

    def injury(self, entry: SeriousInjury, d66: int) -> None:
        name = entry.name
        before = self.warrior
        notes = self.effects(entry, entry.effects)
        if any(e.op == "multiple" for e in entry.effects):
            return  # its parts were recorded one by one
        label = f"{name} ({'; '.join(notes)})" if notes else name
        if len(label) > LABEL_MAX:  # a warrior's injuries are names of at most 64 characters
            label = label[:LABEL_MAX - 2] + "…)"
        if entry.id != "full-recovery" and before.status == "active":
            self.warrior = copied(self.warrior, injuries=(*self.warrior.injuries, label))
        self.results.append(f"{label} [{d66}]")

    def effects(self, entry: SeriousInjury, effects: tuple[Effect, ...]) -> list[str]:
        notes: list[str] = []
        w = self.warrior
        for e in effects:
            if e.op == "retire_if_repeated":
                if any(i == entry.name or i.startswith(entry.name + " (") for i in w.injuries):
                    self.warrior = w = copied(w, status="retired")
                    notes.append("his second such injury: he must retire")
                    return notes
            elif e.op == "dead":
                self.warrior = w = copied(w, status="dead", equipment=())
                notes.append("dead; all he carried is lost")
            elif e.op == "characteristic":
                self.warrior = w = w.with_change(e.characteristic, e.change)
                notes.append(f"{_signed(e.change)} {e.characteristic}")
            elif e.op == "miss_games":
                games, _ = self.dice.amount(e.games, f"Games {w.name} misses")
                self.warrior = w = copied(w, missed_games=w.missed_games + games)
                notes.append(f"misses {games} game{'s' if games != 1 else ''}")
            elif e.op == "rule":
                notes.append(e.rule)
            elif e.op == "lose_equipment":
                lost = len(w.equipment)
                self.warrior = w = copied(w, equipment=())
                notes.append(f"all {lost} item{'s' if lost != 1 else ''} he carried gone" if lost else "he carried nothing")
            elif e.op == "captured":  # away from his warband until his captor lets him go (actions/captives.py)
                self.warrior = w = copied(w, captured=True, status="captured")
                notes.append(HELD_CAPTIVE)
            elif e.op == "experience":
                self.warrior = w = copied(w, experience=w.experience + e.amount)
                notes.append(f"+{e.amount} experience")
            elif e.op == "pit_fight":
                self.pit_fight = e
                notes.append(PIT_FIGHT_WAITS)
            elif e.op == "roll":
                face = self.dice.d6(f"{entry.name} for {w.name}")
                sub = next(r for r in e.results if r.low <= face <= r.high)
                inner = self.effects(entry, sub.effects)
                notes.extend(inner or [sub.name.lower()])  # the face is in the dice shown; the label stays short
                w = self.warrior
            elif e.op == "multiple":
                count, _ = self.dice.amount(e.rolls, f"Multiple injuries for {w.name}: how many more")
                self.results.append(f"{entry.name}: {count} more roll{'s' if count != 1 else ''}")
                done = 0
                tries = 0
                while done < count and self.warrior.status == "active":
                    tries += 1
                    if tries > MAX_REROLLS:
                        raise MordheimError("This server's serious injury chart re-rolls almost every result.",
                                            hint="Ask an admin to check the chart's Multiple injuries re-rolls.")
                    d66 = self.dice.d66(f"Multiple injuries for {w.name}, roll {done + 1}")
                    sub_entry = self.rules.serious_injury(d66)
                    # The row's own re-rolls (lrb.json 16-21 ``reroll``: Dead, Captured and Multiple injuries, as the
                    # rulebook's chart says): shown as re-rolled, never applied. Full recovery is not among them.
                    if sub_entry.id in e.reroll:
                        self.results.append(f"{sub_entry.name} — re-rolled [{d66}]")
                        continue
                    self.injury(sub_entry, d66)
                    done += 1
                w = self.warrior
        return notes


def serious_injury(warrior: CampaignWarrior, rules: CampaignRules, dice: Dice) -> InjuryResult:
    """A hero taken out of action rolls a D66 on the serious injury chart; every effect is applied."""
    if not warrior.is_hero:
        what = "a hired sword: hired swords roll a D6 as henchmen do" if warrior.role == "hired_sword" else "a henchman: henchmen roll a D6"
        raise MordheimError(f"{warrior.name} is {what}, not on the serious injury chart.")
    if warrior.status != "active":
        raise MordheimError(f"{warrior.name} is {warrior.status} and cannot be injured.")
    apply = _Apply(rules, dice, warrior)
    d66 = dice.d66(f"Serious injury for {warrior.name}")
    apply.injury(rules.serious_injury(d66), d66)
    return InjuryResult(apply.warrior, tuple(apply.results), tuple(dice.rolls), apply.gold, apply.pit_fight)


def apply_injury(warrior: CampaignWarrior, entry: SeriousInjury, rules: CampaignRules, dice: Dice, *, d66: int | None = None) -> InjuryResult:
    """One chart result chosen by name (``/warrior injure``) applied with every effect; its own
    dice (a D6 sub-table, Multiple injuries' rolls) come from ``dice``."""
    apply = _Apply(rules, dice, warrior)
    apply.injury(entry, d66 if d66 is not None else entry.low)
    return InjuryResult(apply.warrior, tuple(apply.results), tuple(dice.rolls), apply.gold, apply.pit_fight)


def settle_pit_fight(result: InjuryResult, won: bool, dice: Dice) -> InjuryResult:
    """Sold to the pits, after the fight: a winner earns gold and experience and keeps his kit;
    a loser rolls a D66, dead in the effect's range, otherwise back without weapons or armour.
    The mark the hero carried while the fight waited (``PIT_FIGHT_WAITS``) becomes its outcome.

    The figures are the effect's (lrb.json 65 'Sold to the pits': a win 50 gc and +2 experience
    with all his kit, a loss dead on a D66 of 11-35, else thrown out without weapons and armour;
    the rulebook's chart as mordheim.hesketh.dev transcribes it, the data's source)."""
    effect = result.pit_fight
    if effect is None:
        raise MordheimError(f"{result.warrior.name} has no pit fight waiting.")
    w = result.warrior
    if won:
        w = copied(w, experience=w.experience + effect.win_experience,
                    injuries=_pit_fight_settled(w.injuries, f"won the pit fight: +{effect.win_gold} gc, +{effect.win_experience} xp"))
        line = f"Won the pit fight: +{effect.win_gold} gc, +{effect.win_experience} experience, keeps his kit"
        return copied(result, warrior=w, results=(*result.results, line), rolls=(*result.rolls, *dice.rolls),
                       gold=result.gold + effect.win_gold, pit_fight=None)
    d66 = dice.d66(f"Pit fight lost by {w.name}: dead on {effect.dead_from}-{effect.dead_to}")
    if effect.dead_from <= d66 <= effect.dead_to:
        w = copied(w, status="dead", equipment=(), injuries=_pit_fight_settled(w.injuries, "died in the pits"))
        line = f"Lost the pit fight and died [{d66}]"
    else:
        # The rule strips weapons and armour; without item kinds every item goes (the lists' loader knows kinds).
        w = copied(w, equipment=(), injuries=_pit_fight_settled(w.injuries, "lost the pit fight, and his kit"))
        line = f"Lost the pit fight [{d66}]: thrown out without his weapons and armour"
    return copied(result, warrior=w, results=(*result.results, line), rolls=(*result.rolls, *dice.rolls), pit_fight=None)


def _pit_fight_settled(injuries: tuple[str, ...], outcome: str) -> tuple[str, ...]:
    """``injuries`` with the newest pit fight still waiting saying ``outcome`` instead."""
    return mark_settled(injuries, PIT_FIGHT_WAITS, lambda label: f"{label} ({outcome})")


def mark_settled(injuries: tuple[str, ...], waiting: str, settled: Callable[[str], str]) -> tuple[str, ...]:
    """``injuries`` with the newest entry still ``waiting`` ('Sold to the pits (must fight in the
    pits)', 'Captured (held by the enemy warband)') written as ``settled`` makes it from the
    injury's name ('Sold to the pits'), cut to an entry's length; unchanged when none waits (a
    warrior made so by hand)."""
    mark = f" ({waiting})"
    for n in range(len(injuries) - 1, -1, -1):
        if injuries[n].endswith(mark):
            label = settled(injuries[n][:-len(mark)])
            if len(label) > LABEL_MAX:
                label = label[:LABEL_MAX - 2] + "…)"
            return (*injuries[:n], label, *injuries[n + 1:])
    return injuries


@dataclass(frozen=True)
class HenchmanResult:
    warrior: CampaignWarrior
    lost: int  # models removed from the group
    rolls: tuple[Roll, ...]


def henchmen_out_of_action(warrior: CampaignWarrior, models_out: int, rules: CampaignRules, dice: Dice) -> HenchmanResult:
    """A D6 for each model of the group (or the hired sword) taken out of action: 1-2 gone for good (000:1499)."""
    if warrior.is_hero:
        raise MordheimError(f"{warrior.name} is a hero: heroes roll on the serious injury chart.")
    if not 1 <= models_out <= warrior.group_size:
        raise MordheimError(f"{warrior.name} has {warrior.group_size} model{'s' if warrior.group_size != 1 else ''}; "
                            f"{models_out} cannot have been taken out of action.",
                            hint=f"Give a number from 1 to {warrior.group_size}.")
    lost = sum(not rules.henchman_survives(dice.d6(f"{warrior.name}, model {n + 1} out of action")) for n in range(models_out))
    left = warrior.group_size - lost
    w = copied(warrior, group_size=max(1, left), status="dead" if left == 0 else warrior.status)
    return HenchmanResult(w, lost, tuple(dice.rolls))
