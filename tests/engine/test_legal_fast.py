"""The fast enumerations of engine.legal agree with slow, simple references (hypothesis).

The references here recount everything from the seat's view and try every candidate
through the play rules: they are what the listings mean, written without shortcuts.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations
from unittest.mock import patch

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine import legal
from engine.cards import ALL_CARDS, Card, Rank, Suit, card_index, parse_card, parse_cards
from engine.errors import EngineError
from engine.game import Dealing, Game, HandOver, MatchOver, Playing, play_rules_for
from engine.legal import (
    _in_candidate_order,
    _suit,
    _units_of,
    _Unseen,
    constructive_follow,
    legal_declarations,
    legal_follows,
    legal_leads,
    seen_by,
    unseen_by,
)
from engine.order import SuitSystem, TrumpContext, trump_context
from engine.patterns import ChangzhuPlay
from engine.plays import (
    FOLLOW_BUDGET,
    ClassicPlay,
    Lead,
    PlayRules,
    fill_structure,
    lowness,
    trick_winner,
)
from engine.rules import DeclarationStyle, PlayStyle, Ruleset, ruleset
from engine.shapes import (
    Obligation,
    Unit,
    _match,
    _take_run,
    copies_of,
    decompose,
    decompose_greedy,
    distinct_strengths,
    fill_units,
    follow_amounts,
    follow_value,
    holding_of,
    longest_run,
    match_greedy,
    may_fall_short,
    multisets,
    multisets_meeting,
    multisets_of_groups,
    multisets_with_kinds,
    obligation,
    take_out,
    unbeatable_by,
    unit_candidates,
    unit_cards,
    unit_of,
    unit_order,
    without,
)
from engine.simulate import random_action
from engine.values import evolve
from engine.views import seat_view

Cards = tuple[Card, ...]

RULESETS = {
    "classic": ruleset("classic"),
    "four-decks": ruleset("classic", decks=4),
    "titanic": ruleset("titanic"),
    "one-deck": ruleset("one-deck"),
    "red-black": ruleset("red-black"),
    "changzhu": ruleset("changzhu"),
}
#: Positions with more candidates than this are left to the budget checks alone.
REFERENCE_CAP = 20_000


# -- references -------------------------------------------------------------------------

def reference_seen(game: Game, seat: int) -> Counter[Card]:
    view = seat_view(game, seat)
    seen = Counter(view.hand) + Counter(view.kitty)
    for plays, _, _ in view.tricks:
        for _, cards in plays:
            seen.update(cards)
    for _, cards in view.trick:
        seen.update(cards)
    return seen


def reference_leads(game: Game, seat: int) -> list[Cards]:
    """Singles (strongest first, in hand order on a tie), every unit, and throws (or
    changzhu patterns), each once, suit by suit (by suit number: the side suits, then the
    trumps)."""
    view = seat_view(game, seat)
    ctx = view.ctx
    assert ctx is not None
    rules = game.play_rules
    changzhu = isinstance(rules, ChangzhuPlay)
    max_width = 2 if changzhu else game.rules.max_width
    unseen = Counter(dict.fromkeys(ALL_CARDS, game.rules.decks)) - reference_seen(game, seat)
    out: list[Cards] = []
    keys: set[tuple[int, ...]] = set()

    def add(cards: Sequence[Card]) -> None:
        key = tuple(sorted(c.index for c in cards))
        if key not in keys:
            keys.add(key)
            out.append(tuple(cards))

    for suit in sorted({ctx.eff[c.index] for c in view.hand}):
        cards = [c for c in view.hand if ctx.eff[c.index] == suit]
        holding = holding_of(cards, ctx)
        for card in sorted(dict.fromkeys(cards), key=lambda c: -ctx.strength[c.index]):
            add((card,))
        for width in range(2, max_width + 1):
            length = 1
            while found := unit_candidates(holding, ctx, width, length):
                for unit in found:
                    add(unit_cards(unit, cards, ctx))
                length += 1
        if changzhu:
            for pattern in rules.pattern_leads(cards, ctx):
                add(pattern)
            continue
        others = holding_of([c for c in unseen.elements() if ctx.eff[c.index] == suit], ctx)
        for throw in reference_sure_throws(cards, others, ctx, max_width):
            add(throw)
    return out


def reference_sure_throws(cards: Sequence[Card], others: dict[int, int], ctx: TrumpContext,
                          max_width: int) -> list[Cards]:
    def greedy(play: Sequence[Card]) -> list:
        return decompose_greedy(holding_of(play, ctx), ctx, max_width)

    units = [u for u in greedy(cards) if unbeatable_by(u, others, ctx)]
    if len(units) <= 5:
        groups = [g for n in range(len(units), 1, -1) for g in combinations(units, n)]
    else:
        groups = [tuple(units)] + [tuple(units[:i] + units[i + 1:]) for i in range(len(units))]
    out = []
    for group in groups:
        throw = tuple(c for u in group for c in unit_cards(u, cards, ctx))
        parts = greedy(throw)
        if len(parts) > 1 and all(unbeatable_by(p, others, ctx) for p in parts):
            out.append(throw)
    return out


def reference_multisets(cards: Sequence[Card], n: int) -> list[Cards]:
    """Every distinct multiset of n cards, in the order of first appearance among the
    combinations of the cards sorted by index (highest first)."""
    ordered = sorted(cards, key=lambda c: -c.index)
    return list(dict.fromkeys(combinations(ordered, n)))


def accepted(game: Game, lead: Lead, play: Cards, hand: Sequence[Card], ctx: TrumpContext
             ) -> bool:
    try:
        game.play_rules.check_follow(lead, play, hand, ctx)
    except EngineError:
        return False
    return True


# -- positions --------------------------------------------------------------------------

def positions(rules: Ruleset, seed: int, stops: int) -> Iterator[Game]:
    """The game at ``stops`` random moments of the play of one random hand (same object,
    so yielded one by one)."""
    game = Game(rules, seed)
    rng = random.Random(seed)
    plays = 0
    moments = set(random.Random(seed + 1).sample(range(rules.hand_size * rules.players),
                                                 stops))
    while not isinstance(game.phase, (HandOver, MatchOver)):
        if isinstance(game.phase, Playing):
            if plays in moments:
                yield game
            plays += 1
        game.apply(random_action(game, rng))


def _hands(game: Game) -> list[tuple[int, tuple[Card, ...]]]:
    return [(seat, seat_view(game, seat).hand) for seat in range(game.players)]


# -- properties -------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(RULESETS))
@given(seed=st.integers(0, 10**9))
@settings(max_examples=8)
def test_leads_agree_with_the_reference(name: str, seed: int) -> None:
    for game in positions(RULESETS[name], seed, stops=12):
        phase = game.phase
        if phase.trick.lead is not None:
            continue
        for seat, hand in _hands(game):
            if hand:
                assert legal_leads(game, seat) == reference_leads(game, seat)


@pytest.mark.parametrize("name", list(RULESETS))
@given(seed=st.integers(0, 10**9))
@settings(max_examples=8)
def test_no_lead_is_listed_twice(name: str, seed: int) -> None:
    for game in positions(RULESETS[name], seed, stops=12):
        if game.phase.trick.lead is None:
            for seat, hand in _hands(game):
                if hand:
                    leads = [tuple(sorted(c.index for c in lead))
                             for lead in legal_leads(game, seat)]
                    assert len(leads) == len(set(leads))


def test_five_adjacent_pairs_are_listed_once_in_changzhu() -> None:
    """They are a 飘雪花 and the five-pair tractor too: one lead, not two."""
    hands = [parse_cards(h) for h in ("JS JS QS QS KS KS AS AS 2D 2D 4C 6C",
                                      "BJ SJ 9S 9H 5C 3C 10S 10S 8S 8S 4S 4S",
                                      "4D 6D 7D 8D 10D JD QD KD AD 4H 6H 7H",
                                      "4C 6C 7C 8C 10C JC QC KC AC 8H 10H JH")]
    game = Game.from_position(ruleset("changzhu"), level=Rank.NINE, trump=Suit.SPADES,
                              dealer=0, hands=hands)
    tens = [lead for lead in legal_leads(game, 0) if len(lead) == 10]
    assert [Counter(lead) for lead in tens] == [Counter(hands[0][:10])]


@pytest.mark.parametrize("name", list(RULESETS))
@given(seed=st.integers(0, 10**9))
@settings(max_examples=8)
def test_follows_agree_with_trying_every_candidate(name: str, seed: int) -> None:
    for game in positions(RULESETS[name], seed, stops=16):
        lead = game.phase.trick.lead
        if lead is None:
            continue
        ctx = game.phase.ctx
        for _seat, hand in _hands(game):
            if len(hand) < lead.size:
                continue
            n = lead.size
            led = [c for c in hand if ctx.eff[c.index] == lead.suit]
            pool = [c for c in hand if ctx.eff[c.index] != lead.suit] if len(led) <= n else led
            candidates = multisets(pool, n - len(led) if len(led) <= n else n,
                                   REFERENCE_CAP + 1)
            if len(candidates) > REFERENCE_CAP:
                continue
            if len(led) <= n:
                candidates = [tuple(led) + fill for fill in candidates]
            base = constructive_follow(game, lead, hand, ctx)
            expected: dict[tuple[int, ...], Cards] = {}
            for cards in ([base] if base is not None else []) + candidates[:FOLLOW_BUDGET]:
                if accepted(game, lead, cards, hand, ctx):
                    expected.setdefault(tuple(sorted(c.index for c in cards)), cards)
            fast = legal_follows(game, lead, hand, ctx)
            if len(candidates) <= FOLLOW_BUDGET:
                assert fast == list(expected.values())
            else:  # over budget: at least the reference's, all legal, none twice
                keys = [tuple(sorted(c.index for c in cards)) for cards in fast]
                assert len(set(keys)) == len(keys)
                assert set(expected) <= set(keys)
                assert all(accepted(game, lead, cards, hand, ctx) for cards in fast)


@pytest.mark.parametrize("name", ["classic", "titanic", "red-black"])
@given(seed=st.integers(0, 10**9))
@settings(max_examples=6)
def test_seen_and_unseen_are_recounts(name: str, seed: int) -> None:
    rules = RULESETS[name]
    for game in positions(rules, seed, stops=10):
        for seat in range(game.players):
            seen = reference_seen(game, seat)
            assert seen_by(game, seat) == seen
            assert unseen_by(game, seat) == Counter(dict.fromkeys(ALL_CARDS, rules.decks)) - seen


@pytest.mark.parametrize("name", ["classic", "titanic", "three-bid", "find-friends"])
@given(seed=st.integers(0, 10**9))
@settings(max_examples=4)
def test_the_played_count_is_a_recount_of_the_tricks(name: str, seed: int) -> None:
    for game in positions(ruleset(name), seed, stops=12):
        phase = game.phase
        count = [0] * len(ALL_CARDS)
        for trick, _, _ in phase.tricks:
            for _, cards in trick.plays:
                for card in cards:
                    count[card.index] += 1
        assert phase.played == tuple(count)


@pytest.mark.parametrize("name", [*RULESETS, "three-bid", "find-friends"])
@given(seed=st.integers(0, 10**9))
@settings(max_examples=4)
def test_leads_listed_from_a_seats_kept_suits_are_the_leads_listed_afresh(
        name: str, seed: int) -> None:
    """Every lead of a hand, listed in play order (a suit that lost no card since the
    seat's last listing is reused), is the listing with nothing kept."""
    game = Game(RULESETS[name] if name in RULESETS else ruleset(name), seed)
    rng = random.Random(seed)
    while not isinstance(game.phase, (HandOver, MatchOver)):
        phase = game.phase
        if isinstance(phase, Playing) and phase.trick.lead is None:
            kept = legal_leads(game, phase.turn)
            legal.forget()
            assert kept == legal_leads(game, phase.turn)
        game.apply(random_action(game, rng))


def test_a_seats_kept_suits_are_not_reused_for_other_cards() -> None:
    """The same hand's kitty and seat with other cards (as a position built by hand
    may have): the suits are told by their cards, not by the seat."""
    game = next(g for g in positions(RULESETS["classic"], 7, stops=30)
                if g.phase.trick.lead is None and g.phase.tricks)
    phase = game.phase
    seat = phase.turn
    first = legal_leads(game, seat)
    hands = list(phase.hands)
    other = (seat + 1) % game.players
    hands[seat], hands[other] = hands[other], hands[seat]
    swapped = Game.of(evolve(game.state, phase=evolve(phase, hands=tuple(hands))))
    listed = legal_leads(swapped, seat)
    legal.forget()
    assert listed == legal_leads(swapped, seat)
    assert listed != first


def test_a_style_with_leads_of_its_own_says_so() -> None:
    """``legal_leads`` asks for a style's own leads only where it says it has some."""
    for rules in RULESETS.values():
        style = play_rules_for(rules)
        own = type(style).pattern_leads is not PlayRules.pattern_leads
        assert style.has_pattern_leads == own


@st.composite
def suit_cards(draw: st.DrawFn) -> tuple[list[Card], TrumpContext, int]:
    """Some cards of one effective suit under a random context and ruleset."""
    rules = RULESETS[draw(st.sampled_from(sorted(RULESETS)))]
    ctx = trump_context(draw(st.sampled_from(rules.level_ranks)),
                        draw(st.sampled_from([None, *rules.suits.side_suits])),
                        frozenset(rules.permanent_trumps), rules.suits)
    suit = draw(st.sampled_from(sorted(set(ctx.eff))))
    pool = [c for c in ALL_CARDS if ctx.eff[c.index] == suit] * rules.copies
    cards = draw(st.lists(st.sampled_from(range(len(pool))), min_size=1, max_size=24,
                          unique=True))
    width = 2 if rules.play is PlayStyle.CHANGZHU else rules.max_width
    return [pool[i] for i in cards], ctx, width


@given(suit_cards(), st.data())
@settings(max_examples=300)
def test_a_suit_picked_by_its_cards_is_the_suit_by_eff(
        case: tuple[list[Card], TrumpContext, int], data: st.DataObject) -> None:
    """``filter(ctx.suit_cards[s].__contains__, hand)`` (the simulator's follows) is the
    per-card test it replaced, in the hand's order."""
    _, ctx, _ = case
    hand = data.draw(st.lists(st.sampled_from(ALL_CARDS), max_size=30))
    for suit in sorted(set(ctx.eff)):
        assert list(filter(ctx.suit_cards[suit].__contains__, hand)) == \
            [c for c in hand if ctx.eff[c.index] == suit]
    assert sorted(ctx.suit_cards) == sorted(set(ctx.eff))


@given(suit_cards())
@settings(max_examples=300)
def test_decompose_agrees_with_the_greedy(case: tuple[list[Card], TrumpContext, int]) -> None:
    cards, ctx, width = case
    assert decompose(cards, ctx, width) == decompose_greedy(holding_of(cards, ctx), ctx, width)


def reference_decompose_greedy(holding: dict[int, int], ctx: TrumpContext, max_width: int
                               ) -> list[Unit]:
    """``decompose_greedy`` as it was first written: every n-of-a-kind and single taken
    by ``_take_run`` on the holding as it stands (a tractor's equal cards: those held
    fewest times)."""
    holding = dict(holding)
    units: list[Unit] = []
    while True:
        best = (0, 0, 0, 0)  # (cards, width, top, length)
        for width in range(max_width, 1, -1):
            top, length = longest_run(holding, ctx, width, cap=99)
            if length >= 2 and (width * length, width) > best[:2]:
                best = (width * length, width, top, length)
        if not best[0]:
            break
        units.append(_take_run(holding, ctx, best[1], best[2], best[3], fewest=True))
    for width in range(max_width, 1, -1):
        for ident in sorted(holding, key=lambda i: -ctx.strength[i]):
            while holding.get(ident, 0) >= width:
                units.append(_take_run(holding, ctx, width, ctx.strength[ident], 1))
    for ident in sorted(holding, key=lambda i: -ctx.strength[i]):
        for _ in range(holding[ident]):
            units.append(Unit(1, 1, ctx.strength[ident], (ident,)))
    units.sort(key=unit_order)
    return units


@given(suit_cards())
@settings(max_examples=300)
def test_the_greedy_decompose_is_the_reference(case: tuple[list[Card], TrumpContext, int]
                                               ) -> None:
    """``decompose_greedy``'s kinds taken from a table of each strength's idents, against
    the holding re-sorted for every kind."""
    cards, ctx, width = case
    holding = holding_of(cards, ctx)
    assert decompose_greedy(holding, ctx, width) == reference_decompose_greedy(holding, ctx, width)


def test_a_tractor_of_equal_level_cards_takes_those_that_leave_the_widest_kinds() -> None:
    """Was: the tractor took the level cards held most, ``2C 2C`` out of three, which
    left ``2S 2S`` and a single ``2C``: a throw of a tractor and a triple was read as a
    tractor, a pair and a single, and failed on any higher single."""
    ctx = trump_context(Rank.TWO, Suit.HEARTS)
    units = decompose(parse_cards("2S 2S 2C 2C 2C 2H 2H"), ctx, 3)
    assert [(u.width, u.length) for u in units] == [(2, 2), (3, 1)]
    assert units[1].idents == (ctx.ident[parse_card("2C").index],)


@given(suit_cards())
@settings(max_examples=300)
def test_a_suit_lists_the_units_and_components_the_general_functions_find(
        case: tuple[list[Card], TrumpContext, int]) -> None:
    """``_suit``'s short paths (a suit of singles; of idents held once or twice, no
    two of a strength) against the general ``_units_of`` and ``decompose``."""
    cards, ctx, width = case
    suit = _suit(cards, ctx, width)
    singles = [(c,) for c in sorted(dict.fromkeys(cards), key=lambda c: -ctx.strength[c.index])]
    by_ident: dict[int, list[Card]] = {}
    for card in cards:
        by_ident.setdefault(ctx.ident[card.index], []).append(card)
    assert suit.leads == singles + _units_of(by_ident, ctx, width)
    if max(map(len, by_ident.values())) > 1:  # (of singles, the components are the leads)
        parts = decompose(cards, ctx, width)
        assert suit._components() == parts
        assert suit._part_cards == [tuple(c for key in u.idents for c in by_ident[key][:u.width])
                                    for u in parts]


@given(suit_cards(), st.data())
@settings(max_examples=300)
def test_components_together_decompose_into_themselves(
        case: tuple[list[Card], TrumpContext, int], data: st.DataObject) -> None:
    """What engine.legal's cached throws rely on where each strength has one ident."""
    cards, ctx, width = case
    assume(distinct_strengths(holding_of(cards, ctx), ctx) is not None)
    parts = decompose(cards, ctx, width)
    assume(len(parts) >= 2)
    chosen = data.draw(st.lists(st.sampled_from(range(len(parts))), min_size=2, unique=True))
    pool = list(cards)
    throw: list[Card] = []
    for i, unit in enumerate(parts):
        unit_of_cards = unit_cards(unit, pool, ctx)
        for card in unit_of_cards:
            pool.remove(card)
        if i in chosen:
            throw += unit_of_cards
    assert decompose(throw, ctx, width) == [parts[i] for i in sorted(chosen)]


@given(st.data())
@settings(max_examples=300)
def test_a_suits_sure_throws_are_the_references(data: st.DataObject) -> None:
    """``_Suit.sure_throws`` (its shortcuts: no components worked out where two cannot
    be sure, ``_Unseen.tops``) against the reference, many decks foremost."""
    name = data.draw(st.sampled_from(["four-decks", "four-decks", "titanic", "classic",
                                      "red-black"]))
    rules = RULESETS[name]
    ctx = trump_context(data.draw(st.sampled_from(rules.level_ranks)),
                        data.draw(st.sampled_from([None, *rules.suits.side_suits])),
                        frozenset(rules.permanent_trumps), rules.suits)
    suit = data.draw(st.sampled_from(sorted(set(ctx.eff))))
    pool = [c for c in ALL_CARDS if ctx.eff[c.index] == suit] * rules.decks
    chosen = data.draw(st.lists(st.sampled_from(range(len(pool))), min_size=2, max_size=26,
                                unique=True))
    cards = [pool[i] for i in chosen]
    held = Counter(card.index for card in cards)
    seen = [held[i] + data.draw(st.integers(0, rules.decks - held[i]))
            if ctx.eff[i] == suit else rules.decks for i in range(len(ALL_CARDS))]
    unseen = _Unseen(seen, rules.decks, ctx)
    others = holding_of([c for c in ALL_CARDS if ctx.eff[c.index] == suit
                         for _ in range(rules.decks - seen[c.index])], ctx)
    found = _suit(cards, ctx, rules.max_width).sure_throws(unseen, suit)
    assert found == reference_sure_throws(cards, others, ctx, rules.max_width)


@given(st.data())
@settings(max_examples=200)
def test_a_suit_of_singles_is_told_beaten_by_an_unseen_card_above_its_second(
        data: st.DataObject) -> None:
    """``beaten_by`` (the listing's shortcut past a suit's sure throws): the strongest card
    the seat has not seen where it beats the second single; a card handed down from the
    suit's earlier cards only where it is stronger than the second."""
    rules = RULESETS[data.draw(st.sampled_from(["classic", "four-decks", "titanic",
                                                "one-deck"]))]
    ctx = trump_context(data.draw(st.sampled_from(rules.level_ranks)),
                        data.draw(st.sampled_from([None, *rules.suits.side_suits])),
                        frozenset(rules.permanent_trumps), rules.suits)
    suit = data.draw(st.sampled_from(sorted(set(ctx.eff))))
    pool = [c for c in ALL_CARDS if ctx.eff[c.index] == suit]
    cards = data.draw(st.lists(st.sampled_from(pool), min_size=2, max_size=12, unique=True))
    seen = [int(c in cards) + data.draw(st.integers(0, rules.decks - int(c in cards)))
            if ctx.eff[c.index] == suit else rules.decks for c in ALL_CARDS]
    strength = ctx.strength
    second = sorted(strength[c.index] for c in cards)[-2]
    above = [c.index for c in pool if seen[c.index] < rules.decks and strength[c.index] > second]
    leads = _suit(cards, ctx, rules.max_width)
    throws = leads.sure_throws(_Unseen(seen, rules.decks, ctx), suit)
    if above:
        assert throws == []
        assert leads.beaten_by in above
        assert strength[leads.beaten_by] == max(strength[i] for i in above)
    else:
        assert leads.beaten_by is None
    card = data.draw(st.sampled_from(pool))
    fresh = _suit(cards, ctx, rules.max_width)
    fresh.may_be_beaten_by(card.index)
    assert (fresh.beaten_by == card.index) == (strength[card.index] > second)


@given(st.data())
@settings(max_examples=300)
def test_the_flat_scans_of_what_is_unseen_are_the_tier_scans(data: st.DataObject) -> None:
    """``_Unseen``'s scans card by card (where each card is its own ident) or ident group
    by group (red-black) against its scans by tier and ident group (the old path),
    questions in any order (the strongest unseen card above a floor: also the card, one
    the seat has not seen); an unseen tractor above a tractor against ``unbeatable_by`` on
    the unseen holding."""
    rules = RULESETS[data.draw(st.sampled_from(["four-decks", "titanic", "classic",
                                                "red-black"]))]
    ctx = trump_context(data.draw(st.sampled_from(rules.level_ranks)),
                        data.draw(st.sampled_from([None, *rules.suits.side_suits])),
                        frozenset(rules.permanent_trumps), rules.suits)
    seen = [data.draw(st.integers(0, rules.decks)) for _ in ALL_CARDS]
    flat, tiers = _Unseen(seen, rules.decks, ctx), _Unseen(seen, rules.decks, ctx)
    assert (flat._flat is not None) == ctx.ident_is_card != (flat._paired is not None)
    tiers._flat = tiers._paired = None
    most = rules.decks * (1 if ctx.ident_is_card else 2)  # (copies of an ident)
    for _ in range(data.draw(st.integers(1, 12))):
        suit = data.draw(st.sampled_from(sorted(set(ctx.eff))))
        if data.draw(st.booleans()):
            widest = data.draw(st.integers(1, most))
            assert flat.tops(suit, widest) == tiers.tops(suit, widest)
        else:
            floor = data.draw(st.integers(-1, len(ctx.ident_tiers[suit])))
            top, card = flat.strongest(suit, floor)
            assert top == tiers.strongest(suit, floor)[0] == \
                (tiers.tops(suit, 1)[1] if tiers.tops(suit, 1)[1] > floor else -1)
            if ctx.ident_is_card and top >= 0:
                assert card is not None and ctx.strength[card] == top
                assert seen[card] < rules.decks and ctx.eff[card] == suit
        assert flat.holding(suit) == tiers.holding(suit)
        levels = len(ctx.ident_tiers[suit])
        if levels >= 2:
            length = data.draw(st.integers(2, min(4, levels)))
            tractor = Unit(data.draw(st.integers(2, max(2, most))), length,
                           data.draw(st.integers(length - 1, levels - 1)), (0,) * length)
            assert flat.beats_tractor(suit, tractor) == tiers.beats_tractor(suit, tractor) \
                == (not unbeatable_by(tractor, tiers.holding(suit), ctx))


@given(suit_cards(), st.integers(0, 5))
@settings(max_examples=200)
def test_multisets_are_each_distinct_multiset_once(
        case: tuple[list[Card], TrumpContext, int], n: int) -> None:
    cards = case[0][:12]
    assert multisets(cards, n) == reference_multisets(cards, n)
    assert multisets(cards, n, 3) == reference_multisets(cards, n)[:3]


def _split_suit(draw: st.DrawFn, names: Sequence[str]
                ) -> tuple[Ruleset, TrumpContext, int, list[Card], list[Card]]:
    """One of the rulesets ``names`` under a drawn trump, one effective suit of it, and
    every copy of that suit's cards dealt at random into two halves (leader, the rest)."""
    rules = RULESETS[draw(st.sampled_from(names))]
    ctx = trump_context(draw(st.sampled_from(rules.level_ranks)),
                        draw(st.sampled_from([None, *rules.suits.side_suits])),
                        frozenset(rules.permanent_trumps), rules.suits)
    suit = draw(st.sampled_from(sorted(set(ctx.eff))))
    pool = [c for c in ALL_CARDS if ctx.eff[c.index] == suit] * rules.copies
    order = draw(st.permutations(range(len(pool))))
    half = len(pool) // 2
    return rules, ctx, suit, [pool[i] for i in order[:half]], [pool[i] for i in order[half:]]


@st.composite
def constructed_follow(draw: st.DrawFn, names: Sequence[str]
                       ) -> tuple[Game, Lead, list[Card], TrumpContext]:
    """A lead of one suit and a follower holding more of that suit (and some others):
    any cards for a classic lead, any pattern for a changzhu one (each kind as likely)."""
    rules, ctx, suit, leader, rest = _split_suit(draw, names)
    game = Game(rules, 0)
    prules = game.play_rules
    if isinstance(prules, ChangzhuPlay):
        holding = holding_of(leader, ctx)
        options = [(c,) for c in leader] + [
            unit_cards(u, leader, ctx) for n in range(1, 6)
            for u in unit_candidates(holding, ctx, 2, n)] + list(
                prules.pattern_leads(leader, ctx))
        by_pattern: dict[str, list[Cards]] = {}
        for cards in options:
            by_pattern.setdefault(prules.lead(cards, ctx).pattern, []).append(cards)
        lead_cards = draw(st.sampled_from(by_pattern[draw(st.sampled_from(sorted(by_pattern)))]))
    else:
        picked = draw(st.lists(st.integers(0, len(leader) - 1), min_size=1, max_size=6,
                                unique=True))
        lead_cards = tuple(leader[i] for i in sorted(picked))
    lead = prules.lead(lead_cards, ctx)
    assume(len(rest) > lead.size)
    held = draw(st.integers(lead.size + 1, min(len(rest), lead.size + 16)))
    others = [c for c in ALL_CARDS if ctx.eff[c.index] != suit][:draw(st.integers(0, 4))]
    return game, lead, rest[:held] + others, ctx


def _agrees_with_trying_every_candidate(game: Game, lead: Lead, hand: list[Card],
                                        ctx: TrumpContext) -> None:
    led = [c for c in hand if ctx.eff[c.index] == lead.suit]
    candidates = multisets(led, lead.size, FOLLOW_BUDGET + 1)
    if len(candidates) > FOLLOW_BUDGET:
        return  # the random positions above check the budget
    legal = {tuple(sorted(c.index for c in cards)) for cards in candidates
             if accepted(game, lead, cards, hand, ctx)}
    fast = legal_follows(game, lead, hand, ctx)
    keys = [tuple(sorted(c.index for c in cards)) for cards in fast]
    assert len(set(keys)) == len(keys)
    assert set(keys) == legal


@given(constructed_follow(["changzhu"]))
@settings(max_examples=300)
def test_changzhu_follows_are_what_trying_every_candidate_finds(
        case: tuple[Game, Lead, list[Card], TrumpContext]) -> None:
    _agrees_with_trying_every_candidate(*case)


@given(constructed_follow(["classic", "four-decks", "titanic", "one-deck", "red-black"]))
@settings(max_examples=200)
def test_classic_follows_are_what_trying_every_candidate_finds(
        case: tuple[Game, Lead, list[Card], TrumpContext]) -> None:
    _agrees_with_trying_every_candidate(*case)


@given(suit_cards(), suit_cards())
@settings(max_examples=300)
def test_follow_amounts_are_the_follow_values(
        case: tuple[list[Card], TrumpContext, int], lead_case: tuple[list[Card], TrumpContext, int]
        ) -> None:
    cards, ctx, width = case
    lead = decompose([c for c in lead_case[0] if ctx.eff[c.index] == ctx.eff[cards[0].index]]
                     or cards[:3], ctx, width)
    holding = holding_of(cards, ctx)
    assert follow_amounts(holding, lead, ctx) == \
        [o.amount for o in follow_value(holding, lead, ctx)]


def _greatest_by_trying_everything(holding: dict[int, int], lead: Sequence[Unit],
                                   ctx: TrumpContext) -> list[int]:
    """The reference of ``follow_amounts``: every way the lines may be met (each line any
    amount it can take, from any cards), the line-by-line greatest of them all."""
    lines = []  # (tractor, width, the component's length where it starts, else 0)
    for unit in lead:
        if unit.width >= 2:
            heads = [(True, unit.width)] if unit.length >= 2 else []
            for k, (tractor, width) in enumerate(
                    heads + [(False, w) for w in range(unit.width, 1, -1)]):
                lines.append((tractor, width, unit.length if k == 0 else 0))

    def every(at: int, need: int, counts: dict[int, int]) -> Iterator[tuple[int, ...]]:
        if at == len(lines):
            yield ()
            return
        tractor, width, start = lines[at]
        need = start or need
        options: list[tuple[int, dict[int, int]]] = [(0, counts)]
        if tractor:
            for length in range(2, need + 1):
                for unit in unit_candidates(counts, ctx, width, length):
                    after = dict(counts)
                    for ident in unit.idents:
                        after[ident] -= width
                    options.append((length, after))
        else:
            idents = [i for i, count in counts.items() if count >= width]
            for taken in range(1, need + 1):
                for picked in combinations([i for i in idents
                                            for _ in range(counts[i] // width)], taken):
                    after = dict(counts)
                    for ident in picked:
                        after[ident] -= width
                    options.append((taken, after))
        for amount, after in options:
            for rest in every(at + 1, need - amount, after):
                yield (amount, *rest)

    return list(max(every(0, 0, dict(holding))))


@st.composite
def groups_of_one_suit(draw: st.DrawFn) -> tuple[dict[int, int], list[Unit], TrumpContext]:
    """A holding and a lead of one suit with many decks (both drawn as a few cards held
    up to every copy: triples, quads, tractors of them), the lead of two or more parts
    most of the time."""
    rules = RULESETS[draw(st.sampled_from(["titanic", "four-decks", "classic"]))]
    ctx = trump_context(draw(st.sampled_from(rules.level_ranks)),
                        draw(st.sampled_from([None, *rules.suits.side_suits])),
                        frozenset(rules.permanent_trumps), rules.suits)
    suit = draw(st.sampled_from(sorted(set(ctx.eff))))
    in_suit = [c for c in ALL_CARDS if ctx.eff[c.index] == suit]

    def cards(most: int) -> list[Card]:
        picked = draw(st.lists(st.sampled_from(in_suit), min_size=1, max_size=most,
                               unique=True))
        return [c for c in picked for _ in range(draw(st.integers(1, rules.copies)))]

    lead = decompose(cards(3), ctx, rules.max_width)
    return holding_of(cards(5), ctx), lead, ctx


@given(st.one_of(groups_of_one_suit(), suit_cards().flatmap(
    lambda case: st.tuples(st.just(holding_of(case[0][:11], case[1])),
                           st.just(decompose(case[0][-9:], case[1], case[2])),
                           st.just(case[1])))))
@settings(max_examples=400)
def test_follow_amounts_are_the_greatest_any_way_of_meeting_the_lines_gives(
        case: tuple[dict[int, int], list[Unit], TrumpContext]) -> None:
    """Which cards make each pair, triple or tractor is the follower's choice (RULES §2):
    a hand owes, and a play gives, the most its cards can, line by line. Was: taken from the
    strongest cards first, ``3S 3S 5S 5S QS QS QS`` gave a pair tractor and a triple
    only two pairs (a pair taken out of the Qs) and was refused."""
    holding, lead, ctx = case
    assert follow_amounts(holding, lead, ctx) == \
        _greatest_by_trying_everything(holding, lead, ctx)


# -- single cards: the short paths of trick_winner and check_follow ---------------------

@st.composite
def single_card_trick(draw: st.DrawFn) -> tuple[Game, Lead, list[Card], TrumpContext]:
    """A lead of one or more single cards (no two alike) under a random context and
    ruleset, and some cards of the whole deck for the others (a hand, or plays)."""
    rules = RULESETS[draw(st.sampled_from(sorted(RULESETS)))]
    game = Game(rules, 0)
    ctx = trump_context(draw(st.sampled_from(rules.level_ranks)),
                        draw(st.sampled_from([None, *rules.suits.side_suits])),
                        frozenset(rules.permanent_trumps), rules.suits)
    suit = draw(st.sampled_from(sorted(set(ctx.eff))))
    in_suit = [c for c in ALL_CARDS if ctx.eff[c.index] == suit]
    picked = draw(st.lists(st.sampled_from(in_suit), min_size=1, max_size=4, unique=True))
    try:
        lead = game.play_rules.lead(picked, ctx)
    except EngineError:  # changzhu: no throws
        assume(False)
        raise
    assume(all(u.width == 1 for u in lead.units))
    others = draw(st.lists(st.sampled_from(ALL_CARDS * rules.copies), min_size=1,
                           max_size=14))
    return game, lead, others, ctx


@given(single_card_trick())
@settings(max_examples=300)
def test_a_single_card_trick_goes_to_the_strongest_play_key(
        case: tuple[Game, Lead, list[Card], TrumpContext]) -> None:
    """``trick_winner`` ranks single cards itself; the style's ``play_key`` is the
    reference (the first of equal plays keeps the trick)."""
    game, lead, others, ctx = case
    assume(lead.size == 1)
    plays = [lead.cards] + [(card,) for card in others[:game.players - 1]]
    prules = game.play_rules
    best, best_key = 0, prules.play_key(lead, plays[0], ctx)
    for i, play in enumerate(plays[1:], 1):
        key = prules.play_key(lead, play, ctx)
        if key is not None and (best_key is None or key > best_key):
            best, best_key = i, key
    assert trick_winner(prules, lead, plays, ctx) == best


@given(single_card_trick(), st.data())
@settings(max_examples=300)
def test_a_follow_of_single_cards_is_judged_by_the_suit_alone(
        case: tuple[Game, Lead, list[Card], TrumpContext], data: st.DataObject) -> None:
    """A lead of single cards owes only the suit (RULES §2 following, rule 1): enough
    cards of the led suit, else all of them."""
    game, lead, hand, ctx = case
    assume(len(hand) >= lead.size)
    order = data.draw(st.permutations(range(len(hand))))
    play = tuple(hand[i] for i in order[:lead.size])
    held = sum(ctx.eff[c.index] == lead.suit for c in hand)
    played = sum(ctx.eff[c.index] == lead.suit for c in play)
    expected = None if played == min(held, lead.size) else "must_follow_suit"
    try:
        game.play_rules.check_follow(lead, play, hand, ctx)
        code = None
    except EngineError as error:
        code = error.code
    assert code == expected


@given(suit_cards(), st.data())
@settings(max_examples=200)
def test_a_single_card_lead_is_the_lead_built_from_the_card(
        case: tuple[list[Card], TrumpContext, int], data: st.DataObject) -> None:
    """The shared single-card leads (made once per context and card) are what building
    the lead from the card gives: suit, unit and pattern."""
    cards, ctx, _width = case
    card = data.draw(st.sampled_from(cards))
    rules = ClassicPlay(RULESETS[data.draw(st.sampled_from(["classic", "titanic"]))])
    suit = ctx.eff[card.index]
    built = Lead((card,), suit, tuple(decompose([card], ctx, rules.max_width)), "single")
    assert rules.lead((card,), ctx) == built
    assert rules.lead([card], ctx) == built  # any sequence, and the same again


@given(constructed_follow(["classic", "four-decks", "titanic", "one-deck", "red-black"]),
       st.sampled_from([0, 1, 2, 7, 60, FOLLOW_BUDGET, None]))
@settings(max_examples=300)
def test_multisets_meeting_are_the_candidates_that_meet(
        case: tuple[Game, Lead, list[Card], TrumpContext], limit: int | None) -> None:
    """The follows of tractors and throws skip the candidates that cannot meet what is
    owed; the oracle tries every candidate (the old listing), small limits included."""
    game, lead, hand, ctx = case
    led = [c for c in hand if ctx.eff[c.index] == lead.suit]
    units = lead.units
    owed = follow_amounts(holding_of(led, ctx), units, ctx)
    meets = game.play_rules.meets_shape(lead, led, ctx)
    expected = [cards for cards in multisets(led, lead.size, limit) if meets(cards)]
    assert multisets_meeting(led, lead.size, units, owed, meets, ctx, limit) == expected


def _tractor_lead(draw: st.DrawFn, names: list[str]
                  ) -> tuple[Ruleset, TrumpContext, Lead, int, int, list[Card]]:
    """A tractor led from one half of a suit (its width and length drawn), and the other
    half for the follower."""
    rules, ctx, _, leader, rest = _split_suit(draw, names)
    holding = holding_of(leader, ctx)
    # (drawn among the shapes the half holds: drawing a shape first filtered out half)
    shapes = [(width, length) for width in range(2, rules.max_width + 1)
              for length in range(2, 5) if unit_candidates(holding, ctx, width, length)]
    assume(shapes)
    width, length = draw(st.sampled_from(shapes))
    leads = unit_candidates(holding, ctx, width, length)
    lead = ClassicPlay(rules).lead(unit_cards(draw(st.sampled_from(leads)), leader, ctx), ctx)
    return rules, ctx, lead, width, length, rest


@st.composite
def tractor_follow(draw: st.DrawFn) -> tuple[Ruleset, Lead, list[Card], TrumpContext]:
    """A tractor lead and a follower holding a run as long as it (and other cards)."""
    rules, ctx, lead, width, length, rest = _tractor_lead(draw, ["classic", "four-decks",
                                                                 "titanic"])
    runs = unit_candidates(holding_of(rest, ctx), ctx, width, length)
    assume(runs)
    run = list(unit_cards(draw(st.sampled_from(runs)), rest, ctx))
    for card in run:
        rest.remove(card)
    extra = draw(st.integers(1, min(len(rest), 10)))
    return rules, lead, run + rest[:extra], ctx


@given(tractor_follow())
@settings(max_examples=300)
def test_a_tractor_followed_by_a_whole_run_lists_the_runs(
        case: tuple[Ruleset, Lead, list[Card], TrumpContext]) -> None:
    """A seat that can follow a tractor with a run as long has its follows listed as the
    runs (``plays._whole_runs``); the oracles: ``multisets_meeting`` (the old listing,
    the same list) and trying every candidate."""
    rules, lead, led, ctx = case
    prules = ClassicPlay(rules)
    units = lead.units
    owed = follow_amounts(holding_of(led, ctx), units, ctx)
    assert owed[0] == units[0].length
    old = multisets_meeting(led, lead.size, units, owed, prules.meets_shape(lead, led, ctx),
                            ctx, FOLLOW_BUDGET)
    assert prules.built_follows(lead, led, ctx) == (old, True)
    _agrees_with_trying_every_candidate(Game(rules, 0), lead, led, ctx)


@st.composite
def groups_follow(draw: st.DrawFn) -> tuple[Ruleset, Lead, list[Card], TrumpContext]:
    """A tractor lead and a follower holding groups of its width (copies of a card, the
    many-deck kinds foremost) as many as its steps, rarely in a run as long, and others."""
    rules, ctx, lead, width, length, rest = _tractor_lead(draw, ["four-decks", "titanic",
                                                                 "classic"])
    copies = Counter(rest)
    grouped = sorted((card for card, count in copies.items() if count >= width), key=card_index)
    assume(grouped)
    picked = draw(st.lists(st.sampled_from(grouped), min_size=1, max_size=length))
    held = [card for card in picked for _ in range(width)]
    for card in held:
        if card in rest:
            rest.remove(card)
    fewest = lead.size - len(held) + 1  # (more cards than the lead)
    assume(len(rest) >= fewest)
    extra = draw(st.integers(fewest, max(fewest, min(len(rest), 24))))
    return rules, lead, held + rest[:extra], ctx


@given(groups_follow())
@settings(max_examples=400)
def test_a_follow_owing_groups_for_every_card_lists_the_groups(
        case: tuple[Ruleset, Lead, list[Card], TrumpContext]) -> None:
    """A seat owing a shorter run (or none) and groups of a tractor's width, as many cards
    as the lead, has its follows built from its groups (``multisets_of_groups``); the
    oracles: ``multisets_meeting`` (the old listing, the same list, budget included) and
    trying every candidate."""
    rules, lead, led, ctx = case
    assume(len(led) > lead.size)
    prules = ClassicPlay(rules)
    units = lead.units
    owed = follow_amounts(holding_of(led, ctx), units, ctx)
    assume(owed[0] + owed[1] == units[0].length)
    old = multisets_meeting(led, lead.size, units, owed, prules.meets_shape(lead, led, ctx),
                            ctx, FOLLOW_BUDGET)
    assert prules.built_follows(lead, led, ctx) == (old, True)
    _agrees_with_trying_every_candidate(Game(rules, 0), lead, led, ctx)


@given(st.lists(st.sampled_from(ALL_CARDS[:8]), min_size=1, max_size=30),
       st.integers(1, 8), st.integers(2, 4), st.sampled_from([0, 1, 2, 7, 60, None]))
@settings(max_examples=300)
def test_multisets_of_groups_are_the_multisets_of_whole_groups(
        cards: list[Card], n: int, width: int, limit: int | None) -> None:
    """The oracle: every multiset (the first ``limit``) kept where each card is held a
    multiple of ``width`` times."""
    expected = [m for m in multisets(cards, n, limit)
                if all(count % width == 0 for count in Counter(m).values())]
    assert multisets_of_groups(cards, n, width, limit) == expected


def reference_kind_follows(lead: Lead, led: list[Card], ctx: TrumpContext) -> list[Cards]:
    """The follows of an n-of-a-kind lead as they were built before ``multisets_meeting``:
    as many identical cards as the seat holds up to n, then any others (all of them)."""
    n = lead.size
    by_ident: dict[int, list[Card]] = {}
    for card in led:
        by_ident.setdefault(ctx.ident[card.index], []).append(card)
    for width in range(n, 1, -1):
        kinds = [same for same in by_ident.values() if len(same) >= width]
        if kinds:
            break
    else:
        return multisets(led, n, FOLLOW_BUDGET)
    out: list[Cards] = []
    for same in kinds:
        for kind in multisets(same, width):
            rest = list(led)
            for card in kind:
                rest.remove(card)
            out += [kind + fill for fill in multisets(rest, n - width)]
    return _in_candidate_order(out, led)


def reference_tried_follows(rules: ClassicPlay, lead: Lead, led: list[Card], ctx: TrumpContext
                            ) -> list[Cards]:
    """The follows of an n-of-a-kind lead as ``legal_follows`` listed them before
    ``follows_at_once``: the constructive follow if the shape check (every line of
    ``follow_amounts``) accepts it, then the candidates that meet what is owed (the
    first ``FOLLOW_BUDGET`` where nothing is), the constructive one not twice."""
    meets = rules.meets_shape(lead, led, ctx)
    owed = follow_amounts(holding_of(led, ctx), lead.units, ctx)
    base = rules.constructive_follow(lead, led, ctx)
    out = [base] if meets(base) else []
    key = tuple(sorted(base, key=lambda c: -c.index)) if out else None
    return out + [cards for cards in multisets(led, lead.size,
                                               FOLLOW_BUDGET if not any(owed) else None)
                  if cards != key and meets(cards)]


def kind_lead(card: Card, n: int, ctx: TrumpContext) -> Lead:
    return Lead((card,) * n, ctx.eff[card.index],
                (Unit(n, 1, ctx.strength[card.index], (ctx.ident[card.index],)),), "pair")


@given(suit_cards(), st.data())
@settings(max_examples=300)
def test_kind_follows_are_the_ones_built_from_the_kinds(
        case: tuple[list[Card], TrumpContext, int], data: st.DataObject) -> None:
    """``follows_at_once`` lists an n-of-a-kind's follows as trying every candidate did
    (the same follows, in the same order), and they are the ones built from the kinds."""
    cards, ctx, width = case
    assume(width >= 2)
    rules = ClassicPlay(RULESETS[data.draw(st.sampled_from(["classic", "titanic",
                                                            "four-decks", "red-black"]))])
    card = data.draw(st.sampled_from(cards))
    n = data.draw(st.integers(2, rules.max_width))
    lead = kind_lead(card, n, ctx)
    assume(len(cards) > n)
    listed = rules.follows_at_once(lead, cards, ctx)
    assert listed == reference_tried_follows(rules, lead, cards, ctx)
    base = rules.constructive_follow(lead, cards, ctx)
    assert listed[0] == base
    assert sorted(map(_canonical_of, listed)) == sorted(
        set(map(_canonical_of, [base, *reference_kind_follows(lead, cards, ctx)])))


@given(st.data())
@settings(max_examples=300)
def test_red_black_pair_follows_are_the_ones_trying_every_candidate_finds(
        data: st.DataObject) -> None:
    """``follows_at_once`` of a red-black pair (``_pair_follows``: no ``fill_structure``
    or ``multisets_meeting``) lists what trying every candidate did, in the same order,
    the constructive follow first; the seat's led cards drawn with pairs foremost."""
    rules = ClassicPlay(RULESETS["red-black"])
    ctx = trump_context(data.draw(st.sampled_from(RULESETS["red-black"].level_ranks)),
                        data.draw(st.sampled_from([None, *SuitSystem.RED_BLACK.side_suits])),
                        frozenset(), SuitSystem.RED_BLACK)
    suit = data.draw(st.sampled_from(sorted(set(ctx.eff))))
    pool = [c for c in ALL_CARDS if ctx.eff[c.index] == suit]
    if data.draw(st.booleans()):  # few idents: pairs likely
        idents = data.draw(st.lists(st.sampled_from(sorted({ctx.ident[c.index] for c in pool})),
                                    min_size=1, max_size=4, unique=True))
        pool = [c for c in pool if ctx.ident[c.index] in idents]
    led = data.draw(st.permutations(pool))[:data.draw(st.integers(3, max(3, len(pool))))]
    assume(len(led) > 2)
    lead = kind_lead(data.draw(st.sampled_from(pool)), 2, ctx)
    listed = rules.follows_at_once(lead, led, ctx)
    assert listed == reference_tried_follows(rules, lead, led, ctx)
    assert listed is not None and listed[0] == rules.constructive_follow(lead, led, ctx)


@given(suit_cards(), st.data())
@settings(max_examples=300)
def test_kind_follows_of_a_seat_holding_the_kind_are_the_kinds(
        case: tuple[list[Card], TrumpContext, int], data: st.DataObject) -> None:
    """Where the seat holds n of a card, ``follows_at_once`` lists each card held n times
    (``_whole_kind_follows``) as the general path did: the constructive follow, then
    ``multisets_with_kinds``' plays (the cards are drawn from few, so that copies come)."""
    cards, ctx, width = case
    assume(width >= 2 and ctx.ident_is_card)
    rules = ClassicPlay(RULESETS[data.draw(st.sampled_from(["classic", "titanic",
                                                            "four-decks"]))])
    n = data.draw(st.integers(2, rules.max_width))
    few = cards[:3]
    led = data.draw(st.lists(st.sampled_from(few), min_size=n + 1, max_size=3 * n))
    lead = kind_lead(data.draw(st.sampled_from(few)), n, ctx)
    base = rules.constructive_follow(lead, led, ctx)
    assume(Counter(base)[base[0]] == n)  # the seat holds n of a card
    listed = rules.follows_at_once(lead, led, ctx)
    key = tuple(sorted(base, key=lambda c: -c.index))
    assert listed == [base] + [m for m in multisets_with_kinds(led, n, n) if m != key]
    assert listed == reference_tried_follows(rules, lead, led, ctx)


def reference_constructive_follow(lead: Lead, led: list[Card], ctx: TrumpContext) -> Cards:
    """``ClassicPlay.constructive_follow`` as it was for every lead: the units
    ``fill_structure`` takes, then the lowest other cards."""
    chosen, pool = fill_structure(led, lead, ctx)
    pool.sort(key=lambda c: (ctx.strength[c.index], c.points))
    return tuple(chosen + pool[:lead.size - len(chosen)])


@given(suit_cards(), st.data())
@settings(max_examples=400)
def test_a_kind_constructive_follow_is_the_one_fill_structure_takes(
        case: tuple[list[Card], TrumpContext, int], data: st.DataObject) -> None:
    cards, ctx, width = case
    assume(width >= 2)
    rules = ClassicPlay(RULESETS[data.draw(st.sampled_from(["classic", "titanic",
                                                            "four-decks", "red-black"]))])
    lead = kind_lead(data.draw(st.sampled_from(cards)), data.draw(st.integers(2, width)), ctx)
    assume(len(cards) > lead.size)
    assert rules.constructive_follow(lead, cards, ctx) == \
        reference_constructive_follow(lead, cards, ctx)


def test_a_kind_constructive_follow_of_equal_cards_takes_the_one_held_most() -> None:
    """Off-suit level cards are equally strong trumps: of those held as many times as
    the lead needs, ``fill_units`` takes the one held most (here the higher index)."""
    ctx = trump_context(Rank.FIVE, Suit.HEARTS)
    led = parse_cards("5S 5S 5D 5D 5D 3H 3H")
    rules = ClassicPlay(RULESETS["four-decks"])
    lead = kind_lead(parse_card("7H"), 2, ctx)
    assert rules.constructive_follow(lead, led, ctx) == tuple(parse_cards("5D 5D")) == \
        reference_constructive_follow(lead, led, ctx)


def _canonical_of(cards: Sequence[Card]) -> tuple[int, ...]:
    return tuple(sorted(c.index for c in cards))


@given(constructed_follow(["classic", "four-decks", "titanic", "one-deck", "red-black"]),
       st.data())
@settings(max_examples=300)
def test_a_kind_follow_is_checked_by_the_most_alike(
        case: tuple[Game, Lead, list[Card], TrumpContext], data: st.DataObject) -> None:
    """``check_follow`` of an n-of-a-kind compares how many identical cards the play and
    the hand hold (``most_alike``); the oracle compares every line of ``follow_amounts``
    (``meets_shape``)."""
    game, lead, hand, ctx = case
    assume(game.rules.max_width >= 2)
    card = data.draw(st.sampled_from(lead.cards))
    n = data.draw(st.integers(2, game.rules.max_width))
    lead = kind_lead(card, n, ctx)
    led = [c for c in hand if ctx.eff[c.index] == lead.suit]
    assume(len(led) > n)
    order = data.draw(st.permutations(range(len(led))))
    play = tuple(led[i] for i in order[:n])
    assert accepted(game, lead, play, hand, ctx) == \
        game.play_rules.meets_shape(lead, led, ctx)(play)


@given(st.lists(st.sampled_from(ALL_CARDS[:6]), max_size=16), st.data())
@settings(max_examples=400)
def test_multisets_with_kinds_are_the_multisets_holding_them(
        cards: list[Card], data: st.DataObject) -> None:
    """(Few distinct cards, so that four of a card, two pairs, come often.) The sizes are
    drawn so that the kinds fit the play: filtered instead, two draws in three were
    thrown away and Hypothesis's health check failed the test now and then."""
    width = data.draw(st.integers(2, 4))
    kinds = data.draw(st.integers(1, 6 // width))
    n = data.draw(st.integers(width * kinds, 6))
    assert multisets_with_kinds(cards, n, width, kinds) == [
        m for m in multisets(cards, n)
        if sum(count // width for count in Counter(m).values()) >= kinds]


@given(st.lists(st.sampled_from(ALL_CARDS[:14]), max_size=14, unique=True), st.data())
@settings(max_examples=400)
def test_the_multisets_holding_the_one_group_held_are_those_filtered(
        others: list[Card], data: st.DataObject) -> None:
    """Where one card alone is held ``width`` times or more (the written-out path):
    every card held once but that one, and the plays in the order ``multisets`` lists."""
    width = data.draw(st.integers(2, 3))
    n = data.draw(st.integers(width + 1, 6))
    kind = data.draw(st.sampled_from(ALL_CARDS[:14]))
    cards = [c for c in others if c is not kind] + [kind] * data.draw(st.integers(width, 4))
    cards = data.draw(st.permutations(cards))
    assert multisets_with_kinds(cards, n, width) == [
        m for m in multisets(cards, n) if Counter(m)[kind] >= width]


@given(suit_cards(), st.integers(1, 4), st.data())
@settings(max_examples=200)
def test_a_play_taken_out_by_hash_is_the_play_filtered_out(
        case: tuple[list[Card], TrumpContext, int], n: int, data: st.DataObject) -> None:
    plays = multisets(case[0][:10], n)
    play = data.draw(st.sampled_from([*plays, None, (ALL_CARDS[0],) * n]))
    assert without(plays, play) == [p for p in plays if p != play]


@given(st.lists(st.sampled_from(ALL_CARDS[:8]), max_size=12), st.data())
def test_cards_taken_out_by_identity_are_those_list_remove_takes(
        cards: list[Card], data: st.DataObject) -> None:
    taken = data.draw(st.permutations(cards))[:data.draw(st.integers(0, len(cards)))]
    mine, theirs = list(cards), list(cards)
    take_out(mine, taken)
    for card in taken:
        theirs.remove(card)
    assert mine == theirs


@given(suit_cards(), st.data())
def test_cards_sorted_by_lowness_are_sorted_by_strength_then_points(
        case: tuple[list[Card], TrumpContext, int], data: st.DataObject) -> None:
    """(The cards of one suit and any others, many of equal strength: off-suit levels.)"""
    cards, ctx, _ = case
    cards = data.draw(st.permutations(cards + data.draw(st.lists(st.sampled_from(ALL_CARDS)))))
    assert sorted(cards, key=lowness(ctx).__getitem__) == sorted(
        cards, key=lambda c: (ctx.strength[c.index], c.points))
    assert copies_of(cards) == Counter(cards)


@given(st.integers(1, 4), st.integers(1, 6), st.integers(0, 20),
       st.lists(st.integers(0, 53), max_size=6), st.booleans())
def test_shared_units_and_lines_are_the_ones_constructed(
        width: int, length: int, top: int, idents: list[int], tractor: bool) -> None:
    assert unit_of(width, length, top, tuple(idents)) == Unit(width, length, top, tuple(idents))
    line = obligation(length, tractor, width, top)
    assert line == Obligation(length, tractor, width, top)
    assert type(line.tractor) is bool  # (True and 1 are kept apart)


def reference_fill_structure(cards: list[Card], lead: Lead, ctx: TrumpContext
                             ) -> tuple[list[Card], list[Card]]:
    """``fill_structure`` as it was: each unit's cards looked for among the cards."""
    chosen: list[Card] = []
    for unit in fill_units(holding_of(cards, ctx), ctx, lead.units):
        chosen += unit_cards(unit, [c for c in cards if chosen.count(c) < cards.count(c)], ctx)
    rest = list(cards)
    for card in chosen:
        rest.remove(card)
    return chosen, rest


@given(constructed_follow(["classic", "four-decks", "titanic", "one-deck", "red-black"]))
@settings(max_examples=200)
def test_fill_structure_takes_the_cards_it_took(
        case: tuple[Game, Lead, list[Card], TrumpContext]) -> None:
    _, lead, hand, ctx = case
    led = [c for c in hand if ctx.eff[c.index] == lead.suit]
    assert fill_structure(led, lead, ctx) == reference_fill_structure(led, lead, ctx)


def reference_declarations(game: Game, seat: int) -> list[Cards]:
    """``legal_declarations`` as it was: every candidate asked of ``check_declaration``."""
    phase = game.phase
    if not isinstance(phase, Dealing) or phase.pending_return is not None:
        return []
    counts = Counter(phase.hands[seat])
    candidates: list[Cards] = []
    jokers = [c for c in counts if c.is_joker]
    if game.rules.declaration is DeclarationStyle.JOKER_AND_PAIR:
        pairs = [c for c, n in counts.items() if not c.is_joker and n >= 2]
        for joker in jokers:
            for k in range(1, min(2, counts[joker]) + 1):
                candidates += [(joker,) * k + (pair, pair) for pair in pairs]
                candidates += [(joker,) * k + (a, a, b, b) for a, b in combinations(pairs, 2)
                               if a.suit == b.suit]
    else:
        for card, n in counts.items():
            if card.is_joker or card.rank == game.state.declaring_level(seat):
                candidates += [(card,) * k for k in range(2 if card.is_joker else 1, n + 1)]
    out = []
    for cards in candidates:
        try:
            game.check_declaration(seat, cards)
        except EngineError:
            continue
        out.append(cards)
    return out


@pytest.mark.parametrize("name", [*RULESETS, "three-bid", "find-friends", "six"])
@given(seed=st.integers(0, 10**9))
@settings(max_examples=4)
def test_declarations_are_the_candidates_check_declaration_accepts(name: str, seed: int
                                                                   ) -> None:
    rules = RULESETS.get(name) or ruleset(name)
    game = Game(rules, seed)
    rng = random.Random(seed)
    while isinstance(game.phase, Dealing):
        for seat in range(game.players):
            assert legal_declarations(game, seat) == reference_declarations(game, seat)
        game.apply(random_action(game, rng, declare_chance=0.3))


@given(suit_cards(), suit_cards())
@settings(max_examples=400)
def test_the_follow_match_is_the_greedy_match(
        case: tuple[list[Card], TrumpContext, int], lead_case: tuple[list[Card], TrumpContext, int]
        ) -> None:
    """``fill_units``/``follow_value`` read one match; where strengths are distinct it is
    made on counts, and the general greedy (``match_greedy``) is the oracle. (Where the
    greedy may fall short, a search makes it: the test of the greatest amounts above.)"""
    cards, ctx, width = case
    lead = decompose([c for c in lead_case[0] if ctx.eff[c.index] == ctx.eff[cards[0].index]]
                     or cards[:4], ctx, width)
    holding = holding_of(cards, ctx)
    if not may_fall_short(holding, lead):
        assert _match(holding, lead, ctx) == match_greedy(holding, lead, ctx)


@given(st.data())
@settings(max_examples=200)
def test_a_classic_suit_with_pairs_built_from_its_sorted_cards_is_the_grouped_one(
        data: st.DataObject) -> None:
    """``_SuitLeads._pairs_of_cards`` (one pass over the sorted cards, where each card is
    its own ident) against ``_pairs_only`` from the cards grouped by ident: the same leads
    and components, in order; and it declines a card held three times."""
    rules = RULESETS[data.draw(st.sampled_from(["classic", "titanic", "four-decks"]))]
    ctx = trump_context(data.draw(st.sampled_from(rules.level_ranks)),
                        data.draw(st.sampled_from([None, *rules.suits.side_suits])),
                        frozenset(rules.permanent_trumps), rules.suits)
    suit = data.draw(st.sampled_from(sorted(set(ctx.eff))))
    assume(ctx.ident_is_card and ctx.distinct_idents[suit] is not None)
    pool = [c for c in ALL_CARDS if ctx.eff[c.index] == suit] * rules.decks
    chosen = data.draw(st.lists(st.sampled_from(range(len(pool))), min_size=2, max_size=20,
                                unique=True))
    cards = [pool[i] for i in chosen]
    assume(len(set(cards)) < len(cards))  # (identical cards: a suit with units)
    fast = _suit(cards, ctx, rules.max_width)
    with patch.object(legal._SuitLeads, "_pairs_of_cards", lambda *_: False):
        grouped_suit = _suit(cards, ctx, rules.max_width)
    assert fast.leads == grouped_suit.leads
    assert fast._components() == grouped_suit._components()
    assert fast._part_cards == grouped_suit._part_cards
    assert fast._widest == grouped_suit._widest
    if max(Counter(cards).values()) > 2:
        assert fast._by_ident is not None  # (declined: built by the general path)
