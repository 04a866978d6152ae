"""Hypothesis drives random interactions at the real bot through the fake Discord.

Commands with random (and forged: wrong types, out of range) options, component ids real
and made up, autocompletes, users with and without seats, two servers (and a guild id
that does not match the channel), six locales. Every interaction must be answered in time,
errors privately, never with the "something went wrong" of an unexpected exception; a
refused one (or one from a forged context) changes nothing stored; the bot's log has no
traceback. The game's clocks are slowed so that only interactions change what is stored.

``SHENGJI_FUZZ_EXAMPLES`` sets how many sequences to try (default 40; CI keeps it short).
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.bot.harness import ROOT
from tests.fakediscord import BotProcess, FakeDiscord, FakeInteraction
from tests.fakediscord.interactions import InteractionTimeout

EXAMPLES = int(os.environ.get("SHENGJI_FUZZ_EXAMPLES", "40"))
LOCALES = ["en-US", "zh-CN", "zh-TW", "de", "ja", "pt-BR"]
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE = 2, 3, 4
GENERIC = ("Something went wrong", "出了点问题", "出错")
TEXTS = ["", "   ", "AS", "AS AS", "1", "1 2 3", "0", "99", "-1", "9" * 5000, "SJ 7H 7H",
         "2H 2H", "preset=changzhu", "decks=99", "decks=3 throw_penalty=10", "timer=abc",
         "♠A ♠A", "💥🀄", "' OR 1=1 --", "{turn}", "%s", "\u0000", "x" * 200, "1,2,3",
         "level_ranks=K,A", "-", "rating", "wins", "levels", "classic", "changzhu",
         # (each once hung the bot, or got no answer: see test_reliability_e2e.py)
         "players=-1", "players=0", "throw_penalty=" + "9" * 40, "X" * 3000]


@dataclass
class Place:
    fake: FakeDiscord
    bot: BotProcess
    db: Path
    loop: asyncio.AbstractEventLoop
    users: list[Any]
    channels: list[Any]
    guilds: list[Any]

    def run(self, coro: Coroutine[Any, Any, Any], timeout: float = 60) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)


#: The stored rows a step may change, by table and the number of key columns they start
#: with.
_ROWS = (("tables", 1), ("matches", 1), ("actions", 2), ("guild_settings", 1))
#: Where a table's public message is (and the ``updated_at`` saved with it) is left out:
#: the bot saves it when it has posted the message, after answering the step that opened
#: the table and after drawing its picture (about 1.6 s here), so on a busy machine it can
#: land during a later step (a forged one failed so, once).
_POSTED = ("message_id", "updated_at")

Snapshot = dict[tuple[str, tuple[Any, ...]], dict[str, Any]]


def _snapshot(db: Path) -> Snapshot:
    """Every stored row a step may change, by (table, key), as {column: value}."""
    out: Snapshot = {}
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        for table, keys in _ROWS:
            cursor = conn.execute(f"SELECT * FROM {table}")
            names = [d[0] for d in cursor.description]
            for row in cursor:
                record = dict(zip(names, row, strict=True))
                if table == "tables":
                    for name in _POSTED:
                        del record[name]
                out[(table, row[:keys])] = record
    return out


def _changes(before: Snapshot, after: Snapshot) -> list[str]:
    """What differs, row by row and column by column (a failure says what changed)."""
    out = []
    for key in sorted(before.keys() | after.keys(), key=repr):
        old, new = before.get(key), after.get(key)
        if old == new:
            continue
        if old is None or new is None:
            out.append(f"{key}: {'added' if old is None else 'removed'}")
        else:
            out.append(f"{key}: " + ", ".join(f"{name} {old[name]!r} -> {new[name]!r}"
                                             for name in old if old[name] != new[name]))
    return out


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Place]:
    tmp = tmp_path_factory.mktemp("fuzz")
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    async def start() -> Place:
        fake = FakeDiscord()
        await fake.start()
        home, other = fake.add_guild("Home"), fake.add_guild("Other")
        channels = [fake.add_channel(home, "table"), fake.add_channel(home, "lobby"),
                    fake.add_channel(home, "quiet"), fake.add_channel(other, "elsewhere")]
        alice = fake.add_user("Alice", guilds=[home])
        bob = fake.add_user("Bob", guilds=[home], manage_guild=True)
        carol = fake.add_user("Carol")  # in both servers
        stranger = fake.add_user("Eve", guilds=[other])
        db = tmp / "db.sqlite3"
        bot = BotProcess(fake, ["-m", "bot"], log_path=tmp / "bot.log", cwd=ROOT, extra_env={
            "SHENGJI_GUILD_ID": str(home.id), "SHENGJI_DB": str(db),
            # clocks far away: only interactions change what is stored
            "SHENGJI_PAUSE_SCALE": "10000", "SHENGJI_TURN_TIMER": "100000",
            "SHENGJI_NUDGE_AFTER": "0", "SHENGJI_EDIT_INTERVAL": "0"})
        await bot.start()
        await bot.wait_ready(timeout=30)
        # a table in play (the deal waits), a lobby, and channels without a table
        for user, channel in ((alice, channels[0]), (bob, channels[1])):
            ix = await fake.slash(user, channel, "shengji", "create")
            await ix.wait_acked()
        ix = await fake.slash(bob, channels[0], "shengji", "join")
        await ix.wait_acked()
        ix = await fake.slash(alice, channels[0], "shengji", "start")
        await ix.wait_acked()
        return Place(fake, bot, db, loop, [alice, bob, carol, stranger], channels,
                     [home, other])

    world = asyncio.run_coroutine_threadsafe(start(), loop).result(90)
    try:
        yield world
    finally:
        async def stop() -> None:
            await world.bot.stop()
            await world.fake.stop()

        asyncio.run_coroutine_threadsafe(stop(), loop).result(60)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)


# -- what a random interaction is --------------------------------------------------------

def _commands(place: Place) -> list[dict[str, Any]]:
    (group,) = [c for c in place.fake.synced_commands(place.guilds[0]) if c["name"] == "shengji"]
    return list(group["options"])


@st.composite
def interactions(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["slash", "slash", "slash", "forged", "component",
                                 "autocomplete"]))
    return {"kind": kind, "user": draw(st.integers(0, 3)), "channel": draw(st.integers(0, 3)),
            "locale": draw(st.sampled_from(LOCALES)), "sub": draw(st.integers(0, 100)),
            "values": draw(st.lists(st.one_of(st.sampled_from(TEXTS), st.text(max_size=30),
                                              st.integers(-2**70, 2**70), st.booleans()),
                                    min_size=4, max_size=4)),
            "keep": draw(st.lists(st.booleans(), min_size=4, max_size=4)),
            "mismatch": draw(st.booleans()),
            "custom": draw(st.sampled_from(["sj:join:{c}", "sj:leave:{c}", "sj:addai:{c}",
                                            "sj:start:{c}", "sj:hand:{c}", "sj:back:{c}",
                                            "sj:pick:play:{c}", "sj:pick:declare:{c}",
                                            "sj:noswap:{c}", "sj:join:1", "sj:hand:99999",
                                            "nonsense", "sj:", "sj:lb:{c}:rating:0",
                                            "sj:lb:1:wins:9999999999999",
                                            "sj:erase:{c}:yes", "sj:erase:1:no",
                                            "sj:forget:{c}:1:yes"])),
            "option_value": draw(st.sampled_from(["1", "AS", "AS AS", "zz", ""]))}


def _command_id(place: Place) -> str:
    """The /shengji command synced to the home server (forged in the other one too)."""
    return str(place.fake.command_store.find("shengji", place.guilds[0].id)["id"])


def _value_for(option: dict[str, Any], value: Any, forged: bool) -> Any:
    """A value of the option's type, or (forged) anything at all."""
    if forged:
        return value
    kind = option["type"]
    if kind == 3:
        text = str(value)
        choices = option.get("choices")
        if choices:
            return choices[hash(text) % len(choices)]["value"]
        return text[:6000]
    if kind == 4:
        low, high = option.get("min_value", -2**53), option.get("max_value", 2**53)
        number = value if isinstance(value, int) and not isinstance(value, bool) else 1
        return min(max(number, low), high)
    if kind == 5:
        return bool(value)
    return None


async def _send(place: Place, step: dict[str, Any]) -> FakeInteraction:
    fake = place.fake
    user = place.users[step["user"]]
    channel = place.channels[step["channel"]]
    guild = place.guilds[0 if channel.guild_id == place.guilds[0].id else 1]
    if user.id not in guild.members:
        user = place.users[2]  # Carol is everywhere
    subs = _commands(place)
    sub = subs[step["sub"] % len(subs)]
    definitions = [o for o in sub.get("options", []) if o["type"] in (3, 4, 5)]
    if step["kind"] == "autocomplete":
        text = [o for o in definitions if o.get("autocomplete")]
        if text:
            options = [{"name": text[0]["name"], "type": 3, "value": str(step["values"][0])[:100],
                        "focused": True}]
            data = {"id": _command_id(place), "name": "shengji",
                    "type": 1, "options": [{"name": sub["name"], "type": 1, "options": options}]}
            return await fake.forge(user, channel, AUTOCOMPLETE, data, locale=step["locale"])
    if step["kind"] == "component":
        custom_id = step["custom"].format(c=channel.id)
        data = {"custom_id": custom_id[:100], "component_type": 3 if ":pick:" in custom_id else 2}
        if data["component_type"] == 3:
            data["values"] = [step["option_value"]]
        try:
            message = fake.last_message(channel)
        except LookupError:
            message = None
        # a forged context is the other server, never the channel's own: that forges
        # nothing, and a start pressed so in the second server's channel once "failed"
        forged_guild = None
        if step["mismatch"] and user is place.users[2]:
            forged_guild = place.guilds[1] if guild is place.guilds[0] else place.guilds[0]
        return await fake.forge(user, channel, MESSAGE_COMPONENT, data, guild=forged_guild,
                                locale=step["locale"], message=message)
    forged = step["kind"] == "forged"
    chosen = []
    for option, value, keep in zip(definitions, step["values"], step["keep"], strict=False):
        if keep or option.get("required"):
            shown = _value_for(option, value, forged)
            kind = option["type"] if not forged else (
                4 if isinstance(shown, int) and not isinstance(shown, bool) else
                5 if isinstance(shown, bool) else 3)
            chosen.append({"name": option["name"], "type": kind, "value": shown})
    data = {"id": _command_id(place), "name": "shengji",
            "type": 1, "options": [{"name": sub["name"], "type": 1, "options": chosen}]}
    forged_guild = None
    if forged and step["mismatch"] and user is place.users[2]:
        forged_guild = place.guilds[1] if guild is place.guilds[0] else place.guilds[0]
    return await fake.forge(user, channel, APPLICATION_COMMAND, data, guild=forged_guild,
                            locale=step["locale"])


def _answer_text(ix: FakeInteraction) -> str:
    data = (ix.response or {}).get("data") or {}
    parts = [str(data.get("content") or "")]
    parts += [str(e.get("description") or "") + str(e.get("title") or "")
              for e in data.get("embeds") or []]
    if ix.message is not None:
        parts.append(ix.message.content or "")
    parts += [m.content or "" for m in ix.followups]
    return " ".join(parts)


@settings(max_examples=EXAMPLES, deadline=None,
          derandomize=not os.environ.get("SHENGJI_FUZZ_RANDOM"),
          suppress_health_check=list(HealthCheck))
@given(steps=st.lists(interactions(), min_size=1, max_size=4))
def test_random_interactions_are_all_answered_privately_and_change_nothing_when_refused(
        place: Place, steps: list[dict[str, Any]]) -> None:
    for step in steps:
        before = _snapshot(place.db)
        public_before = len(place.fake.public_payloads())
        ix = place.run(_send(place, step))
        if os.environ.get("SHENGJI_FUZZ_TRACE"):
            with open(os.environ["SHENGJI_FUZZ_TRACE"], "a") as trace:
                print(step, ix.payload.get("data"), file=trace)
        try:
            place.run(ix.wait_acked(timeout=5))
            if ix.response_type == 5:  # deferred: the answer follows
                place.run(ix.wait_done(timeout=10))
        except (InteractionTimeout, AssertionError):
            raise AssertionError(f"not answered in time: {step}\n"
                                 f"{place.bot.output()[-2000:]}") from None
        text = _answer_text(ix)
        assert not any(g in text for g in GENERIC), (step, text)
        forged_context = step.get("mismatch") and step["user"] == 2 and \
            step["kind"] in ("forged", "component")
        if ix.type != AUTOCOMPLETE and ix.response_type in (4, 5):
            assert ix.response["data"].get("flags", 0) & 64, ("a public answer", step, text)
        if forged_context:
            changes = _changes(before, _snapshot(place.db))
            assert not changes, ("a forged context changed the store", step, changes)
        del public_before
    log = place.bot.output()
    assert "Traceback" not in log, log[-4000:]
    assert "Task exception was never retrieved" not in log
