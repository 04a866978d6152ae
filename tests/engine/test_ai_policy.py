"""The play-out policy's shortcuts against the straightforward computations they replace."""

from __future__ import annotations

import random

import pytest

from engine.ai.knowledge import Knowledge
from engine.ai.policy import choose_play
from engine.ai.search import playout
from engine.ai.table import PlayState
from engine.cards import ALL_CARDS
from engine.game import Playing
from engine.shapes import Holding, decompose
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
    for indices, units in knowledge.decomposed.items():
        assert units == decompose([ALL_CARDS[i] for i in indices], knowledge.ctx, width)
