"""Running the bot under test as a separate OS process pointed at a FakeDiscord."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from .interactions import InteractionTimeout
from .server import FakeDiscord


class BotProcess:
    """A bot subprocess whose stdout+stderr go to ``log_path``.

    ``argv`` is run with the current interpreter when it starts with ``-m`` or a ``.py`` path.
    The environment is ours plus ``fake.env()`` (DISCORD_API_BASE, DISCORD_GATEWAY_URL,
    DISCORD_TOKEN, DISCORD_APPLICATION_ID) plus ``extra_env``.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        argv: Sequence[str],
        *,
        log_path: Path,
        extra_env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
    ) -> None:
        self.fake = fake
        self.argv = [sys.executable, *argv] if argv[0] == "-m" or argv[0].endswith(".py") else list(argv)
        self.log_path = log_path
        self.env = {**os.environ, **fake.env(), "PYTHONUNBUFFERED": "1", **(extra_env or {})}
        self.cwd = cwd
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> BotProcess:
        with open(self.log_path, "wb") as log_file:
            self.proc = await asyncio.create_subprocess_exec(
                *self.argv, stdin=asyncio.subprocess.DEVNULL, stdout=log_file, stderr=asyncio.subprocess.STDOUT,
                env=self.env, cwd=self.cwd,
            )
        self.fake.diagnostics.append(self.describe)
        return self

    def describe(self) -> str:
        return f"--- bot process (exit code {self.returncode}), log tail ---\n{self.output()[-3000:]}"

    @property
    def returncode(self) -> int | None:
        return None if self.proc is None else self.proc.returncode

    def output(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    async def wait_ready(self, timeout: float = 20.0, *, commands: bool = True) -> None:
        """``fake.wait_until_ready`` that fails at once, with the bot's log, if the process dies."""
        assert self.proc is not None, "start() first"
        ready = asyncio.ensure_future(self.fake.wait_until_ready(timeout, commands=commands))
        exited = asyncio.ensure_future(self.proc.wait())
        try:
            done, _pending = await asyncio.wait({ready, exited}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (ready, exited):
                task.cancel()
        if ready in done and ready.exception() is None:
            return
        if ready in done:
            raise InteractionTimeout(str(ready.exception()))  # describe_recent() already has our log
        raise InteractionTimeout(f"bot exited with {self.proc.returncode} before ready\n{self.describe()}")

    async def stop(self, timeout: float = 5.0) -> int | None:
        """SIGTERM, then SIGKILL after ``timeout``; always reaps the process."""
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return None if proc is None else proc.returncode
        try:
            proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(proc.wait(), timeout)
        except ProcessLookupError:
            pass
        except TimeoutError:
            proc.kill()
            await proc.wait()
        return proc.returncode
