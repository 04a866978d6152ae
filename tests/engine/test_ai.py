"""Computer players (engine/ai): legal at every decision stage of every preset, honest
(a decision is a function of the seat's view), and sensible in small positions."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ai
from engine.actions import Bury, Deal, Declare, EndDeal, Play, ReturnCards, SwapKitty
from engine.ai import player as ai_player
from engine.ai.bidding import bury_order, trump_control
from engine.ai.knowledge import Knowledge
from engine.ai.search import Budget
from engine.cards import ALL_CARDS, Card, Rank, Suit, parse_cards
from engine.game import Burying, Dealing, Game, HandOver, MatchOver, Playing, Swapping
from engine.order import TRUMP, TrumpContext, trump_context
from engine.rules import ruleset
from engine.scenarios import build
from engine.simulate import random_action
from engine.views import seat_view

PRESETS = ["classic", "one-deck", "red-black", "titanic", "changzhu"]
TINY = Budget(worlds=3, candidates=3, time_limit=None)


def _play_hand(game: Game, levels: list[str], seed: int, budget: Budget | None = None
               ) -> Counter[str]:
    """Play one hand with AI seats only; every action must be accepted. Returns the
    decision stages met."""
    stages: Counter[str] = Counter()
    step = 0
    while not isinstance(game.phase, (HandOver, MatchOver)):
        step += 1
        phase = game.phase
        action = None
        if isinstance(phase, Dealing):
            for seat in range(game.players):
                action = ai.choose(seat_view(game, seat), levels[seat], seed + step)
                if action is not None:
                    break
            if action is None:
                action = Deal(game.players) if phase.stock else EndDeal()
        else:
            seat = (phase.taker if isinstance(phase, Burying) else
                    phase.declarer if isinstance(phase, Swapping) else phase.turn)
            assert seat is not None
            view = seat_view(game, seat)
            if levels[seat] != "easy" and budget is not None and view.phase == "play":
                action = Play(seat, ai.choose_cards(view, levels[seat], seed + step,
                                                    budget=budget))
            else:
                action = ai.choose(view, levels[seat], seed + step)
            for other in range(game.players):  # nobody else has a decision now
                if other != seat:
                    assert ai.choose(seat_view(game, other), levels[other], 0) is None
        assert action is not None
        stages[type(action).__name__] += 1
        game.apply(action)  # raises EngineError if the AI chose an illegal action
    return stages


@pytest.mark.parametrize("preset", PRESETS)
def test_heuristic_plays_every_stage_legally(preset: str) -> None:
    before = ai_player.refused_plays
    stages: Counter[str] = Counter()
    for seed in range(3):
        game = Game(ruleset(preset), seed, dealer=seed % 4)
        stages += _play_hand(game, ["easy"] * 4, seed)
    assert ai_player.refused_plays == before
    assert stages["Play"] > 0 and stages["Bury"] == 3


@pytest.mark.parametrize("preset", PRESETS)
def test_search_plays_a_hand_legally(preset: str) -> None:
    before = ai_player.refused_plays
    game = Game(ruleset(preset), 11, dealer=1)
    _play_hand(game, ["hard", "easy", "normal", "easy"], 11, budget=TINY)
    assert ai_player.refused_plays == before


def test_changzhu_swap_is_legal_when_offered() -> None:
    swaps = 0
    for seed in range(40):
        game = Game(ruleset("changzhu"), seed, dealer=0)
        rng = random.Random(seed)
        while not isinstance(game.phase, (Playing, HandOver)):
            phase = game.phase
            if isinstance(phase, Swapping):
                action = ai.choose(seat_view(game, phase.declarer), "easy", seed)
                assert isinstance(action, SwapKitty)
                game.apply(action)
                swaps += 1
                break
            game.apply(random_action(game, rng, declare_chance=0.5))
        if swaps >= 3:
            break
    assert swaps >= 1


def test_changzhu_return_gives_a_permanent_trump() -> None:
    rules = ruleset("changzhu")
    hands = [parse_cards("SJ 7H 7H 4C 6D"), parse_cards("BJ 8S 8S 9S 9S 2C 4D 6D QD KH"),
             parse_cards("4S 6S"), parse_cards("4H 6H")]
    game = Game.from_position(rules, level=Rank.ACE, hands=hands, dealer=0, dealing=True)
    game.apply(Declare(0, tuple(parse_cards("SJ 7H 7H"))))
    game.apply(Declare(1, tuple(parse_cards("BJ 8S 8S 9S 9S"))))  # 粘: takes seat 0's cards
    action = ai.choose(seat_view(game, 1), "hard", 0)
    assert isinstance(action, ReturnCards) and len(action.cards) == 3
    assert any(c.is_joker or c.rank in rules.permanent_trumps for c in action.cards)
    game.apply(action)
    assert ai.choose(seat_view(game, 0), "hard", 0) is None  # too weak to fight back


# -- honesty ----------------------------------------------------------------------------

def _mid_hand(preset: str, seed: int, tricks: int) -> Game:
    game = Game(ruleset(preset), seed, dealer=0)
    rng = random.Random(seed)
    while not (isinstance(game.phase, Playing) and len(game.phase.tricks) >= tricks
               and game.phase.trick.plays):
        game.apply(random_action(game, rng))
    return game


@pytest.mark.parametrize("preset", ["classic", "changzhu"])
def test_decision_is_a_function_of_the_view(preset: str) -> None:
    game = _mid_hand(preset, 5, 4)
    phase = game.phase
    assert isinstance(phase, Playing)
    seat = phase.turn
    a, b = [(seat + k) % 4 for k in (1, 2)]
    hands = [list(h) for h in phase.hands]
    # swap one hidden card of two other seats (any suit: the view cannot tell)
    hands[a][0], hands[b][0] = hands[b][0], hands[a][0]
    assert sorted(map(str, hands[a])) != sorted(map(str, phase.hands[a]))
    other = Game.of(replace(game.state, phase=replace(phase, hands=tuple(map(tuple, hands)))))
    view1, view2 = seat_view(game, seat), seat_view(other, seat)
    assert view1 == view2
    for level in ("easy", "hard"):
        first = ai.choose_cards(view1, level, 7, budget=None if level == "easy" else TINY)
        second = ai.choose_cards(view2, level, 7, budget=None if level == "easy" else TINY)
        assert first == second


def test_sampled_worlds_respect_what_the_seat_knows() -> None:
    for seed in range(6):
        game = _mid_hand("classic", seed, 8)
        phase = game.phase
        assert isinstance(phase, Playing)
        seat = phase.turn
        view = seat_view(game, seat)
        knowledge = Knowledge.from_view(view)
        total = Counter(dict.fromkeys(ALL_CARDS, 2))
        rng = random.Random(seed)
        for _ in range(10):
            hands, kitty = knowledge.sample(rng)
            assert hands[seat] == sorted(view.hand, key=lambda c: c.index)
            assert [len(h) for h in hands] == list(view.hand_sizes)
            played = Counter(c for t in view.tricks for _, cs in t[0] for c in cs)
            played.update(c for _, cs in view.trick for c in cs)
            assert Counter(c for h in hands for c in h) + Counter(kitty) + played == total
            for other in range(4):
                for suit in knowledge.voids[other]:
                    assert all(phase.ctx.eff[c.index] != suit for c in hands[other])
            if view.kitty_taker == seat:
                assert kitty == list(view.kitty)


def test_shown_declaration_cards_stay_with_the_declarer_in_samples() -> None:
    rules = ruleset("classic")
    game = Game(rules, 3, dealer=0)
    rng = random.Random(3)
    while not isinstance(game.phase, Playing):
        phase = game.phase
        if isinstance(phase, Dealing) and phase.standing is None and not phase.stock:
            for seat in (1, 3):
                levels = [c for c in phase.hands[seat] if c.rank is phase.level]
                if levels:
                    game.apply(Declare(seat, (levels[0],)))
                    break
        game.apply(random_action(game, rng, declare_chance=0.0))
    phase = game.phase
    assert isinstance(phase, Playing)
    decl = phase.declaration
    # (the deal of seed 3 has one; were it to change, pick another seed, not skip)
    assert decl is not None and decl.seat != phase.taker, "no declaration outside the dealer"
    watcher = next(s for s in range(4) if s not in (decl.seat, phase.taker))
    knowledge = Knowledge.from_view(seat_view(game, watcher))
    hands, _ = knowledge.sample(random.Random(0))
    for card in decl.cards:
        if card not in phase.hands[watcher]:
            assert card in hands[decl.seat]


# -- tactics ------------------------------------------------------------------------------

def _position(hands: list[str], trick: list[tuple[int, str]], *, trump: Suit = Suit.HEARTS
              ) -> Game:
    return Game.from_position(ruleset("classic"), level=Rank.TWO,
                              hands=[parse_cards(h) for h in hands], trump=trump, dealer=0,
                              trick=[(s, tuple(parse_cards(c))) for s, c in trick],
                              kitty=parse_cards("3C 4C 6C 7C 8C 9C JC QC"))


@pytest.mark.parametrize(
    ("hands", "trick", "seat", "expected"),
    [
        pytest.param(["QS 3D", "4D 5D", "KS 4S 6D", "6S 7S 8S"], [(0, "AS"), (1, "3S")], 2,
                     "KS", id="feed_points_to_partner_sure_to_win"),
        pytest.param(["4S 5S", "3H 4C 6C", "7S 8S", "9S JS"], [(0, "10D")], 1, "3H",
                     id="ruff_a_point_trick_with_lowest_trump"),
        pytest.param(["AS AS KS KS 3D", "4S 5S 6S 7S 8D", "9S 9S JS QS 9D", "3S 3S 4D 5D 6D"],
                     [], 0, "AS AS KS KS", id="lead_a_sure_tractor"),
        pytest.param(["AD 4D", "KD 5D", "3D 6D", "7D 8D"], [(3, "QD")], 0, "AD",
                     id="win_cheaply_when_last"),
        # was: the pairs a tractor is followed with were the strongest (20 points given)
        pytest.param(["4C 5C", "9C 9C", "6D 9D", "10S 10S 6S 6S 3S 3S"],
                     [(0, "QS QS KS KS"), (1, "7S 8S 7D 8D"), (2, "JS 9S 4S 5D")], 3,
                     "6S 6S 3S 3S", id="the_cheapest_pairs_to_a_tractor_it_cannot_beat"),
    ],
)
def test_heuristic_tactics(hands: list[str], trick: list[tuple[int, str]], seat: int,
                           expected: str) -> None:
    game = _position(hands, trick)
    cards = ai.choose_cards(seat_view(game, seat), "easy", 0)
    assert sorted(map(str, cards)) == sorted(expected.split())


def test_declares_on_a_strong_holding_and_never_over_a_partner() -> None:
    rules = ruleset("classic")
    hands = [parse_cards("2S AS KS QS JS 9S 3H"), parse_cards("4D 5D 6D 7D 8D"),
             parse_cards("2H 3C 4C 5C 6C 7C"), parse_cards("8C 9C 10C JC QC")]
    game = Game.from_position(rules, level=Rank.TWO, hands=hands, dealer=0, dealing=True)
    assert ai.choose(seat_view(game, 0), "easy", 0) == Declare(0, tuple(parse_cards("2S")))
    assert ai.choose(seat_view(game, 1), "easy", 0) is None  # no level card
    game.apply(Declare(2, tuple(parse_cards("2H"))))
    assert ai.choose(seat_view(game, 0), "easy", 0) is None  # the partner's suit stands


def test_a_declarer_reinforces_with_its_own_level_in_find_friends() -> None:
    """Was: a later hand's declarer at level 10 (the hand's level 5 only provisional)
    offered ``5D 5D`` to reinforce its ``10D``, refused at every deal step, and never
    made the reinforcement it held."""
    hands = [parse_cards(h) for h in ("3C 4C 6C 7C 8C 9C", "10D 10D 5D 5D AD KD QD",
                                      "3S 4S 6S", "7S 8S 9S", "3H 4H 6H")]
    game = Game.from_position(
        ruleset("find-friends"), level=Rank.FIVE, hands=hands, dealer=None, stage="deal",
        seat_levels=(Rank.FIVE, Rank.TEN, Rank.THREE, Rank.SEVEN, Rank.TWO),
        may_declare=[1, 3], fallback_dealer=3, kitty=parse_cards("2C 2D 2H 2S JC JD JH JS"))
    game.apply(Declare(1, tuple(parse_cards("10D"))))
    assert ai.choose(seat_view(game, 1), "easy", 0) == Declare(1, tuple(parse_cards("10D 10D")))


def _at_burying(seed: int) -> Game:
    """A classic hand dealt and declared at random, the taker about to bury."""
    game = Game(ruleset("classic"), seed, dealer=0)
    rng = random.Random(seed)
    while not isinstance(game.phase, Burying):
        game.apply(random_action(game, rng))
    return game


def test_bury_keeps_trumps_and_makes_voids() -> None:
    for seed in range(5):
        game = _at_burying(seed)
        phase = game.phase
        view = seat_view(game, phase.taker)
        action = ai.choose(view, "easy", 0)
        assert isinstance(action, Bury) and len(action.cards) == 8
        side = [c for c in view.hand if not phase.ctx.is_trump(c)]
        if len(side) >= 8:
            assert not any(phase.ctx.is_trump(c) for c in action.cards)
        assert sum(c.points for c in action.cards) <= sum(
            c.points for c in sorted(side, key=lambda c: c.points)[:8]) + 20
        suits_before = {phase.ctx.eff[c.index] for c in side}
        left = Counter(view.hand) - Counter(action.cards)
        suits_after = {phase.ctx.eff[c.index] for c in left.elements()} - {TRUMP}
        assert len(suits_after) <= len(suits_before)
        game.apply(action)


def _bury_order_reference(hand: list[Card], ctx: TrumpContext, size: int) -> list[Card]:
    """``bury_order`` as its docstring says it, with a key tuple a card (the oracle of
    its one-int keys)."""
    guard = size > 0 and trump_control(hand, ctx, size) < 1
    suit_len = Counter(ctx.eff[c.index] for c in hand)
    copies = Counter((ctx.eff[c.index], ctx.ident[c.index]) for c in hand)

    def key(card: Card) -> tuple[int, ...]:
        suit, s = ctx.eff[card.index], ctx.strength[card.index]
        if suit == TRUMP:
            return (9, s, card.index)
        paired = copies[suit, ctx.ident[card.index]] >= 2
        ace = s == len(ctx.tiers[suit]) - 1
        return (int(guard and card.points > 0), int(paired) + int(ace), card.points,
                suit_len[suit], s, card.index)

    return sorted(hand, key=key)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([1, 2, 3, 4]), st.sampled_from(list(Rank)[:13]),
       st.sampled_from([None, *Suit]), st.booleans(), st.sampled_from([0, 6, 8]),
       st.randoms(use_true_random=False), st.integers(1, 60))
def test_bury_order_sorts_as_its_key_tuples_would(
        decks: int, level: Rank, trump: Suit | None, twos_permanent: bool, size: int,
        rng: random.Random, length: int) -> None:
    permanent = frozenset({Rank.TWO}) if twos_permanent and level != Rank.TWO else frozenset()
    ctx = trump_context(level, trump, permanent)
    cards = [c for c in ALL_CARDS for _ in range(decks)]
    hand = rng.sample(cards, min(length, len(cards)))
    assert bury_order(hand, ctx, size) == _bury_order_reference(hand, ctx, size)


def test_search_compares_burials_that_make_voids() -> None:
    from engine.ai.search import bury_candidates

    voiding = 0
    for seed in range(5):
        game = _at_burying(seed)
        phase = game.phase
        ctx = phase.ctx
        view = seat_view(game, phase.taker)
        options = bury_candidates(view.hand, ctx, 8, limit=5)
        heuristic = ai.choose(view, "easy", 0)
        assert isinstance(heuristic, Bury)
        assert Counter(options[0]) == Counter(heuristic.cards)
        assert len({tuple(sorted(c.index for c in o)) for o in options}) == len(options)
        side = {ctx.eff[c.index] for c in view.hand} - {TRUMP}
        for option in options:
            assert len(option) == 8 and not Counter(option) - Counter(view.hand)
            left = Counter(view.hand) - Counter(option)
            voiding += len(side - {ctx.eff[c.index] for c in left.elements()}) > 0
        chosen = ai.choose(view, "hard", seed)
        assert isinstance(chosen, Bury)
        assert any(Counter(chosen.cards) == Counter(o) for o in options)
    assert voiding >= 5


def _heuristic_mid_hand(preset: str, seed: int, tricks: int,
                        levels: tuple[str, ...] = ("easy",) * 4) -> Game:
    """A hand buried and played by ``easy`` players (or ``levels[seat]``; random
    declarations) up to a moment ``tricks`` tricks in."""
    game = Game(ruleset(preset), seed, dealer=seed % 4)
    rng = random.Random(seed)
    while not (isinstance(game.phase, Playing) and len(game.phase.tricks) >= tricks):
        phase = game.phase
        if isinstance(phase, (Playing, Burying)):
            seat = phase.turn if isinstance(phase, Playing) else phase.taker
            game.apply(ai.choose(seat_view(game, seat), levels[seat], seed))
        else:
            game.apply(random_action(game, rng))
    return game


@pytest.mark.parametrize("preset", ["classic", "changzhu"])
def test_the_true_deal_explains_heuristic_players_and_samples_do_worse(preset: str) -> None:
    from engine.ai.inference import disagreements, likely_worlds

    more = 0
    for seed in range(4):
        game = _heuristic_mid_hand(preset, seed, 6)
        phase = game.phase
        assert isinstance(phase, Playing)
        seat = phase.turn
        knowledge = Knowledge.from_view(seat_view(game, seat))
        truth = [list(h) for h in phase.hands]
        kitty = list(phase.kitty) if seat != phase.taker else list(knowledge.view.kitty)
        # the replay of the hand in the true deal is what the players did
        assert disagreements(knowledge, truth, kitty) == 0
        rng = random.Random(seed)
        sampled = [disagreements(knowledge, *knowledge.sample(rng)) for _ in range(12)]
        more += sum(s > 0 for s in sampled)
        kept = likely_worlds(knowledge, random.Random(seed), 4, 12)
        assert len(kept) == 4
        kept_scores = sorted(disagreements(knowledge, w.hands, w.kitty) for w in kept)
        assert kept_scores == sorted(sampled)[:4]  # the same rng: the best of those 12
    assert more >= 24  # most random deals contradict some play


def test_the_true_deal_explains_easy_opponents_of_a_hard_seat() -> None:
    # hard's replay asks the heuristic what each easy opponent saw: against easy
    # players the true deal contradicts none of their plays (nor an easy burial); the
    # hard partner, who searches, is another matter
    from engine.ai.inference import disagreements

    partner = 0.0
    for seed in range(3):
        game = _heuristic_mid_hand("classic", seed, 7, ("hard", "easy") * 2)
        phase = game.phase
        assert isinstance(phase, Playing)
        knowledge = Knowledge.from_view(seat_view(game, 0))
        truth = [list(h) for h in phase.hands]
        kitty = list(knowledge.view.kitty) if knowledge.kitty_known else list(phase.kitty)
        assert disagreements(knowledge, truth, kitty, partners=False) == 0
        partner += disagreements(knowledge, truth, kitty)
    assert partner > 0


def _friend_holding_the_second_call(history: list[tuple[int, str]], friend_hand: str) -> Game:
    """Six seats, three decks: the dealer (seat 0) called the first AH and the first AD;
    seat 2 played an AH and is the friend; the AD call is open, and seat 2 holds an AD."""
    hands = ["KD 3S 5H", "QD 7C 8C", friend_hand, "JD 9C 10H", "9D 8H 7H", "8D 3H 4H"]
    game = build({"preset": "find-friends", "options": {"players": 6, "decks": 3},
                  "position": {"level": "2", "trump": "S", "dealer": 0,
                               "leader": history[0][0] if history else 2,
                               "calls": [{"card": "AH", "copy": 1}, {"card": "AD", "copy": 1}],
                               "friends": [2], "hands": hands}})
    for seat, cards in history:
        game.apply(Play(seat, tuple(parse_cards(cards))))
    return game


@pytest.mark.parametrize(("history", "friend_hand", "instead"), [
    ([], "AD 4C 6C", {"4C", "6C"}),  # its sure ace would lead nothing but the call away
    ([(1, "QD")], "AD 4D 6C", {"4D"}),  # its ace would win a blank trick, no more
])
def test_an_easy_friend_found_never_spends_the_dealers_other_call(
        history: list[tuple[int, str]], friend_hand: str, instead: set[str]) -> None:
    """Was: a friend already found played the copy another call names, which made no
    friend: the dealer's side a player short for the rest of the hand (six seats, easy:
    a call spent in about a third of the hands). (Easy only: normal's and hard's search
    compare such a play by playing the hand out.)"""
    game = _friend_holding_the_second_call(history, friend_hand)
    action = ai.choose(seat_view(game, 2), "easy", 0)
    assert isinstance(action, Play)
    assert len(action.cards) == 1 and action.cards[0] in parse_cards(" ".join(instead)), action
