"""TableService with a real store (SQLite and PostgreSQL): timers, locks, refusals, whole
matches."""

from __future__ import annotations

import asyncio
import gc
import logging
import random
import weakref
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace

import pytest

from bot.errors import BotError
from bot.store import HandRecord, Store, StoreError, TableRecord
from bot.table_data import Table, TableSettings
from bot.tables import TableService
from bot.ui.render import status_line
from engine.actions import Event, action_to_dict
from engine.game import HandOver, Playing
from engine.legal import legal_plays
from engine.simulate import random_action
from tests.bot.backends import Backend, StoreInFront
from tests.bot.deciders import RandomDeciders

FAST = TableSettings(turn_timer=30.0, deal_pause=0.0, last_chance=0.0, hand_pause=0.0,
                     ai_pause=0.0)


class Recorder:
    """Keeps what the service publishes (the Discord layer's interface, recorded)."""

    def __init__(self) -> None:
        self.public: list[Event] = []
        self.private: list[tuple[int, Event]] = []
        self.gone: list[int] = []

    async def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        self.public += events

    async def tell_seat(self, table: Table, seat: int, events: Sequence[Event]) -> None:
        self.private += [(seat, e) for e in events]

    def table_gone(self, channel_id: int) -> None:
        self.gone.append(channel_id)


_OPEN: list[TableService | Store] = []


async def _service(backend: Backend, store: Store | None = None
                   ) -> tuple[TableService, Recorder, Store]:
    store = store or await backend.open()
    recorder = Recorder()
    service = TableService(store, recorder, RandomDeciders(), default_settings=FAST, seed=7)
    _OPEN.extend([service, store])
    return service, recorder, store


@pytest.fixture(autouse=True)
async def _close_everything() -> AsyncIterator[None]:
    """Clocks and stores are closed even when a test fails."""
    yield
    while _OPEN:
        await _OPEN.pop().close()


async def _wait(predicate, timeout: float = 30.0) -> None:  # type: ignore[no-untyped-def]
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.01)


async def _table_waiting_for(service: TableService, user: int, settings: TableSettings
                             ) -> Table:
    table = await _started(service, user, settings)
    await _wait(lambda: table.actor() == 0)
    return table


async def _started(service: TableService, user: int, settings: TableSettings) -> Table:
    """Ann's match in channel 1, started (with a short timer, her first turn may be over
    before a test looks: wait for what follows instead)."""
    table = await service.create(channel_id=1, guild_id=9, user_id=user, name="Ann",
                                 preset="classic", options={}, settings=settings)
    await service.start(1, user)
    return table


async def test_a_timed_out_turn_is_played_by_a_computer_and_the_seat_is_away(backend: Backend
                                                                             ) -> None:
    service, recorder, _ = await _service(backend)
    # her first turn times out at once; on the next ones, away, she has time to come back
    # (a short away pause would let the hand end unseen, and the table pause)
    settings = TableSettings(turn_timer=0.05, deal_pause=0.0, last_chance=0.0,
                             hand_pause=0.0, ai_pause=0.0, away_pause=30.0)
    table = await _started(service, 100, settings)
    await _wait(lambda: any(e.kind == "away" and e.seat == 0 for e in recorder.public))
    assert table.seats[0].away
    # a computer played that turn for Ann (she did nothing), and it is her turn again
    await _wait(lambda: table.actor() == 0 and any(
        getattr(action, "seat", None) == 0 for action in table.game.log))
    # the owner comes back: when they act, the seat is theirs again
    action = random_action(table.game, random.Random(1))  # whatever seat 0 must decide
    await service.act(1, 100, lambda seat: action)
    assert not table.seats[0].away


async def test_with_every_person_away_the_next_hand_waits_for_one_to_be_back(
        backend: Backend) -> None:
    service, _, store = await _service(backend)
    settings = TableSettings(turn_timer=0.05, deal_pause=0.0, last_chance=0.0,
                             hand_pause=0.0, ai_pause=0.0, away_pause=0.0)
    table = await _started(service, 100, settings)
    await _wait(lambda: isinstance(table.game.phase, HandOver), timeout=60)
    assert table.seats[0].away and table.paused
    assert "every player is away" in status_line(table)
    hand = table.game.hand_number
    await asyncio.sleep(0.5)  # (no pause between hands: a clock going on deals at once)
    assert isinstance(table.game.phase, HandOver) and table.game.hand_number == hand
    assert len(await store.match_hands(table.match_id)) == 1
    # the bot restarts: Ann is still away, and the match still waits for her
    await service.close()
    service, _, _ = await _service(backend, store)
    [restored] = await service.restore()
    table = restored.table
    assert table.seats[0].away and table.paused
    await asyncio.sleep(0.5)
    assert isinstance(table.game.phase, HandOver) and table.game.hand_number == hand
    # Ann is back (she opened her hand): the next hand is dealt
    table.settings = replace(settings, turn_timer=30.0)
    assert await service.back(1, 100)
    await _wait(lambda: table.game.hand_number == hand + 1)
    assert not table.paused and "every player is away" not in status_line(table)
    [stored] = await store.load_tables()
    assert stored.seats[0] is not None and not stored.seats[0].away
    # paused again after that hand, Ann leaves: nobody is away, the computers play on
    table.settings = settings  # (Ann is away again at her first turn)
    await _wait(lambda: table.paused, timeout=60)
    await service.leave(1, 100)
    await _wait(lambda: table.game.hand_number == hand + 2)


#: The idle limit of the tests below: 3.6 s (the service looks every second at most).
IDLE = 3.6


async def _idle_service(backend: Backend, store: Store | None = None, **limits: float
                        ) -> tuple[TableService, Recorder, Store]:
    service, recorder, store = await _service(backend, store)
    service.idle_lobby, service.idle_paused = limits.get("lobby"), limits.get("paused")
    return service, recorder, store


async def test_a_lobby_left_alone_is_closed_and_one_in_use_is_not(backend: Backend) -> None:
    service, recorder, store = await _idle_service(backend, lobby=IDLE)
    loop = asyncio.get_running_loop()
    left = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                preset="classic", options={})
    used = await service.create(channel_id=2, guild_id=9, user_id=200, name="Bea",
                                preset="classic", options={})
    start = loop.time()
    while left.status == "lobby":  # Bea's lobby is used (a join, a leave) now and then
        assert loop.time() < start + 20, "the lobby left alone was not closed"
        await service.join(2, 300, "Cal")
        await service.leave(2, 300)
        await asyncio.sleep(0.5)
    assert loop.time() - start >= IDLE
    assert used.status == "lobby" and left.status == "finished"
    await _wait(lambda: any(e.kind == "closed_idle_lobby" for e in recorder.public))
    closed = [e for e in recorder.public if e.kind == "closed_idle_lobby"]
    assert [e.get("hours") for e in closed] == [0.001]
    assert [t.channel_id for t in await store.live_tables()] == [2]
    with pytest.raises(BotError, match="no_table"):
        service.get(1)
    await service.create(channel_id=1, guild_id=9, user_id=300, name="Cal",
                         preset="classic", options={})  # the channel is free

    # a restart counts from the last change stored, not from the start
    await service.close()
    await asyncio.sleep(IDLE)
    service, recorder, _ = await _idle_service(backend, store, lobby=IDLE)
    restored = {r.table.channel_id: r.table for r in await service.restore()}
    assert set(restored) == {1, 2}
    start = loop.time()
    await _wait(lambda: all(t.status == "finished" for t in restored.values()), timeout=10)
    assert loop.time() - start < IDLE  # (closed at the first look)
    assert await store.live_tables() == []


async def test_a_match_paused_with_everyone_away_for_long_is_closed_and_abandoned(
        backend: Backend) -> None:
    service, recorder, store = await _idle_service(backend, paused=IDLE, lobby=600)
    settings = TableSettings(turn_timer=0.05, deal_pause=0.0, last_chance=0.0,
                             hand_pause=0.0, ai_pause=0.0, away_pause=0.0)
    table = await _started(service, 100, settings)
    await _wait(lambda: table.paused, timeout=60)
    paused = asyncio.get_running_loop().time()
    await _wait(lambda: any(e.kind == "closed_idle_paused" for e in recorder.public),
                timeout=20)  # (told after the table is finished: waited for)
    assert asyncio.get_running_loop().time() - paused >= IDLE - 0.1
    assert table.status == "finished" and recorder.public[-1].kind == "closed_idle_paused"
    assert table.match_id is not None
    match = await store.load_match(table.match_id)
    assert match is not None and match.status == "abandoned"
    assert await store.live_tables() == []


async def test_two_clicks_at_once_apply_one_action(backend: Backend) -> None:
    service, _, store = await _service(backend)
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="classic", options={})
    await service.start(1, 100)
    await _wait(lambda: isinstance(table.game.phase, Playing) and table.game.phase.turn == 0)
    choice = legal_plays(table.game, 0)[0]
    before = len(table.game.log)
    results = await asyncio.gather(service.play(1, 100, choice), service.play(1, 100, choice),
                                   return_exceptions=True)
    refused = [r for r in results if isinstance(r, BotError)]
    assert len(refused) == 1 and refused[0].key == "illegal"
    assert [r for r in results if not isinstance(r, BaseException)]
    await service.close()  # the clock stops: look at a consistent moment
    stored = await store.load_actions(table.match_id)
    assert len(stored) == len(table.game.log) >= before + 1
    mine = [a for a in stored[before:] if a["type"] == "Play" and a["seat"] == 0]
    assert len(mine) == 1  # one click applied, the other refused


async def test_a_refused_action_stores_nothing(backend: Backend) -> None:
    service, _, store = await _service(backend)
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="classic", options={})
    await service.start(1, 100)
    await _wait(lambda: isinstance(table.game.phase, Playing) and table.game.phase.turn == 0)
    count = len(await store.load_actions(table.match_id))
    fingerprint = table.game.fingerprint()
    with pytest.raises(BotError) as info:
        await service.play(1, 100, table.game.phase.hands[0][:3])  # three loose cards
    assert info.value.key == "illegal"
    assert table.game.fingerprint() == fingerprint
    assert len(await store.load_actions(table.match_id)) == count
    with pytest.raises(BotError) as info:
        await service.play(1, 555, table.game.phase.hands[0][:1])  # not seated
    assert info.value.key == "not_seated"


class FailingStore(StoreInFront):
    """The real store, whose appends fail while ``fail`` is set (a full disk, a lost server);
    ``refused`` counts the appends refused."""

    fail = False
    refused = 0

    async def append_action(self, match_id: int, seq: int, action: dict) -> None:  # type: ignore[type-arg]
        if self.fail:
            self.refused += 1
            raise StoreError("disk full")
        await self._store.append_action(match_id, seq, action)


async def _failing_table(backend: Backend) -> tuple[TableService, FailingStore, Table]:
    """Ann's match on a ``FailingStore``, waiting for her to lead."""
    store = FailingStore(await backend.open())
    service, _, _ = await _service(backend, store)  # type: ignore[arg-type]
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="classic", options={})
    await service.start(1, 100)
    await _wait(lambda: isinstance(table.game.phase, Playing) and table.game.phase.turn == 0)
    return service, store, table


async def test_an_action_that_cannot_be_stored_changes_nothing(backend: Backend) -> None:
    service, store, table = await _failing_table(backend)
    fingerprint = table.game.fingerprint()
    store.fail = True
    with pytest.raises(BotError) as info:
        await service.play(1, 100, legal_plays(table.game, 0)[0])
    assert info.value.key == "storage"
    assert table.game.fingerprint() == fingerprint
    store.fail = False


async def test_a_clock_step_that_cannot_be_stored_is_tried_less_often_then_goes_on(
        backend: Backend, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.tables")
    service, store, table = await _failing_table(backend)
    store.fail = True
    await service.leave(1, 100)  # only computers now, with no pause between their moves
    moves = len(table.game.log)
    await asyncio.sleep(2.5)
    # tried at once, after 1 s and after 2 more: not in a loop as fast as the store refuses
    assert 2 <= store.refused <= 3 and len(table.game.log) == moves
    # said once: the first refusal and the clock's retry
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warned) == 2, warned
    assert "could not store an action" in warned[0] and "disk full" in warned[0]
    assert "clock of channel 1: storage; trying again in 1 s" in warned[1]
    store.fail = False  # the database is back: the computers go on by the next try (4 s)
    await _wait(lambda: len(table.game.log) > moves + 4, timeout=10)
    assert any("going on after" in r.getMessage() for r in caplog.records)


async def _stored_as_finished(store: Store, match_id: int | None) -> None:
    """The table says finished first, then the store is told: wait for the store."""
    assert match_id is not None
    loop = asyncio.get_running_loop()
    end = loop.time() + 30
    while (match := await store.load_match(match_id)) is None or match.status != "finished":
        assert loop.time() < end, "the match was not stored as finished"
        await asyncio.sleep(0.01)


async def test_a_whole_match_of_computers_runs_in_seconds_and_is_stored(backend: Backend
                                                                        ) -> None:
    service, recorder, store = await _service(backend)
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="classic",
                                 options={"level_ranks": "Q,K,A", "finish": "reach_ace"})
    await service.start(1, 100)
    await service.leave(1, 100)  # a computer takes over the seat
    # (nobody is away, everybody left: no pause between hands, the computers' match is
    # watched)
    await _wait(lambda: table.status == "finished", timeout=60)
    await _stored_as_finished(store, table.match_id)
    match = await store.load_match(table.match_id)
    assert match is not None and match.status == "finished"
    hands = await store.match_hands(table.match_id)
    assert hands and len(hands) == table.game.hand_number + 1
    # (the end is published after the table's lock is let go: it may come a little later)
    await _wait(lambda: any(e.kind == "match_over" for e in recorder.public))
    # then the service keeps nothing of the finished match (Play again reads the store)
    game = weakref.ref(table.game)
    table = None  # (the test's own hold)
    await _wait(lambda: 1 not in service.tables)
    gc.collect()
    assert game() is None
    assert (await service.play_again(1, 100)).status == "lobby"


class SlowEndStore(StoreInFront):
    """The real store, slow to save a finished table's row (a loaded database)."""

    async def save_table(self, table: TableRecord) -> None:
        if table.status == "finished":
            await asyncio.sleep(0.5)
        await self._store.save_table(table)


async def test_closing_while_a_match_s_end_is_stored_stores_all_of_it(backend: Backend
                                                                      ) -> None:
    """A close (SIGTERM) between storing the match's end and the table's row still stores
    the row: else the next start would restore a table in play at a match that is over."""
    store = SlowEndStore(await backend.open())
    service, _, _ = await _service(backend, store)  # type: ignore[arg-type]
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="classic",
                                 options={"level_ranks": "Q,K,A", "finish": "reach_ace"})
    await service.start(1, 100)
    await service.leave(1, 100)
    await _stored_as_finished(store, table.match_id)  # type: ignore[arg-type]
    await service.close()  # (while the row's save waits)
    stored = await store.load_table(1)
    assert stored is not None and stored.status == "finished"


async def test_a_match_over_whose_table_row_says_in_play_is_restored_finished(
        backend: Backend) -> None:
    """The bot died after storing the match's end and before the table's row: at start
    the table is not restored as one in play (stuck at the match's end, holding its
    channel): its row is made finished, and Play again opens a new lobby."""
    service, _, store = await _service(backend)
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="classic",
                                 options={"level_ranks": "Q,K,A", "finish": "reach_ace"})
    await service.start(1, 100)
    await service.leave(1, 100)
    await _wait(lambda: table.status == "finished", timeout=60)
    await _stored_as_finished(store, table.match_id)
    await service.close()
    await store.save_table(replace(table.record(), status="playing"))  # the lost write
    again, _, _ = await _service(backend, store)
    (restored,) = await again.restore()
    assert restored.table.status == "finished"
    assert 1 not in again.tables  # (let go: Play again reads the store)
    stored = await store.load_table(1)
    assert stored is not None and stored.status == "finished"
    assert (await store.load_match(table.match_id)).status == "finished"  # type: ignore[union-attr]
    assert (await again.play_again(1, 100)).status == "lobby"


async def test_restore_rebuilds_a_game_from_its_log(backend: Backend) -> None:
    service, _, store = await _service(backend)
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="changzhu", options={})
    await service.start(1, 100)
    await _wait(lambda: (isinstance(table.game.phase, Playing) and table.game.phase.turn == 0)
                or table.actor() == 0)
    await service.close()
    fingerprint = table.game.fingerprint()
    again, _, _ = await _service(backend, store)
    restored = await again.restore()
    assert [r.table.channel_id for r in restored] == [1]
    assert restored[0].table.game.fingerprint() == fingerprint


async def test_a_setting_the_stored_row_lacks_is_the_bot_s_own(backend: Backend) -> None:
    """A row stored before a setting existed (here the nudge) takes the bot's setting,
    not the built-in default: an operator's ``SHENGJI_NUDGE_AFTER=0`` holds for it too."""
    service, _, store = await _service(backend)
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="classic", options={})
    await service.close()
    record = table.record()
    del record.settings["nudge_after"]
    record.settings["turn_timer"] = 45.0
    await store.save_table(record)
    again = TableService(store, Recorder(), RandomDeciders(),
                         default_settings=replace(FAST, nudge_after=0.0), seed=7)
    _OPEN.append(again)
    (restored,) = await again.restore()
    assert (restored.table.settings.nudge_after, restored.table.settings.turn_timer) \
        == (0.0, 45.0)


class HandsFailingStore(StoreInFront):
    """The real store, which takes every action but cannot record a hand's result."""

    async def record_hand(self, hand: HandRecord) -> None:
        raise StoreError("disk full")


async def test_a_stored_play_is_done_even_when_its_hand_cannot_be_recorded(backend: Backend
                                                                            ) -> None:
    store = HandsFailingStore(await backend.open())
    service, _, _ = await _service(backend, store)  # type: ignore[arg-type]
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="classic", options={})
    await service.start(1, 100)
    # Ann plays every turn of hers until the hand is scored: no play may be refused,
    # although the result of the hand cannot be stored
    while not isinstance(table.game.phase, HandOver):
        await _wait(lambda: table.actor() == 0 or isinstance(table.game.phase, HandOver))
        if table.actor() == 0:
            action = random_action(table.game, random.Random(len(table.game.log)))
            await service.act(1, 100, lambda seat, chosen=action: chosen)
    assert await store.match_hands(table.match_id) == []
    await service.close()
    # a restart replays the log and records the hand it had missed
    working = await backend.open()
    again, _, _ = await _service(backend, working)
    await again.restore()
    assert len(await working.match_hands(table.match_id)) == 1


class Thinking(RandomDeciders):
    """Computer players; the one deciding for ``slow_seat`` thinks until told to go on."""

    def __init__(self, slow_seat: int) -> None:
        super().__init__(declare_chance=0.0)
        self.slow_seat = slow_seat
        self.thinking = asyncio.Event()
        self.go_on = asyncio.Event()

    async def decide(self, game, seat: int, level: str, seed: int):  # type: ignore[no-untyped-def]
        if seat == self.slow_seat:
            self.thinking.set()
            await self.go_on.wait()
        return await super().decide(game, seat, level, seed)


async def test_the_table_answers_while_a_computer_thinks_and_a_late_decision_is_dropped(
        backend: Backend) -> None:
    store = await backend.open()
    thinking = Thinking(slow_seat=0)
    service = TableService(store, Recorder(), thinking, default_settings=FAST, seed=7)
    _OPEN.extend([service, store])
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="classic", options={},
                                 settings=replace(FAST, turn_timer=0.01, away_pause=0.0))
    await service.start(1, 100)
    # Ann's turn times out: a computer starts thinking for her
    await asyncio.wait_for(thinking.thinking.wait(), 30)
    assert table.seats[0].away
    # the table's lock is free: a refusal comes at once, not when the computer is done
    with pytest.raises(BotError) as refused:
        await asyncio.wait_for(service.join(1, 200, "Bea"), 1)
    assert refused.value.key == "ask_host"  # (computers play: the host may let Bea in)
    # Ann is back before the computer has decided: her own action counts
    before = len(table.game.log)
    action = random_action(table.game, random.Random(1))
    await asyncio.wait_for(service.act(1, 100, lambda seat: action), 1)
    thinking.go_on.set()
    await _wait(lambda: len(table.game.log) > before + 1)
    await service.close()
    stored = await store.load_actions(table.match_id)
    assert stored[before] == action_to_dict(action)
    assert stored == [action_to_dict(a) for a in table.game.log]


async def test_a_deleted_channel_ends_its_table_unseen_and_a_restart_leaves_it_ended(
        backend: Backend) -> None:
    service, recorder, store = await _service(backend)
    table = await _table_waiting_for(service, 100, FAST)
    match_id = table.match_id
    lobby = await service.create(channel_id=2, guild_id=9, user_id=101, name="Bo",
                                 preset="classic", options={})
    published = len(recorder.public)

    assert await service.channel_gone(1)
    assert recorder.gone == [1]
    assert table.status == "finished"
    assert (await store.load_match(match_id)).status == "abandoned"
    with pytest.raises(BotError, match="no_table"):
        service.get(1)
    hand = table.game.hand_number
    await asyncio.sleep(0.3)  # the clock is stopped: Ann's turn never times out
    assert len(recorder.public) == published and table.game.hand_number == hand
    assert not await service.channel_gone(1)  # told twice (the event, then a 404)
    assert service.get(2) is lobby

    await service.close()
    service, _, _ = await _service(backend, store)
    [restored] = await service.restore()
    assert restored.table.channel_id == 2


async def test_a_server_that_removes_the_bot_has_its_tables_ended_and_no_other(
        backend: Backend) -> None:
    service, recorder, store = await _service(backend)
    table = await _table_waiting_for(service, 100, FAST)
    await service.create(channel_id=2, guild_id=9, user_id=101, name="Bo",
                         preset="classic", options={})
    elsewhere = await service.create(channel_id=3, guild_id=8, user_id=102, name="Cy",
                                     preset="classic", options={})
    assert service.guilds() == {8, 9}

    assert await service.guild_gone(9) == 2
    assert sorted(recorder.gone) == [1, 2]
    assert (await store.load_match(table.match_id)).status == "abandoned"
    assert service.guilds() == {8} and service.get(3) is elsewhere
    assert await service.guild_gone(9) == 0


async def test_a_host_who_leaves_passes_the_table_to_a_person_still_seated(backend: Backend
                                                                           ) -> None:
    service, recorder, store = await _service(backend)
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="classic", options={})
    await service.join(1, 101, "Bo")
    await service.join(1, 102, "Cy")
    assert "Ann, the host" in status_line(table)
    await service.leave(1, 100)
    assert table.host_id == 101 and "Bo, the host" in status_line(table)
    assert [e.seat for e in recorder.public if e.kind == "host_passed"] == [1]
    # the new host is the host after a restart too, and starts the match
    await service.close()
    service, recorder, _ = await _service(backend, store)
    [restored] = await service.restore()
    table = restored.table
    assert table.host_id == 101
    with pytest.raises(BotError, match="not_host"):
        await service.start(1, 102)
    await service.start(1, 101)
    # in the match, a host who leaves stays the host (a computer keeps the seat for them)
    await service.leave(1, 101)
    assert table.host_id == 101 and table.seats[1].is_ai
    with pytest.raises(BotError, match="not_host"):
        await service.end(1, 102, can_manage=False)
    await service.end(1, 101, can_manage=False)
    assert table.status == "finished"


async def test_the_last_person_to_leave_stays_host_until_someone_sits_down(backend: Backend
                                                                          ) -> None:
    service, recorder, _ = await _service(backend)
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="classic", options={})
    await service.add_ai(1, 100)
    await service.leave(1, 100)
    assert table.host_id == 100 and status_line(table) == "Waiting for players. The host " \
        "starts the match."
    await service.join(1, 101, "Bo")
    assert table.host_id == 101
    assert [e.seat for e in recorder.public if e.kind == "host_passed"] == [0]


async def test_a_host_seat_freed_by_a_manager_passes_the_table_on(backend: Backend) -> None:
    service, _, _ = await _service(backend)
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="classic", options={})
    await service.join(1, 101, "Bo")
    await service.remove(1, 555, 0, can_manage=True)
    assert table.host_id == 101 and table.seats[0] is None


async def test_a_finished_table_is_not_kept_at_start_and_plays_again_from_the_store(
        backend: Backend) -> None:
    service, _, store = await _service(backend)
    table = await _table_waiting_for(service, 100, FAST)
    await service.end(1, 100, can_manage=False)
    assert table.status == "finished" and 1 not in service.tables
    await service.close()
    service, _, _ = await _service(backend, store)
    assert await service.restore() == []  # (nothing to redraw, nothing kept)
    with pytest.raises(BotError, match="no_table"):
        service.get(1)
    with pytest.raises(BotError, match="not_seated"):
        await service.play_again(1, 555)
    again = await service.play_again(1, 100)
    assert again.status == "lobby" and service.get(1) is again
    assert [s.name for s in again.seats] == [s.name for s in table.seats]
    with pytest.raises(BotError, match="no_finished_match"):
        await service.play_again(1, 100)
