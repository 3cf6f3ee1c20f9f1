"""A close-combat round (000:649-805) among several models, in Roll mode and Odds mode.

A fight is one melee: every model touches every enemy (what a 2 v 1, 3 v 1 or 2 v 2 looks like
on the table). A round is a list of segments, run in order:

1. the first round's setup: Crimson Shade's +D3 Initiative (000:1381), Stupidity tests
   (000:883-893) and fear tests of the charged (000:851-853);
2. crossbow pistols' shots before any blows (000:1155), then a whip's extra attack against its
   charger (Whipcrack);
3. the strike order across all models (000:661-667);
4. each model's blows in that order, at the target ``choose_target`` gives (``Volley``);
5. All Alone tests at the end of the phase, and the automatic hits on a warrior breaking from
   combat (000:801, 837);
6. the end of the round: what lasts one round is reset.

Roll mode (``roll``) runs the segments on one ``RoundState`` with real dice and a log. Odds mode
(``engine.combat.round_odds.odds_of(rules)``) runs the same segments on a distribution of states,
with its tables remembered per rules object so a duel reuses them round after round.

Decisions where the seeds leave the choice to the players (each said in the log):

* Target: a model attacks a standing enemy if there is one (000:789), preferring its opposite
  number (the enemy listed in the same place), else the first standing enemy listed; when no enemy
  stands it attacks a stunned one first, then a knocked-down one. All its attacks go at that one
  target (000:673 allows dividing them; the bot does not).
* Ties in the strike order between the two sides are settled by one dice roll (1-3: the attacking
  side's models first), between models of one side by the order they are listed in.
* All Alone: a standing model with no standing friend left in the fight, facing two or more
  standing enemies (core2: of his size or larger, 004:666), tests at the end of every round; the
  fight assumes no other friend within 6".
* Fear: when any charging model causes fear, every standing model of the charged side tests
  (each was charged by it, as every model touches every enemy).
* Stupidity (lrb, core): tested at the start of the stupid model's own turn; in the other side's
  turn the result of his last test stands, and for a single round (or the first of a fight)
  that test is rolled too. A stupid model that charged has passed its test (000:887-891: one
  that fails does not charge), so in the round of its charge it rolls none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property, partial
from typing import Any, NamedTuple

from engine.combat.citations import cite
from engine.combat.dice import Dice, d3_of
from engine.combat.fighter import Fighter, check_can_fight
from engine.combat.ruleset import Ruleset
from engine.combat.sides import STOOD_UP, STRIKES_FIRST, STRIKES_LAST, Matchup, ModelNumbers, RoundContext, matchup, model_numbers
from engine.combat.state import FLED, KNOCKED_DOWN, OUT_OF_ACTION, STANDING, STATUS_OF, STATUS_WORDS, STUNNED, Blows, ModelState, RoundState
from engine.combat.volley import BLOWS, BREAKING, CC_SHOT, FIRST_STRIKE, Volley
from engine.errors import LimitExceeded

MAX_MODELS = 4  # up to 3 v 1 and 2 v 2
MAX_SIDE = 3

ATTACKERS, DEFENDERS = 0, 1


@dataclass(frozen=True)
class Fight:
    """The models of one fight: ``fighters`` in order, ``sides[i]`` 0 for the attacking side."""

    fighters: tuple[Fighter, ...]
    sides: tuple[int, ...]

    @classmethod
    def of(cls, attackers: tuple[Fighter, ...], defenders: tuple[Fighter, ...]) -> Fight:
        if not attackers or not defenders:
            raise LimitExceeded("A fight needs a fighter on each side.")
        if len(attackers) > MAX_SIDE or len(defenders) > MAX_SIDE or len(attackers) + len(defenders) > MAX_MODELS:
            raise LimitExceeded(
                f"{len(attackers)} v {len(defenders)} is too many models: a fight takes up to 3 v 1 or 2 v 2.",
                hint="Split a bigger melee into fights the way its models are paired on the table.")
        for f in attackers + defenders:
            check_can_fight(f)
        return cls(attackers + defenders, (ATTACKERS,) * len(attackers) + (DEFENDERS,) * len(defenders))

    @cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fighters)

    @cached_property
    def _by_side(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        attackers = tuple(i for i, s in enumerate(self.sides) if s == ATTACKERS)
        defenders = tuple(i for i, s in enumerate(self.sides) if s == DEFENDERS)
        return attackers, defenders

    @cached_property
    def _friends(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(j for j in self._by_side[self.sides[i]] if j != i) for i in range(len(self.sides)))

    def side(self, k: int) -> tuple[int, ...]:
        return self._by_side[k]

    def enemies(self, i: int) -> tuple[int, ...]:
        return self._by_side[1 - self.sides[i]]

    def friends(self, i: int) -> tuple[int, ...]:
        return self._friends[i]

    def start_models(self) -> tuple[ModelState, ...]:
        return tuple(initial_state(f) for f in self.fighters)


def initial_state(f: Fighter) -> ModelState:
    status = STATUS_OF[f.state]
    return ModelState(f.wounds_left, status, f.is_frenzied and status == STANDING, "lucky-charm" in f.equipment)


class VolleyCall(NamedTuple):
    """Who attacks whom in a segment, with which volley, from which start."""

    volley: Volley
    attacker: int
    target: int
    start: Blows


Step = Callable[[Dice, RoundState], RoundState]  # a plain step of a round: step(dice, state) -> state


def _no_step(dice: Dice, s: RoundState) -> RoundState:
    raise TypeError("Only a 'step' or 'tidy' segment has a step to run.")


@dataclass(frozen=True)
class Segment:
    """One part of a round: a plain step on the whole state, or a volley."""

    kind: str  # "step", "tidy" (a step that rolls no dice), "shot", "first" (Whipcrack), "blows", "break", "alone" (All Alone tests)
    step: Step = _no_step  # for "step" and "tidy"; the other kinds have none
    who: int = 0  # "shot", "first": the model; "blows": the place in the strike order; "break": the breaking model
    enemy: int = 0  # "break": the enemy who hits


class RoundRules:
    """The segments of one round of a fight, and the two ways to run them.

    ``first_round``: the first turn of this combat (charges, heavy weapons, pistols);
    ``charger``: the side that charged this turn (None: nobody); ``turn``: the side whose turn
    it is (Stupidity tests); ``setup``: the first round of the whole fight (Crimson Shade, and
    Stupidity tests for both sides, standing for the other side's test of its own last turn)."""

    def __init__(self, r: Ruleset, fight: Fight, *, first_round: bool, charger: int | None, turn: int, setup: bool) -> None:
        self.r = r
        self.fight = fight
        self.first_round = first_round
        self.charger = charger
        self.turn = turn
        self.setup = setup
        self.names = fight.names
        self.contexts = tuple(RoundContext(first_round=first_round, charging=charger == k, charged=charger == 1 - k) for k in (0, 1))
        self._numbers: dict = {}  # (model, frenzied, weapons lost) -> ModelNumbers
        self._matchups: dict = {}  # (attacker key, target key) -> Matchup
        self._volleys: dict = {}  # (kind, matchup key, target status, fear) -> Volley
        self._orders: dict = {}  # strike_order's keys and groups per tuple of models
        self._alone_testers: dict = {}  # who tests All Alone, per tuple of models
        self.odds_tables: Any = None  # its Odds mode (engine.combat.round_odds.odds_of), built when first asked
        n = len(fight.fighters)
        # every model's numbers as it starts the fight: checks the kits now (errors before any die)
        for i, f in enumerate(fight.fighters):
            self.numbers(i, initial_state(f))
        segments: list[Segment] = []
        if setup and any("crimson-shade" in f.equipment for f in fight.fighters):
            segments.append(Segment("step", self.crimson_shade))
        # the Leadership tests one step per model (in model order, as one step rolled them): a
        # step's odds table replays every sequence of its dice, 36 for one test, 1,296 for two
        if r.edition != "core2":
            segments += [Segment("step", partial(self.stupidity_test, i)) for i, f in enumerate(fight.fighters) if f.has("stupidity")]
        if first_round and charger is not None and any(fight.fighters[c].causes_fear for c in fight.side(charger)):
            segments += [Segment("step", partial(self.fear_test, y)) for y in fight.side(1 - charger)]
        for i in range(n):
            if first_round and self.numbers(i, initial_state(fight.fighters[i])).shots:
                segments.append(Segment("shot", who=i))
        for i in range(n):
            if first_round and self.numbers(i, initial_state(fight.fighters[i])).first_strikes:
                segments.append(Segment("first", who=i))  # Whipcrack's attack against the charger
        segments.append(Segment("step", self.strike_order))
        segments += [Segment("blows", who=place) for place in range(n)]
        if any(len(fight.enemies(i)) >= 2 for i in range(n)):
            segments.append(Segment("tidy", self.blows_struck))
            segments.append(Segment("alone"))
            for i in range(n):
                if len(fight.enemies(i)) >= 2:
                    segments += [Segment("break", who=i, enemy=e) for e in fight.enemies(i)]
            segments.append(Segment("tidy", self.flee))
        segments.append(Segment("tidy", self.end_round))
        self.segments = tuple(segments)

    # --- numbers (remembered under small keys: hashing the fighters themselves is slow) ----------------
    def numbers(self, i: int, m: ModelState) -> ModelNumbers:
        key = (i, m.frenzied, m.weapons_lost)
        n = self._numbers.get(key)
        if n is None:
            f = self.fight.fighters[i]
            n = self._numbers[key] = model_numbers(self.r, i, f, self.contexts[self.fight.sides[i]], frenzied=m.frenzied,
                                                   weapons_lost=m.weapons_lost)
        return n

    def matchup(self, s: RoundState, x: int, y: int) -> tuple[tuple, Matchup]:
        mx, my = s.models[x], s.models[y]
        key = (x, mx.frenzied, mx.weapons_lost, y, my.frenzied, my.weapons_lost)
        mu = self._matchups.get(key)
        if mu is None:
            mu = self._matchups[key] = matchup(self.r, self.numbers(x, mx), self.numbers(y, my), self.contexts[self.fight.sides[x]])
        return key, mu

    # --- Roll mode and Odds mode ------------------------------------------------------------------
    def roll(self, dice: Dice, s: RoundState) -> RoundState:
        for seg in self.segments:
            if seg.kind in ("step", "tidy"):
                s = seg.step(dice, s)
            elif seg.kind == "alone":
                s = s._replace(breaking=self.all_alone_tests(dice, s.models))
            else:
                call = self._volley_call(dice, s, seg)
                if isinstance(call, RoundState):
                    s = call
                elif call is not None:
                    s = self._after_volley(s, call, call.volley.roll(dice, call.start))
        return s

    # --- volleys ----------------------------------------------------------------------------------
    def _volley_call(self, dice: Dice, s: RoundState, seg: Segment) -> VolleyCall | RoundState | None:
        """Who attacks whom in this segment; a RoundState when the segment changes the state
        without a volley (a stunned warrior taken out at once); None when nothing happens.
        Rolls no die (``dice`` only says what happens in Roll mode)."""
        if seg.kind in ("shot", "first"):
            return self._shot_call(dice, s, seg.who, FIRST_STRIKE if seg.kind == "first" else CC_SHOT)
        if seg.kind == "break":
            return self._break_call(dice, s, seg.who, seg.enemy)
        if seg.who >= len(s.order):
            return None
        return self._blows_call(dice, s, s.order[seg.who])

    def _blows_call(self, dice: Dice, s: RoundState, x: int):
        m, name, ed = s.models[x], self.names[x], self.r.edition
        if m.out_of_fight:
            return None
        if m.status != STANDING:
            if dice.logging and any(not s.models[e].out_of_fight for e in self.fight.enemies(x)):
                dice.say(f"{name} is {STATUS_WORDS[m.status]} and cannot strike.")
            return None
        if s.hammered[x]:
            if dice.logging:
                dice.say(f"{name} was hammered and cannot fight this turn ({cite('crit-hammered', ed)}).")
            return None
        if m.stupid:
            if dice.logging:
                dice.say(f"{name} failed his Stupidity test and does not fight this turn ({cite('stupidity', ed)}).")
            return None
        y = self.choose_target(dice, s, x)
        if y is None:
            return None
        target = s.models[y]
        if target.status == STUNNED and self.r.stunned_auto_out_of_action:
            if dice.logging:
                dice.say(f"{self.names[y]} is stunned: {name} takes him out of action automatically ({cite('stunned-auto-out', ed)}).")
            return self._set_model(s, y, gone(OUT_OF_ACTION))
        key, mu = self.matchup(s, x, y)
        if not mu.blows:
            return None
        volley = self._volley(BLOWS, key, mu, target.status, s.failed_fear[x])
        return VolleyCall(volley, x, y, self._start(s, x, y))

    def _shot_call(self, dice: Dice, s: RoundState, x: int, kind: str):
        """A crossbow pistol's shot (CC_SHOT), or a whip's attack against his charger
        (FIRST_STRIKE): one volley before any blow of the round."""
        m = s.models[x]
        if m.status != STANDING or s.hammered[x] or m.stupid:
            return None
        y = self.choose_target(_SILENT, s, x)
        if y is None:
            return None
        key, mu = self.matchup(s, x, y)
        if not (mu.shots if kind == CC_SHOT else mu.first_strikes):
            return None
        if kind == FIRST_STRIKE and dice.logging:
            whip = mu.first_strikes[0].name.lower()
            dice.say(f"{self.names[x]} was charged: the {whip}'s extra attack strikes first (Whipcrack).")
        return VolleyCall(self._volley(kind, key, mu, s.models[y].status, s.failed_fear[x]), x, y, self._start(s, x, y))

    def _break_call(self, dice: Dice, s: RoundState, x: int, e: int):
        """000:801 / 004:656: each opponent hits a warrior breaking from combat once, automatically."""
        if not s.breaking[x] or s.models[x].out_of_fight or s.models[e].status != STANDING:
            return None
        key, mu = self.matchup(s, e, x)
        if not mu.blows:
            return None
        key = (BREAKING, key, s.models[x].status)
        volley = self._volleys.get(key)
        if volley is None:
            one_hit = (replace(mu.blows[0], count=1),)
            volley = self._volleys[key] = Volley(
                self.r, one_hit, mu.target, names=(self.names[e], self.names[x]), kind=BREAKING, attacker=mu.attacker,
                automatic=f"breaking from combat: hit automatically ({cite('break-from-combat', self.r.edition)})")
        return VolleyCall(volley, e, x, self._start(s, e, x))

    def _volley(self, kind: str, matchup_key: tuple, mu: Matchup, target_status: int, fear: bool) -> Volley:
        key = (kind, matchup_key, target_status, fear)
        volley = self._volleys.get(key)
        if volley is None:
            slots = {CC_SHOT: mu.shots, FIRST_STRIKE: mu.first_strikes}.get(kind, mu.blows)
            volley = self._volleys[key] = Volley(
                self.r, slots, mu.target, names=(mu.attacker.name, mu.target.name), kind=kind, target_status=target_status,
                failed_fear=fear, attacker=mu.attacker, attacker_ws=mu.attacker.ws)
        return volley

    @staticmethod
    def _start(s: RoundState, x: int, y: int) -> Blows:
        t = s.models[y]
        return Blows(t.wounds, t.status, critical_used=s.critical_used[x], weapons_lost=t.weapons_lost,
                     lucky_charm=t.lucky_charm, parry_used=s.parry_used[y])

    def _after_volley(self, s: RoundState, call: VolleyCall, end: Blows) -> RoundState:
        """The round after the call's volley ended in ``end`` (Roll mode)."""
        x, y = call.attacker, call.target
        t = s.models[y]
        model = self._changed_model(t, end)
        return RoundState(
            models=s.models if model == t else _put(s.models, y, model),
            order=s.order,
            failed_fear=s.failed_fear,
            hammered=_put(s.hammered, y, True) if end.hammered and not s.hammered[y] else s.hammered,
            critical_used=s.critical_used if end.critical_used == s.critical_used[x] else _put(s.critical_used, x, end.critical_used),
            parry_used=s.parry_used if end.parry_used == s.parry_used[y] else _put(s.parry_used, y, end.parry_used),
            breaking=s.breaking,
            wounds_lost=_put(s.wounds_lost, y, s.wounds_lost[y] + end.wounds_lost) if end.wounds_lost else s.wounds_lost,
        )

    @staticmethod
    def _changed_model(t: ModelState, end: Blows) -> ModelState:
        """The target after a volley that ended in ``end``: ``t`` itself when nothing changed."""
        if end.status >= OUT_OF_ACTION:
            model = gone(end.status)
        else:
            # 0 and 1 wounds left play alike (the next wound rolls for injury, 000:613-615): kept as 1
            # so that such states merge
            model = ModelState(wounds=max(end.wounds, 1), status=end.status, frenzied=t.frenzied and end.status == STANDING,  # 000:869
                               lucky_charm=end.lucky_charm, stood_up=t.stood_up, initiative_bonus=t.initiative_bonus,
                               weapons_lost=end.weapons_lost, stupid=t.stupid)
        return t if model == t else model

    @staticmethod
    def _set_model(s: RoundState, i: int, m: ModelState) -> RoundState:
        return s._replace(models=_put(s.models, i, m))

    def choose_target(self, dice: Dice, s: RoundState, x: int) -> int | None:
        """A standing enemy if any (000:789): the opposite number, else the first listed; with
        none standing, a stunned one, then a knocked-down one (see the module docstring)."""
        enemies = [e for e in self.fight.enemies(x) if not s.models[e].out_of_fight]
        if not enemies:
            return None
        standing = [e for e in enemies if s.models[e].status == STANDING]
        if standing:
            own = self.fight.side(self.fight.sides[x]).index(x)
            side = self.fight.enemies(x)
            opposite = side[own] if own < len(side) else None
            y = opposite if opposite in standing else standing[0]
        else:
            y = min(enemies, key=lambda e: (s.models[e].status != STUNNED, enemies.index(e)))
        if dice.logging and len(self.fight.enemies(x)) > 1:
            down = [e for e in enemies if s.models[e].status != STANDING]
            why = ""
            if standing and down:
                why = f": fighting a standing enemy, he may not attack {', '.join(self.names[e] for e in down)} ({cite('standing-enemy-first', self.r.edition)})"
            dice.say(f"{self.names[x]} attacks {self.names[y]}{why}.")
        return y

    # --- plain steps ------------------------------------------------------------------------------
    def crimson_shade(self, dice: Dice, s: RoundState) -> RoundState:
        for i, f in enumerate(self.fight.fighters):
            if "crimson-shade" in f.equipment:
                face = dice.d6()
                n = d3_of(face)  # 000:1381 +D3 Initiative
                s = self._set_model(s, i, s.models[i]._replace(initiative_bonus=n))
                if dice.logging:
                    dice.say(f"{self.names[i]}: Crimson Shade gives +D3 Initiative: rolled {face}, +{n} "
                             f"({cite('crimson-shade')}, {cite('d3', self.r.edition)})")
        return s

    def stupidity_test(self, i: int, dice: Dice, s: RoundState) -> RoundState:
        """000:883-893 at the start of his turn: 2D6 over Ld and he does not fight until his next
        turn. In the other side's turn the result of his own last turn stands; for the first
        round of a fight that is rolled too. A stupid model that charged this turn has passed
        its test: one that fails does not charge (000:887-891). Model ``i``'s test (a step of
        its own: see ``__init__``)."""
        f = self.fight.fighters[i]
        m = s.models[i]
        if m.out_of_fight:
            return s
        if self.numbers(i, m).psychology_immune or m.status != STANDING:
            return self._set_model(s, i, m._replace(stupid=False)) if m.stupid else s
        if self.first_round and self.charger == self.fight.sides[i]:
            if dice.logging:
                dice.say(f"{self.names[i]} charged, so he passed his Stupidity test: a stupid model that fails "
                         f"does not charge ({cite('stupid-charger-passed')}).")
            return self._set_model(s, i, m._replace(stupid=False)) if m.stupid else s
        if self.fight.sides[i] != self.turn and not self.setup:
            return s
        a, b = dice.d6(), dice.d6()
        failed = a + b > f.profile.Ld
        if dice.logging:
            when = "" if self.fight.sides[i] == self.turn else f" (his test of his own last turn, {cite('stupidity-lasts')})"
            dice.say(f"{self.names[i]} tests for Stupidity{when}: rolled {a}+{b}={a + b} vs Ld{f.profile.Ld} → "
                     + (f"failed: he does not fight this turn ({cite('stupidity')})" if failed else "passed"))
        return self._set_model(s, i, m._replace(stupid=failed)) if failed != m.stupid else s

    def fear_test(self, y: int, dice: Dice, s: RoundState) -> RoundState:
        """000:851-853: a model charged by a fear-causer tests Leadership; on a failure he needs
        6s to hit this round. Model ``y``'s test (a step of its own, in a round whose chargers
        cause fear: see ``__init__``)."""
        m = s.models[y]
        if m.status != STANDING or self.numbers(y, m).fear_immune:
            return s
        a, b = dice.d6(), dice.d6()
        ld = self.fight.fighters[y].profile.Ld
        failed = a + b > ld  # 000:257 2D6 equal to or under Ld
        if dice.logging:
            dice.say(f"{self.names[y]} is charged by a fear-causer: Ld test rolled {a}+{b}={a + b} vs Ld{ld}: "
                     + (f"failed, needs 6s to hit this round ({cite('fear-charged', self.r.edition)})" if failed else "passed"))
        return s._replace(failed_fear=_put(s.failed_fear, y, True)) if failed else s

    def strike_order(self, dice: Dice, s: RoundState) -> RoundState:
        """000:661-667: strike first, then Initiative, highest first; stood up strikes last."""
        keys, groups = self._order_groups(s.models)
        order: list[int] = []
        rolls: list[str] = []
        for first, second in groups:
            if first and second:
                roll = dice.d6()  # 000:661 equal Initiative: roll a dice (1-3 the attacking side first)
                if roll > 3:
                    first, second = second, first
                if dice.logging:
                    rolls.append(f"Equal Initiative: rolled {roll}, {_joined(self.names, first)} strikes first.")
            order += first + second
        if dice.logging:
            self._say_order(dice, keys, order, rolls)
        return s._replace(order=tuple(order))

    def _order_groups(self, models: tuple[ModelState, ...]) -> tuple[dict, list]:
        """(strike key per model, groups from first to last as (attacking side's, defending
        side's) models with that key) for these models, remembered: a function of the models."""
        found = self._orders.get(models)
        if found is None:
            keys = {}
            for i, m in enumerate(models):
                if not m.out_of_fight:
                    n = self.numbers(i, m)
                    keys[i] = (STOOD_UP if m.stood_up else n.tier, n.initiative + m.initiative_bonus)
            groups = []
            for key in sorted(set(keys.values()), reverse=True):
                tied = [i for i in keys if keys[i] == key]
                groups.append(([i for i in tied if self.fight.sides[i] == ATTACKERS], [i for i in tied if self.fight.sides[i] == DEFENDERS]))
            found = self._orders[models] = (keys, groups)
        return found

    def _say_order(self, dice: Dice, keys: dict, order: list[int], rolls: list[str]) -> None:
        ed = self.r.edition
        first_why = {STRIKES_FIRST: f"strikes first, {cite('charge-strikes-first', ed)}"}
        last_why = {STOOD_UP: f"stood up this turn: strikes last, {cite('stood-up-strikes-last', ed)}",
                    STRIKES_LAST: f"strikes last, {cite('strike-last')}"}
        for line in rolls:
            dice.say(line)
        if len(order) == 2:
            a, b = order
            if keys[a] == keys[b]:
                return  # the roll said it
            if keys[a][0] == keys[b][0]:
                reason = f"Initiative {keys[a][1]} against {keys[b][1]}, {cite('initiative-order', ed)}"
            elif keys[a][0] == STRIKES_FIRST:
                reason = first_why[STRIKES_FIRST]
            else:
                reason = f"{self.names[b]} {last_why[keys[b][0]]}"
            dice.say(f"{self.names[a]} strikes first ({reason}).")
            return
        parts = []
        for i in order:
            tier, initiative = keys[i]
            extra = first_why.get(tier) or last_why.get(tier)
            parts.append(f"{self.names[i]} (I{initiative}{'; ' + extra if extra else ''})")
        dice.say("Strike order: " + ", ".join(parts) + f" ({cite('initiative-order', ed)}).")

    def blows_struck(self, dice: Dice, s: RoundState) -> RoundState:
        """Every blow of the phase is struck: the strike order, fear, hammering and parries are
        spent (states that differ only there merge before the All Alone tests). A critical hit
        stays counted: a breaking warrior's automatic hits are still in this phase."""
        none = (False,) * len(s.models)
        if s.order == () and s.failed_fear == none and s.hammered == none and s.parry_used == none:
            return s
        return RoundState(s.models, (), none, none, s.critical_used, none, s.breaking, s.wounds_lost)

    def all_alone_tests(self, dice: Dice, models: tuple[ModelState, ...]) -> tuple[bool, ...]:
        """000:837 / 004:666: fighting two or more enemies with no friend standing, a Leadership
        test at the end of the phase; on a failure he breaks from combat. Which models break."""
        ed = self.r.edition
        breaking = [False] * len(models)
        for x in self.alone_testers(models):
            a, b = dice.d6(), dice.d6()
            ld = self.fight.fighters[x].profile.Ld
            breaking[x] = a + b > ld
            if dice.logging:
                foes = len(self._alone_against(x, models))
                dice.say(f"{self.names[x]} is all alone against {foes} ({cite('all-alone', ed)}): Ld test rolled {a}+{b}={a + b} vs Ld{ld} → "
                         + ("failed: he breaks from combat, and each enemy hits him once as he runs" if breaking[x] else "his nerve holds"))
        return tuple(breaking)

    def alone_testers(self, models: tuple[ModelState, ...]) -> tuple[int, ...]:
        """The models that test All Alone at the end of the phase, in fight order: all that
        ``all_alone_tests`` reads of the models but for its log (Odds mode replays the tests for
        every face of the dice: worked out once per tuple of models)."""
        testers = self._alone_testers.get(models)
        if testers is None:
            testers = self._alone_testers[models] = tuple(x for x in range(len(models)) if self.may_test_all_alone(x, models))
        return testers

    def may_test_all_alone(self, x: int, models: tuple[ModelState, ...], *, friends_may_fall: bool = False) -> bool:
        """Whether model x tests All Alone at the end of the phase (000:837, 004:666) with these
        models; ``friends_may_fall``: whether he may yet, if every standing friend fell first
        (statuses only worsen within a phase, so a model for whom this is False never tests)."""
        m = models[x]
        if m.status != STANDING:
            return False
        if not friends_may_fall and any(models[j].status == STANDING for j in self.fight.friends(x)):
            return False
        return len(self._alone_against(x, models)) >= 2 and not self.numbers(x, m).psychology_immune

    def _alone_against(self, x: int, models: tuple[ModelState, ...]) -> list[int]:
        """The standing enemies that count for his All Alone test (core2: of his size or larger, 004:666)."""
        ed, fighters = self.r.edition, self.fight.fighters
        return [e for e in self.fight.enemies(x) if models[e].status == STANDING
                and (ed != "core2" or fighters[e].size >= fighters[x].size)]

    def flee(self, dice: Dice, s: RoundState) -> RoundState:
        for x, breaking in enumerate(s.breaking):
            if breaking:
                m = s.models[x]
                if not m.out_of_fight:
                    if dice.logging:
                        dice.say(f"**{self.names[x]} flees 2D6\" from the combat** ({cite('all-alone', self.r.edition)}).")
                    s = self._set_model(s, x, gone(FLED))
                s = s._replace(breaking=_put(s.breaking, x, False))
        return s

    def end_round(self, dice: Dice, s: RoundState) -> RoundState:
        models = s.models
        if any(m.stood_up for m in models):
            models = tuple(m._replace(stood_up=False) if m.stood_up else m for m in models)
        none = (False,) * len(models)
        return RoundState(models, (), none, none, none, none, s.breaking, s.wounds_lost)


class _Silent:
    """Dice for the parts of a segment that roll none and say nothing (Odds mode's set-up)."""

    logging = False

    def d6(self) -> int:
        raise AssertionError("a volley's set-up rolls no dice")

    def say(self, text: str) -> None:
        pass


_SILENT = _Silent()


def gone(status: int) -> ModelState:
    """A model out of the fight (out of action or fled): nothing else about him matters any more,
    so every such model is the same state."""
    return ModelState(0, status)


def _put(values: tuple, i: int, value) -> tuple:
    return values[:i] + (value,) + values[i + 1:]


def _joined(names: tuple[str, ...], idx: list[int]) -> str:
    return " and ".join(names[i] for i in idx)


def recover(m: ModelState) -> ModelState:
    """000:633-641 at the start of the owner's turn: stunned -> knocked down; knocked down ->
    stands up, and strikes last that turn (000:663)."""
    if m.status == STUNNED:
        return m._replace(status=KNOCKED_DOWN)
    if m.status == KNOCKED_DOWN:
        return m._replace(status=STANDING, stood_up=True)
    return m


