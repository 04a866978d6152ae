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
from typing import Any, ClassVar, NamedTuple

from engine.actions import (
    Action,
    Bury,
    Deal,
    Declare,
    EndDeal,
    Event,
    NextHand,
    Play,
    ReturnCards,
    SwapKitty,
    event,
)
from engine.bidding import Declaration, check_override, parse_declaration, trump_of_card
from engine.cards import Card, Rank, deck, format_cards, points
from engine.errors import EngineError
from engine.order import TRUMP, TrumpContext, TrumpSuit, trump_context
from engine.patterns import ChangzhuPlay
from engine.plays import ClassicPlay, Lead, PlayRules
from engine.rules import DeclarationStyle, KittyTaker, NoBid, PlayStyle, Ruleset
from engine.scoring import (
    ATTACKERS,
    DEFENDERS,
    HandResult,
    advance,
    kitty_multiplier,
    kitty_points,
    level_table,
)
from engine.shapes import holding_of, unit_cards

Cards = tuple[Card, ...]
Hands = tuple[Cards, ...]  # by seat


# -- phases -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
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

    name: ClassVar[str] = "deal"


@dataclass(frozen=True, slots=True)
class AfterDeal:
    """What every phase after the deal knows: the hand's level, dealer, trump and roles."""

    level: Rank
    dealer: int
    hands: Hands
    ctx: TrumpContext
    declarer: int | None
    taker: int  # who took (and buried) the kitty


@dataclass(frozen=True, slots=True)
class Burying(AfterDeal):
    kitty_size: int
    declaration: Declaration | None = None  # the standing one (its shown cards are public)

    name: ClassVar[str] = "bury"


@dataclass(frozen=True, slots=True)
class Swapping(AfterDeal):
    """changzhu: the declarer may swap same-rank cards into the buried kitty."""

    kitty: Cards
    declaration: Declaration | None = None

    name: ClassVar[str] = "swap"


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    plays: tuple[tuple[int, Cards], ...] = ()
    lead: Lead | None = None


@dataclass(frozen=True, slots=True)
class Playing(AfterDeal):
    kitty: Cards
    trick: Trick
    turn: int
    attacker_points: int
    tricks: tuple[tuple[Trick, int, int], ...]  # (trick, winner, points)
    declaration: Declaration | None

    name: ClassVar[str] = "play"


@dataclass(frozen=True, slots=True)
class HandOver:
    result: HandResult
    hands_kitty: Cards
    ctx: TrumpContext

    name: ClassVar[str] = "hand_over"


@dataclass(frozen=True, slots=True)
class MatchOver:
    result: HandResult
    winner_team: int
    ctx: TrumpContext

    name: ClassVar[str] = "match_over"


Phase = Dealing | Burying | Swapping | Playing | HandOver | MatchOver


def play_rules_for(rules: Ruleset) -> PlayRules:
    return ChangzhuPlay(rules) if rules.play is PlayStyle.CHANGZHU else ClassicPlay(rules)


# -- the match as a value ------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class MatchState:
    """Everything a match is between two actions. ``levels`` are by team (seat % 2);
    ``dealer`` is None until the first hand's declarations decide it."""

    rules: Ruleset
    seed: int
    levels: tuple[Rank, Rank]
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
        by_team = (levels[0], levels[1]) if levels else (first, first)
        return cls(rules, seed, by_team, dealer, 0, _new_deal(rules, seed, 0, by_team, dealer),
                   play_rules_for(rules))

    # -- questions about the state ------------------------------------------------------

    @property
    def players(self) -> int:
        return self.rules.players

    def team_of(self, seat: int) -> int:
        return seat % 2

    def partner_of(self, seat: int) -> int:
        return (seat + 2) % self.players

    @property
    def trump_hidden_during_deal(self) -> bool:
        return self.rules.hidden_bid or self.rules.declaration is DeclarationStyle.JOKER_AND_PAIR

    def trump_known_by(self) -> list[int]:
        """The seats that may know the trump suit now."""
        everyone = list(range(self.players))
        phase = self.phase
        if isinstance(phase, Dealing):
            if phase.standing is None:
                return []
            return [phase.standing.seat] if self.trump_hidden_during_deal else everyone
        if isinstance(phase, (Burying, Swapping)) and phase.declarer is not None and \
                self.rules.declaration is DeclarationStyle.JOKER_AND_PAIR:
            return [phase.declarer]
        return everyone

    def check_declaration(self, seat: int, cards: Sequence[Card]) -> Declaration:
        """The declaration ``seat`` would make with ``cards``, or the reason it may not."""
        phase = self.phase
        if not isinstance(phase, Dealing):
            raise EngineError("wrong_phase", "declaring is only possible during the deal")
        seat = _seat(self, seat)
        if phase.pending_return is not None:
            raise EngineError("return_pending", "wait for the cards owed back (回牌)")
        _remove_cards(phase.hands[seat], cards)
        decl = parse_declaration(seat, cards, phase.level, self.rules)
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
        raise EngineError("wrong_phase", f"{_ACTION_WORDS.get(type(action), 'that')} is "
                          f"not possible now (the hand is in the {phase.name} phase)",
                          phase=phase.name)
    return handler(state, phase, action)


def _step(state: MatchState, phase: Phase, events: list[Event]) -> Step:
    """The step to ``phase``, the rest of the match unchanged. (Here and for each deal and
    play, the constructor with every field: ``dataclasses.replace`` costs twice as much,
    and the phases have no defaults, so the checker sees a field left out.)"""
    return Step(MatchState(state.rules, state.seed, state.levels, state.dealer,
                           state.hand_number, phase, state.play_rules), tuple(events))


# -- deal -----------------------------------------------------------------------------

def _new_deal(rules: Ruleset, seed: int, hand_number: int, levels: tuple[Rank, Rank],
              dealer: int | None) -> Dealing:
    rng = random.Random(f"{seed}:{hand_number}")
    cards = deck(rules.decks)
    rng.shuffle(cards)
    kitty = tuple(cards[len(cards) - rules.kitty_size:])
    stock = tuple(cards[: len(cards) - rules.kitty_size])
    level = levels[dealer % 2] if dealer is not None else levels[0]
    return Dealing(level=level, dealer=dealer, hands=((),) * rules.players, stock=stock,
                   kitty=kitty, next_seat=dealer or 0, standing=None, declarations=(),
                   pending_return=None)


def _deal(state: MatchState, phase: Dealing, action: Deal) -> Step:
    if phase.pending_return is not None:
        raise EngineError("return_pending", "the deal waits for the cards owed back (回牌)")
    if not phase.stock:
        raise EngineError("deal_over", "every card has been dealt")
    if action.count < 1:
        raise EngineError("bad_action", "deal at least one card")
    count = min(action.count, len(phase.stock))
    dealt, stock = phase.stock[:count], phase.stock[count:]
    players = state.players
    first = phase.next_seat
    events = []
    for k, card in enumerate(dealt):  # one card at a time, in seat order
        seat = (first + k) % players
        events.append(event("dealt", audience=seat, seat=seat, cards=(card,)))
    hands = list(phase.hands)
    for k in range(min(count, players)):  # the seat of the k-th card gets every players-th
        hands[(first + k) % players] += dealt[k::players]
    events.append(event("deal_progress", left=len(stock)))
    dealing = Dealing(level=phase.level, dealer=phase.dealer, hands=tuple(hands), stock=stock,
                      kitty=phase.kitty, next_seat=(first + count) % players,
                      standing=phase.standing, declarations=phase.declarations,
                      pending_return=phase.pending_return)
    return _step(state, dealing, events)


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
        hands = _with_hand(hands, victim, _remove_cards(hands[victim], taken))
        hands = _with_hand(hands, seat, hands[seat] + taken)
        pending = (seat, victim, len(taken))
        events.append(event("stuck", seat=seat, victim=victim, count=len(taken)))
        events.append(event("cards_taken", audience=seat, seat=seat, cards=taken))
    hidden = state.trump_hidden_during_deal
    text, shown, trump = decl.public_text(hidden), len(decl.cards), _trump_text(decl.trump)
    if hidden:  # the suit is told to the declarer alone
        events.append(event("declared", seat=seat, text=text, declaration=decl.kind,
                            cards_shown=shown))
        events.append(event("trump_told", audience=seat, seat=seat, trump=trump))
    else:
        events.append(event("declared", seat=seat, text=text, declaration=decl.kind,
                            cards_shown=shown, trump=trump))
    return _step(state, replace(phase, hands=hands, standing=decl, pending_return=pending,
                                declarations=(*phase.declarations, decl)), events)


def _return(state: MatchState, phase: Dealing, action: ReturnCards) -> Step:
    if phase.pending_return is None:
        raise EngineError("no_return", "no cards are owed back now")
    sticker, victim, count = phase.pending_return
    if action.seat != sticker:
        raise EngineError("not_your_turn", f"seat {sticker} owes the cards back")
    if len(action.cards) != count:
        raise EngineError("return_count", f"give back exactly {count} cards", count=count)
    assert phase.standing is not None
    free = _remove_cards(phase.hands[sticker], phase.standing.cards)
    _remove_cards(free, action.cards, "hand (outside your declaration)")
    permanent = set(state.rules.permanent_trumps)
    if not any(c.is_joker or c.rank in permanent for c in action.cards):
        raise EngineError("return_permanent", "give back at least one permanent trump "
                          "(常主: a joker, 2, 3 or 5)")
    hands = _with_hand(phase.hands, sticker, _remove_cards(phase.hands[sticker], action.cards))
    hands = _with_hand(hands, victim, hands[victim] + tuple(action.cards))
    events = [event("returned", seat=sticker, victim=victim, count=count),
              event("cards_returned", audience=victim, seat=victim, cards=action.cards)]
    return _step(state, replace(phase, hands=hands, pending_return=None), events)


def _end_deal(state: MatchState, phase: Dealing, action: EndDeal) -> Step:
    if phase.stock:
        raise EngineError("deal_not_over", f"{len(phase.stock)} cards are still to deal")
    if phase.pending_return is not None:
        raise EngineError("return_pending", "the deal waits for the cards owed back (回牌)")
    rules = state.rules
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
        dealer = decl.seat if decl is not None else 0
    declarer = decl.seat if decl is not None else None
    taker = dealer
    if rules.kitty_taker is KittyTaker.PARTNER_IF_DEALER_DECLARED and declarer == dealer:
        taker = state.partner_of(dealer)
    level = state.levels[state.team_of(dealer)]
    ctx = _context(rules, level, trump)
    kitty = phase.kitty
    hands = _with_hand(phase.hands, taker, phase.hands[taker] + kitty)
    events = [event("deal_ended", dealer=dealer, taker=taker, declarer=declarer,
                    level=level.label)]
    secret = rules.declaration is DeclarationStyle.JOKER_AND_PAIR and decl is not None
    if not secret:
        events.append(event("trump", trump=_trump_text(trump), level=level.label))
    events.append(event("kitty_taken", audience=taker, seat=taker, cards=kitty))
    burying = Burying(level, dealer, hands, ctx, declarer, taker, len(kitty), decl)
    return Step(replace(state, dealer=dealer, phase=burying), tuple(events))


def _context(rules: Ruleset, level: Rank, trump: TrumpSuit | None) -> TrumpContext:
    return trump_context(level, trump, frozenset(rules.permanent_trumps), rules.suits)


# -- kitty ----------------------------------------------------------------------------

def _bury(state: MatchState, phase: Burying, action: Bury) -> Step:
    taker = phase.taker
    if action.seat != taker:
        raise EngineError("not_your_turn", f"seat {taker} buries the kitty")
    if len(action.cards) != phase.kitty_size:
        raise EngineError("bury_count", f"bury exactly {phase.kitty_size} cards",
                          count=phase.kitty_size)
    hands = _with_hand(phase.hands, taker, _remove_cards(phase.hands[taker], action.cards))
    kitty = tuple(action.cards)
    events = [event("buried", seat=taker),
              event("kitty_buried", audience=taker, seat=taker, cards=kitty)]
    declarer = phase.declarer
    if state.rules.declaration is DeclarationStyle.JOKER_AND_PAIR and declarer is not None:
        swapping = Swapping(phase.level, phase.dealer, hands, phase.ctx, declarer, taker,
                            kitty, phase.declaration)
        swappable = [c for c in kitty if phase.ctx.is_trump(c) and c.suit is not None]
        events.append(event("swap_offered", audience=declarer, seat=declarer,
                            cards=swappable))
        return _step(state, swapping, events)
    return _start_play(state, phase, hands, kitty, events)


def _swap(state: MatchState, phase: Swapping, action: SwapKitty) -> Step:
    declarer = phase.declarer
    if action.seat != declarer:
        raise EngineError("not_your_turn", f"seat {declarer} may swap with the kitty")
    assert declarer is not None  # a swap is offered to the declarer only
    give, take = tuple(action.give), tuple(action.take)
    ctx = phase.ctx
    if sorted(c.rank for c in give) != sorted(c.rank for c in take):
        raise EngineError("swap_ranks", "swap cards of the same ranks, one for one")
    if any(ctx.is_trump(c) for c in give):
        raise EngineError("swap_give_trump", "give only cards that are not trumps")
    if any(not ctx.is_trump(c) or c.is_joker or c.rank in state.rules.permanent_trumps
           or c.rank == ctx.level for c in take):
        raise EngineError("swap_take", "take only trump-suit cards from the kitty")
    hand = _remove_cards(phase.hands[declarer], give)
    kitty = _remove_cards(phase.kitty, take, "kitty")
    hands = _with_hand(phase.hands, declarer, hand + take)
    events = [event("swapped", seat=declarer, count=len(give))]
    return _start_play(state, phase, hands, kitty + give, events)


def _start_play(state: MatchState, before: Burying | Swapping, hands: Hands, kitty: Cards,
                events: list[Event]) -> Step:
    dealer, declarer = before.dealer, before.declarer
    playing = Playing(level=before.level, dealer=dealer, hands=hands, ctx=before.ctx,
                      declarer=declarer, taker=before.taker, kitty=kitty, trick=Trick(dealer),
                      turn=dealer, attacker_points=0, tricks=(),
                      declaration=before.declaration)
    if state.rules.declaration is DeclarationStyle.JOKER_AND_PAIR and declarer is not None:
        events.append(event("trump", trump=_trump_text(before.ctx.trump),
                            level=before.level.label, revealed_by=declarer))
    events.append(event("turn", seat=dealer))
    return _step(state, playing, events)


# -- play -----------------------------------------------------------------------------

def _play(state: MatchState, phase: Playing, action: Play) -> Step:
    seat = _seat(state, action.seat)
    if seat != phase.turn:
        raise EngineError("not_your_turn", f"it is seat {phase.turn}'s turn", turn=phase.turn)
    cards = tuple(action.cards)
    held = phase.hands[seat]
    hand = _remove_cards(held, cards)
    trick = phase.trick
    ctx = phase.ctx
    rules = state.play_rules
    attacker_points = phase.attacker_points
    events: list[Event] = []
    lead = trick.lead
    if lead is None:
        lead = rules.lead(cards, ctx)
        if lead.is_throw:
            suit = lead.suit
            others = [holding_of([c for c in phase.hands[s] if ctx.eff[c.index] == suit], ctx)
                      for s in range(state.players) if s != seat]
            forced = rules.throw_forced(lead, others, ctx)
            if forced is not None:
                kept = tuple(unit_cards(forced, cards, ctx))
                penalty = state.rules.throw_penalty * (len(cards) - len(kept))
                events.append(event("throw_failed", seat=seat, cards=cards,
                                    forced=format_cards(kept), penalty=penalty))
                # the penalty is credited to the other side of the thrower
                defending = state.team_of(seat) == state.team_of(phase.dealer)
                cards = kept
                hand = _remove_cards(held, cards)
                lead = rules.lead(cards, ctx)
                attacker_points += penalty if defending else -penalty
    else:
        rules.check_follow(lead, cards, held, ctx)
    hands = _with_hand(phase.hands, seat, hand)
    trick = Trick(trick.leader, (*trick.plays, (seat, cards)), lead)
    events.append(event("played", seat=seat, cards=cards))
    if len(trick.plays) < state.players:
        turn = (seat + 1) % state.players
        events.append(event("turn", seat=turn))
        playing = Playing(level=phase.level, dealer=phase.dealer, hands=hands, ctx=ctx,
                          declarer=phase.declarer, taker=phase.taker, kitty=phase.kitty,
                          trick=trick, turn=turn, attacker_points=attacker_points,
                          tricks=phase.tricks, declaration=phase.declaration)
        return _step(state, playing, events)
    return _finish_trick(state, phase, hands, trick, attacker_points, events)


def _finish_trick(state: MatchState, phase: Playing, hands: Hands, trick: Trick,
                  attacker_points: int, events: list[Event]) -> Step:
    lead = trick.lead
    assert lead is not None
    plays = [cards for _, cards in trick.plays]
    index = state.play_rules.trick_winner(lead, plays, phase.ctx)
    winner = trick.plays[index][0]
    pts = sum(points(cards) for cards in plays)
    if state.team_of(winner) != state.team_of(phase.dealer):
        attacker_points += pts
    ruff = lead.suit != TRUMP and phase.ctx.eff[plays[index][0].index] == TRUMP
    events.append(event("trick_won", seat=winner, points=pts, ruff=ruff,
                        attacker_points=attacker_points))
    tricks = (*phase.tricks, (trick, winner, pts))
    if hands[winner]:
        events.append(event("turn", seat=winner))
        return _step(state, replace(phase, hands=hands, trick=Trick(winner), turn=winner,
                                    attacker_points=attacker_points, tricks=tricks), events)
    played = replace(phase, hands=hands, trick=trick, attacker_points=attacker_points,
                     tricks=tricks)
    return _score(state, played, winner, plays[index], events)


# -- scoring --------------------------------------------------------------------------

def _score(state: MatchState, phase: Playing, last_winner: int, winning_play: Sequence[Card],
           events: list[Event]) -> Step:
    rules = state.rules
    dealer = phase.dealer
    defenders = state.team_of(dealer)
    attackers = 1 - defenders
    kitty_pts = kitty_points(rules, phase.kitty)
    attackers_won_last = state.team_of(last_winner) == attackers
    multiplier = 0
    if attackers_won_last:
        largest = state.play_rules.largest_component(winning_play, phase.ctx)
        multiplier = kitty_multiplier(rules, largest, len(winning_play))
        kitty_delta = kitty_pts * multiplier
    else:
        kitty_delta = -kitty_pts if rules.keep_kitty_subtracts else 0
    total = phase.attacker_points + kitty_delta
    row = level_table(rules).lookup(total)
    old = (state.levels[defenders], state.levels[attackers])
    new_def, new_att = old
    winner_team: int | None = None
    notes: list[str] = []
    if row.side == DEFENDERS:
        new_def, won = advance(rules, old[0], row.levels, as_defenders=True)
        winner_team = defenders if won else None
    elif row.side == ATTACKERS:
        new_att, won = advance(rules, old[1], row.levels, as_defenders=False)
        winner_team = attackers if won else None
    if rules.j_fall and phase.level is Rank.JACK and attackers_won_last:
        jacks = sum(1 for c in winning_play if c.rank is Rank.JACK)
        if jacks:
            new_def = rules.level_ranks[0] if jacks >= 2 else Rank.SIX
            notes.append(f"J到6, 双J到底: the defenders fall to {new_def.label}.")
            if winner_team == defenders:
                winner_team = None
    next_dealer = (dealer + 1) % state.players if row.take_over else state.partner_of(dealer)
    result = HandResult(
        trick_points=phase.attacker_points, kitty=phase.kitty,
        kitty_points=kitty_pts, last_trick_side=ATTACKERS if attackers_won_last
        else DEFENDERS, multiplier=multiplier, kitty_delta=kitty_delta,
        attacker_points=total, row=row, side=row.side, levels=row.levels,
        old_levels=old, new_levels=(new_def, new_att), dealer=dealer,
        next_dealer=next_dealer, winner_team=winner_team, notes=tuple(notes))
    levels = (new_def, new_att) if defenders == 0 else (new_att, new_def)
    events.append(event("hand_scored", result=result, cards=phase.kitty))
    ended: Phase
    if winner_team is not None:
        ended = MatchOver(result, winner_team, phase.ctx)
        events.append(event("match_over", team=winner_team))
    else:
        ended = HandOver(result, phase.kitty, phase.ctx)
    return Step(replace(state, levels=levels, dealer=next_dealer, phase=ended), tuple(events))


def _next_hand(state: MatchState, phase: HandOver, action: NextHand) -> Step:
    number = state.hand_number + 1
    deal = _new_deal(state.rules, state.seed, number, state.levels, state.dealer)
    events = [event("hand_started", number=number, dealer=state.dealer, level=deal.level.label)]
    return Step(replace(state, hand_number=number, phase=deal), tuple(events))


# -- helpers --------------------------------------------------------------------------

def _remove_cards(hand: Sequence[Card], cards: Sequence[Card], what: str = "hand") -> Cards:
    """``hand`` without ``cards``; refuses cards the hand does not hold."""
    out = list(hand)
    try:
        for card in cards:
            out.remove(card)  # a few cards out of a hand: cheaper than comparing counters
    except ValueError:
        missing = Counter(cards) - Counter(hand)
        raise EngineError("not_in_hand", f"you do not hold {format_cards(missing.elements())}"
                          f" in your {what}", cards=format_cards(missing.elements())) from None
    return tuple(out)


def _with_hand(hands: Hands, seat: int, hand: Cards) -> Hands:
    """``hands`` with ``seat``'s hand replaced (the others are shared, not copied)."""
    out = list(hands)
    out[seat] = hand
    return tuple(out)


def _seat(state: MatchState, seat: int) -> int:
    if not 0 <= seat < state.players:
        raise EngineError("bad_seat", f"there is no seat {seat}", seat=seat)
    return seat


def _trump_text(trump: TrumpSuit | None) -> str:
    return "none" if trump is None else trump.value


_ACTION_WORDS = {Deal: "dealing", Declare: "declaring", ReturnCards: "returning cards",
                 EndDeal: "ending the deal", Bury: "burying", SwapKitty: "swapping with the "
                 "kitty", Play: "playing cards", NextHand: "starting the next hand"}

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
                      taker: int | None = None) -> Game:
        """A game set up in the middle of a hand (scenarios, tests, puzzles, AI search).

        ``levels`` are (defenders, attackers); ``dealing`` puts it in the deal phase with
        ``hands`` dealt so far and nothing left to deal (``dealer`` None: first hand).
        ``trick``: the (seat, cards) already played in the current trick, the first of
        them the lead (``leader`` is then its seat); ``hands`` are what is left after
        them. ``taker``: who buried ``kitty`` (default: the dealer).
        """
        defenders, attackers = levels or (level, level)
        by_team = (defenders, attackers) if (dealer or 0) % 2 == 0 else (attackers, defenders)
        play_rules = play_rules_for(rules)
        held = tuple(tuple(h) for h in hands)
        phase: Phase
        if dealing:
            phase = Dealing(level=level, dealer=dealer, hands=held, stock=(),
                            kitty=tuple(kitty), next_seat=0, standing=None, declarations=(),
                            pending_return=None)
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
            phase = Playing(level=level, dealer=dealer, hands=held, ctx=ctx, declarer=None,
                            taker=dealer if taker is None else taker, kitty=tuple(kitty),
                            trick=current, turn=turn, attacker_points=attacker_points,
                            tricks=(), declaration=None)
        return cls.of(MatchState(rules, 0, by_team, dealer, 0, phase, play_rules))

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
    def levels(self) -> tuple[Rank, Rank]:
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

    def team_of(self, seat: int) -> int:
        return self.state.team_of(seat)

    def partner_of(self, seat: int) -> int:
        return self.state.partner_of(seat)

    def trump_known_by(self) -> list[int]:
        return self.state.trump_known_by()

    def check_declaration(self, seat: int, cards: Sequence[Card]) -> Declaration:
        return self.state.check_declaration(seat, cards)
