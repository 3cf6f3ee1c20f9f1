"""The numbers of a round: each model's (``ModelNumbers``) and each attacker's against a target
(``Matchup``), worked out once from the fighter, his loadout, the ruleset and the round.

Nothing here rolls dice. Both are frozen and built with keywords; the round code asks
``numbers(...)`` and ``matchup(...)``, which remember what they built.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from engine.combat.fighter import MAX_ATTACKS, Fighter
from engine.combat.items import Weapon, list_name
from engine.combat.loadout import Loadout, choose_loadout, fist
from engine.combat.ruleset import Ruleset
from engine.combat.tables import bs_to_hit
from engine.errors import LimitExceeded

# strike order tiers (000:661-667): higher strikes first; a pike before even chargers and spears
STOOD_UP, STRIKES_LAST, NORMAL, STRIKES_FIRST, BEFORE_SPEARS = 0, 1, 2, 3, 4


@dataclass(frozen=True)
class AttackSlot:
    """One weapon's attacks this round."""

    weapon: Weapon
    count: int
    shot: bool = False  # a crossbow pistol's shot by BS before the blows (000:1155)


@dataclass(frozen=True)
class RoundContext:
    """What a model's numbers depend on besides himself."""

    first_round: bool  # the first turn of this combat
    charging: bool  # his side charged this turn
    charged: bool  # the other side charged him this turn


@dataclass(frozen=True)
class ModelNumbers:
    """One model's numbers for one round."""

    index: int
    fighter: Fighter
    loadout: Loadout
    blows: tuple[AttackSlot, ...]  # close-combat attacks, main hand first
    shots: tuple[AttackSlot, ...]  # crossbow pistol shot in the first round
    first_strikes: tuple[AttackSlot, ...]  # a whip's extra attack against his charger, before any blow (Whipcrack)
    ws: int  # for his own attacks (core2's two weapons -1, 004:547)
    ws_defending: int  # what his attackers roll against
    initiative: int
    tier: int
    hatred: bool  # re-rolls misses this round (000:875)
    expert_swordsman: bool  # re-rolls missed sword attacks this round (charging)
    causes_fear: bool
    fear_immune: bool
    psychology_immune: bool  # no All Alone or Stupidity tests
    can_parry: bool
    parry_attempts: int
    parry_bonus: int
    save: int | None  # close-combat armour save before modifiers
    helmet: bool
    stunned_is_knocked_down: bool  # Mandrake Root (000:1389), no pain
    toughness: int
    basic_strength: int
    size: int
    resilient: bool
    step_aside: bool
    regeneration: bool
    injury_bonus: int  # Strike to Injure, in close combat
    web_of_steel: bool
    hard_to_kill: bool = False
    hard_head: bool = False
    shield: bool = False  # a shield in use: the one save a ladle allows
    hit_penalty: int = 0  # his close-combat opponents' -1 to hit (a Cloud of Flies)
    takes_an_attack: bool = False  # his close-combat opponent has one Attack fewer, never below 1 (a Tentacle)
    ward_save: int | None = None  # a special save against every wound, never modified, after armour (a peg leg, enchanted skins)
    missile_ward_save: int | None = None  # the same against missiles only (an Amulet of the Moon)

    @property
    def name(self) -> str:
        return self.fighter.name


def _blow_slots(r: Ruleset, f: Fighter, loadout: Loadout, ctx: RoundContext, frenzied: bool) -> tuple[AttackSlot, ...]:
    """Who attacks with what (000:685 two weapons; 000:865 frenzy; 000:1177 pistols)."""
    if loadout.fights_with_pistols_only:
        if ctx.first_round:
            return (AttackSlot(loadout.main, len(loadout.pistols)),)  # one shot per pistol, a brace = 2 (000:1177)
        main, second = fist(), None  # the pistols are empty after the first turn
    else:
        main, second = loadout.main, loadout.second
    attacks = f.profile.A
    if f.has("charge-attack") and ctx.charging and ctx.first_round:
        attacks += 1  # dire wolves' Charge
    if main.has("one-attack"):
        attacks = min(attacks, 1)  # 000:903 fists: only ever 1 attack
    elif frenzied:
        attacks = r.frenzied_attacks(attacks)
    slots = [AttackSlot(main, attacks)]
    off_hand = loadout.pistols[0] if (ctx.first_round and loadout.pistols) else second
    if off_hand is not None and attacks > 0:
        slots.append(AttackSlot(off_hand, 1))  # 000:685 +1 A after frenzy; 000:1177 the pistol's +1
    whip = _whip(loadout)
    if whip is not None and ctx.charging and ctx.first_round:
        slots.append(AttackSlot(whip, 1))  # Whipcrack: +1 A when he charges, after every other change
    slots += [AttackSlot(w, 1) for w in loadout.extras]  # a scorpion tail, an extra arm: not doubled by frenzy
    total = sum(s.count for s in slots)
    if total > MAX_ATTACKS:
        raise LimitExceeded(f"{f.name} would make {total} attacks; the limit is {MAX_ATTACKS} per round.",
                            hint="Check the A characteristic and frenzy.")
    return tuple(s for s in slots if s.count > 0)


def _whip(loadout: Loadout) -> Weapon | None:
    """The whip in his hands that gives Whipcrack's extra attack (one, even with two whips)."""
    return next((w for w in (loadout.main, loadout.second) if w is not None and w.has("whipcrack")), None)


def model_numbers(r: Ruleset, index: int, f: Fighter, ctx: RoundContext, *, frenzied: bool,
                  weapons_lost: tuple[int, ...] = ()) -> ModelNumbers:
    """One model's numbers this round (its caller remembers them: building them is slow)."""
    loadout = choose_loadout(f, tuple(sorted(weapons_lost)))
    blows = _blow_slots(r, f, loadout, ctx, frenzied)
    shots = (AttackSlot(loadout.crossbow_pistol, 1, shot=True),) if (ctx.first_round and loadout.crossbow_pistol) else ()
    whip = _whip(loadout)
    first_strikes = (AttackSlot(whip, 1),) if (whip is not None and ctx.first_round and ctx.charged) else ()
    second_in_use = loadout.second is not None and any(s.weapon is loadout.second for s in blows[1:])
    penalty = r.two_weapons_ws_penalty if second_in_use else 0  # 004:547
    ws = f.profile.WS - penalty + (1 if f.has("unstoppable-charge") and ctx.charging and ctx.first_round else 0)
    ws_defending = f.profile.WS - (penalty if r.two_weapons_penalty_when_attacked else 0)
    in_hands = [s.weapon for s in blows]
    strike_last = any(w.has("strike-last") for w in in_hands) and not f.has("strongman")
    strike_first = (ctx.first_round and (ctx.charging or any(w.has("strike-first") for w in in_hands)
                                         or (ctx.charged and f.has("lightning-reflexes")))
                    or f.has("always-strikes-first"))
    tier = STRIKES_LAST if strike_last else (STRIKES_FIRST if strike_first else NORMAL)  # 000:1048 even when charging
    if ctx.first_round and any(w.has("strikes-before-spears") for w in in_hands):
        tier = BEFORE_SPEARS  # a pike's reach: first of all in the first turn
    held = [w for w in (loadout.main, loadout.second) if w is not None]  # he parries even with no Attacks
    parry_weapons = sum(1 for w in held if w.has("parry"))  # a pair is in both hands: two, as two swords
    bucklers = loadout.buckler or any(w.has("buckler-parry") for w in held)  # a spiked gauntlet is also a buckler
    can_parry = parry_weapons > 0 or bucklers
    attempts, bonus = r.parry_rolls(two_swords=parry_weapons >= 2,
                                    sword_and_buckler=(parry_weapons > 0 and bucklers) or any(w.has("parry-reroll") for w in held))
    save = f.body_armour.save if f.body_armour else None
    if loadout.shield and not (f.body_armour and f.body_armour.has("no-shield-bonus")):
        save = 6 if save is None else save - 1  # 000:584 a shield adds +1 (not to toughened leathers)
    if f.cloak is not None:
        save = (7 if save is None else save) - f.cloak.save_bonus  # a Sea Dragon cloak, over any armour
    psychology_immune = f.has("immune-to-psychology") or frenzied  # 000:867, 004:712
    return ModelNumbers(
        index=index, fighter=f, loadout=loadout, blows=blows, shots=shots,
        ws=max(ws, 0), ws_defending=max(ws_defending, 0),
        initiative=f.profile.I + (1 if f.ithilmar_weapon else 0),  # 000:1060
        tier=tier, hatred=f.has("hates") and ctx.first_round,
        expert_swordsman=f.has("expert-swordsman") and ctx.charging and ctx.first_round,
        causes_fear=f.causes_fear, fear_immune=f.fear_immune or frenzied, psychology_immune=psychology_immune,
        can_parry=can_parry, parry_attempts=attempts, parry_bonus=bonus,
        save=save, helmet=f.helmet,
        stunned_is_knocked_down=f.stunned_is_knocked_down,
        toughness=f.toughness, basic_strength=f.strength, size=f.size,
        resilient=f.has("resilient"), step_aside=f.has("step-aside"), regeneration=f.has("regeneration"),
        injury_bonus=1 if f.has("strike-to-injure") else 0, web_of_steel=f.has("web-of-steel"),
        hard_to_kill=f.has("hard-to-kill"), hard_head=f.has("hard-head"),
        shield=loadout.shield, hit_penalty=1 if f.carries("enemies-hit-1") else 0, takes_an_attack=f.carries("enemy-attack-1"),
        ward_save=6 if f.carries("ward-6") else None, missile_ward_save=5 if f.carries("ward-5-missiles") else None,
        first_strikes=first_strikes,
    )


@dataclass(frozen=True)
class SlotVersus:
    """One attack slot's numbers against one target."""

    name: str  # the weapon, as the log names it
    weapon_id: str
    count: int
    strength: int  # the Strength the blow wounds with
    save_modifier: int
    enemy_save_bonus: bool  # dagger, fist: +1 to the target's save, 6+ if none (000:909, 919)
    critical_table: str | None  # None: 000's single chart
    concussion: bool
    black_lotus: bool
    to_hit_bonus: int
    shot_needed: int | None  # a shot by BS (crossbow pistol) instead of WS
    parryable: bool
    wound_needed: int | None  # None: no chance (000:554)
    injury_bonus: int
    rerolls_misses: bool  # hatred (000:875), Expert Swordsman
    armour: str = "normal"  # "normal", "none" (no armour save: a ball and chain) or "shield" (only a shield's: a ladle)
    d3_wounds: bool = False  # each wound is D3 wounds (a ball and chain)
    can_critical: bool = True  # a blowpipe causes no critical hits
    critical_bonus: int = 0  # added to the critical roll (a Dark Elf blade)
    wound_why: str = ""  # why the roll to wound differs from the chart (a holy weapon against Undead)
    hit_why: str = ""  # why the roll to hit differs (a Cloud of Flies)
    fumes: bool = False  # each hit poisons with fumes: a Toughness test or a wound more (a censer's Fog of Death)


@dataclass(frozen=True)
class Matchup:
    """An attacker's numbers against one target this round."""

    attacker: ModelNumbers
    target: ModelNumbers
    blows: tuple[SlotVersus, ...]
    shots: tuple[SlotVersus, ...]
    first_strikes: tuple[SlotVersus, ...] = ()


def matchup(r: Ruleset, x: ModelNumbers, y: ModelNumbers, ctx: RoundContext) -> Matchup:
    """An attacker's numbers against one target (its caller remembers them)."""
    blows = tuple(slot_versus(r, x, y, s, ctx) for s in x.blows)
    if y.takes_an_attack:
        blows = _one_attack_fewer(blows)
    return Matchup(x, y, blows, tuple(slot_versus(r, x, y, s, ctx) for s in x.shots),
                   tuple(slot_versus(r, x, y, s, ctx) for s in x.first_strikes))


def _one_attack_fewer(blows: tuple[SlotVersus, ...]) -> tuple[SlotVersus, ...]:
    """A Tentacle grapples him: one Attack fewer, never below 1 (the last slot's, his least one)."""
    if sum(b.count for b in blows) <= 1:
        return blows
    last = blows[-1]
    return blows[:-1] + ((replace(last, count=last.count - 1),) if last.count > 1 else ())


def _dark_elf_blade(f: Fighter, w: Weapon) -> bool:
    """His sword or dagger is a Dark Elf blade (it keeps its own rules)."""
    return f.carries("dark-elf-blade") and (w.has("counts-as-sword") or w.base == "dagger")


def slot_versus(r: Ruleset, x: ModelNumbers, y: ModelNumbers, slot: AttackSlot, ctx: RoundContext) -> SlotVersus:
    f, w = x.fighter, slot.weapon
    s = w.strength(f.strength)
    if w.has("heavy") and not ctx.first_round:
        s -= w.strength_value  # 000:965, 983 Heavy: the bonus only in the first turn
    if w.has("cavalry-bonus") and w.base == "lance" and ctx.charging and ctx.first_round and r.toggle("lance_bonus_stacks"):
        s += 2  # INVENTORY §5.2 toggle: 000:1035 on top of 000:1029
    if w.blackpowder and "superior-blackpowder" in f.equipment:
        s += 1  # 000:1514
    if "dark-venom" in f.equipment and not w.blackpowder:
        s += 1  # 000:1367, not on blackpowder (000:1355)
    if f.has("mighty-blow") and w.strength_type == "user" and not slot.shot:
        s += 1  # Mighty Blow: +1 Strength in close combat
    extra = w.save_modifier + (-1 if f.gromril_weapon and w.kind == "close" else 0)  # 000:1054
    extra -= 1 if f.has("perfect-killer") else 0
    save_mod = r.save_modifier(s, extra, w.blackpowder)
    venom = 1 if (f.carries("strength+1-no-save") and not w.blackpowder) else 0  # reptile venom: not the save modifier
    wound_s = (s - 1 if (y.resilient and not slot.shot) else s) + venom  # Resilient: not the save modifier
    parry_s = f.strength if r.toggle("parry_vs_basic_strength") else s
    wound_needed = r.to_wound_target(wound_s, y.toughness)
    wound_why = ""
    if w.has("holy") and wound_needed is not None and (y.fighter.has("undead") or y.fighter.has("possessed")):
        wound_needed, wound_why = max(2, wound_needed - 1), f"+1 {list_name(w).lower()} against Undead and Possessed"
    dark_elf = _dark_elf_blade(f, w) and not slot.shot
    hit_penalty = y.hit_penalty if not slot.shot else 0
    return SlotVersus(
        name=f.weapon_name(w), weapon_id=w.id, count=slot.count, strength=wound_s, save_modifier=save_mod,
        enemy_save_bonus=w.has("enemy-armour-save-bonus"),
        critical_table=w.critical if r.weapon_critical_tables else None,
        concussion=(w.has("concussion") or dark_elf) and not y.hard_head,
        black_lotus=(("black-lotus" in f.equipment) or w.has("venomous")) and not w.blackpowder and not slot.shot,  # 000:1355, 1361
        to_hit_bonus=(1 if w.has("accuracy") else 0) - hit_penalty,  # 000:1199
        shot_needed=(bs_to_hit(f.profile.BS) + 2) if slot.shot else None,  # 000:1155 an extra -2
        parryable=(not slot.shot) and parry_s < 2 * y.basic_strength and not w.has("cannot-be-parried"),  # 000:775
        wound_needed=wound_needed,
        injury_bonus=x.injury_bonus if not slot.shot else 0,
        rerolls_misses=x.hatred or (x.expert_swordsman and w.has("counts-as-sword")),
        armour=_armour_rule(w), d3_wounds=w.has("d3-wounds"), can_critical=not w.has("no-criticals"),
        critical_bonus=1 if dark_elf else 0, wound_why=wound_why,
        hit_why=f"-1 {', '.join(i.name for i in y.fighter.carried_with('enemies-hit-1'))}" if hit_penalty else "",
        fumes=w.has("fog-of-death") and not (y.fighter.has("undead") or y.fighter.has("possessed")),
    )


def _armour_rule(w: Weapon) -> str:
    if w.has("no-armour-save"):
        return "none"
    return "shield" if w.has("shield-save-only") else "normal"


def shot_slot(r: Ruleset, shooter: Fighter, weapon: Weapon, shots: int, needed: int, target: ModelNumbers) -> SlotVersus:
    """A missile weapon's shots at a target (shooting phase)."""
    s = weapon.strength(shooter.strength)
    if weapon.blackpowder and "superior-blackpowder" in shooter.equipment:
        s += 1  # 000:1514
    if "dark-venom" in shooter.equipment and not weapon.blackpowder:
        s += 1  # 000:1367
    extra = weapon.save_modifier - (1 if shooter.has("perfect-killer") else 0)
    venom = 1 if (shooter.carries("strength+1-no-save") and not weapon.blackpowder) else 0
    return SlotVersus(
        name=list_name(weapon), weapon_id=weapon.id, count=shots, strength=s + venom,
        save_modifier=r.save_modifier(s, extra, weapon.blackpowder), enemy_save_bonus=weapon.has("enemy-armour-save-bonus"),
        critical_table=weapon.critical if r.weapon_critical_tables else None, concussion=weapon.has("concussion") and not target.hard_head,
        black_lotus=(("black-lotus" in shooter.equipment) or weapon.has("venomous")) and not weapon.blackpowder,
        to_hit_bonus=0, shot_needed=needed, parryable=False, wound_needed=r.to_wound_target(s + venom, target.toughness),
        injury_bonus=0, rerolls_misses=False, armour=_armour_rule(weapon), d3_wounds=weapon.has("d3-wounds"),
        can_critical=not weapon.has("no-criticals"),
    )


@lru_cache(maxsize=512)
def shooting_target(r: Ruleset, f: Fighter) -> ModelNumbers:
    """A target's numbers against shooting: his close-combat kit plays no part (a shield counts
    even with a two-handed weapon, 000:967), so no loadout is chosen."""
    nothing = Loadout(main=fist(), second=None, pistols=(), crossbow_pistol=None, shield=False, buckler=False, notes=())
    return ModelNumbers(
        index=1, fighter=f, loadout=nothing, blows=(), shots=(), ws=f.profile.WS, ws_defending=f.profile.WS,
        initiative=f.profile.I, tier=NORMAL, hatred=False, expert_swordsman=False, causes_fear=f.causes_fear,
        fear_immune=f.fear_immune, psychology_immune=f.has("immune-to-psychology"), can_parry=False, parry_attempts=1,
        parry_bonus=0, save=f.armour_save(shooting=True), helmet=f.helmet,
        stunned_is_knocked_down=f.stunned_is_knocked_down, toughness=f.toughness,
        basic_strength=f.strength, size=f.size, resilient=False, step_aside=False, regeneration=f.has("regeneration"),
        injury_bonus=0, web_of_steel=False, hard_to_kill=f.has("hard-to-kill"), hard_head=f.has("hard-head"), first_strikes=(),
        shield=f.shield, ward_save=6 if f.carries("ward-6") else None, missile_ward_save=5 if f.carries("ward-5-missiles") else None,
    )
