"""Leads, follows and trick resolution (RULES.md §2 "Leading" to "Who wins a trick").

``PlayRules`` is the interface the game uses; ``ClassicPlay`` implements RULES §2 (and
the one-deck, red-black and titanic presets), ``engine.patterns.ChangzhuPlay`` RULES §3.
Rules are computed as data (a lead's ``Lead`` format, the follower's obligations) and
checked in one place; a refusal names the first unmet rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.cards import Card
from engine.errors import EngineError
from engine.order import TRUMP, TrumpContext
from engine.rules import Ruleset
from engine.shapes import (
    Holding,
    Obligation,
    Unit,
    deciding_strength,
    decompose,
    first_shortfall,
    follow_amounts,
    follow_value,
    holding_of,
    unbeatable_by,
)

#: A comparable strength of a play in a trick: (is trump, tier, deciding strength).
PlayKey = tuple[int, int, int]


@dataclass(frozen=True)
class Lead:
    """The format of a lead: what every follower answers to."""

    cards: tuple[Card, ...]
    suit: int  # effective suit
    units: tuple[Unit, ...]  # largest first
    pattern: str  # single, pair, triple, tractor, throw (or a changzhu pattern)
    size: int = field(init=False, repr=False, compare=False)  # len(cards), asked often

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", len(self.cards))

    @property
    def is_throw(self) -> bool:
        return self.pattern == "throw"


def suit_words(ctx: TrumpContext, suit: int) -> str:
    return "trumps" if suit == TRUMP else ctx.suit_label(suit) + " cards"


def cards_of_suit(cards: Sequence[Card], ctx: TrumpContext, suit: int) -> list[Card]:
    eff = ctx.eff
    return [c for c in cards if eff[c.index] == suit]


class PlayRules:
    """What a play style decides. One instance per ruleset (no state)."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.max_width = rules.max_width

    def lead(self, cards: Sequence[Card], ctx: TrumpContext) -> Lead:
        raise NotImplementedError

    def throw_forced(self, lead: Lead, others: Sequence[Holding], ctx: TrumpContext
                     ) -> Unit | None:
        """The component a failed throw must play instead, or None when it stands."""
        return None

    def check_follow(self, lead: Lead, play: Sequence[Card], hand: Sequence[Card],
                     ctx: TrumpContext) -> None:
        raise NotImplementedError

    def play_key(self, lead: Lead, play: Sequence[Card], ctx: TrumpContext) -> PlayKey | None:
        """How strong a play is in this trick, or None when it cannot win."""
        raise NotImplementedError

    def trick_winner(self, lead: Lead, plays: Sequence[Sequence[Card]], ctx: TrumpContext
                     ) -> int:
        """Index (in ``plays``, lead first) of the play that wins: the first of the highest."""
        best = 0
        best_key = self.play_key(lead, plays[0], ctx)
        for i in range(1, len(plays)):
            key = self.play_key(lead, plays[i], ctx)
            if key is not None and (best_key is None or key > best_key):
                best, best_key = i, key
        return best

    def largest_component(self, play: Sequence[Card], ctx: TrumpContext) -> int:
        """Cards in the largest component of a play (for the kitty multiplier)."""
        by_suit: dict[int, list[Card]] = {}
        for card in play:
            by_suit.setdefault(ctx.eff[card.index], []).append(card)
        return max(decompose(cards, ctx, self.max_width)[0].size for cards in by_suit.values())

    # -- shared by both styles ------------------------------------------------------

    def one_suit(self, cards: Sequence[Card], ctx: TrumpContext) -> int:
        if not cards:
            raise EngineError("empty_play", "play at least one card")
        eff = ctx.eff
        suit = eff[cards[0].index]
        if any(eff[c.index] != suit for c in cards):
            raise EngineError("mixed_lead", "a lead must be cards of one suit: all trumps, "
                              "or all of one side suit")
        return suit

    def check_suit(self, lead: Lead, play: Sequence[Card], hand: Sequence[Card],
                   ctx: TrumpContext) -> tuple[list[Card], list[Card]]:
        """RULES §2 following, rule 1. Returns (led-suit cards held, led-suit cards played)."""
        if len(play) != lead.size:
            raise EngineError("wrong_count", f"the lead was {lead.size} card(s): play exactly "
                              f"{lead.size}", count=lead.size)
        eff, suit = ctx.eff, lead.suit
        held = [c for c in hand if eff[c.index] == suit]
        played = [c for c in play if eff[c.index] == suit]
        if len(held) >= lead.size and len(played) < lead.size:
            words = suit_words(ctx, lead.suit)
            raise EngineError("must_follow_suit", f"you hold enough {words}: play only {words}",
                              suit=lead.suit)
        if len(held) < lead.size and len(played) < len(held):
            words = suit_words(ctx, lead.suit)
            raise EngineError("must_follow_suit", f"you must play all your {words} before "
                              "other cards", suit=lead.suit)
        return held, played


class ClassicPlay(PlayRules):
    """RULES §2: singles, n-of-a-kind, tractors and throws; shape obligations."""

    def lead(self, cards: Sequence[Card], ctx: TrumpContext) -> Lead:
        suit = self.one_suit(cards, ctx)
        units = tuple(decompose(cards, ctx, self.max_width))
        if len(units) > 1:
            pattern = "throw"
        else:
            unit = units[0]
            pattern = ("tractor" if unit.is_tractor else
                       {1: "single", 2: "pair", 3: "triple"}.get(unit.width, "throw"))
        return Lead(tuple(cards), suit, units, pattern)

    def throw_forced(self, lead: Lead, others: Sequence[Holding], ctx: TrumpContext
                     ) -> Unit | None:
        if len(lead.units) < 2:
            return None
        beatable = [u for u in lead.units
                    if any(not unbeatable_by(u, other, ctx) for other in others)]
        if not beatable:
            return None
        # the component holding the lowest card; on a tie, the one with fewer cards
        return min(beatable, key=lambda u: (u.bottom, u.size))

    def check_follow(self, lead: Lead, play: Sequence[Card], hand: Sequence[Card],
                     ctx: TrumpContext) -> None:
        held, played = self.check_suit(lead, play, hand, ctx)
        if len(held) <= lead.size or self.max_width < 2:
            return  # all led-suit cards are played: no shape choice is left
        if lead.units[0].width < 2:
            return  # singles (the largest component comes first): nothing else is owed
        if self.meets_shape(lead, held, ctx)(played):
            return
        owed = follow_value(holding_of(held, ctx), lead.units, ctx)
        given = follow_value(holding_of(played, ctx), lead.units, ctx)
        short = first_shortfall(given, owed)
        assert short is not None
        raise _shape_error(short, lead, ctx)

    def meets_shape(self, lead: Lead, held: Sequence[Card], ctx: TrumpContext
                    ) -> Callable[[Sequence[Card]], bool]:
        """For a seat holding ``held`` of the led suit (more cards than the lead): does a
        play of that many of them meet the shape obligations? What is owed is worked out
        once, for testing many candidates (``check_follow`` says which rule fails)."""
        units = lead.units
        owed = follow_amounts(holding_of(held, ctx), units, ctx)

        def meets(play: Sequence[Card]) -> bool:
            for mine, due in zip(follow_amounts(holding_of(play, ctx), units, ctx), owed):
                if mine != due:
                    return mine > due  # the first line that differs decides
            return True
        return meets

    def play_key(self, lead: Lead, play: Sequence[Card], ctx: TrumpContext) -> PlayKey | None:
        eff = ctx.eff
        suit = eff[play[0].index]
        if suit != lead.suit and suit != TRUMP:
            return None
        if any(eff[c.index] != suit for c in play):
            return None
        first = lead.units[0]
        if len(lead.units) == 1 and first.length == 1 and len(play) == first.width:
            # one card or n-of-a-kind: only as many identical cards can win
            ident = ctx.ident
            if any(ident[c.index] != ident[play[0].index] for c in play):
                return None
            return (int(suit == TRUMP), 0, ctx.strength[play[0].index])
        decided = deciding_strength(holding_of(play, ctx), ctx, lead.units)
        if decided is None:
            return None
        return (int(suit == TRUMP), *decided)


def _shape_error(short: Obligation, lead: Lead, ctx: TrumpContext) -> EngineError:
    words = "trumps" if lead.suit == TRUMP else ctx.suit_label(lead.suit)
    kind = {2: "pair", 3: "triple"}.get(short.width, f"{short.width} of a kind")
    if short.tractor:
        return EngineError("must_follow_tractor", f"you hold a tractor in {words}: play a "
                           f"tractor ({short.amount} {kind}s in a row) on the led tractor",
                           length=short.amount, width=short.width)
    plural = kind + ("s" if short.amount > 1 else "")
    return EngineError(f"must_follow_{kind.replace(' ', '_')}",
                       f"you hold {kind}s in {words}: you must play {short.amount} {plural} "
                       "here", amount=short.amount, width=short.width)
