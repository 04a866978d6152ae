"""Reliability through the real bot process (issue "Reliability")."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from tests.bot.harness import answered, create_and_start, running_bot, wait_until

pytestmark = pytest.mark.asyncio


def _descendants(pid: int) -> list[int]:
    """The process's children, theirs, and so on (the workers are the fork server's)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            children = [int(x) for x in f.read().split()]
    except FileNotFoundError:
        return []
    return children + [d for child in children for d in _descendants(child)]


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs Linux /proc")
@pytest.mark.parametrize("stop", ["SIGKILL", "SIGTERM"])
async def test_a_hard_computers_worker_process_ends_with_the_bot(tmp_path: Path, stop: str
                                                                 ) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        alice = fake.add_user("Alice")
        made = await fake.slash(alice, world.channel, "shengji", "create")
        await answered(made)
        for _ in range(3):
            added = await fake.slash(alice, world.channel, "shengji", "addbot", level="hard")
            await answered(added)
        await create_and_start(world, alice, create=False)
        proc = world.bot.proc
        assert proc is not None
        # the fork server, the picture worker from the start, the computers' once a
        # decision was asked
        await wait_until(lambda: len(_descendants(proc.pid)) >= 3, timeout=60)
        workers = _descendants(proc.pid)
        if stop == "SIGKILL":
            proc.kill()
            await proc.wait()
        else:
            assert await world.bot.stop(timeout=20) == 0
        for _ in range(200):
            if not any(_running(w) for w in workers):
                break
            await asyncio.sleep(0.05)
        assert not any(_running(w) for w in workers), "a worker outlived the bot"
    fake.assert_clean()


async def test_realistic_bad_inputs_are_refused_with_reasons(tmp_path: Path) -> None:
    """Item 9: inputs that raised instead of being refused."""
    from tests.bot.harness import panel, table_message
    from tests.bot.test_bot_e2e import play_until

    async with running_bot(tmp_path) as world:
        fake = world.fake
        alice, bob = fake.add_user("Alice"), fake.add_user("Bob", manage_guild=True)
        ix = await fake.slash(alice, world.channel, "shengji", "create",
                              options="preset=changzhu")
        await answered(ix)
        assert ix.message.ephemeral and "`preset` option" in ix.message.content
        ix = await fake.slash(bob, world.channel, "shengji", "settings",
                              options="preset=changzhu")
        await answered(ix)
        assert "`preset` option" in ix.message.content
        await create_and_start(world, alice, others=(bob,))
        await play_until(world, lambda: "is burying" in table_message(world).content
                         or " to play." in table_message(world).content, [])
        status = table_message(world).content
        # a person buries (the kitty then waits for them): the other one tries to
        burier = alice if "Alice is burying" in status else bob
        other = bob if burier is alice else alice
        if "Alice is burying" in status or "Bob is burying" in status:
            ix = await fake.slash(other, world.channel, "shengji", "bury",
                                  cards="1 2 3 4 5 6 7 8")
            await answered(ix)
            assert "{" not in ix.message.content and "buries the kitty" in \
                ix.message.content, ix.message.content
        for command in ("play", "declare", "bury"):
            ix = await fake.slash(alice, world.channel, "shengji", command, cards="9" * 4301)
            await answered(ix)
            assert ix.message.ephemeral and "numbered 1 to" in ix.message.content
        ix = await fake.slash(alice, world.channel, "shengji", "swap", give="9" * 4301)
        await answered(ix)
        assert "numbered 1 to" in ix.message.content
        assert "Traceback" not in world.bot.output()
        del panel
    fake.assert_clean()


async def test_typed_input_that_broke_the_bot_is_refused_and_the_bot_goes_on(
        tmp_path: Path) -> None:
    """Found by the fuzz test run long: ``players=-1`` typed as an option looped for ever
    while the rules were built, on the event loop, so no server had an answer again; a
    throw penalty too big for the database's integers was taken; a card of thousands of
    characters was repeated back in a refusal longer than Discord takes, so the caller
    had no answer at all."""
    from tests.bot.harness import table_message

    async with running_bot(tmp_path) as world:
        fake = world.fake
        alice, bob = fake.add_user("Alice"), fake.add_user("Bob", manage_guild=True)
        for count in ("-1", "0"):
            ix = await fake.slash(alice, world.channel, "shengji", "create",
                                  options=f"players={count}")
            await answered(ix)
            assert ix.message.ephemeral and "3 to 6 seats" in ix.message.content
            ix = await fake.slash(bob, world.channel, "shengji", "settings",
                                  options=f"players={count}")
            await answered(ix)
            assert ix.message.ephemeral and "3 to 6 seats" in ix.message.content
        ix = await fake.slash(alice, world.channel, "shengji", "create",
                              options="throw_penalty=" + "9" * 30)
        await answered(ix)
        assert ix.message.ephemeral and "points a card" in ix.message.content
        ix = await fake.slash(alice, world.channel, "shengji", "call", card="X" * 3000)
        await answered(ix)
        text = ix.message.content
        assert ix.message.ephemeral and "is not a card" in text and len(text) < 400, text
        await create_and_start(world, alice)  # nothing was stored: the table opens as usual
        await wait_until(lambda: "Alice" in table_message(world).content)
        assert "Traceback" not in world.bot.output()
    fake.assert_clean()


async def test_forged_interactions_are_answered_and_change_nothing(tmp_path: Path) -> None:
    """Item 10: a guild that is not the channel's, wrong option types, out-of-range
    numbers, unknown custom ids: each gets a private answer."""
    import sqlite3

    from tests.bot.harness import has_table, table_message

    async with running_bot(tmp_path) as world:
        fake = world.fake
        other = fake.add_guild("Other")
        alice = fake.add_user("Alice")  # a member of both servers
        made = await fake.slash(alice, world.channel, "shengji", "create")
        await answered(made)
        await wait_until(lambda: has_table(world))
        command_id = fake.command_store.find("shengji", world.guild.id)["id"]

        def slash(sub: str, **options: object) -> dict[str, object]:
            return {"id": command_id, "name": "shengji", "type": 1, "options": [
                {"name": sub, "type": 1, "options": [
                    {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v}
                    for k, v in options.items()]}]}

        def stored() -> list[tuple[object, ...]]:
            with sqlite3.connect(world.db) as db:
                return db.execute("SELECT * FROM tables").fetchall()

        await wait_until(lambda: all(row[3] is not None for row in stored()))  # message id
        before = stored()
        forged = [
            await fake.forge(alice, world.channel, 2, slash("join"), guild=other),
            await fake.forge(alice, world.channel, 2, slash("join", seat=7)),  # str wanted
            await fake.forge(alice, world.channel, 2, slash("play", cards=12345)),
            await fake.forge(alice, world.channel, 2, slash("create", timer=10**9)),
            await fake.forge(alice, world.channel, 3, {"custom_id": "nonsense",
                                                        "component_type": 2},
                             message=table_message(world)),
            await fake.forge(alice, world.channel, 3, {
                "custom_id": f"sj:start:{world.channel.id}", "component_type": 2},
                message=table_message(world), guild=other),
            await fake.forge(alice, world.channel, 3, {
                "custom_id": f"sj:hand:{world.channel.id}", "component_type": 2},
                message=table_message(world)),  # no such button on a lobby message
        ]
        for ix in forged:
            await answered(ix)
            assert ix.message is not None and ix.message.ephemeral, ix.payload["data"]
        assert stored() == before
        assert "Traceback" not in world.bot.output()
    fake.assert_clean()


async def test_the_answer_comes_first_when_the_api_is_slow(tmp_path: Path) -> None:
    """Item 7: a rate-limited DM (429, retry after 4 s) must not hold back the
    acknowledgement past Discord's 3 s (the fake refuses a later one)."""
    from tests.bot.test_bot_e2e import HIDDEN, _declare_hidden

    async with running_bot(tmp_path, env=HIDDEN) as world:
        fake = world.fake
        alice = fake.add_user("Alice")
        fake.inject_fault("POST", r"/users/@me/channels", 429, retry_after=4.0)
        answer = await _declare_hidden(world, alice)  # answered() inside: acked in 3 s
        assert "Done." in answer
        await fake.wait_for(lambda r: r.kind == "dm" and r.user_id == alice.id, timeout=30)
    fake.assert_clean()


async def test_a_stored_play_whose_answer_fails_says_it_was_stored(tmp_path: Path) -> None:
    """Item 6: the play is stored, its answer fails: the player is told the move counts,
    not "nothing changed". (A 400, which discord.py raises at once: a 5xx fails only after
    five tries and 25 s of backoff, and the bot handles either error the same way.)"""
    from tests.bot.harness import answered, table_message
    from tests.bot.test_bot_e2e import play_until

    async with running_bot(tmp_path) as world:
        fake = world.fake
        alice = fake.add_user("Alice")
        await create_and_start(world, alice)

        async def my_play() -> str:
            await play_until(world, lambda: "1. Alice to play" in
                             table_message(world).content, [])
            for _ in range(400):
                choices = await fake.autocomplete(alice, world.channel, "shengji", "play",
                                                  focused="cards", value="")
                if choices:
                    return str(choices[0]["value"])
                await asyncio.sleep(0.05)
            raise AssertionError("never Alice's turn")

        # item 7 again: two 502s on the table message's edit after a play
        fake.inject_fault("PATCH", r"/channels/\d+/messages/\d+", 502, times=2)
        ix = await fake.slash(alice, world.channel, "shengji", "play", cards=await my_play())
        await answered(ix)  # (acknowledged within 3 s, or the fake refuses it)
        assert "Done." in ix.message.content

        cards = await my_play()
        answer_fault = fake.inject_fault("POST", r"/webhooks/\d+/[^/]+", 400, code=50035)
        ix = await fake.slash(alice, world.channel, "shengji", "play", cards=cards)
        await ix.wait_acked()
        await ix.wait_done(timeout=60)
        text = " ".join([ix.message.content or ""] + [m.content or "" for m in ix.followups])
        assert "made and saved" in text and "Nothing changed" not in text, text
        assert answer_fault.hits == 1  # the answer did fail
    fake.assert_clean()
