"""Whole hands of find-friends and three-bid with people and computers at one table
(issue #13 item 8), end to end through the real bot process and the fake Discord, each
with a SIGKILL restart of the bot mid-hand.

The people act only through the controls a person has: the panel's menus and buttons
and the slash commands, each choice taken from their own private answers
(autocomplete, the panel). The computers are ``easy`` (the heuristic): their decisions
are drawn from the bot's own seeded generator, so with ``SHENGJI_SEED`` fixed and the
restart taken while the bot waits for a person, the hand is the same on every run. Each
seed is found by asking the engine (as in ``test_card_picker_e2e.py``): a deal where no
computer declares (the heuristic's declaring is the same at every level and needs no
seed), so Alice, seat 1, deals and calls the friend; and the three-bid deal where the
computer answers Alice's bids as the test expects.
"""

from __future__ import annotations

import asyncio
import functools
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.text.catalogue import say
from bot.text.events import call_text, copy_word
from bot.ui.decisions import DRAFT_PATTERN
from engine.actions import Bid, Deal, EndDeal, PassBid
from engine.ai.bidding import choose_declaration
from engine.ai.phases import decide
from engine.cards import Card, Rank, Suit
from engine.game import Bidding, Burying, Game
from engine.rules.presets import ruleset
from engine.views import seat_view
from tests.bot.harness import (
    answered,
    component,
    create_and_start,
    hand_numbers,
    hand_over,
    running_bot,
    table_message,
    wait_until,
)
from tests.bot.test_card_picker_e2e import _first_seed, _match_seed, _stored, _table_says
from tests.bot.test_new_games_panel_e2e import _choose, _panel_with, _press

COMPUTERS = (2, 3, 4)  # find-friends: Alice and Bob sit in seats 1 and 2, computers after


def _dealt_without_computers_declaring(rules: Any, seed: int, computers: Sequence[int]
                                       ) -> Game | None:
    """The first deal of a bot started with ``SHENGJI_SEED=seed``, dealt as the bot
    deals it (a round, then each computer seat may declare), if no computer declares."""
    game = Game(rules, _match_seed(seed))
    while game.phase.stock:
        game.apply(Deal(min(game.players, len(game.phase.stock))))
        if any(choose_declaration(seat_view(game, seat)) for seat in computers):
            return None
    game.apply(EndDeal())
    return game


@functools.cache
def _friend_deal() -> tuple[int, Card]:
    """A find-friends deal where no computer declares, so Alice deals and takes the
    kitty, and Bob holds both copies of a side ace Alice lacks, with five more cards of
    its suit (so he need not play the ace until he chooses): whoever plays the first
    copy, it is Bob. (The bot seed, the ace.)"""
    rules = ruleset("find-friends")
    found: list[Card] = []

    def fits(seed: int) -> bool:
        game = _dealt_without_computers_declaring(rules, seed, COMPUTERS)
        if game is None:
            return False
        phase = game.phase
        if not isinstance(phase, Burying) or phase.taker != 0:
            return False
        alice, bob = phase.hands[0], phase.hands[1]
        for suit in Suit:
            ace = Card(Rank.ACE, suit)
            side = [c for c in bob if c.suit is suit and not phase.ctx.is_trump(c)]
            if not phase.ctx.is_trump(ace) and ace not in alice and bob.count(ace) == 2 \
                    and len(side) >= 7:
                found.append(ace)
                return True
        return False

    seed = _first_seed("Bob both copies of a side ace", fits)
    return seed, found[-1]


async def _human_plays(world: Any, user: Any, name: str,
                       prefer: Callable[[list[dict[str, Any]]], dict[str, Any] | None],
                       seen: list[tuple[Any, list[dict[str, Any]], int]]) -> bool:
    """If it is ``user``'s turn to play, they play what ``prefer`` picks from their
    autocomplete choices (else the first, the heuristic's); ``seen`` keeps every
    autocomplete answer. True if they played."""
    if f"{name} to play" not in table_message(world).content:
        return False  # (the message may lag: the answers below are the game's own)
    choices = await world.fake.autocomplete(user, world.channel, "shengji", "play",
                                            focused="cards", value="")
    seen.append((user, choices, world.fake.mark()))
    if not choices:
        return False
    choice = prefer(choices) or choices[0]
    played = await world.fake.slash(user, world.channel, "shengji", "play",
                                    cards=choice["value"])
    await answered(played)
    assert say("en", "done") in (played.message.content or ""), played.message.content
    return True


@dataclass
class _Played:
    """What the people saw while playing a hand: every autocomplete answer (the user, the
    choices, the record mark when answered) and the mark at the restart (0: not yet)."""
    asked: list[tuple[Any, list[dict[str, Any]], int]] = field(default_factory=list)
    restart_mark: int = 0


Prefer = Callable[[list[dict[str, Any]], _Played], "dict[str, Any] | None"]


async def _play_to_the_result(world: Any, people: Sequence[tuple[Any, str]], *,
                              restart_after: int, prefer: dict[int, Prefer] | None = None
                              ) -> _Played:
    """The people play, each what ``prefer`` picks for them (else the heuristic's first
    choice), until the hand's result is posted; once ``restart_after`` cards are played
    and the bot waits for a person, it is killed and started again, and each hand, the
    stored plays and the seat to play must be as they were."""
    played = _Played()
    end = time.monotonic() + 120
    while not hand_over(world):
        assert time.monotonic() < end, world.fake.describe_recent()
        for user, name in people:
            choose = (prefer or {}).get(user.id)
            await _human_plays(world, user, name,
                               lambda cs, f=choose: f(cs, played) if f else None, played.asked)
        if not played.restart_mark and len(_stored(world, "Play")) >= restart_after:
            mover = await _person_to_play(world, people, played.asked)
            if mover is not None:
                hands = {u.id: await hand_numbers(world, u) for u, _ in people}
                stored = len(_stored(world, "Play"))
                await world.restart()  # SIGKILL, then a new process on the same file
                played.restart_mark = world.fake.mark()
                for user, _ in people:  # each hand exactly as it was
                    assert await hand_numbers(world, user) == hands[user.id]
                assert len(_stored(world, "Play")) == stored
                assert await _person_to_play(world, people, played.asked) == mover
        await asyncio.sleep(0.05)
    assert played.restart_mark, "the hand ended before the restart"
    return played


async def test_find_friends_two_people_three_computers_a_whole_hand_with_a_restart(
        tmp_path: Path) -> None:
    seed, ace = _friend_deal()
    async with running_bot(tmp_path, {"SHENGJI_SEED": str(seed)}) as world:
        fake = world.fake
        alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
        await create_and_start(world, alice, "find-friends", others=(bob,))
        people = [(alice, "1. Alice"), (bob, "2. Bob")]
        # nobody declares; Alice buries her first eight cards with the keyboard
        panel = await _panel_with(world, alice, "sj:pk:g:bury:")
        buried = await fake.slash(alice, world.channel, "shengji", "bury",
                                  cards=" ".join(str(i) for i in range(1, 9)))
        await answered(buried)
        assert say("en", "done") in (buried.message.content or ""), buried.message.content

        # the call, from the panel's menus: the first copy of Bob's ace
        panel = await _panel_with(world, alice, "sj:cf:ok:")
        for menu, value in (("sj:cf:g:", ace.suit.value), ("sj:cf:c:", str(ace)),
                            ("sj:cf:k:", "1")):
            message = fake.message(panel.message.id)
            options = component(message, menu)["options"]
            assert value in [o["value"] for o in options], options
            if not any(o.get("default") and o["value"] == value for o in options):
                message = await _choose(world, alice, panel, menu, value)
        called = call_text("en", ace, 1)
        hidden_from = fake.mark()  # from here until the ace is played, Bob's secret
        await _press(world, alice, message, "sj:cf:ok:")
        await _table_says(world, say("en", "ev_friends_called", name="1. Alice",
                                     calls=called))
        found = say("en", "ev_friend_found", name="2. Bob", card=ace.pretty,
                    copy=copy_word("en", 1))

        def bob_prefers(choices: list[dict[str, Any]], played: _Played
                        ) -> dict[str, Any] | None:
            # Bob keeps the ace through the restart, then plays it at his first chance
            with_ace = [c for c in choices if str(ace) in c["value"].split()]
            if played.restart_mark and with_ace:
                return with_ace[0]
            return next((c for c in choices if c not in with_ace), None)

        played = await _play_to_the_result(world, people, restart_after=10,
                                           prefer={bob.id: bob_prefers})
        asked, restart_mark = played.asked, played.restart_mark
        reveal = next(r for r in fake.records if found in (r.content or ""))
        assert reveal.seq > restart_mark  # some tricks after the call, and the restart
        # until the reveal, nothing anyone but Bob saw told who holds the ace
        seen_by_others = [r for r in fake.records[hidden_from:reveal.seq - 1]
                          if r.public or r.user_id != bob.id]
        assert any(r.user_id == alice.id for r in seen_by_others)  # (her panel, answers)
        answers = [c for user, choices, at in asked
                   if user is alice and hidden_from <= at < reveal.seq for c in choices]
        no_friend = functools.partial(_assert_no_friend, friend="2. Bob",
                                      others=("3. Bot 3", "4. Bot 4", "5. Bot 5"),
                                      channel_id=world.channel.id)
        no_friend(seen_by_others, answers)
        # (the same check fails on what the table showed once Bob played the ace)
        after = [r for r in fake.records[reveal.seq - 1:] if r.public][:3]
        with pytest.raises(AssertionError):
            no_friend(after, [])

        # the result post, and the hand's record: the stats count it for both people
        points = _attackers_total(world)
        held = int(points < 120)
        for user in (alice, bob):  # Alice deals, Bob is her friend: both defend
            await _stats_say(world, user, f"Hands on the dealer's side: 1, won {held}")
            await _stats_say(world, user, "Hands as attackers: 0, won 0")


FRIEND_WORDS = re.compile(r"friend|partner|defend|attack|team", re.IGNORECASE)


def _roles(notes: Sequence[str]) -> set[str]:
    """A seat's notes without what every seat has (its level, cards, turn)."""
    return {n.strip() for n in notes if n.strip() and not re.match(
        r"Level \S+$|\d+ cards?$|to play$|winning$", n.strip())}


def _seat_notes(text: str) -> dict[str, set[str]]:
    """Each seat's roles as a message (``Seat 2: Bob · Level 2``) and the picture's alt
    text (``2. Bob (17 cards, Level 2)``) word them."""
    notes: dict[str, set[str]] = {}
    for number, name, rest in re.findall(r"^Seat (\d): (.+?)(?: · (.*))?$", text, re.M):
        notes[f"{number}. {name.split(' 🤖')[0]}"] = _roles(rest.split(" · "))
    for who, inside in re.findall(r"(\d\. [^;(.]+?) \(([^)]*cards[^)]*)\)", text):
        notes[who.strip()] = _roles(inside.split(","))
    return notes


#: every control id a player other than the friend may see while the friend is hidden:
#: the table's buttons, the play picker (the channel, the hand's size and the picking in
#: progress) and the dealer's call menus as they were when Call was pressed (the hand and
#: the call drafted: cards and copies); none carries a seat
HIDDEN_IDS = re.compile(r"sj:(hand|leave|pick:play):CH|sj:pk:(g|c|ok|x):play:CH:\d+:\d+:\d+"
                        rf"|sj:cf:(g|c|k|ok|f\d):CH:\d+:{DRAFT_PATTERN}")


def _assert_no_friend(records: Sequence[Any], answers: Sequence[dict[str, Any]], *,
                      friend: str, others: Sequence[str], channel_id: int) -> None:
    """No payload names or marks ``friend``'s seat: no friend word beside the name; the
    seat's roles in the table text and alt text are those of every other non-dealer seat
    (as they would be if another seat held the card); the control ids are of kinds that
    carry no seat; no autocomplete answer speaks of friends."""
    name = friend.split(". ", 1)[1]
    compared = 0
    for record in records:
        texts = [record.text()] + [a.description or "" for a in record.attachments]
        for text in texts:
            for piece in re.split(r"[.;\n]", text):
                assert not (name in piece and FRIEND_WORDS.search(piece)), (piece, text)
            notes = _seat_notes(text)
            if friend in notes:
                compared += 1
                assert all(notes[friend] == notes[o] for o in others if o in notes), notes
        for cid in record.custom_ids():
            assert HIDDEN_IDS.fullmatch(cid.replace(str(channel_id), "CH")), cid
    assert compared, "no payload showed the seats"
    for answer in answers:
        assert not FRIEND_WORDS.search(answer["name"] + answer["value"]), answer


def _attackers_total(world: Any) -> int:
    """The attackers' points, as the hand's result post gives them."""
    for message in world.fake.messages(world.channel):
        found = re.search(r"Attackers' total: (\d+)", message.content or "")
        if found:
            return int(found.group(1))
    raise AssertionError("no result post")


async def _stats_say(world: Any, user: Any, line: str) -> None:
    """``user``'s ``/shengji stats`` says ``line`` (the hand's record is derived after the
    hand is stored: asked again until it is there)."""
    end = time.monotonic() + 30
    while True:
        ix = await world.fake.slash(user, world.channel, "shengji", "stats")
        await answered(ix)
        shown = ix.message.embeds[0]["description"] if ix.message.embeds else ix.message.content
        if line in (shown or ""):
            return
        assert time.monotonic() < end, shown
        await asyncio.sleep(0.2)


async def _person_to_play(world: Any, people: Sequence[tuple[Any, str]],
                          seen: list[tuple[Any, list[dict[str, Any]], int]]) -> Any:
    """The person whose turn it is to play, asked of the game (their autocomplete has
    plays), or None."""
    for user, _ in people:
        choices = await world.fake.autocomplete(user, world.channel, "shengji", "play",
                                                focused="cards", value="")
        seen.append((user, choices, world.fake.mark()))
        if choices:
            return user
    return None


# -- three-bid ---------------------------------------------------------------------------------

@functools.cache
def _bidding_deal() -> int:
    """A three-bid deal (Alice, Bob, a computer in seat 3) where, after Alice bids 150 and
    Bob passes, the computer bids 145 and then passes on Alice's 140: she deals at 140."""
    rules = ruleset("three-bid")

    def fits(seed: int) -> bool:
        game = _dealt_without_computers_declaring(rules, seed, (2,))
        if game is None or not isinstance(game.phase, Bidding):
            return False
        for action in (Bid(0, 150), PassBid(1)):
            game.apply(action)
        if decide(seat_view(game, 2)) != Bid(2, 145):
            return False
        for action in (Bid(2, 145), Bid(0, 140)):
            game.apply(action)
        return decide(seat_view(game, 2)) == PassBid(2)

    return _first_seed("the computer bids once and passes", fits)


async def _bid_panel(world: Any, user: Any) -> Any:
    """``user``'s panel once it offers bids; the message."""
    panel = await _panel_with(world, user, "sj:bid:")
    return world.fake.message(panel.message.id)


async def test_three_bid_two_people_and_a_computer_a_whole_hand_with_restarts(
        tmp_path: Path) -> None:
    seed = _bidding_deal()
    async with running_bot(tmp_path, {"SHENGJI_SEED": str(seed)}) as world:
        fake = world.fake
        alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
        await create_and_start(world, alice, "three-bid", others=(bob,))
        people = [(alice, "1. Alice"), (bob, "2. Bob")]
        channel = world.channel.id
        # Alice bids 150 with its button, Bob passes with his, the computer bids 145
        await _press(world, alice, await _bid_panel(world, alice), f"sj:bid:{channel}:0:150")
        await _press(world, bob, await _bid_panel(world, bob), f"sj:bid:{channel}:0:pass")
        await wait_until(lambda: len(_stored(world, "Bid")) == 2, timeout=30)
        assert _stored(world, "Bid")[-1] == {"type": "Bid", "seat": 2, "points": 145}
        await _table_says(world, say("en", "status_bid", name="1. Alice", points=145,
                                     bidder="3. Bot 3"))

        # killed while the bot waits for Alice's bid: the standing bid is still 145
        before = await hand_numbers(world, alice)
        await world.restart()
        assert await hand_numbers(world, alice) == before
        message = await _bid_panel(world, alice)
        bids = [o["value"] for o in component(message, "sj:bidm:")["options"]]
        assert "145" not in bids and "140" in bids, bids
        ix = await fake.select(alice, message, component(message, "sj:bidm:")["custom_id"],
                               ["140"])
        await answered(ix)
        await wait_until(lambda: len(_stored(world, "PassBid")) == 2, timeout=30)
        assert _stored(world, "Bid")[-1] == {"type": "Bid", "seat": 0, "points": 140}
        await _table_says(world, say("en", "ev_bid_won", name="1. Alice", points=140))

        # Alice buries with the keyboard and names her longest suit from the menu
        await _panel_with(world, alice, "sj:pk:g:bury:")
        buried = await fake.slash(alice, world.channel, "shengji", "bury",
                                  cards="1 2 3 4 5 6")
        await answered(buried)
        panel = await _panel_with(world, alice, "sj:trumpm:")
        held = Counter(label[0] for label in await hand_numbers(world, alice)
                       if label[0] in "♠♥♦♣")
        suit = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}[held.most_common(1)[0][0]]
        message = fake.message(panel.message.id)
        assert suit in [o["value"] for o in component(message, "sj:trumpm:")["options"]]
        ix = await fake.select(alice, message, component(message, "sj:trumpm:")["custom_id"],
                               [suit])
        await answered(ix)
        await wait_until(lambda: bool(_stored(world, "NameTrump")), timeout=30)
        assert _stored(world, "NameTrump") == [{"type": "NameTrump", "seat": 0, "trump": suit}]

        # the play, each person playing the heuristic's first choice; killed again after
        # two tricks, while the bot waits for a person
        await _play_to_the_result(world, people, restart_after=6)

        # the result post, and the hand's record: Alice dealt alone, Bob attacked
        points = _attackers_total(world)
        await _stats_say(world, alice, f"Hands on the dealer's side: 1, won {int(points < 140)}")
        await _stats_say(world, bob, f"Hands as attackers: 1, won {int(points >= 140)}")
