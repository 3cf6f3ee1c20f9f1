"""The post-battle message's components, written straight as Discord's payload (cogs/_ui/postbattle_render.py,
``sequence_components``), are the payload the discord.ui view they replace wrote: the reference below is
that view, as it was, for every step and every choice a step waits for."""

from __future__ import annotations

import discord
import pytest

from cogs._ui.postbattle_render import (
    BUTTON,
    MAX_OPTIONS,
    MAX_SKILL_MENUS,
    SELECT,
    custom_id,
    sequence_components,
    upkeep_due,
    upkeep_total,
)
from engine.campaign.actions.postbattle import EXTRA_DIE, SequenceView, SkillGroup
from engine.campaign.model import Profile, Role, SequenceRecord, SequenceStatus, Status, Step, Warband, Warrior
from engine.campaign.rules.sequence import Fighter, Pending, SequenceState


# ---------------------------------------------------------------------- the components as discord.ui drew them
def _button(label, action, view, arg="", *, style=discord.ButtonStyle.secondary, row=None):
    return discord.ui.Button(label=label[:80], custom_id=custom_id(BUTTON, action, view, arg), style=style, row=row)


def _select(placeholder, action, view, options, *, arg="", many=False, row=None):
    options = options[:MAX_OPTIONS]
    return discord.ui.Select(placeholder=placeholder[:150], custom_id=custom_id(SELECT, action, view, arg), options=options,
                             min_values=0 if many else 1, max_values=len(options) if many else 1, row=row)


def _skill_menus(groups):
    menus = []
    for group in groups:
        options = [discord.SelectOption(label=name[:100], value=name[:100], description=f"{group.list_name}: {what}"[:100])
                   for name, what in group.skills]
        for start in range(0, len(options), MAX_OPTIONS):
            part = options[start:start + MAX_OPTIONS]
            if menus and len(menus[-1][1]) + len(part) <= MAX_OPTIONS:
                menus[-1][0].append(group.list_name)
                menus[-1][1].extend(part)
            else:
                menus.append(([group.list_name], part))
    return [(", ".join(dict.fromkeys(names)), options) for names, options in menus[:MAX_SKILL_MENUS]]


def _choice_components(ui, view, p):
    primary = discord.ButtonStyle.primary
    if p.kind == "choose":
        ui.add_item(_select(f"{p.name}: choose +1 …", "choose", view,
                            [discord.SelectOption(label=f"+1 {c}", value=c) for c in p.options], arg=str(p.warrior_id)))
    elif p.kind == "skill":
        menus = _skill_menus(view.skill_menu)
        for n, (lists, options) in enumerate(menus):
            ui.add_item(_select(f"{p.name}'s new skill: {lists}", "learn", view, options, arg=f"{p.warrior_id}-{n}", row=n))
        label = f"Type {p.name}'s new skill" if menus else f"Choose {p.name}'s new skill"
        ui.add_item(_button(label, "skill", view, str(p.warrior_id), style=discord.ButtonStyle.secondary if menus else primary,
                            row=len(menus)))
    elif p.kind == "talent":
        ui.add_item(_button(f"Name {p.name}'s new hero", "talent", view, str(p.warrior_id), style=primary))


def as_discord_ui_drew_it(view: SequenceView, searchers: int) -> list[dict]:
    ui = discord.ui.View(timeout=None)
    s = view.state
    if view.status != "open":
        return ui.to_components()
    primary = discord.ButtonStyle.primary
    if s.step == "setup":
        fought = [f for f in s.fighters if f.fought]
        ooa = []
        for f in fought:
            if f.hero or f.hired_sword:
                ooa.append(discord.SelectOption(label=f.name[:100], value=f"{f.warrior_id}:1", default=f.out_of_action == 1))
            else:
                ooa.extend(discord.SelectOption(label=f"{f.name} — {n} of {f.models}"[:100], value=f"{f.warrior_id}:{n}",
                                                default=f.out_of_action == n) for n in range(1, f.models + 1))
        if ooa:
            ui.add_item(_select("Taken out of action", "ooa", view, ooa, many=True, row=0))
        ui.add_item(_select("Did not fight", "absent", view, [
            discord.SelectOption(label=f.name[:100], value=str(f.warrior_id), default=not f.fought) for f in s.fighters], many=True, row=1))
        ui.add_item(_button("Enemies out of action & scenario xp", "kills", view, row=2))
        ui.add_item(_button("Confirm: on to injuries", "confirm", view, style=primary, row=2))
    elif s.step == "injuries":
        pits = [p for p in s.pending if p.kind == "pit_fight"]
        if pits:
            for n, p in enumerate(pits[:4]):
                ui.add_item(_button(f"Fight {p.name}'s pit fight", "pitfight", view, str(p.warrior_id), style=primary, row=n))
                ui.add_item(_button(f"{p.name} won (at the table)", "pit", view, f"{p.warrior_id}-won",
                                    style=discord.ButtonStyle.success, row=n))
                ui.add_item(_button(f"{p.name} lost", "pit", view, f"{p.warrior_id}-lost", style=discord.ButtonStyle.danger, row=n))
        elif not any(f.out_of_action for f in s.fighters):
            ui.add_item(_button("Nobody to roll for: on to experience", "injuries", view, style=primary))
        else:
            ui.add_item(_button("Roll the injuries", "injuries", view, style=primary))
            ui.add_item(_button("Type dice rolled at the table", "injdice", view))
    elif s.step == "experience":
        if not s.extra.get("experience_done"):
            ui.add_item(_button("Award experience and roll advances", "xp", view, style=primary))
            ui.add_item(_button("Type advance dice rolled at the table", "xpdice", view))
        else:
            _choice_components(ui, view, s.pending[0])
    elif s.step == "exploration" and s.pending and s.pending[0].kind in ("choose", "skill", "talent"):
        _choice_components(ui, view, s.pending[0])
    elif s.step == "exploration" and any(p.kind == "drop" for p in s.pending):
        p = next(p for p in s.pending if p.kind == "drop")
        count = int(p.note.split("|", 1)[0])
        ui.add_item(_select(f"Drop which {'die' if count == 1 else f'{count} dice'}?", "drop", view, [
            discord.SelectOption(label=f"Die {k + 1}: {face}", value=str(k)) for k, face in enumerate(s.explore_dice)],
            many=count > 1, row=0))
    elif s.step == "exploration" and any(p.kind == "reroll" for p in s.pending):
        p = next(p for p in s.pending if p.kind == "reroll")
        allowed = int(p.note.split("|", 1)[0])
        ui.add_item(_select(f"Re-roll which {'die' if allowed == 1 else f'dice (up to {allowed})'}?", "reroll", view, [
            discord.SelectOption(label=f"Die {k + 1}: {face}", value=str(k)) for k, face in enumerate(s.explore_dice)],
            many=True, row=0))
        ui.add_item(_button("Keep the dice", "keepdice", view, style=primary, row=1))
    elif s.step == "exploration" and any(p.kind == "share_xp" for p in s.pending):
        ui.add_item(_button("Share the heroes' experience", "share", view, style=primary))
    elif s.step == "exploration":
        place = next((p for p in s.pending if p.kind == "place_hero"), None)
        if place is not None:
            options = [discord.SelectOption(label=(view.warrior(int(o)).name if view.warrior(int(o)) else o)[:100], value=o)
                       for o in place.options]
            if options:
                ui.add_item(_select(f"{place.name}: which hero goes?", "place", view, options))
            if "nobody" in place.note or "send nobody" in place.note.lower():
                ui.add_item(_button("Send nobody", "nobody", view))
        else:
            dice = searchers + (1 if s.won else 0)
            dice += int(s.extra.get(EXTRA_DIE, 0)) if dice else 0
            ui.add_item(_button(f"Roll exploration ({dice} {'die' if dice == 1 else 'dice'})" if dice else "Nobody searched: go on",
                                "explore", view, style=primary))
            ui.add_item(_button("Type dice / extra dice", "expdice", view))
    elif s.step == "income" and not view.wyrdstone_shards:
        ui.add_item(_button("Continue (nothing to sell)", "sell", view, style=primary))
    elif s.step == "income":
        ui.add_item(_select("Sell how many shards?", "sell", view, [
            discord.SelectOption(label="Keep them all" if n == 0 else f"Sell {n} for {gold} gc", value=str(n))
            for n, gold in view.sale_prices]))
    elif s.step == "upkeep":
        due = upkeep_due(view)
        if due:
            ui.add_item(_button(f"Pay every upkeep ({upkeep_total(due)})", "upkeep", view, style=primary, row=0))
            ui.add_item(_select("Let go unpaid (the others are paid)…", "letgo", view, [
                discord.SelectOption(label=f"{d.name} ({d.words})"[:100], value=str(d.warrior_id)) for d in due], many=True, row=1))
        else:
            ui.add_item(_button("Continue (nothing due)", "upkeep", view, style=primary, row=0))
    elif s.step == "trading":
        ui.add_item(_button("Finish and post the summary", "finish", view, style=primary))
    ui.add_item(_button("Close the sequence", "cancel", view, style=discord.ButtonStyle.danger, row=4))
    return ui.to_components()


# ---------------------------------------------------------------------- sequences at every step
LONG = "Ulrich the Unreasonably Long-Named Captain of the Middenheim Marksmen of the Eastern Gate Watch"  # past 100


def _warrior(wid: int, name: str, role: Role, size: int = 1) -> Warrior:
    return Warrior(id=wid, warband="Reiklanders", name=name, role=role, warrior_type="Human", group_size=size,
                   profile=Profile(M=4, WS=3, BS=3, S=3, T=3, W=1, I=3, A=1, Ld=7), equipment=(), skills=(), injuries=(),
                   experience=0, status=Status.ACTIVE, large=False)


WARRIORS = (_warrior(1, LONG, Role.LEADER), _warrior(2, "Otto", Role.HERO), _warrior(3, "Marksmen", Role.HENCHMEN, 3),
            _warrior(4, "Ogre", Role.HIRED_SWORD), _warrior(5, "Dogs", Role.HENCHMEN, 2))
FIGHTERS = (Fighter(1, LONG, True, 1, out_of_action=1), Fighter(2, "Otto", True, 1, kills=2),
            Fighter(3, "Marksmen", False, 3, out_of_action=2), Fighter(4, "Ogre", False, 1, hired_sword=True),
            Fighter(5, "Dogs", False, 2, fought=False))
SKILLS = (SkillGroup("Combat skills", tuple((f"Combat {n}", "what it does " * 12) for n in range(9))),
          SkillGroup("Academic skills", tuple((f"Academic {n}" + "x" * (90 if n == 0 else 0), "reads") for n in range(30))),
          SkillGroup("Speed skills", tuple((f"Speed {n}", "runs") for n in range(20))),
          SkillGroup("Strength skills", tuple((f"Strength {n}", "hits") for n in range(7))))


def _view(step: str, *, pending=(), status=SequenceStatus.OPEN, shards=0, extra=None, skill_menu=(), paid=(),
          out_of_action=True, dice=(5, 5, 2)) -> SequenceView:
    fighters = FIGHTERS if out_of_action else tuple(Fighter(f.warrior_id, f.name, f.hero, f.models) for f in FIGHTERS)
    state = SequenceState(step=step, won=True, battle="battle 3 (win)", fighters=fighters, pending=tuple(pending),
                          explore_dice=dice, extra=extra or {})
    return SequenceView(id=12, guild_id=1, warband_id=3, warband="Reiklanders", owner_id=7, version=4, status=str(status),
                        state=state, warriors=WARRIORS, gold_crowns=100, wyrdstone_shards=shards, warband_size=7,
                        sale_prices=tuple((n, 35 * n) for n in range(shards + 1)), skill_menu=skill_menu, upkeep_paid=paid)


def _every_view():
    yield _view("setup")
    yield _view("setup", out_of_action=False)
    yield _view("injuries")
    yield _view("injuries", out_of_action=False)
    pits = [Pending("pit_fight", wid, name, ("won", "lost")) for wid, name in ((1, LONG), (2, "Otto"), (3, "A"), (4, "B"), (5, "C"))]
    yield _view("injuries", pending=pits[:1])
    yield _view("injuries", pending=pits)
    yield _view("experience")
    choose = Pending("choose", 3, "Marksmen", ("WS", "BS"))
    skill = Pending("skill", 2, "Otto")
    talent = Pending("talent", 3, "Marksmen")
    for p in (choose, skill, talent):
        yield _view("experience", pending=(p,), extra={"experience_done": True})
        yield _view("exploration", pending=(p,))
    for menus in (SKILLS[:1], SKILLS[:2], SKILLS, SKILLS[3:], SKILLS[1:2]):
        yield _view("experience", pending=(skill,), extra={"experience_done": True}, skill_menu=menus)
    yield _view("exploration", pending=(Pending("drop", 0, "Exploration", ("0", "1", "2"), "1|the straggler"),))
    yield _view("exploration", pending=(Pending("drop", 0, "Exploration", ("0", "1", "2"), "2|the straggler"),))
    yield _view("exploration", pending=(Pending("reroll", 0, "Exploration", ("0", "1", "2"), "1|a map"),))
    yield _view("exploration", pending=(Pending("reroll", 0, "Exploration", ("0", "1", "2"), "2|a map; a skill"),))
    yield _view("exploration", pending=(Pending("share_xp", 0, "Graveyard", ("1", "2"), "3"),))
    yield _view("exploration", pending=(Pending("place_hero", 0, "Well", ("1", "2", "99"), "Choose the hero who goes in, or send nobody."),))
    yield _view("exploration", pending=(Pending("place_hero", 0, "Well", (), "Choose the hero who takes the test."),))
    for searchers in (0, 1, 3):
        yield _view("exploration", dice=()), searchers
        yield _view("exploration", dice=(), extra={EXTRA_DIE: 1}), searchers
    yield _view("income")
    yield _view("income", shards=4)
    yield _view("income", shards=12)
    yield _view("upkeep", extra={"upkeep": [[4, 30], [99, 15]]})
    yield _view("upkeep", extra={"upkeep": [[4, 30]]}, paid=(4,))
    yield _view("trading")
    yield _view("trading", status=SequenceStatus.FINISHED)
    yield _view("injuries", status=SequenceStatus.CANCELLED)


@pytest.mark.parametrize("case", list(_every_view()), ids=lambda c: (c[0] if isinstance(c, tuple) else c).state.step)
def test_the_components_are_the_payload_the_discord_ui_view_wrote(case):
    view, searchers = case if isinstance(case, tuple) else (case, 2)
    drawn = sequence_components(view, searchers)
    assert drawn.to_components() == as_discord_ui_drew_it(view, searchers)
    assert not drawn.is_dispatchable() and not drawn.children  # every press is a DynamicItem's: discord.py keeps nothing


def test_an_option_description_and_default_and_a_menu_of_many_are_what_discord_ui_writes():
    from cogs._ui.drawn import menu, option
    made = discord.SelectOption(label="Hans", value="7", default=True, description="d" * 100)
    assert option("Hans", "7", default=True, description="d" * 100) == made.to_dict()
    assert option("Hans", "7", description="d" * 120)["description"] == "d" * 100  # cut to Discord's length
    assert option("Hans", "7", description="") == discord.SelectOption(label="Hans", value="7").to_dict()
    options = [discord.SelectOption(label=f"Rat {n}", value=str(n)) for n in range(3)]
    made = discord.ui.Select(placeholder="Who", custom_id="pbs:absent:1:2", options=options, min_values=0, max_values=3)
    assert menu("pbs:absent:1:2", "Who", [option(f"Rat {n}", str(n)) for n in range(3)], min_values=0, max_values=3) \
        == made.to_component_dict()
