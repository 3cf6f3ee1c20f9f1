"""/rule and /rules search: look up any rule, weapon, item or spell of the server's edition.

How the answers behave (decisions worth knowing before changing them):

- ``/rule`` answers in public: the entry's title, section path, body (paged), source citation
  and edition. A weak match gets a private "did you mean" list whose menu posts the chosen
  entry publicly, as ``/rule`` would have; when nothing comes close at all (``LookupResult.unknown``)
  the reply says plainly that the bot's rules and data lack it, and its menu offers the names
  spelt most like it. ``/rules search`` answers privately (a list of
  sections is for the searcher); its menu also posts the chosen entry publicly.
- Anyone may turn the pages of a public answer: it is shared reference text, and the page
  buttons edit the message in place for everyone.
- "Related" (a menu) and "Other editions" (a button) answer the presser privately with a new
  message, so one player's browsing never replaces the answer the table is reading.
- Every button and menu is a ``discord.ui.DynamicItem`` whose custom_id carries what it needs
  (``rule:<kind>:<data version>:<edition>:...``), registered once in ``cog_load``. They keep
  working after a restart, and each press checks the rules-data version: an answer made from
  other data gets a clear private "run /rule again" instead of a wrong page or silence.
- The close-combat wound chart of 000 (000:717-731) lacks its T10 column (INVENTORY ambiguity 4):
  it is filled from the complete copy in the shooting chapter (000:521-533), a correction in
  ``rules_data/overlay/corrections.json`` that says so, so S10 against T10 reads 4+ wherever it is looked up.
- A server's own warband lists (`/admin warbands`) are the server's, not the shared library's: a query
  naming one (its id, name or an alias) in that server answers with it, paged, before the library is
  asked; another server asking the same gets the library's answer.
- Engine calls that may take milliseconds (fuzzy lookup, full-text search) run in a thread;
  recent lookups are remembered (the library never changes within a process), and the
  library with its index is built once per process, in ``cog_load``. Suggestions for
  autocomplete and the server's edition (one SQLite row) are fast enough to run inline.
"""

from __future__ import annotations

import asyncio
import hashlib
import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui import rules_render as render
from cogs._ui.views import guarded, send_pages
from engine.editions import Edition, all_editions, get_edition
from engine.errors import MordheimError
from engine.rules import Entry, LookupResult, RulesLibrary, load_library
from engine.rules.questions import is_question
from engine.rules.warbands import house_list_entry

CUSTOM_ID_LIMIT = 100
SELECT_LIMIT = 25
SEARCH_LIMIT = 10
QUERY_MAX = 200
LOOKUP_CACHE_SIZE = 512

STALE_TEXT = "This answer is from an older version of the rules data; run /rule (or /rules search) again."

EDITION_CHOICES = [app_commands.Choice(name=e.name[:100], value=e.id) for e in all_editions()]


class StaleAnswer(MordheimError):
    """A button or menu made from other rules data (or in a format this version doesn't read)."""

    def __init__(self) -> None:
        super().__init__(STALE_TEXT)


# ---------------------------------------------------------------- custom ids


def entry_ref(entry_id: str, room: int = CUSTOM_ID_LIMIT) -> str:
    """The entry id itself, or ``#`` and a short hash when the id does not fit in ``room``."""
    return entry_id if len(entry_id) <= room else "#" + _short_hash(entry_id)


def _short_hash(entry_id: str) -> str:
    return hashlib.sha1(entry_id.encode()).hexdigest()[:12]


def _rules_cog(interaction: discord.Interaction) -> "Rules":
    cog = interaction.client.get_cog("Rules")
    if cog is None or cog.library is None:  # pragma: no cover - the items are removed with the cog
        raise StaleAnswer()
    return cog


def _fields(rest: str, n: int) -> list[str]:
    """``rest`` split into exactly ``n`` fields (the last may contain ':'), else stale."""
    parts = rest.split(":", n - 1)
    if len(parts) != n or not all(parts):
        raise StaleAnswer()
    return parts


class PageButton(discord.ui.DynamicItem[discord.ui.Button], template=r"rule:page:(?P<rest>.*)"):
    """Previous/next page of a public answer: ``rule:page:<version>:<edition>:<page>:<entry>``."""

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._turn)

    async def _turn(self, interaction: discord.Interaction) -> None:
        cog = _rules_cog(interaction)
        version, edition, page, ref = _fields(self.item.custom_id.split(":", 2)[2], 4)
        cog.check_version(version)
        if not page.isdigit():
            raise StaleAnswer()
        entry = cog.resolve(ref)
        embed, view = cog.answer(entry, edition, int(page))
        await interaction.response.edit_message(embed=embed, view=view)


class OtherEditionsButton(discord.ui.DynamicItem[discord.ui.Button], template=r"rule:other:(?P<rest>.*)"):
    """The entry's counterparts in other editions, privately: ``rule:other:<version>:<edition>:<entry>``."""

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._show)

    async def _show(self, interaction: discord.Interaction) -> None:
        cog = _rules_cog(interaction)
        version, edition, ref = _fields(self.item.custom_id.split(":", 2)[2], 3)
        cog.check_version(version)
        entry = cog.resolve(ref)
        others = cog.library.counterparts(entry)
        if not others:
            raise MordheimError(f"{entry.title} has no counterpart in the other editions.")
        embed = render.other_editions_embed(entry, others)
        view = discord.ui.View(timeout=None)
        options = [(e, f"{render.edition_name(e.edition)}") for e, _ in [(entry, False), *others]]
        view.add_item(cog.open_select([(e, label) for e, label in options], "Read one edition in full"))
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


class _EntrySelect:
    """Shared by the menus: their values are entry refs; the custom_id carries version and edition."""

    item: discord.ui.Select

    def _chosen(self, interaction: discord.Interaction) -> tuple["Rules", Entry, str]:
        cog = _rules_cog(interaction)
        version, edition = _fields(self.item.custom_id.split(":", 2)[2], 2)
        cog.check_version(version)
        if not self.item.values:
            raise MordheimError("Choose an entry in the menu.")
        return cog, cog.resolve(self.item.values[0]), edition


class OpenSelect(_EntrySelect, discord.ui.DynamicItem[discord.ui.Select], template=r"rule:open:(?P<rest>.*)"):
    """Related entries or other editions: opens the chosen one privately, as a new message."""

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._open)

    async def _open(self, interaction: discord.Interaction) -> None:
        cog, entry, edition = self._chosen(interaction)
        embed, view = cog.answer(entry, edition, 0)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


class PickSelect(_EntrySelect, discord.ui.DynamicItem[discord.ui.Select], template=r"rule:pick:(?P<rest>.*)"):
    """"Did you mean" and search results: posts the chosen entry publicly, as /rule would."""

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._pick)

    async def _pick(self, interaction: discord.Interaction) -> None:
        cog, entry, edition = self._chosen(interaction)
        embed, view = cog.answer(entry, edition, 0)
        await interaction.response.send_message(embed=embed, view=view)


class UnknownRuleItem(discord.ui.DynamicItem[discord.ui.Button], template=r"rule:(?!(?:page|other|open|pick):)(?P<rest>.*)"):
    """Any other ``rule:`` component (made by an older version of this cog): say so, privately."""

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(discord.ui.Button(custom_id=item.custom_id))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._stale)

    async def _stale(self, interaction: discord.Interaction) -> None:
        raise StaleAnswer()


DYNAMIC_ITEMS = (PageButton, OtherEditionsButton, OpenSelect, PickSelect, UnknownRuleItem)


# ---------------------------------------------------------------- the cog


def may_name_a_house_list(result: LookupResult) -> bool:
    """Whether a lookup's answer leaves room for a server's own list of that name: none found, a
    warband list (a server may replace one), or a name matched only loosely ("Bandits of the Reik"
    is no bundled list). A rule named exactly, or a question answered, is the library's."""
    return result.entry is None or result.entry.kind == "warband" or result.score < 100


class Rules(commands.Cog):
    """Rules lookup and search over ``engine.rules``."""

    rules_group = app_commands.Group(name="rules", description="Search the text of the rules")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.library: RulesLibrary | None = None
        self._by_hash: dict[str, str] = {}
        self._ids: set[str] = set()
        self._lookups: dict[tuple[str, str], LookupResult] = {}

    async def cog_load(self) -> None:
        # Built once per process (the index too); in a thread so the event loop keeps going.
        self.library = await asyncio.to_thread(load_library)
        self._by_hash = {_short_hash(e.id): e.id for e in self.library.entries()}
        self._ids = set(self._by_hash.values())
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)

    # ------------------------------------------------------------ helpers the items use

    @property
    def version(self) -> str:
        """The data version as custom_ids carry it (8 hex digits is plenty to tell data apart)."""
        return self.library.version[:8]

    def check_version(self, version: str) -> None:
        if version != self.version:
            raise StaleAnswer()

    def resolve(self, ref: str) -> Entry:
        """The entry a custom_id or menu value names; stale if this data has no such entry."""
        entry_id = self._by_hash.get(ref[1:]) if ref.startswith("#") else ref
        try:
            return self.library.get(entry_id or "")
        except MordheimError:
            raise StaleAnswer() from None

    def note_for(self, entry: Entry, edition_id: str) -> str | None:
        """Why an entry of another edition answers (core borrows the 2005 weapons chapter, ...)."""
        try:
            edition = get_edition(edition_id)
        except MordheimError:
            return None
        if entry.edition != edition.id and edition.fallback == entry.edition:
            return self.library.fallback_note(entry, edition.id)
        return None

    def answer(self, entry: Entry, edition_id: str, page: int) -> tuple[discord.Embed, discord.ui.View]:
        """One page of an entry, with page buttons, related menu and other-editions button."""
        pages = render.entry_pages(entry)
        page = max(0, min(page, len(pages) - 1))
        embed = render.answer_embed(entry, pages[page], page, len(pages), self.note_for(entry, edition_id))
        view = discord.ui.View(timeout=None)  # only dynamic items: nothing is kept per message
        if len(pages) > 1:
            for label, target, disabled in (
                ("◀ Previous", max(0, page - 1), page == 0),
                ("Next ▶", min(len(pages) - 1, page + 1), page >= len(pages) - 1),
            ):
                view.add_item(PageButton(discord.ui.Button(
                    label=label, style=discord.ButtonStyle.secondary, disabled=disabled, row=0,
                    custom_id=self._custom_id(f"rule:page:{self.version}:{edition_id}:{target}:", entry.id),
                )))
        if any(differs for _, differs in self.library.counterparts(entry)):
            view.add_item(OtherEditionsButton(discord.ui.Button(
                label="Other editions", style=discord.ButtonStyle.primary, row=0,
                custom_id=self._custom_id(f"rule:other:{self.version}:{edition_id}:", entry.id),
            )))
        related = self.library.related(entry)
        if related:
            labelled = [(e, self.library.display_name(e)) for e in related]
            view.add_item(self.open_select(labelled, "Related rules", edition_id, row=1))
        return embed, view

    def open_select(self, entries: list[tuple[Entry, str]], placeholder: str, edition_id: str | None = None,
                    *, row: int | None = None) -> discord.ui.DynamicItem:
        edition_id = edition_id or entries[0][0].edition
        return OpenSelect(self._select(f"rule:open:{self.version}:{edition_id}", entries, placeholder, row))

    def pick_select(self, entries: list[tuple[Entry, str]], placeholder: str, edition_id: str) -> discord.ui.DynamicItem:
        return PickSelect(self._select(f"rule:pick:{self.version}:{edition_id}", entries, placeholder, None))

    def _select(self, custom_id: str, entries: list[tuple[Entry, str]], placeholder: str, row: int | None) -> discord.ui.Select:
        options, seen = [], set()
        for entry, label in entries:
            value = entry_ref(entry.id)
            if value in seen:
                continue
            seen.add(value)
            options.append(discord.SelectOption(
                label=render.clip(label, 100), value=value, description=render.clip(entry.section_path, 100)))
        return discord.ui.Select(custom_id=custom_id, placeholder=placeholder, options=options[:SELECT_LIMIT], row=row)

    @staticmethod
    def _custom_id(prefix: str, entry_id: str) -> str:
        custom_id = prefix + entry_ref(entry_id, CUSTOM_ID_LIMIT - len(prefix))
        assert len(custom_id) <= CUSTOM_ID_LIMIT, custom_id
        return custom_id

    def edition(self, interaction: discord.Interaction, requested: str | None = None) -> Edition:
        """The edition asked for, else the server's (NotFoundError for an unknown id).

        Read inline rather than through ``server_edition``'s thread: it is one indexed SQLite
        row (~15 µs), far less than the ~80 µs a thread hop costs, and it is always current."""
        if requested:
            return get_edition(requested)
        if interaction.guild_id is None or self.bot.settings is None:
            return get_edition(None)
        return get_edition(self.bot.settings.get(interaction.guild_id).edition_id)

    async def lookup(self, text: str, edition_id: str) -> LookupResult:
        """``library.lookup``, remembered for the last few hundred queries.

        A fuzzy or question lookup takes a few milliseconds, so a new one runs in a thread;
        the rules players ask about most (parry, flail, ...) come back from memory."""
        cache_key = (edition_id, " ".join(text.casefold().split()))
        result = self._lookups.get(cache_key)
        if result is None:
            # a title or alias is found in microseconds; only a ranked search leaves the loop
            result = self.library.lookup_exact(text, edition_id)
            if result is None:
                result = await asyncio.to_thread(self.library.lookup, text, edition_id)
            if len(self._lookups) >= LOOKUP_CACHE_SIZE:
                self._lookups.pop(next(iter(self._lookups)))  # oldest first
            self._lookups[cache_key] = result
        return result

    # ------------------------------------------------------------ commands

    @app_commands.command(name="rule", description="Look up a rule, weapon, item or spell")
    @app_commands.describe(
        query="A rule, weapon, item or spell name, or a short question (e.g. parry, flail)",
        edition="Which edition to read (default: this server's edition)",
    )
    @app_commands.choices(edition=EDITION_CHOICES)
    async def rule(self, interaction: discord.Interaction, query: app_commands.Range[str, 1, QUERY_MAX],
                   edition: str | None = None) -> None:
        ed = self.edition(interaction, edition)
        text = query.strip()
        if text in self._ids:
            entry = self.library.get(text)  # a value chosen from autocomplete
        else:
            result = await self.lookup(text, ed.id)
            if may_name_a_house_list(result) and await self._answered_by_house_list(interaction, text):
                return
            if result.entry is None:
                names = [(e, self.library.display_name(e)) for e, _ in result.suggestions]
                embed = render.did_you_mean_embed(text, [(n, e.section_path) for e, n in names], ed.id,
                                                  unknown=result.unknown, question=is_question(text),
                                                  unrecognised=result.unrecognised, elsewhere=result.elsewhere)
                names = [(e, f"{e.title} ({e.edition})") for e in result.elsewhere] + names
                if names:
                    view = discord.ui.View(timeout=None)
                    view.add_item(self.pick_select(names, "Open one of these", ed.id))
                    await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
                else:
                    await interaction.response.send_message(embed=embed, ephemeral=True)
                return
            entry = result.entry
        embed, view = self.answer(entry, ed.id, 0)
        await interaction.response.send_message(embed=embed, view=view)

    async def _answered_by_house_list(self, interaction: discord.Interaction, text: str) -> bool:
        """Answer with the server's own warband list named ``text`` (its id, name or an alias), paged,
        if it has one: a server's lists are its own, so the shared rules library cannot hold them.
        Read inline, as the server's edition is: the server's tables are kept in memory behind one
        indexed read of their version, less than a thread hop."""
        if interaction.guild_id is None:
            return False
        found = interaction.client.campaigns.house_list_named(interaction.guild_id, text)
        if found is None:
            return False
        entry = house_list_entry(*found)
        texts = render.entry_pages(entry)
        await send_pages(interaction, [render.answer_embed(entry, page, n, len(texts), None) for n, page in enumerate(texts)])
        return True

    @rule.autocomplete("query")
    async def rule_query_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            edition = self.edition(interaction, getattr(interaction.namespace, "edition", None)).id
        except MordheimError:
            edition = None  # suggest() falls back to the default edition
        return [
            app_commands.Choice(name=render.clip(name, 100), value=entry_id)
            for name, entry_id in self.library.suggest(current, edition, SELECT_LIMIT)
        ]

    @rules_group.command(name="search", description="Search the text of the rules; pick a section to read it")
    @app_commands.describe(
        text="Words to find, e.g. shoot into combat",
        edition="Which edition to search (default: this server's edition)",
    )
    @app_commands.choices(edition=EDITION_CHOICES)
    async def search(self, interaction: discord.Interaction, text: app_commands.Range[str, 1, QUERY_MAX],
                     edition: str | None = None) -> None:
        ed = self.edition(interaction, edition)
        hits = await asyncio.to_thread(self.library.search, text, ed.id, SEARCH_LIMIT)
        if not hits:
            await interaction.response.send_message(embed=render.no_hits_embed(text, ed.id), ephemeral=True)
            return
        names = [self.library.display_name(h.entry) for h in hits]
        embed = render.search_embed(text, hits, names, ed.id, self.library.corrections(text))
        view = discord.ui.View(timeout=None)
        view.add_item(self.pick_select([(h.entry, n) for h, n in zip(hits, names)], "Read one of these sections", ed.id))
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Rules(bot))
