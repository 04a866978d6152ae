"""What broke a table for its players (issue "At the table", "Broken today"), each through
the real bot process and the fake Discord."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from tests.bot.harness import (
    EPHEMERAL,
    answered,
    create_and_start,
    has_table,
    panel,
    running_bot,
    table_message,
    wait_until,
)
from tests.bot.test_bot_e2e import HIDDEN, _declare_hidden, play_until

pytestmark = pytest.mark.asyncio


def _recent_lines(content: str) -> list[str]:
    return [line for line in content.splitlines() if line.startswith("> ")]


async def _wait_for_my_turn(world, user, name: str) -> None:  # type: ignore[no-untyped-def]
    """Play as asked (bury when asked) until it is ``name``'s turn to play."""
    await play_until(world, lambda: f"{name} to play" in table_message(world).content, [])
    # the table message can lag: the autocomplete answers from the game itself
    for _ in range(200):
        if await world.fake.autocomplete(user, world.channel, "shengji", "play",
                                         focused="cards", value=""):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("never my turn")


async def test_the_table_shows_the_trump_and_blank_cards_are_refused(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        alice = fake.add_user("Alice")
        await create_and_start(world, alice)
        await play_until(world, lambda: " to play." in table_message(world).content,
                         [(alice, "1. Alice")])
        status = await fake.slash(alice, world.channel, "shengji", "status")
        await answered(status)
        assert "trump: " in status.message.content
        assert "trump: hidden" not in status.message.content  # the trump is public in play
        assert "trump: hidden" not in table_message(world).content
        picture = table_message(world).attachments[0].description or ""
        assert "?" not in picture.split("Trump")[1][:4] if "Trump" in picture else True

        await _wait_for_my_turn(world, alice, "1. Alice")
        blank = await fake.slash(alice, world.channel, "shengji", "play", cards="   ")
        await answered(blank)
        assert blank.message.ephemeral and "no cards given" in blank.message.content
        assert "play exactly" not in blank.message.content
    fake.assert_clean()


async def test_after_a_restart_the_panel_menu_and_the_recent_lines_still_work(tmp_path: Path
                                                                              ) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        alice = fake.add_user("Alice")
        await create_and_start(world, alice)
        await play_until(world, lambda: " to play." in table_message(world).content,
                         [(alice, "1. Alice")])
        await _wait_for_my_turn(world, alice, "1. Alice")
        ix = await fake.slash(alice, world.channel, "shengji", "hand")
        await answered(ix)
        menu = ix.message.find_component(type=3)  # the "Play…" select
        assert menu is not None
        await wait_until(lambda: "1. Alice to play" in table_message(world).content)
        before = _recent_lines(table_message(world).content)
        assert before
        edits = len([r for r in fake.records if r.kind == "message_edit"])

        await world.restart()
        # the restored table redraws its message: with the same recent lines
        await wait_until(lambda: len([r for r in fake.records if r.kind == "message_edit"])
                         > edits)
        assert _recent_lines(table_message(world).content) == before

        # the menu of the panel opened before the restart still plays
        held = int(re.search(r"\((\d+) cards\)", ix.message.content).group(1))
        pick = await fake.select(alice, ix.message, menu["custom_id"],
                                 [menu["options"][0]["value"]])
        await answered(pick)
        # the play was made: the panel, redrawn in answer, holds that many cards fewer
        played = len(menu["options"][0]["value"].split())
        await wait_until(lambda: f"({held - played} cards)" in (ix.message.content or ""))
    fake.assert_clean()


async def test_away_ends_with_any_action_and_a_player_who_left_sits_again(tmp_path: Path
                                                                          ) -> None:
    async with running_bot(tmp_path, env={"SHENGJI_TURN_TIMER": "1"}) as world:
        fake = world.fake
        alice = fake.add_user("Alice")
        await create_and_start(world, alice)

        def away() -> bool:
            return any(r.kind in ("message_edit", "channel_message")
                       and "Alice is away" in (r.content or "") for r in fake.records)

        await wait_until(away, timeout=90)  # her turn timed out: a computer plays
        await wait_until(lambda: table_message(world).button("I'm back") is not None)
        back = table_message(world).button("I'm back")
        click = await fake.click(alice, table_message(world), back["custom_id"])
        await answered(click)
        assert click.message.ephemeral and "Welcome back" in click.message.content
        await wait_until(lambda: "Alice is back" in table_message(world).content)

        # away again (her timer is 1 s); opening her hand ends it too
        mark = len(fake.records)
        await wait_until(lambda: any("Alice is away" in (r.content or "")
                                     for r in fake.records[mark:]), timeout=90)
        mark = len(fake.records)
        await panel(world, alice)
        await wait_until(lambda: any(r.kind == "message_edit" and "Alice is back" in
                                     (r.content or "") for r in fake.records[mark:]))

        # leaving during the match hands the seat to a computer; joining again takes it back
        left = await fake.slash(alice, world.channel, "shengji", "leave")
        await answered(left)
        await wait_until(lambda: "Alice (bot)" in table_message(world).content)
        joined = await fake.slash(alice, world.channel, "shengji", "join")
        await answered(joined)
        assert joined.message.flags & EPHEMERAL and "seat 1" in joined.message.content
        await wait_until(lambda: "Alice (bot)" not in table_message(world).content)
        # someone who never sat here cannot take a seat mid-match by themselves: the
        # host is asked (tests/bot/test_table_ux_e2e.py goes on from there)
        eve = fake.add_user("Eve")
        refused = await fake.slash(eve, world.channel, "shengji", "join")
        await answered(refused)
        assert "Asked the host to let you take seat 2" in refused.message.content
        assert "Eve" not in table_message(world).content
    fake.assert_clean()


async def test_a_declarer_whose_dm_fails_otherwise_than_403_is_told_privately(
        tmp_path: Path) -> None:
    async with running_bot(tmp_path, env=HIDDEN) as world:
        fake = world.fake
        alice = fake.add_user("Alice")
        fake.inject_fault("POST", r"/users/@me/channels", 404, code=10013, times=100)
        answer = await _declare_hidden(world, alice)
        assert "the trump suit is" in answer
        assert not fake.dms(alice)
    fake.assert_clean()


async def test_sigterm_stops_the_bot_cleanly_mid_game(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        alice = fake.add_user("Alice")
        await create_and_start(world, alice)
        await play_until(world, lambda: " to play." in table_message(world).content,
                         [(alice, "1. Alice")])
        code = await world.bot.stop(timeout=20)
        assert code == 0, world.bot.output()[-3000:]
        log = world.bot.output()
        assert "Session is closed" not in log and "Traceback" not in log, log[-3000:]
        assert " ERROR " not in log, log[-3000:]
    fake.assert_clean()


async def test_one_bad_row_does_not_stop_the_bot_from_starting(tmp_path: Path) -> None:
    """A damaged action row or table setting (issue "Reliability", item 1): the bot still
    starts and every other table goes on."""
    import sqlite3

    async with running_bot(tmp_path) as world:
        fake = world.fake
        alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
        await create_and_start(world, alice)
        await play_until(world, lambda: " to play." in table_message(world).content,
                         [(alice, "1. Alice")])
        lobby = fake.add_channel(world.guild, "lobby")
        made = await fake.slash(bob, lobby, "shengji", "create")
        await answered(made)
        odd = fake.add_channel(world.guild, "odd")  # a lobby whose preset will be unknown
        made = await fake.slash(bob, odd, "shengji", "create")
        await answered(made)
        assert world.bot.proc is not None
        world.bot.proc.kill()
        await world.bot.proc.wait()
        with sqlite3.connect(world.db) as db:
            # damage from outside the bot: the log's own guard is lifted first
            db.execute("DROP TRIGGER IF EXISTS actions_append_only")
            seq = db.execute("SELECT max(seq) FROM actions").fetchone()[0]
            db.execute("UPDATE actions SET action = ? WHERE seq = ?",
                       ('{"type":"Play","seat":0,"cards":5}', seq))
            db.execute("UPDATE tables SET settings = ? WHERE channel_id = ?",
                       ('{"turn_timer": "soon"}', lobby.id))
            db.execute("UPDATE tables SET preset = 'calvinball' WHERE channel_id = ?",
                       (odd.id,))
        await world.restart()
        # the lobby with the unreadable timer is there, with the default timer
        status = await fake.slash(bob, lobby, "shengji", "status")
        await answered(status)
        assert "Something went wrong" not in status.message.content
        assert "Seat 1: Bob" in status.message.content
        join = await fake.slash(alice, lobby, "shengji", "join")
        await answered(join)
        assert "seat 2" in join.message.content

        # a lobby with an unknown preset is kept aside too, not redrawn in the background
        ix = await fake.slash(bob, odd, "shengji", "status")
        await answered(ix)
        assert "could not be restored" in ix.message.content and "calvinball" in \
            ix.message.content
        # the table whose log cannot be replayed is kept aside, and its channel is told
        await wait_until(lambda: "could not be restored" in
                         (fake.last_message(world.channel).content or ""))
        for user in (alice, bob):
            ix = await fake.slash(user, world.channel, "shengji", "status")
            await answered(ix)
            assert ix.message.ephemeral and "could not be restored" in ix.message.content
        ix = await fake.slash(bob, world.channel, "shengji", "create")
        await answered(ix)
        assert "could not be restored" in ix.message.content  # not created over it
        ix = await fake.slash(bob, world.channel, "shengji", "end")
        await answered(ix)
        assert "host" in ix.message.content  # only the host (or Manage Server) ends it
        ix = await fake.slash(alice, world.channel, "shengji", "end")
        await answered(ix)
        assert "could not" not in ix.message.content
        ix = await fake.slash(alice, world.channel, "shengji", "export", match=1)
        await answered(ix)
        assert ix.message.attachments, ix.message.content  # its log, as it was stored
        ix = await fake.slash(bob, world.channel, "shengji", "create")
        await answered(ix)
        assert "could not" not in ix.message.content
        with sqlite3.connect(world.db) as db:  # nothing was deleted
            assert db.execute("SELECT count(*) FROM actions").fetchone()[0] == seq + 1
    fake.assert_clean()


async def test_a_panel_that_cannot_refresh_does_not_stop_the_others(tmp_path: Path) -> None:
    """Bob leaves mid-match: his open panel can no longer be drawn (issue "Reliability",
    item 5); Alice's panel keeps refreshing."""
    async with running_bot(tmp_path) as world:
        fake = world.fake
        alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
        await create_and_start(world, alice, others=(bob,))
        await panel(world, bob)  # Bob's panel first: the registry refreshes it first
        opened = await fake.slash(alice, world.channel, "shengji", "hand")
        await answered(opened)
        left = await fake.slash(bob, world.channel, "shengji", "leave")
        await answered(left)
        mark = len(fake.records)

        def alice_panel_edits() -> int:  # (acting may open a newer panel of hers)
            return sum(1 for r in fake.records[mark:] if r.kind == "message_edit"
                       and r.ephemeral and r.user_id == alice.id)

        await play_until(world, lambda: alice_panel_edits() >= 3, [(alice, "1. Alice")])
        assert "Task exception was never retrieved" not in world.bot.output()
    fake.assert_clean()


async def test_a_restart_leaves_a_finished_tables_message_as_it_ended(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        alice = fake.add_user("Alice")
        await create_and_start(world, alice)
        live = fake.add_channel(world.guild, "live")  # a lobby, which is redrawn
        await answered(await fake.slash(alice, live, "shengji", "create", preset="classic"))
        await wait_until(lambda: has_table(world, live))
        await answered(await fake.slash(alice, world.channel, "shengji", "end"))
        await wait_until(lambda: "My hand" not in str(table_message(world).components))
        ended = table_message(world)
        shown = (ended.content, [a.id for a in ended.attachments])

        mark = len(fake.records)
        await world.restart()
        await wait_until(lambda: any(r.channel_id == live.id  # (edited, or posted again)
                                     for r in fake.records[mark:]))
        await asyncio.sleep(1.5)  # (a redraw waits a second for more changes)
        assert not [r for r in fake.records[mark:] if r.channel_id == world.channel.id]
        now = fake.message(ended.id)
        assert (now.content, [a.id for a in now.attachments]) == shown
        # its Play again still works: the table is read from the database then
        again = now.button("Play again")
        click = await answered(await fake.click(alice, now, again["custom_id"]))
        assert "new table" in click.message.content
        await wait_until(lambda: "Start" in str(table_message(world).components))
    fake.assert_clean()
