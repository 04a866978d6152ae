"""What the publisher posts after a hand of find-friends with the level transfer (RULES
§5), through a real discord.py client against the fake Discord: the result post says
where the stopped levels went, a gift offered to a player reaches them privately (a DM,
else their next private answer), and a match won by a player is posted with their name.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Sequence
from typing import Any

import pytest

from bot.table_data import Table
from bot.text.catalogue import say
from bot.text.events import describe_event
from bot.ui.publisher import DiscordPublisher
from bot.ui.render import seat_names
from engine.actions import AnswerTransfer, Event, Transfer, event
from tests.bot.harness import wait_until
from tests.bot.posting import Posting
from tests.bot.test_decision_panel import _table, _transferring


async def _deliver(publisher: DiscordPublisher, table: Table, events: Sequence[Event]) -> None:
    """As the table service does: the public events, then each seat's own."""
    await publisher.table_changed(table, [e for e in events if e.audience is None])
    for seat in sorted({e.audience for e in events if e.audience is not None}):
        await publisher.tell_seat(table, seat, [e for e in events if e.audience == seat])


def _seated(table: Table, users: Sequence[Any], channel: Any) -> Table:
    table.channel_id = channel.id
    for seat, user in zip(table.seats, users, strict=True):
        assert seat is not None
        seat.user_id = user.id
    return table


def _texts(posting: Posting) -> list[str]:
    return [m.content or "" for m in posting.fake.messages(posting.channel)]


async def test_the_result_post_says_where_the_stopped_levels_went(posting: Posting) -> None:
    game = _transferring(friend=True)
    result = game.phase.result
    chooser, levels = game.phase.offers[0]
    friend = next(s for s in result.defenders if s != chooser)
    table = _seated(_table(game, "find-friends", {"level_transfer": True}), posting.users,
                    posting.channel)
    publisher = posting.publisher
    scored = event("hand_scored", result=result, cards=result.kitty)
    await _deliver(publisher, table, [scored])
    await wait_until(lambda: any("Attackers' total" in t for t in _texts(posting)), timeout=10)
    (post,) = [m for m in posting.fake.messages(posting.channel)
               if "Attackers' total" in (m.content or "")]

    def bob_in_the_picture() -> str:
        (picture,) = posting.fake.message(post.id).attachments
        alt = picture.description or ""
        return alt[alt.index("2. Bob"):alt.index("3. Cy")]

    before = result.changes[friend]  # (as scored)
    assert f"{before.old.label} → {before.new.label} " in bob_in_the_picture()

    offered = game.apply(Transfer(chooser, friend))
    await _deliver(publisher, table, offered)
    accepted = game.apply(AnswerTransfer(friend, True))
    await _deliver(publisher, table, accepted)
    (moved,) = [e for e in accepted if e.kind == "levels_transferred"]
    line = describe_event("en", moved, seat_names(table))
    assert line == say("en", "ev_levels_transferred_up", name="1. Ann", target="2. Bob",
                       levels=levels, level=moved.get("level"))
    await wait_until(lambda: line in (posting.fake.message(post.id).content or ""), timeout=10)
    assert posting.fake.message(post.id).content.startswith(post.content or "")

    # the moves made, the result's picture is drawn again with Bob's level after them
    after = f"{before.old.label} → {moved.get('level')}"
    assert moved.get("level") != before.new.label
    await wait_until(lambda: after in bob_in_the_picture(), timeout=10)
    assert say("en", "reason_after_hand") in bob_in_the_picture()


@pytest.mark.parametrize(("seat", "by_dm"), [(1, True), (2, False)], ids=["dm", "dms-closed"])
async def test_an_offer_addressed_to_a_player_reaches_them_privately(
        posting: Posting, seat: int, by_dm: bool) -> None:
    game = _transferring(friend=True)
    table = _seated(_table(game, "find-friends", {"level_transfer": True}), posting.users,
                    posting.channel)
    offer = event("transfer_offered", audience=seat, seat=0, target=seat, levels=2)
    await _deliver(posting.publisher, table, [offer])
    text = say("en", "transfer_dm", channel=f"<#{posting.channel.id}>", giver="1. Ann",
               levels=2)
    user = posting.users[seat]
    if by_dm:
        await wait_until(lambda: any(r.content == text for r in posting.fake.dms(user)),
                         timeout=10)
    else:  # kept for the player's next private answer (their hand panel)
        assert posting.publisher.take_private(posting.channel.id, user.id) == [text]
    assert not any(text in t for t in _texts(posting))  # never in the channel


async def test_a_match_won_by_a_player_is_posted_with_their_name(posting: Posting) -> None:
    game = _transferring(friend=False)
    table = _seated(_table(game, "find-friends", {"level_transfer": True}), posting.users,
                    posting.channel)
    await _deliver(posting.publisher, table, [event("match_over", team=3)])
    post = say("en", "match_over_post_player", name="Di")
    await wait_until(lambda: post in _texts(posting), timeout=10)


async def test_a_finished_table_is_drawn_then_not_kept(posting: Posting) -> None:
    game = _transferring(friend=True)
    table = _seated(_table(game, "find-friends", {"level_transfer": True}), posting.users,
                    posting.channel)
    table.status = "finished"
    kept = weakref.ref(table)
    await _deliver(posting.publisher, table, [])
    await wait_until(lambda: bool(posting.fake.messages(posting.channel)), timeout=10)
    del table, game  # (a whole match's game is about half a megabyte)

    def let_go() -> bool:
        gc.collect()
        return kept() is None

    await wait_until(let_go, timeout=10)
