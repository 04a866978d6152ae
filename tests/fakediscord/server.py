"""FakeDiscord: the aiohttp server (REST + gateway on one port) and the control API tests use."""

from __future__ import annotations

import asyncio
import copy
import logging
import re
import secrets
import socket
from collections.abc import Callable, Iterable
from typing import Any

from aiohttp import web

from . import rest
from .commands import CommandStore, CommandUsageError, build_command_data
from .gateway import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILD_PRESENCES,
    INTENT_MESSAGE_CONTENT,
    RECONNECT,
    GatewaySession,
    handle_gateway,
)
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    FakeInteraction,
    InteractionTimeout,
)
from .model import (
    BOT_PERMISSIONS,
    DM,
    EVERYONE_PERMISSIONS,
    PUBLIC_THREAD,
    Attachment,
    AttachmentInfo,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    Message,
    Perm,
    Record,
    Snowflakes,
    Upload,
    iso_now,
)

log = logging.getLogger("fakediscord")

UserRef = FakeUser | int
ChannelRef = FakeChannel | int
MessageRef = Message | int


def _id(obj: Any) -> int:
    return obj if isinstance(obj, int) else obj.id


class FakeDiscord:
    """A strict local Discord for one bot. See the package docstring for the tour."""

    def __init__(
        self,
        *,
        token: str | None = None,
        bot_name: str = "Shengji",
        ack_timeout: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        heartbeat_interval_ms: int = 41_250,
        privileged_intents: Iterable[str] = ("members", "presences", "message_content"),
        attachment_size_limit: int = 10 * 1024 * 1024,
        full_member_lists: bool = False,
    ) -> None:
        self.snowflake = Snowflakes()
        self.token = token or f"fake.{secrets.token_urlsafe(24)}"
        self.app_id = self.snowflake()
        self.bot_user = FakeUser(self.app_id, bot_name, bot=True)
        self.app_owner = FakeUser(self.snowflake(), "App Owner")
        self.ack_timeout = ack_timeout
        self.token_lifetime = token_lifetime
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.privileged_intents = frozenset(privileged_intents)
        self.attachment_size_limit = attachment_size_limit
        self.application_flags = 0
        self.full_member_lists = full_member_lists

        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, FakeGuild] = {}
        #: Guilds the bot was removed from (``remove_bot``).
        self.left_guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages_by_id: dict[int, Message] = {}
        self._channel_message_ids: dict[int, list[int]] = {}
        self._dm_channel_by_user: dict[int, int] = {}
        self.attachments: dict[int, tuple[int, Attachment]] = {}
        self.command_store = CommandStore(self.app_id, self.snowflake)
        self.interactions: dict[int, FakeInteraction] = {}
        self.interactions_by_token: dict[str, FakeInteraction] = {}

        self.records: list[Record] = []
        self._record_waiters: list[tuple[Callable[[Record], bool], int, asyncio.Future[Record]]] = []
        self.http_errors: list[rest.HttpError] = []
        self.unknown_routes: list[rest.UnknownRoute] = []
        self.internal_errors: list[str] = []
        self.requests: list[tuple[str, str, int]] = []
        self.faults: list[rest.Fault] = []
        self._pending_events: list[asyncio.Task[None]] = []
        self.diagnostics: list[Callable[[], str]] = []  # extra text for timeout messages (e.g. bot log)

        self.session: GatewaySession | None = None
        self._sessions: dict[str, GatewaySession] = {}
        self._open_sockets: set[web.WebSocketResponse] = set()
        self._gateway_ready = asyncio.Event()
        self._commands_synced = asyncio.Event()
        self.identify_payloads: list[dict[str, Any]] = []
        self.gateway_connections = 0
        self.heartbeats = 0
        self.resumes = 0

        self.host = "127.0.0.1"
        self.port = 0
        self._runner: web.AppRunner | None = None

    # --- lifecycle -------------------------------------------------------------------------------

    def inject_fault(self, method: str, path: str, status: int, *, times: int = 1,
                     code: int = 0, retry_after: float | None = None,
                     drop: bool = False) -> rest.Fault:
        """The next ``times`` requests ``method`` ``path`` (a regex, full match against the
        path after /api/v10, e.g. ``r"/channels/\\d+/messages"``) fail with ``status``
        (a 429 carries ``retry_after`` seconds, as Discord's rate limits do), or with
        ``drop=True`` the connection is closed without an answer. The handler never runs."""
        fault = rest.Fault(method.upper(), re.compile(path), status, times, code,
                           retry_after, drop)
        self.faults.append(fault)
        return fault

    async def start(self, host: str = "127.0.0.1") -> FakeDiscord:
        """Serves REST and gateway on a free port of ``host``."""
        app = web.Application(client_max_size=self.attachment_size_limit * 11)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._serve_attachment)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._api)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((host, 0))
        self.host, self.port = host, sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        log.info("fake discord on %s", self.base_url)
        return self

    async def stop(self) -> None:
        await self._flush_events()
        for ws in list(self._open_sockets):
            await ws.close(code=1001, message=b"fake discord stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE`` (env ``DISCORD_API_BASE``)."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Value for ``DiscordWebSocket.DEFAULT_GATEWAY`` (env ``DISCORD_GATEWAY_URL``)."""
        return f"ws://{self.host}:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """The environment variables a bot process needs to talk to this fake."""
        return {
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DISCORD_TOKEN": self.token,
            "DISCORD_APPLICATION_ID": str(self.app_id),
        }

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        return await handle_gateway(self, request)

    async def _api(self, request: web.Request) -> web.StreamResponse:
        return await rest.handle_api(self, request)

    async def _serve_attachment(self, request: web.Request) -> web.StreamResponse:
        found = self.attachments.get(int(request.match_info["attachment_id"]))
        if found is None or found[1].filename != request.match_info["filename"]:
            return web.Response(status=404, text="Not Found")
        attachment = found[1]
        return web.Response(body=attachment.data, content_type=attachment.content_type or "application/octet-stream")

    async def _unknown(self, request: web.Request) -> web.StreamResponse:
        body = (await request.read())[:2000].decode("utf-8", "replace")
        self.unknown_routes.append(rest.UnknownRoute(request.method, request.path, body))
        log.warning("unknown route %s %s", request.method, request.path)
        return rest.json_response({"message": "404: Not Found", "code": 0}, 404)

    # --- world building --------------------------------------------------------------------------

    def add_guild(
        self, name: str = "Test Guild", *, locale: str = "en-US", owner: FakeUser | None = None,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """A guild; ``shard=(shard_id, shard_count)`` picks an id that Discord routes to that shard."""
        guild_id = self.snowflake()
        while shard is not None and (guild_id >> 22) % shard[1] != shard[0]:
            guild_id = self.snowflake()
        owner_id = owner.id if owner else self.snowflake()  # by default nobody present owns the guild
        guild = FakeGuild(guild_id, name, owner_id, locale)
        guild.roles[guild_id] = FakeRole(guild_id, guild_id, "@everyone", EVERYONE_PERMISSIONS, 0)
        manager = FakeRole(self.snowflake(), guild_id, "Manager", int(Perm.MANAGE_GUILD), 1)
        bot_role = FakeRole(self.snowflake(), guild_id, self.bot_user.name, BOT_PERMISSIONS, 2, managed=True)
        guild.roles[manager.id] = manager
        guild.roles[bot_role.id] = bot_role
        guild.manager_role_id, guild.bot_role_id = manager.id, bot_role.id
        guild.members[self.bot_user.id] = FakeMember(self.bot_user.id, [bot_role.id])
        self.guilds[guild_id] = guild
        if owner is not None:
            self.add_member(guild, owner)
        self._dispatch_soon("GUILD_CREATE", lambda session: self.guild_create_payload(guild, session),
                            guild_id=guild.id)
        return guild

    def add_channel(
        self, guild: FakeGuild, name: str = "general", *, topic: str | None = None, bot_can_send: bool = True,
        bot_denied: int = 0,
    ) -> FakeChannel:
        """A text channel. ``bot_can_send=False`` makes the bot's POSTs there fail with 403/50013;
        ``bot_denied`` denies the bot these permissions there (an ``ATTACH_FILES`` denied: a
        message with files fails with 403/50013)."""
        channel = FakeChannel(self.snowflake(), name, guild_id=guild.id, position=len(guild.channel_ids),
                              topic=topic, bot_can_send=bot_can_send, bot_denied=bot_denied)
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        self._dispatch_soon("CHANNEL_CREATE", lambda session: self.channel_payload(channel), guild_id=guild.id)
        return channel

    def add_thread(self, parent: FakeChannel, name: str = "thread") -> FakeChannel:
        """A public thread of the text channel ``parent`` (THREAD_CREATE; in GUILD_CREATE's
        ``threads`` while it lasts)."""
        assert parent.guild_id is not None and not parent.is_thread
        thread = FakeChannel(self.snowflake(), name, type=PUBLIC_THREAD, guild_id=parent.guild_id,
                             parent_id=parent.id)
        self.channels[thread.id] = thread
        self.guilds[parent.guild_id].thread_ids.append(thread.id)
        self._dispatch_soon("THREAD_CREATE", lambda session: {**self.channel_payload(thread),
                                                              "newly_created": True},
                            guild_id=parent.guild_id)
        return thread

    def delete_channel(self, channel: FakeChannel) -> None:
        """Deletes a guild channel or thread (as a member with Manage Channels would): the bot
        is told (CHANNEL_DELETE, or THREAD_DELETE with the thread's ids alone), and REST calls
        to it fail with 404/10003 from then on."""
        assert channel.guild_id is not None, "a DM channel is not deleted"
        guild = self.guilds[channel.guild_id]
        if channel.is_thread:
            guild.thread_ids.remove(channel.id)
            payload = {"id": str(channel.id), "guild_id": str(channel.guild_id),
                       "parent_id": str(channel.parent_id), "type": channel.type}
            event = "THREAD_DELETE"
        else:
            guild.channel_ids.remove(channel.id)
            payload, event = self.channel_payload(channel), "CHANNEL_DELETE"
        del self.channels[channel.id]
        self._dispatch_soon(event, lambda session: payload, guild_id=channel.guild_id)

    def remove_bot(self, guild: FakeGuild) -> None:
        """The bot is removed from ``guild`` (kicked, or the guild deleted): the bot is told
        (GUILD_DELETE without ``unavailable``), the guild is no longer in its READY, and REST
        calls to the guild's channels fail with 403/50001, as Discord answers them."""
        self._dispatch_soon("GUILD_DELETE", lambda session: {"id": str(guild.id)},
                            guild_id=guild.id)
        del self.guilds[guild.id]
        self.left_guilds[guild.id] = guild

    def add_role(self, guild: FakeGuild, name: str, permissions: int = 0) -> FakeRole:
        role = FakeRole(self.snowflake(), guild.id, name, permissions, len(guild.roles))
        guild.roles[role.id] = role
        return role

    def add_user(
        self,
        name: str,
        *,
        locale: str = "en-US",
        blocks_dms: bool = False,
        manage_guild: bool = False,
        administrator: bool = False,
        guilds: Iterable[FakeGuild] | None = None,
    ) -> FakeUser:
        """A human user; joins ``guilds`` (default: every guild so far) with the given permissions."""
        user = FakeUser(self.snowflake(), name, locale, blocks_dms)
        self.users[user.id] = user
        for guild in list(self.guilds.values()) if guilds is None else guilds:
            self.add_member(guild, user, manage_guild=manage_guild, administrator=administrator)
        return user

    def add_member(
        self,
        guild: FakeGuild,
        user: FakeUser,
        *,
        manage_guild: bool = False,
        administrator: bool = False,
        roles: Iterable[FakeRole] = (),
    ) -> FakeMember:
        role_ids = [role.id for role in roles]
        if manage_guild:
            role_ids.append(guild.manager_role_id)
        if administrator:
            admin = next((r for r in guild.roles.values() if r.name == "Admin"), None)
            admin = admin or self.add_role(guild, "Admin", int(Perm.ADMINISTRATOR))
            role_ids.append(admin.id)
        member = FakeMember(user.id, role_ids)
        guild.members[user.id] = member
        self._dispatch_soon(
            "GUILD_MEMBER_ADD",
            lambda session: {**self.member_payload(guild, user.id), "guild_id": str(guild.id)},
            intent=INTENT_GUILD_MEMBERS, guild_id=guild.id,
        )
        return member

    def dm_channel(self, user: UserRef) -> FakeChannel:
        user_id = _id(user)
        channel_id = self._dm_channel_by_user.get(user_id)
        if channel_id is None:
            channel = FakeChannel(self.snowflake(), "", type=DM, recipient_id=user_id)
            self.channels[channel.id] = channel
            self._dm_channel_by_user[user_id] = channel.id
            return channel
        return self.channels[channel_id]

    def store_upload(self, channel: FakeChannel, upload: Upload) -> Attachment:
        attachment = Attachment(self.snowflake(), upload.filename, upload.data, upload.description)
        self.attachments[attachment.id] = (channel.id, attachment)
        return attachment

    def _dispatch_soon(
        self, event: str, build: Callable[[GatewaySession], dict[str, Any]], intent: int = 0,
        guild_id: int | None = None,
    ) -> None:
        """Tells a connected bot about a change made after it connected."""
        session = self.session_for(guild_id)
        if session is None or not session.connected or (intent and not session.has(intent)):
            return
        task = asyncio.get_running_loop().create_task(session.dispatch(event, build(session)))
        self._pending_events.append(task)

    async def _flush_events(self) -> None:
        """Sends queued world-change events before anything that may depend on them."""
        pending, self._pending_events = self._pending_events, []
        if pending:
            await asyncio.gather(*pending)

    # --- payloads --------------------------------------------------------------------------------

    def permissions_in(self, channel: FakeChannel, user_id: int) -> int:
        if channel.guild_id is None:
            return int(Perm.VIEW_CHANNEL | Perm.SEND_MESSAGES | Perm.READ_MESSAGE_HISTORY | Perm.ATTACH_FILES
                       | Perm.EMBED_LINKS)
        perms = self.guilds[channel.guild_id].member_permissions(user_id)
        if user_id == self.bot_user.id and perms != Perm.all():
            perms &= ~self._bot_denied(channel)
        return perms

    @staticmethod
    def _bot_denied(channel: FakeChannel) -> int:
        return channel.bot_denied | (0 if channel.bot_can_send else int(Perm.SEND_MESSAGES))

    def channel_payload(self, channel: FakeChannel) -> dict[str, Any]:
        if channel.is_dm:
            assert channel.recipient_id is not None
            return {"id": str(channel.id), "type": DM, "last_message_id": None, "flags": 0,
                    "recipients": [self.users[channel.recipient_id].payload()]}
        if channel.is_thread:
            return {
                "id": str(channel.id), "type": channel.type, "guild_id": str(channel.guild_id),
                "name": channel.name, "parent_id": str(channel.parent_id),
                "owner_id": str(self.bot_user.id), "last_message_id": None, "rate_limit_per_user": 0,
                "message_count": 0, "member_count": 1, "total_message_sent": 0, "flags": 0,
                "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                    "archive_timestamp": iso_now(), "locked": False},
            }
        overwrites = []
        if self._bot_denied(channel):
            overwrites.append({"id": str(self.bot_user.id), "type": 1, "allow": "0",
                               "deny": str(self._bot_denied(channel))})
        return {
            "id": str(channel.id), "type": channel.type, "guild_id": str(channel.guild_id), "name": channel.name,
            "position": channel.position, "parent_id": None, "topic": channel.topic, "nsfw": False,
            "rate_limit_per_user": 0, "last_message_id": None, "permission_overwrites": overwrites, "flags": 0,
        }

    def resolved_channel_payload(self, channel: FakeChannel, user: FakeUser) -> dict[str, Any]:
        payload = self.channel_payload(channel)
        payload["permissions"] = str(self.permissions_in(channel, user.id))
        return payload

    def member_payload(self, guild: FakeGuild, user_id: int, *, permissions: int | None = None) -> dict[str, Any]:
        member = guild.members[user_id]
        payload: dict[str, Any] = {
            "user": self.users[user_id].payload(), "roles": [str(r) for r in member.role_ids], "nick": member.nick,
            "avatar": None, "banner": None, "joined_at": member.joined_at, "premium_since": None, "deaf": False,
            "mute": False, "pending": False, "flags": 0, "communication_disabled_until": None,
        }
        if permissions is not None:
            payload["permissions"] = str(permissions)
        return payload

    def guild_payload(self, guild: FakeGuild) -> dict[str, Any]:
        return {
            "id": str(guild.id), "name": guild.name, "icon": None, "splash": None, "discovery_splash": None,
            "banner": None, "description": None, "owner_id": str(guild.owner_id), "afk_channel_id": None,
            "afk_timeout": 300, "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "roles": [r.payload() for r in guild.roles.values()], "emojis": [],
            "stickers": [], "features": [], "mfa_level": 0, "application_id": None, "system_channel_id": None,
            "system_channel_flags": 0, "rules_channel_id": None, "public_updates_channel_id": None,
            "safety_alerts_channel_id": None, "vanity_url_code": None, "premium_tier": 0,
            "premium_subscription_count": 0, "preferred_locale": guild.locale, "nsfw_level": 0,
            "premium_progress_bar_enabled": False, "max_members": 500_000, "widget_enabled": False,
        }

    def guild_create_payload(self, guild: FakeGuild, session: GatewaySession) -> dict[str, Any]:
        """GUILD_CREATE. Like Discord, without the presences intent ``members`` holds only the bot
        (nobody is in voice here); ``full_member_lists=True`` always sends everyone."""
        everyone = self.full_member_lists or session.has(INTENT_GUILD_PRESENCES)
        member_ids = list(guild.members) if everyone else [self.bot_user.id]
        return {
            **self.guild_payload(guild),
            "joined_at": iso_now(), "large": False, "unavailable": False, "member_count": len(guild.members),
            "members": [self.member_payload(guild, uid) for uid in member_ids],
            "channels": [{k: v for k, v in self.channel_payload(self.channels[cid]).items() if k != "guild_id"}
                         for cid in guild.channel_ids],
            "threads": [self.channel_payload(self.channels[tid]) for tid in guild.thread_ids],
            "presences": [], "voice_states": [], "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [], "lazy": True,
        }

    def application_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.app_id), "name": self.bot_user.name, "icon": None, "description": "", "summary": "",
            "type": None, "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
            "owner": self.app_owner.payload(), "team": None, "flags": self.application_flags,
            "bot": self.bot_user.payload(), "rpc_origins": [], "redirect_uris": [], "tags": [],
            "interactions_endpoint_url": None, "role_connections_verification_url": None,
            "approximate_guild_count": len(self.guilds), "integration_types_config": {"0": {}},
        }

    def message_payload(self, msg: Message) -> dict[str, Any]:
        author = self.users[msg.author_id]
        payload: dict[str, Any] = {
            "id": str(msg.id), "channel_id": str(msg.channel_id), "author": author.payload(),
            "content": msg.content, "timestamp": msg.created_at, "edited_timestamp": msg.edited_at, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "mention_channels": [],
            "attachments": [a.payload(self.base_url, msg.channel_id) for a in msg.attachments],
            "embeds": copy.deepcopy(msg.embeds), "components": copy.deepcopy(msg.components), "pinned": False,
            "type": 0, "flags": msg.flags,
        }
        if msg.guild_id is not None:
            payload["guild_id"] = str(msg.guild_id)
        if msg.webhook_id is not None:
            payload["webhook_id"] = str(msg.webhook_id)
            payload["application_id"] = str(self.app_id)
        if msg.interaction_id is not None:
            assert msg.interaction_user_id is not None
            user = self.users[msg.interaction_user_id].payload()
            payload["type"] = 20 if msg.interaction_type == APPLICATION_COMMAND else 0
            metadata: dict[str, Any] = {
                "id": str(msg.interaction_id), "type": msg.interaction_type, "user": user,
                "authorizing_integration_owners": {"0": str(msg.guild_id)} if msg.guild_id else {},
            }
            if msg.interacted_message_id is not None:
                metadata["interacted_message_id"] = str(msg.interacted_message_id)
            payload["interaction_metadata"] = metadata
        if msg.message_reference is not None:
            payload["message_reference"] = msg.message_reference
        if msg.poll is not None:
            payload["poll"] = msg.poll
        return payload

    # --- messages and records --------------------------------------------------------------------

    def new_message(self, channel: FakeChannel, *, interaction: FakeInteraction | None = None) -> Message:
        msg = Message(self.snowflake(), channel.id, channel.guild_id, self.bot_user.id, iso_now())
        if channel.is_dm:
            msg.target_user_id = channel.recipient_id
        if interaction is not None:
            msg.target_user_id = interaction.user_id
            msg.interaction_id = interaction.id
            msg.interaction_type = interaction.type
            msg.interaction_user_id = interaction.user_id
            msg.interacted_message_id = interaction.component_message_id
            msg.webhook_id = self.app_id
        return msg

    def store_message(self, msg: Message) -> None:
        self.messages_by_id[msg.id] = msg
        self._channel_message_ids.setdefault(msg.channel_id, []).append(msg.id)
        for attachment in msg.attachments:
            self.attachments[attachment.id] = (msg.channel_id, attachment)

    def record(
        self,
        kind: str,
        msg: Message,
        *,
        user_id: int | None = None,
        interaction_id: int | None = None,
        deferred: bool = False,
    ) -> Record:
        for attachment in msg.attachments:
            self.attachments[attachment.id] = (msg.channel_id, attachment)
        deleted = kind == "message_delete"
        entry = Record(
            seq=len(self.records) + 1, kind=kind, channel_id=msg.channel_id, guild_id=msg.guild_id,
            message_id=msg.id, user_id=user_id, ephemeral=msg.ephemeral,
            content=None if deleted else msg.content,
            embeds=() if deleted else tuple(copy.deepcopy(msg.embeds)),
            components=() if deleted else tuple(copy.deepcopy(msg.components)),
            attachments=() if deleted else tuple(
                AttachmentInfo(a.filename, a.description, a.data, a.id) for a in msg.attachments),
            flags=msg.flags, interaction_id=interaction_id or msg.interaction_id, deferred=deferred,
        )
        self.records.append(entry)
        log.debug("record %s", entry)
        for predicate, after, future in list(self._record_waiters):
            if not future.done() and entry.seq > after and predicate(entry):
                future.set_result(entry)
        return entry

    async def gateway_message_event(self, event: str, msg: Message) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE for non-ephemeral messages, if the bot's intents ask for them."""
        session = self.session_for(msg.guild_id)
        if session is None or msg.ephemeral:
            return
        intent = INTENT_DIRECT_MESSAGES if msg.guild_id is None else INTENT_GUILD_MESSAGES
        if not session.has(intent):
            return
        if event == "MESSAGE_DELETE":
            data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id is not None:
                data["guild_id"] = str(msg.guild_id)
        else:
            data = self.message_payload(msg)
            if msg.guild_id is not None:
                member = self.member_payload(self.guilds[msg.guild_id], msg.author_id)
                member.pop("user")
                data["member"] = member
        await session.dispatch(event, data)

    def message(self, message: MessageRef) -> Message:
        """The current state of a message (edits applied); KeyError if the bot never made it."""
        return self.messages_by_id[_id(message)]

    def messages(self, channel: ChannelRef) -> list[Message]:
        """Messages everyone can see in a channel (or a DM), oldest first, without deleted ones."""
        ids = self._channel_message_ids.get(_id(channel), [])
        found = [self.messages_by_id[mid] for mid in ids]
        return [m for m in found if not m.deleted and not m.ephemeral]

    def last_message(self, channel: ChannelRef) -> Message:
        found = self.messages(channel)
        if not found:
            raise LookupError(f"no message in channel {_id(channel)}")
        return found[-1]

    def public_payloads(self, channel: ChannelRef | None = None) -> list[Record]:
        """Everything the bot showed to everyone in guild channels (no ephemerals, no DMs), in order."""
        return [r for r in self.records if r.public and (channel is None or r.channel_id == _id(channel))]

    def dms(self, user: UserRef) -> list[Record]:
        return [r for r in self.records if r.kind == "dm" and r.user_id == _id(user)]

    def ephemerals(self, user: UserRef) -> list[Record]:
        """Everything only this user could see (ephemeral answers), in order."""
        return [r for r in self.records if r.ephemeral and r.user_id == _id(user)]

    def records_for(self, interaction: FakeInteraction) -> list[Record]:
        return [r for r in self.records if r.interaction_id == interaction.id]

    def mark(self) -> int:
        """A position in the record log, for ``wait_for(..., after=mark)``."""
        return len(self.records)

    async def wait_for(
        self, predicate: Callable[[Record], bool], timeout: float = 5.0, *, after: int = 0
    ) -> Record:
        """The first record (with ``seq > after``) matching ``predicate``, waiting for it if needed."""
        for entry in self.records[after:]:
            if predicate(entry):
                return entry
        future: asyncio.Future[Record] = asyncio.get_running_loop().create_future()
        waiter = (predicate, after, future)
        self._record_waiters.append(waiter)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise InteractionTimeout(f"no record matched within {timeout}s\n{self.describe_recent()}") from None
        finally:
            self._record_waiters.remove(waiter)

    def describe_recent(self, count: int = 8) -> str:
        lines = ["recent records:"]
        lines += [f"  #{r.seq} {r.kind} ch={r.channel_id} user={r.user_id} eph={r.ephemeral} "
                  f"{(r.content or '')[:80]!r}" for r in self.records[-count:]]
        if self.http_errors:
            lines.append(f"http errors: {self.http_errors[-count:]}")
        if self.unknown_routes:
            lines.append(f"unknown routes: {self.unknown_routes}")
        if self.internal_errors:
            lines.append("internal errors:\n" + "\n".join(self.internal_errors))
        lines += [describe() for describe in self.diagnostics]
        return "\n".join(lines)

    def assert_clean(self) -> None:
        """Fails if the bot called a route the fake does not know, or the fake itself broke."""
        problems = []
        if self.unknown_routes:
            problems.append(f"unknown routes called: {self.unknown_routes}")
        if self.internal_errors:
            problems.append("fake internal errors:\n" + "\n".join(self.internal_errors))
        if problems:
            raise AssertionError("\n".join(problems))

    # --- readiness and the gateway ---------------------------------------------------------------

    async def wait_until_ready(self, timeout: float = 20.0, *, commands: bool = True) -> None:
        """Waits until the bot has identified (READY + GUILD_CREATEs sent) and, if ``commands``, has
        synced application commands at least once."""
        waits = [self._gateway_ready.wait()] + ([self._commands_synced.wait()] if commands else [])
        try:
            await asyncio.wait_for(asyncio.gather(*waits), timeout)
        except TimeoutError:
            raise InteractionTimeout(
                f"bot not ready after {timeout}s: identified={self._gateway_ready.is_set()} "
                f"commands_synced={self._commands_synced.is_set()}\n{self.describe_recent()}"
            ) from None

    @property
    def bot_connected(self) -> bool:
        return self.session is not None and self.session.connected

    async def reconnect_bot(self) -> None:
        """Sends RECONNECT (op 7): the bot closes and RESUMEs; events meanwhile are replayed."""
        session = self._live_session()
        assert session.ws is not None
        await session.ws.send_json({"op": RECONNECT, "d": None, "s": None, "t": None})

    def _live_session(self) -> GatewaySession:
        session = self.session
        if session is None or not session.connected:
            raise RuntimeError("the bot is not connected to the fake gateway")
        return session

    # --- commands --------------------------------------------------------------------------------

    def synced_commands(self, guild: FakeGuild | None = None) -> list[dict[str, Any]]:
        """Global commands, or this guild's commands, as the bot last synced them (with ids)."""
        return self.command_store.list(None if guild is None else guild.id)

    # --- acting as users -------------------------------------------------------------------------

    def _context(self, user: UserRef, channel: ChannelRef) -> tuple[FakeUser, FakeChannel, FakeGuild]:
        user_obj = self.users[_id(user)]
        channel_obj = self.channels[_id(channel)]
        if channel_obj.guild_id is None:
            raise CommandUsageError("the fake only supports interactions in guild channels")
        guild = self.guilds[channel_obj.guild_id]
        if user_obj.id not in guild.members:
            raise CommandUsageError(f"{user_obj.name} is not a member of {guild.name}")
        return user_obj, channel_obj, guild

    def _interaction_payload(
        self,
        *,
        interaction_id: int,
        token: str,
        kind: int,
        data: dict[str, Any],
        user: FakeUser,
        channel: FakeChannel,
        guild: FakeGuild,
        locale: str | None = None,
        message: Message | None = None,
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(interaction_id), "application_id": str(self.app_id), "type": kind, "data": data,
            "guild_id": str(guild.id), "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
            "channel_id": str(channel.id), "channel": self.resolved_channel_payload(channel, user),
            "member": self.member_payload(guild, user.id, permissions=self.permissions_in(channel, user.id)),
            "token": token, "version": 1, "locale": locale or user.locale, "guild_locale": guild.locale,
            "app_permissions": str(self.permissions_in(channel, self.bot_user.id)), "entitlements": [],
            "entitlement_sku_ids": [], "authorizing_integration_owners": {"0": str(guild.id)}, "context": 0,
            "attachment_size_limit": self.attachment_size_limit,
        }
        if message is not None:
            payload["message"] = self.message_payload(message)
        return payload

    def _identified_session(self, guild_id: int | None = None) -> GatewaySession:
        """The bot's session (of the shard serving ``guild_id``), possibly between a disconnect
        and its RESUME (events are replayed)."""
        session = self.session_for(guild_id)
        if session is None:
            raise RuntimeError("the bot has not identified with the fake gateway"
                               + ("" if guild_id is None else f" for the shard of guild {guild_id}"))
        return session

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The session Discord would send a guild's events to: the one session when the bot is
        not sharded, else the newest session of the guild's shard (DMs: shard 0)."""
        if self.session is None or self.session.shard is None:
            return self.session
        for session in reversed(list(self._sessions.values())):
            if session.serves(guild_id):
                return session
        return None

    def shard_sessions(self) -> dict[int, GatewaySession]:
        """The newest session of each shard that has identified."""
        return {s.shard[0]: s for s in self._sessions.values() if s.shard is not None}

    async def _dispatch_interaction(
        self,
        *,
        kind: int,
        data: dict[str, Any],
        user: FakeUser,
        channel: FakeChannel,
        guild: FakeGuild,
        locale: str | None = None,
        message: Message | None = None,
        focused_type: int | None = None,
    ) -> FakeInteraction:
        session = self._identified_session(guild.id)
        await self._flush_events()
        interaction_id = self.snowflake()
        token = f"aW50ZXJhY3Rpb246{secrets.token_urlsafe(48)}"
        payload = self._interaction_payload(interaction_id=interaction_id, token=token, kind=kind, data=data,
                                            user=user, channel=channel, guild=guild, locale=locale, message=message)
        interaction = FakeInteraction(
            self, id=interaction_id, token=token, type=kind, user_id=user.id, channel_id=channel.id,
            guild_id=guild.id, payload=payload, component_message_id=message.id if message else None,
            focused_type=focused_type,
        )
        self.interactions[interaction_id] = interaction
        self.interactions_by_token[token] = interaction
        interaction.dispatched_at = self.now()
        await session.dispatch("INTERACTION_CREATE", payload)
        return interaction

    async def forge(self, user: UserRef, channel: ChannelRef, kind: int, data: dict[str, Any], *,
                    guild: FakeGuild | None = None, locale: str | None = None,
                    message: Message | None = None) -> FakeInteraction:
        """An interaction Discord itself would never send (fuzzing): ``data`` as given, and
        ``guild`` may be one the channel does not belong to. Acks are checked as usual."""
        user_obj = self.users[_id(user)]
        channel_obj = self.channels[_id(channel)]
        if guild is None:
            assert channel_obj.guild_id is not None, "forge() needs a guild channel or a guild"
            guild = self.guilds[channel_obj.guild_id]
        return await self._dispatch_interaction(kind=kind, data=data, user=user_obj, channel=channel_obj,
                                                guild=guild, locale=locale, message=message)

    def _find_command(self, guild: FakeGuild, name: str) -> dict[str, Any]:
        command = self.command_store.find(name, guild.id)
        if command is None:
            raise CommandUsageError(
                f"no slash command /{name} synced for {guild.name}; have {self.command_store.names(guild.id)}"
            )
        return command

    async def invoke(
        self,
        user: UserRef,
        channel: ChannelRef,
        command: str,
        *,
        path: Iterable[str] = (),
        options: dict[str, Any] | None = None,
        locale: str | None = None,
        bypass_permissions: bool = False,
    ) -> FakeInteraction:
        """Invokes ``/command *path`` with ``options`` as ``user`` in ``channel`` (APPLICATION_COMMAND)."""
        user_obj, channel_obj, guild = self._context(user, channel)
        definition = self._find_command(guild, command)
        data = build_command_data(self, command=definition, path=tuple(path), given=dict(options or {}),
                                  guild=guild, user=user_obj, channel=channel_obj,
                                  bypass_permissions=bypass_permissions)
        return await self._dispatch_interaction(kind=APPLICATION_COMMAND, data=data, user=user_obj,
                                                channel=channel_obj, guild=guild, locale=locale)

    async def slash(
        self, user: UserRef, channel: ChannelRef, command: str, /, *path: str, **options: Any
    ) -> FakeInteraction:
        """Shorthand: ``slash(alice, channel, "shengji", "create", preset="classic")``."""
        return await self.invoke(user, channel, command, path=path, options=options)

    async def dispatch_autocomplete(
        self,
        user: UserRef,
        channel: ChannelRef,
        command: str,
        /,
        *path: str,
        focused: str,
        value: str = "",
        options: dict[str, Any] | None = None,
        locale: str | None = None,
    ) -> FakeInteraction:
        """Sends APPLICATION_COMMAND_AUTOCOMPLETE for option ``focused`` currently typed as ``value``."""
        user_obj, channel_obj, guild = self._context(user, channel)
        definition = self._find_command(guild, command)
        given = {**(options or {}), focused: value}
        data = build_command_data(self, command=definition, path=tuple(path), given=given, guild=guild,
                                  user=user_obj, channel=channel_obj, focused=focused)
        leaf = data["options"]
        while leaf and leaf[0]["type"] in (1, 2):
            leaf = leaf[0].get("options", [])
        focused_type = next(o["type"] for o in leaf if o.get("focused"))
        return await self._dispatch_interaction(kind=AUTOCOMPLETE, data=data, user=user_obj, channel=channel_obj,
                                                guild=guild, locale=locale, focused_type=focused_type)

    async def autocomplete(
        self,
        user: UserRef,
        channel: ChannelRef,
        command: str,
        /,
        *path: str,
        focused: str,
        value: str = "",
        options: dict[str, Any] | None = None,
        timeout: float = 5.0,
    ) -> list[dict[str, Any]]:
        """Autocomplete round trip; returns the bot's choices (``[{"name", "value"}, ...]``)."""
        interaction = await self.dispatch_autocomplete(user, channel, command, *path, focused=focused, value=value,
                                                       options=options)
        await interaction.wait_acked(timeout)
        return interaction.choices

    def _component_context(
        self, user: UserRef, message: MessageRef, custom_id: str, types: tuple[int, ...]
    ) -> tuple[FakeUser, FakeChannel, FakeGuild, Message, dict[str, Any]]:
        msg = self.message(message)
        if msg.deleted:
            raise CommandUsageError(f"message {msg.id} was deleted")
        user_obj, channel, guild = self._context(user, msg.channel_id)
        if msg.ephemeral and msg.target_user_id != user_obj.id:
            raise CommandUsageError(f"{user_obj.name} cannot see ephemeral message {msg.id}")
        component = msg.find_component(custom_id=custom_id)
        if component is None:
            raise CommandUsageError(f"message {msg.id} has no component {custom_id!r}; it has {msg.custom_ids()}")
        if component.get("type") not in types:
            raise CommandUsageError(f"component {custom_id!r} has type {component.get('type')}, wanted {types}")
        if component.get("disabled"):
            raise CommandUsageError(f"component {custom_id!r} is disabled")
        return user_obj, channel, guild, msg, component

    async def click(self, user: UserRef, message: MessageRef, custom_id: str) -> FakeInteraction:
        """Clicks a (non-link, enabled) button on the current state of ``message``."""
        user_obj, channel, guild, msg, _button = self._component_context(user, message, custom_id, (2,))
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._dispatch_interaction(kind=MESSAGE_COMPONENT, data=data, user=user_obj, channel=channel,
                                                guild=guild, message=msg)

    async def select(
        self, user: UserRef, message: MessageRef, custom_id: str, values: Iterable[Any]
    ) -> FakeInteraction:
        """Picks ``values`` in a select menu. String selects take option values; user/role/channel
        selects take FakeUser/FakeRole/FakeChannel objects."""
        user_obj, channel, guild, msg, select = self._component_context(user, message, custom_id, (3, 5, 6, 7, 8))
        picked = list(values)
        low, high = select.get("min_values", 1), select.get("max_values", 1)
        if not low <= len(picked) <= high:
            raise CommandUsageError(f"select {custom_id!r} takes {low}..{high} values, got {len(picked)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": select["type"]}
        if select["type"] == 3:
            allowed = [o["value"] for o in select.get("options", [])]
            bad = [v for v in picked if v not in allowed]
            if bad:
                raise CommandUsageError(f"select {custom_id!r} has no option(s) {bad}; options {allowed}")
            data["values"] = picked
        else:
            accepted = {5: (FakeUser,), 6: (FakeRole,), 7: (FakeUser, FakeRole), 8: (FakeChannel,)}[select["type"]]
            wrong = [v for v in picked if not isinstance(v, accepted)]
            if wrong:
                raise CommandUsageError(f"select {custom_id!r} (type {select['type']}) cannot take {wrong}")
            types = select.get("channel_types")
            if types and any(isinstance(v, FakeChannel) and v.type not in types for v in picked):
                raise CommandUsageError(f"select {custom_id!r} accepts channel types {types}")
            resolved: dict[str, dict[str, Any]] = {}
            for value in picked:
                if isinstance(value, FakeUser):
                    resolved.setdefault("users", {})[str(value.id)] = value.payload()
                    if value.id in guild.members:
                        member = self.member_payload(guild, value.id, permissions=guild.member_permissions(value.id))
                        member.pop("user")
                        resolved.setdefault("members", {})[str(value.id)] = member
                elif isinstance(value, FakeRole):
                    resolved.setdefault("roles", {})[str(value.id)] = value.payload()
                elif isinstance(value, FakeChannel):
                    resolved.setdefault("channels", {})[str(value.id)] = self.resolved_channel_payload(value, user_obj)
                else:
                    raise CommandUsageError(f"select {custom_id!r} wants fake users/roles/channels, got {value!r}")
            data["values"] = [str(v.id) for v in picked]
            data["resolved"] = resolved
        return await self._dispatch_interaction(kind=MESSAGE_COMPONENT, data=data, user=user_obj, channel=channel,
                                                guild=guild, message=msg)

    async def submit_modal(
        self, user: UserRef, opened_by: FakeInteraction, values: dict[str, Any]
    ) -> FakeInteraction:
        """Submits the modal the bot opened in answer to ``opened_by`` (text inputs by custom_id)."""
        if opened_by.modal is None:
            raise CommandUsageError(f"interaction {opened_by.id} did not open a modal")
        user_obj, channel, guild = self._context(user, opened_by.channel_id)
        if user_obj.id != opened_by.user_id:
            raise CommandUsageError("only the user who opened a modal can submit it")
        remaining = dict(values)

        def answer(component: dict[str, Any]) -> dict[str, Any] | None:
            kind = component.get("type")
            if kind == 1:
                children = [answer(c) for c in component.get("components", [])]
                return {"type": 1, "components": [c for c in children if c]}
            if kind == 18:
                inner = answer(component["component"])
                return {"type": 18, "component": inner} if inner else None
            custom_id = component.get("custom_id")
            if kind == 4:
                value = remaining.pop(custom_id, "")
                if component.get("required", True) and not value:
                    raise CommandUsageError(f"modal text input {custom_id!r} is required")
                low, high = component.get("min_length") or 0, component.get("max_length") or 4000
                if value and not low <= len(value) <= high:
                    raise CommandUsageError(f"modal text input {custom_id!r} takes {low}..{high} characters")
                return {"type": 4, "custom_id": custom_id, "value": value}
            if kind == 3:
                return {"type": 3, "custom_id": custom_id, "values": list(remaining.pop(custom_id, []))}
            return None

        components = [c for c in (answer(c) for c in opened_by.modal.get("components", [])) if c]
        if remaining:
            raise CommandUsageError(f"modal has no inputs {sorted(remaining)}")
        data = {"custom_id": opened_by.modal["custom_id"], "components": components}
        message = self.message(opened_by.component_message_id) if opened_by.component_message_id else None
        return await self._dispatch_interaction(kind=MODAL_SUBMIT, data=data, user=user_obj, channel=channel,
                                                guild=guild, message=message)

    async def say(self, user: UserRef, channel: ChannelRef, content: str) -> Message:
        """A user posts a plain message (MESSAGE_CREATE; content blanked without the content intent)."""
        user_obj = self.users[_id(user)]
        channel_obj = self.channels[_id(channel)]
        msg = Message(self.snowflake(), channel_obj.id, channel_obj.guild_id, user_obj.id, iso_now(), content)
        self.store_message(msg)
        session = self._identified_session(channel_obj.guild_id)
        await self._flush_events()
        intent = INTENT_DIRECT_MESSAGES if channel_obj.is_dm else INTENT_GUILD_MESSAGES
        if session.has(intent):
            data = self.message_payload(msg)
            if not session.has(INTENT_MESSAGE_CONTENT) and self.bot_user.mention not in content:
                data.update(content="", embeds=[], attachments=[], components=[])
            if channel_obj.guild_id is not None:
                member = self.member_payload(self.guilds[channel_obj.guild_id], user_obj.id)
                member.pop("user")
                data["member"] = member
            await session.dispatch("MESSAGE_CREATE", data)
        return msg
