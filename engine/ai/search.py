"""Determinized Monte Carlo search for card play (the ``normal`` and ``hard`` levels).

For each of ``worlds`` sampled worlds (``Knowledge.world``: the unseen cards dealt
consistently with what the seat knows), every candidate play (the heuristic's best few)
is played, then the hand is played out by the heuristic for every seat, and scored
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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from engine.ai.bidding import bury_order
from engine.ai.inference import likely_worlds
from engine.ai.knowledge import Knowledge
from engine.ai.policy import _RulesOnly, candidates, choose_play
from engine.ai.table import Cards, PlayState, attackers_win, distinct, take_over_threshold
from engine.cards import Card
from engine.legal import legal_follows
from engine.order import TRUMP, TrumpContext


@dataclass(frozen=True)
class Budget:
    worlds: int  # sampled worlds per decision
    candidates: int  # plays compared
    time_limit: float | None  # seconds; None: no clock at all (fully deterministic)
    endgame: int = 2  # exact search when the seat holds at most this many cards
    confidence: float = 1.0  # leave the heuristic's play only when another is this many
    #                          standard errors better on the sampled worlds
    extra_worlds: int = 0  # more worlds for the heuristic's play and close challengers
    inference: int = 0  # when > 0: sample this many times the worlds and keep those that
    #                     best explain the other seats' plays (``engine.ai.inference``)
    inference_tricks: int | None = None  # inference reads the plays of the last this many
    #                                      tricks only (None: the whole hand so far)


def utility(state: PlayState, seat: int, threshold: int) -> float:
    """1 for a won hand plus a small margin term in (-0.3, 0.3), for ``seat``'s team."""
    assert state.total is not None
    total = state.total
    attackers = attackers_win(state.rules, total, state.bid)
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
    best = -math.inf if state.same_side(mover, seat) else math.inf
    for cards in options:
        child = state.copy()
        child.play(cards)
        value = _exact(child, seat, threshold)
        if state.same_side(mover, seat):
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
    # the candidates read only the seat's own hand and public facts: any world will do
    options = candidates(knowledge.world(rng), seat, limit=budget.candidates)
    if len(options) == 1:
        return options[0]
    worlds = _worlds(knowledge, rng, budget, budget.worlds, start)
    threshold = take_over_threshold(knowledge.rules, knowledge.view.bid)
    exact = len(knowledge.view.hand) <= budget.endgame
    values: list[list[float]] = [[] for _ in options]

    def over() -> bool:
        return budget.time_limit is not None and \
            time.perf_counter() - start > budget.time_limit

    def evaluate(worlds: list[PlayState], which: list[int]) -> None:
        for n, world in enumerate(worlds):
            for i in which:
                # (checked per play-out: with 5 or 6 seats one world of every
                # candidate is already a large part of the time limit)
                if n and over():
                    return
                child = world.copy()
                child.play(options[i])
                if exact:
                    values[i].append(_exact(child, seat, threshold))
                else:
                    playout(child)
                    values[i].append(utility(child, seat, threshold))

    evaluate(worlds, list(range(len(options))))
    if budget.extra_worlds and not over():
        # a challenger that looks better but not surely so: sample more worlds for it
        close = [i for i in range(1, len(options))
                 if 0.3 <= _z(values[i], values[0]) < budget.confidence]
        if close:
            contenders = [0] + close
            for i in range(len(options)):
                if i not in contenders:
                    values[i] = []
            evaluate(_worlds(knowledge, rng, budget, budget.extra_worlds, start), contenders)
    return options[_pick(values, budget.confidence)]


def _worlds(knowledge: Knowledge, rng: random.Random, budget: Budget, count: int,
            start: float) -> list[PlayState]:
    """``count`` sampled worlds: uniform, or the likeliest of ``count × budget.inference``
    given the other seats' plays (inference stops early under load: a third of the
    time limit at most)."""
    if not budget.inference:
        return [knowledge.world(rng) for _ in range(count)]
    deadline = None if budget.time_limit is None else start + budget.time_limit / 3
    return likely_worlds(knowledge, rng, count, count * budget.inference, deadline,
                         recent=budget.inference_tricks)


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
    threshold = take_over_threshold(knowledge.rules, knowledge.view.bid)
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


# -- burying ------------------------------------------------------------------------------

def bury_candidates(hand: Sequence[Card], ctx: TrumpContext, size: int, limit: int
                    ) -> list[Cards]:
    """Burials worth comparing, the heuristic's first: then burials that void one or two
    short side suits (a void lets the taker's side ruff), topped up the heuristic's way."""
    order = bury_order(hand, ctx)
    eff = ctx.eff
    by_suit: dict[int, list[Card]] = {}
    for card in hand:
        if eff[card.index] != TRUMP:
            by_suit.setdefault(eff[card.index], []).append(card)
    short = sorted(by_suit, key=lambda s: (len(by_suit[s]), s))
    groups = [[s] for s in short] + [[a, b] for i, a in enumerate(short) for b in short[i + 1:]]

    def burials() -> Iterator[Cards]:
        yield tuple(order[:size])
        for group in groups:
            voided = [c for s in group for c in by_suit[s]]
            if len(voided) <= size:
                rest = [c for c in order if eff[c.index] not in group]
                yield tuple(voided + rest[: size - len(voided)])

    return distinct(burials(), limit)


def search_bury(knowledge: Knowledge, rng: random.Random, budget: Budget) -> Cards:
    """The burial that plays out best, by the same sampled-worlds comparison as card play
    (``knowledge`` is the taker's, holding the kitty, before burying)."""
    view = knowledge.view
    seat = knowledge.seat
    start = time.perf_counter()
    rules, ctx = knowledge.rules, knowledge.ctx
    options = bury_candidates(view.hand, ctx, rules.kitty_size, budget.candidates)
    if len(options) == 1:
        return options[0]
    assert view.dealer is not None
    threshold = take_over_threshold(rules, view.bid)
    values: list[list[float]] = [[] for _ in options]
    for n in range(budget.worlds):
        if n and budget.time_limit is not None and \
                time.perf_counter() - start > budget.time_limit:
            break
        hands, _ = knowledge.sample(rng)
        tally = PlayState.tally([c for h in hands for c in h], ctx)  # the kitty too
        for i, kitty in enumerate(options):
            world = [list(h) for h in hands]
            for card in kitty:
                world[seat].remove(card)
            state = PlayState(rules, knowledge.prules, ctx, view.dealer, seat, world,
                              list(kitty), view.dealer,
                              remaining={suit: dict(counts) for suit, counts in tally.items()},
                              voids=[set() for _ in hands], bid=view.bid)
            playout(state)
            values[i].append(utility(state, seat, threshold))
    return options[_pick(values, budget.confidence)]
