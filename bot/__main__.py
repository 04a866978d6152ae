"""``python -m bot`` / ``shengji-bot``: settings from the environment, then run."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import discord
import yarl

from bot.client import ShengjiBot
from bot.config import ConfigError, Settings
from bot.store import StoreError
from bot.store.postgres import redacted


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
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: "
                        "%(message)s")
    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    apply_endpoints(settings)
    try:
        asyncio.run(_run(settings))
    except StoreError as exc:
        print(f"The database {redacted(settings.database)!r} cannot be used: {exc}",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


async def _run(settings: Settings) -> None:
    """Run until the connection ends or SIGTERM/SIGINT asks the bot to stop; either way
    ``close()`` runs (clocks and redraws stopped, worker pool shut down, store closed)."""
    async with ShengjiBot(settings) as bot:
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, lambda: asyncio.ensure_future(bot.close()))
        await bot.start(settings.token)


if __name__ == "__main__":
    raise SystemExit(main())
