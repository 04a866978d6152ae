"""Computer players for the tables: the bridge from a table to ``engine.ai``.

The computer player is handed ``seat_view(game, seat)`` only: what a person in that
seat would see. ``easy`` (the heuristic) runs inline; ``normal`` and ``hard`` (search)
run in a worker process pool so the event loop keeps answering other tables. They decide
every phase: declaring, burying, the changzhu swap and play, and in find-friends and
three-bid bidding, naming the trump, calling friends and the level transfer
(``engine.ai.phases``). A decision that the engine would refuse, or a computer player
that fails (neither should ever happen), falls back to a legal one, so a table never
stalls: the after-hand choice's default (``bot.table_data.after_hand_default``: no level
moves), else a random one.
"""

from __future__ import annotations

import asyncio
import logging
import random

from bot.table_data import after_hand_default
from engine.actions import Action, Declare, Play
from engine.ai import AiPool, choose, choose_cards
from engine.cards import Card
from engine.errors import EngineError
from engine.game import Dealing, Game, Playing, apply
from engine.legal import check_play
from engine.shapes import as_multiset
from engine.simulate import random_action
from engine.views import seat_view

log = logging.getLogger(__name__)


class EngineDeciders:
    """``Deciders`` for the TableService, backed by ``engine.ai``."""

    def __init__(self, pool: AiPool) -> None:
        self.pool = pool

    async def _choose(self, game: Game, seat: int, level: str, seed: int) -> Action | None:
        """The computer player's decision; None where it failed (logged with its
        traceback), so that the caller's legal fallback plays instead."""
        view = seat_view(game, seat)
        try:
            if level == "easy":
                return choose(view, level, seed)
            return await self.pool.choose(view, level, seed, loop=asyncio.get_running_loop())
        except Exception:  # (a fault of the computer player must not stall its table)
            log.exception("the %s computer player in seat %d failed; choosing another way",
                          level, seat)
            return None

    async def decide(self, game: Game, seat: int, level: str, seed: int) -> Action:
        """``seat``'s decision now (the game waits for it): the computer player's, if the
        rules take it, else a legal fallback."""
        action = await self._choose(game, seat, level, seed)
        if isinstance(action, Declare):  # (declaring is asked by ``declaration``)
            action = None
        if action is not None:
            try:
                if isinstance(action, Play):
                    check_play(game, seat, action.cards)
                else:
                    apply(game.state, action)  # (a pure step: the game is not changed)
            except EngineError as exc:
                log.warning("computer player chose an illegal %s (%s); choosing another",
                            type(action).__name__, exc.code)
                action = None
        if action is None:
            action = after_hand_default(game.phase) or \
                random_action(game, random.Random(seed), declare_chance=0.0)
        assert action is not None
        return action

    async def declaration(self, game: Game, seat: int, level: str, seed: int
                          ) -> Declare | None:
        if not isinstance(game.phase, Dealing):
            return None
        action = await self._choose(game, seat, "easy" if level == "easy" else level, seed)
        return action if isinstance(action, Declare) else None

    def close(self) -> None:
        self.pool.close()


def rank_plays(game: Game, seat: int, plays: list[tuple[Card, ...]]) -> list[tuple[Card, ...]]:
    """Legal plays, best first, for autocomplete and the hand panel: the heuristic
    player's choice for this seat first (from the seat's own view), then the rest."""
    if not plays or not isinstance(game.phase, Playing):
        return plays
    try:
        best = as_multiset(choose_cards(seat_view(game, seat), "easy", 0))
    except Exception:  # (the person's hand panel and autocomplete must still show)
        log.exception("the heuristic failed to rank seat %d's plays; listed unranked", seat)
        return plays
    first: list[tuple[Card, ...]] = []
    rest: list[tuple[Card, ...]] = []
    for play in plays:
        (first if as_multiset(play) == best else rest).append(play)
    return first + rest
