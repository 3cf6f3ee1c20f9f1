"""The interaction harness: Discord-shaped payloads in, what discord.py would send out.

Builds real ``discord.Interaction`` objects from payloads shaped as in Discord's API
documentation (application command, autocomplete, message component, modal submit) and
hands them to the bot's real ``ConnectionState``, so they travel the same path as on a
live bot: ``CommandTree`` for commands and autocomplete, the ``ViewStore`` for buttons,
selects and modals. Nothing reaches the network: the webhook adapter discord.py sends
interaction responses through is replaced by one that records every request as the JSON
discord.py built for it and answers as Discord would.

The console and the tests both drive commands through this module; there is no second
implementation of any command.
"""

from __future__ import annotations

import asyncio
import contextvars
import datetime as _dt
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.captured import CALLBACK_NAMES, EPHEMERAL, Message, Result, Sent, embed_text  # noqa: F401 (kept importable from the harness)
from bot.state import MordheimState

APPLICATION_ID = 900000000000000001
DEFAULT_GUILD_ID = 100000000000000001
DEFAULT_CHANNEL_ID = 200000000000000001
DEFAULT_USER_ID = 300000000000000001


# Interaction types (Discord API: Interaction Object > Interaction Type)
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5

# Option types (Discord API: Application Command Option Type)
OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP, OPT_STRING, OPT_INTEGER, OPT_BOOLEAN = 1, 2, 3, 4, 5
OPT_USER, OPT_CHANNEL, OPT_ROLE, OPT_MENTIONABLE, OPT_NUMBER, OPT_ATTACHMENT = 6, 7, 8, 9, 10, 11

# The permissions of an ordinary member, and of one with Manage Server.
MEMBER_PERMISSIONS = discord.Permissions(send_messages=True, view_channel=True, read_message_history=True, use_application_commands=True)
ADMIN_PERMISSIONS = discord.Permissions(MEMBER_PERMISSIONS.value | discord.Permissions(manage_guild=True).value)


class HarnessInputError(Exception):
    """The payload could not have come from Discord (unknown option, missing required option,
    a value Discord's client would refuse). The console shows this as Discord's own refusal."""


@dataclass
class Actor:
    """Who sends an interaction, and from where. ``guild_id`` None means a direct message."""

    user_id: int = DEFAULT_USER_ID
    guild_id: int | None = DEFAULT_GUILD_ID
    channel_id: int = DEFAULT_CHANNEL_ID
    name: str = "tester"
    permissions: discord.Permissions = field(default_factory=lambda: MEMBER_PERMISSIONS)


class Snowflakes:
    """Ids shaped like Discord's: the time they were made (the bot drops an interaction whose id
    says it is too old to answer), then a counter."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def __iter__(self) -> Snowflakes:
        return self

    def __next__(self) -> int:
        return discord.utils.time_snowflake(discord.utils.utcnow()) | (next(self._counter) & 0x3FFFFF)


class _RecordingAdapter(AsyncWebhookAdapter):
    """Stands in for Discord's HTTP API: records each request and answers as Discord would."""

    def __init__(self, harness: Harness, sink: list[Sent], actor: Actor, interaction_id: int, token: str) -> None:
        super().__init__()
        self.harness = harness
        self.sink = sink
        self.actor = actor
        self.interaction_id = interaction_id
        self.token = token

    async def request(self, route, session=None, *, payload=None, multipart=None, files=None, params=None, **_: Any):
        body = payload
        attachments: list[dict[str, Any]] = []
        if multipart:
            for part in multipart:
                if part.get("name") == "payload_json":
                    body = json.loads(part["value"])
                else:
                    value = part.get("value")
                    size = len(value) if isinstance(value, (bytes, bytearray)) else None
                    if hasattr(value, "getbuffer"):
                        size = len(value.getbuffer())
                    attachments.append({"field": part.get("name"), "filename": part.get("filename"), "size": size})
        if files:
            for i, f in enumerate(files):
                if i < len(attachments):
                    try:
                        f.reset(seek=0)
                        attachments[i]["content"] = f.fp.read()
                        f.reset(seek=0)
                    except Exception:  # noqa: BLE001 - a file we can't reread is still recorded by name
                        pass
        # JSON-safe copies; bytes stay only in Message.files for tests that want to read them
        recorded_files = [{k: v for k, v in a.items() if k != "content"} for a in attachments]
        return self.harness._answer(self, route.method, route.path, route, body, recorded_files, attachments)


class Harness:
    """Drives a bot's real ``CommandTree`` and views with Discord-shaped payloads.

    Use as ``async with Harness(bot) as h:`` (runs ``setup_hook``; closes the bot after).
    """

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self._ids = Snowflakes()
        self.messages: dict[int, Message] = {}
        self._original: dict[str, int] = {}  # interaction token -> original response message id
        self._interaction_message: dict[int, int] = {}  # component interaction id -> its message id
        self._attachments: dict[str, bytes] = {}  # attachment url -> bytes, served as Discord's CDN
        self._started = False

    # ----- lifecycle -------------------------------------------------------------------

    async def start(self) -> Harness:
        if not self._started:
            await self.bot._async_setup_hook()
            self.bot.http.get_from_cdn = self._get_from_cdn  # attachments are served from memory
            self.bot.http.request = self._bot_request  # the bot's own REST calls, e.g. posting to a channel
            state = self.bot._connection
            if state.user is None:  # what READY would have told us after logging in
                state.user = discord.ClientUser(state=state, data={
                    "id": str(APPLICATION_ID), "username": "Mordheim", "discriminator": "0",
                    "avatar": None, "bot": True, "verified": True, "mfa_enabled": False,
                })
                state.application_id = APPLICATION_ID
            await self.bot.setup_hook()
            self._started = True
        return self

    async def close(self) -> None:
        if self._started:
            await self.bot.close()
            self._started = False

    async def __aenter__(self) -> Harness:
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    @property
    def tree(self) -> app_commands.CommandTree:
        return self.bot.tree

    def _snowflake(self) -> int:
        return next(self._ids)

    # ----- payload building ------------------------------------------------------------

    def _user_payload(self, actor: Actor) -> dict[str, Any]:
        return {"id": str(actor.user_id), "username": actor.name, "discriminator": "0", "global_name": actor.name, "avatar": None}

    def _base_payload(self, type_: int, data: dict[str, Any], actor: Actor, message: Message | None = None) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(self._snowflake()),
            "application_id": str(APPLICATION_ID),
            "type": type_,
            "data": data,
            "token": f"token-{self._snowflake()}",
            "version": 1,
            "locale": "en-GB",
            "attachment_size_limit": 10 * 1024 * 1024,
            "app_permissions": str(discord.Permissions(send_messages=True, embed_links=True, attach_files=True).value),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(actor.guild_id)} if actor.guild_id else {"1": str(actor.user_id)},
        }
        if actor.guild_id is not None:
            payload["guild_id"] = str(actor.guild_id)
            payload["guild_locale"] = "en-GB"
            payload["context"] = 0
            payload["channel"] = {
                "id": str(actor.channel_id), "type": 0, "guild_id": str(actor.guild_id), "name": "table",
                "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None,
                "rate_limit_per_user": 0, "topic": None, "last_message_id": None, "flags": 0,
            }
            payload["channel_id"] = str(actor.channel_id)
            payload["member"] = {
                "user": self._user_payload(actor),
                "roles": [],
                "joined_at": "2024-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
                "permissions": str(actor.permissions.value),
            }
        else:
            payload["context"] = 1
            payload["channel"] = {"id": str(actor.channel_id), "type": 1, "recipients": [self._user_payload(actor)]}
            payload["channel_id"] = str(actor.channel_id)
            payload["user"] = self._user_payload(actor)
        if message is not None:
            payload["message"] = self._message_payload(message)
        return payload

    def _message_payload(self, message: Message) -> dict[str, Any]:
        d = message.data
        return {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "type": 20 if message.interaction_user_id else 0,
            "content": d.get("content") or "",
            "author": {"id": str(APPLICATION_ID), "username": "Mordheim", "discriminator": "0", "avatar": None, "bot": True},
            "attachments": [
                {"id": str(i + 1), "filename": f.get("filename") or "file", "size": f.get("size") or 0, "url": "https://example.invalid/", "proxy_url": "https://example.invalid/"}
                for i, f in enumerate(message.files)
            ],
            "embeds": d.get("embeds") or [],
            "components": d.get("components") or [],
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
            "timestamp": _dt.datetime.now(_dt.timezone.utc).isoformat(),
            "edited_timestamp": None,
            "flags": d.get("flags") or 0,
        }

    def find_command(self, path: list[str]) -> app_commands.Command | app_commands.Group:
        """The command (or group) at ``path``, e.g. ``["warband", "show"]``."""
        if not path:
            raise HarnessInputError("No command given.")
        cmd: Any = self.tree.get_command(path[0])
        if cmd is None:
            known = ", ".join(sorted("/" + c.name for c in self.tree.get_commands()))
            raise HarnessInputError(f"There is no command /{path[0]}. Commands: {known}")
        for i, name in enumerate(path[1:], start=1):
            if not isinstance(cmd, app_commands.Group):
                raise HarnessInputError(f"/{' '.join(path[:i])} has no subcommands.")
            sub = cmd.get_command(name)
            if sub is None:
                subs = ", ".join(c.name for c in cmd.commands)
                raise HarnessInputError(f"/{' '.join(path[:i])} has no subcommand '{name}'. Choose one of: {subs}")
            cmd = sub
        return cmd

    def _convert(self, param: app_commands.Parameter, value: Any) -> Any:
        """A value as Discord would send it for this option type, checked as Discord's client checks it."""
        t = param.type
        name = param.display_name
        if t is discord.AppCommandOptionType.string:
            value = str(value)
            # for string options discord.py keeps min_length/max_length in min_value/max_value
            if param.max_value is not None and len(value) > param.max_value:
                raise HarnessInputError(f"Option '{name}' takes at most {param.max_value} characters.")
            if param.min_value is not None and len(value) < param.min_value:
                raise HarnessInputError(f"Option '{name}' needs at least {param.min_value} characters.")
            if len(value) > 6000:
                raise HarnessInputError(f"Option '{name}' is longer than Discord allows (6000 characters).")
        elif t is discord.AppCommandOptionType.integer:
            try:
                value = int(str(value).strip())
            except ValueError:
                raise HarnessInputError(f"Option '{name}' must be a whole number.") from None
        elif t is discord.AppCommandOptionType.number:
            try:
                value = float(str(value).strip())
            except ValueError:
                raise HarnessInputError(f"Option '{name}' must be a number.") from None
        elif t is discord.AppCommandOptionType.boolean:
            if isinstance(value, str):
                low = value.strip().lower()
                if low not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
                    raise HarnessInputError(f"Option '{name}' must be true or false.")
                value = low in ("true", "yes", "1", "on")
            value = bool(value)
        elif t in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
            text = str(value).strip("<@!>")
            if not text.isdigit():
                raise HarnessInputError(f"Option '{name}' must be a user id or mention.")
            value = text
        elif t is discord.AppCommandOptionType.channel:
            text = str(value).strip("<#>")
            if not text.isdigit():
                raise HarnessInputError(f"Option '{name}' must be a channel id or mention.")
            value = text
        elif t is discord.AppCommandOptionType.attachment:
            return value  # handled by the caller (needs 'resolved')
        if t in (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number):
            if param.min_value is not None and value < param.min_value:
                raise HarnessInputError(f"Option '{name}' must be at least {param.min_value}.")
            if param.max_value is not None and value > param.max_value:
                raise HarnessInputError(f"Option '{name}' must be at most {param.max_value}.")
        if param.choices:
            allowed = [c.value for c in param.choices]
            if value not in allowed:
                by_name = {c.name.lower(): c.value for c in param.choices}
                if isinstance(value, str) and value.lower() in by_name:
                    value = by_name[value.lower()]
                else:
                    raise HarnessInputError(
                        f"Option '{name}' must be one of: " + ", ".join(str(c.value) for c in param.choices)
                    )
        return value

    def command_data(
        self, path: list[str], options: dict[str, Any], *, focused: str | None = None, actor_guild: int | None = None
    ) -> dict[str, Any]:
        """The ``data`` of an application-command (or autocomplete) interaction."""
        cmd = self.find_command(path)
        if isinstance(cmd, app_commands.Group):
            subs = ", ".join(c.name for c in cmd.commands)
            raise HarnessInputError(f"/{' '.join(path)} needs a subcommand: {subs}")
        params = {p.display_name: p for p in cmd.parameters}
        unknown = [k for k in options if k not in params]
        if unknown:
            raise HarnessInputError(
                f"/{' '.join(path)} has no option '{unknown[0]}'. Options: " + (", ".join(params) or "none")
            )
        opts: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        for p in cmd.parameters:
            if p.display_name not in options:
                if p.required and focused is None:
                    raise HarnessInputError(f"/{' '.join(path)} needs the option '{p.display_name}'.")
                continue
            raw = options[p.display_name]
            if p.display_name == focused:
                value = "" if raw is None else str(raw) if p.type is discord.AppCommandOptionType.string else raw
                opts.append({"name": p.display_name, "type": p.type.value, "value": value, "focused": True})
                continue
            if p.type is discord.AppCommandOptionType.attachment:
                att_id, att = self._attachment(raw)
                resolved.setdefault("attachments", {})[att_id] = att
                opts.append({"name": p.display_name, "type": p.type.value, "value": att_id})
                continue
            value = self._convert(p, raw)
            if p.type in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
                resolved.setdefault("users", {})[value] = {"id": value, "username": f"user{value[-4:]}", "discriminator": "0", "avatar": None}
            if p.type is discord.AppCommandOptionType.channel:  # a text channel of the actor's server
                resolved.setdefault("channels", {})[value] = {
                    "id": value, "type": 0, "name": f"channel-{value[-4:]}", "permissions": str(MEMBER_PERMISSIONS.value),
                    "guild_id": str(actor_guild) if actor_guild else None, "parent_id": None,
                }
            opts.append({"name": p.display_name, "type": p.type.value, "value": value})
        # wrap in subcommand / group options, innermost first
        root = self.find_command(path[:1])
        data: dict[str, Any] = {"id": str(abs(hash(root.name)) % 10**18), "name": root.name, "type": 1}
        if len(path) == 3:
            data["options"] = [{"name": path[1], "type": OPT_SUB_COMMAND_GROUP, "options": [{"name": path[2], "type": OPT_SUB_COMMAND, "options": opts}]}]
        elif len(path) == 2:
            data["options"] = [{"name": path[1], "type": OPT_SUB_COMMAND, "options": opts}]
        else:
            data["options"] = opts
        if resolved:
            data["resolved"] = resolved
        return data

    def _attachment(self, raw: Any) -> tuple[str, dict[str, Any]]:
        """An attachment option: ``raw`` is ``(filename, bytes)``; its bytes are served by ``read()``."""
        if not (isinstance(raw, tuple) and len(raw) == 2):
            raise HarnessInputError("An attachment option needs a file (filename, bytes).")
        filename, content = raw
        att_id = str(self._snowflake())
        url = f"harness://attachments/{att_id}/{filename}"
        self._attachments[url] = bytes(content)
        return att_id, {"id": att_id, "filename": filename, "size": len(content), "url": url, "proxy_url": url, "content_type": "application/json"}

    # ----- dispatch ----------------------------------------------------------------------

    async def dispatch(self, payload: dict[str, Any], actor: Actor) -> Result:
        """Hand one interaction payload to the bot and wait until it has finished answering."""
        await self.start()
        sink: list[Sent] = []
        interaction_id = int(payload.get("id") or 0)  # a test may send a frame without one
        if "message" in payload:
            self._interaction_message[interaction_id] = int(payload["message"]["id"])
        adapter = _RecordingAdapter(self, sink, actor, interaction_id, payload.get("token") or "")
        state = self.bot._connection

        def enter() -> Any:
            async_context.set(adapter)
            if getattr(state.parse_interaction_create, "__func__", None) is MordheimState.parse_interaction_create:
                return state.parse_interaction_create(payload)  # done once the interaction is answered
            before = asyncio.all_tasks()  # discord.py's own entry (a benchmark's reference) says nothing
            state.parse_interaction_create(payload)
            return asyncio.all_tasks() - before

        answered = contextvars.copy_context().run(enter)
        if isinstance(answered, asyncio.Future):
            await answered
        elif answered:
            await asyncio.gather(*answered, return_exceptions=True)
        return Result(sent=sink, interaction_id=interaction_id)

    async def command(self, path: str | list[str], actor: Actor | None = None, /, **options: Any) -> Result:
        """Invoke a slash command: ``await h.command("roll", expression="2d6")``."""
        actor = actor or Actor()
        parts = path.split() if isinstance(path, str) else list(path)
        data = self.command_data(parts, options, actor_guild=actor.guild_id)
        return await self.dispatch(self._base_payload(APPLICATION_COMMAND, data, actor), actor)

    async def autocomplete(self, path: str | list[str], focused: str, actor: Actor | None = None, /, **options: Any) -> Result:
        """Ask for autocomplete choices while ``focused`` is being typed."""
        actor = actor or Actor()
        parts = path.split() if isinstance(path, str) else list(path)
        command = self.find_command(parts)
        param = next((p for p in getattr(command, "parameters", []) if p.display_name == focused), None)
        if param is not None and not param.autocomplete:
            # Discord's client offers fixed choices itself and sends no autocomplete for them
            raise HarnessInputError(f"`{focused}` has no autocomplete: Discord offers {fixed_values(param)}.")
        options.setdefault(focused, "")
        data = self.command_data(parts, options, focused=focused)
        return await self.dispatch(self._base_payload(AUTOCOMPLETE, data, actor), actor)

    def _component(self, message_id: int, custom_id: str) -> dict[str, Any]:
        message = self.messages.get(message_id)
        if message is None:
            raise HarnessInputError(f"There is no message {message_id}.")
        for c in message.components():
            if c.get("custom_id") == custom_id:
                return c
        raise HarnessInputError(f"Message {message_id} has no component '{custom_id}'.")

    async def click(self, message_id: int, custom_id: str, actor: Actor | None = None) -> Result:
        """Press a button on a message the bot sent."""
        actor = actor or Actor()
        comp = self._component(message_id, custom_id)
        if comp.get("disabled"):
            raise HarnessInputError("That button is disabled; Discord would not let you press it.")
        data = {"custom_id": custom_id, "component_type": comp.get("type", 2)}
        return await self.dispatch(self._base_payload(MESSAGE_COMPONENT, data, actor, self.messages[message_id]), actor)

    async def select(self, message_id: int, custom_id: str, values: list[str], actor: Actor | None = None) -> Result:
        """Choose options in a select menu on a message the bot sent."""
        actor = actor or Actor()
        comp = self._component(message_id, custom_id)
        if comp.get("disabled"):
            raise HarnessInputError("That menu is disabled; Discord would not let you use it.")
        allowed = {o["value"] for o in comp.get("options") or []}
        if comp.get("type") == 3 and any(v not in allowed for v in values):
            raise HarnessInputError("Choose among the menu's options (value, then its label): "
                                    + ", ".join(f"{o['value']} ({o.get('label', '')})" for o in comp.get("options") or []))
        data = {"custom_id": custom_id, "component_type": comp.get("type", 3), "values": list(values)}
        return await self.dispatch(self._base_payload(MESSAGE_COMPONENT, data, actor, self.messages[message_id]), actor)

    async def submit_modal(self, custom_id: str, fields: dict[str, str], actor: Actor | None = None, *, message_id: int | None = None) -> Result:
        """Submit a modal the bot opened, with ``fields`` as custom_id -> typed text."""
        actor = actor or Actor()
        rows = [{"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]} for k, v in fields.items()]
        data = {"custom_id": custom_id, "components": rows}
        message = self.messages.get(message_id) if message_id else None
        return await self.dispatch(self._base_payload(MODAL_SUBMIT, data, actor, message), actor)

    # ----- the pretend Discord ----------------------------------------------------------

    def _store_message(self, data: dict[str, Any], files: list[dict[str, Any]], actor: Actor) -> Message:
        msg = Message(
            id=self._snowflake(), channel_id=actor.channel_id, data=dict(data),
            files=files, interaction_user_id=actor.user_id,
        )
        self.messages[msg.id] = msg
        return msg

    def _update_message(self, message_id: int, data: dict[str, Any], files: list[dict[str, Any]]) -> Message:
        msg = self.messages[message_id]
        for key, value in data.items():
            if key == "attachments":
                continue
            msg.data[key] = value
        if files:
            msg.files = files
        return msg

    def _answer(self, adapter: _RecordingAdapter, method: str, path: str, route: Any, body, recorded_files, files) -> Any:
        """Record one request and return what Discord would have answered."""
        actor = adapter.actor
        token = adapter.token
        if path.endswith("/callback"):
            sent = Sent("callback", method, path, body, recorded_files)
            adapter.sink.append(sent)
            cb_type = (body or {}).get("type")
            data = (body or {}).get("data") or {}
            interaction = {"id": str(adapter.interaction_id), "type": cb_type}
            resource: dict[str, Any] | None = None
            if cb_type in (4, 5):
                msg = self._store_message(data if cb_type == 4 else {"content": "", "flags": data.get("flags", 0)}, files, actor)
                sent.message_id = msg.id
                self._original[token] = msg.id
                interaction["response_message_id"] = str(msg.id)
                interaction["response_message_loading"] = cb_type == 5
                interaction["response_message_ephemeral"] = bool((data.get("flags") or 0) & EPHEMERAL)
                resource = {"type": cb_type, "message": self._message_payload(msg)}
            elif cb_type == 7:
                msg_id = self._component_message_id(adapter)
                if msg_id is not None:
                    msg = self._update_message(msg_id, data, files)
                    sent.message_id = msg.id
                    self._original[token] = msg.id
                    interaction["response_message_id"] = str(msg.id)
                    resource = {"type": cb_type, "message": self._message_payload(msg)}
            elif cb_type == 6:
                msg_id = self._component_message_id(adapter)
                if msg_id is not None:
                    self._original[token] = msg_id
            answer: dict[str, Any] = {"interaction": interaction}
            if resource:
                answer["resource"] = resource
            return answer
        if "/messages/@original" in path:
            msg_id = self._original.get(token)
            if method == "PATCH":
                sent = Sent("edit_original", method, path, body, recorded_files, msg_id)
                adapter.sink.append(sent)
                if msg_id is None:
                    raise _not_found("Unknown interaction response")
                return self._message_payload(self._update_message(msg_id, body or {}, files))
            if method == "DELETE":
                adapter.sink.append(Sent("delete_original", method, path, None, [], msg_id))
                if msg_id is not None:
                    self.messages.pop(msg_id, None)
                return None
            if msg_id is None:
                raise _not_found("Unknown interaction response")
            return self._message_payload(self.messages[msg_id])
        if "/messages/" in path:
            tail = route.url.rstrip("/").rsplit("/", 1)[-1]
            msg_id = int(tail) if tail.isdigit() else None
            if method == "PATCH":
                adapter.sink.append(Sent("edit_message", method, path, body, recorded_files, msg_id))
                if msg_id not in self.messages:
                    raise _not_found("Unknown Message")
                return self._message_payload(self._update_message(msg_id, body or {}, files))
            if method == "DELETE":
                adapter.sink.append(Sent("delete_message", method, path, None, [], msg_id))
                self.messages.pop(msg_id, None)
                return None
            return self._message_payload(self.messages[msg_id])
        if method == "POST":  # follow-up message through the interaction webhook
            msg = self._store_message(body or {}, files, actor)
            adapter.sink.append(Sent("followup", method, path, body, recorded_files, msg.id))
            return self._message_payload(msg)
        adapter.sink.append(Sent("other", method, path, body, recorded_files))
        return None

    def _component_message_id(self, adapter: _RecordingAdapter) -> int | None:
        return self._interaction_message.get(adapter.interaction_id)

    async def _bot_request(self, route: Any, *, json: Any = None, files: Any = None, form: Any = None, **_: Any) -> Any:
        """The bot's own REST calls (not interaction responses). Posting a message to a channel
        (``channel_message``) and editing one of the bot's messages (``channel_edit``: the battle
        tracker's, or a post-battle sequence's losing its buttons; an unknown one is Discord's 404)
        are recorded with the interaction being answered, and answered as Discord would; any
        other call is refused, so a test notices a request it did not expect."""
        adapter = async_context.get()
        sink = adapter.sink if isinstance(adapter, _RecordingAdapter) else []
        if route.method == "POST" and route.path == "/channels/{channel_id}/messages":
            channel_id = int(route.channel_id)
            body = dict(json or {})
            msg = Message(id=self._snowflake(), channel_id=channel_id, data=body)
            self.messages[msg.id] = msg
            sink.append(Sent("channel_message", route.method, route.url, body, [], msg.id))
            return self._message_payload(msg)
        if route.method == "PATCH" and route.path == "/channels/{channel_id}/messages/{message_id}":
            tail = route.url.rstrip("/").rsplit("/", 1)[-1]
            msg_id = int(tail) if tail.isdigit() else None
            sink.append(Sent("channel_edit", route.method, route.url, dict(json or {}), [], msg_id))
            if msg_id not in self.messages:
                raise _not_found("Unknown Message")
            return self._message_payload(self._update_message(msg_id, dict(json or {}), []))
        sink.append(Sent("other", route.method, route.url, json, []))
        raise _not_found(f"The harness does not answer {route.method} {route.path}")

    async def _get_from_cdn(self, url: str) -> bytes:
        try:
            return self._attachments[url]
        except KeyError:
            raise _not_found("Unknown attachment") from None


def fixed_values(param: app_commands.Parameter) -> str:
    """What Discord's client offers for an option without autocomplete, in words."""
    if param.choices:
        return "its choices: " + ", ".join(str(c.value) for c in param.choices)
    if param.type is discord.AppCommandOptionType.boolean:
        return "its choices: true, false"
    return "no list: type the value"


def _not_found(text: str) -> discord.NotFound:
    class _Resp:
        status = 404
        reason = "Not Found"

    return discord.NotFound(_Resp(), {"message": text, "code": 10008})
