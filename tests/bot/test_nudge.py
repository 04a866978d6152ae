"""The nudge (``bot/ui/publisher.py``): a person's turn not taken within the table's
``nudge_after`` seconds posts the table message anew, mentioning them (Discord notifies
a mention in a new message, not one added by an edit), and deletes the old one; once a
wait, and never for a turn taken in time, a computer, a player who is away, or with the
nudge off. Through a real discord.py client against the fake Discord."""

from __future__ import annotations

import asyncio
import io
import time
from dataclasses import replace
from typing import Any

import discord
import pytest

from bot.table_data import Seat, Table, TableSettings
from bot.tables import next_game
from engine.actions import Play
from engine.game import Playing
from engine.legal import legal_plays
from tests.bot.harness import wait_until
from tests.bot.posting import Posting
from tests.engine.test_games import _at
from tests.fakediscord.model import Message, iso_now

NUDGE = 0.6  # seconds into a person's wait


def _table(posting: Posting, game: Any, **settings: float) -> Table:
    table = Table(posting.channel.id, 2, posting.users[0].id, "classic", {},
                  replace(TableSettings(turn_timer=60.0, nudge_after=NUDGE), **settings),
                  [Seat("human", u.id, u.name) for u in posting.users[:4]],
                  status="playing", game=game)
    _wait_begins(table)
    return table


def _wait_begins(table: Table) -> None:
    """As the table service does when a person's wait begins."""
    table.turn_ends = time.time() + table.settings.turn_timer


def _to_act(table: Table) -> Any:
    seat = table.actor()
    assert seat is not None
    return table.seats[seat]


def _played(table: Table) -> None:
    """The seat to act plays (a new game, a new wait)."""
    game = table.game
    seat = table.actor()
    assert game is not None
    assert seat is not None
    table.game, _ = next_game(game, Play(seat, legal_plays(game, seat)[0]))
    _wait_begins(table)


def _created(posting: Posting) -> list[Any]:
    """The messages the bot created in the channel, oldest first."""
    return [r for r in posting.fake.records
            if r.kind == "channel_message" and r.channel_id == posting.channel.id]


def _deleted(posting: Posting) -> set[int]:
    return {r.message_id for r in posting.fake.records if r.kind == "message_delete"}


async def test_a_turn_not_taken_posts_the_table_anew_once_mentioning_the_player(
        posting: Posting) -> None:
    table = _table(posting, _at(Playing, "classic"))
    person = _to_act(table)
    posting.publisher.schedule(table)
    await wait_until(lambda: len(_created(posting)) == 1, timeout=10)
    first = _created(posting)[0]
    assert f"<@{person.user_id}>" in (first.content or "")

    await wait_until(lambda: len(_created(posting)) == 2, timeout=10)
    anew = _created(posting)[1]
    await wait_until(lambda: first.message_id in _deleted(posting), timeout=10)
    # the new table message mentions the person to act, and only they may be pinged
    assert f"<@{person.user_id}>" in (anew.content or "")
    message = posting.fake.message(anew.message_id)
    assert [int(u) for u in message.extra["allowed_mentions"]["users"]] == [person.user_id]
    assert any(cid.startswith("sj:") for cid in message.custom_ids())
    assert posting.posted == [first.message_id, anew.message_id]
    assert [m.id for m in posting.fake.messages(posting.channel)] == [anew.message_id]
    # the move is stored from before the new message is posted until the old one is
    # deleted: a start after a kill in between knows which is left over (``finish_move``)
    await wait_until(lambda: posting.stored[-1] == (anew.message_id, None), timeout=10)
    assert posting.stored == [(first.message_id, None), (first.message_id, first.message_id),
                              (anew.message_id, first.message_id), (anew.message_id, None)]

    # once a wait: the same wait redrawn, and time passing, bring no second nudge
    posting.publisher.schedule(table)
    await asyncio.sleep(3 * NUDGE)
    assert len(_created(posting)) == 2
    assert table.message_id == anew.message_id

    # the next wait (another person's) gets its own nudge, and the edits went to the new one
    _played(table)
    posting.publisher.schedule(table)
    await wait_until(lambda: len(_created(posting)) == 3, timeout=10)
    assert f"<@{_to_act(table).user_id}>" in (_created(posting)[2].content or "")
    assert any(r.kind == "message_edit" and r.message_id == anew.message_id
               for r in posting.fake.records)


async def test_a_turn_taken_in_time_is_not_nudged(posting: Posting) -> None:
    table = _table(posting, _at(Playing, "classic"), nudge_after=1.5)
    posting.publisher.schedule(table)
    await wait_until(lambda: len(_created(posting)) == 1, timeout=10)
    # before the nudge is due the person plays; the next seat is a computer's
    next_seat = (table.actor() + 1) % 4  # type: ignore[operator]
    table.seats[next_seat] = Seat("ai", None, "Robot", "easy")
    _played(table)
    posting.publisher.schedule(table)
    await asyncio.sleep(2 * 1.5 + 0.5)
    assert len(_created(posting)) == 1
    assert not _deleted(posting)


@pytest.mark.parametrize("case", ["off", "no sooner than the timer", "away", "computer"])
async def test_no_nudge_where_nobody_is_waited_for_or_it_is_off(posting: Posting,
                                                                 case: str) -> None:
    settings: dict[str, float] = {
        "off": {"nudge_after": 0.0},
        "no sooner than the timer": {"nudge_after": NUDGE, "turn_timer": NUDGE},
    }.get(case, {})
    table = _table(posting, _at(Playing, "classic"), **settings)
    seat = table.actor()
    assert seat is not None
    if case == "away":
        table.seats[seat].away = True  # type: ignore[union-attr]
        table.turn_ends = None  # (an away player's turn shows no countdown)
    elif case == "computer":
        table.seats[seat] = Seat("ai", None, "Robot", "easy")
        table.turn_ends = None
    posting.publisher.schedule(table)
    await wait_until(lambda: len(_created(posting)) == 1, timeout=10)
    await asyncio.sleep(4 * NUDGE)
    assert len(_created(posting)) == 1
    assert not _deleted(posting)


async def test_a_close_while_the_new_message_is_stored_still_deletes_the_old_one(
        posting: Posting) -> None:
    """A close (a restart's first half) cancels the nudge after it posted the new message:
    the new message is still stored and the old one deleted, so the next start shows one
    table message, the one it knows."""
    table = _table(posting, _at(Playing, "classic"))
    storing, store_may_end = asyncio.Event(), asyncio.Event()
    remember = posting.publisher.message_posted

    async def slow_store(table: Table, message_id: int, *,
                         moving_from: int | None = None) -> None:
        if posting.posted and message_id not in posting.posted:  # (the first post is
            storing.set()  # stored at once, the nudge's new message slowly)
            await store_may_end.wait()
        await remember(table, message_id, moving_from=moving_from)

    posting.publisher.message_posted = slow_store
    posting.publisher.schedule(table)
    await wait_until(lambda: len(_created(posting)) == 1, timeout=10)
    first = _created(posting)[0].message_id
    await asyncio.wait_for(storing.wait(), timeout=10)

    closing = asyncio.create_task(posting.publisher.close())
    await asyncio.sleep(0.2)
    assert not closing.done()  # (it waits for the store, not cancelling it)
    store_may_end.set()
    await asyncio.wait_for(closing, timeout=10)
    anew = _created(posting)[1].message_id
    assert posting.posted == [first, anew]
    assert first in _deleted(posting)
    assert [m.id for m in posting.fake.messages(posting.channel)] == [anew]


def _bot_post(posting: Posting, filename: str) -> Any:
    """A message the bot posts in the channel with a picture named ``filename``."""
    channel = posting.publisher.post.channel(posting.channel.id)
    return channel.send(content="...", file=discord.File(io.BytesIO(b"png"), filename=filename))


async def test_a_start_deletes_the_old_table_message_a_kill_left_after_the_new_one_was_stored(
        posting: Posting) -> None:
    table = _table(posting, _at(Playing, "classic"))
    old, new = await _bot_post(posting, "table.png"), await _bot_post(posting, "table.png")
    table.message_id, table.moving_from = new.id, old.id  # (as the store kept them)
    await posting.publisher.finish_move(table)
    assert [m.id for m in posting.fake.messages(posting.channel)] == [new.id]
    assert (table.message_id, table.moving_from) == (new.id, None)
    assert posting.stored == [(new.id, None)]


async def test_a_start_deletes_a_new_table_message_a_kill_left_unstored(
        posting: Posting) -> None:
    """Killed after the nudge posted its new message, before storing it: the old one is
    the table message still; the new one, found among the bot's messages after it by its
    picture, goes; the bot's other posts and the players' messages stay."""
    table = _table(posting, _at(Playing, "classic"))
    old = await _bot_post(posting, "table.png")
    result = await _bot_post(posting, "result.png")
    fake = posting.fake
    said = Message(fake.snowflake(), posting.channel.id, posting.channel.guild_id,
                   posting.users[1].id, iso_now(), content="my turn?")
    fake.store_message(said)
    orphan = await _bot_post(posting, "table.png")
    table.message_id, table.moving_from = old.id, old.id
    await posting.publisher.finish_move(table)
    assert [m.id for m in fake.messages(posting.channel)] == [old.id, result.id, said.id]
    assert orphan.id in _deleted(posting)
    assert (table.message_id, table.moving_from) == (old.id, None)


async def test_a_start_that_cannot_read_the_channel_keeps_the_move_for_the_next_one(
        posting: Posting) -> None:
    table = _table(posting, _at(Playing, "classic"))
    old = await _bot_post(posting, "table.png")
    table.message_id, table.moving_from = old.id, old.id
    posting.fake.inject_fault("GET", f"/channels/{posting.channel.id}/messages", 400)
    await posting.publisher.finish_move(table)
    assert table.moving_from == old.id and not posting.stored
    await posting.publisher.finish_move(table)  # the next start
    assert table.moving_from is None
