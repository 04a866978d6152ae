"""Application commands: what the bot synced, and the ``data`` a Discord client builds to invoke them.

The invoking side is strict like Discord's client: a user can only fill options the synced
definition has, with values of the declared type, inside min/max and choices, through an existing
subcommand path, and cannot see a command whose ``default_member_permissions`` they lack.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import validate
from .model import FakeChannel, FakeGuild, FakeRole, FakeUser, Perm, Upload

if TYPE_CHECKING:
    from .server import FakeDiscord

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
MAX_SAFE_INTEGER = 2**53


class CommandUsageError(Exception):
    """A fake user tried something Discord's client would not let them do."""


class CommandStore:
    """Commands as stored by Discord: global ones and per-guild ones, each with a stable id."""

    def __init__(self, app_id: int, snowflake: Callable[[], int]) -> None:
        self.app_id = app_id
        self._snowflake = snowflake
        self._global: list[dict[str, Any]] = []
        self._guild: dict[int, list[dict[str, Any]]] = {}
        self.sync_count = 0

    def list(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        bucket = self._global if guild_id is None else self._guild.get(guild_id, [])
        return copy.deepcopy(bucket)

    def _bucket(self, guild_id: int | None) -> list[dict[str, Any]]:
        if guild_id is None:
            return self._global
        return self._guild.setdefault(guild_id, [])

    def _stored(self, payload: dict[str, Any], guild_id: int | None, old: dict[str, Any] | None) -> dict[str, Any]:
        kind = payload.get("type", 1)
        stored = {
            "id": old["id"] if old else str(self._snowflake()),
            "application_id": str(self.app_id),
            "version": str(self._snowflake()),
            "type": kind,
            "name": payload["name"],
            "name_localizations": payload.get("name_localizations"),
            "description": payload.get("description", ""),
            "description_localizations": payload.get("description_localizations"),
            "options": copy.deepcopy(payload.get("options") or []),
            "default_member_permissions": payload.get("default_member_permissions"),
            "dm_permission": payload.get("dm_permission", True),
            "contexts": payload.get("contexts"),
            "integration_types": payload.get("integration_types") or [0],
            "nsfw": payload.get("nsfw", False),
        }
        if guild_id is not None:
            stored["guild_id"] = str(guild_id)
        return stored

    def overwrite(self, payload: Any, guild_id: int | None) -> list[dict[str, Any]]:
        """PUT semantics: the new list replaces the old; same (type, name) keeps its id."""
        validate.check_commands(payload)
        bucket = self._bucket(guild_id)
        old = {(c["type"], c["name"]): c for c in bucket}
        new = [self._stored(c, guild_id, old.get((c.get("type", 1), c["name"]))) for c in payload]
        bucket[:] = new
        self.sync_count += 1
        return copy.deepcopy(new)

    def upsert(self, payload: Any, guild_id: int | None) -> tuple[dict[str, Any], bool]:
        validate.check_commands([payload])
        bucket = self._bucket(guild_id)
        for i, existing in enumerate(bucket):
            if (existing["type"], existing["name"]) == (payload.get("type", 1), payload["name"]):
                bucket[i] = self._stored(payload, guild_id, existing)
                return copy.deepcopy(bucket[i]), False
        stored = self._stored(payload, guild_id, None)
        bucket.append(stored)
        return copy.deepcopy(stored), True

    def get(self, command_id: str, guild_id: int | None) -> dict[str, Any] | None:
        for command in self._bucket(guild_id):
            if command["id"] == command_id:
                return command
        return None

    def edit(self, command_id: str, guild_id: int | None, patch: dict[str, Any]) -> dict[str, Any] | None:
        command = self.get(command_id, guild_id)
        if command is None:
            return None
        merged = {**command, **patch}
        validate.check_commands([merged])
        command.update(self._stored(merged, guild_id, command))
        return copy.deepcopy(command)

    def delete(self, command_id: str, guild_id: int | None) -> bool:
        bucket = self._bucket(guild_id)
        for i, command in enumerate(bucket):
            if command["id"] == command_id:
                del bucket[i]
                return True
        return False

    def find(self, name: str, guild_id: int | None, kind: int = 1) -> dict[str, Any] | None:
        """The command a client in this guild sees under this name (guild commands shadow global)."""
        buckets = ([self._guild.get(guild_id, [])] if guild_id is not None else []) + [self._global]
        for bucket in buckets:
            for command in bucket:
                if command["name"] == name and command["type"] == kind:
                    return command
        return None

    def names(self, guild_id: int | None) -> list[str]:
        found = [c["name"] for c in self._global]
        if guild_id is not None:
            found += [c["name"] for c in self._guild.get(guild_id, [])]
        return sorted(set(found))


def _option_label(path: list[str], name: str) -> str:
    return "/" + " ".join([*path, name])


class InvocationBuilder:
    """Builds ``data`` (options and resolved objects) for one invocation."""

    def __init__(self, fake: FakeDiscord, guild: FakeGuild, user: FakeUser, channel: FakeChannel) -> None:
        self.fake = fake
        self.guild = guild
        self.user = user
        self.channel = channel
        self.resolved: dict[str, dict[str, Any]] = {}

    def _resolve(self, bucket: str, key: int, value: dict[str, Any]) -> None:
        self.resolved.setdefault(bucket, {})[str(key)] = value

    def _resolve_user(self, user: FakeUser) -> None:
        self._resolve("users", user.id, user.payload())
        if user.id in self.guild.members:
            member = self.fake.member_payload(self.guild, user.id,
                                              permissions=self.fake.permissions_in(self.channel, user.id))
            member.pop("user", None)
            self._resolve("members", user.id, member)

    def _resolve_role(self, role: FakeRole) -> None:
        self._resolve("roles", role.id, role.payload())

    def _convert(self, where: str, option: dict[str, Any], value: Any) -> Any:
        kind = option["type"]
        if kind == STRING:
            if not isinstance(value, str):
                raise CommandUsageError(f"{where} wants a string, got {value!r}")
            if not option.get("min_length", 0) <= len(value) <= option.get("max_length", 6000):
                raise CommandUsageError(f"{where}: length {len(value)} outside min_length/max_length")
            return value
        if kind in (INTEGER, NUMBER):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise CommandUsageError(f"{where} wants a number, got {value!r}")
            if kind == INTEGER and not isinstance(value, int):
                raise CommandUsageError(f"{where} wants an integer, got {value!r}")
            if not -MAX_SAFE_INTEGER < value < MAX_SAFE_INTEGER:
                raise CommandUsageError(f"{where}: {value} out of range")
            if "min_value" in option and option["min_value"] is not None and value < option["min_value"]:
                raise CommandUsageError(f"{where}: {value} < min_value {option['min_value']}")
            if "max_value" in option and option["max_value"] is not None and value > option["max_value"]:
                raise CommandUsageError(f"{where}: {value} > max_value {option['max_value']}")
            return value if kind == INTEGER else float(value)
        if kind == BOOLEAN:
            if not isinstance(value, bool):
                raise CommandUsageError(f"{where} wants a boolean, got {value!r}")
            return value
        if kind in (USER, MENTIONABLE) and isinstance(value, FakeUser):
            self._resolve_user(value)
            return str(value.id)
        if kind in (ROLE, MENTIONABLE) and isinstance(value, FakeRole):
            self._resolve_role(value)
            return str(value.id)
        if kind == CHANNEL and isinstance(value, FakeChannel):
            types = option.get("channel_types")
            if types and value.type not in types:
                raise CommandUsageError(f"{where} accepts channel types {types}, not {value.type}")
            self._resolve("channels", value.id, self.fake.resolved_channel_payload(value, self.user))
            return str(value.id)
        if kind == ATTACHMENT:
            if isinstance(value, tuple):
                value = Upload(*value)
            if not isinstance(value, Upload):
                raise CommandUsageError(f"{where} wants an Upload(filename, data), got {value!r}")
            attachment = self.fake.store_upload(self.channel, value)
            self._resolve("attachments", attachment.id, attachment.payload(self.fake.base_url, self.channel.id))
            return str(attachment.id)
        raise CommandUsageError(f"{where} (type {kind}) cannot take {value!r}")

    def options(
        self,
        definitions: list[dict[str, Any]],
        given: dict[str, Any],
        *,
        path: list[str],
        focused: str | None,
    ) -> list[dict[str, Any]]:
        known = {d["name"]: d for d in definitions}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise CommandUsageError(f"{'/' + ' '.join(path)} has no option(s) {unknown}; it has {sorted(known)}")
        out: list[dict[str, Any]] = []
        for definition in definitions:
            name = definition["name"]
            where = _option_label(path, name)
            if name == focused:
                if not definition.get("autocomplete"):
                    raise CommandUsageError(f"{where} has no autocomplete")
                out.append({"name": name, "type": definition["type"], "value": str(given.get(name, "")),
                            "focused": True})
                continue
            if name not in given:
                if definition.get("required") and focused is None:
                    raise CommandUsageError(f"{where} is required")
                continue
            value = self._convert(where, definition, given[name])
            choices = definition.get("choices")
            if choices and value not in [c["value"] for c in choices]:
                raise CommandUsageError(f"{where}: {value!r} is not one of {[c['value'] for c in choices]}")
            out.append({"name": name, "type": definition["type"], "value": value})
        if focused is not None and focused not in known:
            raise CommandUsageError(f"{'/' + ' '.join(path)} has no option {focused!r} to focus")
        return out


def build_command_data(
    fake: FakeDiscord,
    *,
    command: dict[str, Any],
    path: tuple[str, ...],
    given: dict[str, Any],
    guild: FakeGuild,
    user: FakeUser,
    channel: FakeChannel,
    focused: str | None = None,
    bypass_permissions: bool = False,
) -> dict[str, Any]:
    """The ``data`` of an APPLICATION_COMMAND (or AUTOCOMPLETE, when ``focused``) interaction."""
    required = command.get("default_member_permissions")
    if required is not None and not bypass_permissions:
        perms = guild.member_permissions(user.id)
        if int(required) & ~perms and not perms & Perm.ADMINISTRATOR:
            raise CommandUsageError(
                f"{user.name} cannot see /{command['name']}: it needs permissions {required}, they have {perms}"
            )
    builder = InvocationBuilder(fake, guild, user, channel)
    names = [command["name"]]
    definitions = command.get("options") or []
    chain: list[dict[str, Any]] = []
    for name in path:
        sub = next((o for o in definitions if o["name"] == name and o["type"] in (1, 2)), None)
        if sub is None:
            subs = [o["name"] for o in definitions if o["type"] in (1, 2)]
            raise CommandUsageError(f"/{' '.join(names)} has no subcommand {name!r}; it has {subs}")
        chain.append(sub)
        names.append(name)
        definitions = sub.get("options") or []
    subs = [o["name"] for o in definitions if o["type"] in (1, 2)]
    if subs:
        raise CommandUsageError(f"/{' '.join(names)} needs a subcommand, one of {subs}")
    options = builder.options(definitions, given, path=names, focused=focused)
    for sub in reversed(chain):
        options = [{"name": sub["name"], "type": sub["type"], "options": options}]
    data: dict[str, Any] = {
        "id": command["id"],
        "name": command["name"],
        "type": command["type"],
        "options": options,
    }
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    if builder.resolved:
        data["resolved"] = builder.resolved
    return data
