"""A member's own warbands across servers: what a direct message offers them, and the sheet of one.

A warband belongs to a server, and everything else reads one server's warbands. A direct message
has no server, so there a member reaches only the warbands they own, in whichever servers those
are: never another member's, and nothing of a server but the sheet of the warband picked (built
in its server, as ``/warband show`` builds it). A name that is not theirs gets the same answer
whether or not someone else owns it, so nothing of another member's warbands leaks.
"""

from __future__ import annotations

from engine.campaign.actions import sheets
from engine.campaign.actions.common import AUTOCOMPLETE_LIMIT, suggest
from engine.campaign.model import OwnedWarband, WarbandSheet, name_key
from engine.campaign.ports import MemberUnitOfWork
from engine.errors import MordheimError, NotFoundError

SUGGEST_FROM = 200  # own warbands read for 'did you mean' (a member rarely owns more than a few)


def own_warband_choices(muow: MemberUnitOfWork, prefix: str, *, limit: int = AUTOCOMPLETE_LIMIT) -> list[OwnedWarband]:
    """Up to ``limit`` of the member's own warbands whose name starts with (then contains) ``prefix``."""
    return muow.owned.starting(name_key(prefix or "")[:64], max(0, min(limit, AUTOCOMPLETE_LIMIT)))


def own_warband_sheet(muow: MemberUnitOfWork, name: str, *, guild_id: int | None = None) -> tuple[OwnedWarband, WarbandSheet]:
    """The sheet of the member's own warband ``name`` (in server ``guild_id`` when given, else in
    the one server where they own a warband of that name); NotFoundError with the closest of their
    own names when they own none so called, a refusal asking to pick when several servers have one."""
    if not isinstance(name, str) or not name.strip():
        raise MordheimError("Name the warband.", hint="Pick one of yours from the choices offered as you type.")
    found = [w for w in muow.owned.named(name) if guild_id is None or w.guild_id == guild_id]
    if not found:
        mine = muow.owned.every(SUGGEST_FROM)
        raise NotFoundError(
            f"You own no warband called '{name.strip()[:64]}'" + (" in that server." if guild_id is not None else "."),
            suggestions=suggest(sorted({w.name for w in mine}), name),
            hint=None if mine else "In a direct message only your own warbands can be shown; you own none yet "
                                   "(`/warband create` in a server makes one).",
        )
    if len(found) > 1:
        raise MordheimError(
            f"You own a warband called '{found[0].name}' in {len(found)} servers.",
            hint="Pick one from the choices offered as you type the name: each says its server.",
        )
    owned = found[0]
    sheet = sheets.show_warband(muow.in_server(owned.guild_id), owned.name)
    if sheet.warband.owner_id != muow.member_id:  # the same snapshot says so above; a kept sheet must agree
        raise NotFoundError(f"You own no warband called '{owned.name}'.")
    return owned, sheet
