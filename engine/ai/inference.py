"""Reading the other seats' plays: which sampled worlds explain what they did.

Uniform samples (``Knowledge.sample``) respect only hard facts: hand sizes, shown voids,
face-up declaration cards. But a seat's plays say more than that: a player who ducked
a point trick probably could not win it, a player who fed 10s to a partner had them.
Policy-based inference (as in Skat and Bridge programs) scores a sampled world by
replaying the hand so far in it: for every past play of another seat, would the
heuristic policy, holding that seat's cards in this world, have made the same play?
Worlds with fewer disagreements explain the table better: ``likely_worlds`` keeps the
best of a pool of uniform samples; ``guided_worlds`` (hard's) deals each world to explain
the plays, repairing a uniform deal in the order things happened, the burial first.

A sure throw that this world says would have failed is a contradiction of the rules
themselves (the engine accepted the throw), so it weighs more than a disagreement. The
kitty, when another seat buried it, is read the same way: the heuristic's burial from
that seat's cards in this world should be the kitty of this world.

This is only as good as the assumption that others play roughly like the heuristic;
with no history (the first trick) every world scores 0 and sampling is uniform. Against
heuristic players the true world scores 0, but uniform samples seldom do (docs/ai.md,
Evaluation); ``partners`` False reads the opponents only (not in hard's budget).

Cost: everything a replay knows but the hidden hands (the trick, the cards left, the
voids shown, the points) is the same in every world, so the hand is replayed once
(``_Replay``) and each world only carries its hands through it; the heuristic is asked
once per distinct hand at a moment (late in a hand the worlds repeat each other); and
the worlds are scored best first (the one with the fewest disagreements so far goes
on), so that a world is given up as soon as ``count`` finished worlds explain the table
better, never scored further than the choice needs.
"""

from __future__ import annotations

import heapq
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.ai.bidding import bury_order
from engine.ai.knowledge import Knowledge
from engine.ai.policy import choose_play
from engine.ai.table import Cards, PlayState
from engine.cards import Card, card_index
from engine.order import TrumpContext
from engine.plays import Lead
from engine.rules import DeclarationStyle
from engine.shapes import holding_of
from engine.teams import Sides

#: Disagreements one impossible (failed-in-this-world) throw counts as.
IMPOSSIBLE_THROW = 4
#: Disagreement per kitty card the taker would not have buried (a weaker signal than a
#: play: players differ more in what they bury than in how they follow).
UNLIKELY_BURIAL = 0.5

Signature = tuple[tuple[int, int, int], ...]


def _signature(cards: Sequence[Card], ctx: TrumpContext) -> Signature:
    """A play as the rules see it: cards equal in suit, strength and points are
    interchangeable (two decks; the level card of the other suits)."""
    eff, strength = ctx.eff, ctx.strength
    return tuple(sorted((eff[c.index], strength[c.index], c.points) for c in cards))


@dataclass
class _Step:
    """One past play, as every world replays it."""

    who: int
    cards: Cards
    board: PlayState | None  # the table just before it (any world's hands), when the
    #                          heuristic's guess is compared (another seat's play)
    signature: Signature
    throw: Lead | None  # the lead, when it is a throw (checked in each world)


class _Replay:
    """The hand so far, replayed once: the table before each past play. The replay's
    public side (the trick, the cards left, voids, points, sides) follows from the plays
    alone, so one replay serves every world; a world's hands and kitty are dealt on
    ``board`` (``PlayState.deal``) before the heuristic is asked about it."""

    def __init__(self, knowledge: Knowledge, hands: list[list[Card]], kitty: list[Card],
                 recent: int | None = None, partners: bool = True) -> None:
        view = knowledge.view
        assert view.dealer is not None and view.kitty_taker is not None
        self.knowledge = knowledge
        self.taker = view.kitty_taker
        self.history = [list(t[0]) for t in view.tricks]
        if view.trick:
            self.history.append(list(view.trick))
        seat = knowledge.seat
        # whose plays are read: every other seat's, or (``partners`` False) the
        # opponents' only, by the sides as the seat knows them now
        sides = Sides(view.players, view.dealer, frozenset(view.defenders), view.sides_settled)
        read_seat = [s != seat and (partners or sides.same_side(s, seat) is not True)
                     for s in range(view.players)]
        # the burial is compared unless this seat buried it (changzhu: a partner buries
        # and the declarer swaps, by other reasoning)
        self.reads_burial = not knowledge.kitty_known and read_seat[self.taker] and \
            knowledge.rules.declaration is not DeclarationStyle.JOKER_AND_PAIR
        self.steps: list[_Step] = []
        if not self.history:
            return
        ctx = knowledge.ctx
        prules = knowledge.prules
        start = self.start_hands(hands)
        # (in a made-up position some unseen cards are nowhere, and this world's are not
        # every world's: the cards it left out count as unplayed too, as they do for
        # ``Knowledge.world_from``, so that any world can be dealt on the boards)
        sampled = Counter(c for s, h in enumerate(hands) if s != seat for c in h)
        if not knowledge.kitty_known:
            sampled.update(kitty)
        left_out = list((knowledge.unseen - sampled).elements())
        board = PlayState(knowledge.rules, prules, ctx, view.dealer, self.taker, start,
                          list(kitty), self.history[0][0][0],
                          remaining=PlayState.tally([*kitty, *(c for h in start for c in h),
                                                     *left_out], ctx),
                          voids=[set() for _ in range(view.players)],
                          calls=knowledge.calls(at_start=True), bid=view.bid,
                          decomposed=knowledge.decomposed)
        # (``recent``: the tricks before the last ``recent`` are replayed, not read)
        read_from = 0 if recent is None else len(self.history) - recent
        for t, plays in enumerate(self.history):
            for i, (who, cards) in enumerate(plays):
                if board.turn != who:  # the replay lost the thread (cannot happen in a
                    return  # consistent world); what came before still counts
                read = t >= read_from
                lead = prules.lead(cards, ctx) if i == 0 and read else None
                self.steps.append(_Step(
                    who, tuple(cards),
                    board.copy() if read_seat[who] and read else None,
                    _signature(cards, ctx), lead if lead is not None and lead.is_throw else None))
                board.play(cards, check_throw=False)

    def start_hands(self, hands: list[list[Card]]) -> list[list[Card]]:
        """A world's hands at the first lead: its ``hands`` now and what each seat played,
        in the order ``Knowledge.sample`` gives (the policy breaks ties by position)."""
        start: list[list[Card]] = [list(h) for h in hands]
        for plays in self.history:
            for who, cards in plays:
                start[who].extend(cards)
        for hand in start:
            hand.sort(key=card_index)
        return start


class _World:
    """A sampled world on its way through the replay: its hands as they are now in the
    replay, the disagreements counted so far and the next step."""

    __slots__ = ("hands", "kitty", "kitty_key", "score", "step")

    def __init__(self, replay: _Replay, hands: list[list[Card]], kitty: list[Card]) -> None:
        self.hands = replay.start_hands(hands)
        self.kitty = list(kitty)
        self.kitty_key = tuple(sorted(c.index for c in kitty))
        self.step = 0 if replay.steps else -1  # -1: finished
        self.score = 0.0
        if replay.reads_burial:
            ctx = replay.knowledge.ctx
            expected = Counter(bury_order(self.hands[replay.taker] + self.kitty, ctx, len(kitty))
                               [: len(kitty)])
            self.score = UNLIKELY_BURIAL * sum((Counter(kitty) - expected).values())

    @property
    def finished(self) -> bool:
        return self.step == -1


class _Scorer:
    """Advances worlds through a replay, asking the heuristic once per distinct hand at
    each step (the guess reads only the mover's hand, the kitty when the mover took it,
    and the world-independent table)."""

    def __init__(self, replay: _Replay) -> None:
        self.replay = replay
        self.agrees: dict[tuple[int, tuple[int, ...], tuple[int, ...] | None], bool] = {}

    def advance(self, world: _World, cutoff: float = math.inf) -> None:
        """Replay ``world`` until its count goes up (or reaches ``cutoff``) or it is
        finished (``world.step`` -1)."""
        replay = self.replay
        steps = replay.steps
        knowledge = replay.knowledge
        ctx = knowledge.ctx
        eff = ctx.eff
        prules = knowledge.prules
        hands = world.hands
        start = world.score
        j = world.step
        while j < len(steps) and world.score == start and world.score < cutoff:
            step = steps[j]
            who = step.who
            hand = hands[who]
            board = step.board
            if board is not None and not _forced(board.lead, hand, eff):
                key = (j, tuple(c.index for c in hand),
                       world.kitty_key if who == replay.taker else None)
                agrees = self.agrees.get(key)
                if agrees is None:
                    board.deal(hands, world.kitty)
                    guess = choose_play(board, who)
                    agrees = self.agrees[key] = _signature(guess, ctx) == step.signature
                if not agrees:
                    world.score += 1
            throw = step.throw
            if throw is not None:
                others = [holding_of([c for c in hands[s] if eff[c.index] == throw.suit], ctx)
                          for s in range(len(hands)) if s != who]
                if prules.throw_forced(throw, others, ctx) is not None:
                    world.score += IMPOSSIBLE_THROW
            for card in step.cards:
                hand.remove(card)
            j += 1
        world.step = -1 if j == len(steps) else j


def _forced(lead: Lead | None, hand: list[Card], eff: Sequence[int]) -> bool:
    """Did the rules leave the seat holding ``hand`` no choice (all its cards of the led
    suit, exactly as many as were led, or its whole hand)? Such a play says nothing;
    skip the guess."""
    if lead is None:
        return len(hand) == 1
    if len(hand) == lead.size:
        return True
    suit = lead.suit
    return sum(1 for c in hand if eff[c.index] == suit) == lead.size


def disagreements(knowledge: Knowledge, hands: list[list[Card]], kitty: list[Card],
                  cutoff: float = math.inf, recent: int | None = None,
                  partners: bool = True) -> float:
    """How many past plays of the other seats (in the last ``recent`` tricks; None: all;
    ``partners`` False: of the opponents only) the heuristic would not have made in the
    world (``hands`` now and ``kitty``), plus ``UNLIKELY_BURIAL`` per kitty card the
    taker would not have buried (when this seat did not bury it, nor, with ``partners``
    False, a partner); stops counting once it reaches ``cutoff``."""
    replay = _Replay(knowledge, hands, kitty, recent, partners)
    world = _World(replay, hands, kitty)
    scorer = _Scorer(replay)
    while not world.finished and world.score < cutoff:
        scorer.advance(world, cutoff)
    return world.score


def likely_worlds(knowledge: Knowledge, rng: random.Random, count: int, pool: int,
                  deadline: float | None = None, recent: int | None = None,
                  partners: bool = True) -> list[PlayState]:
    """``count`` worlds: the ones of ``pool`` uniform samples whose replay disagrees least
    with what the other seats played (ties: sampling order, so without history this is
    plain uniform sampling). ``deadline`` (``time.perf_counter`` value) stops sampling
    early, never below ``count`` worlds, and then scoring: the worlds finished come first,
    then the others by what they had counted. ``recent``: only the plays of the last
    ``recent`` tricks (the one under way counts) are read, the burial always (None: the
    whole hand); ``partners`` False: the opponents' plays and burial only."""
    has_history = bool(knowledge.view.tricks or knowledge.view.trick) or \
        not knowledge.kitty_known
    total = max(pool, count) if has_history else count
    samples: list[tuple[list[list[Card]], list[Card]]] = []
    for n in range(total):
        if n >= count and deadline is not None and time.perf_counter() > deadline:
            break
        samples.append(knowledge.sample(rng))
    if not has_history:
        return [knowledge.world_from(hands, kitty) for hands, kitty in samples]
    replay = _Replay(knowledge, *samples[0], recent=recent, partners=partners)
    scorer = _Scorer(replay)
    worlds = [_World(replay, hands, kitty) for hands, kitty in samples]
    # best first: the world with the fewest disagreements so far (ties: sampling order)
    # goes on; a finished world at the front explains the table better than any other
    # can, since counts only grow
    queue = [(w.score, n) for n, w in enumerate(worlds)]
    heapq.heapify(queue)
    chosen: list[int] = []
    while queue and len(chosen) < count:
        if deadline is not None and time.perf_counter() > deadline:
            break
        n = queue[0][1]
        world = worlds[n]
        if world.finished:
            heapq.heappop(queue)
            chosen.append(n)
        else:
            scorer.advance(world)
            heapq.heapreplace(queue, (world.score, n))
    chosen += [n for _, n in sorted(queue)][: count - len(chosen)]
    return [knowledge.world_from(*samples[n]) for n in chosen]


#: Guided dealing (``guided_worlds``), by default: repairs of one read play at most,
#: random swaps tried for one card, and swaps tried to explain the burial.
GUIDE_TRIES = 3
GUIDE_PROBES = 4
GUIDE_BURIAL_TRIES = 8


@dataclass(frozen=True)
class GuideEffort:
    """How hard guided dealing tries to explain the table (``GUIDE_*`` by default)."""

    tries: int = GUIDE_TRIES  # repairs of one read play at most
    probes: int = GUIDE_PROBES  # random swaps tried for one card
    burial_tries: int = GUIDE_BURIAL_TRIES  # swaps tried to explain the burial


class _Guide:
    """The replay as guided dealing reads it: for each step, the cards every seat plays
    from that step on, so that a seat's hand at a past moment is its hand now plus
    those; and the heuristic's guesses, asked once per distinct hand at a step."""

    def __init__(self, replay: _Replay) -> None:
        self.replay = replay
        players = replay.knowledge.view.players
        flat = [(who, cards) for plays in replay.history for who, cards in plays]
        self.later: list[list[list[Card]]] = []  # step -> seat -> cards played from it on
        tail: list[list[Card]] = [[] for _ in range(players)]
        for who, cards in reversed(flat):
            tail[who] = list(cards) + tail[who]
            self.later.append([list(t) for t in tail])
        self.later.reverse()
        if not self.later:  # (nothing played yet: the burial alone is read, from the
            # hands now; the dealer leads first where the partner took the kitty)
            self.later = [[[] for _ in range(players)]]
        self.steps_of: list[list[int]] = [[] for _ in range(players)]  # the read steps
        for j, step in enumerate(replay.steps):
            if step.board is not None:
                self.steps_of[step.who].append(j)
        self.guesses: dict[tuple[int, tuple[int, ...], tuple[int, ...] | None],
                           Cards | None] = {}
        self.burials: dict[tuple[int, ...], Counter[Card]] = {}
        # (the indices of the cards the taker played, for ``burial_of``'s key)
        self.taker_played = [c.index for c in self.later[0][replay.taker]]

    def hand_at(self, j: int, seat: int, now: list[list[Card]]) -> list[Card]:
        return sorted(now[seat] + self.later[j][seat], key=card_index)

    def miss(self, j: int, now: list[list[Card]], kitty: list[Card]) -> Cards | None:
        """The heuristic's play at step ``j`` in the world (hands ``now``, ``kitty``) when
        it is not the play made (None: it agrees, or the play is forced or not read)."""
        replay = self.replay
        step = replay.steps[j]
        board = step.board
        if board is None:
            return None
        who = step.who
        hand = self.hand_at(j, who, now)
        ctx = replay.knowledge.ctx
        if _forced(board.lead, hand, ctx.eff):
            return None
        key = (j, tuple(map(card_index, hand)),
               tuple(sorted(map(card_index, kitty))) if who == replay.taker else None)
        if key in self.guesses:
            return self.guesses[key]
        board.deal([hand if s == who else self.hand_at(j, s, now) for s in range(len(now))],
                   list(kitty))
        guess = choose_play(board, who)
        found = None if _signature(guess, ctx) == step.signature else guess
        self.guesses[key] = found
        return found

    def misses(self, seat: int, before: int, now: list[list[Card]], kitty: list[Card],
               suits: frozenset[int]) -> int:
        """The read plays of ``seat`` before step ``before`` that the heuristic would not
        have made, among those a swap of cards of ``suits`` can change: leads, and
        follows of those suits or with too few cards of the led suit (following a suit
        it holds enough of, a seat chooses among those cards)."""
        suit_cards = self.replay.knowledge.ctx.suit_cards
        steps = self.replay.steps
        count = 0
        for j in self.steps_of[seat]:
            if j >= before:
                break
            lead = steps[j].board.lead  # type: ignore[union-attr]
            if lead is not None and lead.suit not in suits:
                of_suit = suit_cards[lead.suit].__contains__
                if sum(map(of_suit, now[seat])) + sum(map(of_suit, self.later[j][seat])) \
                        >= lead.size:
                    continue
            if self.miss(j, now, kitty) is not None:
                count += 1
        return count

    def burial_miss(self, now: list[list[Card]], kitty: list[Card]) -> Counter[Card]:
        """The kitty's cards that the taker's heuristic, from its cards in the world,
        would not have buried (none when the burial is not read)."""
        if not self.replay.reads_burial:
            return Counter()
        return Counter(kitty) - self.burial_of(now, kitty)

    def burial_wrong(self, now: list[list[Card]], kitty: list[Card]) -> int:
        """How many cards ``burial_miss`` counts."""
        if not self.replay.reads_burial:
            return 0
        found = self.burial_of(now, kitty)
        return sum([n - found[c] for c, n in Counter(kitty).items() if n > found[c]])

    def burial_of(self, now: list[list[Card]], kitty: list[Card]) -> Counter[Card]:
        """The taker's heuristic burial from its cards in the world (its hand and the
        kitty), asked once per such cards."""
        taker = self.replay.taker
        key = tuple(sorted([*map(card_index, now[taker]), *self.taker_played,
                            *map(card_index, kitty)]))
        found = self.burials.get(key)
        if found is None:
            start = self.hand_at(0, taker, now) + kitty
            ctx = self.replay.knowledge.ctx
            found = self.burials[key] = Counter(bury_order(start, ctx, len(kitty))[: len(kitty)])
        return found


class _GuidedDeal:
    """One world dealt the guided way: the hidden hands and the kitty (``now``, the
    kitty last), repaired play by play."""

    def __init__(self, guide: _Guide, rng: random.Random, hands: list[list[Card]],
                 kitty: list[Card], effort: GuideEffort = GuideEffort()) -> None:
        self.guide = guide
        self.rng = rng
        self.effort = effort
        knowledge = guide.replay.knowledge
        self.players = players = knowledge.view.players
        self.kitty_slot = players
        self.now = [list(h) for h in hands] + [list(kitty)]
        self.eff = knowledge.ctx.eff
        self.voids = knowledge.voids
        self.fixed = {s: Counter(c) for s, c in knowledge.fixed.items()}
        self.excluded: list[set[Card]] = [set() for _ in range(players + 1)]
        self.hidden = [s for s in range(players) if s != knowledge.seat] + \
            ([] if knowledge.kitty_known else [players])

    def may_hold(self, slot: int, card: Card) -> bool:
        return card not in self.excluded[slot] and \
            (slot == self.kitty_slot or self.eff[card.index] not in self.voids[slot])

    def free(self, slot: int) -> list[int]:
        """Positions in ``slot`` of the cards that may move (not the face-up ones)."""
        if slot not in self.fixed:
            return list(range(len(self.now[slot])))
        shown = Counter(self.fixed[slot])
        out: list[int] = []
        for i, card in enumerate(self.now[slot]):
            if shown[card] > 0:
                shown[card] -= 1
            else:
                out.append(i)
        return out

    def cost(self, slots: tuple[int, int], before: int, suits: frozenset[int]) -> float:
        """The disagreements a swap between ``slots`` can change: the two seats' read
        plays before step ``before``, and the burial when it touches the taker or kitty."""
        guide, now = self.guide, self.now
        hands, kitty = now[: self.players], now[self.kitty_slot]
        total: float = sum(guide.misses(s, before, hands, kitty, suits)
                           for s in slots if s != self.kitty_slot)
        replay = guide.replay
        if replay.reads_burial and (replay.taker in slots or self.kitty_slot in slots):
            total += UNLIKELY_BURIAL * guide.burial_wrong(hands, kitty)
        return total

    def swap(self, who: int, i: int, options: list[tuple[int, int]], before: int,
             better: Callable[[], bool] | None = None) -> bool:
        """Swap ``who``'s card at ``i`` with the first of ``options`` (slot, position;
        shuffled, then taken from each slot in turn), among ``effort.probes``, that
        explains no fewer earlier plays of the two (and, with ``better``, makes it
        true); False: none did, nothing changed."""
        now = self.now
        self.rng.shuffle(options)
        # (one slot at a time, in turn: a slot whose every swap undoes an explained
        # play, the leader's or the burial's, does not use up the probes)
        seen: Counter[int] = Counter()
        turn = []
        for t, _ in options:
            turn.append(seen[t])
            seen[t] += 1
        options = [o for _, o in sorted(zip(turn, options), key=lambda p: p[0])]
        for t, k in options[: self.effort.probes]:
            card, other = now[who][i], now[t][k]
            suits = frozenset((self.eff[card.index], self.eff[other.index]))
            base = self.cost((who, t), before, suits)
            now[who][i], now[t][k] = other, card
            if (better is None or better()) and self.cost((who, t), before, suits) <= base:
                return True
            now[who][i], now[t][k] = card, other
        return False

    def explain_burial(self) -> None:
        """Swaps that bring the kitty closer to the taker's heuristic burial: a card the
        taker would have buried and holds now trades places with a kitty card it would
        not have buried, else such a kitty card with a card of another hidden hand."""
        guide, now, taker, kitty_slot = self.guide, self.now, self.guide.replay.taker, \
            self.kitty_slot
        if kitty_slot not in self.hidden:
            return
        for _ in range(self.effort.burial_tries):
            extra = guide.burial_miss(now[: self.players], now[kitty_slot])
            wrong = sum(extra.values())
            if not wrong:
                return
            want = guide.burial_of(now[: self.players], now[kitty_slot]) - \
                Counter(now[kitty_slot])
            out = [k for k in self.free(kitty_slot) if extra[now[kitty_slot][k]] > 0]

            def fewer(wrong: int = wrong) -> bool:
                return guide.burial_wrong(now[: self.players], now[kitty_slot]) < wrong

            moves = [(k, taker, i) for i in self.free(taker) if want[now[taker][i]] > 0
                     for k in out if self.may_hold(taker, now[kitty_slot][k])]
            if not moves:
                moves = [(k, t, i) for t in self.hidden if t != kitty_slot
                         for k in out if self.may_hold(t, now[kitty_slot][k])
                         for i in self.free(t)]
            self.rng.shuffle(moves)
            for k, t, i in moves[: self.effort.probes]:
                if self.swap(kitty_slot, k, [(t, i)], 0, fewer):
                    break
            else:
                return

    def explain(self, j: int) -> None:
        """Repair the world until the heuristic makes the play of step ``j`` (at most
        ``effort.tries`` times): the cards it would have played instead that the seat
        holds now are excluded from its hand and swapped out."""
        guide, now = self.guide, self.now
        step = guide.replay.steps[j]
        who = step.who
        for _ in range(self.effort.tries):
            guess = guide.miss(j, now[: self.players], now[self.kitty_slot])
            if guess is None:
                return
            wanted = Counter(guess) - Counter(step.cards)
            held = Counter(now[who]) - self.fixed.get(who, Counter())
            blamed = [c for c in wanted if held[c] > 0]
            if not blamed:
                return  # (the play turns on cards the seat played later: left as is)
            moved = False
            for card in blamed:
                self.excluded[who].add(card)
                if card not in now[who]:
                    continue
                i = now[who].index(card)
                options = [(t, k) for t in self.hidden if t != who and self.may_hold(t, card)
                           for k in self.free(t)
                           if now[t][k] != card and self.may_hold(who, now[t][k])]
                moved |= self.swap(who, i, options, j)
            if not moved:
                return


def guided_worlds(knowledge: Knowledge, rng: random.Random, count: int,
                  deadline: float | None = None, recent: int | None = None,
                  partners: bool = True, effort: GuideEffort = GuideEffort(),
                  select: int = 1) -> list[PlayState]:
    """``count`` worlds dealt by replaying the hand and explaining the read plays as they
    come (a greedy form of sequential importance sampling): a uniform deal, the burial
    explained first (``_GuidedDeal.explain_burial``), then at each read play of another
    seat that the heuristic, holding that seat's cards in this world, would not have
    made, the cards it would have played instead and the seat holds now are taken to be
    elsewhere: each trades places with a card of another hidden hand or the kitty that
    the seat may hold, the first of a few random ones that explains no fewer of the two
    seats' earlier plays. Never a face-up card, never into a void. ``recent`` and
    ``partners`` as for ``likely_worlds``; ``effort``: how many repairs and swaps are
    tried; ``select`` > 1: that many times the worlds are dealt and the ``count`` that
    contradict the fewest read plays and burial kept (ties: dealing order); past
    ``deadline`` (``time.perf_counter``) the worlds left are dealt uniformly."""
    has_history = bool(knowledge.view.tricks or knowledge.view.trick) or \
        not knowledge.kitty_known
    samples = [knowledge.sample(rng) for _ in range(count * (select if has_history else 1))]
    if not has_history or not samples:
        return [knowledge.world_from(hands, kitty) for hands, kitty in samples]
    guide = _Guide(_Replay(knowledge, *samples[0], recent=recent, partners=partners))
    dealt: list[tuple[float, list[list[Card]], list[Card]]] = []
    for hands, kitty in samples:
        if deadline is not None and time.perf_counter() > deadline:
            if len(dealt) >= count:
                break
            dealt.append((math.inf, hands, kitty))
            continue
        deal = _GuidedDeal(guide, rng, hands, kitty, effort)
        deal.explain_burial()
        for j, step in enumerate(guide.replay.steps):
            if step.board is not None:
                deal.explain(j)
        now = deal.now
        for hand in now[: deal.players]:
            hand.sort(key=card_index)
        hands, kitty = now[: deal.players], now[deal.kitty_slot]
        misses = disagreements(knowledge, hands, kitty, recent=recent, partners=partners) \
            if select > 1 else 0.0
        dealt.append((misses, hands, kitty))
    if select > 1:
        order = sorted(range(len(dealt)), key=lambda n: (dealt[n][0], n))[:count]
        dealt = [dealt[n] for n in order]
    return [knowledge.world_from(hands, kitty) for _, hands, kitty in dealt]
