"""REST routes of the fake (``/api/v10/...``), in the shapes discord.py 2.7 reads.

Every answer has exactly ``Content-Type: application/json`` (discord.py parses nothing else) or is
a bare 204. Errors use Discord's ``{"code", "message"[, "errors"]}``. A route not listed here gets
404 with code 0 and is recorded in ``fake.unknown_routes``.
"""

from __future__ import annotations

import json
import logging
import mimetypes
import re
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import interactions as ix_types
from . import validate
from .model import (
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_IS_VOICE_MESSAGE,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    ApiError,
    Attachment,
    FakeChannel,
    HttpError,
    Message,
    Perm,
    UnknownRoute,
    already_acknowledged,
    cannot_dm,
    iso_now,
    missing_permissions,
    unknown_channel,
    unknown_interaction,
    unknown_message,
    unknown_webhook,
)

if TYPE_CHECKING:
    from .interactions import FakeInteraction
    from .server import FakeDiscord

log = logging.getLogger("fakediscord.rest")

CHANNEL_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2 | FLAG_IS_VOICE_MESSAGE
INTERACTION_FLAGS = FLAG_EPHEMERAL | FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
EDIT_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2
MISSING: Any = object()
FILE_FIELD = re.compile(r"^files\[(\d+)\]$")


def json_response(data: Any, status: int = 200) -> web.Response:
    """A JSON answer whose Content-Type is exactly ``application/json`` (no charset)."""
    return web.Response(status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})


@dataclass
class UploadedFile:
    index: int
    filename: str
    data: bytes
    content_type: str | None


@dataclass
class Req:
    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    uploads: list[UploadedFile] = field(default_factory=list)

    def int_param(self, name: str, error: Callable[[], ApiError]) -> int:
        try:
            return int(self.params[name])
        except ValueError:
            raise error() from None

    def flag(self, name: str) -> bool:
        return self.query.get(name, "").lower() in ("1", "true")


Handler = Callable[["FakeDiscord", Req], Awaitable[Any]]


@dataclass
class Route:
    method: str
    pattern: re.Pattern[str]
    handler: Handler
    auth: bool


ROUTES: list[Route] = []


def route(method: str, template: str, *, auth: bool = True) -> Callable[[Handler], Handler]:
    regex = re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template) + "$")

    def register(handler: Handler) -> Handler:
        ROUTES.append(Route(method, regex, handler, auth))
        return handler

    return register


async def read_body(request: web.Request, limit: int) -> tuple[Any, list[UploadedFile]]:
    if request.content_type == "multipart/form-data":
        body: Any = None
        uploads: list[UploadedFile] = []
        reader = await request.multipart()
        async for part in reader:
            if part.name == "payload_json":
                text = await part.text()
                try:
                    body = json.loads(text)
                except ValueError:
                    raise ApiError(400, 50109, "The request body contains invalid JSON.") from None
                continue
            data = await part.read(decode=False)
            if len(data) > limit:
                raise ApiError(413, 40005, "Request entity too large")
            match = FILE_FIELD.match(part.name or "")
            index = int(match.group(1)) if match else len(uploads)
            uploads.append(UploadedFile(index, part.filename or f"file{index}", bytes(data),
                                        part.headers.get("Content-Type")))
        return body, uploads
    raw = await request.read()
    if not raw:
        return None, []
    if request.content_type != "application/json":
        raise ApiError(400, 50109, "The request body contains invalid JSON.")
    try:
        return json.loads(raw), []
    except ValueError:
        raise ApiError(400, 50109, "The request body contains invalid JSON.") from None


@dataclass
class Fault:
    """An injected failure (``FakeDiscord.inject_fault``)."""

    method: str
    path: re.Pattern[str]
    status: int
    times: int
    code: int = 0
    retry_after: float | None = None
    drop: bool = False
    hits: int = 0


async def handle_api(fake: FakeDiscord, request: web.Request) -> web.StreamResponse:
    path = "/" + request.match_info["tail"]
    method = request.method
    for candidate in ROUTES:
        match = candidate.pattern.match(path)
        if match and candidate.method == method:
            break
    else:
        body = (await request.read())[:2000].decode("utf-8", "replace")
        fake.unknown_routes.append(UnknownRoute(method, path, body))
        fake.requests.append((method, path, 404))
        log.warning("unknown route %s %s", method, path)
        return json_response({"message": "404: Not Found", "code": 0}, 404)

    fault = next((f for f in fake.faults if f.times > 0 and f.method == method
                  and f.path.fullmatch(path)), None)
    if fault is not None:
        fault.times -= 1
        fault.hits += 1
        fake.requests.append((method, path, fault.status))
        if fault.drop:
            assert request.transport is not None
            request.transport.close()  # a dropped connection: no answer at all
            return web.Response(status=fault.status)
        headers = {}
        body: dict[str, Any] = {"code": fault.code, "message": f"injected {fault.status}"}
        if fault.status == 429:
            after = fault.retry_after if fault.retry_after is not None else 1.0
            # (discord.py takes a 429 without "Via" for a Cloudflare ban, not a rate limit)
            headers = {"Retry-After": f"{after}", "X-RateLimit-Scope": "user",
                       "Via": "1.1 google"}
            body.update(message="You are being rate limited.", retry_after=after,
                        **{"global": False})
        fake.http_errors.append(HttpError(method, path, fault.status, fault.code,
                                          "injected"))
        answer = json_response(body, fault.status)
        answer.headers.update(headers)
        return answer

    status, result = 200, None
    try:
        if candidate.auth and request.headers.get("Authorization") != f"Bot {fake.token}":
            raise ApiError(401, 0, "401: Unauthorized")
        body, uploads = await read_body(request, fake.attachment_size_limit)
        req = Req(method, path, match.groupdict(), dict(request.query), body, uploads)
        result = await candidate.handler(fake, req)
    except ApiError as error:
        status = error.status
        fake.http_errors.append(HttpError(method, path, error.status, error.code, error.message))
        log.info("%s %s -> %s %s %s", method, path, error.status, error.code, error.message)
        return json_response(error.body(), error.status)
    except ConnectionResetError:  # the client went away mid-request (e.g. a bot stopped)
        status = 499
        log.info("%s %s: the client disconnected", method, path)
        raise
    except Exception as exc:  # a bug in the fake: answer 400 (a 5xx makes discord.py retry for 25 s)
        status = 400
        fake.internal_errors.append(f"{method} {path}\n{traceback.format_exc()}")
        log.exception("fake internal error on %s %s", method, path)
        return json_response({"code": 0, "message": f"fakediscord internal error: {exc!r}"}, 400)
    finally:
        fake.requests.append((method, path, 204 if status == 200 and result is None else status))
    if result is None:
        return web.Response(status=204)
    return json_response(result)


def _require_object(body: Any) -> dict[str, Any]:
    if body is None:
        return {}
    if not isinstance(body, dict):
        raise ApiError(400, 50035, "Invalid Form Body", {"_root": {"_errors": [
            {"code": "DICT_TYPE_CONVERT", "message": "Only dictionaries may be used in a DictType"}]}})
    return body


def _check_flags(flags: Any, allowed: int) -> int:
    if flags is None:
        return 0
    if not isinstance(flags, int) or flags & ~allowed:
        raise ApiError(400, 50035, "Invalid Form Body", {"flags": {"_errors": [
            {"code": "MESSAGE_FLAGS_INVALID", "message": f"Invalid flags {flags!r} for this request"}]}})
    return flags


def _resolve_attachments(
    fake: FakeDiscord, spec: Any, uploads: list[UploadedFile], existing: list[Attachment], creating: bool
) -> list[Attachment]:
    def new(upload: UploadedFile, filename: str | None = None, description: str | None = None) -> Attachment:
        name = filename or upload.filename
        return Attachment(fake.snowflake(), name, upload.data, description,
                          mimetypes.guess_type(name)[0] or upload.content_type)

    if spec is MISSING or spec is None:
        kept = [] if creating else list(existing)
        return kept + [new(u) for u in uploads]
    if not isinstance(spec, list):
        raise ApiError(400, 50035, "Invalid Form Body", {"attachments": {"_errors": [
            {"code": "BASE_TYPE_ARRAY", "message": "Must be an array."}]}})
    by_index = {u.index: u for u in uploads}
    by_id = {str(a.id): a for a in existing}
    used: set[int] = set()
    result: list[Attachment] = []
    for i, item in enumerate(spec):
        key = str(item.get("id"))
        if key in by_id:
            kept = by_id[key]
            if "description" in item:
                kept.description = item["description"]
            result.append(kept)
        elif key.isdigit() and int(key) in by_index:
            used.add(int(key))
            result.append(new(by_index[int(key)], item.get("filename"), item.get("description")))
        else:
            raise ApiError(400, 50035, "Invalid Form Body", {"attachments": {str(i): {"_errors": [
                {"code": "ATTACHMENT_NOT_FOUND", "message": f"Unknown attachment id {key}"}]}}})
    result += [new(u) for u in uploads if u.index not in used]
    return result


def apply_message_body(
    fake: FakeDiscord, msg: Message, body: Any, uploads: list[UploadedFile], *, creating: bool, allowed_flags: int
) -> None:
    """Validates ``body`` against the message's resulting state, then applies it (all or nothing)."""
    body = _require_object(body)
    content = msg.content
    if "content" in body:
        content = body["content"] if body["content"] is not None else ""
    embeds = msg.embeds
    if "embeds" in body:
        embeds = body["embeds"] or []
    components = msg.components
    if "components" in body:
        components = body["components"] or []
    flags = msg.flags
    if body.get("flags") is not None:
        requested = _check_flags(body["flags"], allowed_flags | (msg.flags & (FLAG_EPHEMERAL | FLAG_LOADING)))
        if msg.flags & FLAG_COMPONENTS_V2 and not requested & FLAG_COMPONENTS_V2 and not creating:
            raise ApiError(400, 50035, "Invalid Form Body", {"flags": {"_errors": [
                {"code": "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG", "message": "Cannot remove the "
                 "IS_COMPONENTS_V2 flag"}]}})
        flags = requested | (msg.flags & (FLAG_EPHEMERAL | FLAG_LOADING))
    attachments = _resolve_attachments(fake, body.get("attachments", MISSING), uploads, msg.attachments, creating)
    poll = body.get("poll", msg.poll) if creating else msg.poll
    validate.check_message(content=content, embeds=embeds, components=components,
                           attachment_count=len(attachments), flags=flags, has_poll=poll is not None)
    msg.content = content
    msg.embeds = json.loads(json.dumps(embeds))
    msg.components = json.loads(json.dumps(components))
    msg.flags = flags
    msg.attachments = attachments
    msg.poll = poll
    if isinstance(body.get("allowed_mentions"), dict):  # who the bot lets this text ping
        msg.extra["allowed_mentions"] = json.loads(json.dumps(body["allowed_mentions"]))
    if creating and body.get("message_reference") is not None:
        msg.message_reference = body["message_reference"]
    if not creating:
        msg.edited_at = iso_now()


# --- gateway info, users, application ------------------------------------------------------------

@route("GET", "/gateway", auth=False)
async def get_gateway(fake: FakeDiscord, req: Req) -> Any:
    return {"url": fake.gateway_url}


@route("GET", "/gateway/bot")
async def get_gateway_bot(fake: FakeDiscord, req: Req) -> Any:
    return {"url": fake.gateway_url, "shards": 1, "session_start_limit": {
        "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}


@route("GET", "/users/@me")
async def get_me(fake: FakeDiscord, req: Req) -> Any:
    return {**fake.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0, "locale": "en-US"}


@route("POST", "/users/@me/channels")
async def create_dm(fake: FakeDiscord, req: Req) -> Any:
    body = _require_object(req.body)
    try:
        user = fake.users[int(body.get("recipient_id"))]
    except (TypeError, ValueError, KeyError):
        raise ApiError(400, 50033, "Invalid Recipient(s)") from None
    if user.bot:
        raise ApiError(400, 50033, "Invalid Recipient(s)")
    return fake.channel_payload(fake.dm_channel(user))


@route("GET", "/users/{user_id}")
async def get_user(fake: FakeDiscord, req: Req) -> Any:
    user = fake.users.get(req.int_param("user_id", lambda: ApiError(404, 10013, "Unknown User")))
    if user is None:
        raise ApiError(404, 10013, "Unknown User")
    return user.payload()


@route("GET", "/oauth2/applications/@me")
@route("GET", "/applications/@me")
async def get_application(fake: FakeDiscord, req: Req) -> Any:
    return fake.application_payload()


# --- application commands ------------------------------------------------------------------------

def _app_guild(fake: FakeDiscord, req: Req) -> int | None:
    if req.params.get("app_id") != str(fake.app_id):
        raise ApiError(403, 50001, "Missing Access")
    if "guild_id" not in req.params:
        return None
    guild_id = req.int_param("guild_id", lambda: ApiError(404, 10004, "Unknown Guild"))
    if guild_id not in fake.guilds:
        raise ApiError(404, 10004, "Unknown Guild")
    return guild_id


def _commands_changed(fake: FakeDiscord) -> None:
    fake._commands_synced.set()


@route("GET", "/applications/{app_id}/commands")
@route("GET", "/applications/{app_id}/guilds/{guild_id}/commands")
async def list_commands(fake: FakeDiscord, req: Req) -> Any:
    return fake.command_store.list(_app_guild(fake, req))


@route("PUT", "/applications/{app_id}/commands")
@route("PUT", "/applications/{app_id}/guilds/{guild_id}/commands")
async def overwrite_commands(fake: FakeDiscord, req: Req) -> Any:
    result = fake.command_store.overwrite(req.body, _app_guild(fake, req))
    _commands_changed(fake)
    return result


@route("POST", "/applications/{app_id}/commands")
@route("POST", "/applications/{app_id}/guilds/{guild_id}/commands")
async def upsert_command(fake: FakeDiscord, req: Req) -> Any:
    command, _created = fake.command_store.upsert(_require_object(req.body), _app_guild(fake, req))
    _commands_changed(fake)
    return command


@route("GET", "/applications/{app_id}/guilds/{guild_id}/commands/permissions")
async def list_command_permissions(fake: FakeDiscord, req: Req) -> Any:
    _app_guild(fake, req)
    return []


@route("GET", "/applications/{app_id}/commands/{command_id}")
@route("GET", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}")
async def get_command(fake: FakeDiscord, req: Req) -> Any:
    command = fake.command_store.get(req.params["command_id"], _app_guild(fake, req))
    if command is None:
        raise ApiError(404, 10063, "Unknown application command")
    return command


@route("PATCH", "/applications/{app_id}/commands/{command_id}")
@route("PATCH", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}")
async def edit_command(fake: FakeDiscord, req: Req) -> Any:
    command = fake.command_store.edit(req.params["command_id"], _app_guild(fake, req), _require_object(req.body))
    if command is None:
        raise ApiError(404, 10063, "Unknown application command")
    _commands_changed(fake)
    return command


@route("DELETE", "/applications/{app_id}/commands/{command_id}")
@route("DELETE", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}")
async def delete_command(fake: FakeDiscord, req: Req) -> Any:
    if not fake.command_store.delete(req.params["command_id"], _app_guild(fake, req)):
        raise ApiError(404, 10063, "Unknown application command")
    return None


# --- guilds and channels -------------------------------------------------------------------------

def _guild(fake: FakeDiscord, req: Req):
    guild = fake.guilds.get(req.int_param("guild_id", lambda: ApiError(404, 10004, "Unknown Guild")))
    if guild is None:
        raise ApiError(404, 10004, "Unknown Guild")
    return guild


@route("GET", "/guilds/{guild_id}")
async def get_guild(fake: FakeDiscord, req: Req) -> Any:
    return fake.guild_payload(_guild(fake, req))


@route("GET", "/guilds/{guild_id}/channels")
async def get_guild_channels(fake: FakeDiscord, req: Req) -> Any:
    guild = _guild(fake, req)
    return [fake.channel_payload(fake.channels[cid]) for cid in guild.channel_ids]


@route("GET", "/guilds/{guild_id}/roles")
async def get_guild_roles(fake: FakeDiscord, req: Req) -> Any:
    return [role.payload() for role in _guild(fake, req).roles.values()]


@route("GET", "/guilds/{guild_id}/members")
async def list_guild_members(fake: FakeDiscord, req: Req) -> Any:
    guild = _guild(fake, req)
    return [fake.member_payload(guild, uid) for uid in guild.members]


@route("GET", "/guilds/{guild_id}/members/{user_id}")
async def get_guild_member(fake: FakeDiscord, req: Req) -> Any:
    guild = _guild(fake, req)
    user_id = req.int_param("user_id", lambda: ApiError(404, 10007, "Unknown Member"))
    if user_id not in guild.members:
        raise ApiError(404, 10007, "Unknown Member")
    return fake.member_payload(guild, user_id)


def _channel(fake: FakeDiscord, req: Req):
    channel = fake.channels.get(req.int_param("channel_id", unknown_channel))
    if channel is None:
        raise unknown_channel()
    if channel.guild_id in fake.left_guilds:  # the bot is no longer in its guild
        raise ApiError(403, 50001, "Missing Access")
    return channel


@route("GET", "/channels/{channel_id}")
async def get_channel(fake: FakeDiscord, req: Req) -> Any:
    return fake.channel_payload(_channel(fake, req))


@route("POST", "/channels/{channel_id}/typing")
async def trigger_typing(fake: FakeDiscord, req: Req) -> Any:
    _channel(fake, req)
    return None


@route("POST", "/channels/{channel_id}/messages")
async def create_message(fake: FakeDiscord, req: Req) -> Any:
    channel = _channel(fake, req)
    if channel.is_dm:
        assert channel.recipient_id is not None
        if fake.users[channel.recipient_id].blocks_dms:
            raise cannot_dm()
    else:
        _bot_may_post(fake, channel, req, int(Perm.VIEW_CHANNEL | Perm.SEND_MESSAGES))
    msg = fake.new_message(channel)
    body = _require_object(req.body)
    _check_reference(fake, channel.id, body)
    msg.flags = _check_flags(body.get("flags"), CHANNEL_FLAGS)
    apply_message_body(fake, msg, body, req.uploads, creating=True, allowed_flags=CHANNEL_FLAGS)
    fake.store_message(msg)
    if channel.is_dm:
        fake.record("dm", msg, user_id=channel.recipient_id)
    else:
        fake.record("channel_message", msg)
    await fake.gateway_message_event("MESSAGE_CREATE", msg)
    return fake.message_payload(msg)


@route("GET", "/channels/{channel_id}/messages")
async def list_messages(fake: FakeDiscord, req: Req) -> Any:
    channel = _channel(fake, req)
    try:
        limit = int(req.query.get("limit", 50))
    except ValueError:
        limit = 0
    if not 1 <= limit <= 100:
        raise ApiError(400, 50035, "Invalid Form Body", {"limit": {"_errors": [
            {"code": "NUMBER_TYPE_MAX", "message": "int value should be between 1 and 100."}]}})
    messages = fake.messages(channel)
    if "before" in req.query:
        messages = [m for m in messages if m.id < _snowflake_query(req, "before")]
    if "after" in req.query:
        messages = [m for m in messages if m.id > _snowflake_query(req, "after")]
        return [fake.message_payload(m) for m in reversed(messages[:limit])]
    if "around" in req.query:
        pivot = _snowflake_query(req, "around")
        older = [m for m in messages if m.id <= pivot][-(limit // 2 + 1):]
        newer = [m for m in messages if m.id > pivot][: limit - len(older)]
        messages = older + newer
    return [fake.message_payload(m) for m in reversed(messages[-limit:])]


def _snowflake_query(req: Req, name: str) -> int:
    try:
        return int(req.query[name])
    except ValueError:
        raise ApiError(400, 50035, "Invalid Form Body", {name: {"_errors": [
            {"code": "NUMBER_TYPE_COERCE", "message": f"Value \"{req.query[name]}\" is not snowflake."}]}}) from None


def _check_reference(fake: FakeDiscord, channel_id: int, body: dict[str, Any]) -> None:
    reference = body.get("message_reference")
    if not isinstance(reference, dict) or reference.get("fail_if_not_exists") is False:
        return
    target = fake.messages_by_id.get(int(reference.get("message_id") or 0))
    if target is None or target.deleted or target.ephemeral or target.channel_id != channel_id:
        raise ApiError(400, 50035, "Invalid Form Body", {"message_reference": {"_errors": [
            {"code": "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "message": "Unknown message"}]}})


def _channel_message(fake: FakeDiscord, req: Req) -> Message:
    channel = _channel(fake, req)
    msg = fake.messages_by_id.get(req.int_param("message_id", unknown_message))
    if msg is None or msg.channel_id != channel.id or msg.deleted or msg.ephemeral:
        raise unknown_message()
    return msg


@route("GET", "/channels/{channel_id}/messages/{message_id}")
async def get_message(fake: FakeDiscord, req: Req) -> Any:
    return fake.message_payload(_channel_message(fake, req))


def _bot_may_post(fake: FakeDiscord, channel: FakeChannel, req: Req, needed: int) -> None:
    """403/50013 where the bot lacks ``needed`` in ``channel``, or Attach Files for uploads."""
    allowed = fake.permissions_in(channel, fake.bot_user.id)
    if req.uploads:
        needed |= int(Perm.ATTACH_FILES)
    if needed & ~allowed:
        raise missing_permissions()


@route("PATCH", "/channels/{channel_id}/messages/{message_id}")
async def edit_message(fake: FakeDiscord, req: Req) -> Any:
    msg = _channel_message(fake, req)
    if msg.author_id != fake.bot_user.id:
        raise ApiError(403, 50005, "Cannot edit a message authored by another user")
    channel = fake.channels[msg.channel_id]
    if not channel.is_dm:
        _bot_may_post(fake, channel, req, int(Perm.VIEW_CHANNEL))
    apply_message_body(fake, msg, req.body, req.uploads, creating=False, allowed_flags=EDIT_FLAGS)
    fake.record("message_edit", msg, user_id=msg.target_user_id)
    await fake.gateway_message_event("MESSAGE_UPDATE", msg)
    return fake.message_payload(msg)


@route("DELETE", "/channels/{channel_id}/messages/{message_id}")
async def delete_message(fake: FakeDiscord, req: Req) -> Any:
    msg = _channel_message(fake, req)
    msg.deleted = True
    fake.record("message_delete", msg, user_id=msg.target_user_id)
    await fake.gateway_message_event("MESSAGE_DELETE", msg)
    return None


# --- interactions --------------------------------------------------------------------------------

def _reject(interaction: FakeInteraction, error: ApiError, callback_type: int | None) -> ApiError:
    interaction.rejections.append(ix_types.Rejection(error.status, error.code, error.message, callback_type))
    interaction._notify()
    return error


@route("POST", "/interactions/{interaction_id}/{token}/callback", auth=False)
async def interaction_callback(fake: FakeDiscord, req: Req) -> Any:
    now = fake.now()
    interaction = fake.interactions.get(req.int_param("interaction_id", unknown_interaction))
    if interaction is None or interaction.token != req.params["token"]:
        raise unknown_interaction()
    body = _require_object(req.body)
    kind = body.get("type")
    if interaction.acked or interaction.claimed:
        raise _reject(interaction, already_acknowledged(), kind)
    if interaction.expired(now):
        raise _reject(interaction, unknown_interaction(), kind)
    if kind not in ix_types.ALLOWED_CALLBACKS[interaction.type]:
        raise _reject(interaction, ApiError(400, 50035, "Invalid Form Body", {"type": {"_errors": [
            {"code": "INTERACTION_RESPONSE_TYPE_INVALID",
             "message": f"Callback type {kind!r} is not valid for interaction type {interaction.type}"}]}}), kind)
    data = body.get("data")
    if data is not None and not isinstance(data, dict):
        raise _reject(interaction, ApiError(400, 50035, "Invalid Form Body"), kind)
    data = data or {}
    interaction.claimed = True
    try:
        message = await _apply_callback(fake, interaction, kind, data, req)
    except ApiError as error:
        interaction.claimed = False
        raise _reject(interaction, error, kind) from None
    interaction.response = {"type": kind, "data": data}
    interaction._notify()
    if not req.flag("with_response"):
        return None
    info: dict[str, Any] = {"id": str(interaction.id), "type": interaction.type}
    resource: dict[str, Any] = {"type": kind}
    if message is not None:
        info["response_message_id"] = str(message.id)
        info["response_message_loading"] = message.loading
        info["response_message_ephemeral"] = message.ephemeral
        if kind != ix_types.DEFERRED_UPDATE_MESSAGE:
            resource["message"] = fake.message_payload(message)
    return {"interaction": info, "resource": resource}


async def _apply_callback(
    fake: FakeDiscord, interaction: FakeInteraction, kind: int, data: dict[str, Any], req: Req
) -> Message | None:
    channel = fake.channels[interaction.channel_id]
    if kind == ix_types.CHANNEL_MESSAGE:
        msg = fake.new_message(channel, interaction=interaction)
        msg.flags = _check_flags(data.get("flags"), INTERACTION_FLAGS)
        apply_message_body(fake, msg, data, req.uploads, creating=True, allowed_flags=INTERACTION_FLAGS)
        fake.store_message(msg)
        interaction.original_message_id = msg.id
        fake.record("interaction_response", msg, user_id=interaction.user_id, interaction_id=interaction.id)
        await fake.gateway_message_event("MESSAGE_CREATE", msg)
        return msg
    if kind == ix_types.DEFERRED_CHANNEL_MESSAGE:
        msg = fake.new_message(channel, interaction=interaction)
        msg.flags = FLAG_LOADING | (_check_flags(data.get("flags"), INTERACTION_FLAGS) & FLAG_EPHEMERAL)
        fake.store_message(msg)
        interaction.original_message_id = msg.id
        fake.record("interaction_response", msg, user_id=interaction.user_id, interaction_id=interaction.id,
                    deferred=True)
        await fake.gateway_message_event("MESSAGE_CREATE", msg)
        return msg
    if kind in (ix_types.DEFERRED_UPDATE_MESSAGE, ix_types.UPDATE_MESSAGE):
        if interaction.component_message_id is None:
            raise ApiError(400, 50035, "Invalid Form Body", {"type": {"_errors": [
                {"code": "INTERACTION_RESPONSE_TYPE_INVALID", "message": "No message to update"}]}})
        msg = fake.message(interaction.component_message_id)
        if msg.deleted:
            raise unknown_message()
        interaction.original_message_id = msg.id
        if kind == ix_types.UPDATE_MESSAGE:
            apply_message_body(fake, msg, data, req.uploads, creating=False, allowed_flags=EDIT_FLAGS)
            fake.record("message_edit", msg, user_id=msg.target_user_id or interaction.user_id,
                        interaction_id=interaction.id)
            await fake.gateway_message_event("MESSAGE_UPDATE", msg)
        return msg
    if kind == ix_types.AUTOCOMPLETE_RESULT:
        validate.check_choices(data.get("choices"), interaction.focused_type)
        return None
    if kind == ix_types.MODAL:
        validate.check_modal(data)
        interaction.modal = data
        return None
    raise ApiError(400, 50035, "Invalid Form Body")


def _webhook_interaction(fake: FakeDiscord, req: Req) -> FakeInteraction:
    if req.params["app_id"] != str(fake.app_id):
        raise unknown_webhook()
    interaction = fake.interactions_by_token.get(req.params["token"])
    if interaction is None:
        raise unknown_webhook()
    if interaction.token_expired(fake.now()):
        raise ApiError(401, 50027, "Invalid Webhook Token")
    if not interaction.acked or interaction.response_type == ix_types.AUTOCOMPLETE_RESULT:
        raise unknown_webhook()
    return interaction


@route("POST", "/webhooks/{app_id}/{token}", auth=False)
async def execute_webhook(fake: FakeDiscord, req: Req) -> Any:
    interaction = _webhook_interaction(fake, req)
    body = _require_object(req.body)
    original = interaction.message
    if original is not None and original.loading and interaction.response_type == ix_types.DEFERRED_CHANNEL_MESSAGE:
        # The first followup after a "thinking" defer replaces the placeholder (keeping its ephemerality).
        msg = original
        requested = _check_flags(body.get("flags"), INTERACTION_FLAGS) & ~FLAG_EPHEMERAL
        body = {**body, "flags": requested}
        apply_message_body(fake, msg, body, req.uploads, creating=True, allowed_flags=INTERACTION_FLAGS)
        msg.flags &= ~FLAG_LOADING
        msg.edited_at = iso_now()
        event = "MESSAGE_UPDATE"
    else:
        msg = fake.new_message(fake.channels[interaction.channel_id], interaction=interaction)
        msg.flags = _check_flags(body.get("flags"), INTERACTION_FLAGS)
        apply_message_body(fake, msg, body, req.uploads, creating=True, allowed_flags=INTERACTION_FLAGS)
        fake.store_message(msg)
        event = "MESSAGE_CREATE"
    interaction.followup_ids.append(msg.id)
    fake.record("followup", msg, user_id=interaction.user_id, interaction_id=interaction.id)
    interaction._notify()
    await fake.gateway_message_event(event, msg)
    if not req.flag("wait"):
        return None
    return fake.message_payload(msg)


def _webhook_message(fake: FakeDiscord, req: Req) -> tuple[FakeInteraction, Message]:
    interaction = _webhook_interaction(fake, req)
    raw = req.params["message_id"]
    if raw == "@original":
        message_id = interaction.original_message_id
    else:
        message_id = int(raw) if raw.isdigit() else None
        if message_id not in (interaction.original_message_id, *interaction.followup_ids):
            message_id = None
    if message_id is None:
        raise unknown_message()
    msg = fake.message(message_id)
    if msg.deleted:
        raise unknown_message()
    return interaction, msg


@route("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", auth=False)
async def get_webhook_message(fake: FakeDiscord, req: Req) -> Any:
    _interaction, msg = _webhook_message(fake, req)
    return fake.message_payload(msg)


@route("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", auth=False)
async def edit_webhook_message(fake: FakeDiscord, req: Req) -> Any:
    interaction, msg = _webhook_message(fake, req)
    apply_message_body(fake, msg, req.body, req.uploads, creating=False, allowed_flags=EDIT_FLAGS)
    msg.flags &= ~FLAG_LOADING
    fake.record("message_edit", msg, user_id=msg.target_user_id or interaction.user_id,
                interaction_id=interaction.id)
    interaction._notify()
    await fake.gateway_message_event("MESSAGE_UPDATE", msg)
    return fake.message_payload(msg)


@route("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", auth=False)
async def delete_webhook_message(fake: FakeDiscord, req: Req) -> Any:
    interaction, msg = _webhook_message(fake, req)
    msg.deleted = True
    fake.record("message_delete", msg, user_id=msg.target_user_id, interaction_id=interaction.id)
    interaction._notify()
    await fake.gateway_message_event("MESSAGE_DELETE", msg)
    return None
