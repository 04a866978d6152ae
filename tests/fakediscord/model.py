"""The fake's world: ids, users, guilds, channels, messages, and the log of what the bot produced.

Everything here is plain data plus the small amount of behaviour needed to turn it into the JSON
shapes Discord (API v10) sends. The server mutates these objects; tests read them.
"""

from __future__ import annotations

import datetime as dt
import struct
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import IntFlag
from typing import Any
from urllib.parse import quote

DISCORD_EPOCH_MS = 1_420_070_400_000

# Channel types (https://discord.com/developers/docs/resources/channel#channel-object-channel-types).
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11

# Message flags we care about.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_IS_VOICE_MESSAGE = 1 << 13
FLAG_COMPONENTS_V2 = 1 << 15


class Perm(IntFlag):
    """Permission bits used by the fake (a subset of Discord's)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    USE_APPLICATION_COMMANDS = 1 << 31
    SEND_MESSAGES_IN_THREADS = 1 << 38

    @classmethod
    def all(cls) -> int:
        return (1 << 53) - 1


EVERYONE_PERMISSIONS = int(
    Perm.CREATE_INSTANT_INVITE
    | Perm.ADD_REACTIONS
    | Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.USE_EXTERNAL_EMOJIS
    | Perm.USE_APPLICATION_COMMANDS
    | Perm.SEND_MESSAGES_IN_THREADS
)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | int(Perm.MANAGE_MESSAGES)


class Snowflakes:
    """Makes increasing snowflake ids whose timestamp part is the current time."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last


def iso_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


class ApiError(Exception):
    """An error answered in Discord's JSON shape: ``{"code": ..., "message": ..., "errors": ...}``."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            body["errors"] = self.errors
        return body


# Errors the fake answers, named after Discord's JSON error codes.
def unknown_channel() -> ApiError:
    return ApiError(404, 10003, "Unknown Channel")


def unknown_message() -> ApiError:
    return ApiError(404, 10008, "Unknown Message")


def unknown_webhook() -> ApiError:
    return ApiError(404, 10015, "Unknown Webhook")


def unknown_interaction() -> ApiError:
    return ApiError(404, 10062, "Unknown interaction")


def already_acknowledged() -> ApiError:
    return ApiError(400, 40060, "Interaction has already been acknowledged.")


def cannot_dm() -> ApiError:
    return ApiError(403, 50007, "Cannot send messages to this user")


def missing_permissions() -> ApiError:
    return ApiError(403, 50013, "Missing Permissions")


@dataclass
class FakeUser:
    """A human user (or the bot itself when ``bot`` is true)."""

    id: int
    name: str
    locale: str = "en-US"
    blocks_dms: bool = False
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name.lower().replace(" ", "_"),
            "global_name": None if self.bot else self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
        }


@dataclass
class FakeRole:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class FakeMember:
    user_id: int
    role_ids: list[int]
    joined_at: str = field(default_factory=iso_now)
    nick: str | None = None


@dataclass
class FakeChannel:
    """A guild text channel, a public thread (``type`` 11, ``parent_id`` set) or a DM channel
    (``type`` 1, ``recipient_id`` set)."""

    id: int
    name: str
    type: int = GUILD_TEXT
    guild_id: int | None = None
    position: int = 0
    topic: str | None = None
    recipient_id: int | None = None
    bot_can_send: bool = True
    #: Permissions the channel's overwrite denies the bot (``bot_can_send=False``: Send Messages).
    bot_denied: int = 0
    parent_id: int | None = None

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def is_thread(self) -> bool:
        return self.type == PUBLIC_THREAD

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    roles: dict[int, FakeRole] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    thread_ids: list[int] = field(default_factory=list)  # active threads
    manager_role_id: int = 0
    bot_role_id: int = 0

    def member_permissions(self, user_id: int) -> int:
        """Guild-level permissions of a member (owner and administrators get everything)."""
        if user_id == self.owner_id:
            return Perm.all()
        member = self.members.get(user_id)
        if member is None:
            return 0
        perms = self.roles[self.id].permissions
        for role_id in member.role_ids:
            perms |= self.roles[role_id].permissions
        if perms & Perm.ADMINISTRATOR:
            return Perm.all()
        return perms


@dataclass(frozen=True)
class Upload:
    """A file a fake user attaches to a command option (type 11)."""

    filename: str
    data: bytes
    description: str | None = None


@dataclass
class Attachment:
    """A file attached to a message, with its bytes."""

    id: int
    filename: str
    data: bytes
    description: str | None = None
    content_type: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def image_size(self) -> tuple[int, int] | None:
        if self.data[:8] == b"\x89PNG\r\n\x1a\n" and len(self.data) >= 24:
            width, height = struct.unpack(">II", self.data[16:24])
            return width, height
        return None

    def payload(self, base_url: str, channel_id: int) -> dict[str, Any]:
        url = f"{base_url}/attachments/{channel_id}/{self.id}/{quote(self.filename)}"
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": url,
            "proxy_url": url,
        }
        if self.description is not None:
            data["description"] = self.description
        if self.content_type is not None:
            data["content_type"] = self.content_type
        size = self.image_size()
        if size is not None:
            data["width"], data["height"] = size
        return data


def iter_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component in a message, depth first (action rows, v2 containers and accessories)."""
    for component in components:
        yield component
        yield from iter_components(component.get("components", []))
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from iter_components([component[key]])


def find_component(
    components: list[dict[str, Any]],
    *,
    custom_id: str | None = None,
    label: str | None = None,
    type: int | None = None,
) -> dict[str, Any] | None:
    for component in iter_components(components):
        if custom_id is not None and component.get("custom_id") != custom_id:
            continue
        if label is not None and component.get("label") != label:
            continue
        if type is not None and component.get("type") != type:
            continue
        if custom_id is None and label is None and type is None:
            continue
        return component
    return None


@dataclass
class Message:
    """The current state of a message the bot produced (edits are applied in place)."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    created_at: str
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    target_user_id: int | None = None  # the DM recipient, or the user an interaction answer is for
    interaction_id: int | None = None
    interaction_type: int | None = None
    interaction_user_id: int | None = None
    interacted_message_id: int | None = None
    webhook_id: int | None = None
    edited_at: str | None = None
    deleted: bool = False
    message_reference: dict[str, Any] | None = None
    poll: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    def iter_components(self) -> Iterator[dict[str, Any]]:
        return iter_components(self.components)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    def find_component(
        self, *, custom_id: str | None = None, label: str | None = None, type: int | None = None
    ) -> dict[str, Any] | None:
        """The first component matching every given criterion (or None)."""
        return find_component(self.components, custom_id=custom_id, label=label, type=type)

    def button(self, label: str) -> dict[str, Any]:
        """The button with this label; raises LookupError listing the labels present."""
        found = self.find_component(label=label, type=2)
        if found is None:
            labels = [c.get("label") for c in self.iter_components() if c.get("type") == 2]
            raise LookupError(f"no button labelled {label!r} on message {self.id}; buttons: {labels}")
        return found

    def text(self) -> str:
        return message_text(self.content, self.embeds, self.components)


def message_text(content: str | None, embeds: list[dict[str, Any]], components: list[dict[str, Any]]) -> str:
    """All human-readable text of a message: content, embed texts, v2 text displays."""
    parts = [content or ""]
    for embed in embeds:
        parts.append(embed.get("title", ""))
        parts.append(embed.get("description", ""))
        for embed_field in embed.get("fields", []):
            parts.append(embed_field.get("name", ""))
            parts.append(embed_field.get("value", ""))
        parts.append(embed.get("footer", {}).get("text", ""))
        parts.append(embed.get("author", {}).get("name", ""))
    for component in iter_components(components):
        if component.get("type") == 10:  # text display
            parts.append(component.get("content", ""))
    return "\n".join(part for part in parts if part)


@dataclass(frozen=True)
class AttachmentInfo:
    filename: str
    description: str | None
    data: bytes
    id: int = 0


@dataclass(frozen=True)
class Record:
    """One thing the bot made visible, in the order it happened.

    ``kind`` is one of ``channel_message``, ``dm``, ``interaction_response``, ``followup``,
    ``message_edit`` and ``message_delete``. ``user_id`` is the DM recipient, or the user an
    interaction answer belongs to. Fields hold the message's full state right after the event.
    """

    seq: int
    kind: str
    channel_id: int
    guild_id: int | None
    message_id: int | None
    user_id: int | None
    ephemeral: bool
    content: str | None
    embeds: tuple[dict[str, Any], ...]
    components: tuple[dict[str, Any], ...]
    attachments: tuple[AttachmentInfo, ...]
    flags: int = 0
    interaction_id: int | None = None
    deferred: bool = False

    @property
    def public(self) -> bool:
        """Visible to everyone in a guild channel."""
        return self.guild_id is not None and not self.ephemeral and self.kind != "message_delete"

    def text(self) -> str:
        return message_text(self.content, list(self.embeds), list(self.components))

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in iter_components(list(self.components)) if "custom_id" in c]

    def find_component(
        self, *, custom_id: str | None = None, label: str | None = None, type: int | None = None
    ) -> dict[str, Any] | None:
        return find_component(list(self.components), custom_id=custom_id, label=label, type=type)


@dataclass(frozen=True)
class HttpError:
    """An error response the fake gave to the bot."""

    method: str
    path: str
    status: int
    code: int
    message: str


@dataclass(frozen=True)
class UnknownRoute:
    method: str
    path: str
    body: str
