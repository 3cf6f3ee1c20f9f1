"""The numbers printed in the seed rulebooks' charts, as functions (000 unless said)."""

from __future__ import annotations

from dataclasses import dataclass


def bs_to_hit(bs: int) -> int:
    # 000:518-519 BS chart: D6 needed = 7 - BS (BS7 needs 0 ... BS10 needs -3)
    return 7 - bs


def cc_to_hit_chart(attacker_ws: int, defender_ws: int) -> int:
    # 000:699-715 close-combat to-hit chart: 3+ if attacker's WS is higher,
    # 5+ if the defender's WS is more than double the attacker's, otherwise 4+
    if attacker_ws > defender_ws:
        return 3
    if defender_ws > 2 * attacker_ws:
        return 5
    return 4


def cc_to_hit_formula(attacker_ws: int, defender_ws: int) -> int:
    # 004:541 4+ if equal, 5+ if the defender's WS is higher, 3+ if the attacker's is
    if attacker_ws > defender_ws:
        return 3
    if defender_ws > attacker_ws:
        return 5
    return 4


def to_wound_chart(strength: int, toughness: int) -> int | None:
    """000:521-533 wound chart; ``None`` is the chart's dash (no chance)."""
    # 000:521-533 (the close-combat copy 000:721-731 lacks the T10 column; this is the full one)
    diff = strength - toughness
    if diff >= 2:
        return 2
    if diff == 1:
        return 3
    if diff == 0:
        return 4
    if diff == -1:
        return 5
    if diff in (-2, -3):
        return 6
    return None


def to_wound_formula(strength: int, toughness: int) -> int:
    # 004:377 4+, +1 per point S exceeds T, -1 per point T exceeds S; a 1 always fails,
    # a 6 always wounds
    return min(6, max(2, 4 - (strength - toughness)))


def strength_save_modifier(strength: int) -> int:
    # 000:598-605 (= 004:469-477): S1-3 none, S4 -1 ... S9+ -6
    if strength <= 3:
        return 0
    return -min(6, strength - 3)


# --- critical hit charts (000:566-572; 002:664-713; 004:392-443) --------------------------------
# One row per result, beside the words it stands for and the citation id (engine/combat/citations.py).
# 000 has one chart for every weapon; 002 (core) and 004 (core2) have one per kind of weapon
# (the ``critical`` field of rules_data/stats/weapons.json).

NORMAL_SAVE, NO_SAVE, SAVE_EACH_WOUND = "normal", "none", "each"


@dataclass(frozen=True)
class CriticalHit:
    """What one critical result does to the wound it came with."""

    name: str
    citation: str  # rule id in citations.RULES
    text: str  # shown in the log, in our words
    wounds: int = 1
    save: str = NORMAL_SAVE  # NORMAL_SAVE (one roll, for every wound), NO_SAVE, SAVE_EACH_WOUND
    injury_bonus: int = 0
    ignores_helmet: bool = False
    out_if_unsaved: bool = False  # Bludgeoned
    knocks_down: bool = False  # Thrust: knocked down even if the save is made
    extra_attack: bool = False  # Body Blow
    hammered: bool = False  # the target may not fight this turn
    knocks_weapon_away: bool = False  # Wild Sweep
    # core2 (004:411, 004:442): what happens instead when the victim is larger than the attacker
    on_larger_victim: CriticalHit | None = None


@dataclass(frozen=True)
class CriticalRow:
    lowest: int  # D6 roll range of the row
    highest: int
    hit: CriticalHit


HAMMERED = CriticalHit("Hammered", "crit-hammered", "the target may not fight this turn if he has not already", hammered=True)

SINGLE_CHART = (  # 000:568-572, used by lrb for every weapon
    CriticalRow(1, 2, CriticalHit("Hits a vital part", "crit-vital-part", "2 wounds, the armour save rolled before doubling", wounds=2)),
    CriticalRow(3, 4, CriticalHit("Hits an exposed spot", "crit-exposed-spot", "2 wounds, no armour save", wounds=2, save=NO_SAVE)),
    CriticalRow(5, 6, CriticalHit("Master strike!", "crit-master-strike", "2 wounds, no armour save, +2 on injury rolls",
                                  wounds=2, save=NO_SAVE, injury_bonus=2)),
)

CHARTS_BY_WEAPON = {  # 002:664-713 (core) and 004:392-443 (core2)
    "missile": (
        CriticalRow(1, 2, CriticalHit("Hits a Weak Spot", "crit-weak-spot", "no armour save", save=NO_SAVE)),
        # the nearest other enemy within 6" would be hit too: the bot resolves one target only
        CriticalRow(3, 4, CriticalHit("Ricochet", "crit-ricochet", "a normal wound here; any other enemy within 6\" is not part of this roll")),
        CriticalRow(5, 6, CriticalHit("Master Shot", "crit-master-shot", "2 wounds, no armour save", wounds=2, save=NO_SAVE)),
    ),
    "bludgeoning": (
        CriticalRow(1, 2, HAMMERED),
        CriticalRow(3, 4, CriticalHit("Clubbed", "crit-clubbed", "no armour save and no helmet save", save=NO_SAVE, ignores_helmet=True)),
        CriticalRow(5, 5, CriticalHit("Wild Sweep", "crit-wild-sweep", "the target's weapon is knocked away; a wound with a normal save",
                                      knocks_weapon_away=True)),
        CriticalRow(6, 6, CriticalHit("Bludgeoned", "crit-bludgeoned", "out of action if the save fails", out_if_unsaved=True,
                                      on_larger_victim=HAMMERED)),
    ),
    "bladed": (
        CriticalRow(1, 2, CriticalHit("Flesh Wound", "crit-flesh-wound", "no armour save", save=NO_SAVE)),
        CriticalRow(3, 4, CriticalHit("Bladestorm", "crit-bladestorm", "2 wounds, each saved separately", wounds=2, save=SAVE_EACH_WOUND)),
        CriticalRow(5, 6, CriticalHit("Sliced!", "crit-sliced", "2 wounds, no armour save, +2 on injury rolls", wounds=2, save=NO_SAVE,
                                      injury_bonus=2)),
    ),
    "unarmed": (
        CriticalRow(1, 2, CriticalHit("Body Blow", "crit-body-blow", "an extra attack at once", extra_attack=True)),
        CriticalRow(3, 4, CriticalHit("Crushing Blow", "crit-crushing-blow", "+1 on the injury roll", injury_bonus=1)),
        CriticalRow(5, 6, CriticalHit("Mighty Blow", "crit-mighty-blow", "no armour save, +2 on injury rolls", save=NO_SAVE, injury_bonus=2)),
    ),
    "thrusting": (
        CriticalRow(1, 2, CriticalHit("Stab", "crit-stab", "+1 on injury rolls", injury_bonus=1)),
        CriticalRow(3, 4, CriticalHit("Thrust", "crit-thrust", "knocked down even if the save is made",
                                      knocks_down=True,
                                      on_larger_victim=CriticalHit("Thrust", "crit-thrust", "a larger victim suffers an extra wound if the save fails",
                                                                   wounds=2))),
        # knocked back D6" and followed: positions are not modelled
        CriticalRow(5, 6, CriticalHit("Kebab!", "crit-kebab", "no armour save, +2 on injury rolls (the knock-back is not modelled)",
                                      save=NO_SAVE, injury_bonus=2)),
    ),
}


def critical_result(table: str | None, roll: int) -> CriticalHit:
    """The row of ``table`` (None = 000's single chart) for a D6 ``roll`` (1-6)."""
    rows = SINGLE_CHART if table is None else CHARTS_BY_WEAPON[table]
    for row in rows:
        if row.lowest <= roll <= row.highest:
            return row.hit
    raise ValueError(f"no critical row for {roll}")
