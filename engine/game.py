"""One state machine for a whole match (RULES.md §1 "Phases of a hand").

deal (declarations during it) → kitty (bury; changzhu: the declarer's swap, then the
reveal) → play (tricks) → scoring → next hand. Each phase is its own type.

The match is a value: :class:`MatchState` (rules, seed, levels, dealer, hand number and
the current phase) and every phase are frozen, with tuples for hands, stock, kitty and
tricks. ``apply(state, action)`` dispatches (phase, action) in one place and returns a
:class:`Step`: the next state and the events. A refused action raises ``EngineError``,
and since nothing is ever mutated, the state it was given is untouched by construction.
:class:`Game` holds the current state and the action log for callers that keep a table.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import cache, lru_cache
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Any, ClassVar, Literal, NamedTuple

from engine.actions import (
    Action,
    AnswerTransfer,
    Bid,
    Bury,
    CallFriends,
    Deal,
    Declare,
    EndDeal,
    Event,
    NameTrump,
    NextHand,
    PassBid,
    Play,
    ReturnCards,
    SwapKitty,
    Transfer,
    event,
)
from engine.bidding import Declaration, check_override, parse_declaration, trump_of_card
from engine.cards import ALL_CARDS, Card, Rank, Suit, deck, format_cards
from engine.errors import EngineError
from engine.order import TRUMP, Colour, SuitSystem, TrumpContext, TrumpSuit, trump_context
from engine.patterns import ChangzhuPlay
from engine.plays import ClassicPlay, Lead, PlayRules
from engine.referee import attackers_gain, failed_throw, kitty_ruling, trick_winner
from engine.rules import DeclarationStyle, KittyTaker, NoBid, PlayStyle, Ruleset
from engine.scoring import (
    ATTACKERS,
    DEFENDERS,
    Climb,
    HandResult,
    LevelChange,
    Note,
    Row,
    climb,
    find_friends_steps,
    jack_penalty,
    level_table,
    lower,
    three_bid_steps,
)
from engine.shapes import decompose
from engine.teams import Formation, FriendCall, Seating, Sides, reveal
from engine.values import build, evolve

Cards = tuple[Card, ...]
Hands = tuple[Cards, ...]  # by seat


# -- phases -------------------------------------------------------------------------

@dataclass(frozen=True)
class Dealing:
    level: Rank
    dealer: int | None  # None in the first hand: the declarations decide
    hands: Hands
    stock: Cards  # cards still to deal, in order
    kitty: Cards
    next_seat: int
    standing: Declaration | None
    declarations: tuple[Declaration, ...]
    pending_return: tuple[int, int, int] | None  # (sticker, victim, cards owed)
    may_declare: frozenset[int] | None = None  # find-friends: the last hand's winners
    fallback_dealer: int = 0  # who deals when ``dealer`` is None and nobody declares

    name: ClassVar[str] = "deal"


@dataclass(frozen=True)  # (no slots: ``_bid`` builds the next one by ``build``)
class Bidding:
    """three-bid: the cards are dealt; players bid the threshold in turn (RULES §6)."""

    hands: Hands
    kitty: Cards
    turn: int
    standing: tuple[int, int] | None  # (seat, points) of the lowest bid so far
    passed: frozenset[int]
    bids: tuple[tuple[int, int | None], ...]  # (seat, points or None for a pass), in order

    name: ClassVar[str] = "bid"

    def bids_allowed(self, max_bid: int) -> tuple[int, ...]:
        """The bids the player to bid may make now, the highest (least brave) first:
        multiples of 5 from 5 up to ``max_bid``, below the standing bid (``_bid``'s rule)."""
        top = max_bid if self.standing is None else min(max_bid, self.standing[1] - 5)
        return tuple(range(top - top % 5, 4, -5))


@dataclass(frozen=True)
class AfterDeal:
    """What every phase after the deal knows: the hand's level, dealer, trump and roles."""

    level: Rank
    dealer: int
    hands: Hands
    ctx: TrumpContext
    declarer: int | None
    taker: int  # who took (and buried) the kitty


@dataclass(frozen=True)
class Burying(AfterDeal):
    kitty_size: int
    declaration: Declaration | None = None  # the standing one (its shown cards are public)
    bid: int | None = None  # three-bid: the winning bid (the attackers' threshold)

    name: ClassVar[str] = "bury"


@dataclass(frozen=True)
class CallingFriends(AfterDeal):
    """find-friends: the dealer has buried and names the called cards (RULES §5)."""

    kitty: Cards
    declaration: Declaration | None = None

    name: ClassVar[str] = "call"


@dataclass(frozen=True)
class NamingTrump(AfterDeal):
    """three-bid: the dealer has buried and names the trump suit or no trump (RULES §6).
    ``ctx`` is the no-trump order at the dealer's level until then (known to nobody)."""

    kitty: Cards
    bid: int

    name: ClassVar[str] = "name_trump"


@dataclass(frozen=True)
class Swapping(AfterDeal):
    """changzhu: the declarer may swap same-rank cards into the buried kitty."""

    kitty: Cards
    declaration: Declaration | None = None

    name: ClassVar[str] = "swap"


@dataclass(frozen=True)
class Trick:
    leader: int
    plays: tuple[tuple[int, Cards], ...] = ()
    lead: Lead | None = None


_NONE_PLAYED = (0,) * len(ALL_CARDS)


@dataclass(frozen=True)
class Playing(AfterDeal):
    kitty: Cards
    trick: Trick
    turn: int
    attacker_points: int
    tricks: tuple[tuple[Trick, int, int], ...]  # (trick, winner, points)
    declaration: Declaration | None
    sides: Sides  # the defenders as everyone knows them (friends join when found)
    calls: tuple[FriendCall, ...]  # find-friends: the called cards
    bid: int | None  # three-bid: the attackers' threshold
    # derived from ``tricks``: the cards played in them, counted by card index (kept per
    # trick so that what a seat has seen is never recounted on a listing)
    played: tuple[int, ...] = field(default=_NONE_PLAYED, compare=False, repr=False)
    # find-friends, while a friend may be found: each failed throw's (seat, penalty), so
    # that a friend found later had theirs credited by the final sides, as their points
    penalties: tuple[tuple[int, int], ...] = ()

    name: ClassVar[str] = "play"


@dataclass(frozen=True, slots=True)
class HandOver:
    result: HandResult
    hands_kitty: Cards
    ctx: TrumpContext

    name: ClassVar[str] = "hand_over"


@dataclass(frozen=True, slots=True)
class Transferring:
    """find-friends, after a hand: each player whom a must-play rank stopped says where
    the levels go (``level_transfer``), in turn (``offers``: (seat, levels), the first
    one's turn); first, the first ``penalty_offers`` offers are a kitty penalty's levels the
    defenders could not lose, which their seat names opponents to take (RULES §5): the
    dealer those of ``jack_kitty_penalty``, each friend its own of ``ace_kitty_penalty``."""

    result: HandResult
    hands_kitty: Cards
    ctx: TrumpContext
    offers: tuple[tuple[int, int], ...]
    asked: int | None = None  # the teammate offered the first offer's levels, to answer
    penalty_offers: int = 0
    # the J penalty's: this seat won the kitty, is not named, and takes only what no other
    # opponent can; None for the A penalty's, where any opponent is named
    kitty_winner: int | None = None

    @property
    def penalty(self) -> str | None:
        """The kitty penalty whose levels offers[0] places: "jack", "ace" or None."""
        if not self.penalty_offers:
            return None
        return "jack" if self.kitty_winner is not None else "ace"

    name: ClassVar[str] = "transfer"


@dataclass(frozen=True, slots=True)
class MatchOver:
    result: HandResult
    winner_team: int  # the winning team, or with levels by player the winning seat
    ctx: TrumpContext

    name: ClassVar[str] = "match_over"


Phase = (Dealing | Bidding | Burying | CallingFriends | NamingTrump | Swapping | Playing
         | HandOver | Transferring | MatchOver)


def play_rules_for(rules: Ruleset) -> PlayRules:
    return ChangzhuPlay(rules) if rules.play is PlayStyle.CHANGZHU else ClassicPlay(rules)


# -- the match as a value ------------------------------------------------------------

@dataclass(frozen=True)
class MatchState:
    """Everything a match is between two actions. ``levels`` are by level holder (a team,
    or a player where levels are individual: ``Seating.holder``); ``dealer`` is None
    until the first hand's declarations decide it."""

    rules: Ruleset
    seed: int
    levels: tuple[Rank, ...]
    dealer: int | None
    hand_number: int
    phase: Phase
    # derived from ``rules`` (kept to avoid rebuilding it on every action)
    play_rules: PlayRules = field(compare=False, repr=False)

    @classmethod
    def start(cls, rules: Ruleset, seed: int, *, levels: Sequence[Rank] | None = None,
              dealer: int | None = None) -> MatchState:
        """A new match at its first deal. ``dealer``: who deals the first hand (None: the
        first declaration decides)."""
        first = rules.level_ranks[0]
        holders = rules.seating.level_holders
        by_holder = tuple(levels) if levels else (first,) * holders
        if len(by_holder) != holders:
            raise EngineError("bad_levels", count=holders)
        return cls(rules, seed, by_holder, dealer, 0,
                   _new_deal(rules, seed, 0, by_holder, dealer), play_rules_for(rules))

    # -- questions about the state ------------------------------------------------------

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def seating(self) -> Seating:
        return self.rules.seating

    def level_of(self, seat: int) -> Rank:
        """``seat``'s level (its team's, or its own where levels are individual)."""
        return self.levels[self.seating.holder(seat)]

    def sides(self) -> Sides | None:
        """This hand's defenders as everyone knows them (None before the dealer is known)."""
        phase = self.phase
        if isinstance(phase, Playing):
            return phase.sides
        if isinstance(phase, (HandOver, Transferring, MatchOver)):
            defenders = frozenset(phase.result.defenders)
            return Sides(self.players, phase.result.dealer, defenders, True)
        dealer = getattr(phase, "dealer", None)
        return None if dealer is None else self.seating.sides(dealer)

    def declaring_level(self, seat: int) -> Rank:
        """The rank ``seat`` declares with: the hand's, or its own with levels by player."""
        phase = self.phase
        if self.seating.individual_levels or not isinstance(phase, Dealing):
            return self.level_of(seat)
        return phase.level

    @property
    def trump_hidden_during_deal(self) -> bool:
        return self.rules.hidden_bid or self.rules.declaration is DeclarationStyle.JOKER_AND_PAIR

    def trump_known_by(self) -> list[int]:
        """The seats that may know the trump suit now."""
        everyone = list(range(self.players))
        phase = self.phase
        if isinstance(phase, (Bidding, NamingTrump)) or (
                isinstance(phase, Burying) and phase.bid is not None):
            return []  # three-bid: the dealer names the trump after burying
        if isinstance(phase, Dealing):
            if phase.standing is None:
                return []
            return [phase.standing.seat] if self.trump_hidden_during_deal else everyone
        if isinstance(phase, (Burying, Swapping)) and phase.declarer is not None and \
                self.rules.declaration is DeclarationStyle.JOKER_AND_PAIR:
            return [phase.declarer]
        return everyone

    def declaring_refusal(self, seat: int) -> EngineError | None:
        """Why ``seat`` (a valid seat) may not declare now whatever its cards, or None."""
        phase = self.phase
        if not isinstance(phase, Dealing):
            return EngineError("wrong_phase", phase=phase.name, action="declare")
        if self.rules.declaration is DeclarationStyle.NONE:
            return EngineError("no_declarations")
        if phase.may_declare is not None and seat not in phase.may_declare:
            return EngineError("may_not_declare", seats=sorted(phase.may_declare))
        if phase.pending_return is not None:
            return EngineError("return_pending")
        return None

    def check_declaration(self, seat: int, cards: Sequence[Card]) -> Declaration:
        """The declaration ``seat`` would make with ``cards``, or the reason it may not."""
        phase = self.phase
        if isinstance(phase, Dealing):
            seat = _seat(self, seat)  # (a bad seat is told before the rest)
        refusal = self.declaring_refusal(seat)
        if refusal is not None:
            raise refusal
        assert isinstance(phase, Dealing)
        remove_cards(phase.hands[seat], cards)
        return self.overriding_declaration(seat, cards, self.declaring_level(seat))

    def overriding_declaration(self, seat: int, cards: Sequence[Card], level: Rank
                               ) -> Declaration:
        """The declaration ``cards`` make for ``seat`` declaring at ``level``, or why it
        does not stand over the standing one (the seat's right to declare and its holding
        the cards are the caller's to know: ``check_declaration``)."""
        phase = self.phase
        assert isinstance(phase, Dealing)
        decl = parse_declaration(seat, cards, level, self.rules)
        check_override(decl, phase.standing, self.rules)
        return decl

    def context(self, level: Rank, trump: TrumpSuit | None) -> TrumpContext:
        """The card order of a hand at ``level`` with ``trump`` under these rules."""
        return _context(self.rules, level, trump)


class Step(NamedTuple):
    """What one accepted action did: the state after it and its events. (A pair, not a
    state: ``state, events = apply(state, action)``.)"""

    state: MatchState
    events: tuple[Event, ...]


# -- the one dispatch ---------------------------------------------------------------

def apply(state: MatchState, action: Action) -> Step:
    """Apply one action: the next state and its events, or ``EngineError`` (and ``state``,
    which nothing mutates, is still the state)."""
    phase = state.phase
    handler = _HANDLERS.get((type(phase), type(action)))
    if handler is None:
        raise EngineError("wrong_phase", phase=phase.name,
                          action=ACTION_CODES.get(type(action), "action"))
    return handler(state, phase, action)


def _step(state: MatchState, phase: Phase, events: list[Event]) -> Step:
    """The step to ``phase``, the rest of the match unchanged."""
    fields = state.__dict__.copy()
    fields["phase"] = phase
    # ``tuple.__new__`` is ``Step(...)`` without its Python-level ``__new__`` (half the cost)
    return _new_tuple(Step, (build(MatchState, fields), tuple(events)))


_new_tuple = tuple.__new__


# Events are immutable, and a hand has some 200 of these kinds: each is made once.
@cache
def _dealt(seat: int, card: Card) -> Event:
    return event("dealt", audience=seat, seat=seat, cards=(card,))


@cache
def _dealt_by_seat(players: int) -> tuple[tuple[Event, ...], ...]:
    """``_dealt(seat, card)`` by seat and card index: two subscripts a card dealt instead of
    a cached call (a deal step deals a card to every seat)."""
    return tuple(tuple(_dealt(seat, card) for card in ALL_CARDS) for seat in range(players))


@cache
def _deal_progress(left: int) -> Event:
    return event("deal_progress", left=left)


@cache
def _turn(seat: int) -> Event:
    return event("turn", seat=seat)


# A play and a trick's end, on every action of the play: made once per value, kept for
# the commonest (a single card's play, a trick's result) and dropped when many.
@lru_cache(maxsize=4096)
def _played(seat: int, cards: Cards) -> Event:
    return build(Event, {"kind": "played", "audience": None, "seat": seat, "cards": cards,
                         "data": ()})  # (``event``'s, directly)


@lru_cache(maxsize=4096)
def _trick_won(seat: int, points: int, ruff: bool, attacker_points: int) -> Event:
    return event("trick_won", seat=seat, points=points, ruff=ruff,
                 attacker_points=attacker_points)


@cache
def _new_trick(leader: int) -> Trick:
    return build(Trick, {"leader": leader, "plays": (), "lead": None})


# -- deal -----------------------------------------------------------------------------

def shuffle(cards: list[Card], rng: random.Random) -> None:
    """``rng.shuffle(cards)``: the same permutation from the same draws, with the loop of
    ``random.shuffle`` and its ``_randbelow`` written out (a Python call a card fewer:
    some 40% of a deal's shuffle), each step's bounds read from a table."""
    getrandbits = rng.getrandbits
    for i, below, bits in _shuffle_steps(len(cards)):
        j = getrandbits(bits)
        while j >= below:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


@cache
def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """``shuffle``'s steps for ``size`` cards: the place filled, how many cards it is drawn
    from and the bits a draw takes (``below.bit_length()``: a method call a card)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


@cache
def _ordered_deck(decks: int) -> Cards:
    """``deck(decks)``, made once (a new deal copies it)."""
    return tuple(deck(decks))


def _new_deal(rules: Ruleset, seed: int, hand_number: int, levels: tuple[Rank, ...],
              dealer: int | None, *, may_declare: frozenset[int] | None = None,
              fallback: int = 0) -> Dealing:
    cards = list(_ordered_deck(rules.decks))
    shuffle(cards, random.Random(f"{seed}:{hand_number}"))
    kitty = tuple(cards[len(cards) - rules.kitty_size:])
    stock = tuple(cards[: len(cards) - rules.kitty_size])
    seating = rules.seating
    first = dealer if dealer is not None else fallback
    level = levels[seating.holder(first)]
    # (``build``: every field, without the constructor's setattr a field; three-bid
    # redeals about one hand in three)
    return build(Dealing, {"level": level, "dealer": dealer, "hands": ((),) * rules.players,
                           "stock": stock, "kitty": kitty, "next_seat": first,
                           "standing": None, "declarations": (), "pending_return": None,
                           "may_declare": may_declare, "fallback_dealer": fallback})


def _deal(state: MatchState, phase: Dealing, action: Deal) -> Step:
    if phase.pending_return is not None:
        raise EngineError("return_pending")
    stock = phase.stock
    if not stock:
        raise EngineError("deal_over")
    count = action.count
    if count < 1:
        raise EngineError("bad_action", action="deal")
    players = state.rules.players
    dealt_to = _dealt_by_seat(players)
    seat = phase.next_seat
    hands = list(phase.hands)
    events = []
    for card in stock[:count]:  # one card at a time, in seat order
        hands[seat] += (card,)
        events.append(dealt_to[seat][card.index])
        seat = (seat + 1) % players
    stock = stock[count:]
    events.append(_deal_progress(len(stock)))
    # (a copy and three stores: a third cheaper than ``{**phase.__dict__, ...}``)
    fields = phase.__dict__.copy()
    fields["hands"] = tuple(hands)
    fields["stock"] = stock
    fields["next_seat"] = seat
    return _step(state, build(Dealing, fields), events)


def _declare(state: MatchState, phase: Dealing, action: Declare) -> Step:
    decl = state.check_declaration(action.seat, action.cards)
    seat = decl.seat
    standing = phase.standing
    hands = phase.hands
    pending = phase.pending_return
    events = []
    if decl.is_stick and standing is not None and standing.seat != seat:
        victim = standing.seat
        taken = standing.cards
        hands = _with_hand(hands, victim, remove_cards(hands[victim], taken))
        hands = _with_hand(hands, seat, hands[seat] + taken)
        pending = (seat, victim, len(taken))
        events.append(event("stuck", seat=seat, victim=victim, count=len(taken)))
        events.append(event("cards_taken", audience=seat, seat=seat, cards=taken))
    hidden = state.trump_hidden_during_deal
    # ``cards``: what the table sees face up; ``cards_shown``: how many were declared
    shown, size, trump = decl.shown(hidden), len(decl.cards), _trump_text(decl.trump)
    if hidden:  # the suit is told to the declarer alone
        events.append(event("declared", seat=seat, cards=shown, declaration=decl.kind,
                            cards_shown=size))
        events.append(event("trump_told", audience=seat, seat=seat, trump=trump))
    else:
        events.append(event("declared", seat=seat, cards=shown, declaration=decl.kind,
                            cards_shown=size, trump=trump))
    return _step(state, replace(phase, hands=hands, standing=decl, pending_return=pending,
                                declarations=(*phase.declarations, decl)), events)


def _return(state: MatchState, phase: Dealing, action: ReturnCards) -> Step:
    if phase.pending_return is None:
        raise EngineError("no_return")
    sticker, victim, count = phase.pending_return
    if action.seat != sticker:
        raise EngineError("not_your_turn", turn=sticker, task="return")
    if len(action.cards) != count:
        raise EngineError("return_count", count=count)
    assert phase.standing is not None
    free = remove_cards(phase.hands[sticker], phase.standing.cards)
    remove_cards(free, action.cards, "outside_declaration")
    permanent = set(state.rules.permanent_trumps)
    if not any(c.is_joker or c.rank in permanent for c in action.cards):
        raise EngineError("return_permanent")
    hands = _with_hand(phase.hands, sticker, remove_cards(phase.hands[sticker], action.cards))
    hands = _with_hand(hands, victim, hands[victim] + tuple(action.cards))
    events = [event("returned", seat=sticker, victim=victim, count=count),
              event("cards_returned", audience=victim, seat=victim, cards=action.cards)]
    return _step(state, replace(phase, hands=hands, pending_return=None), events)


def _end_deal(state: MatchState, phase: Dealing, action: EndDeal) -> Step:
    if phase.stock:
        raise EngineError("deal_not_over", count=len(phase.stock))
    if phase.pending_return is not None:
        raise EngineError("return_pending")
    rules = state.rules
    if rules.teams is Formation.BID:
        return _start_bidding(state, phase)
    decl = phase.standing
    trump: TrumpSuit | None
    if decl is not None:
        trump = decl.trump
    elif rules.no_bid is NoBid.FLIP_KITTY and phase.kitty:
        last = phase.kitty[-1]
        trump = None if last.is_joker else trump_of_card(last, rules.suits)
    else:
        trump = None
    dealer = phase.dealer
    if dealer is None:
        dealer = decl.seat if decl is not None else phase.fallback_dealer
    declarer = decl.seat if decl is not None else None
    taker = dealer
    if rules.kitty_taker is KittyTaker.PARTNER_IF_DEALER_DECLARED and declarer == dealer:
        taker = state.seating.teammates(dealer)[0]
    level = state.level_of(dealer)
    ctx = _context(rules, level, trump)
    kitty = phase.kitty
    hands = _with_hand(phase.hands, taker, phase.hands[taker] + kitty)
    events = [event("deal_ended", dealer=dealer, taker=taker, declarer=declarer,
                    level=level.label)]
    secret = rules.declaration is DeclarationStyle.JOKER_AND_PAIR and decl is not None
    if not secret:
        events.append(event("trump", trump=_trump_text(trump), level=level.label))
    events.append(event("kitty_taken", audience=taker, seat=taker, cards=kitty))
    # (``build`` and ``evolve``: once a hand, where a 48-card hand feels it twice a card)
    burying = build(Burying, {"level": level, "dealer": dealer, "hands": hands, "ctx": ctx,
                              "declarer": declarer, "taker": taker, "kitty_size": len(kitty),
                              "declaration": decl, "bid": None})
    return Step(evolve(state, dealer=dealer, phase=burying), tuple(events))


def _context(rules: Ruleset, level: Rank, trump: TrumpSuit | None) -> TrumpContext:
    return trump_context(level, trump, frozenset(rules.permanent_trumps), rules.suits)


# -- kitty ----------------------------------------------------------------------------

def _bury(state: MatchState, phase: Burying, action: Bury) -> Step:
    taker = phase.taker
    if action.seat != taker:
        raise EngineError("not_your_turn", turn=taker, task="bury")
    if len(action.cards) != phase.kitty_size:
        raise EngineError("bury_count", count=phase.kitty_size)
    hands = _with_hand(phase.hands, taker, remove_cards(phase.hands[taker], action.cards))
    kitty = tuple(action.cards)
    events = [event("buried", seat=taker),
              event("kitty_buried", audience=taker, seat=taker, cards=kitty)]
    declarer = phase.declarer
    if phase.bid is not None:
        naming = NamingTrump(phase.level, phase.dealer, hands, phase.ctx, None, taker, kitty,
                             phase.bid)
        events.append(_turn(phase.dealer))
        return _step(state, naming, events)
    if state.rules.teams is Formation.CALLED:
        calling = CallingFriends(phase.level, phase.dealer, hands, phase.ctx, declarer, taker,
                                 kitty, phase.declaration)
        events.append(_turn(phase.dealer))
        return _step(state, calling, events)
    if state.rules.declaration is DeclarationStyle.JOKER_AND_PAIR and declarer is not None:
        swapping = Swapping(phase.level, phase.dealer, hands, phase.ctx, declarer, taker,
                            kitty, phase.declaration)
        events.append(event("swap_offered", audience=declarer, seat=declarer,
                            cards=takeable_from_kitty(state.rules, phase.ctx, kitty)))
        return _step(state, swapping, events)
    return _start_play(state, phase, hands, kitty, events)


def takeable_from_kitty(rules: Ruleset, ctx: TrumpContext, kitty: Sequence[Card]
                        ) -> tuple[Card, ...]:
    """The kitty's cards a changzhu declarer may swap in: trump-suit cards of a rank that
    is a side rank in the other suits (not a joker, a permanent trump or the level), for
    which the declarer gives a same-rank side card (RULES, changzhu: Kitty)."""
    return tuple(c for c in kitty if ctx.is_trump(c) and not c.is_joker
                 and c.rank not in rules.permanent_trumps and c.rank != ctx.level)


def _swap(state: MatchState, phase: Swapping, action: SwapKitty) -> Step:
    declarer = phase.declarer
    if action.seat != declarer:
        raise EngineError("not_your_turn", turn=declarer, task="swap")
    assert declarer is not None  # a swap is offered to the declarer only
    give, take = tuple(action.give), tuple(action.take)
    ctx = phase.ctx
    if sorted(c.rank for c in give) != sorted(c.rank for c in take):
        raise EngineError("swap_ranks")
    if any(ctx.is_trump(c) for c in give):
        raise EngineError("swap_give_trump")
    takeable = takeable_from_kitty(state.rules, ctx, take)
    if len(takeable) != len(take):
        raise EngineError("swap_take")
    hand = remove_cards(phase.hands[declarer], give)
    kitty = remove_cards(phase.kitty, take, "kitty")
    hands = _with_hand(phase.hands, declarer, hand + take)
    events = [event("swapped", seat=declarer, count=len(give))]
    return _start_play(state, phase, hands, kitty + give, events)


# -- find-friends: calling; three-bid: bidding and naming the trump --------------------

def _call_friends(state: MatchState, phase: CallingFriends, action: CallFriends) -> Step:
    dealer = phase.dealer
    if action.seat != dealer:
        raise EngineError("not_your_turn", turn=dealer, task="call")
    wanted = state.rules.friends
    if len(action.cards) != wanted or len(action.copies) != wanted:
        raise EngineError("call_count", count=wanted)
    decks = state.rules.decks
    calls: list[FriendCall] = []
    for card, copy in zip(action.cards, action.copies, strict=True):
        if not 1 <= copy <= decks:
            raise EngineError("call_copy", copies=decks)
        if any(c.card == card and c.copy == copy for c in calls):
            raise EngineError("call_twice")
        calls.append(FriendCall(card, copy))
    events = [event("friends_called", seat=dealer, cards=action.cards,
                    copies=tuple(action.copies))]
    return _start_play(state, phase, phase.hands, phase.kitty, events, calls=tuple(calls))


def _start_bidding(state: MatchState, phase: Dealing) -> Step:
    first = 0 if state.dealer is None else (state.dealer + 1) % state.players
    bidding = build(Bidding, {"hands": phase.hands, "kitty": phase.kitty, "turn": first,
                              "standing": None, "passed": frozenset(), "bids": ()})
    return _step(state, bidding, [event("bidding", seat=first, max_bid=state.rules.max_bid),
                                  _turn(first)])


def _bid(state: MatchState, phase: Bidding, action: Bid | PassBid) -> Step:
    seat = _seat(state, action.seat)
    if seat != phase.turn:
        raise EngineError("not_your_turn", turn=phase.turn, task="bid")
    standing, passed = phase.standing, phase.passed
    if isinstance(action, Bid):
        points, top = action.points, state.rules.max_bid
        if standing is not None and points >= standing[1]:
            raise EngineError("bid_too_high", standing=standing[1])
        if points % 5 or not 5 <= points <= top:
            raise EngineError("bad_bid", max_bid=top)
        standing = (seat, points)
        events = [event("bid", seat=seat, points=points)]
        bids = (*phase.bids, (seat, points))
    else:
        passed = passed | {seat}
        events = [event("bid_passed", seat=seat)]
        bids = (*phase.bids, (seat, None))
    players = state.players
    if len(passed) == players:  # everybody passed: the next player deals again (after
        # the first hand's dealing seat 0, RULES §1: seat 1)
        dealer = ((state.dealer or 0) + 1) % players
        number = state.hand_number + 1
        deal = _new_deal(state.rules, state.seed, number, state.levels, dealer)
        events.append(event("redeal", dealer=dealer, number=number))
        return Step(evolve(state, dealer=dealer, hand_number=number, phase=deal),
                    tuple(events))
    if standing is not None and len(passed) == players - 1:
        dealer, bid = standing
        level = state.level_of(dealer)
        ctx = _context(state.rules, level, None)
        hands = _with_hand(phase.hands, dealer, phase.hands[dealer] + phase.kitty)
        events += [event("bid_won", seat=dealer, points=bid),
                   event("deal_ended", dealer=dealer, taker=dealer, declarer=None,
                         level=level.label),
                   event("kitty_taken", audience=dealer, seat=dealer, cards=phase.kitty)]
        burying = Burying(level, dealer, hands, ctx, None, dealer, len(phase.kitty), None, bid)
        return Step(evolve(state, dealer=dealer, phase=burying), tuple(events))
    turn = next((seat + k) % players for k in range(1, players + 1)
                if (seat + k) % players not in passed)
    events.append(_turn(turn))
    return _step(state, build(Bidding, {"hands": phase.hands, "kitty": phase.kitty, "turn": turn,
                                        "standing": standing, "passed": passed, "bids": bids}),
                 events)


def _name_trump(state: MatchState, phase: NamingTrump, action: NameTrump) -> Step:
    if action.seat != phase.dealer:
        raise EngineError("not_your_turn", turn=phase.dealer, task="name_trump")
    trump = parse_trump(action.trump, state.rules.suits)
    ctx = _context(state.rules, phase.level, trump)
    events = [event("trump", trump=_trump_text(trump), level=phase.level.label)]
    return _start_play(state, phase, phase.hands, phase.kitty, events, ctx=ctx,
                       bid=phase.bid)


def parse_trump(text: str, suits: SuitSystem = SuitSystem.STANDARD) -> TrumpSuit | None:
    """A trump named in words: S H D C (red/black in red-black) or "none"."""
    word = text.strip().lower()
    if word in ("none", "no_trump", "no trump", "nt"):
        return None
    try:
        if suits is SuitSystem.RED_BLACK:
            return Colour(word)
        return Suit(word.upper())
    except ValueError:
        raise EngineError("bad_trump", text=text,
                          choices=tuple(c.value for c in Colour) if suits is SuitSystem.RED_BLACK
                          else tuple(s.value for s in Suit)) from None


def _start_play(state: MatchState, before: Burying | Swapping | CallingFriends | NamingTrump,
                hands: Hands, kitty: Cards, events: list[Event], *,
                ctx: TrumpContext | None = None, calls: tuple[FriendCall, ...] = (),
                bid: int | None = None) -> Step:
    dealer, declarer = before.dealer, before.declarer
    # (``build``: every field, without the constructor's setattr a field; once a deal)
    playing = build(Playing, {
        "level": before.level, "dealer": dealer, "hands": hands, "ctx": ctx or before.ctx,
        "declarer": declarer, "taker": before.taker, "kitty": kitty,
        "trick": _new_trick(dealer), "turn": dealer, "attacker_points": 0, "tricks": (),
        "declaration": getattr(before, "declaration", None),
        "sides": state.seating.sides(dealer), "calls": calls, "bid": bid,
        "played": _NONE_PLAYED, "penalties": ()})
    if state.rules.declaration is DeclarationStyle.JOKER_AND_PAIR and declarer is not None:
        events.append(event("trump", trump=_trump_text(before.ctx.trump),
                            level=before.level.label, revealed_by=declarer))
    events.append(_turn(dealer))
    return _step(state, playing, events)


# -- play -----------------------------------------------------------------------------

def _play(state: MatchState, phase: Playing, action: Play) -> Step:
    seat = action.seat
    if seat != phase.turn:  # the seat in turn is a seat: only another one is checked
        _seat(state, seat)
        raise EngineError("not_your_turn", turn=phase.turn, task="play")
    cards = tuple(action.cards)
    players = state.rules.players
    held = phase.hands[seat]
    hand = remove_cards(held, cards)
    trick = phase.trick
    ctx = phase.ctx
    rules = state.play_rules
    attacker_points = phase.attacker_points
    penalties = phase.penalties
    events: list[Event] = []
    lead = trick.lead
    if lead is None:
        lead = rules.lead(cards, ctx)
        if lead.is_throw:
            others = [phase.hands[s] for s in range(players) if s != seat]
            failed = failed_throw(rules, state.rules, lead, cards, others, ctx)
            if failed is not None:
                penalty = failed.penalty
                events.append(event("throw_failed", seat=seat, cards=cards,
                                    forced=format_cards(failed.kept), penalty=penalty))
                # the penalty is credited to the other side of the thrower (as known now;
                # a friend found later has it credited again, below)
                cards, lead = failed.kept, failed.lead
                hand = remove_cards(held, cards)
                attacker_points += failed.attackers_gain(
                    thrower_defends=phase.sides.is_defender(seat))
                if phase.calls and not phase.sides.settled and \
                        not phase.sides.is_defender(seat):
                    penalties = (*penalties, (seat, penalty))
    else:
        rules.check_follow(lead, cards, held, ctx)
    hands = _with_hand(phase.hands, seat, hand)
    trick = build(Trick, {"leader": trick.leader, "plays": (*trick.plays, (seat, cards)),
                           "lead": lead})
    events.append(_played(seat, cards))
    sides, calls = phase.sides, phase.calls
    if calls and not sides.settled:
        sides, calls, answered = reveal(sides, calls, seat, cards)
        for call, new in answered:
            if new:  # what the friend won so far was the defenders' all along, and
                # the penalties they paid as an attacker are the attackers' to gain
                attacker_points -= sum(p for _, w, p in phase.tricks if w == seat)
                attacker_points += 2 * sum(p for s, p in penalties if s == seat)
            events.append(event("friend_found" if new else "call_spent", seat=seat,
                                cards=(call.card,), copy=call.copy,
                                attacker_points=attacker_points))
    if len(trick.plays) < players:
        turn = (seat + 1) % players
        events.append(_turn(turn))
        # (a copy and stores, cheaper than ``{**phase.__dict__, ...}``; the sides and calls
        # change only when a called card is played)
        fields = phase.__dict__.copy()
        fields["hands"] = hands
        fields["trick"] = trick
        fields["turn"] = turn
        fields["attacker_points"] = attacker_points
        if calls:
            fields["sides"] = sides
            fields["calls"] = calls
            fields["penalties"] = penalties
        return _step(state, build(Playing, fields), events)
    if sides is not phase.sides or calls is not phase.calls or penalties is not phase.penalties:
        phase = evolve(phase, sides=sides, calls=calls, penalties=penalties)
    return _finish_trick(state, phase, hands, trick, attacker_points, events)


def _finish_trick(state: MatchState, phase: Playing, hands: Hands, trick: Trick,
                  attacker_points: int, events: list[Event]) -> Step:
    lead = trick.lead
    assert lead is not None
    # (``map`` and ``chain``: no comprehension's function call, one a trick end)
    plays = list(map(_second, trick.plays))
    index = trick_winner(state.play_rules, lead, plays, phase.ctx)
    winner = trick.plays[index][0]
    pts = sum(map(_points_of, _chained(plays)))
    attacker_points += attackers_gain(pts, defenders_take=winner in phase.sides.defenders)
    ruff = lead.suit != TRUMP and phase.ctx.eff[plays[index][0].index] == TRUMP
    events.append(_trick_won(winner, pts, ruff, attacker_points))
    tricks = (*phase.tricks, (trick, winner, pts))
    tally = list(phase.played)
    for card in _chained(plays):
        tally[card.index] += 1
    if hands[winner]:
        events.append(_turn(winner))
        # (a merge: a copy and five stores counted a thousand instructions dearer here)
        return _step(state, build(Playing, {
            **phase.__dict__, "hands": hands, "trick": _new_trick(winner), "turn": winner,
            "attacker_points": attacker_points, "tricks": tricks, "played": tuple(tally)}),
            events)
    last = evolve(phase, hands=hands, trick=trick, attacker_points=attacker_points,
                  tricks=tricks, played=tuple(tally))
    return _score(state, last, winner, plays[index], events)


_second = itemgetter(1)
_points_of = attrgetter("points")
_chained = chain.from_iterable


# -- scoring --------------------------------------------------------------------------

def _score(state: MatchState, phase: Playing, last_winner: int, winning_play: Sequence[Card],
           events: list[Event]) -> Step:
    rules = state.rules
    sides = phase.sides.settle()  # a friend not found by now is no friend
    attackers_won_last = not sides.is_defender(last_winner)
    kitty = kitty_ruling(state.play_rules, rules, phase.kitty, winning_play, phase.ctx,
                         attackers_won=attackers_won_last)
    kitty_pts, multiplier, kitty_delta = kitty.points, kitty.multiplier, kitty.delta
    hand = _HandEnd(state, phase, sides, last_winner, tuple(winning_play), attackers_won_last,
                    phase.attacker_points + kitty_delta)
    scored = _score_fixed if rules.teams is Formation.FIXED else _score_individual
    outcome = scored(hand)
    first_attacker = min(sides.attackers, key=lambda s: (s - phase.dealer) % state.players)
    levels = outcome.levels
    holder = state.seating.holder
    # (``build``: every field, without the constructor's setattr a field; once a hand)
    result = build(HandResult, {
        "trick_points": phase.attacker_points, "kitty": phase.kitty,
        "kitty_points": kitty_pts, "last_trick_side": ATTACKERS if attackers_won_last
        else DEFENDERS, "multiplier": multiplier, "kitty_delta": kitty_delta,
        "attacker_points": hand.total, "row": outcome.row, "side": outcome.row.side,
        "levels": outcome.row.levels,
        "old_levels": (state.level_of(phase.dealer), state.level_of(first_attacker)),
        "new_levels": (levels[holder(phase.dealer)], levels[holder(first_attacker)]),
        "dealer": phase.dealer, "next_dealer": outcome.next_dealer,
        "winner_team": outcome.winner, "notes": tuple(outcome.notes),
        "changes": _changes(state, levels, outcome.reasons, outcome.climbs),
        "defenders": tuple(sorted(sides.defenders)), "bid": phase.bid,
        "next_declarers": outcome.next_declarers})
    events.append(event("hand_scored", result=result, cards=phase.kitty))
    state = evolve(state, levels=levels, dealer=outcome.next_dealer)
    if outcome.offers and outcome.winner is None:
        events.append(_turn(outcome.offers[0][0]))
        return Step(replace(state, phase=Transferring(
            result, phase.kitty, phase.ctx, outcome.offers,
            penalty_offers=outcome.penalty_offers, kitty_winner=outcome.kitty_winner)),
            tuple(events))
    return _end_hand(state, result, phase.kitty, phase.ctx, events)


def _end_hand(state: MatchState, result: HandResult, kitty: Cards, ctx: TrumpContext,
              events: list[Event]) -> Step:
    ended: Phase
    if result.winner_team is not None:
        ended = MatchOver(result, result.winner_team, ctx)
        events.append(event("match_over", team=result.winner_team))
    else:
        ended = HandOver(result, kitty, ctx)
    return Step(evolve(state, phase=ended), tuple(events))


class _HandEnd(NamedTuple):
    """What every scoring rule reads at the end of a hand (a named tuple: made once a
    hand, without a frozen constructor's setattr a field)."""

    state: MatchState
    phase: Playing
    sides: Sides
    last_winner: int
    winning_play: Cards
    attackers_won_last: bool
    total: int  # the attackers' points with the kitty


@dataclass
class _Outcome:
    row: Row
    levels: tuple[Rank, ...]
    next_dealer: int
    winner: int | None
    reasons: dict[int, list[str]]  # by seat
    climbs: dict[int, Climb]  # by seat
    notes: list[Note] = field(default_factory=list)
    offers: tuple[tuple[int, int], ...] = ()
    next_declarers: tuple[int, ...] = ()
    penalty_offers: int = 0  # the first offers: a kitty penalty's levels, to place on opponents
    kitty_winner: int | None = None  # the J penalty's: not named, takes what is left


def _score_fixed(hand: _HandEnd) -> _Outcome:
    """Fixed partnerships, team levels: the level table of the ruleset (RULES §2-§4)."""
    state, phase, sides = hand.state, hand.phase, hand.sides
    rules, seating, dealer = state.rules, state.seating, phase.dealer
    row = level_table(rules).lookup(hand.total)
    defenders = seating.holder(dealer)
    attacker = next(iter(sides.attackers))
    attackers = seating.holder(attacker)
    levels = list(state.levels)
    winner: int | None = None
    reasons: dict[int, list[str]] = {}
    climbs: dict[int, Climb] = {}
    notes: list[Note] = []
    if row.side in (DEFENDERS, ATTACKERS):
        holder = defenders if row.side == DEFENDERS else attackers
        up = climb(rules, levels[holder], row.levels, as_defenders=row.side == DEFENDERS)
        levels[holder] = up.level
        winner = holder if up.won else None
        for s in seating.seats_of_holder(holder):
            climbs[s] = up
            reasons[s] = ["defended" if row.side == DEFENDERS else
                          "took_over" if row.levels == 1 or row.take_over else "attacked"]
            if up.stopped:
                reasons[s].append("must_play")
    if rules.j_fall and phase.level is Rank.JACK and hand.attackers_won_last:
        jacks = sum(1 for c in hand.winning_play if c.rank is Rank.JACK)
        if jacks:
            levels[defenders] = rules.level_ranks[0] if jacks >= 2 else Rank.SIX
            notes.append(Note("j_fall", levels[defenders]))
            for s in sides.defenders:
                reasons.setdefault(s, []).append("j_fall")
            if winner == defenders:
                winner = None
    next_dealer = (dealer + 1) % state.players if row.take_over else \
        seating.next_defender(dealer, sides.defenders)
    return _Outcome(row, tuple(levels), next_dealer, winner, reasons, climbs, notes)


def _score_individual(hand: _HandEnd) -> _Outcome:
    """Levels by player: find-friends (RULES §5) and three-bid (RULES §6)."""
    state, phase, sides = hand.state, hand.phase, hand.sides
    rules, dealer, total = state.rules, phase.dealer, hand.total
    defenders = sorted(sides.defenders, key=lambda s: (s - dealer) % state.players)
    attackers = sorted(sides.attackers, key=lambda s: (s - dealer) % state.players)
    steps: dict[int, int] = {}
    if rules.teams is Formation.BID:
        assert phase.bid is not None
        side, n = three_bid_steps(total, phase.bid)
        for seat in (defenders if side == DEFENDERS else attackers):
            steps[seat] = n
        row = Row(total, total + 1, side, n, False)
    else:
        side, (lead, rest) = find_friends_steps(total, len(defenders))
        if side == DEFENDERS:
            steps = {s: lead if s == dealer else rest for s in defenders}
        else:
            steps = dict.fromkeys(attackers, rest)
        row = Row(total, total + 1, side, lead if side == DEFENDERS else rest,
                  side == ATTACKERS)
    levels = list(state.levels)
    reasons: dict[int, list[str]] = {}
    climbs: dict[int, Climb] = {}
    winner: int | None = None
    for seat, n in steps.items():
        defending = side == DEFENDERS
        if not n:
            reasons[seat] = ["took_over"]
            continue
        # a must-play rank is passed only by defending a hand played at it
        up = climb(rules, levels[seat], n,
                   as_defenders=defending and levels[seat] == phase.level)
        levels[seat] = up.level
        climbs[seat] = up
        reasons[seat] = ["defended" if defending else "attacked"]
        if up.stopped:
            reasons[seat].append("must_play")
        if up.won and winner is None:
            winner = seat
    excess: list[tuple[int, int]] = []
    kitty_winner: int | None = None  # the J penalty's: not named, takes what is left
    if rules.teams is Formation.CALLED and side == ATTACKERS and hand.attackers_won_last:
        excess, kitty_winner = _kitty_penalties(hand, levels, reasons, defenders)
    offers: tuple[tuple[int, int], ...] = ()
    if rules.level_transfer:
        offers = tuple((s, climbs[s].stopped) for s in (*defenders, *attackers)
                       if s in climbs and climbs[s].stopped)
    reason = "jack_penalty" if kitty_winner is not None else "ace_penalty"
    placed: list[tuple[int, int]] = []  # the offers of the excess, placed after the hand
    for namer, owed in excess:
        nameable = _nameable(rules, levels, attackers, kitty_winner)
        if nameable and winner is None:  # named after the hand
            placed.append((namer, owed))
            continue
        # nobody to name (or the match is over): in seat order, then the kitty's winner
        last = [kitty_winner] if kitty_winner is not None else []
        _, taken = _lower_in_turn(rules, levels, [*nameable, *last], owed)
        for seat, _ in taken:
            reasons.setdefault(seat, []).append(reason)
    offers = (*placed, *offers)
    if rules.teams is Formation.BID:
        return _Outcome(row, tuple(levels), dealer, winner, reasons, climbs, offers=offers)
    winners = defenders if side == DEFENDERS else attackers
    # the winners declare for the next hand; without a declaration the first of them
    # after the dealer deals (the dealer when alone)
    next_dealer = winners[1] if len(winners) > 1 and winners[0] == dealer else winners[0]
    return _Outcome(row, tuple(levels), next_dealer, winner, reasons, climbs, offers=offers,
                    next_declarers=tuple(winners), penalty_offers=len(placed),
                    kitty_winner=kitty_winner if placed else None)


def _lower_in_turn(rules: Ruleset, levels: list[Rank], seats: Sequence[int], owed: int
                   ) -> tuple[int, list[tuple[int, int]]]:
    """Lowers ``seats`` in turn by what is ``owed``, each as far as it goes (above the
    first level): what is still owed, and (seat, levels taken) of each that lost any."""
    taken = []
    for seat in seats:
        if not owed:
            break
        levels[seat], left = lower(rules, levels[seat], owed)
        if left < owed:
            taken.append((seat, owed - left))
        owed = left
    return owed, taken


def _nameable(rules: Ruleset, levels: list[Rank], attackers: Sequence[int],
              kitty_winner: int | None) -> list[int]:
    """The opponents who may be named to take a kitty penalty's excess: the attackers
    above the first level (but, for the J penalty's, the one who won the kitty), in seat
    order from the dealer."""
    return [s for s in attackers if s != kitty_winner and levels[s] != rules.level_ranks[0]]


def _kitty_penalties(hand: _HandEnd, levels: list[Rank], reasons: dict[int, list[str]],
                     defenders: list[int]) -> tuple[list[tuple[int, int]], int | None]:
    """find-friends ``jack_kitty_penalty`` and ``ace_kitty_penalty`` (RULES §5); the
    levels the defenders could not lose (below the first level), as (the seat who names
    the opponents to take them, levels): the J penalty's what neither the dealer nor the
    friends could lose, the dealer's to place; the A penalty's, each friend's own (seed
    002 item 6: 如果庄家的朋友已经降到2，剩下的级数由他/她指定对方任何玩家降相应级数).
    And the J penalty's kitty winner, whom nobody names (None for the A penalty's)."""
    state, phase = hand.state, hand.phase
    rules, dealer = state.rules, phase.dealer
    friends = [s for s in defenders if s != dealer]
    play = hand.winning_play
    excess = 0
    if rules.jack_kitty_penalty and phase.level is Rank.JACK:
        jacks = [c for c in play if c.rank is Rank.JACK]
        units = decompose(play, phase.ctx, rules.max_width) if jacks else []
        jack_ident = {phase.ctx.ident[c.index] for c in jacks}
        in_tractor = [u.width for u in units if u.is_tractor and jack_ident & set(u.idents)]
        paired = any(u.width >= 2 and jack_ident & set(u.idents) for u in units)
        count = len(jacks) if len(jacks) != 2 or paired else 1
        total = jack_penalty(count, max(in_tractor, default=0))
        if total:
            share = total * 2 // 3
            owed = {dealer: share}
            for k, friend in enumerate(friends):  # the friends share the rest
                owed[friend] = (total - share) // len(friends) + \
                    (1 if k < (total - share) % len(friends) else 0)
            # what a player cannot lose below the first level falls on the friends, then
            # on opponents the dealer names, then on the player who won the kitty
            for seat, n in owed.items():
                levels[seat], left = lower(rules, levels[seat], n)
                excess += left
                reasons.setdefault(seat, []).append("jack_penalty")
            excess, _ = _lower_in_turn(rules, levels, friends, excess)
            return ([(dealer, excess)], hand.last_winner) if excess else ([], None)
    out = []
    if rules.ace_kitty_penalty and phase.level is Rank.ACE and \
            any(c.rank is Rank.ACE for c in play):
        if rules.level_ranks.index(levels[dealer]) > rules.level_ranks.index(Rank.JACK):
            levels[dealer] = Rank.JACK
        reasons.setdefault(dealer, []).append("ace_penalty")
        for friend in friends:
            levels[friend], left = lower(rules, levels[friend], 3)
            reasons.setdefault(friend, []).append("ace_penalty")
            if left:
                out.append((friend, left))
    return out, None


def _changes(state: MatchState, levels: tuple[Rank, ...], reasons: dict[int, list[str]],
             climbs: dict[int, Climb]) -> tuple[LevelChange, ...]:
    holder = state.seating.holder
    before = state.levels
    out = []
    for seat in range(state.players):
        held = holder(seat)  # (``state.level_of``'s lookup, made once for both levels)
        old, new = before[held], levels[held]
        up = climbs.get(seat)
        out.append(build(LevelChange, {"seat": seat, "old": old, "new": new,
                                       "reasons": tuple(reasons.get(seat, ["none"])),
                                       "earned": up.moved + up.stopped if up else 0,
                                       "stopped": up.stopped if up else 0}))
    return tuple(out)


def _transfer(state: MatchState, phase: Transferring, action: Transfer) -> Step:
    seat, levels_owed = phase.offers[0]
    if phase.asked is not None:
        raise EngineError("transfer_asked", seat=phase.asked)
    if action.seat != seat:
        raise EngineError("not_your_turn", turn=seat, task="transfer")
    if phase.penalty_offers:
        return _place_penalty(state, phase, action.target)
    target = action.target
    rules = state.rules
    levels = list(state.levels)
    events: list[Event] = []
    if target is not None:
        target = _seat(state, target)
        if target == seat:
            raise EngineError("transfer_self")
        result = phase.result
        same = (target in result.defenders) == (seat in result.defenders)
        if same:  # a gift to a teammate, a winner, who may refuse it
            events = [event("transfer_offered", seat=seat, target=target, levels=levels_owed),
                      _turn(target)]
            return _step(state, replace(phase, asked=target), events)
        else:
            levels[target], _ = lower(rules, levels[target], levels_owed)
        events.append(event("levels_transferred", seat=seat, target=target,
                            levels=levels_owed, up=same, level=levels[target].label))
    else:
        events.append(event("levels_kept", seat=seat, levels=levels_owed))
    return _next_offer(replace(state, levels=tuple(levels)), phase, events)


def _place_penalty(state: MatchState, phase: Transferring, target: int | None) -> Step:
    """RULES §5 kitty penalties: the seat of offers[0] names an opponent to take the
    levels the defenders could not lose, as far as they go down, then another while any
    is left; None: in seat order. The J penalty's: not the one who won the kitty, who
    takes what nobody named can; the A penalty's: any opponent, and what nobody can take
    is lost."""
    namer, owed = phase.offers[0]
    kitty_winner = phase.kitty_winner
    kind = phase.penalty
    rules = state.rules
    levels = list(state.levels)
    attackers = _attackers_after(state, phase)
    nameable = _nameable(rules, levels, attackers, kitty_winner)
    if target is not None:
        target = _seat(state, target)
        if target == kitty_winner:
            raise EngineError("penalty_target", rule="kitty", seat=target)
        if target not in attackers:
            raise EngineError("penalty_target", rule="defender", seat=target)
        if target not in nameable:
            raise EngineError("penalty_target", rule="lowest", seat=target)
        nameable = [target]
    owed, taken = _lower_in_turn(rules, levels, nameable, owed)
    more = bool(owed) and bool(_nameable(rules, levels, attackers, kitty_winner))
    if owed and not more and kitty_winner is not None:  # every other opponent is at the
        owed, last = _lower_in_turn(rules, levels, [kitty_winner], owed)  # first level
        taken += last  # (one at the first level already loses nothing: said nothing)
    events = [event("penalty_taken", seat=namer, target=seat, levels=n, penalty=kind,
                    level=levels[seat].label) for seat, n in taken]
    state = evolve(state, levels=tuple(levels))
    if more:  # another to name
        events.append(_turn(namer))
        return _step(state, replace(phase, offers=((namer, owed), *phase.offers[1:])), events)
    # (the next friends' excess, with nobody left to take it, is lost: they are not asked)
    skipped, left = 0, phase.penalty_offers - 1
    while left and not _nameable(rules, levels, attackers, kitty_winner):
        skipped, left = skipped + 1, left - 1
    return _next_offer(state, replace(phase, offers=phase.offers[skipped:],
                                      penalty_offers=left,
                                      kitty_winner=kitty_winner if left else None), events)


def _attackers_after(state: MatchState, phase: Transferring) -> list[int]:
    """The hand's attackers, in seat order from its dealer."""
    dealer = phase.result.dealer
    return sorted((s for s in range(state.players) if s not in phase.result.defenders),
                  key=lambda s: (s - dealer) % state.players)


def penalty_targets(state: MatchState) -> list[int]:
    """The opponents who may be named now to take a kitty penalty's excess (RULES §5
    ``jack_kitty_penalty``, ``ace_kitty_penalty``); empty where that is not the choice
    waiting."""
    phase = state.phase
    if not isinstance(phase, Transferring) or not phase.penalty_offers:
        return []
    return _nameable(state.rules, list(state.levels), _attackers_after(state, phase),
                     phase.kitty_winner)


#: The events of the level moves after a hand's scoring (``Transferring``): where stopped
#: levels went, and who took a kitty penalty's levels the defenders could not lose.
AFTER_HAND = ("levels_transferred", "transfer_refused", "levels_kept", "penalty_taken")


def settled_result(state: MatchState) -> HandResult | None:
    """At a hand's end after the level moves that follow it (``level_transfer``, a kitty
    penalty's excess placed on opponents: RULES §5), the hand's result with every seat's
    ``new`` level as it is now, a seat that moved giving ``after_hand`` as a reason (in
    place of ``none``); None where nothing moved after the scoring (or the hand is not
    over)."""
    phase = state.phase
    if not isinstance(phase, (HandOver, MatchOver)):
        return None
    result = phase.result
    now = [state.level_of(change.seat) for change in result.changes]
    if all(change.new is level for change, level in zip(result.changes, now, strict=True)):
        return None
    return replace(result, changes=tuple(
        change if change.new is level else replace(change, new=level, reasons=(
            *(r for r in change.reasons if r != "none"), "after_hand"))
        for change, level in zip(result.changes, now, strict=True)))


def _answer_transfer(state: MatchState, phase: Transferring, action: AnswerTransfer) -> Step:
    target = phase.asked
    if target is None:
        raise EngineError("no_transfer_asked")
    if action.seat != target:
        raise EngineError("not_your_turn", turn=target, task="answer_transfer")
    seat, levels_owed = phase.offers[0]
    levels = list(state.levels)
    if action.accept:  # the teammate goes up, stopping at a must-play rank too
        up = climb(state.rules, levels[target], levels_owed, as_defenders=False)
        levels[target] = up.level
        events = [event("levels_transferred", seat=seat, target=target, levels=levels_owed,
                        up=True, level=levels[target].label)]
        if up.won:  # reaching A (``reach_ace``) or passing it (``past_top``) by a gift wins
            return _end_hand(replace(state, levels=tuple(levels)),
                             replace(phase.result, winner_team=target), phase.hands_kitty,
                             phase.ctx, events)
    else:
        events = [event("transfer_refused", seat=target, giver=seat, levels=levels_owed)]
    return _next_offer(replace(state, levels=tuple(levels)), replace(phase, asked=None),
                       events)


def _next_offer(state: MatchState, phase: Transferring, events: list[Event]) -> Step:
    rest = phase.offers[1:]
    if rest:
        events.append(_turn(rest[0][0]))
        return _step(state, replace(phase, offers=rest), events)
    return _end_hand(state, phase.result, phase.hands_kitty, phase.ctx, events)


def _next_hand(state: MatchState, phase: HandOver, action: NextHand) -> Step:
    number = state.hand_number + 1
    declarers = phase.result.next_declarers
    if declarers:  # find-friends: the winners' declarations decide the dealer
        deal = _new_deal(state.rules, state.seed, number, state.levels, None,
                         may_declare=frozenset(declarers), fallback=phase.result.next_dealer)
    else:
        deal = _new_deal(state.rules, state.seed, number, state.levels, state.dealer)
    events = [event("hand_started", number=number, dealer=state.dealer, level=deal.level.label)]
    return Step(evolve(state, hand_number=number, phase=deal), tuple(events))


# -- helpers --------------------------------------------------------------------------

#: Where cards are taken from (``not_in_hand``'s ``where``): outside_declaration is the
#: hand apart from a declaration it must keep.
Where = Literal["hand", "kitty", "outside_declaration"]


def remove_cards(hand: Sequence[Card], cards: Sequence[Card], where: Where = "hand") -> Cards:
    """``hand`` without ``cards``; refuses cards the hand does not hold."""
    out = list(hand)
    try:
        for card in cards:  # a few cards out of a hand: cheaper than comparing counters
            out.remove(card)
    except ValueError:
        missing = Counter(cards) - Counter(hand)
        if where == "hand" and all(card in hand for card in missing):
            # every card missing is held, only not as often as named (a card typed twice)
            raise EngineError("not_in_hand", cards=tuple(missing.elements()), where=where,
                              rule="fewer") from None
        raise EngineError("not_in_hand", cards=tuple(missing.elements()), where=where) from None
    return tuple(out)


def _with_hand(hands: Hands, seat: int, hand: Cards) -> Hands:
    """``hands`` with ``seat``'s hand replaced (the others are shared, not copied)."""
    out = list(hands)
    out[seat] = hand
    return tuple(out)


def _seat(state: MatchState, seat: int) -> int:
    if not 0 <= seat < state.players:
        raise EngineError("bad_seat", seat=seat)
    return seat


def _trump_text(trump: TrumpSuit | None) -> str:
    return "none" if trump is None else trump.value


#: How a refusal names an action (``wrong_phase``'s ``action``; the bot words it).
ACTION_CODES = {Deal: "deal", Declare: "declare", ReturnCards: "return", EndDeal: "end_deal",
                 Bury: "bury", SwapKitty: "swap", Play: "play", NextHand: "next_hand",
                 CallFriends: "call", Bid: "bid", PassBid: "pass_bid",
                 NameTrump: "name_trump", Transfer: "transfer",
                 AnswerTransfer: "answer_transfer"}

# (phase type, action type) -> handler(state, phase, action); each handler's phase and
# action are the types of its key, which the checker cannot see through the lookup
_HANDLERS: dict[tuple[type, type], Callable[[MatchState, Any, Any], Step]] = {
    (Dealing, Deal): _deal,
    (Dealing, Declare): _declare,
    (Dealing, ReturnCards): _return,
    (Dealing, EndDeal): _end_deal,
    (Burying, Bury): _bury,
    (Swapping, SwapKitty): _swap,
    (Playing, Play): _play,
    (HandOver, NextHand): _next_hand,
    (CallingFriends, CallFriends): _call_friends,
    (Bidding, Bid): _bid,
    (Bidding, PassBid): _bid,
    (NamingTrump, NameTrump): _name_trump,
    (Transferring, Transfer): _transfer,
    (Transferring, AnswerTransfer): _answer_transfer,
}


# -- a table's match: the current state and the log that reached it --------------------

class Game:
    """A match as a table keeps it: the current :class:`MatchState` and the action log.
    ``apply`` moves to the next state; reading goes through to the state."""

    state: MatchState
    log: list[Action]

    def __init__(self, rules: Ruleset, seed: int, *, levels: Sequence[Rank] | None = None,
                 dealer: int | None = None) -> None:
        """``dealer``: who deals the first hand (None: the first declaration decides)."""
        self.state = MatchState.start(rules, seed, levels=levels, dealer=dealer)
        self.log = []

    @classmethod
    def of(cls, state: MatchState, log: Sequence[Action] = ()) -> Game:
        """A holder of ``state``, reached by ``log`` (empty: a set-up position)."""
        game = cls.__new__(cls)
        game.state = state
        game.log = list(log)
        return game

    @classmethod
    def from_position(cls, rules: Ruleset, *, level: Rank, hands: Sequence[Sequence[Card]],
                      trump: TrumpSuit | None = None, dealer: int | None = 0,
                      leader: int | None = None, kitty: Sequence[Card] = (),
                      attacker_points: int = 0, levels: tuple[Rank, Rank] | None = None,
                      dealing: bool = False,
                      trick: Sequence[tuple[int, Sequence[Card]]] = (),
                      taker: int | None = None, stage: str = "play",
                      seat_levels: Sequence[Rank] | None = None,
                      calls: Sequence[tuple[Card, int]] = (), friends: Sequence[int] = (),
                      bid: int | None = None, may_declare: Sequence[int] | None = None,
                      fallback_dealer: int | None = None) -> Game:
        """A game set up in the middle of a hand (scenarios, tests, puzzles, AI search).

        ``levels`` are (defenders, attackers) with team levels; ``seat_levels`` one per
        seat with levels by player (default: every level ``level``). ``stage``: "play"
        (default), "deal" (``hands`` dealt so far, nothing left to deal; ``dealer`` None:
        first hand; the same as ``dealing``), "bid" (three-bid: the cards are dealt, the
        player after ``dealer`` bids first) or "call" (find-friends: the dealer has
        buried ``kitty`` and calls). ``trick``: the (seat, cards) already played in the
        current trick, the first of them the lead (``leader`` is then its seat); ``hands``
        are what is left after them. ``taker``: who buried ``kitty`` (default: the
        dealer). ``calls``: the called (card, copy) and ``friends`` the seats already
        found; ``bid``: three-bid's threshold. ``may_declare``: who may declare in a
        deal (find-friends, later hands), ``fallback_dealer``: who deals if none of them
        does (the dealer is then decided by the declarations).
        """
        seating = rules.seating
        if dealing:
            stage = "deal"
        by_holder: tuple[Rank, ...]
        if seating.individual_levels:
            by_holder = tuple(seat_levels) if seat_levels else (level,) * rules.players
        else:
            defenders, attackers = levels or (level, level)
            home = seating.holder(dealer or 0)
            by_holder = (defenders, attackers) if home == 0 else (attackers, defenders)
        play_rules = play_rules_for(rules)
        held = tuple(tuple(h) for h in hands)
        phase: Phase
        if stage == "deal":  # ``fallback_dealer``: the declarations decide, else that seat
            phase = Dealing(level=level, dealer=dealer if fallback_dealer is None else None,
                            hands=held, stock=(), kitty=tuple(kitty), next_seat=0,
                            standing=None, declarations=(), pending_return=None,
                            may_declare=None if may_declare is None else frozenset(may_declare),
                            fallback_dealer=fallback_dealer or dealer or 0)
        elif stage == "bid":
            first = 0 if dealer is None else (dealer + 1) % rules.players
            phase = Bidding(hands=held, kitty=tuple(kitty), turn=first, standing=None,
                            passed=frozenset(), bids=())
        elif stage == "call":
            assert dealer is not None
            phase = CallingFriends(level, dealer, held, _context(rules, level, trump), None,
                                   dealer, tuple(kitty))
        else:
            assert dealer is not None
            ctx = _context(rules, level, trump)
            first = dealer if leader is None else leader
            current = Trick(first)
            turn = first
            if trick:
                plays = tuple((seat, tuple(cards)) for seat, cards in trick)
                current = Trick(plays[0][0], plays, play_rules.lead(plays[0][1], ctx))
                turn = (plays[-1][0] + 1) % rules.players
            sides = seating.sides(dealer)
            for friend in friends:
                sides = sides.with_friend(friend)
            found = list(friends)
            called = []
            for card, copy in calls:  # the first calls are the ones already answered
                by = found.pop(0) if found else None
                called.append(FriendCall(card, copy, copy if by is not None else 0, by))
            if called and all(c.done for c in called):
                sides = sides.settle()
            phase = Playing(level=level, dealer=dealer, hands=held, ctx=ctx, declarer=None,
                            taker=dealer if taker is None else taker, kitty=tuple(kitty),
                            trick=current, turn=turn, attacker_points=attacker_points,
                            tricks=(), declaration=None, sides=sides, calls=tuple(called),
                            bid=bid)
        return cls.of(MatchState(rules, 0, by_holder, dealer, 0, phase, play_rules))

    def apply(self, action: Action) -> list[Event]:
        """Apply one action: its events, or ``EngineError`` with nothing changed."""
        step = apply(self.state, action)
        self.state = step.state
        self.log.append(action)
        return list(step.events)

    def fingerprint(self) -> str:
        """A complete, comparable description of the state (tests: nothing changed)."""
        state = self.state
        return repr((type(state.phase).__name__, asdict(state.phase), state.levels,
                     state.dealer, state.hand_number, len(self.log)))

    # -- reading through to the state -----------------------------------------------------

    @property
    def rules(self) -> Ruleset:
        return self.state.rules

    @property
    def seed(self) -> int:
        return self.state.seed

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def levels(self) -> tuple[Rank, ...]:
        return self.state.levels

    @property
    def dealer(self) -> int | None:
        return self.state.dealer

    @property
    def hand_number(self) -> int:
        return self.state.hand_number

    @property
    def play_rules(self) -> PlayRules:
        return self.state.play_rules

    @property
    def players(self) -> int:
        return self.state.players

    @property
    def trump_hidden_during_deal(self) -> bool:
        return self.state.trump_hidden_during_deal

    def level_of(self, seat: int) -> Rank:
        return self.state.level_of(seat)

    def sides(self) -> Sides | None:
        return self.state.sides()

    def trump_known_by(self) -> list[int]:
        return self.state.trump_known_by()

    def check_declaration(self, seat: int, cards: Sequence[Card]) -> Declaration:
        return self.state.check_declaration(seat, cards)
