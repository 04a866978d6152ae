"""The real bot (``python -m bot``) against the local fake Discord."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path

import pytest

from tests.bot.harness import (
    act_when_asked,
    answered,
    create_and_start,
    hand_numbers,
    hand_over,
    running_bot,
    table_message,
    wait_until,
)
from tests.fakediscord import BotProcess, FakeDiscord
from tests.fakediscord.model import Attachment, Message, iso_now

ROOT = Path(__file__).resolve().parents[2]
EPHEMERAL = 64


async def test_bot_connects_syncs_and_answers_rules(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "shengji")
    alice = fake.add_user("Alice")
    bot = BotProcess(fake, ["-m", "bot"], log_path=tmp_path / "bot.log", cwd=ROOT,
                     extra_env={"SHENGJI_GUILD_ID": str(guild.id),
                                "SHENGJI_DB": str(tmp_path / "db.sqlite3")})
    try:
        await bot.start()
        await bot.wait_ready(timeout=30)
        names = [c["name"] for c in fake.synced_commands(guild)]
        assert "shengji" in names
        ix = await fake.slash(alice, channel, "shengji", "rules", preset="changzhu")
        response = await ix.wait_acked()
        assert response["data"]["flags"] & EPHEMERAL
        assert "permanent_trumps" in ix.message.content and "2, 3, 5" in ix.message.content
        assert not fake.public_payloads(channel)
    finally:
        await bot.stop()
        await fake.stop()
    fake.assert_clean()


pytestmark = pytest.mark.asyncio


async def test_a_human_and_three_computers_play_a_full_hand(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        alice = fake.add_user("Alice")
        await create_and_start(world, alice)
        acted = await play_until(world, lambda: hand_over(world), [(alice, "1. Alice")])
        public = " ".join(r.text() for r in fake.public_payloads(world.channel))
        # every one of Alice's turns was hers: no computer ever stood in for her
        assert acted.count("play") >= 6 and "is away" not in public
        assert "Your hand" not in public
        refusals = [r.content for r in fake.ephemerals(alice) if "Not allowed" in (r.content or "")]
        assert not refusals
    fake.assert_clean()


async def play_until(world, done, players) -> list[str]:  # type: ignore[no-untyped-def]
    """Each (user, shown name) acts when asked, until ``done()``; what they did, in order."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 150
    acted: list[str] = []
    while not done():
        assert loop.time() < end, world.fake.describe_recent()
        for user, name in players:
            did = await act_when_asked(world, user, name)
            if did:
                acted.append(did)
        await asyncio.sleep(0.05)
    return acted


async def test_four_humans_and_refused_input(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        users = [fake.add_user(n) for n in ("Alice", "Bob", "Carol", "Dan")]
        stranger = fake.add_user("Eve")
        await create_and_start(world, users[0], others=tuple(users[1:]))
        players = [(u, f"{i + 1}. {u.name}") for i, u in enumerate(users)]

        # a click from someone not seated is refused privately, and changes nothing
        before = table_message(world).content
        hand = table_message(world).button("My hand")
        click = await fake.click(stranger, table_message(world), hand["custom_id"])
        await answered(click)
        assert click.message.ephemeral and "not seated" in click.message.content

        # wait for a play turn, then: out of turn, unreadable and illegal input
        await play_until(world, lambda: " to play." in table_message(world).content, players)
        status = table_message(world).content
        mover = next(i for i, (_, name) in enumerate(players) if f"{name} to play" in status)
        other = users[(mover + 1) % 4]
        ix = await fake.slash(other, world.channel, "shengji", "play", cards="1")
        await answered(ix)
        assert ix.message.ephemeral
        assert f"It is not your turn: seat {mover + 1} plays now." in ix.message.content
        ix = await fake.slash(users[mover], world.channel, "shengji", "play", cards="1S")
        await answered(ix)
        assert "'1S' is not a card" in ix.message.content and ix.message.ephemeral
        ix = await fake.slash(stranger, world.channel, "shengji", "play", cards="AS")
        await answered(ix)
        assert "not seated" in ix.message.content
        assert " to play." in table_message(world).content  # still waiting for the same move
        del before

        acted = await play_until(world, lambda: hand_over(world), players)
        assert acted.count("play") >= 24  # four players, at least six tricks each
        public = " ".join(r.text() for r in fake.public_payloads(world.channel))
        assert "is away" not in public and "Your hand" not in public
    fake.assert_clean()


async def test_killed_mid_hand_the_game_goes_on_where_it_was(tmp_path: Path,
                                                            database: str) -> None:
    async with running_bot(tmp_path, database=database) as world:
        fake = world.fake
        alice = fake.add_user("Alice")
        await create_and_start(world, alice)
        plays = 0
        while plays < 3:
            did = await act_when_asked(world, alice, "1. Alice")
            plays += did == "play"
            await asyncio.sleep(0.02)
        hand_before = await hand_numbers(world, alice)
        await world.restart()  # SIGKILL, then a new process on the same database
        await wait_until(lambda: "1. Alice to play" in table_message(world).content, timeout=60)
        # nothing was lost: Alice holds exactly what she held (only she plays her cards)
        assert await hand_numbers(world, alice) == hand_before
        # the old table message's buttons still work after the restart
        button = table_message(world).button("My hand")
        click = await fake.click(alice, table_message(world), button["custom_id"])
        await answered(click)
        assert click.message.ephemeral and "Your hand" in click.message.content
        await play_until(world, lambda: hand_over(world), [(alice, "1. Alice")])
    fake.assert_clean()


async def test_a_kill_while_a_nudge_moved_the_table_message_leaves_one_after_the_start(
        tmp_path: Path) -> None:
    """Killed after a nudge posted the new table message, before it was stored: the row
    still names the old message, moving. The start deletes the new one, which nobody would
    ever edit again, and keeps the one it knows."""
    async with running_bot(tmp_path) as world:
        fake = world.fake
        alice = fake.add_user("Alice")
        await create_and_start(world, alice)
        await act_when_asked(world, alice, "1. Alice")
        kept = table_message(world)
        world.bot.proc.kill()  # type: ignore[union-attr]
        await world.bot.proc.wait()  # type: ignore[union-attr]
        with sqlite3.connect(world.db) as db:  # (as the nudge stored it before its post)
            db.execute("UPDATE tables SET moving_from = message_id")
        orphan = Message(fake.snowflake(), world.channel.id, world.guild.id, fake.bot_user.id,
                         iso_now(), content="the table, posted again",
                         attachments=[Attachment(fake.snowflake(), "table.png", b"png")])
        fake.store_message(orphan)
        await world.restart()
        await wait_until(lambda: fake.message(orphan.id).deleted, timeout=30)
        assert not fake.message(kept.id).deleted
        with sqlite3.connect(world.db) as db:
            assert db.execute("SELECT message_id, moving_from FROM tables").fetchall() == \
                [(kept.id, None)]
        await play_until(world, lambda: hand_over(world), [(alice, "1. Alice")])
    fake.assert_clean()


HIDDEN = {"SHENGJI_SEED": "9", "SHENGJI_PAUSE_SCALE": "0.3"}  # seat 1 declares, and it stands


async def _declare_hidden(world, user) -> str:  # type: ignore[no-untyped-def]
    """Play the changzhu deal until ``user`` can declare; declare; return the reply."""
    await create_and_start(world, user, preset="changzhu")
    for _ in range(400):
        choices = await world.fake.autocomplete(user, world.channel, "shengji", "declare",
                                                focused="cards", value="")
        if choices:
            ix = await world.fake.slash(user, world.channel, "shengji", "declare",
                                        cards=choices[0]["value"])
            await answered(ix)
            return ix.message.content
        await asyncio.sleep(0.05)
    raise AssertionError("no declaration was offered")


def _public_text(world) -> str:  # type: ignore[no-untyped-def]
    return " ".join(r.text() + " ".join(a.description or "" for a in r.attachments)
                    for r in world.fake.public_payloads(world.channel))


async def test_hidden_declaration_is_told_by_dm_and_nowhere_public(tmp_path: Path) -> None:
    async with running_bot(tmp_path, env=HIDDEN) as world:
        fake = world.fake
        alice = fake.add_user("Alice")
        answer = await _declare_hidden(world, alice)
        assert "Done." in answer and "trump suit" not in answer
        dm = await fake.wait_for(lambda r: r.kind == "dm" and r.user_id == alice.id)
        match = re.search(r"the trump suit is (\S+?)\.", dm.content)
        assert match, dm.content
        suit = match.group(1)
        # the channel sees that a declaration was made, with a joker, and nothing more
        await wait_until(lambda: "declared" in table_message(world).content)
        assert "face down" in table_message(world).content
        # until the reveal, no public payload (text, buttons, alt text) names the suit
        await play_until(world, lambda: "Trump: " in table_message(world).content,
                         [(alice, "1. Alice")])
        before_reveal = [r for r in fake.public_payloads(world.channel)
                         if "Trump: " not in r.text()]
        for record in before_reveal:
            shown = record.text() + " ".join(a.description or "" for a in record.attachments)
            assert suit not in shown, shown
        assert f"Trump: {suit}" in table_message(world).content  # revealed after the kitty
    fake.assert_clean()


async def test_hidden_declaration_falls_back_to_a_private_reply_when_dms_are_closed(
        tmp_path: Path) -> None:
    async with running_bot(tmp_path, env=HIDDEN) as world:
        fake = world.fake
        alice = fake.add_user("Alice", blocks_dms=True)
        answer = await _declare_hidden(world, alice)
        assert "could not DM you" in answer and "the trump suit is" in answer
        assert not fake.dms(alice)
        assert "the trump suit is" not in _public_text(world)
    fake.assert_clean()
