"""Every command of the bot's tree, fed options a hostile or confused client could send (issue 19 §3).

For each command, as the owner of a seeded server (two warbands with heroes, henchmen and kit, a
battle between them; he has Manage Server) and as a stranger there, each example is one of:

- *typed*: every option a value that works (names that exist, a new name, numbers in range), so
  the call reaches the engine and usually succeeds;
- *one hostile option*: the same, but one option of its own type and hostile: any Unicode
  (control, formatting and reordering characters, lone surrogates), text as long as Discord
  allows, a name that only looks like one that exists, numbers far outside the declared range,
  a file that is junk or holds numbers Python cannot read;
- *all hostile*: every option so;
- *stale client*: one option of another type (a number where text goes, text where a number or a
  boolean goes), as a client still showing an older command sends it;
- *autocomplete*: the same options, one of them being typed.

Each call must be answered; none may log a bug (the tree's "Unhandled error", discord.py's own
error logs) or show the apology; a refusal (an error the tree answers, or a red reply) must be
private; and a refusal must change nothing stored: the row count of every table and the newest
ledger id are the same after it as before. An autocomplete must answer with choices (maybe none)
and change nothing.

The commands are those of the tree (a command added is fuzzed too). Derandomized: the same
examples every run, so CI is reproducible: 3 per command and member, about 400 calls. To hunt for more, ``MORDHEIM_FUZZ_EXAMPLES=50 MORDHEIM_FUZZ_RANDOM=1`` (new
examples each run); ``FUZZ_TALLY=file`` writes one line per call (how far the examples get).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import string
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.harness import ADMIN_PERMISSIONS, APPLICATION_COMMAND, AUTOCOMPLETE, Actor, Harness
from bot.option_types import leaf_options
from bot.tree import APOLOGY
from engine.rolls.record import record_for
from tests.conftest import make_bot

REPO = Path(__file__).resolve().parents[2]
GUILD = 4242
OWNER = Actor(user_id=11, guild_id=GUILD, name="owner", permissions=ADMIN_PERMISSIONS)
RIVAL = Actor(user_id=12, guild_id=GUILD, name="rival")
STRANGER = Actor(user_id=13, guild_id=GUILD, name="stranger")
EXAMPLES_PER_COMMAND = int(os.environ.get("MORDHEIM_FUZZ_EXAMPLES", "3"))
DERANDOMIZE = not os.environ.get("MORDHEIM_FUZZ_RANDOM")
# Rows kept for the buttons of an answer (a long refusal is paged too): the answer's own state, not the campaign's.
NOT_CAMPAIGN_DATA = {"kept_answers", "sqlite_sequence", "_sqlite_migrations"}

Opt = discord.AppCommandOptionType
CHANNEL_MESSAGE, DEFERRED, AUTOCOMPLETE_RESULT = 4, 5, 8  # interaction callback types
TYPE_CODE = {bool: Opt.boolean.value, int: Opt.integer.value, float: Opt.number.value, str: Opt.string.value}

# ---------------------------------------------------------------- values

# Any code point, lone surrogates, controls and formatting characters included, weighted towards the
# characters that have caused trouble elsewhere.
HOSTILE_CHARACTERS = "\x00\n\t\r\x1b\u200b\u200c\u200d\u200e\u200f\u202a\u202e\u2066\u2069\ufeff\u00ad\u2028\u2029" \
                     "\ud800\udfff\u0300\u20e3\uffff\U0010ffff\u00b2\u0663@#<>`*_~|/:=,[]{}\"'\\%"
ANY_TEXT = st.text(st.one_of(st.characters(codec=None, exclude_categories=()), st.sampled_from(HOSTILE_CHARACTERS)),
                   max_size=40)
LONG_TEXT = st.builds(lambda ch, n: ch * n, st.sampled_from(["W", "é", "\u200b", "9", "d6+", "/", " ", "WS"]),
                      st.sampled_from([65, 101, 201, 301, 1001, 2001, 6000]))
PLAIN_TEXT = st.text(string.ascii_letters + string.digits + " '-", min_size=1, max_size=24).filter(str.strip)
HUGE_NUMBERS = st.one_of(st.integers(-(10 ** 30), 10 ** 30), st.sampled_from([2 ** 63, -(2 ** 63) - 1, 2 ** 53 + 1, -1, 0]))
FLOATS = st.floats(allow_nan=False, allow_infinity=False)  # Discord's JSON has no NaN or Infinity

PROFILE = "4 3 3 3 3 1 3 1 7"
# Values that work (or nearly: a refusal with a reason is fine too), by option name.
KNOWN: dict[str, list[str]] = {
    "warband_type": ["Reiklanders", "Skaven", "Witch Hunters", "custom band"],
    "type": ["Mercenary Captain", "Champion", "Marksman", "Warrior", "Youngblood", "Verminkin"],
    "sword": ["Ogre Bodyguard", "Halfling Cook", "Warlock"],
    "item": ["Sword", "Dagger", "Crossbow", "Lucky Charm", "Elven cloak", "Halberd"],
    "profile": [PROFILE, "M4 WS3 BS3 S3 T3 W1 I3 A1 Ld7", "WS=4", "11 11 11 11 11 11 11 11 11"],
    "injury": ["roll", "Leg wound", "Dead", "16", "66", "Full recovery"],
    "attacker": ["Human", "Ogre", "Troll", PROFILE, "Otto: WS4 [sword, shield, frenzy]", "Human + Human + Human"],
    "defender": ["Human", "Giant Rat", "Rat Ogre", "WS4 S4 T3", "Human + Human"],
    "who": ["Human", "Ogre", PROFILE],
    "expression": ["2d6", "4d6kh3", "d66", "3d6 >= 4", "100d6", "1000000d1000000", "2d6 x 3"],
    "query": ["sword", "frenzy", "can a wizard wear armour", "2h sword"],
    "text": ["sword", "frenzy", "hello"],
    "rule": ["natural_6_always_hits", "one_critical_per_phase", "nonsense"],
    "date": ["2024-01-02", "2024-02-30", "yesterday", "0000-00-00"],
    "remove": ["reikland", "skaven", "nothing"],
    "skills": ["Mighty Blow", "Strongman, Step Aside"],
    "equipment": ["Sword, Dagger", "Crossbow"],
    "injuries": ["Leg wound", "Old battle wound"],
    "weapons": ["sword", "2h sword", "pistol, sword"],
    "armour": ["light armour, shield", "heavy armour"],
    "traits": ["frenzy", "hates, causes fear"],
    "scenario": ["Skirmish", "Wyrdstone Hunt"],
    "opponents": ["Orcs", "the Pit Fighters"],
}
for side in ("attacker", "defender"):
    for what in ("weapons", "armour", "equipment", "traits"):
        KNOWN[f"{side}_{what}"] = KNOWN[what]
NEW_NAMES = {"name", "new_name", "label", "reason", "notes"}  # options where fresh text works

# Options that name what is in the server when the call is made (``seeded_names``).
NAMED_NOW = ("warband", "opponent", "warrior", "hero", "new_name", "name", "attacker", "defender", "who")
LOOKS_LIKE = {"as written": lambda v: v, "upper case": str.upper, "zero-width space": lambda v: "\u200b" + v,
              "full-width": lambda v: v.translate({c: c + 0xFEE0 for c in range(0x21, 0x7F)}),
              "right-to-left": lambda v: "\u202e" + v}


class Existing:
    """The ``n``-th name of what is in the server when the call is made, written as ``looks``: the
    strategy is the same whatever the server holds, as hypothesis needs."""

    def __init__(self, option: str, n: int, looks: str) -> None:
        self.option, self.n, self.looks = option, n, looks

    def resolve(self, names: dict[str, list[str]]) -> str:
        pool = names.get(self.option) or ["nobody"]
        return LOOKS_LIKE[self.looks](pool[self.n % len(pool)])

    def __repr__(self) -> str:
        return f"Existing({self.option!r}, {self.n}, {self.looks!r})"


class Wrong:
    """A value of another type than the option's, as a client with an older command would send it."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"Wrong({self.value!r})"


class File:
    """An attachment's name and bytes; ``export`` is filled in at call time from a seeded warband."""

    def __init__(self, name: str, content: bytes = b"", export: str | None = None) -> None:
        self.name, self.content, self.export = name, content, export

    def __repr__(self) -> str:
        if self.export:
            return f"File(export of a warband as {self.export!r})"
        return f"File({self.name!r}, {self.content[:60]!r}{'...' if len(self.content) > 60 else ''})"


def _json_bytes(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


def _house_list(name: str) -> File:
    data = json.loads((REPO / "rules_data" / "warbands" / "lists" / "reikland.json").read_text(encoding="utf-8"))
    data.update(id="fuzz-" + "".join(c for c in name.lower() if c.isalnum())[:20], name=f"Fuzz {name}")
    return File("list.json", _json_bytes(data))


JSON_SCALARS = st.one_of(st.none(), st.booleans(), HUGE_NUMBERS, FLOATS, ANY_TEXT)
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                                   st.dictionaries(ANY_TEXT, inner, max_size=4)),
                           max_leaves=12)
GOOD_FILES = {
    "warband import": PLAIN_TEXT.map(lambda name: File("warband.json", export=name)),
    "admin warbands": PLAIN_TEXT.map(_house_list),
    "admin campaign": st.sampled_from([File("campaign.json", b"{}"), File("campaign.json", b'{"max_heroes": 5}')]),
}
HOSTILE_FILES = st.one_of(
    st.binary(max_size=300).map(lambda b: File("junk.bin", b)),
    JSON_VALUES.map(lambda v: File("data.json", _json_bytes(v))),
    st.sampled_from(["9" * 5000, "-" + "9" * 4301, "1e999", "NaN", "[" * 5000, '{"format": "mordheim-bot/warband"}'])
      .map(lambda s: File("numbers.json", s.encode())),
    st.builds(lambda warband, version: File("warband.json", _json_bytes(
        {"format": "mordheim-bot/warband", "version": version, "warband": warband, "warriors": []})),
        JSON_VALUES, st.one_of(st.sampled_from([1, 2]), HUGE_NUMBERS)),
)


def good_strategy(command: str, param: app_commands.Parameter, actor: Actor) -> st.SearchStrategy:
    """A value that works for this option (or is refused for a reason the member can act on)."""
    t = param.type
    if t is Opt.string:
        if param.choices:
            return st.sampled_from([c.value for c in param.choices])
        good: list[st.SearchStrategy] = []
        if param.name in KNOWN:
            good.append(st.sampled_from(KNOWN[param.name]))
        if param.name in NAMED_NOW:
            good.append(st.builds(Existing, st.just(param.name), st.integers(0, 63), st.just("as written")))
        if param.name in NEW_NAMES or not good:
            good.append(PLAIN_TEXT)
        return st.one_of(*good)
    if t in (Opt.integer, Opt.number):
        low = param.min_value if param.min_value is not None else 0
        high = param.max_value if param.max_value is not None else 100
        return st.integers(int(low), int(high)) if t is Opt.integer else st.floats(low, high)
    if t is Opt.boolean:
        return st.booleans()
    if t in (Opt.user, Opt.mentionable):
        return st.sampled_from([str(a.user_id) for a in (OWNER, RIVAL, STRANGER)])
    if t is Opt.channel:
        return st.just(str(actor.channel_id))
    if t is Opt.attachment:
        return GOOD_FILES.get(command, HOSTILE_FILES)
    return st.just("1")  # a role: the bot has no such option


def hostile_strategy(param: app_commands.Parameter) -> st.SearchStrategy:
    """A value of the option's own type that no client of good faith sends."""
    t = param.type
    if t is Opt.string:
        hostile = [ANY_TEXT, ANY_TEXT, LONG_TEXT]
        if param.name in NAMED_NOW:  # looks like a name that exists, and is not one
            hostile.append(st.builds(Existing, st.just(param.name), st.integers(0, 63),
                                     st.sampled_from(list(LOOKS_LIKE)[1:])))
        return st.one_of(*hostile)
    if t is Opt.integer:
        return HUGE_NUMBERS
    if t is Opt.number:
        return st.one_of(FLOATS, HUGE_NUMBERS)
    if t is Opt.boolean:
        return st.booleans()
    if t in (Opt.user, Opt.mentionable, Opt.channel):
        return st.sampled_from(["1", str(2 ** 63 - 1), str(2 ** 63), str(2 ** 64 - 1), "0" * 18 + "7"])
    if t is Opt.attachment:
        return HOSTILE_FILES
    return st.just("1")


def wrong_strategy(param: app_commands.Parameter) -> st.SearchStrategy:
    """A value of another type than the option's."""
    if param.type is Opt.string:
        wrong = st.one_of(HUGE_NUMBERS, FLOATS, st.booleans())
    elif param.type in (Opt.integer, Opt.number):
        wrong = st.one_of(ANY_TEXT, st.sampled_from(["12", "1e3", "", "\u0663"]), FLOATS.filter(lambda f: not f.is_integer()),
                          st.booleans())
    elif param.type is Opt.boolean:
        wrong = st.one_of(st.sampled_from(["yes", "true", "1", ""]), st.integers(0, 1), HUGE_NUMBERS)
    else:
        wrong = st.one_of(ANY_TEXT, HUGE_NUMBERS, st.booleans(), st.just("\u00b2"))
    return wrong.map(Wrong)


# ---------------------------------------------------------------- the server, and one call


class Server:
    """A seeded server and its bot, on a loop of the test's own (hypothesis drives the examples)."""

    def __init__(self, tmp_path) -> None:
        self.loop = asyncio.new_event_loop()
        self.harness = Harness(make_bot(tmp_path))
        self.run(self.harness.start())
        self.run(self.seed())
        # What the tree refused (a member's mistake, answered privately), whether it is drawn as a
        # red embed or, for a member who chose plain text, as text.
        self.refused: list[str] = []
        tree = self.harness.tree
        report = tree.report_error

        async def recording(interaction: discord.Interaction, error: BaseException) -> None:
            self.refused.append(str(error))
            await report(interaction, error)

        tree.report_error = recording  # type: ignore[method-assign]

    def run(self, work):
        return self.loop.run_until_complete(work)

    def close(self) -> None:
        self.run(self.harness.close())
        for task in asyncio.all_tasks(self.loop):  # views' timeouts
            task.cancel()
        self.run(asyncio.sleep(0))
        self.loop.close()

    async def ok(self, actor: Actor, path: str, **options: Any) -> None:
        res = await self.harness.command(path, actor, **options)
        assert not res.is_error, (path, options, res.text)

    async def seed(self) -> None:
        """Two warbands of two members with heroes, henchmen and kit, and a battle between them;
        put back before each call if an earlier call took them away (renamed, deleted)."""
        present = {s.name for s in self.harness.bot.campaigns.list_warbands(GUILD)}
        if "Reikland Reavers" not in present:
            await self.ok(OWNER, "warband create", name="Reikland Reavers", warband_type="Reiklanders")
            await self.ok(OWNER, "hire fighter", warband="Reikland Reavers", type="Mercenary Captain", name="Otto")
            await self.ok(OWNER, "hire fighter", warband="Reikland Reavers", type="Champion", name="Hans")
            await self.ok(OWNER, "hire fighter", warband="Reikland Reavers", type="Marksman", name="Eyes", count=2)
            await self.ok(OWNER, "trade buy", warband="Reikland Reavers", warrior="Otto", item="Sword")
        if "Skaven Pack" not in present:
            await self.ok(RIVAL, "warband create", name="Skaven Pack", warband_type="Skaven")
            await self.ok(RIVAL, "hire fighter", warband="Skaven Pack", type="Assassin Adept", name="Skritt")
            await self.ok(RIVAL, "hire fighter", warband="Skaven Pack", type="Verminkin", name="Claws", count=3)
            await self.ok(OWNER, "battle record", warband="Reikland Reavers", result="win", opponent="Skaven Pack")

    def reply_in(self, actor: Actor, *, plain_text: bool) -> None:
        """The member's reply style for the next call (earlier calls may have changed it, and the
        server's): plain text, or embeds. A refusal in plain text is seen only through the tree."""
        prefs = self.harness.bot.preferences
        prefs.set_server_plain_text(GUILD, OWNER.user_id, True, False)
        prefs.set_member_plain_text(actor.user_id, plain_text)

    def names(self) -> dict[str, list[str]]:
        """The names of what is in the server now: warbands, warriors, and Warband/Warrior paths."""
        campaigns = self.harness.bot.campaigns
        bands = sorted(s.name for s in campaigns.list_warbands(GUILD))
        warriors, paths = [], []
        for band in bands:
            for w in campaigns.get_warband(GUILD, band).warriors:
                warriors.append(w.name)
                paths.append(f"{band}/{w.name}")
        names = {"warband": bands, "opponent": bands, "hero": warriors, "warrior": warriors + paths,
                 "name": bands + warriors, "new_name": bands + warriors}
        for option in ("attacker", "defender", "who"):
            names[option] = paths
        return names

    def resolve(self, value: Any, names: dict[str, list[str]]) -> Any:
        if isinstance(value, Existing):
            return value.resolve(names)
        if isinstance(value, File) and value.export:
            data = self.harness.bot.campaigns.export_warband(GUILD, names["warband"][0])
            data["warband"]["name"] = value.export
            return File("warband.json", _json_bytes(data))
        return value

    def fingerprint(self) -> dict[str, int]:
        record_for(self.harness.bot.store).flush()  # the rolls of earlier calls, which the bot writes every second
        with self.harness.bot.store.read() as c:
            tables = c.column("SELECT name FROM sqlite_master WHERE type = 'table'")
            counts = {t: c.scalar(f"SELECT count(*) FROM {t}") for t in tables if t not in NOT_CAMPAIGN_DATA}
            counts["newest ledger id"] = c.scalar("SELECT max(id) FROM ledger") or 0
        return counts


def payload(h: Harness, command: app_commands.Command, options: dict[str, Any], actor: Actor, *,
            focused: str | None = None) -> dict[str, Any]:
    """The interaction as a (possibly stale or hostile) client sends it: each option's value and type
    code as given, not as Discord's client would have checked them."""
    path = command.qualified_name.split()
    params = {p.display_name: p for p in command.parameters}
    stand_ins = {}
    for name, value in options.items():  # valid values first, so the harness builds the payload's shape
        p = params[name]
        if name == focused:
            stand_ins[name] = ""
        elif p.type is Opt.attachment:
            stand_ins[name] = (value.name, value.content) if isinstance(value, File) else ("x.json", b"{}")
        elif p.type in (Opt.user, Opt.mentionable, Opt.channel):
            stand_ins[name] = "1"
        elif p.choices:
            stand_ins[name] = p.choices[0].value
        else:
            stand_ins[name] = {Opt.string: "x", Opt.integer: 1, Opt.number: 1.0, Opt.boolean: True}[p.type]
    data = h.command_data(path, stand_ins, focused=focused, actor_guild=actor.guild_id)
    for option in leaf_options(data):
        value, p = options[option["name"]], params[option["name"]]
        if isinstance(value, Wrong):
            option["value"], option["type"] = value.value, TYPE_CODE.get(type(value.value), Opt.string.value)
        elif option.get("focused"):
            option["value"] = value if isinstance(value, str) else str(value)
        elif p.type in (Opt.user, Opt.mentionable, Opt.channel):
            option["value"] = value
            for kind in ("users", "channels"):  # what Discord resolves travels with the id
                seen = data.get("resolved", {}).get(kind, {})
                if "1" in seen:
                    seen[value] = {**seen.pop("1"), "id": value}
        elif p.type is not Opt.attachment:
            option["value"] = value
    return h._base_payload(AUTOCOMPLETE if focused else APPLICATION_COMMAND, data, actor)


def bugs_logged(records: list[logging.LogRecord]) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in records if r.levelno >= logging.ERROR or r.exc_info]


def red(sent) -> bool:
    return any(e.get("color") == discord.Colour.red().value for e in sent.data.get("embeds") or [])


def check_call(server: Server, command: app_commands.Command, options: dict[str, Any], actor: Actor,
               focused: str | None, caplog) -> None:
    """One interaction, and what every interaction must do (the module's docstring)."""
    h = server.harness
    line = h.bot._connection.line
    while line.too_old < 1.0:  # an earlier answer took long (a busy machine): the bot is shedding load, by design
        server.run(asyncio.sleep(0.1))
    before = server.fingerprint()
    caplog.clear()
    server.refused.clear()
    started = time.monotonic()
    with caplog.at_level(logging.INFO):
        res = server.run(h.dispatch(payload(h, command, options, actor, focused=focused), actor))
    took = time.monotonic() - started
    said = res.text
    assert not bugs_logged(caplog.records), bugs_logged(caplog.records)
    assert APOLOGY not in said, said
    refused = bool(server.refused) or any(red(s) for s in res.sent)
    tally(command.qualified_name, actor, "autocomplete" if focused else "refused" if refused else "answered", said, took)
    if focused:
        assert [s.callback_type for s in res.sent] == [AUTOCOMPLETE_RESULT], res.to_json()  # choices, maybe none
        assert server.fingerprint() == before, "an autocomplete changed stored data"
        return
    assert res.sent, "the bot did not answer"
    if refused:
        shown = [s for s in res.sent if s.kind == "followup" or s.callback_type in (CHANNEL_MESSAGE, DEFERRED)]
        deleted = any(s.kind == "delete_original" for s in res.sent)
        public = [s for s in shown if not s.ephemeral and not (s.callback_type == DEFERRED and deleted)]
        assert not public, ("a refusal shown to everyone", res.to_json())
        assert server.fingerprint() == before, ("a refusal changed stored data", server.refused or said)


def tally(path: str, actor: Actor, kind: str, said: str, took: float) -> None:
    """With FUZZ_TALLY=file, one line per call: to see how far the examples get when changing them."""
    if os.environ.get("FUZZ_TALLY"):
        with open(os.environ["FUZZ_TALLY"], "a", encoding="utf-8") as f:
            f.write(f"{path}\t{actor.name}\t{kind}\t{took:.3f}\t{said[:100]!r}\n")


def commands(tree: app_commands.CommandTree) -> list[app_commands.Command]:
    return sorted((c for c in tree.walk_commands() if isinstance(c, app_commands.Command)), key=lambda c: c.qualified_name)


# ---------------------------------------------------------------- the tests

HOW = ["typed", "one hostile option", "one hostile option", "one hostile option", "all hostile", "stale client"]


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("fuzz"))
    yield s
    s.close()


def test_the_fuzz_walks_the_whole_tree(server):
    """The walk finds every command, subcommands of groups included (a command added is fuzzed too)."""
    walked = {c.qualified_name for c in commands(server.harness.tree)}
    assert len(walked) >= 60 and {"roll", "odds", "warband import", "warrior edit", "admin campaign", "luck show"} <= walked


def fuzz(server: Server, command: app_commands.Command, actor: Actor, caplog) -> None:
    """``EXAMPLES_PER_COMMAND`` calls of ``command`` by ``actor``, each checked (``check_call``)."""
    params = {p.display_name: p for p in command.parameters}
    path = command.qualified_name

    @settings(max_examples=EXAMPLES_PER_COMMAND, deadline=None, derandomize=DERANDOMIZE, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def call(data):
        server.run(server.seed())
        sent = [p.display_name for p in command.parameters if p.required or data.draw(st.booleans(), label=f"send {p.display_name}")]
        focusable = [name for name in sent if params[name].autocomplete]
        how = data.draw(st.sampled_from(HOW + ["autocomplete"] * bool(focusable)), label="how")
        odd = data.draw(st.sampled_from(sent), label="odd one") if sent else None
        options: dict[str, Any] = {}
        for name in sent:
            hostile = how == "all hostile" or (how == "one hostile option" and name == odd)
            strategy = hostile_strategy(params[name]) if hostile else good_strategy(path, params[name], actor)
            options[name] = data.draw(strategy, label=name)
        if how == "stale client" and odd:
            options[odd] = data.draw(wrong_strategy(params[odd]), label=f"{odd}, another type")
        focused = data.draw(st.sampled_from(focusable), label="typing") if how == "autocomplete" else None
        server.reply_in(actor, plain_text=data.draw(st.sampled_from([False, False, False, True]), label="plain text"))
        names = server.names()
        options = {name: server.resolve(value, names) for name, value in options.items()}
        check_call(server, command, options, actor, focused, caplog)

    call()


@pytest.mark.parametrize("actor", [OWNER, STRANGER], ids=["owner", "stranger"])
def test_hostile_options_are_answered_or_refused_cleanly(server, caplog, actor):
    """Every command of the tree, each failing one reported with hypothesis's smallest example."""
    failures = []
    for command in commands(server.harness.tree):
        try:
            fuzz(server, command, actor, caplog)
        except Exception as exc:  # noqa: BLE001 - each command's failure is reported, after all of them ran
            notes = "\n".join(getattr(exc, "__notes__", ()))
            failures.append(f"/{command.qualified_name} as the {actor.name}: {type(exc).__name__}: {str(exc)[:1500]}\n{notes}")
    assert not failures, f"{len(failures)} command(s) failed:\n\n" + "\n\n".join(failures)


def test_the_checks_catch_a_bug_a_public_refusal_and_a_refusal_that_wrote(server, caplog):
    """The checks above can fail: planted commands that break each rule are caught."""
    from engine.errors import MordheimError

    async def bug(interaction: discord.Interaction, text: str) -> None:
        raise RuntimeError("a bug")

    async def public_refusal(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message(embed=discord.Embed(description="no", colour=discord.Colour.red()))

    async def refusal_that_wrote(interaction: discord.Interaction, text: str) -> None:
        await asyncio.to_thread(server.harness.bot.campaigns.create_warband, GUILD, OWNER.user_id, text, "Skaven")
        raise MordheimError("refused, but after writing")

    server.reply_in(OWNER, plain_text=False)  # a red reply drawn as an embed: seen as a refusal by its colour
    planted = {"bug": (bug, "Unhandled error"), "public": (public_refusal, "a refusal shown to everyone"),
               "wrote": (refusal_that_wrote, "a refusal changed stored data")}
    tree = server.harness.tree
    for name, (callback, caught) in planted.items():
        command = app_commands.Command(name=f"planted-{name}", description="breaks a rule", callback=callback)
        tree.add_command(command)
        try:
            with pytest.raises(AssertionError, match=caught):
                check_call(server, command, {"text": f"Planted {name}"}, OWNER, None, caplog)
        finally:
            tree.remove_command(command.name)
