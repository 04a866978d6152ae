"""Picking cards without typing (issue "At the table", "Missing" 2), end to end through
the real bot process and the fake Discord, in English and in Chinese: burying the kitty
and a throw that the ranked choices do not offer (classic), and the changzhu swap and
回牌 (return), each done with the hand panel's suit menu, card menu and confirm button.

Four people sit at each table, so no computer acts and what happens depends on the deal
alone. The bot deals from ``SHENGJI_SEED``: each test first finds, with the engine, a
seed whose deal allows what it tries (the bot's TableService draws its first match's
seed from ``random.Random(SHENGJI_SEED)``). What the players then do is decided from
their own private panels, and the tests assert on the actions the bot stored, on the
hands the panels show afterwards and on the table's lines.
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
import re
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from bot.text.catalogue import say
from bot.text.events import cards_text
from engine.actions import Bury, Deal, Declare, EndDeal, Play, ReturnCards, SwapKitty
from engine.cards import Card, Rank, Suit, parse_cards
from engine.errors import EngineError
from engine.game import Game
from engine.legal import legal_declarations
from engine.rules.presets import ruleset
from tests.bot.harness import (
    answered,
    component,
    pick,
    pick_kind,
    running_bot,
    show_group,
    table_message,
    wait_until,
)

pytestmark = pytest.mark.asyncio

LOCALES = [pytest.param("en-US", id="english"), pytest.param("zh-CN", id="chinese")]
NAMES = ("Alice", "Bob", "Carol", "Dave")  # seats 1 to 4; Alice and Carol are partners
SEEDS = range(3000)
# changzhu: people declare while the cards are dealt, so the deal goes at a pace a test
# can follow (a round every 0.3 s, 4 s after the last card)
DEALING = {"SHENGJI_PAUSE_SCALE": "0.5"}
LATEST_ROUND = 18  # of 26: what a test must do during the deal is possible by then


# -- the deal a bot seed gives (the engine, as the bot runs it) --------------------------------

def _match_seed(bot_seed: int) -> int:
    """The seed of the first match a bot started with ``SHENGJI_SEED=bot_seed`` deals."""
    return random.Random(bot_seed).randrange(2**62)


def _rounds(game: Game) -> Any:
    """Deal ``game`` round by round (one card each), yielding the round's number."""
    n = 0
    while game.phase.stock:
        game.apply(Deal(min(game.players, len(game.phase.stock))))
        n += 1
        yield n


def _first_seed(what: str, fits: Callable[[int], bool]) -> int:
    for seed in SEEDS:
        try:
            if fits(seed):
                return seed
        except EngineError:
            continue
    raise AssertionError(f"no SHENGJI_SEED below {SEEDS.stop} deals {what}")


def _side_throw(hand: Sequence[Card], opponents: Sequence[Card],
                is_side: Callable[[Card], bool]) -> tuple[Card, Card] | None:
    """Two side cards of one suit in ``hand`` that make a throw bound to fail: the
    lowest and the next higher, when an opponent holds a higher card of that suit."""
    for suit in Suit:
        mine = sorted({c for c in hand if c.suit is suit and is_side(c)}, key=lambda c: c.rank)
        if len(mine) >= 2 and any(c.suit is suit and is_side(c) and c.rank > mine[0].rank
                                  for c in opponents):
            return mine[0], mine[1]
    return None


def _kitty_without(hand: Sequence[Card], keep: Sequence[Card], size: int) -> list[Card]:
    return [c for c in hand if c not in keep][:size]


@functools.cache
def _classic_seed() -> int:
    """Nobody declares: Alice (seat 1) deals, buries and leads a throw that fails."""
    def fits(seed: int) -> bool:
        game = Game(ruleset("classic"), _match_seed(seed))
        for _ in _rounds(game):
            pass
        game.apply(EndDeal())
        phase = game.phase
        hand = phase.hands[0]
        throw = _side_throw(hand, phase.hands[1] + phase.hands[3],
                            lambda c: not phase.ctx.is_trump(c))
        if phase.taker != 0 or throw is None:
            return False
        game.apply(Bury(0, tuple(_kitty_without(hand, throw, phase.kitty_size))))
        events = game.apply(Play(0, throw))
        return any(e.kind == "throw_failed" for e in events)
    return _first_seed("a throw bound to fail", fits)


def _swappable(card: Card, trump: Suit, level: Rank) -> bool:
    """A trump-suit card a changzhu declarer may take from the kitty."""
    permanent = ruleset("changzhu").permanent_trumps
    return card.suit is trump and card.rank not in permanent and card.rank != level


def _plain_side(card: Card, trump: Suit, level: Rank) -> bool:
    permanent = ruleset("changzhu").permanent_trumps
    return card.suit not in (None, trump) and card.rank not in permanent and \
        card.rank != level


def _swap_for(alice: Sequence[Card], carol: Sequence[Card], trump: Suit, level: Rank
              ) -> tuple[Card, Card] | None:
    """A card Carol may bury that Alice, declarer in ``trump``, may swap for one of her
    own side cards of its rank: (Carol's card, Alice's card)."""
    for card in carol:
        if _swappable(card, trump, level):
            mine = [c for c in alice if c.rank == card.rank and _plain_side(c, trump, level)]
            if mine:
                return card, mine[0]
    return None


def _swap_bury(carol: Sequence[Card], card: Card, trump: Suit, level: Rank) -> list[Card]:
    """``card`` and three side cards: the only trump of the kitty is the one to swap."""
    return [card] + [c for c in carol if _plain_side(c, trump, level)][:3]


@functools.cache
def _swap_seed() -> int:
    """Alice can declare early; whatever suit she declares in, Carol can bury a trump
    that Alice may swap."""
    rules = ruleset("changzhu")

    def fits(seed: int) -> bool:
        game = Game(rules, _match_seed(seed))
        first = None
        for n in _rounds(game):
            if first is None and legal_declarations(game, 0):
                first = n
        if first is None or first > LATEST_ROUND:
            return False
        declarations = legal_declarations(game, 0)
        level = game.phase.level
        hands = game.phase.hands
        for decl in declarations:
            trump = next(c.suit for c in decl if c.suit is not None)
            carol = hands[2] + game.phase.kitty
            swap = _swap_for(hands[0], carol, trump, level)
            if swap is None:
                return False
        trial = Game(rules, _match_seed(seed))  # and the engine takes it, for the first
        for _ in _rounds(trial):
            pass
        decl = declarations[0]
        trump = next(c.suit for c in decl if c.suit is not None)
        trial.apply(Declare(0, decl))
        trial.apply(EndDeal())
        carol = trial.phase.hands[2]
        swap = _swap_for(hands[0], carol, trump, level)
        assert swap is not None
        trial.apply(Bury(2, tuple(_swap_bury(carol, swap[0], trump, level))))
        trial.apply(SwapKitty(0, (swap[1],), (swap[0],)))
        return True
    return _first_seed("a swap whatever Alice declares", fits)


def _plain(options: Sequence[Sequence[Card]]) -> list[Sequence[Card]]:
    return [d for d in options if len(d) == 3]  # a joker and a pair


def _sticks(options: Sequence[Sequence[Card]]) -> list[Sequence[Card]]:
    return [d for d in options if len(d) == 5]  # a joker and a tractor (粘)


def _payback(hand: Sequence[Card], stick: Sequence[Card], taken: Sequence[Card]
             ) -> list[Card]:
    """What Alice gives back after sticking over ``taken``: its joker (a permanent
    trump) and the first two other cards of her hand outside her own declaration."""
    free = list(hand)
    for card in stick:
        free.remove(card)
    joker = next(c for c in taken if c.suit is None)
    free.remove(joker)
    return [joker, *free[:2]]


@functools.cache
def _return_seed() -> tuple[int, int]:
    """Another seat can declare plainly early, and Alice (seat 1) can stick over it soon
    after: (the bot seed, that seat)."""
    rules = ruleset("changzhu")
    for victim in (1, 3, 2):
        def fits(seed: int, victim: int = victim) -> bool:
            game = Game(rules, _match_seed(seed))
            declared = None
            for n in _rounds(game):
                if declared is None:
                    plain = _plain(legal_declarations(game, victim))
                    if plain:
                        if n > LATEST_ROUND - 4:
                            return False
                        declared = plain[0]
                        game.apply(Declare(victim, tuple(declared)))
                else:
                    sticks = _sticks(legal_declarations(game, 0))
                    if sticks:  # (and the engine takes the stick and the payback)
                        game.apply(Declare(0, tuple(sticks[0])))
                        hand = game.phase.hands[0]
                        game.apply(ReturnCards(0, tuple(_payback(hand, sticks[0], declared))))
                        return n <= LATEST_ROUND
            return False
        try:
            return _first_seed("a plain declaration and Alice's stick", fits), victim
        except AssertionError:
            continue
    raise AssertionError("no seed deals a stick by Alice")


# -- acting through the fake Discord ----------------------------------------------------------

async def _seat_four(world: Any, preset: str, locale: str) -> list[Any]:
    """Alice opens a table, Bob, Carol and Dave join (seats 2 to 4), Alice starts."""
    fake = world.fake
    users = [fake.add_user(name, locale=locale) for name in NAMES]
    ix = await fake.slash(users[0], world.channel, "shengji", "create", preset=preset)
    await answered(ix)
    for user in users[1:]:
        joined = await fake.slash(user, world.channel, "shengji", "join")
        await answered(joined)
    start = await fake.slash(users[0], world.channel, "shengji", "start")
    await answered(start)
    assert start.message.content == say(locale, "started"), start.message.content
    return users


async def _panel(world: Any, user: Any) -> Any:
    ix = await world.fake.slash(user, world.channel, "shengji", "hand")
    await answered(ix)
    assert ix.message.ephemeral
    return ix


def _labels(text: str) -> list[str]:
    """The hand as numbered on the panel ("1:♠A"), its second line."""
    return re.findall(r"\d+:\S+", text.split("\n")[1])


def _cards(labels: Sequence[str]) -> list[Card]:
    return [parse_cards(label.split(":", 1)[1])[0] for label in labels]


def _labels_of(labels: Sequence[str], cards: Sequence[Card]) -> list[str]:
    """Labels of ``labels`` showing ``cards``, one for each (identical cards: any copy)."""
    left = list(labels)
    out = []
    for card in cards:
        label = next(label for label in left if _cards([label])[0] == card)
        left.remove(label)
        out.append(label)
    return out


async def _until_picking(world: Any, user: Any, kind: str, timeout: float = 90) -> Any:
    """The user's panel, once it offers the picker for ``kind``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ix = await _panel(world, user)
        if pick_kind(ix.message) == kind:
            return ix
        await asyncio.sleep(0.2)
    raise AssertionError(f"no {kind} picker: {world.fake.describe_recent()}")


async def _groups(world: Any, user: Any, panel: Any) -> dict[str, list[str]]:
    """The picker's groups (suits, trumps, the kitty's trumps) and their cards' labels,
    shown one after the other with the suit menu."""
    out: dict[str, list[str]] = {}
    options = component(world.fake.message(panel.message.id), "sj:pk:g:")["options"]
    for option in options:
        message = await show_group(world, user, panel.message.id, option["value"])
        label = re.sub(r" \(\d+/\d+\)$", "", option["label"])
        out[label] = [o["label"] for o in component(message, "sj:pk:c:")["options"]]
    return out


def _position(label: str) -> int:
    """Where a card is in the picker's pool: hand cards by number, then the kitty's."""
    return int(label.split(":")[0]) if ":" in label else 10**6


async def _confirm(world: Any, user: Any, panel: Any, kind: str, locale: str,
                   picked: Sequence[str]) -> dict[str, Any]:
    """Press the picker's confirm button, once the panel shows what was picked; the
    action the bot stored for it."""
    message = world.fake.message(panel.message.id)
    line = say(locale, "picked_line", count=len(picked),
               cards=" ".join(sorted(picked, key=_position)))
    assert line in message.content, message.content
    confirm = component(message, f"sj:pk:ok:{kind}:")
    assert confirm["label"] == say(locale, f"btn_pick_{kind}")
    assert not confirm.get("disabled")
    click = await world.fake.click(user, message, confirm["custom_id"])
    await answered(click)
    kind_stored = {"bury": "Bury", "swap": "SwapKitty", "return": "ReturnCards",
                   "play": "Play"}[kind]
    await wait_until(lambda: bool(_stored(world, kind_stored) or click.followups), timeout=30)
    assert not click.followups, click.followups[0].content  # (a refusal, privately)
    (action,) = _stored(world, kind_stored)
    return action


def _stored(world: Any, kind: str) -> list[dict[str, Any]]:
    """The actions of type ``kind`` the bot stored, in order."""
    with closing(sqlite3.connect(f"file:{world.db}?mode=ro", uri=True)) as db:
        rows = db.execute("SELECT action FROM actions ORDER BY match_id, seq").fetchall()
    return [a for a in (json.loads(r[0]) for r in rows) if a.get("type") == kind]


def _same(stored: str, cards: Sequence[Card]) -> bool:
    return Counter(parse_cards(stored)) == Counter(cards)


async def _table_says(world: Any, line: str) -> None:
    def said() -> bool:
        return any(line in (m.content or "") for m in world.fake.messages(world.channel))
    try:
        await wait_until(said, timeout=30)
    except TimeoutError:
        raise AssertionError(f"{line!r} not in {table_message(world).content!r}") from None


# -- the tests ---------------------------------------------------------------------------------

@pytest.mark.parametrize("locale", LOCALES)
async def test_the_kitty_is_buried_and_a_throw_led_with_the_picker(
        tmp_path: Path, locale: str) -> None:
    async with running_bot(tmp_path, {"SHENGJI_SEED": str(_classic_seed())}) as world:
        fake = world.fake
        alice, bob, _carol, dave = await _seat_four(world, "classic", locale)
        # nobody declares: Alice, seat 1, deals and buries 8 of her 33 cards
        panel = await _until_picking(world, alice, "bury")
        assert say(locale, "hint_bury", count=8) in panel.message.content
        assert say(locale, "hint_pick") in panel.message.content
        assert say(locale, "picked_none") in panel.message.content
        labels = _labels(panel.message.content)
        hand = _cards(labels)
        assert len(hand) == 33
        groups = await _groups(world, alice, panel)
        sides = {c for label, members in groups.items() if label in {s.symbol for s in Suit}
                 for c in _cards(members)}
        opponents = [c for user in (bob, dave)
                     for c in _cards(_labels((await _panel(world, user)).message.content))]
        throw = _side_throw(_cards(labels), opponents, lambda c: c in sides)
        assert throw is not None, labels
        buried = _labels_of(labels, _kitty_without(hand, throw, 8))
        await pick(world, alice, panel.message.id, buried)
        # the picked cards stand raised on her hand's picture, as its alt text says
        alt = fake.message(panel.message.id).attachments[0].description or ""
        marked = re.search(re.escape(say(locale, "picture_selected")) + r": ([^.]*)\.", alt)
        assert marked, alt
        assert sorted(marked.group(1).split(", ")) == \
            sorted(label.replace(":", " ") for label in buried)
        stored = await _confirm(world, alice, panel, "bury", locale, buried)
        assert stored["seat"] == 0 and _same(stored["cards"], _cards(buried))

        # her turn to lead: the throw is not among the ranked plays, the picker makes it
        panel = await _until_picking(world, alice, "play")
        labels = _labels(panel.message.content)
        assert Counter(_cards(labels)) == Counter(hand) - Counter(_cards(buried))
        ranked = component(fake.message(panel.message.id), "sj:pick:play:")["options"]
        assert all(Counter(parse_cards(o["value"])) != Counter(throw) for o in ranked)
        wanted = _labels_of(labels, throw)
        await pick(world, alice, panel.message.id, wanted)
        stored = await _confirm(world, alice, panel, "play", locale, wanted)
        assert stored["seat"] == 0 and _same(stored["cards"], throw)
        # the throw fails (an opponent holds a higher card): its lowest card is played
        await _table_says(world, say(locale, "ev_throw_failed", name="1. Alice",
                                     cards=cards_text(parse_cards(stored["cards"])),
                                     forced=cards_text(throw[:1])))
        after = await _panel(world, alice)
        assert Counter(_cards(_labels(after.message.content))) == \
            Counter(_cards(labels)) - Counter(throw[:1])
    fake.assert_clean()


Options = Callable[[list[Sequence[Card]]], list[Sequence[Card]]]


async def _declare(world: Any, user: Any, locale: str, wanted: Options,
                   timeout: float = 60) -> list[Card]:
    """Once ``user`` is offered a declaration that ``wanted`` keeps, make the first one
    (from the command's autocomplete, the user's own choices now); its cards."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        choices = await world.fake.autocomplete(user, world.channel, "shengji", "declare",
                                                focused="cards", value="")
        kept = wanted([parse_cards(c["value"]) for c in choices])
        if kept:
            cards = list(kept[0])
            ix = await world.fake.slash(user, world.channel, "shengji", "declare",
                                        cards=" ".join(str(c) for c in cards))
            await answered(ix)
            assert say(locale, "done") in ix.message.content, ix.message.content
            return cards
        await asyncio.sleep(0.05)
    raise AssertionError(f"{user.name} was offered no such declaration")


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_changzhu_declarer_swaps_with_the_kitty_using_the_picker(
        tmp_path: Path, locale: str) -> None:
    env = {**DEALING, "SHENGJI_SEED": str(_swap_seed())}
    async with running_bot(tmp_path, env) as world:
        fake = world.fake
        alice, _bob, carol, _dave = await _seat_four(world, "changzhu", locale)
        declared = await _declare(world, alice, locale, lambda options: options)
        trump = next(c.suit for c in declared if c.suit is not None)
        level = Game(ruleset("changzhu"), 0).phase.level  # (the first hand's: A)
        # Alice's declaration stands: her partner Carol takes the kitty and buries with
        # the picker, a trump-suit card among them that Alice holds the rank of
        panel = await _until_picking(world, carol, "bury")
        carol_labels = _labels(panel.message.content)
        alice_labels = _labels((await _panel(world, alice)).message.content)
        swap = _swap_for(_cards(alice_labels), _cards(carol_labels), trump, level)
        assert swap is not None, (declared, carol_labels, alice_labels)
        kitty = _swap_bury(_cards(carol_labels), swap[0], trump, level)
        buried = _labels_of(carol_labels, kitty)
        await pick(world, carol, panel.message.id, buried)
        stored = await _confirm(world, carol, panel, "bury", locale, buried)
        assert stored["seat"] == 2 and _same(stored["cards"], kitty)

        # Alice is offered the kitty's trump; she gives her side card of its rank for it
        panel = await _until_picking(world, alice, "swap")
        assert say(locale, "hint_swap") in panel.message.content
        assert component(fake.message(panel.message.id), "sj:noswap:")["label"] == \
            say(locale, "btn_no_swap")
        hand = _cards(_labels(panel.message.content))
        groups = await _groups(world, alice, panel)
        assert groups[say(locale, "group_trump_kitty")] == [swap[0].pretty]
        wanted = [*_labels_of(_labels(panel.message.content), [swap[1]]), swap[0].pretty]
        await pick(world, alice, panel.message.id, wanted)
        stored = await _confirm(world, alice, panel, "swap", locale, wanted)
        assert stored["seat"] == 0
        assert _same(stored["give"], [swap[1]]) and _same(stored["take"], [swap[0]])
        await _table_says(world, say(locale, "ev_swapped", count=1, name="1. Alice"))
        # the hand has the kitty's card instead of hers, and she leads the first trick
        after = await _until_picking(world, alice, "play")
        assert Counter(_cards(_labels(after.message.content))) == \
            Counter(hand) - Counter([swap[1]]) + Counter([swap[0]])
    fake.assert_clean()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_stick_is_paid_back_with_the_picker(tmp_path: Path, locale: str) -> None:
    seed, victim = _return_seed()
    async with running_bot(tmp_path, {**DEALING, "SHENGJI_SEED": str(seed)}) as world:
        fake = world.fake
        users = await _seat_four(world, "changzhu", locale)
        alice = users[0]
        plain = await _declare(world, users[victim], locale, _plain)
        stick = await _declare(world, alice, locale, _sticks)
        # Alice took the plain declaration's 3 cards; the deal waits for 3 of hers back
        panel = await _until_picking(world, alice, "return")
        assert say(locale, "hint_return", count=3) in panel.message.content
        labels = _labels(panel.message.content)
        hand = _cards(labels)
        assert not Counter(plain) - Counter(hand), (plain, labels)  # (she holds them now)
        # give back the joker she took and two cards from outside her own declaration
        given = _labels_of(labels, _payback(hand, stick, plain))
        await pick(world, alice, panel.message.id, given)
        stored = await _confirm(world, alice, panel, "return", locale, given)
        assert stored["seat"] == 0 and _same(stored["cards"], _cards(given))
        await _table_says(world, say(locale, "ev_returned", count=3, name="1. Alice",
                                     victim=f"{victim + 1}. {NAMES[victim]}"))
        # the deal goes on; Alice's panel no longer asks for cards back
        after = await _panel(world, alice)
        assert pick_kind(after.message) != "return"
        assert say(locale, "hint_return", count=3) not in after.message.content
    fake.assert_clean()
