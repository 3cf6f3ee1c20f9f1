"""The state of a fight, named: what each step of a round reads and writes.

Every state is an immutable NamedTuple, so Odds mode can keep a probability per distinct state
(states are dictionary keys) while Roll mode walks one of them. Fields a step no longer needs
are put back to their defaults, so equal futures are equal keys and merge.

Three levels:

* ``ModelState``: one model between rounds (wounds, status, what he has used up);
* ``RoundState``: every model plus what lasts one round (strike order, fear, the one parry and
  the one critical of the phase, wounds lost this round);
* inside one model's volley at one target: ``HitTally`` while the to-hit dice are rolled, then
  ``Blows`` while the hits are resolved one by one, a hit's wound waiting for its save as a
  ``PendingWound``.
"""

from __future__ import annotations

from typing import NamedTuple

STANDING, KNOCKED_DOWN, STUNNED, OUT_OF_ACTION, FLED = range(5)
STATUS_WORDS = ("standing", "knocked down", "stunned", "out of action", "fled")
STATUS_OF = {"standing": STANDING, "knocked down": KNOCKED_DOWN, "stunned": STUNNED}

NO_INJURY = 0  # Blows.worst_injury before any injury roll; then 1-3 as engine.combat.injury.Injury


class ModelState(NamedTuple):
    """What lasts from one round to the next for one model."""

    wounds: int
    status: int = STANDING
    frenzied: bool = False  # still frenzied (lost when knocked down or stunned, 000:869)
    lucky_charm: bool = False  # a lucky charm not yet used (000:1397)
    stood_up: bool = False  # stood up this turn: strikes last (000:661-663)
    initiative_bonus: int = 0  # Crimson Shade's +D3 Initiative, rolled once (000:1381)
    weapons_lost: tuple[int, ...] = ()  # indexes into Fighter.weapons knocked away (Wild Sweep, 002:682)
    stupid: bool = False  # failed his last Stupidity test: does not fight until his next turn (000:885)

    @property
    def out_of_fight(self) -> bool:
        return self.status >= OUT_OF_ACTION


class RoundState(NamedTuple):
    """Every model, and what lasts one round. Tuples hold one entry per model, in fight order
    (the attacking side's models first)."""

    models: tuple[ModelState, ...]
    order: tuple[int, ...] = ()  # strike order once decided
    failed_fear: tuple[bool, ...] = ()  # failed a fear test this round: needs 6s to hit (000:853)
    hammered: tuple[bool, ...] = ()  # may not fight this turn (002:680, 004:408)
    critical_used: tuple[bool, ...] = ()  # caused his one critical hit of the phase (000:566)
    parry_used: tuple[bool, ...] = ()  # had his one parry of the phase (000:771)
    breaking: tuple[bool, ...] = ()  # failed an All Alone test: breaks from combat (000:837)
    wounds_lost: tuple[int, ...] = ()  # wounds caused to each model this round

    @classmethod
    def start(cls, models: tuple[ModelState, ...]) -> RoundState:
        none = (False,) * len(models)
        return cls(models, (), none, none, none, none, none, (0,) * len(models))


class HitTally(NamedTuple):
    """One volley's to-hit rolls so far, and the target's parry and lucky charm."""

    hits: tuple[int, ...]  # per attack slot: hits to roll to wound for
    lotus_hits: tuple[int, ...]  # per slot: 6s to hit with Black Lotus, which wound automatically (000:1361)
    best_parryable: int = 0  # the highest to-hit roll the target could parry (0 = none)
    best_slot: int = 0  # the slot of that roll
    rolled_six: bool = False  # a 6 to hit: that opponent's blows cannot be parried (000:765, 771)
    lucky_charm: bool = False  # the target's charm is still unused
    parry_used: bool = False  # the target has had his parry this phase


class PendingWound(NamedTuple):
    """A hit that wounded, waiting for the target's saves."""

    slot: int  # the attack slot it came from
    wounds: int = 1
    save: str = "normal"  # tables.NORMAL_SAVE (one roll for every wound), NO_SAVE, SAVE_EACH_WOUND
    saved: bool = False  # the saves have been rolled (wounds is what got through)
    injury_bonus: int = 0
    ignores_helmet: bool = False  # Clubbed (002:681)
    out_if_unsaved: bool = False  # Bludgeoned (002:683)
    knocks_down: bool = False  # Thrust (002:712): knocked down even if saved


class Blows(NamedTuple):
    """One volley's hits being resolved against its target, one at a time."""

    wounds: int  # the target's wounds left
    status: int  # the target's status; OUT_OF_ACTION once taken out during the volley
    wounds_lost: int = 0  # wounds caused by this volley
    worst_injury: int = NO_INJURY  # the highest injury result so far: it applies at the end (000:615)
    helmet_barred: bool = False  # a stunned result came from a hit that ignores helmets
    critical_used: bool = False  # the attacker's one critical of the phase
    next_hit: tuple[int, bool] | None = None  # (slot, Black Lotus 6) of the hit to roll to wound for
    pending: PendingWound | None = None
    extra_attack: int = 0  # Body Blow (002:701): 1 earned, 2 made (one per volley)
    hammered: bool = False  # the target may not fight this turn
    weapons_lost: tuple[int, ...] = ()  # the target's weapons knocked away
    lucky_charm: bool = False  # the target's charm is still unused
    parry_used: bool = False  # the target has had his parry this phase
