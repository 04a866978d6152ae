"""Reading the other seats' plays: which sampled worlds explain what they did.

Uniform samples (``Knowledge.sample``) respect only hard facts: hand sizes, shown voids,
face-up declaration cards. But a seat's plays say more than that: a player who ducked
a point trick probably could not win it, a player who fed 10s to a partner had them.
Policy-based inference (as in Skat and Bridge programs) scores a sampled world by
replaying the hand so far in it: for every past play of another seat, would the
heuristic policy, holding that seat's cards in this world, have made the same play?
Worlds with fewer disagreements explain the table better, and the search keeps those.

A sure throw that this world says would have failed is a contradiction of the rules
themselves (the engine accepted the throw), so it weighs more than a disagreement. The
kitty, when another seat buried it, is read the same way: the heuristic's burial from
that seat's cards in this world should be the kitty of this world.

This is only as good as the assumption that others play roughly like the heuristic;
with no history (the first trick) every world scores 0 and sampling is uniform.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence

from engine.ai.bidding import bury_order
from engine.ai.knowledge import Knowledge
from engine.ai.policy import choose_play
from engine.ai.table import PlayState
from engine.cards import Card
from engine.order import TrumpContext
from engine.rules import DeclarationStyle
from engine.shapes import holding_of

#: Disagreements one impossible (failed-in-this-world) throw counts as.
IMPOSSIBLE_THROW = 4
#: Disagreement per kitty card the taker would not have buried (a weaker signal than a
#: play: players differ more in what they bury than in how they follow).
UNLIKELY_BURIAL = 0.5


def _signature(cards: Sequence[Card], ctx: TrumpContext) -> tuple[tuple[int, int, int], ...]:
    """A play as the rules see it: cards equal in suit, strength and points are
    interchangeable (two decks; the level card of the other suits)."""
    eff, strength = ctx.eff, ctx.strength
    return tuple(sorted((eff[c.index], strength[c.index], c.points) for c in cards))


def disagreements(knowledge: Knowledge, hands: list[list[Card]], kitty: list[Card],
                  cutoff: float = math.inf) -> float:
    """How many past plays of the other seats the heuristic would not have made in the
    world (``hands`` now and ``kitty``), plus ``UNLIKELY_BURIAL`` per kitty card the
    taker would not have buried (when this seat did not bury it); stops counting once
    it reaches ``cutoff``."""
    view = knowledge.view
    seat = knowledge.seat
    history = [list(t[0]) for t in view.tricks]
    if view.trick:
        history.append(list(view.trick))
    players = view.players
    start: list[list[Card]] = [list(h) for h in hands]
    for plays in history:
        for who, cards in plays:
            start[who].extend(cards)
    for hand in start:  # the order ``Knowledge.sample`` gives (ties go by position)
        hand.sort(key=lambda c: c.index)
    ctx = knowledge.ctx
    prules = knowledge.prules
    assert view.dealer is not None and view.kitty_taker is not None
    count = 0.0
    if not knowledge.kitty_known and \
            knowledge.rules.declaration is not DeclarationStyle.JOKER_AND_PAIR:
        # (changzhu: a partner buries and the declarer swaps, by other reasoning)
        taker = view.kitty_taker
        expected = Counter(bury_order(start[taker] + list(kitty), ctx, len(kitty))[: len(kitty)])
        count += UNLIKELY_BURIAL * sum((Counter(kitty) - expected).values())
    if not history or count >= cutoff:
        return count
    remaining = PlayState.tally(list(kitty) + [c for h in start for c in h], ctx)
    state = PlayState(knowledge.rules, prules, ctx, view.dealer, view.kitty_taker, start,
                      list(kitty), history[0][0][0], remaining=remaining,
                      voids=[set() for _ in range(players)],
                      calls=knowledge.calls(at_start=True), bid=view.bid)
    for plays in history:
        for i, (who, cards) in enumerate(plays):
            if state.turn != who:  # the replay lost the thread (cannot happen in a
                return count  # consistent world); keep what was counted
            if who != seat and not _forced(state, who):
                guess = choose_play(state, who)
                if _signature(guess, ctx) != _signature(cards, ctx):
                    count += 1
            if i == 0:
                lead = prules.lead(cards, ctx)
                if lead.is_throw:
                    others = [holding_of([c for c in state.hands[s]
                                          if ctx.eff[c.index] == lead.suit], ctx)
                              for s in range(players) if s != who]
                    if prules.throw_forced(lead, others, ctx) is not None:
                        count += IMPOSSIBLE_THROW
            if count >= cutoff:  # already out of the kept worlds
                return count
            state.play(cards, check_throw=False)
    return count


def _forced(state: PlayState, seat: int) -> bool:
    """Did the rules leave ``seat`` no choice (all its cards of the led suit, exactly as
    many as were led, or its whole hand)? Such a play says nothing; skip the guess."""
    lead = state.lead
    if lead is None:
        return len(state.hands[seat]) == 1
    hand = state.hands[seat]
    if len(hand) == lead.size:
        return True
    eff = state.ctx.eff
    return sum(1 for c in hand if eff[c.index] == lead.suit) == lead.size


def likely_worlds(knowledge: Knowledge, rng: random.Random, count: int, pool: int,
                  deadline: float | None = None) -> list[PlayState]:
    """``count`` worlds: the ones of ``pool`` uniform samples whose replay disagrees least
    with what the other seats played (ties: sampling order, so without history this is
    plain uniform sampling). ``deadline`` (``time.perf_counter`` value) stops sampling
    early, never below ``count`` worlds (the ones sampled past it unscored)."""
    scored: list[tuple[float, int, list[list[Card]], list[Card]]] = []
    has_history = bool(knowledge.view.tricks or knowledge.view.trick) or \
        not knowledge.kitty_known
    total = max(pool, count) if has_history else count
    for n in range(total):
        if n >= count and deadline is not None and time.perf_counter() > deadline:
            break
        hands, kitty = knowledge.sample(rng)
        late = deadline is not None and time.perf_counter() > deadline
        if has_history and late:
            score = math.inf  # past the deadline the rest are kept unscored, last
        elif has_history:
            cutoff = math.inf
            if len(scored) >= count:
                cutoff = sorted(s[0] for s in scored)[count - 1]
            score = disagreements(knowledge, hands, kitty, cutoff)
        else:
            score = 0.0
        scored.append((score, n, hands, kitty))
    scored.sort(key=lambda s: (s[0], s[1]))
    return [knowledge.world_from(hands, kitty) for _, _, hands, kitty in scored[:count]]
