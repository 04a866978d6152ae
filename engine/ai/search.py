"""Determinized Monte Carlo search for card play (the ``normal`` and ``hard`` levels).

For each of ``worlds`` sampled worlds (``Knowledge.world``: the unseen cards dealt
consistently with what the seat knows), every candidate play (the heuristic's best few)
is played, then the hand is played out by the heuristic for all four seats, and scored
for the searching seat's team (``utility``). The same worlds serve every candidate. With
few cards left, the play-out is replaced by an exact search of the world (every seat
choosing among its plays, each side maximising its own utility).

A time limit only stops sampling early under load; without it (or below it) the
decision is a function of the view and the seed alone.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai.knowledge import Knowledge
from engine.ai.policy import _RulesOnly, candidates, choose_play
from engine.ai.table import Cards, PlayState, attackers_win, take_over_threshold
from engine.legal import legal_follows


@dataclass(frozen=True)
class Budget:
    worlds: int  # sampled worlds per decision
    candidates: int  # plays compared
    time_limit: float | None  # seconds; None: no clock at all (fully deterministic)
    endgame: int = 2  # exact search when the seat holds at most this many cards
    confidence: float = 1.0  # leave the heuristic's play only when another is this many
    #                          standard errors better on the sampled worlds
    extra_worlds: int = 0  # more worlds for the heuristic's play and close challengers


def utility(state: PlayState, seat: int, threshold: int) -> float:
    """1 for a won hand plus a small margin term in (-0.3, 0.3), for ``seat``'s team."""
    assert state.total is not None
    total = state.total
    attackers = attackers_win(state.rules, total)
    mine_attacks = not state.is_defender(seat)
    won = attackers == mine_attacks
    margin = math.tanh((total - threshold) / 40.0) * 0.3
    return (1.0 if won else 0.0) + (margin if mine_attacks else -margin)


def playout(state: PlayState) -> None:
    while not state.done:
        state.play(choose_play(state, state.turn))


def _exact(state: PlayState, seat: int, threshold: int) -> float:
    """Value of ``state`` for ``seat``'s team when every seat plays its best (small hands)."""
    if state.done:
        return utility(state, seat, threshold)
    mover = state.turn
    options = _all_plays(state, mover)
    best = -math.inf if mover % 2 == seat % 2 else math.inf
    for cards in options:
        child = state.copy()
        child.play(cards)
        value = _exact(child, seat, threshold)
        if mover % 2 == seat % 2:
            best = max(best, value)
        else:
            best = min(best, value)
    return best


def _all_plays(state: PlayState, seat: int) -> list[Cards]:
    if state.lead is None:
        out = candidates(state, seat, limit=6)
        for card in set(state.hands[seat]):
            if (card,) not in out:
                out.append((card,))
        return out
    if state.lead.size == 1:
        led = {c for c in state.hands[seat] if state.ctx.eff[c.index] == state.lead.suit}
        if led:
            return [(c,) for c in led]
        return candidates(state, seat, limit=4)
    follows = legal_follows(_RulesOnly(state), state.lead, state.hands[seat],  # type: ignore[arg-type]
                            state.ctx)
    return follows[:6] if follows else candidates(state, seat, limit=4)


def search_play(knowledge: Knowledge, rng: random.Random, budget: Budget) -> Cards:
    seat = knowledge.seat
    start = time.perf_counter()
    first = knowledge.world(rng)
    options = candidates(first, seat, limit=budget.candidates)
    if len(options) == 1:
        return options[0]
    threshold = take_over_threshold(knowledge.rules)
    exact = len(knowledge.view.hand) <= budget.endgame
    values: list[list[float]] = [[] for _ in options]

    def sample(worlds: int, which: list[int], first_world: PlayState | None) -> None:
        for n in range(worlds):
            if first_world is None or n:
                if budget.time_limit is not None and \
                        time.perf_counter() - start > budget.time_limit:
                    return
                world = knowledge.world(rng)
            else:
                world = first_world
            for i in which:
                child = world.copy()
                child.play(options[i])
                if exact:
                    values[i].append(_exact(child, seat, threshold))
                else:
                    playout(child)
                    values[i].append(utility(child, seat, threshold))

    sample(budget.worlds, list(range(len(options))), first)
    if budget.extra_worlds:
        # a challenger that looks better but not surely so: sample more worlds for it
        close = [i for i in range(1, len(options))
                 if 0.3 <= _z(values[i], values[0]) < budget.confidence]
        if close:
            contenders = [0] + close
            for i in range(len(options)):
                if i not in contenders:
                    values[i] = []
            sample(budget.extra_worlds, contenders, None)
    return options[_pick(values, budget.confidence)]


def _z(values: list[float], base: list[float]) -> float:
    """Mean paired difference over its standard error (0 when undefined)."""
    n = min(len(values), len(base))
    if n < 2:
        return 0.0
    diffs = [a - b for a, b in zip(values, base)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if var == 0:
        return math.inf if mean > 0 else 0.0
    return mean / math.sqrt(var / n)


def _pick(values: list[list[float]], confidence: float) -> int:
    """The heuristic's choice (index 0) unless another play beats it on the same worlds
    by more than ``confidence`` standard errors of the paired difference."""
    best, best_mean = 0, 0.0
    base = values[0]
    for i in range(1, len(values)):
        n = min(len(values[i]), len(base))
        if n < 2:
            continue
        mean = sum(a - b for a, b in zip(values[i], base)) / n
        if mean > best_mean and _z(values[i], base) > confidence:
            best, best_mean = i, mean
    return best


def rank_plays(knowledge: Knowledge, rng: random.Random, budget: Budget
               ) -> Sequence[tuple[Cards, float]]:
    """Every compared play with its mean value (for hints and tests)."""
    seat = knowledge.seat
    threshold = take_over_threshold(knowledge.rules)
    worlds = [knowledge.world(rng) for _ in range(budget.worlds)]
    options = candidates(worlds[0], seat, limit=budget.candidates)
    out = []
    for cards in options:
        value = 0.0
        for world in worlds:
            child = world.copy()
            child.play(cards)
            playout(child)
            value += utility(child, seat, threshold)
        out.append((cards, value / len(worlds)))
    return sorted(out, key=lambda kv: -kv[1])
