"""What every action needs: the warband or warrior a member named (or the closest names), and
whether the member may change it."""

from __future__ import annotations

from collections.abc import Iterable

from engine.campaign.lists.names import closest
from engine.campaign.model import Actor, Warband, Warrior
from engine.campaign.ports import UnitOfWork
from engine.errors import MordheimError, NotFoundError, PermissionDenied

AUTOCOMPLETE_LIMIT = 25  # Discord shows at most 25 choices


class KeepChanges(Exception):
    """Refuse the member with ``error``, but keep what the action changed before it refused (a
    post-battle step that finds its sequence undone closes it, then says so)."""

    def __init__(self, error: MordheimError) -> None:
        super().__init__(str(error))
        self.error = error


def suggest(names: Iterable[str], query: str) -> list[str]:
    """The five names closest to ``query`` (for 'did you mean'), closest first; none when nothing is close
    enough (engine/campaign/lists/names.py: "Nope" suggests no "New Pirates")."""
    return closest(names, query)


def warband_named(uow: UnitOfWork, name: str) -> Warband:
    """The server's warband ``name`` (without its warriors), or NotFoundError with the closest names."""
    if not isinstance(name, str) or not name.strip():
        raise MordheimError("Name the warband.", hint="Use `/warband list` to see this server's warbands.")
    warband = uow.warbands.named(name)
    if warband is None:
        names = uow.warbands.names()
        close = suggest(names, name)
        raise NotFoundError(
            f"This server has no warband called '{name.strip()[:64]}'.",
            suggestions=close,
            hint=None if close else "Use `/warband list` to see this server's warbands." if names else "Create one with `/warband create`.",
        )
    return warband


def warband_by_id(uow: UnitOfWork, warband_id: int) -> Warband:
    """The server's warband ``warband_id`` (buttons carry ids), or a refusal saying it is gone."""
    warband = uow.warbands.get(warband_id)
    if warband is None:
        raise MordheimError("That warband no longer exists in this server.", hint="See `/warband list`.")
    return warband


def warrior_named(uow: UnitOfWork, warband: Warband, name: str) -> Warrior:
    """The warrior ``name`` of ``warband``, or NotFoundError with the closest names."""
    if not isinstance(name, str) or not name.strip():
        raise MordheimError("Name the warrior.")
    warrior = uow.warriors.named(warband.id, warband.name, name)
    if warrior is None:
        raise NotFoundError(f"{warband.name} has no warrior called '{name.strip()[:64]}'.",
                            suggestions=suggest(uow.warriors.names(warband.id), name))
    return warrior


def may_change(warband: Warband, actor: Actor) -> None:
    """PermissionDenied unless the member owns the warband or has Manage Server."""
    if actor.is_admin or warband.owner_id == actor.member_id:
        return
    raise PermissionDenied(
        f"Only the owner of {warband.name} (<@{warband.owner_id}>) or a member with Manage Server can change it.",
        hint="Anyone may view it with `/warband show`.",
    )


def changeable_warband(uow: UnitOfWork, actor: Actor, name: str) -> Warband:
    """The warband ``name``, which the member may change (else NotFoundError or PermissionDenied)."""
    warband = warband_named(uow, name)
    may_change(warband, actor)
    return warband
