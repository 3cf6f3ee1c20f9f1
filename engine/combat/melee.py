"""Close combat (000:649-805) written once against ``Dice``: Roll mode and Odds mode.

A round is a list of small steps ``step(dice, state) -> state``. Roll mode runs them one
after another with real dice and a log; Odds mode pushes a distribution of states through
the same steps (``dice.propagate``), each step enumerated over all its die faces.

Speed without a second copy of the rules: Odds mode remembers each step's table per state
projection (steps repeated per hit share one table; ``passthrough`` fields are left out of
the key), computes a volley once per start state with the fields it never reads blanked
(``_odds_volley``), resets fields that are dead (per-hit injury fields once the rolls are
made, per-volley fields after a volley) so equal futures merge, and keeps whole-round results
per start state (``odds_from``; the duel's Markov chain reuses them every round). Roll mode
(``_roll_volley``) calls the same step methods in the same order, leaving out only calls that
cannot change the state; tests check identical dice, logs and results against the step list.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import NamedTuple

from engine.combat.dice import Dice, d3, no_dice_result, propagate
from engine.combat.fighter import MAX_ATTACKS, Fighter, check_close_combat_loadout, check_defender, default_weapon
from engine.combat.injury import Injury, InjuryOptions, injury_rule
from engine.combat.items import Weapon
from engine.combat.ruleset import Ruleset
from engine.combat.tables import bs_to_hit
from engine.errors import LimitExceeded

STANDING, KNOCKED_DOWN, STUNNED, OUT_OF_ACTION = 0, 1, 2, 3
STATUS_WORDS = ("standing", "knocked down", "stunned", "out of action")
NO_SAVE, SAVE, SAVE_EACH = 0, 1, 2


class FS(NamedTuple):
    """What lasts between rounds for one fighter."""

    wounds: int
    status: int
    frenzied: bool
    charm: bool  # lucky charm not yet used (000:1397)
    stood_up: bool  # stood up this turn: strikes last (000:664)
    pistols_used: bool  # pistol attacks once per combat (000:1177)
    ibonus: int  # Crimson Shade +D3 I (000:1381), rolled once


class RS(NamedTuple):
    f: tuple
    order: int  # who strikes first this round, -1 = not decided
    fear: tuple  # failed fear test this round (000:853)
    hammered: tuple  # may not fight this turn (002:678 'Hammered')
    active: bool  # the current attacker may strike
    hits: tuple  # per slot (normal hits, hits that rolled a natural 6)
    pmax: int  # highest parryable to-hit roll this volley
    pslot: int
    six: bool  # a 6 was rolled to hit: no parry (000:775)
    cur: tuple | None  # hit being resolved: (slot, wounds, save mode, injury bonus, no helmet, out if unsaved, knocked down)
    inj: int
    rolls: int
    rbonus: int
    rnohelm: bool
    crit: bool
    bonus_attack: int
    lost: tuple


def _fast_replace(cls: type) -> None:
    """NamedTuple._replace by field position (the stock one maps over every field by name);
    Roll mode calls it ~20 times a round. Generated with one keyword-only parameter per field
    (no dict of changes to walk); an unknown field name is a TypeError, as with the stock one."""
    fields = cls._fields
    missing = object()
    params = ", ".join(f"{name}=_missing" for name in fields)
    values = ", ".join(f"_self[{i}] if {name} is _missing else {name}" for i, name in enumerate(fields))
    namespace = {"_missing": missing, "_new": tuple.__new__, "_cls": cls}
    exec(f"def _replace(_self, *, {params}):\n    return _new(_cls, ({values},))\n", namespace)  # noqa: S102
    cls._replace = namespace["_replace"]


_fast_replace(FS)
_fast_replace(RS)


@dataclass(frozen=True)
class AttackSpec:
    name: str
    count: int
    strength: int
    save_mod: int
    enemy_save_bonus: bool
    critical: str
    concussion: bool
    lotus: bool
    to_hit_mod: int
    shot_needed: int | None  # BS-based shot (crossbow pistol) instead of WS
    parryable: bool
    weapon_id: str


@dataclass(frozen=True)
class Side:
    """One fighter's numbers for one round (attacks depend on the round)."""

    fighter: Fighter
    ws: int
    initiative: int
    tier: int  # 0 stood up (set at run time), 1 strike last, 2 normal, 3 strike first
    attacks: tuple  # AttackSpec per slot
    shots: tuple  # crossbow pistol shots before blows
    hatred: bool
    fear_causer: bool
    fear_immune: bool
    can_parry: bool
    parry_attempts: int
    parry_bonus: int
    save_cc: int | None
    helmet: bool
    mandrake: bool
    toughness: int
    basic_s: int


def _spec(r: Ruleset, f: Fighter, w: Weapon, count: int, *, first_round: bool, charging: bool, defender: Fighter, shot: bool = False) -> AttackSpec:
    s = w.strength(f.strength)
    if w.has("heavy") and not first_round:
        s -= w.strength_value  # 000:965/983 Heavy: the bonus only in the first turn
    if w.has("cavalry-bonus") and w.id == "lance" and charging and r.toggle("lance_bonus_stacks"):
        s += 2  # INVENTORY §5.2 toggle: 000:1035 on top of 000:1029
    if w.blackpowder and "superior-blackpowder" in f.equipment:
        s += 1  # 000:1514
    lotus = "black-lotus" in f.equipment and not w.blackpowder and not shot  # 000:1355, 1361
    if "dark-venom" in f.equipment and not w.blackpowder:
        s += 1  # 000:1367
    extra = w.save_modifier + (-1 if f.gromril_weapon and w.kind == "close" else 0)  # 000:1054
    save_mod = r.save_modifier(s, extra, w.blackpowder)
    parry_s = f.strength if r.toggle("parry_vs_basic_strength") else s
    return AttackSpec(
        w.name, count, s, save_mod, w.has("enemy-armour-save-bonus"),
        w.critical, w.has("concussion"), lotus, 1 if w.has("accuracy") else 0,
        (bs_to_hit(f.profile.BS) + 2) if shot else None,  # 000:1155 extra -2 to hit
        (not shot) and parry_s < 2 * defender.strength, w.id,
    )


def build_side(r: Ruleset, f: Fighter, enemy: Fighter, *, first_round: bool, charging: bool) -> Side:
    """Who attacks with what this round (000:683-687 two weapons; 000:863 frenzy; 000:1177 pistols)."""
    check_close_combat_loadout(f)
    close = f.close_weapons()
    pistols = f.pistols()  # decision: the once-per-combat pistol attacks are made in the first turn
    main = close[0] if close else (pistols[0] if pistols and first_round else default_weapon())
    a = f.profile.A
    if main.has("one-attack"):
        a = min(a, 1)  # 000:903 fists: only ever 1 attack
    if f.is_frenzied:
        a = r.frenzied_attacks(a)
    slots = [(main, a)]
    if len(close) == 2:
        slots.append((close[1], 1))  # 000:685 +1 A after frenzy, with the other weapon
    if first_round and pistols and close:
        slots.append((pistols[0], len(pistols)))  # 000:1177 +1 A per pistol, brace = 2
    total = sum(n for _, n in slots)
    if total > MAX_ATTACKS:
        raise LimitExceeded(f"{f.name} would make {total} attacks; the limit is {MAX_ATTACKS} per round.", hint="Check the A characteristic and frenzy.")
    ws = f.profile.WS - (r.two_weapons_ws_penalty if len(close) == 2 else 0)  # 004:547
    specs = tuple(_spec(r, f, w, n, first_round=first_round, charging=charging, defender=enemy) for w, n in slots if n > 0)
    shots = ()
    xbp = [w for w in f.weapons if w.has("shoot-in-close-combat")]
    if first_round and xbp:
        shots = (_spec(r, f, xbp[0], 1, first_round=True, charging=charging, defender=enemy, shot=True),)
    tier = 2
    if any(w.has("strike-last") for w in close):
        tier = 1  # 000:1048 even when charging
    elif (charging and first_round) or (first_round and any(w.has("strike-first") for w in close)):
        tier = 3  # 000:666 chargers strike first; 000:1017 spear in the first turn
    can, two_swords, sb = f.can_parry()
    attempts, bonus = r.parry_rolls(two_swords, sb)
    return Side(
        f, max(ws, 0), f.profile.I + (1 if f.ithilmar_weapon else 0), tier, specs, shots,
        f.hates and first_round, f.causes_fear, f.fear_immune or f.is_frenzied, can, attempts, bonus,
        f.armour_save(shooting=False), f.helmet, "mandrake-root" in f.equipment, f.toughness, f.strength,
    )


def initial_fs(r: Ruleset, f: Fighter) -> FS:
    status = {"standing": STANDING, "knocked down": KNOCKED_DOWN, "stunned": STUNNED}[f.state]
    return FS(f.wounds_left, status, f.is_frenzied and status == STANDING, "lucky-charm" in f.equipment, False, False, 0)


def start_state(fs0: FS, fs1: FS) -> RS:
    return RS((fs0, fs1), -1, (False, False), (False, False), False, (), 0, 0, False, None, 0, 0, 0, False, False, 0, (0, 0))


def step_caches(steps: list) -> list[dict]:
    """One Odds-mode table cache per distinct step object (a step repeated in a list shares it)."""
    by_id: dict[int, dict] = {}
    return [by_id.setdefault(id(step), {}) for step in steps]


# Fields a volley leaves behind that nothing reads before the next volley's _start resets them.
_VOLLEY_DEAD = dict(hits=(), pmax=0, pslot=0, six=False, cur=None, inj=0, rolls=0, rbonus=0, rnohelm=False,
                    crit=False, bonus_attack=0, active=False)


def _setf(s: RS, i: int, fs: FS) -> RS:
    f = list(s.f)
    f[i] = fs
    return s._replace(f=tuple(f))


_STATUS_ONLY = [FS(0, st, False, False, False, False, 0) for st in range(4)]


class RoundRules:
    """The steps of one close-combat round between two sides; ``first_round`` = first turn of the combat."""

    shooting = False
    injury_bonus = 0


    def __init__(self, r: Ruleset, a: Fighter, b: Fighter, *, first_round: bool, charger: int | None, crimson_setup: bool = False):
        check_defender(b)
        check_defender(a)
        self.r = r
        self.sides = (
            build_side(r, a, b, first_round=first_round, charging=charger == 0),
            build_side(r, b, a, first_round=first_round, charging=charger == 1),
        )
        self.first_round = first_round
        self.charger = charger
        self.names = (a.name, b.name)
        max_hits = max(sum(sp.count for sp in s.attacks) for s in self.sides)
        steps = []
        segments: list[tuple[str, list]] = []
        if crimson_setup and any("crimson-shade" in s.fighter.equipment for s in self.sides):
            steps.append(self.crimson_setup)
        if first_round and charger is not None:
            steps.append(self.fear_test)
        segments.append(("plain", steps))
        for i, side in enumerate(self.sides):
            if side.shots:
                segments.append((("shot", i), self.volley_steps(("shot", i), 1)))
        segments.append(("plain", [self.strike_order]))
        segments.append((("first",), self.volley_steps(("first",), max_hits)))
        segments.append((("second",), self.volley_steps(("second",), max_hits)))
        segments.append(("plain", [self.end_round]))
        self.segments = [(kind, st, step_caches(st), {}) for kind, st in segments if st]
        self.round_table: dict = {}  # start state -> odds() of the round (see odds_from)
        self._end_f: dict = {}  # end_round's new FS pair per FS pair
        self._injury_options: dict = {}  # (y, rbonus, rnohelm) -> InjuryOptions (slow to build)
        self._hit_plans: dict = {}  # see _hit_plan
        self._n_attacks = {shot: [sum(sp.count for sp in (s.shots if shot else s.attacks)) for s in self.sides] for shot in (False, True)}
        self.steps = [step for _, st, _, _ in self.segments for step in st]

    # --- the two modes ------------------------------------------------------------------
    def roll(self, dice: Dice, state: RS) -> RS:
        plan = self.__dict__.get("_roll_plan")
        if plan is None:  # the segments' steps in order, a volley as one call
            plan = self._roll_plan = [step for kind, steps, _, _ in self.segments for step in
                                      (steps if kind == "plain" else [partial(self._roll_volley, kind)])]
        for step in plan:
            state = step(dice, state)
        return state

    def _roll_volley(self, who: tuple, dice: Dice, s: RS) -> RS:
        """The steps of ``volley_steps`` in the same order, calling the step methods directly and
        leaving out the calls that cannot change the state (Odds mode needs a fixed list of
        steps; a roll knows when the attacker is idle or no hit is left to resolve)."""
        shot = who[0] == "shot"
        x = who[1] if shot else (s.order if who[0] == "first" else 1 - s.order)
        y = 1 - x
        specs = self.sides[x].shots if shot else self.sides[x].attacks
        s = self._start(dice, s, x, y, shot)
        if s.active:  # an idle attacker's to-hit, parry, charm, wound... steps all return s
            for k in range(self._n_attacks[shot][x]):  # later to-hit steps find no attack
                s = self._to_hit(dice, s, x, y, specs, k)
            if s.hits:  # no hit at all: parry and charm return s (pmax/pslot/six are still 0)
                if not shot:
                    s = self._parry(dice, s, x, y, specs)
                s = self._charm(dice, s, x, y)
                s = self._roll_hits(dice, s, x, y, specs)
                if not shot and s.bonus_attack:
                    s = self._bonus_attack(dice, s, x, y, specs)
                    s = self._roll_hits(dice, s, x, y, specs)
        return self._end_volley(dice, s, x, y)

    def _roll_hits(self, dice: Dice, s: RS, x: int, y: int, specs: tuple) -> RS:
        # Resolve blocks while a hit is left: with none left (cur is always None between
        # blocks) _wound returns s itself and the whole block is a no-op. Within a block,
        # _save and _apply return s when cur is None (no wound), and _injury when rolls is 0,
        # so those calls are left out.
        none_left = ((0, 0),) * len(specs)  # what _to_hit's per-slot counts come down to
        while s.hits and s.hits != none_left:
            s2 = self._wound(dice, s, x, y, specs)
            if s2 is s:  # (only if the counts had another shape: no hit left)
                break
            s = s2
            if s.cur is None:
                continue
            s = self._save(dice, s, x, y, specs)
            s = self._apply(dice, s, x, y, specs)
            if s.rolls:
                s = self._injury(dice, s, x, y, specs)
                if s.rolls:
                    s = self._injury(dice, s, x, y, specs)
        return s

    def odds(self, dist: dict) -> dict:
        for kind, steps, caches, vcache in self.segments:
            if kind == "plain":
                for step, cache in zip(steps, caches):
                    dist = propagate(step, dist, cache)
            else:
                dist = self._odds_volley(kind, steps, caches, vcache, dist, partial(self._roll_volley, kind))
        return dist

    def odds_from(self, start: RS) -> dict:
        """``odds({start: 1.0})``, remembered per start state (a duel asks again every round).
        The returned dict is shared: do not change it."""
        res = self.round_table.get(start)
        if res is None:
            res = self.round_table[start] = self.odds({start: 1.0})
        return res

    @staticmethod
    def _odds_volley(who, steps, caches, vcache, dist: dict, volley=None) -> dict:
        # A volley by x on y reads neither the wounds already counted as lost this round nor
        # anything of the attacker x but his status and fear (x's FS is never written in it), nor
        # y's stood_up/pistols_used/ibonus or fear (never written in it either), and it starts by
        # resetting the per-volley fields (rbonus/rnohelm are dead while rolls is 0). So it is
        # computed once per start state with those fields blanked, and they are put back; the
        # fields it leaves behind that nothing reads again are reset (_VOLLEY_DEAD).
        out: dict = {}
        get = out.get
        for s, p in dist.items():
            x = who[1] if who[0] == "shot" else (s.order if who[0] == "first" else 1 - s.order)
            y = 1 - x
            fx, fy = s.f[x], s.f[y]
            f = [None, None]
            f[x] = _STATUS_ONLY[fx.status]
            f[y] = fy._replace(stood_up=False, pistols_used=False, ibonus=0)
            fear = [False, False]
            fear[x] = s.fear[x]  # read by the to-hit rolls (000:853)
            key = s._replace(lost=(0, 0), f=tuple(f), fear=tuple(fear), rbonus=0, rnohelm=False)
            res = vcache.get(key)
            if res is None:
                d = None
                if volley is not None:
                    # Most volleys in a duel roll no dice (the attacker is down, or the defender
                    # already out): one run of the Roll-mode volley (the same step methods) on
                    # dice that refuse to roll gives the whole answer; otherwise step by step.
                    end = no_dice_result(volley, key)
                    if end is not None:
                        d = {end: 1.0}
                if d is None:
                    d = {key: 1.0}
                    for step, cache in zip(steps, caches):
                        d = propagate(step, d, cache)
                res = {}
                for s2, q in d.items():
                    s2 = s2._replace(**_VOLLEY_DEAD)
                    res[s2] = res.get(s2, 0.0) + q
                res = vcache[key] = list(res.items())
            l0, l1 = s.lost
            back = dict(stood_up=fy.stood_up, pistols_used=fy.pistols_used, ibonus=fy.ibonus)
            for s2, q in res:
                f[x] = fx
                f[y] = s2.f[y]._replace(**back)
                s2 = s2._replace(f=tuple(f), fear=s.fear, lost=(s2.lost[0] + l0, s2.lost[1] + l1))
                out[s2] = get(s2, 0.0) + p * q
        return out

    # --- steps --------------------------------------------------------------------------
    def crimson_setup(self, dice: Dice, s: RS) -> RS:
        for i, side in enumerate(self.sides):
            if "crimson-shade" in side.fighter.equipment:
                n = d3(dice)  # 000:1381 +D3 Initiative
                s = _setf(s, i, s.f[i]._replace(ibonus=n))
                if dice.logging:
                    dice.say(f"{self.names[i]}: Crimson Shade gives +{n} Initiative (000:1381)")
        return s

    def fear_test(self, dice: Dice, s: RS) -> RS:
        x = self.charger
        y = 1 - x
        if not self.sides[x].fear_causer or self.sides[y].fear_immune or s.f[y].status != STANDING:
            return s
        a, b = dice.d6(), dice.d6()
        ld = self.sides[y].fighter.profile.Ld
        failed = a + b > ld  # 000:257 2D6 <= Ld
        if dice.logging:
            dice.say(f"{self.names[y]} is charged by a fear-causer: Ld test rolled {a}+{b}={a + b} vs Ld{ld}: "
                     + ("failed, needs 6s to hit this round (000:853)" if failed else "passed"))
        if failed:
            fear = list(s.fear)
            fear[y] = True
            s = s._replace(fear=tuple(fear))
        return s

    def strike_order(self, dice: Dice, s: RS) -> RS:
        def key(i):
            side, fs = self.sides[i], s.f[i]
            return (0 if fs.stood_up else side.tier, side.initiative + fs.ibonus)  # 000:662-668

        k0, k1 = key(0), key(1)
        if k0 != k1:
            order = 0 if k0 > k1 else 1
            if dice.logging:
                why = "Initiative" if k0[0] == k1[0] else {0: "stood up: strikes last", 1: "strike last", 3: "strikes first"}.get(max(k0, k1)[0] if k0[0] != k1[0] and max(k0, k1)[0] == 3 else min(k0, k1)[0], "Initiative")
                dice.say(f"{self.names[order]} strikes first ({why}).")
        else:
            roll = dice.d6()  # 000:662 equal Initiative: roll a dice (1-3 the first fighter, 4-6 the second)
            order = 0 if roll <= 3 else 1
            if dice.logging:
                dice.say(f"Equal Initiative: rolled {roll}, {self.names[order]} strikes first.")
        return s._replace(order=order)

    def end_round(self, dice: Dice, s: RS) -> RS:
        f = self._end_f.get(s.f)  # a pure function of s.f, remembered (Roll mode asks every round)
        if f is None:
            f = self._end_f[s.f] = tuple(fs._replace(stood_up=False, pistols_used=fs.pistols_used or self.first_round) for fs in s.f)
        return s._replace(f=f, order=-1, fear=(False, False), hammered=(False, False))

    # --- a volley: one fighter's attacks on the other ------------------------------------
    def volley_steps(self, who: tuple, max_hits: int) -> list:
        def xy(s: RS) -> tuple[int, int]:
            if who[0] == "shot":
                x = who[1]
            else:
                x = s.order if who[0] == "first" else 1 - s.order
            return x, 1 - x

        def specs(x):
            return self.sides[x].shots if who[0] == "shot" else self.sides[x].attacks

        steps = [lambda d, s: self._start(d, s, *xy(s), who[0] == "shot")]
        n_att = max(sum(sp.count for sp in specs(i)) for i in (0, 1))
        for k in range(n_att):
            steps.append(lambda d, s, k=k: self._to_hit(d, s, *xy(s), specs(xy(s)[0]), k))
        if who[0] != "shot":
            steps.append(lambda d, s: self._parry(d, s, *xy(s), specs(xy(s)[0])))
        steps.append(lambda d, s: self._charm(d, s, *xy(s)))
        # One resolve block (the same step objects) per hit: Odds mode shares their tables.
        block = self._resolve_block(xy, specs)
        for _ in range(max(n_att, 1)):
            steps += block
        if who[0] != "shot":
            steps.append(lambda d, s: self._bonus_attack(d, s, *xy(s), specs(xy(s)[0])))
            steps += block
        steps.append(lambda d, s: self._end_volley(d, s, *xy(s)))
        return steps

    def _resolve_block(self, xy, specs) -> list:
        wound = lambda d, s: self._wound(d, s, *xy(s), specs(xy(s)[0]))  # noqa: E731
        wound.passthrough = ("f", "lost", "inj", "rolls", "rbonus", "rnohelm", "fear", "active")
        save = lambda d, s: self._save(d, s, *xy(s), specs(xy(s)[0]))  # noqa: E731
        save.passthrough = ("f", "lost", "inj", "rolls", "rbonus", "rnohelm", "fear", "active", "hits", "crit", "hammered", "bonus_attack")
        inj = lambda d, s: self._injury(d, s, *xy(s), specs(xy(s)[0]))  # noqa: E731
        inj.passthrough = ("f", "lost", "fear", "active", "hits", "crit", "hammered", "bonus_attack", "cur")
        apply = lambda d, s: self._apply(d, s, *xy(s), specs(xy(s)[0]))  # noqa: E731
        apply.passthrough = ("fear", "active", "hits", "crit", "hammered", "bonus_attack", "pmax", "pslot", "six")
        return [wound, save, apply, inj, inj]

    def _start(self, dice: Dice, s: RS, x: int, y: int, shot: bool) -> RS:
        fx, fy = s.f[x], s.f[y]
        active = fx.status == STANDING and fy.status != OUT_OF_ACTION and not s.hammered[x]
        s = s._replace(active=active, hits=(), pmax=0, pslot=0, six=False, cur=None, inj=0, rolls=0, crit=False, bonus_attack=0)
        if not active or shot:
            if dice.logging and fx.status != STANDING and fy.status != OUT_OF_ACTION and not shot:
                dice.say(f"{self.names[x]} is {STATUS_WORDS[fx.status]} and cannot strike.")
            elif dice.logging and s.hammered[x] and not shot:
                dice.say(f"{self.names[x]} was hammered and cannot fight this turn (002:678).")
            return s
        if fy.status == STUNNED and self.r.stunned_auto_out_of_action:
            if dice.logging:
                dice.say(f"{self.names[y]} is stunned: {self.names[x]} takes him out of action automatically (000:789).")
            return _setf(s, y, fy._replace(status=OUT_OF_ACTION))._replace(active=False)
        return s

    def _to_hit(self, dice: Dice, s: RS, x: int, y: int, specs: tuple, k: int) -> RS:
        if not s.active:
            return s
        status, fear = s.f[y].status, s.fear[x]
        key = (x, id(specs), k, status, fear)  # specs belong to self.sides: their ids are stable
        plan = self._hit_plans.get(key)
        if plan is None:
            plan = self._hit_plans[key] = self._hit_plan(x, y, specs, k, status, fear)
        slot, sp, auto, needed, hits_on = plan
        if sp is None:
            return s
        if auto:
            hits = list(s.hits) or [(0, 0)] * len(specs)
            hits[slot] = (hits[slot][0] + 1, hits[slot][1])
            if dice.logging:
                dice.say(f"{self.names[x]} attack {k + 1} ({sp.name}): {self.names[y]} is {auto}")
            return s._replace(hits=tuple(hits))
        roll = dice.d6()
        ok = roll in hits_on
        if not ok and self.sides[x].hatred:
            first = roll
            roll = dice.d6()  # 000:875 hatred: re-roll misses in the first turn
            ok = roll in hits_on
            if dice.logging:
                dice.say(f"{self.names[x]} attack {k + 1}: rolled {first}, missed; hatred re-roll (000:875)")
        if dice.logging:
            side_x, side_y = self.sides[x], self.sides[y]
            if sp.shot_needed is not None:
                why = "; ".join(self.reasons) if self.shooting else f"BS{side_x.fighter.profile.BS} shot at -2 (000:1155)"
            else:
                why = "fear failed: 6s (000:853)" if s.fear[x] else f"WS{side_x.ws} vs WS{side_y.ws}" + (" +1 accuracy (000:1199)" if sp.to_hit_mod else "")
            dice.say(f"{self.names[x]} attack {k + 1} ({sp.name}) to hit: rolled {roll}, needed {needed}+ ({why}) → {'hit' if ok else 'miss'}")
        if not ok:
            return s
        six = roll == 6
        hits = list(s.hits) or [(0, 0)] * len(specs)
        hits[slot] = (hits[slot][0] + (0 if six and sp.lotus else 1), hits[slot][1] + (1 if six and sp.lotus else 0))
        pmax, pslot = s.pmax, s.pslot
        if sp.parryable and roll < 6 and roll > pmax:
            pmax, pslot = roll, slot
        return s._replace(hits=tuple(hits), pmax=pmax, pslot=pslot, six=s.six or six)

    def _hit_plan(self, x: int, y: int, specs: tuple, k: int, status: int, fear: bool) -> tuple:
        """(slot, spec, automatic-hit reason, needed, faces that hit) of attack k: a function of
        the attacker, k, the defender's status and the attacker's fear, remembered by _to_hit."""
        slot, n = 0, k
        while slot < len(specs) and n >= specs[slot].count:
            n -= specs[slot].count
            slot += 1
        if slot >= len(specs):
            return (slot, None, None, None, None)
        sp = specs[slot]
        side_x, side_y = self.sides[x], self.sides[y]
        auto = None
        if sp.shot_needed is None:
            if status == KNOCKED_DOWN and self.r.knocked_down_auto_hit:
                auto = "knocked down: hits automatically (000:783)"
            elif status == STUNNED:
                auto = "stunned: hits automatically (004:609)"
            elif side_y.fighter.profile.WS == 0:
                auto = "WS 0: hits automatically (000:236)"
        if auto:
            return (slot, sp, auto, None, None)
        if sp.shot_needed is not None:
            needed = sp.shot_needed  # 000:1155 crossbow pistol shot by BS at -2
        else:
            needed = self.r.cc_needed(side_x.ws, side_y.ws, sp.to_hit_mod, fear)
        return (slot, sp, None, needed, frozenset(roll for roll in range(1, 7) if self.r.hit_succeeds(roll, needed)))

    def _parry(self, dice: Dice, s: RS, x: int, y: int, specs: tuple) -> RS:
        side_y = self.sides[y]
        if not s.active or not s.hits or not side_y.can_parry or s.f[y].status != STANDING:
            if not (s.pmax or s.pslot or s.six):
                return s  # already reset
            return s._replace(pmax=0, pslot=0, six=False)
        if s.six:
            if dice.logging:
                dice.say(f"{self.names[y]} cannot parry: a 6 was rolled to hit (000:775).")
            return s._replace(pmax=0, pslot=0, six=False)
        if s.pmax == 0:
            if dice.logging:
                dice.say(f"{self.names[y]} cannot parry blows of double his Strength or more (000:779).")
            return s._replace(pmax=0, pslot=0, six=False)
        # INVENTORY §5.9 decision: one parry per phase, against the highest to-hit roll among the
        # blows it may parry; that hit (the first weapon's on a tie) is discarded (000:954, 000:775)
        saved = False
        for attempt in range(side_y.parry_attempts):
            roll = dice.d6() + side_y.parry_bonus
            saved = roll > s.pmax
            if dice.logging:
                bonus = f" (+{side_y.parry_bonus} two swords, 002:966)" if side_y.parry_bonus else ""
                again = " (re-roll)" if attempt else ""
                dice.say(f"{self.names[y]} parries{again}: rolled {roll}{bonus}, needs more than {s.pmax} → {'parried' if saved else 'failed'}")
            if saved:
                break
        hits = s.hits
        if saved:
            hits = list(hits)
            n, n6 = hits[s.pslot]
            hits[s.pslot] = (n - 1, n6) if n else (n, n6 - 1)
            hits = tuple(hits)
        return s._replace(hits=hits, pmax=0, pslot=0, six=False)

    def _charm(self, dice: Dice, s: RS, x: int, y: int) -> RS:
        fy = s.f[y]
        if not s.active or not fy.charm or not any(n + n6 for n, n6 in s.hits):
            return s
        roll = dice.d6()  # 000:1397 the first hit in the battle is discarded on a 4+
        hits = s.hits
        if roll >= 4:
            hits = list(hits)
            for i, (n, n6) in enumerate(hits):
                if n + n6:
                    hits[i] = (n - 1, n6) if n else (n, n6 - 1)
                    break
            hits = tuple(hits)
        if dice.logging:
            dice.say(f"{self.names[y]}'s lucky charm: rolled {roll}, needs 4+ → {'hit discarded' if roll >= 4 else 'no luck'} (000:1397)")
        return _setf(s._replace(hits=hits), y, fy._replace(charm=False))

    def _wound(self, dice: Dice, s: RS, x: int, y: int, specs: tuple) -> RS:
        if s.cur is not None:
            return s
        for slot, (n, n6) in enumerate(s.hits):  # the first slot with a hit left
            if n + n6:
                break
        else:
            return s
        hits = list(s.hits)
        lotus_auto = n == 0
        hits[slot] = (n - 1, n6) if n else (n, n6 - 1)
        hits = tuple(hits)
        sp = specs[slot]
        r = self.r
        t = self.sides[y].toughness
        needed = r.to_wound_target(sp.strength, t)
        roll = dice.d6()
        if lotus_auto:
            wounded = True  # 000:1361 Black Lotus: a 6 to hit wounds automatically, roll for a critical
        else:
            wounded = needed is not None and roll >= needed
        crit = wounded and roll == 6 and needed is not None and r.critical_possible(needed) and not (s.crit and r.one_critical_per_phase)
        if dice.logging:
            if lotus_auto:
                why = "Black Lotus wounds automatically (000:1361)"
            else:
                why = f"S{sp.strength} vs T{t}" if needed else f"S{sp.strength} cannot wound T{t} (000:533)"
            need = f"needed {needed}+" if needed else "no chance"
            dice.say(f"To wound with {sp.name}: rolled {roll}, {need} ({why}) → {'wound' if wounded else 'no wound'}{', critical hit!' if crit else ''}")
        if not wounded:
            return s._replace(hits=hits)
        if not crit:
            return s._replace(hits=hits, cur=(slot, 1, SAVE, 0, False, False, False))
        cur = self._critical(dice, sp, x, y)
        # crit is only read for the one-critical-per-phase cap: without the cap it stays False
        crit = r.one_critical_per_phase
        if cur[0] == -1:  # hammered / body blow side effects
            kind = cur[1]
            cur = (slot,) + cur[2:]
            if kind == "hammered":
                h = list(s.hammered)
                h[y] = True
                return s._replace(hits=hits, crit=crit, hammered=tuple(h), cur=cur)
            if kind == "body-blow":
                return s._replace(hits=hits, crit=crit, bonus_attack=1, cur=cur)
            return s._replace(hits=hits, crit=crit, cur=cur)
        return s._replace(hits=hits, crit=crit, cur=(slot,) + cur[1:])

    def _critical(self, dice: Dice, sp: AttackSpec, x: int, y: int) -> tuple:
        """(_, wounds, save mode, injury bonus, no helmet, out if unsaved, knocked down)."""
        roll = dice.d6()
        say = dice.say if dice.logging else (lambda t: None)
        if not self.r.weapon_critical_tables:
            # 000:566-574 single chart
            if roll <= 2:
                say(f"Critical {roll}: Hits a vital part – 2 wounds, save rolled first (000:570)")
                return (0, 2, SAVE, 0, False, False, False)
            if roll <= 4:
                say(f"Critical {roll}: Hits an exposed spot – 2 wounds, no save (000:572)")
                return (0, 2, NO_SAVE, 0, False, False, False)
            say(f"Critical {roll}: Master strike! – 2 wounds, no save, +2 injury (000:574)")
            return (0, 2, NO_SAVE, 2, False, False, False)
        table = sp.critical
        src = "002" if self.r.edition == "core" else "004"
        if table == "missile":  # 002:664-672, 004:392-400
            if roll <= 2:
                say(f"Critical {roll}: Hits a Weak Spot – no save ({src})")
                return (0, 1, NO_SAVE, 0, False, False, False)
            if roll <= 4:
                say(f"Critical {roll}: Ricochet – no other model in a one-on-one fight, normal wound ({src})")
                return (0, 1, SAVE, 0, False, False, False)
            say(f"Critical {roll}: Master Shot – 2 wounds, no save ({src})")
            return (0, 2, NO_SAVE, 0, False, False, False)
        if table == "bludgeoning":  # 002:674-683, 004:402-411
            if roll <= 2:
                say(f"Critical {roll}: Hammered – the target may not fight this turn if he has not ({src})")
                return (-1, "hammered", 1, SAVE, 0, False, False, False)
            if roll <= 4:
                say(f"Critical {roll}: Clubbed – ignores armour and helmet saves ({src})")
                return (0, 1, NO_SAVE, 0, True, False, False)
            if roll == 5:
                say(f"Critical 5: Wild Sweep – weapon knocked away (not tracked), wound with normal save ({src})")
                return (0, 1, SAVE, 0, False, False, False)
            say(f"Critical 6: Bludgeoned – out of action if the save fails ({src})")
            return (0, 1, SAVE, 0, False, True, False)
        if table == "unarmed":  # 002:695-703, 004:425-433
            if roll <= 2:
                say(f"Critical {roll}: Body Blow – an extra attack ({src})")
                return (-1, "body-blow", 1, SAVE, 0, False, False, False)
            if roll <= 4:
                say(f"Critical {roll}: Crushing Blow – +1 injury ({src})")
                return (0, 1, SAVE, 1, False, False, False)
            say(f"Critical {roll}: Mighty Blow – no save, +2 injury ({src})")
            return (0, 1, NO_SAVE, 2, False, False, False)
        if table == "thrusting":  # 002:705-713, 004:435-443
            if roll <= 2:
                say(f"Critical {roll}: Stab – +1 injury ({src})")
                return (0, 1, SAVE, 1, False, False, False)
            if roll <= 4:
                say(f"Critical {roll}: Thrust – knocked down even if the save is made ({src})")
                return (0, 1, SAVE, 0, False, False, True)
            say(f"Critical {roll}: Kebab! – no save, +2 injury ({src})")
            return (0, 1, NO_SAVE, 2, False, False, False)
        # bladed 002:685-693, 004:413-421
        if roll <= 2:
            say(f"Critical {roll}: Flesh Wound – no save ({src})")
            return (0, 1, NO_SAVE, 0, False, False, False)
        if roll <= 4:
            say(f"Critical {roll}: Bladestorm – 2 wounds, saved separately ({src})")
            return (0, 2, SAVE_EACH, 0, False, False, False)
        say(f"Critical {roll}: Sliced! – 2 wounds, no save, +2 injury ({src})")
        return (0, 2, NO_SAVE, 2, False, False, False)

    def save_target(self, sp: AttackSpec, y: int) -> int | None:
        base = self.sides[y].save_cc
        if sp.enemy_save_bonus:
            base = 6 if base is None else base - 1  # 000:909/919 +1 save, 6+ if none
        if base is None:
            return None
        return base - sp.save_mod  # 000:598-609 modifiers make the save harder

    def _save(self, dice: Dice, s: RS, x: int, y: int, specs: tuple) -> RS:
        if s.cur is None or s.cur[2] == -9:
            return s
        slot, wounds, mode, bonus, nohelm, ooa, kd = s.cur
        if mode == NO_SAVE:
            if dice.logging:
                dice.say(f"{self.names[y]}: no armour save.")
            return s._replace(cur=(slot, wounds, -9, bonus, nohelm, ooa, kd))
        sp = specs[slot]
        target = self.save_target(sp, y)
        if target is None or target > 6:
            if dice.logging and target is not None:
                dice.say(f"{self.names[y]}: the save would need {target}+, impossible.")
            return s._replace(cur=(slot, wounds, -9, bonus, nohelm, ooa, kd))
        left = wounds
        for _ in range(wounds if mode == SAVE_EACH else 1):
            roll = dice.d6()
            ok = roll >= max(target, 2)
            if dice.logging:
                dice.say(f"{self.names[y]} armour save: rolled {roll}, needed {target}+ (modifier {sp.save_mod}) → {'saved' if ok else 'failed'}")
            if ok:
                left = left - 1 if mode == SAVE_EACH else 0
        return s._replace(cur=(slot, left, -9, bonus, nohelm, ooa, kd))

    def _apply(self, dice: Dice, s: RS, x: int, y: int, specs: tuple) -> RS:
        if s.cur is None:
            return s
        slot, wounds, _, bonus, nohelm, ooa, kd = s.cur
        fy = s.f[y]
        inj = s.inj
        if kd and fy.status == STANDING:
            inj = max(inj, int(Injury.KNOCKED_DOWN))
        if wounds == 0:
            return s._replace(cur=None, inj=inj)
        lost = list(s.lost)
        lost[y] += wounds
        lost = tuple(lost)
        f = list(s.f)
        if (fy.status in (KNOCKED_DOWN, STUNNED) and not self.shooting) or ooa:
            # 000:785 a knocked-down warrior wounded who fails his save is out of action;
            # 004:609 stunned as knocked down; 002:683 Bludgeoned
            if dice.logging:
                why = "Bludgeoned" if ooa and fy.status == STANDING else f"wounded while {STATUS_WORDS[fy.status]} (000:785)"
                dice.say(f"{self.names[y]} is out of action: {why}.")
            f[y] = fy._replace(status=OUT_OF_ACTION, wounds=max(0, fy.wounds - wounds))
            return s._replace(cur=None, inj=inj, lost=lost, f=tuple(f))
        rolls = 0
        w = fy.wounds
        for _ in range(wounds):
            if w > 1:
                w -= 1  # 000:613 deduct a wound while more than 1 is left
            else:
                w = 0
                rolls += 1  # 000:615 roll for the last wound and every wound after it
        if dice.logging:
            dice.say(f"{self.names[y]} loses {wounds} wound{'s' if wounds > 1 else ''}: {w} left" + (f", {rolls} injury roll{'s' if rolls > 1 else ''}" if rolls else ""))
        f[y] = fy._replace(wounds=w)
        if not rolls:  # rbonus/rnohelm are only read while rolls are left: keep them canonical
            return s._replace(cur=None, inj=inj, lost=lost, f=tuple(f))
        conc = specs[slot].concussion  # 000:930
        return s._replace(cur=None, inj=inj, lost=lost, f=tuple(f), rolls=rolls, rbonus=bonus, rnohelm=(nohelm, conc))

    def _injury(self, dice: Dice, s: RS, x: int, y: int, specs: tuple) -> RS:
        if s.rolls == 0:
            return s
        if s.inj == int(Injury.OUT_OF_ACTION):
            return s._replace(rolls=0, rbonus=0, rnohelm=False)  # the highest result is already out of action
        key = (y, s.rbonus, s.rnohelm)
        opts = self._injury_options.get(key)
        if opts is None:
            side = self.sides[y]
            nohelm, concussion = s.rnohelm
            opts = InjuryOptions(concussion, side.helmet, side.mandrake, s.rbonus + self.injury_bonus, nohelm, self.r.toggle("concussion_on_natural_roll"))
            self._injury_options[key] = opts
        result = injury_rule(dice, opts)
        if s.rolls == 1:  # the last roll: the per-hit fields are dead from here (canonical values)
            return s._replace(inj=max(s.inj, int(result)), rolls=0, rbonus=0, rnohelm=False)
        return s._replace(inj=max(s.inj, int(result)), rolls=s.rolls - 1)

    def _bonus_attack(self, dice: Dice, s: RS, x: int, y: int, specs: tuple) -> RS:
        if not s.bonus_attack or not s.active:
            return s
        # 002:699 Body Blow: immediately roll to hit and to wound one extra attack (one per volley)
        s = s._replace(bonus_attack=0, hits=tuple((0, 0) for _ in s.hits))
        side_x, side_y = self.sides[x], self.sides[y]
        needed = self.r.cc_needed(side_x.ws, side_y.ws, specs[0].to_hit_mod, s.fear[x])
        roll = dice.d6()
        ok = self.r.hit_succeeds(roll, needed) or side_y.fighter.profile.WS == 0
        if dice.logging:
            dice.say(f"Body Blow extra attack: rolled {roll}, needed {needed}+ → {'hit' if ok else 'miss'}")
        if ok:
            hits = list(s.hits)
            hits[0] = (1, 0)
            s = s._replace(hits=tuple(hits))
        return s

    def _end_volley(self, dice: Dice, s: RS, x: int, y: int) -> RS:
        if not s.inj:
            return s._replace(active=False)
        fy = s.f[y]
        inj = s.inj
        status = max(fy.status, inj)
        fy = fy._replace(status=status, frenzied=fy.frenzied and status == STANDING)  # 000:869 frenzy lost
        if dice.logging:
            dice.say(f"**{self.names[y]} is {STATUS_WORDS[status]}.**")
        return _setf(s, y, fy)._replace(inj=0, active=False)
