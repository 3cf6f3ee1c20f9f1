"""The end of a tracked game: each warband's battle recorded with its result, and its post-battle
sequence opened with what the game knows filled in.

All in the press's one unit of work: the battles (``actions/warbands.add_battle``, the one writer
of battles, both sides linked as ``/battle record opponent:`` links them) are rows of the game's
ledger batch, and each sequence starts from the game's facts (``rules/battle_facts.py``) through
``actions/postbattle.start``, so the owner only checks and confirms. A warband that already has a
sequence open (from an earlier battle) gets its battle now and its sequence when that one is
done: the tracker's "Post-battle" button for it opens it, filled in the same way.
"""

from __future__ import annotations

from dataclasses import replace

from engine.campaign.actions import postbattle
from engine.campaign.actions.games import GamePress, GameView, game_record, may_run
from engine.campaign.actions.standings import battle_ratings
from engine.campaign.actions.warbands import add_battle, battle_date
from engine.campaign.game_model import GameStatus
from engine.campaign.model import Actor, BattleResult, Entity, SequenceStatus
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules import game_rules, transfer
from engine.campaign.rules.game_state import GAME_RECORDED, GameState, PieceState
from engine.campaign.rules.validation import NAME_MAX
from engine.errors import MordheimError, PermissionDenied


def end_game(uow: UnitOfWork, actor: Actor, game_id: int, tracker_version: int, *, winner: int | None) -> GameView:
    """End the game: ``winner`` (a warband still fighting, by its place in the game) won, or None
    for a draw among those still fighting; a warband that routed lost (000:815)."""
    g = GamePress.open(uow, game_id, tracker_version=tracker_version)
    may_run(g.state, actor)
    fighting = g.state.fighting
    if winner is not None and winner not in fighting:
        raise MordheimError("Only a warband still fighting can win.", hint="Choose one of the End panel's buttons.")
    results = {n: BattleResult.WIN if n == winner else BattleResult.DRAW if winner is None and n in fighting
               else BattleResult.LOSS for n in range(len(g.state.sides))}
    return finish(g, results)


def finish(g: GamePress, results: dict[int, BattleResult], *, rolls: tuple[str, ...] = ()) -> GameView:
    """Record every warband's battle with its result and open the post-battle sequences."""
    uow, state = g.uow, g.state
    present = {n: uow.warbands.get(s.warband_id) for n, s in enumerate(state.sides)}
    notes = [f"{state.sides[n].warband} no longer exists: no battle was recorded for it." for n, b in present.items() if b is None]
    bands = {n: b for n, b in present.items() if b is not None}
    fought_on = battle_date(None, uow.at)
    battles = {}
    pair_id: int | None = None
    # two warbands: both ratings as they stand before any sequence, as /battle record opponent: keeps them (underdog)
    ratings = dict(zip(bands, battle_ratings(uow, *bands.values()))) if len(bands) == 2 else {}
    for n, band in bands.items():
        others = [state.sides[m].warband for m in bands if m != n]
        opponent = state.sides[next(m for m in bands if m != n)].warband_id if len(bands) == 2 else None
        side = state.sides[n]
        record = transfer.clean_battle({
            "result": str(results[n]), "scenario": state.scenario, "opponents": _opponents(others), "fought_on": fought_on,
            "notes": f"Game #{g.record.id}" + (f"; {side.warband} {side.rout_note} on turn {side.left_on_turn}" if side.rout_note else ""),
        })
        record["scenario_id"] = state.scenario_id  # the rulebook scenario it was played under (None: the players' own)
        if ratings:
            record.update(rating=ratings[n], opponent_rating=next(r for m, r in ratings.items() if m != n))
        battle = add_battle(uow, band, record, opponent_warband_id=opponent, pair_id=pair_id)
        if pair_id is None:  # every side carries the first row's id, so the campaign log shows the battle once
            pair_id = battle.id
            uow.battles.set_pair(battle.id, battle.id)
        battles[n] = battle.id
    sides = tuple(replace(s, result=str(results[n]), battle_id=battles.get(n)) for n, s in enumerate(state.sides))
    ended = replace(state, sides=sides, rout_due=False)
    for n in bands:
        g.record_row(n, GAME_RECORDED, Entity.WARBAND, state.sides[n].warband_id, None, _record_of(ended, n, g.record.id),
                     reason=f"game #{g.record.id}: what the tracker recorded")
    opened = []
    for n in bands:
        view = open_sequence(uow, ended, g.record.id, n)
        if view is None:
            notes.append(f"{state.sides[n].warband} has a post-battle sequence open from an earlier battle: finish it, then "
                         "press its Post-battle button here.")
        else:
            opened.append(view)
    words = "; ".join(f"{s.warband} {'won' if s.result == 'win' else 'drew' if s.result == 'draw' else 'lost'}"
                      for s in sides if s.battle_id is not None)
    return g.save(ended, log=[f"Game over: {words}."], status=GameStatus.ENDED, rolls=rolls, opened=tuple(opened),
                  notes=tuple(notes))


def _record_of(state: GameState, side: int, game_id: int) -> dict[str, object]:
    """What the tracker recorded of one warband, for its ledger: who went out of action and by
    whom, whom its heroes took out, the wyrdstone it carried, and how its game ended."""
    s = state.sides[side]
    heroes = {p.warrior_id: p.name for p in s.pieces}
    return {
        "game": game_id, "name": f"game #{game_id}", "result": s.result,
        "out_of_action": [f"{p.name} ({game_rules.taker_words(state, p.taken_out_by) or 'not said'})"
                          for p in s.pieces if p.state == PieceState.OUT_OF_ACTION],
        "kills": {heroes[w]: n for w, n in game_rules.kills(state, side).items()},
        "wyrdstone": sum(p.counters for p in s.pieces),
        "not_in_the_game": [p.name for p in s.pieces if p.state == PieceState.ABSENT],
    }


def _opponents(names: list[str]) -> str:
    """The other warbands as one battle record's ``opponents`` (at most NAME_MAX characters)."""
    text = ", ".join(names)
    if len(text) <= NAME_MAX:
        return text
    short = f"{names[0][:NAME_MAX - 20]} and {len(names) - 1} more"
    return short


def open_sequence(uow: UnitOfWork, state: GameState, game_id: int, side: int) -> postbattle.SequenceView | None:
    """Open the post-battle sequence of ``side``'s battle, filled in from the game; None when its
    warband has another one open (it must finish that first). Opened for the warband's owner: he
    runs it."""
    s = state.sides[side]
    band = uow.warbands.get(s.warband_id)
    if band is None or s.battle_id is None:
        return None
    waiting = uow.sequences.open_of(band.id)
    if waiting is not None and not uow.ledger.batch_undone(band.id, waiting.batch_id):
        return None
    facts = game_rules.facts_of_side(state, side, source=f"game #{game_id}")
    owner = Actor(guild_id=uow.guild_id, member_id=band.owner_id)
    return postbattle.start(uow, owner, band.name, battle_id=s.battle_id, prefill=facts)


def sequence_after_game(uow: UnitOfWork, actor: Actor, game_id: int, side: int) -> postbattle.SequenceView:
    """The post-battle sequence of one warband's battle in an ended game: the open one, or a new
    one filled in from the game (the "Post-battle" button under the tracker)."""
    g = GamePress(uow, game_record(uow, game_id))
    if g.record.status != GameStatus.ENDED:
        raise MordheimError("This game is not over yet.", hint="End it with the tracker's End button first.")
    s = g.side(side)
    band = uow.warbands.get(s.warband_id)
    if band is None or s.battle_id is None:
        raise MordheimError(f"{s.warband} has no battle recorded from this game (the warband was deleted).")
    if not (actor.is_admin or band.owner_id == actor.member_id):
        raise PermissionDenied(f"Only the owner of {band.name} (<@{band.owner_id}>) or a member with Manage Server can run its "
                               "post-battle sequence.", hint="Everyone can follow it here.")
    waiting = uow.sequences.open_of(band.id)
    if waiting is not None and waiting.battle_id == s.battle_id:
        return postbattle.get(uow, waiting.id)
    for done in uow.sequences.of_warband(band.id, SequenceStatus.FINISHED, battle_id=s.battle_id):
        if not uow.ledger.batch_undone(band.id, done.batch_id):
            raise MordheimError(f"{band.name} already went through the post-battle sequence for this game.")
    view = open_sequence(uow, g.state, game_id, side)
    if view is None:
        raise MordheimError(f"{band.name} has a post-battle sequence open from an earlier battle.",
                            hint="Finish it (`/postbattle resume`) or cancel it (`/postbattle cancel`), then press again.")
    return view

