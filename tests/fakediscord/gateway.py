"""The gateway: HELLO, IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME and dispatches.

Frames go out as uncompressed text, which discord.py accepts even though it asks for
``compress=zlib-stream`` (it only inflates binary frames).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections import deque
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger("fakediscord.gateway")

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE_UPDATE, VOICE_STATE_UPDATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_GUILD_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11

# Intents (https://discord.com/developers/docs/events/gateway#gateway-intents).
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = {"members": INTENT_GUILD_MEMBERS, "presences": INTENT_GUILD_PRESENCES,
                      "message_content": INTENT_MESSAGE_CONTENT}
ALL_INTENTS = (1 << 26) - 1


class GatewaySession:
    """A logical session: survives reconnects when the bot RESUMEs it."""

    def __init__(self, fake: FakeDiscord, intents: int, shard: tuple[int, int] | None = None) -> None:
        self.fake = fake
        self.session_id = secrets.token_hex(16)
        self.intents = intents
        self.shard = shard  # (shard_id, shard_count) from IDENTIFY; None: not sharded
        self.seq = 0
        self.history: deque[dict[str, Any]] = deque(maxlen=2000)
        self.ws: web.WebSocketResponse | None = None
        self._lock = asyncio.Lock()

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed

    def has(self, intent: int) -> bool:
        return bool(self.intents & intent)

    def serves(self, guild_id: int | None) -> bool:
        """Discord's routing: a guild's events go to shard ``(guild_id >> 22) % shard_count``,
        DMs to shard 0."""
        if self.shard is None:
            return True
        shard_id, shard_count = self.shard
        return (0 if guild_id is None else (guild_id >> 22) % shard_count) == shard_id

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Sends a DISPATCH; kept for replay if the bot is away and later RESUMEs."""
        async with self._lock:
            self.seq += 1
            frame = {"op": DISPATCH, "s": self.seq, "t": event, "d": data}
            self.history.append(frame)
            if self.connected:
                assert self.ws is not None
                try:
                    await self.ws.send_str(json.dumps(frame))
                except (ConnectionError, RuntimeError):
                    log.warning("could not send %s: connection lost", event)

    async def replay_after(self, seq: int) -> None:
        async with self._lock:
            assert self.ws is not None
            for frame in list(self.history):
                if frame["s"] > seq:
                    await self.ws.send_str(json.dumps(frame))


async def _send(ws: web.WebSocketResponse, op: int, d: Any = None) -> None:
    await ws.send_str(json.dumps({"op": op, "d": d, "s": None, "t": None}))


async def handle_gateway(fake: FakeDiscord, request: web.Request) -> web.StreamResponse:
    ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
    await ws.prepare(request)
    fake.gateway_connections += 1
    fake._open_sockets.add(ws)
    session: GatewaySession | None = None
    try:
        if request.query.get("v") != "10" or request.query.get("encoding", "json") != "json":
            await ws.close(code=4012, message=b"Invalid API version or encoding.")
            return ws
        await _send(ws, HELLO, {"heartbeat_interval": fake.heartbeat_interval_ms})
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                await ws.close(code=4002, message=b"Error while decoding payload.")
                break
            try:
                frame = json.loads(msg.data)
                op = frame["op"]
            except (ValueError, KeyError, TypeError):
                await ws.close(code=4002, message=b"Error while decoding payload.")
                break
            data = frame.get("d")
            if op == HEARTBEAT:
                fake.heartbeats += 1
                await _send(ws, HEARTBEAT_ACK)
            elif op == IDENTIFY:
                if session is not None:
                    await ws.close(code=4005, message=b"Already authenticated.")
                    break
                session = await _identify(fake, ws, data)
                if session is None:
                    break
            elif op == RESUME:
                if session is not None:
                    await ws.close(code=4005, message=b"Already authenticated.")
                    break
                session = await _resume(fake, ws, data)
                if session is None:
                    continue  # INVALID_SESSION sent; the bot closes and identifies anew
            elif session is None:
                await ws.close(code=4003, message=b"Not authenticated.")
                break
            elif op in (PRESENCE_UPDATE, VOICE_STATE_UPDATE):
                pass
            elif op == REQUEST_GUILD_MEMBERS:
                await _members_chunk(fake, session, data)
            else:
                await ws.close(code=4001, message=b"Unknown opcode.")
                break
    finally:
        fake._open_sockets.discard(ws)
        if session is not None and session.ws is ws:
            session.ws = None
    return ws


async def _identify(fake: FakeDiscord, ws: web.WebSocketResponse, data: Any) -> GatewaySession | None:
    if not isinstance(data, dict) or data.get("token") != fake.token:
        await ws.close(code=4004, message=b"Authentication failed.")
        return None
    intents = data.get("intents")
    if not isinstance(intents, int) or intents & ~ALL_INTENTS:
        await ws.close(code=4013, message=b"Invalid intent(s).")
        return None
    allowed = 0
    for name in fake.privileged_intents:
        allowed |= PRIVILEGED_INTENTS[name]
    privileged = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT
    if intents & privileged & ~allowed:
        await ws.close(code=4014, message=b"Disallowed intent(s).")
        return None
    shard = data.get("shard")
    if shard is not None and not (
        isinstance(shard, list) and len(shard) == 2 and all(type(n) is int for n in shard)
        and 0 <= shard[0] < shard[1]
    ):
        await ws.close(code=4010, message=b"Invalid shard.")
        return None
    fake.identify_payloads.append(data)
    session = GatewaySession(fake, intents, None if shard is None else (shard[0], shard[1]))
    session.ws = ws
    fake._sessions[session.session_id] = session
    fake.session = session
    guilds = [g for g in fake.guilds.values() if session.serves(g.id)]
    await session.dispatch("READY", {
        "v": 10,
        "user": {**fake.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
        "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
        "session_id": session.session_id,
        "session_type": "normal",
        "resume_gateway_url": fake.gateway_url,
        "application": {"id": str(fake.app_id), "flags": fake.application_flags},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "guild_join_requests": [],
        "geo_ordered_rtc_regions": [],
        "user_settings": {},
        "auth": {},
        "_trace": ["fakediscord"],
        **({} if shard is None else {"shard": [shard[0], shard[1]]}),
    })
    for guild in guilds:
        await session.dispatch("GUILD_CREATE", fake.guild_create_payload(guild, session))
    fake._gateway_ready.set()
    log.info("bot identified (intents=%s, shard=%s); session %s", intents, shard, session.session_id)
    return session


async def _resume(fake: FakeDiscord, ws: web.WebSocketResponse, data: Any) -> GatewaySession | None:
    if not isinstance(data, dict) or data.get("token") != fake.token:
        await ws.close(code=4004, message=b"Authentication failed.")
        return None
    session = fake._sessions.get(data.get("session_id"))
    seq = data.get("seq") or 0
    if session is None or (session.history and seq < session.history[0]["s"] - 1):
        await _send(ws, INVALID_SESSION, False)
        return None
    if session.ws is not None and not session.ws.closed:
        await session.ws.close(code=4000)
    session.ws = ws
    fake.session = session
    fake.resumes += 1
    await session.replay_after(seq)
    await session.dispatch("RESUMED", {"_trace": ["fakediscord"]})
    fake._gateway_ready.set()
    return session


async def _members_chunk(fake: FakeDiscord, session: GatewaySession, data: Any) -> None:
    guild = fake.guilds.get(int(data.get("guild_id", 0)))
    if guild is None:
        return
    query = (data.get("query") or "").lower()
    user_ids = {int(u) for u in (data.get("user_ids") or [])}
    if isinstance(data.get("user_ids"), (str, int)):
        user_ids = {int(data["user_ids"])}
    members = []
    for user_id in guild.members:
        user = fake.users[user_id]
        if user_ids and user_id not in user_ids:
            continue
        if query and not user.name.lower().startswith(query):
            continue
        members.append(fake.member_payload(guild, user_id))
    limit = data.get("limit") or 0
    if limit:
        members = members[:limit]
    chunk: dict[str, Any] = {"guild_id": str(guild.id), "members": members, "chunk_index": 0, "chunk_count": 1}
    if data.get("nonce") is not None:
        chunk["nonce"] = data["nonce"]
    if data.get("presences"):
        chunk["presences"] = []
    await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
