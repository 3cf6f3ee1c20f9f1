"""Rules entries as Discord embeds: answer pages, "did you mean", search results, other editions.

Pure rendering: no interaction handling here (that is ``cogs/rules.py``). Every embed stays
inside Discord's limits (description 4096, field 1024, whole embed 6000) without losing text
silently: bodies are paged, and anything shortened says so and how to read the rest.
"""

from __future__ import annotations

import re
from functools import lru_cache

import discord

from cogs._ui.embeds import EMBED_DESCRIPTION_LIMIT, EMBED_FIELD_LIMIT, INFO, NEUTRAL, clip
from engine.editions import get_edition
from engine.rules import Entry, Hit
from engine.rules.text import fold

# Body characters per page. Leaves room under the 4096 description limit for the table
# layout below, and under the 6000 whole-embed limit for title, path, source and footer.
PAGE_CHARS = 3500
EMBED_TOTAL_LIMIT = 6000
SEARCH_SNIPPET_CHARS = 300


def edition_name(edition_id: str) -> str:
    """The edition's display name, e.g. 'Living Rulebook 2005 (cited as 000)'."""
    return get_edition(edition_id).name


# A table whose rows are sentences (a cell this long or longer) is shown row by row, its last,
# long cell after a dash: in a code block such rows run hundreds of characters wide. A grid of
# short cells (the BS chart, 000:518) stays an aligned code block, however many columns.
TEXT_CELL = 40


def entry_pages(entry: Entry, page_chars: int | None = None) -> list[str]:
    """The entry's body split into pages (nothing dropped), tables laid out for Discord; a table
    split across pages repeats its header on the next."""
    return list(_pages(entry, page_chars or PAGE_CHARS))


@lru_cache(maxsize=1024)
def _pages(entry: Entry, page_chars: int) -> tuple[str, ...]:
    # Entries are immutable, so a page turn or a popular rule need not be split again.
    out = []
    header: list[str] | None = None  # the header of a table the previous page ended inside
    for page in entry.pages(page_chars):
        lines = page.split("\n")
        if header and lines[0].lstrip().startswith("|") and not (len(lines) > 1 and _is_rule_line(lines[1])):
            lines = header + lines
        header = _open_table_header(lines, header)
        out.append(_layout_tables("\n".join(lines)))
    return tuple(out)


def _split_cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def _is_rule_line(line: str) -> bool:
    cells = _split_cells(line) if line.lstrip().startswith("|") else []
    return bool(cells) and all(c and set(c) <= set("-: ") for c in cells)


def _open_table_header(lines: list[str], carried: list[str] | None) -> list[str] | None:
    """The header lines of the table this page ends inside, or None if it ends outside one."""
    if not lines or not lines[-1].lstrip().startswith("|"):
        return None
    start = len(lines) - 1
    while start > 0 and lines[start - 1].lstrip().startswith("|"):
        start -= 1
    if start + 1 < len(lines) and _is_rule_line(lines[start + 1]):
        return lines[start:start + 2]
    return carried if start == 0 else None


def _layout_tables(page: str) -> str:
    """Markdown tables as Discord can show them (it draws no Markdown tables): an aligned
    monospace block when narrow enough for a phone, else one line per row.

    Every cell is kept. If the laid-out page would no longer fit an embed, the page is
    returned as it was (raw Markdown table rows)."""
    lines = page.split("\n")
    out: list[str] = []
    i = 0
    changed = False
    while i < len(lines):
        if not lines[i].lstrip().startswith("|"):
            out.append(lines[i])
            i += 1
            continue
        j = i
        while j < len(lines) and lines[j].lstrip().startswith("|"):
            j += 1
        out.extend(_table_block(lines[i:j]))
        changed = True
        i = j
    if not changed:
        return page
    laid = "\n".join(out)
    return laid if len(laid) <= EMBED_DESCRIPTION_LIMIT - 100 else page


def _table_block(rows: list[str]) -> list[str]:
    cells = [[c.replace("**", "") for c in _split_cells(r)] for r in rows]
    is_rule = [all(c and set(c) <= set("-: ") for c in row) for row in cells]
    header: list[str] | None = None
    if len(cells) > 1 and is_rule[1] and not is_rule[0]:
        header = cells[0]
    body = [row for k, (row, rule) in enumerate(zip(cells, is_rule)) if not rule and not (header and k == 0)]
    if header is not None and not any(header):
        header = None  # an empty header row (002:689) says nothing
    width = max(len(r) for r in cells)
    cols = [0] * width
    for row in ([header] if header else []) + body:
        for k, c in enumerate(row):
            cols[k] = max(cols[k], len(c))
    if max(cols) >= TEXT_CELL:
        return [_row_line(row) for row in body]

    def line(row: list[str]) -> str:
        filled = len(row)
        while filled and not row[filled - 1]:
            filled -= 1  # a row short of values (000:722 has no T10) ends where they do, blank after
        return " | ".join(c.ljust(w) for c, w in zip(row[:filled], cols)).rstrip()

    block = ["```"]
    if header:
        block += [line(header), "-+-".join("-" * w for w in cols)]
    return block + [line(row) for row in body] + ["```"]


def _row_line(row: list[str]) -> str:
    """A row of a wide table on one line: the short cells in bold, then the long last cell."""
    filled = [c for c in row if c]
    if len(filled) <= 1:
        return "• " + (filled[0] if filled else "")
    return f"• **{' '.join(filled[:-1])}** — {filled[-1]}"


def answer_embed(entry: Entry, page_text: str, page: int, page_count: int, note: str | None) -> discord.Embed:
    """One page of an entry: title, section path, body, source citation, edition footer."""
    embed = discord.Embed(title=clip(entry.title, 256), description=page_text, colour=INFO)
    embed.set_author(name=clip(entry.section_path, 256))
    if entry.summary is not None and page == 0:
        # 001 is a one-page paraphrase of 000's core rules: shown beside the rule it sums up
        embed.add_field(name=f"Quick reference ({entry.summary.source.cite()})",
                        value=clip(entry.summary.text, EMBED_FIELD_LIMIT), inline=False)
    embed.add_field(name="Source", value=citation(entry), inline=False)
    footer = edition_name(entry.edition)
    if note:
        footer += f" · {note}"
    if page_count > 1:
        footer += f" · page {page + 1}/{page_count}"
    embed.set_footer(text=clip(footer, 2048))
    _check(embed)
    return embed


def citation(entry: Entry) -> str:
    """``000:759-775`` and the seed file it points into; a data file says it is not a rulebook."""
    if not entry.source.is_seed:
        return f"`{entry.source.file}` (the bot's own data, not the rulebook text)"
    return f"`{entry.source.cite()}` ({entry.source.file})"


def did_you_mean_embed(query: str, suggestions: list[tuple[str, str]], edition_id: str, *, unknown: bool = False,
                       question: bool = False, unrecognised: bool = False,
                       elsewhere: tuple[Entry, ...] = ()) -> discord.Embed:
    """A weak match: the closest names, or how to ask differently when there are none. ``unknown``:
    nothing comes close (LookupResult.unknown), so it says plainly that the bot's rules and data lack
    it, and ``suggestions`` are the names spelt most like it; ``question``: the query was a question;
    ``unrecognised``: no word of it is one the rules use (LookupResult.unrecognised), so nothing is offered;
    ``elsewhere``: other editions' entries of exactly that name (LookupResult.elsewhere), said first."""
    shown = discord.utils.escape_markdown(clip(query, 100))
    if unrecognised:
        title = "Nothing matches"
        lines = [f"**Nothing matches “{shown}”**: none of its words is one the rules use, or a misspelling of one.",
                 "\nCheck the spelling, or type a rule, weapon, item or spell such as `parry` or `flail`, "
                 "a question such as `can a wizard wear armour`, or search the rules' text with `/rules search`."]
    elif unknown:
        if question:
            title = "No close answer"
            lines = [f"**Nothing in the bot's rules or data answers “{shown}” closely.** Ask with fewer words or "
                     "a rule's name."]
        else:
            title = "Not in the bot's rules"
            lines = [f"**The bot's rules and data don't have “{shown}”.** Nothing in the rulebook text this edition "
                     "reads, the bot's campaign tables or its warband data (lists and their fighters, hired swords, "
                     "Dramatis Personae, skills, items) is called that or says anything close to it: it may come from a "
                     "supplement or a house rule the bot does not hold."]
        if suggestions:
            lines.append("\nThe nearest names it has:")
            lines += [f"• **{name}** — {path}" for name, path in suggestions]
            lines.append("\nChoose one below, or search the rules' text with `/rules search`.")
        else:
            lines.append("\nSearch the rules' text with `/rules search`.")
    elif suggestions:
        lines = [f"Nothing matches “{shown}” closely enough. Did you mean:"]
        lines += [f"• **{name}** — {path}" for name, path in suggestions]
        lines.append("\nChoose one below, run `/rule` again with another name, or search the rules' text with `/rules search`.")
        title = "Did you mean…?"
    else:
        title = "No rule found"
        lines = [
            f"Nothing in this edition matches “{shown}”.",
            "Type a rule, weapon, item or spell name such as `parry` or `flail`, "
            "or search the text with `/rules search`.",
        ]
    if elsewhere:
        title = "In another edition"
        found = [f"• **{e.title}** — {edition_name(e.edition)}: `/rule {e.title} edition:{e.edition}`" for e in elsewhere]
        nearest = ["\nIn this edition, the nearest:", *lines[1:-1]] if suggestions and not unknown else []
        lines = [f"**{edition_name(edition_id)} has no “{shown}”**; another edition has it:", *found,
                 "\nChoose one below to read it.", *nearest]
    embed = discord.Embed(title=title, description=clip("\n".join(lines), EMBED_DESCRIPTION_LIMIT), colour=NEUTRAL)
    embed.set_footer(text=edition_name(edition_id))
    return embed


def search_embed(text: str, hits: list[Hit], names: list[str], edition_id: str,
                 corrections: list[tuple[str, str]] | None = None) -> discord.Embed:
    """Ranked sections with a snippet each; ``names`` are the hits' display names; ``corrections``
    the misspelt words searched as the rules' words ("hiden" as "hidden")."""
    shown = discord.utils.escape_markdown(clip(text, 100))
    blocks = []
    if corrections:
        read = ", ".join(f"“{discord.utils.escape_markdown(typed)}” as “{mended}”" for typed, mended in corrections[:5])
        blocks.append(f"*Searched {read}.*")
    for n, (hit, name) in enumerate(zip(hits, names), start=1):
        snippet = " ".join(hit.snippet.split())
        snippet = clip(snippet, SEARCH_SNIPPET_CHARS)
        blocks.append(f"**{n}. {name}** — {hit.entry.section_path}\n> {snippet}")
    description = ""
    for n, block in enumerate(blocks):  # whole results only; say how many did not fit
        if len(description) + len(block) + 80 > EMBED_DESCRIPTION_LIMIT:
            description += f"\n\n*…and {len(blocks) - n} more; narrow the search.*"
            break
        description += ("\n\n" if description else "") + block
    embed = discord.Embed(title=clip(f"Search: {shown}", 256), description=description, colour=INFO)
    embed.set_footer(text=edition_name(edition_id) + " · choose a section below to read it")
    _check(embed)
    return embed


def no_hits_embed(text: str, edition_id: str) -> discord.Embed:
    shown = discord.utils.escape_markdown(clip(text, 100))
    embed = discord.Embed(
        title="Nothing found",
        description=f"No section of this edition mentions “{shown}”. Try fewer or other words, "
        "or `/rule` with a rule name.",
        colour=NEUTRAL,
    )
    embed.set_footer(text=edition_name(edition_id))
    return embed


def other_editions_embed(entry: Entry, others: list[tuple[Entry, bool]]) -> discord.Embed:
    """The entry and its counterparts side by side, one field per edition.

    A field holds 1024 characters: a longer body is shortened with a visible note
    saying how to read the whole of it (the menu under this embed)."""
    embed = discord.Embed(title=clip(f"{entry.title} in other editions", 256), colour=NEUTRAL)
    embed.description = f"{entry.section_path}. Choose an edition below to read its full text."
    for e, differs in [(entry, False), *others]:
        label = "this answer" if e is entry else ("differs" if differs else "same text")
        name = clip(f"{edition_name(e.edition)} — {label}", 256)
        embed.add_field(name=name, value=_field_text(e, entry if differs else None), inline=True)
    embed.set_footer(text="Sources: " + "; ".join(f"{e.edition} {e.source.cite()}" for e, _ in [(entry, False), *others]))
    _check(embed)
    return embed


def _field_text(entry: Entry, compared_with: Entry | None = None) -> str:
    """The entry's body for a field, whole when it fits. Too long, a body that differs from
    ``compared_with`` shows the paragraphs where it differs (the rest said to read the same), so the
    difference is seen (parry: 002:966's +1 for two swords, 004:601's re-roll for them); otherwise
    its start. Either way what is left out is said, with how to read all of it."""
    body = entry.body.strip() or "(no text)"
    if len(body) <= EMBED_FIELD_LIMIT:
        return body
    if compared_with is not None:
        theirs = {_same_words(p) for p in compared_with.body.split("\n\n")}
        paragraphs = [p.strip() for p in body.split("\n\n") if p.strip()]
        differing = [p for p in paragraphs if _same_words(p) not in theirs]
        if differing and len(differing) < len(paragraphs):
            shown = "*Where it differs (the rest reads as this answer):*\n" + "\n…\n".join(differing)
            if len(shown) <= EMBED_FIELD_LIMIT - 80:
                return shown + "\n… *choose it below to read all.*"
            body = shown
    cut = body[: EMBED_FIELD_LIMIT - 80]
    cut = (cut.rsplit(" ", 1)[0] if " " in cut[-40:] else cut).rstrip()  # end on a whole word
    return cut + f"\n… *{len(body) - len(cut):,} more characters: choose it below to read all.*"


def _same_words(paragraph: str) -> str:
    """A paragraph as compared across editions: letters and digits only, spelt the British way
    (002's "armor", "i.e." and hyphens broken at line ends are the same text as 000's)."""
    return re.sub(r"[^a-z0-9]", "", fold(paragraph)).replace("armor", "armour")


def stale_embed() -> discord.Embed:
    return discord.Embed(
        title="This answer is out of date",
        description="This answer is from an older version of the rules data; run `/rule` (or `/rules search`) again.",
        colour=NEUTRAL,
    )


def _check(embed: discord.Embed) -> None:
    """Discord refuses an embed over 6000 characters; fail loudly here rather than there."""
    if len(embed) > EMBED_TOTAL_LIMIT or len(embed.description or "") > EMBED_DESCRIPTION_LIMIT:
        raise ValueError(f"embed too long ({len(embed)} characters)")
