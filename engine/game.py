"""One state machine for a whole match (RULES.md §1 "Phases of a hand").

deal (declarations during it) → kitty (bury; changzhu: the declarer's swap, then the
reveal) → play (tricks) → scoring → next hand. Each phase is its own type; ``Game.apply``
dispatches (phase, action) in one place. A refused action raises ``EngineError`` and
changes nothing: every handler checks everything before it changes anything.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

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


# -- phases -------------------------------------------------------------------------

@dataclass
class Dealing:
    level: Rank
    dealer: int | None  # None in the first hand: the declarations decide
    hands: list[list[Card]]
    stock: list[Card]  # cards still to deal, in order
    kitty: list[Card]
    next_seat: int
    standing: Declaration | None = None
    declarations: list[Declaration] = field(default_factory=list)
    pending_return: tuple[int, int, int] | None = None  # (sticker, victim, cards owed)

    name = "deal"


@dataclass
class AfterDeal:
    """What every phase after the deal knows: the hand's level, dealer, trump and roles."""

    level: Rank
    dealer: int
    hands: list[list[Card]]
    ctx: TrumpContext
    declarer: int | None
    taker: int  # who took (and buried) the kitty


@dataclass
class Burying(AfterDeal):
    kitty_size: int
    declaration: Declaration | None = None  # the standing one (its shown cards are public)

    name = "bury"


@dataclass
class Swapping(AfterDeal):
    """changzhu: the declarer may swap same-rank cards into the buried kitty."""

    kitty: list[Card]
    declaration: Declaration | None = None

    name = "swap"


@dataclass
class Trick:
    leader: int
    plays: list[tuple[int, tuple[Card, ...]]] = field(default_factory=list)
    lead: Lead | None = None


@dataclass
class Playing(AfterDeal):
    kitty: list[Card]
    trick: Trick
    turn: int
    attacker_points: int = 0
    tricks: list[tuple[Trick, int, int]] = field(default_factory=list)  # (trick, winner, pts)
    declaration: Declaration | None = None

    name = "play"


@dataclass
class HandOver:
    result: HandResult
    hands_kitty: list[Card]
    ctx: TrumpContext

    name = "hand_over"


@dataclass
class MatchOver:
    result: HandResult
    winner_team: int
    ctx: TrumpContext

    name = "match_over"


Phase = Dealing | Burying | Swapping | Playing | HandOver | MatchOver


def play_rules_for(rules: Ruleset) -> PlayRules:
    return ChangzhuPlay(rules) if rules.play is PlayStyle.CHANGZHU else ClassicPlay(rules)


def _remove_cards(hand: list[Card], cards: Sequence[Card], what: str = "hand") -> list[Card]:
    """``hand`` without ``cards``; refuses cards the hand does not hold."""
    need = Counter(cards)
    have = Counter(hand)
    missing = need - have
    if missing:
        raise EngineError("not_in_hand", f"you do not hold {format_cards(missing.elements())}"
                          f" in your {what}", cards=format_cards(missing.elements()))
    out = list(hand)
    for card in cards:
        out.remove(card)
    return out


class Game:
    """A match: levels, dealer and the phase of the current hand, plus the action log."""

    def __init__(self, rules: Ruleset, seed: int, *, levels: Sequence[Rank] | None = None,
                 dealer: int | None = None) -> None:
        """``dealer``: who deals the first hand (None: the first declaration decides)."""
        self.rules = rules
        self.seed = seed
        self.play_rules = play_rules_for(rules)
        start = rules.level_ranks[0]
        self.levels: list[Rank] = list(levels) if levels else [start, start]
        self.dealer: int | None = dealer
        self.hand_number = 0
        self.log: list[Action] = []
        self.phase: Phase = self._new_deal()

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
        game = cls(rules, seed=0)
        defenders, attackers = levels or (level, level)
        team = (dealer or 0) % 2
        game.levels[team], game.levels[1 - team] = defenders, attackers
        game.dealer = dealer
        hands_list = [list(h) for h in hands]
        if dealing:
            game.phase = Dealing(level, dealer, hands_list, [], list(kitty), 0)
            return game
        assert dealer is not None
        ctx = game._context(level, trump)
        first = dealer if leader is None else leader
        current = Trick(first)
        turn = first
        if trick:
            first = trick[0][0]
            plays = [(seat, tuple(cards)) for seat, cards in trick]
            current = Trick(first, plays, game.play_rules.lead(plays[0][1], ctx))
            turn = (plays[-1][0] + 1) % game.players
        game.phase = Playing(level, dealer, hands_list, ctx, None,
                             dealer if taker is None else taker, list(kitty),
                             current, turn, attacker_points)
        return game

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

    def fingerprint(self) -> str:
        """A complete, comparable description of the state (tests: nothing changed)."""
        from dataclasses import asdict

        return repr((type(self.phase).__name__, asdict(self.phase), self.levels, self.dealer,
                     self.hand_number, len(self.log)))

    @property
    def players(self) -> int:
        return self.rules.players

    def team_of(self, seat: int) -> int:
        return seat % 2

    def partner_of(self, seat: int) -> int:
        return (seat + 2) % self.players

    # -- building -----------------------------------------------------------------

    def _new_deal(self) -> Dealing:
        rng = random.Random(f"{self.seed}:{self.hand_number}")
        cards = deck(self.rules.decks)
        rng.shuffle(cards)
        kitty = cards[len(cards) - self.rules.kitty_size:]
        stock = cards[: len(cards) - self.rules.kitty_size]
        level = self.levels[self.team_of(self.dealer)] if self.dealer is not None \
            else self.levels[0]
        return Dealing(level, self.dealer, [[] for _ in range(self.players)], stock, kitty,
                       self.dealer or 0)

    # -- the one dispatch ------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Apply one action: its events, or ``EngineError`` with nothing changed."""
        phase = self.phase
        handler = _HANDLERS.get((type(phase), type(action)))
        if handler is None:
            raise EngineError("wrong_phase", f"{_ACTION_WORDS.get(type(action), 'that')} is "
                              f"not possible now (the hand is in the {phase.name} phase)",
                              phase=phase.name)
        events = handler(self, phase, action)
        self.log.append(action)
        return events

    # -- deal -----------------------------------------------------------------------

    def _deal(self, phase: Dealing, action: Deal) -> list[Event]:
        if phase.pending_return is not None:
            raise EngineError("return_pending", "the deal waits for the cards owed back (回牌)")
        if not phase.stock:
            raise EngineError("deal_over", "every card has been dealt")
        if action.count < 1:
            raise EngineError("bad_action", "deal at least one card")
        events = []
        for _ in range(min(action.count, len(phase.stock))):
            card = phase.stock.pop(0)
            seat = phase.next_seat
            phase.hands[seat].append(card)
            phase.next_seat = (seat + 1) % self.players
            events.append(event("dealt", audience=seat, seat=seat, cards=[card]))
        events.append(event("deal_progress", left=len(phase.stock)))
        return events

    def check_declaration(self, seat: int, cards: Sequence[Card]) -> Declaration:
        """The declaration ``seat`` would make with ``cards``, or the reason it may not."""
        phase = self.phase
        if not isinstance(phase, Dealing):
            raise EngineError("wrong_phase", "declaring is only possible during the deal")
        seat = self._seat(seat)
        if phase.pending_return is not None:
            raise EngineError("return_pending", "wait for the cards owed back (回牌)")
        _remove_cards(phase.hands[seat], cards)
        decl = parse_declaration(seat, cards, phase.level, self.rules)
        check_override(decl, phase.standing, self.rules)
        return decl

    def _declare(self, phase: Dealing, action: Declare) -> list[Event]:
        decl = self.check_declaration(action.seat, action.cards)
        seat = decl.seat
        standing = phase.standing
        events = []
        hidden = self.trump_hidden_during_deal
        if decl.is_stick and standing is not None and standing.seat != seat:
            victim = standing.seat
            taken = list(standing.cards)
            phase.hands[victim] = _remove_cards(phase.hands[victim], taken)
            phase.hands[seat].extend(taken)
            phase.pending_return = (seat, victim, len(taken))
            events.append(event("stuck", seat=seat, victim=victim, count=len(taken)))
            events.append(event("cards_taken", audience=seat, seat=seat, cards=taken))
        phase.standing = decl
        phase.declarations.append(decl)
        events.append(event("declared", seat=seat, text=decl.public_text(hidden),
                            declaration=decl.kind, cards_shown=len(decl.cards),
                            **({} if hidden else {"trump": _trump_text(decl.trump)})))
        if hidden:
            events.append(event("trump_told", audience=seat, seat=seat,
                                trump=_trump_text(decl.trump)))
        return events

    @property
    def trump_hidden_during_deal(self) -> bool:
        return self.rules.hidden_bid or self.rules.declaration is DeclarationStyle.JOKER_AND_PAIR

    def _return(self, phase: Dealing, action: ReturnCards) -> list[Event]:
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
        permanent = set(self.rules.permanent_trumps)
        if not any(c.is_joker or c.rank in permanent for c in action.cards):
            raise EngineError("return_permanent", "give back at least one permanent trump "
                              "(常主: a joker, 2, 3 or 5)")
        phase.hands[sticker] = _remove_cards(phase.hands[sticker], action.cards)
        phase.hands[victim].extend(action.cards)
        phase.pending_return = None
        return [event("returned", seat=sticker, victim=victim, count=count),
                event("cards_returned", audience=victim, seat=victim, cards=action.cards)]

    def _end_deal(self, phase: Dealing, action: EndDeal) -> list[Event]:
        if phase.stock:
            raise EngineError("deal_not_over", f"{len(phase.stock)} cards are still to deal")
        if phase.pending_return is not None:
            raise EngineError("return_pending", "the deal waits for the cards owed back (回牌)")
        decl = phase.standing
        trump: TrumpSuit | None
        if decl is not None:
            trump = decl.trump
        elif self.rules.no_bid is NoBid.FLIP_KITTY and phase.kitty:
            last = phase.kitty[-1]
            trump = None if last.is_joker else trump_of_card(last, self.rules.suits)
        else:
            trump = None
        dealer = phase.dealer
        if dealer is None:
            dealer = decl.seat if decl is not None else 0
        declarer = decl.seat if decl is not None else None
        taker = dealer
        if self.rules.kitty_taker is KittyTaker.PARTNER_IF_DEALER_DECLARED and declarer == dealer:
            taker = self.partner_of(dealer)
        self.dealer = dealer
        level = self.levels[self.team_of(dealer)]
        ctx = self._context(level, trump)
        hands = phase.hands
        kitty = list(phase.kitty)
        hands[taker] = hands[taker] + kitty
        events = [event("deal_ended", dealer=dealer, taker=taker, declarer=declarer,
                        level=level.label)]
        secret = self.rules.declaration is DeclarationStyle.JOKER_AND_PAIR and decl is not None
        if not secret:
            events.append(event("trump", trump=_trump_text(trump), level=level.label))
        events.append(event("kitty_taken", audience=taker, seat=taker, cards=kitty))
        self.phase = Burying(level, dealer, hands, ctx, declarer, taker, len(kitty), decl)
        return events

    def _context(self, level: Rank, trump: TrumpSuit | None) -> TrumpContext:
        return trump_context(level, trump, frozenset(self.rules.permanent_trumps), self.rules.suits)

    # -- kitty ------------------------------------------------------------------------

    def _bury(self, phase: Burying, action: Bury) -> list[Event]:
        if action.seat != phase.taker:
            raise EngineError("not_your_turn", f"seat {phase.taker} buries the kitty")
        if len(action.cards) != phase.kitty_size:
            raise EngineError("bury_count", f"bury exactly {phase.kitty_size} cards",
                              count=phase.kitty_size)
        phase.hands[phase.taker] = _remove_cards(phase.hands[phase.taker], action.cards)
        kitty = list(action.cards)
        events = [event("buried", seat=phase.taker),
                  event("kitty_buried", audience=phase.taker, seat=phase.taker, cards=kitty)]
        if self.rules.declaration is DeclarationStyle.JOKER_AND_PAIR and phase.declarer is not None:
            self.phase = Swapping(phase.level, phase.dealer, phase.hands, phase.ctx,
                                  phase.declarer, phase.taker, kitty, phase.declaration)
            swappable = [c for c in kitty if phase.ctx.is_trump(c) and c.suit is not None]
            events.append(event("swap_offered", audience=phase.declarer, seat=phase.declarer,
                                cards=swappable))
            return events
        return events + self._start_play(phase.level, phase.dealer, phase.hands, phase.ctx,
                                         phase.declarer, phase.taker, kitty, phase.declaration)

    def _swap(self, phase: Swapping, action: SwapKitty) -> list[Event]:
        if action.seat != phase.declarer:
            raise EngineError("not_your_turn", f"seat {phase.declarer} may swap with the kitty")
        give, take = list(action.give), list(action.take)
        ctx = phase.ctx
        if sorted(c.rank for c in give) != sorted(c.rank for c in take):
            raise EngineError("swap_ranks", "swap cards of the same ranks, one for one")
        if any(ctx.is_trump(c) for c in give):
            raise EngineError("swap_give_trump", "give only cards that are not trumps")
        if any(not ctx.is_trump(c) or c.is_joker or c.rank in self.rules.permanent_trumps
               or c.rank == ctx.level for c in take):
            raise EngineError("swap_take", "take only trump-suit cards from the kitty")
        hand = _remove_cards(phase.hands[phase.declarer], give)
        kitty = _remove_cards(phase.kitty, take, "kitty")
        phase.hands[phase.declarer] = hand + take
        kitty += give
        events = [event("swapped", seat=phase.declarer, count=len(give))]
        return events + self._start_play(phase.level, phase.dealer, phase.hands, ctx,
                                         phase.declarer, phase.taker, kitty, phase.declaration)

    def _start_play(self, level: Rank, dealer: int, hands: list[list[Card]],
                    ctx: TrumpContext, declarer: int | None, taker: int, kitty: list[Card],
                    declaration: Declaration | None = None) -> list[Event]:
        self.phase = Playing(level, dealer, hands, ctx, declarer, taker, kitty,
                             Trick(dealer), dealer, declaration=declaration)
        events = []
        if self.rules.declaration is DeclarationStyle.JOKER_AND_PAIR and declarer is not None:
            events.append(event("trump", trump=_trump_text(ctx.trump), level=level.label,
                                revealed_by=declarer))
        events.append(event("turn", seat=dealer))
        return events

    # -- play -------------------------------------------------------------------------

    def _play(self, phase: Playing, action: Play) -> list[Event]:
        seat = self._seat(action.seat)
        if seat != phase.turn:
            raise EngineError("not_your_turn", f"it is seat {phase.turn}'s turn", turn=phase.turn)
        cards = list(action.cards)
        hand = _remove_cards(phase.hands[seat], cards)
        trick = phase.trick
        ctx = phase.ctx
        rules = self.play_rules
        events: list[Event] = []
        if trick.lead is None:
            lead = rules.lead(cards, ctx)
            if lead.is_throw:
                others = [holding_of([c for c in phase.hands[s] if ctx.eff[c.index] == lead.suit],
                                     ctx) for s in range(self.players) if s != seat]
                forced = rules.throw_forced(lead, others, ctx)
                if forced is not None:
                    kept = list(unit_cards(forced, cards, ctx))
                    back = len(cards) - len(kept)
                    penalty = self.rules.throw_penalty * back
                    events.append(event("throw_failed", seat=seat, cards=cards,
                                        forced=format_cards(kept), penalty=penalty))
                    # the penalty is credited to the other side of the thrower
                    defending = self.team_of(seat) == self.team_of(phase.dealer)
                    cards = kept
                    hand = _remove_cards(phase.hands[seat], cards)
                    lead = rules.lead(cards, ctx)
                    phase.attacker_points += penalty if defending else -penalty
            trick.lead = lead
        else:
            rules.check_follow(trick.lead, cards, phase.hands[seat], ctx)
        phase.hands[seat] = hand
        trick.plays.append((seat, tuple(cards)))
        events.append(event("played", seat=seat, cards=cards))
        if len(trick.plays) < self.players:
            phase.turn = (seat + 1) % self.players
            events.append(event("turn", seat=phase.turn))
            return events
        return events + self._finish_trick(phase)

    def _finish_trick(self, phase: Playing) -> list[Event]:
        trick = phase.trick
        assert trick.lead is not None
        plays = [cards for _, cards in trick.plays]
        index = self.play_rules.trick_winner(trick.lead, plays, phase.ctx)
        winner = trick.plays[index][0]
        pts = sum(points(cards) for cards in plays)
        if self.team_of(winner) != self.team_of(phase.dealer):
            phase.attacker_points += pts
        phase.tricks.append((trick, winner, pts))
        ruff = trick.lead.suit != TRUMP and phase.ctx.eff[plays[index][0].index] == TRUMP
        events = [event("trick_won", seat=winner, points=pts, ruff=ruff,
                        attacker_points=phase.attacker_points)]
        if phase.hands[winner]:
            phase.trick = Trick(winner)
            phase.turn = winner
            events.append(event("turn", seat=winner))
            return events
        return events + self._score(phase, winner, plays[index])

    # -- scoring ----------------------------------------------------------------------

    def _score(self, phase: Playing, last_winner: int, winning_play: Sequence[Card]
               ) -> list[Event]:
        rules = self.rules
        dealer = phase.dealer
        defenders = self.team_of(dealer)
        attackers = 1 - defenders
        kitty_pts = kitty_points(rules, phase.kitty)
        attackers_won_last = self.team_of(last_winner) == attackers
        multiplier = 0
        if attackers_won_last:
            largest = self.play_rules.largest_component(winning_play, phase.ctx)
            multiplier = kitty_multiplier(rules, largest, len(winning_play))
            kitty_delta = kitty_pts * multiplier
        else:
            kitty_delta = -kitty_pts if rules.keep_kitty_subtracts else 0
        total = phase.attacker_points + kitty_delta
        row = level_table(rules).lookup(total)
        old = (self.levels[defenders], self.levels[attackers])
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
        next_dealer = (dealer + 1) % self.players if row.take_over else self.partner_of(dealer)
        result = HandResult(
            trick_points=phase.attacker_points, kitty=tuple(phase.kitty),
            kitty_points=kitty_pts, last_trick_side=ATTACKERS if attackers_won_last
            else DEFENDERS, multiplier=multiplier, kitty_delta=kitty_delta,
            attacker_points=total, row=row, side=row.side, levels=row.levels,
            old_levels=old, new_levels=(new_def, new_att), dealer=dealer,
            next_dealer=next_dealer, winner_team=winner_team, notes=tuple(notes))
        self.levels[defenders], self.levels[attackers] = new_def, new_att
        self.dealer = next_dealer
        events = [event("hand_scored", result=result, cards=phase.kitty)]
        if winner_team is not None:
            self.phase = MatchOver(result, winner_team, phase.ctx)
            events.append(event("match_over", team=winner_team))
        else:
            self.phase = HandOver(result, list(phase.kitty), phase.ctx)
        return events

    def _next_hand(self, phase: HandOver, action: NextHand) -> list[Event]:
        self.hand_number += 1
        self.phase = self._new_deal()
        return [event("hand_started", number=self.hand_number, dealer=self.dealer,
                      level=self.phase.level.label)]

    # -- helpers ----------------------------------------------------------------------

    def _seat(self, seat: int) -> int:
        if not 0 <= seat < self.players:
            raise EngineError("bad_seat", f"there is no seat {seat}", seat=seat)
        return seat


def _trump_text(trump: TrumpSuit | None) -> str:
    return "none" if trump is None else trump.value


_ACTION_WORDS = {Deal: "dealing", Declare: "declaring", ReturnCards: "returning cards",
                 EndDeal: "ending the deal", Bury: "burying", SwapKitty: "swapping with the "
                 "kitty", Play: "playing cards", NextHand: "starting the next hand"}

_HANDLERS = {
    (Dealing, Deal): Game._deal,
    (Dealing, Declare): Game._declare,
    (Dealing, ReturnCards): Game._return,
    (Dealing, EndDeal): Game._end_deal,
    (Burying, Bury): Game._bury,
    (Swapping, SwapKitty): Game._swap,
    (Playing, Play): Game._play,
    (HandOver, NextHand): Game._next_hand,
}
