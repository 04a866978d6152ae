"""Options typed by people (``/shengji create options:…``, a server's defaults) give a
ruleset or a refusal, at once: a hang here would stop the whole bot, since the rules are
built on its event loop."""

from __future__ import annotations

import enum
import random
import threading
from collections.abc import Callable
from dataclasses import fields
from typing import Any, get_type_hints

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ai
from engine.actions import NextHand
from engine.errors import EngineError
from engine.game import Game, HandOver, MatchOver, Playing, Transferring
from engine.rules import PRESETS, Ruleset, ruleset
from engine.simulate import play_random_hand, random_action
from engine.views import seat_view

#: Every option a person may name (``preset`` is the command's own choice).
OPTIONS = [f.name for f in fields(Ruleset) if not f.name.startswith("_") and f.name != "preset"]


def _within(seconds: float, build: Callable[[], Ruleset]) -> Ruleset | EngineError:
    """``build()``'s ruleset or refusal; fails the test if it has not ended in ``seconds``
    (run on a daemon thread, so that a loop that never ends fails instead of hanging)."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(build())
        except EngineError as refusal:
            outcome.append(refusal)
        except Exception as other:  # (reported below, as the failure)
            outcome.append(other)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert outcome, f"still building the ruleset after {seconds} s"
    assert isinstance(outcome[0], (Ruleset, EngineError)), repr(outcome[0])
    return outcome[0]


@pytest.mark.parametrize("preset", ["classic", "find-friends", "three-bid", "changzhu"])
@pytest.mark.parametrize("players", [0, -1, -6, "-1", " -3 ", -10**30, 10**30, 1, 2, 7])
def test_a_player_count_out_of_range_is_refused_at_once(preset: str, players: object) -> None:
    """Was: ``players=-1`` (or any count below one) looped for ever while the default
    kitty was worked out, before the checks could refuse the count."""
    refusal = _within(5, lambda: ruleset(preset, players=players))
    assert isinstance(refusal, EngineError)
    assert (refusal.code, refusal.params) == (
        "bad_option", {"option": "players", "rule": "players_range"})


VALUES = st.one_of(
    st.integers(-10**30, 10**30), st.integers(-8, 8), st.booleans(), st.none(),
    st.sampled_from(["", "x", "-1", "0", "3", "true", "none", "A", "K,A", "2,3,5", "called",
                     "bid", "fixed", "red_black", "changzhu", "exponential", "auto", "1e3"]),
    st.text(max_size=12), st.lists(st.sampled_from(["A", "K", "2", "J", "x"]), max_size=4),
    st.floats(allow_nan=True))


@given(preset=st.sampled_from(sorted(PRESETS)),
       options=st.dictionaries(st.sampled_from(OPTIONS), VALUES, min_size=1, max_size=3))
@settings(max_examples=300, deadline=None)
def test_any_options_give_a_ruleset_or_a_refusal_at_once(preset: str,
                                                        options: dict[str, Any]) -> None:
    built = _within(5, lambda: ruleset(preset, **options))
    if isinstance(built, Ruleset):  # a deal that comes out even, a card or more each
        assert 3 <= built.players <= 6 and 1 <= built.decks <= 4
        assert built.hand_size >= 1
        assert built.players * built.hand_size + built.kitty_size == 54 * built.decks


@pytest.mark.parametrize(("penalty", "rule"), [
    (-1, "penalty_negative"), (1001, "penalty_too_big"), (10**30, "penalty_too_big"),
    ("1001", "penalty_too_big")])
def test_a_throw_penalty_out_of_range_is_refused(penalty: object, rule: str) -> None:
    """Was: any penalty above zero was taken, and a failed throw under ``10**30`` points a
    card made a hand whose points no database integer holds (it could not be stored)."""
    with pytest.raises(EngineError) as refused:
        ruleset("classic", throw_penalty=penalty)
    assert (refused.value.code, refused.value.params["rule"]) == ("bad_option", rule)


@pytest.mark.parametrize("penalty", [0, 1, 10, 1000, "none", "1000"])
def test_a_throw_penalty_in_range_is_kept(penalty: object) -> None:
    expected = 0 if penalty == "none" else int(str(penalty))
    assert ruleset("classic", throw_penalty=penalty).throw_penalty == expected


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan"), 1.5, "1.5", "inf"])
def test_a_count_that_is_no_whole_number_is_refused(value: object) -> None:
    """Was: ``decks=1.5`` was taken as 1 deck, and an infinity (as JSON's ``1e400`` reads
    from a stored row) raised OverflowError instead of a refusal."""
    refusal = _within(5, lambda: ruleset("classic", decks=value))
    assert isinstance(refusal, EngineError)
    assert (refusal.code, refusal.params["rule"]) == ("bad_option", "bad_value")


def test_a_whole_number_given_as_a_float_is_taken() -> None:
    assert ruleset("classic", decks=3.0, players=6).decks == 3


def _valid_values() -> dict[str, st.SearchStrategy[Any]]:
    """For each option a person may name, values its own type allows (which combinations
    the ruleset refuses is what the test below leaves to it)."""
    counts = {"players": st.integers(3, 6), "friends": st.integers(0, 2),
              "decks": st.integers(1, 4), "max_bid": st.sampled_from([60, 100, 150, 200]),
              "throw_penalty": st.sampled_from([0, 10])}
    out: dict[str, st.SearchStrategy[Any]] = {}
    for name, kind in get_type_hints(Ruleset).items():
        if name not in OPTIONS:
            continue
        if name in counts:
            out[name] = counts[name]
        elif isinstance(kind, type) and issubclass(kind, enum.Enum):
            out[name] = st.sampled_from([member.value for member in kind])
        elif kind is bool:
            out[name] = st.booleans()
        elif name in ("must_play", "permanent_trumps"):
            out[name] = st.sampled_from(["", "J", "A", "J A", "2 3 5"])
    return out


VALID = _valid_values()


@given(preset=st.sampled_from(sorted(PRESETS)),
       options=st.dictionaries(st.sampled_from(sorted(VALID)), st.none(), min_size=1,
                               max_size=4).flatmap(lambda names: st.fixed_dictionaries(
                                   {name: VALID[name] for name in names})),
       seed=st.integers(0, 10**6))
@settings(max_examples=150, deadline=None)
def test_any_ruleset_the_options_give_plays_its_hands(preset: str, options: dict[str, Any],
                                                      seed: int) -> None:
    """A ruleset that is not refused can be played: random legal actions through two hands
    and what follows them raise nothing. Was: find-friends with the changzhu kitty taker
    (the dealer's partner) was accepted, then failed at the end of every deal a
    declaration stood in (a called side has no partner to give the kitty to)."""
    try:
        rules = ruleset(preset, **options)
    except EngineError:
        return  # (a refusal is the other answer; ``bad_option`` tests it above)
    game = Game(rules, seed)
    rng = random.Random(seed)
    for _ in range(2):
        play_random_hand(game, rng)
        while isinstance(game.phase, Transferring):
            action = random_action(game, rng)
            assert action is not None
            game.apply(action)
        if isinstance(game.phase, MatchOver):
            break
        game.apply(NextHand())


@pytest.mark.parametrize("empty", ["none", "None", "-", "—"])
def test_a_list_option_is_emptied_by_none_or_the_dash_the_rules_show(empty: str) -> None:
    """Was: find-friends' must-play J and A could not be turned off (every spelling of an
    empty list was refused, the refusal showing a Python list)."""
    assert ruleset("find-friends", must_play=empty).must_play == ()
    assert ruleset("changzhu", permanent_trumps=empty).permanent_trumps == ()
    with pytest.raises(EngineError) as refused:
        ruleset("classic", must_play="X, Y")
    assert refused.value.params["value"] == "X, Y"


def test_a_yes_or_no_is_taken_as_the_chinese_rules_show_it() -> None:
    assert ruleset("classic", reinforce="否").reinforce is False
    assert ruleset("classic", level_transfer="是").level_transfer is True


@given(preset=st.sampled_from(sorted(PRESETS)),
       options=st.dictionaries(st.sampled_from(sorted(VALID)), st.none(), min_size=1,
                               max_size=4).flatmap(lambda names: st.fixed_dictionaries(
                                   {name: VALID[name] for name in names})),
       level=st.sampled_from(["easy", "normal", "hard"]), seed=st.integers(0, 10**6))
@settings(max_examples=20, deadline=None)
def test_any_ruleset_the_options_give_the_computer_players_play_its_hand(
        preset: str, options: dict[str, Any], level: str, seed: int) -> None:
    """Every decision of a hand and of what follows it is the computer players', and the
    engine takes each (``level`` for the decisions before the second trick, where each
    kind of the game's own choices comes once; easy after). Was: with
    ``kitty_taker = partner_if_dealer_declared``, hard could not lead the first trick
    (``test_hard_leads_the_first_trick_when_the_dealers_partner_buried``)."""
    try:
        rules = ruleset(preset, **options)
    except EngineError:
        return
    game = Game(rules, seed)
    rng = random.Random(seed)
    asked = level
    while not isinstance(game.phase, (MatchOver, HandOver)):
        phase = game.phase
        if isinstance(phase, Playing) and phase.tricks:
            asked = "easy"
        for seat in range(rules.players):
            action = ai.choose(seat_view(game, seat), asked, seed)
            if action is not None:
                break
        else:
            action = random_action(game, rng)  # the table's own steps: the deal
            assert action is not None
        game.apply(action)  # an illegal decision raises EngineError
    if isinstance(game.phase, HandOver):
        game.apply(NextHand())
