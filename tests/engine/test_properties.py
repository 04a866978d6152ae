"""Engine invariants over random deals played out with random legal moves (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from enum import Enum

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Event, Play
from engine.cards import deck, points
from engine.errors import EngineError
from engine.game import Burying, Dealing, Game, HandOver, MatchOver, MatchState, Playing, apply
from engine.legal import check_play, legal_plays
from engine.record import GameRecord, replay
from engine.rules import ruleset
from engine.simulate import random_action
from engine.views import seat_view

PRESETS = ["classic", "one-deck", "red-black", "titanic", "changzhu"]


def _all_cards(game: Game) -> Counter:
    """Hands + stock + kitty + played cards, wherever they are now."""
    phase = game.phase
    seen: Counter = Counter()
    if isinstance(phase, Dealing):
        for h in phase.hands:
            seen.update(h)
        seen.update(phase.stock)
        seen.update(phase.kitty)
    elif isinstance(phase, Playing):
        for h in phase.hands:
            seen.update(h)
        seen.update(phase.kitty)
        for trick, _, _ in phase.tricks:
            for _, cards in trick.plays:
                seen.update(cards)
        for _, cards in phase.trick.plays:
            seen.update(cards)
    else:
        for h in phase.hands:
            seen.update(h)
    return seen


def _illegal_probe(game: Game, rng: random.Random) -> None:
    """A random refused play must leave the game exactly as it was."""
    phase = game.phase
    if not isinstance(phase, Playing):
        return
    seat = rng.randrange(game.players)
    hand = phase.hands[seat]
    if not hand:
        return
    n = rng.randint(1, min(4, len(hand)))
    cards = tuple(rng.sample(hand, n))
    before = game.fingerprint()
    state = game.state
    try:
        check_play(game, seat, cards)
    except EngineError as exc:
        with pytest.raises(EngineError) as info:
            game.apply(Play(seat, cards))
        assert info.value.code == exc.code
        assert game.fingerprint() == before
        assert game.state is state


def _play_hand(game: Game, rng: random.Random, check: Callable[[], None] = lambda: None
               ) -> list[Event]:
    """Play the hand out with random legal actions, calling ``check`` before each one."""
    events: list[Event] = []
    while not isinstance(game.phase, (HandOver, MatchOver)):
        check()
        events += game.apply(random_action(game, rng))
    return events


@pytest.mark.parametrize("preset", PRESETS)
@given(seed=st.integers(0, 10**9))
@settings(max_examples=6)
def test_random_hand_invariants(preset: str, seed: int) -> None:
    rules = ruleset(preset)
    game = Game(rules, seed)
    rng = random.Random(seed)
    full = Counter(deck(rules.decks))
    while not isinstance(game.phase, (HandOver, MatchOver)):
        phase = game.phase
        if isinstance(phase, (Dealing, Playing)):
            assert _all_cards(game) == full, "cards are conserved"
        if isinstance(phase, Playing):
            seat = phase.turn
            options = legal_plays(game, seat)
            assert options, "a seat to move always has a legal play"
            for cards in options[:40]:
                check_play(game, seat, cards)  # every enumerated play is accepted
            _illegal_probe(game, rng)
            for viewer in range(game.players):
                view = seat_view(game, viewer)
                assert Counter(view.hand) == Counter(phase.hands[viewer])
                if viewer != phase.taker:
                    assert view.kitty == ()
        action = random_action(game, rng)
        game.apply(action)
        if isinstance(game.phase, Playing) and game.phase.tricks and not game.phase.trick.plays:
            trick, winner, _ = game.phase.tricks[-1]
            assert winner in [s for s, _ in trick.plays], "the winner played in the trick"
    result = game.phase.result
    assert replay(GameRecord.from_json(GameRecord.of(game).to_json())).fingerprint() == \
        game.fingerprint(), "replaying the log reproduces the state"
    assert result.attacker_points == result.trick_points + result.kitty_delta


@pytest.mark.parametrize("preset", PRESETS)
@given(seed=st.integers(0, 10**9))
@settings(max_examples=4)
def test_points_in_play_add_up_to_100_per_deck(preset: str, seed: int) -> None:
    rules = ruleset(preset)
    game = Game(rules, seed)
    events = _play_hand(game, random.Random(seed))
    trick_points = sum(e.get("points") for e in events if e.kind == "trick_won")
    assert trick_points + points(game.phase.result.kitty) == 100 * rules.decks


@pytest.mark.parametrize("preset", ["classic", "changzhu"])
@given(seed=st.integers(0, 10**9))
@settings(max_examples=4)
def test_no_view_holds_another_seats_hand(preset: str, seed: int) -> None:
    game = Game(ruleset(preset), seed)

    def check() -> None:
        phase = game.phase
        for viewer in range(game.players):
            view = seat_view(game, viewer)
            assert view.hand == tuple(phase.hands[viewer])
            if isinstance(phase, (Burying, Playing)) and viewer != phase.taker:
                assert view.kitty == ()
            # a hidden trump suit stays with its declarer
            if viewer not in game.trump_known_by():
                assert view.ctx is None and not view.trump_known

    _play_hand(game, random.Random(seed), check)


def _contents(value: object) -> object:
    """``value`` taken apart into plain tuples, recursively: a deep snapshot that also sees
    what ``==`` leaves out (a trump context's tables, the play rules)."""
    if is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,
                tuple((f.name, _contents(getattr(value, f.name))) for f in fields(value)))
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, tuple(_contents(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple((k, _contents(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, tuple(sorted(map(repr, value))))
    if hasattr(value, "__dict__") and not isinstance(value, Enum):
        return (type(value).__name__, _contents(vars(value)))
    return value  # cards (interned, immutable), enums, numbers, strings, None


@pytest.mark.parametrize("preset", PRESETS)
@given(seed=st.integers(0, 10**9))
@settings(max_examples=3)
def test_apply_never_mutates_its_input_state(preset: str, seed: int) -> None:
    state = MatchState.start(ruleset(preset), seed)
    rng = random.Random(seed)
    while state.hand_number == 0 and not isinstance(state.phase, MatchOver):  # into hand 2
        action = random_action(Game.of(state), rng)
        assert action is not None
        before = _contents(state)
        step = apply(state, action)
        assert _contents(state) == before, f"{action} changed the state it was given"
        assert step.state != state
        state = step.state
