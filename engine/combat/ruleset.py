"""What each combat edition says where the seeds differ, plus the house-rule toggles.

``get_ruleset(edition_id, toggles)`` is the only way in; ``TOGGLES`` lists every toggle
with its description and default (per edition where the editions differ) for the
settings command.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, cached_property

from engine.combat import tables
from engine.editions import get_edition
from engine.errors import MordheimError, NotFoundError

COMBAT_EDITIONS = ("lrb", "core", "core2")


@dataclass(frozen=True)
class Toggle:
    name: str  # the code /admin houserule takes
    title: str  # what players read
    description: str
    default: bool | dict[str, bool]

    def default_for(self, edition_id: str) -> bool:
        if isinstance(self.default, dict):
            return self.default[edition_id]
        return self.default


TOGGLES: dict[str, Toggle] = {
    t.name: t
    for t in [
        # INVENTORY §5.1: 000:1175/1243 say "a -2 modifier"; the axe (000:942) is explicitly
        # additive but blackpowder is not, and "even better than S4 suggests" reads as a total.
        Toggle("blackpowder_save_additive", "Blackpowder save modifier adds to Strength's",
               "Blackpowder 'save -2' is added to the Strength modifier (S4 pistol = -3) instead of "
               "being the total (-2, or the Strength modifier if that is worse).", False),
        # INVENTORY §5.2: 000:1029 gives S+2 and 000:1035 "+2 S when he charges"; read as one bonus.
        Toggle("lance_bonus_stacks", "Lance bonuses stack",
               "A lance's cavalry bonus (+2 S on the charge, 000:1035) stacks with its S+2 (000:1029).", False),
        # INVENTORY §5.3: 000 never says a 6 always hits; the BS chart (000:518-519) stops at 6 for BS1.
        Toggle("natural_6_always_hits", "A natural 6 always hits",
               "A natural 6 always hits, even when modifiers mean 7+ is needed.", False),
        # INVENTORY §5.3: the BS chart lists 1, 0, -1.. needed (000:518-519), so a 1 can hit.
        Toggle("natural_1_always_misses", "A natural 1 always misses",
               "A natural 1 always misses, even when 1+ or better is needed.", False),
        # INVENTORY §5.3: 004:543 "may never hit on worse than a 5+" read as the final number.
        Toggle("cap_after_modifiers", "Close-combat 5+ cap after modifiers (core2)",
               "core2 only: the 5+ close-combat cap (004:543) applies after modifiers.", True),
        # INVENTORY §5.7: 000:572 / 002:660 one critical per warrior per close-combat phase;
        # 004:390 drops the cap.
        Toggle("one_critical_per_phase", "One critical hit per close-combat phase",
               "Each warrior causes at most one critical hit per close-combat phase.",
               {"lrb": True, "core": True, "core2": False}),
        # INVENTORY §5.8: concussion "a roll of 2-4" (000:930) read on the modified injury roll.
        Toggle("concussion_on_natural_roll", "Concussion reads the natural injury die",
               "Concussion (2-4 = stunned) looks at the natural injury die, not the die plus bonuses.", False),
        # INVENTORY §5.9: "attacks made with twice his Strength" (000:954) read as the S the blow
        # wounds with (weapon bonus included).
        Toggle("parry_vs_basic_strength", "Parry against double Strength uses profile Strength",
               "The 'no parry against double Strength' test uses the attacker's profile S, not the "
               "blow's S with weapon bonuses.", False),
        # INVENTORY §5.10: 004:605 does not say knocked-down warriors are hit automatically.
        Toggle("core2_knocked_down_auto_hit", "Knocked-down warriors are hit automatically (core2)",
               "core2 only: attacks on knocked-down warriors hit automatically, as in 000:783.", False),
        # INVENTORY §5.10: 004:499 says standing up counts as moving; 004:356 exempts it.
        Toggle("stood_up_counts_as_moving", "Standing up counts as moving for shooting",
               "A warrior who stood up this turn shoots with the -1 for moving.",
               {"lrb": False, "core": False, "core2": True}),
        # INVENTORY §5.14 decision: 000:1321 saves "against being stunned", and 000:615 applies
        # only the highest of several injury rolls: the model is stunned only when that result
        # is applied, so the helmet is rolled once, on it. The toggle rolls it on every stunned
        # injury roll instead (each must pass for the highest to drop to knocked down).
        Toggle("helmet_save_each_roll", "Helmet save on every injury roll",
               "A helmet's 4+ (000:1321) is rolled on every stunned injury roll, instead of once on the "
               "result that applies when several injury rolls are made (000:615).", False),
        # INVENTORY §5.15 decision: 004:547 "-1 WS to all attacks" is about the attacks the
        # two-weapon fighter makes; the toggle also lowers the WS his enemies roll against.
        Toggle("two_weapons_penalty_when_attacked", "Two weapons: -1 WS when attacked too (core2)",
               "core2 only: a warrior fighting with two weapons also counts -1 WS when he is attacked "
               "(004:547 says only '-1 WS to all attacks').", False),
    ]
}


@dataclass(frozen=True)
class Ruleset:
    """Answers every combat question where lrb (000), core (002) and core2 (004) differ."""

    edition: str
    toggles: tuple[tuple[str, bool], ...] = field(default=())

    def toggle(self, name: str) -> bool:
        return self._toggle_values[name]

    @cached_property
    def _toggle_values(self) -> dict[str, bool]:
        return dict(self.toggles)  # asked on every to-hit roll: built once per ruleset

    @property
    def label(self) -> str:
        changed = [n for n, v in self.toggles if v != TOGGLES[n].default_for(self.edition)]
        return self.edition + (" + " + ", ".join(changed) if changed else "")

    # --- to hit -------------------------------------------------------------------------
    def cc_to_hit_base(self, attacker_ws: int, defender_ws: int) -> int:
        if self.edition == "core2":
            return tables.cc_to_hit_formula(attacker_ws, defender_ws)  # 004:541
        # 002:868 refers to the chart it dropped; 000's chart (000:699-715) is used for core too
        return tables.cc_to_hit_chart(attacker_ws, defender_ws)

    def cc_needed(self, attacker_ws: int, defender_ws: int, modifier: int, fear: bool) -> int:
        key = (attacker_ws, defender_ws, modifier, fear)
        needed = self._memo.get(key)
        if needed is None:
            needed = self._memo[key] = self._cc_needed(attacker_ws, defender_ws, modifier, fear)
        return needed

    @cached_property
    def _memo(self) -> dict:
        return {}  # cc_needed / to_wound_target answers (asked on every roll in Roll mode)

    def _cc_needed(self, attacker_ws: int, defender_ws: int, modifier: int, fear: bool) -> int:
        if fear:
            # 000:853 a warrior who failed his fear test needs 6s; 004:674 overrides the 5+ cap
            return 6
        needed = self.cc_to_hit_base(attacker_ws, defender_ws)
        if self.edition == "core2" and not self.toggle("cap_after_modifiers"):
            return min(needed, 5) - modifier
        needed -= modifier
        if self.edition == "core2":
            needed = min(needed, 5)  # 004:543 never worse than 5+
        return needed

    def hit_succeeds(self, roll: int, needed: int) -> bool:
        if roll == 6 and self._natural_6_hits:
            return True
        if roll == 1 and self._natural_1_misses:
            return False
        return roll >= needed

    @cached_property
    def _natural_6_hits(self) -> bool:
        return self.toggle("natural_6_always_hits")

    @cached_property
    def _natural_1_misses(self) -> bool:
        return self.toggle("natural_1_always_misses")

    # --- to wound -----------------------------------------------------------------------
    def to_wound_target(self, strength: int, toughness: int) -> int | None:
        key = ("wound", strength, toughness)
        memo = self._memo
        if key in memo:
            return memo[key]
        memo[key] = target = self._to_wound_target(strength, toughness)
        return target

    def _to_wound_target(self, strength: int, toughness: int) -> int | None:
        strength, toughness = max(strength, 1), max(toughness, 1)
        if self.edition == "core2":
            return tables.to_wound_formula(strength, toughness)  # 004:377
        # 002:648 keeps the dash but dropped the chart: 000:521-533 used for core
        # the chart depends only on S - T, so it extends past S10 (weapon bonuses) unchanged
        return tables.to_wound_chart(strength, toughness)

    def critical_possible(self, wound_needed: int) -> bool:
        # 000:562 / 002:658 / 004:386 no critical if 6s are needed to wound
        return wound_needed < 6

    @property
    def one_critical_per_phase(self) -> bool:
        return self.toggle("one_critical_per_phase")

    @property
    def weapon_critical_tables(self) -> bool:
        # 000:566-574 one chart; 002:662-713 and 004:388-443 a chart per weapon type
        return self.edition != "lrb"

    # --- saves --------------------------------------------------------------------------
    def save_modifier(self, strength: int, weapon_modifier: int, blackpowder: bool) -> int:
        base = tables.strength_save_modifier(strength)  # 000:598-605
        if blackpowder and not self.toggle("blackpowder_save_additive"):
            return min(base, weapon_modifier)  # 000:1175 "-2" is the total
        return base + weapon_modifier  # 000:942 extra modifiers add

    # --- parry --------------------------------------------------------------------------
    def parry_rolls(self, *, two_swords: bool, sword_and_buckler: bool) -> tuple[int, int]:
        """(number of attempts, bonus) for a parry."""
        # 000:777 sword + buckler re-roll failed parries once; two swords one roll
        # 002:966 two swords: one roll, +1; 004:601 two swords re-roll like sword + buckler
        if sword_and_buckler:
            return 2, 0
        if two_swords:
            if self.edition == "core":
                return 1, 1
            if self.edition == "core2":
                return 2, 0
        return 1, 0

    # --- attacks ------------------------------------------------------------------------
    def frenzied_attacks(self, attacks: int) -> int:
        # 000:863 double Attacks; 004:690 +1 A
        return attacks + 1 if self.edition == "core2" else attacks * 2

    @property
    def two_weapons_ws_penalty(self) -> int:
        # 000:685 +1 A only; 004:547 +1 A and -1 WS on all attacks
        return 1 if self.edition == "core2" else 0

    @property
    def two_weapons_penalty_when_attacked(self) -> bool:
        # INVENTORY §5.15 decision, toggle two_weapons_penalty_when_attacked (core2 only)
        return self.edition == "core2" and self.toggle("two_weapons_penalty_when_attacked")

    @property
    def automatic_hits_can_be_critical(self) -> bool:
        # 000:562 criticals in close combat and shooting; 004:390 only attacks that rolled to hit
        return self.edition != "core2"

    @property
    def helmet_save_each_roll(self) -> bool:
        # INVENTORY §5.14 decision, toggle helmet_save_each_roll
        return self.toggle("helmet_save_each_roll")

    @property
    def size_matters(self) -> bool:
        # 004:411, 004:442 core2's critical charts treat larger victims differently (004:362-371 sizes)
        return self.edition == "core2"

    @property
    def knocked_down_auto_hit(self) -> bool:
        # 000:783 / 002:975 hit automatically; 004:605 silent
        return self.edition != "core2" or self.toggle("core2_knocked_down_auto_hit")

    @property
    def stunned_auto_out_of_action(self) -> bool:
        # 000:789 / 002:984 stunned = out of action; 004:609 auto-hit, then as knocked down
        return self.edition != "core2"

    @property
    def stood_up_counts_as_moving(self) -> bool:
        return self.toggle("stood_up_counts_as_moving")

    def describe(self) -> list[str]:
        lines = [f"Edition: {self.edition}"]
        for n, v in self.toggles:
            lines.append(f"{n} = {'on' if v else 'off'}")
        return lines


@dataclass(frozen=True)
class ServerRuling:
    """The ruleset a server fights by, and what the answer should say about how it was chosen."""

    ruleset: Ruleset
    notes: tuple[str, ...]  # e.g. why lrb is used on a server that plays a lookup-only edition
    chosen_for_command: bool  # an edition given in the command, not the server's

    @property
    def changed_toggles(self) -> list[str]:
        r = self.ruleset
        return [f"{TOGGLES[n].title} ({'on' if v else 'off'})" for n, v in r.toggles
                if v != TOGGLES[n].default_for(r.edition)]


def combat_edition(edition_id: str | None) -> str:
    """The edition fights use for a server on ``edition_id``: itself if it has combat rules,
    otherwise lrb (the 2005 Living Rulebook)."""
    edition = get_edition(edition_id)
    return edition.id if edition.combat and edition.id in COMBAT_EDITIONS else "lrb"


def server_ruleset(edition_id: str | None, house_rules: dict | None, override: str | None = None) -> ServerRuling:
    """Which ruleset a server fights by: the edition given for this command, else the server's
    (lrb when the server's edition is for lookup only), with the server's house-rule toggles.
    The one place this is decided: /fight, /shoot, /odds, /fall, /injury and the settings use it."""
    notes = []
    if override:
        edition_id = get_edition(override).id
    else:
        wanted = get_edition(edition_id)
        edition_id = combat_edition(wanted.id)
        if edition_id != wanted.id:
            notes.append(f"this server plays {wanted.id}, which has no combat rules, so lrb is used")
    # house rules about other things (dice, campaign) do not concern combat
    toggles = {k: v for k, v in (house_rules or {}).items() if k in TOGGLES}
    return ServerRuling(get_ruleset(edition_id, toggles), tuple(notes), bool(override))


def list_toggles(edition_id: str = "lrb") -> list[dict]:
    """Every toggle with its code (what /admin houserule takes), its title (what players read), its
    description and this edition's default (for the settings command)."""
    return [{"name": t.name, "title": t.title, "description": t.description, "default": t.default_for(edition_id)}
            for t in TOGGLES.values()]


def get_ruleset(edition_id: str | None = None, toggles: dict | None = None) -> Ruleset:
    """The combat ruleset for an edition id (``lrb``, ``core``, ``core2``) and house-rule toggles."""
    edition = get_edition(edition_id)
    if not edition.combat or edition.id not in COMBAT_EDITIONS:
        raise MordheimError(
            f"The edition `{edition.id}` has no combat rules to resolve fights with.",
            hint="Use `lrb`, `core` or `core2` for fights and odds.",
        )
    values = {name: t.default_for(edition.id) for name, t in TOGGLES.items()}
    for name, value in (toggles or {}).items():
        if name not in TOGGLES:
            from rapidfuzz import process

            close = [m[0] for m in process.extract(str(name), list(TOGGLES), limit=3, score_cutoff=50)]
            raise NotFoundError(f"There is no house-rule toggle called '{str(name)[:40]}'.", suggestions=close)
        if not isinstance(value, bool):
            raise MordheimError(f"The toggle `{name}` must be on or off (true/false), not {value!r}.")
        values[name] = value
    return _ruleset(edition.id, tuple(sorted(values.items())))


@cache
def _ruleset(edition_id: str, toggles: tuple) -> Ruleset:
    return Ruleset(edition_id, toggles)
