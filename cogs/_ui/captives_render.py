"""How /postbattle captives looks: the captives a warband holds and its warriors held by others,
with a row of buttons for each (``pbc:<action>:<warband>:<captive>[:<arg>]``, so they work after a
restart; the service checks who may press)."""

from __future__ import annotations

import discord

from cogs._ui.campaign import safe, safe_line
from cogs._ui.embeds import EMBED_FIELD_LIMIT, INFO, clip
from engine.campaign.actions.captives import RAISE_ZOMBIE, SACRIFICE_HIM, Captive, CaptivesView
from engine.words import possessive

CAPTIVE = "pbc"
ROWS = 5  # Discord's rows of components on a message
PER_ROW = 5  # and buttons on a row
FATE_ACTIONS = {RAISE_ZOMBIE: "zombie", SACRIFICE_HIM: "sacr"}  # a captor's own fate -> its button's action


def captive_id(action: str, view: CaptivesView, captive: Captive, arg: int | None = None) -> str:
    return f"{CAPTIVE}:{action}:{view.warband_id}:{captive.id}" + (f":{arg}" if arg is not None else "")


def _kit(c: Captive) -> str:
    return f" (carrying {', '.join(c.kit)})" if c.kit else ""


def captives_embed(view: CaptivesView) -> discord.Embed:
    embed = discord.Embed(title=f"{view.warband}: captives"[:256], colour=INFO,
                          description=("Held captive (serious injury 61): a ransom at the captor's price, an exchange for one of "
                                       "the captor's own captives, or a sale to the slavers (D6×5 gc, the kit kept by the captor); "
                                       "the Undead may kill him for a new Zombie, the Possessed sacrifice him (their leader "
                                       "gains +1 experience), his kit kept by the captor. "
                                       "A captive counts for neither his warband's size, income nor rating."))
    held = [f"**{safe(c.name)}** of {safe(c.warband)}{_kit(c)}"
            + (f": ransom asked {c.ransom} gc" if c.ransom is not None else "") for c in view.held]
    taken = []
    for c in view.taken:
        if c.captor is None and c.candidates:
            taken.append(f"**{safe(c.name)}**, held by {' or '.join(safe(n) for _id, n in c.candidates)}: the battle does not "
                         "say who took him out of action. Say which holds him (its owner then decides his fate); if it was "
                         "a warband outside this server, record what became of him.")
        elif c.captor is None:
            taken.append(f"**{safe(c.name)}**, held by a warband outside this server: record what became of him.")
        else:
            asked = f"{safe(c.captor)} asks {c.ransom} gc" if c.ransom is not None else "no ransom asked yet"
            taken.append(f"**{safe(c.name)}**, held by {safe(c.captor)}: {asked}.")
    for name, lines in (("Done", [safe_line(x) for x in view.lines]), ("Dice", list(view.dice)),
                        (f"Held by {view.warband}", held), (f"{possessive(view.warband)} warriors held by others", taken)):
        if lines:
            embed.add_field(name=name[:256], value=clip("\n".join(lines), EMBED_FIELD_LIMIT), inline=False)
    if not view.held and not view.taken:
        embed.add_field(name="Nobody", value="This warband holds no captive, and none of its warriors is held.", inline=False)
    embed.set_footer(text=f"Treasury: {view.gold} gc · only the deciding warband's owner or Manage Server can press")
    return embed


def _button(label: str, custom_id: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int = 0) -> discord.ui.Button:
    return discord.ui.Button(label=label[:80], custom_id=custom_id, style=style, row=row)


def captives_components(view: CaptivesView) -> discord.ui.View:
    """A row of buttons per captive, as many as fit."""
    ui = discord.ui.View(timeout=None)
    row = 0
    for c in view.held:
        if row >= ROWS:
            break
        ui.add_item(_button(f"Ask a ransom for {c.name}", captive_id("ransom", view, c), discord.ButtonStyle.primary, row))
        ui.add_item(_button(f"Sell {c.name} to the slavers", captive_id("sell", view, c), discord.ButtonStyle.danger, row))
        buttons = 2
        for fate, words in ((RAISE_ZOMBIE, f"Kill {c.name}: a new Zombie"), (SACRIFICE_HIM, f"Sacrifice {c.name}")):
            if fate in view.fates:  # only a captor whose list allows it is offered it
                ui.add_item(_button(words, captive_id(FATE_ACTIONS[fate], view, c), discord.ButtonStyle.danger, row))
                buttons += 1
        ours = [t for t in view.taken if t.captor_id == c.warband_id]
        for t in ours[:PER_ROW - buttons]:
            ui.add_item(_button(f"Exchange {c.name} for {t.name}", captive_id("exch", view, c, t.id), row=row))
        row += 1
    for c in view.taken:
        if row >= ROWS:
            break
        if c.captor is None and c.candidates:
            for wid, name in c.candidates[:5]:
                ui.add_item(_button(f"{c.name} is held by {name}", captive_id("held", view, c, wid), discord.ButtonStyle.primary, row))
            row += 1
            if row >= ROWS:
                break
        if c.captor is None:
            ui.add_item(_button(f"{c.name} ransomed…", captive_id("outr", view, c), discord.ButtonStyle.primary, row))
            ui.add_item(_button(f"{c.name} exchanged", captive_id("oute", view, c), row=row))
            ui.add_item(_button(f"{c.name} sold (gone)", captive_id("outs", view, c), discord.ButtonStyle.danger, row))
            ui.add_item(_button(f"{c.name} killed (dead)", captive_id("outk", view, c), discord.ButtonStyle.danger, row))
        elif c.ransom is not None:
            ui.add_item(_button(f"Pay {c.name}'s ransom ({c.ransom} gc)", captive_id("pay", view, c), discord.ButtonStyle.success, row))
        else:
            continue
        row += 1
    return ui
