"""find-friends, three-bid and six as whole matches, and their phases' refusals."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.actions import (
    AnswerTransfer,
    Bid,
    CallFriends,
    NameTrump,
    PassBid,
    Play,
    Transfer,
    action_from_dict,
    action_to_dict,
)
from engine.cards import Rank, Suit, parse_card, parse_cards
from engine.errors import EngineError
from engine.game import (
    Bidding,
    CallingFriends,
    Game,
    HandOver,
    MatchOver,
    Transferring,
    apply,
    penalty_targets,
    settled_result,
)
from engine.rules import ruleset
from engine.simulate import random_action
from engine.views import seat_view

NEW_GAMES = [("find-friends", {}), ("find-friends", {"players": 5, "decks": 3}),
             ("find-friends", {"players": 6, "decks": 3}), ("three-bid", {}), ("six", {})]


@pytest.mark.parametrize(("preset", "options"), NEW_GAMES,
                         ids=lambda v: v if isinstance(v, str) else "-".join(map(str, v.values())))
def test_random_legal_actions_play_a_whole_match(preset: str, options: dict[str, int]) -> None:
    game = Game(ruleset(preset, **options), seed=7)
    rng = random.Random(7)
    for _ in range(200_000):
        action = random_action(game, rng)
        if action is None:
            break
        game.apply(action)
    assert isinstance(game.phase, MatchOver)
    winner = game.phase.winner_team
    if game.rules.individual_levels:  # the winner is a player who passed the top level
        assert 0 <= winner < game.players
    else:
        assert winner in (0, 1)


@pytest.mark.parametrize("action", [
    CallFriends(0, (parse_card("AH"),), (2,)), Bid(1, 120), PassBid(2), NameTrump(0, "none"),
    Transfer(3, None), Transfer(1, 4), AnswerTransfer(2, False), AnswerTransfer(0, True)])
def test_new_actions_round_trip_through_the_log(action: object) -> None:
    assert action_from_dict(action_to_dict(action)) == action  # type: ignore[arg-type]


def _at(phase_type: type, preset: str, seed: int = 3) -> Game:
    game = Game(ruleset(preset), seed)
    rng = random.Random(seed)
    while not isinstance(game.phase, phase_type):
        action = random_action(game, rng)
        assert action is not None
        game.apply(action)
    return game


@pytest.mark.parametrize(("preset", "phase_type", "wrong"), [
    ("three-bid", Bidding, Play(0, tuple(parse_cards("AS")))),
    ("find-friends", CallingFriends, Bid(0, 100)),
])
def test_an_action_in_the_wrong_phase_is_refused_with_the_phase(preset: str, phase_type: type,
                                                               wrong: object) -> None:
    game = _at(phase_type, preset)
    before = game.fingerprint()
    with pytest.raises(EngineError) as info:
        game.apply(wrong)  # type: ignore[arg-type]
    assert info.value.code == "wrong_phase" and info.value.params["phase"] == game.phase.name
    assert game.fingerprint() == before


def _accepts(game: Game, action: Bid) -> bool:
    try:
        apply(game.state, action)
    except EngineError:
        return False
    return True


@pytest.mark.parametrize("max_bid", [150, 100, 60])
def test_the_bids_allowed_are_exactly_the_bids_the_engine_accepts(max_bid: int) -> None:
    # bids in turn from the highest down to the floor, checking at each standing bid
    game = Game(ruleset("three-bid", max_bid=max_bid), 3)
    rng = random.Random(3)
    while not isinstance(game.phase, Bidding):
        action = random_action(game, rng)
        assert action is not None
        game.apply(action)
    while isinstance(game.phase, Bidding):
        phase = game.phase
        accepted = [p for p in range(max_bid + 10, -5, -1) if _accepts(game, Bid(phase.turn, p))]
        assert list(phase.bids_allowed(max_bid)) == accepted
        if not accepted:
            break
        game.apply(Bid(phase.turn, accepted[min(len(accepted) - 1, rng.randrange(3))]))


def test_bidding_view_shows_bids_but_not_the_kitty() -> None:
    game = _at(Bidding, "three-bid")
    phase = game.phase
    assert isinstance(phase, Bidding)
    game.apply(Bid(phase.turn, 140))
    for seat in range(3):
        view = seat_view(game, seat)
        assert view.phase == "bid" and view.bid == 140 and view.kitty == ()
        assert view.hand == phase.hands[seat] and view.ctx is None


def test_the_called_friend_is_unknown_until_the_copy_is_played() -> None:
    game = _at(CallingFriends, "find-friends")
    phase = game.phase
    assert isinstance(phase, CallingFriends)
    dealer = phase.dealer
    holder = next(s for s in range(5) if s != dealer and phase.hands[s])
    card = phase.hands[holder][0]
    game.apply(CallFriends(dealer, (card,), (1,)))
    for seat in range(5):
        view = seat_view(game, seat)
        assert view.defenders == (dealer,) and not view.sides_settled
        assert view.calls == ((card, 1, None),)


def j_tractor_kitty(levels: list[Rank]) -> Game:
    """find-friends with ``jack_kitty_penalty``, after the hand: seat 1 won the kitty with
    a J tractor (24 levels) over the dealer (0, at J) and the friend (2), at ``levels``;
    what the defenders could not lose is the dealer's to place on opponents."""
    rules = ruleset("find-friends", jack_kitty_penalty=True)
    hands = [parse_cards(h) for h in ("9S 9S 10S 10S", "JH JH JS JS", "3C 4C 6C 7C",
                                      "8C 9C QC QC", "AC AC KC 2C")]
    game = Game.from_position(
        rules, level=Rank.JACK, trump=Suit.SPADES, dealer=0, hands=hands,
        seat_levels=levels, calls=[(parse_card("KH"), 1)], friends=[2],
        attacker_points=130, kitty=parse_cards("3D 4D 6D 7D 8D 9D QD 2D"))
    for seat in range(5):
        game.apply(Play(seat, tuple(hands[seat])))
    assert isinstance(game.phase, Transferring) and game.phase.kitty_winner == 1
    return game


def ace_kitty(levels: list[Rank]) -> Game:
    """find-friends, 6 players, with ``ace_kitty_penalty``, after the hand: seat 1 won the
    last trick with the trump A over the dealer (0, at A) and its friends 2 and 4, at
    ``levels``; what each friend could not lose is that friend's to place on opponents."""
    rules = ruleset("find-friends", players=6, decks=3, ace_kitty_penalty=True)
    hands = [parse_cards(h) for h in ("4C", "AS", "6C", "7C", "8C", "9C")]
    game = Game.from_position(
        rules, level=Rank.ACE, trump=Suit.SPADES, dealer=0, hands=hands,
        seat_levels=levels, calls=[(parse_card("KH"), 1), (parse_card("KD"), 1)],
        friends=[2, 4], attacker_points=130, kitty=parse_cards("3D 4D 6D 7D 8D 9D"))
    for seat in range(6):
        game.apply(Play(seat, tuple(hands[seat])))
    return game


def test_each_friend_names_who_takes_the_a_penalty_s_levels_it_could_not_lose() -> None:
    game = ace_kitty([Rank.ACE, Rank.FOUR, Rank.THREE, Rank.SIX, Rank.TWO, Rank.FIVE])
    phase = game.phase
    # the dealer down to J; friend 2 (3 → 2) could not lose 2 levels, friend 4 (at 2) 3
    assert isinstance(phase, Transferring) and phase.penalty == "ace"
    assert phase.offers == ((2, 2), (4, 3)) and phase.kitty_winner is None
    assert [r.label for r in game.levels] == ["J", "4", "2", "6", "2", "5"]
    assert seat_view(game, 3).penalty == "ace"
    with pytest.raises(EngineError):
        game.apply(Transfer(4, 3))  # friend 2 names first
    # every opponent may be named, the one who won the kitty (1) too
    assert penalty_targets(game.state) == [1, 3, 5]
    events = game.apply(Transfer(2, 1))
    assert [(e.get("target"), e.get("levels"), e.get("penalty")) for e in events
            if e.kind == "penalty_taken"] == [(1, 2, "ace")]
    assert game.phase.offers == ((4, 3),)  # type: ignore[union-attr]
    game.apply(Transfer(4, 5))  # 5 → 2 takes all 3
    assert [r.label for r in game.levels] == ["J", "2", "2", "6", "2", "2"]
    assert isinstance(game.phase, HandOver)


def test_a_friend_s_a_penalty_levels_nobody_can_take_are_lost() -> None:
    """Friend 2's naming leaves every opponent at the first level: friend 4 is not asked
    to name anyone, and its levels are lost."""
    game = ace_kitty([Rank.ACE, Rank.THREE, Rank.TWO, Rank.TWO, Rank.TWO, Rank.FOUR])
    assert game.phase.offers == ((2, 3), (4, 3))  # type: ignore[union-attr]
    game.apply(Transfer(2, None))  # in seat order: 1 (3 → 2) takes 1, 5 (4 → 2) takes 2
    assert [r.label for r in game.levels] == ["J", "2", "2", "2", "2", "2"]
    assert isinstance(game.phase, HandOver)


def test_the_j_penalty_says_only_the_levels_taken() -> None:
    """Every opponent, the kitty's winner too, at the first level: the dealer's naming
    lowers nobody more, and no line says anyone went down 0 levels."""
    game = j_tractor_kitty([Rank.JACK, Rank.TWO, Rank.THREE, Rank.SIX, Rank.TWO])
    assert game.phase.offers[0] == (0, 14)  # type: ignore[union-attr]
    events = game.apply(Transfer(0, None))  # seat 3 (6 → 2) takes 4; nobody else can
    taken = [(e.get("target"), e.get("levels")) for e in events if e.kind == "penalty_taken"]
    assert taken == [(3, 4)]
    assert [r.label for r in game.levels] == ["2", "2", "2", "2", "2"]
    assert isinstance(game.phase, HandOver)


def test_the_settled_result_shows_the_levels_after_the_moves_that_followed_the_hand() -> None:
    game = j_tractor_kitty([Rank.JACK, Rank.TWO, Rank.THREE, Rank.SIX, Rank.TWO])
    assert settled_result(game.state) is None  # (the dealer has yet to place the excess)
    scored = game.phase.result  # type: ignore[union-attr]
    game.apply(Transfer(0, None))
    settled = settled_result(game.state)
    assert settled is not None
    assert [c.new for c in settled.changes] == list(game.levels)
    # only seat 3 moved after the scoring, and says so; the scoring's other facts stay
    assert [c.seat for c, s in zip(scored.changes, settled.changes, strict=True)
            if c.new is not s.new] == [3]
    assert scored.changes[3].reasons == ("took_over",)
    assert settled.changes[3].reasons == ("took_over", "after_hand")
    assert [(c.old, c.earned) for c in settled.changes] == \
        [(c.old, c.earned) for c in scored.changes]
    assert [c.reasons for c in settled.changes[:3]] == [c.reasons for c in scored.changes[:3]]
    assert replace(settled, changes=scored.changes) == scored
    assert game.phase.result == scored  # type: ignore[union-attr]


def test_a_hand_nothing_moved_after_has_no_settled_result() -> None:
    game = _at(HandOver, "find-friends")
    assert settled_result(game.state) is None
