"""Random legal decisions for the TableService's computer seats: fast, rule-only seat
filling for tests (the bot uses ``bot.ai.EngineDeciders``)."""

from __future__ import annotations

import random

from engine.actions import Action, Declare
from engine.game import Dealing, Game
from engine.legal import legal_declarations
from engine.simulate import random_action


class RandomDeciders:
    """`Deciders` that play a random legal action and declare now and then."""

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
