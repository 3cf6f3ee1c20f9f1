"""A round's Odds mode: the segments of a ``melee.RoundRules`` run on distributions of states,
and the same tables drawn from at random.

Exact odds (``odds``) push a distribution of ``RoundState`` through the segments: plain steps
through ``dice.propagate``, volleys through ``Volley.odds``. A drawn round (``draw``) walks one
state through the same segments, each segment's outcome rolled with dice by the same rule code
the first few times a state meets it, then picked from the same exact tables: a fight to the
end too big for exact odds is simulated with it (``engine.combat.duel``), with the same odds,
and no table is built for a state met only once or twice.

What keeps the exact odds small (each proven not to change a number):

* what each volley changes in the round is worked out once per (volley, start, target) and
  reused by every state that meets it (``_changes``); a segment's ends from a state are
  remembered per state with no wounds counted yet (``_volley_ends``): the other rounds of a duel
  meet the same states, and the passes of ``odds`` counting different models' wounds work each
  volley out once;
* after a model's blows, the round's flags no later segment reads are forgotten, so states
  that differ only there merge (``_forget_spent``);
* the end of the phase (All Alone tests, hits on a warrior breaking from combat, the end of the
  round) reads only the models and the criticals caused: its ends are remembered per such
  state (``_phase_end``), and a duel that meets the same models in another round reuses them;
  each is the state its steps leave when nobody breaks, and, for a warrior who breaks, that
  state with him gone and his wounds from the hits, which are worked out once per what those
  hits read (``_tail_from``, ``_broken_ends``); the All Alone tests once per tuple of testers;
* the hits on a breaking warrior run only on the states where someone breaks;
* wounds lost are counted only for the models asked (``wounds_of``): a duel counts none, so
  states differ less; a round's odds (``each_models_ends``) count none in the states either,
  which carry instead each model's odds of each count of wounds lost so far (a volley's ends
  that differ only in the wounds caused are one end there, ``_moves``), and read each model's
  own ends, not every state at the end of the phase.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable
from itertools import accumulate
from typing import TypeVar

from engine.combat.dice import RollDice, enumerate_outcomes, propagate
from engine.combat.melee import _SILENT, RoundRules, Segment, VolleyCall
from engine.combat.state import STANDING, ModelState, RoundState

Dist = dict[RoundState, float]
_T = TypeVar("_T")
Drawn = tuple[list[tuple[_T, float]], list[float]]  # a table to draw from: (outcome, probability) and cumulative odds
ModelEnds = dict[tuple[ModelState, int], float]  # one model's ends of a round: (his model, wounds he lost) -> probability
Counts = tuple[dict[int, float], ...]  # per model: wounds lost so far -> probability
Move = tuple[RoundState, int, tuple[tuple[int, float], ...], float]  # RoundOdds._moves: state, model wounded, (wounds, probability), total
_UNKNOWN = object()
ROLLED_BEFORE_TABLE = 8  # a drawn volley or step is rolled with dice this many times from one start, then read from its exact table


def odds_of(rules: RoundRules) -> RoundOdds:
    """The Odds mode of ``rules``, built once and kept on the rules object, so a duel and the next
    /odds of the same fight reuse its tables (the rules are cached in engine.combat.api), and the
    tables go when the rules go. (A weak-keyed map from rules to their odds kept both forever: the
    odds hold the rules.)"""
    found = rules.odds_tables
    if found is None:
        found = rules.odds_tables = RoundOdds(rules)
    return found


class RoundOdds:
    """Odds mode for one ``RoundRules``, with every table it builds remembered."""

    def __init__(self, rules: RoundRules) -> None:
        self.rules = rules
        self.fight = rules.fight
        n = len(rules.fight.fighters)
        self._zeros = (0,) * n
        self._none = (False,) * n
        self._all = tuple(range(n))
        # the segments up to the last blows, and the end of the phase after them
        last_blows = max(k for k, seg in enumerate(rules.segments) if seg.kind == "blows")
        self._phase = rules.segments[:last_blows + 1]
        self._tail = rules.segments[last_blows + 1:]
        # the end of the phase around its All Alone tests: the steps before them, the hits on a
        # warrior breaking from combat, and the steps after those (the tail is one "end_round"
        # step when no model has two enemies: nobody ever tests)
        alone = next((k for k, seg in enumerate(self._tail) if seg.kind == "alone"), len(self._tail))
        after_breaks = alone + 1
        while after_breaks < len(self._tail) and self._tail[after_breaks].kind == "break":
            after_breaks += 1
        self._before_alone = self._tail[:alone]
        self._break_hits = self._tail[alone + 1:after_breaks]
        self._after_breaks = self._tail[after_breaks:]
        self.steps = 0  # states pushed through a segment so far: the work done, which a budget reads
        self._step_tables: dict = {}  # id(segment) or "alone" -> state -> its outcomes
        self._changes: dict = {}  # (volley, start, target, count wounds) -> what each end changes, and cumulative odds
        # (wounds counted, gone alike) -> state after the blows -> ends of the round, cumulative odds
        self._phase_ends: dict[tuple[tuple[int, ...], bool], dict[RoundState, Drawn[RoundState]]] = {}
        self._broken: dict = {}  # what a warrior's breaking reads (_broken_ends) -> his ends and wounds lost
        self._model_ends: dict = {}  # state after the blows -> per model, his ends of the phase (each_models_ends)
        self._carries: dict = {}  # (id(segment), state) -> its ends, the wounds they cause apart (_moves)
        self._live: dict = {}  # which round flags a later segment reads (_forget_spent)
        self._calls: dict = {}  # (id(segment), state) -> its volley call (melee.RoundRules._volley_call)
        self._ends: dict = {}  # (id(segment), target's wounds counted, state) -> states after its volley
        self._results: dict = {}  # (start, wounds counted) -> odds of the round
        self._model_results: dict = {}  # start -> each model's ends of the round (each_models_ends)
        self._drawn: dict = {}  # (id(segment), state) -> outcomes of a step, cumulative odds
        self._rolled: dict = {}  # a _changes or _drawn key -> times it was rolled in a drawn round (_drawn_volley, _drawn_step)

    # --- exact odds -------------------------------------------------------------------------------
    def odds(self, dist: Dist, *, wounds_of: tuple[int, ...] | None = None, gone_alike: bool = False) -> Dist:
        """Every end of the round from ``dist``, with its probability. ``wounds_of``: the models
        whose ``wounds_lost`` is counted (None: every model); the others' stay at 0.
        ``gone_alike``: the caller reads only who is still in the fight (a fight to the end), so
        the hits on a warrior breaking from combat are not worked out: out of action or fled, he
        is gone either way (000:801, 837), and nothing else they change outlasts the round."""
        counted = self._all if wounds_of is None else tuple(wounds_of)
        return self._phase_end(self._segments(self._phase, dist, counted), counted, gone_alike)

    def odds_from(self, start: RoundState, *, wounds_of: tuple[int, ...] | None = None, gone_alike: bool = False) -> Dist:
        """``odds({start: 1.0})``, remembered per start state (a duel asks again every round).
        The returned dict is shared: do not change it."""
        key = (start, wounds_of, gone_alike)
        result = self._results.get(key)
        if result is None:
            result = self._results[key] = self.odds({start: 1.0}, wounds_of=wounds_of, gone_alike=gone_alike)
        return result

    def each_models_ends(self, start: RoundState) -> tuple[ModelEnds, ...]:
        """Each model's ends of the round from ``start``: (his model, the wounds he lost) with
        its probability, all that a round's odds read; remembered per start. For model i, what
        ``odds_from(start, wounds_of=(i,))`` gives summed by his end, for every model in one
        pass: no segment reads the wounds lost this round, so the states go through the round
        without them, as in a fight to the end, each carrying per model the odds of every count
        of wounds he has lost so far, which an end of a segment moves on by the wounds it
        causes him (``_carried``). The ends of the phase are summed per model from each state
        after the blows (``_ends_per_model``), which many such states share."""
        found = self._model_results.get(start)
        if found is not None:
            return found
        zeros, none = self._zeros, self._none
        dist: dict[RoundState, Counts] = {RoundState(*start[:-1], zeros): tuple({lost: 1.0} for lost in start.wounds_lost)}
        for seg in self._phase:
            dist = self._carried(seg, dist)
        out: tuple[ModelEnds, ...] = tuple({} for _ in self._all)
        ends_of = self._model_ends
        for s, counts in dist.items():
            after = RoundState(s.models, (), none, none, s.critical_used, none, s.breaking, zeros)
            ends = ends_of.get(after)
            if ends is None:
                ends = ends_of[after] = self._ends_per_model(after)
            for mine, lost, his_ends in zip(out, counts, ends):
                for model, wounds, q in his_ends:
                    for before, p in lost.items():
                        end = (model, before + wounds)
                        mine[end] = mine.get(end, 0.0) + p * q
        self.steps += len(dist)
        self._model_results[start] = out
        return out

    def _carried(self, seg: Segment, dist: dict[RoundState, Counts]) -> dict[RoundState, Counts]:
        """One segment of ``each_models_ends``: each state's ends (``_moves``), each carrying
        the counts of wounds lost so far, the wounded model's moved on by the wounds the end
        causes him."""
        out: dict[RoundState, Counts] = {}
        for s, counts in dist.items():
            for s2, wounded, caused, q in self._moves(seg, s):
                into = out.get(s2)
                if into is None:
                    into = out[s2] = tuple({} for _ in counts)
                for i, (lost, now) in enumerate(zip(counts, into)):
                    if i != wounded:
                        for before, p in lost.items():
                            now[before] = now.get(before, 0.0) + p * q
                        continue
                    for before, p in lost.items():
                        for more, r in caused:
                            now[before + more] = now.get(before + more, 0.0) + p * r
        self.steps += len(out)
        return out

    def _moves(self, seg: Segment, s: RoundState) -> list[Move]:
        """The ends of one segment from a state with no wounds lost this round, for
        ``each_models_ends``: (the state after it, its wounds not counted; the model it may
        wound, or -1; (wounds caused him, probability) for each count; their total
        probability). A volley's ends that differ only in the wounds it causes are one such end.
        Remembered per (segment, state)."""
        key = (id(seg), s)
        moves = self._carries.get(key)
        if moves is not None:
            return moves
        if seg.kind == "step":
            tables = self._step_tables.setdefault(id(seg), {})
            ends = tables.get(s)
            if ends is None:
                ends = tables[s] = enumerate_outcomes(seg.step, s)
            moves = [(s2, -1, ((0, q),), q) for s2, q in ends.items()]
        elif seg.kind == "tidy":
            moves = [(seg.step(_SILENT, s), -1, ((0, 1.0),), 1.0)]
        else:
            call = self._calls.get((id(seg), s), _UNKNOWN)
            if call is _UNKNOWN:
                call = self._calls[(id(seg), s)] = self.rules._volley_call(_SILENT, s, seg)
            if call is None or isinstance(call, RoundState):
                s2 = s if call is None else call
                moves = [(self._forget_spent(s2, seg.who) if seg.kind == "blows" else s2, -1, ((0, 1.0),), 1.0)]
            else:
                by_change: dict[tuple[ModelState, bool, bool, bool], dict[int, float]] = {}
                for model, hammers, crit, parry, wounds, q in self._changes_of(s, call, True)[0]:
                    caused = by_change.setdefault((model, hammers, crit, parry), {})
                    caused[wounds] = caused.get(wounds, 0.0) + q
                spent = self._spender(s, call, seg.who) if seg.kind == "blows" else None
                by_end: dict[RoundState, dict[int, float]] = {}
                for (model, hammers, crit, parry), caused in by_change.items():
                    s2 = (spent(model, hammers, crit, parry, 0) if spent is not None
                          else self._changed(s, call, (model, hammers, crit, parry, 0, 0.0)))
                    into = by_end.setdefault(s2, {})
                    for wounds, q in caused.items():
                        into[wounds] = into.get(wounds, 0.0) + q
                moves = [(s2, call.target, tuple(caused.items()), sum(caused.values())) for s2, caused in by_end.items()]
        self._carries[key] = moves
        return moves

    def _ends_per_model(self, after: RoundState) -> tuple[list[tuple[ModelState, int, float]], ...]:
        """Per model, his ends of the phase from a state after the blows: (his model, wounds
        lost in the tail, probability), summed over the others' ends."""
        per_model: list[dict[tuple[ModelState, int], float]] = [{} for _ in self._all]
        for s2, q in self._tail_ends(after, self._all, False)[0]:
            for i, ends in enumerate(per_model):
                end = (s2.models[i], s2.wounds_lost[i])
                ends[end] = ends.get(end, 0.0) + q
        return tuple([(model, wounds, q) for (model, wounds), q in ends.items()] for ends in per_model)

    def _segments(self, segments: tuple[Segment, ...], dist: Dist, counted: tuple[int, ...], gone_alike: bool = False) -> Dist:
        k = 0
        while k < len(segments):
            seg = segments[k]
            if seg.kind == "step":
                dist = propagate(seg.step, dist, self._step_tables.setdefault(id(seg), {}))
            elif seg.kind == "tidy":
                dist = self._tidy(seg, dist)
            elif seg.kind == "alone":
                dist = self._all_alone(dist)
                end = k + 1
                while end < len(segments) and segments[end].kind == "break":
                    end += 1
                if not gone_alike:
                    dist = self._breaks(segments[k + 1:end], dist, counted)
                k = end
                self.steps += len(dist)
                continue
            else:
                dist = self._volley(seg, dist, counted)
            self.steps += len(dist)
            k += 1
        return dist

    def _phase_end(self, dist: Dist, counted: tuple[int, ...], gone_alike: bool) -> Dist:
        """The end of the phase from each state after the blows, remembered per what it reads
        (the models and the criticals caused), with this round's wounds so far added back."""
        cache = self._phase_ends.setdefault((counted, gone_alike), {})
        zeros, none = self._zeros, self._none
        out: Dist = {}
        get = out.get
        for s, p in dist.items():
            lost = s.wounds_lost
            key = RoundState(s.models, (), none, none, s.critical_used, none, s.breaking, zeros)
            ends = cache.get(key)
            if ends is None:
                ends = cache[key] = self._tail_ends(key, counted, gone_alike)
            if lost == zeros:
                for s2, q in ends[0]:
                    out[s2] = get(s2, 0.0) + p * q
                continue
            for s2, q in ends[0]:
                more = s2.wounds_lost  # from hits on a warrior breaking from combat: mostly none
                s2 = RoundState(*s2[:-1], lost if more == zeros else tuple(a + b for a, b in zip(lost, more)))
                out[s2] = get(s2, 0.0) + p * q
        self.steps += len(out)
        return out

    def _tail_ends(self, key: RoundState, counted: tuple[int, ...], gone_alike: bool) -> Drawn[RoundState]:
        """The end of the phase from one state, its wounds counted for ``counted``: worked out
        once with every model's wounds counted, and read for each choice of models (a duel
        counts none, ``each_models_ends`` all)."""
        every = self._phase_ends.setdefault((self._all, gone_alike), {})
        ends = every.get(key)
        if ends is None:
            ends = every[key] = table(self._tail_from(key, gone_alike))
        if counted == self._all or all(s2.wounds_lost == self._zeros for s2, _ in ends[0]):
            return ends  # mostly nobody broke from combat, and the tail caused no wounds
        kept: Dist = {}
        for s2, q in ends[0]:
            if s2.wounds_lost != self._zeros:
                s2 = RoundState(*s2[:-1], tuple(w if i in counted else 0 for i, w in enumerate(s2.wounds_lost)))
            kept[s2] = kept.get(s2, 0.0) + q
        return table(kept)

    def _tail_from(self, key: RoundState, gone_alike: bool) -> Dist:
        """The end of the phase from one state after the blows, every model's wounds counted:
        what ``_tail_by_segments`` gives, without pushing every state through the hits on a
        breaking warrior. Only the All Alone tests and those hits roll dice, and the hits
        change nothing but the breaking warrior (the round's flags they touch are reset at its
        end). So the phase ends in the state its steps leave when nobody breaks (``calm``),
        with the odds that nobody does, and, for each warrior who breaks, in that state with him
        gone (fled, or out of action) and the wounds the hits cost him (``_broken_ends``).
        Several warriors breaking at once (never in a legal fight: a tester has no friend
        standing and two standing enemies, who each have a friend standing) go the general way."""
        calm = key
        for seg in self._tail:
            if seg.kind == "tidy":
                calm = seg.step(_SILENT, calm)
        if not self.rules.alone_testers(key.models):
            return {calm: 1.0}  # nobody tests All Alone, so nobody breaks
        out: Dist = {}
        for breaking, q in self._alone_table(key.models):
            broke = [x for x in self._all if breaking[x]]
            if not broke:
                out[calm] = out.get(calm, 0.0) + q
                continue
            if len(broke) > 1:
                for s2, r in self._after_alone(self._breaking(key, breaking), gone_alike).items():
                    out[s2] = out.get(s2, 0.0) + q * r
                continue
            x = broke[0]
            for model, wounds, r in self._broken_ends(key, x, gone_alike):
                s2 = RoundState(_put(calm.models, x, model), *calm[1:-1],
                                _put(calm.wounds_lost, x, calm.wounds_lost[x] + wounds) if wounds else calm.wounds_lost)
                out[s2] = out.get(s2, 0.0) + q * r
        self.steps += len(out)
        return out

    def _tail_by_segments(self, key: RoundState, gone_alike: bool) -> Dist:
        """The end of the phase from one state after the blows, every model's wounds counted:
        each segment of the tail run on the whole distribution (what ``_tail_from`` gives)."""
        return self._segments(self._tail, {key: 1.0}, self._all, gone_alike)

    def _breaking(self, key: RoundState, breaking: tuple[bool, ...]) -> RoundState:
        """The state after the steps before the All Alone tests, with the warriors who broke."""
        s = key
        for seg in self._before_alone:
            s = seg.step(_SILENT, s)
        return RoundState(s.models, s.order, s.failed_fear, s.hammered, s.critical_used, s.parry_used, breaking, s.wounds_lost)

    def _after_alone(self, s: RoundState, gone_alike: bool) -> Dist:
        """The rest of the phase after the All Alone tests: the hits on the warriors breaking
        from combat (none when ``gone_alike``, as in ``_segments``), then the steps after them."""
        dist = {s: 1.0} if gone_alike else self._breaks(self._break_hits, {s: 1.0}, self._all)
        return self._segments(self._after_breaks, dist, self._all, gone_alike)

    def _broken_ends(self, key: RoundState, x: int, gone_alike: bool) -> list[tuple[ModelState, int, float]]:
        """Warrior x breaking from combat (000:801, 837): his model at the end of the phase
        (fled, or out of action) and the wounds he lost, with their odds. Worked out once per
        what the hits on him read: his model, and each enemy's status (only a standing one
        hits), kit (frenzied, weapons lost: ``melee.RoundRules.matchup``) and whether he has
        had his critical of the phase; not the enemies' wounds, nor his friends (each down,
        or he would not test), which a state after the blows mostly differs in."""
        models = key.models
        what = (x, gone_alike, models[x], tuple((models[e].status, models[e].frenzied, models[e].weapons_lost, key.critical_used[e])
                                                for e in self.fight.enemies(x)))
        found = self._broken.get(what)
        if found is None:
            ends: dict[tuple[ModelState, int], float] = {}
            for s2, q in self._after_alone(self._breaking(key, _put(self._none, x, True)), gone_alike).items():
                end = (s2.models[x], s2.wounds_lost[x])
                ends[end] = ends.get(end, 0.0) + q
            found = self._broken[what] = [(model, wounds, q) for (model, wounds), q in ends.items()]
        return found

    def _alone_table(self, models: tuple[ModelState, ...]) -> list[tuple[tuple[bool, ...], float]]:
        """The odds of ``RoundRules.all_alone_tests`` (which models break): enumerated once per
        tuple of testers, all that the tests read of the models."""
        tests = self._step_tables.setdefault("alone", {})
        testers = self.rules.alone_testers(models)
        found = tests.get(testers)
        if found is None:
            found = tests[testers] = list(enumerate_outcomes(self.rules.all_alone_tests, models).items())
        return found

    @staticmethod
    def _tidy(seg: Segment, dist: Dist) -> Dist:
        """A step that rolls no dice: each state has one successor."""
        out: Dist = {}
        for s, p in dist.items():
            s2 = seg.step(_SILENT, s)
            out[s2] = out.get(s2, 0.0) + p
        return out

    def _all_alone(self, dist: Dist) -> Dist:
        """The All Alone tests read only the models: enumerated once per tuple of models."""
        out: Dist = {}
        for s, p in dist.items():
            for s2, q in self._all_alone_ends(s):
                out[s2] = out.get(s2, 0.0) + p * q
        return out

    def _all_alone_ends(self, s: RoundState) -> list[tuple[RoundState, float]]:
        ends = []
        for breaking, q in self._alone_table(s.models):
            if any(breaking):
                s2 = RoundState(s.models, s.order, s.failed_fear, s.hammered, s.critical_used, s.parry_used, breaking, s.wounds_lost)
            elif any(s.critical_used):  # nobody breaks: no blow is left in the phase, the criticals are spent
                s2 = RoundState(s.models, s.order, s.failed_fear, s.hammered, breaking, s.parry_used, s.breaking, s.wounds_lost)
            else:
                s2 = s
            ends.append((s2, q))
        return ends

    def _breaks(self, segments: tuple[Segment, ...], dist: Dist, counted: tuple[int, ...]) -> Dist:
        """The hits on warriors breaking from combat: each warrior's, in order, run only on the
        states where he breaks."""
        for x in dict.fromkeys(seg.who for seg in segments):
            calm: Dist = {}
            breaking: Dist = {}
            for s, p in dist.items():
                (breaking if s.breaking[x] else calm)[s] = p
            for seg in segments:
                if seg.who == x and breaking:
                    breaking = self._volley(seg, breaking, counted)
            for s, p in breaking.items():
                calm[s] = calm.get(s, 0.0) + p
            dist = calm
        return dist

    def _volley(self, seg: Segment, dist: Dist, counted: tuple[int, ...]) -> Dist:
        """Each state's volley of this segment (``_volley_ends``). What a volley does never
        depends on the wounds lost so far: the ends are those of the state with its wounds put
        back to 0, with its wounds added again, so passes counting different models' wounds
        work out each volley once for all of them."""
        out: Dist = {}
        get = out.get
        ends_of, zeros = self._volley_ends, self._zeros
        for s, p in dist.items():
            lost = s.wounds_lost
            if lost == zeros:
                for s2, q in ends_of(seg, s, counted):
                    out[s2] = get(s2, 0.0) + p * q
                continue
            for s2, q in ends_of(seg, RoundState(*s[:-1], zeros), counted):
                more = s2.wounds_lost
                s2 = RoundState(*s2[:-1], lost if more == zeros else tuple(a + b for a, b in zip(lost, more)))
                out[s2] = get(s2, 0.0) + p * q
        return out

    def _volley_ends(self, seg: Segment, s: RoundState, counted: tuple[int, ...]) -> list[tuple[RoundState, float]]:
        """The states after this segment's volley from ``s`` (no wounds lost yet), with
        probabilities, the target's wounds counted if he is in ``counted``; after a model's
        blows, what no later segment reads is forgotten. Remembered per (segment, state,
        whether the target's wounds count): other rounds of a duel, and passes counting other
        models' wounds, meet the same states again."""
        call = self._calls.get((id(seg), s), _UNKNOWN)
        if call is _UNKNOWN:
            call = self._calls[(id(seg), s)] = self.rules._volley_call(_SILENT, s, seg)
        with_wounds = isinstance(call, VolleyCall) and call.target in counted
        key = (id(seg), with_wounds, s)
        ends = self._ends.get(key)
        if ends is None:
            if call is None or isinstance(call, RoundState):
                end = s if call is None else call
                ends = [(self._forget_spent(end, seg.who) if seg.kind == "blows" else end, 1.0)]
            else:
                changes = self._changes_of(s, call, with_wounds, from_counted=bool(counted))[0]
                if seg.kind == "blows":
                    ends = self._spent_ends(s, call, changes, seg.who)
                else:
                    ends = [(self._changed(s, call, change), change[-1]) for change in changes]
            self._ends[key] = ends
        return ends

    def _changes_of(self, s: RoundState, call: VolleyCall, count_wounds: bool, *, from_counted: bool = False) -> tuple[list[tuple], list[float]]:
        """What each end of the call's volley changes in the round: (target's model, hammered,
        attacker's critical used, target's parry used, wounds, probability); and the cumulative
        probabilities (for drawing one). Remembered per volley, start and target.
        ``from_counted``: read the volley's odds with its wounds counted even when they are not
        wanted (passes of ``odds`` counting different models' wounds: one volley table serves all)."""
        y = call.target
        key = (call.volley, call.start, s.models[y], count_wounds)
        found = self._changes.get(key)
        if found is None:
            merged: dict[tuple, float] = {}
            for end, q in call.volley.odds(call.start, count_wounds=count_wounds or from_counted):
                change = (self.rules._changed_model(s.models[y], end), end.hammered, end.critical_used, end.parry_used,
                          end.wounds_lost if count_wounds else 0)
                merged[change] = merged.get(change, 0.0) + q
            changes = [(*change, q) for change, q in merged.items()]
            found = self._changes[key] = (changes, list(accumulate(c[-1] for c in changes)))
        return found

    @staticmethod
    def _changed(s: RoundState, call: VolleyCall, change: tuple) -> RoundState:
        """The round after one end of the call's volley (``melee.RoundRules._after_volley``,
        from what the end changes)."""
        x, y = call.attacker, call.target
        model, hammers, crit, parry, wounds, _ = change
        models, hammered, critical, parried, lost = s.models, s.hammered, s.critical_used, s.parry_used, s.wounds_lost
        return RoundState(
            models if model is models[y] else _put(models, y, model),
            s.order,
            s.failed_fear,
            _put(hammered, y, True) if hammers and not hammered[y] else hammered,
            critical if crit == critical[x] else _put(critical, x, crit),
            parried if parry == parried[y] else _put(parried, y, parry),
            s.breaking,
            _put(lost, y, lost[y] + wounds) if wounds else lost,
        )

    def _spent_ends(self, s: RoundState, call: VolleyCall, changes: list[tuple], place: int) -> list[tuple[RoundState, float]]:
        """The states after the blows at ``place`` in the strike order: each end of the call's
        volley (``_changed``) with what no later segment reads forgotten (``_forget_spent``),
        merged; each state built once (``_spender``)."""
        spent = self._spender(s, call, place)
        merged: Dist = {}
        get = merged.get
        for model, hammers, crit, parry, wounds, q in changes:
            s2 = spent(model, hammers, crit, parry, wounds)
            merged[s2] = get(s2, 0.0) + q
        return list(merged.items())

    def _spender(self, s: RoundState, call: VolleyCall, place: int) -> Callable[[ModelState, bool, bool, bool, int], RoundState]:
        """A function from what one end of the call's volley changes (the target's model,
        hammered, the attacker's critical used, the target's parry used, wounds) to the state
        after the blows at ``place`` in the strike order (``_changed``), with what no later
        segment reads forgotten (``_forget_spent``). The flags an end changes take few values:
        each is masked once."""
        x, y = call.attacker, call.target
        strikes, attacked = self._masks(place, s.order)
        models, order, breaking, lost = s.models, s.order, s.breaking, s.wounds_lost
        failed_fear = _masked(s.failed_fear, strikes)
        masked_flags: dict[tuple, tuple] = {}
        spent_criticals: dict[tuple, tuple[bool, ...]] = {}

        def spent(model: ModelState, hammers: bool, crit: bool, parry: bool, wounds: int) -> RoundState:
            flags = masked_flags.get((hammers, crit, parry))
            if flags is None:
                hammered, critical, parried = s.hammered, s.critical_used, s.parry_used
                hammered = _put(hammered, y, True) if hammers and not hammered[y] else hammered
                critical = critical if crit == critical[x] else _put(critical, x, crit)
                parried = parried if parry == parried[y] else _put(parried, y, parry)
                flags = masked_flags[(hammers, crit, parry)] = (
                    _masked(hammered, strikes), critical, _masked(parried, attacked), _masked(critical, strikes) != critical)
            hammered, critical, parried, reads_models = flags
            after = models if model is models[y] else _put(models, y, model)
            if reads_models:  # whose critical may yet be read depends on who stands: the target's model here
                spent_critical = spent_criticals.get((crit, model))
                if spent_critical is None:
                    spent_critical = spent_criticals[(crit, model)] = _masked(critical, self._may_hit_breaking(after, strikes))
                critical = spent_critical
            return RoundState(after, order, failed_fear, hammered, critical, parried, breaking,
                              _put(lost, y, lost[y] + wounds) if wounds else lost)

        return spent

    def _masks(self, place: int, order: tuple[int, ...]) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
        """After the blows at ``place`` in this strike order: per model, whether he strikes
        later, and whether an enemy of his does (so his parry may yet be read)."""
        key = (place, order)
        masks = self._live.get(key)
        if masks is None:
            to_strike = set(order[place + 1:])
            masks = self._live[key] = (tuple(i in to_strike for i in self._all),
                                       tuple(any(e in to_strike for e in self.fight.enemies(i)) for i in self._all))
        return masks

    def _forget_spent(self, s: RoundState, place: int) -> RoundState:
        """After the blows at ``place`` in the strike order: the round's flags that no later
        segment reads are put back to False, so states that differ only there merge. Fear and
        hammering are read by a model's own blows, a parry by blows at him, a critical by his own
        blows and his hits on a warrior breaking from combat (000:566, 000:801)."""
        strikes, attacked = self._masks(place, s.order)
        failed_fear, hammered = _masked(s.failed_fear, strikes), _masked(s.hammered, strikes)
        parry_used, critical_used = _masked(s.parry_used, attacked), s.critical_used
        if _masked(critical_used, strikes) != critical_used:
            critical_used = _masked(critical_used, self._may_hit_breaking(s.models, strikes))
        if (failed_fear == s.failed_fear and hammered == s.hammered and parry_used == s.parry_used
                and critical_used == s.critical_used):
            return s
        return RoundState(s.models, s.order, failed_fear, hammered, critical_used, parry_used, s.breaking, s.wounds_lost)

    def _may_hit_breaking(self, models: tuple[ModelState, ...], strikes: tuple[bool, ...]) -> tuple[bool, ...]:
        """Per model: he strikes later this round, or he stands and an enemy of his may yet
        break from combat (and take his automatic hit, 000:801)."""
        key = (models, strikes)
        live = self._live.get(key)
        if live is None:
            breakers = {b for b in self._all if self.rules.may_test_all_alone(b, models, friends_may_fall=True)}
            live = self._live[key] = tuple(
                strikes[i] or (models[i].status == STANDING and any(b in breakers for b in self.fight.enemies(i))) for i in self._all)
        return live

    # --- a round drawn at random ------------------------------------------------------------------
    def draw(self, rng: random.Random, start: RoundState) -> RoundState:
        """One round drawn at random: each segment's outcome picked from its exact table (as
        ``odds`` builds them), so the round ends as often in each state as ``odds`` says, with
        ``wounds_of=()`` and ``gone_alike`` (what a fight to the end reads)."""
        s = start
        for seg in self._phase:
            if seg.kind == "step":
                s = self._drawn_step(rng, s, seg)
            elif seg.kind == "tidy":
                s = seg.step(_SILENT, s)
            else:
                call = self.rules._volley_call(_SILENT, s, seg)
                if isinstance(call, RoundState):
                    s = call
                elif call is not None:
                    s = self._drawn_volley(rng, s, call)
            self.steps += 1
        # the end of the phase: its exact ends, remembered (as in odds)
        cache = self._phase_ends.setdefault(((), True), {})
        key = RoundState(s.models, (), self._none, self._none, s.critical_used, self._none, s.breaking, self._zeros)
        ends = cache.get(key)
        if ends is None:
            ends = cache[key] = self._tail_ends(key, (), True)
        self.steps += 1
        return pick(rng, ends)


    def _drawn_step(self, rng: random.Random, s: RoundState, seg: Segment) -> RoundState:
        """A plain step drawn from ``s``: rolled with dice (the same rule code as its table) the
        first few times ``s`` meets it, then picked from its exact table. A step's table can cost
        far more than a roll: two stupid models' tests are 1,296 replays of the step (36 faces
        each), and a simulated fight meets most of its tuples of models once or twice."""
        key = (id(seg), s)
        outcomes = self._drawn.get(key)
        if outcomes is None:
            rolled = self._rolled.get(key, 0)
            if rolled < ROLLED_BEFORE_TABLE:
                self._rolled[key] = rolled + 1
                return seg.step(RollDice(rng, logging=False), s)
            outcomes = self._drawn[key] = table(enumerate_outcomes(seg.step, s))
        return pick(rng, outcomes)

    def _drawn_volley(self, rng: random.Random, s: RoundState, call: VolleyCall) -> RoundState:
        """The round after one end of the call's volley, drawn with its probability: rolled with
        dice (``Volley.roll``, the same rule code as its table) the first few times a start is
        met, then picked from its exact table (``_changes_of``). A simulated fight meets many
        starts only once or twice: a roll costs tens of µs, a table of a dozen attacks
        milliseconds."""
        key = (call.volley, call.start, s.models[call.target], False)
        if key not in self._changes:
            rolled = self._rolled.get(key, 0)
            if rolled < ROLLED_BEFORE_TABLE:
                self._rolled[key] = rolled + 1
                end = call.volley.roll(RollDice(rng, logging=False), call.start)
                self.steps += len(call.volley.plans)  # about a die an attack, and the hits' dice
                change = (self.rules._changed_model(s.models[call.target], end), end.hammered, end.critical_used, end.parry_used, 0, 1.0)
                return self._changed(s, call, change)
        changes, cumulative = self._changes_of(s, call, False)
        return self._changed(s, call, changes[_index(rng, cumulative)])


def table(dist: dict[_T, float]) -> Drawn[_T]:
    """A distribution as a list of (outcome, probability) and its cumulative probabilities, to draw from (``pick``)."""
    items = list(dist.items())
    return items, list(accumulate(q for _, q in items))


def _index(rng: random.Random, cumulative: list[float]) -> int:
    # the last cumulative sum may fall short of 1 by rounding: never run off the end
    return min(bisect_right(cumulative, rng.random() * cumulative[-1]), len(cumulative) - 1)


def pick(rng: random.Random, drawn_from: Drawn[_T]) -> _T:
    """One outcome of a ``table``, drawn with its probability."""
    items, cumulative = drawn_from
    return items[_index(rng, cumulative)][0]


def _put(values: tuple, i: int, value) -> tuple:
    return values[:i] + (value,) + values[i + 1:]


_MASKED: dict[tuple, tuple[bool, ...]] = {}


def _masked(flags: tuple[bool, ...], live: tuple[bool, ...]) -> tuple[bool, ...]:
    """The flags where ``live``, False elsewhere (few pairs of tuples exist: remembered)."""
    key = (flags, live)
    masked = _MASKED.get(key)
    if masked is None:
        masked = _MASKED[key] = tuple(f and k for f, k in zip(flags, live))
    return masked
