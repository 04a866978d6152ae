"""The onlooker's view (the public table) knows the trump exactly when every seat may."""

from __future__ import annotations

import random

import pytest

from engine.game import Burying, Dealing, Game, Playing
from engine.rules import ruleset
from engine.simulate import random_action
from engine.views import public_view


def _play_until(game: Game, rng: random.Random, done) -> None:  # type: ignore[no-untyped-def]
    for _ in range(2000):
        if done(game):
            return
        action = random_action(game, rng, declare_chance=0.3)
        assert action is not None
        game.apply(action)
    raise AssertionError("the phase was never reached")


@pytest.mark.parametrize("seed", range(6))
def test_the_public_sees_the_trump_in_play_in_classic(seed: int) -> None:
    game = Game(ruleset("classic"), seed)
    _play_until(game, random.Random(seed), lambda g: isinstance(g.phase, Playing))
    view = public_view(game)
    assert view.ctx is not None and view.trump_known
    assert view.ctx.trump == game.phase.ctx.trump


@pytest.mark.parametrize("seed", range(6))
def test_the_public_sees_a_standing_classic_declaration_during_the_deal(seed: int) -> None:
    game = Game(ruleset("classic"), seed)
    _play_until(game, random.Random(seed), lambda g: isinstance(g.phase, Dealing)
                and g.phase.standing is not None)
    view = public_view(game)
    assert view.standing is not None
    assert view.ctx is not None and view.ctx.trump == game.phase.standing.trump


@pytest.mark.parametrize("seed", range(8))
def test_changzhu_trump_is_public_only_after_the_reveal(seed: int) -> None:
    game = Game(ruleset("changzhu"), seed)
    rng = random.Random(seed)
    _play_until(game, rng, lambda g: not isinstance(g.phase, Dealing)
                or g.phase.standing is not None)
    if isinstance(game.phase, Dealing):  # a hidden declaration stands: the public can't know
        assert public_view(game).ctx is None
    _play_until(game, rng, lambda g: isinstance(g.phase, (Burying, Playing)))
    phase = game.phase
    if isinstance(phase, Burying) and phase.declarer is not None:
        assert public_view(game).ctx is None  # still secret until the kitty is done
    _play_until(game, rng, lambda g: isinstance(g.phase, Playing))
    view = public_view(game)
    assert view.ctx is not None and view.ctx.trump == game.phase.ctx.trump
