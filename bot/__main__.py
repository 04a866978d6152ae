"""``python -m bot`` / ``shengji-bot``: settings from the environment, then run."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import aiohttp
import discord
import yarl

from bot import logs
from bot.client import ShengjiBot
from bot.config import TOKEN_STEPS, ConfigError, Settings
from bot.retry import reason, stopped_within, waits
from bot.store import StoreError
from bot.store.postgres import redacted

log = logging.getLogger("bot")

#: What says Discord cannot be reached now (no network, no name resolution, a refused or
#: dropped connection, a timeout, Discord's own 5xx after discord.py's retries), as opposed
#: to an answer that will not change by trying again (a refused token).
UNREACHABLE = (OSError, aiohttp.ClientError, TimeoutError, discord.DiscordServerError)

TOKEN_REFUSED = ("Discord refused the bot token in DISCORD_TOKEN ({reason}): it is not a bot "
                 "token, or it was reset.\n\n" + TOKEN_STEPS)


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py at a proxy or a local fake (DEP-WARN: class attributes)."""
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["migrate-db"]:  # shengji-bot migrate-db SOURCE TARGET
        from bot.store.transfer import command

        return command(args[1:])
    logs.configure()
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    apply_endpoints(settings)
    try:
        asyncio.run(_run(settings))
    except ConfigError as exc:  # (a setting Discord refused)
        print(exc, file=sys.stderr)
        return 2
    except StoreError as exc:
        print(f"The database {redacted(settings.database)!r} cannot be used: {exc}",
              file=sys.stderr)
        return 2
    except discord.LoginFailure:  # (the log-in's 401)
        print(TOKEN_REFUSED.format(reason="401 Unauthorized"), file=sys.stderr)
        return 2
    except discord.ConnectionClosed as exc:  # the gateway ended the session for good
        if exc.code == 4004:  # (the token was reset while the bot ran)
            print(TOKEN_REFUSED.format(reason="gateway close code 4004, authentication failed"),
                  file=sys.stderr)
            return 2
        print(f"Discord closed the connection (code {exc.code}: {exc.reason or 'no reason'}); "
              "the games are stored, start the bot again to go on.", file=sys.stderr)
        return 1
    except (aiohttp.ClientError, discord.DiscordServerError) as exc:  # (lost in the setup)
        print(f"Lost Discord ({discord.http.Route.BASE}) while starting up: {reason(exc)}. "
              "Nothing was lost; start the bot again.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


async def _run(settings: Settings) -> None:
    """Run until the connection ends or SIGTERM/SIGINT asks the bot to stop; either way
    ``close()`` runs (clocks and redraws stopped, worker pool shut down, store closed)."""
    async with ShengjiBot(settings) as bot:
        stopping = bot.stopping

        async def close_when_stopping() -> None:
            await stopping.wait()
            await bot.close()

        closer = asyncio.create_task(close_when_stopping())
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stopping.set)
        try:
            if await log_in(bot, settings.token, stopping):
                await bot.connect()
        finally:
            if not stopping.is_set():
                closer.cancel()
            await asyncio.gather(closer, return_exceptions=True)


async def log_in(bot: ShengjiBot, token: str, stopping: asyncio.Event) -> bool:
    """``bot.login``, tried again while Discord cannot be reached (a machine whose network
    comes up after the bot, an outage), with one line in the log a try: True once logged in,
    False when asked to stop first (here, or while the setup waits for the database). A
    refused token raises ``discord.LoginFailure`` at once. (Once connected, discord.py itself
    reconnects.)"""
    waiting = waits()
    while True:
        try:
            await bot.login(token)
            return True
        except Exception as exc:
            if stopping.is_set():
                return False  # (cut short by the stop, which closed its HTTP session)
            if bot.setting_up or not isinstance(exc, UNREACHABLE):
                raise  # (a refused token; or reached, then lost in the setup: not set up twice)
            wait = next(waiting)
            log.warning("Cannot reach Discord (%s): %s. Trying again in %d s.",
                        discord.http.Route.BASE, reason(exc), wait)
        # DEP-WARN: the failed log-in's HTTP session closes its connector with it, and
        # discord.py makes a new one only where ``connector`` is MISSING
        await bot.http.close()
        bot.http.connector = discord.utils.MISSING
        if await stopped_within(stopping, wait):
            return False


if __name__ == "__main__":
    raise SystemExit(main())
