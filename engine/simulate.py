"""Random legal play of whole hands: for property tests, benchmarks and seat-filling.

Every choice comes from the legal-action functions, so a hand played here exercises the
full validation of ``Game.apply``.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import filterfalse

from engine.actions import (
    Action,
    AnswerTransfer,
    Bid,
    Bury,
    CallFriends,
    Deal,
    Declare,
    EndDeal,
    NameTrump,
    NextHand,
    PassBid,
    Play,
    ReturnCards,
    SwapKitty,
    Transfer,
)
from engine.cards import ALL_CARDS, Card
from engine.game import (
    Bidding,
    Burying,
    CallingFriends,
    Dealing,
    Game,
    HandOver,
    MatchOver,
    NamingTrump,
    Playing,
    Swapping,
    Transferring,
    penalty_targets,
)
from engine.legal import legal_declarations, legal_plays
from engine.values import build


def random_action(game: Game, rng: random.Random, *, declare_chance: float = 0.15
                  ) -> Action | None:
    """A random legal action for whoever must act now (None when the match is over)."""
    phase = game.state.phase  # (not the ``phase`` property: these run on every action)
    if isinstance(phase, Playing):
        # (``build``: ``Play(seat, cards)`` without a frozen constructor's setattr a field)
        return build(Play, {"seat": phase.turn, "cards": random_play(game, phase.turn, rng)})
    if isinstance(phase, Dealing):
        if phase.pending_return is not None:
            sticker, _, count = phase.pending_return
            return ReturnCards(sticker, random_return(game, sticker, count, rng))
        players = game.state.rules.players  # (not ``game.players``: two properties)
        if rng.random() < declare_chance:
            seat = rng.randrange(players)
            options = legal_declarations(game, seat)
            if options:
                return Declare(seat, rng.choice(options))
        if phase.stock:
            return _deal_of(min(players, len(phase.stock)))
        return EndDeal()
    if isinstance(phase, Burying):
        hand = list(phase.hands[phase.taker])
        rng.shuffle(hand)
        return Bury(phase.taker, tuple(hand[: phase.kitty_size]))
    if isinstance(phase, Swapping):
        assert phase.declarer is not None  # only a declarer is offered the swap
        return SwapKitty(phase.declarer)
    if isinstance(phase, Bidding):
        low = phase.standing[1] if phase.standing else game.rules.max_bid + 5
        if low > 5 and rng.random() < 0.5:
            return Bid(phase.turn, rng.randrange(max(5, low - 40), low, 5))
        return PassBid(phase.turn)
    if isinstance(phase, NamingTrump):
        return NameTrump(phase.dealer, rng.choice(["S", "H", "D", "C", "none"]))
    if isinstance(phase, CallingFriends):
        cards = tuple(rng.sample(ALL_CARDS, game.rules.friends))
        return CallFriends(phase.dealer, cards,
                           tuple(rng.randint(1, game.rules.decks) for _ in cards))
    if isinstance(phase, Transferring):
        if phase.asked is not None:
            return AnswerTransfer(phase.asked, rng.random() < 0.5)
        seat = phase.offers[0][0]
        targets = [s for s in range(game.players) if s != seat]
        if phase.penalty_offers:  # a kitty penalty's excess: opponents above 2
            targets = penalty_targets(game.state)
        return Transfer(seat, rng.choice([None, *targets]))
    if isinstance(phase, HandOver):
        return NextHand()
    assert isinstance(phase, MatchOver)
    return None


@cache
def _deal_of(count: int) -> Deal:
    """``Deal(count)``, made once (a frozen dataclass's constructor, on every deal step)."""
    return Deal(count)


def random_play(game: Game, seat: int, rng: random.Random) -> tuple[Card, ...]:
    """A uniformly random legal play, without enumerating where the choice is free."""
    phase = game.state.phase
    assert isinstance(phase, Playing)
    led = _free_follow(phase, seat)
    if led is None:
        return rng.choice(legal_plays(game, seat))
    lead = phase.trick.lead
    assert lead is not None
    if len(led) > lead.size:  # a single led: any card of its suit
        return (rng.choice(led),)
    if len(led) == lead.size:  # (``rng.sample(others, 0)`` would draw nothing)
        return tuple(led)
    # every led card goes; the rest is free
    others = list(filterfalse(phase.ctx.suit_cards[lead.suit].__contains__, phase.hands[seat]))
    return (*led, *rng.sample(others, lead.size - len(led)))


def lists_legal_plays(phase: Playing, seat: int) -> bool:
    """Does ``random_play`` list the seat's legal plays here (to draw one)? On every lead,
    and on a lead of more than one card where the seat holds more of its suit than led.
    (``bench/engine.py`` makes the same listings again, to count what they cost.)"""
    return _free_follow(phase, seat) is None


def _free_follow(phase: Playing, seat: int) -> list[Card] | None:
    """The seat's cards of the led suit where its follow is drawn without a listing (a
    single led, or no more of the suit than led); None where ``random_play`` lists."""
    lead = phase.trick.lead
    if lead is None:
        return None
    led = list(filter(phase.ctx.suit_cards[lead.suit].__contains__, phase.hands[seat]))
    return led if lead.size == 1 or len(led) <= lead.size else None


def random_return(game: Game, sticker: int, count: int, rng: random.Random) -> tuple[Card, ...]:
    phase = game.phase
    assert isinstance(phase, Dealing) and phase.standing is not None
    free = list(phase.hands[sticker])
    for card in phase.standing.cards:
        free.remove(card)
    permanent = set(game.rules.permanent_trumps)
    trumps = [c for c in free if c.is_joker or c.rank in permanent]
    first = rng.choice(trumps)
    free.remove(first)
    rng.shuffle(free)
    return (first, *free[: count - 1])


def play_random_hand(game: Game, rng: random.Random, **kwargs: float) -> list[Action]:
    """Play the current hand to its end (scored); returns the actions taken."""
    taken = []
    while not isinstance(game.state.phase, (HandOver, MatchOver)):
        action = random_action(game, rng, **kwargs)
        assert action is not None
        game.apply(action)
        taken.append(action)
    return taken

