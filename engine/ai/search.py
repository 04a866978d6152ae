"""Determinized Monte Carlo search for card play (the ``normal`` and ``hard`` levels).

For each of ``worlds`` sampled worlds (``Knowledge.world``: the unseen cards dealt
consistently with what the seat knows), every candidate play (the heuristic's best few)
is played, then the hand is played out by the heuristic for every seat, and scored
for the searching seat's team (``utility``). The same worlds serve every candidate. With
few cards left, the play-out is replaced by an exact search of the world (every seat
choosing among its plays, each side maximising its own utility).

The budget is counted in simulations (worlds × plays compared), or in simulated cards
(``Budget.cards``: play-outs × the cards left to play, so that the long play-outs of the
first tricks get fewer worlds and the short ones of the last tricks more), so a decision
is a function of the view and the seed alone, on any machine; the time limit is only a
safety net against a pathological position on an overloaded machine.

Deciding on noisy estimates, by racing on common worlds: every candidate is played on
the same worlds; after each round the plays clearly worse than the leader (by ``drop_z``
standard errors of the paired difference and more than ``min_gain``) are dropped, and if
more than half remain, the lower means go too; but a challenger clearly better than the
heuristic's play (``keep_z``) is never dropped, nor the heuristic's play unless it is
clearly worse; with ``equal_z``, a challenger that cannot beat the heuristic's play by
``min_gain`` (its mean gain plus ``equal_z`` standard errors stays under it) goes too,
so that a decided hand stops after the first round. Each round spends an equal share
of what is left of the budget on the survivors, so the close contenders get the most
worlds. At the end the best mean wins, on every round's worlds (``judge_all``) or on the
last round's only (the earlier ones selected the survivors, so they flatter them), with
a preference for the heuristic's first choice of ``prefer`` standard errors, which
shrinks as the worlds grow (and a gain under ``min_gain`` never counts: near-certain
outcomes differ by a margin term of a point or two, which the test would call
significant). A play that certainly wins a trick holding points is never given up for
one that does not (``certain_points``): a sampled estimate cannot see points the seat is
sure of better than the seat itself; nor is a trick the heuristic's play surely loses
given more points by another play that surely loses it (``certain_loss``); nor is the
heuristic's play given up for a lead the opponents are known to be able to ruff
(``ruffable_lead``: the play-outs misjudge those).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from engine.ai.bidding import buried_points_allowed, bury_order
from engine.ai.inference import (
    GUIDE_BURIAL_TRIES,
    GUIDE_PROBES,
    GUIDE_TRIES,
    GuideEffort,
    guided_worlds,
    likely_worlds,
)
from engine.ai.knowledge import Knowledge
from engine.ai.policy import (
    _RulesOnly,
    candidates,
    certain_loss,
    certain_win,
    choose_play,
    ruffable_lead,
)
from engine.ai.table import Cards, PlayState, attackers_win, distinct, take_over_threshold
from engine.cards import Card
from engine.legal import legal_follows
from engine.order import TRUMP, TrumpContext


@dataclass(frozen=True)
class Budget:
    worlds: int  # sampled worlds per candidate in the first round (at least)
    candidates: int  # plays compared
    time_limit: float | None  # seconds: a safety net only; None: no clock at all
    endgame: int = 2  # exact search when the seat holds at most this many cards
    inference: int = 0  # when > 0: worlds that explain the other seats' plays
    #                     (``engine.ai.inference``); the "pool" sampler samples this many
    #                     times the worlds and keeps the likeliest
    simulations: int = 0  # play-outs per decision (0: ``worlds`` × ``candidates``)
    rounds: int = 1  # racing rounds: the survivors of each share the rest of the budget
    drop_z: float = 2.0  # a play this many standard errors below the leader is dropped
    keep_z: float = 2.0  # a challenger this many above the heuristic's play is kept
    prefer: float = 1.0  # the heuristic's play wins unless beaten by this many errors
    min_gain: float = 0.01  # and by at least this much utility (a point or two)
    inference_tricks: int | None = None  # inference reads the plays of the last this many
    #                                      tricks only (None: the whole hand so far)
    inference_partners: bool = True  # inference reads the partners' plays and burial
    #                                  too (False: the opponents' only)
    cards: int = 0  # when > 0: the budget in simulated cards (play-outs × the cards left
    #                 to play), so long play-outs get fewer worlds; ``simulations`` is then
    #                 the most play-outs, ``least`` the fewest
    least: int = 0
    judge_all: bool = False  # the final pick reads every round's worlds, not the last's
    equal_z: float = 0.0  # when > 0: a play that cannot beat the leader by ``min_gain``
    #                       (``equal_z`` errors over its mean gain) is dropped too
    sampler: str = "pool"  # with inference: "pool" keeps the likeliest of ``inference``
    #                        times the worlds; "guided" deals each world to explain the
    #                        plays as it replays them (``inference.guided_worlds``)
    guide_tries: int = GUIDE_TRIES  # guided dealing: repairs of one read play at most,
    guide_probes: int = GUIDE_PROBES  # random swaps tried for one card,
    guide_burial_tries: int = GUIDE_BURIAL_TRIES  # and swaps tried for the burial
    guide_select: int = 1  # > 1: that many times the worlds guided, the fewest
    #                        contradictions of the table kept

    def total(self, plays: int, length: int = 0) -> int:
        """Play-outs for a decision among ``plays`` with ``length`` cards left to play."""
        if self.cards and length:
            return max(self.least, min(self.simulations, self.cards // length))
        return max(self.simulations, self.worlds * min(plays, self.candidates))

    def round_worlds(self, spent: int, round_: int, alive: int, plays: int,
                     length: int = 0) -> int:
        """Worlds for round ``round_`` (from 0) with ``alive`` plays left."""
        share = (self.total(plays, length) - spent) // (self.rounds - round_)
        first = self.worlds if round_ == 0 else 1
        return max(first, share // max(1, alive))


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
    here = knowledge.world(rng)
    options = candidates(here, seat, limit=budget.candidates)
    options = certain_points(here, seat, options)
    options = options[:1] + [o for o in options[1:] if not ruffable_lead(here, seat, o)]
    if len(options) == 1:
        return options[0]
    threshold = take_over_threshold(knowledge.rules, knowledge.view.bid)
    exact = len(knowledge.view.hand) <= budget.endgame

    def over() -> bool:
        return budget.time_limit is not None and \
            time.perf_counter() - start > budget.time_limit

    def evaluate(count: int, which: list[int], into: list[list[float]]) -> bool:
        for n, world in enumerate(_worlds(knowledge, rng, budget, count, start)):
            for i in which:
                # (checked per play-out: with 5 or 6 seats one world of every
                # candidate is already a large part of the time limit)
                if n and over():
                    return False
                child = world.copy()
                child.play(options[i])
                if exact:
                    into[i].append(_exact(child, seat, threshold))
                else:
                    playout(child)
                    into[i].append(utility(child, seat, threshold))
        return not over()

    length = sum(len(h) for h in here.hands)  # cards left to play, the trick's too
    return options[race(len(options), budget, exact, evaluate, length)]


#: ``play(count, alive, values)`` plays every play of ``alive`` on ``count`` fresh common
#: worlds, appending each value to ``values[i]``; False: out of time, stop the race
Evaluate = Callable[[int, list[int], list[list[float]]], bool]


def race(plays: int, budget: Budget, exact: bool, play: Evaluate, length: int = 0) -> int:
    """The index of the play chosen among ``plays`` by racing them on common worlds
    (the module's docstring); ``exact``: the values are exact, one round says it all;
    ``length``: the cards left to play (for a budget in cards)."""
    values: list[list[float]] = [[] for _ in range(plays)]
    alive = list(range(plays))
    spent = 0
    fresh = 0  # the worlds of the round since the last selection
    rounds = 1 if exact else budget.rounds
    for round_ in range(rounds):
        count = budget.round_worlds(spent, round_, len(alive), plays, length)
        going = play(count, alive, values)
        spent += count * len(alive)
        if round_ + 1 == rounds or not going:
            break
        alive = survivors(values, alive, budget)
        fresh = len(values[alive[0]])
        if len(alive) == 1:
            break
    # the survivors were chosen for their means on the earlier worlds, which flatter
    # them (the winner's curse), yet discarding those worlds costs more than the curse
    # on fixed positions (bench/ai_rule.py): hard reads them all
    if budget.judge_all:
        return pick(values, alive, budget)
    return pick([v[fresh:] for v in values], alive, budget)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else -math.inf


def survivors(values: list[list[float]], alive: list[int], budget: Budget) -> list[int]:
    """The plays of ``alive`` worth more worlds (see the module's docstring): not clearly
    worse than the leader, at most half of them (the better means), but always a
    challenger clearly better than the heuristic's play (index 0), and that play unless
    it is clearly worse."""
    leader = max(alive, key=lambda i: (_mean(values[i]), -i))
    worse = {i for i in alive if i != leader and
             _clearly_better(values[leader], values[i], budget.drop_z, budget.min_gain)}
    if budget.equal_z and 0 in alive and 0 not in worse:
        # (a play that cannot beat the heuristic's by a gain that counts is never picked)
        worse |= {i for i in alive if i and
                  _cannot_gain(values[i], values[0], budget.equal_z, budget.min_gain)}
    kept = [i for i in alive if i not in worse]
    clear = {i for i in kept if i and
             _clearly_better(values[i], values[0], budget.keep_z, budget.min_gain)}
    protected = clear | ({0, leader} & set(kept))
    room = max(len(protected), (len(alive) + 1) // 2)
    others = sorted((i for i in kept if i not in protected),
                    key=lambda i: (-_mean(values[i]), i))
    return sorted(protected | set(others[: room - len(protected)]))


def _clearly_better(values: list[float], base: list[float], z: float, gain: float) -> bool:
    """``values`` beats ``base`` on their common worlds by ``z`` standard errors of the
    paired difference and by more than ``gain`` on average."""
    n = min(len(values), len(base))
    mean = sum(a - b for a, b in zip(values, base)) / n if n else 0.0
    return mean > gain and _z(values, base) > z


def _cannot_gain(values: list[float], base: list[float], z: float, gain: float) -> bool:
    """``values`` beats ``base`` on their common worlds by less than ``gain`` on average
    with ``z`` standard errors of the paired difference to spare."""
    paired = _paired(values, base)
    return paired is not None and paired[0] + z * paired[1] < gain


def pick(values: list[list[float]], alive: list[int], budget: Budget) -> int:
    """The play of ``alive`` with the best mean, unless it beats the heuristic's play
    (index 0, when alive) by less than ``budget.prefer`` standard errors of the paired
    difference (a preference that shrinks as the worlds grow) or than ``budget.min_gain``
    on average (a gain too small to matter)."""
    ranked = sorted(alive, key=lambda i: (-_mean(values[i]), i))
    if 0 not in alive:
        return ranked[0]
    for i in ranked:
        if i == 0 or _clearly_better(values[i], values[0], budget.prefer, budget.min_gain):
            return i
    return 0


def certain_points(state: PlayState, seat: int, options: list[Cards]) -> list[Cards]:
    """``options`` without the plays that give up a trick the first play is sure to win
    with points in it (or a sure ruff), and, when the first play surely loses the trick,
    without the plays that surely lose it too with more points: never trade certain
    points for an estimate."""
    if state.lead is None or len(options) < 2:
        return options
    first = options[0]
    if certain_loss(state, seat, first):
        given = _points(first)
        return [first] + [o for o in options[1:]
                          if _points(o) <= given or not certain_loss(state, seat, o)]
    if not certain_win(state, seat, first):
        return options
    points = state.trick_points() + sum(c.points for c in first)
    if points < 5 and not _is_ruff(state, first):
        return options
    return [first] + [o for o in options[1:] if certain_win(state, seat, o)]


def _is_ruff(state: PlayState, cards: Cards) -> bool:
    lead = state.lead
    assert lead is not None
    eff = state.ctx.eff
    return lead.suit != TRUMP and all(eff[c.index] == TRUMP for c in cards)


def _worlds(knowledge: Knowledge, rng: random.Random, budget: Budget, count: int,
            start: float) -> list[PlayState]:
    """``count`` sampled worlds: uniform, or the likeliest of ``count × budget.inference``
    given the other seats' plays, or (``budget.sampler`` "guided") dealt to explain
    those plays (inference stops early under load: a third of the time limit at
    most)."""
    if not budget.inference:
        return [knowledge.world(rng) for _ in range(count)]
    deadline = None if budget.time_limit is None else start + budget.time_limit / 3
    if budget.sampler == "guided":
        effort = GuideEffort(budget.guide_tries, budget.guide_probes,
                             budget.guide_burial_tries)
        return guided_worlds(knowledge, rng, count, deadline, recent=budget.inference_tricks,
                             partners=budget.inference_partners, effort=effort,
                             select=budget.guide_select)
    return likely_worlds(knowledge, rng, count, count * budget.inference, deadline,
                         recent=budget.inference_tricks, partners=budget.inference_partners)


def _z(values: list[float], base: list[float]) -> float:
    """Mean paired difference over its standard error (0 when undefined)."""
    paired = _paired(values, base)
    if paired is None:
        return 0.0
    mean, error = paired
    if error == 0:
        return math.copysign(math.inf, mean) if mean else 0.0
    return mean / error


def _paired(values: list[float], base: list[float]) -> tuple[float, float] | None:
    """The mean difference of ``values`` over ``base`` on their common worlds and its
    standard error (None with fewer than two)."""
    n = min(len(values), len(base))
    if n < 2:
        return None
    diffs = [a - b for a, b in zip(values, base)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


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
    short side suits (a void lets the taker's side ruff), topped up the heuristic's way,
    as long as they bury no more points than the hand's trump control allows
    (``buried_points_allowed``)."""
    order = bury_order(hand, ctx, size)
    allowed = buried_points_allowed(hand, ctx, size)
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
                burial = voided + rest[: size - len(voided)]
                if sum(c.points for c in burial) <= max(allowed, _points(order[:size])):
                    yield tuple(burial)

    return distinct(burials(), limit)


def _points(cards: Sequence[Card]) -> int:
    return sum(c.points for c in cards)


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
    return options[pick(values, list(range(len(options))), budget)]
