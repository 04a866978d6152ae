"""The match is a value: ``apply(state, action)`` returns a ``Step`` (the next state and its
events), and a refused action raises ``EngineError`` with the state it was given as it was
(STYLE §3 "a step is atomic"; the scenario format's ``expect = "illegal"``)."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import FrozenInstanceError

import pytest

from engine.actions import Action, Bury, Deal, Declare, EndDeal, NextHand, Play
from engine.cards import Rank, Suit, deck, parse_cards
from engine.errors import EngineError
from engine.game import Dealing, Game, MatchState, Playing, Step, apply, shuffle
from engine.rules import PRESETS, ruleset
from engine.scoring import _level_table, level_table


def _cards(text: str) -> tuple:
    return tuple(parse_cards(text))


def _first_deal() -> MatchState:
    return MatchState.start(ruleset("classic"), 3, dealer=0)


def _dealt_out() -> MatchState:
    state = _first_deal()
    while isinstance(state.phase, Dealing) and state.phase.stock:
        state = apply(state, Deal(4)).state
    return state


def _mid_trick() -> MatchState:
    """Seat 0 led AS; seat 1 holds spades, so it must follow with one."""
    hands = [parse_cards(h) for h in ("KS 3D", "4S 5D", "6S 7D", "8S 9D")]
    return Game.from_position(ruleset("classic"), level=Rank.TWO, hands=hands,
                              trump=Suit.HEARTS, dealer=0, trick=[(0, _cards("AS"))]).state


REFUSED: list[tuple[str, Callable[[], MatchState], Action, str]] = [
    ("bury_during_the_deal", _first_deal, Bury(0, _cards("AS")), "wrong_phase"),
    ("deal_no_card", _first_deal, Deal(0), "bad_action"),
    ("end_the_deal_with_cards_left", _first_deal, EndDeal(), "deal_not_over"),
    ("declare_a_card_not_held", _first_deal, Declare(0, _cards("2S")), "not_in_hand"),
    ("deal_when_every_card_is_dealt", _dealt_out, Deal(4), "deal_over"),
    ("play_out_of_turn", _mid_trick, Play(2, _cards("6S")), "not_your_turn"),
    ("play_a_card_not_held", _mid_trick, Play(1, _cards("AS")), "not_in_hand"),
    ("play_off_suit_while_holding_the_suit", _mid_trick, Play(1, _cards("5D")),
     "must_follow_suit"),
    ("play_from_a_seat_that_does_not_exist", _mid_trick, Play(7, _cards("4S")), "bad_seat"),
    ("start_the_next_hand_during_play", _mid_trick, NextHand(), "wrong_phase"),
]


@pytest.mark.parametrize(("build", "action", "code"), [row[1:] for row in REFUSED],
                         ids=[row[0] for row in REFUSED])
def test_refused_action_leaves_the_state_equal_and_identical(
        build: Callable[[], MatchState], action: Action, code: str) -> None:
    state = build()
    snapshot = copy.deepcopy(state)
    with pytest.raises(EngineError) as refused:
        apply(state, action)
    assert refused.value.code == code
    assert state == snapshot
    game = Game.of(state)
    with pytest.raises(EngineError):
        game.apply(action)
    assert game.state is state, "a refused action keeps the very same state"
    assert game.log == [], "a refused action is not logged"


def test_a_card_named_more_often_than_held_is_told_apart_from_one_not_held() -> None:
    """Was: ``4S 4S`` from a hand holding one 4S was refused as "you do not hold ♠4"."""
    state = _mid_trick()
    with pytest.raises(EngineError) as twice:
        apply(state, Play(1, _cards("4S 4S")))
    assert twice.value.params == {"cards": tuple(_cards("4S")), "where": "hand",
                                  "rule": "fewer"}
    with pytest.raises(EngineError) as absent:
        apply(state, Play(1, _cards("4S 9S")))
    assert absent.value.params == {"cards": tuple(_cards("9S")), "where": "hand"}


def test_an_accepted_action_is_a_new_state_and_the_old_one_stays() -> None:
    state = _mid_trick()
    snapshot = copy.deepcopy(state)
    step = apply(state, Play(1, _cards("4S")))
    assert isinstance(step, Step)
    assert state == snapshot
    assert isinstance(step.state.phase, Playing) and step.state.phase.turn == 2
    assert [e.kind for e in step.events] == ["played", "turn"]
    assert state.phase.hands[1] == _cards("4S 5D")
    assert step.state.phase.hands[1] == _cards("5D")


def test_a_state_cannot_be_changed_in_place() -> None:
    state = _mid_trick()
    with pytest.raises(FrozenInstanceError):
        state.phase.turn = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        state.phase.hands[0] += _cards("AS")  # type: ignore[index]


def test_game_holds_the_state_its_log_reached() -> None:
    game = Game(ruleset("classic"), 3, dealer=0)
    state = game.state
    for action in (Deal(4), Deal(4)):
        expected = apply(state, action)
        assert game.apply(action) == list(expected.events)
        state = expected.state
    assert game.state == state
    assert game.log == [Deal(4), Deal(4)]


@pytest.mark.parametrize("decks", [1, 2, 3, 4])
def test_the_deal_shuffles_as_random_shuffle(decks: int) -> None:
    for seed in ("0:0", "7:3", "123:45"):
        expected, cards = deck(decks), deck(decks)
        random.Random(seed).shuffle(expected)
        shuffle(cards, random.Random(seed))
        assert cards == expected


def test_the_level_table_kept_for_a_ruleset_is_the_one_built_from_it() -> None:
    """``level_table`` is made once per ruleset (every hand's end reads it): the kept table
    is the one building it gives, for every preset, and a ruleset is not given another's."""
    for name in PRESETS:
        rules = ruleset(name)
        assert level_table(rules) == _level_table(rules)
        assert level_table(rules) is level_table(rules)
    two, three = ruleset("classic"), ruleset("classic", decks=3)
    assert level_table(two) == _level_table(two) != level_table(three) == _level_table(three)
