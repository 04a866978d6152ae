"""TableService for find-friends, three-bid and six (issue 13): tables of 3, 5 and 6
seats, the clock through bidding, naming the trump, calling friends and the level
transfer, computer players (``bot.ai.EngineDeciders``) in every phase, and a person's
after-hand choice taking its default when their timer runs out."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import replace
from typing import Any

import pytest

from bot.ai import EngineDeciders, rank_plays
from bot.errors import BotError
from bot.store import HandRecord, Store, StoreError
from bot.table_data import HOSTED_PRESETS, Table, TableSettings, after_hand_default
from bot.tables import TableService
from bot.text.catalogue import SOURCE, say
from bot.text.events import result_lines
from engine.actions import (
    Action,
    AnswerTransfer,
    Bid,
    CallFriends,
    Declare,
    NameTrump,
    PassBid,
    Play,
    Transfer,
    action_from_dict,
    action_to_dict,
)
from engine.ai import AiPool, choose_cards
from engine.game import (
    AFTER_HAND,
    Bidding,
    CallingFriends,
    Game,
    HandOver,
    MatchOver,
    NamingTrump,
    Playing,
    Transferring,
    apply,
    settled_result,
)
from engine.legal import legal_plays
from engine.rules import PRESETS, ruleset
from engine.shapes import as_multiset
from engine.simulate import random_action
from engine.views import seat_view
from tests.bot.backends import Backend, StoreInFront
from tests.bot.deciders import RandomDeciders
from tests.bot.test_tables import Recorder

FAST = TableSettings(turn_timer=30.0, deal_pause=0.0, last_chance=0.0, hand_pause=0.0,
                     ai_pause=0.0, away_pause=0.0)

_OPEN: list[TableService | Store | AiPool] = []


@pytest.fixture(autouse=True)
async def _close_everything() -> AsyncIterator[None]:
    yield
    while _OPEN:
        await _close(_OPEN.pop())


async def _close(thing: TableService | Store | AiPool) -> None:
    if isinstance(thing, AiPool):
        thing.close()
    else:
        await thing.close()


async def _wait(predicate: Callable[[], bool], timeout: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.01)


def test_the_hand_panel_lists_the_heuristic_choice_first_and_every_play() -> None:
    """``rank_plays``: the plays the heuristic player would make (as multisets) first, the
    others after in the listing's order; nothing added or dropped."""
    ranked_first = 0
    for seed in range(4):
        game = Game(ruleset("classic"), seed)
        rng = random.Random(seed)
        while not isinstance(game.phase, (HandOver, MatchOver)):
            phase = game.phase
            if isinstance(phase, Playing):
                seat = phase.turn
                plays = legal_plays(game, seat)
                best = as_multiset(choose_cards(seat_view(game, seat), "easy", 0))
                chosen = [p for p in plays if as_multiset(p) == best]
                ranked = rank_plays(game, seat, plays)
                assert ranked == chosen + [p for p in plays if p not in chosen]
                ranked_first += bool(chosen) and plays[0] not in chosen
            action = random_action(game, rng)
            assert action is not None
            game.apply(action)
    assert ranked_first  # (the choice was moved up at least once, not found first already)


def test_the_plays_are_listed_unranked_when_the_heuristic_fails(
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fault of the heuristic must not take a person's hand panel or autocomplete."""
    game = _game_reaching("classic", {}, Playing)
    seat = _table_of(game).actor()
    assert seat is not None
    plays = legal_plays(game, seat)
    monkeypatch.setattr("bot.ai.choose_cards", _failing_easy)
    with caplog.at_level(logging.ERROR, logger="bot.ai"):
        assert rank_plays(game, seat, plays) == plays
    (failure,) = [r for r in caplog.records if r.name == "bot.ai"]
    assert failure.exc_info and failure.exc_info[0] is IndexError


def test_every_preset_the_engine_plays_is_hosted() -> None:
    assert tuple(PRESETS) == HOSTED_PRESETS


# -- refusals ----------------------------------------------------------------------------

@pytest.mark.parametrize(("preset", "options", "key"), [
    ("find-friends", {"players": 6, "decks": 2}, "table_size"),
    ("find-friends", {"players": 4}, "table_size"),
    ("find-friends", {"decks": 4}, "table_size"),
    ("three-bid", {"players": 5}, "table_size"),
    ("three-bid", {"decks": 3}, "table_size"),
    ("classic", {"players": 5}, "bad_rules"),  # fixed partnerships: 4 or 6 seats
    ("six", {"players": 3}, "bad_rules"),
    ("find-friends", {"players": 7}, "bad_rules"),
], ids=["ff-6x2", "ff-4-seats", "ff-5x4", "three-bid-5-seats", "three-bid-3-decks",
        "classic-5-seats", "six-3-seats", "ff-7-seats"])
async def test_a_table_size_the_rules_do_not_describe_is_refused_and_nothing_is_stored(
        backend: Backend, preset: str, options: dict[str, Any], key: str) -> None:
    store = await backend.open()
    service = TableService(store, Recorder(), RandomDeciders(), default_settings=FAST)
    _OPEN.extend([service, store])
    with pytest.raises(BotError) as refused:
        await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                             preset=preset, options=options)
    assert refused.value.key == key
    if key == "table_size":  # the refusal names the tables the rules are played at
        assert refused.value.params["sizes"]
    assert service.tables == {} and await store.load_tables() == []


@pytest.mark.parametrize(("preset", "options", "seats", "decks"), [
    ("find-friends", {}, 5, 2), ("find-friends", {"decks": 3}, 5, 3),
    ("find-friends", {"players": 6, "decks": 3}, 6, 3),
    ("find-friends", {"players": "6"}, 6, 3),  # 6 players: the decks follow
    ("three-bid", {}, 3, 2), ("six", {}, 6, 3),
], ids=["ff-5x2", "ff-5x3", "ff-6x3", "ff-6-seats-get-3-decks", "three-bid", "six"])
async def test_a_table_has_a_seat_for_every_player_of_its_rules(
        backend: Backend, preset: str, options: dict[str, Any], seats: int, decks: int
        ) -> None:
    store = await backend.open()
    service = TableService(store, Recorder(), RandomDeciders(), default_settings=FAST)
    _OPEN.extend([service, store])
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset=preset, options=options)
    assert len(table.seats) == seats
    assert table.rules.decks == decks
    for user in range(101, 100 + seats):  # everyone can sit; one more cannot
        await service.join(1, user, f"P{user}")
    with pytest.raises(BotError) as full:
        await service.join(1, 999, "Late")
    assert full.value.key == "table_full"
    await service.leave(1, 100 + seats - 1)
    assert await service.add_ai(1, 100) == seats - 1  # the freed last seat
    await service.remove_ai(1, 100, seats - 1)
    await service.start(1, 100)  # the empty seat gets a computer
    assert [s.kind for s in table.seats] == ["human"] * (seats - 1) + ["ai"]
    assert table.game is not None and table.game.players == seats


# -- whole hands of computer players -----------------------------------------------------

@pytest.mark.parametrize(("preset", "options", "own_phase"), [
    ("find-friends", {}, CallFriends),
    ("find-friends", {"players": 6, "decks": 3}, CallFriends),
    ("three-bid", {}, NameTrump),
    ("six", {}, Play),
], ids=["find-friends-5", "find-friends-6", "three-bid", "six"])
async def test_the_clock_plays_a_whole_hand_of_computer_players_to_its_result(
        backend: Backend, caplog: pytest.LogCaptureFixture, preset: str,
        options: dict[str, Any], own_phase: type) -> None:
    store = await backend.open()
    recorder = Recorder()
    pool = AiPool(1)
    service = TableService(store, recorder, EngineDeciders(pool), default_settings=FAST,
                           seed=11)
    _OPEN.extend([pool, service, store])
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset=preset, options=options)
    await service.start(1, 100)
    await service.leave(1, 100)  # every seat is a computer's now
    with caplog.at_level(logging.WARNING, logger="bot.ai"):
        await _wait(lambda: any(e.kind == "hand_scored" for e in recorder.public))
    await service.close()
    assert table.game is not None
    stored = await store.load_actions(table.match_id)
    assert stored == [action_to_dict(a) for a in table.game.log]
    actions = [action_from_dict(a) for a in stored]
    assert any(isinstance(a, own_phase) for a in actions)  # the game's own decisions
    if preset == "three-bid":
        assert any(isinstance(a, (Bid, PassBid)) for a in actions)
    # every decision of the computer players was their own, none a fallback
    assert not [r for r in caplog.records if r.name == "bot.ai"]
    (scored,) = [e for e in recorder.public if e.kind == "hand_scored"][:1]
    assert len(scored.get("result").changes) == table.game.players


# -- the computer players' fallback --------------------------------------------------------

def _script(game: Game) -> Action:
    """One random legal action for whoever must act, the same for the same game (its
    seed and how far it is): a person and a computer would do the same."""
    action = random_action(game, random.Random(f"{game.seed}:{len(game.log)}"),
                           declare_chance=0.0)
    assert action is not None
    return action


def _game_reaching(rules_preset: str, options: dict[str, Any], wanted: type,
                   seeds: Sequence[int] = range(200)) -> Game:
    """A game of random legal actions that has reached phase ``wanted``."""
    for seed in seeds:
        game = Game(ruleset(rules_preset, **options), seed)
        while not isinstance(game.phase, (wanted, HandOver, MatchOver)):
            game.apply(_script(game))
        if isinstance(game.phase, wanted):
            return game
    raise AssertionError(f"no game reached {wanted.__name__}")


def _table_of(game: Game) -> Table:
    """A table playing ``game`` (its seats empty: only the game is asked about)."""
    table = Table(1, 9, 100, game.rules.preset, {}, FAST, [None] * game.players)
    table.game = game
    return table


TRANSFERS = {"level_transfer": True, "level_ranks": "10,J,Q,K,A"}

NEW_PHASES = pytest.mark.parametrize(("preset", "options", "phase"), [
    ("three-bid", {}, Bidding), ("three-bid", {}, NamingTrump),
    ("find-friends", {}, CallingFriends), ("find-friends", TRANSFERS, Transferring),
], ids=["bid", "name-trump", "call-friends", "transfer"])


class Wrong(EngineDeciders):
    """Computer players that always choose something the rules refuse."""

    async def _choose(self, game: Game, seat: int, level: str, seed: int) -> Action | None:
        return Declare(seat, ()) if seed % 2 else Play(seat, ())


@NEW_PHASES
@pytest.mark.parametrize("seed", [1, 2], ids=["play", "declare"])
async def test_a_refused_decision_falls_back_to_a_legal_one_in_every_new_phase(
        preset: str, options: dict[str, Any], phase: type, seed: int) -> None:
    game = _game_reaching(preset, options, phase)
    seat = _table_of(game).actor()
    assert seat is not None
    with AiPool(1) as pool:
        action = await Wrong(pool).decide(game, seat, "easy", seed)
    apply(game.state, action)  # legal: no EngineError
    assert getattr(action, "seat", None) == seat
    if phase is Transferring:  # the after-hand choice's fallback is its default
        assert action == after_hand_default(game.phase)


class FailingPool(AiPool):
    """A worker pool whose computer player raises (as a fault in its search would)."""

    async def choose(self, *args: Any, **kwargs: Any) -> Action | None:
        raise IndexError("list index out of range")


def _failing_easy(*args: Any, **kwargs: Any) -> Action | None:
    raise IndexError("list index out of range")


@pytest.mark.parametrize("level", ["easy", "hard"])
async def test_a_computer_player_that_fails_is_logged_and_a_legal_play_goes_on(
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
        level: str) -> None:
    """Was: an exception from the computer player (hard's inference, on a first lead
    with the kitty buried by the dealer's partner) went up to the table's clock, which
    tried the same decision again and again: the table stalled."""
    game = _game_reaching("classic", {}, Playing)
    seat = _table_of(game).actor()
    assert seat is not None
    dealing = Game(ruleset("classic"), 5)
    monkeypatch.setattr("bot.ai.choose", _failing_easy)
    with FailingPool(1) as pool, caplog.at_level(logging.ERROR, logger="bot.ai"):
        action = await EngineDeciders(pool).decide(game, seat, level, 5)
        declared = await EngineDeciders(pool).declaration(dealing, 0, level, 5)
    assert isinstance(action, Play) and action.seat == seat
    apply(game.state, action)  # legal: no EngineError
    assert declared is None  # (a failed declaration is none: the deal goes on)
    failures = [r for r in caplog.records if r.name == "bot.ai"]
    assert len(failures) == 2
    assert all(r.exc_info and r.exc_info[0] is IndexError for r in failures)
    assert f"{level} computer player in seat {seat} failed" in failures[0].getMessage()


@NEW_PHASES
@pytest.mark.parametrize("level", ["easy", "normal"])
async def test_a_computer_player_decides_every_new_phase_by_itself_and_legally(
        caplog: pytest.LogCaptureFixture, preset: str, options: dict[str, Any], phase: type,
        level: str) -> None:
    game = _game_reaching(preset, options, phase)
    seat = _table_of(game).actor()
    assert seat is not None
    with AiPool(1) as pool, caplog.at_level(logging.WARNING, logger="bot.ai"):
        action = await EngineDeciders(pool).decide(game, seat, level, 5)
    apply(game.state, action)  # legal: no EngineError
    assert getattr(action, "seat", None) == seat
    assert not [r for r in caplog.records if r.name == "bot.ai"]  # no fallback


@NEW_PHASES
def test_the_table_waits_for_the_seat_the_phase_names(preset: str, options: dict[str, Any],
                                                     phase: type) -> None:
    game = _game_reaching(preset, options, phase)
    table = _table_of(game)
    waiting = game.phase
    expected = {Bidding: lambda: waiting.turn, NamingTrump: lambda: waiting.dealer,
                CallingFriends: lambda: waiting.dealer,
                Transferring: lambda: waiting.offers[0][0]}[phase]()
    assert table.actor() == expected
    if isinstance(waiting, Transferring):  # a gift offered: the teammate answers
        table.game = Game.of(replace(game.state, phase=replace(waiting, asked=3)), game.log)
        assert table.actor() == 3


def test_an_after_hand_choice_left_unanswered_moves_no_level() -> None:
    game = _game_reaching("find-friends", TRANSFERS, Transferring)
    phase = game.phase
    assert isinstance(phase, Transferring)
    keep = after_hand_default(phase)
    assert keep == Transfer(phase.offers[0][0], None)
    state, events = apply(game.state, keep)
    assert state.levels == game.state.levels
    assert events[0].kind == "levels_kept"
    asked = replace(game.state, phase=replace(phase, asked=(phase.offers[0][0] + 1) % 5))
    refuse = after_hand_default(asked.phase)
    assert refuse == AnswerTransfer(asked.phase.asked, accept=False)
    state, events = apply(asked, refuse)
    assert state.levels == game.state.levels
    assert events[0].kind == "transfer_refused"
    assert after_hand_default(_game_reaching("three-bid", {}, Bidding).phase) is None


# -- a person's after-hand choice times out ------------------------------------------------

class Scripted:
    """Computer players that play ``_script`` (what the test plays for the person too),
    and note every phase they were asked to decide in, by seat."""

    def __init__(self) -> None:
        self.asked: list[tuple[int, str]] = []

    async def decide(self, game: Game, seat: int, level: str, seed: int) -> Action:
        self.asked.append((seat, game.phase.name))
        return _script(game)

    async def declaration(self, game: Game, seat: int, level: str, seed: int
                          ) -> Declare | None:
        return None


def _service_seed_for_a_transfer_of_seat_0() -> tuple[int, int]:
    """A service seed whose first match (``_script`` for every seat) reaches a level
    transfer that seat 0 must decide first, and where in the log it does."""
    for service_seed in range(300):
        # (the service draws a match's seed first thing when it starts the match)
        match_seed = random.Random(service_seed).randrange(2**62)
        game = Game(ruleset("find-friends", **TRANSFERS), match_seed)
        while not isinstance(game.phase, (Transferring, HandOver, MatchOver)):
            game.apply(_script(game))
        if isinstance(game.phase, Transferring) and game.phase.offers[0][0] == 0:
            return service_seed, len(game.log)
    raise AssertionError("no seed gives seat 0 a level transfer")


async def test_a_person_whose_transfer_timer_runs_out_gets_the_default(backend: Backend
                                                                       ) -> None:
    service_seed, at = _service_seed_for_a_transfer_of_seat_0()
    store = await backend.open()
    recorder = Recorder()
    deciders = Scripted()
    service = TableService(store, recorder, deciders, default_settings=FAST,
                           seed=service_seed)
    _OPEN.extend([service, store])
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="find-friends", options=dict(TRANSFERS),
                                 settings=replace(FAST, away_pause=30.0))
    await service.start(1, 100)
    game = table.game
    assert game is not None and game.seed == random.Random(service_seed).randrange(2**62)
    # Ann plays her part of the hand in time; from her last move before the transfer
    # on, her timer is short (each wait that begins after it uses it)
    mine = []
    script = Game(game.rules, game.seed)
    while len(script.log) < at:
        if _table_of(script).actor() == 0:
            mine.append(len(script.log))
        script.apply(_script(script))
    for index in mine:
        await _wait(lambda i=index: len(table.game.log) == i)
        assert table.actor() == 0
        if index == mine[-1]:  # (her own wait runs on: she acts now)
            table.settings = replace(table.settings, turn_timer=0.05)
        await service.act(1, 100, lambda seat: _script(table.game))
    await _wait(lambda: len(table.game.log) > at)
    # (the default is applied first, then who is away is stored, then both are told: a
    # close before that would drop the lines)
    await _wait(lambda: any(e.kind == "levels_kept" for e in recorder.public))
    await service.close()
    stored = await store.load_actions(table.match_id)
    assert action_from_dict(stored[at]) == Transfer(0, None)  # the levels stay where they are
    assert (0, "transfer") not in deciders.asked  # no computer chose for Ann
    assert table.seats[0].away  # her turn timed out
    kinds = [(e.kind, e.seat) for e in recorder.public]
    assert kinds.index(("away", 0)) < kinds.index(("levels_kept", 0))




# -- levels moved after a hand ----------------------------------------------------------------

#: Both moves after a hand: stopped levels passed on, the J penalty's excess placed.
MOVES = {**TRANSFERS, "jack_kitty_penalty": True}


def _service_seed_whose_hand_moves_levels_after() -> tuple[int, int]:
    """A service seed whose first match (``_script`` for every seat) has a hand, in its
    first three, followed by a level move that changes a level (``settled_result``),
    and that hand's number."""
    for service_seed in range(100):
        match_seed = random.Random(service_seed).randrange(2**62)
        game = Game(ruleset("find-friends", **MOVES), match_seed)
        while not isinstance(game.phase, MatchOver) and game.hand_number < 3:
            game.apply(_script(game))
            if isinstance(game.phase, HandOver) and settled_result(game.state) is not None:
                return service_seed, game.hand_number
    raise AssertionError("no seed moves a level after one of its first hands")


class AmendLater(StoreInFront):
    """The real store, which takes no amendment of a hand (a crash between storing the
    level move and amending the hand: the next start catches up)."""

    refused = 0

    async def amend_hand(self, hand: HandRecord) -> None:
        self.refused += 1
        raise StoreError("the database is out of reach")


@pytest.mark.parametrize("amended", ["at once", "at the next start"])
async def test_levels_moved_after_a_hand_amend_its_stored_record(backend: Backend,
                                                                 amended: str) -> None:
    """A level transfer that moves a level after the hand: the stored hand says each
    seat's level after it, as the players' levels are, and a line says who moved."""
    service_seed, number = _service_seed_whose_hand_moves_levels_after()
    real = await backend.open()
    store = AmendLater(real) if amended == "at the next start" else real
    recorder = Recorder()
    service = TableService(store, recorder, Scripted(),  # type: ignore[arg-type]
                           default_settings=FAST, seed=service_seed)
    _OPEN.extend([service, real])
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="find-friends", options=dict(MOVES))
    await service.start(1, 100)
    await service.leave(1, 100)  # (a computer plays her seat: every seat is ``_script``)
    # the table stays at the end of that hand (which takes many actions to come)
    await _wait(lambda: table.game.hand_number == number)
    table.settings = replace(table.settings, hand_pause=600.0)
    await _wait(lambda: isinstance(table.game.phase, HandOver))
    game = table.game
    # the service amends the record before it publishes the events of the last move
    replayed = Game(game.rules, game.seed)
    moves = sum(e.kind in AFTER_HAND for action in game.log for e in replayed.apply(action))
    await _wait(lambda: sum(e.kind in AFTER_HAND for e in recorder.public) == moves)
    scored = game.phase.result
    settled = settled_result(game.state)
    assert settled is not None
    moved = [(before.seat, before.new.label, after.new.label)
             for before, after in zip(scored.changes, settled.changes, strict=True)
             if before.new is not after.new]
    assert moved
    if amended == "at the next start":
        await _wait(lambda: store.refused == 1)  # type: ignore[union-attr]
        hand = (await real.match_hands(table.match_id))[-1]
        assert hand.levels_after == [c.new.label for c in scored.changes]  # as scored
        await service.close()
        again = TableService(real, Recorder(), Scripted(), default_settings=replace(
            FAST, hand_pause=600.0))
        _OPEN.append(again)
        (restored,) = await again.restore()
        assert restored.table.game.fingerprint() == game.fingerprint()
    hand = (await real.match_hands(table.match_id))[-1]
    assert hand.hand_no == number
    assert hand.levels_after == [level.label for level in game.levels]
    assert [c.after for c in hand.seat_changes] == [level.label for level in game.levels]
    assert [c.before for c in hand.seat_changes] == [c.old.label for c in scored.changes]
    assert [c.gained for c in hand.seat_changes] == [c.earned for c in scored.changes]
    # a line for each seat whose level changed, the moves said as such
    lines = hand.result["lines"]
    assert lines == result_lines(SOURCE, settled)
    after_hand = say(SOURCE, "reason_after_hand")
    assert all(c.reasons[-1] == "after_hand" and "none" not in c.reasons
               for c in settled.changes if c.seat in {seat for seat, _, _ in moved})
    for seat, _, new in moved:
        assert any(line.startswith(f"Seat {seat + 1}:") and f"→{new} " in line
                   and after_hand in line for line in lines)


# -- a restart in the new phases ------------------------------------------------------------

@pytest.mark.parametrize(("preset", "phase"), [("three-bid", Bidding),
                                               ("find-friends", CallingFriends)],
                         ids=["bidding", "calling"])
async def test_a_table_restored_while_a_person_decides_waits_for_them_again(
        backend: Backend, preset: str, phase: type) -> None:
    store = await backend.open()
    service = TableService(store, Recorder(), RandomDeciders(declare_chance=0.0),
                           default_settings=FAST, seed=3)
    _OPEN.extend([service, store])
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset=preset, options={})
    await service.start(1, 100)
    # nobody declares: Ann (seat 0) bids first in three-bid, deals in find-friends
    while not isinstance(table.game.phase, phase):
        await _wait(lambda: table.actor() == 0)
        if not isinstance(table.game.phase, phase):
            await service.act(1, 100, lambda seat: _script(table.game))
    await service.close()
    fingerprint = table.game.fingerprint()
    again = TableService(store, Recorder(), RandomDeciders(), default_settings=FAST)
    _OPEN.append(again)
    (restored,) = await again.restore()
    assert restored.table.game.fingerprint() == fingerprint
    assert isinstance(restored.table.game.phase, phase) and restored.table.actor() == 0
    assert restored.table.turn_ends is not None  # her timer runs again


async def test_a_six_seat_match_runs_to_its_end_and_plays_again_with_the_same_seats(
        backend: Backend) -> None:
    store = await backend.open()
    recorder = Recorder()
    service = TableService(store, recorder, RandomDeciders(), default_settings=FAST, seed=5)
    _OPEN.extend([service, store])
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="six", options={"level_ranks": "K,A",
                                                        "finish": "reach_ace"})
    await service.join(1, 101, "Bea")
    await service.add_ai(1, 100, level="normal")
    await service.start(1, 100)
    for user in (100, 101):
        await service.leave(1, user)
    await _wait(lambda: table.status == "finished")
    again = await service.play_again(1, 101)
    assert again.status == "lobby" and len(again.seats) == 6
    assert [(s.kind, s.name) for s in again.seats[:3]] == [
        ("human", "Ann"), ("human", "Bea"), ("ai", "Bot 3")]
    assert [s.ai_level for s in again.seats[2:]] == ["normal"] + ["easy"] * 3
    await service.start(1, 100)
    assert again.game is not None and again.game.players == 6


@pytest.mark.parametrize(("preset", "own"), [("three-bid", (Bid, PassBid)),
                                             ("find-friends", (CallFriends,))],
                         ids=["bid", "call"])
async def test_a_person_whose_bid_or_call_times_out_gets_a_computer_standing_in(
        backend: Backend, preset: str, own: tuple[type, ...]) -> None:
    store = await backend.open()
    recorder = Recorder()
    service = TableService(store, recorder, RandomDeciders(declare_chance=0.0),
                           default_settings=FAST, seed=3)
    _OPEN.extend([service, store])
    # nobody declares: Ann (seat 0) bids first in three-bid and deals in find-friends
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset=preset, options={},
                                 settings=replace(FAST, turn_timer=0.05))
    await service.start(1, 100)
    await _wait(lambda: any(isinstance(a, own) and a.seat == 0 for a in table.game.log))
    assert table.seats[0].away
    assert ("away", 0) in [(e.kind, e.seat) for e in recorder.public]


async def test_when_everybody_passes_the_next_player_deals_again_and_a_restart_keeps_it(
        backend: Backend) -> None:
    store = await backend.open()
    recorder = Recorder()
    service = TableService(store, recorder, RandomDeciders(declare_chance=0.0),
                           default_settings=FAST, seed=3)
    _OPEN.extend([service, store])
    users = {0: 100, 1: 101, 2: 102}
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="three-bid", options={})
    await service.join(1, 101, "Bea")
    await service.join(1, 102, "Cid")
    await service.start(1, 100)
    await _wait(lambda: isinstance(table.game.phase, Bidding))
    first_hand = table.game.hand_number
    for _ in range(3):  # each of the three passes in turn
        seat = table.actor()
        assert seat is not None
        await service.act(1, users[seat], lambda s: PassBid(s))
    assert [e.kind for e in recorder.public].count("redeal") == 1
    # the clock deals the new hand, and its bidding waits for a person again
    await _wait(lambda: isinstance(table.game.phase, Bidding))
    assert table.game.hand_number == first_hand + 1
    assert table.status == "playing" and table.actor() is not None
    await service.close()
    fingerprint = table.game.fingerprint()
    again = TableService(store, Recorder(), RandomDeciders(), default_settings=FAST)
    _OPEN.append(again)
    (restored,) = await again.restore()
    assert restored.table.game.fingerprint() == fingerprint
    assert isinstance(restored.table.game.phase, Bidding)
