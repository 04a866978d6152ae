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

from engine.actions import (
    Action,
    AnswerTransfer,
    Bid,
    CallFriends,
    Event,
    NameTrump,
    NextHand,
    PassBid,
    Play,
    Transfer,
)
from engine.cards import deck, points
from engine.errors import EngineError
from engine.game import (
    Bidding,
    Burying,
    CallingFriends,
    Dealing,
    Game,
    HandOver,
    MatchOver,
    MatchState,
    NamingTrump,
    Playing,
    Transferring,
    apply,
)
from engine.legal import check_play, legal_plays
from engine.record import GameRecord, replay
from engine.rules import Ruleset, ruleset
from engine.simulate import random_action
from engine.views import public_view, seat_view

#: Every preset, and the other tables of find-friends and classic: id -> (preset, options).
GAMES: dict[str, tuple[str, dict[str, object]]] = {
    "classic": ("classic", {}),
    "one-deck": ("one-deck", {}),
    "red-black": ("red-black", {}),
    "titanic": ("titanic", {}),
    "changzhu": ("changzhu", {}),
    "four-decks": ("classic", {"decks": 4}),
    "find-friends": ("find-friends", {}),
    "find-friends-5x3": ("find-friends", {"decks": 3}),
    "find-friends-6x3": ("find-friends", {"players": 6, "decks": 3}),
    "find-friends-options": ("find-friends", {"level_transfer": True,
                                              "jack_kitty_penalty": True,
                                              "ace_kitty_penalty": True}),
    "three-bid": ("three-bid", {}),
    "six": ("six", {}),
}
PRESETS = list(GAMES)


def _rules(name: str) -> Ruleset:
    preset, options = GAMES[name]
    return ruleset(preset, **options)


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
        seen.update(getattr(phase, "kitty", ()))
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


def _refused_probe(game: Game) -> None:
    """Bids, calls, trump names and transfers the rules refuse change nothing."""
    phase = game.phase
    wrong: list[Action] = []
    if isinstance(phase, Bidding):
        top = phase.standing[1] if phase.standing else game.rules.max_bid
        wrong = [Bid(phase.turn, top + 5), Bid(phase.turn, 3), PassBid((phase.turn + 1) % 3)]
    elif isinstance(phase, CallingFriends):
        card = deck(1)[0]
        wrong = [CallFriends(phase.dealer, (card,) * 3, (1, 2, 3)),
                 CallFriends((phase.dealer + 1) % game.players, (card,) * game.rules.friends,
                             (1,) * game.rules.friends)]
    elif isinstance(phase, NamingTrump):
        wrong = [NameTrump(phase.dealer, "purple"), NameTrump((phase.dealer + 1) % 3, "S")]
    elif isinstance(phase, Transferring):
        wrong = [Transfer(phase.offers[0][0], phase.offers[0][0]), NextHand()]
        if phase.asked is not None:
            wrong = [Transfer(phase.offers[0][0], None),
                     AnswerTransfer((phase.asked + 1) % game.players, True)]
    for action in wrong:
        before = game.fingerprint()
        with pytest.raises(EngineError):
            game.apply(action)
        assert game.fingerprint() == before


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
@settings(max_examples=5, deadline=None)
def test_random_hand_invariants(preset: str, seed: int) -> None:
    rules = _rules(preset)
    game = Game(rules, seed)
    rng = random.Random(seed)
    full = Counter(deck(rules.decks))
    while not isinstance(game.phase, (HandOver, MatchOver)):
        phase = game.phase
        if isinstance(phase, (Dealing, Playing, Bidding, CallingFriends, NamingTrump)):
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
        _refused_probe(game)
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
@settings(max_examples=5, deadline=None)
def test_points_in_play_add_up_to_100_per_deck(preset: str, seed: int) -> None:
    rules = _rules(preset)
    game = Game(rules, seed)
    events = _play_hand(game, random.Random(seed))
    trick_points = sum(e.get("points") for e in events if e.kind == "trick_won")
    assert trick_points + points(game.phase.result.kitty) == 100 * rules.decks


@pytest.mark.parametrize("preset", PRESETS)
@given(seed=st.integers(0, 10**9))
@settings(max_examples=5, deadline=None)
def test_no_view_holds_another_seats_hand(preset: str, seed: int) -> None:
    game = Game(_rules(preset), seed)
    played: set[int] = set()  # seats that have played a called copy

    def check() -> None:
        phase = game.phase
        if isinstance(phase, Playing):  # who played a called copy, from the plays seen
            for trick in (*[t for t, _, _ in phase.tricks], phase.trick):
                for seat, cards in trick.plays:
                    if any(c.card in cards for c in phase.calls):
                        played.add(seat)
        for viewer in range(game.players):
            view = seat_view(game, viewer)
            assert view.hand == tuple(phase.hands[viewer])
            if isinstance(phase, (Burying, Playing)) and viewer != phase.taker:
                assert view.kitty == ()
            # a hidden trump suit stays with its declarer
            if viewer not in game.trump_known_by():
                assert view.ctx is None and not view.trump_known
            # nobody's view names a friend before the called copy is played, and every
            # seat knows the same about the sides
            assert view.defenders == public_view(game).defenders
            if isinstance(phase, Playing) and phase.calls:
                assert set(view.defenders) <= played | {phase.dealer}
                assert view.sides_settled == (not phase.calls or all(c.done
                                                                    for c in phase.calls))

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
@settings(max_examples=5, deadline=None)
def test_apply_never_mutates_its_input_state(preset: str, seed: int) -> None:
    state = MatchState.start(_rules(preset), seed)
    rng = random.Random(seed)
    while state.hand_number == 0 and not isinstance(state.phase, MatchOver):  # into hand 2
        action = random_action(Game.of(state), rng)
        assert action is not None
        before = _contents(state)
        step = apply(state, action)
        assert _contents(state) == before, f"{action} changed the state it was given"
        assert step.state != state
        state = step.state
