"""Sampling worlds from what a seat knows: the plan made once per decision against the
straightforward sampling that rebuilt it for every world (kept here as the oracle)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.ai.knowledge import Knowledge
from engine.ai.table import PlayState
from engine.cards import Card
from engine.game import Playing
from engine.referee import play_key, trick_winner
from engine.views import seat_view
from tests.engine.test_ai_inference import CASES, _position


def _sample_oracle(knowledge: Knowledge, rng: random.Random
                   ) -> tuple[list[list[Card]], list[Card]]:
    view = knowledge.view
    players = view.players
    seat = knowledge.seat
    kitty_slot = players
    capacity = [view.hand_sizes[s] if s != seat else 0 for s in range(players)]
    capacity.append(0 if knowledge.kitty_known else knowledge.rules.kitty_size)
    pool = Counter(knowledge.unseen)
    base: list[list[Card]] = [[] for _ in range(players + 1)]
    for who, cards in knowledge.fixed.items():
        base[who] = list(cards)
        capacity[who] -= len(cards)
        pool.subtract(cards)
    cards = list(pool.elements())
    eff = knowledge.ctx.eff
    allowed_by_suit: dict[int, list[int]] = {}
    for card in cards:
        suit = eff[card.index]
        if suit not in allowed_by_suit:
            allowed_by_suit[suit] = [s for s in range(players + 1)
                                     if capacity[s] > 0 and
                                     (s == kitty_slot or suit not in knowledge.voids[s])]
    for attempt in range(30):
        respect_voids = attempt < 29
        rng.shuffle(cards)
        order = sorted(cards, key=lambda c: len(allowed_by_suit[eff[c.index]])) \
            if respect_voids else cards
        left = list(capacity)
        slots = [list(h) for h in base]
        ok = True
        for card in order:
            options = allowed_by_suit[eff[card.index]] if respect_voids else \
                [s for s in range(players + 1) if capacity[s] > 0]
            weights = [left[s] for s in options]
            total = sum(weights)
            if total == 0:
                ok = False
                break
            pick = rng.randrange(total)
            for s, w in zip(options, weights):  # noqa: B007 - the pick is used after
                if pick < w:
                    break
                pick -= w
            slots[s].append(card)
            left[s] -= 1
        if ok:
            break
    hands = slots[:players]
    hands[seat] = list(view.hand)
    for hand in hands:
        hand.sort(key=lambda c: c.index)
    kitty = list(view.kitty) if knowledge.kitty_known else slots[kitty_slot]
    return hands, kitty


def _table_oracle(knowledge: Knowledge, state: PlayState) -> dict[str, object]:
    """What ``world_from`` set from the view alone, computed afresh for every world."""
    view = knowledge.view
    trick = list(view.trick)
    mine = list(view.hand) + (list(view.kitty) if knowledge.kitty_known else [])
    remaining = PlayState.tally(mine + list(knowledge.unseen.elements()), knowledge.ctx)
    won = [0] * view.players
    for _, winner, pts in view.tricks:
        won[winner] += pts
    expected: dict[str, object] = {
        "remaining": [(suit, list(counts.items())) for suit, counts in remaining.items()],
        "won": won, "calls": knowledge.calls(),
        "leader": trick[0][0] if trick else view.turn,
        "plays": [(s, tuple(c)) for s, c in trick], "lead": None, "best": 0,
        "best_key": None}
    if trick:
        prules, ctx = knowledge.prules, knowledge.ctx
        lead = prules.lead(trick[0][1], ctx)
        best = trick_winner(prules, lead, [cards for _, cards in trick], ctx)
        expected.update(lead=lead, best=best,
                        best_key=play_key(prules, lead, trick[best][1], ctx))
    return expected


def _table_of(state: PlayState) -> dict[str, object]:
    return {"remaining": [(suit, list(counts.items()))
                          for suit, counts in state.remaining.items()],
            "won": state.won, "calls": state.calls, "leader": state.leader,
            "plays": state.plays, "lead": state.lead, "best": state.best,
            "best_key": state.best_key}


@pytest.mark.parametrize(("preset", "seed", "tricks", "into"), CASES)
def test_samples_and_worlds_are_the_straightforward_ones(
        preset: str, seed: int, tricks: int, into: int) -> None:
    game = _position(preset, seed, tricks, into)
    phase = game.phase
    assert isinstance(phase, Playing)
    for seat in range(game.rules.players):  # (the seat to move and the others)
        knowledge = Knowledge.from_view(seat_view(game, seat))
        fast, slow = random.Random(seed), random.Random(seed)
        for _ in range(4):
            hands, kitty = knowledge.sample(fast)
            assert (hands, kitty) == _sample_oracle(knowledge, slow)
            world = knowledge.world_from(hands, kitty)
            assert _table_of(world) == _table_oracle(knowledge, world)
            if world.lead is None:
                world.play(world.hands[world.turn][:1])
        # (a world's tables are its own: playing in one leaves the next as it was)
        assert _table_of(knowledge.world_from(hands, kitty)) == \
            _table_oracle(knowledge, world)


def test_the_positions_hold_face_up_declaration_cards() -> None:
    # (so that the comparison above covers cards known to be in a hand)
    found = 0
    for preset, seed, tricks, into in CASES[:10]:
        game = _position(preset, seed, tricks, into)
        found += sum(bool(Knowledge.from_view(seat_view(game, s)).fixed)
                     for s in range(game.rules.players))
    assert found
