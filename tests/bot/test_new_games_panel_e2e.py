"""Calling friends and bidding from the hand panel (issue #13 items 2 and 3), end to end
through the real bot process and the fake Discord.

Every seat is a person, so no computer acts and what happens depends on the deal alone
(``SHENGJI_SEED``, as in ``test_card_picker_e2e.py``). find-friends: Alice deals, buries,
calls "the first ♥A played" (or whichever side ace fits the deal) with the panel's menus
and its Call button; the channel sees the call, nobody else sees anything about who the
friend is, and when Carol plays the called ace the table says at once that she is the
friend. three-bid: the bid buttons, Pass, the standing bid on the table, and the trump
named from the dealer's menu.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.text.catalogue import say
from bot.text.events import call_text, copy_word
from engine.actions import Bury, CallFriends, Deal, EndDeal, Play
from engine.cards import Card, Rank, Suit
from engine.game import Burying, Game, Playing, Transferring
from engine.legal import legal_plays
from engine.rules import Ruleset
from engine.rules.presets import ruleset
from tests.bot.harness import answered, component, redrawn, running_bot, wait_until
from tests.bot.test_card_picker_e2e import (
    _first_seed,
    _match_seed,
    _panel,
    _stored,
    _table_says,
)

FIVE = ("Alice", "Bob", "Carol", "Dave", "Erin")  # seats 1 to 5
THREE = FIVE[:3]


async def _seat(world: Any, preset: str, names: Sequence[str],
                options: dict[str, str] | None = None) -> list[Any]:
    """The first opens a table, the others join in turn, the first starts."""
    fake = world.fake
    users = [fake.add_user(name) for name in names]
    extra = {"options": " ".join(f"{k}={v}" for k, v in options.items())} if options else {}
    await answered(await fake.slash(users[0], world.channel, "shengji", "create",
                                    preset=preset, **extra))
    for user in users[1:]:
        await answered(await fake.slash(user, world.channel, "shengji", "join"))
    start = await fake.slash(users[0], world.channel, "shengji", "start")
    await answered(start)
    assert start.message.content == say("en", "started"), start.message.content
    return users


async def _panel_with(world: Any, user: Any, prefix: str, timeout: float = 60) -> Any:
    """The user's panel once it has a control whose id starts with ``prefix``."""
    end = time.monotonic() + timeout
    while True:
        ix = await _panel(world, user)
        if any(cid.startswith(prefix) for cid in ix.message.custom_ids()):
            return ix
        assert time.monotonic() < end, world.fake.describe_recent()
        await asyncio.sleep(0.2)


async def _choose(world: Any, user: Any, panel: Any, prefix: str, value: str) -> Any:
    """Pick ``value`` in the panel's menu ``prefix``; the panel once redrawn."""
    message = world.fake.message(panel.message.id)
    ix = await world.fake.select(user, message, component(message, prefix)["custom_id"], [value])
    await redrawn(world, ix, message.custom_ids())
    return world.fake.message(panel.message.id)


async def _press(world: Any, user: Any, message: Any, prefix: str) -> Any:
    button = component(message, prefix)
    assert not button.get("disabled"), button
    click = await world.fake.click(user, message, button["custom_id"])
    await answered(click)
    return click


def _deal(game: Game) -> None:
    while game.phase.stock:
        game.apply(Deal(min(game.players, len(game.phase.stock))))
    game.apply(EndDeal())


# -- find-friends ---------------------------------------------------------------------------------

def _alice_buries(rules: Ruleset, seed: int) -> Game | None:
    """The first deal a bot started with ``SHENGJI_SEED=seed`` makes, dealt with nobody
    declaring, if Alice (seat 1) then takes the kitty."""
    game = Game(rules, _match_seed(seed))
    _deal(game)
    phase = game.phase
    return game if isinstance(phase, Burying) and phase.taker == 0 else None


@functools.cache
def _friend_deal() -> tuple[int, Card, Card, list[Card]]:
    """A deal where nobody declares, Alice (seat 1) deals and takes the kitty, holds no
    copy of a side ace that Carol (seat 3) holds and Bob (seat 2) does not, and a low
    card of its suit to lead: (the bot seed, the ace, Alice's lead, her burial)."""
    rules = ruleset("find-friends")
    found: list[tuple[Card, Card, list[Card]]] = []

    def fits(seed: int) -> bool:
        game = _alice_buries(rules, seed)
        if game is None:
            return False
        phase = game.phase
        assert isinstance(phase, Burying)
        hands, ctx = phase.hands, phase.ctx
        for suit in Suit:
            ace = Card(Rank.ACE, suit)
            if ctx.is_trump(ace) or ace in hands[0] or ace in hands[1] or ace not in hands[2]:
                continue
            low = [c for c in hands[0] if c.suit is suit and not ctx.is_trump(c)]
            if not low:
                continue
            burial = [c for c in hands[0] if c != low[0]][:phase.kitty_size]
            trial = Game(rules, _match_seed(seed))  # and the engine takes the plan
            _deal(trial)
            trial.apply(Bury(0, tuple(burial)))
            trial.apply(CallFriends(0, (ace,), (1,)))
            trial.apply(Play(0, (low[0],)))
            found.append((ace, low[0], burial))
            return True
        return False

    seed = _first_seed("a side ace for Carol", fits)
    return (seed, *found[-1])


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


async def test_the_dealer_calls_a_friend_from_menus_and_the_table_sees_the_reveal(
        tmp_path: Path) -> None:
    seed, ace, lead, burial = _friend_deal()
    async with running_bot(tmp_path, {"SHENGJI_SEED": str(seed)}) as world:
        fake = world.fake
        alice, bob, carol, dave, _erin = await _seat(world, "find-friends", FIVE)
        # the deal runs; nobody declares: Alice deals and buries with the keyboard
        await _panel_with(world, alice, "sj:pk:g:bury:")
        buried = await fake.slash(alice, world.channel, "shengji", "bury",
                                  cards=_cards_text(burial))
        await answered(buried)
        assert _stored(world, "Bury")

        # the call, from the menus: the suit, the card, the copy, then Call
        panel = await _panel_with(world, alice, "sj:cf:ok:")
        # (the keyboard's call suggestions are the dealer's alone, and hold no hand)
        for user in (bob, carol):
            assert await fake.autocomplete(user, world.channel, "shengji", "call",
                                           focused="card", value="") == []
        suggested = await fake.autocomplete(alice, world.channel, "shengji", "call",
                                            focused="card", value="")
        assert suggested and all(c["value"].startswith("A") for c in suggested[:3])
        # by keyboard: not Bob's call to make, and no such card; neither changes anything
        for user, card, reason in (
                (bob, str(ace), say("en", "engine_not_your_turn_call", turn=1)),
                (alice, "ZZ", say("en", "bad_cards").split("{")[0])):
            refused = await fake.slash(user, world.channel, "shengji", "call", card=card)
            await answered(refused)
            assert reason in (refused.message.content or ""), refused.message.content
        assert not _stored(world, "CallFriends")
        message = fake.message(panel.message.id)
        assert component(message, "sj:cf:ok:").get("disabled")  # no card picked yet
        assert say("en", "hint_call", count=1) in message.content
        message = await _choose(world, alice, panel, "sj:cf:g:", ace.suit.value)
        message = await _choose(world, alice, panel, "sj:cf:c:", str(ace))
        message = await _choose(world, alice, panel, "sj:cf:k:", "2")
        assert say("en", "call_draft_line", calls=call_text("en", ace, 2)) in message.content
        message = await _choose(world, alice, panel, "sj:cf:k:", "1")
        called = call_text("en", ace, 1)
        assert say("en", "call_draft_line", calls=called) in message.content
        await _press(world, alice, message, "sj:cf:ok:")
        await wait_until(lambda: bool(_stored(world, "CallFriends")), timeout=30)
        (stored,) = _stored(world, "CallFriends")
        assert stored["seat"] == 0 and stored["cards"] == str(ace) and stored["copies"] == [1]
        await _table_says(world, say("en", "ev_friends_called", name="1. Alice",
                                     calls=called))

        # the others see the call and nothing of who answers it
        friend_words = ("friend!", say("en", "call_answered", call=called, name="3. Carol"))
        for user in (bob, carol, dave):
            seen = await _panel(world, user)
            assert say("en", "calls_line", calls=called) in seen.message.content
            assert not any(cid.startswith("sj:cf:") for cid in seen.message.custom_ids())
        before = fake.public_payloads(world.channel) + fake.ephemerals(bob) + \
            fake.ephemerals(dave) + fake.dms(bob) + fake.dms(dave)
        assert not any(word in (r.content or "") for r in before for word in friend_words)

        # Alice leads, Bob follows, Carol plays the called ace: the table says so at once
        for user, cards in ((alice, _cards_text([lead])), (bob, None), (carol, str(ace))):
            if cards is None:
                choices = await fake.autocomplete(user, world.channel, "shengji", "play",
                                                  focused="cards", value="")
                cards = next(c["value"] for c in choices if str(ace) not in c["value"])
                # as shown (♦A …), typed with a phone's emoji keyboard (♦ and U+FE0F)
                shown = next(c["name"] for c in choices if c["value"] == cards)
                again = await fake.autocomplete(user, world.channel, "shengji", "play",
                                                focused="cards",
                                                value=shown[0] + "\ufe0f" + shown[1:])
                assert cards in [c["value"] for c in again]
            played = await fake.slash(user, world.channel, "shengji", "play", cards=cards)
            await answered(played)
            assert say("en", "done") in (played.message.content or ""), played.message.content
        await _table_says(world, say("en", "ev_friend_found", name="3. Carol",
                                     card=ace.pretty, copy=copy_word("en", 1)))
        await _table_says(world, say("en", "call_answered", call=called, name="3. Carol"))


# -- three-bid -----------------------------------------------------------------------------------

async def test_bids_pass_and_the_trump_are_chosen_with_the_panels_controls(
        tmp_path: Path) -> None:
    async with running_bot(tmp_path, {"SHENGJI_SEED": "5"}) as world:
        fake = world.fake
        alice, bob, carol = await _seat(world, "three-bid", THREE)
        # seat 1 bids first: the highest bids are buttons (150 first), with Pass
        panel = await _panel_with(world, alice, "sj:bid:")
        message = fake.message(panel.message.id)
        first = [c for c in message.iter_components()
                 if c.get("custom_id", "").startswith("sj:bid:")]
        assert [c["label"] for c in first] == ["150", "145", "140", "135", "Pass"]
        await _press(world, alice, message, f"sj:bid:{world.channel.id}:0:150")
        await wait_until(lambda: bool(_stored(world, "Bid")), timeout=30)
        await _table_says(world, say("en", "ev_bid", name="1. Alice", points=150))
        await _table_says(world, say("en", "status_bid", name="2. Bob", points=150,
                                     bidder="1. Alice"))
        # Bob bids lower from the menu, Carol and Alice pass
        panel = await _panel_with(world, bob, "sj:bidm:")
        message = fake.message(panel.message.id)
        labels = [o["value"] for o in component(message, "sj:bidm:")["options"]]
        assert labels[0] == "145" and "150" not in labels
        ix = await fake.select(bob, message, component(message, "sj:bidm:")["custom_id"], ["120"])
        await answered(ix)
        await wait_until(lambda: len(_stored(world, "Bid")) == 2, timeout=30)
        for passes, user in enumerate((carol, alice), start=1):
            panel = await _panel_with(world, user, "sj:bid:")
            await _press(world, user, fake.message(panel.message.id),
                         f"sj:bid:{world.channel.id}:0:pass")
            await wait_until(lambda n=passes: len(_stored(world, "PassBid")) == n, timeout=30)
        await _table_says(world, say("en", "ev_bid_won", name="2. Bob", points=120))
        # Bob buries and names the trump from his menu
        await _panel_with(world, bob, "sj:pk:g:bury:")
        buried = await fake.slash(bob, world.channel, "shengji", "bury",
                                  cards="1 2 3 4 5 6")
        await answered(buried)
        panel = await _panel_with(world, bob, "sj:trumpm:")
        message = fake.message(panel.message.id)
        ix = await fake.select(bob, message, component(message, "sj:trumpm:")["custom_id"], ["H"])
        await answered(ix)
        await wait_until(lambda: bool(_stored(world, "NameTrump")), timeout=30)
        assert _stored(world, "NameTrump") == [{"type": "NameTrump", "seat": 1, "trump": "H"}]
        await _table_says(world, say("en", "ev_trump", trump="♥", level="2"))


async def test_a_keyboard_player_bids_passes_and_names_the_trump(tmp_path: Path) -> None:
    async with running_bot(tmp_path, {"SHENGJI_SEED": "5"}) as world:
        fake = world.fake
        alice, bob, carol = await _seat(world, "three-bid", THREE)
        await _panel_with(world, alice, "sj:bid:")
        choices = await fake.autocomplete(alice, world.channel, "shengji", "choose",
                                          focused="option", value="")
        # pass first (after 25 bids it would not be listed), then the bids, highest first
        assert [c["value"] for c in choices][:3] == ["pass", "150", "145"]
        assert await fake.autocomplete(bob, world.channel, "shengji", "choose",
                                       focused="option", value="") == []  # not his turn
        typed = await fake.autocomplete(alice, world.channel, "shengji", "choose",
                                        focused="option", value="p")
        assert [(c["name"], c["value"]) for c in typed] == [("Pass", "pass")]
        for wrong, key in (("151", "bad_choice"), ("H", "bad_choice")):
            refused = await fake.slash(alice, world.channel, "shengji", "choose", option=wrong)
            await answered(refused)
            assert say("en", key) in (refused.message.content or "")
        refused = await fake.slash(bob, world.channel, "shengji", "choose", option="pass")
        await answered(refused)
        assert say("en", "nothing_to_choose") in (refused.message.content or "")
        assert not _stored(world, "Bid") and not _stored(world, "PassBid")  # nothing changed
        for user, option in ((alice, "150"), (bob, "pass"), (carol, "Pass")):  # (its label)
            ix = await fake.slash(user, world.channel, "shengji", "choose", option=option)
            await answered(ix)
            assert say("en", "done") in (ix.message.content or ""), ix.message.content
        await _table_says(world, say("en", "ev_bid_won", name="1. Alice", points=150))
        await answered(await fake.slash(alice, world.channel, "shengji", "bury",
                                        cards="1 2 3 4 5 6"))
        await _panel_with(world, alice, "sj:trumpm:")
        suits = await fake.autocomplete(alice, world.channel, "shengji", "choose",
                                        focused="option", value="")
        assert [c["value"] for c in suits] == ["S", "H", "D", "C", "none"]
        typed = await fake.autocomplete(alice, world.channel, "shengji", "choose",
                                        focused="option", value="d")
        assert [(c["name"], c["value"]) for c in typed] == [("♦", "D")]
        typed = await fake.autocomplete(alice, world.channel, "shengji", "choose",
                                        focused="option", value="trump")
        assert [(c["name"], c["value"]) for c in typed] == [("no trump", "none")]
        # the label shown, as a phone's emoji keyboard types it (♦ and U+FE0F)
        named = await fake.slash(alice, world.channel, "shengji", "choose", option="♦\ufe0f")
        await answered(named)
        assert _stored(world, "NameTrump") == [{"type": "NameTrump", "seat": 0, "trump": "D"}]
        await _table_says(world, say("en", "ev_trump", trump="♦", level="2"))


# -- find-friends: a whole hand, then the level transfer ---------------------------------------

TRANSFER_OPTIONS = {"level_transfer": "true", "must_play": "3"}  # any hand held stops at 3


@functools.cache
def _transfer_hand() -> tuple[int, list[Any]]:
    """A hand whose dealer and friend both climb past 3 (a must-play rank here), played
    by a fixed policy (burial: the first cards; the call: the first ♥A; each play: the
    engine's first legal one): (the bot seed, every action in order)."""
    rules = ruleset("find-friends", **TRANSFER_OPTIONS)
    found: list[list[Any]] = []

    def fits(seed: int) -> bool:
        game = _alice_buries(rules, seed)
        if game is None:
            return False
        phase = game.phase
        assert isinstance(phase, Burying)
        actions: list[Any] = [Bury(0, phase.hands[0][:phase.kitty_size]),
                              CallFriends(0, (Card(Rank.ACE, Suit.HEARTS),), (1,))]
        for action in actions:
            game.apply(action)
        while isinstance(game.phase, Playing):
            seat = game.phase.turn
            actions.append(Play(seat, legal_plays(game, seat)[0]))
            game.apply(actions[-1])
        after = game.phase
        if not isinstance(after, Transferring) or [s for s, _ in after.offers] != [0, 1] \
                or 1 not in after.result.defenders:
            return False
        found.append(actions)
        return True

    seed = _first_seed("a hand whose dealer and friend are stopped", fits)
    return seed, found[-1]


async def test_a_whole_hand_then_the_stopped_levels_are_placed_from_the_panels(
        tmp_path: Path) -> None:
    seed, actions = _transfer_hand()
    async with running_bot(tmp_path, {"SHENGJI_SEED": str(seed)}) as world:
        fake = world.fake
        users = await _seat(world, "find-friends", FIVE, options=TRANSFER_OPTIONS)
        alice, bob, carol = users[:3]
        await _panel_with(world, alice, "sj:pk:g:bury:")
        for action in actions:  # the hand, typed by each player in turn
            user = users[action.seat]
            if isinstance(action, Bury):
                ix = await fake.slash(user, world.channel, "shengji", "bury",
                                      cards=_cards_text(action.cards))
            elif isinstance(action, CallFriends):
                ix = await fake.slash(user, world.channel, "shengji", "call",
                                      card=str(action.cards[0]), copy=action.copies[0])
            else:
                ix = await fake.slash(user, world.channel, "shengji", "play",
                                      cards=_cards_text(action.cards))
            await answered(ix)
            assert say("en", "done") in (ix.message.content or ""), ix.message.content
        await wait_until(lambda: bool(_result_post(world)), timeout=30)

        # Alice's stopped levels: her panel offers them to her friend Bob, or off an
        # opponent, or nowhere; nobody else is asked
        panel = await _panel_with(world, alice, "sj:tr:")
        labels = [c["label"] for c in fake.message(panel.message.id).iter_components()
                  if c.get("custom_id", "").startswith("sj:tr:")]
        assert labels[0] == say("en", "btn_transfer_give", name="2. Bob")
        assert labels[-1] == say("en", "btn_transfer_none")
        assert not any(c.startswith("sj:tr") for c in (await _panel(world, carol))
                       .message.custom_ids())
        await _press(world, alice, fake.message(panel.message.id),
                     f"sj:tr:{world.channel.id}:0:1")
        panel = await _panel_with(world, bob, "sj:tra:")
        await _press(world, bob, fake.message(panel.message.id),
                     f"sj:tra:{world.channel.id}:0:yes")
        await wait_until(lambda: bool(_stored(world, "AnswerTransfer")), timeout=30)
        # then Bob's own stopped level: he lets it go
        panel = await _panel_with(world, bob, "sj:tr:")
        await _press(world, bob, fake.message(panel.message.id),
                     f"sj:tr:{world.channel.id}:0:none")
        await wait_until(lambda: len(_stored(world, "Transfer")) == 2, timeout=30)
        assert _stored(world, "Transfer") == [
            {"type": "Transfer", "seat": 0, "target": 1},
            {"type": "Transfer", "seat": 1, "target": None}]
        assert _stored(world, "AnswerTransfer") == [
            {"type": "AnswerTransfer", "seat": 1, "accept": True}]
        # the result post says what became of the levels
        given = say("en", "ev_levels_transferred_up", name="1. Alice", target="2. Bob",
                    levels=3, level="3")
        kept = say("en", "ev_levels_kept", name="2. Bob", levels=1)
        await wait_until(lambda: given in _result_post(world) and kept in _result_post(world),
                         timeout=30)


def _result_post(world: Any) -> str:
    for message in world.fake.messages(world.channel):
        if "Attackers' total" in (message.content or ""):
            return str(message.content)
    return ""
