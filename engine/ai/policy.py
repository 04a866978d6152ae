"""The heuristic player's card play (the ``easy`` level, and the play-out policy of search).

A policy looks at a ``PlayState`` from one seat: its own hand, the cards not yet played
(so: which cards it has not seen), the voids every seat has shown, the trick so far and
the points. It never reads another seat's hand. ``candidates`` returns plays best first;
the heuristic plays the first, search evaluates the first few.

Leading: cash sure winners (tractors, pairs, sure throws, then top singles) in suits no
opponent can ruff, lead into a partner's void, otherwise lead low from short side suits
(never points if it can be helped). Following: feed points to a partner whose play is
sure to win, win a trick cheaply when last or when it is worth points, ruff point tricks
with the lowest trump that wins, otherwise throw the least valuable card, keeping trumps
(and meet a tractor's or throw's obligations with the cheapest pairs and tractors).
find-friends: at easy, a seat known to defend never answers an open call itself (no
friend is made), unless every legal play would.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, combinations

from engine.ai.table import Cards, PlayState, SuitParts, Unseen, distinct
from engine.cards import Card
from engine.errors import EngineError
from engine.legal import constructive_follow, legal_follows
from engine.order import TRUMP, TrumpContext
from engine.plays import Lead, fill_structure
from engine.referee import play_key, takes_lead
from engine.shapes import (
    Holding,
    Unit,
    decompose,
    fill_units,
    holding_of,
    take_out,
    unbeatable_by,
    unit_candidates,
    unit_cards,
)


class _RulesOnly:
    """What ``engine.legal``'s follow helpers read of a game: its play rules only."""

    def __init__(self, state: PlayState) -> None:
        self.play_rules = state.prules


def choose_play(state: PlayState, seat: int) -> Cards:
    """The heuristic's play: ``candidates(state, seat, limit=1)[0]``, computing only what
    decides the first candidate (it is the play-out policy: every move of every
    play-out)."""
    if state.lead is None:
        return _lead_candidates(state, seat, first=True)[0]
    return _follow_candidates(state, seat, first=True)[0]


def choose_easy_play(state: PlayState, seat: int) -> Cards:
    """Easy's own play: ``choose_play``, but never the play that spends a friend call of
    the seat's side (``_calls_it_would_spend``) while another is legal."""
    best = choose_play(state, seat)
    spent = _calls_it_would_spend(state, seat)
    if spent and _spends(best, spent):
        return _keeping_calls(state, seat, _ranked(state, seat), spent)[0]
    return best


def candidates(state: PlayState, seat: int, limit: int = 8) -> list[Cards]:
    """Plays for ``seat`` (whose turn it is), best first, at most ``limit``, all legal."""
    return distinct(_ranked(state, seat), limit)


def _ranked(state: PlayState, seat: int) -> list[Cards]:
    """Every candidate of the seat's lead or follow, best first (repeats included)."""
    if state.lead is None:
        return _lead_candidates(state, seat)
    return _follow_candidates(state, seat)


# -- called friends ----------------------------------------------------------------------

def _calls_it_would_spend(state: PlayState, seat: int) -> dict[Card, int] | None:
    """find-friends: the open calls a play by ``seat`` would answer without making a
    friend, as card -> the copies a play must hold to answer it. Only a seat every other
    seat knows to defend (the dealer, a friend found) spends a call so: the dealer's side
    is then a friend short for the rest of the hand. (Easy's own decisions keep the
    calls; the search and its play-outs do not: with them, normal won fewer seat-hands,
    docs/ai.md.)"""
    if state.settled or not state.calls or seat not in state.defenders:
        return None
    hand = state.hands[seat]
    out = {call.card: call.copy - call.seen for call in state.calls
           if not call.done and call.card in hand}
    return out or None


def _spends(cards: Cards, spent: dict[Card, int]) -> bool:
    return any(cards.count(card) >= need for card, need in spent.items())


def _keeping_calls(state: PlayState, seat: int, ranked: list[Cards],
                   spent: dict[Card, int]) -> list[Cards]:
    """``ranked`` without the plays that spend a call (``_calls_it_would_spend``); where
    all of them do, the cheapest legal play that does not, if there is one."""
    kept = [cards for cards in ranked if not _spends(cards, spent)]
    if kept:
        return kept
    hand = state.hands[seat]
    eff = state.ctx.eff
    suit_len = Counter(eff[card.index] for card in hand)

    def cost(cards: Cards) -> list[int]:  # (``_dump_key`` summed over the play's cards)
        return [sum(fields) for fields in zip(*(_dump_key(c, state, suit_len) for c in cards))]

    lead = state.lead
    others: list[Cards]
    if lead is None:
        others = [(card,) for card in hand if not _spends((card,), spent)]
    else:
        follows = legal_follows(_RulesOnly(state), lead, hand, state.ctx)  # type: ignore[arg-type]
        others = [cards for cards in follows if not _spends(cards, spent)]
    return [min(others, key=cost)] if others else ranked


# -- knowledge helpers ------------------------------------------------------------------

def _opponents(state: PlayState, seat: int) -> list[int]:
    return [s for s in range(len(state.hands)) if not state.same_side(s, seat)]


#: ``_sides_of``'s answers by (seats, defenders, settled, seat): the sides change only
#: when a friend is found, and a lead asks them every time
_SIDES: dict[tuple[int, frozenset[int], bool | None, int], tuple[tuple[int, ...], int]] = {}


def _sides_of(state: PlayState, seat: int) -> tuple[tuple[int, ...], int]:
    """``seat``'s opponents, and its first partner (itself when it has none known)."""
    players = len(state.hands)
    key = (players, state.defenders, state.settled, seat)
    found = _SIDES.get(key)
    if found is None:
        partner = next((s for s in range(players) if s != seat and state.same_side(s, seat)),
                       seat)
        found = _SIDES[key] = (tuple(_opponents(state, seat)), partner)
    return found


def _still_to_play(state: PlayState, seat: int) -> list[int]:
    """Seats after ``seat`` in the current trick."""
    n = len(state.hands)
    done = len(state.plays) + 1
    return [(seat + k) % n for k in range(1, n - done + 1)]


def _dump_key(card: Card, state: PlayState, suit_len: dict[int, int], rich: bool = False
              ) -> tuple[int, int, int, int, int]:
    """Discard order: side cards before trumps, blanks before points, low before high.
    A seat ``rich`` in trumps (``_trump_rich``) gives a blank trump before any points."""
    e = state.ctx.eff[card.index]
    first = int(card.points > 0) if rich else 0
    return (first, int(e == TRUMP), card.points, state.ctx.strength[card.index], suit_len[e])


def _trump_rich(mine: int, out: Unseen) -> bool:
    """Does the seat, holding ``mine`` trumps, hold every unseen trump's match and more
    (all the trumps, or more than twice the ones it has not seen)? Then a low trump is
    cheaper than points."""
    unseen = sum(out[TRUMP].values())
    return mine > 0 and (unseen == 0 or mine > 2 * unseen)


def _void(state: PlayState, other: int, suit: int, out: Unseen) -> bool:
    """Is ``other`` void in ``suit`` as far as the seat behind ``out`` can tell: shown
    void, or every card of the suit it has not seen is gone (counting)?"""
    return suit in state.voids[other] or not out[suit]


def _later_opponents(state: PlayState, seat: int) -> list[int]:
    """The opponents of ``seat`` still to play in the current trick."""
    return [s for s in _still_to_play(state, seat) if not state.same_side(s, seat)]


def _secure(state: PlayState, seat: int, key: tuple[int, int, int] | None, suit: int,
            out: Unseen, later: list[int] | None = None) -> bool:
    """Would a play of strength ``key`` in effective suit ``suit`` keep the trick against
    the opponents still to play after ``seat`` (``later``, when known), as far as
    ``seat`` can tell?"""
    lead = state.lead
    assert lead is not None
    if key is None:
        return False
    if later is None:
        later = _later_opponents(state, seat)
    if not later:
        return True
    first = lead.units[0]
    probe = Unit(first.width, first.length, key[2], ())
    trumps_out = bool(out[TRUMP])
    for opp in later:
        void_led = _void(state, opp, lead.suit, out)
        if suit == lead.suit:
            if not void_led and not unbeatable_by(probe, out[suit], state.ctx):
                return False
            if suit != TRUMP and void_led and trumps_out and not _void(state, opp, TRUMP, out):
                return False
        else:  # a ruff: beaten only by a higher ruff from someone also void
            if void_led and not _void(state, opp, TRUMP, out) and \
                    not unbeatable_by(probe, out[TRUMP], state.ctx):
                return False
    return True


def certain_win(state: PlayState, seat: int, cards: Cards) -> bool:
    """Does ``cards`` (a follow) win the trick whatever the unseen cards are: it beats
    the trick, and no opponent still to play can beat it, even one void without having
    shown it? (A partner overtaking keeps the trick for the side.)"""
    lead = state.lead
    assert lead is not None
    ctx = state.ctx
    key = play_key(state.prules, lead, cards, ctx)
    if key is None or not takes_lead(key, state.best_key):
        return False
    later = [s for s in _still_to_play(state, seat) if not state.same_side(s, seat)]
    if not later:
        return True
    out = state.unseen(seat)
    first = lead.units[0]
    probe = Unit(first.width, first.length, key[2], ())
    suit = ctx.eff[cards[0].index]
    for opp in later:
        trump_void = _void(state, opp, TRUMP, out)
        if suit == lead.suit:
            if not _void(state, opp, suit, out) and \
                    not unbeatable_by(probe, out[suit], ctx):
                return False
            if suit != TRUMP and not trump_void:  # it may be void and ruff
                return False
        elif not trump_void and not unbeatable_by(probe, out[TRUMP], ctx):
            return False
    return True


def certain_loss(state: PlayState, seat: int, cards: Cards) -> bool:
    """Does ``cards`` (a follow) leave the trick to the opponents whatever the unseen
    cards are: an opponent's play leads it, ``cards`` does not beat it, and only
    opponents play after the seat?"""
    lead = state.lead
    assert lead is not None
    if state.same_side(state.plays[state.best][0], seat) or \
            any(state.same_side(s, seat) for s in _still_to_play(state, seat)):
        return False
    key = play_key(state.prules, lead, cards, state.ctx)
    return key is None or not takes_lead(key, state.best_key)


def ruffable_lead(state: PlayState, seat: int, cards: Cards) -> bool:
    """Is ``cards`` (a lead) of a side suit an opponent is void in (shown, or by counting)
    while it may still hold trumps: a lead the opponents can ruff?"""
    ctx = state.ctx
    suit = ctx.eff[cards[0].index]
    if state.lead is not None or suit == TRUMP:
        return False
    out = state.unseen(seat)
    if not out[TRUMP]:
        return False
    return any(_void(state, o, suit, out) and not _void(state, o, TRUMP, out)
               for o in range(state.players) if not state.same_side(o, seat))


# -- leading ------------------------------------------------------------------------------

def _lead_candidates(state: PlayState, seat: int, first: bool = False) -> list[Cards]:
    """Leads best first (``first``: only the best one)."""
    ctx = state.ctx
    hand = state.hands[seat]
    eff = ctx.eff
    may_throw = state.prules.throws
    max_width = state.prules.lead_width
    out = state.unseen(seat)
    opps, partner = _sides_of(state, seat)
    trumps_out = bool(out[TRUMP])
    voids = state.voids
    by_suit: dict[int, list[Card]] = {}
    for card in hand:
        by_suit.setdefault(eff[card.index], []).append(card)
    scored: list[tuple[float, int, Cards]] = []
    order = 0

    def add(score: float, cards: Cards) -> None:
        nonlocal order
        order += 1
        scored.append((score, -order, cards))

    few_left = len(hand) <= 4
    for suit, cards in by_suit.items():
        other = out[suit]
        side = suit != TRUMP
        # (``_void`` inlined: with trumps out, a seat is void in trumps only if shown)
        ruff_risk = side and trumps_out and any(
            (suit in voids[o] or not other) and TRUMP not in voids[o] for o in opps)
        partner_ruffs = side and (suit in voids[partner] or not other) and \
            trumps_out and TRUMP not in voids[partner] and not ruff_risk
        # a trump lead that is not a sure winner runs into the unseen higher trumps
        beaten = not side and trumps_out
        index_key = tuple([c.index for c in cards])
        parts = state.decomposed.get(index_key)
        if parts is None:
            parts = state.decomposed[index_key] = suit_parts(cards, ctx, max_width)
        units = parts.units
        winning = [unbeatable_by(u, other, ctx) for u in units]
        for i, unit in enumerate(units):
            if winning[i]:
                ucards = parts.cards[i]
                score = 60 + 8 * unit.size + parts.points[i] / 2
                if not side:
                    score -= 12 if not few_left else 0
                if ruff_risk:  # a "winner" an opponent ruffs: its points change sides
                    score -= 60 + parts.points[i]
                add(score, ucards)
        if may_throw and not ruff_risk and winning.count(True) >= 2:
            throw = first_sure_throw(parts, winning, other, ctx, max_width)
            if throw is not None:
                add(72 + 5 * len(throw) + sum(c.points for c in throw) / 2
                    - (15 if not side else 0), throw)
        for i, unit in enumerate(units):  # structure that is not a sure winner still
            if unit.size >= 2 and not winning[i]:  # forces pairs out
                pts = parts.points[i]
                add(28 + 4 * unit.size - (4 if ruff_risk or beaten else 2) * pts
                    - (10 if not side else 0) - (30 if ruff_risk else 0), parts.cards[i])
        low = parts.low
        # points led where they are lost: into a void an opponent can ruff, or under
        # unseen higher trumps
        score = 20 - (5 if ruff_risk or beaten else 2) * low.points \
            - (3 * len(cards) if side else 0)
        if side and len(cards) <= 2:
            score += 4
        if not side:
            score -= 14
        if partner_ruffs:
            score += 30
        if ruff_risk:
            score -= 6
        add(score, (low,))
        top = parts.top
        if top is not low:
            lost = 5 if ruff_risk or beaten else 2
            add(score - 15 - lost * (top.points - low.points), (top,))
    if first:  # (no two entries tie: ``order`` differs)
        return [max(scored)[2]]
    scored.sort(reverse=True)
    return [cards for _, _, cards in scored]


def suit_parts(cards: Sequence[Card], ctx: TrumpContext, max_width: int) -> SuitParts:
    """What a lead reads of one suit's ``cards`` (a pure function of them)."""
    strength, ident = ctx.strength, ctx.ident
    units = decompose(cards, ctx, max_width)
    # ``unit_cards`` of each unit: the first cards of each of its idents, in the order
    # of ``cards`` (a unit's idents differ: one per strength)
    by_ident: dict[int, list[Card]] = {}
    for card in cards:
        by_ident.setdefault(ident[card.index], []).append(card)
    ucards: list[Cards] = []
    for unit in units:
        width = unit.width
        if unit.length == 1:
            ucards.append(tuple(by_ident[unit.idents[0]][:width]))
        else:
            ucards.append(tuple([c for i in unit.idents for c in by_ident[i][:width]]))
    return SuitParts(units, ucards, [sum([c.points for c in u]) for u in ucards],
                     min(cards, key=lambda c: (c.points, strength[c.index])),
                     max(cards, key=lambda c: strength[c.index]))


def first_sure_throw(parts: SuitParts, winning: list[bool], other: Holding,
                     ctx: TrumpContext, max_width: int) -> Cards | None:
    """``engine.legal.sure_throws(cards, other, …)[0]`` (None when there is none), from
    the suit's ``parts`` and which of them ``other`` cannot beat (``winning``), trying
    the groups in the same order but stopping at the first sure throw."""
    units = [i for i, w in enumerate(winning) if w]
    if len(units) < 2:
        return None
    groups: Iterable[Sequence[int]]
    if len(units) <= 5:
        groups = (g for n in range(len(units), 1, -1) for g in combinations(units, n))
    else:
        groups = chain([units], (units[:i] + units[i + 1:] for i in range(len(units))))
    for group in groups:
        throw = tuple(c for i in group for c in parts.cards[i])
        pieces = decompose(throw, ctx, max_width)
        if len(pieces) > 1 and all(unbeatable_by(p, other, ctx) for p in pieces):
            return throw
    return None


# -- following ------------------------------------------------------------------------------

def _follow_candidates(state: PlayState, seat: int, first: bool = False) -> list[Cards]:
    """Follows best first (``first``: only what decides the best one)."""
    lead = state.lead
    assert lead is not None
    ctx = state.ctx
    eff = ctx.eff
    strength = ctx.strength
    prules = state.prules
    hand = state.hands[seat]
    n = lead.size
    led_suit = lead.suit
    led = list(filter(ctx.suit_cards[led_suit].__contains__, hand))
    rest: list[Card] = []
    # cards of the hand by effective suit: every suit when the seat may play cards of
    # other suits, else the led suit's only (the key's last field, the same for every
    # card it sorts) and the trumps when ``rich`` is asked
    suit_len: dict[int, int] = {}
    short = len(led) <= n  # (all the led suit's cards, and others)
    if short:
        for c in hand:
            e = eff[c.index]
            suit_len[e] = suit_len.get(e, 0) + 1
            if e != led_suit:
                rest.append(c)
    else:
        suit_len[led_suit] = len(led)
    best_seat = state.plays[state.best][0]
    best_cards = state.plays[state.best][1]
    best_key = state.best_key
    out = state.unseen(seat)
    found: list[list[int]] = []  # (``later``, once asked)

    def later() -> list[int]:
        if not found:
            found.append(_later_opponents(state, seat))
        return found[0]

    partner_winning = state.same_side(best_seat, seat)
    best_suit = eff[best_cards[0].index]
    secure = partner_winning and _secure(state, seat, best_key, best_suit, out, later())
    last = len(state.plays) + 1 == len(state.hands)  # nobody plays after this seat
    pts = state.trick_points()
    few_left = len(hand) <= 4
    single = n == 1 and len(led) > n  # (a single card followed in suit: ``rich`` unread)
    rich = False
    if not single and not partner_winning:
        if TRUMP not in suit_len:
            suit_len[TRUMP] = sum(map(ctx.suit_cards[TRUMP].__contains__, hand))
        rich = _trump_rich(suit_len[TRUMP], out)

    # (``_dump_key`` and ``_feed_key``, inlined: the play-outs' commonest sort keys)
    def dump_key(c: Card) -> tuple[int, int, int, int, int]:
        e = eff[c.index]
        return (int(c.points > 0) if rich else 0, int(e == TRUMP), c.points,
                strength[c.index], suit_len[e])

    def feed_key(c: Card) -> tuple[int, int, int]:
        return (int(eff[c.index] == TRUMP), -c.points, strength[c.index])

    def dump(pool: Sequence[Card], k: int) -> list[Card]:
        if k == 1 and pool:  # (the first of the sorted: the first minimum)
            return [min(pool, key=dump_key)]
        return sorted(pool, key=dump_key)[:k]

    def feed(pool: Sequence[Card], k: int) -> list[Card]:
        if k == 1 and pool:
            return [min(pool, key=feed_key)]
        return sorted(pool, key=feed_key)[:k]

    def holds(cards: Cards, suit: int) -> bool:
        return _secure(state, seat, play_key(prules, lead, cards, ctx), suit, out, later())

    ranked: list[Cards] = []
    if short:
        ruff = _ruff(state, seat, rest, lead) if not led else None
        if ruff is not None and not partner_winning and (
                pts >= 5 or few_left or n >= 2 or rich or
                (_cheap(state, ruff) and suit_len[TRUMP] >= 3 and
                 certain_win(state, seat, ruff))):
            ranked.append(ruff)
            if first:
                return ranked
        if first:
            return [tuple(led) + tuple((feed if secure else dump)(rest, n - len(led)))]
        fillers = [feed(rest, n - len(led))] if secure else []
        fillers.append(dump(rest, n - len(led)))
        if not secure:
            fillers.append(feed(rest, n - len(led)))
        for fill in fillers:
            ranked.append(tuple(led) + tuple(fill))
        if ruff is not None:
            ranked.append(ruff)
        return ranked
    if single:
        if first and secure:
            return [(max(led, key=lambda c: (c.points, -strength[c.index])),)]
        by_low = sorted(led, key=lambda c: (strength[c.index], c.points))
        keys = [play_key(prules, lead, (c,), ctx) for c in by_low]
        beating = [i for i, key in enumerate(keys) if takes_lead(key, best_key)]
        winners = [by_low[i] for i in beating]
        if secure:
            ranked.append((max(led, key=lambda c: (c.points, -strength[c.index])),))
        elif winners:
            if last:
                ranked.append((max(winners, key=lambda c: (c.points, -strength[c.index])),))
            else:
                sure = next((by_low[i] for i in beating if _secure(
                    state, seat, keys[i], lead.suit, out, later())), None)
                if sure is not None:
                    ranked.append((sure,))
                elif pts >= 10 or (partner_winning is False and few_left):
                    ranked.append((winners[-1],))
        if first and ranked:
            return ranked
        ranked.append((min(led, key=lambda c: _dump_key(c, state, suit_len)),))
        if winners:
            ranked.append((winners[0],))
            ranked.append((winners[-1],))
        if not secure:
            ranked.append((max(led, key=lambda c: (c.points, -strength[c.index])),))
        return ranked
    # several cards, enough of the led suit: obligations decide the structure
    shim = _RulesOnly(state)
    beat = _beat_in_suit(state, led, lead) if best_suit == lead.suit and not secure else None

    def options() -> Iterator[Cards | None]:  # (lazily: ``first`` stops at the first legal)
        if beat is not None and (last or pts >= 10 or holds(beat, lead.suit) or few_left):
            yield beat
        if secure or (partner_winning and last):
            yield _structured(state, led, lead, feed)
        yield _cheapest_structure(state, led, lead, dump)
        yield _structured(state, led, lead, dump)
        yield constructive_follow(shim, lead, hand, ctx)  # type: ignore[arg-type]
        yield beat

    for cards in options():
        if cards is None or len(cards) != n:
            continue
        try:
            prules.check_follow(lead, cards, hand, ctx)
        except EngineError:
            continue
        ranked.append(cards)
        if first:
            break
    if not ranked:
        ranked = legal_follows(shim, lead, hand, ctx)[:4]  # type: ignore[arg-type]
    return ranked


def _cheap(state: PlayState, cards: Cards) -> bool:
    """Low trumps without points (the lower half of the trump order)."""
    ctx = state.ctx
    half = len(ctx.tiers[TRUMP]) // 2
    return all(c.points == 0 and ctx.strength[c.index] < half for c in cards)


def _structured(state: PlayState, led: list[Card], lead: Lead, pick) -> Cards | None:  # type: ignore[no-untyped-def]
    """The lead's structure from ``led`` as the obligations ask, the rest chosen by ``pick``."""
    ctx = state.ctx
    if lead.pattern == "pair" or not state.prules.follows_units:
        if lead.pattern != "pair":
            return None
        holding = holding_of(led, ctx)
        pairs = [i for i, k in holding.items() if k >= 2]
        if pairs:
            pool = [c for c in led
                    if ctx.ident[c.index] in pairs and holding[ctx.ident[c.index]] >= 2]
            first = pick(pool, 1)[0]
            rest = list(led)
            rest.remove(first)
            mate = next(c for c in rest if ctx.ident[c.index] == ctx.ident[first.index])
            return (first, mate)
        return tuple(pick(led, 2))
    chosen, pool = fill_structure(led, lead, ctx)
    return tuple(chosen) + tuple(pick(pool, lead.size - len(chosen)))


def _cheapest_structure(state: PlayState, led: list[Card], lead: Lead,
                        pick: Callable[[Sequence[Card], int], list[Card]]) -> Cards | None:
    """``_structured`` with its units the cheapest of their shapes (fewest points, then
    the weakest) instead of the strongest: what a seat gives to a trick it does not take.
    (Built one unit at a time, so it may miss an obligation: the caller checks it.)"""
    ctx = state.ctx
    if lead.pattern == "pair" or not state.prules.follows_units:
        return None  # (``_structured`` already picks a pair's cards by ``pick``)
    units = fill_units(holding_of(led, ctx), ctx, lead.units)
    if not units:
        return None
    left = list(led)
    chosen: list[Card] = []
    for unit in units:
        options = unit_candidates(holding_of(left, ctx), ctx, unit.width, unit.length)
        if not options:
            return None
        cheapest = min((unit_cards(u, left, ctx) for u in options),
                       key=lambda cards: (sum(c.points for c in cards),
                                          sum(ctx.strength[c.index] for c in cards)))
        take_out(left, cheapest)
        chosen += cheapest
    return tuple(chosen) + tuple(pick(left, lead.size - len(chosen)))


def _beat_in_suit(state: PlayState, led: list[Card], lead: Lead) -> Cards | None:
    """The lowest same-shape play in the led suit that beats the trick (single-unit leads)."""
    if len(lead.units) != 1:
        return None
    ctx = state.ctx
    unit = lead.units[0]
    for cand in sorted(unit_candidates(holding_of(led, ctx), ctx, unit.width, unit.length),
                       key=lambda u: u.top):
        cards = unit_cards(cand, led, ctx)
        key = play_key(state.prules, lead, cards, ctx)
        if takes_lead(key, state.best_key):
            return cards
    return None


def _ruff(state: PlayState, seat: int, rest: list[Card], lead: Lead) -> Cards | None:
    """The cheapest all-trump play that beats the trick, if the seat is void in the led suit."""
    ctx = state.ctx
    trumps = [c for c in rest if ctx.eff[c.index] == TRUMP]
    n = lead.size
    if len(trumps) < n or lead.suit == TRUMP:
        return None
    strength = ctx.strength
    prules = state.prules

    def wins(cards: Cards) -> bool:
        key = play_key(prules, lead, cards, ctx)
        return takes_lead(key, state.best_key)

    if n == 1:
        for card in sorted(trumps, key=lambda c: (strength[c.index], c.points)):
            if wins((card,)):
                return (card,)
        return None
    if len(lead.units) == 1:
        unit = lead.units[0]
        for cand in sorted(unit_candidates(holding_of(trumps, ctx), ctx, unit.width, unit.length),
                           key=lambda u: u.top):
            cards = unit_cards(cand, trumps, ctx)
            if wins(cards):
                return cards
        return None
    chosen, pool = fill_structure(trumps, lead, ctx)
    pool.sort(key=lambda c: (strength[c.index], c.points))
    cards = tuple(chosen) + tuple(pool[: n - len(chosen)])
    return cards if len(cards) == n and wins(cards) else None
