"""Computer players in the games whose sides form in the hand (find-friends, three-bid)
and in six: every level decides every phase, legally, from the seat's view only; the
play-out simulator forms the sides exactly as the engine does."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import pytest

from engine import ai
from engine.actions import (
    Action,
    AnswerTransfer,
    Bid,
    Bury,
    CallFriends,
    Deal,
    EndDeal,
    NameTrump,
    PassBid,
    Play,
    Transfer,
)
from engine.ai import player as ai_player
from engine.ai.knowledge import Knowledge
from engine.ai.phases import choose_calls, decide
from engine.ai.search import Budget
from engine.ai.table import PlayState, attackers_win, take_over_threshold
from engine.cards import ALL_CARDS, Card, Rank, Suit, parse_cards
from engine.game import Dealing, Game, HandOver, MatchOver, Playing
from engine.rules import ruleset
from engine.simulate import random_play
from engine.views import SeatView, public_view, seat_view

GAMES = {
    "find-friends 5x2": ("find-friends", {}),
    "find-friends 5x3": ("find-friends", {"decks": 3}),
    "find-friends 6x3": ("find-friends", {"players": 6, "decks": 3}),
    "three-bid": ("three-bid", {}),
    "six": ("six", {}),
}
#: The smallest search (one world, two plays compared, no clock): legality, not strength.
TINY = Budget(worlds=1, candidates=2, time_limit=None)
LEVELS = ("easy", "normal", "hard")


def _decision(game: Game, seat: int, level: str, seed: int) -> Action | None:
    view = seat_view(game, seat)
    if view.phase == "play" and level != "easy":
        return Play(seat, ai.choose_cards(view, level, seed, budget=TINY))
    return ai.choose(view, level, seed)


def _deal_step(game: Game, levels: Sequence[str], seed: int) -> Action:
    """During the deal: the first computer seat's declaration, else the clock's step."""
    phase = game.phase
    assert isinstance(phase, Dealing)
    for seat in range(game.players):
        action = ai.choose(seat_view(game, seat), levels[seat], seed)
        if action is not None:
            return action
    return Deal(game.players) if phase.stock else EndDeal()


def _play_hand(game: Game, levels: list[str], seed: int) -> Counter[str]:
    """One hand (three-bid: up to the first hand bid) with computer seats only: the seat
    to act always has a decision, nobody else has one, and the engine accepts each one
    (``apply`` raises otherwise). Returns the kinds of decisions made."""
    made: Counter[str] = Counter()
    step = 0
    while not isinstance(game.phase, (HandOver, MatchOver)):
        step += 1
        phase = game.phase
        action: Action | None = None
        if isinstance(phase, Dealing):
            action = _deal_step(game, levels, seed + step)
        else:
            actor = public_view(game).turn
            assert actor is not None
            action = _decision(game, actor, levels[actor], seed + step)
            assert action is not None, f"no decision in the {phase.name} phase"
            for other in range(game.players):
                if other != actor:
                    assert ai.choose(seat_view(game, other), levels[other], 0) is None
        made[type(action).__name__] += 1
        game.apply(action)
    return made


@pytest.mark.parametrize("game_name", list(GAMES))
def test_every_level_plays_a_whole_hand_legally(game_name: str) -> None:
    preset, options = GAMES[game_name]
    rules = ruleset(preset, **options)
    before = ai_player.refused_plays
    made: Counter[str] = Counter()
    for seed in (3, 8):
        levels = [LEVELS[(seat + seed) % 3] for seat in range(rules.players)]
        made += _play_hand(Game(rules, seed, dealer=seed % rules.players), levels, seed)
    assert ai_player.refused_plays == before  # no play replaced by a legal one
    assert made["Play"] > 0 and made["Bury"] >= 2
    if preset == "find-friends":
        assert made["CallFriends"] == 2
    if preset == "three-bid":
        assert made["NameTrump"] == 2 and made["Bid"] >= 2


def _calling(hand: str, kitty: str, *, decks: int = 2, players: int = 5,
             level: Rank = Rank.TWO, trump: Suit = Suit.SPADES) -> SeatView:
    rules = ruleset("find-friends", players=players, decks=decks)
    others: list[list[Card]] = [[] for _ in range(players - 1)]
    game = Game.from_position(rules, level=level, trump=trump, stage="call", dealer=0,
                              hands=[parse_cards(hand), *others], kitty=parse_cards(kitty))
    return seat_view(game, 0)


@pytest.mark.parametrize(("hand", "kitty", "level", "called"), [
    ("3H 4H 5S 6S", "7D 7C", Rank.TWO, ("AH", 1)),  # no ace held: the first one played
    ("AC 3C 5S", "7D 7C", Rank.TWO, ("AC", 2)),  # a low club to lead: the second AC
    ("AH AH 3H AC AD 3D", "4C 5C", Rank.TWO, ("AD", 2)),  # both AH held: never AH
    ("3H 4D", "AH AH 5C", Rank.TWO, ("AD", 1)),  # both AH buried: none left to play
    ("KH 3H AS", "7D 7C", Rank.ACE, ("KH", 2)),  # level A: aces are trump, call a K
], ids=["none-held", "one-held", "all-held", "all-buried", "level-ace"])
def test_call_names_a_side_ace_after_the_dealers_own_copies(
        hand: str, kitty: str, level: Rank, called: tuple[str, int]) -> None:
    view = _calling(hand, kitty, level=level)
    cards, copies = choose_calls(view)
    assert (str(cards[0]), copies[0]) == called
    action = decide(view)
    assert isinstance(action, CallFriends)
    assert view.rules is not None
    game = Game.from_position(view.rules, level=level, trump=Suit.SPADES, stage="call",
                              dealer=0, hands=[list(view.hand)] + [[]] * 4,
                              kitty=list(view.kitty))
    game.apply(action)  # the engine accepts the call
    assert isinstance(game.phase, Playing)


def test_six_players_call_two_different_friends() -> None:
    view = _calling("AH 3H AC 4C 5D", "7D", decks=3, players=6)
    cards, copies = choose_calls(view)
    assert len(cards) == 2 and len(set(zip(cards, copies, strict=True))) == 2
    assert all(c.rank is Rank.ACE and c.suit is not Suit.SPADES for c in cards)


def _bidding(hand: str, standing: int | None = None) -> SeatView:
    """Seat 1 to bid in three-bid, first, or after seat 0 bid ``standing``."""
    rules = ruleset("three-bid")
    mine = parse_cards(hand)
    rest = [c for c in ALL_CARDS for _ in range(2)]
    for card in mine:
        rest.remove(card)
    random.Random(5).shuffle(rest)
    hands = [rest[:34], mine, rest[34:68]]
    game = Game.from_position(rules, level=Rank.TWO, stage="bid", hands=hands,
                              dealer=0 if standing is None else 2, kitty=rest[68:74])
    if standing is not None:
        game.apply(Bid(0, standing))
    return seat_view(game, 1)


STRONG = ("BJ BJ SJ SJ 2S 2S 2H AS AS KS KS QS QS JS 10S 9S 8S 7S 6S 5S AH AH AD AD AC "
          "3H 4H 5H 6D 7D 8C 9C 10C JC")
WEAK = ("3S 4S 5S 6S 7S 8S 3H 4H 5H 6H 7H 8H 9H 3D 4D 5D 6D 7D 8D 9D 10D 3C 4C 5C 6C 7C "
        "8C 9C 10C JC 6S 7H 8D 9S")


@pytest.mark.parametrize(("hand", "standing", "expected"), [
    (STRONG, None, Bid(1, 150)),  # strong: the highest bid first
    (STRONG, 120, Bid(1, 115)),  # strong: one step under the standing bid
    (WEAK, None, PassBid(1)),  # weak: pass
    (STRONG, 5, PassBid(1)),  # nothing under 5
], ids=["strong-opens", "strong-underbids", "weak-passes", "floor"])
def test_bid_what_the_hand_can_make(hand: str, standing: int | None, expected: Action
                                    ) -> None:
    assert decide(_bidding(hand, standing)) == expected


def test_bury_keeps_and_names_the_trump_the_hand_is_longest_in() -> None:
    hearts = ("3H 4H 6H 7H 8H 9H 10H JH QH KH AH AH 3H 4H 6H 7H 5S 6S 7S 8S 3D 4D 5D 6D 7D "
              "8D 3C 4C 5C 6C 7C 8C 9C 10C")
    view = _bidding(hearts, 120)  # seat 1 to bid after seat 0
    assert view.rules is not None
    game = Game.from_position(view.rules, level=Rank.TWO, stage="bid", dealer=0,
                              hands=[[], list(view.hand), []],
                              kitty=parse_cards("9S 9D 9C 2C 2D 5H"))
    game.apply(Bid(1, 120))
    game.apply(PassBid(2))
    game.apply(PassBid(0))
    burying = seat_view(game, 1)
    assert burying.phase == "bury" and burying.ctx is None  # nobody knows a trump yet
    bury = decide(burying)
    assert isinstance(bury, Bury) and not any(c.suit is Suit.HEARTS for c in bury.cards)
    game.apply(bury)
    assert decide(seat_view(game, 1)) == NameTrump(1, "H")


def _transfer_view(seat: int, levels: list[Rank], defenders: tuple[int, ...], *,
                   asked: bool = False) -> SeatView:
    rules = ruleset("find-friends", level_transfer=True)
    giver = 3 if asked else seat
    return SeatView(seat=seat, phase="transfer", players=5, hand_number=0,
                    levels=tuple(levels), dealer=0, level=None, rules=rules,
                    seat_levels=tuple(levels), defenders=defenders, turn=seat,
                    transfers=((giver, 2),))


def test_transfer_takes_levels_off_the_highest_opponent() -> None:
    levels = [Rank.JACK, Rank.FIVE, Rank.KING, Rank.TWO, Rank.NINE]
    # seat 0 defended with seat 3: the opponents are 1, 2 and 4; seat 2 is highest
    assert decide(_transfer_view(0, levels, (0, 3))) == Transfer(0, 2)
    # every opponent at the first level: give them to the teammate
    low = [Rank.JACK, Rank.TWO, Rank.TWO, Rank.SIX, Rank.TWO]
    assert decide(_transfer_view(0, low, (0, 3))) == Transfer(0, 3)
    # a gift offered is accepted
    assert decide(_transfer_view(4, levels, (0, 3), asked=True)) == AnswerTransfer(4, True)


def test_the_j_penalty_s_excess_goes_on_the_highest_opponent_but_the_kitty_s_winner(
        ) -> None:
    levels = [Rank.TWO, Rank.KING, Rank.TWO, Rank.SIX, Rank.NINE]
    view = replace(_transfer_view(0, levels, (0, 2)), penalty="jack", penalty_kitty_winner=1)
    assert decide(view) == Transfer(0, 4)  # seat 1 (K) won the kitty: not named
    # nobody but the kitty's winner above the first level: seat order (never a teammate)
    low = [Rank.TWO, Rank.KING, Rank.SIX, Rank.TWO, Rank.TWO]
    assert decide(replace(_transfer_view(0, low, (0, 2)), penalty="jack",
                          penalty_kitty_winner=1)) == Transfer(0, None)


def test_a_friend_s_a_penalty_excess_goes_on_the_highest_opponent_never_a_teammate(
        ) -> None:
    levels = [Rank.JACK, Rank.KING, Rank.TWO, Rank.SIX, Rank.NINE]
    view = replace(_transfer_view(2, levels, (0, 2)), penalty="ace")
    assert decide(view) == Transfer(2, 1)  # the kitty's winner may be named
    low = [Rank.JACK, Rank.TWO, Rank.TWO, Rank.TWO, Rank.TWO]
    assert decide(replace(_transfer_view(2, low, (0, 2)), penalty="ace")) == Transfer(2, None)


# -- the play-out simulator and the sampled worlds ----------------------------------------

def _to_play(rules_name: str, options: dict[str, int], seed: int) -> Game:
    """A game at the first lead, dealt and set up by the heuristic players."""
    rules = ruleset(rules_name, **options)
    game = Game(rules, seed, dealer=seed % rules.players)
    while not isinstance(game.phase, Playing):
        _step_easy(game, seed)
    return game


def _step_easy(game: Game, seed: int) -> None:
    action: Action | None
    if isinstance(game.phase, Dealing):
        action = _deal_step(game, ["easy"] * game.players, seed)
    else:
        actor = public_view(game).turn
        assert actor is not None
        action = ai.choose(seat_view(game, actor), "easy", seed)
    assert action is not None
    game.apply(action)


@pytest.mark.parametrize("game_name", list(GAMES))
def test_the_simulator_forms_the_sides_and_points_as_the_engine(game_name: str) -> None:
    """Replaying the engine's hand in the simulator (the true hands as its world) gives,
    after every play, the engine's known defenders, settledness and attackers' points."""
    preset, options = GAMES[game_name]
    for seed in (1, 2, 4):
        game = _to_play(preset, options, seed)
        phase = game.phase
        assert isinstance(phase, Playing)
        view = seat_view(game, phase.taker)  # the taker knows the kitty: the true world
        world = Knowledge.from_view(view).world_from([list(h) for h in phase.hands],
                                                     list(phase.kitty))
        rng = random.Random(seed)
        while isinstance(game.phase, Playing):
            seat = game.phase.turn
            cards = random_play(game, seat, rng)
            game.apply(Play(seat, cards))
            world.play(cards)
            state = game.phase
            if isinstance(state, Playing):
                assert world.defenders == state.sides.defenders
                assert world.settled == state.sides.settled
                assert world.attacker_points == state.attacker_points
        assert isinstance(game.phase, (HandOver, MatchOver))
        assert world.total == game.phase.result.attacker_points
        assert attackers_win(game.rules, world.total, world.bid) == \
            (game.phase.result.side == "attackers")


def test_unknown_seats_are_nobodys_partners_until_the_friend_is_found() -> None:
    game = _to_play("find-friends", {}, 6)
    phase = game.phase
    assert isinstance(phase, Playing) and not phase.sides.settled
    view = seat_view(game, (phase.dealer + 1) % 5)
    world = Knowledge.from_view(view).world(random.Random(0))
    others = [s for s in range(5) if s != phase.dealer]
    assert not any(world.same_side(a, b) for a in others for b in others if a != b)
    assert not any(world.same_side(phase.dealer, s) for s in others)
    assert all(world.same_side(s, s) for s in range(5))


@pytest.mark.parametrize("game_name", list(GAMES))
def test_sampled_worlds_deal_only_unseen_cards_in_the_right_sizes(game_name: str) -> None:
    preset, options = GAMES[game_name]
    game = _to_play(preset, options, 9)
    rng = random.Random(9)
    for _ in range(game.players + 3):  # into the second trick
        phase = game.phase
        assert isinstance(phase, Playing)
        game.apply(Play(phase.turn, random_play(game, phase.turn, rng)))
    phase = game.phase
    assert isinstance(phase, Playing)
    rules = game.rules
    for seat in range(game.players):
        view = seat_view(game, seat)
        knowledge = Knowledge.from_view(view)
        hands, kitty = knowledge.sample(random.Random(seat))
        assert [len(h) for h in hands] == [len(h) for h in phase.hands]
        assert len(kitty) == rules.kitty_size
        assert Counter(hands[seat]) == Counter(view.hand)
        if seat == phase.taker:
            assert Counter(kitty) == Counter(view.kitty)
        played = Counter(c for t in view.tricks for _, cs in t[0] for c in cs)
        played.update(c for _, cs in view.trick for c in cs)
        dealt = Counter(c for h in hands for c in h) + Counter(kitty)
        assert dealt + played == Counter(dict.fromkeys(ALL_CARDS, rules.decks))
        for other in range(game.players):  # nobody else is handed this seat's cards
            if other != seat:
                assert not Counter(hands[other]) - (Counter(dict.fromkeys(
                    ALL_CARDS, rules.decks)) - Counter(view.hand) - played -
                    (Counter(view.kitty) if seat == phase.taker else Counter()))


@pytest.mark.parametrize(("preset", "options", "bid", "threshold"), [
    ("find-friends", {}, None, 120),
    ("find-friends", {"decks": 3}, None, 120),
    ("three-bid", {}, 95, 95),
    ("six", {}, None, 120),
    ("classic", {}, None, 80),
])
def test_the_search_wins_by_the_games_own_threshold(preset: str, options: dict[str, int],
                                                    bid: int | None, threshold: int) -> None:
    rules = ruleset(preset, **options)
    assert take_over_threshold(rules, bid) == threshold
    assert not attackers_win(rules, threshold - 5, bid)
    assert attackers_win(rules, threshold, bid)


def test_playstate_copy_keeps_the_sides() -> None:
    game = _to_play("find-friends", {"players": 6, "decks": 3}, 2)
    phase = game.phase
    assert isinstance(phase, Playing)
    world = Knowledge.from_view(seat_view(game, 0)).world(random.Random(1))
    twin: PlayState = world.copy()
    assert (twin.defenders, twin.settled, twin.calls, twin.won, twin.bid) == \
        (world.defenders, world.settled, world.calls, world.won, world.bid)
    twin.won[0] += 5
    assert world.won[0] == 0
