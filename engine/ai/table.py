"""The play phase as computer players reason about it: a light, copyable trick state.

``PlayState`` holds every hand, because it is used in two ways: as the *referee* of a
play-out (a determinized world, where the hidden hands were sampled from what one seat
knows), and as the *board* a policy reads. A policy reads only the acting seat's own
hand and public facts (cards played, voids shown, points, the trick), never another
hand: see ``engine.ai.policy``.

Trick resolution, throw validation and scoring are the engine's own rulings
(``engine.referee``: ``play_key`` and ``takes_lead``, ``attackers_gain``,
``failed_throw``, ``kitty_ruling``; ``level_table``): this module only keeps the
bookkeeping cheap enough for thousands of play-outs per decision (the trick's best
play so far, instead of the whole trick ranked again).

The sides are the ones every seat knows (``defenders``, ``settled``): with called friends
a call still open leaves the other seats unknown, and the engine's own ``reveal`` adds a
friend when the called copy is played in the play-out, taking back the points the friend
had won for the attackers, as the engine does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.cards import Card
from engine.order import TRUMP, TrumpContext
from engine.plays import Lead, PlayKey, PlayRules
from engine.referee import attackers_gain, failed_throw, kitty_ruling, play_key, takes_lead
from engine.rules import Ruleset
from engine.scoring import take_over_points, takes_over
from engine.shapes import Holding, Unit
from engine.teams import FriendCall, Sides, reveal

Cards = tuple[Card, ...]


class Unseen(dict[int, Holding]):
    """Lazily, per effective suit: the cards one seat has not seen (ident -> count):
    unplayed, not in its hand, not in a kitty it buried. ``PlayState.play`` keeps the
    suits already counted up to date (a card another seat plays is one unseen card
    fewer; the seat's own play changes nothing it has not seen), so a seat's suit is
    counted once per play-out instead of once per move."""

    __slots__ = ("held", "ident", "remaining", "seat", "suit_cards", "watch")

    def __init__(self, seat: int, held: Sequence[Sequence[Card]],
                 remaining: dict[int, Holding], ctx: TrumpContext,
                 watch: dict[int, list[tuple[int, Holding]]]) -> None:
        super().__init__()
        self.seat = seat
        self.held = held  # the seat's hand (the list the state plays from), its kitty
        self.remaining = remaining
        self.suit_cards, self.ident = ctx.suit_cards, ctx.ident
        self.watch = watch  # the state's: effective suit -> the counts to keep up to date

    def __missing__(self, suit: int) -> Holding:
        # (most policies ask for one or two suits: the seat's cards of that suit only are
        # subtracted, instead of counting the whole hand first)
        ident = self.ident
        found = dict(self.remaining.get(suit, {}))
        mine = False
        of_suit = self.suit_cards.get(suit, frozenset()).__contains__
        for held in self.held:
            for card in filter(of_suit, held):
                found[ident[card.index]] -= 1
                mine = True
        if mine:  # the same holding, keys in the same order, without those at zero
            found = {key: k for key, k in found.items() if k}
        self[suit] = found
        self.watch.setdefault(suit, []).append((self.seat, found))
        return found

    def forget(self, suit: int) -> None:
        """Count ``suit`` afresh when next asked (a card nowhere in the count was played:
        a made-up position)."""
        found = self.pop(suit)
        self.watch[suit] = [(s, h) for s, h in self.watch[suit] if h is not found]


@dataclass(frozen=True, slots=True)
class SuitParts:
    """One seat's cards of one effective suit as a lead reads them (built by the policy:
    ``engine.ai.policy.suit_parts``)."""

    units: list[Unit]  # the engine's decomposition
    cards: list[Cards]  # each unit's cards
    points: list[int]  # each unit's points
    low: Card  # the fewest points, then the weakest (the first such)
    top: Card  # the strongest (the first such)


@dataclass
class PlayState:
    rules: Ruleset
    prules: PlayRules
    ctx: TrumpContext
    dealer: int
    taker: int
    hands: list[list[Card]]
    kitty: list[Card]
    leader: int
    attacker_points: int = 0
    plays: list[tuple[int, Cards]] = field(default_factory=list)
    lead: Lead | None = None
    best: int = 0  # index in ``plays`` of the play winning the trick so far
    best_key: PlayKey | None = None
    remaining: dict[int, dict[int, int]] = field(default_factory=dict)  # unplayed cards
    #   (hands + kitty) by effective suit: ident -> count
    voids: list[set[int]] = field(default_factory=list)  # effective suits shown void
    last_winner: int | None = None
    last_play: Cards = ()
    # outcome, set when the last trick is played
    total: int | None = None  # attackers' points with the kitty
    # the defenders as the seat reasoning knows them (default: the sides at the start)
    defenders: frozenset[int] = frozenset()
    settled: bool | None = None  # False while a called friend is unknown (default: as at
    #                              the start)
    calls: tuple[FriendCall, ...] = ()  # find-friends: the calls, as far as answered
    won: list[int] = field(default_factory=list)  # trick points won, by seat
    bid: int | None = None  # three-bid: the attackers' threshold
    # the policy's reading of a suit's cards (card indices in order -> ``SuitParts``), a
    # pure function of them shared by every copy and every world of one decision
    decomposed: dict[tuple[int, ...], SuitParts] = field(
        default_factory=dict, compare=False, repr=False)
    # each seat's ``Unseen`` once asked (``unseen``), kept up to date by ``play``
    _unseen: list[Unseen | None] = field(default_factory=list, compare=False, repr=False)
    # the counts of ``_unseen`` by effective suit, for ``play`` to keep up to date
    _watch: dict[int, list[tuple[int, Holding]]] = field(
        default_factory=dict, compare=False, repr=False)
    # ``trick_points`` as last counted: (the ``plays`` list, its length, the points)
    _points: tuple[list[tuple[int, Cards]] | None, int, int] = field(
        default=(None, 0, 0), compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.defenders or self.settled is None:
            start = self.rules.seating.sides(self.dealer)
            self.defenders = self.defenders or start.defenders
            self.settled = start.settled if self.settled is None else self.settled
        if not self.won:
            self.won = [0] * len(self.hands)
        self._unseen = [None] * len(self.hands)
        self._watch = {}

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def turn(self) -> int:
        return (self.leader + len(self.plays)) % len(self.hands)

    def unseen(self, seat: int) -> Unseen:
        """The cards ``seat`` has not seen, by effective suit (``Unseen``)."""
        found = self._unseen[seat]
        if found is None:
            held = (self.hands[seat], self.kitty) if seat == self.taker else (self.hands[seat],)
            found = self._unseen[seat] = Unseen(seat, held, self.remaining, self.ctx,
                                                self._watch)
        return found

    def deal(self, hands: list[list[Card]], kitty: list[Card]) -> None:
        """Put other ``hands`` and ``kitty`` on this table (the unseen cards are counted
        afresh)."""
        self.hands, self.kitty = hands, kitty
        self._unseen = [None] * len(hands)
        self._watch = {}

    def is_defender(self, seat: int) -> bool:
        return seat in self.defenders

    def same_side(self, a: int, b: int) -> bool:
        """Known to play together (a seat not yet known to defend, while a friend is
        still to be found, counts as an opponent of everyone but itself)."""
        if a == b:
            return True
        if a in self.defenders:
            return b in self.defenders
        return self.settled is True and b not in self.defenders

    @property
    def done(self) -> bool:
        return self.total is not None

    def copy(self) -> PlayState:
        # (the hottest call of a search: fields copied directly, no __init__; the
        # immutable ones are shared, the mutable ones copied one level deep)
        new = object.__new__(PlayState)
        fields = dict(self.__dict__)
        fields["hands"] = [list(h) for h in self.hands]
        fields["plays"] = list(self.plays)
        fields["remaining"] = {k: dict(v) for k, v in self.remaining.items()}
        fields["voids"] = [set(v) for v in self.voids]
        fields["won"] = list(self.won)
        fields["_unseen"] = [None] * len(self.hands)  # (counted afresh on the copy)
        fields["_watch"] = {}
        new.__dict__ = fields
        return new

    def trick_points(self) -> int:
        plays = self._points[0]
        if plays is self.plays and self._points[1] == len(plays):
            return self._points[2]
        points = sum(c.points for _, cards in self.plays for c in cards)
        self._points = (self.plays, len(self.plays), points)
        return points

    @classmethod
    def tally(cls, cards: Sequence[Card], ctx: TrumpContext) -> dict[int, dict[int, int]]:
        out: dict[int, dict[int, int]] = {}
        eff = ctx.eff
        ident = ctx.ident
        for card in cards:
            h = out.setdefault(eff[card.index], {})
            key = ident[card.index]
            h[key] = h.get(key, 0) + 1
        return out

    # -- the referee ------------------------------------------------------------------

    def play(self, cards: Sequence[Card], check_throw: bool = True) -> None:
        """Play ``cards`` for the seat to move (assumed legal; a throw is checked unless
        replaying a trick that already happened)."""
        seat = (self.leader + len(self.plays)) % len(self.hands)  # ``turn``, inlined
        ctx = self.ctx
        hand = self.hands[seat]
        cards = tuple(cards)
        if self.lead is None:
            lead = self.prules.lead(cards, ctx)
            if lead.is_throw and check_throw:
                others = [self.hands[s] for s in range(self.players) if s != seat]
                failed = failed_throw(self.prules, self.rules, lead, cards, others, ctx)
                if failed is not None:
                    self.attacker_points += failed.attackers_gain(
                        thrower_defends=self.is_defender(seat))
                    cards, lead = failed.kept, failed.lead
            self.lead = lead
            self.best, self.best_key = 0, play_key(self.prules, lead, cards, ctx)
        else:
            lead = self.lead
            eff = ctx.eff
            if lead.size == 1:  # (the commonest follow: one card)
                if eff[cards[0].index] != lead.suit:
                    self.voids[seat].add(lead.suit)
            elif sum(1 for c in cards if eff[c.index] == lead.suit) < lead.size:
                self.voids[seat].add(lead.suit)
            key = play_key(self.prules, lead, cards, ctx)
            if takes_lead(key, self.best_key):
                self.best, self.best_key = len(self.plays), key
        remaining = self.remaining
        eff = ctx.eff
        ident = ctx.ident
        watch = self._watch
        points = 0
        for card in cards:
            points += card.points
            hand.remove(card)
            suit = eff[card.index]
            counts = remaining[suit]
            which = ident[card.index]
            left = counts[which] - 1  # one card fewer; a key at zero is dropped
            if left:
                counts[which] = left
            else:
                del counts[which]
            # each other seat that counted the suit has one unseen card fewer (a key at
            # zero dropped: the keys stay those, in the order, a fresh count gives); the
            # mover's own play changes nothing it has not seen
            for other, holding in watch.get(suit, ()):
                if other != seat:
                    left = holding.get(which, 0) - 1
                    if left > 0:
                        holding[which] = left
                    elif left == 0:
                        del holding[which]
                    else:
                        unseen = self._unseen[other]
                        assert unseen is not None
                        unseen.forget(suit)
        plays = self.plays
        if self._points[0] is plays and self._points[1] == len(plays):  # (counted on)
            self._points = (plays, len(plays) + 1, self._points[2] + points)
        plays.append((seat, cards))
        if self.calls and not self.settled:
            self._reveal(seat, cards)
        if len(self.plays) == len(self.hands):
            self._finish_trick()

    def _reveal(self, seat: int, cards: Cards) -> None:
        """The engine's ``reveal``: a called copy played makes a friend."""
        sides = Sides(self.players, self.dealer, self.defenders, bool(self.settled))
        sides, self.calls, answered = reveal(sides, self.calls, seat, cards)
        if any(new for _, new in answered):
            self.attacker_points -= self.won[seat]
        self.defenders, self.settled = sides.defenders, sides.settled

    def _finish_trick(self) -> None:
        winner, winning = self.plays[self.best]
        pts = self.trick_points()
        self.won[winner] += pts
        self.attacker_points += attackers_gain(pts, defenders_take=self.is_defender(winner))
        self.last_winner, self.last_play = winner, winning
        self.plays = []
        self._points = (self.plays, 0, 0)
        self.lead = None
        self.best, self.best_key = 0, None
        self.leader = winner
        if not self.hands[winner]:
            self._score(winner, winning)

    def _score(self, winner: int, winning: Cards) -> None:
        kitty = kitty_ruling(self.prules, self.rules, self.kitty, winning, self.ctx,
                             attackers_won=not self.is_defender(winner))
        self.total = self.attacker_points + kitty.delta


def distinct(plays: Iterable[Cards], limit: int) -> list[Cards]:
    """The first ``limit`` plays of ``plays`` that differ as multisets of cards."""
    out: list[Cards] = []
    seen: set[tuple[int, ...]] = set()
    for cards in plays:
        key = tuple(sorted(c.index for c in cards))
        if key not in seen:
            seen.add(key)
            out.append(cards)
            if len(out) >= limit:
                break
    return out


def take_over_threshold(rules: Ruleset, bid: int | None = None) -> int:
    """The fewest attacker points with which the attackers win the hand (take the deal):
    ``engine.scoring.take_over_points``."""
    return take_over_points(rules, bid)


def attackers_win(rules: Ruleset, total: int, bid: int | None = None) -> bool:
    """Did the attackers win the hand (the deal passes to them)? ``engine.scoring.takes_over``
    (see ``engine.ai`` docs)."""
    return takes_over(rules, total, bid)


def suit_of(cards: Sequence[Card], ctx: TrumpContext) -> int:
    return ctx.eff[cards[0].index]


def is_trump_suit(suit: int) -> bool:
    return suit == TRUMP
