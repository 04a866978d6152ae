"""Start the real bot process against the fake Discord, and play as a person would."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tests.fakediscord import (
    BotProcess,
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeInteraction,
    FakeUser,
)

ROOT = Path(__file__).resolve().parents[2]
EPHEMERAL = 64
# (no nudges: a test that takes its time at a turn keeps its table message; see
# test_nudge_e2e.py)
FAST = {"SHENGJI_PAUSE_SCALE": "0.01", "SHENGJI_EDIT_INTERVAL": "0",
        "SHENGJI_TURN_TIMER": "60", "SHENGJI_NUDGE_AFTER": "0"}


@dataclass
class World:
    fake: FakeDiscord
    bot: BotProcess
    guild: FakeGuild
    channel: FakeChannel
    db: str  # SHENGJI_DB: a SQLite file path or a postgresql:// URL
    log: Path
    env: dict[str, str]
    #: Every bot process's log, ``log`` first: each restart writes its own.
    logs: list[Path] = field(init=False)

    def __post_init__(self) -> None:
        self.logs = [self.log]

    async def restart(self) -> None:
        """Kill the bot process (SIGKILL: no goodbye) and start it again on the same file."""
        assert self.bot.proc is not None
        if self.bot.proc.returncode is None:  # (a test may have killed it already)
            self.bot.proc.kill()
            await self.bot.proc.wait()
        sessions = len(self.fake.identify_payloads)
        again = len(self.logs)  # (the first restart's log is ``.again``, then ``.again2``...)
        self.logs.append(self.log.with_suffix(".again" if again == 1 else f".again{again}"))
        self.bot = BotProcess(self.fake, ["-m", "bot"], log_path=self.logs[-1],
                              cwd=ROOT, extra_env=self.bot_env())
        await self.bot.start()
        await wait_until(lambda: len(self.fake.identify_payloads) > sessions, timeout=30)
        await self.bot.wait_ready(timeout=30)

    def bot_env(self) -> dict[str, str]:
        return {**FAST, "SHENGJI_GUILD_ID": str(self.guild.id), "SHENGJI_DB": self.db,
                **self.env}


@asynccontextmanager
async def running_bot(tmp_path: Path, env: dict[str, str] | None = None, *,
                      database: str | None = None) -> AsyncIterator[World]:
    """The bot (``python -m bot``) connected to a fresh fake; ``env`` adds settings;
    ``database`` is its SHENGJI_DB (default: a new SQLite file in ``tmp_path``)."""
    fake = FakeDiscord()
    await fake.start()
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "shengji")
    world = World(fake, None, guild, channel,  # type: ignore[arg-type]
                  database or str(tmp_path / "db.sqlite3"), tmp_path / "bot.log",
                  dict(env or {}))
    world.bot = BotProcess(fake, ["-m", "bot"], log_path=world.log, cwd=ROOT,
                           extra_env=world.bot_env())
    try:
        await world.bot.start()
        await world.bot.wait_ready(timeout=30)
        yield world
    finally:
        await world.bot.stop()
        await fake.stop()


def table_message(world: World, channel: FakeChannel | None = None):  # type: ignore[no-untyped-def]
    """The public table message (the one with the bot's table buttons) of ``channel``
    (default: the world's)."""
    for message in reversed(world.fake.messages(channel or world.channel)):
        if any(cid.startswith("sj:") for cid in message.custom_ids()):
            return message
    raise LookupError("no table message")


async def answered(ix: FakeInteraction, timeout: float = 10.0) -> FakeInteraction:
    """The interaction's answer is there: acknowledged in time and, when the bot deferred
    ("thinking…"), followed by its real content."""
    await ix.wait_acked()
    if ix.response_type == 5:
        await ix.wait_done(timeout)
    return ix


async def relay(one: tuple[asyncio.StreamReader, asyncio.StreamWriter],
                other: tuple[asyncio.StreamReader, asyncio.StreamWriter]) -> None:
    """Pass bytes both ways between two connections until either side closes (a proxy's
    connection: a Discord or a database that is reachable only when a test says so)."""

    async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while data := await source.read(65536):
                sink.write(data)
                await sink.drain()
        except ConnectionError:
            pass
        finally:
            sink.close()

    pipes = [asyncio.ensure_future(pipe(one[0], other[1])),
             asyncio.ensure_future(pipe(other[0], one[1]))]
    try:
        await asyncio.wait(pipes)
    finally:
        for task in pipes:
            task.cancel()


async def wait_until(predicate, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise TimeoutError("condition not met in time")
        await asyncio.sleep(0.05)


async def panel(world: World, user: FakeUser) -> str:
    """Open the private hand panel (``/shengji hand``); its text."""
    ix = await world.fake.slash(user, world.channel, "shengji", "hand")
    await answered(ix)
    assert ix.message.ephemeral
    return ix.message.content


async def hand_numbers(world: World, user: FakeUser) -> list[str]:
    """The cards as numbered on the hand panel ("1:♠A" → "♠A")."""
    return re.findall(r"\d+:(\S+)", await panel(world, user))


async def act_when_asked(world: World, user: FakeUser, name: str) -> str | None:
    """If the table waits for ``user``, act as a person would; returns what was done.

    The public table message is edited asynchronously (coalesced, the picture rendered
    first), so on a busy machine it can still show a move that was already made. It only
    tells us where to look: what the player does is decided from their own private
    answers (autocomplete, hand panel), which are built from the game as it is now.
    """
    status = table_message(world).content
    if f"{name} to play" in status:
        choices = await world.fake.autocomplete(user, world.channel, "shengji", "play",
                                                focused="cards", value="")
        if not choices:
            return None
        ix = await world.fake.slash(user, world.channel, "shengji", "play",
                                    cards=choices[0]["value"])
        await answered(ix)
        return "play"
    if f"{name} is burying" in status:
        found = re.search(r"Bury (\d+) cards", await panel(world, user))
        if not found:  # the message was behind: the kitty is buried already
            return None
        kitty = int(found.group(1))
        ix = await world.fake.slash(user, world.channel, "shengji", "bury",
                                    cards=" ".join(str(i) for i in range(1, kitty + 1)))
        await answered(ix)
        return "bury"
    if f"{name} may swap" in status:
        if "/shengji swap" not in await panel(world, user):
            return None  # the message was behind: the swap is over
        ix = await world.fake.slash(user, world.channel, "shengji", "swap")
        await answered(ix)
        return "swap"
    return None


async def create_and_start(world: World, host: FakeUser, preset: str = "classic",
                           others: tuple[FakeUser, ...] = (), *, create: bool = True) -> None:
    """``host`` opens a table (unless ``create`` is False: it is open already), ``others``
    join with the button, the host presses Start."""
    if create:
        ix = await world.fake.slash(host, world.channel, "shengji", "create", preset=preset)
        await answered(ix)
    await wait_until(lambda: has_table(world))
    for user in others:
        join = table_message(world).button("Join")
        click = await world.fake.click(user, table_message(world), join["custom_id"])
        await answered(click)
    start = table_message(world).button("Start")
    click = await world.fake.click(host, table_message(world), start["custom_id"])
    await answered(click)
    await wait_until(lambda: "My hand" in str(table_message(world).components))


def has_table(world: World, channel: FakeChannel | None = None) -> bool:
    try:
        table_message(world, channel)
    except LookupError:
        return False
    return True


def hand_over(world: World) -> bool:
    return any("Attackers' total" in (m.content or "") for m in world.fake.messages(world.channel))


# -- the hand panel's card picker (a suit menu, a card menu, confirm) --------------------------

def pick_kind(message) -> str | None:  # type: ignore[no-untyped-def]
    """What the panel's picker picks cards for (bury, swap, return, play), if it has one."""
    for cid in message.custom_ids():
        found = re.match(r"sj:pk:g:(\w+):", cid)
        if found:
            return found.group(1)
    return None


def component(message, prefix: str):  # type: ignore[no-untyped-def]
    """The message's first control whose custom id starts with ``prefix``."""
    for item in message.iter_components():
        if item.get("custom_id", "").startswith(prefix):
            return item
    raise LookupError(f"no {prefix} on {message.custom_ids()}")


async def redrawn(world: World, ix: FakeInteraction, before: list[str]) -> None:
    """The panel the interaction was on is redrawn (its controls changed), and nothing
    was refused."""
    await answered(ix)
    await wait_until(lambda: world.fake.message(ix.message.id).custom_ids() != before or
                     bool(ix.followups), timeout=30)
    assert not ix.followups, ix.followups[0].content


async def show_group(world: World, user: FakeUser, message_id: int, value: str):  # type: ignore[no-untyped-def]
    """Show the picker's group ``value`` (a suit menu option) on the panel; the panel."""
    message = world.fake.message(message_id)
    group = component(message, "sj:pk:g:")
    if value != next(o["value"] for o in group["options"] if o.get("default")):
        ix = await world.fake.select(user, message, group["custom_id"], [value])
        await redrawn(world, ix, message.custom_ids())
    return world.fake.message(message_id)


async def pick(world: World, user: FakeUser, message_id: int, wanted: list[str],
               name=lambda label: label) -> None:  # type: ignore[no-untyped-def]
    """Pick the cards that ``wanted`` names on the panel, visiting its groups in turn.
    A card menu's labels are "7:♠A" (hand cards, by their number) or "♠A" (the kitty's);
    ``name`` turns a label into what ``wanted`` holds (default: the label itself)."""
    left = list(wanted)
    for option in component(world.fake.message(message_id), "sj:pk:g:")["options"]:
        message = world.fake.message(message_id)
        message = await show_group(world, user, message_id, option["value"])
        values = []
        for card in component(message, "sj:pk:c:")["options"]:
            if name(card["label"]) in left:
                left.remove(name(card["label"]))
                values.append(card["value"])
        if values:
            ix = await world.fake.select(user, message,
                                         component(message, "sj:pk:c:")["custom_id"], values)
            await redrawn(world, ix, message.custom_ids())
        if not left:
            return
    message = world.fake.message(message_id)
    raise AssertionError(f"could not pick {left}: {message.content} "
                         f"{list(message.iter_components())}")
