"""TableService with a real store (SQLite and PostgreSQL): timers, locks, refusals, whole
matches."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Sequence

import pytest

from bot.ai import RandomDeciders
from bot.errors import BotError
from bot.store import Store, StoreError
from bot.tables import Table, TableService, TableSettings
from engine.actions import Event
from engine.game import Playing
from engine.legal import legal_plays
from engine.simulate import random_action
from tests.bot.backends import Backend

FAST = TableSettings(turn_timer=30.0, deal_pause=0.0, last_chance=0.0, hand_pause=0.0,
                     ai_pause=0.0)


class Recorder:
    """Keeps what the service publishes (the Discord layer's interface, recorded)."""

    def __init__(self) -> None:
        self.public: list[Event] = []
        self.private: list[tuple[int, Event]] = []

    async def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        self.public += events

    async def tell_seat(self, table: Table, seat: int, events: Sequence[Event]) -> None:
        self.private += [(seat, e) for e in events]


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
    table = await service.create(channel_id=1, guild_id=9, user_id=user, name="Ann",
                                 preset="classic", options={}, settings=settings)
    await service.start(1, user)
    await _wait(lambda: table.actor() == 0)
    return table


async def test_a_timed_out_turn_is_played_by_a_computer_and_the_seat_is_away(backend: Backend
                                                                             ) -> None:
    service, recorder, store = await _service(backend)
    settings = TableSettings(turn_timer=0.05, deal_pause=0.0, last_chance=0.0,
                             hand_pause=0.0, ai_pause=0.0)
    table = await _table_waiting_for(service, 100, settings)
    await _wait(lambda: any(e.kind == "away" and e.seat == 0 for e in recorder.public))
    assert table.seats[0].away
    # the owner comes back: when they act, the seat is theirs again
    table.settings = TableSettings(turn_timer=30.0, deal_pause=0.0, last_chance=0.0,
                                   hand_pause=0.0, ai_pause=0.0, away_pause=30.0)
    await _wait(lambda: table.actor() == 0)
    action = random_action(table.game, random.Random(1))  # whatever seat 0 must decide
    await service.act(1, 100, lambda seat: action)
    assert not table.seats[0].away


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
    async with table.lock:  # the clock goes on: look at a consistent moment
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


class FailingStore:
    """The real store, whose appends fail while ``fail`` is set (a full disk, a lost server)."""

    fail = False

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getattr__(self, name: str) -> object:
        return getattr(self._store, name)

    async def append_action(self, match_id: int, seq: int, action: dict) -> None:  # type: ignore[type-arg]
        if self.fail:
            raise StoreError("disk full")
        await self._store.append_action(match_id, seq, action)


async def test_an_action_that_cannot_be_stored_is_undone(backend: Backend) -> None:
    store = FailingStore(await backend.open())
    service, _, _ = await _service(backend, store)  # type: ignore[arg-type]
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="classic", options={})
    await service.start(1, 100)
    await _wait(lambda: isinstance(table.game.phase, Playing) and table.game.phase.turn == 0)
    fingerprint = table.game.fingerprint()
    store.fail = True
    with pytest.raises(BotError) as info:
        await service.play(1, 100, legal_plays(table.game, 0)[0])
    assert info.value.key == "storage"
    assert table.game.fingerprint() == fingerprint
    store.fail = False


async def test_a_whole_match_of_computers_runs_in_seconds_and_is_stored(backend: Backend
                                                                        ) -> None:
    service, recorder, store = await _service(backend)
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="classic",
                                 options={"level_ranks": "Q,K,A", "finish": "reach_ace"})
    await service.start(1, 100)
    await service.leave(1, 100)  # a computer takes over the seat
    await _wait(lambda: table.status == "finished", timeout=60)
    if table.task:  # the status is set first, then the match is stored as finished
        await table.task
    match = await store.load_match(table.match_id)
    assert match is not None and match.status == "finished"
    hands = await store.match_hands(table.match_id)
    assert hands and len(hands) == table.game.hand_number + 1
    assert any(e.kind == "match_over" for e in recorder.public)


async def test_restore_rebuilds_a_game_from_its_log(backend: Backend) -> None:
    service, _, store = await _service(backend)
    table = await service.create(channel_id=1, guild_id=9, user_id=100, name="Ann",
                                 preset="changzhu", options={})
    await service.start(1, 100)
    await _wait(lambda: isinstance(table.game.phase, Playing) and table.game.phase.turn == 0
                or table.actor() == 0)
    await service.close()
    fingerprint = table.game.fingerprint()
    again, _, _ = await _service(backend, store)
    restored = await again.restore()
    assert [t.channel_id for t in restored] == [1]
    assert restored[0].game.fingerprint() == fingerprint
