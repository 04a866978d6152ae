"""The play-out policy's shortcuts against the straightforward computations they replace."""

from __future__ import annotations

import random

import pytest

from engine.ai.knowledge import Knowledge
from engine.ai.policy import choose_play, first_sure_throw, suit_parts
from engine.ai.search import playout
from engine.ai.table import PlayState
from engine.cards import ALL_CARDS, Card
from engine.game import Playing
from engine.legal import sure_throws
from engine.shapes import Holding, decompose, unbeatable_by, unit_cards
from engine.views import seat_view
from tests.engine.test_ai_inference import CASES, _position


def _outstanding_oracle(state: PlayState, seat: int, suit: int) -> Holding:
    """The seat's own cards (and a kitty it buried) counted by suit, then taken from the
    unplayed cards of ``suit``."""
    eff, ident = state.ctx.eff, state.ctx.ident
    mine: dict[int, Holding] = {}
    held = state.hands[seat] + state.kitty if seat == state.taker else state.hands[seat]
    for card in held:
        counts = mine.setdefault(eff[card.index], {})
        counts[ident[card.index]] = counts.get(ident[card.index], 0) + 1
    found = dict(state.remaining.get(suit, {}))
    for key, k in mine.get(suit, {}).items():
        left = found[key] - k
        if left:
            found[key] = left
        else:
            del found[key]
    return found


def _mover(preset: str, seed: int, tricks: int, into: int) -> Knowledge:
    """What the seat to play knows at ``_position``."""
    game = _position(preset, seed, tricks, into)
    phase = game.phase
    assert isinstance(phase, Playing)
    return Knowledge.from_view(seat_view(game, phase.turn))


@pytest.mark.parametrize(("preset", "seed", "tricks", "into"), CASES[::3])
def test_unseen_cards_by_suit_are_the_straightforward_count(
        preset: str, seed: int, tricks: int, into: int) -> None:
    knowledge = _mover(preset, seed, tricks, into)
    rng = random.Random(seed)
    for _ in range(3):
        world = knowledge.world(rng)
        suits = set(world.remaining) | {world.ctx.eff[c.index] for h in world.hands for c in h}
        while not world.done:  # (counted once, then kept up to date by every play)
            for seat in range(world.players):
                out = world.unseen(seat)
                for suit in sorted(suits):
                    # (the same keys in the same order: the policy iterates holdings)
                    assert list(out[suit].items()) == \
                        list(_outstanding_oracle(world, seat, suit).items())
            world.play(choose_play(world, world.turn))
        copy = world.copy()  # (a copy counts afresh)
        assert all(unseen is None for unseen in copy._unseen)


@pytest.mark.parametrize(("preset", "seed", "tricks", "into"),
                         [case for case in CASES[1::4] if case[2] < 16])  # (leads to come)
def test_decompositions_shared_by_the_worlds_are_the_engines(
        preset: str, seed: int, tricks: int, into: int) -> None:
    knowledge = _mover(preset, seed, tricks, into)
    rng = random.Random(seed)
    worlds = [knowledge.world(rng) for _ in range(3)]
    for world in worlds:
        playout(world)
        assert world.decomposed is knowledge.decomposed
    assert knowledge.decomposed  # (the play-outs led)
    width = knowledge.prules.lead_width
    ctx = knowledge.ctx
    for indices, parts in knowledge.decomposed.items():
        cards = [ALL_CARDS[i] for i in indices]
        assert parts.units == decompose(cards, ctx, width)
        assert parts.cards == [unit_cards(u, cards, ctx) for u in parts.units]
        assert parts.points == [sum(c.points for c in u) for u in parts.cards]
        assert parts.low is min(cards, key=lambda c: (c.points, ctx.strength[c.index]))
        assert parts.top is max(cards, key=lambda c: ctx.strength[c.index])


def test_the_first_sure_throw_is_the_engines() -> None:
    # every suit of every hand, against what each seat has not seen, at every lead of
    # play-outs from the positions (and against no unseen cards at all: every group sure)
    throws = 0
    for preset, seed, tricks, into in CASES:
        if tricks < 14:
            throws += _sure_throws_agree(_mover(preset, seed, tricks, into), seed)
    assert throws > 20  # (the positions lead throws)


def _sure_throws_agree(knowledge: Knowledge, seed: int) -> int:
    ctx, width = knowledge.ctx, knowledge.prules.lead_width
    rng = random.Random(seed)
    throws = 0
    for _ in range(2):
        world = knowledge.world(rng)
        while not world.done:
            if world.lead is None:
                seat = world.turn
                by_suit: dict[int, list[Card]] = {}
                for card in world.hands[seat]:
                    by_suit.setdefault(ctx.eff[card.index], []).append(card)
                for suit, cards in by_suit.items():
                    parts = suit_parts(cards, ctx, width)
                    for other in (world.unseen(seat)[suit], {}):
                        winning = [unbeatable_by(u, other, ctx) for u in parts.units]
                        expected = sure_throws(cards, other, ctx, width)
                        got = first_sure_throw(parts, winning, other, ctx, width)
                        assert got == (expected[0] if expected else None)
                        throws += got is not None
            world.play(choose_play(world, world.turn))
    return throws
