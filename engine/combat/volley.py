"""One model's volley at one target (000:677-789), written once against ``Dice``.

A volley is every attack one model makes at one target in one phase: its blows, a crossbow
pistol's shot (000:1155), a shot in the shooting phase, or the automatic hit an opponent gets on
a warrior breaking from combat (000:801). The same step methods serve both modes:

* Roll mode (``Volley.roll``) calls them in order with real dice and a log;
* Odds mode (``Volley.odds``) pushes distributions of states through them, each step enumerated
  over its own dice (``dice.propagate``) and remembered per state.

The steps, in order: one to-hit roll per attack (``roll_to_hit``), the target's parry
(``parry``) and lucky charm (``lucky_charm``) on the ``HitTally``; then for every hit, in
attack-slot order, ``roll_to_wound`` (and the critical chart), ``roll_saves`` and
``take_wounds`` (wounds, then injury rolls) on ``Blows``; then a Body Blow's extra attack
(``extra_attack``) and the hit it may bring; then ``finish``, where the highest injury stands
(000:615). Injuries apply only at the end, so one model cannot knock down and then take out the
same warrior in one phase (000:787).

Why Odds mode is fast: a hit's resolution does not depend on how many hits are left, so the
hits are not part of the resolving state. Every volley that rolled the same hits in the same
order shares one resolution: ``_resolve_odds`` walks the hit lists as a tree of prefixes and
resolves each prefix once, from its parent's distribution. And no step of a hit reads how many
wounds the volley has caused so far: each step's table is enumerated with that count at 0 and
the count is added back (``_resolve_dist``), or left at 0 when nobody will read it (a
fight to the end reads only who is still standing).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cached_property, partial

from engine.combat.citations import cite
from engine.combat.dice import Dice, d3_of, enumerate_outcomes, propagate
from engine.combat.injury import Injury, InjuryOptions, helmet_saves, injury_rule
from engine.combat.ruleset import Ruleset
from engine.combat.sides import ModelNumbers, SlotVersus
from engine.combat.state import KNOCKED_DOWN, OUT_OF_ACTION, STANDING, STATUS_WORDS, STUNNED, Blows, HitTally, PendingWound
from engine.combat.tables import NO_SAVE, SAVE_EACH_WOUND, critical_result

BLOWS = "blows"  # close-combat attacks
CC_SHOT = "close-combat shot"  # a crossbow pistol's shot before the blows: no parry
FIRST_STRIKE = "first strike"  # a whip's extra attack against his charger, before the blows (Whipcrack)
SHOOTING = "shooting"  # the shooting phase: no parry, no cap on criticals, a knocked-down target is not taken out
BREAKING = "breaking"  # the automatic hit on a warrior breaking from combat



def because(needed: int | None, why: str) -> str:
    """"3+ (WS4 vs WS3)"; when the reasons cite in brackets of their own, "3+: BS4 needs 3+
    (000:518-519)", not brackets in brackets."""
    return f"{needed}+: {why}" if "(" in why else f"{needed}+ ({why})"

@dataclass(frozen=True)
class HitPlan:
    """What attack k of a volley needs: its slot, and either why it hits automatically or the
    roll it needs and the faces that hit (a function of the attacker, the target's status and
    fear, worked out once per volley)."""

    slot: int
    automatic: str | None  # why it hits without a roll
    needed: int | None
    hits_on: frozenset[int]
    why: str  # the to-hit reason shown in the log


class Volley:
    """One model's attacks at one target, for one context: the slots (attacker against this
    target), the target's status when the volley starts, the attacker's fear, the kind."""

    def __init__(self, r: Ruleset, slots: tuple[SlotVersus, ...], target: ModelNumbers, *, names: tuple[str, str],
                 kind: str = BLOWS, target_status: int = STANDING, failed_fear: bool = False,
                 attacker: ModelNumbers | None = None, attacker_ws: int = 0, shot_reasons: tuple[str, ...] = (),
                 injury_bonus: int = 0, automatic: str | None = None) -> None:
        self.r = r
        self.slots = slots
        self.target = target
        self.attacker = attacker
        self.names = names
        self.kind = kind
        self.target_status = target_status
        self.blows = kind in (BLOWS, BREAKING, FIRST_STRIKE)
        self.parries = kind in (BLOWS, FIRST_STRIKE)
        # 000:566 one critical per warrior per hand-to-hand combat phase: shots in the shooting
        # phase have no cap (a sling's or repeater crossbow's second shot may be critical too)
        self.critical_cap = r.one_critical_per_phase and kind != SHOOTING
        self.injury_bonus = injury_bonus
        self.dodges = kind == SHOOTING and target.fighter.has("dodge")
        self.plans = self._plans(target_status, failed_fear, attacker_ws, shot_reasons, automatic)
        # 004:390 core2: only attacks that rolled to hit can cause criticals
        self.rolled_to_hit = not any(p.automatic for p in self.plans)
        self.larger_target = attacker is not None and target.size > attacker.size and r.size_matters
        self._injury_options: dict[tuple, InjuryOptions] = {}
        self._caches: dict = {}  # Odds mode: a table per step, per state
        self._results: dict = {}  # Odds mode: a volley's result per start state

    # --- the plan of each attack -------------------------------------------------------------
    def _plans(self, target_status: int, failed_fear: bool, ws: int, shot_reasons: tuple[str, ...],
               automatic: str | None) -> tuple[HitPlan, ...]:
        r, ed, y = self.r, self.r.edition, self.target
        plans = []
        for slot_index, slot in enumerate(self.slots):
            auto = automatic
            if auto is None and slot.shot_needed is None:
                if target_status == KNOCKED_DOWN and r.knocked_down_auto_hit:
                    auto = f"knocked down: hits automatically ({cite('knocked-down-auto-hit', ed)})"
                elif target_status == STUNNED:
                    auto = f"stunned: hits automatically ({cite('stunned-auto-hit', ed)})"
                elif y.fighter.profile.WS == 0:
                    auto = f"WS 0: hits automatically ({cite('ws0', ed)})"
            if auto:
                plan = HitPlan(slot=slot_index, automatic=auto, needed=None, hits_on=frozenset(range(1, 7)), why=auto)
            else:
                if slot.shot_needed is not None:
                    needed = slot.shot_needed
                    if shot_reasons:
                        why = "; ".join(shot_reasons)
                    elif self.attacker is None:
                        raise ValueError("A close-combat shot with no reasons given needs its attacker (for his BS).")
                    else:
                        why = f"BS{self.attacker.fighter.profile.BS} shot at -2 ({cite('crossbow-pistol-cc')})"
                else:
                    needed = r.cc_needed(ws, y.ws_defending, slot.to_hit_bonus, failed_fear)
                    if failed_fear:
                        why = f"failed fear test: 6s ({cite('fear-charged', ed)})"
                    else:
                        accurate = slot.to_hit_bonus + (1 if slot.hit_why else 0) > 0  # a duelling pistol, whatever else counts
                        why = (f"WS{ws} vs WS{y.ws_defending}" + (f" +1 accuracy ({cite('duelling-pistol-accuracy')})" if accurate else "")
                               + (f" {slot.hit_why}" if slot.hit_why else ""))
                plan = HitPlan(slot=slot_index, automatic=None, needed=needed, why=why,
                               hits_on=frozenset(f for f in range(1, 7) if r.hit_succeeds(f, needed)))
            plans += [plan] * slot.count
        return tuple(plans)

    # --- to hit ---------------------------------------------------------------------------------
    def start_tally(self, start: Blows) -> HitTally:
        zeros = (0,) * len(self.slots)
        return HitTally(zeros, zeros, lucky_charm=start.lucky_charm, parry_used=start.parry_used)

    def roll_to_hit(self, dice: Dice, t: HitTally, k: int) -> HitTally:
        plan = self.plans[k]
        slot = self.slots[plan.slot]
        attacker, target = self.names
        if plan.automatic:
            if dice.logging:
                dice.say(f"{attacker} attack {k + 1} ({slot.name}): {target} is {plan.automatic}")
            return t._replace(hits=_add(t.hits, plan.slot, 1))
        roll = dice.d6()
        hit = roll in plan.hits_on
        if not hit and slot.rerolls_misses:
            first = roll
            roll = dice.d6()  # 000:875 hatred; Expert Swordsman
            hit = roll in plan.hits_on
            if dice.logging:
                why = f"hatred ({cite('hatred', self.r.edition)})" if self.attacker is not None and self.attacker.hatred else "Expert Swordsman"
                dice.say(f"{attacker} attack {k + 1}: rolled {first}, missed; re-rolled for {why}")
        if dice.logging:
            dice.say(f"{attacker} attack {k + 1} ({slot.name}) to hit: rolled {roll}, needed {because(plan.needed, plan.why)} → "
                     + ("hit" if hit else "miss"))
        if not hit:
            return t
        six = roll == 6
        hits, lotus = t.hits, t.lotus_hits
        if six and slot.black_lotus:
            lotus = _add(lotus, plan.slot, 1)  # 000:1361 wounds automatically
        else:
            hits = _add(hits, plan.slot, 1)
        best, best_slot = t.best_parryable, t.best_slot
        if slot.parryable and not six and roll > best:
            best, best_slot = roll, plan.slot
        return t._replace(hits=hits, lotus_hits=lotus, best_parryable=best, best_slot=best_slot, rolled_six=t.rolled_six or six)

    def parry(self, dice: Dice, t: HitTally) -> HitTally:
        """000:765-775: one D6 higher than the best to-hit roll discards that hit; one parry per
        phase, against the first enemy who hits; never against a 6 or double Strength."""
        y, ed = self.target, self.r.edition
        target = self.names[1]
        spent = t._replace(best_parryable=0, best_slot=0, rolled_six=False)
        if not (sum(t.hits) + sum(t.lotus_hits)) or not y.can_parry or self.target_status != STANDING:
            return spent
        spent = spent._replace(parry_used=True)
        if t.parry_used:
            if dice.logging:
                dice.say(f"{target} has parried already this phase: one parry, against the first enemy to hit ({cite('parry-once', ed)}).")
            return spent
        if self.plans and self.plans[0].automatic:
            return spent
        if t.rolled_six:
            if dice.logging:
                dice.say(f"{target} cannot parry: a 6 was rolled to hit ({cite('parry', ed)}).")
            return spent
        if t.best_parryable == 0:
            if dice.logging:
                dice.say(f"{target} cannot parry blows of double his Strength or more ({cite('parry-double-strength', ed)}).")
            return spent
        # INVENTORY §5.9 decision: against the highest to-hit roll among the blows he may parry;
        # that hit (the first weapon's on a tie) is discarded (000:765, 000:771)
        parried = False
        for attempt in range(y.parry_attempts):
            roll = dice.d6() + y.parry_bonus
            parried = roll > t.best_parryable
            if dice.logging:
                bonus = f" (+{y.parry_bonus} two swords, {cite('parry-reroll', ed)})" if y.parry_bonus else ""
                again = f" (re-roll, {cite('parry-reroll', ed)})" if attempt else ""
                dice.say(f"{target} parries{again}: rolled {roll}{bonus}, needs more than {t.best_parryable} → "
                         + ("parried" if parried else "failed"))
            if parried:
                return spent._replace(hits=_add(t.hits, t.best_slot, -1))
        return spent

    def lucky_charm(self, dice: Dice, t: HitTally) -> HitTally:
        """000:1397: the first time he is hit in a battle, a 4+ discards the hit."""
        if t.best_parryable or t.rolled_six:
            t = t._replace(best_parryable=0, best_slot=0, rolled_six=False)  # read by the parry only
        if not t.lucky_charm or not (sum(t.hits) + sum(t.lotus_hits)):
            return t
        roll = dice.d6()
        if dice.logging:
            dice.say(f"{self.names[1]}'s lucky charm: rolled {roll}, needs 4+ → "
                     + ("hit discarded" if roll >= 4 else "no luck") + f" ({cite('lucky-charm')})")
        t = t._replace(lucky_charm=False)
        if roll < 4:
            return t
        for slot in range(len(self.slots)):  # the first hit: the first slot's, a normal hit before a lotus 6
            if t.hits[slot]:
                return t._replace(hits=_add(t.hits, slot, -1))
            if t.lotus_hits[slot]:
                return t._replace(lotus_hits=_add(t.lotus_hits, slot, -1))
        return t

    def dodge(self, dice: Dice, t: HitTally) -> HitTally:
        """Dodge (a skill): each missile hit is avoided on an unmodified 5+, before wounding."""
        if not self.dodges or not (sum(t.hits) + sum(t.lotus_hits)):
            return t
        hits, lotus = list(t.hits), list(t.lotus_hits)
        for counts in (hits, lotus):
            for slot, n in enumerate(counts):
                for _ in range(n):
                    roll = dice.d6()
                    if dice.logging:
                        dice.say(f"{self.names[1]} dodges: rolled {roll}, needs 5+ → " + ("hit avoided" if roll >= 5 else "failed"))
                    if roll >= 5:
                        counts[slot] -= 1
        return t._replace(hits=tuple(hits), lotus_hits=tuple(lotus))

    def hit_list(self, t: HitTally) -> tuple[tuple[int, bool], ...]:
        """The hits to resolve, in order: slot by slot, normal hits before Black Lotus 6s."""
        hits: list[tuple[int, bool]] = []
        for slot in range(len(self.slots)):
            hits += [(slot, False)] * t.hits[slot] + [(slot, True)] * t.lotus_hits[slot]
        return tuple(hits)

    # --- one hit ------------------------------------------------------------------------------------
    def roll_to_wound(self, dice: Dice, b: Blows) -> Blows:
        if b.next_hit is None:
            return b
        slot_index, lotus = b.next_hit
        slot = self.slots[slot_index]
        r, ed = self.r, self.r.edition
        needed = slot.wound_needed
        roll = dice.d6()
        wounded = lotus or (needed is not None and roll >= needed)
        critical = (wounded and roll == 6 and needed is not None and r.critical_possible(needed) and slot.can_critical
                    and not (self.critical_cap and b.critical_used)
                    and (self.rolled_to_hit or r.automatic_hits_can_be_critical))
        if dice.logging:
            if lotus:
                why = f"Black Lotus wounds automatically ({cite('black-lotus')})"
            elif needed is None:
                why = f"S{slot.strength} cannot wound T{self.target.toughness} ({cite('cannot-wound', ed)})"
            else:
                why = f"S{slot.strength} vs T{self.target.toughness}" + (f", {slot.wound_why}" if slot.wound_why else "")
            need = f"needed {needed}+" if needed else "no chance"
            no_crit = ""
            if wounded and roll == 6 and not critical and needed is not None and r.critical_possible(needed):
                if not slot.can_critical:
                    no_crit = f", no critical: a {slot.name.lower()} causes none"
                elif self.critical_cap and b.critical_used:
                    no_crit = f", no second critical this phase ({cite('one-critical-per-phase', ed)})"
                else:
                    no_crit = f", no critical: it did not roll to hit ({cite('critical-rolled-to-hit', ed)})"
            dice.say(f"To wound with {slot.name}: rolled {roll}, {need} ({why}) → {'wound' if wounded else 'no wound'}"
                     + (", critical hit!" if critical else no_crit))
        if not wounded:
            return b._replace(next_hit=None)
        if not critical:
            return b._replace(next_hit=None, pending=PendingWound(slot=slot_index, wounds=self._wounds(dice, slot, 1, critical=False)))
        return self._critical(dice, b._replace(next_hit=None), slot_index, slot)

    def _wounds(self, dice: Dice, slot: SlotVersus, wounds: int, *, critical: bool) -> int:
        """The wounds one wounding hit causes: 1 (or a critical's), or D3 for a weapon that causes
        D3 (a ball and chain); after a critical, whichever is more (000:574)."""
        if not slot.d3_wounds:
            return wounds
        face = dice.d6()
        n = d3_of(face)
        if dice.logging:
            more = (f"; the critical's {wounds} or the D3's {n}, whichever is more ({cite('critical-several-wounds')})"
                    if critical else "")
            dice.say(f"A {slot.name.lower()} causes D3 wounds: rolled {face} → {n}{more}")
        return max(wounds, n)

    def _critical(self, dice: Dice, b: Blows, slot_index: int, slot: SlotVersus) -> Blows:
        ed = self.r.edition
        roll = dice.d6()
        web = 1 if (self.attacker is not None and self.attacker.web_of_steel and self.blows) else 0
        bonus = web + slot.critical_bonus
        result = critical_result(slot.critical_table, min(6, roll + bonus))
        if self.larger_target and result.on_larger_victim is not None:
            result = result.on_larger_victim  # 004:411, 004:442 a larger victim
        if dice.logging:
            shown = f"{roll}" + (" +1 (Web of Steel)" if web else "") + (f" +{slot.critical_bonus} (Dark Elf blade)" if slot.critical_bonus else "")
            dice.say(f"Critical {shown}: {result.name} – {result.text} ({cite(result.citation, ed)})")
        wounds = self._wounds(dice, slot, result.wounds, critical=True)
        b = b._replace(pending=PendingWound(slot=slot_index, wounds=wounds, save=result.save, injury_bonus=result.injury_bonus,
                                            ignores_helmet=result.ignores_helmet, out_if_unsaved=result.out_if_unsaved,
                                            knocks_down=result.knocks_down))
        if self.critical_cap:
            b = b._replace(critical_used=True)  # without the cap it is never read: it stays False
        if result.hammered and not b.hammered:
            b = b._replace(hammered=True)
        if result.extra_attack and b.extra_attack == 0:
            b = b._replace(extra_attack=1)
        if result.knocks_weapon_away:
            b = self._knock_weapon_away(dice, b)
        return b

    def _knock_weapon_away(self, dice: Dice, b: Blows) -> Blows:
        """Wild Sweep (002:682, 004:410): a weapon in his hands is knocked away; with two, a D6
        says which (1-3 the main hand's, 4-6 the other's). He fights on with the rest of his kit."""
        loadout = self.target.loadout
        in_hands = [i for i in (loadout.main_index, loadout.second_index) if i is not None and i not in b.weapons_lost]
        target, ed = self.names[1], self.r.edition
        if not in_hands:
            if dice.logging:
                dice.say(f"{target} holds no weapon to knock away.")
            return b
        lost = in_hands[0]
        if len(in_hands) == 2:
            roll = dice.d6()
            lost = in_hands[0] if roll <= 3 else in_hands[1]
            if dice.logging:
                dice.say(f"Which weapon: rolled {roll} (1-3 the main hand's, 4-6 the other's)")
        if dice.logging:
            name = self.target.fighter.weapons[lost].name.split(",")[0].lower()
            dice.say(f"{target}'s {name} is knocked away: he fights on without it for the rest of this combat ({cite('crit-wild-sweep', ed)}).")
        return b._replace(weapons_lost=tuple(sorted(b.weapons_lost + (lost,))))

    def save_target(self, slot: SlotVersus) -> int | None:
        if slot.armour == "none":
            return None  # no armour save against it (a ball and chain, a starsword)
        base = self.target.save if slot.armour == "normal" else (6 if self.target.shield else None)  # a ladle: a shield's only
        if slot.enemy_save_bonus:
            base = 6 if base is None else base - 1  # 000:909, 919 +1 save, 6+ if none
        if base is None:
            return None
        return base - slot.save_modifier  # 000:598-609 modifiers make the save harder

    def roll_saves(self, dice: Dice, b: Blows) -> Blows:
        p = b.pending
        if p is None or p.saved:
            return b
        target, ed = self.names[1], self.r.edition
        slot = self.slots[p.slot]
        wounds = p.wounds
        if p.save == NO_SAVE or slot.armour == "none":
            if dice.logging:
                dice.say(f"{target}: no armour save" + (f" against a {slot.name.lower()}." if slot.armour == "none" else "."))
        else:
            if slot.armour == "shield" and dice.logging:
                dice.say(f"Against a {slot.name.lower()} only a shield saves" + ("." if self.target.shield else ": he has none."))
            needed = self.save_target(slot)
            if needed is not None and needed > 6:
                if dice.logging:
                    dice.say(f"{target}: the save would need {needed}+, impossible ({cite('save-modifiers', ed)}).")
            elif needed is not None:
                for _ in range(wounds if p.save == SAVE_EACH_WOUND else 1):
                    roll = dice.d6()
                    saved = roll >= max(needed, 2)
                    if dice.logging:
                        dice.say(f"{target} armour save: rolled {roll}, needed {needed}+ (modifier {slot.save_modifier}) → "
                                 + ("saved" if saved else "failed"))
                    if saved:
                        wounds = wounds - 1 if p.save == SAVE_EACH_WOUND else 0
        for needed, name in self._after_armour:
            for _ in range(wounds):
                roll = dice.d6()
                if dice.logging:
                    dice.say(f"{target}'s {name}: rolled {roll}, needs {needed}+ → " + ("wound ignored" if roll >= needed else "failed"))
                if roll >= needed:
                    wounds -= 1
        return b._replace(pending=p._replace(wounds=wounds, saved=True))

    @cached_property
    def _after_armour(self) -> tuple[tuple[int, str], ...]:
        """The saves each wound gets after armour, in order: Step Aside (close combat), a special
        save never modified (a peg leg; an Amulet of the Moon against missiles: the best one),
        Regeneration."""
        y = self.target
        out = []
        if y.step_aside and self.blows:
            out.append((5, "Step Aside"))
        wards = [w for w in (y.ward_save, y.missile_ward_save if self.kind in (SHOOTING, CC_SHOT) else None) if w is not None]
        if wards:
            out.append((min(wards), "special save"))
        if y.regeneration:
            out.append((4, "Regeneration"))
        return tuple(out)

    def take_wounds(self, dice: Dice, b: Blows) -> Blows:
        """000:613-615: a wound comes off while more than one is left; the wound that takes him
        to 0 and every one after it gets an injury roll; the highest result applies at the end."""
        p = b.pending
        if p is None:
            return b
        target, ed = self.names[1], self.r.edition
        worst = b.worst_injury
        if p.knocks_down and b.status == STANDING and worst < KNOCKED_DOWN:
            worst = int(Injury.KNOCKED_DOWN)  # Thrust: knocked down even if saved
        if p.wounds == 0:
            return b._replace(pending=None, worst_injury=worst)
        lost = b.wounds_lost + p.wounds
        if b.status == OUT_OF_ACTION:
            if dice.logging:
                dice.say(f"{target} is already out of action.")
            return b._replace(pending=None, wounds_lost=lost)
        if (b.status in (KNOCKED_DOWN, STUNNED) and self.kind != SHOOTING) or p.out_if_unsaved:
            if dice.logging:
                why = (f"Bludgeoned ({cite('crit-bludgeoned', ed)})" if p.out_if_unsaved and b.status == STANDING
                       else f"wounded while {STATUS_WORDS[b.status]} ({cite('knocked-down-wounded', ed)})")
                dice.say(f"{target} is out of action: {why}.")
            return b._replace(pending=None, status=OUT_OF_ACTION, wounds=max(0, b.wounds - p.wounds), wounds_lost=lost,
                              worst_injury=0, helmet_barred=False)
        wounds_left, rolls = b.wounds, 0
        for _ in range(p.wounds):
            if wounds_left > 1:
                wounds_left -= 1
            else:
                wounds_left = 0
                rolls += 1
        if dice.logging:
            dice.say(f"{target} loses {p.wounds} wound{'s' if p.wounds > 1 else ''}: {wounds_left} left"
                     + (f", {rolls} injury roll{'s' if rolls > 1 else ''}" if rolls else ""))
        barred = b.helmet_barred
        if rolls and worst != Injury.OUT_OF_ACTION:  # else the highest result already stands
            options = self._injury(p)
            for _ in range(rolls):
                result = injury_rule(dice, options)
                worst = max(worst, int(result))
                barred = barred or (result == Injury.STUNNED and p.ignores_helmet)
                if worst == Injury.OUT_OF_ACTION:
                    break
            barred = barred and worst == Injury.STUNNED and self.helmet_on_result
        return b._replace(pending=None, wounds=wounds_left, wounds_lost=lost, worst_injury=worst, helmet_barred=barred)

    @property
    def helmet_on_result(self) -> bool:
        return self.target.helmet and not self.r.helmet_save_each_roll and not self.target.stunned_is_knocked_down

    def _injury(self, p: PendingWound) -> InjuryOptions:
        key = (p.injury_bonus, p.ignores_helmet, self.slots[p.slot].concussion, self.slots[p.slot].injury_bonus)
        options = self._injury_options.get(key)
        if options is None:
            y = self.target
            options = self._injury_options[key] = InjuryOptions(
                concussion=self.slots[p.slot].concussion,
                helmet=y.helmet and self.r.helmet_save_each_roll,
                mandrake_root=y.stunned_is_knocked_down,
                bonus=p.injury_bonus + self.injury_bonus + self.slots[p.slot].injury_bonus,
                ignore_helmet=p.ignores_helmet,
                concussion_on_natural_roll=self.r.toggle("concussion_on_natural_roll"),
                hard_to_kill=y.hard_to_kill,
            )
        return options

    # --- after the hits ----------------------------------------------------------------------------
    def extra_attack(self, dice: Dice, b: Blows) -> Blows:
        """002:701 Body Blow: one extra attack at once (one per volley), to hit as the first attack
        (so automatically against a knocked-down warrior, 002:973-975)."""
        if b.extra_attack != 1:
            return b
        b = b._replace(extra_attack=2)
        plan = self.plans[0]
        if plan.automatic:
            hit = True
            if dice.logging:
                dice.say(f"Body Blow extra attack: {self.names[1]} is {plan.automatic}")
        else:
            roll = dice.d6()
            hit = roll in plan.hits_on
            if dice.logging:
                dice.say(f"Body Blow extra attack: rolled {roll}, needed {plan.needed}+ → {'hit' if hit else 'miss'}")
        return b._replace(next_hit=(0, False)) if hit else b

    def finish(self, dice: Dice, b: Blows) -> Blows:
        """The highest injury result applies (000:615); the helmet saves it here when it is
        taken on the applied result (ruleset.helmet_save_each_roll off)."""
        worst = b.worst_injury
        if worst == Injury.STUNNED and self.helmet_on_result and not b.helmet_barred:
            if helmet_saves(dice, "the stunned result that applies"):
                worst = int(Injury.KNOCKED_DOWN)
        elif worst == Injury.STUNNED and b.helmet_barred and self.target.helmet and dice.logging:
            dice.say(f"No helmet save: the stunned result came from a Clubbed hit ({cite('crit-clubbed', self.r.edition)}).")
        status = max(b.status, worst) if worst else b.status
        if worst and dice.logging:
            dice.say(f"**{self.names[1]} is {STATUS_WORDS[status]}.**")
        return b._replace(status=status, worst_injury=0, helmet_barred=False, extra_attack=0)

    # --- Roll mode ------------------------------------------------------------------------------------
    def roll(self, dice: Dice, start: Blows) -> Blows:
        t = self.start_tally(start)
        for k in range(len(self.plans)):
            t = self.roll_to_hit(dice, t, k)
        if self.parries:
            t = self.parry(dice, t)
        t = self.lucky_charm(dice, t)
        t = self.dodge(dice, t)
        b = start
        if (t.lucky_charm, t.parry_used) != (start.lucky_charm, start.parry_used):
            b = start._replace(lucky_charm=t.lucky_charm, parry_used=t.parry_used)
        for hit in self.hit_list(t):
            b = self._resolve(dice, b._replace(next_hit=hit))
        b = self.extra_attack(dice, b)
        if b.next_hit is not None:
            b = self._resolve(dice, b)
        return self.finish(dice, b)

    def _resolve(self, dice: Dice, b: Blows) -> Blows:
        if self.fumes:
            b = self.take_wounds(dice, self.roll_saves(dice, self.fog_of_death(dice, b)))
        b = self.roll_to_wound(dice, b)
        if b.pending is None:
            return b
        return self.take_wounds(dice, self.roll_saves(dice, b))

    @cached_property
    def fumes(self) -> bool:
        """Whether a hit of this volley may poison with fumes (a censer's Fog of Death)."""
        return any(slot.fumes for slot in self.slots)

    def fog_of_death(self, dice: Dice, b: Blows) -> Blows:
        """A censer's hit: the target tests Toughness, a D6 over it (a 6 always) is an automatic wound
        more, besides the hit itself (Town Cryer 29); its wound waits for its saves as any other."""
        if b.next_hit is None or not self.slots[b.next_hit[0]].fumes or b.status >= OUT_OF_ACTION:
            return b
        roll = dice.d6()
        toughness = self.target.toughness
        poisoned = roll == 6 or roll > toughness
        if dice.logging:
            dice.say(f"{self.names[1]} breathes the censer's fumes: Toughness test rolled {roll} against T{toughness} → "
                     + ("a wound more (Fog of Death)" if poisoned else "passed"))
        return b._replace(pending=PendingWound(slot=b.next_hit[0], save=NO_SAVE)) if poisoned else b

    # --- Odds mode --------------------------------------------------------------------------------------
    def _cache(self, name: Hashable) -> dict:
        return self._caches.setdefault(name, {})

    def odds(self, start: Blows, *, count_wounds: bool = True) -> list[tuple[Blows, float]]:
        """Every end of the volley from ``start``, with its probability (the same steps as ``roll``);
        ``count_wounds=False`` merges ends that differ only in the wounds the volley caused."""
        key = (start, count_wounds)
        result = self._results.get(key)
        if result is None:
            result = self._results[key] = list(self._odds(start, count_wounds).items())
        return result

    def _odds(self, start: Blows, count_wounds: bool = True) -> dict[Blows, float]:
        out: dict[Blows, float] = {}
        for (charm, parry_used), hit_lists in self._hit_lists(start).items():
            begin = start._replace(lucky_charm=charm, parry_used=parry_used)
            for b, p in self._resolve_odds(begin, hit_lists, count_wounds).items():
                out[b] = out.get(b, 0.0) + p
        out = propagate(self.extra_attack, out, self._cache("extra"))
        out = self._resolve_dist(out, count_wounds)
        return propagate(self.finish, out, self._cache("finish"))

    def _hit_lists(self, start: Blows) -> dict[tuple[bool, bool], dict[tuple, float]]:
        """The to-hit rolls, parry, lucky charm and dodges of the volley: (the target's charm and
        parry after them) -> hit list -> probability. They read nothing of the start but the
        charm and the parry, so they are worked out once for each of those, whatever the
        target's wounds. Attacks with one plan share one table (``roll_to_hit`` reads ``k``
        only for the log)."""
        key = (start.lucky_charm, start.parry_used)
        found = self._cache("hit lists").get(key)
        if found is not None:
            return found
        tallies = {self.start_tally(start): 1.0}
        for k, plan in enumerate(self.plans):
            tallies = propagate(partial(self.roll_to_hit, k=k), tallies, self._cache(("hit", plan)))
        if self.parries:
            tallies = propagate(self.parry, tallies, self._cache("parry"))
        tallies = propagate(self.lucky_charm, tallies, self._cache("charm"))
        if self.dodges:
            tallies = propagate(self.dodge, tallies, self._cache("dodge"))
        found = {}
        for t, p in tallies.items():
            hits = found.setdefault((t.lucky_charm, t.parry_used), {})
            hit_list = self.hit_list(t)
            hits[hit_list] = hits.get(hit_list, 0.0) + p
        self._cache("hit lists")[key] = found
        return found

    def _resolve_odds(self, begin: Blows, hit_lists: dict[tuple, float], count_wounds: bool) -> dict[Blows, float]:
        """Resolve every hit list from ``begin``; lists sharing a prefix share its resolution,
        kept from one hit to the next as ``_resolve_groups`` reads and gives it."""
        after: dict[tuple, Groups] = {(): _grouped({begin: 1.0})}

        def resolved(hits: tuple) -> Groups:
            groups = after.get(hits)
            if groups is None:
                parent = resolved(hits[:-1])
                last = hits[-1]
                # every state after a hit has no next hit: the states stay distinct with this one
                groups = after[hits] = self._resolve_groups({_with_next_hit(b, last): counts for b, counts in parent.items()}, count_wounds)
            return groups

        out: dict[Blows, float] = {}
        for hits, p in sorted(hit_lists.items(), key=lambda item: len(item[0])):
            for b, q in _flattened(resolved(hits)).items():
                out[b] = out.get(b, 0.0) + p * q
        return out

    def _resolve_dist(self, dist: dict[Blows, float], count_wounds: bool = True) -> dict[Blows, float]:
        """One hit's steps (to wound, saves, wounds and injuries) on a distribution of states
        (``_resolve_groups``)."""
        return _flattened(self._resolve_groups(_grouped(dist), count_wounds))

    def _resolve_groups(self, groups: Groups, count_wounds: bool = True) -> Groups:
        """One hit's steps (to wound, saves, wounds and injuries) on a distribution of states.

        No step reads how many wounds the volley has caused so far, so the states are kept as
        (state with the count at 0: {count: probability}) (``_grouped``); each step's table is
        enumerated once per such state and adds its own wounds to every count. The counts are
        put back by ``_flattened``, or dropped when ``count_wounds`` is off (nobody will read
        them)."""
        steps: list[tuple[str, Callable[[Dice, Blows], Blows]]] = [
            ("wound", self.roll_to_wound), ("save", self.roll_saves), ("take", self.take_wounds)]
        if self.fumes:  # a censer's fumes first: a wound more that waits for its saves
            steps = [("fumes", self.fog_of_death), ("save", self.roll_saves), ("take", self.take_wounds), *steps]
        for name, step in steps:
            cache = self._cache(name)
            after: Groups = {}
            for base, counts in groups.items():
                table = cache.get(base)
                if table is None:  # (state with the count at 0, wounds this step added, probability)
                    table = cache[base] = [(_with_wounds_lost(b2, 0) if b2.wounds_lost else b2, b2.wounds_lost, q)
                                           for b2, q in enumerate_outcomes(step, base).items()]
                for b2, added, q in table:
                    into = after.setdefault(b2, {})
                    if not count_wounds:
                        into[0] = into.get(0, 0.0) + q * sum(counts.values())
                        continue
                    for lost, p in counts.items():
                        into[lost + added] = into.get(lost + added, 0.0) + p * q
            groups = after
        return groups


Groups = dict[Blows, dict[int, float]]  # state with no wounds counted -> {wounds the volley caused: probability}


def _grouped(dist: dict[Blows, float]) -> Groups:
    groups: Groups = {}
    for b, p in dist.items():
        counts = groups.setdefault(_with_wounds_lost(b, 0) if b.wounds_lost else b, {})
        counts[b.wounds_lost] = counts.get(b.wounds_lost, 0.0) + p
    return groups


def _flattened(groups: Groups) -> dict[Blows, float]:
    out: dict[Blows, float] = {}
    for base, counts in groups.items():
        for lost, p in counts.items():
            b = _with_wounds_lost(base, lost) if lost else base
            out[b] = out.get(b, 0.0) + p
    return out


_LOST = Blows._fields.index("wounds_lost")


def _with_wounds_lost(b: Blows, n: int) -> Blows:
    """``b._replace(wounds_lost=n)``, built directly: Odds mode does this for every outcome of
    every hit, and NamedTuple._replace (a dict of changes walked per field) is several times slower."""
    return tuple.__new__(Blows, b[:_LOST] + (n,) + b[_LOST + 1:])


_NEXT_HIT = Blows._fields.index("next_hit")


def _with_next_hit(b: Blows, hit: tuple[int, bool]) -> Blows:
    """``b._replace(next_hit=hit)``, built directly (as ``_with_wounds_lost``): once per state
    for every hit of every hit list."""
    return tuple.__new__(Blows, b[:_NEXT_HIT] + (hit,) + b[_NEXT_HIT + 1:])


def _add(counts: tuple[int, ...], i: int, n: int) -> tuple[int, ...]:
    return counts[:i] + (counts[i] + n,) + counts[i + 1:]
