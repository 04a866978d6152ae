"""Settings from the environment and an optional ``.env`` file (python-dotenv)."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

from dotenv import load_dotenv

#: How to get a bot token into the settings: said where it is missing and where Discord
#: refuses it (``bot.__main__``).
TOKEN_STEPS = """Open https://discord.com/developers/applications and your application (create
one if you have none), open "Bot", press "Reset Token", and put the new token in DISCORD_TOKEN
(export DISCORD_TOKEN=..., or DISCORD_TOKEN=... in a .env file here); then run shengji-bot
again."""

TOKEN_HELP = f"""DISCORD_TOKEN is not set.

{TOKEN_STEPS} Invite the bot with the scopes "bot applications.commands"."""


class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class Settings:
    token: str
    database: str = "shengji.sqlite3"
    guild_id: int | None = None  # sync commands to one guild at once (development)
    api_base: str | None = None  # DISCORD_API_BASE: an HTTP proxy, or the test fake
    gateway_url: str | None = None  # DISCORD_GATEWAY_URL
    turn_timer: float = 90.0  # SHENGJI_TURN_TIMER: seconds per turn for new tables
    # SHENGJI_NUDGE_AFTER: a person's turn not taken after so many seconds posts the table
    # anew, which notifies them (0: never)
    nudge_after: float = 20.0
    pause_scale: float = 1.0  # SHENGJI_PAUSE_SCALE: multiplies every pause (tests: 0.01)
    edit_interval: float = 1.0  # SHENGJI_EDIT_INTERVAL: table message edits coalesce
    seed: int | None = None  # SHENGJI_SEED: fixed deals, for tests and demos
    # SHENGJI_LOBBY_HOURS / SHENGJI_PAUSED_HOURS: a lobby nobody touched, or a match paused
    # with every player away, is closed after so many hours (0: never)
    lobby_hours: float = 24.0
    paused_hours: float = 168.0
    # SHENGJI_SHARD_COUNT / SHENGJI_SHARDS: this process serves these of that many shards
    shard_count: int | None = None
    shards: tuple[int, ...] | None = None

    @classmethod
    def from_env(cls, env_file: str | None = ".env") -> Settings:
        if env_file:
            load_dotenv(env_file, override=False)
        token = os.environ.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(TOKEN_HELP)
        guild = os.environ.get("SHENGJI_GUILD_ID", "").strip()
        if guild and not guild.isdecimal():
            raise ConfigError(f"SHENGJI_GUILD_ID must be a number (a server id), not {guild!r}")
        numbers = {}
        # (a turn of no time, or a negative pause, would let the computers play for everyone)
        for name, var, meaning, above_zero in (
                ("turn_timer", "SHENGJI_TURN_TIMER", "a number of seconds above 0", True),
                ("nudge_after", "SHENGJI_NUDGE_AFTER", "a number of seconds, 0 or more "
                 "(0: never)", False),
                ("pause_scale", "SHENGJI_PAUSE_SCALE",
                 "a number, 0 or more (how many times each pause)", False),
                ("edit_interval", "SHENGJI_EDIT_INTERVAL", "a number of seconds, 0 or more",
                 False),
                ("lobby_hours", "SHENGJI_LOBBY_HOURS", "a number of hours, 0 or more "
                 "(0: never)", False),
                ("paused_hours", "SHENGJI_PAUSED_HOURS", "a number of hours, 0 or more "
                 "(0: never)", False)):
            raw = os.environ.get(var, "").strip()
            if raw:
                try:
                    number = float(raw)
                except ValueError:
                    number = math.nan
                if not math.isfinite(number) or number < 0 or (above_zero and number == 0):
                    raise ConfigError(f"{var} must be {meaning}, not {raw!r}")
                numbers[name] = number
        seed = os.environ.get("SHENGJI_SEED", "").strip()
        if seed and not seed.isdecimal():
            raise ConfigError(f"SHENGJI_SEED must be a whole number, not {seed!r}")
        shard_count, shards = parse_shards(os.environ.get("SHENGJI_SHARD_COUNT", ""),
                                           os.environ.get("SHENGJI_SHARDS", ""))
        return cls(token=token, **numbers, seed=int(seed) if seed else None,
                   shard_count=shard_count, shards=shards,
                   database=os.environ.get("SHENGJI_DB", "").strip() or "shengji.sqlite3",
                   guild_id=int(guild) if guild else None,
                   api_base=os.environ.get("DISCORD_API_BASE") or None,
                   gateway_url=os.environ.get("DISCORD_GATEWAY_URL") or None)


def parse_shards(count_text: str, shards_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHENGJI_SHARD_COUNT`` and ``SHENGJI_SHARDS`` ("0,1", "2-3", "0,4-5"; default: every
    shard of the count) as (count, shard ids); (None, None) when not sharded."""
    count_text, shards_text = count_text.strip(), shards_text.strip()
    if not count_text:
        if shards_text:
            raise ConfigError("SHENGJI_SHARDS needs SHENGJI_SHARD_COUNT (how many shards "
                              "all the bot's processes share)")
        return None, None
    if not count_text.isdecimal() or int(count_text) < 1:
        raise ConfigError(f"SHENGJI_SHARD_COUNT must be a whole number from 1, not "
                          f"{count_text!r}")
    count = int(count_text)
    if not shards_text:
        return count, tuple(range(count))
    ids: set[int] = set()
    for part in shards_text.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.isdecimal() or (dash and not last.isdecimal()):
            raise ConfigError(f"SHENGJI_SHARDS is a list of shard numbers and ranges such as "
                              f"0,1 or 2-3, not {shards_text!r}")
        ids.update(range(int(first), int(last if dash else first) + 1))
    if not ids or max(ids) >= count:
        raise ConfigError(f"SHENGJI_SHARDS {shards_text!r} must name shards from 0 to "
                          f"{count - 1} (SHENGJI_SHARD_COUNT={count})")
    return count, tuple(sorted(ids))
