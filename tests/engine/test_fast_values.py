"""The states, events and random plays the hot transitions build without ``__init__``
(engine/values.py) are the values the constructors build: equal, with the same hash, the
same fields and nothing else, a pickle round trip and a replayed record giving them back."""

from __future__ import annotations

import pickle
import random
from dataclasses import fields, is_dataclass
from typing import Any

import pytest

from engine.game import Game, HandOver, MatchOver, MatchState, Playing, Trick
from engine.record import GameRecord, replay
from engine.simulate import random_action
from tests.engine.test_properties import PRESETS, _rules


def _constructed(value: Any) -> Any:
    """``value`` built again through its class's constructor, its dataclass fields (the
    phase, the current trick, a hand's result and its level changes too) rebuilt the same
    way first."""
    if not is_dataclass(value) or isinstance(value, type):
        return value
    rebuilt = {f.name: getattr(value, f.name) for f in fields(value)}
    for name in _REBUILT:
        if name in rebuilt:
            rebuilt[name] = _constructed(rebuilt[name])
    if "changes" in rebuilt:
        rebuilt["changes"] = tuple(map(_constructed, rebuilt["changes"]))
    return type(value)(**rebuilt)


_REBUILT = ("phase", "trick", "result")


def _same_value(fast: Any, made: Any) -> None:
    assert type(fast) is type(made)
    assert fast == made and made == fast
    assert hash(fast) == hash(made)
    assert repr(fast) == repr(made)
    if hasattr(fast, "__dict__"):  # (the values built the fast way have no slots)
        # every field in the instance itself (none read through to a class default), no other
        assert set(vars(fast)) == {f.name for f in fields(fast)}
    for name in _REBUILT:
        if hasattr(made, name):
            _same_value(getattr(fast, name), getattr(made, name))
    for fast_change, made_change in zip(getattr(fast, "changes", ()), getattr(made, "changes", ()),
                                        strict=True):
        _same_value(fast_change, made_change)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_state_of_a_hand_is_the_constructors_value(preset: str, seed: int) -> None:
    game = Game(_rules(preset), seed)
    rng = random.Random(seed)
    kinds = set()
    while not isinstance(game.phase, (HandOver, MatchOver)):
        action = random_action(game, rng)
        assert action is not None
        _same_value(action, _constructed(action))  # (the random player builds its plays)
        for happened in game.apply(action):
            _same_value(happened, _constructed(happened))
        state = game.state
        kinds.add(type(state.phase))
        _same_value(state, _constructed(state))
        if isinstance(state.phase, Playing):
            assert type(state.phase.trick) is Trick
    assert Playing in kinds  # the hand was played, through the fast transitions
    assert pickle.loads(pickle.dumps(game.state)) == game.state


def test_a_pickled_playing_state_comes_back_equal_and_still_frozen() -> None:
    game = Game(_rules("classic"), 7)
    rng = random.Random(7)
    while not (isinstance(game.phase, Playing) and game.phase.trick.plays):
        action = random_action(game, rng)
        assert action is not None
        game.apply(action)
    state = game.state
    back: MatchState = pickle.loads(pickle.dumps(state))
    _same_value(back, _constructed(state))
    assert back.play_rules is not None and back.phase.hands == state.phase.hands
    with pytest.raises(AttributeError):
        back.phase.turn = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        state.phase.trick.leader = 0  # type: ignore[misc]


@pytest.mark.parametrize("preset", ["classic", "find-friends"])
def test_a_replayed_record_reaches_the_same_state(preset: str) -> None:
    """The bot keeps a table as its record (seed, rules, actions) and replays it."""
    game = Game(_rules(preset), 11)
    rng = random.Random(11)
    for _ in range(200):
        action = random_action(game, rng)
        if action is None:
            break
        game.apply(action)
    again = replay(GameRecord.from_json(GameRecord.of(game).to_json()))
    assert again.state == game.state and hash(again.state) == hash(game.state)
