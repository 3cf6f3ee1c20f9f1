"""``model.copied``: the same copy ``dataclasses.replace`` makes, for every class the engine copies with it."""

from __future__ import annotations

import dataclasses
from dataclasses import InitVar, dataclass, field
from functools import cached_property

import pytest

from engine.campaign.actions.postbattle import SequenceView
from engine.campaign.model import Profile, Role, Status, Warrior
from engine.copying import copied
from engine.campaign.rules.advances import AdvanceRoll
from engine.campaign.rules.campaign_warrior import CampaignWarrior
from engine.campaign.rules.injuries import InjuryResult
from engine.campaign.rules.sequence import Fighter, Pending, SequenceState
from engine.campaign.rules.tables import AdvanceResult
from engine.errors import LimitExceeded

PROFILE = Profile(M=4, WS=4, BS=3, S=3, T=3, W=1, I=4, A=1, Ld=8)
WARRIOR = Warrior(id=7, warband="Raiders", name="Hans", role=Role.HERO, warrior_type="Champion", group_size=1, profile=PROFILE,
                  equipment=("Sword",), skills=("Strongman",), injuries=(), experience=11, status=Status.ACTIVE, large=False,
                  fighter_type="champion", race="human", skill_lists=("combat",), special_rules=(), hand_edits=("name",))
CAMPAIGN_WARRIOR = CampaignWarrior.from_warrior(WARRIOR, Profile(M=4, WS=6, BS=6, S=4, T=4, W=3, I=6, A=4, Ld=9),
                                                increased=("WS",), skill_lists=("combat",))
STATE = SequenceState(step="experience", won=True, battle="battle 2 (win)", fighters=(Fighter(7, "Hans", True, 1),),
                      pending=(Pending("skill", 7, "Hans"),), lines=("Hans +2 experience",), extra={"experience_done": True})


def _same(obj, **changes):
    want = dataclasses.replace(obj, **changes)
    got = copied(obj, **changes)
    assert type(got) is type(want)
    assert got == want
    assert {f.name: getattr(got, f.name) for f in dataclasses.fields(got)} == \
        {f.name: getattr(want, f.name) for f in dataclasses.fields(want)}
    for f in dataclasses.fields(got):  # the same objects, as replace passes them on
        assert getattr(got, f.name) is getattr(want, f.name) or f.name in changes
    assert got is not obj
    return got


@pytest.mark.parametrize("obj, changes", [
    (WARRIOR, {}),
    (WARRIOR, {"experience": 14, "status": Status.DEAD}),
    (WARRIOR, {"name": "Otto", "role": Role.LEADER, "profile": PROFILE.with_(WS=5), "injuries": ("Old battle wound",)}),
    (CAMPAIGN_WARRIOR, {}),
    (CAMPAIGN_WARRIOR, {"experience": 20}),
    (CAMPAIGN_WARRIOR, {"profile": PROFILE.with_(A=2), "increased": ("WS", "A"), "status": "dead", "equipment": ()}),
    (PROFILE, {"Ld": 9}),
    (STATE, {"step": "exploration"}),
    (STATE, {"lines": (), "extra": {}, "pending": (), "explored": True, "shards_found": 3}),
    (Fighter(7, "Hans", True, 1), {"kills": 2, "fought": False}),
    (AdvanceRoll(CAMPAIGN_WARRIOR, AdvanceResult(2, 12, "New skill", "skill", ()), skill=True), {"skill": False}),
])
def test_a_copy_is_the_one_replace_makes(obj, changes):
    _same(obj, **changes)


def test_a_copy_leaves_the_original_as_it_was():
    copy = copied(CAMPAIGN_WARRIOR, experience=99)
    assert CAMPAIGN_WARRIOR.experience == 11 and copy.experience == 99
    assert copied(STATE, step="done").step == "done" and STATE.step == "experience"


def test_injuries_result_is_copied_as_replace_does():
    result = InjuryResult(CAMPAIGN_WARRIOR, ("Full recovery",), (), 0, None)
    _same(result, gold=5, results=())


def test_a_class_checking_its_fields_still_checks_them():
    with pytest.raises(LimitExceeded):
        copied(PROFILE, WS=11)


def test_a_name_that_is_no_field_is_refused_as_replace_refuses_it():
    with pytest.raises(TypeError):
        dataclasses.replace(WARRIOR, wounds=2)
    with pytest.raises(TypeError):
        copied(WARRIOR, wounds=2)
    with pytest.raises(TypeError):
        copied(CAMPAIGN_WARRIOR, wounds=2)


def test_a_value_kept_by_a_cached_property_is_not_carried_into_the_copy():
    view = SequenceView(id=1, guild_id=1, warband_id=1, warband="Raiders", owner_id=1, version=1, status="open", state=STATE,
                        warriors=(WARRIOR,), gold_crowns=0, wyrdstone_shards=0, warband_size=1, sale_prices=())
    assert view.warrior(7) is WARRIOR  # kept in the view's __dict__
    other = dataclasses.replace(WARRIOR, id=8)
    copy = _same(view, warriors=(other,))
    assert copy.warrior(7) is None and copy.warrior(8) is other


@dataclass(frozen=True)
class _Checked:
    a: int
    b: int = 0
    c: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("a < 0")


@dataclass(frozen=True)
class _WithInitVar:
    a: int
    scale: InitVar[int] = 1
    b: int = field(init=False, default=0)

    def __post_init__(self, scale: int) -> None:
        object.__setattr__(self, "b", self.a * scale)


@dataclass(frozen=True, kw_only=True)
class _KeywordsOnly:
    a: int
    b: int = 2


@dataclass(frozen=True)
class _Cached:
    a: int

    @cached_property
    def double(self) -> int:
        return self.a * 2


def test_any_other_dataclass_is_copied_as_replace_copies_it():
    _same(_Checked(1, 2), b=3)
    with pytest.raises(ValueError):
        copied(_Checked(1), a=-1)
    assert copied(_WithInitVar(2, 3), a=5) == dataclasses.replace(_WithInitVar(2, 3), a=5)
    with pytest.raises(ValueError):  # an InitVar without a default must be given: replace's own refusal
        dataclasses.replace(_WithInitVar(2), b=1)
    with pytest.raises(ValueError):
        copied(_WithInitVar(2), b=1)
    _same(_KeywordsOnly(a=1), b=5)
    cached = _Cached(2)
    assert cached.double == 4
    assert copied(cached, a=5).double == 10


def test_a_campaign_warrior_made_from_a_warrior_is_the_one_init_makes():
    assert not hasattr(CampaignWarrior, "__post_init__")
    maximum = Profile(M=4, WS=6, BS=6, S=4, T=4, W=3, I=6, A=4, Ld=9)
    for w in (WARRIOR, dataclasses.replace(WARRIOR, role=Role.HENCHMEN, group_size=3, status=Status.CAPTURED)):
        made = CampaignWarrior.from_warrior(w, maximum, missed_games=1, captured=True, increased=("A",), skill_lists=("speed",))
        want = CampaignWarrior(name=w.name, role=w.role, profile=w.profile, maximum=maximum, group_size=w.group_size,
                               equipment=w.equipment, skills=w.skills, injuries=w.injuries, experience=w.experience,
                               status=w.status, missed_games=1, captured=True, increased=("A",), skill_lists=("speed",),
                               special_rules=w.special_rules)
        assert made == want and vars(made) == vars(want) and list(vars(made)) == list(vars(want))
        assert CampaignWarrior.from_warrior(w, maximum) == CampaignWarrior(
            name=w.name, role=w.role, profile=w.profile, maximum=maximum, group_size=w.group_size, equipment=w.equipment,
            skills=w.skills, injuries=w.injuries, experience=w.experience, status=w.status, special_rules=w.special_rules)
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.experience = 3  # type: ignore[misc]
