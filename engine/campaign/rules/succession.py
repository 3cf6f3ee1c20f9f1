"""Death of the leader: who takes command when the warband's leader leaves the roster for good.

Pure functions over a warband's warriors and its list; the action that writes the result is
engine/campaign/actions/succession.py. The seeds hold no campaign chapter (seeds/INVENTORY.md
section 1); what they say of a leader is his 6" Leadership (000:829-831) and the Rout test taken
on it (000:817), or on the highest Leadership of those standing when he is down (000:819-821).

The rule (Mordheim rulebook and Living Rulebook 2005, Campaigns, "Death of a Leader", LRB p. 78;
the `/rule death of the leader` entry, rules_data/campaign/rules.json):
- the hero with the highest Leadership takes command and gains the Leader rule; he keeps his own
  type, profile, skills and skill lists (a Champion stays a Champion);
- heroes level on Leadership: the one with the most experience; still level: a D6 between them
  (the tie-break sentence as quoted from p. 78 in a public roster app's source, read here with
  the `code` search; r/mordheim threads on the rule agree on the rest);
- the warband may not hire a new leader of the dead one's type.
Lists with a rule of their own (rows of ``OWN_SUCCESSION`` below, each with its source):
- Undead: the Necromancer must take over; without one the warband collapses (the same LRB
  paragraph, its last sentence as the Mordheim errata rewrote it). A new Vampire may be bought
  later and takes command back (two public roster apps read the paragraph so; their wording:
  "after the next game"): so the Vampire is not barred from hire.
- Black Orcs: a Black Orc always takes over and gains Oi Behave! (the Nemesis Crown list's note,
  rules_data/warbands/lists/black-orcs.json notes).
- Pirates: a Mate takes command as a Champion replaces a Captain (pirates.json, rule
  ``pirate-succession``): the general rule, nothing of its own.

Decisions:
- "Leaves for good" is dead or retired (sold to the slavers, paid off) or removed from the
  roster. A captive keeps his place (he may come back): he still leads.
- Only active heroes of the warband's own (leaders and heroes, never hired swords) may take
  command; a captive hero is away.
- A hero whose list type says he may never lead (the Black Orcs' Nuttaz are henchmen, so none in
  the bundled lists) is not modelled: no list in rules_data marks one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.campaign.lists.catalogue import WarbandList
from engine.campaign.model import Role, Status, Warrior

LEADER_RULE = "leader"  # the special rule id of the Leader ability (rules_data/warbands/special_rules.json)
RULE_SOURCE = "LRB p. 78, Death of a Leader (see /rule death of the leader)"
GONE_FOR_GOOD = (Status.DEAD, Status.RETIRED)


@dataclass(frozen=True)
class OwnSuccession:
    """A list's own rule for the death of its leader: who alone may take command, what he gains."""

    only: str  # the fighter id that takes command
    gains: tuple[str, ...]  # special rule ids he gains besides the Leader rule
    leader_may_be_hired_again: bool  # the dead leader's type may be hired again (and then leads)
    none_left: str  # what happens when no warrior of ``only`` is left
    source: str


OWN_SUCCESSION = {
    "undead": OwnSuccession(
        only="necromancer", gains=(), leader_may_be_hired_again=True,
        none_left="With no Necromancer to take over, the spells holding the dead together unravel: the warband "
                  "collapses (LRB p. 78 as the errata rewrote it).",
        source="LRB p. 78, Death of a Leader: the Undead's Necromancer must take over (errata wording)"),
    "black-orcs": OwnSuccession(
        only="black-orc", gains=("oi-behave",), leader_may_be_hired_again=False,
        none_left="",  # no Black Orc left: the general rule (the list says nothing more)
        source="Black Orcs list (Nemesis Crown), rules_data/warbands/lists/black-orcs.json notes"),
}


@dataclass(frozen=True)
class Succession:
    """Who takes command, and the sentence the answer shows."""

    heir: Warrior | None
    gains: tuple[str, ...]  # special rule ids the heir gains (the Leader rule first)
    text: str
    rolls: tuple[str, ...] = ()  # the D6es of a tie, as shown


def leaves_for_good(before: Warrior, after_status: str | None) -> bool:
    """The leader ``before`` leaves the roster for good: dead, retired, or removed (``after_status`` None)."""
    if before.role != Role.LEADER or not before.holds_place:
        return False
    return after_status is None or after_status in GONE_FOR_GOOD


def choose_heir(departed: Warrior, warriors: Sequence[Warrior], wlist: WarbandList | None,
                d6: Callable[[str], int] | None) -> Succession:
    """Who takes command after ``departed`` (the leader, now gone); ``warriors`` the roster as it is
    now. ``d6(why)`` rolls a die for a tie (None: the players roll it, and the answer says so)."""
    own = OWN_SUCCESSION.get(wlist.id) if wlist is not None else None
    heroes = [w for w in warriors if w.id != departed.id and w.role == Role.HERO and w.status == Status.ACTIVE]
    gains: tuple[str, ...] = (LEADER_RULE,)
    source = RULE_SOURCE
    if own is not None and departed.fighter_type == _leader_id(wlist):
        mine = [w for w in heroes if w.fighter_type == own.only]
        if mine or own.none_left:
            heroes, gains, source = mine, (LEADER_RULE, *own.gains), own.source
            if not mine:
                return Succession(None, (), f"{departed.name} is gone. {own.none_left}")
    if not heroes:
        return Succession(None, (), f"{departed.name} is gone and no hero is left to take command ({RULE_SOURCE}: only a hero "
                                    "may). Until a hero joins (a lad with talent, a new hero hired), the warband has no "
                                    "leader: its Rout tests use the highest Leadership of those standing (000:819-821).")
    best_ld = max(w.profile.Ld for w in heroes)
    level = [w for w in heroes if w.profile.Ld == best_ld]
    how = f"the highest Leadership ({best_ld})"
    if len(level) > 1:
        most = max(w.experience for w in level)
        level = [w for w in level if w.experience == most]
        how += f", and of those the most experience ({most})"
    rolls: list[str] = []
    while len(level) > 1:
        names = " and ".join(w.name for w in level)
        if d6 is None:
            return Succession(None, (), f"{departed.name} is gone. {names} tie on Leadership and experience: roll a D6 "
                                        f"between them ({source}) and give the winner the role with `/warrior edit role:leader`.")
        faces = [(w, d6(f"Command of the warband: {w.name}")) for w in level]
        rolls += [f"{w.name} D6 {face}" for w, face in faces]
        top = max(face for _w, face in faces)
        level = [w for w, face in faces if face == top]
        how += ", then the highest D6"
    heir = level[0]
    return Succession(heir, gains, f"{departed.name} is gone: {heir.name} ({heir.warrior_type}) takes command, with {how}, "
                                   f"and gains the Leader rule{_also(gains)}; he keeps his own type and skill lists ({source}).",
                      tuple(rolls))


def _also(gains: tuple[str, ...]) -> str:
    extra = [g for g in gains if g != LEADER_RULE]
    return f" and {', '.join(extra)}" if extra else ""


def _leader_id(wlist: WarbandList | None) -> str | None:
    return wlist.leader.id if wlist is not None else None


def lost_leader_type(wlist: WarbandList | None, warriors: Sequence[Warrior]) -> bool:
    """The warband lost its list's leader for good: the list's leader type may not be hired again
    (``RULE_SOURCE``), and the list's minimum of one of him no longer applies. Read from the roster:
    a warrior of the leader's type who is dead or retired, or a leader of another type."""
    if wlist is None:
        return False
    leader_id = wlist.leader.id
    if any(w.fighter_type == leader_id and w.holds_place for w in warriors):
        return False
    return any(w.fighter_type == leader_id and w.status in GONE_FOR_GOOD for w in warriors) or any(
        w.role == Role.LEADER and w.holds_place and w.fighter_type != leader_id for w in warriors)


def hire_refusal(wlist: WarbandList, warriors: Sequence[Warrior], fighter_id: str) -> str | None:
    """Why the list's leader type may not be hired (his predecessor is gone), or None."""
    if fighter_id != wlist.leader.id or not lost_leader_type(wlist, warriors):
        return None
    own = OWN_SUCCESSION.get(wlist.id)
    if own is not None and own.leader_may_be_hired_again:
        return None
    return (f"The warband's {wlist.leader.name} is gone, and a warband may not hire a new leader: the hero who took "
            f"command leads it now ({RULE_SOURCE}).")


def steps_down(wlist: WarbandList | None, warriors: Sequence[Warrior], hired_fighter_id: str) -> Warrior | None:
    """The acting leader who gives up command to a newly hired leader of the list's own type (a new
    Vampire after the Necromancer led the Undead), or None."""
    if wlist is None or hired_fighter_id != wlist.leader.id:
        return None
    own = OWN_SUCCESSION.get(wlist.id)
    if own is None or not own.leader_may_be_hired_again:
        return None
    return next((w for w in warriors if w.role == Role.LEADER and w.holds_place and w.fighter_type != hired_fighter_id), None)
