"""Four players acting at once (double clicks included) while the bot process is killed
(SIGKILL) at random moments: a classic game on SQLite, a changzhu game on PostgreSQL.

Whatever the timing, each answer tells the truth: a play answered "Done." is stored, and
no play is stored twice; the restarted bot goes on with the same game, and no log has a
traceback. An interaction sent to a process about to be killed may go unanswered (Discord
would show "The application did not respond"); any other must be answered.

``SHENGJI_CHAOS_SECONDS`` sets how long the players act (default 35; a kill every 4 to 9
seconds). Storing a play after answering it (a write-behind) fails this test.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
from collections.abc import Awaitable
from pathlib import Path
from typing import TypeVar

import pytest

from tests.bot.backends import Backend
from tests.bot.harness import (
    World,
    answered,
    create_and_start,
    running_bot,
    table_message,
)
from tests.fakediscord import FakeUser
from tests.fakediscord.interactions import FakeInteraction, InteractionTimeout

pytestmark = pytest.mark.asyncio

T = TypeVar("T")

SECONDS = float(os.environ.get("SHENGJI_CHAOS_SECONDS", "35"))
GENERIC = "Something went wrong"
DONE = "Done."


class Players:
    """The four seated users acting at random, and what the bot answered them."""

    def __init__(self, world: World, users: list[FakeUser], rng: random.Random) -> None:
        self.world = world
        self.users = users
        self.rng = rng
        # which bot process answers: odd while one is killed and the next starts
        self.process = 0
        self.answers: list[FakeInteraction] = []
        self.played = [0] * len(users)  # plays answered "Done.", by seat
        self.lost = [0] * len(users)  # plays whose answer was lost with a killed process

    async def act(self, seat: int) -> None:
        user, fake, rng = self.users[seat], self.world.fake, self.rng
        process = self.process
        if process % 2:
            return  # (no bot to answer: players wait for the restart)
        try:
            if rng.random() < 0.7:
                await self._play(seat)
            elif rng.random() < 0.5:
                await self._bury_or_swap(user)
            else:
                message = table_message(self.world)
                buttons = [c for c in message.custom_ids()
                           if re.match(r"sj:(hand|join|addai|start|again):", c)]
                if buttons:
                    click = await fake.click(user, message, rng.choice(buttons))
                    await self._answered(click)
        except InteractionTimeout:
            if self.process == process:  # (not sent to a process that was then killed)
                raise

    async def _play(self, seat: int) -> None:
        fake, world = self.world.fake, self.world
        choices = await self._until_killed(fake.autocomplete(
            self.users[seat], world.channel, "shengji", "play", focused="cards", value=""))
        if not choices:
            return
        cards = self.rng.choice(choices)["value"]
        # (a double or triple click: at most one of them is the play)
        process = self.process
        sent = [await fake.slash(self.users[seat], world.channel, "shengji", "play", cards=cards)
                for _ in range(self.rng.choice([1, 1, 2, 3]))]
        for ix in await asyncio.gather(*(self._answered(ix) for ix in sent),
                                       return_exceptions=True):
            if isinstance(ix, InteractionTimeout) and self.process != process:
                self.lost[seat] += 1
            elif isinstance(ix, BaseException):
                raise ix
            else:
                self.played[seat] += ix.message is not None and (
                    ix.message.content or "").startswith(DONE)

    async def _bury_or_swap(self, user: FakeUser) -> None:
        fake, world = self.world.fake, self.world
        shown = await self._answered(await fake.slash(user, world.channel, "shengji", "hand"))
        text = shown.message.content if shown.message else ""
        kitty = re.search(r"Bury (\d+) cards", text)
        if kitty:
            cards = " ".join(str(i) for i in range(1, int(kitty.group(1)) + 1))
            await self._answered(await fake.slash(user, world.channel, "shengji", "bury",
                                                  cards=cards))
        elif "/shengji swap" in text:
            await self._answered(await fake.slash(user, world.channel, "shengji", "swap"))

    async def _answered(self, ix: FakeInteraction) -> FakeInteraction:
        """``answered``, given up as soon as the process it was sent to is killed."""
        await self._until_killed(answered(ix, 30))
        self.answers.append(ix)
        return ix

    async def _until_killed(self, waiting: Awaitable[T]) -> T:
        """``waiting`` (an answer from the bot), given up as soon as the process it was
        sent to is killed, so that the players go on with the next one at once. (Every
        answer waited for goes through here: a round of the players waits for all four,
        and one waited for to its own timeout, up to 10 s, from a killed process would
        hold them all through the next process's life: the game could not go on.)"""
        process = self.process
        task = asyncio.ensure_future(waiting)
        while not task.done():
            await asyncio.wait({task}, timeout=0.2)
            if self.process != process and not task.done():
                task.cancel()
                raise InteractionTimeout("its bot process was killed")
        return task.result()


async def _stored_plays(backend: Backend, players: int) -> list[int]:
    """Plays stored by seat (every match of the table: a match that ends may be followed
    by another, the players in the same seats)."""
    stored = [0] * players
    for (row,) in await backend.raw("SELECT action FROM actions"):
        action = json.loads(row) if isinstance(row, str) else row
        if action["type"] == "Play":
            stored[action["seat"]] += 1
    return stored


async def test_players_at_once_through_kills_get_true_answers(tmp_path: Path, database: str
                                                             ) -> None:
    postgres = database.startswith("postgresql://")
    preset = "changzhu" if postgres else "classic"
    rng = random.Random(preset)
    async with running_bot(tmp_path, database=database) as world:
        fake = world.fake
        users = [fake.add_user(name) for name in ("Alice", "Bob", "Carol", "Dan")]
        await create_and_start(world, users[0], preset, others=tuple(users[1:]))
        players = Players(world, users, rng)
        played_at_kills: list[int] = []
        loop = asyncio.get_running_loop()
        end = loop.time() + SECONDS

        async def kill_now_and_then() -> None:
            while True:
                await asyncio.sleep(rng.uniform(4, 9))
                if loop.time() > end - 3:
                    return
                players.process += 1
                played_at_kills.append(sum(players.played))
                await world.restart()  # SIGKILL, then a new process on the same database
                players.process += 1

        killer = asyncio.create_task(kill_now_and_then())
        while loop.time() < end:
            await asyncio.gather(*(players.act(seat) for seat in range(4)
                                   if rng.random() < 0.8))
            if killer.done():
                break
        await killer  # (its last restart done; a restart that failed fails the test)
        kills = len(world.logs) - 1
        assert kills >= 2, "the bot was not killed: lengthen SHENGJI_CHAOS_SECONDS"

        # the last process answers; every play answered "Done." is stored, and none twice
        # (a play whose answer was lost may be stored; no seat went away, so no computer
        # played for anyone)
        status = await fake.slash(users[0], world.channel, "shengji", "status")
        await answered(status)
        public = " ".join(r.text() for r in fake.public_payloads(world.channel))
        assert "is away" not in public
        assert sum(players.played) >= 8, "too few plays to tell anything"
        stored = await _stored_plays(Backend("postgres" if postgres else "sqlite", world.db), 4)
        # the game went on after the kills
        assert sum(players.played) > played_at_kills[0], (
            played_at_kills, players.played, players.lost, stored)
        for seat in range(4):
            assert players.played[seat] <= stored[seat] <= players.played[seat] + \
                players.lost[seat], (players.played, players.lost, stored)
        texts = [ix.message.content or "" if ix.message else "" for ix in players.answers]
        wrong = [text for text in texts if GENERIC in text]
        assert not wrong, wrong[:3]
        for log in world.logs:
            text = log.read_text(errors="replace")
            assert "Traceback" not in text, (log.name, text[-3000:])
    fake.assert_clean()
