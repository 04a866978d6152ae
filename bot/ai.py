"""Computer players for the tables: the bridge from a game to the engine's players.

Until the engine's own computer players arrive (issue 5) every level plays random legal
moves. Whatever plays, it decides from what its seat may know: legal moves come from
``engine.legal``, which judges throws by the seat's own knowledge.
"""

from __future__ import annotations

import random

from engine.actions import Action, Declare
from engine.cards import Card
from engine.game import Dealing, Game, Playing
from engine.legal import constructive_follow, legal_declarations
from engine.order import TRUMP
from engine.simulate import random_action


class RandomDeciders:
    """Random legal decisions for the seat the game waits for."""

    def __init__(self, declare_chance: float = 0.05) -> None:
        self.declare_chance = declare_chance

    async def decide(self, game: Game, seat: int, level: str, seed: int) -> Action:
        action = random_action(game, random.Random(seed), declare_chance=0.0)
        assert action is not None
        return action

    async def declaration(self, game: Game, seat: int, level: str, seed: int
                          ) -> Declare | None:
        rng = random.Random(seed)
        if not isinstance(game.phase, Dealing) or rng.random() >= self.declare_chance:
            return None
        options = legal_declarations(game, seat)
        return Declare(seat, rng.choice(options)) if options else None


def rank_plays(game: Game, seat: int, plays: list[tuple[Card, ...]]) -> list[tuple[Card, ...]]:
    """Legal plays, best first, for autocomplete and hints: on a lead, bigger combinations
    and higher cards first; on a follow, the engine's constructive (cheapest legal) follow
    first, then the rest from the strongest."""
    phase = game.phase
    if not isinstance(phase, Playing):
        return plays
    ctx = phase.ctx

    def strength(cards: tuple[Card, ...]) -> tuple[int, int, int]:
        top = max((ctx.eff[c.index] == TRUMP, ctx.strength[c.index]) for c in cards)
        return (len(cards), int(top[0]), top[1])
    if phase.trick.lead is None:
        return sorted(plays, key=strength, reverse=True)
    first = constructive_follow(game, phase.trick.lead, phase.hands[seat], ctx)
    rest = sorted((p for p in plays if sorted(p) != sorted(first or ())), key=strength,
                  reverse=True)
    return ([first] if first in plays else []) + rest
