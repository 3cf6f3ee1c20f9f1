"""A loopback stand-in for Discord: the REST API and the gateway, as much as the bot uses.

Written from Discord's API documentation (Gateway: Hello, Identify, Ready, Resume, Heartbeat;
Interactions: Receiving and Responding; Application Commands: Bulk Overwrite). It checks the
bot token on every request, records what the bot sent, keeps each gateway session's events
so a RESUME replays what was missed, and can delay interaction callbacks (to catch the bot
with work in flight) or drop the connection without a close frame (a network fault).
As Discord does, it refuses an interaction's first answer after three seconds (10062 Unknown
interaction) and a second first answer (40060 already acknowledged), and its ids are
snowflakes that carry the time they were made. The bot reaches it through DISCORD_API_URL and
DISCORD_GATEWAY_URL; nothing else changes.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

APPLICATION_ID = 910000000000000001
GUILD_ID = 920000000000000001
CHANNEL_ID = 930000000000000001
USER_ID = 940000000000000001
EPHEMERAL = 1 << 6
DISCORD_EPOCH_MS = 1420070400000
ANSWER_WITHIN = 3.0  # seconds Discord waits for an interaction's first answer

HELLO, HEARTBEAT, IDENTIFY, RESUME, INVALID_SESSION, HEARTBEAT_ACK, DISPATCH = 10, 1, 2, 6, 9, 11, 0

BOT_USER = {"id": str(APPLICATION_ID), "username": "Mordheim", "discriminator": "0", "global_name": None,
            "avatar": None, "bot": True, "verified": True, "mfa_enabled": False, "flags": 0}
GUILD = {
    "id": str(GUILD_ID), "name": "Mordheim table", "icon": None, "splash": None, "discovery_splash": None,
    "owner_id": "940000000000000001", "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0,
    "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0, "application_id": None,
    "system_channel_id": None, "system_channel_flags": 0, "rules_channel_id": None, "vanity_url_code": None,
    "description": None, "banner": None, "premium_tier": 0, "preferred_locale": "en-GB",
    "public_updates_channel_id": None, "nsfw_level": 0, "premium_progress_bar_enabled": False, "features": [],
    "roles": [{"id": str(GUILD_ID), "name": "@everyone", "color": 0, "hoist": False, "position": 0,
               "permissions": str((1 << 11) | (1 << 10) | (1 << 31)), "managed": False, "mentionable": False, "flags": 0}],
    "emojis": [], "stickers": [], "joined_at": "2024-01-01T00:00:00+00:00", "large": False, "unavailable": False,
    "member_count": 2, "members": [], "voice_states": [], "presences": [], "threads": [], "stage_instances": [],
    "guild_scheduled_events": [], "soundboard_sounds": [],
    "channels": [{"id": "930000000000000001", "type": 0, "name": "table", "position": 0, "permission_overwrites": [],
                  "nsfw": False, "parent_id": None, "flags": 0, "topic": None, "last_message_id": None,
                  "rate_limit_per_user": 0}],
}
MEMBER_USER = {"id": str(USER_ID), "username": "player", "discriminator": "0", "global_name": "Player", "avatar": None}


@dataclass
class Session:
    id: str
    events: list[dict[str, Any]] = field(default_factory=list)  # every dispatch sent, for RESUME

    @property
    def seq(self) -> int:
        return len(self.events)


@dataclass
class Callback:
    """One interaction callback the bot made, with what Discord would store."""

    interaction_id: int
    body: dict[str, Any]
    message_id: int | None

    @property
    def type(self) -> int:
        return self.body["type"]

    @property
    def data(self) -> dict[str, Any]:
        return self.body.get("data") or {}


class Snowflakes:
    """Ids shaped like Discord's: milliseconds since Discord's epoch, then a counter (22 bits)."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def __iter__(self) -> Snowflakes:
        return self

    def __next__(self) -> int:
        return ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | (next(self._counter) & 0x3FFFFF)


class FakeDiscord:
    def __init__(self, token: str) -> None:
        self.token = token
        self._ids = Snowflakes()
        self.runner: web.AppRunner | None = None
        self.port = 0
        self.rest: list[tuple[str, str]] = []  # (method, path) of every REST request
        self.unknown: list[tuple[str, str]] = []  # requests this stand-in had no answer for
        self.command_syncs: list[list[dict[str, Any]]] = []
        self.identifies: list[dict[str, Any]] = []
        self.resumes: list[dict[str, Any]] = []
        self.client_close_codes: list[int | None] = []
        self.sessions: dict[str, Session] = {}
        self.session: Session | None = None  # the live one
        self.ws: web.WebSocketResponse | None = None
        self.messages: dict[int, dict[str, Any]] = {}
        self.callbacks: dict[int, list[Callback]] = {}
        self.followups: dict[str, list[dict[str, Any]]] = {}  # by interaction token
        self._interaction_message: dict[int, int] = {}  # component interaction -> the message it is on
        self._original: dict[str, int] = {}  # interaction token -> its response message
        self.tokens: list[str] = []  # every interaction token handed to the bot
        self.sent_at: dict[int, float] = {}  # interaction id -> when it was sent (monotonic)
        self.answered_at: dict[int, float] = {}  # interaction id -> when its first answer was taken
        self.late: list[int] = []  # interactions whose first answer came after ANSWER_WITHIN (refused, 10062)
        self.twice: list[int] = []  # interactions answered a second time through the callback (refused, 40060)
        self.sync_faults: list[int] = []  # statuses to answer the next command syncs with first (429, 502)
        self.callback_delay = 0.0
        self.callback_started = asyncio.Event()
        self._changed = asyncio.Condition()

    # ----- running ------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def wait_for(self, predicate, timeout: float = 10.0) -> Any:
        """Wait until ``predicate()`` is truthy (checked whenever something happens)."""
        async with self._changed:
            return await asyncio.wait_for(self._changed.wait_for(predicate), timeout)

    async def _note(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # ----- REST -----------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        self.rest.append((request.method, path))
        if request.headers.get("Authorization") != f"Bot {self.token}" and not path.startswith(("/interactions/", "/webhooks/")):
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        parts = path.strip("/").split("/")
        try:
            if request.method == "GET" and path == "/users/@me":
                return _json(BOT_USER)
            if request.method == "GET" and path == "/oauth2/applications/@me":
                return _json({
                    "id": str(APPLICATION_ID), "name": "Mordheim", "description": "", "icon": None, "bot_public": True,
                    "bot_require_code_grant": False, "owner": MEMBER_USER, "verify_key": "00", "flags": 0,
                })
            if request.method == "GET" and path == "/gateway/bot":
                return _json({"url": self.gateway_url, "shards": 1, "session_start_limit": {
                    "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}})
            if request.method == "PUT" and parts[0] == "applications" and parts[-1] == "commands":
                if self.sync_faults:
                    return _fault(self.sync_faults.pop(0))
                payload = await request.json()
                self.command_syncs.append(payload)
                await self._note()
                return _json([{**c, "id": str(next(self._ids)), "application_id": str(APPLICATION_ID),
                                           "version": "1"} for c in payload])
            if request.method == "POST" and parts[0] == "interactions" and parts[-1] == "callback":
                return await self._callback(int(parts[1]), parts[2], await _body(request))
            if parts[0] == "webhooks" and len(parts) >= 3:
                return await self._webhook(request, parts)
        except Exception as exc:  # a bug in the stand-in must show in the test, not hang it
            self.unknown.append((request.method, f"{path}: {exc!r}"))
            raise
        self.unknown.append((request.method, path))
        return _json({"message": "Unknown route", "code": 0}, status=404)

    async def _callback(self, interaction_id: int, token: str, body: dict[str, Any]) -> web.Response:
        self.callback_started.set()
        if self.callback_delay:
            await asyncio.sleep(self.callback_delay)
        now = time.monotonic()
        if interaction_id in self.answered_at:
            self.twice.append(interaction_id)
            return _json({"message": "Interaction has already been acknowledged.", "code": 40060}, status=400)
        if now - self.sent_at.get(interaction_id, now) > ANSWER_WITHIN:
            self.late.append(interaction_id)
            await self._note()
            return _json({"message": "Unknown interaction", "code": 10062}, status=404)
        self.answered_at[interaction_id] = now
        kind = body["type"]
        data = body.get("data") or {}
        message: dict[str, Any] | None = None
        if kind in (4, 5):
            message = self._store_message(data if kind == 4 else {"content": "", "flags": data.get("flags", 0)})
        elif kind == 7:
            original = self._interaction_message.get(interaction_id)
            message = self.messages[original]
            message.update({k: v for k, v in data.items() if k != "attachments"})
        if message is not None:
            self._original[token] = int(message["id"])
        self.callbacks.setdefault(interaction_id, []).append(Callback(interaction_id, body, int(message["id"]) if message else None))
        await self._note()
        answer: dict[str, Any] = {"interaction": {"id": str(interaction_id), "type": 2}}
        if message is not None:
            answer["interaction"].update({
                "response_message_id": message["id"], "response_message_loading": kind == 5,
                "response_message_ephemeral": bool((message.get("flags") or 0) & EPHEMERAL),
            })
            answer["resource"] = {"type": kind, "message": message}
        return _json(answer)

    async def _webhook(self, request: web.Request, parts: list[str]) -> web.Response:
        token = parts[2]
        if request.method == "POST" and len(parts) == 3:
            message = self._store_message(await _body(request))
            self.followups.setdefault(token, []).append(message)
            await self._note()
            return _json(message)
        if len(parts) == 5 and parts[3] == "messages":
            target = self._original.get(token) if parts[4] == "@original" else int(parts[4])
            if target not in self.messages:
                return _json({"message": "Unknown Message", "code": 10008}, status=404)
            if request.method == "PATCH":
                self.messages[target].update(await _body(request))
                await self._note()
            if request.method == "DELETE":
                self.messages.pop(target)
                return web.Response(status=204)
            return _json(self.messages[target])
        self.unknown.append((request.method, "/".join(parts)))
        return _json({"message": "Unknown route", "code": 0}, status=404)

    def _store_message(self, data: dict[str, Any]) -> dict[str, Any]:
        mid = next(self._ids)
        message = {
            "id": str(mid), "channel_id": str(CHANNEL_ID), "type": 20, "author": BOT_USER, "content": "",
            "embeds": [], "components": [], "attachments": [], "mentions": [], "mention_roles": [],
            "mention_everyone": False, "pinned": False, "tts": False, "flags": 0, "edited_timestamp": None,
            "timestamp": dt.datetime.now(dt.timezone.utc).isoformat(),
        }
        message.update({k: v for k, v in data.items() if k in ("content", "embeds", "components", "flags")})
        self.messages[mid] = message
        return message

    # ----- gateway ----------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_json({"op": HELLO, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        self.ws = ws
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, d = frame.get("op"), frame.get("d")
                if op == HEARTBEAT:
                    await ws.send_json({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
                elif op == IDENTIFY:
                    await self._identify(ws, d)
                elif op == RESUME:
                    await self._resume(ws, d)
        finally:
            if self.ws is ws:
                self.ws = None
            self.client_close_codes.append(ws.close_code)
            await self._note()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> None:
        if d.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        self.identifies.append({k: v for k, v in d.items() if k != "token"})
        self.session = Session(id=secrets.token_hex(8))
        self.sessions[self.session.id] = self.session
        await self._dispatch("READY", {
            "v": 10, "user": BOT_USER, "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
            "session_id": self.session.id, "resume_gateway_url": self.gateway_url, "shard": d.get("shard") or [0, 1],
            "application": {"id": str(APPLICATION_ID), "flags": 0},
        })
        await self._dispatch("GUILD_CREATE", GUILD)  # the server the bot is in, as Discord sends it after READY
        await self._note()

    async def _resume(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> None:
        session = self.sessions.get(d.get("session_id"))
        if d.get("token") != self.token or session is None:
            await ws.send_json({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        self.resumes.append({"session_id": d["session_id"], "seq": d["seq"]})
        self.session = session
        for event in session.events[d["seq"]:]:  # what the bot missed while it was away
            await ws.send_json(event)
        await self._dispatch("RESUMED", {})
        await self._note()

    async def _dispatch(self, name: str, data: dict[str, Any]) -> None:
        session = self.session
        event = {"op": DISPATCH, "t": name, "s": session.seq + 1, "d": data}
        session.events.append(event)
        if self.ws is not None and not self.ws.closed:
            await self.ws.send_json(event)

    async def drop_connection(self) -> None:
        """The network fails: the TCP connection goes without a close frame."""
        ws = self.ws
        self.ws = None
        ws._req.transport.abort()

    # ----- what a member does ------------------------------------------------------------------

    def _interaction(self, kind: int, data: dict[str, Any], message: dict[str, Any] | None = None,
                     *, user_id: int = USER_ID) -> dict[str, Any]:
        iid = next(self._ids)
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(24)  # shaped like Discord's
        self.tokens.append(token)
        payload = {
            "id": str(iid), "application_id": str(APPLICATION_ID), "type": kind, "data": data,
            "token": token,
            "version": 1, "locale": "en-GB", "guild_locale": "en-GB", "guild_id": str(GUILD_ID), "context": 0,
            "channel_id": str(CHANNEL_ID),
            "channel": {"id": str(CHANNEL_ID), "type": 0, "guild_id": str(GUILD_ID), "name": "table", "position": 0,
                        "permission_overwrites": [], "nsfw": False, "parent_id": None, "flags": 0},
            "member": {"user": {**MEMBER_USER, "id": str(user_id)}, "roles": [], "joined_at": "2024-01-01T00:00:00+00:00",
                       "deaf": False, "mute": False, "flags": 0, "permissions": str((1 << 11) | (1 << 10) | (1 << 31))},
            "app_permissions": str((1 << 11) | (1 << 14) | (1 << 15)), "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)}, "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message
            self._interaction_message[iid] = int(message["id"])
        return payload

    def _command_data(self, command: str, sub: str | None, options: dict[str, Any],
                      focused: str | None = None) -> dict[str, Any]:
        opts = [{"name": k, "type": 5 if isinstance(v, bool) else 4 if isinstance(v, int) else 3, "value": v}
                for k, v in options.items()]
        for o in opts:
            if o["name"] == focused:
                o.update(type=3, focused=True)
        if sub is not None:
            opts = [{"name": sub, "type": 1, "options": opts}]
        return {"id": str(next(self._ids)), "name": command, "type": 1, "options": opts}

    async def send(self, payload: dict[str, Any]) -> int:
        """Send one INTERACTION_CREATE as it is (a test may spoil it); returns its id, if it has one."""
        iid = int(payload.get("id") or 0)
        self.sent_at[iid] = time.monotonic()
        await self._dispatch("INTERACTION_CREATE", payload)
        return iid

    async def slash(self, command: str, /, *, sub: str | None = None, **options: Any) -> int:
        """A member runs a slash command (``sub`` a subcommand); returns the interaction id."""
        return await self.send(self._interaction(2, self._command_data(command, sub, options)))

    async def autocomplete(self, command: str, focused: str, /, *, sub: str | None = None, **options: Any) -> int:
        """A member types in option ``focused`` (its text among ``options``); returns the interaction id."""
        return await self.send(self._interaction(4, self._command_data(command, sub, options, focused)))

    async def press(self, message_id: int, custom_id: str, *, user_id: int = USER_ID) -> int:
        """A member presses a button on a message the bot sent; returns the interaction id."""
        return await self.send(self._interaction(3, {"custom_id": custom_id, "component_type": 2},
                                                 self.messages[message_id], user_id=user_id))

    async def answered(self, interaction_id: int, timeout: float = 10.0) -> Callback:
        return await self.wait_for(lambda: (self.callbacks.get(interaction_id) or [None])[0], timeout)


async def _body(request: web.Request) -> dict[str, Any]:
    if request.content_type.startswith("multipart/"):
        reader = await request.multipart()
        async for part in reader:
            if part.name == "payload_json":
                return json.loads(await part.text())
        return {}
    return await request.json()



def _json(data: Any, status: int = 200) -> web.Response:
    """JSON with Discord's exact content type (discord.py parses only ``application/json``)."""
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


def _fault(status: int) -> web.Response:
    if status == 429:  # as Discord limits a route: retry_after in seconds, in the body and the headers
        return web.Response(body=json.dumps({"message": "You are being rate limited.", "retry_after": 0.2, "global": False}).encode(),
                            status=429, content_type="application/json",
                            headers={"Retry-After": "1", "X-RateLimit-Scope": "user", "X-RateLimit-Bucket": "commands",
                                     "Via": "1.1 google"})  # discord.py takes a 429 without Via for a ban
    return web.Response(text="Bad Gateway", status=status)
