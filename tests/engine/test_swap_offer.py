"""The changzhu swap: what the declarer may take from the kitty is one rule, used by the
refusal, the offer event and the declarer's view."""

from __future__ import annotations

import random

import pytest

from engine.actions import SwapKitty
from engine.cards import Rank, Suit, parse_cards
from engine.errors import EngineError
from engine.game import Game, HandOver, Playing, Swapping, takeable_from_kitty
from engine.order import trump_context
from engine.rules import ruleset
from engine.simulate import random_action
from engine.views import seat_view


def test_only_trump_suit_cards_of_side_ranks_may_be_taken() -> None:
    rules = ruleset("changzhu")
    ctx = trump_context(Rank.SEVEN, Suit.HEARTS, frozenset(rules.permanent_trumps))
    kitty = parse_cards("BJ 2H 3S 5H 7H 7S KH 9H KS")
    # jokers, the permanent trumps (2, 3, 5) and the level (7) are trumps in every suit:
    # the declarer has no side card of their rank to give for them
    assert takeable_from_kitty(rules, ctx, kitty) == tuple(parse_cards("KH 9H"))


def test_the_declarer_sees_and_may_take_exactly_the_takeable_kitty_cards() -> None:
    seen = refused = 0
    for seed in range(60):
        game = Game(ruleset("changzhu"), seed, dealer=0)
        rng = random.Random(seed)
        while not isinstance(game.phase, (Playing, HandOver, Swapping)):
            game.apply(random_action(game, rng, declare_chance=0.5))
        phase = game.phase
        if not isinstance(phase, Swapping) or phase.declarer is None:
            continue
        takeable = takeable_from_kitty(game.rules, phase.ctx, phase.kitty)
        assert seat_view(game, phase.declarer).kitty == takeable
        seen += bool(takeable)
        for card in set(phase.kitty) - set(takeable):  # any other card of the kitty
            if not phase.ctx.is_trump(card):
                continue
            side = [c for c in phase.hands[phase.declarer]
                    if c.rank == card.rank and not phase.ctx.is_trump(c)]
            with pytest.raises(EngineError) as refusal:
                game.apply(SwapKitty(phase.declarer, side[:1], [card]))
            assert refusal.value.code in ("swap_take", "swap_ranks")
            refused += 1
    assert seen and refused  # the deals showed both kinds of kitty trump
