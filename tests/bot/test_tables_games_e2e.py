"""Tables of 3, 5 and 6 seats (issue 13 item 1), end to end: the real bot against the
fake Discord opens find-friends, three-bid and six tables, people sit with the Join
button, computers are added with the button and at the start, the host lets a newcomer
in mid-match, and the computers play whole hands (bidding, naming the trump, calling
friends) to their results. What the game did is read from the bot's own database."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from engine.actions import action_from_dict
from engine.game import Game
from engine.rules import Ruleset
from tests.bot.harness import EPHEMERAL, answered, running_bot, wait_until
from tests.fakediscord import FakeChannel, FakeUser

#: (preset, the create command's choices, seats, decks, an action only that game has)
GAMES = [
    ("find-friends", {}, 5, 2, "CallFriends"),
    ("find-friends", {"players": 6}, 6, 3, "CallFriends"),  # 6 players: 3 decks
    ("three-bid", {}, 3, 2, "NameTrump"),
    ("six", {}, 6, 3, "Play"),
]


def _table_message(world: Any, channel: FakeChannel):  # type: ignore[no-untyped-def]
    for message in reversed(world.fake.messages(channel)):
        if any(cid.startswith("sj:") for cid in message.custom_ids()):
            return message
    return None


async def _press(world: Any, user: FakeUser, channel: FakeChannel, label: str) -> str:
    """``user`` presses the table message's button ``label``; the private answer."""
    message = _table_message(world, channel)
    click = await world.fake.click(user, message, message.button(label)["custom_id"])
    await answered(click)
    return click.message.content


def _played(world: Any, channel: FakeChannel) -> tuple[Game, list[str], list[str]]:
    """The channel's match as the bot stored it, replayed: the game, the kinds of its
    actions and of the public events they made."""
    with closing(sqlite3.connect(f"file:{world.db}?mode=ro", uri=True)) as db:
        match_id, rules, seed = db.execute(
            "SELECT id, rules, seed FROM matches WHERE channel_id = ?", (channel.id,)).fetchone()
        rows = db.execute("SELECT action FROM actions WHERE match_id = ? ORDER BY seq",
                          (match_id,)).fetchall()
    game = Game(Ruleset.from_dict(json.loads(rules)), int(seed))
    actions, events = [], []
    for (data,) in rows:
        action = action_from_dict(json.loads(data))
        actions.append(type(action).__name__)
        events += [e.kind for e in game.apply(action) if e.audience is None]
    return game, actions, events


async def test_tables_of_three_five_and_six_seats_fill_start_and_play_whole_hands(
        tmp_path: Path) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        host, guest, newcomer = (fake.add_user(n) for n in ("Hana", "Gus", "Nell"))
        channels = [world.channel] + [fake.add_channel(world.guild, f"table-{i}")
                                      for i in range(1, len(GAMES))]
        for channel, (preset, choices, seats, decks, _) in zip(channels, GAMES, strict=True):
            ix = await fake.slash(host, channel, "shengji", "create", preset=preset, **choices)
            await answered(ix)
            assert f"{seats} players, {decks} decks" in ix.message.content, ix.message.content
            await wait_until(lambda c=channel: _table_message(world, c) is not None, 30)
            lobby = _table_message(world, channel).content
            assert f"Seat {seats}:" in lobby and f"Seat {seats + 1}:" not in lobby
            assert await _press(world, guest, channel, "Join") == "You sit in seat 2."
            assert "seat 3" in await _press(world, host, channel, "Add computer")
            await _press(world, host, channel, "Start")  # the other seats: computers
            await wait_until(lambda c=channel: "My hand" in str(
                _table_message(world, c).components), 30)
            for user in (host, guest):  # computers take over: the table is theirs
                ix = await fake.slash(user, channel, "shengji", "leave")
                await answered(ix)
                assert ix.message.content == "You left the table."

        # mid-match, a newcomer asks for a computer's seat and the host lets them in
        three_bid = channels[2]
        ix = await fake.slash(newcomer, three_bid, "shengji", "join")
        await answered(ix)
        request = next(m for m in reversed(fake.messages(three_bid))
                       if any(c.startswith("sj:letin:") for c in m.custom_ids()))
        (let_in,) = [c for c in request.custom_ids() if c.startswith("sj:letin:")]
        click = await fake.click(host, request, let_in)
        await click.wait_acked()
        await wait_until(lambda: "now plays seat" in (fake.message(request.id).content or ""))
        ix = await fake.slash(newcomer, three_bid, "shengji", "leave")
        await answered(ix)

        for channel, (preset, _, seats, decks, own) in zip(channels, GAMES, strict=True):
            await wait_until(lambda c=channel: "hand_scored" in _played(world, c)[2], 150)
            game, actions, events = _played(world, channel)
            assert (game.players, game.rules.decks) == (seats, decks), preset
            assert own in actions, preset
        _, actions, events = _played(world, three_bid)
        assert "bid_won" in events or "redeal" in events
        # no table's clock ever failed: every wait, decision and default was its own
        assert "clock of channel" not in world.log.read_text()
    fake.assert_clean()


async def test_a_table_size_the_rules_do_not_describe_is_refused_privately(tmp_path: Path
                                                                         ) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        host = fake.add_user("Hana")
        ix = await fake.slash(host, world.channel, "shengji", "create", preset="find-friends",
                              players=6, decks=2)
        await answered(ix)
        assert ix.response["data"]["flags"] & EPHEMERAL
        assert "5 × 2, 5 × 3, 6 × 3" in ix.message.content
        assert "not 6 × 2" in ix.message.content
        assert not fake.public_payloads(world.channel)  # no table was opened
        ix = await fake.slash(host, world.channel, "shengji", "create", preset="find-friends",
                              players=5, decks=3)
        await answered(ix)
        assert "5 players, 3 decks" in ix.message.content
    fake.assert_clean()


async def test_the_rules_list_every_preset_and_describe_each(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        user = fake.add_user("Hana")
        ix = await fake.slash(user, world.channel, "shengji", "rules")
        await answered(ix)
        listing = ix.message.content
        for line in ("`find-friends` (5 × 2, 5 × 3, 6 × 3): 找朋友",
                     "`three-bid` (3 × 2): 三人竞标", "`six` (6 × 3): six players",
                     "`classic` (4 × 2): two decks"):
            assert line in listing, listing
        ix = await fake.slash(user, world.channel, "shengji", "rules", preset="three-bid")
        await answered(ix)
        text = ix.message.content
        assert text.startswith("三人竞标: 3 players bid")
        assert "Tables (players × decks): 3 × 2." in text
        assert "`max_bid`" in text
    fake.assert_clean()
