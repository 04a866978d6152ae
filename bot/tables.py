"""TableService: the only code that changes a game. One table per channel.

Per table and under its lock: apply the action to the engine, append it to the store
(durably, before anyone is answered), then publish the public events and each seat's
private ones. A refused action raises ``BotError`` and changes nothing. A clock task per
table deals the cards, closes the last chance to declare, lets computer players (and
computer stand-ins for away players) act, and starts the next hand.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from bot.errors import BotError
from bot.store import HandRecord, SeatRecord, Store, StoreError, TableRecord
from engine.actions import (
    Action,
    Bury,
    Deal,
    Declare,
    EndDeal,
    Event,
    NextHand,
    Play,
    ReturnCards,
    SwapKitty,
    action_from_dict,
    action_to_dict,
    event,
)
from engine.cards import Card, Rank, format_cards
from engine.errors import EngineError
from engine.game import Burying, Dealing, Game, HandOver, MatchOver, Playing, Swapping
from engine.rules import Ruleset, ruleset
from engine.scoring import HandResult
from engine.views import SeatView, seat_view

log = logging.getLogger(__name__)

AI_LEVELS = ("easy", "normal", "hard")


@dataclass(frozen=True)
class TableSettings:
    """Pauses and timers, in seconds. Every one is a setting so tests run fast."""

    turn_timer: float = 90.0  # a human's turn; then a computer plays for them
    deal_pause: float = 0.6  # between rounds of the deal
    last_chance: float = 8.0  # after the last card, before the deal closes
    hand_pause: float = 10.0  # between hands
    ai_pause: float = 0.8  # before a computer player acts
    # an away player's turn: long enough to notice the panel and press "I'm back" (or
    # play), short enough that three people are not kept waiting every trick
    away_pause: float = 15.0

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableSettings:
        """Known keys that hold a usable number of seconds; anything else is the default
        (a damaged stored value must not stop a table from being restored)."""
        known: dict[str, float] = {}
        for key, value in data.items():
            if key not in cls.__dataclass_fields__ or isinstance(value, bool):
                continue
            try:
                seconds = float(value)
            except (TypeError, ValueError, OverflowError):
                log.warning("table setting %s=%r is not a number: using the default", key,
                            value)
                continue
            if 0 <= seconds <= 86_400:
                known[key] = seconds
        return cls(**known)

    def to_dict(self) -> dict[str, float]:
        return asdict(self)

    def scaled(self, factor: float) -> TableSettings:
        """Every pause times ``factor`` (the turn timer too)."""
        return TableSettings(**{k: v * factor for k, v in asdict(self).items()})


@dataclass
class Seat:
    kind: str  # "human" or "ai"
    user_id: int | None
    name: str
    ai_level: str | None = None
    away: bool = False  # a human whose turn timed out: a computer plays until they act

    @property
    def is_ai(self) -> bool:
        return self.kind == "ai"

    def record(self) -> SeatRecord:
        return SeatRecord(self.kind, self.user_id, self.name, self.ai_level)

    @classmethod
    def of(cls, record: SeatRecord) -> Seat:
        return cls(record.kind, record.user_id, record.name, record.ai_level)


@dataclass
class Table:
    channel_id: int
    guild_id: int
    host_id: int
    preset: str
    options: dict[str, Any]
    settings: TableSettings
    seats: list[Seat | None]
    locale: str = "en-US"
    message_id: int | None = None
    status: str = "lobby"  # lobby, playing, finished
    match_id: int | None = None
    game: Game | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    wakeup: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    since: float = field(default_factory=time.monotonic)  # when the current wait began
    task: asyncio.Task[None] | None = field(default=None, repr=False)
    # the last public events replayed at a restore (the table's recent lines come back)
    replayed: deque[Event] = field(default_factory=lambda: deque(maxlen=200), repr=False)

    @property
    def rules(self) -> Ruleset:
        return ruleset(self.preset, **self.options)

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.kind == "human" and seat.user_id == user_id:
                return i
        return None

    def record(self) -> TableRecord:
        return TableRecord(
            channel_id=self.channel_id, guild_id=self.guild_id, host_id=self.host_id,
            message_id=self.message_id, preset=self.preset, options=dict(self.options),
            settings=self.settings.to_dict(),
            seats=[s.record() if s else None for s in self.seats],
            match_id=self.match_id, status=self.status, locale=self.locale)

    def actor(self) -> int | None:
        """The seat whose decision the game waits for, if any."""
        phase = self.game.phase if self.game else None
        if isinstance(phase, Dealing):
            return phase.pending_return[0] if phase.pending_return else None
        if isinstance(phase, Burying):
            return phase.taker
        if isinstance(phase, Swapping):
            return phase.declarer
        if isinstance(phase, Playing):
            return phase.turn
        return None


class Publisher(Protocol):
    """How the service tells the world (the Discord layer implements it)."""

    async def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        """Public: update the table message and announce the public events."""

    async def tell_seat(self, table: Table, seat: int, events: Sequence[Event]) -> None:
        """Private: events only ``seat`` may see (hidden trump, cards received)."""


class Deciders(Protocol):
    """Computer players. An implementation hands the AI ``seat_view(game, seat)`` only."""

    async def decide(self, game: Game, seat: int, level: str, seed: int) -> Action: ...

    async def declaration(self, game: Game, seat: int, level: str, seed: int
                          ) -> Declare | None: ...


class StatsHooks(Protocol):
    """Stats and ratings (bot/stats.py): is a match ranked; count a stored hand."""

    async def ranked(self, guild_id: int, seats: Sequence[SeatRecord]) -> bool: ...

    async def hand_recorded(self, match_id: int) -> None: ...


class TableService:
    def __init__(self, store: Store, publisher: Publisher, deciders: Deciders, *,
                 default_settings: TableSettings | None = None, seed: int | None = None,
                 stats: StatsHooks | None = None) -> None:
        self.store = store
        self.publisher = publisher
        self.deciders = deciders
        self.default_settings = default_settings or TableSettings()
        self.stats = stats
        self.tables: dict[int, Table] = {}
        self._rng = random.Random(seed)  # a seed makes every deal repeatable (tests)
        self._closing = False

    # -- start-up and shutdown ------------------------------------------------------------

    async def restore(self) -> list[Table]:
        """Rebuild every stored table; games in play are replayed from their logs."""
        restored = []
        for record in await self.store.load_tables():
            try:
                table = await self._restore_one(record)
            except Exception as exc:  # noqa: BLE001 - one bad row must not stop the bot
                log.warning("table in channel %s could not be restored: %s",
                            record.channel_id, getattr(exc, "message", None) or repr(exc))
                continue
            self.tables[table.channel_id] = table
            restored.append(table)
            if table.status == "playing":
                self._start_clock(table)
        return restored

    async def _restore_one(self, record: TableRecord) -> Table:
        table = Table(record.channel_id, record.guild_id, record.host_id, record.preset,
                      dict(record.options), TableSettings.from_dict(record.settings),
                      [Seat.of(s) if s else None for s in record.seats], record.locale,
                      record.message_id, record.status, record.match_id)
        if table.status == "playing" and table.match_id is not None:
            match = await self.store.load_match(table.match_id)
            if match is None:
                raise StoreError(f"match {table.match_id} is missing")
            table.game = Game(Ruleset.from_dict(match.rules), match.seed)
            recorded = len(await self.store.match_hands(table.match_id))
            for data in await self.store.load_actions(table.match_id):
                events = table.game.apply(action_from_dict(data))
                table.replayed.extend(e for e in events if e.audience is None)
                # a crash between storing an action and its hand's result: catch up
                if any(e.kind == "hand_scored" for e in events) and \
                        table.game.hand_number >= recorded:
                    await self._after(table, events)
        return table

    async def close(self) -> None:
        self._closing = True
        for table in self.tables.values():
            if table.task:
                table.task.cancel()
        tasks = [t.task for t in self.tables.values() if t.task]
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- lobby ------------------------------------------------------------------------------

    def get(self, channel_id: int) -> Table:
        table = self.tables.get(channel_id)
        if table is None or table.status == "finished":
            raise BotError("no_table")
        return table

    def find(self, channel_id: int) -> Table | None:
        return self.tables.get(channel_id)

    async def create(self, *, channel_id: int, guild_id: int, user_id: int, name: str,
                     preset: str, options: dict[str, Any], locale: str = "en-US",
                     settings: TableSettings | None = None) -> Table:
        existing = self.tables.get(channel_id)
        if existing is not None and existing.status != "finished":
            raise BotError("table_exists")
        try:
            rules = ruleset(preset, **options)
        except EngineError as exc:
            raise BotError("bad_rules", exc.message) from None
        table = Table(channel_id, guild_id, user_id, rules.preset, dict(options),
                      settings or self.default_settings, [None] * rules.players, locale)
        table.seats[0] = Seat("human", user_id, name)
        await self._save(table)
        await self.store.upsert_player(guild_id, user_id, name)
        self.tables[channel_id] = table
        await self.publisher.table_changed(table, [])
        return table

    async def join(self, channel_id: int, user_id: int, name: str, seat: int | None = None
                   ) -> int:
        table = self.get(channel_id)
        if table.status == "playing":
            return await self._sit_again(table, user_id, name)
        async with table.lock:
            self._in_lobby(table)
            current = table.seat_of(user_id)
            if seat is None:
                if current is not None:
                    raise BotError("already_seated", seat=current)
                free = [i for i, s in enumerate(table.seats) if s is None]
                if not free:
                    raise BotError("table_full")
                seat = free[0]
            self._check_seat(table, seat)
            occupant = table.seats[seat]
            if occupant is not None and occupant.user_id != user_id:
                raise BotError("seat_taken", seat=seat)
            if current is not None:
                table.seats[current] = None
            table.seats[seat] = Seat("human", user_id, name)
            await self._save(table)
            await self.store.upsert_player(table.guild_id, user_id, name)
        await self.publisher.table_changed(table, [])
        return seat

    async def _sit_again(self, table: Table, user_id: int, name: str) -> int:
        """During a match: a player who left takes their seat back from the computer."""
        async with table.lock:
            if table.seat_of(user_id) is not None:
                raise BotError("already_seated", seat=table.seat_of(user_id))
            match = await self.store.load_match(table.match_id) if table.match_id else None
            started = match.seats if match is not None else []
            mine = [i for i, s in enumerate(started) if s.kind == "human"
                    and s.user_id == user_id and i < len(table.seats)]
            if not mine:
                raise BotError("already_started")
            seat = mine[0]
            occupant = table.seats[seat]
            if occupant is not None and not occupant.is_ai:
                raise BotError("seat_taken", seat=seat)
            table.seats[seat] = Seat("human", user_id, name)
            await self._save(table)
        await self.publisher.table_changed(table, [])
        table.wakeup.set()
        return seat

    async def back(self, channel_id: int, user_id: int) -> bool:
        """The player is here (they opened their hand, pressed "I'm back", or acted):
        a computer no longer plays for them. True if they had been away."""
        table = self.get(channel_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise BotError("not_seated")
        occupant = table.seats[seat]
        if occupant is None or not occupant.away:
            return False
        async with table.lock:
            occupant.away = False
            if table.actor() == seat:
                table.since = time.monotonic()  # their full turn timer starts now
        await self.publisher.table_changed(table, [event("back", seat=seat)])
        table.wakeup.set()
        return True

    async def leave(self, channel_id: int, user_id: int) -> None:
        table = self.get(channel_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise BotError("not_seated")
            if table.status == "playing":
                # a seat in play is never left empty: a computer takes it over
                table.seats[seat] = Seat("ai", None, f"{table.seats[seat].name} (bot)", "easy")
            else:
                table.seats[seat] = None
            await self._save(table)
        await self.publisher.table_changed(table, [])
        table.wakeup.set()

    async def add_ai(self, channel_id: int, user_id: int, seat: int | None = None,
                     level: str = "easy") -> int:
        table = self.get(channel_id)
        if level not in AI_LEVELS:
            raise BotError("bad_ai_level", levels=", ".join(AI_LEVELS))
        async with table.lock:
            self._in_lobby(table)
            self._must_be_seated(table, user_id)
            if seat is None:
                free = [i for i, s in enumerate(table.seats) if s is None]
                if not free:
                    raise BotError("table_full")
                seat = free[0]
            self._check_seat(table, seat)
            if table.seats[seat] is not None and not table.seats[seat].is_ai:  # type: ignore[union-attr]
                raise BotError("seat_taken", seat=seat)
            table.seats[seat] = Seat("ai", None, f"Bot {seat + 1}", level)
            await self._save(table)
        await self.publisher.table_changed(table, [])
        return seat

    async def remove_ai(self, channel_id: int, user_id: int, seat: int) -> None:
        table = self.get(channel_id)
        async with table.lock:
            self._in_lobby(table)
            self._must_be_seated(table, user_id)
            self._check_seat(table, seat)
            if table.seats[seat] is None or not table.seats[seat].is_ai:  # type: ignore[union-attr]
                raise BotError("not_a_bot_seat", seat=seat)
            table.seats[seat] = None
            await self._save(table)
        await self.publisher.table_changed(table, [])

    async def start(self, channel_id: int, user_id: int, *, fill_with_ai: bool = True) -> Table:
        table = self.get(channel_id)
        async with table.lock:
            self._in_lobby(table)
            self._must_be_seated(table, user_id)
            if fill_with_ai:
                for i, seat in enumerate(table.seats):
                    if seat is None:
                        table.seats[i] = Seat("ai", None, f"Bot {i + 1}", "easy")
            if any(s is None for s in table.seats):
                raise BotError("seats_empty")
            rules = table.rules
            seed = self._rng.randrange(2**62)
            seats = [s.record() for s in table.seats if s is not None]
            ranked = await self.stats.ranked(table.guild_id, seats) if self.stats else False
            table.match_id = await self.store.create_match(
                table.guild_id, table.channel_id, seed, rules.to_dict(), seats, ranked=ranked)
            table.game = Game(rules, seed)
            table.status = "playing"
            table.since = time.monotonic()
            await self._save(table)
        await self.publisher.table_changed(table, [])
        self._start_clock(table)
        return table

    async def end(self, channel_id: int, user_id: int, *, can_manage: bool) -> None:
        table = self.get(channel_id)
        if user_id != table.host_id and not can_manage:
            raise BotError("not_host")
        async with table.lock:
            if table.match_id is not None and table.status == "playing":
                await self.store.finish_match(table.match_id, "abandoned", None)
            table.status = "finished"
            await self._save(table)
        if table.task:
            table.task.cancel()
        await self.publisher.table_changed(table, [])

    async def remember_message(self, table: Table, message_id: int) -> None:
        """The public table message now lives at ``message_id``."""
        async with table.lock:
            table.message_id = message_id
            await self._save(table)

    # -- playing ----------------------------------------------------------------------------

    def view_for(self, channel_id: int, user_id: int) -> tuple[Table, int, SeatView]:
        table = self.get(channel_id)
        seat = self._must_be_seated(table, user_id)
        if table.game is None:
            raise BotError("not_started")
        return table, seat, seat_view(table.game, seat)

    async def act(self, channel_id: int, user_id: int, make: Callable[[int], Action]
                  ) -> list[Event]:
        """Apply the action ``make(seat)`` for the user's seat: persisted, then published."""
        table = self.get(channel_id)
        async with table.lock:
            seat = self._must_be_seated(table, user_id)
            if table.game is None or table.status != "playing":
                raise BotError("not_started")
            action = make(seat)
            events = await self._commit(table, action)
            occupant = table.seats[seat]
            if occupant is not None and occupant.away:  # acting ends "away"
                occupant.away = False
                events.append(event("back", seat=seat))
        await self._publish(table, events)
        return events

    async def declare(self, channel_id: int, user_id: int, cards: Sequence[Card]) -> list[Event]:
        return await self.act(channel_id, user_id, lambda seat: Declare(seat, tuple(cards)))

    async def give_back(self, channel_id: int, user_id: int, cards: Sequence[Card]
                        ) -> list[Event]:
        return await self.act(channel_id, user_id, lambda seat: ReturnCards(seat, tuple(cards)))

    async def bury(self, channel_id: int, user_id: int, cards: Sequence[Card]) -> list[Event]:
        return await self.act(channel_id, user_id, lambda seat: Bury(seat, tuple(cards)))

    async def swap(self, channel_id: int, user_id: int, give: Sequence[Card],
                   take: Sequence[Card]) -> list[Event]:
        return await self.act(channel_id, user_id,
                              lambda seat: SwapKitty(seat, tuple(give), tuple(take)))

    async def play(self, channel_id: int, user_id: int, cards: Sequence[Card]) -> list[Event]:
        return await self.act(channel_id, user_id, lambda seat: Play(seat, tuple(cards)))

    # -- the one place a game changes ---------------------------------------------------------

    async def _commit(self, table: Table, action: Action) -> list[Event]:
        """Apply, then append to the store. Called under the table's lock."""
        game = table.game
        assert game is not None and table.match_id is not None
        try:
            events = game.apply(action)
        except EngineError as exc:
            raise BotError("illegal", exc.message, code=exc.code,
                           engine_params=exc.params) from None
        try:
            await self.store.append_action(table.match_id, len(game.log) - 1,
                                           action_to_dict(action))
        except StoreError:
            # the log is the truth: rebuild the game from what was stored
            log.exception("could not store an action of match %s", table.match_id)
            game.log.pop()
            table.game = await self._rebuild(table)
            raise BotError("storage") from None
        table.since = time.monotonic()
        table.wakeup.set()
        await self._after(table, events)
        return events

    async def _rebuild(self, table: Table) -> Game:
        assert table.game is not None and table.match_id is not None
        game = Game(table.game.rules, table.game.seed)
        for data in await self.store.load_actions(table.match_id):
            game.apply(action_from_dict(data))
        return game

    async def _after(self, table: Table, events: Sequence[Event]) -> None:
        game = table.game
        assert game is not None and table.match_id is not None
        last_winner = None
        for ev in events:
            if ev.kind == "trick_won":
                last_winner = ev.seat
            elif ev.kind == "hand_scored":
                await self.store.record_hand(_hand_record(table, ev, last_winner))
                if self.stats:
                    await self.stats.hand_recorded(table.match_id)
            elif ev.kind == "match_over":
                table.status = "finished"
                await self.store.finish_match(table.match_id, "finished", ev.get("team"))
                await self._save(table)

    async def _publish(self, table: Table, events: Sequence[Event]) -> None:
        public = [e for e in events if e.audience is None]
        try:
            await self.publisher.table_changed(table, public)
            for seat in sorted({e.audience for e in events if e.audience is not None}):
                await self.publisher.tell_seat(table, seat,
                                               [e for e in events if e.audience == seat])
        except Exception:  # noqa: BLE001 - the game goes on when a message fails
            log.exception("publishing to channel %s failed", table.channel_id)

    # -- the clock ----------------------------------------------------------------------------

    def _start_clock(self, table: Table) -> None:
        if table.task is None or table.task.done():
            table.task = asyncio.create_task(self._clock(table), name=f"table-{table.channel_id}")

    def _due(self, table: Table) -> float | None:
        """Seconds from ``table.since`` until the clock acts, or None (nothing to do)."""
        game = table.game
        if game is None or table.status != "playing":
            return None
        phase = game.phase
        s = table.settings
        if isinstance(phase, Dealing) and phase.pending_return is None:
            return s.deal_pause if phase.stock else s.last_chance
        if isinstance(phase, HandOver):
            return s.hand_pause
        if isinstance(phase, MatchOver):
            return None
        actor = table.actor()
        if actor is None:
            return None
        seat = table.seats[actor]
        if seat is None or seat.is_ai:
            return s.ai_pause
        return s.away_pause if seat.away else s.turn_timer

    async def _clock(self, table: Table) -> None:
        while table.status == "playing" and not self._closing:
            due = self._due(table)
            table.wakeup.clear()
            if due is None:
                return
            delay = table.since + due - time.monotonic()
            if delay > 0:
                try:
                    async with asyncio.timeout(delay):  # (wait_for can swallow a cancel)
                        await table.wakeup.wait()
                    continue  # something happened: look again
                except TimeoutError:
                    pass
            try:
                await self._tick(table)
            except BotError as exc:
                log.warning("clock of channel %s: %s", table.channel_id, exc.key)
                table.since = time.monotonic()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - one table's fault must not stop the others
                log.exception("clock of channel %s failed", table.channel_id)
                table.since = time.monotonic()

    async def _tick(self, table: Table) -> None:
        async with table.lock:
            due = self._due(table)
            if due is None or time.monotonic() < table.since + due:
                return
            game = table.game
            assert game is not None
            phase = game.phase
            events: list[Event] = []
            if isinstance(phase, Dealing) and phase.pending_return is None:
                if phase.stock:
                    events += await self._commit(table, Deal(min(game.players, len(phase.stock))))
                    events += await self._computer_declarations(table)
                else:
                    events += await self._commit(table, EndDeal())
            elif isinstance(phase, HandOver):
                events += await self._commit(table, NextHand())
            else:
                actor = table.actor()
                assert actor is not None
                seat = table.seats[actor]
                if seat is not None and not seat.is_ai and not seat.away:
                    seat.away = True  # the turn timed out
                    events.append(_away_event(actor))
                level = seat.ai_level if seat and seat.ai_level else "easy"
                action = await self.deciders.decide(game, actor, level,
                                                    self._rng.randrange(2**31))
                events += await self._commit(table, action)
        await self._publish(table, events)

    async def _computer_declarations(self, table: Table) -> list[Event]:
        game = table.game
        assert game is not None
        events: list[Event] = []
        for i, seat in enumerate(table.seats):
            if seat is None or not seat.is_ai:
                continue
            decl = await self.deciders.declaration(game, i, seat.ai_level or "easy",
                                                   self._rng.randrange(2**31))
            if decl is not None:
                try:
                    events += await self._commit(table, decl)
                except BotError:
                    continue
        return events

    # -- helpers ------------------------------------------------------------------------------

    async def _save(self, table: Table) -> None:
        await self.store.save_table(table.record())

    @staticmethod
    def _in_lobby(table: Table) -> None:
        if table.status != "lobby":
            raise BotError("already_started")

    @staticmethod
    def _check_seat(table: Table, seat: int) -> None:
        if not 0 <= seat < len(table.seats):
            raise BotError("no_such_seat", seat=seat, seats=len(table.seats))

    @staticmethod
    def _must_be_seated(table: Table, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise BotError("not_seated")
        return seat


def _away_event(seat: int) -> Event:
    return event("away", seat=seat)


def _hand_record(table: Table, ev: Event, last_trick_seat: int | None) -> HandRecord:
    result: HandResult = ev.get("result")
    game = table.game
    assert game is not None and table.match_id is not None
    phase = game.phase
    assert isinstance(phase, (HandOver, MatchOver))
    trump = phase.ctx.trump
    defenders = result.dealer % 2
    winner = {"defenders": defenders, "attackers": 1 - defenders}.get(result.side)
    return HandRecord(
        match_id=table.match_id, hand_no=game.hand_number, dealer=result.dealer,
        level=result.old_levels[0].label, trump=None if trump is None else trump.value,
        defenders_team=defenders, attacker_points=result.attacker_points,
        kitty_multiplier=result.multiplier,
        last_trick_team=defenders if result.last_trick_side == "defenders" else 1 - defenders,
        winner_team=winner, levels_gained=result.levels if winner is not None else 0,
        levels_before=_by_team(defenders, result.old_levels),
        levels_after=_by_team(defenders, result.new_levels),
        result={"lines": result.explain(), "side": result.side, "levels": result.levels,
                "kitty": format_cards(result.kitty), "kitty_points": result.kitty_points,
                "trick_points": result.trick_points, "next_dealer": result.next_dealer,
                "match_winner": result.winner_team},
        last_trick_seat=last_trick_seat)


def _by_team(defenders: int, pair: tuple[Rank, Rank]) -> list[str]:
    """(defenders, attackers) levels → levels indexed by team."""
    out = ["", ""]
    out[defenders], out[1 - defenders] = pair[0].label, pair[1].label
    return out
