"""What one seat may know, built by allowlist from the game (never by redaction).

``seat_view(game, seat)`` (a ``Game`` or a ``MatchState``) holds the seat's own hand,
everything public, the kitty only for the seat that buried it, and a hidden trump suit
only for its declarer.
``public_view(game)`` is the same for an onlooker (no hand at all).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.bidding import CHANGZHU_TIERS, Declaration
from engine.cards import Card, Rank
from engine.game import (
    Bidding,
    Burying,
    CallingFriends,
    Dealing,
    Game,
    HandOver,
    MatchOver,
    MatchState,
    NamingTrump,
    Swapping,
    Transferring,
    takeable_from_kitty,
)
from engine.order import TrumpContext
from engine.rules import Ruleset
from engine.scoring import HandResult


@dataclass(frozen=True)
class DeclarationView:
    seat: int
    kind: str  # level, jokers | plain, top, stick, stick_top (public)
    size: int  # how many cards were declared with (public)
    shown: tuple[Card, ...]  # the cards the whole table sees face up (``Declaration.shown``)
    cards: tuple[Card, ...] = ()  # the declared cards this seat has seen (shown face up,
    #                              or its own); a hidden suit's cards stay empty


def _declaration_view(decl: Declaration, hidden: bool, seat: int | None) -> DeclarationView:
    if seat == decl.seat or (not hidden and decl.kind not in CHANGZHU_TIERS):
        seen = decl.cards
    else:
        seen = decl.jokers if decl.kind in CHANGZHU_TIERS else ()  # 明亮: the joker is shown
    return DeclarationView(decl.seat, decl.kind, len(decl.cards), decl.shown(hidden),
                           tuple(seen))


@dataclass(frozen=True)
class SeatView:
    seat: int | None  # None: an onlooker
    phase: str
    players: int
    hand_number: int
    levels: tuple[Rank, ...]  # by level holder (engine.teams.Seating.holder)
    dealer: int | None
    level: Rank | None  # this hand's level rank
    hand: tuple[Card, ...] = ()
    hand_sizes: tuple[int, ...] = ()
    cards_to_deal: int = 0
    declarations: tuple[DeclarationView, ...] = ()
    standing: DeclarationView | None = None
    pending_return: tuple[int, int, int] | None = None  # (sticker, victim, count)
    trump_known: bool = False
    ctx: TrumpContext | None = None  # only when the seat may know the trump
    kitty_taker: int | None = None
    declarer: int | None = None
    kitty: tuple[Card, ...] = ()  # only the kitty's taker, or everyone after the hand
    turn: int | None = None
    trick: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    tricks: tuple[tuple[tuple[tuple[int, tuple[Card, ...]], ...], int, int], ...] = ()
    attacker_points: int = 0
    result: HandResult | None = None
    winner_team: int | None = None
    rules: Ruleset | None = None  # the table's rules (public)
    seat_levels: tuple[Rank, ...] = ()  # every seat's level
    defenders: tuple[int, ...] = ()  # the seats everyone knows to defend (friends once found)
    sides_settled: bool = True  # False while a called friend is still unknown
    calls: tuple[tuple[Card, int, int | None], ...] = ()  # (card, copy, who played it)
    bid: int | None = None  # three-bid: the standing or winning bid
    bids: tuple[tuple[int, int | None], ...] = ()  # three-bid: (seat, points or None: pass)
    may_declare: tuple[int, ...] | None = None  # find-friends: who may declare this deal
    transfers: tuple[tuple[int, int], ...] = ()  # level_transfer: (seat, levels) still to say
    # a kitty penalty ("jack" or "ace") whose levels the defenders could not lose are
    # transfers[0], for its seat to place on opponents (RULES §5)
    penalty: str | None = None
    # the J penalty's: this seat won the kitty (named by nobody: it takes what is left)
    penalty_kitty_winner: int | None = None


def seat_view(game: Game | MatchState, seat: int | None) -> SeatView:
    """What ``seat`` may know (None: an onlooker). Every field is named here: the allowlist."""
    state = game.state if isinstance(game, Game) else game
    phase = state.phase
    hidden = state.trump_hidden_during_deal
    known_by = state.trump_known_by()
    # an onlooker (the public table) knows the trump once every seat may know it
    knows = seat in known_by if seat is not None else len(known_by) == state.players
    seat_levels = tuple(state.level_of(s) for s in range(state.players))
    sides = state.sides()
    defenders = tuple(sorted(sides.defenders)) if sides else ()
    if isinstance(phase, (HandOver, Transferring, MatchOver)):
        result = phase.result
        return SeatView(
            seat=seat, phase=phase.name, players=state.players,
            hand_number=state.hand_number, levels=state.levels, dealer=state.dealer,
            rules=state.rules, level=None, kitty=result.kitty, result=result,
            ctx=phase.ctx, trump_known=True, attacker_points=result.attacker_points,
            winner_team=phase.winner_team if isinstance(phase, MatchOver) else None,
            seat_levels=seat_levels, defenders=defenders, bid=result.bid,
            turn=(phase.offers[0][0] if phase.asked is None else phase.asked)
            if isinstance(phase, Transferring) else None,
            transfers=phase.offers if isinstance(phase, Transferring) else (),
            penalty=phase.penalty if isinstance(phase, Transferring) else None,
            penalty_kitty_winner=phase.kitty_winner if isinstance(phase, Transferring)
            else None)
    if isinstance(phase, Bidding):
        return SeatView(
            seat=seat, phase=phase.name, players=state.players,
            hand_number=state.hand_number, levels=state.levels, dealer=state.dealer,
            rules=state.rules, level=None, seat_levels=seat_levels,
            hand=phase.hands[seat] if seat is not None else (),
            hand_sizes=tuple(len(h) for h in phase.hands), turn=phase.turn,
            bid=phase.standing[1] if phase.standing else None, bids=phase.bids)
    # a hand in progress: what each phase adds to the seat's hand and the public facts
    cards_to_deal = 0
    declarations: tuple[DeclarationView, ...] = ()
    pending_return: tuple[int, int, int] | None = None
    kitty_taker: int | None = None
    turn: int | None = None
    kitty: tuple[Card, ...] = ()
    trick: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    tricks: tuple[tuple[tuple[tuple[int, tuple[Card, ...]], ...], int, int], ...] = ()
    attacker_points = 0
    calls: tuple[tuple[Card, int, int | None], ...] = ()
    bid: int | None = None
    may_declare: tuple[int, ...] | None = None
    if isinstance(phase, Dealing):
        standing = phase.standing
        cards_to_deal = len(phase.stock)
        declarations = tuple(_declaration_view(d, hidden, seat) for d in phase.declarations)
        pending_return = phase.pending_return
        ctx = state.context(phase.level, standing.trump) if knows and standing else None
        declarer = standing.seat if standing else None
        if phase.may_declare is not None:
            may_declare = tuple(sorted(phase.may_declare))
    else:
        standing = getattr(phase, "declaration", None)  # NamingTrump: none (three-bid)
        ctx = phase.ctx if knows else None
        kitty_taker, declarer = phase.taker, phase.declarer
        if isinstance(phase, Burying):
            turn = phase.taker
            bid = phase.bid
        elif isinstance(phase, (CallingFriends, NamingTrump)):
            turn = phase.dealer
            kitty = phase.kitty if seat == phase.taker else ()
            bid = phase.bid if isinstance(phase, NamingTrump) else None
        elif isinstance(phase, Swapping):
            turn = phase.declarer
            if seat == phase.taker:
                kitty = phase.kitty
            elif seat == phase.declarer:  # the kitty's cards it may take, no more
                kitty = takeable_from_kitty(state.rules, phase.ctx, phase.kitty)
        else:
            turn = phase.turn
            kitty = phase.kitty if seat == phase.taker else ()
            trick = phase.trick.plays
            tricks = tuple((t.plays, w, p) for t, w, p in phase.tricks)
            attacker_points = phase.attacker_points
            calls = tuple((c.card, c.copy, c.by) for c in phase.calls)
            bid = phase.bid
    return SeatView(
        seat=seat, phase=phase.name, players=state.players,
        hand_number=state.hand_number, levels=state.levels, dealer=state.dealer,
        rules=state.rules, level=phase.level,
        hand=phase.hands[seat] if seat is not None else (),
        hand_sizes=tuple(len(h) for h in phase.hands),
        cards_to_deal=cards_to_deal, declarations=declarations,
        standing=_declaration_view(standing, hidden, seat) if standing else None,
        pending_return=pending_return, trump_known=knows, ctx=ctx,
        kitty_taker=kitty_taker, declarer=declarer, turn=turn, kitty=kitty, trick=trick,
        tricks=tricks, attacker_points=attacker_points, seat_levels=seat_levels,
        defenders=defenders, sides_settled=sides.settled if sides else True, calls=calls,
        bid=bid, may_declare=may_declare)


def public_view(game: Game | MatchState) -> SeatView:
    return seat_view(game, None)
