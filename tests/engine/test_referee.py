"""One referee (issue 12 item 5): the computer players' fast simulator
(``engine.ai.table.PlayState``) and the game rule every trick, failed throw and hand of
random play alike, because both ask ``engine.referee``. Should either grow a ruling of its
own, these random hands find where they part."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Play
from engine.ai.table import PlayState, attackers_win
from engine.cards import Card
from engine.game import Game, HandOver, MatchOver, Playing
from engine.plays import Lead, trick_winner
from engine.rules import PRESETS, ruleset
from engine.scoring import ATTACKERS, HandResult
from engine.shapes import decompose, unit_cards
from engine.simulate import random_action
from engine.teams import Formation

# the presets whose sides are known when play starts (find-friends' change mid-hand)
SETTLED = sorted(p for p in PRESETS if ruleset(p).teams is not Formation.CALLED)


def _to_play(game: Game, rng: random.Random) -> Playing:
    while not isinstance(game.phase, Playing):
        action = random_action(game, rng)
        assert action is not None
        game.apply(action)
    return game.phase


def _bold_throw(game: Game, phase: Playing, rng: random.Random) -> tuple[Card, ...] | None:
    """Two components of one suit of the leader's hand, thrown whether they stand or not
    (random legal play only throws what surely stands)."""
    ctx = phase.ctx
    by_suit: dict[int, list[Card]] = {}
    for card in phase.hands[phase.turn]:
        by_suit.setdefault(ctx.eff[card.index], []).append(card)
    suits = [cards for cards in by_suit.values()
             if len(decompose(cards, ctx, game.rules.max_width)) >= 2]
    if not suits or not game.play_rules.throws:
        return None
    cards = rng.choice(suits)
    units = decompose(cards, ctx, game.rules.max_width)
    picked = rng.sample(units, 2)
    return tuple(c for u in picked for c in unit_cards(u, cards, ctx))


@settings(max_examples=30)
@given(preset=st.sampled_from(SETTLED), seed=st.integers(0, 10**6),
       penalty=st.sampled_from([0, 10]))
def test_the_simulator_and_the_game_rule_random_hands_alike(preset: str, seed: int,
                                                           penalty: int) -> None:
    rng = random.Random(seed)
    game = Game(ruleset(preset, throw_penalty=penalty), seed)
    start = _to_play(game, rng)
    hands = [list(h) for h in start.hands]
    sim = PlayState(game.rules, game.play_rules, start.ctx, start.dealer, start.taker,
                    hands, list(start.kitty), start.turn, start.attacker_points,
                    remaining=PlayState.tally([c for h in hands for c in h] + list(start.kitty),
                                              start.ctx),
                    voids=[set() for _ in hands], defenders=frozenset(start.sides.defenders))
    result: HandResult | None = None
    while isinstance(game.phase, Playing):
        phase = game.phase
        assert sim.turn == phase.turn
        cards = _bold_throw(game, phase, rng) if phase.trick.lead is None and \
            rng.random() < 0.4 else None
        action = Play(phase.turn, cards) if cards else random_action(game, rng)
        assert isinstance(action, Play)
        events = game.apply(action)
        sim.play(action.cards)
        for ev in events:
            if ev.kind == "trick_won":  # the same winner, the same points, failed throws too
                assert (sim.leader, sim.attacker_points) == (ev.seat, ev.get("attacker_points"))
            elif ev.kind == "played" and sim.plays:
                assert sim.plays[-1] == (ev.seat, ev.cards)  # a failed throw's forced play
            elif ev.kind == "hand_scored":
                result = ev.get("result")
    assert isinstance(game.phase, (HandOver, MatchOver)) and result is not None
    assert sim.total == result.attacker_points
    assert attackers_win(game.rules, result.attacker_points, result.bid) == (
        result.side == ATTACKERS if result.bid is not None else result.row.take_over)


@settings(max_examples=30)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10**6))
def test_a_trick_has_one_winner_whoever_asks(preset: str, seed: int) -> None:
    """``PlayRules.trick_winner``, the referee's ``trick_winner`` and the winner the game
    names agree (the play rules' method is the referee's function)."""
    rng = random.Random(seed)
    game = Game(ruleset(preset), seed)
    _to_play(game, rng)
    while isinstance(game.phase, Playing):
        phase = game.phase
        action = random_action(game, rng)
        assert isinstance(action, Play)
        events = game.apply(action)
        won = [ev for ev in events if ev.kind == "trick_won"]
        if won:
            trick = phase.trick.plays + ((action.seat, action.cards),)
            lead: Lead = game.play_rules.lead(trick[0][1], phase.ctx) \
                if phase.trick.lead is None else phase.trick.lead
            plays = [cards for _, cards in trick]
            index = trick_winner(game.play_rules, lead, plays, phase.ctx)
            assert game.play_rules.trick_winner(lead, plays, phase.ctx) == index
            assert trick[index][0] == won[0].seat
