"""What one seat may know, built by allowlist from the game (never by redaction).

``seat_view(game, seat)`` holds the seat's own hand, everything public, the kitty only
for the seat that buried it, and a hidden trump suit only for its declarer.
``public_view(game)`` is the same for an onlooker (no hand at all).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.bidding import CHANGZHU_TIERS, Declaration
from engine.cards import Card, Rank
from engine.game import AfterDeal, Burying, Dealing, Game, HandOver, MatchOver, Playing, Swapping
from engine.order import TrumpContext
from engine.rules import Ruleset
from engine.scoring import HandResult


@dataclass(frozen=True)
class DeclarationView:
    seat: int
    text: str  # what the table sees
    kind: str = ""  # level, jokers | plain, top, stick, stick_top (public in the text too)
    size: int = 0  # how many cards were declared with (public)
    cards: tuple[Card, ...] = ()  # the declared cards this seat has seen (shown face up,
    #                              or its own); a hidden suit's cards stay empty


def _declaration_view(decl: Declaration, hidden: bool, seat: int | None) -> DeclarationView:
    if seat == decl.seat or (not hidden and decl.kind not in CHANGZHU_TIERS):
        seen = decl.cards
    else:
        seen = decl.jokers if decl.kind in CHANGZHU_TIERS else ()  # 明亮: the joker is shown
    return DeclarationView(decl.seat, decl.public_text(hidden), decl.kind, len(decl.cards),
                           tuple(seen))


@dataclass(frozen=True)
class SeatView:
    seat: int | None  # None: an onlooker
    phase: str
    players: int
    hand_number: int
    levels: tuple[Rank, Rank]  # by team (team = seat % 2)
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


def seat_view(game: Game, seat: int | None) -> SeatView:
    phase = game.phase
    base = dict(seat=seat, phase=phase.name, players=game.players,
                hand_number=game.hand_number, levels=(game.levels[0], game.levels[1]),
                dealer=game.dealer, rules=game.rules)
    hidden = game.trump_hidden_during_deal
    known_by = game.trump_known_by()
    # an onlooker (the public table) knows the trump once every seat may know it
    knows = seat in known_by if seat is not None else len(known_by) == game.players
    if isinstance(phase, Dealing):
        standing = phase.standing
        return SeatView(
            **base, level=phase.level,
            hand=tuple(phase.hands[seat]) if seat is not None else (),
            hand_sizes=tuple(len(h) for h in phase.hands),
            cards_to_deal=len(phase.stock),
            declarations=tuple(_declaration_view(d, hidden, seat) for d in phase.declarations),
            standing=_declaration_view(standing, hidden, seat) if standing else None,
            pending_return=phase.pending_return,
            trump_known=knows,
            ctx=game._context(phase.level, standing.trump) if knows and standing else None,
            declarer=standing.seat if standing else None)
    if isinstance(phase, AfterDeal):
        common = dict(
            level=phase.level,
            hand=tuple(phase.hands[seat]) if seat is not None else (),
            hand_sizes=tuple(len(h) for h in phase.hands),
            trump_known=knows, ctx=phase.ctx if knows else None,
            kitty_taker=phase.taker, declarer=phase.declarer,
            standing=_declaration_view(phase.declaration, hidden, seat)
            if phase.declaration else None)
        if isinstance(phase, Burying):
            return SeatView(**base, **common, turn=phase.taker)
        if isinstance(phase, Swapping):
            offered = tuple(c for c in phase.kitty if phase.ctx.is_trump(c)) \
                if seat == phase.declarer else ()
            return SeatView(**base, **common, turn=phase.declarer,
                            kitty=tuple(phase.kitty) if seat == phase.taker else offered)
        assert isinstance(phase, Playing)
        return SeatView(
            **base, **common, turn=phase.turn,
            kitty=tuple(phase.kitty) if seat == phase.taker else (),
            trick=tuple(phase.trick.plays),
            tricks=tuple((tuple(t.plays), w, p) for t, w, p in phase.tricks),
            attacker_points=phase.attacker_points)
    assert isinstance(phase, (HandOver, MatchOver))
    result = phase.result
    return SeatView(**base, level=None, kitty=result.kitty, result=result,
                    ctx=phase.ctx, trump_known=True,
                    attacker_points=result.attacker_points,
                    winner_team=phase.winner_team if isinstance(phase, MatchOver) else None)


def public_view(game: Game) -> SeatView:
    return seat_view(game, None)
